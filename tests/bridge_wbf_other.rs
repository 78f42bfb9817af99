//! Seed 000, WBF Procedures for Tie Breaking: section 2 (knockout), section
//! 4 (pairs), section 5 (BAM), and the quotients' zero denominators, through
//! the shipped `wbf/*` rulesets.

use crate::bridge_support;
use crate::common;
use bridge_support::*;
use common::{num, order, rank, shipped, value};
use tb::eval::Value;

/// The article of the step that decided a participant's place.
fn decided_cite(ev: &tb::model::Event, st: &tb::rank::Standings, id: &str) -> String {
    decided_step(ev, st, id)
        .and_then(|d| d.cite.clone())
        .unwrap_or_default()
}

// ------------------------------------------------------------ quotients

/// 1.1(a), 1.1(d): a team that lost no IMPs (or total points) has an
/// infinite quotient, above any finite one; a team that neither won nor
/// lost any has quotient 1 (the ruleset's documented meaning of a zero
/// denominator, which the text leaves open).
#[test]
fn quotients_with_a_zero_denominator() {
    let mut t = Teams::round_robin();
    t.m("A", "B", ("15", "5"), (12, 0), (900, 0))
        .m("C", "D", ("10", "10"), (0, 0), (0, 0));
    let ev = t.load();
    let rs = shipped("wbf/round-robin");
    assert_eq!(value(&ev, &rs, "imp_quotient", "A"), Value::Inf);
    assert_eq!(value(&ev, &rs, "total_point_quotient", "A"), Value::Inf);
    assert_eq!(value(&ev, &rs, "imp_quotient", "B"), num("0"));
    assert_eq!(value(&ev, &rs, "imp_quotient", "C"), num("1"));
    assert_eq!(value(&ev, &rs, "total_point_quotient", "D"), num("1"));
}

/// An infinite IMP quotient wins 1.1(a) against a finite one: A (12 won,
/// none lost) and B (40 won, 8 lost: 5) level on VPs; A first.
#[test]
fn an_infinite_quotient_ranks_first() {
    let mut t = Teams::round_robin();
    t.m("A", "F1", ("15", "5"), (12, 0), (1000, 900)).m(
        "B",
        "F2",
        ("15", "5"),
        (40, 8),
        (1000, 900),
    );
    let ev = t.load();
    let st = rank(&ev, &shipped("wbf/round-robin"));
    assert_eq!(&order(&ev, &st)[..2], ["A", "B"]);
    assert_eq!(decided_cite(&ev, &st, "A"), "1.1(a)");
}

// ------------------------------------------------------------ 2 knockout

/// A knockout final between A and B: the qualification match (stage
/// `qualification`, won by B) and the two segments of the knockout match
/// (stage `knockout`), A's carry-over written on the match.
fn knockout(rank_a: u32, rank_b: u32, carry_a: &str, ko: [(i64, i64); 2]) -> tb::model::Event {
    let text = format!(
        r#"[event]
sport = "bridge"
system = "knockout"
kind = "team"
primary = "vp"
[[participants]]
id = "A"
values = {{ qualification_rank = {rank_a} }}
[[participants]]
id = "B"
values = {{ qualification_rank = {rank_b} }}
[[rounds]]
round = 1
stage = "qualification"
games = [ {{ home = "A", away = "B", vp = [7.6, 12.4], imps = [31, 40], total = [2300, 2500] }} ]
[[rounds]]
round = 2
stage = "knockout"
games = [ {{ home = "A", away = "B", points = [0, 0], imps = [{}, {}], carryover = [{carry_a}, 0] }} ]
[[rounds]]
round = 3
stage = "knockout"
games = [ {{ home = "B", away = "A", points = [0, 0], imps = [{}, {}] }} ]
"#,
        ko[0].0, ko[0].1, ko[1].0, ko[1].1
    );
    load_toml(&text)
}

/// 2: a tied knockout match (A 100 + 3 carried over, B 103) goes to the
/// higher-ranked team of the qualification: A (2nd) over B (4th), although
/// B won the qualification match.
#[test]
fn knockout_tie_goes_to_the_higher_ranked_qualifier() {
    let ev = knockout(2, 4, "3", [(60, 50), (53, 40)]);
    let st = rank(&ev, &shipped("wbf/knockout"));
    assert_eq!(order(&ev, &st), ["A", "B"]);
    assert_eq!(
        decided_cite(&ev, &st, "A"),
        "2: higher-ranked team at the end of the qualification"
    );
}

/// 2: the same ranks (e.g. first of two qualifying groups): the team that
/// won the qualification match, B, wins.
#[test]
fn knockout_then_the_qualification_match() {
    let ev = knockout(1, 1, "3", [(60, 50), (53, 40)]);
    let st = rank(&ev, &shipped("wbf/knockout"));
    assert_eq!(order(&ev, &st), ["B", "A"]);
    assert_eq!(
        decided_cite(&ev, &st, "B"),
        "2: the team that won the qualification match"
    );
}

/// No tie: the knockout match decides, carry-over included (A 100 + 4).
#[test]
fn knockout_match_decides_with_carryover() {
    let ev = knockout(4, 1, "4", [(60, 50), (53, 40)]);
    let st = rank(&ev, &shipped("wbf/knockout"));
    assert_eq!(order(&ev, &st), ["A", "B"]);
    assert_eq!(st.rows[0].values[0], num("104"));
}

/// The shipped example: 154-154 after carry-over; Aces ranked 2nd in the
/// qualification, Bidders 4th.
#[test]
fn example_knockout() {
    let ev = example("bridge-knockout.toml");
    let st = rank(&ev, &shipped("wbf/knockout"));
    assert_eq!(order(&ev, &st), ["A", "B"]);
}

// ------------------------------------------------------------ 4 pairs

fn pairs(sessions: &[(&str, [&str; 2])]) -> tb::model::Event {
    let mut s = String::from(
        "[event]\nsport = \"bridge\"\nsystem = \"movement\"\nkind = \"pair\"\nprimary = \"mp\"\nrounds = 1\n",
    );
    for (id, [a, b]) in sessions {
        s.push_str(&format!(
            "[[participants]]\nid = \"{id}\"\nsessions = [{a}, {b}]\n"
        ));
    }
    s.push_str("[[rounds]]\nround = 1\nbyes = [");
    for (id, [a, b]) in sessions {
        let total = tb::num::Num::parse(a)
            .unwrap()
            .add(tb::num::Num::parse(b).unwrap())
            .unwrap();
        s.push_str(&format!(
            "{{ id = \"{id}\", type = \"full\", points = {} }},",
            total.to_exact_decimal().unwrap()
        ));
    }
    s.push_str("]\n");
    load_toml(&s)
}

/// 4: tied pairs are separated by their best session: P1 and P2 level on
/// 111, best sessions 61 and 60; P3 and P4 level on 105, best sessions 55
/// and 53.
#[test]
fn pairs_best_session_then_next_best() {
    let ev = pairs(&[
        ("P1", ["61", "50"]),
        ("P2", ["60", "51"]),
        ("P3", ["55", "50"]),
        ("P4", ["52", "53"]),
    ]);
    let st = rank(&ev, &shipped("wbf/pairs"));
    assert_eq!(order(&ev, &st), ["P1", "P2", "P3", "P4"]);
    assert_eq!(decided_cite(&ev, &st, "P1"), "4");
    assert_eq!(decided_cite(&ev, &st, "P3"), "4");
}

/// 4: the best sessions are equal, the next best differ (three sessions).
#[test]
fn pairs_next_best_session() {
    let text = "[event]\nsport = \"bridge\"\nkind = \"pair\"\nrounds = 1\n\
        [[participants]]\nid = \"P1\"\nsessions = [60, 55, 40]\n\
        [[participants]]\nid = \"P2\"\nsessions = [60, 50, 45]\n\
        [[rounds]]\nbyes = [ { id = \"P1\", type = \"full\", points = 155 }, { id = \"P2\", type = \"full\", points = 155 } ]\n";
    let ev = load_toml(text);
    let st = rank(&ev, &shipped("wbf/pairs"));
    assert_eq!(order(&ev, &st), ["P1", "P2"]);
    assert_eq!(
        decided_cite(&ev, &st, "P1"),
        "4: further ties are broken likewise"
    );
}

/// The shipped example: the best session separates Archer - Bell (11) from
/// Carter - Dunn (10); Ellis - Ford and Grant - Hale have the same sessions
/// (9 and 6), and the matchpoints against the highest-ranked pair both
/// played (Archer - Bell, 20) decide: Grant - Hale 5, Ellis - Ford 1.
#[test]
fn example_pairs_sessions_then_common_opponents() {
    let ev = example("bridge-pairs.toml");
    let st = rank(&ev, &shipped("wbf/pairs"));
    assert_eq!(order(&ev, &st), ["1", "2", "4", "3", "5", "6"]);
    assert_eq!(decided_cite(&ev, &st, "1"), "4");
    assert_eq!(decided_cite(&ev, &st, "4"), "4, second paragraph");
}

/// 4, second paragraph, "and on down": X and Y level in every session and
/// level against the highest-ranked common opponent O1; the next one, O2,
/// decides. O3 is not common (only X played it) and does not count.
#[test]
fn pairs_common_opponents_on_down_the_ranking() {
    let text = r#"
[event]
sport = "bridge"
kind = "pair"
primary = "mp"
rounds = 3

[[participants]]
id = "X"
sessions = [30]
[[participants]]
id = "Y"
sessions = [30]
[[participants]]
id = "O1"
[[participants]]
id = "O2"
[[participants]]
id = "O3"
[[participants]]
id = "O4"

[[rounds]]
round = 1
games = [
  { home = "X", away = "O1", mp = [10, 10], boards = [ { number = 1, home = 5, away = 5, top = 10 }, { number = 2, home = 5, away = 5, top = 10 } ] },
  { home = "Y", away = "O2", mp = [6, 14], boards = [ { number = 3, home = 3, away = 7, top = 10 }, { number = 4, home = 3, away = 7, top = 10 } ] },
  { home = "O3", away = "O4", mp = [20, 0] },
]
[[rounds]]
round = 2
games = [
  { home = "Y", away = "O1", mp = [10, 10], boards = [ { number = 1, home = 5, away = 5, top = 10 }, { number = 2, home = 5, away = 5, top = 10 } ] },
  { home = "X", away = "O2", mp = [12, 8], boards = [ { number = 3, home = 6, away = 4, top = 10 }, { number = 4, home = 6, away = 4, top = 10 } ] },
  { home = "O3", away = "O4", mp = [20, 0] },
]
[[rounds]]
round = 3
games = [
  { home = "X", away = "O3", mp = [8, 12], boards = [ { number = 5, home = 4, away = 6, top = 10 }, { number = 6, home = 4, away = 6, top = 10 } ] },
  { home = "Y", away = "O4", mp = [14, 6], boards = [ { number = 5, home = 7, away = 3, top = 10 }, { number = 6, home = 7, away = 3, top = 10 } ] },
]
"#;
    let ev = load_toml(text);
    let st = rank(&ev, &shipped("wbf/pairs"));
    let o = order(&ev, &st);
    let x = o.iter().position(|i| i == "X").unwrap();
    let y = o.iter().position(|i| i == "Y").unwrap();
    assert!(x < y, "{o:?}");
    assert_eq!(decided_cite(&ev, &st, "X"), "4, second paragraph");
}

// ------------------------------------------------------------ 5 BAM

/// The shipped example, 5(a): Aces (6 + 1 carried over) and Bidders (6.5 +
/// 0.5) level on 7; without carry-over Bidders are ahead.
#[test]
fn example_bam_without_carryover_5_a() {
    let ev = example("bridge-bam.toml");
    let st = rank(&ev, &shipped("wbf/bam"));
    assert_eq!(order(&ev, &st), ["C", "B", "A", "D"]);
    assert_eq!(decided_cite(&ev, &st, "B"), "5(a)");
}

fn bam(body: &str) -> tb::model::Event {
    load_toml(&format!(
        "[event]\nsport = \"bridge\"\nsystem = \"round-robin\"\nkind = \"team\"\n{body}"
    ))
}

/// 5(b): A and B level on 4 with no carry-over. A's opponents C and D
/// finished on 5 and 6 (average 5.5), B's opponents E and F on 2 and 3
/// (average 2.5): A first.
#[test]
fn bam_opponents_average_5_b() {
    let ev = bam(r#"rounds = 2
[[participants]]
id = "A"
[[participants]]
id = "B"
[[participants]]
id = "C"
[[participants]]
id = "D"
[[participants]]
id = "E"
[[participants]]
id = "F"
[[rounds]]
round = 1
games = [ { home = "A", away = "C", points = [2, 2] }, { home = "B", away = "E", points = [3, 1] }, { home = "D", away = "F", points = [4, 0] } ]
[[rounds]]
round = 2
games = [ { home = "A", away = "D", points = [2, 2] }, { home = "B", away = "F", points = [1, 3] }, { home = "C", away = "E", points = [3, 1] } ]
"#);
    let rs = shipped("wbf/bam");
    assert_eq!(value(&ev, &rs, "opponents_average", "A"), num("5.5"));
    assert_eq!(value(&ev, &rs, "opponents_average", "B"), num("2.5"));
    let st = rank(&ev, &rs);
    let o = order(&ev, &st);
    assert!(o.iter().position(|x| x == "A") < o.iter().position(|x| x == "B"));
    assert_eq!(decided_cite(&ev, &st, "A"), "5(b)");
}

/// 5(c): A and B level on 8 and on their opponents' average (8), but A
/// scored its 6 against C (final 10) and its 2 against D (6), weighted
/// (6 x 10 + 2 x 6) / 2 = 36, while B scored its 6 against E (2) and its 2
/// against F (14), (6 x 2 + 2 x 14) / 2 = 20: A first.
#[test]
fn bam_weighted_average_5_c() {
    let ev = bam(r#"rounds = 2
[[participants]]
id = "A"
[[participants]]
id = "B"
[[participants]]
id = "C"
[[participants]]
id = "D"
[[participants]]
id = "E"
[[participants]]
id = "F"
[[rounds]]
round = 1
games = [ { home = "A", away = "C", points = [6, 2] }, { home = "B", away = "E", points = [6, 2] }, { home = "D", away = "F", points = [0, 8] } ]
[[rounds]]
round = 2
games = [ { home = "A", away = "D", points = [2, 6] }, { home = "B", away = "F", points = [2, 6] }, { home = "C", away = "E", points = [8, 0] } ]
"#);
    let rs = shipped("wbf/bam");
    assert_eq!(value(&ev, &rs, "weighted_average", "A"), num("36"));
    assert_eq!(value(&ev, &rs, "weighted_average", "B"), num("20"));
    let st = rank(&ev, &rs);
    let o = order(&ev, &st);
    assert!(o.iter().position(|x| x == "A") < o.iter().position(|x| x == "B"));
    assert_eq!(decided_cite(&ev, &st, "A"), "5(c)");
    // (d) was skipped for them: the teams never faced one another.
    assert!(st.trace.iter().all(|s| s.cite.as_deref() != Some("5(d)")));
}

/// 5(d) skipped when the tied teams never met: A and B (4 each) both drew
/// with C (7) and D (5), so (b) and (c) are level too; with no boards in
/// common the tie is unresolved (section 5 gives no further test).
#[test]
fn bam_teams_that_never_met_5_d_skipped() {
    let ev = bam(r#"rounds = 3
[[participants]]
id = "A"
[[participants]]
id = "B"
[[participants]]
id = "C"
[[participants]]
id = "D"
[[rounds]]
round = 1
games = [ { home = "A", away = "C", points = [2, 2] }, { home = "B", away = "D", points = [2, 2] } ]
[[rounds]]
round = 2
games = [ { home = "A", away = "D", points = [2, 2] }, { home = "B", away = "C", points = [2, 2] } ]
[[rounds]]
round = 3
games = [ { home = "C", away = "D", points = [3, 1] } ]
"#);
    let st = rank(&ev, &shipped("wbf/bam"));
    let a = st
        .rows
        .iter()
        .find(|r| ev.participants[r.pid].id == "A")
        .unwrap();
    assert_eq!(
        a.unresolved.as_deref(),
        Some("no further test in section 5 (5)")
    );
    assert!(st.trace.iter().any(|s| s.cite.as_deref() == Some("5(d)")
        && s.outcome == tb::rank::Outcome::Skipped
        && s.group.len() == 2));
}

/// 5(d) and 5(e): A and B level on score and on (b), (c). If they met, the
/// direct match decides; here they drew it, and the net total points on
/// the boards both teams played decide (A +30, B -30 on boards 1-2).
#[test]
fn bam_direct_match_then_common_boards_5_d_e() {
    let ev = bam(r#"rounds = 1
[[participants]]
id = "A"
[[participants]]
id = "B"
[[rounds]]
round = 1
games = [ { home = "A", away = "B", points = [1, 1], boards = [ { number = 1, home = 50, away = -50 }, { number = 2, home = -20, away = 20 } ] } ]
"#);
    let st = rank(&ev, &shipped("wbf/bam"));
    assert_eq!(order(&ev, &st), ["A", "B"]);
    assert_eq!(decided_cite(&ev, &st, "A"), "5(e)");
    assert!(st
        .trace
        .iter()
        .any(|s| s.cite.as_deref() == Some("5(d)") && s.outcome == tb::rank::Outcome::NotSplit));
}
