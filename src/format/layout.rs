//! The canonical layout of a token stream: each line's indentation, the
//! spaces between tokens, trailing comments' column and blank lines. The
//! author's line breaks are kept, so the output is a function of the
//! tokens and of where lines break, and formatting it again changes nothing.

use super::lex::{lex, Kind, Token};

/// Columns per level of indentation.
const INDENT: usize = 4;
/// Spaces between the longest line of a paragraph and its trailing
/// comments (what the shipped rulesets do where they align them).
const COMMENT_GAP: usize = 3;

/// The grammar's reserved words (`keyword` in `grammar/tb.pest`).
const RESERVED: &[&str] = &[
    "import",
    "param",
    "set",
    "metric",
    "criterion",
    "procedure",
    "standings",
    "step",
    "desc",
    "asc",
    "select",
    "when",
    "then",
    "else",
    "if",
    "for",
    "in",
    "where",
    "by",
    "voluntary",
    "and",
    "or",
    "not",
    "true",
    "false",
    "infinity",
    "cite",
    "otherwise",
    "shared",
    "lots",
    "unresolved",
    "continue",
    "restart",
    "repeat",
    "size",
    "decimals",
    "as",
    "title",
    "source",
    "edition",
];

/// Reserved words that end what they belong to: they can stand last in an
/// expression or a clause, as a name or a number can.
const FINAL_WORDS: &[&str] = &[
    "true", "false", "infinity", "shared", "lots", "continue", "restart", "repeat", "desc", "asc",
];

/// Does reserved word `w` begin a top-level item?
fn item_word(w: &str) -> bool {
    matches!(
        w,
        "title"
            | "source"
            | "edition"
            | "import"
            | "param"
            | "set"
            | "metric"
            | "criterion"
            | "procedure"
            | "standings"
    )
}

/// Words that begin a top-level item but are not reserved (they may be
/// names): an item only where the line before ended what it had begun.
const ITEM_NAMES: &[&str] = &[
    "sport",
    "reads",
    "table",
    "category",
    "editions",
    "modifier",
    "code",
    "codes",
    "qualifier",
];

/// Reserved words that end an expression: the clause that follows it.
const CLAUSE_WORDS: &[&str] = &[
    "cite",
    "for",
    "where",
    "by",
    "voluntary",
    "desc",
    "asc",
    "as",
    "when",
    "select",
    "decimals",
    "otherwise",
];

/// Words that end an expression where they follow its last operand, but
/// are not reserved.
const CLAUSE_NAMES: &[&str] = &["default", "excludes", "places", "reversed", "rerank"];

/// Is `t` a name or a reserved word (`then`, `and`), as opposed to a word
/// that only ever opens what follows it? `default` counts as a keyword:
/// `default -1` must keep its minus on the number.
fn keyword(t: &Token) -> bool {
    t.kind == Kind::Word && (RESERVED.contains(&t.text) || t.text == "default")
}

/// Can an operand, a clause or an item end with `t`? (A word that is not
/// a keyword, a number, a string, a closing bracket, or a final keyword.)
fn ends(t: &Token) -> bool {
    match t.kind {
        Kind::Number | Kind::Str | Kind::Close => true,
        Kind::Word => !keyword(t) || FINAL_WORDS.contains(&t.text),
        _ => false,
    }
}

/// One line of the input: its code tokens and its comment.
struct Line<'a> {
    code: Vec<Token<'a>>,
    comment: Option<&'a str>,
    /// At least one blank line before it in the input.
    blank_before: bool,
}

/// The tokens, line by line as the author broke them.
fn lines<'a>(tokens: &[Token<'a>]) -> Vec<Line<'a>> {
    let mut out: Vec<Line> = Vec::new();
    for t in tokens {
        let new_line = t.newlines > 0 || out.is_empty();
        if new_line {
            out.push(Line {
                code: Vec::new(),
                comment: None,
                blank_before: t.newlines > 1,
            });
        }
        let line = out.last_mut().expect("a line was just pushed");
        if t.kind == Kind::Comment {
            line.comment = Some(t.text);
        } else {
            line.code.push(*t);
        }
    }
    out
}

/// A bracket (or the statement itself, at the bottom of the stack): the
/// `if`s open in it and the branches whose lines are indented.
struct Nest {
    /// The line the bracket was opened on.
    line: usize,
    /// `if`s whose `else` has not come yet.
    ifs: usize,
    /// Branches in block form (`then` or `else` ending a line), each keyed
    /// by its `if`: `2k` for the `then` branch of the k-th open `if`,
    /// `2k - 1` for its `else` branch (which an `else` of an outer `if`
    /// ends, but not one of an `if` inside it).
    branches: Vec<usize>,
}

/// What a pair of braces holds.
#[derive(PartialEq)]
enum Braces {
    /// Statements: steps, procedures, `otherwise`.
    Body {
        /// A step (or a list of codes) came: a `then` that starts a line is
        /// a step's, not the procedure's default.
        seen_step: bool,
    },
    /// A list of entries (`editions`): each line is one.
    List,
}

/// The indentation as it goes, line by line.
struct Indenter<'a> {
    braces: Vec<Braces>,
    /// Open brackets; the statement at the bottom.
    nests: Vec<Nest>,
    /// The last code token before the current one.
    prev: Option<Token<'a>>,
    /// The first word of the current statement.
    statement: &'a str,
    /// The first word of the current top-level item.
    item: &'a str,
    /// The current top-level item has come to its `otherwise`.
    item_otherwise: bool,
}

impl<'a> Indenter<'a> {
    fn new() -> Self {
        Indenter {
            braces: Vec::new(),
            nests: vec![Nest {
                line: 0,
                ifs: 0,
                branches: Vec::new(),
            }],
            prev: None,
            statement: "",
            item: "",
            item_otherwise: false,
        }
    }

    /// Does a line whose first token is `first` begin a statement (an item,
    /// a step, an entry) rather than continue one?
    fn starts_statement(&self, first: &Token) -> bool {
        let Some(prev) = self.prev else {
            return true;
        };
        if first.kind != Kind::Word {
            return matches!(self.braces.last(), Some(Braces::List));
        }
        let w = first.text;
        match self.braces.last() {
            None if item_word(w) => {
                // `codes "..." source "..."`: a clause of the list of codes.
                !(w == "source" && self.item == "codes" && !self.item_otherwise)
            }
            None => ITEM_NAMES.contains(&w) && ends(&prev),
            Some(Braces::List) => true,
            Some(Braces::Body { seen_step }) => match w {
                "step" | "otherwise" | "procedure" => true,
                "codes" | "remaining" => ends(&prev) || prev.is("{"),
                "then" => !seen_step,
                _ => false,
            },
        }
    }

    /// The indentation of line `index`, whose code is `code`; the state
    /// then stands after the line.
    fn line(&mut self, index: usize, code: &[Token<'a>]) -> usize {
        let first = code[0];
        let mut start = false;
        if self.nests.len() == 1 {
            if first.is("}") {
                self.braces.pop();
                start = true;
            } else {
                start = self.starts_statement(&first);
            }
            if start {
                self.nests[0].ifs = 0;
                self.nests[0].branches.clear();
            }
            if start && !first.is("}") {
                self.statement = first.text;
                match self.braces.last_mut() {
                    None => {
                        self.item = first.text;
                        self.item_otherwise = false;
                    }
                    Some(Braces::Body { seen_step }) if first.text != "then" => *seen_step = true,
                    Some(_) => {}
                }
            }
        }
        let mut indent = None;
        for (j, t) in code.iter().enumerate() {
            if !(j == 0 && start && t.is("}")) {
                self.token(t, index, j + 1 == code.len(), start, &mut indent);
            }
            self.prev = Some(*t);
        }
        indent.unwrap_or_else(|| self.indent(start))
    }

    /// The indentation of a line in the current state.
    fn indent(&self, start: bool) -> usize {
        let depth = self.braces.len();
        if start {
            return INDENT * depth;
        }
        // One level per line that opened brackets still open, however many.
        let mut open_lines = 0;
        for (i, n) in self.nests.iter().enumerate().skip(1) {
            if i == 1 || n.line != self.nests[i - 1].line {
                open_lines += 1;
            }
        }
        let branches: usize = self.nests.iter().map(|n| n.branches.len()).sum();
        INDENT * (depth + 1 + open_lines + branches)
    }

    /// Take token `t` of line `index` into the state. A token that closes
    /// something (a bracket, a branch) at the start of a line does so before
    /// the line's indentation is fixed; any other fixes it first.
    fn token(
        &mut self,
        t: &Token<'a>,
        index: usize,
        last: bool,
        start: bool,
        indent: &mut Option<usize>,
    ) {
        let fix = |me: &Self, indent: &mut Option<usize>| {
            if indent.is_none() {
                *indent = Some(me.indent(start));
            }
        };
        let after_operand = self.prev.is_some_and(|p| ends(&p));
        let nest = self.nests.last_mut().expect("the statement's nest stays");
        match t.kind {
            Kind::Close if t.is("}") => {
                self.braces.pop();
            }
            Kind::Close => {
                if self.nests.len() > 1 {
                    self.nests.pop();
                }
            }
            Kind::Open => {
                fix(self, indent);
                if t.is("{") {
                    self.braces.push(if self.statement == "editions" {
                        Braces::List
                    } else {
                        Braces::Body { seen_step: false }
                    });
                } else {
                    self.nests.push(Nest {
                        line: index,
                        ifs: 0,
                        branches: Vec::new(),
                    });
                }
            }
            Kind::Word if t.text == "if" => {
                nest.ifs += 1;
                fix(self, indent);
            }
            Kind::Word if t.text == "then" && nest.ifs > 0 => {
                let key = 2 * nest.ifs;
                fix(self, indent);
                if last {
                    self.nests.last_mut().expect("nest").branches.push(key);
                }
            }
            Kind::Word if t.text == "else" && nest.ifs > 0 => {
                // Ends the `then` branch of its `if`, and every branch of
                // the `if`s inside it.
                let k = nest.ifs;
                nest.branches.retain(|&b| b < 2 * k);
                nest.ifs -= 1;
                fix(self, indent);
                if last {
                    self.nests
                        .last_mut()
                        .expect("nest")
                        .branches
                        .push(2 * k - 1);
                }
            }
            Kind::Word
                if CLAUSE_WORDS.contains(&t.text)
                    || t.text == "then"
                    || (CLAUSE_NAMES.contains(&t.text) && after_operand) =>
            {
                nest.branches.clear();
                if t.text == "otherwise" && self.braces.is_empty() {
                    self.item_otherwise = true;
                }
            }
            Kind::Punct if t.is(",") => nest.branches.clear(),
            _ => fix(self, indent),
        }
    }
}

/// Is a space written between `a` and `b` on one line? `a_unary`: `a` is
/// a minus sign before its operand; `tight`: `a` or `b` is the slash of a
/// fraction of two numbers (`1/2`).
fn space(a: &Token, b: &Token, a_unary: bool, tight: bool) -> bool {
    if a_unary {
        // `- -1`, not `--1`.
        return b.is("-");
    }
    if tight {
        return false;
    }
    if b.kind == Kind::Punct || b.is(")") || b.is("]") {
        return false;
    }
    if a.is("(") || a.is("[") || a.is(".") {
        return false;
    }
    if b.is("(") {
        // A call or a parameter list: `sum(`, `metric f(`; a keyword
        // before a bracket keeps its space: `not (`.
        return a.kind != Kind::Word || keyword(a);
    }
    true
}

/// The text in canonical layout (see the module documentation of
/// `format` for the rules).
pub fn layout(text: &str) -> String {
    let tokens = lex(text);
    let lines = lines(&tokens);

    // Minus signs before their operand, and slashes of fractions, over the
    // whole file: what precedes a line's first token is on the line before.
    let code: Vec<&Token> = lines.iter().flat_map(|l| l.code.iter()).collect();
    let mut unary = Vec::with_capacity(code.len());
    let mut tight = Vec::with_capacity(code.len());
    for (i, t) in code.iter().enumerate() {
        unary.push(t.is("-") && (i == 0 || !ends(code[i - 1])));
        tight.push(
            t.is("/")
                && i > 0
                && code[i - 1].kind == Kind::Number
                && code.get(i + 1).is_some_and(|n| n.kind == Kind::Number),
        );
    }

    // Each line's indentation and code text.
    let mut ind = Indenter::new();
    let mut indents: Vec<Option<usize>> = Vec::with_capacity(lines.len());
    let mut texts: Vec<String> = Vec::with_capacity(lines.len());
    let mut k = 0;
    for (i, line) in lines.iter().enumerate() {
        let mut s = String::new();
        for (j, t) in line.code.iter().enumerate() {
            if j > 0 && space(&line.code[j - 1], t, unary[k - 1], tight[k - 1] || tight[k]) {
                s.push(' ');
            }
            s.push_str(t.text);
            k += 1;
        }
        texts.push(s);
        indents.push((!line.code.is_empty()).then(|| ind.line(i, &line.code)));
    }
    // A comment on a line of its own is indented as the code after it; one
    // before a closing brace, as the lines inside the braces.
    let mut next = 0;
    for i in (0..lines.len()).rev() {
        match indents[i] {
            Some(n) if lines[i].code[0].is("}") => next = n + INDENT,
            Some(n) => next = n,
            None => indents[i] = Some(next),
        }
    }

    // Blank lines: one at most, none at the start, none just inside braces.
    let blank: Vec<bool> = (0..lines.len())
        .map(|i| {
            i > 0
                && lines[i].blank_before
                && !lines[i].code.first().is_some_and(|t| t.is("}"))
                && !lines[i - 1].code.last().is_some_and(|t| t.is("{"))
        })
        .collect();

    // Trailing comments of a paragraph (lines between blank lines) start
    // in one column.
    let width = |i: usize| indents[i].unwrap_or(0) + texts[i].chars().count();
    let mut column = vec![0; lines.len()];
    let mut p = 0;
    while p < lines.len() {
        let mut end = p + 1;
        while end < lines.len() && !blank[end] {
            end += 1;
        }
        let commented =
            (p..end).filter(|&i| !lines[i].code.is_empty() && lines[i].comment.is_some());
        let col = commented.map(width).max().unwrap_or(0) + COMMENT_GAP;
        column[p..end].fill(col);
        p = end;
    }

    let mut out = String::with_capacity(text.len());
    for (i, line) in lines.iter().enumerate() {
        if blank[i] {
            out.push('\n');
        }
        let indent = indents[i].unwrap_or(0);
        out.extend(std::iter::repeat_n(' ', indent));
        out.push_str(&texts[i]);
        if let Some(c) = line.comment {
            if !line.code.is_empty() {
                let pad = column[i] - width(i);
                out.extend(std::iter::repeat_n(' ', pad));
            }
            out.push_str(c);
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    /// `RESERVED` is the grammar's `keyword` rule, word for word: one
    /// definition, kept in step by this test.
    #[test]
    fn reserved_words_are_the_grammars() {
        let grammar = include_str!("../../grammar/tb.pest");
        let rule = grammar
            .lines()
            .find(|l| l.starts_with("keyword ="))
            .expect("the keyword rule");
        let mut words: Vec<&str> = rule.split('"').skip(1).step_by(2).collect();
        let mut ours = super::RESERVED.to_vec();
        words.sort_unstable();
        ours.sort_unstable();
        assert_eq!(ours, words);
    }
}
