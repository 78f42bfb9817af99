//! The ruleset language: exactness, group-relative criteria (L3), chains (L4),
//! procedures by group size and sub-tie hand-offs (L5), ends (L6), conditions
//! (L7), citations (L8), parameters (L9), checker errors and grammar.

use crate::common;
use common::*;
use tb::diag::Source;
use tb::model::Event;

fn load(toml: &str) -> Event {
    tb::load::native::load_toml(&Source::new("t.toml", toml))
        .unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// SPEC §6: a mean of 2/3, 2/3, 2/3 ties with a mean of 1, 1, 0 — exactly.
#[test]
fn thirds_tie_with_one_one_zero() {
    let mut ev = Ev::chess(3);
    for (i, rest) in ["W W", "W W", "W W"].iter().enumerate() {
        let o = format!("a{i}");
        ev.game(i as u32 + 1, "A", &o, "1-0").record(&o, rest); // opponents on 2 of 3
    }
    ev.game(1, "B", "b0", "0-1").record("b0", "W W"); // 3 of 3
    ev.game(2, "B", "b1", "0-1").record("b1", "W W"); // 3 of 3
    ev.game(3, "B", "b2", "1-0").record("b2", "L L"); // 0 of 3
    let ev = ev.load();
    let rs = inline(
        "metric share = score / event.rounds\n\
         metric opp_share = mean(r.opponent.share for r in rounds where r.played)\n\
         procedure p { step opp_share desc }\nstandings p\n",
    );
    assert_eq!(value(&ev, &rs, "opp_share", "A"), num("2/3"));
    assert_eq!(value(&ev, &rs, "opp_share", "B"), num("2/3"));
    let st = rank(&ev, &rs);
    assert_eq!(rank_of(&ev, &st, "A"), rank_of(&ev, &st, "B"));
}

/// Three teams level on score. Net IMPs among the tied puts A first and
/// leaves B and C level among all three (−20 each); between B and C alone,
/// B is +10. Ratings favour C.
const THREE_TEAMS: &str = r#"
[event]
name = "three"
sport = "bridge"
kind = "team"
rounds = 3
[[participants]]
id = "A"
name = "A"
rating = 1
[[participants]]
id = "B"
name = "B"
rating = 2
[[participants]]
id = "C"
name = "C"
rating = 3
[[rounds]]
round = 1
games = [ { home = "A", away = "B", imps = [40, 10], points = [1, 1] } ]
[[rounds]]
round = 2
games = [ { home = "A", away = "C", imps = [30, 20], points = [1, 1] } ]
[[rounds]]
round = 3
games = [ { home = "B", away = "C", imps = [25, 15], points = [1, 1] } ]
"#;

fn three_teams_with(handoff: &str) -> (Event, tb::rank::Standings) {
    let ev = load(THREE_TEAMS);
    let rs = inline(&format!(
        "reads round imps\n\
         criterion net_imps = sum(r.imps - r.imps_against for r in rounds where r.played and r.opponent in group)\n\
         procedure tie {{ then {handoff}\n  step net_imps desc cite \"net\"\n  step rating desc cite \"rating\" }}\n\
         procedure main {{ step score desc then tie }}\nstandings main\n"
    ));
    let st = rank(&ev, &rs);
    (ev, st)
}

/// L5 restart (EBU 143.5.6): once A is separated, B and C start the whole
/// procedure again among themselves, and net IMPs between the two decide.
#[test]
fn restart_reapplies_the_procedure_to_the_remaining_pair() {
    let (ev, st) = three_teams_with("restart");
    assert_eq!(order(&ev, &st), ["A", "B", "C"]);
    let c = st
        .rows
        .iter()
        .find(|r| ev.participants[r.pid].id == "C")
        .unwrap();
    assert_eq!(c.decided_by.as_ref().unwrap().cite.as_deref(), Some("net"));
}

/// L5 continue (FIDE 4.2): B and C go on to the next step, where rating decides.
#[test]
fn continue_goes_on_to_the_next_step() {
    let (ev, st) = three_teams_with("continue");
    assert_eq!(order(&ev, &st), ["A", "C", "B"]);
    let c = st
        .rows
        .iter()
        .find(|r| ev.participants[r.pid].id == "C")
        .unwrap();
    assert_eq!(
        c.decided_by.as_ref().unwrap().cite.as_deref(),
        Some("rating")
    );
}

/// L5 repeat (FIDE 6.2): the same step is applied again among the sub-tie.
#[test]
fn repeat_reapplies_the_same_step() {
    let (ev, st) = three_teams_with("repeat");
    assert_eq!(order(&ev, &st), ["A", "B", "C"]);
}

/// Five teams level on score, with different ratings and sizes of tie.
fn five(ratings: [i64; 5], tied: usize) -> Event {
    let mut t = String::from("[event]\nname = \"five\"\nrounds = 1\n");
    for (i, r) in ratings.iter().enumerate() {
        t.push_str(&format!(
            "[[participants]]\nid = \"T{i}\"\nname = \"T{i}\"\nrating = {r}\n"
        ));
    }
    t.push_str("[[rounds]]\nround = 1\nbyes = [");
    for i in 0..5 {
        let pts = if i < tied { 1 } else { 0 };
        t.push_str(&format!(
            "{{ id = \"T{i}\", type = \"full\", points = {pts} }},"
        ));
    }
    t.push_str("]\n");
    load(&t)
}

const BY_SIZE: &str = r#"
procedure two { step rating desc cite "two" }
procedure three { step rating desc cite "three" }
procedure many {
    step rating desc select best cite "many (b)" then size 2 => two, size 3 => three, else continue
    step rating desc cite "many (c)"
}
procedure main { step score desc then size 2 => two, size 3 => three, else many }
standings main
"#;

/// L5: the procedure for a tied group is chosen by its size.
#[test]
fn dispatch_by_group_size() {
    let rs = inline(BY_SIZE);
    for (tied, cite) in [(2, "two"), (3, "three"), (4, "many (c)")] {
        let ev = five([1500, 1600, 1700, 1800, 1900], tied);
        let st = rank(&ev, &rs);
        let first = &st.rows[0];
        assert_eq!(ev.participants[first.pid].id, format!("T{}", tied - 1));
        if tied < 4 {
            assert_eq!(
                first.decided_by.as_ref().unwrap().cite.as_deref(),
                Some(cite),
                "{tied} tied"
            );
        }
    }
}

/// L5, WBF 1.3(b): after one team is declared winner, a remaining group of
/// three goes to 1.2 but a remaining group of four goes on to 1.3(c) — not
/// back to 1.3(a).
#[test]
fn remaining_four_go_on_to_the_next_step_remaining_three_are_handed_off() {
    let rs = inline(BY_SIZE);
    let ev = five([1900, 1000, 1000, 1000, 1000], 5); // T0 unique best; four level
    let st = rank(&ev, &rs);
    let steps: Vec<(&str, &str)> = st
        .trace
        .iter()
        .map(|t| (t.procedure.as_str(), t.cite.as_deref().unwrap_or("")))
        .collect();
    assert_eq!(steps[1], ("many", "many (b)"));
    assert_eq!(steps[2], ("many", "many (c)"), "four remain: on to (c)");
    let ev = five([1900, 1000, 1000, 1000, 1500], 4);
    let st = rank(&ev, &rs);
    assert!(
        st.trace.iter().any(|t| t.procedure == "three"),
        "three remain: handed to `three`"
    );
}

/// `select best` separates only a unique best member; two equal best leave
/// the group whole. `select worst` likewise at the bottom (WBF 1.2(b), (d)).
#[test]
fn select_best_and_worst_need_a_unique_member() {
    let rs = inline(
        "procedure main { step score desc then p }\n\
         procedure p { step rating desc select best cite \"best\"  step rating desc select worst cite \"worst\" }\n\
         standings main\n",
    );
    let ev = five([1900, 1900, 1000, 1000, 1000], 5);
    let st = rank(&ev, &rs);
    // Two share the best rating: `select best` does not split; `select worst`
    // has three equal worst: no split either.
    assert!(st.rows.iter().all(|r| r.rank == 1));
    let ev = five([1900, 1500, 1200, 1200, 1000], 5);
    let st = rank(&ev, &rs);
    assert_eq!(ev.participants[st.rows[0].pid].id, "T0");
    assert_eq!(ev.participants[st.rows[4].pid].id, "T4");
    assert_eq!(
        st.rows[4].decided_by.as_ref().unwrap().cite.as_deref(),
        Some("worst")
    );
}

/// L6: an unbreakable tie is reported unresolved with the regulation's remedy.
#[test]
fn unresolved_end_carries_its_reason_and_article() {
    let rs = inline(
        "procedure main { step score desc  otherwise unresolved \"one-board sudden death\" cite \"1.1(e)\" }\nstandings main\n",
    );
    let ev = five([1, 1, 1, 1, 1], 2);
    let st = rank(&ev, &rs);
    assert_eq!(st.rows[0].rank, 1);
    assert_eq!(st.rows[1].rank, 1);
    assert_eq!(
        st.rows[0].unresolved.as_deref(),
        Some("one-board sudden death (1.1(e))")
    );
}

/// L6: lots are drawn only with a seed; the same seed draws the same order.
#[test]
fn lots_need_a_seed_and_repeat_with_it() {
    let rs =
        inline("procedure main { step score desc  otherwise lots cite \"4.2\" }\nstandings main\n");
    let ev = five([1, 1, 1, 1, 1], 5);
    let unseeded = rank(&ev, &rs);
    assert!(unseeded.rows.iter().all(|r| r.rank == 1));
    assert!(unseeded.rows[0]
        .unresolved
        .as_deref()
        .unwrap()
        .contains("--seed"));
    let opts = tb::rank::Options {
        lots_seed: Some(42),
        ..Default::default()
    };
    let a = tb::rank::rank(&ev, &rs, &opts).unwrap();
    let b = tb::rank::rank(&ev, &rs, &opts).unwrap();
    assert_eq!(order(&ev, &a), order(&ev, &b));
    assert_eq!(
        a.rows.iter().map(|r| r.rank).collect::<Vec<_>>(),
        [1, 2, 3, 4, 5]
    );
    assert!(a.rows[0]
        .decided_by
        .as_ref()
        .unwrap()
        .criterion
        .contains("seed 42"));
}

/// L6: a decision recorded in the data (a play-off) orders the tie.
#[test]
fn decision_in_the_data_is_honoured() {
    let mut t = THREE_TEAMS.to_string();
    t.push_str("[[decisions]]\norder = [\"C\", \"A\", \"B\"]\nreason = \"play-off\"\n");
    let ev = load(&t);
    let rs = inline(
        "procedure main { step score desc  otherwise unresolved \"play-off\" }\nstandings main\n",
    );
    let st = rank(&ev, &rs);
    assert_eq!(order(&ev, &st), ["C", "A", "B"]);
    assert_eq!(
        st.rows[0].decided_by.as_ref().unwrap().criterion,
        "play-off"
    );
}

/// L7: a step applies only when its condition holds for the tied group.
#[test]
fn when_condition_skips_a_step() {
    let rs = inline(
        "procedure main { step score desc\n  step rating desc when all(t.rating > 1500 for t in group) cite \"rated\"\n  otherwise shared }\nstandings main\n",
    );
    let st = rank(&five([1600, 1700, 1, 1, 1], 2), &rs);
    assert_eq!(
        st.rows[0].decided_by.as_ref().unwrap().cite.as_deref(),
        Some("rated")
    );
    let ev = five([1600, 1400, 1, 1, 1], 2);
    let st = rank(&ev, &rs);
    assert_eq!(
        st.rows[0].rank, st.rows[1].rank,
        "condition false: step skipped, tie shared"
    );
    assert!(st
        .trace
        .iter()
        .any(|t| t.outcome == tb::rank::Outcome::Skipped));
}

/// L4: `asc` ranks lower values first (FIDE Board Count, TPN).
#[test]
fn ascending_direction() {
    let rs = inline("procedure main { step score desc  step rating asc }\nstandings main\n");
    let ev = five([1600, 1700, 1, 1, 1], 2);
    let st = rank(&ev, &rs);
    assert_eq!(ev.participants[st.rows[0].pid].id, "T0");
}

/// L9: parameters have defaults, can be set by an importing file and by the user.
#[test]
fn parameters_default_set_and_override() {
    let src = "param limit = 1600\nprocedure main { step score desc  step rating >= limit desc }\nstandings main\n";
    let ev = five([1600, 1700, 1, 1, 1], 2);
    let rs = inline(src);
    assert_eq!(rank(&ev, &rs).rows[0].rank, rank(&ev, &rs).rows[1].rank);
    let rs = tb::check::check(
        Source::new("inline.tb", src),
        &tb::shipped::Shipped,
        &[("limit".into(), tb::num::Num::int(1650))],
    )
    .unwrap();
    let st = rank(&ev, &rs);
    assert_eq!(ev.participants[st.rows[0].pid].id, "T1");
}

/// Undefined values (a quotient by zero) sort last in both directions; `??`
/// supplies a value; `infinity` compares above every number.
#[test]
fn undefined_and_infinity() {
    let rs = inline(
        "metric q = 1 / (rating - 1600)\nmetric q2 = q ?? 0\nmetric big = if rating == 1700 then infinity else rating\n\
         procedure main { step score desc  step big desc }\nstandings main\n",
    );
    let ev = five([1600, 1700, 1800, 1, 1], 3);
    assert_eq!(value(&ev, &rs, "q", "T0"), tb::eval::Value::Undef);
    assert_eq!(value(&ev, &rs, "q2", "T0"), num("0"));
    assert_eq!(value(&ev, &rs, "q", "T2"), num("1/200"));
    let st = rank(&ev, &rs);
    assert_eq!(ev.participants[st.rows[0].pid].id, "T1");
}

/// FIDE 14.1.1(d) and 16.5: cutting the least significant item by its key,
/// the lowest value among equal keys, and the VUR exception.
#[test]
fn cut_least_significant_rules() {
    use tb::eval::{cut_least_significant, ListItem};
    let n = |s: &str| tb::num::Num::parse(s).unwrap();
    let item = |v: &str, k: &str, vur: bool| ListItem {
        value: n(v),
        key: n(k),
        voluntary: vur,
    };
    // Two opponents share the lowest score 2: the lower contribution (0) goes.
    let mut l = vec![
        item("3", "3", false),
        item("2", "2", false),
        item("0", "2", false),
    ];
    cut_least_significant(&mut l);
    assert_eq!(
        l.iter().map(|i| i.value).collect::<Vec<_>>(),
        [n("3"), n("2")]
    );
    // A VUR contribution not lower than the least significant value is cut instead.
    let mut l = vec![
        item("1", "1", false),
        item("2.5", "5", true),
        item("4", "4", false),
    ];
    cut_least_significant(&mut l);
    assert_eq!(
        l.iter().map(|i| i.value).collect::<Vec<_>>(),
        [n("1"), n("4")]
    );
    // A VUR contribution lower than the least significant value is not: the higher goes.
    let mut l = vec![item("2", "1", false), item("0.5", "5", true)];
    cut_least_significant(&mut l);
    assert_eq!(l.iter().map(|i| i.value).collect::<Vec<_>>(), [n("0.5")]);
}

// ------------------------------------------------------------------ checker

/// Every error is reported at once, each with its own code.
#[test]
fn checker_reports_every_error_at_once() {
    let codes = inline_errors(
        "metric a = b + 1\n\
         metric c = max()\n\
         metric d = group\n\
         metric e = f\nmetric f = e\n\
         metric a = 2\n\
         procedure p { step a desc then nowhere }\n\
         standings q\n",
    );
    for code in [
        "tb::check::unknown_metric",
        "tb::check::arity",
        "tb::check::group_in_metric",
        "tb::check::cycle",
        "tb::check::duplicate_definition",
        "tb::check::unknown_procedure",
    ] {
        assert!(codes.contains(&code), "{code} missing from {codes:?}");
    }
}

#[test]
fn checker_codes_one_by_one() {
    let cases = [
        ("metric a = nosuch", "tb::check::unknown_metric"),
        ("metric a = frobnicate(1)", "tb::check::unknown_function"),
        ("metric a = round(1, 2, 3)", "tb::check::arity"),
        ("metric m(x) = x\nmetric a = m(1, 2)", "tb::check::arity"),
        (
            "criterion h = count(o in others)\nmetric a = h",
            "tb::check::group_in_metric",
        ),
        ("metric a = a + 1", "tb::check::cycle"),
        ("param p = score", "tb::check::param_not_constant"),
        ("set nosuch = 1", "tb::check::unknown_param"),
        ("import \"no/such/file\"", "tb::check::unknown_import"),
        (
            "procedure p { step score desc when score > 1 }",
            "tb::check::me_in_condition",
        ),
        (
            "metric a = sum(r.points for r in rounds by r.points)",
            "tb::check::by_outside_list",
        ),
        (
            "metric a = median(r.points for r in rounds)",
            "tb::check::unknown_aggregate",
        ),
        ("standings nothing", "tb::check::unknown_procedure"),
        ("metric points = 1", "tb::check::shadows_builtin"),
        ("param score = 1", "tb::check::shadows_builtin"),
        ("metric a = (1", "tb::parse::syntax"),
        ("procedure p { step score up }", "tb::parse::syntax"),
    ];
    for (src, code) in cases {
        let got = inline_errors(src);
        assert!(got.contains(&code), "{src:?}: expected {code}, got {got:?}");
    }
}

/// Diagnostics point at the offending text and suggest a fix.
#[test]
fn unknown_name_points_at_it_and_suggests() {
    let src = "metric solkoff = 1\nmetric a = solkof + 1\n";
    let err = tb::check::check(Source::new("x.tb", src), &tb::shipped::Shipped, &[]).unwrap_err();
    assert_eq!(err.code, "tb::check::unknown_metric");
    let (span, _) = &err.labels[0];
    assert_eq!(&src[span.start..span.end], "solkof");
    assert!(err
        .help
        .as_deref()
        .unwrap()
        .contains("did you mean `solkoff`"));
    assert_eq!(err.location(), Some(("x.tb".into(), 2, 12)));
}

#[test]
fn import_cycle_is_rejected() {
    let dir = std::env::temp_dir().join(format!("tb-cycle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("a.tb"), "import \"b\"\nmetric x = 1\n").unwrap();
    std::fs::write(dir.join("b.tb"), "import \"a\"\nmetric y = 2\n").unwrap();
    let root = crate::files::load_root(dir.join("a.tb").to_str().unwrap()).unwrap();
    let err = tb::check::check(root, &crate::files::DiskResolver::default(), &[]).unwrap_err();
    assert_eq!(err.code, "tb::check::import_cycle");
    std::fs::remove_dir_all(&dir).ok();
}

// ------------------------------------------------------------------ grammar

#[test]
fn grammar_accepts() {
    for src in [
        "",
        "// only a comment\n",
        "title \"t\"\nsource \"s\"\nedition \"2024\"",
        "param x = -0.5",
        "metric a = 1 + 2 * 3 - 4 / 5",
        "metric a(r, o) \"Label\" = if r.played and not r.bye then o.score else 0 cite \"Art. 1\"",
        "metric a = sum(r.points for r in rounds where r.played)",
        "metric a = count(r in rounds where r.win)",
        "metric a = sum(b.score for r in rounds for b in r.boards)",
        "metric a = [r.points for r in rounds where r.played by r.opponent.score voluntary r.forfeit_loss]",
        "metric a = sum(cut_lowest([r.points for r in rounds], 1))",
        "metric a = x ?? 0\nparam x = 1",
        "metric a = r in group",
        "criterion c = all(o.score > 0 for o in others)",
        "procedure p cite \"1.1\" { then restart step score desc select best when true then size 2 => p, size 3 => continue, else repeat as \"S\" decimals 2 cite \"a\" otherwise unresolved \"x\" cite \"e\" }",
        "procedure p { step score asc otherwise lots }\nstandings p",
    ] {
        if let Err(d) = tb::syntax::parse::parse(&Source::new("g.tb", src)) {
            panic!("{src:?} should parse: {}", d.plain());
        }
    }
}

#[test]
fn grammar_rejects() {
    for src in [
        "metric = 1",
        "metric a 1",
        "metric step = 1",
        "procedure p { step }",
        "procedure p { step score desc then }",
        "metric a = sum(for r in rounds)",
        "metric a = 1 +",
        "metric a = \"unterminated",
        "standings",
        "metric a = [r for r in]",
    ] {
        match tb::syntax::parse::parse(&Source::new("g.tb", src)) {
            Ok(_) => panic!("{src:?} should not parse"),
            Err(d) => {
                assert_eq!(d.code, "tb::parse::syntax", "{src:?}");
                assert!(d.location().is_some(), "{src:?} has a location");
            }
        }
    }
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let src = format!("metric a = {}1{}", "(".repeat(10_000), ")".repeat(10_000));
    let d = tb::syntax::parse::parse(&Source::new("deep.tb", src)).unwrap_err();
    assert_eq!(d.code, "tb::parse::too_deep");
}

/// L3: `others`, `group` and `in` over a tied group larger than the short
/// sets scanned directly (more than 8: membership is then looked up in a
/// table): twelve players level on score, each met one other.
#[test]
fn others_and_group_in_a_large_tie() {
    let mut ev = Ev::chess(1);
    for i in 0..6 {
        ev.game(
            1,
            &format!("P{}", 2 * i),
            &format!("P{}", 2 * i + 1),
            "1/2-1/2",
        );
    }
    let ev = ev.load();
    let rs = inline(
        "criterion sets = count(others) * 100 + count(group) \n\
             + (if me in others then 1000 else 0) + (if me in group then 10000 else 0)\n\
         criterion loops = count(q in others where q != me) * 100 \n\
             + count(q in others where q == me) + 10 * count(q in group where q == me)\n\
         criterion met = count(r in rounds where r.opponent in others)\n\
         procedure p { step score desc  step sets desc  step loops desc  step met desc }\n\
         standings p\n",
    );
    let st = rank(&ev, &rs);
    let col = |label: &str| {
        st.columns
            .iter()
            .position(|c| c.label == label)
            .expect(label)
    };
    assert_eq!(st.rows.len(), 12);
    for row in &st.rows {
        assert_eq!(row.rank, 1, "all twelve stay tied");
        assert_eq!(row.values[col("sets")], num("11112"));
        assert_eq!(row.values[col("loops")], num("1110"));
        assert_eq!(row.values[col("met")], num("1"));
    }
}

/// `editions` declares a regulation's editions and the parameter that
/// carries the one in use; a ruleset's `edition` header sets it (no `set`),
/// and an edition it does not declare is refused with the list. `places`
/// is a step option.
#[test]
fn editions_and_places() {
    let check =
        |text: &str| tb::check::check(Source::new("t.tb", text), &tb::shipped::Shipped, &[]);
    let lib = "param ed = 1\neditions ed \"Rule book\" { 1, 2 from \"2020-01-01\", 3 from \"2030-01-01\" }\n\
               procedure p { step score desc places otherwise shared }\nstandings p\n";
    let rs = check(&format!("edition \"2\"\n{lib}")).expect("checks");
    assert_eq!(
        rs.params.iter().find(|p| p.name == "ed").unwrap().value,
        tb::num::Num::int(2)
    );
    assert!(rs.procs[0].steps[0].places);
    let eds = rs.editions.expect("declared");
    assert_eq!(eds.label, "Rule book");
    assert_eq!(eds.for_date(Some("2019-12-31")).0, 1);
    assert_eq!(eds.for_date(Some("2020-01-01")).0, 2);
    assert_eq!(eds.for_date(Some("01.02.2031")).0, 3);
    assert_eq!(eds.for_date(None).0, 3);
    let d = check(&format!("edition \"4\"\n{lib}")).expect_err("unknown edition");
    let one = d.related.first().unwrap_or(&d);
    assert_eq!(one.code, "tb::check::unknown_edition");
    assert!(one.help.as_deref().unwrap_or("").contains("1, 2, 3"));
    // The shipped FIDE rulesets fix their edition with the header alone.
    for (name, year) in [("fide/swiss-2024", 2024), ("fide/round-robin-2026", 2026)] {
        let rs = tb::check::check(
            tb::shipped::source(name).unwrap(),
            &tb::shipped::Shipped,
            &[],
        )
        .unwrap();
        let p = rs.params.iter().find(|p| p.name == "fide_edition").unwrap();
        assert_eq!(p.value, tb::num::Num::int(year), "{name}");
    }
}

/// A did-you-mean between equally near names is the same on every run
/// (the first alphabetically), not the name table's hash order: `q` is one
/// edit from both `m` and `p`.
#[test]
fn equally_near_suggestions_do_not_depend_on_hash_order() {
    let text = "metric m = 1\nprocedure p { step m desc }\nstandings q\n".to_string();
    let messages: std::collections::BTreeSet<String> = (0..24)
        .map(|_| {
            let d = tb::check::check(
                Source::new("near.tb", text.clone()),
                &tb::shipped::Shipped,
                &[],
            )
            .expect_err("unknown procedure");
            d.plain()
        })
        .collect();
    assert_eq!(messages.len(), 1, "{messages:?}");
    let m = messages.iter().next().unwrap();
    assert!(m.contains("did you mean `m`?"), "{m}");
}
