//! FIDE Play-off and Tie-Break Regulations (seed 004), Articles 6 to 10 and
//! 14: every individual tie-break, hand-computed. `tiny()` is the five-player
//! Swiss described in tests/fide_support (and tests/fide_unplayed.rs):
//! A 2.5, B 1.5, C 3, D 2, E 1; ratings 2000, 1900, 1800, 1700, 1600.

use crate::fide_support;
use fide_support::*;

const ALL: [&str; 5] = ["1", "2", "3", "4", "5"];

// ------------------------------------------------------------ Art. 6

/// 6.2: four players tied on 3.5 who all met: A beat B and drew C and D (2);
/// B drew D and beat C (1.5); C beat D (1.5); D 1. The separate standings
/// rank A first and D last; B and C are tied, and Article 6 reapplied to
/// them alone ranks B (who beat C) ahead. FIDE prints places: 1, 2, 3, 4.
#[test]
fn direct_encounter_reapplied_to_sub_ties_6_2() {
    let ev = Trf::swiss(6)
        .players(&["A", "B", "C", "D"])
        .game(1, "A", "B", "1-0")
        .game(1, "C", "D", "1-0")
        .game(2, "A", "C", "=")
        .game(2, "B", "D", "=")
        .game(3, "A", "D", "=")
        .game(3, "B", "C", "1-0")
        .fill("A", "W D L")
        .fill("B", "W W L")
        .fill("C", "W W L")
        .fill("D", "W W D")
        .load();
    let st = chain(&ev, "PTS,DE", 2024);
    assert_eq!(column(&ev, &st, "PTS", &["1", "2", "3", "4"]), ["3.5"; 4]);
    assert_eq!(
        column(&ev, &st, "DE", &["1", "2", "3", "4"]),
        ["1", "2", "3", "4"]
    );
    assert_eq!(order(&ev, &st)[..4], ["1", "2", "3", "4"]);
}

/// 6.1.2: A beat B twice, lost to C; B beat C. With each pair's games
/// averaged, every one of them has 1 point in the separate standings (A: 1
/// against B, 0 against C), so DE separates nobody (FIDE prints 0). Summed
/// game by game, A would have 2 and be first.
#[test]
fn direct_encounter_averages_repeated_meetings_6_1_2() {
    let ev = Trf::swiss(6)
        .players(&["A", "B", "C"])
        .game(1, "A", "B", "1-0")
        .game(2, "B", "A", "0-1")
        .game(3, "A", "C", "0-1")
        .game(4, "B", "C", "1-0")
        .fill("A", "W L L")
        .fill("B", "W W L")
        .fill("C", "W W L L")
        .load();
    let st = chain(&ev, "PTS,DE", 2024);
    assert_eq!(column(&ev, &st, "PTS", &["1", "2", "3"]), ["3", "3", "3"]);
    assert_eq!(column(&ev, &st, "DE", &["1", "2", "3"]), ["0", "0", "0"]);
}

/// 6.1.1: A won by forfeit against B. Forfeits are excluded, so they have
/// not met, and in a Swiss (6.3) neither is sure to finish above the other:
/// DE separates nobody. `DE/P` (the tournament's regulations include
/// forfeits) ranks A first.
#[test]
fn direct_encounter_excludes_forfeits_unless_included_6_1_1() {
    let ev = Trf::swiss(3)
        .players(&["A", "B"])
        .game(1, "A", "B", "+-")
        .fill("A", "W L")
        .fill("B", "W W")
        .load();
    let st = chain(&ev, "PTS,DE,DE/P", 2024);
    assert_eq!(column(&ev, &st, "DE", &["1", "2"]), ["0", "0"]);
    assert_eq!(column(&ev, &st, "DE/P", &["1", "2"]), ["1", "2"]);
    // The library's parameter does the same for a ruleset's `direct_encounter`
    // (tb eval fide/swiss --param de_forfeits=1).
    let ruleset = |de_forfeits: u32| {
        let text = format!(
            "import \"fide/lib\"\nset de_forfeits = {de_forfeits}\n\
             procedure p {{ step score desc step direct_encounter asc then repeat as \"DE\" }}\n\
             standings p\n"
        );
        tb::check::check(
            tb::diag::Source::new("p.tb", text),
            &tb::shipped::Shipped,
            &[],
        )
        .unwrap()
    };
    let st = tb::rank::rank(&ev, &ruleset(1), &tb::rank::Options::default()).unwrap();
    assert_eq!(st.rows[0].decided_by.as_ref().unwrap().criterion, "DE");
    assert_eq!(order(&ev, &st)[..2], ["1", "2"]);
    let st = tb::rank::rank(&ev, &ruleset(0), &tb::rank::Options::default()).unwrap();
    assert_eq!(
        st.rows[0].rank, st.rows[1].rank,
        "shared without the forfeit"
    );
}

/// 6.3: four players tied on 3.5 in a Swiss who have not all met: A beat B,
/// C and D (3 of 3); B beat C and D (2, all played); C and D never met (0
/// each, at most 1). A is alone on top whatever the missing game gives
/// (3 > 2, 1, 1): first. "The same applies to the second rank": B's 2 beats
/// the most C or D could reach (1): second. C and D cannot be separated
/// (Article 6 reapplied to them alone: they never met), and share third.
#[test]
fn direct_encounter_alone_on_top_6_3() {
    let ev = Trf::swiss(6)
        .players(&["A", "B", "C", "D"])
        .game(1, "A", "B", "1-0")
        .game(2, "A", "C", "1-0")
        .game(2, "B", "D", "1-0")
        .game(3, "A", "D", "1-0")
        .game(3, "B", "C", "1-0")
        .fill("A", "D L L")
        .fill("B", "W D L")
        .fill("C", "W W W D")
        .fill("D", "W W W D")
        .load();
    let st = chain(&ev, "PTS,DE", 2024);
    assert_eq!(column(&ev, &st, "PTS", &["1", "2", "3", "4"]), ["3.5"; 4]);
    assert_eq!(
        column(&ev, &st, "DE", &["1", "2", "3", "4"]),
        ["1", "2", "3", "3"]
    );
}

/// 6.3 when only the top is sure: as above, but B and D never met either.
/// A (3; at most 3) is above everyone's most (B 1 + 1, C 0 + 1, D 0 + 2):
/// first. B's 1 does not beat D's possible 2, so B, C and D are reapplied
/// Article 6 alone, where again nobody is sure: they share second. In a
/// round robin the separate standings (6.2) would rank them B 1, C 0, D 0.
#[test]
fn direct_encounter_6_3_ranks_only_the_sure() {
    let ev = Trf::swiss(6)
        .players(&["A", "B", "C", "D"])
        .game(1, "A", "B", "1-0")
        .game(2, "A", "C", "1-0")
        .game(3, "A", "D", "1-0")
        .game(3, "B", "C", "1-0")
        .fill("A", "D L L")
        .fill("B", "W W D L")
        .fill("C", "W W W D")
        .fill("D", "W W W D L")
        .load();
    let st = chain(&ev, "PTS,DE", 2024);
    assert_eq!(column(&ev, &st, "PTS", &["1", "2", "3", "4"]), ["3.5"; 4]);
    assert_eq!(
        column(&ev, &st, "DE", &["1", "2", "3", "4"]),
        ["1", "2", "2", "2"]
    );
    let mut rr = ev.clone();
    rr.system = tb::model::System::RoundRobin;
    let st = chain(&rr, "PTS,DE", 2024);
    assert_eq!(
        column(&rr, &st, "DE", &["1", "2", "3", "4"]),
        ["1", "2", "3", "3"]
    );
}

/// The DE expectations of FIDE's TEC tie-break exercises (p. 43) and of a
/// round robin: tests/fixtures/data/chess/*expected_DE.tsv.
#[test]
fn direct_encounter_expected_tables() {
    for (trf, tsv) in [
        ("tec_swiss_de.trf", "tec_swiss_de.expected_DE.tsv"),
        ("uzchesscup_rr.trf", "uzchesscup_rr.expected_DE.tsv"),
    ] {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/data/chess");
        let text = std::fs::read_to_string(dir.join(trf)).unwrap();
        let ev = tb::load::load(&tb::diag::Source::new(trf, text)).unwrap();
        let st = chain(&ev, "PTS,DE", 2024);
        let table = std::fs::read_to_string(dir.join(tsv)).unwrap();
        for line in table.lines().skip(1) {
            let f: Vec<&str> = line.split('\t').collect();
            let row = st
                .rows
                .iter()
                .find(|r| ev.participants[r.pid].id == f[0])
                .unwrap();
            assert_eq!(row.rank.to_string(), f[1], "{trf} player {} rank", f[0]);
            assert_eq!(
                column(&ev, &st, "DE", &[f[0]]),
                [f[3]],
                "{trf} player {} DE",
                f[0]
            );
        }
    }
}

// ------------------------------------------------------------ Art. 7

/// 7.1 WIN counts rounds scored as a win with or without playing (A: PAB and
/// a game; C: full-point bye, forfeit win, a game; D: forfeit win); 7.2 WON
/// only games won over the board; 7.3 BPG games played with Black (A's
/// forfeited Black game does not count); 7.6 REP the rounds less half- and
/// zero-point byes and forfeit losses (A: 4 - 2; D's absence is a
/// zero-point bye, 16.1.1).
#[test]
fn own_results_7_1_to_7_4_and_7_6() {
    let ev = tiny();
    assert_eq!(values(&ev, 2024, "wins", &ALL), ["2", "1", "3", "1", "0"]);
    assert_eq!(
        values(&ev, 2024, "games_won", &ALL),
        ["1", "1", "1", "0", "0"]
    );
    assert_eq!(
        values(&ev, 2024, "games_with_black", &ALL),
        ["0", "1", "1", "1", "2"]
    );
    assert_eq!(
        values(&ev, 2024, "rounds_elected_to_play", &ALL),
        ["2", "3", "4", "3", "2"]
    );
    // 7.4 BWG: X won with Black against Y, and with White against Z.
    let ev = Trf::swiss(2)
        .players(&["X", "Y", "Z"])
        .game(1, "Y", "X", "0-1")
        .game(2, "X", "Z", "1-0")
        .load();
    assert_eq!(value(&ev, 2024, "wins_with_black", "1"), num("1"));
    assert_eq!(value(&ev, 2024, "games_won", "1"), num("2"));
}

/// 7.5 PS: A's running scores 1, 2, 2, 2.5 add up to 7.5; PS-C1 drops the
/// score after round 1 (14.1.1 c): 6.5; PS-C2 also round 2: 4.5.
#[test]
fn progressive_scores_7_5() {
    let ev = tiny();
    assert_eq!(value(&ev, 2024, "progressive_score", "1"), num("7.5"));
    assert_eq!(
        value(&ev, 2024, "sum(cut_lowest(progressive_scores, 1))", "1"),
        num("6.5")
    );
    assert_eq!(
        value(&ev, 2024, "sum(cut_lowest(progressive_scores, 2))", "1"),
        num("4.5")
    );
}

// ------------------------------------------------------------ Art. 8

/// 8.2 AOB: the mean of the Buchholz of the opponents played over the board.
/// A played only B (9.5); C played B and E: (9.5 + 7.5) / 2 = 8.5.
#[test]
fn average_of_opponents_buchholz_8_2() {
    let ev = tiny();
    assert_eq!(
        values(&ev, 2024, "average_of_opponents_buchholz", &["1", "3", "4"]),
        ["9.5", "8.5", "8.5"]
    );
}

/// 8.3 FB: Buchholz as if the final round's paired games were draws. A
/// (half-point bye), B (zero-point bye) and D (absent) did not play the last
/// round, so their own scores stay; C beat E in it, and both become 1/2:
/// C's fore score 2.5, E's 1.5. B: C 2.5, A 2.5, D 2.5, dummy on B's 1.5 =
/// 9. C: B 2, dummies on 2.5 and 2.5, E 1.5 = 8.5. A: unchanged 9.5.
#[test]
fn fore_buchholz_when_a_player_skipped_the_last_round_8_3() {
    let ev = tiny();
    assert_eq!(
        values(&ev, 2024, "fore_score", &ALL),
        ["2.5", "1.5", "2.5", "2", "1.5"]
    );
    assert_eq!(
        values(&ev, 2024, "fore_buchholz", &ALL),
        ["9.5", "9", "8.5", "7.5", "8"]
    );
}

// ------------------------------------------------------------ Art. 9

/// 9.1 SB: C: lost to B (0), full-point bye 3 x 1, forfeit win 3 x 1, beat
/// E 1 x 1 = 7.
#[test]
fn sonneborn_berger_9_1() {
    let ev = tiny();
    assert_eq!(value(&ev, 2024, "sonneborn_berger", "3"), num("7"));
}

/// 14.1.1 d: SB-C1 cuts the contribution of the lowest-scoring opponent,
/// the lowest such contribution when there are several. X lost to P (3
/// points), beat Y (1) and drew Z (1): SB 0 + 1 + 1/2 = 1.5. Y and Z are
/// the lowest-scoring; Z's 1/2 is the lower: SB-C1 = 1. (Cutting the lowest
/// contribution, P's 0, would leave 1.5.)
#[test]
fn sonneborn_berger_cut_1_with_several_lowest_opponents_14_1_1_d() {
    let ev = Trf::swiss(3)
        .players(&["X", "P", "Y", "Z"])
        .game(1, "X", "P", "0-1")
        .game(2, "X", "Y", "1-0")
        .game(3, "X", "Z", "=")
        .fill("P", "W W")
        .fill("Y", "W L")
        .fill("Z", "D L")
        .load();
    assert_eq!(
        values(&ev, 2024, "score", &["2", "3", "4"]),
        ["3", "1", "1"]
    );
    assert_eq!(value(&ev, 2024, "sonneborn_berger", "1"), num("1.5"));
    let st = chain(&ev, "PTS,SB/C1,BH/C1", 2024);
    assert_eq!(column(&ev, &st, "SB/C1", &["1"]), ["1"]);
    // BH-C1 cuts one of the 1s: 3 + 1 + 1 - 1.
    assert_eq!(column(&ev, &st, "BH/C1", &["1"]), ["4"]);
}

/// 9.2 Koya in a round robin of four (3 rounds, maximum 3 points, limit
/// 1.5): A 2.5 (B forfeited to A, drew C, beat D), B 0.5, C 2, D 1. Only A
/// and C reach the limit: A's Koya is its 1/2 against C; C's its 1/2
/// against A. 14.5, KS/L-1 lowers the limit by half a point to 1: D counts
/// too, so A 1.5 and C 1.5 (C beat D).
#[test]
fn koya_with_limit_9_2_14_5() {
    let ev = Trf::round_robin(3)
        .players(&["A", "B", "C", "D"])
        .game(1, "A", "B", "+-")
        .game(1, "C", "D", "1-0")
        .game(2, "A", "C", "=")
        .game(2, "B", "D", "0-1")
        .game(3, "D", "A", "0-1")
        .game(3, "B", "C", "=")
        .load();
    let ids = ["1", "2", "3", "4"];
    assert_eq!(values(&ev, 2024, "maximum_score", &ids[..1]), ["3"]);
    assert_eq!(values(&ev, 2024, "koya", &ids), ["0.5", "0.5", "0.5", "0"]);
    let st = chain(&ev, "PTS,KS,KS/L-1", 2024);
    assert_eq!(column(&ev, &st, "KS/L-1", &ids), ["1.5", "0.5", "1.5", "0"]);
    // The library's parameter: --param koya_limit=-1.
    assert_eq!(
        value_with(&ev, 2024, "koya", "1", &[("koya_limit", -1)]),
        num("1.5")
    );
}

/// 9.2: in a round robin with an odd number of players everyone sits out a
/// round, so the maximum possible score of five players in five rounds is 4.
#[test]
fn koya_maximum_score_with_an_odd_number_of_players() {
    let mut t = Trf::round_robin(5).players(&["A", "B", "C", "D", "E"]);
    let pairs = [
        (1, "A", "B"),
        (1, "C", "D"),
        (2, "A", "C"),
        (2, "B", "E"),
        (3, "A", "D"),
        (3, "C", "E"),
        (4, "A", "E"),
        (4, "B", "D"),
        (5, "B", "C"),
        (5, "D", "E"),
    ];
    for (r, w, b) in pairs {
        t = t.game(r, w, b, "=");
    }
    for (r, who) in [(1, "E"), (2, "D"), (3, "B"), (4, "C"), (5, "A")] {
        t = t.bye(r, who, 'U');
    }
    let ev = t.load();
    assert_eq!(value(&ev, 2024, "maximum_score", "1"), num("4"));
}

// ------------------------------------------------------------ Art. 10

/// 10.1 ARO (over the board, rounded, .5 up): B met C, A, D: (1800 + 2000 +
/// 1700) / 3 = 1833.3 -> 1833. 10.2 TPR = ARO + dp(fractional score): A
/// 1900 + dp(1.00) = 2700; E 1750 + dp(0.25) = 1750 - 193 = 1557. 10.3 PTP:
/// B (1.5 of 3): at 1830 the expected score against 1800, 2000, 1700 is
/// 0.54 + 0.28 + 0.68 = 1.50, at 1829 it is 1.48: 1830. A (1 of 1 against
/// 1900): 1900 + 736 = 2636, the first difference scoring 1.00 (no 400 cut).
/// 10.4 APRO: B's opponents' TPRs 1750, 2700, 1750 -> 2066.7 -> 2067.
/// 10.5 APPO: their PTPs 1747, 2636, 1747 -> 2043.
#[test]
fn rating_tie_breaks_10() {
    let ev = tiny();
    assert_eq!(
        values(&ev, 2024, "average_rating_of_opponents", &ALL),
        ["1900", "1833", "1750", "1750", "1750"]
    );
    assert_eq!(
        values(&ev, 2024, "tournament_performance_rating", &ALL),
        ["2700", "1833", "1750", "1750", "1557"]
    );
    assert_eq!(
        values(&ev, 2024, "perfect_tournament_performance", &ALL),
        ["2636", "1830", "1747", "1747", "1555"]
    );
    assert_eq!(
        value(&ev, 2024, "average_performance_of_opponents", "2"),
        num("2067")
    );
    assert_eq!(
        value(&ev, 2024, "average_perfect_performance_of_opponents", "2"),
        num("2043")
    );
    // ARO-C1 of a player with one game over the board: nothing left.
    let st = chain(&ev, "PTS,ARO/C1", 2024);
    assert_eq!(column(&ev, &st, "ARO/C1", &["1", "2"]), ["-", "1900"]);
}

/// 10.1: ".5 rounded up": X met 1800 and 1801 (mean 1800.5): ARO 1801.
/// 10.3: "for a zero score ... 800 points lower than the rating of the
/// lowest rated opponent": 1000. TPR: 1801 + dp(0) = 1801 - 800 = 1001.
#[test]
fn aro_rounds_half_up_and_ptp_of_a_zero_score() {
    let ev = Trf::swiss(2)
        .players(&["X:1700", "P:1800", "Q:1801"])
        .game(1, "X", "P", "0-1")
        .game(2, "Q", "X", "1-0")
        .load();
    assert_eq!(
        value(&ev, 2024, "average_rating_of_opponents", "1"),
        num("1801")
    );
    assert_eq!(
        value(&ev, 2024, "perfect_tournament_performance", "1"),
        num("1000")
    );
    assert_eq!(
        value(&ev, 2024, "tournament_performance_rating", "1"),
        num("1001")
    );
}

/// Art. 10: with an unrated participant, rating tie-breaks are dropped
/// (undefined) unless the regulations rate the unrated: with E unrated and
/// `unrated_rating` 1600 the values are those of the rated event.
#[test]
fn unrated_players_drop_rating_tie_breaks_10() {
    let ev = Trf::swiss(4)
        .players(&["A:2000", "B:1900", "C:1800", "D:1700", "E"])
        .bye(1, "A", 'U')
        .game(1, "B", "C", "1-0")
        .game(1, "D", "E", "=")
        .game(2, "A", "B", "1-0")
        .bye(2, "C", 'F')
        .game(2, "D", "E", "+-")
        .game(3, "C", "A", "+-")
        .game(3, "B", "D", "=")
        .bye(3, "E", 'H')
        .bye(4, "A", 'H')
        .bye(4, "B", 'Z')
        .game(4, "C", "E", "1-0")
        .bye(4, "D", '-')
        .load();
    assert_eq!(
        values(&ev, 2024, "average_rating_of_opponents", &ALL),
        ["-"; 5]
    );
    assert_eq!(
        values(&ev, 2024, "perfect_tournament_performance", &["2"]),
        ["-"]
    );
    assert_eq!(values(&ev, 2024, "own_rating", &["1"]), ["-"]);
    let rated = |expr: &str, id: &str| {
        show(&value_with(
            &ev,
            2024,
            expr,
            id,
            &[("unrated_rating", 1600)],
        ))
    };
    assert_eq!(rated("average_rating_of_opponents", "4"), "1750");
    assert_eq!(rated("perfect_tournament_performance", "2"), "1830");
    assert_eq!(rated("own_rating", "5"), "1600");
}

// ------------------------------------------------------------ 2026 additions

/// STD (2026): 1, 1/2 or 0 per round whatever the scoring: with 3/1/0
/// points (TRF-26 record 162) a win, a draw and a loss are 4 points and 1.5
/// standard points. TPN: the starting number (lower is better). RTNG: the
/// rating.
#[test]
fn standard_points_pairing_number_and_rating_2026() {
    let ev = Trf::swiss(3)
        .scoring(" W 3.0    D 1.0    L 0.0")
        .players(&["X:1500", "Y", "Z", "V"])
        .game(1, "X", "Y", "1-0")
        .game(2, "X", "Z", "=")
        .game(3, "X", "V", "0-1")
        .load();
    assert_eq!(value(&ev, 2026, "score", "1"), num("4"));
    assert_eq!(value(&ev, 2026, "standard_points", "1"), num("1.5"));
    assert_eq!(value(&ev, 2026, "pairing_number", "3"), num("3"));
    let tiny = tiny();
    assert_eq!(
        values(&tiny, 2026, "own_rating", &ALL),
        ["2000", "1900", "1800", "1700", "1600"]
    );
}

// ------------------------------------------------------------ Art. 14

/// 14.2-14.4: A's Buchholz values 2.5 (PAB), 2 (B), 2.5 and 2.5 (VURs).
/// Cut-2: 4.5 (16.5.2 cuts both VURs). Median-1: the least significant
/// first (a VUR's 2.5, 16.5), then the most significant (a 2.5): 4.5.
/// Median-2 cuts all four: 0.
#[test]
fn cut_and_median_modifiers_14() {
    let ev = tiny();
    let st = chain(&ev, "PTS,BH/C2,BH/M1,BH/M2,SB/M1", 2024);
    assert_eq!(column(&ev, &st, "BH/C2", &["1"]), ["4.5"]);
    assert_eq!(column(&ev, &st, "BH/M1", &["1"]), ["4.5"]);
    assert_eq!(column(&ev, &st, "BH/M2", &["1"]), ["0"]);
    // SB-M1 for A: contributions 2.5 (key 2.5), 2 (key 2), 0 and 1.25 (VURs,
    // key 2.5). Low cut: the least significant is B's 2, the lowest VUR 0:
    // cut 2 (16.5.1). High cut: the highest key 2.5, highest contribution
    // 2.5: left 0 + 1.25.
    assert_eq!(column(&ev, &st, "SB/M1", &["1"]), ["1.25"]);
}
