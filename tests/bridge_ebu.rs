//! Seed 003, English Bridge Union White Book 143.5: every worked example,
//! and each definition, through the shipped `ebu/lib` and `ebu/split-tie`.

use crate::bridge_support;
use crate::common;
use bridge_support::*;
use common::{ebu_every_tie, inline, num, order, rank, shipped, value};
use tb::eval::Value;
use tb::model::Event;
use tb::rank::Standings;

// ------------------------------------------------------------ 143.5.2

/// 143.5.2, first example: A played X (final score 50), Y (40) and Z (30):
/// 120 tie-break points.
#[test]
fn tie_break_points_example_120() {
    let ev = load_toml(
        r#"
[event]
sport = "bridge"
kind = "team"
rounds = 3
[[participants]]
id = "A"
[[participants]]
id = "X"
[[participants]]
id = "Y"
[[participants]]
id = "Z"
[[rounds]]
round = 1
games = [ { home = "A", away = "X", points = [10, 50] } ]
[[rounds]]
round = 2
games = [ { home = "A", away = "Y", points = [10, 40] } ]
[[rounds]]
round = 3
games = [ { home = "A", away = "Z", points = [10, 30] } ]
"#,
    );
    let rs = ebu_every_tie();
    assert_eq!(value(&ev, &rs, "tie_break_points", "A"), num("120"));
}

/// 143.5.2, individual example: A partnered Z while playing against X and
/// Y; X, Y and Z finished on 50, 40 and 30: O / P = 90 / 30 = 3.0.
#[test]
fn tie_break_points_individual_example_3() {
    let ev = load_toml(
        r#"
[event]
sport = "bridge"
primary = "mp"
rounds = 3
[[participants]]
id = "A"
[[participants]]
id = "X"
[[participants]]
id = "Y"
[[participants]]
id = "Z"
[[participants]]
id = "F1"
[[participants]]
id = "F2"
[[participants]]
id = "F3"
[[participants]]
id = "F4"
[[participants]]
id = "F5"
[[rounds]]
round = 1
games = [ { home = "A", home_partner = "Z", away = "X", away_partner = "Y", mp = [10, 20] } ]
[[rounds]]
round = 2
games = [ { home = "X", home_partner = "F1", away = "Y", away_partner = "F2", mp = [30, 20] } ]
[[rounds]]
round = 3
games = [ { home = "Z", home_partner = "F3", away = "F4", away_partner = "F5", mp = [20, 0] } ]
"#,
    );
    let rs = ebu_every_tie();
    assert_eq!(value(&ev, &rs, "score", "X"), num("50"));
    assert_eq!(value(&ev, &rs, "score", "Y"), num("40"));
    assert_eq!(value(&ev, &rs, "score", "Z"), num("30"));
    assert_eq!(value(&ev, &rs, "opponents_scores", "A"), num("90"));
    assert_eq!(value(&ev, &rs, "partners_scores", "A"), num("30"));
    assert_eq!(value(&ev, &rs, "tie_break_points", "A"), num("3"));
}

/// 143.5.2, "Team A meets team B 1.5 times (once in a normal match and once
/// in a short triangle)": B's final score counts 1.5 times. A: B (19) x 1.5
/// + C (18) x 0.5 = 37.5 over two full rounds.
#[test]
fn tie_break_points_one_and_a_half_meetings() {
    let ev = load_toml(
        r#"
[event]
sport = "bridge"
kind = "team"
rounds = 2
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
games = [ { home = "A", away = "B", points = [12, 8] }, { home = "C", away = "D", points = [10, 10] } ]
[[rounds]]
round = 2
games = [
  { home = "A", away = "B", weight = 0.5, points = [6, 4] },
  { home = "A", away = "C", weight = 0.5, points = [5, 5] },
  { home = "B", away = "C", weight = 0.5, points = [7, 3] },
]
"#,
    );
    let rs = ebu_every_tie();
    assert_eq!(value(&ev, &rs, "score", "B"), num("19"));
    assert_eq!(value(&ev, &rs, "score", "C"), num("18"));
    assert_eq!(value(&ev, &rs, "tie_break_points", "A"), num("37.5"));
}

/// 143.5.2, "Team X withdraws half-way through a Swiss event with a score
/// of 40 VPs. This score is modified to become 80 VPs" for its opponents.
#[test]
fn tie_break_points_withdrawn_opponent_scaled_to_a_full_event() {
    let ev = load_toml(
        r#"
[event]
sport = "bridge"
kind = "team"
rounds = 4
[[participants]]
id = "A"
[[participants]]
id = "B"
[[participants]]
id = "X"
withdrawn_after = 2
[[participants]]
id = "F"
[[rounds]]
round = 1
games = [ { home = "A", away = "X", points = [0, 20] }, { home = "B", away = "F", points = [10, 10] } ]
[[rounds]]
round = 2
games = [ { home = "X", away = "B", points = [20, 0] }, { home = "A", away = "F", points = [10, 10] } ]
[[rounds]]
round = 3
games = [ { home = "A", away = "B", points = [10, 10] } ]
[[rounds]]
round = 4
games = [ { home = "B", away = "A", points = [10, 10] } ]
"#,
    );
    let rs = ebu_every_tie();
    assert_eq!(value(&ev, &rs, "final_score", "X"), num("40"));
    assert_eq!(value(&ev, &rs, "tbp_score", "X"), num("80"));
    // A met X (80), F (20) and B twice (30 each): 160.
    assert_eq!(value(&ev, &rs, "tie_break_points", "A"), num("160"));
}

/// 143.5.2: "if the contestant considered missed a round (eg they sat out)
/// then their Tie-break point score is adjusted pro rata": A sat out round
/// 3 and played B (final 30) and C (30): 60 over two of three rounds,
/// 60 x 3/2 = 90.
#[test]
fn tie_break_points_missed_round_pro_rata() {
    let ev = load_toml(
        r#"
[event]
sport = "bridge"
kind = "team"
rounds = 3
[[participants]]
id = "A"
[[participants]]
id = "B"
[[participants]]
id = "C"
[[rounds]]
round = 1
games = [ { home = "A", away = "B", points = [10, 10] } ]
byes = [ { id = "C", type = "full", points = 10 } ]
[[rounds]]
round = 2
games = [ { home = "A", away = "C", points = [10, 10] } ]
byes = [ { id = "B", type = "full", points = 10 } ]
[[rounds]]
round = 3
games = [ { home = "B", away = "C", points = [10, 10] } ]
byes = [ { id = "A", type = "full", points = 10 } ]
"#,
    );
    let rs = ebu_every_tie();
    assert_eq!(value(&ev, &rs, "tie_break_points", "A"), num("90"));
}

// ------------------------------------------------------------ 143.5.3

const COUNT_BACK: &str = r#"
import "ebu/lib"
procedure main {
    step (id == "A" or id == "B" or id == "C" or id == "D") desc then tied
}
procedure tied { step count_back desc }
standings main
"#;

/// Pairs playing board 1 (top 12) against opponents O1..O4; D played only
/// board 2.
fn one_board(a: i64, b: i64, c: Option<i64>) -> Event {
    let mut s = String::from(
        "[event]\nsport = \"bridge\"\nkind = \"pair\"\nprimary = \"mp\"\nrounds = 1\n",
    );
    for id in ["A", "B", "C", "D", "O1", "O2", "O3", "O4"] {
        s.push_str(&format!("[[participants]]\nid = \"{id}\"\n"));
    }
    s.push_str("[[rounds]]\nround = 1\ngames = [\n");
    for (p, o, sc) in [("A", "O1", Some(a)), ("B", "O2", Some(b)), ("C", "O3", c)] {
        if let Some(sc) = sc {
            s.push_str(&format!(
                "  {{ home = \"{p}\", away = \"{o}\", mp = [{sc}, {}], boards = [ {{ number = 1, home = {sc}, away = {}, top = 12 }} ] }},\n",
                12 - sc,
                12 - sc
            ));
        }
    }
    s.push_str("  { home = \"D\", away = \"O4\", mp = [6, 6] },\n]\n");
    load_toml(&s)
}

/// 143.5.3, the four-pair example: A best (above average), B and C joint
/// worst (below average), D did not play the board: 6, 1, 1 and 4.
#[test]
fn count_back_four_pairs_6_1_1_4() {
    let ev = one_board(10, 2, Some(2));
    let st = rank(&ev, &inline(COUNT_BACK));
    let cb = |id| column(&ev, &st, "Count-back", id);
    assert_eq!(cb("A"), num("6"));
    assert_eq!(cb("B"), num("1"));
    assert_eq!(cb("C"), num("1"));
    assert_eq!(cb("D"), num("4"));
    assert_eq!(&order(&ev, &st)[..4], ["A", "D", "B", "C"]);
}

/// 143.5.3: three contestants, "a 'top' of 4, an 'average' of 2 and a
/// 'total per board' of 6" (D is not in this tie).
#[test]
fn count_back_three_contestants_top_4_total_6() {
    let ev = one_board(10, 6, Some(6));
    let rs = inline(&COUNT_BACK.replace(" or id == \"D\"", ""));
    let st = rank(&ev, &rs);
    let cb = |id| column(&ev, &st, "Count-back", id);
    assert_eq!(cb("A"), num("4"));
    assert_eq!(cb("B"), num("1"));
    assert_eq!(cb("C"), num("1"));
}

/// 143.5.3 example (b): pair A 37 MPs on a 50 top, pair B 29 on the same
/// board against another pair: A wins the board (2-0). Had only B played
/// it, B would win it: 29 is above average (25).
#[test]
fn count_back_example_b_matchpoints() {
    let board = |a: Option<i64>, b: i64| {
        let mut s = String::from(
            "[event]\nsport = \"bridge\"\nkind = \"pair\"\nprimary = \"mp\"\nrounds = 1\n\
             [[participants]]\nid = \"A\"\n[[participants]]\nid = \"B\"\n\
             [[participants]]\nid = \"O1\"\n[[participants]]\nid = \"O2\"\n[[rounds]]\ngames = [\n",
        );
        match a {
            Some(a) => s.push_str(&format!("  {{ home = \"A\", away = \"O1\", mp = [{a}, {}], boards = [ {{ number = 1, home = {a}, away = {}, top = 50 }} ] }},\n", 50 - a, 50 - a)),
            None => s.push_str("  { home = \"A\", away = \"O1\", mp = [25, 25] },\n"),
        }
        s.push_str(&format!("  {{ home = \"O2\", away = \"B\", mp = [{}, {b}], boards = [ {{ number = 1, home = {}, away = {b}, top = 50 }} ] }},\n]\n", 50 - b, 50 - b));
        load_toml(&s)
    };
    let rs = inline(COUNT_BACK);
    let ev = board(Some(37), 29);
    let st = rank(&ev, &rs);
    assert_eq!(column(&ev, &st, "Count-back", "A"), num("2"));
    assert_eq!(column(&ev, &st, "Count-back", "B"), num("0"));
    let ev = board(None, 29);
    let st = rank(&ev, &rs);
    assert_eq!(column(&ev, &st, "Count-back", "A"), num("0"));
    assert_eq!(column(&ev, &st, "Count-back", "B"), num("2"));
}

/// 143.5.3 example (a): team A +6 IMPs on a board, team B +4 on the same
/// board against another team: A wins it. Had only B played it, B would
/// win it: +4 is above average (0).
#[test]
fn count_back_example_a_imps() {
    let board = |a_plays: bool| {
        let mut s = String::from(
            "[event]\nsport = \"bridge\"\nkind = \"team\"\nrounds = 1\n\
             [[participants]]\nid = \"A\"\n[[participants]]\nid = \"B\"\n\
             [[participants]]\nid = \"O1\"\n[[participants]]\nid = \"O2\"\n[[rounds]]\ngames = [\n",
        );
        if a_plays {
            s.push_str("  { home = \"A\", away = \"O1\", points = [12, 8], boards = [ { number = 5, home = 6, away = -6 } ] },\n");
        } else {
            s.push_str("  { home = \"A\", away = \"O1\", points = [12, 8] },\n");
        }
        s.push_str("  { home = \"B\", away = \"O2\", points = [12, 8], boards = [ { number = 5, home = 4, away = -4 } ] },\n]\n");
        load_toml(&s)
    };
    let rs = inline(COUNT_BACK);
    let ev = board(true);
    let st = rank(&ev, &rs);
    assert_eq!(column(&ev, &st, "Count-back", "A"), num("2"));
    let ev = board(false);
    let st = rank(&ev, &rs);
    assert_eq!(column(&ev, &st, "Count-back", "B"), num("2"));
    assert_eq!(column(&ev, &st, "Count-back", "A"), num("0"));
}

/// 143.5.5: an unplayed board carries the score awarded at the time (A: 7
/// of 12, an average-plus), which beats B's real 6 on that board.
#[test]
fn count_back_unplayed_board_143_5_5() {
    let ev = load_toml(
        r#"
[event]
sport = "bridge"
kind = "pair"
primary = "mp"
rounds = 1
[[participants]]
id = "A"
[[participants]]
id = "B"
[[participants]]
id = "O1"
[[participants]]
id = "O2"
[[rounds]]
games = [
  { home = "A", away = "O1", mp = [7, 5], boards = [ { number = 1, home = 7, away = 5, top = 12, played = false } ] },
  { home = "B", away = "O2", mp = [6, 6], boards = [ { number = 1, home = 6, away = 6, top = 12 } ] },
]
"#,
    );
    let st = rank(&ev, &inline(COUNT_BACK));
    assert_eq!(column(&ev, &st, "Count-back", "A"), num("2"));
    assert_eq!(column(&ev, &st, "Count-back", "B"), num("0"));
}

// ------------------------------------------------------------ 143.5.4

/// 143.5.4: two contestants who meet twice in a Swiss event play two
/// rounds, not a match: A won the first 12-8, B the second 13-7, so each
/// won one round and head-to-head leaves them level. In a double round
/// robin the two meetings are one match, which B won 21-19: B defeated A
/// and is ranked ahead on head-to-head. (Fillers bring both to 31.)
#[test]
fn matches_and_rounds_143_5_4() {
    let text = |system: &str| {
        format!(
            r#"
[event]
sport = "bridge"
system = "{system}"
kind = "team"
rounds = 3
scoring = {{ win = 20, draw = 10, loss = 0 }}
[[participants]]
id = "A"
[[participants]]
id = "B"
[[participants]]
id = "F1"
[[participants]]
id = "F2"
[[rounds]]
round = 1
games = [ {{ home = "A", away = "B", points = [12, 8] }}, {{ home = "F1", away = "F2", points = [10, 10] }} ]
[[rounds]]
round = 2
games = [ {{ home = "B", away = "A", points = [13, 7] }}, {{ home = "F1", away = "F2", points = [10, 10] }} ]
[[rounds]]
round = 3
games = [ {{ home = "A", away = "F1", points = [12, 8] }}, {{ home = "B", away = "F2", points = [10, 10] }} ]
"#
        )
    };
    let rs = ebu_every_tie();
    let ev = load_toml(&text("swiss"));
    assert_eq!(value(&ev, &rs, "matches_won", "A"), num("2"));
    assert_eq!(value(&ev, &rs, "matches_won", "B"), num("1"));
    let st = rank(&ev, &rs);
    let h2h = st
        .trace
        .iter()
        .find(|s| s.criterion == "Head-to-head" && s.group.len() == 2)
        .unwrap();
    assert_eq!(h2h.outcome, tb::rank::Outcome::NotSplit);
    let ev = load_toml(&text("round-robin"));
    // Against B one match (lost 19-21), against F1 one (won): 1 match won.
    assert_eq!(value(&ev, &rs, "matches_won", "A"), num("1"));
    let st = rank(&ev, &rs);
    assert_eq!(&order(&ev, &st)[..2], ["B", "A"]);
    assert_eq!(decided(&ev, &st, "B"), "Head-to-head");
}

/// 143.5.4: "An unplayed match/round is deemed to be a 'win' if the score
/// awarded ... is greater than average": a 12-VP bye is a win, a 10-VP one
/// is not.
#[test]
fn unplayed_round_won_if_above_average_143_5_4() {
    let ev = load_toml(
        r#"
[event]
sport = "bridge"
system = "swiss"
kind = "team"
rounds = 1
scoring = { win = 20, draw = 10, loss = 0 }
[[participants]]
id = "A"
[[participants]]
id = "B"
[[rounds]]
byes = [ { id = "A", type = "full", points = 12 }, { id = "B", type = "full", points = 10 } ]
"#,
    );
    let rs = ebu_every_tie();
    assert_eq!(value(&ev, &rs, "matches_won", "A"), num("1"));
    assert_eq!(value(&ev, &rs, "matches_won", "B"), num("0"));
}

// ------------------------------------------------------------ 143.5.6 and the order

/// 143.5.6 example: "A, B and C are tied. Team A has beaten both B and C,
/// whilst B and C have drawn their match. Team A wins the tie ... The
/// procedure now is to recommence the entire split-tie process from the
/// beginning, with only teams B and C being taken into account."
#[test]
fn restart_among_those_still_tied_a_b_c() {
    let mut t = Teams::swiss();
    t.m("A", "B", ("12", "8"), (30, 20), (1000, 1000))
        .m("A", "C", ("12", "8"), (30, 20), (1000, 1000))
        .m("B", "C", ("10", "10"), (20, 20), (1000, 1000))
        .balance("A", "30", (1, 1), (1, 1))
        .balance("B", "30", (1, 1), (1, 1))
        .balance("C", "30", (1, 1), (1, 1));
    let ev = t.load();
    let st = rank(&ev, &ebu_every_tie());
    assert_eq!(order(&ev, &st)[0], "A");
    assert_eq!(decided(&ev, &st, "A"), "Head-to-head");
    let names = |g: &Vec<usize>| {
        let mut v: Vec<&str> = g.iter().map(|&p| ev.participants[p].id.as_str()).collect();
        v.sort();
        v
    };
    // The first head-to-head (A, B, C) sends B and C back to the start...
    let first = st
        .trace
        .iter()
        .find(|s| s.criterion == "Head-to-head" && s.group.len() == 3)
        .unwrap();
    assert!(first
        .handoffs
        .iter()
        .any(|(g, to)| names(g) == ["B", "C"] && to == "restart split_tie"));
    // ... where head-to-head is applied again, to B and C alone.
    assert!(st
        .trace
        .iter()
        .any(|s| s.criterion == "Head-to-head" && names(&s.group) == ["B", "C"]));
}

/// 143.5.6 makes a difference: among A, B, C, D (all met) A beat B and C,
/// B beat C and D, C beat D, D beat A. Head-to-head: A 2, B 2, C 1, D 1.
/// Restarting among A and B, A beat B; among C and D, C beat D: A, B, C, D.
/// Going straight on to tie-break points instead would put B before A and
/// D before C (their fillers scored more).
#[test]
fn restart_recomputes_head_to_head_among_the_remaining() {
    let mut t = Teams::swiss();
    t.m("A", "B", ("12", "8"), (20, 20), (1000, 1000))
        .m("A", "C", ("12", "8"), (20, 20), (1000, 1000))
        .m("D", "A", ("12", "8"), (20, 20), (1000, 1000))
        .m("B", "C", ("12", "8"), (20, 20), (1000, 1000))
        .m("B", "D", ("12", "8"), (20, 20), (1000, 1000))
        .m("C", "D", ("12", "8"), (20, 20), (1000, 1000))
        .balance("A", "40", (1, 1), (1, 1))
        .balance("B", "40", (1, 1), (1, 1))
        .balance("C", "40", (1, 1), (1, 1))
        .balance("D", "40", (1, 1), (1, 1));
    let ev = t.load();
    let rs = ebu_every_tie();
    let st = rank(&ev, &rs);
    let top: Vec<String> = order(&ev, &st)
        .into_iter()
        .filter(|i| !i.starts_with("filler"))
        .collect();
    assert_eq!(top, ["A", "B", "C", "D"]);
    for id in ["A", "B", "C", "D"] {
        assert_eq!(decided(&ev, &st, id), "Head-to-head");
    }
    // Tie-break points alone would have ordered each pair the other way.
    let tbp = |id| match value(&ev, &rs, "tie_break_points", id) {
        Value::Num(n) => n,
        v => panic!("{v:?}"),
    };
    assert!(tbp("B") > tbp("A") && tbp("D") > tbp("C"));
}

/// The EBU's published order puts head-to-head before tie-break points: A
/// beat B in their match, though B's opponents scored more.
#[test]
fn head_to_head_before_tie_break_points() {
    let mut t = Teams::swiss();
    t.m("A", "B", ("12", "8"), (30, 20), (1000, 1000))
        .balance("A", "25", (1, 1), (1, 1))
        .balance("B", "25", (1, 1), (1, 1));
    let ev = t.load();
    let rs = ebu_every_tie();
    let st = rank(&ev, &rs);
    assert_eq!(&order(&ev, &st)[..2], ["A", "B"]);
    assert_eq!(decided(&ev, &st, "A"), "Head-to-head");
}

/// Contestants that did not all meet skip head-to-head; tie-break points
/// decide: A's one opponent X finished on 13, B's opponent Y on 7.
#[test]
fn tie_break_points_when_they_never_met() {
    let mut t = Teams::swiss();
    t.m("A", "X", ("15", "5"), (40, 10), (1000, 1000))
        .m("B", "Y", ("15", "5"), (40, 10), (1000, 1000))
        .m("X", "Y", ("8", "2"), (25, 15), (1000, 1000));
    let ev = t.load();
    let st = rank(&ev, &ebu_every_tie());
    assert_eq!(&order(&ev, &st)[..2], ["A", "B"]);
    assert_eq!(decided(&ev, &st, "A"), "Tie-break points");
    assert!(st
        .trace
        .iter()
        .any(|s| s.criterion == "Head-to-head" && s.outcome == tb::rank::Outcome::Skipped));
}

// ------------------------------------------------------------ 143.5.7, 143.5.1

/// 143.5.7: A scored 1 VP more at the table but was fined 1 VP, so A and B
/// are level on the final score; they never met and have the same
/// tie-break points. In the basic method (IMPs) A has +10 and B +8; the
/// 1-VP fine converts to `imps_per_vp` IMPs: at 1 IMP A stays ahead (9), at
/// 3 IMPs B is ahead (A 7).
#[test]
fn penalty_converted_to_imps_143_5_7() {
    let mut t = Teams::swiss();
    t.m("A", "F1", ("13", "0"), (30, 20), (1000, 1000))
        .m("B", "F2", ("12", "0"), (28, 20), (1000, 1000))
        .value("A", "penalty_vp", "1");
    let ev = t.load();
    let check = |rate: &str| {
        let rs = common::shipped_with(
            "ebu/split-tie",
            &[("imps_per_vp", rate), ("split_every_tie", "1")],
        );
        let st = rank(&ev, &rs);
        (order(&ev, &st), decided(&ev, &st, "A"))
    };
    let rs = ebu_every_tie();
    assert_eq!(value(&ev, &rs, "final_score", "A"), num("12"));
    assert_eq!(value(&ev, &rs, "basic_score", "A"), num("9"));
    let (o, d) = check("1");
    assert_eq!(&o[..2], ["A", "B"]);
    assert_eq!(d, "Basic");
    let (o, _) = check("3");
    assert_eq!(&o[..2], ["B", "A"]);
}

/// 143.5.1: an event not scored by VPs (a pairs event) has the same basic
/// and final methods: the basic score is the final score.
#[test]
fn basic_method_is_the_final_method_without_vps() {
    let ev = example("bridge-pairs.toml");
    let rs = ebu_every_tie();
    assert_eq!(value(&ev, &rs, "basic_score", "1"), num("20"));
}

// ------------------------------------------------------------ the ballot

/// The last step of the EBU's order is a ballot: without a seed the tie is
/// reported unresolved with that remedy; with `--seed` it is drawn, and the
/// seed is part of the decision.
#[test]
fn ballot_needs_a_seed() {
    let mut t = Teams::swiss();
    t.m("A", "B", ("10", "10"), (20, 20), (1000, 1000));
    let ev = t.load();
    let rs = ebu_every_tie();
    let st = rank(&ev, &rs);
    assert_eq!(st.rows[0].rank, 1);
    assert_eq!(st.rows[1].rank, 1);
    assert_eq!(
        st.rows[0].unresolved.as_deref(),
        Some("drawing of lots (give --seed to draw) (EBU published order (5): ballot)")
    );
    let st = tb::rank::rank(
        &ev,
        &rs,
        &tb::rank::Options {
            lots_seed: Some(7),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(st.rows[1].rank, 2);
    assert_eq!(decided(&ev, &st, "A"), "drawing of lots (seed 7)");
}

/// The shipped individual example: Ben and Gus level on 37, never met;
/// tie-break points O / P: Gus 166/81, Ben 166/85.
#[test]
fn example_individual() {
    let ev = example("bridge-individual.toml");
    let rs = ebu_every_tie();
    assert_eq!(
        value(&ev, &rs, "tie_break_points", "7"),
        Value::Num(tb::num::Num::ratio(166, 81).unwrap())
    );
    assert_eq!(
        value(&ev, &rs, "tie_break_points", "2"),
        Value::Num(tb::num::Num::ratio(166, 85).unwrap())
    );
    let st = rank(&ev, &rs);
    assert_eq!(&order(&ev, &st)[..2], ["7", "2"]);
    assert_eq!(decided(&ev, &st, "7"), "Tie-break points");
}

/// White Book 143.4: which ties are split. The example event names a
/// trophy for 1st in its data (`prize_places = 1`): Gus and Ben, level on
/// 37 at places 1-2, are split (tie-break points); Ann and Hal, level on 34
/// at places 3-4, straddle no named place and share 3rd. Without the event
/// value every tie is shared; `--param qualifying_places=3` splits the tie
/// across 3rd (Hal 3rd on tie-break points, Ann 4th).
#[test]
fn only_the_ties_the_event_names_are_split_143_4() {
    let ev = example("bridge-individual.toml");
    let st = rank(&ev, &shipped("ebu/split-tie"));
    let ranks = |st: &Standings| -> Vec<(String, usize)> {
        st.rows
            .iter()
            .take(4)
            .map(|r| (ev.participants[r.pid].id.clone(), r.rank))
            .collect()
    };
    let want = |v: &[(&str, usize)]| -> Vec<(String, usize)> {
        v.iter().map(|(i, r)| (i.to_string(), *r)).collect()
    };
    assert_eq!(ranks(&st), want(&[("7", 1), ("2", 2), ("1", 3), ("8", 3)]));
    let st = rank(
        &ev,
        &common::shipped_with("ebu/split-tie", &[("qualifying_places", "3")]),
    );
    assert_eq!(ranks(&st), want(&[("7", 1), ("2", 2), ("8", 3), ("1", 4)]));
    // Without the event's value: no place named, every tie shared.
    let text = std::fs::read_to_string("examples/bridge-individual.toml")
        .unwrap()
        .replace("values = { prize_places = 1 }\n", "");
    let plain = load_toml(&text);
    let st = rank(&plain, &shipped("ebu/split-tie"));
    assert_eq!((st.rows[0].rank, st.rows[1].rank), (1, 1));
    assert_eq!(st.rows[2].rank, 3);
    assert_eq!(st.rows[3].rank, 3);
}
