//! The data a ruleset reads (issue 15, item 3; SPEC L11): declared reads
//! checked against the definitions, the data checked against the reads.
//! One test per slip: a misspelt participant value is a warning with a
//! did-you-mean; a unit or boards on some games only is an error naming
//! the participants and rounds; a value the data lacks entirely is an error
//! naming the value and the criterion; a declared default stands in for a
//! missing value without a word.

use crate::common::{inline, inline_errors, order, rank, shipped, tb};
use tb::diag::{Diag, Source};
use tb::model::Event;

fn example(name: &str) -> String {
    std::fs::read_to_string(format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR")))
        .expect("example")
}

fn toml(text: &str) -> Event {
    tb::load::native::load_toml(&Source::new("test.toml", text.to_string()))
        .unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// The data warnings (`tb::data::...`) the check adds, and its error.
fn data_check(ev: &mut Event, ruleset: &str) -> (Vec<String>, Option<Diag>) {
    let rs = shipped(ruleset);
    let before = ev.warnings.len();
    let r = tb::check::inputs::check_event(ev, &rs);
    let added = ev.warnings[before..]
        .iter()
        .map(|w| {
            assert_eq!(w.code, "tb::data::unread_value");
            w.message.clone()
        })
        .collect();
    (added, r.err())
}

/// The check adds no warning and finds no error.
fn assert_clean(ev: &mut Event, ruleset: &str) {
    let (w, e) = data_check(ev, ruleset);
    assert!(
        w.is_empty() && e.is_none(),
        "{ruleset}: {w:?} {:?}",
        e.map(|d| d.plain())
    );
}

fn temp(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("tb-data-reads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p.display().to_string()
}

// ------------------------------------------------------------ the language

#[test]
fn an_undeclared_read_is_a_check_error_with_did_you_mean() {
    // A read nobody declared: the checker says how to declare it.
    let errs = inline_errors(
        "metric ko = sum(r.imps for r in rounds)\nprocedure p { step ko desc }\nstandings p\n",
    );
    assert_eq!(errs, vec!["tb::check::undeclared_read"]);
    // A misspelt read of a declared value: did you mean.
    let d = tb::check::check(
        Source::new(
            "ko.tb",
            "reads participant carryover default 0\n\
             metric ko = score + (me.carry_over ?? 0)\nprocedure p { step ko desc }\nstandings p\n",
        ),
        &tb::shipped::Shipped,
        &[],
    )
    .expect_err("undeclared");
    let d = d.related.first().unwrap_or(&d);
    assert_eq!(d.code, "tb::check::undeclared_read");
    assert!(d.message.contains("`carry_over`") && d.message.contains("participant value"));
    let help = d.help.clone().unwrap_or_default();
    assert!(help.contains("did you mean `carryover`?"), "{help}");
    // `r.imps_against` is covered by the unit's declaration.
    inline(
        "reads round imps\nmetric net = sum(r.imps - r.imps_against for r in rounds)\n\
         procedure p { step net desc }\nstandings p\n",
    );
    // Declared twice.
    let errs = inline_errors("reads round imps\nreads round imps\n");
    assert_eq!(errs, vec!["tb::check::duplicate_definition"]);
    // A built-in field is not a data value.
    let errs = inline_errors("reads round points\n");
    assert_eq!(errs, vec!["tb::check::shadows_builtin"]);
    // A declaration nothing reads is allowed: it says the data may carry
    // the value (no unread-value warning).
    inline("reads participant seed\n");
}

#[test]
fn a_read_gives_the_declared_default_and_no_other() {
    // Declared with a default, read without one.
    let errs = inline_errors(
        "reads participant carryover default 0\nmetric ko = score + me.carryover\n\
         procedure p { step ko desc }\nstandings p\n",
    );
    assert_eq!(errs, vec!["tb::check::read_default"]);
    // Read with a default the declaration does not give.
    let errs = inline_errors(
        "reads participant carryover\nmetric ko = score + (me.carryover ?? 0)\n\
         procedure p { step ko desc }\nstandings p\n",
    );
    assert_eq!(errs, vec!["tb::check::read_default"]);
    // Two different defaults.
    let errs = inline_errors(
        "reads participant field default 1\nmetric f = me.field ?? 2\n\
         procedure p { step f asc }\nstandings p\n",
    );
    assert_eq!(errs, vec!["tb::check::read_default"]);
    // A negative default, read with the same value.
    inline(
        "reads participant handicap default -1.5\nmetric h = me.handicap ?? -1.5\n\
         procedure p { step h desc }\nstandings p\n",
    );
}

#[test]
fn every_shipped_ruleset_declares_what_it_reads() {
    for (name, rs) in crate::common::shipped_rulesets() {
        // Checked: every read is declared. And each declaration cites its article.
        for d in &rs.reads {
            assert!(d.cite.is_some(), "{name}: `reads {}` has no cite", d.name);
        }
    }
    let ko = shipped("wbf/knockout");
    let names: Vec<_> = ko.reads.iter().map(|d| d.name.as_str()).collect();
    for n in ["imps", "carryover", "qualification_rank"] {
        assert!(names.contains(&n), "{names:?}");
    }
}

// ------------------------------------------------------------ slip 4: a misspelt value

#[test]
fn a_misspelt_participant_value_is_a_warning_with_did_you_mean() {
    // The older form of a carry-over, a participant value, misspelt.
    let text = example("bridge-knockout.toml").replace(
        "values = { qualification_rank = 2 }",
        "values = { qualification_rank = 2, carry_over = 3 }",
    );
    let mut ev = toml(&text);
    let (warnings, err) = data_check(&mut ev, "wbf/knockout");
    assert!(err.is_none(), "{:?}", err.map(|d| d.plain()));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    let w = &warnings[0];
    assert!(
        w.contains("`carry_over`")
            && w.contains("participant `A`")
            && w.contains("line 22")
            && w.contains("did you mean `carryover`?"),
        "{w}"
    );
    // The CLI prints it with its code; the run goes on (exit 0: the
    // standings differ from the clean file's, but not silently).
    let path = temp("ko-typo.toml", &text);
    let out = tb(&["eval", "wbf/knockout", &path]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning[tb::data::unread_value]")
            && err.contains("did you mean `carryover`?"),
        "{err}"
    );
    // The clean file: no warning.
    let mut ev = toml(&example("bridge-knockout.toml"));
    assert_clean(&mut ev, "wbf/knockout");
}

#[test]
fn unread_values_are_reported_by_policy() {
    // A participant value no ruleset reads: always reported (it exists only
    // to be read), with what the ruleset does read.
    let text = example("bridge-knockout.toml")
        .replace(
            "qualification_rank = 2 }",
            "qualification_rank = 2, seed = 1 }",
        )
        // An event value that describes the event: not reported.
        .replace(
            "rounds = 5\n",
            "rounds = 5\nvalues = { boards_per_match = 16, carryover = 2 }\n",
        );
    let mut ev = toml(&text);
    let (warnings, err) = data_check(&mut ev, "wbf/knockout");
    assert!(err.is_none());
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings.iter().any(|w| w.contains("`seed`")
            && w.contains("reads the participant values: carryover, qualification_rank, field")),
        "{warnings:?}"
    );
    // An event value the ruleset reads as a participant value: reported.
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("event value `carryover`") && w.contains("wbf/knockout reads")),
        "{warnings:?}"
    );
    // A unit the ruleset does not read (`vp`, `total`) is a result in its
    // own right: not reported; a misspelling of a read unit is.
    let text = example("bridge-swiss-teams.toml");
    let i = text.rfind("imps = [").expect("imps");
    let text = format!("{}imps = [1, 2], imp{}", &text[..i], &text[i + 4..]);
    let mut ev = toml(&text);
    let (warnings, err) = data_check(&mut ev, "wbf/swiss-teams");
    assert!(err.is_none(), "{:?}", err.map(|d| d.plain()));
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("unit `imp`") && warnings[0].contains("did you mean `imps`?"));
    // The one-pass JSON reader gives the names too (without lines).
    let json = r#"{"event": {"name": "x", "sport": "bridge", "system": "knockout", "kind": "team", "rounds": 1},
      "participants": [{"id": "A", "name": "A", "values": {"carry_over": 3, "qualification_rank": 1}},
                       {"id": "B", "name": "B", "values": {"qualification_rank": 2}}],
      "rounds": [{"round": 1, "stage": "knockout", "games": [{"home": "A", "away": "B", "points": [0, 0], "imps": [10, 12]}]}]}"#;
    let mut ev = tb::load::native::load_json(&Source::new("x.json", json)).expect("json");
    let (warnings, _) = data_check(&mut ev, "wbf/knockout");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(warnings[0].contains("did you mean `carryover`?"));
}

// ------------------------------------------------------------ partial data

#[test]
fn a_unit_misspelt_on_one_match_is_a_partial_unit_error() {
    // `imp` for `imps` on the first match: its two teams would have no
    // IMPs in that round.
    let text = example("bridge-swiss-teams.toml");
    let i = text.find("imps = [").expect("imps");
    let text = format!("{}imp{}", &text[..i], &text[i + 4..]);
    let mut ev = toml(&text);
    let (_, err) = data_check(&mut ev, "wbf/swiss-teams");
    let d = err.expect("partial unit");
    assert_eq!(d.code, "tb::data::partial_data");
    assert!(
        d.message
            .contains("unit `imps` is missing on 2 of 18 played rounds")
            && d.message.contains("`A` in round 1")
            && d.message.contains("`B` in round 1"),
        "{}",
        d.message
    );
    assert!(d
        .help
        .as_deref()
        .unwrap_or("")
        .contains("did you mean `imps` there?"));
    // From the command line: exit 3, the code and the place in the ruleset.
    let path = temp("st-imp.toml", &text);
    let out = tb(&["eval", "wbf/swiss-teams", &path]);
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error[tb::data::partial_data]: wbf/lib:"),
        "{err}"
    );
}

#[test]
fn boards_on_some_games_only_is_an_error() {
    // Slip 6: WBF pairs reads board scores; one game without boards would
    // count as nothing against every opponent and change the order.
    let clean = example("bridge-pairs.toml");
    let text = clean.replace(
        r#"{ home = "1", away = "4", mp = [3, 5], boards = [ { number = 1, home = 2, away = 2, top = 4 }, { number = 2, home = 1, away = 3, top = 4 } ] }"#,
        r#"{ home = "1", away = "4", mp = [3, 5] }"#,
    );
    assert_ne!(text, clean);
    let mut ev = toml(&text);
    let (_, err) = data_check(&mut ev, "wbf/pairs");
    let d = err.expect("partial boards");
    assert_eq!(d.code, "tb::data::partial_data");
    assert!(
        d.message
            .contains("board results are missing on 2 of 24 played rounds")
            && d.message.contains("`1` in round 3")
            && d.message.contains("`4` in round 3"),
        "{}",
        d.message
    );
    // What it guards against: ranked anyway, the order changes.
    let rs = shipped("wbf/pairs");
    let before = order(&toml(&clean), &rank(&toml(&clean), &rs));
    let after = order(&ev, &rank(&ev, &rs));
    assert_ne!(before, after, "the partial boards change the order");
    // The clean example passes.
    let mut ev = toml(&clean);
    assert_clean(&mut ev, "wbf/pairs");
}

#[test]
fn a_participant_value_some_lack_is_an_error_unless_it_has_a_default() {
    // `qualification_rank` has no default: one team without it would rank
    // as undefined (last) on that step.
    let text = example("bridge-knockout.toml").replace("values = { qualification_rank = 4 }\n", "");
    let mut ev = toml(&text);
    let (_, err) = data_check(&mut ev, "wbf/knockout");
    let d = err.expect("partial value");
    assert_eq!(d.code, "tb::data::partial_data");
    assert!(
        d.message.contains("`qualification_rank`") && d.message.contains("not for `B`"),
        "{}",
        d.message
    );
    // `carryover` has a default (0): on one game of the match only is fine.
    let mut ev = toml(&example("bridge-knockout.toml"));
    assert_clean(&mut ev, "wbf/knockout");
}

#[test]
fn byes_and_unplayed_rounds_may_lack_units() {
    let text = r#"
[event]
name = "Three teams"
sport = "bridge"
system = "swiss"
kind = "team"
primary = "vp"
rounds = 2
scoring = { win = 20, draw = 10, loss = 0, bye = 12 }
[[participants]]
id = "A"
name = "A"
[[participants]]
id = "B"
name = "B"
[[participants]]
id = "C"
name = "C"
[[rounds]]
round = 1
games = [ { home = "A", away = "B", vp = [12, 8], imps = [30, 25] } ]
byes = [ { id = "C", type = "pairing" } ]
[[rounds]]
round = 2
games = [ { home = "C", away = "A", vp = [10, 10], imps = [20, 20] } ]
byes = [ { id = "B", type = "pairing" } ]
"#;
    let mut ev = toml(text);
    assert_clean(&mut ev, "wbf/swiss-teams");
}

// ------------------------------------------------------------ missing entirely

#[test]
fn a_needed_value_lacking_entirely_names_value_and_criterion() {
    let text = example("bridge-knockout.toml")
        .replace("values = { qualification_rank = 2 }\n", "")
        .replace("values = { qualification_rank = 4 }\n", "");
    let mut ev = toml(&text);
    // Not partial: absent everywhere, which the evaluator reports.
    assert_clean(&mut ev, "wbf/knockout");
    let rs = shipped("wbf/knockout");
    let d = tb::rank::rank(&ev, &rs, &tb::rank::Options::default()).expect_err("missing");
    let d = if d.related.is_empty() || d.code == "tb::eval::missing_data" {
        d
    } else {
        d.related[0].clone()
    };
    assert_eq!(d.code, "tb::eval::missing_data");
    assert!(
        d.message.contains("`qualification_rank`")
            && d.message.contains("criterion `Qualification rank`"),
        "{}",
        d.message
    );
    // The command line: exit 3.
    let path = temp("ko-norank.toml", &text);
    let out = tb(&["eval", "wbf/knockout", &path]);
    assert_eq!(out.status.code(), Some(3));
}

#[test]
fn a_declared_default_stands_for_a_value_the_data_lacks() {
    // No carry-over anywhere: `default 0` (read `?? 0`), no error, no warning.
    let text = example("bridge-knockout.toml").replace(", carryover = [3, 0]", "");
    let mut ev = toml(&text);
    assert_clean(&mut ev, "wbf/knockout");
    let rs = shipped("wbf/knockout");
    let st = rank(&ev, &rs);
    // Without Aces' 3 IMPs Bidders win the final 154 - 151.
    assert_eq!(order(&ev, &st), vec!["B", "A"]);
}

// ------------------------------------------------------------ shipped examples

#[test]
fn shipped_examples_are_clean_data() {
    for (ruleset, file) in [
        ("wbf/bam", "bridge-bam.toml"),
        ("ebu/split-tie", "bridge-individual.toml"),
        ("wbf/knockout", "bridge-knockout.toml"),
        ("wbf/pairs", "bridge-pairs.toml"),
        ("wbf/round-robin", "bridge-round-robin.toml"),
        ("wbf/swiss-teams", "bridge-swiss-teams.toml"),
        ("fide/team-swiss", "team-swiss.toml"),
        ("cards/swiss", "cards-swiss.toml"),
        ("cards/swiss", "cards-swiss.csv"),
        ("fide/swiss", "chess-swiss.toml"),
        ("fide/swiss", "chess-swiss.json"),
    ] {
        let src = Source::new(format!("examples/{file}"), example(file));
        let mut ev = tb::load::load(&src).unwrap_or_else(|d| panic!("{}", d.plain()));
        assert_clean(&mut ev, ruleset);
    }
}
