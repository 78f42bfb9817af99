//! FIDE Play-off and Tie-Break Regulations (seed 004), Articles 15 and 16:
//! unplayed rounds, hand-computed. Most cases use `tiny()` (see
//! tests/fide_support), a five-player Swiss with every category of 16.2:
//!
//! | round | A (1) | B (2) | C (3) | D (4) | E (5) |
//! |---|---|---|---|---|---|
//! | 1 | PAB | beat C | lost to B | drew E | drew D |
//! | 2 | beat B | lost to A | full-point bye | forfeit win vs E | forfeit loss vs D |
//! | 3 | forfeit loss vs C | drew D | forfeit win vs A | drew B | half-point bye |
//! | 4 | half-point bye | zero-point bye | beat E | absent | lost to C |
//! | score | 2.5 | 1.5 | 3 | 2 | 1 |

use crate::common;
use crate::fide_support;
use fide_support::*;

const ALL: [&str; 5] = ["1", "2", "3", "4", "5"];

/// 16.2: every category. A: PAB (16.2.1), played, forfeit loss (16.2.4),
/// half-point bye in the last round (16.2.5). B: zero-point bye in the last
/// round (16.2.5). C: full-point bye (16.2.1), forfeit win (16.2.2). D:
/// forfeit win (16.2.2), absent in the last round (16.1.1: a zero-point
/// bye; 16.2.5). E: forfeit loss (16.2.4), half-point bye followed by a
/// played round, i.e. not a VUR (16.2.3).
#[test]
fn every_category_of_16_2() {
    let ev = tiny();
    assert_eq!(
        values(&ev, 2024, "[unplayed_category(r) for r in rounds]", &ALL),
        ["1 0 4 5", "0 0 0 5", "0 1 2 0", "0 2 0 5", "0 4 3 0"]
    );
}

/// 16.1, defined in `fide/unplayed` over the neutral kinds of round: a
/// requested bye (16.1.1) is a half- or zero-point bye or an absence; a VUR
/// (16.1.2) is a requested bye or a forfeit loss. A's round 4 and E's round
/// 3 are half-point byes, B's round 4 a zero-point bye, D's round 4 an
/// absence; A's round 3 and E's round 2 are forfeit losses. Neither the
/// PAB, the full-point bye nor a forfeit win is either.
#[test]
fn requested_byes_and_vurs_16_1() {
    let ev = tiny();
    assert_eq!(
        values(
            &ev,
            2024,
            "[if requested_bye(r) then 1 else 0 for r in rounds]",
            &ALL
        ),
        ["0 0 0 1", "0 0 0 1", "0 0 0 0", "0 0 0 1", "0 0 1 0"]
    );
    assert_eq!(
        values(
            &ev,
            2024,
            "[if voluntarily_unplayed(r) then 1 else 0 for r in rounds]",
            &ALL
        ),
        ["0 0 1 1", "0 0 0 1", "0 0 0 0", "0 0 0 1", "0 1 1 0"]
    );
    // A double forfeit is a forfeit loss for both players: a VUR, not a
    // requested bye.
    let ev = Trf::swiss(2)
        .players(&["X", "Y"])
        .game(1, "X", "Y", "--")
        .game(2, "Y", "X", "1-0")
        .load();
    for id in ["1", "2"] {
        let rb = value(
            &ev,
            2024,
            "[if requested_bye(r) then 1 else 0 for r in rounds]",
            id,
        );
        let vur = value(
            &ev,
            2024,
            "[if voluntarily_unplayed(r) then 1 else 0 for r in rounds]",
            id,
        );
        assert_eq!((show(&rb).as_str(), show(&vur).as_str()), ("0 0", "1 0"));
    }
}

/// 16.2.5 also covers a requested bye followed only by VURs before the last
/// round: X's half-point bye in round 2 is followed by a forfeit loss and a
/// zero-point bye, both VURs (16.1.2).
#[test]
fn requested_bye_followed_only_by_vurs_is_16_2_5() {
    let ev = Trf::swiss(4)
        .players(&["X", "Y", "Z"])
        .game(1, "X", "Y", "1-0")
        .bye(2, "X", 'H')
        .game(3, "X", "Z", "-+")
        .bye(4, "X", 'Z')
        // A game in round 4: a round of byes only would not yet be played.
        .game(4, "Y", "Z", "1-0")
        .load();
    assert_eq!(
        show(&value(
            &ev,
            2024,
            "[unplayed_category(r) for r in rounds]",
            "1"
        )),
        "0 5 4 5"
    );
    // 16.3: categories 5 count as draws, the forfeit loss as the loss it was:
    // 1 + 1/2 + 0 + 1/2.
    assert_eq!(value(&ev, 2024, "adjusted_score", "1"), num("2"));
    assert_eq!(value(&ev, 2024, "score", "1"), num("1.5"));
}

/// 16.3: the score opponents' tie-breaks use. Categories 16.2.1-16.2.4 count
/// the points awarded; 16.2.5 counts a draw: B's last-round zero-point bye
/// and D's last-round absence become 1/2 (B 1.5 -> 2, D 2 -> 2.5); A's
/// last-round half-point bye was already 1/2; E's half-point bye (16.2.3)
/// and forfeit loss (16.2.4) keep 1/2 and 0.
#[test]
fn adjusted_scores_16_3() {
    let ev = tiny();
    assert_eq!(
        values(&ev, 2024, "adjusted_score", &ALL),
        ["2.5", "2", "3", "2.5", "1"]
    );
}

/// 16.4 (2024): each unplayed round of the participant counts a dummy
/// opponent on the participant's own score. A: PAB 2.5, B (adjusted) 2,
/// forfeit 2.5, bye 2.5 = 9.5. B: C 3, A 2.5, D 2.5 (adjusted), zero bye
/// 1.5 = 9.5. C: B 2, full bye 3, forfeit win 3, E 1 = 9. D: E 1, forfeit
/// win 2, B 2, absent 2 = 7. E: D 2.5, forfeit loss 1, bye 1, C 3 = 7.5.
#[test]
fn dummy_opponent_on_own_score_2024() {
    let ev = tiny();
    assert_eq!(
        values(&ev, 2024, "buchholz_values(false, false)", &ALL),
        [
            "2.5 2 2.5 2.5",
            "3 2.5 2.5 1.5",
            "2 3 3 1",
            "1 2 2 2",
            "2.5 1 1 3"
        ]
    );
    assert_eq!(
        values(&ev, 2024, "buchholz", &ALL),
        ["9.5", "9.5", "9", "7", "7.5"]
    );
}

/// 2026 16.4.1 / 16.4.2: the dummy's score is capped - for a forfeit at the
/// scheduled opponent's (adjusted) score, for a round without an opponent at
/// a draw per round, 4 x 1/2 = 2. A: PAB min(2.5, 2) = 2, forfeit vs C
/// min(2.5, 3) = 2.5, bye 2 -> 2 + 2 + 2.5 + 2 = 8.5. C: full bye min(3, 2)
/// = 2, forfeit vs A min(3, 2.5) = 2.5 -> 2 + 2 + 2.5 + 1 = 7.5. D: forfeit
/// vs E min(2, 1) = 1, absent min(2, 2) = 2 -> 6. B and E are below the caps.
#[test]
fn dummy_opponent_capped_2026() {
    let ev = tiny();
    assert_eq!(
        values(&ev, 2026, "buchholz_values(false, false)", &ALL),
        [
            "2 2 2.5 2",
            "3 2.5 2.5 1.5",
            "2 2 2.5 1",
            "1 1 2 2",
            "2.5 1 1 3"
        ]
    );
    assert_eq!(
        values(&ev, 2026, "buchholz", &ALL),
        ["8.5", "9.5", "7.5", "6", "7.5"]
    );
    // Sonneborn-Berger uses the same dummy: A 2x1 + 2x1 + 2.5x0 + 2x1/2 = 5.
    assert_eq!(value(&ev, 2026, "sonneborn_berger", "1"), num("5"));
}

/// 16.5.1, Buchholz: A's least significant value is B's 2 (played); A's
/// VURs (forfeit loss, last-round bye) contribute 2.5 each, not lower than
/// 2, so a VUR's 2.5 is cut: 9.5 - 2.5 = 7. 16.5.2: Cut-2 applies the rule
/// again, cutting the other VUR's 2.5: 4.5. B's only VUR (zero-point bye,
/// 1.5) is also its least significant value: "the same element".
#[test]
fn cut_1_exception_16_5_buchholz() {
    let ev = tiny();
    assert_eq!(
        value(
            &ev,
            2024,
            "sum(cut_lowest(buchholz_values(false, false), 1))",
            "1"
        ),
        num("7")
    );
    assert_eq!(
        value(
            &ev,
            2024,
            "sum(cut_lowest(buchholz_values(false, false), 2))",
            "1"
        ),
        num("4.5")
    );
    assert_eq!(
        value(
            &ev,
            2024,
            "sum(cut_lowest(buchholz_values(false, false), 1))",
            "2"
        ),
        num("8")
    );
    // Without the VUR marks, Cut-1 would cut B's 2 instead: 7.5.
    assert_eq!(
        value(
            &ev,
            2024,
            "sum(cut_lowest([opponent_value(r, false, false) for r in rounds], 1))",
            "1"
        ),
        num("7.5")
    );
}

/// 16.5.1, Sonneborn-Berger: A's contributions are PAB 2.5x1 = 2.5, B 2x1 =
/// 2 (the lowest-scoring opponent: the least significant value), forfeit
/// loss 2.5x0 = 0 and bye 2.5x1/2 = 1.25 (VURs; lowest 0). "Cut the higher
/// of these two values": 2 is cut, 5.75 - 2 = 3.75.
#[test]
fn cut_1_exception_16_5_sonneborn_berger() {
    let ev = tiny();
    assert_eq!(value(&ev, 2024, "sonneborn_berger", "1"), num("5.75"));
    assert_eq!(
        value(
            &ev,
            2024,
            "sum(cut_lowest(sonneborn_berger_values(false, false), 1))",
            "1"
        ),
        num("3.75")
    );
}

/// Forfeits (16.2.2, 16.2.4) in a Swiss: for the players' own Buchholz the
/// forfeited round is a game against a dummy; for their opponents the
/// forfeit counts the points awarded. D won by forfeit against E in round 2:
/// D's value for that round is D's own 2 (2024), or at most E's 1 (2026,
/// 16.4.1); E's is E's own 1 either way.
#[test]
fn forfeits_in_a_swiss() {
    let ev = tiny();
    let round2 = "sum(opponent_value(r, false, false) for r in rounds where r.round == 2)";
    assert_eq!(values(&ev, 2024, round2, &["4", "5"]), ["2", "1"]);
    assert_eq!(values(&ev, 2026, round2, &["4", "5"]), ["1", "1"]);
    // With /P (forfeits as games) the opponent's score counts: E's 1, D's 2.5.
    let as_game = "sum(opponent_value(r, true, false) for r in rounds where r.round == 2)";
    assert_eq!(values(&ev, 2024, as_game, &["4", "5"]), ["1", "2.5"]);
}

/// A withdrawal (16.1.1: every round after it is a zero-point bye, a VUR).
/// W beat P, lost to Q, and withdrew after round 2 of 4: score 1, adjusted
/// 1 + 2 x 1/2 = 2 for its opponents (16.2.5, 16.3.2); its own Buchholz
/// counts two dummies on its own score 1; REP = 2 (7.6).
#[test]
fn withdrawal() {
    let mut ev = common::Ev::chess(4);
    ev.game(1, "W", "P", "1-0")
        .game(2, "Q", "W", "1-0")
        .withdraw("W", 2)
        .record("P", "W W W")
        .record("Q", "W W W");
    let ev = ev.load();
    let rs = common::inline(
        "import \"fide/lib\"\nmetric categories = [unplayed_category(r) for r in rounds]\n",
    );
    assert_eq!(show(&common::value(&ev, &rs, "categories", "W")), "0 0 5 5");
    assert_eq!(common::value(&ev, &rs, "adjusted_score", "W"), num("2"));
    assert_eq!(
        common::value(&ev, &rs, "rounds_elected_to_play", "W"),
        num("2")
    );
    // P lost to W in round 1: P's Buchholz counts W at 2, not 1.
    let rs = common::inline(
        "import \"fide/lib\"\nmetric vs_w = sum(opponent_value(r, false, false) for r in rounds where r.round == 1)\n",
    );
    assert_eq!(common::value(&ev, &rs, "vs_w", "P"), num("2"));
    // W's own: P (3) + Q (4) + two dummies on W's 1 = 9.
    assert_eq!(common::value(&ev, &rs, "buchholz", "W"), num("9"));
}

/// A last-round requested bye counts as a draw for the opponents' tie-breaks
/// (16.2.5, 16.3.2): A met B in round 2; B's zero-point bye in round 4 gives
/// B 1.5 points but 2 in A's Buchholz.
#[test]
fn last_round_requested_bye() {
    let ev = tiny();
    let vs_b = "sum(opponent_value(r, false, false) for r in rounds where r.round == 2)";
    assert_eq!(value(&ev, 2024, vs_b, "1"), num("2"));
    assert_eq!(value(&ev, 2024, "score", "2"), num("1.5"));
}

/// 15.2: with pre-determined pairings (a round robin) forfeits are regular
/// games and Art. 16 does not apply. B forfeited to A in round 1:
/// A 2.5 (B +, C =, D 1), B 0.5, C 2, D 1. A's Buchholz counts B's 0.5 for
/// the forfeit, no dummy: 0.5 + 2 + 1 = 3.5; its SB 0.5x1 + 2x1/2 + 1x1 =
/// 2.5. Read as a Swiss (Art. 16), the forfeit is a dummy on A's 2.5: 5.5.
#[test]
fn round_robin_forfeits_are_games_15_2() {
    let rr = Trf::round_robin(3)
        .players(&["A", "B", "C", "D"])
        .game(1, "A", "B", "+-")
        .game(1, "C", "D", "1-0")
        .game(2, "A", "C", "=")
        .game(2, "B", "D", "0-1")
        .game(3, "D", "A", "0-1")
        .game(3, "B", "C", "=");
    let ev = rr.load();
    assert_eq!(
        values(&ev, 2024, "score", &["1", "2", "3", "4"]),
        ["2.5", "0.5", "2", "1"]
    );
    assert_eq!(value(&ev, 2024, "buchholz", "1"), num("3.5"));
    assert_eq!(value(&ev, 2026, "buchholz", "1"), num("3.5"));
    assert_eq!(value(&ev, 2024, "sonneborn_berger", "1"), num("2.5"));
    let mut swiss = rr.load();
    swiss.system = tb::model::System::Swiss;
    assert_eq!(value(&swiss, 2024, "buchholz", "1"), num("5.5"));
}

/// A departure from gacrux (tests/fide_oracle.rs): tiny read as a round
/// robin (tb eval --system round-robin). Art. 16 does not apply (15.3), so
/// C's Buchholz adds its opponents' scores as they are: B 1.5, A 2.5 (its
/// forfeit is a game, 15.2), E 1; the full-point bye has no opponent and
/// adds nothing: 5. gacrux counts A's last-round half-point bye as 0 in A's
/// score (2) and gives 4.5.
#[test]
fn round_robin_opponents_scores_are_not_adjusted() {
    let mut ev = tiny();
    ev.system = tb::model::System::RoundRobin;
    assert_eq!(value(&ev, 2024, "adjusted_score", "1"), num("2.5"));
    assert_eq!(value(&ev, 2024, "buchholz", "3"), num("5"));
}
