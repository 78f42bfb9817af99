//! The native TOML / JSON loader: what each kind of event loads to, and every diagnostic it gives.

use tb::diag::{Diag, Source};
use tb::load::native::{load_json, load_toml};
use tb::model::{Event, Kind, Outcome, Pid, Side, Sport, Status, System};
use tb::num::Num;

fn toml(text: &str) -> Result<Event, Diag> {
    load_toml(&Source::new("event.toml", text))
}

fn json(text: &str) -> Result<Event, Diag> {
    load_json(&Source::new("event.json", text))
}

fn example(name: &str) -> String {
    let path = format!("{}/examples/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn n(s: &str) -> Num {
    Num::parse(s).unwrap()
}

fn pid(ev: &Event, id: &str) -> Pid {
    ev.find(id).unwrap_or_else(|| panic!("no participant {id}"))
}

/// The entry of participant `id` in `round` (the only one).
fn entry<'e>(ev: &'e Event, id: &str, round: u32) -> &'e tb::model::Entry {
    let p = &ev.participants[pid(ev, id)];
    let mut es = p.entries.iter().filter(|e| e.round == round);
    let e = es
        .next()
        .unwrap_or_else(|| panic!("{id} has no round {round}"));
    assert!(es.next().is_none(), "{id} has two entries in round {round}");
    e
}

fn unit(ev: &Event, e: &tb::model::Entry, name: &str) -> (Option<Num>, Option<Num>) {
    let u = ev
        .find_unit(name)
        .unwrap_or_else(|| panic!("no unit {name}"));
    (e.unit(u), e.unit_against(u))
}

fn total(ev: &Event, id: &str) -> Num {
    ev.participants[pid(ev, id)]
        .entries
        .iter()
        .fold(Num::ZERO, |a, e| a.add(e.points).unwrap())
}

/// The error an input gives: its code and the text its first label points at.
fn fails(r: Result<Event, Diag>, text: &str) -> (Diag, String) {
    let d = match r {
        Ok(_) => panic!("expected an error"),
        Err(d) => d,
    };
    let (span, _) = d
        .labels
        .first()
        .unwrap_or_else(|| panic!("no label on {}", d.plain()));
    let s = text[span.start..span.end].to_string();
    assert!(d.help.is_some(), "no help on {}", d.plain());
    assert!(d.location().is_some());
    (d, s)
}

// ---------------------------------------------------------------------------
// Events
// ---------------------------------------------------------------------------

#[test]
fn chess_swiss_example_with_byes_and_a_forfeit() {
    let ev = toml(&example("chess-swiss.toml")).unwrap();
    assert_eq!(ev.name, "Spring Open 2025");
    assert_eq!(
        (ev.sport, ev.system, ev.kind),
        (Sport::Chess, System::Swiss, Kind::Player)
    );
    assert_eq!(ev.rounds, 5);
    assert_eq!(ev.start_date.as_deref(), Some("2025-04-05"));
    assert_eq!(ev.participants.len(), 10);
    assert!(ev.warnings.is_empty(), "{:?}", ev.warnings);
    for p in &ev.participants {
        assert_eq!(p.entries.len(), 5, "{}", p.id);
        assert_eq!(p.recorded_score, Some(total(&ev, &p.id)), "{}", p.id);
    }
    let anna = &ev.participants[pid(&ev, "1")];
    assert_eq!(anna.name, "Kovacs, Anna");
    assert_eq!(anna.rating, Some(2210));
    assert_eq!(anna.title.as_deref(), Some("WFM"));
    assert_eq!(anna.federation.as_deref(), Some("HUN"));

    // Round 1: 1 (White) beat 6.
    let e = entry(&ev, "1", 1);
    assert_eq!(e.opponent, Some(pid(&ev, "6")));
    assert_eq!(
        (e.status, e.outcome, e.points),
        (Status::Played, Outcome::Win, Num::ONE)
    );
    assert_eq!(e.side, Some(Side::First));
    let e = entry(&ev, "6", 1);
    assert_eq!(
        (e.outcome, e.points, e.side),
        (Outcome::Loss, Num::ZERO, Some(Side::Second))
    );
    // A draw.
    let e = entry(&ev, "4", 1);
    assert_eq!((e.outcome, e.points), (Outcome::Draw, n("0.5")));

    // Round 2: a half-point bye and a pairing-allocated bye.
    let e = entry(&ev, "8", 2);
    assert_eq!(
        (e.status, e.points, e.outcome),
        (Status::HalfBye, n("0.5"), Outcome::Draw)
    );
    assert_eq!(e.opponent, None);
    let e = entry(&ev, "10", 2);
    assert_eq!(
        (e.status, e.points, e.outcome),
        (Status::PairingBye, Num::ONE, Outcome::Win)
    );

    // Round 3: a forfeit keeps the scheduled opponent.
    let e = entry(&ev, "6", 3);
    assert_eq!(
        (e.status, e.outcome, e.points),
        (Status::ForfeitWin, Outcome::Win, Num::ONE)
    );
    assert_eq!(e.opponent, Some(pid(&ev, "8")));
    let e = entry(&ev, "8", 3);
    assert_eq!(
        (e.status, e.outcome, e.points),
        (Status::ForfeitLoss, Outcome::Loss, Num::ZERO)
    );
    assert_eq!(e.opponent, Some(pid(&ev, "6")));

    assert_eq!(total(&ev, "1"), Num::int(4));
    assert_eq!(total(&ev, "4"), n("2.5"));
}

#[test]
fn withdrawal_absent_rounds_and_result_spellings() {
    let text = r#"
[event]
name = "Club Swiss"
# no `rounds`: the highest round present (3)

[[participants]]
id = "a"
[[participants]]
id = "b"
[[participants]]
id = "c"
[[participants]]
id = "d"
withdrawn_after = 1
score = 1

[[rounds]]
round = 1
games = [ { home = "a", away = "b", result = "½-½" }, { home = "c", away = "d", result = "0-1" } ]

[[rounds]]
round = 2
games = [ { home = "b", away = "c", result = "0.5-0.5" } ]
byes = [ { id = "a", type = "full" } ]

[[rounds]]
round = 3
games = [ { home = "a", away = "c", result = "=" } ]
byes = [ { id = "b", type = "zero" } ]
"#;
    let ev = toml(text).unwrap();
    assert_eq!(ev.rounds, 3);
    assert!(ev.warnings.is_empty(), "{:?}", ev.warnings);
    // The withdrawn player's later rounds are absent, with no points.
    for r in 2..=3 {
        let e = entry(&ev, "d", r);
        assert_eq!(
            (e.status, e.points, e.outcome),
            (Status::Absent, Num::ZERO, Outcome::Loss)
        );
    }
    assert_eq!(ev.participants[pid(&ev, "d")].withdrawn_after, Some(1));
    assert_eq!(entry(&ev, "a", 1).points, n("1/2"));
    assert_eq!(entry(&ev, "b", 2).outcome, Outcome::Draw);
    assert_eq!(entry(&ev, "c", 3).points, n("0.5"));
    let e = entry(&ev, "a", 2);
    assert_eq!((e.status, e.points), (Status::FullBye, Num::ONE));
    let e = entry(&ev, "b", 3);
    assert_eq!(
        (e.status, e.points, e.outcome),
        (Status::ZeroBye, Num::ZERO, Outcome::Loss)
    );
}

#[test]
fn recorded_score_that_disagrees_is_a_warning() {
    let text = r#"
[[participants]]
id = "a"
name = "Alice"
score = 2
[[participants]]
id = "b"
score = 0
[[rounds]]
games = [ { home = "a", away = "b", result = "1-0" } ]
"#;
    let ev = toml(text).unwrap();
    assert_eq!(ev.warnings.len(), 1, "{:?}", ev.warnings);
    let w = &ev.warnings[0];
    assert!(w.contains("`a`") && w.contains("Alice"), "{w}");
    assert!(w.contains('2') && w.contains('1'), "{w}");
}

#[test]
fn double_forfeit_and_zero_zero() {
    let text = r#"
[[participants]]
id = "a"
[[participants]]
id = "b"
[[rounds]]
games = [ { home = "a", away = "b", result = "--" } ]
[[rounds]]
games = [ { home = "b", away = "a", result = "-+" } ]
[[rounds]]
games = [ { home = "a", away = "b", result = "0-0" } ]
"#;
    let ev = toml(text).unwrap();
    for id in ["a", "b"] {
        let e = entry(&ev, id, 1);
        assert_eq!(
            (e.status, e.points, e.outcome),
            (Status::DoubleForfeit, Num::ZERO, Outcome::Loss)
        );
        let e = entry(&ev, id, 3);
        assert_eq!(
            (e.status, e.points, e.outcome),
            (Status::Played, Num::ZERO, Outcome::Loss)
        );
    }
    assert_eq!(entry(&ev, "a", 2).status, Status::ForfeitWin);
    assert_eq!(entry(&ev, "b", 2).status, Status::ForfeitLoss);
}

#[test]
fn cards_swiss_example() {
    let ev = toml(&example("cards-swiss.toml")).unwrap();
    assert_eq!(ev.sport, Sport::Cards);
    assert_eq!(
        (ev.scoring.win, ev.scoring.draw, ev.scoring.loss),
        (Num::int(3), Num::ONE, Num::ZERO)
    );
    assert!(ev.warnings.is_empty(), "{:?}", ev.warnings);
    for p in &ev.participants {
        assert_eq!(p.recorded_score, Some(total(&ev, &p.id)), "{}", p.id);
        assert!(p.recorded_rank.is_some());
    }
    // Round 1, Ana (home) beat Ben 2-1.
    let e = entry(&ev, "ana", 1);
    assert_eq!((e.outcome, e.points), (Outcome::Win, Num::int(3)));
    assert_eq!(
        unit(&ev, e, "games_won"),
        (Some(Num::int(2)), Some(Num::int(1)))
    );
    assert_eq!(
        unit(&ev, e, "games_lost"),
        (Some(Num::int(1)), Some(Num::int(2)))
    );
    assert_eq!(
        unit(&ev, e, "games_drawn"),
        (Some(Num::ZERO), Some(Num::ZERO))
    );
    let e = entry(&ev, "ben", 1);
    assert_eq!((e.outcome, e.points), (Outcome::Loss, Num::ZERO));
    assert_eq!(
        unit(&ev, e, "games_won"),
        (Some(Num::ONE), Some(Num::int(2)))
    );
    // The unfinished 1-1-1 and the 1-1-0 are drawn matches.
    for id in ["fay", "gus", "eli", "hana"] {
        let e = entry(&ev, id, 2);
        assert_eq!((e.outcome, e.points), (Outcome::Draw, Num::ONE), "{id}");
    }
    assert_eq!(
        unit(&ev, entry(&ev, "gus", 2), "games_drawn").0,
        Some(Num::ONE)
    );
    // Dev dropped after round 2; byes in rounds 3 and 4.
    assert_eq!(entry(&ev, "dev", 3).status, Status::Absent);
    assert_eq!(entry(&ev, "dev", 4).status, Status::Absent);
    let e = entry(&ev, "hana", 3);
    assert_eq!(
        (e.status, e.points, e.outcome),
        (Status::PairingBye, Num::int(3), Outcome::Win)
    );
    assert_eq!(entry(&ev, "eli", 4).status, Status::PairingBye);
    assert_eq!(total(&ev, "fay"), Num::int(10));
    assert_eq!(total(&ev, "gus"), Num::int(10));
}

const BRIDGE_TOML: &str = r#"
# Three teams: a round robin of full matches, then a triangle of half matches.
[event]
name = "Teams of Four"
sport = "bridge"
system = "round-robin"
kind = "team"
primary = "vp"
values = { board_top = 24, boards_per_match = 16 }

[[participants]]
id = "A"
name = "Aces"
members = [ { id = "a1", name = "Ann", rating = 1 }, "Al" ]
values = { carryover = 12.5 }

[[participants]]
id = "B"
name = "Bids"

[[participants]]
id = "C"
name = "Clubs"

[[rounds]]
round = 1
games = [
  { home = "A", away = "B", imps = [45, 23], vp = [15.62, 4.38], total = [1230, 980], boards = [ { number = 7, home = 6, away = -6, top = 24 }, { number = 8, home = 0, away = 0, played = false } ] },
]
byes = [ { id = "C", type = "full", points = 12, vp = 12 } ]

[[rounds]]
round = 2
games = [
  { home = "A", away = "C", weight = 0.5, imps = [10, 12], vp = ["9.51", "10.49"] },
  { home = "C", away = "B", weight = 0.5, vp = [10, 10] },
  { home = "B", away = "A", weight = 0.5, points = [3, 17], vp = [3, 17], result = "0-1" },
]

[[decisions]]
order = ["A", "C"]
reason = "play-off"
"#;

const BRIDGE_JSON: &str = r#"{
  "event": {
    "name": "Teams of Four", "sport": "bridge", "system": "round-robin", "kind": "team",
    "primary": "vp", "values": { "board_top": 24, "boards_per_match": 16 }
  },
  "participants": [
    { "id": "A", "name": "Aces", "members": [ { "id": "a1", "name": "Ann", "rating": 1 }, "Al" ],
      "values": { "carryover": 12.5 } },
    { "id": "B", "name": "Bids" },
    { "id": "C", "name": "Clubs" }
  ],
  "rounds": [
    { "round": 1,
      "games": [
        { "home": "A", "away": "B", "vp": [15.62, 4.38], "total": [1230, 980], "imps": [45, 23],
          "boards": [ { "number": 7, "home": 6, "away": -6, "top": 24 },
                      { "number": 8, "home": 0, "away": 0, "played": false } ] }
      ],
      "byes": [ { "id": "C", "type": "full", "points": 12, "vp": 1.2e1 } ] },
    { "round": 2,
      "games": [
        { "home": "A", "away": "C", "weight": 0.5, "imps": [10, 12], "vp": [9.51, 10.49] },
        { "home": "C", "away": "B", "weight": 0.5, "vp": [10, 10] },
        { "home": "B", "away": "A", "weight": 0.5, "points": [3, 17], "vp": [3, 17], "result": "0-1" }
      ] }
  ],
  "decisions": [ { "order": ["A", "C"], "reason": "play-off" } ]
}"#;

#[test]
fn bridge_teams_with_units_boards_and_a_triangle() {
    let ev = toml(BRIDGE_TOML).unwrap();
    assert_eq!(
        (ev.sport, ev.system, ev.kind),
        (Sport::Bridge, System::RoundRobin, Kind::Team)
    );
    assert_eq!(ev.rounds, 2);
    assert_eq!(ev.values.get("board_top"), Some(&Num::int(24)));
    let a = &ev.participants[pid(&ev, "A")];
    assert_eq!(a.values.get("carryover"), Some(&n("12.5")));
    assert_eq!(a.members.len(), 2);
    assert_eq!(
        (a.members[0].id.as_str(), a.members[0].rating),
        ("a1", Some(1))
    );
    assert_eq!(
        (a.members[1].id.as_str(), a.members[1].name.as_str()),
        ("Al", "Al")
    );

    // Points come from the primary unit; VPs are exact.
    let e = entry(&ev, "A", 1);
    assert_eq!(e.points, n("15.62"));
    assert_eq!(e.outcome, Outcome::Win);
    assert_eq!(unit(&ev, e, "vp"), (Some(n("15.62")), Some(n("4.38"))));
    assert_eq!(
        unit(&ev, e, "imps"),
        (Some(Num::int(45)), Some(Num::int(23)))
    );
    assert_eq!(
        unit(&ev, e, "total"),
        (Some(Num::int(1230)), Some(Num::int(980)))
    );
    assert_eq!(e.boards().len(), 2);
    assert_eq!(
        (e.boards()[0].number, e.boards()[0].score, e.boards()[0].top),
        (7, Num::int(6), Some(Num::int(24)))
    );
    assert!(!e.boards()[1].played);
    let e = entry(&ev, "B", 1);
    assert_eq!(e.points, n("4.38"));
    assert_eq!(
        unit(&ev, e, "imps"),
        (Some(Num::int(23)), Some(Num::int(45)))
    );
    assert_eq!(e.boards()[0].score, Num::int(-6));

    // A bye with explicit points and a unit.
    let e = entry(&ev, "C", 1);
    assert_eq!((e.status, e.points), (Status::FullBye, Num::int(12)));
    assert_eq!(unit(&ev, e, "vp").0, Some(Num::int(12)));

    // The triangle: two half-weight entries each in round 2.
    for id in ["A", "B", "C"] {
        let es: Vec<_> = ev.participants[pid(&ev, id)]
            .entries
            .iter()
            .filter(|e| e.round == 2)
            .collect();
        assert_eq!(es.len(), 2, "{id}");
        assert!(es.iter().all(|e| e.weight == n("1/2")));
    }
    let a2: Vec<_> = ev.participants[pid(&ev, "A")]
        .entries
        .iter()
        .filter(|e| e.round == 2)
        .collect();
    assert_eq!(a2[0].points, n("9.51"));
    assert_eq!(a2[1].points, Num::int(17));
    assert_eq!(a2[1].side, Some(Side::Second));
    let c2: Vec<_> = ev.participants[pid(&ev, "C")]
        .entries
        .iter()
        .filter(|e| e.round == 2)
        .collect();
    assert_eq!(c2[1].outcome, Outcome::Draw);

    assert_eq!(ev.decisions.len(), 1);
    assert_eq!(ev.decisions[0].order, vec![pid(&ev, "A"), pid(&ev, "C")]);
    assert_eq!(ev.decisions[0].reason, "play-off");
}

#[test]
fn toml_and_json_load_to_equal_events() {
    let t = toml(&example("chess-swiss.toml")).unwrap();
    let j = json(&example("chess-swiss.json")).unwrap();
    assert_eq!(t, j);
    // Different key order in the JSON, an exponent, a string number: still equal.
    let t = toml(BRIDGE_TOML).unwrap();
    let j = json(BRIDGE_JSON).unwrap();
    assert_eq!(t, j);
}

#[test]
fn team_chess_boards() {
    let text = r#"
[event]
kind = "team"
scoring = { win = 2, draw = 1, loss = 0 }
[[participants]]
id = "T1"
members = ["p1", "p2", "p3", "p4"]
[[participants]]
id = "T2"
[[rounds]]
games = [
  { home = "T1", away = "T2", points = [2, 0], gp = [3, 1], boards = [ [1, 0], [0.5, 0.5], [1, 0], [0.5, 0.5] ] },
]
[[rounds]]
games = [
  { home = "T2", away = "T1", boards = [ [1, 0], ["1/2", "1/2"], [0, 1], [0.5, 0.5] ] },
]
"#;
    let ev = toml(text).unwrap();
    let e = entry(&ev, "T1", 1);
    assert_eq!((e.points, e.outcome), (Num::int(2), Outcome::Win));
    assert_eq!(unit(&ev, e, "gp"), (Some(Num::int(3)), Some(Num::ONE)));
    let scores: Vec<_> = e.boards().iter().map(|b| (b.number, b.score)).collect();
    assert_eq!(
        scores,
        vec![(1, Num::ONE), (2, n("0.5")), (3, Num::ONE), (4, n("0.5"))]
    );
    let e = entry(&ev, "T2", 1);
    assert_eq!(e.boards()[0].score, Num::ZERO);
    // No points and no result: the board totals decide (2-2 is a drawn match).
    let e = entry(&ev, "T1", 2);
    assert_eq!((e.points, e.outcome), (Num::ONE, Outcome::Draw));
}

#[test]
fn individual_bridge_partners() {
    let text = r#"
[event]
sport = "bridge"
primary = "mp"
[[participants]]
id = "N1"
[[participants]]
id = "N2"
[[participants]]
id = "E1"
[[participants]]
id = "E2"
[[rounds]]
games = [ { home = "N1", away = "E1", home_partner = "N2", away_partner = "E2", mp = [60, 40] } ]
"#;
    let ev = toml(text).unwrap();
    let e = entry(&ev, "N1", 1);
    assert_eq!(
        (e.partner, e.opponent),
        (Some(pid(&ev, "N2")), Some(pid(&ev, "E1")))
    );
    assert_eq!(e.points, Num::int(60));
    let e = entry(&ev, "N2", 1);
    assert_eq!(
        (e.partner, e.opponent),
        (Some(pid(&ev, "N1")), Some(pid(&ev, "E2")))
    );
    assert_eq!((e.points, e.side), (Num::int(60), Some(Side::First)));
    let e = entry(&ev, "E2", 1);
    assert_eq!(
        (e.partner, e.opponent),
        (Some(pid(&ev, "E1")), Some(pid(&ev, "N2")))
    );
    assert_eq!((e.points, e.outcome), (Num::int(40), Outcome::Loss));
}

#[test]
fn exact_numbers() {
    let text = r#"
[event]
sport = "bridge"
primary = "vp"
values = { a = 0.1, b = "2/3", c = 1e2, d = 123456789.123456789, e = -0.0 }
[[participants]]
id = "x"
[[participants]]
id = "y"
[[rounds]]
games = [ { home = "x", away = "y", vp = [0.1, 19.9] } ]
"#;
    let ev = toml(text).unwrap();
    assert_eq!(ev.values["a"], Num::ratio(1, 10).unwrap());
    assert_eq!(ev.values["b"], Num::ratio(2, 3).unwrap());
    assert_eq!(ev.values["c"], Num::int(100));
    assert_eq!(ev.values["e"], Num::ZERO);
    // 0.1 + 19.9 is exactly 20.
    let e = entry(&ev, "x", 1);
    let v = unit(&ev, e, "vp");
    assert_eq!(v.0.unwrap().add(v.1.unwrap()).unwrap(), Num::int(20));

    let j = json(r#"{"event": {"values": {"a": 0.1, "b": "2/3", "c": 1E2, "d": 15.62e-2, "big": 9223372036854775807}}}"#)
        .unwrap();
    assert_eq!(j.values["a"], n("0.1"));
    assert_eq!(j.values["b"], Num::ratio(2, 3).unwrap());
    assert_eq!(j.values["c"], Num::int(100));
    assert_eq!(j.values["d"], n("0.1562"));
    assert_eq!(j.values["big"], Num::int(i64::MAX));
    // Past the 64-bit numerators and denominators a number holds: refused.
    for big in ["9223372036854775808", "123456789012345678901234", "1e-19"] {
        let text = format!(r#"{{"event": {{"values": {{"big": {big}}}}}}}"#);
        let (d, at) = fails(json(&text), &text);
        assert_eq!((d.code, at.as_str()), ("tb::load::native::syntax", big));
    }
}

#[test]
fn consistent_duplicate_record_is_kept_once() {
    // The same game entered from both players' result slips.
    let text = r#"
[[participants]]
id = "a"
[[participants]]
id = "b"
[[rounds]]
games = [ { home = "a", away = "b", result = "1-0" }, { home = "b", away = "a", result = "0-1" } ]
"#;
    let ev = toml(text).unwrap();
    assert_eq!(ev.participants[0].entries.len(), 1);
    assert_eq!(entry(&ev, "a", 1).side, Some(Side::First));
}

#[test]
fn empty_and_minimal_files() {
    // An empty file is refused (issue 15); `{}` says "an event" and is one.
    assert_eq!(toml("").unwrap_err().code, "tb::load::native::empty");
    let ev = json("{}").unwrap();
    assert_eq!(ev.participants.len(), 0);
    // A scheduled round with no games yet: everyone is absent in it.
    let ev = toml("[event]\nrounds = 2\n[[participants]]\nid = 1\n").unwrap();
    assert_eq!(ev.participants[0].entries.len(), 2);
    assert!(ev.participants[0]
        .entries
        .iter()
        .all(|e| e.status == Status::Absent));
    // Unquoted TOML dates and dotted keys.
    let ev = toml("event.start_date = 2025-01-31\nevent.name = \"x\"\n").unwrap();
    assert_eq!(ev.start_date.as_deref(), Some("2025-01-31"));
}

// ---------------------------------------------------------------------------
// Diagnostics
// ---------------------------------------------------------------------------

const TWO: &str = "[[participants]]\nid = \"alice\"\n[[participants]]\nid = \"bob\"\n[[participants]]\nid = \"carol\"\n";

#[test]
fn toml_syntax_error() {
    let text = format!("{TWO}[[rounds]]\ngames = [ {{ home = \"alice\" away = \"bob\" }} ]\n");
    let (d, at) = fails(toml(&text), &text);
    assert_eq!(d.code, "tb::load::native::syntax");
    assert_eq!(at, "a");
    let (_, line, _) = d.location().unwrap();
    assert_eq!(line, 8);
    // A type error is reported the same way, at the value.
    let text = "[event]\nrounds = \"five\"\n";
    let (d, at) = fails(toml(text), text);
    assert_eq!(d.code, "tb::load::native::syntax");
    assert_eq!(at, "\"five\"");
}

#[test]
fn json_syntax_error() {
    let text = "{\n  \"participants\": [\n    { \"id\": \"a\", }\n  ]\n}";
    let (d, at) = fails(json(text), text);
    assert_eq!(d.code, "tb::load::native::syntax");
    assert_eq!(at, "}");
    assert_eq!(d.location().unwrap().1, 3);
    let text = "{\"event\": {\"name\": \"x\"}";
    let (d, _) = fails(json(text), text);
    assert_eq!(d.code, "tb::load::native::syntax");
    assert!(d.message.contains("EOF"), "{}", d.message);
}

#[test]
fn unknown_participant() {
    let text = format!(
        "{TWO}[[rounds]]\ngames = [ {{ home = \"alice\", away = \"zed\", result = \"1-0\" }} ]\n"
    );
    let (d, at) = fails(toml(&text), &text);
    assert_eq!(d.code, "tb::load::native::unknown_participant");
    assert_eq!(at, "\"zed\"");
    assert!(d.message.contains("zed"));

    let text = r#"{"participants": [{"id": "alice"}, {"id": "bob"}],
 "rounds": [{"games": [{"home": "alice", "away": "zed", "result": "1-0"}]}]}"#;
    let (d, at) = fails(json(text), text);
    assert_eq!(d.code, "tb::load::native::unknown_participant");
    assert_eq!(at, "\"zed\"");
    assert_eq!(d.location().unwrap().1, 2);

    // In a bye and in a decision.
    let text = format!("{TWO}[[rounds]]\nbyes = [ {{ id = \"nobody\" }} ]\n");
    let (d, at) = fails(toml(&text), &text);
    assert_eq!(
        (d.code, at.as_str()),
        ("tb::load::native::unknown_participant", "\"nobody\"")
    );
    let text =
        format!("{TWO}[[decisions]]\norder = [\"alice\", \"dave\"]\nreason = \"play-off\"\n");
    let (d, at) = fails(toml(&text), &text);
    assert_eq!(
        (d.code, at.as_str()),
        ("tb::load::native::unknown_participant", "\"dave\"")
    );
}

#[test]
fn paired_twice() {
    let text = format!(
        "{TWO}[[rounds]]\ngames = [ {{ home = \"alice\", away = \"bob\", result = \"1-0\" }}, {{ home = \"carol\", away = \"bob\", result = \"1-0\" }} ]\n"
    );
    let (d, at) = fails(toml(&text), &text);
    assert_eq!(d.code, "tb::load::native::paired_twice");
    assert_eq!(at, "\"bob\"");
    // The label points at the second appearance.
    assert!(d.labels[0].0.start > d.labels[1].0.start);

    // A game and a bye in the same round.
    let text = format!(
        "{TWO}[[rounds]]\ngames = [ {{ home = \"alice\", away = \"bob\", result = \"1-0\" }} ]\nbyes = [ {{ id = \"alice\", type = \"half\" }} ]\n"
    );
    let (d, at) = fails(toml(&text), &text);
    assert_eq!(
        (d.code, at.as_str()),
        ("tb::load::native::paired_twice", "\"alice\"")
    );

    // Playing oneself.
    let text = format!(
        "{TWO}[[rounds]]\ngames = [ {{ home = \"alice\", away = \"alice\", result = \"1-0\" }} ]\n"
    );
    let (d, _) = fails(toml(&text), &text);
    assert_eq!(d.code, "tb::load::native::paired_twice");

    // Half matches (a triangle) are allowed.
    let text = format!(
        "{TWO}[[rounds]]\ngames = [ {{ home = \"alice\", away = \"bob\", weight = 0.5, result = \"1-0\" }}, {{ home = \"carol\", away = \"bob\", weight = 0.5, result = \"1-0\" }}, {{ home = \"alice\", away = \"carol\", weight = 0.5, result = \"1-0\" }} ]\n"
    );
    assert!(toml(&text).is_ok());
}

#[test]
fn inconsistent_game() {
    let text = format!(
        "{TWO}[[rounds]]\ngames = [ {{ home = \"alice\", away = \"bob\", result = \"1-0\" }},\n  {{ home = \"bob\", away = \"alice\", result = \"1-0\" }} ]\n"
    );
    let (d, at) = fails(toml(&text), &text);
    assert_eq!(d.code, "tb::load::native::inconsistent_game");
    assert_eq!(at, "{ home = \"bob\", away = \"alice\", result = \"1-0\" }");
    assert_eq!(d.labels.len(), 2);
}

#[test]
fn round_out_of_range() {
    let text = format!("{TWO}[[rounds]]\nround = 0\nbyes = [ {{ id = \"alice\" }} ]\n");
    let (d, at) = fails(toml(&text), &text);
    assert_eq!(
        (d.code, at.as_str()),
        ("tb::load::native::round_out_of_range", "0")
    );

    let text = format!(
        "[event]\nrounds = 3\n{TWO}[[rounds]]\nround = 4\nbyes = [ {{ id = \"alice\" }} ]\n"
    );
    let (d, at) = fails(toml(&text), &text);
    assert_eq!(
        (d.code, at.as_str()),
        ("tb::load::native::round_out_of_range", "4")
    );

    let text = r#"{"event": {"rounds": 3}, "participants": [{"id": 1}], "rounds": [{"round": 7, "byes": [{"id": 1}]}]}"#;
    let (d, at) = fails(json(text), text);
    assert_eq!(
        (d.code, at.as_str()),
        ("tb::load::native::round_out_of_range", "7")
    );
}

#[test]
fn bad_result() {
    let text = format!(
        "{TWO}[[rounds]]\ngames = [ {{ home = \"alice\", away = \"bob\", result = \"1-1\" }} ]\n"
    );
    let (d, at) = fails(toml(&text), &text);
    assert_eq!(
        (d.code, at.as_str()),
        ("tb::load::native::bad_result", "\"1-1\"")
    );
    // A chess result in a cards event: another sport's result (issue 6).
    let text = format!("[event]\nsport = \"cards\"\n{TWO}[[rounds]]\ngames = [ {{ home = \"alice\", away = \"bob\", result = \"1/2-1/2\" }} ]\n");
    let (d, at) = fails(toml(&text), &text);
    assert_eq!(
        (d.code, at.as_str()),
        ("tb::load::native::mixed_sports", "\"1/2-1/2\"")
    );
    assert!(d.help.unwrap().contains("2-1-0"));
}

#[test]
fn no_result() {
    let text = format!(
        "{TWO}[[rounds]]\ngames = [ {{ home = \"alice\", away = \"bob\", imps = [1, 2] }} ]\n"
    );
    let (d, at) = fails(toml(&text), &text);
    assert_eq!(d.code, "tb::load::native::no_result");
    assert_eq!(at, "{ home = \"alice\", away = \"bob\", imps = [1, 2] }");
}

#[test]
fn duplicate_participant() {
    let text = format!("{TWO}[[participants]]\nid = \"bob\"\n");
    let (d, at) = fails(toml(&text), &text);
    assert_eq!(d.code, "tb::load::native::duplicate_participant");
    assert_eq!(at, "\"bob\"");
    assert_eq!(d.location().unwrap().1, 8);
    // An integer id and the same id as a string are the same id.
    let text = "[[participants]]\nid = 7\n[[participants]]\nid = \"7\"\n";
    let (d, at) = fails(toml(text), text);
    assert_eq!(
        (d.code, at.as_str()),
        ("tb::load::native::duplicate_participant", "\"7\"")
    );
}

#[test]
fn unknown_field() {
    let text = format!("{TWO}[[participants]]\nid = \"dan\"\nwithdrawn_afer = 3\n");
    let (d, at) = fails(toml(&text), &text);
    assert_eq!(
        (d.code, at.as_str()),
        ("tb::load::native::unknown_field", "withdrawn_afer")
    );
    assert!(d.help.unwrap().contains("withdrawn_after"));
    // In a game, a key whose value is not a pair is not a unit.
    let text = format!(
        "{TWO}[[rounds]]\ngames = [ {{ home = \"alice\", away = \"bob\", reslt = \"1-0\" }} ]\n"
    );
    let (d, at) = fails(toml(&text), &text);
    assert_eq!(
        (d.code, at.as_str()),
        ("tb::load::native::unknown_field", "reslt")
    );
    let text = r#"{"participants": [{"id": "a", "nmae": "A"}]}"#;
    let (d, at) = fails(json(text), text);
    assert_eq!(
        (d.code, at.as_str()),
        ("tb::load::native::unknown_field", "\"nmae\"")
    );
}

#[test]
fn bad_values() {
    for (text, at) in [
        ("[event]\nsport = \"chesss\"\n", "\"chesss\""),
        ("[event]\nvalues = { top = nan }\n", "nan"),
        ("[[participants]]\nid = 1.5\n", "1.5"),
        ("[[participants]]\nid = \"\"\n", "\"\""),
        ("[[participants]]\nid = \"a\"\nrating = 1850.5\n", "1850.5"),
        (
            "[[participants]]\nid = \"a\"\n[[rounds]]\nround = -1\n",
            "-1",
        ),
    ] {
        let (d, got) = fails(toml(text), text);
        assert_eq!(d.code, "tb::load::native::syntax", "{text}");
        assert_eq!(got, at, "{text}");
    }
    let text = r#"{"participants": [{"id": "a", "id": "b"}]}"#;
    let (d, at) = fails(json(text), text);
    assert_eq!(
        (d.code, at.as_str()),
        ("tb::load::native::syntax", "\"id\"")
    );
}

#[test]
fn several_errors_at_once() {
    let text = format!(
        "{TWO}[[participants]]\nid = \"bob\"\n[[rounds]]\ngames = [ {{ home = \"alice\", away = \"zed\", result = \"1-0\" }} ]\n"
    );
    let d = toml(&text).unwrap_err();
    assert_eq!(d.code, "tb::load::native::invalid");
    let codes: Vec<_> = d.related.iter().map(|r| r.code).collect();
    assert_eq!(
        codes,
        vec![
            "tb::load::native::duplicate_participant",
            "tb::load::native::unknown_participant"
        ]
    );
    assert!(d.plain().contains("unknown_participant"));

    // Two problems in one game are both reported.
    let text = format!(
        "{TWO}[[rounds]]\ngames = [ {{ home = \"alice\", away = \"zed\", result = \"2-2\" }} ]\n"
    );
    let d = toml(&text).unwrap_err();
    let codes: Vec<_> = d.related.iter().map(|r| r.code).collect();
    assert_eq!(
        codes,
        vec![
            "tb::load::native::unknown_participant",
            "tb::load::native::bad_result"
        ]
    );
}

#[test]
fn too_large() {
    let text = format!("# {}\n", "x".repeat(50 * 1024 * 1024));
    let d = toml(&text).unwrap_err();
    assert_eq!(d.code, "tb::load::too_large");
    let d = json(&text).unwrap_err();
    assert_eq!(d.code, "tb::load::too_large");

    let text = "[event]\nrounds = 10001\n";
    let (d, at) = fails(toml(text), text);
    assert_eq!((d.code, at.as_str()), ("tb::load::too_large", "10001"));
    let text = "[[participants]]\nid = 1\n[[rounds]]\nround = 20000\n";
    let (d, at) = fails(toml(text), text);
    assert_eq!((d.code, at.as_str()), ("tb::load::too_large", "20000"));

    // Participants × rounds is capped too: each becomes an entry.
    let mut text = String::from("[event]\nrounds = 10000\n");
    for i in 0..600 {
        text.push_str(&format!("[[participants]]\nid = {i}\n"));
    }
    let d = toml(&text).unwrap_err();
    assert_eq!(d.code, "tb::load::too_large");
}

#[test]
fn no_panic_on_truncated_or_garbled_input() {
    let inputs = [
        (example("chess-swiss.toml"), true),
        (example("cards-swiss.toml"), true),
        (BRIDGE_TOML.to_string(), true),
        (example("chess-swiss.json"), false),
        (BRIDGE_JSON.to_string(), false),
    ];
    let check = |text: &str, is_toml: bool| {
        let r = if is_toml { toml(text) } else { json(text) };
        if let Err(d) = r {
            // Rendering and locating must not panic either.
            let _ = d.plain();
            let _ = d.location();
            let _ = d.to_json();
            for (s, _) in d
                .labels
                .iter()
                .chain(d.related.iter().flat_map(|r| r.labels.iter()))
            {
                assert!(s.start <= s.end && s.end <= text.len());
                assert!(text.is_char_boundary(s.start) && text.is_char_boundary(s.end));
            }
        }
    };
    for (text, is_toml) in &inputs {
        // Every prefix (on char boundaries), stepping to keep the test quick.
        let step = (text.len() / 400).max(1);
        for cut in (0..text.len())
            .step_by(step)
            .filter(|&i| text.is_char_boundary(i))
        {
            check(&text[..cut], *is_toml);
        }
        // Garbling: replace one character with each of a few troublemakers.
        let garbage = [
            "\"", "{", "]", "=", ",", "\\", "é", "\n", "-", "9", "[", "}", "½", "\0",
        ];
        let positions: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        for (k, &pos) in positions.iter().enumerate().step_by(7) {
            let g = garbage[k % garbage.len()];
            let end = pos + text[pos..].chars().next().map_or(0, char::len_utf8);
            let garbled = format!("{}{}{}", &text[..pos], g, &text[end..]);
            check(&garbled, *is_toml);
        }
    }
    // Deep nesting and odd shapes.
    check(
        &format!("a = {}{}", "[".repeat(5000), "]".repeat(5000)),
        true,
    );
    check(&format!("{}{}", "[".repeat(5000), "]".repeat(5000)), false);
    check(
        "participants = 5\nrounds = \"x\"\nevent = []\ndecisions = {}\n",
        true,
    );
    check(
        r#"{"participants": [1, "a", null, [], {"id": null}], "rounds": [{"games": [1, {"home": []}]}]}"#,
        false,
    );
    check(
        r#"{"rounds": [{"round": 1e400}], "event": {"rounds": -0.0}}"#,
        false,
    );
    check("[[rounds]]\nround = 9223372036854775807\n", true);
    check(
        "[event]\nvalues = { x = 1e308, y = 1e-308, z = inf }\n",
        true,
    );
}

#[test]
fn every_example_in_the_format_documentation_loads() {
    let path = format!("{}/docs/data-format.md", env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(&path).unwrap();
    let mut tested = 0;
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        let lang = match line.trim() {
            "```toml" => "toml",
            "```json" => "json",
            _ => continue,
        };
        let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        let text = block.join("\n");
        // One-line fragments inside the field tables are not whole files.
        if lang == "toml" && !(text.starts_with('[') || text.starts_with('#')) {
            continue;
        }
        let r = if lang == "toml" {
            toml(&text)
        } else {
            json(&text)
        };
        match r {
            Ok(ev) => assert!(ev.warnings.is_empty(), "{:?}\n{text}", ev.warnings),
            Err(d) => panic!("{}\n{text}", d.plain()),
        }
        tested += 1;
    }
    assert!(tested >= 7, "only {tested} examples found");
}

/// A key typed twice in a TOML table is named in the error (toml 1.x says
/// only "duplicate key"; the loader adds the key from the span).
#[test]
fn a_duplicate_toml_key_is_named() {
    let text = "[event]\nname = \"a\"\nname = \"b\"\nsport = \"chess\"\n";
    let (d, at) = fails(toml(text), text);
    assert_eq!(d.code, "tb::load::native::syntax");
    assert!(d.message.contains("duplicate key `name`"), "{}", d.plain());
    assert_eq!(at, "name");
}
