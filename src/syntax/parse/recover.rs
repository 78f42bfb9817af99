//! After pest refuses a file: every syntax error in it, each at the token
//! that is wrong, said in an organiser's words (never a grammar rule's name).
//!
//! pest stops at the first error, so the file is parsed again from a point
//! past each error: the next line that starts a top-level item (a word at
//! the start of a line: every shipped ruleset starts its items so, and
//! nothing else), or, inside a procedure or code body, the next `step`,
//! `otherwise` or `}` line (the bad step is blanked out and the body parsed
//! again). One mistake gives one diagnostic: an error no further than the
//! one reported before it is its consequence, and is dropped. This runs only
//! after a parse failed: a valid file never comes here.

use super::grammar::{Rule, TbParser};
use super::phrases::{
    expected_phrase, found_token, rule_phrases, rule_words, token_phrases, TOP_LEVEL,
};
use crate::codes;
use crate::diag::{Diag, Source, Span};
use crate::text::{did_you_mean, edit_distance};
use pest::error::{Error, ErrorVariant, InputLocation};
use pest::Parser as _;
use std::sync::{Mutex, MutexGuard};

/// Most syntax errors reported for one file (as many as `tb check` shows):
/// past that, the first ones are enough to start fixing.
const MAX_SYNTAX_ERRORS: usize = 100;

/// The help of a message with nothing more specific to say.
const REFERENCE: &str = "see the language reference in the README for the form of each definition";

/// Every syntax error of a file pest refused, in source order.
pub(super) fn syntax_errors(src: &Source) -> Vec<Diag> {
    let _detail = Detail::on();
    let mut text = src.text.to_string();
    let mut errors: Vec<Diag> = Vec::new();
    let mut start = 0;
    let mut last: Option<usize> = None;
    // Each round either reports an error past the last one or moves `start`
    // on; the bound is a second guard against a loop.
    for _ in 0..MAX_SYNTAX_ERRORS * 4 {
        if errors.len() >= MAX_SYNTAX_ERRORS {
            break;
        }
        let e = match TbParser::parse(Rule::file, &text[start..]) {
            Ok(_) => break,
            Err(e) => e,
        };
        let f = Failure::new(&e, start, &text);
        let resume = match last {
            // A consequence of the mistake reported last (a blanked step
            // left its procedure wrong): go on at the next item.
            Some(l) if f.at <= l => next_item(&text, l).map(Resume::At),
            _ => {
                let (diag, resume) = describe(src, &text, start, &f);
                errors.push(diag);
                last = Some(f.at);
                resume
            }
        };
        match resume {
            Some(Resume::At(s)) if s > start => start = s,
            Some(Resume::Blank(a, b)) => blank(&mut text, a, b),
            _ => break,
        }
    }
    if errors.is_empty() {
        // pest refused the text once and accepted it now: cannot happen,
        // but a refused file must never pass for a valid one.
        errors.push(Diag::error(codes::PARSE_SYNTAX, "the file could not be read").in_source(src));
    }
    errors
}

/// pest collects the tokens it expected at the furthest position it
/// reached only when its process-wide error detail is on, which costs time
/// on every parse: it is on only while a refused file is parsed again. The
/// lock keeps it on for every recovering parse when several threads recover
/// at once; other parses meanwhile run a little slower, with the same result.
struct Detail(#[allow(dead_code)] MutexGuard<'static, ()>);

static DETAIL: Mutex<()> = Mutex::new(());

impl Detail {
    fn on() -> Detail {
        let guard = DETAIL.lock().unwrap_or_else(|p| p.into_inner());
        pest::set_error_detail(true);
        Detail(guard)
    }
}

impl Drop for Detail {
    fn drop(&mut self) {
        pest::set_error_detail(false);
    }
}

/// Where to parse again after an error.
enum Resume {
    /// From this offset (the start of an item).
    At(usize),
    /// From the same start, with this range of a body blanked out.
    Blank(usize, usize),
}

/// What pest says went wrong, in offsets of the whole file.
struct Failure {
    /// Where: the furthest position pest reached.
    at: usize,
    /// The keywords and punctuation it expected there.
    tokens: Vec<String>,
    /// What may stand there, in words.
    expected: Vec<String>,
}

impl Failure {
    fn new(e: &Error<Rule>, start: usize, text: &str) -> Failure {
        let rule_at = start
            + match e.location {
                InputLocation::Pos(p) => p,
                InputLocation::Span((a, _)) => a,
            };
        let (positives, rules) = match &e.variant {
            ErrorVariant::ParsingError { positives, .. } => {
                (&positives[..], rule_phrases(positives))
            }
            ErrorVariant::CustomError { message } => (&[][..], vec![message.clone()]),
        };
        let mut tokens = Vec::new();
        let (mut letters, mut digits) = (false, false);
        let mut token_at = rule_at;
        if let Some(a) = e.parse_attempts() {
            token_at = start + a.max_position;
            let continues = text[..token_at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
            // pest does not export its token type: its text tells a
            // character range (`a..z`) from a literal (`desc`, `}`).
            for t in a.expected_tokens() {
                let t = t.to_string();
                match t.as_str() {
                    // Blanks and comments may stand anywhere.
                    " " | "\t" | "\r" | "\n" | "//" => {}
                    "_" => letters = true,
                    // Right after a word or a number, a range is the
                    // word going on, not a name that may stand here.
                    r if r.len() == 4 && &r[1..3] == ".." && continues => {}
                    r if r.len() == 4 && &r[1..3] == ".." => {
                        if r.starts_with('0') {
                            digits = true
                        } else {
                            letters = true
                        }
                    }
                    _ => tokens.push(t),
                }
            }
        }
        // The tokens say more than the rules when there are some (a name
        // or a number alone is what the rules say better); they may come
        // from inside a `!keyword` look-ahead, with no keyword or sign.
        // A keyword that begins a longer word (`as` in `asec`) takes pest
        // past the word's start: what it expected there is lost.
        let word_char = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        let mid_word = word_char(text[..token_at.min(text.len())].chars().next_back())
            && word_char(text.get(token_at..).and_then(|t| t.chars().next()))
            && token_at > rule_at;
        if tokens.is_empty() || token_at < rule_at || mid_word {
            return Failure {
                at: rule_at,
                tokens: positives
                    .iter()
                    .flat_map(rule_words)
                    .map(|w| w.to_string())
                    .collect(),
                expected: rules,
            };
        }
        // The rules tried there say the same as the tokens, less exactly.
        let expected = token_phrases(&tokens, letters, digits);
        Failure {
            at: token_at,
            tokens,
            expected,
        }
    }

    fn expects(&self, token: &str) -> bool {
        self.tokens.iter().any(|t| t == token)
    }
}

/// Words organisers write for a step's direction.
const DIRECTION_WORDS: &[&str] = &[
    "higher",
    "lower",
    "highest",
    "lowest",
    "high",
    "low",
    "descending",
    "ascending",
    "decreasing",
    "increasing",
];

/// The diagnostic for one failure, and where to parse again.
fn describe(src: &Source, text: &str, start: usize, f: &Failure) -> (Diag, Option<Resume>) {
    let at = f.at.min(text.len());
    let (tok, found) = found_token(&src.text, at);
    let word = found
        .as_deref()
        .filter(|w| w.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'));
    let expected = expected_phrase(&f.expected);
    let syntax = |message: String| Diag::error(codes::PARSE_SYNTAX, message);

    // A string runs to the end of its line without its closing quote.
    if f.tokens == ["\""] && matches!(text.as_bytes().get(at), None | Some(b'\n' | b'\r')) {
        let line = line_start(text, at);
        let open = text[line..at].rfind('"').map_or(at, |q| line + q);
        let d = syntax("this string is not closed before the end of its line".into())
            .at(src, Span::new(open, at), "not closed")
            .with_help("end it with `\"` on the same line (a string cannot span lines; `\\n` stands for a line break)");
        // A string meant to span lines closes on the next one: not an item.
        let next_line = text[at..].find('\n').map_or(text.len(), |i| at + i + 1);
        let closes = text[next_line..]
            .lines()
            .next()
            .is_some_and(|l| l.matches('"').count() % 2 == 1);
        let after = if closes { next_line } else { at };
        return (d, next_item(text, after).map(Resume::At));
    }
    // A body ends where the next item starts, or at the end of the file.
    if f.expects("}") && (at == text.len() || is_item_line(text, at)) {
        if let Some(open) = unclosed_brace(text, start, at) {
            let line = line_start(text, open);
            let owner = text[line..open].trim();
            let owner: String = owner.chars().take(40).collect();
            let (l, _) = src.line_col(open);
            let before = match found {
                Some(w) => format!("before `{w}` on line {}", src.line_col(at).0),
                None => "at the end of the file".to_string(),
            };
            let d = syntax(format!(
                "`{owner}` (line {l}) is not closed: its `}}` is missing"
            ))
            .at(src, Span::new(open, open + 1), "opened here, never closed")
            .with_help(format!("add `}}` after its last line, {before}"));
            let resume = if is_keyword_item(text, at) {
                Some(Resume::At(at))
            } else {
                next_item(text, at).map(Resume::At)
            };
            return (d, resume);
        }
    }
    let resume = resume_after(text, start, at);
    if found.as_deref() == Some("=") && f.expects("==") {
        let d = syntax("`=` gives a definition its value; to compare, write `==`".into())
            .at(src, tok, "write `==` here")
            .with_help("`a == b` is true when a equals b; `a != b` when it does not");
        return (d, resume);
    }
    if found.as_deref() == Some("==") && !f.expects("==") && !f.expects("+") {
        let d = syntax("`==` compares two values; a definition gives its value after `=`".into())
            .at(src, tok, "write `=` here")
            .with_help("write e.g. `metric share = score / event.rounds`");
        return (d, resume);
    }
    if let Some(w) = word {
        let words = f
            .tokens
            .iter()
            .map(String::as_str)
            .filter(|t| t.chars().all(|c| c.is_ascii_lowercase()));
        // Among equally near keywords, one with the same first letter
        // (`dsc` is `desc`, not `asc`).
        let same_start = words.clone().filter(|k| k.as_bytes()[0] == w.as_bytes()[0]);
        // Another first letter: only one edit away (`asec`), else a word
        // such as `first` would be "`worst`".
        let near = || did_you_mean(w, words).filter(|k| edit_distance(w, k) <= 1);
        if let Some(k) = did_you_mean(w, same_start).or_else(near) {
            let d = syntax(format!("unknown word `{w}`: did you mean `{k}`?"))
                .at(src, tok, format!("did you mean `{k}`?"))
                .with_help(format!("here tb expects {expected}"));
            return (d, resume);
        }
        if f.expects("desc") && DIRECTION_WORDS.contains(&w) {
            let d = syntax(format!("`{w}` is not a step's direction"))
                .at(src, tok, "write `desc`, `asc` or `reversed`")
                .with_help(
                    "after a step's value write `desc` (higher is better), `asc` (lower is \
                     better) or `reversed`; `higher is better` and `lower is better` are said \
                     where a metric is defined (`metric m \"M\" higher is better = ...`)",
                );
            return (d, resume);
        }
        if w == "size" && f.expects("then") {
            let d = syntax("a hand-off by group size starts with `then`".into())
                .at(src, tok, "write `then size ...`")
                .with_help("write e.g. `then size 2 => q, else continue`");
            return (d, resume);
        }
    }
    let help = if found.as_deref() == Some(",") && f.expects("then") {
        "a `,` in a hand-off separates `size N => ...` cases: `then size 2 => q, else continue`"
    } else if f.expects(",") && f.expects(")") && found.is_some() {
        "separate the arguments of a call with `,`"
    } else if f.expects("=")
        && matches!(
            first_word(text, line_start(text, at)),
            "metric" | "criterion"
        )
    {
        "a definition gives its value after `=`: `metric name = value` (a label in quotes and \
         `higher is better` or `lower is better` may come before the `=`)"
    } else if f.expects("=") {
        "give the value after `=`, e.g. `param k = 0.5`"
    } else {
        REFERENCE
    };
    // An item or a step left unfinished at the end of its line: pest saw
    // the next line's first word, but the place to write is after this one.
    let good = last_good_end(text, at);
    let first_on_line = text[line_start(text, at)..at].trim().is_empty();
    let unfinished = text[good..at].contains('\n')
        && (at == text.len()
            || (first_on_line
                && (is_keyword_item(text, at) || is_step_line(text, line_start(text, at)))));
    let d = if unfinished {
        let from = text[..good]
            .rfind(|c: char| c.is_whitespace())
            .map_or(0, |i| i + 1);
        let last: String = text[from..good].chars().take(20).collect();
        syntax(format!("expected {expected} after `{last}`")).at(
            src,
            Span::new(from, good),
            format!("expected {expected} after this"),
        )
    } else {
        let found = found.map_or("the end of the file".to_string(), |w| format!("`{w}`"));
        syntax(format!("expected {expected}, found {found}")).at(
            src,
            tok,
            format!("expected {expected}"),
        )
    };
    (d.with_help(help), resume)
}

/// Where to parse again after an error at `at` (not a missing `}`).
fn resume_after(text: &str, start: usize, at: usize) -> Option<Resume> {
    // The item before this one was unfinished; this one may be fine.
    if at > start && is_keyword_item(text, at) {
        return Some(Resume::At(at));
    }
    if let Some((a, b)) = body_region(text, start, at) {
        return Some(Resume::Blank(a, b));
    }
    next_item(text, at).map(Resume::At)
}

/// The lines of a procedure or code body to blank out for an error at
/// `at`: from the start of the step it is in to the next `step`,
/// `otherwise` or `}` line. None outside a body, or when the body has no
/// such line after the error (then parsing goes on at the next item).
fn body_region(text: &str, start: usize, at: usize) -> Option<(usize, usize)> {
    let open = unclosed_brace(text, start, at)?;
    let err_line = line_start(text, at);
    let first = text[open..].find('\n').map(|i| open + i + 1)?;
    if err_line < first || is_item_line(text, err_line) {
        return None;
    }
    // An error at a step line's first word: the step before it is unfinished.
    let at_first_word = text[err_line..at].trim().is_empty();
    let mut from = first;
    let mut l = first;
    while l < text.len() && !is_item_line(text, l) {
        let step = is_step_line(text, l);
        if l < err_line || (l == err_line && !at_first_word) {
            if step {
                from = l;
            }
        } else if step {
            return Some((from, l));
        }
        l = match text[l..].find('\n') {
            Some(i) => l + i + 1,
            None => break,
        };
    }
    None
}

/// Replace `text[a..b]` by blanks of the same length, keeping line breaks.
fn blank(text: &mut String, a: usize, b: usize) {
    let blanks: String = text[a..b]
        .chars()
        .map(|c| {
            if c == '\n' {
                "\n".to_string()
            } else {
                " ".repeat(c.len_utf8())
            }
        })
        .collect();
    text.replace_range(a..b, &blanks);
}

/// The innermost `{` in `text[from..to]` not closed before `to`
/// (strings and comments skipped).
fn unclosed_brace(text: &str, from: usize, to: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut open = Vec::new();
    let (mut in_str, mut in_comment) = (false, false);
    let mut i = from;
    while i < to.min(bytes.len()) {
        let c = bytes[i];
        if in_comment {
            in_comment = c != b'\n';
        } else if in_str {
            match c {
                b'\\' => i += 1,
                b'"' | b'\n' => in_str = false,
                _ => {}
            }
        } else {
            match c {
                b'"' => in_str = true,
                b'/' if bytes.get(i + 1) == Some(&b'/') => in_comment = true,
                b'{' => open.push(i),
                b'}' => {
                    open.pop();
                }
                _ => {}
            }
        }
        i += 1;
    }
    open.pop()
}

/// The end of the last token before `at`: blanks and comments skipped.
fn last_good_end(text: &str, at: usize) -> usize {
    let mut i = at;
    loop {
        i = text[..i].trim_end().len();
        let line = line_start(text, i);
        match comment_start(&text[line..i]) {
            Some(c) => i = line + c,
            None => return i,
        }
    }
}

/// Where a `//` comment starts in one line, outside strings.
fn comment_start(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut in_str = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if in_str => i += 1,
            b'"' => in_str = !in_str,
            b'/' if !in_str && bytes.get(i + 1) == Some(&b'/') => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

fn line_start(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].rfind('\n').map_or(0, |i| i + 1)
}

/// The first word of the line starting at `l`, after its indentation.
fn first_word(text: &str, l: usize) -> &str {
    let rest = text[l..].trim_start_matches([' ', '\t']);
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    &rest[..end]
}

/// Whether `at` starts a line with a word at its first column: where
/// every item starts (and nothing else does, in any shipped ruleset).
fn is_item_line(text: &str, at: usize) -> bool {
    (at == 0 || text.as_bytes().get(at - 1) == Some(&b'\n'))
        && text.as_bytes().get(at).is_some_and(u8::is_ascii_alphabetic)
}

/// Whether `at` starts a line with the keyword of a top-level item.
fn is_keyword_item(text: &str, at: usize) -> bool {
    is_item_line(text, at) && TOP_LEVEL.contains(&first_word(text, at))
}

/// Whether the line starting at `l` starts a part of a body: a step, the
/// `otherwise` line, codes, a code's procedure, or the closing `}`.
/// A misspelt one (`otherwize`) starts one too: the mistake is that line.
fn is_step_line(text: &str, l: usize) -> bool {
    const STARTS: [&str; 5] = ["step", "otherwise", "codes", "remaining", "procedure"];
    let rest = text[l..].trim_start_matches([' ', '\t']);
    let word = first_word(text, l);
    rest.starts_with('}')
        || STARTS.contains(&word)
        || did_you_mean(word, STARTS.into_iter()).is_some()
}

/// The start of the next item line after `after`.
fn next_item(text: &str, after: usize) -> Option<usize> {
    let mut l = after;
    loop {
        l += text.get(l..)?.find('\n')? + 1;
        if is_item_line(text, l) {
            return Some(l);
        }
    }
}
