//! The syntax stage, rule by rule: for every rule of `grammar/tb.pest`, a
//! ruleset text it accepts and one it rejects, with the error code and the
//! text the error's span points at.
//!
//! The rule names are read from the grammar file, so a rule added to the
//! grammar without a row here fails `every_grammar_rule_has_a_row`, which
//! names it: add a row to [`ROWS`]. Keywords (`kw_*`) need no row of their
//! own; each must appear in some accepted text instead.
//!
//! Texts go through the library's parser (`tb::syntax::parse::parse`), the
//! only parse the rest of `tb` sees. An accepted text must also contain the
//! rule it stands for: a parser derived here from the same grammar file
//! shows which rules matched (silent `_{ }` rules leave no trace and are
//! taken on trust).

use std::collections::BTreeSet;
use tb::diag::Source;

/// The same grammar as `src/syntax/parse.rs`, compiled here only to see
/// which rules an accepted text goes through.
mod grammar {
    #![allow(missing_docs)]
    #[derive(pest_derive::Parser)]
    #[grammar = "../grammar/tb.pest"]
    pub struct Grammar;
}

const SYNTAX: &str = "tb::parse::syntax";

/// Rules with no row: helpers that only make up other rules.
const EXEMPT: &[&str] = &[
    // Characters that continue a name: part of every name and keyword.
    "ident_char",
];

/// One row: `(rule, accepted text, rejected text, error code, the text the
/// error's span points at)`. An empty span text means the end of the file.
type Row = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
);

#[rustfmt::skip]
const ROWS: &[Row] = &[
    // rule              accepts                                            rejects                                       code                        span
    ("WHITESPACE",       "metric\tm =\r\n 1",                               "metric\u{a0}m = 1",                          SYNTAX,                     "\u{a0}"),
    ("COMMENT",          "// note\nmetric m = 1 // more",                   "# note\nmetric m = 1",                       SYNTAX,                     "#"),
    ("file",             "",                                                "metric m = 1 }",                             SYNTAX,                     "}"),
    ("item",             "standings p",                                     "step score desc",                            SYNTAX,                     "step"),
    ("header",           "title \"Club\"",                                  "title Club",                                 SYNTAX,                     "Club"),
    ("header_kind",      "source \"Rules\"\nedition \"2025\"",              "author \"Ann\"",                             SYNTAX,                     "author"),
    ("sport_decl",       "sport \"chess\"",                                 "sport chess",                                SYNTAX,                     "chess"),
    ("import",           "import \"fide/lib\"",                             "import fide/lib",                            SYNTAX,                     "fide"),
    ("param",            "param k = 0.5",                                   "param k 0.5",                                SYNTAX,                     "0.5"),
    ("set",              "set k = -1",                                      "set = 1",                                    SYNTAX,                     "="),
    ("metric",           "metric m \"M\" higher is better = 1 cite \"1\"",  "metric m",                                   SYNTAX,                     ""),
    ("criterion",        "criterion c = count(group)",                      "criterion = 1",                              SYNTAX,                     "="),
    ("better",           "metric m lower is better = 1",                    "metric m lower is worse = 1",                SYNTAX,                     "worse"),
    ("param_list",       "metric f(a, b) = a + b",                          "metric f(a,) = a",                           SYNTAX,                     ")"),
    ("procedure",        "procedure p cite \"1\" { step 1 desc }",          "procedure p step 1 desc",                    SYNTAX,                     "step"),
    ("default_then",     "procedure p { then restart step 1 desc }",        "procedure p { then step 1 desc }",           SYNTAX,                     "step"),
    ("step",             "procedure p { step score desc }",                 "procedure p { step desc }",                  SYNTAX,                     "desc"),
    ("direction",        "procedure p { step 1 asc step 2 reversed }",      "procedure p { step 1 dsc }",                 SYNTAX,                     "dsc"),
    ("step_option",      "procedure p { step 1 desc as \"A\" decimals 2 }", "procedure p { step 1 desc as }",             SYNTAX,                     "}"),
    ("select",           "procedure p { step 1 desc select best step 2 desc select worst }",      "procedure p { step 1 desc select first }",   SYNTAX,                     "first"),
    ("when",             "procedure p { step 1 desc when true }",           "procedure p { step 1 desc when }",           SYNTAX,                     "}"),
    ("then",             "procedure p { step 1 desc then repeat }",         "procedure p { step 1 desc then }",           SYNTAX,                     "}"),
    ("handoff",          "procedure p { step 1 desc then size 2 => q, else continue }", "procedure p { step 1 desc then size 2 => q, }", SYNTAX,  "}"),
    ("size_case",        "procedure p { step 1 desc then size 2 => q }",    "procedure p { step 1 desc then size two => q }", SYNTAX,                 "two"),
    ("else_case",        "procedure p { step 1 desc then size 2 => q, else restart }", "procedure p { step 1 desc then size 2 => q, else }", SYNTAX, "}"),
    ("action",           "procedure p { step 1 desc then q }",              "procedure p { step 1 desc then 2 }",         SYNTAX,                     "2"),
    ("label",            "procedure p { step 1 desc as \"One\" }",          "procedure p { step 1 desc as One }",         SYNTAX,                     "One"),
    ("decimals",         "procedure p { step 1 desc decimals 12 }",         "procedure p { step 1 desc decimals 13 }",    "tb::parse::bad_decimals",  "13"),
    ("cite",             "procedure p { step 1 desc cite \"Art. 1\" }",     "procedure p { step 1 desc cite Art }",       SYNTAX,                     "Art"),
    ("end_clause",       "procedure p { step 1 desc otherwise lots }",      "procedure p { otherwise }",                  SYNTAX,                     "}"),
    ("end_kind",         "procedure p { otherwise unresolved \"why\" } procedure q { otherwise shared }", "procedure p { otherwise unresolved }",       SYNTAX,                     "}"),
    ("standings",        "standings p",                                     "standings \"p\"",                            SYNTAX,                     "\"p\""),
    ("reads",            "reads round imps cite \"2\"",                     "reads imps",                                 SYNTAX,                     "imps"),
    ("read_kind",        "reads participant carryover",                     "reads game imps",                            SYNTAX,                     "game"),
    ("read_default",     "reads event n default 0",                         "reads event n default",                      SYNTAX,                     ""),
    ("read_number",      "reads event n default -1.5",                      "reads event n default 1.",                   SYNTAX,                     "."),
    ("table",            "table dp \"dp.txt\" cite \"8.1\"",                 "table dp dp.txt",                            SYNTAX,                     "dp"),
    ("category",         "category \"U1600\" = rating < 1600 or not rated cite \"3\"", "category U1600 = rating < 1600",     SYNTAX,                     "U1600"),
    ("category_rerank",  "category \"W\" = sex == \"w\" rerank by p",     "category \"W\" = sex == \"w\" rerank by", SYNTAX,                "" ),
    // Expressions.
    ("expr",             "metric m = -1 + 2 * 3",                           "metric m = 1 +",                             SYNTAX,                     ""),
    ("postfixed",        "metric m = me.score",                             "metric m = me.",                             SYNTAX,                     ""),
    ("prefix",           "metric m = not - 1",                              "metric m = 1 not",                           SYNTAX,                     "not"),
    ("op_not",           "metric m = not true",                             "metric m = not",                             SYNTAX,                     ""),
    ("op_neg",           "metric m = -score",                               "metric m = -",                               SYNTAX,                     ""),
    ("postfix",          "metric m = r.opponent.f(1)",                      "metric m = r.1",                             SYNTAX,                     "1"),
    ("field_name",       "metric m = r.voluntary",                          "metric m = r.\"x\"",                         SYNTAX,                     "\"x\""),
    ("infix",            "metric m = 1 + 2",                                "metric m = 1 2",                             SYNTAX,                     "2"),
    ("op_coalesce",      "metric m = a ?? 0",                               "metric m = a ?? ?? 0",                       SYNTAX,                     "??"),
    ("op_or",            "metric m = a or b",                               "metric m = a or",                            SYNTAX,                     ""),
    ("op_and",           "metric m = a and b",                              "metric m = a and",                           SYNTAX,                     ""),
    ("op_eq",            "metric m = a == b",                               "metric m = a === b",                         SYNTAX,                     "="),
    ("op_ne",            "metric m = a != b",                               "metric m = a !== b",                         SYNTAX,                     "="),
    ("op_le",            "metric m = a <= b",                               "metric m = a <== b",                         SYNTAX,                     "="),
    ("op_ge",            "metric m = a >= b",                               "metric m = a >== b",                         SYNTAX,                     "="),
    ("op_lt",            "metric m = a < b",                                "metric m = a < < b",                         SYNTAX,                     "<"),
    ("op_gt",            "metric m = a > b",                                "metric m = a > > b",                         SYNTAX,                     ">"),
    ("op_in",            "metric m = a in group",                           "metric m = a in",                            SYNTAX,                     ""),
    ("op_add",           "metric m = a + b",                                "metric m = a + + b",                         SYNTAX,                     "+"),
    ("op_sub",           "metric m = a - b",                                "metric m = a -",                             SYNTAX,                     ""),
    ("op_mul",           "metric m = a * b",                                "metric m = a * * b",                         SYNTAX,                     "*"),
    ("op_div",           "metric m = a / b",                                "metric m = a / / b",                         SYNTAX,                     "/"),
    ("op_rem",           "metric m = a % b",                                "metric m = a % % b",                         SYNTAX,                     "%"),
    ("primary",          "metric m = (1)",                                  "metric m = ]",                               SYNTAX,                     "]"),
    ("paren",            "metric m = (1 + 2) * 3",                          "metric m = (1 + 2",                          SYNTAX,                     ""),
    ("if_expr",          "metric m = if a then 1 else 2",                   "metric m = if a then 1",                     SYNTAX,                     ""),
    ("call",             "metric m = max(1, 2)",                            "metric m = max(1, 2",                        SYNTAX,                     ""),
    ("generator_rest",   "metric m = sum(r.points for r in rounds where r.played)", "metric m = sum(r.points for r)",  SYNTAX,                     ")"),
    ("more_args",        "metric m = f(1, 2, c: 3)",                        "metric m = f(1, , 2)",                       SYNTAX,                     ","),
    ("arg",              "metric m = f(a: 1, 2)",                           "metric m = f(1, :)",                         SYNTAX,                     ":"),
    ("places",           "procedure p { step 1 desc places }",              "procedure p { step 1 desc places(1) }",      SYNTAX,                     "("),
    ("editions",         "editions e \"E\" { 2024, 2026 from \"2026-03-01\" }", "editions e { 2024 }",                 SYNTAX,                     "{"),
    ("edition_entry",    "editions e \"E\" { 2024 from \"2024-01-01\" }",   "editions e \"E\" { 2024 from 2024 }",      SYNTAX,                     "2024"),
    ("codes_ref",        "procedure p { codes \"DE,BH/C1\" }",              "procedure p { codes DE }",                   SYNTAX,                     "DE"),
    ("remaining",        "code \"E\" { step 1 desc procedure q { remaining codes } }", "procedure p { remaining }",     SYNTAX,                     "}"),
    ("modifier",         "modifier \"C\" whole cut where value >= 1 cite \"14\"", "modifier C cut",                   SYNTAX,                     "C"),
    ("mod_form",         "modifier \"L\" signed decimal limit = value",     "modifier \"L\" signed limit",                SYNTAX,                     "limit"),
    ("mod_where",        "modifier \"C\" whole cut where value <= 99",      "modifier \"C\" whole cut where",             SYNTAX,                     ""),
    ("mod_default",      "modifier \"L\" whole k = value default 50",       "modifier \"L\" whole k default",             SYNTAX,                     ""),
    ("mod_excludes",     "modifier \"M\" whole median excludes \"C\"",      "modifier \"M\" whole median excludes C",     SYNTAX,                     "C"),
    ("code",             "code \"BH\" takes \"C\" { step sum(cut_lowest(opponent_scores, cut)) desc }", "code BH { step 1 desc }", SYNTAX,         "BH"),
    ("code_takes",       "code \"X\" takes \"C\", \"P\" { step 1 desc }",   "code \"X\" takes C { step 1 desc }",         SYNTAX,                     "C"),
    ("code_since",       "code \"STD\" since 2026 { step 1 desc }",         "code \"STD\" since \"2026\" { step 1 desc }", SYNTAX,                    "\"2026\""),
    ("code_with",        "code \"E\" with by_count = false { step 1 desc }", "code \"E\" with by_count { step 1 desc }",  SYNTAX,                     "{"),
    ("code_body",        "code \"E\" { step 1 desc procedure q { step 2 desc } }", "code \"E\" { }",                      SYNTAX,                     "}"),
    ("code_means",       "code \"GE\" means \"REP\"",                       "code \"GE\" means REP",                      SYNTAX,                     "REP"),
    ("binding",          "code \"EDEC\" means \"EDE\" with by_count = true", "code \"EDEC\" means \"EDE\" with = true",   SYNTAX,                     "="),
    ("qualifier",        "qualifier \"MP\" cite \"Art. 13\"",               "qualifier MP",                               SYNTAX,                     "MP"),
    ("code_list",        "codes \"Tie-breaks\" otherwise lots",             "codes \"Tie-breaks\"",                       SYNTAX,                     ""),
    ("list_default",     "codes \"T\" default otherwise lots",             "codes \"T\" default default otherwise lots", SYNTAX,                   "default"),
    ("list_source",      "codes \"T\" source \"Rules\" otherwise shared",   "codes \"T\" source otherwise shared",        SYNTAX,                     "otherwise"),
    ("list_primary",     "codes \"T\" primary \"PTS\", \"MP\" otherwise lots", "codes \"T\" primary PTS otherwise lots",  SYNTAX,                     "PTS"),
    ("list_newer",       "codes \"T\" newer cite \"4.1\" otherwise lots",   "codes \"T\" newer \"4.1\" otherwise lots",   SYNTAX,                     "\"4.1\""),
    ("named_arg",        "metric m = f(fore: true)",                        "metric m = f(fore: )",                       SYNTAX,                     ")"),
    ("for_clause",       "metric m = sum(1 for r in rounds for s in rounds)", "metric m = sum(1 for in rounds)",     SYNTAX,                     "in"),
    ("where_clause",     "metric m = count(r in rounds where r.played)",    "metric m = count(r in rounds where)",        SYNTAX,                     ")"),
    ("list_comp",        "metric m = [r.points for r in rounds]",           "metric m = [r.points]",                      SYNTAX,                     "]"),
    ("by_clause",        "metric m = [r.points for r in rounds by r.round]", "metric m = [r.points for r in rounds by]",  SYNTAX,                     "]"),
    ("voluntary_clause", "metric m = [1 for r in rounds voluntary r.unplayed]", "metric m = [1 for r in rounds voluntary]", SYNTAX,            "]"),
    ("call_args",        "metric m = r.f(1, b: 2)",                         "metric m = r.f(1 2)",                        SYNTAX,                     "2"),
    ("number",           "metric m = 0.25",                                 "metric m = 123456789012345678901234567890",  "tb::parse::bad_number",    "123456789012345678901234567890"),
    ("integer",          "procedure p { step 1 desc then size 3 => q }",    "procedure p { step 1 desc then size 2.5 => q }", SYNTAX,                 "."),
    ("string",           "title \"a \\\"quoted\\\" word\"",                 "title \"unclosed\nmetric m = 1",             SYNTAX,                     "\"unclosed"),
    ("string_inner",     "title \"§7 — ½\"",                                "title \"two\nlines\"",                       SYNTAX,                     "\"two"),
    ("boolean",          "metric m = if true or false then 1 else 0",       "metric m = if True2 then 1 else 0 }",        SYNTAX,                     "}"),
    // `metric infinity = 1` is accepted today: in `keyword`, "in" matches
    // first and its `!ident_char` then fails the whole choice, so the name
    // `infinity` is not reserved.
    ("infinity",         "metric m = infinity",                             "metric m = infinity infinity",               SYNTAX,                     "infinity"),
    ("arrow",            "procedure p { step 1 desc then size 2 => q }",    "procedure p { step 1 desc then size 2 -> q }", SYNTAX,                   "->"),
    ("assign",           "metric m = 1",                                    "metric m == 1",                              SYNTAX,                     "=="),
    ("ident",            "metric _m2 = 1",                                  "metric 2m = 1",                              SYNTAX,                     "2"),
    ("keyword",          "metric steps = 1",                                "metric step = 1",                            SYNTAX,                     "step"),
];

/// Every rule defined in the grammar file, in order: the name before
/// `= {`, `= _{`, `= @{` or `= ${` at the start of a line.
fn grammar_rules() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/grammar/tb.pest");
    let text = std::fs::read_to_string(path).expect("read grammar/tb.pest");
    let mut rules = Vec::new();
    for line in text.lines() {
        let Some((name, rest)) = line.split_once('=') else {
            continue;
        };
        let name = name.trim();
        let body = rest.trim_start();
        let is_rule = ["{", "_{", "@{", "${", "!{"]
            .iter()
            .any(|o| body.starts_with(o));
        if is_rule
            && !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            rules.push(name.to_string());
        }
    }
    rules
}

fn is_keyword_rule(rule: &str) -> bool {
    rule.starts_with("kw_")
}

#[test]
fn every_grammar_rule_has_a_row() {
    let rules = grammar_rules();
    assert!(
        rules.len() > 50,
        "read only {} rules from grammar/tb.pest",
        rules.len()
    );
    let rows: BTreeSet<&str> = ROWS.iter().map(|r| r.0).collect();
    let missing: Vec<&String> = rules
        .iter()
        .filter(|r| {
            !is_keyword_rule(r) && !EXEMPT.contains(&r.as_str()) && !rows.contains(r.as_str())
        })
        .collect();
    assert!(
        missing.is_empty(),
        "grammar rules with no row in tests/syntax_rules.rs (add a text each accepts and \
         one each rejects to ROWS): {missing:?}"
    );
    let gone: Vec<&str> = rows
        .iter()
        .chain(EXEMPT)
        .filter(|r| !rules.iter().any(|g| g == *r))
        .copied()
        .collect();
    assert!(
        gone.is_empty(),
        "rows for rules the grammar no longer has: {gone:?}"
    );
    let mut seen = BTreeSet::new();
    for r in ROWS {
        assert!(seen.insert(r.0), "two rows for `{}`", r.0);
    }
}

/// Each keyword rule's word is used in some accepted text, so a keyword
/// the parser stopped accepting fails a row.
#[test]
fn every_keyword_is_in_an_accepted_text() {
    let words = |text: &str| -> BTreeSet<String> {
        text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map(str::to_string)
            .collect()
    };
    let used: BTreeSet<String> = ROWS.iter().flat_map(|r| words(r.1)).collect();
    let missing: Vec<String> = grammar_rules()
        .into_iter()
        .filter(|r| is_keyword_rule(r))
        .filter(|r| !used.contains(&r["kw_".len()..]))
        .collect();
    assert!(
        missing.is_empty(),
        "keywords in no accepted text of ROWS: {missing:?}"
    );
}

/// Rules that leave no trace in a parse besides the silent ones: `keyword`
/// is only ever used as `!keyword`, whose matches pest does not keep.
const NO_TRACE: &[&str] = &["keyword"];

/// Every rule each accepted text went through (silent rules excepted).
fn rules_matched(text: &str) -> BTreeSet<String> {
    use pest::Parser as _;
    let pairs = grammar::Grammar::parse(grammar::Rule::file, text)
        .unwrap_or_else(|e| panic!("the grammar refuses {text:?}:\n{e}"));
    pairs
        .flatten()
        .map(|p| format!("{:?}", p.as_rule()))
        .collect()
}

#[test]
fn each_rule_accepts_and_rejects() {
    let silent: BTreeSet<String> = {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/grammar/tb.pest"))
            .unwrap();
        text.lines()
            .filter(|l| l.contains("= _{"))
            .filter_map(|l| l.split('=').next())
            .map(|n| n.trim().to_string())
            .collect()
    };
    let mut wrong = Vec::new();
    for &(rule, accepts, rejects, code, at) in ROWS {
        let src = Source::new("rule.tb", accepts);
        if let Err(d) = tb::syntax::parse::parse(&src) {
            wrong.push(format!("{rule}: refuses {accepts:?}: {}", d.plain()));
        } else if !silent.contains(rule)
            && !NO_TRACE.contains(&rule)
            && !rules_matched(accepts).contains(rule)
        {
            wrong.push(format!(
                "{rule}: {accepts:?} is accepted without going through `{rule}`"
            ));
        }
        let src = Source::new("rule.tb", rejects);
        match tb::syntax::parse::parse(&src) {
            Ok(_) => wrong.push(format!("{rule}: accepts {rejects:?}")),
            Err(d) => {
                let span = d.labels.first().map(|(s, _)| &rejects[s.start..s.end]);
                if d.code != code || span != Some(at) {
                    wrong.push(format!(
                        "{rule}: {rejects:?} gives {} at {span:?}, expected {code} at {at:?}: {}",
                        d.code, d.message
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} rows wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
