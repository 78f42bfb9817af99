//! Seed 000, WBF Procedures for Tie Breaking, section 3 (Swiss team
//! events), through the shipped `wbf/swiss-teams` ruleset: Swiss points
//! first, then 3.1, 3.2 and 3.3 in their own order, with teams that never
//! met (a team earns nothing against a team it did not play, so the
//! head-to-head steps leave them level).
//!
//! Swiss points are made equal where a test needs it by giving the tied
//! teams the same opponents' totals: they play each other and a shared
//! filler team `F` (or `F1`, `F2`).

use crate::bridge_support;
use crate::common;
use bridge_support::*;
use common::{order, rank, shipped};
use tb::model::Event;
use tb::rank::Standings;

fn run(t: &Teams, ruleset: &str) -> (Event, Standings) {
    let ev = t.load();
    let st = rank(&ev, &shipped(ruleset));
    (ev, st)
}

fn top(ev: &Event, st: &Standings) -> Vec<String> {
    order(ev, st)
        .into_iter()
        .filter(|id| !id.starts_with('F') && !id.starts_with("filler"))
        .collect()
}

/// Section 3's example: team A played X (50 VPs), Y (40) and Z (30), so its
/// Swiss points are 120.
#[test]
fn swiss_points_example_120() {
    let mut t = Teams::swiss();
    t.m("A", "X", ("10", "50"), (20, 20), (1000, 1000))
        .m("A", "Y", ("10", "40"), (20, 20), (1000, 1000))
        .m("A", "Z", ("10", "30"), (20, 20), (1000, 1000));
    let ev = t.load();
    let rs = shipped("wbf/swiss-teams");
    assert_eq!(
        common::value(&ev, &rs, "swiss_points", "A"),
        common::num("120")
    );
}

/// The shipped example: Aces and Finesse level on 38 VPs, Aces ahead on
/// Swiss points (95 to 85); Clubs and Eagles level on 30 VPs and 82 Swiss
/// points, never met: 3.1 i leaves them level and 3.1 ii (IMP quotient
/// 82/77 against 79/78) puts Clubs first.
#[test]
fn example_swiss_points_then_3_1_ii_for_teams_that_never_met() {
    let ev = example("bridge-swiss-teams.toml");
    let st = rank(&ev, &shipped("wbf/swiss-teams"));
    assert_eq!(order(&ev, &st), ["A", "F", "C", "E", "B", "D"]);
    assert_eq!(placed_by(&ev, &st, "A"), pc("swiss", "3: Swiss points"));
    assert_eq!(placed_by(&ev, &st, "C"), pc("swiss_two_teams", "3.1 ii"));
}

/// 3.1 puts the match between the two teams first (1.1 puts the IMP
/// quotient first): A beat B 30-20 IMPs but B has the better IMP quotient.
/// Both played B/A and the filler F, so their Swiss points are equal.
/// Swiss: A first by 3.1 i. The same event ranked as a round robin puts B
/// first by 1.1(a).
#[test]
fn two_teams_match_first_3_1_i() {
    let mut t = Teams::swiss();
    t.m("A", "B", ("12", "8"), (30, 20), (1000, 1000))
        .balance_vs("A", Some("F"), "25", (1, 1), (1, 1))
        .balance_vs("B", Some("F"), "25", (3, 2), (1, 1));
    let (ev, st) = run(&t, "wbf/swiss-teams");
    assert_eq!(top(&ev, &st), ["A", "B"]);
    assert_eq!(placed_by(&ev, &st, "A"), pc("swiss_two_teams", "3.1 i"));
    let (ev, st) = run(&t, "wbf/round-robin");
    assert_eq!(top(&ev, &st), ["B", "A"]);
}

/// 3.1 with teams that never met: A and B each played the fillers F1 and
/// F2 (same Swiss points) and not each other. 3.1 i gives both 0 and
/// cannot separate them; 3.1 ii, the IMP quotient (A 3/2, B 1), decides.
#[test]
fn two_teams_that_never_met_3_1_ii() {
    let mut t = Teams::swiss();
    t.m("A", "F1", ("15", "5"), (30, 10), (1000, 1000))
        .m("B", "F1", ("15", "5"), (30, 10), (1000, 1000))
        .balance_vs("A", Some("F2"), "25", (3, 2), (1, 1))
        .balance_vs("B", Some("F2"), "25", (1, 1), (1, 1));
    let (ev, st) = run(&t, "wbf/swiss-teams");
    assert_eq!(top(&ev, &st), ["A", "B"]);
    assert_eq!(placed_by(&ev, &st, "A"), pc("swiss_two_teams", "3.1 ii"));
    // 3.1 i was applied and did not separate them.
    let i = st
        .trace
        .iter()
        .find(|s| s.cite.as_deref() == Some("3.1 i"))
        .unwrap();
    assert_eq!(i.outcome, tb::rank::Outcome::NotSplit);
}

/// 3.2 i comes before the IMP quotient (1.2 puts it after): A beat B and C
/// but has the worst IMP quotient. Swiss: A first by 3.2 i, and B and C go
/// to 3.1, where B's 25-20 win decides (3.1 i). Round robin: A last.
#[test]
fn three_teams_one_beat_both_first_3_2_i() {
    let mut t = Teams::swiss();
    t.m("A", "B", ("12", "8"), (21, 20), (1000, 1000))
        .m("A", "C", ("12", "8"), (21, 20), (1000, 1000))
        .m("B", "C", ("11", "9"), (25, 20), (1000, 1000))
        .balance_vs("A", Some("F"), "30", (1, 2), (1, 1))
        .balance_vs("B", Some("F"), "30", (1, 1), (1, 1))
        .balance_vs("C", Some("F"), "30", (1, 1), (1, 1));
    let (ev, st) = run(&t, "wbf/swiss-teams");
    assert_eq!(top(&ev, &st), ["A", "B", "C"]);
    assert_eq!(placed_by(&ev, &st, "A"), pc("swiss_three_teams", "3.2 i"));
    assert_eq!(placed_by(&ev, &st, "B"), pc("swiss_two_teams", "3.1 i"));
    let (ev, st) = run(&t, "wbf/round-robin");
    assert_eq!(top(&ev, &st).last().unwrap(), "A");
}

/// 3.2 with three teams that never met each other (each played F1 and F2):
/// nobody beat anybody, so 3.2 ii, the IMP quotient, decides: A (2) first;
/// B and C (1 each) go to 3.1, where i and iii find no match between them
/// and iv, the total point quotient (B 11/10, C 1), decides.
#[test]
fn three_teams_that_never_met_3_2_ii_then_3_1_iv() {
    let mut t = Teams::swiss();
    for x in ["A", "B", "C"] {
        t.m(x, "F1", ("15", "5"), (30, 10), (1000, 1000));
    }
    t.balance_vs("A", Some("F2"), "30", (2, 1), (1, 1))
        .balance_vs("B", Some("F2"), "30", (1, 1), (11, 10))
        .balance_vs("C", Some("F2"), "30", (1, 1), (1, 1));
    let (ev, st) = run(&t, "wbf/swiss-teams");
    assert_eq!(top(&ev, &st), ["A", "B", "C"]);
    assert_eq!(placed_by(&ev, &st, "A"), pc("swiss_three_teams", "3.2 ii"));
    assert_eq!(placed_by(&ev, &st, "B"), pc("swiss_two_teams", "3.1 iv"));
}

/// 3.3: the team that beat every other tied team is declared winner before
/// any quotient (1.3 applies the IMP quotient first): D beat A, B and C but
/// has the worst IMP quotient. The remaining three (all draws among them)
/// go to 3.2, where the IMP quotient (A 3/2, B 5/4, C 1) separates them.
/// As a round robin, 1.3(a) would put D last.
#[test]
fn four_teams_winner_first_3_3() {
    let mut t = Teams::swiss();
    for x in ["A", "B", "C"] {
        t.m("D", x, ("12", "8"), (21, 20), (1000, 1000));
    }
    for (h, a) in [("A", "B"), ("A", "C"), ("B", "C")] {
        t.m(h, a, ("10", "10"), (20, 20), (1000, 1000));
    }
    t.balance_vs("D", Some("F"), "40", (1, 2), (1, 1))
        .balance_vs("A", Some("F"), "40", (3, 2), (1, 1))
        .balance_vs("B", Some("F"), "40", (5, 4), (1, 1))
        .balance_vs("C", Some("F"), "40", (1, 1), (1, 1));
    let (ev, st) = run(&t, "wbf/swiss-teams");
    assert_eq!(top(&ev, &st), ["D", "A", "B", "C"]);
    assert_eq!(placed_by(&ev, &st, "D"), pc("swiss_four_or_more", "3.3"));
    assert_eq!(placed_by(&ev, &st, "A"), pc("swiss_three_teams", "3.2 ii"));
    let (ev, st) = run(&t, "wbf/round-robin");
    assert_eq!(top(&ev, &st).last().unwrap(), "D");
}

/// 3.3 with four teams that never met: nobody beat anybody, the IMP
/// quotient places A (2) first and D (1/2) last, and B and C (1 each) go
/// to 3.1, where the total point quotient decides (3.1 iv).
#[test]
fn four_teams_that_never_met_3_3_imp_quotient() {
    let mut t = Teams::swiss();
    for x in ["A", "B", "C", "D"] {
        t.m(x, "F1", ("15", "5"), (30, 10), (1000, 1000));
    }
    t.balance_vs("A", Some("F2"), "30", (2, 1), (1, 1))
        .balance_vs("B", Some("F2"), "30", (1, 1), (11, 10))
        .balance_vs("C", Some("F2"), "30", (1, 1), (1, 1))
        .balance_vs("D", Some("F2"), "30", (1, 2), (1, 1));
    let (ev, st) = run(&t, "wbf/swiss-teams");
    assert_eq!(top(&ev, &st), ["A", "B", "C", "D"]);
    assert_eq!(
        placed_by(&ev, &st, "A"),
        pc("swiss_four_or_more", "3.3 (IMP quotient)")
    );
    assert_eq!(placed_by(&ev, &st, "B"), pc("swiss_two_teams", "3.1 iv"));
}

/// Nothing separates two teams: unresolved, one-board sudden death (3.1 v).
#[test]
fn two_teams_unresolved_3_1_v() {
    let mut t = Teams::swiss();
    t.m("A", "B", ("10", "10"), (20, 20), (1000, 1000))
        .balance_vs("A", Some("F"), "25", (1, 1), (1, 1))
        .balance_vs("B", Some("F"), "25", (1, 1), (1, 1));
    let (ev, st) = run(&t, "wbf/swiss-teams");
    let a = st
        .rows
        .iter()
        .find(|r| ev.participants[r.pid].id == "A")
        .unwrap();
    assert_eq!(
        a.unresolved.as_deref(),
        Some("one-board sudden death (3.1 v)")
    );
}
