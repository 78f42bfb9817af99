//! Seed 000, WBF Procedures for Tie Breaking, section 1 (round robin
//! events): a hand-built event for every branch of 1.1, 1.2 and 1.3, run
//! through the shipped `wbf/round-robin` ruleset.
//!
//! Each event states the matches among the tied teams; `balance` then adds
//! one match per tied team against a filler team that brings the team to
//! the chosen VP total, IMP quotient and total point quotient, so the
//! comment above each test can say exactly which test must decide.

use crate::bridge_support;
use crate::common;
use bridge_support::*;
use common::{order, rank, shipped};
use tb::model::Event;
use tb::rank::Standings;

fn rr(t: &Teams) -> (Event, Standings) {
    let ev = t.load();
    let st = rank(&ev, &shipped("wbf/round-robin"));
    (ev, st)
}

/// The ids of the tied teams (fillers left out), in final order.
fn top(ev: &Event, st: &Standings) -> Vec<String> {
    order(ev, st)
        .into_iter()
        .filter(|id| !id.starts_with("filler"))
        .collect()
}

// ------------------------------------------------------------------ 1.1

/// 1.1(a): A and B level on 25 VPs; A's IMP quotient is 2, B's 1.5, so A
/// is first whatever happened between them (their match was drawn).
#[test]
fn two_teams_separated_by_imp_quotient_1_1_a() {
    let mut t = Teams::round_robin();
    t.m("A", "B", ("10", "10"), (20, 20), (1000, 1000))
        .balance("A", "25", (2, 1), (1, 1))
        .balance("B", "25", (3, 2), (1, 1));
    let (ev, st) = rr(&t);
    assert_eq!(top(&ev, &st), ["A", "B"]);
    assert_eq!(placed_by(&ev, &st, "A"), pc("two_teams", "1.1(a)"));
}

/// 1.1(b): equal IMP quotients (1); A won the match between them 30-20
/// IMPs. B's total point quotient is better (1.5 against 1), so only (b)
/// coming before (d) puts A first.
#[test]
fn two_teams_separated_by_imps_between_1_1_b() {
    let mut t = Teams::round_robin();
    t.m("A", "B", ("12", "8"), (30, 20), (1000, 1000))
        .balance("A", "25", (1, 1), (1, 1))
        .balance("B", "25", (1, 1), (3, 2));
    let (ev, st) = rr(&t);
    assert_eq!(top(&ev, &st), ["A", "B"]);
    assert_eq!(placed_by(&ev, &st, "B"), pc("two_teams", "1.1(b)"));
}

/// 1.1(c): equal IMP quotients, a 20-20 IMP draw between them, but A scored
/// 1500 total points to B's 1400 in that match. B's total point quotient
/// is better, so (c) must come before (d) for A to be first.
#[test]
fn two_teams_separated_by_total_points_between_1_1_c() {
    let mut t = Teams::round_robin();
    t.m("A", "B", ("10", "10"), (20, 20), (1500, 1400))
        .balance("A", "25", (1, 1), (1, 1))
        .balance("B", "25", (1, 1), (3, 2));
    let (ev, st) = rr(&t);
    assert_eq!(top(&ev, &st), ["A", "B"]);
    assert_eq!(placed_by(&ev, &st, "A"), pc("two_teams", "1.1(c)"));
}

/// 1.1(d): everything between them equal; A's total point quotient is 6/5,
/// B's 1.
#[test]
fn two_teams_separated_by_total_point_quotient_1_1_d() {
    let mut t = Teams::round_robin();
    t.m("A", "B", ("10", "10"), (20, 20), (1000, 1000))
        .balance("A", "25", (1, 1), (6, 5))
        .balance("B", "25", (1, 1), (1, 1));
    let (ev, st) = rr(&t);
    assert_eq!(top(&ev, &st), ["A", "B"]);
    assert_eq!(placed_by(&ev, &st, "A"), pc("two_teams", "1.1(d)"));
}

/// 1.1(e): nothing separates them; the tie is reported unresolved with the
/// remedy the regulation prescribes, and both share the place.
#[test]
fn two_teams_unresolved_sudden_death_1_1_e() {
    let mut t = Teams::round_robin();
    t.m("A", "B", ("10", "10"), (20, 20), (1000, 1000))
        .balance("A", "25", (1, 1), (1, 1))
        .balance("B", "25", (1, 1), (1, 1));
    let (ev, st) = rr(&t);
    let rows: Vec<_> = st
        .rows
        .iter()
        .filter(|r| ["A", "B"].contains(&ev.participants[r.pid].id.as_str()))
        .collect();
    assert_eq!(rows[0].rank, 1);
    assert_eq!(rows[1].rank, 1);
    for r in rows {
        assert_eq!(
            r.unresolved.as_deref(),
            Some("one-board sudden death (1.1(e))")
        );
    }
}

/// All teams level and no fillers: the VP step splits nobody, and the group
/// still goes to the procedure for its size (1.1 for two).
#[test]
fn an_unsplit_field_of_two_goes_to_1_1() {
    let mut t = Teams::round_robin();
    t.m("A", "B", ("10", "10"), (31, 20), (1000, 1000));
    let (ev, st) = rr(&t);
    assert_eq!(top(&ev, &st), ["A", "B"]);
    assert_eq!(placed_by(&ev, &st, "A"), pc("two_teams", "1.1(a)"));
}

// ------------------------------------------------------------------ 1.2

/// 1.2(a) then 1.1: A has the best IMP quotient (5/3); B and C share a
/// quotient of 1 and go to 1.1, where (a) cannot separate them and (b), the
/// IMPs of their match (B 30, C 20), does.
#[test]
fn three_teams_imp_quotient_then_two_handed_to_1_1() {
    let mut t = Teams::round_robin();
    t.m("A", "B", ("10", "10"), (20, 20), (1000, 1000))
        .m("A", "C", ("10", "10"), (20, 20), (1000, 1000))
        .m("B", "C", ("12", "8"), (30, 20), (1100, 1000))
        .balance("A", "30", (5, 3), (1, 1))
        .balance("B", "30", (1, 1), (1, 1))
        .balance("C", "30", (1, 1), (1, 1));
    let (ev, st) = rr(&t);
    assert_eq!(top(&ev, &st), ["A", "B", "C"]);
    assert_eq!(placed_by(&ev, &st, "A"), pc("three_teams", "1.2(a)"));
    assert_eq!(placed_by(&ev, &st, "B"), pc("two_teams", "1.1(b)"));
    assert!(st.trace.iter().any(|s| s.procedure == "three_teams"
        && s.handoffs
            .iter()
            .any(|(g, to)| g.len() == 2 && to == "procedure two_teams")));
}

/// 1.2(b): equal IMP quotients; A earned more VPs than each of B (12-8) and
/// C (12-8) and is declared winner; B beat C 11-9 and wins the 1.1 tie on
/// the IMPs of that match.
#[test]
fn three_teams_one_beat_both_1_2_b() {
    let mut t = Teams::round_robin();
    t.m("A", "B", ("12", "8"), (30, 20), (1000, 1000))
        .m("A", "C", ("12", "8"), (30, 20), (1000, 1000))
        .m("B", "C", ("11", "9"), (25, 20), (1000, 1000))
        .balance("A", "30", (1, 1), (1, 1))
        .balance("B", "30", (1, 1), (1, 1))
        .balance("C", "30", (1, 1), (1, 1));
    let (ev, st) = rr(&t);
    assert_eq!(top(&ev, &st), ["A", "B", "C"]);
    assert_eq!(placed_by(&ev, &st, "A"), pc("three_teams", "1.2(b)"));
    assert_eq!(placed_by(&ev, &st, "C"), pc("two_teams", "1.1(b)"));
}

/// 1.2(c): nobody beat both others. A beat B and tied C; B beat C. Only A
/// won one and tied the other, so A is declared winner; B and C go to 1.1,
/// where B's 30-20 IMP win over C decides.
#[test]
fn three_teams_one_beat_one_and_tied_the_other_1_2_c() {
    let mut t = Teams::round_robin();
    t.m("A", "B", ("12", "8"), (30, 20), (1000, 1000))
        .m("A", "C", ("10", "10"), (20, 20), (1000, 1000))
        .m("B", "C", ("12", "8"), (30, 20), (1000, 1000))
        .balance("A", "30", (1, 1), (1, 1))
        .balance("B", "30", (1, 1), (1, 1))
        .balance("C", "30", (1, 1), (1, 1));
    let (ev, st) = rr(&t);
    assert_eq!(top(&ev, &st), ["A", "B", "C"]);
    assert_eq!(placed_by(&ev, &st, "A"), pc("three_teams", "1.2(c)"));
    assert_eq!(placed_by(&ev, &st, "B"), pc("two_teams", "1.1(b)"));
}

/// 1.2(d): A and B drew; both beat C. Then A and B each "earned more VPs
/// against one and tied with the other", so 1.2(c) finds no single winner
/// and does not apply; C, beaten by both, is ranked third, and A and B go
/// to 1.1: equal quotients, a 25-25 IMP draw, and A's 1200 total points
/// to B's 1100 in their match decide (1.1(c)).
#[test]
fn three_teams_one_beaten_by_both_1_2_d() {
    let mut t = Teams::round_robin();
    t.m("A", "B", ("10", "10"), (25, 25), (1200, 1100))
        .m("A", "C", ("12", "8"), (30, 20), (1000, 1000))
        .m("B", "C", ("13", "7"), (35, 20), (1000, 1000))
        .balance("A", "30", (1, 1), (1, 1))
        .balance("B", "30", (1, 1), (1, 1))
        .balance("C", "30", (1, 1), (1, 1));
    let (ev, st) = rr(&t);
    assert_eq!(top(&ev, &st), ["A", "B", "C"]);
    assert_eq!(placed_by(&ev, &st, "C"), pc("three_teams", "1.2(d)"));
    assert_eq!(placed_by(&ev, &st, "A"), pc("two_teams", "1.1(c)"));
}

/// 1.2 "in all other cases" (a): a cycle (A beat B, B beat C, C beat A) in
/// which nobody qualifies under (b)-(d). Net IMPs among the three: A +10
/// against B and -5 against C = +5; B -10 and +20 = +10; C -20 and +5 =
/// -15. All three are separated: B, A, C.
#[test]
fn three_teams_cycle_net_imps_all_other_cases_a() {
    let mut t = Teams::round_robin();
    t.m("A", "B", ("12", "8"), (30, 20), (1000, 1000))
        .m("B", "C", ("13", "7"), (40, 20), (1000, 1000))
        .m("C", "A", ("11", "9"), (25, 20), (1000, 1000))
        .balance("A", "30", (1, 1), (1, 1))
        .balance("B", "30", (1, 1), (1, 1))
        .balance("C", "30", (1, 1), (1, 1));
    let (ev, st) = rr(&t);
    assert_eq!(top(&ev, &st), ["B", "A", "C"]);
    for id in ["A", "B", "C"] {
        assert_eq!(
            placed_by(&ev, &st, id),
            pc("three_teams", "1.2, all other cases (a)")
        );
    }
}

/// The cyclic path on to (b), with no fillers at all: each team won one
/// match 12-8 by 30-20 IMPs, so VPs (20 each), IMP quotients (1) and net
/// IMPs among them (0) are all level. Net total points: A +200 against B,
/// B +100 against C, C and A 1000-1000: A +200, B -100, C -100. A is first;
/// B and C go to 1.1, where B's 30-20 IMP win decides.
#[test]
fn three_teams_cycle_net_total_points_all_other_cases_b() {
    let mut t = Teams::round_robin();
    t.m("A", "B", ("12", "8"), (30, 20), (1200, 1000))
        .m("B", "C", ("12", "8"), (30, 20), (1100, 1000))
        .m("C", "A", ("12", "8"), (30, 20), (1000, 1000));
    let (ev, st) = rr(&t);
    assert_eq!(top(&ev, &st), ["A", "B", "C"]);
    assert_eq!(
        placed_by(&ev, &st, "A"),
        pc("three_teams", "1.2, all other cases (b)")
    );
    assert_eq!(placed_by(&ev, &st, "B"), pc("two_teams", "1.1(b)"));
}

/// The cyclic path to the end: everything level. The three share the place,
/// unresolved, with the remedy of "all other cases" (d).
#[test]
fn three_teams_cycle_unresolved_all_other_cases_d() {
    let mut t = Teams::round_robin();
    t.m("A", "B", ("12", "8"), (30, 20), (1000, 1000))
        .m("B", "C", ("12", "8"), (30, 20), (1000, 1000))
        .m("C", "A", ("12", "8"), (30, 20), (1000, 1000));
    let (_, st) = rr(&t);
    assert!(st.rows.iter().all(|r| r.rank == 1));
    assert_eq!(
        st.rows[0].unresolved.as_deref(),
        Some("one-board sudden death (1.2, all other cases (d))")
    );
}

// ------------------------------------------------------------------ 1.3

/// 1.3(a) with four teams: IMP quotients A 2, C and D 1, B 1/2. A is first
/// and B last; C and D go to 1.1 and C's 25-20 IMP win over D decides.
#[test]
fn four_teams_imp_quotient_then_1_1_1_3_a() {
    let mut t = Teams::round_robin();
    for (h, a) in [("A", "B"), ("A", "C"), ("A", "D"), ("B", "C"), ("B", "D")] {
        t.m(h, a, ("10", "10"), (20, 20), (1000, 1000));
    }
    t.m("C", "D", ("10", "10"), (25, 20), (1000, 1000))
        .balance("A", "40", (2, 1), (1, 1))
        .balance("B", "40", (1, 2), (1, 1))
        .balance("C", "40", (1, 1), (1, 1))
        .balance("D", "40", (1, 1), (1, 1));
    let (ev, st) = rr(&t);
    assert_eq!(top(&ev, &st), ["A", "C", "D", "B"]);
    assert_eq!(placed_by(&ev, &st, "A"), pc("four_or_more", "1.3(a)"));
    assert_eq!(placed_by(&ev, &st, "B"), pc("four_or_more", "1.3(a)"));
    assert_eq!(placed_by(&ev, &st, "C"), pc("two_teams", "1.1(b)"));
}

/// 1.3(b) with four teams: equal IMP quotients; A beat each of the others
/// and is declared winner. The remaining three go to 1.2, where B, having
/// beaten C and D, is declared winner (1.2(b)); C and D (a 20-20 draw) go
/// to 1.1 and C's better total point quotient decides (1.1(d)).
#[test]
fn four_teams_winner_then_three_to_1_2_1_3_b() {
    let mut t = Teams::round_robin();
    t.m("A", "B", ("12", "8"), (20, 20), (1000, 1000))
        .m("A", "C", ("12", "8"), (20, 20), (1000, 1000))
        .m("A", "D", ("12", "8"), (20, 20), (1000, 1000))
        .m("B", "C", ("12", "8"), (20, 20), (1000, 1000))
        .m("B", "D", ("12", "8"), (20, 20), (1000, 1000))
        .m("C", "D", ("10", "10"), (20, 20), (1000, 1000))
        .balance("A", "40", (1, 1), (1, 1))
        .balance("B", "40", (1, 1), (1, 1))
        .balance("C", "40", (1, 1), (11, 10))
        .balance("D", "40", (1, 1), (1, 1));
    let (ev, st) = rr(&t);
    assert_eq!(top(&ev, &st), ["A", "B", "C", "D"]);
    assert_eq!(placed_by(&ev, &st, "A"), pc("four_or_more", "1.3(b)"));
    assert_eq!(placed_by(&ev, &st, "B"), pc("three_teams", "1.2(b)"));
    assert_eq!(placed_by(&ev, &st, "C"), pc("two_teams", "1.1(d)"));
}

/// 1.3(b) then 1.3(c), five teams: equal IMP quotients; E beat each of the
/// other four and is declared winner. The remaining FOUR go on to 1.3(c) —
/// not back to 1.3(a) — where total point quotients A 6/5, B and C 11/10,
/// D 1 place A second and D last; B and C go to 1.1, and B's 1100 total
/// points to C's 1000 in their match decide (1.1(c)).
#[test]
fn five_teams_a_remaining_four_go_on_to_1_3_c() {
    let mut t = Teams::round_robin();
    for x in ["A", "B", "C", "D"] {
        t.m("E", x, ("12", "8"), (30, 20), (1000, 1000));
    }
    for (h, a) in [("A", "B"), ("A", "C"), ("A", "D"), ("B", "D"), ("C", "D")] {
        t.m(h, a, ("10", "10"), (20, 20), (1000, 1000));
    }
    t.m("B", "C", ("10", "10"), (20, 20), (1100, 1000))
        .balance("E", "50", (1, 1), (1, 1))
        .balance("A", "50", (1, 1), (6, 5))
        .balance("B", "50", (1, 1), (11, 10))
        .balance("C", "50", (1, 1), (11, 10))
        .balance("D", "50", (1, 1), (1, 1));
    let (ev, st) = rr(&t);
    assert_eq!(top(&ev, &st), ["E", "A", "B", "C", "D"]);
    assert_eq!(placed_by(&ev, &st, "E"), pc("four_or_more", "1.3(b)"));
    assert_eq!(placed_by(&ev, &st, "A"), pc("four_or_more", "1.3(c)"));
    assert_eq!(placed_by(&ev, &st, "B"), pc("two_teams", "1.1(c)"));
    // The group of four went on to (c): (a) was applied once only, to all five.
    let a_steps: Vec<usize> = st
        .trace
        .iter()
        .filter(|s| s.procedure == "four_or_more" && s.cite.as_deref() == Some("1.3(a)"))
        .map(|s| s.group.len())
        .collect();
    assert_eq!(a_steps, [5]);
    assert!(st.trace.iter().any(|s| s.procedure == "four_or_more"
        && s.cite.as_deref() == Some("1.3(c)")
        && s.group.len() == 4));
}

/// 1.3(a) with five teams: A has the best IMP quotient; the other four
/// remain tied and go on to 1.3(b) among themselves (more than three
/// remain tied), where B, having beaten C, D and E, is declared winner.
#[test]
fn five_teams_four_left_after_imp_quotient_go_on_to_1_3_b() {
    let mut t = Teams::round_robin();
    for x in ["B", "C", "D", "E"] {
        t.m("A", x, ("10", "10"), (20, 20), (1000, 1000));
    }
    for x in ["C", "D", "E"] {
        t.m("B", x, ("12", "8"), (20, 20), (1000, 1000));
    }
    for (h, a) in [("C", "D"), ("C", "E"), ("D", "E")] {
        t.m(h, a, ("10", "10"), (20, 20), (1000, 1000));
    }
    t.balance("A", "50", (3, 2), (1, 1))
        .balance("B", "50", (1, 1), (1, 1))
        .balance("C", "50", (1, 1), (1, 1))
        .balance("D", "50", (1, 1), (1, 1))
        .balance("E", "50", (1, 1), (1, 1));
    let (ev, st) = rr(&t);
    assert_eq!(&top(&ev, &st)[..2], ["A", "B"]);
    assert_eq!(placed_by(&ev, &st, "A"), pc("four_or_more", "1.3(a)"));
    assert_eq!(placed_by(&ev, &st, "B"), pc("four_or_more", "1.3(b)"));
    // C, D and E (three left) are handed to 1.2; everything is level there.
    assert!(st
        .trace
        .iter()
        .any(|s| s.procedure == "three_teams" && s.group.len() == 3));
}

/// 1.3(b) "or if it has, uniquely, tied one and defeated the other tied
/// teams": A drew with B and beat C and D; nobody else qualifies, so A is
/// declared winner.
#[test]
fn four_teams_tied_one_defeated_the_others_1_3_b() {
    let mut t = Teams::round_robin();
    t.m("A", "B", ("10", "10"), (20, 20), (1000, 1000))
        .m("A", "C", ("12", "8"), (20, 20), (1000, 1000))
        .m("A", "D", ("12", "8"), (20, 20), (1000, 1000))
        .m("B", "C", ("8", "12"), (20, 20), (1000, 1000))
        .m("B", "D", ("12", "8"), (20, 20), (1000, 1000))
        .m("C", "D", ("12", "8"), (20, 20), (1000, 1000))
        .balance("A", "40", (1, 1), (1, 1))
        .balance("B", "40", (1, 1), (1, 1))
        .balance("C", "40", (1, 1), (1, 1))
        .balance("D", "40", (1, 1), (1, 1));
    let (ev, st) = rr(&t);
    assert_eq!(top(&ev, &st)[0], "A");
    assert_eq!(placed_by(&ev, &st, "A"), pc("four_or_more", "1.3(b)"));
}

/// The shipped example: Aces first on IMP quotient (1.2(a)), Bidders ahead
/// of Clubs on the IMPs of their match (1.1(b)).
#[test]
fn example_round_robin() {
    let ev = example("bridge-round-robin.toml");
    let st = rank(&ev, &shipped("wbf/round-robin"));
    assert_eq!(order(&ev, &st), ["A", "B", "C", "D", "F", "E"]);
}
