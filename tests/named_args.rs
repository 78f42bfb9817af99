//! Named arguments (`buchholz_values(forfeits: false, fore: true)`): the
//! syntax accepted and refused, the same values as by position, and one
//! diagnostic per problem, each pointing at the text.

use crate::common::*;
use tb::diag::{Diag, Source};
use tb::model::Event;

fn check(text: &str) -> Result<tb::plan::Ruleset, Diag> {
    tb::check::check(Source::new("t.tb", text), &tb::shipped::Shipped, &[])
}

fn event() -> Event {
    let text = std::fs::read_to_string("examples/chess-swiss.toml").expect("example");
    tb::load::native::load_toml(&Source::new("chess-swiss.toml", text)).expect("loads")
}

/// The diagnostic with `code` (the problem itself, under the summary).
fn problem(d: &Diag, code: &str) -> Diag {
    std::iter::once(d)
        .chain(d.related.iter())
        .find(|x| x.code == code && !x.labels.is_empty())
        .unwrap_or_else(|| panic!("expected {code}, got:\n{}", d.plain()))
        .clone()
}

fn pointed(d: &Diag) -> String {
    let src = d.source.as_ref().expect("source");
    let (span, _) = d.labels.first().expect("label");
    src.text[span.start..span.end].to_string()
}

#[test]
fn named_arguments_parse_where_arguments_go() {
    let ok = [
        "metric f(a, b) = a - b\nmetric m = f(a: 1, b: 2)\n",
        "metric f(a, b) = a - b\nmetric m = f(b: 2, a: 1)\n",
        "metric f(a, b) = a - b\nmetric m = f(1, b: 2)\n",
        "metric f(a, b) = a - b\nmetric m = me.f(b: 2, a: 1)\n",
        "metric f(a, b) = a - b\nmetric m = f(a: if true then 1 else 2, b: f(a: 1, b: 1))\n",
    ];
    for text in ok {
        check(text).unwrap_or_else(|d| panic!("{text:?}: {}", d.plain()));
    }
    let syntax = [
        "metric f(a) = a\nmetric m = f(a: )\n",
        "metric f(a) = a\nmetric m = f(a 1)\n",
        "metric f(a) = a\nmetric m = f(1 + a: 2)\n",
        "metric m = sum(r.points for r: in rounds)\n",
    ];
    for text in syntax {
        let d = check(text).expect_err(text);
        assert!(
            d.code == "tb::parse::syntax"
                || problem(&d, "tb::parse::syntax").code == "tb::parse::syntax",
            "{text:?}: {}",
            d.plain()
        );
    }
}

#[test]
fn named_arguments_give_the_values_positional_ones_give() {
    let ev = event();
    let text = "import \"fide/lib\"\n\
        metric by_position = sum(buchholz_values(false, true))\n\
        metric by_name = sum(buchholz_values(forfeits: false, fore: true))\n\
        metric swapped = sum(buchholz_values(fore: true, forfeits: false))\n\
        metric mixed = sum(buchholz_values(false, fore: true))\n\
        metric f(a, b) = a - b\n\
        metric minus = f(b: 10, a: 3)\n\
        metric dotted = me.f(b: 1, a: 4)\n";
    let rs = inline(text);
    for p in &ev.participants {
        let want = value(&ev, &rs, "by_position", &p.id);
        for m in ["by_name", "swapped", "mixed"] {
            assert_eq!(value(&ev, &rs, m, &p.id), want, "{m} for {}", p.id);
        }
        assert_eq!(value(&ev, &rs, "minus", &p.id), num("-7"));
        assert_eq!(value(&ev, &rs, "dotted", &p.id), num("3"));
    }
}

#[test]
fn each_named_argument_problem_has_its_code() {
    let lib = "import \"fide/lib\"\n";
    let cases = [
        (
            "metric m = sum(buchholz_values(forfeit: false, fore: true))\n",
            "tb::check::unknown_argument",
            "forfeit",
        ),
        (
            "metric m = floor(x: 1.5)\n",
            "tb::check::unknown_argument",
            "x",
        ),
        (
            "metric m = sum(buchholz_values(false, forfeits: true, fore: true))\n",
            "tb::check::duplicate_argument",
            "forfeits",
        ),
        (
            "metric m = sum(buchholz_values(fore: true, fore: true))\n",
            "tb::check::duplicate_argument",
            "fore",
        ),
        (
            "metric m = sum(buchholz_values(fore: true))\n",
            "tb::check::missing_argument",
            "buchholz_values(fore: true)",
        ),
        (
            "metric m = sum(buchholz_values(fore: true, false))\n",
            "tb::check::positional_after_named",
            "false",
        ),
        (
            "metric m = sum(buchholz_values(false, true, true, fore: true))\n",
            "tb::check::arity",
            "true",
        ),
    ];
    for (body, code, at) in cases {
        let text = format!("{lib}{body}");
        let d = check(&text).expect_err(body);
        let hit = problem(&d, code);
        assert_eq!(pointed(&hit), at, "{body}: {}", d.plain());
        assert!(hit.help.is_some(), "{body}: help");
    }
    // The unknown name gets a did-you-mean and the parameter list.
    let d = check(&format!("{lib}{}", cases[0].0)).unwrap_err();
    let help = problem(&d, "tb::check::unknown_argument").help.unwrap();
    assert!(help.contains("did you mean `forfeits`?"), "{help}");
    assert!(help.contains("forfeits, fore"), "{help}");
    // The missing one is named in the message and the help.
    let d = check(&format!("{lib}{}", cases[4].0)).unwrap_err();
    let hit = problem(&d, "tb::check::missing_argument");
    assert!(hit.message.contains("`forfeits`"), "{}", hit.message);
    assert!(hit.help.unwrap().contains("`forfeits: ...`"));
}

#[test]
fn the_shipped_rulesets_check_with_their_named_flags() {
    // fide/lib, fide/team and the team procedures pass their flags by name.
    assert!(
        shipped_rulesets().len() > 10,
        "every shipped ruleset checks"
    );
    let lib = tb::shipped::get("fide/lib").expect("shipped");
    assert!(lib.contains("buchholz_values(forfeits: false, fore: true)"));
}
