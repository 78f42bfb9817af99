//! What a syntax error says was expected and found, in words: grammar rules
//! and the keywords and signs pest tried, grouped into phrases an organiser
//! reads ("an expression", "a step option"), and the token found instead.

use super::grammar::Rule;
use crate::diag::Span;

/// The keywords that start a top-level item.
pub(super) const TOP_LEVEL: &[&str] = &[
    "title",
    "source",
    "edition",
    "sport",
    "import",
    "param",
    "set",
    "metric",
    "criterion",
    "procedure",
    "standings",
    "reads",
    "table",
    "category",
    "editions",
    "modifier",
    "code",
    "codes",
    "qualifier",
];

/// Infix operators, as words and signs.
const OPERATORS: &[&str] = &[
    "??", "or", "and", "==", "!=", "<=", ">=", "<", ">", "in", "+", "-", "*", "/", "%",
];

/// What may start an expression (besides names and numbers).
const EXPRESSION_STARTS: &[&str] = &[
    "(", "[", "-", "not", "if", "true", "false", "infinity", "\"",
];

/// What may follow a step's value (besides its direction).
const STEP_OPTIONS: &[&str] = &["then", "when", "select", "as", "decimals", "cite", "places"];

/// A group of tokens said as one phrase: the tokens that show it is meant
/// (all present), every token it covers, and the phrase.
type Group = (
    &'static [&'static str],
    &'static [&'static str],
    &'static str,
);

const GROUPS: &[Group] = &[
    (
        &["metric", "procedure"],
        TOP_LEVEL,
        "a definition (`metric`, `criterion`, `procedure`, `param`, `import`, `standings`, ...)",
    ),
    (&["not", "if"], EXPRESSION_STARTS, "an expression"),
    (
        &["desc"],
        &["desc", "asc", "reversed"],
        "`desc`, `asc` or `reversed`",
    ),
    (
        &["when", "select"],
        STEP_OPTIONS,
        "a step option (`then`, `when`, `select`, `as`, `decimals`, `cite`, `places`)",
    ),
    (
        &["step", "}"],
        &["step", "otherwise", "}", "codes", "remaining"],
        "the next `step`, `otherwise` or `}`",
    ),
    (
        &["continue", "restart"],
        &["continue", "restart", "repeat", "size"],
        "`continue`, `restart`, `repeat`, a procedure name or `size N => ...`",
    ),
    (
        &["shared"],
        &["shared", "lots", "unresolved"],
        "`shared`, `lots` or `unresolved \"reason\"`",
    ),
    (
        &["higher"],
        &["higher", "lower"],
        "`higher is better` or `lower is better`",
    ),
    (&["+"], OPERATORS, "an operator"),
    (&["\""], &["\""], "a string in double quotes"),
    (&["."], &["."], "`.name`"),
];

/// Single signs in the order they are most likely meant.
const FIRST: &[&str] = &["=", "=>", ",", ")", "]", "}", ":"];

/// The tokens pest expected, in phrases: groups first, then single tokens,
/// then a name or a number where one may stand (`letters`, `digits`).
pub(super) fn token_phrases(tokens: &[String], letters: bool, digits: bool) -> Vec<String> {
    let has = |t: &str| tokens.iter().any(|x| x == t);
    let mut covered: Vec<&str> = Vec::new();
    let mut out: Vec<String> = Vec::new();
    let mut expression = false;
    for (shows, covers, phrase) in GROUPS {
        if shows.iter().all(|t| has(t) && !covered.contains(t)) {
            covered.extend(covers.iter());
            out.push(phrase.to_string());
            // A name is part of an expression, and a procedure name of a hand-off.
            expression |= shows.contains(&"not") || shows.contains(&"continue");
        }
    }
    // After a name that may go on as an expression, `(` would make it a
    // call: true, but not what is missing.
    if covered.contains(&"+") {
        covered.push("(");
    }
    let mut single: Vec<&String> = tokens
        .iter()
        .filter(|t| !covered.contains(&t.as_str()))
        .collect();
    single.sort_by_key(|t| (FIRST.iter().position(|f| f == t).unwrap_or(FIRST.len()), *t));
    single.dedup();
    let mut phrases: Vec<String> = single.iter().map(|t| format!("`{t}`")).collect();
    phrases.extend(out);
    if !expression {
        if letters {
            phrases.push("a name".into());
        } else if digits {
            phrases.push("a number".into());
        }
    }
    phrases
}

/// The rules pest expected, in phrases (rules with no phrase left out).
pub(super) fn rule_phrases(rules: &[Rule]) -> Vec<String> {
    let mut names: Vec<&str> = rules.iter().filter_map(phrase).collect();
    names.sort();
    names.dedup();
    names.into_iter().map(str::to_string).collect()
}

/// The phrases joined, or a plain word when there are none.
pub(super) fn expected_phrase(phrases: &[String]) -> String {
    if phrases.is_empty() {
        "valid ruleset syntax".to_string()
    } else {
        phrases.join(" or ")
    }
}

/// The token at `at`, and its text (None at the end of the file): a word,
/// a number, a string up to its line's end, or a sign of one or two
/// characters.
pub(super) fn found_token(text: &str, at: usize) -> (Span, Option<String>) {
    let rest = &text[at.min(text.len())..];
    let Some(c) = rest.chars().next() else {
        return (Span::new(text.len(), text.len()), None);
    };
    let len = if c.is_ascii_alphabetic() || c == '_' {
        rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len())
    } else if c.is_ascii_digit() {
        rest.find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len())
    } else if c == '"' {
        match rest[1..].find(['"', '\n']) {
            Some(i) if rest.as_bytes()[i + 1] == b'"' => i + 2,
            Some(i) => i + 1,
            None => rest.len(),
        }
    } else if ["==", "=>", "->", "!=", "<=", ">=", "??", "&&", "||"]
        .iter()
        .any(|s| rest.starts_with(s))
    {
        2
    } else {
        c.len_utf8()
    };
    let shown: String = rest[..len].trim_end().chars().take(20).collect();
    let shown = if shown.is_empty() {
        c.escape_default().to_string()
    } else {
        shown
    };
    (Span::new(at, at + len), Some(shown))
}

/// The keywords a grammar rule may start with (for a did-you-mean when
/// only the rules tried are known).
pub(super) fn rule_words(rule: &Rule) -> Vec<String> {
    let words: &[&str] = match rule {
        Rule::item | Rule::file => TOP_LEVEL,
        Rule::header | Rule::header_kind => &["title", "source", "edition"],
        Rule::direction => &["desc", "asc", "reversed"],
        Rule::end_kind => &["shared", "lots", "unresolved"],
        Rule::handoff | Rule::action => &["continue", "restart", "repeat", "size"],
        Rule::step => &["step"],
        Rule::end_clause => &["otherwise"],
        Rule::cite => &["cite"],
        Rule::better => &["higher", "lower"],
        // `kw_then` is the keyword `then`.
        _ => {
            let name = format!("{rule:?}");
            return name
                .strip_prefix("kw_")
                .map(str::to_string)
                .into_iter()
                .collect();
        }
    };
    words.iter().map(|w| w.to_string()).collect()
}

/// What a grammar rule is called in an error message.
fn phrase(rule: &Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "end of file",
        Rule::item | Rule::file => {
            "a definition (metric, criterion, procedure, param, import, standings, reads)"
        }
        Rule::header | Rule::header_kind => "`title`, `source` or `edition`",
        Rule::sport_decl | Rule::kw_sport => "`sport \"chess\"`",
        Rule::expr | Rule::postfixed | Rule::paren => "an expression",
        Rule::ident => "a name",
        Rule::string | Rule::string_inner => "a string in double quotes",
        Rule::number | Rule::integer => "a number",
        Rule::direction | Rule::kw_desc | Rule::kw_asc | Rule::kw_reversed => {
            "`desc`, `asc` or `reversed`"
        }
        Rule::better | Rule::kw_higher | Rule::kw_lower => {
            "`higher is better` or `lower is better`"
        }
        Rule::kw_is => "`is`",
        Rule::kw_better => "`better`",
        Rule::step | Rule::kw_step => "`step`",
        Rule::end_clause | Rule::kw_otherwise => "`otherwise`",
        Rule::end_kind => "`shared`, `lots` or `unresolved \"reason\"`",
        Rule::handoff | Rule::action => {
            "`continue`, `restart`, `repeat`, a procedure name or `size N => ...`"
        }
        Rule::for_clause | Rule::kw_for => "`for x in ...`",
        Rule::where_clause | Rule::kw_where => "`where`",
        Rule::kw_then => "`then`",
        Rule::kw_else => "`else`",
        Rule::kw_in => "`in`",
        Rule::call_args | Rule::more_args => "arguments",
        Rule::cite | Rule::kw_cite => "`cite \"...\"`",
        Rule::op_add
        | Rule::op_sub
        | Rule::op_mul
        | Rule::op_div
        | Rule::op_rem
        | Rule::op_and
        | Rule::op_or
        | Rule::op_eq
        | Rule::op_ne
        | Rule::op_lt
        | Rule::op_le
        | Rule::op_gt
        | Rule::op_ge
        | Rule::op_in
        | Rule::op_coalesce => "an operator",
        Rule::postfix => "`.name`",
        Rule::read_kind => "`round`, `participant` or `event`",
        Rule::field_name => "a data value's name",
        Rule::read_default | Rule::kw_default => "`default N`",
        Rule::read_number => "a number",
        _ => return None,
    })
}
