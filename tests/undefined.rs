//! An undefined value never turns into a plausible one (issue 21): the
//! language's three-valued logic, in both evaluators, and the slips in data
//! that leave a value undefined — each gives a diagnostic or an explicit
//! undefined with its reason, never a changed ranking without a word.

use crate::common;
use common::*;
use tb::diag::Source;
use tb::eval::Value;
use tb::model::Event;

/// Three players over two rounds (a–b, then a–c; the third has a pairing
/// bye each round). `x` is recorded for a (1) and c (2), not for b: `me.x`
/// is undefined for b.
const EVENT: &str = r#"
[event]
name = "three-valued"
rounds = 2
[[participants]]
id = "a"
values = { x = 1 }
[[participants]]
id = "b"
[[participants]]
id = "c"
values = { x = 2 }
[[rounds]]
round = 1
games = [ { home = "a", away = "b", result = "1-0" } ]
byes = [ { id = "c", type = "pairing" } ]
[[rounds]]
round = 2
games = [ { home = "a", away = "c", result = "1/2-1/2" } ]
byes = [ { id = "b", type = "pairing" } ]
"#;

fn event() -> Event {
    tb::load::native::load_toml(&Source::new("t.toml", EVENT))
        .unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// `expr`'s value for each of a, b, c, by the reference evaluator and by
/// the columnar one (a step's column), which must agree.
fn values_of(expr: &str) -> Vec<Value> {
    let ev = event();
    let rs = inline(&format!(
        "reads participant x\nmetric u = me.x\nmetric m = {expr}\nprocedure p {{ step m desc }}\nstandings p\n"
    ));
    first_step_both_ways(&ev, &rs, expr).0
}

fn b(x: bool) -> Value {
    Value::Bool(x)
}
const U: Value = Value::Undef;

/// Comparisons with an undefined value are undefined (b), never false.
#[test]
fn comparisons_meeting_undefined_are_undefined() {
    assert_eq!(values_of("u > 0"), [b(true), U, b(true)]);
    assert_eq!(values_of("u == 1"), [b(true), U, b(false)]);
    assert_eq!(values_of("u != 1"), [b(false), U, b(true)]);
    assert_eq!(values_of("not (u > 1)"), [b(true), U, b(false)]);
    // A bye has no opponent: whether it is "in" a set is not known.
    assert_eq!(
        values_of("all(r.opponent in event.participants for r in rounds)"),
        [b(true), U, U]
    );
}

/// Kleene's tables for `and` and `or`: a definite side decides where it
/// can (`false and ?` is false, `true or ?` is true); otherwise undefined.
#[test]
fn and_or_follow_kleene() {
    let table = [
        ("false and u > 0", [b(false), b(false), b(false)]),
        ("u > 0 and false", [b(false), b(false), b(false)]),
        ("true and u > 0", [b(true), U, b(true)]),
        ("u > 0 and true", [b(true), U, b(true)]),
        ("u > 0 and u > 0", [b(true), U, b(true)]),
        ("true or u > 0", [b(true), b(true), b(true)]),
        ("u > 0 or true", [b(true), b(true), b(true)]),
        ("false or u > 0", [b(true), U, b(true)]),
        ("u > 0 or false", [b(true), U, b(true)]),
        ("u > 5 or u > 5", [b(false), U, b(false)]),
    ];
    for (expr, want) in table {
        assert_eq!(values_of(expr), want, "{expr}");
    }
}

/// `if` over an undefined condition takes neither branch; a `where` that is
/// undefined leaves the aggregate (and a list) undefined; `all` and `any`
/// are decided by a definite item, else undefined.
#[test]
fn conditions_filters_and_quantifiers() {
    assert_eq!(values_of("if u > 0 then 1 else 2"), [num("1"), U, num("1")]);
    assert_eq!(
        values_of("count(r in rounds where u > 1)"),
        [num("0"), U, num("2")]
    );
    assert_eq!(
        values_of("sum(r.points for r in rounds where u > 0)"),
        [num("3/2"), U, num("3/2")]
    );
    assert_eq!(
        values_of("sum([r.points for r in rounds where u > 0])"),
        [num("3/2"), U, num("3/2")]
    );
    // all: a false item decides; any: a true item decides.
    assert_eq!(
        values_of("all(r.round == 2 and u > 0 for r in rounds)"),
        [b(false), b(false), b(false)]
    );
    assert_eq!(
        values_of("all(u > 0 for r in rounds)"),
        [b(true), U, b(true)]
    );
    assert_eq!(
        values_of("any(r.round == 1 or u > 5 for r in rounds)"),
        [b(true), b(true), b(true)]
    );
    assert_eq!(
        values_of("any(u > 5 for r in rounds)"),
        [b(false), U, b(false)]
    );
    // An undefined list item makes the list undefined: never left out.
    assert_eq!(
        values_of("sum([u for r in rounds])"),
        [num("2"), U, num("4")]
    );
}

/// The explicit ways to give a default stay, and are the only ones.
#[test]
fn defaults_are_explicit() {
    assert_eq!(values_of("u ?? 5"), [num("1"), num("5"), num("2")]);
    assert_eq!(values_of("defined(u)"), [b(true), b(false), b(true)]);
    assert_eq!(
        values_of("if defined(u) and u > 0 then 1 else 0"),
        [num("1"), num("0"), num("1")]
    );
}

/// A step's `when` that the group's data leaves undefined is an error
/// naming the step; the step is neither applied nor skipped on a guess.
#[test]
fn undefined_when_condition_is_an_error() {
    let ev = event();
    let rs = inline(
        "reads participant x\nmetric u = me.x\nprocedure p { step 0 desc when any(t.u > 5 for t in group) cite \"7.1\" }\nstandings p\n",
    );
    let err = tb::rank::rank(&ev, &rs, &Default::default()).expect_err("undefined `when`");
    let all: Vec<_> = std::iter::once(&err).chain(err.related.iter()).collect();
    assert!(
        all.iter()
            .any(|d| d.code == "tb::eval::undefined_condition"),
        "{}",
        err.plain()
    );
    assert!(err.plain().contains("`when`"), "{}", err.plain());
}

/// `examples/bridge-swiss-teams.toml` with one match's unit `from` written
/// as `to` (the first occurrence, in Eagles v Finesse, round 1).
fn slipped(from: &str, to: &str) -> std::path::PathBuf {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("examples/bridge-swiss-teams.toml")).unwrap();
    let needle = format!("{from} = [16, 37]");
    let needle = if text.contains(&needle) {
        needle
    } else {
        format!("{from} = [2290, 2700]")
    };
    assert!(text.contains(&needle), "{needle}");
    let out = text.replacen(&needle, &needle.replacen(from, to, 1), 1);
    let dir = std::env::temp_dir().join(format!("tb-undefined-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{to}.toml"));
    std::fs::write(&path, out).unwrap();
    path
}

/// Issue 21's slip: `imp` for `imps` on one match. Eagles' IMP quotient
/// (WBF 3.1 ii) was a plausible 1 (`quotient`'s `else 1`). The command
/// line refuses the file (partial data, with a did-you-mean); ranked
/// anyway (the library, no data check), the value is undefined, the
/// reason is kept, and it is marked as having decided Eagles' place.
#[test]
fn imps_misspelt_on_one_match_is_explained_and_warned() {
    let path = slipped("imps", "imp");
    let o = tb(&["eval", "wbf/swiss-teams", path.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(
        err.contains("tb::data::partial_data") && err.contains("did you mean `imps`"),
        "{err}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let ev = tb::load::native::load_toml(&Source::new("imp.toml", text.as_str())).unwrap();
    let st = rank(&ev, &shipped("wbf/swiss-teams"));
    let e = ev.find("E").unwrap();
    let u = st
        .undefined
        .iter()
        .find(|u| u.pid == e && u.criterion == "IMP quotient")
        .expect("Eagles' IMP quotient undefined");
    assert!(u.decided);
    assert_eq!(
        u.reason.as_deref(),
        Some("`imps_won`: round 1 against Finesse (F): no `imps` recorded (it records `imp`, `total`, `vp`)")
    );
    let meta = tb::render::Meta {
        ruleset: "wbf/swiss-teams".into(),
        notes: Vec::new(),
    };
    let table = tb::render::render(
        &st,
        &ev,
        &shipped("wbf/swiss-teams"),
        &meta,
        tb::render::Format::Table,
    );
    assert!(
        table.contains("IMP quotient of Eagles (E): undefined: `imps_won`"),
        "{table}"
    );
    let mut opts = tb::render::ExplainOptions {
        ids: vec![e],
        details: None,
    };
    let explain = tb::render::explain(
        &st,
        &ev,
        &shipped("wbf/swiss-teams"),
        &mut opts,
        tb::render::ExplainFormat::Text,
    );
    assert!(
        explain.contains("Eagles (E): - (no value: `imps_won`: round 1 against Finesse (F)"),
        "{explain}"
    );
}

/// The same slip for total points: the total point quotient (3.1 iv) of
/// both teams of the match is undefined, with the reason, not 1.
#[test]
fn total_misspelt_on_one_match_is_explained() {
    let path = slipped("total", "totl");
    let text = std::fs::read_to_string(&path).unwrap();
    let ev = tb::load::native::load_toml(&Source::new("totl.toml", text.as_str())).unwrap();
    let st = rank(&ev, &shipped("wbf/swiss-teams"));
    let e = ev.find("E").unwrap();
    let u = st
        .undefined
        .iter()
        .find(|u| u.pid == e && u.criterion == "Total point quotient")
        .expect("undefined");
    assert_eq!(
        u.reason.as_deref(),
        Some("`total_won`: round 1 against Finesse (F): no `total` recorded (it records `imps`, `totl`, `vp`)")
    );
}

/// The same slip for a board score: a board without one side's score is
/// refused where it is written (the loader's diagnostic), never read as 0.
#[test]
fn board_score_left_out_is_refused() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("examples/bridge-bam.toml")).unwrap();
    let text = text.replacen(
        "{ number = 3, home = 0, away = 0 },",
        "{ number = 3, home = 0 },",
        1,
    );
    let err = tb::load::native::load_toml(&Source::new("bam.toml", text.as_str()))
        .expect_err("a board with one score");
    assert!(
        err.plain().contains("both `home` and `away`"),
        "{}",
        err.plain()
    );
}

/// Every shipped library, a value it reads taken from one participant of a
/// shipped example: the result is an error, or the value is explicitly
/// undefined with a reason in the output — never a different ranking
/// without a word. (`rating` for FIDE, `carryover` for the WBF knockout,
/// `imps` for WBF teams and EBU, a result's games for cards, a round's
/// result for US Chess. BAM's carry-over has a stated default, none: a
/// team with none recorded brings none into the stage.)
#[test]
fn each_library_reports_a_value_taken_away() {
    struct Case {
        ruleset: &'static str,
        example: &'static str,
        from: &'static str,
        to: &'static str,
    }
    let cases = [
        Case {
            ruleset: "wbf/swiss-teams",
            example: "examples/bridge-swiss-teams.toml",
            from: "imps = [38, 15]",
            to: "imp = [38, 15]",
        },
        Case {
            ruleset: "wbf/round-robin",
            example: "examples/bridge-round-robin.toml",
            from: "imps = [",
            to: "imp = [",
        },
        // Basic method of scoring (143.5.1): it fell back to the final
        // score for a team whose IMPs were missing, and put Aces first.
        Case {
            ruleset: "ebu/split-tie",
            example: "examples/bridge-round-robin.toml",
            from: "imps = [",
            to: "imp = [",
        },
        Case {
            ruleset: "wbf/knockout",
            example: "examples/bridge-knockout.toml",
            from: "carryover = [3, 0]",
            to: "carry_over = [3, 0]",
        },
        // Art. 10: one unrated player and the rating tie-breaks are dropped.
        Case {
            ruleset: "--tiebreaks=PTS,ARO",
            example: "examples/chess-swiss.toml",
            from: "rating = ",
            to: "# rating = ",
        },
        Case {
            ruleset: "us-chess/swiss",
            example: "examples/chess-swiss.toml",
            from: "result = \"1-0\"",
            to: "result = \"\"",
        },
        Case {
            ruleset: "cards/swiss",
            example: "examples/cards-swiss.toml",
            from: "result = \"2-1-0\"",
            to: "points = [3, 0]",
        },
    ];
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for c in cases {
        let text = std::fs::read_to_string(root.join(c.example)).unwrap();
        assert!(text.contains(c.from), "{}: {}", c.example, c.from);
        let rules: Vec<&str> = match c.ruleset.strip_prefix("--tiebreaks=") {
            Some(codes) => vec!["--tiebreaks", codes],
            None => vec![c.ruleset],
        };
        let eval = |data: &str| {
            let mut args = vec!["eval"];
            args.extend(&rules);
            args.extend([data, "--format", "json"]);
            tb(&args)
        };
        let before = eval(c.example);
        assert!(before.status.success(), "{}", c.ruleset);
        let dir = std::env::temp_dir().join(format!("tb-lib-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{}.toml", c.ruleset.replace(['/', '=', ','], "-")));
        std::fs::write(&path, text.replacen(c.from, c.to, 1)).unwrap();
        let after = tb(&[
            "eval",
            c.ruleset,
            path.to_str().unwrap(),
            "--format",
            "json",
        ]);
        if !after.status.success() {
            // An error: said, with a code.
            let err = String::from_utf8_lossy(&after.stderr);
            assert!(err.contains("tb::"), "{}: {err}", c.ruleset);
            continue;
        }
        let err = String::from_utf8_lossy(&after.stderr);
        let (a, b): (serde_json::Value, serde_json::Value) = (
            serde_json::from_slice(&before.stdout).unwrap(),
            serde_json::from_slice(&after.stdout).unwrap(),
        );
        let order = |j: &serde_json::Value| -> Vec<(String, u64)> {
            j["standings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    (
                        s["id"].as_str().unwrap().to_string(),
                        s["rank"].as_u64().unwrap(),
                    )
                })
                .collect()
        };
        let explained = b["undefined"]
            .as_array()
            .is_some_and(|u| u.iter().any(|x| x["reason"].is_string()));
        let warned = err.contains("warning[");
        assert!(
            explained || warned || order(&a) == order(&b),
            "{}: the ranking changed without a word\nbefore {:?}\nafter  {:?}",
            c.ruleset,
            order(&a),
            order(&b)
        );
        assert!(
            explained || warned,
            "{}: a value taken away left no trace (no error, no warning, no undefined value)",
            c.ruleset
        );
    }
}

/// "No game played": a player with byes only has no opponents' ratings,
/// and the reason says which filter no round passed (FIDE 10.1: ARO is a
/// mean over the games played).
#[test]
fn no_game_played_is_the_reason_for_an_undefined_mean() {
    let path = std::env::temp_dir().join(format!("tb-nogame-{}.toml", std::process::id()));
    std::fs::write(
        &path,
        "[event]\nname = \"No game\"\nsport = \"chess\"\nrounds = 2\n\
         [[participants]]\nid = \"a\"\nrating = 2000\n[[participants]]\nid = \"b\"\nrating = 1900\n\
         [[participants]]\nid = \"c\"\nrating = 1800\n\
         [[rounds]]\nround = 1\ngames = [ { home = \"a\", away = \"b\", result = \"1/2-1/2\" } ]\n\
         byes = [ { id = \"c\", type = \"half\" } ]\n\
         [[rounds]]\nround = 2\ngames = [ { home = \"a\", away = \"b\", result = \"0-1\" } ]\n\
         byes = [ { id = \"c\", type = \"full\" } ]\n",
    )
    .unwrap();
    let o = tb(&["eval", "--tiebreaks", "PTS,ARO", path.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("ARO of c (c): undefined: `opponent_ratings` is empty: no item passes `r.played and r.has_opponent`"),
        "{out}"
    );
}

/// FIDE Art. 10: one unrated player drops ARO for everyone. The notes say
/// it once, for all of them, with one participant's whole account — not a
/// line per player.
#[test]
fn one_cause_for_many_participants_is_one_line() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("examples/chess-swiss.toml")).unwrap();
    let path = std::env::temp_dir().join(format!("tb-art10-{}.toml", std::process::id()));
    std::fs::write(&path, text.replacen("rating = ", "# unrated: rating = ", 1)).unwrap();
    let o = tb(&["eval", "--tiebreaks", "PTS,ARO", path.to_str().unwrap()]);
    let out = String::from_utf8_lossy(&o.stdout);
    let notes: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Undefined values:"))
        .skip(1)
        .filter(|l| l.starts_with("  ARO of"))
        .collect();
    assert_eq!(notes.len(), 1, "{out}");
    assert!(
        notes[0].contains("more: undefined: the ruleset gives no value when `not ratings_usable`"),
        "{out}"
    );
}
