//! Seed 002, US Chess tie-breaks as published by a chess league: every worked
//! example as a test. Opponents' records are built against filler players so
//! each opponent finishes on exactly the score the example gives.

use crate::common;
use common::*;

/// Tom and Jerry, 4 points in 5 rounds (SS #1 Example 1). Tom's opponents
/// score 1, 2, 3, 3.5, 4; Jerry's 2, 2.5, 3, 3, 4.
fn tom_and_jerry() -> tb::model::Event {
    let mut ev = Ev::chess(5);
    // (opponent's record against fillers, tied player's result)
    let tom = [
        ("W L L L", "1-0"),
        ("W W L L", "1-0"),
        ("W W W L", "1-0"),
        ("W W D L", "0-1"),
        ("W W W W", "1-0"),
    ];
    let jerry = [
        ("W W L L", "1-0"),
        ("W W D L", "1-0"),
        ("W W W L", "1-0"),
        ("W W L L", "0-1"),
        ("W W W W", "1-0"),
    ];
    for (who, opps) in [("Tom", tom), ("Jerry", jerry)] {
        for (i, (rest, res)) in opps.iter().enumerate() {
            let opp = format!("{who}-opp{}", i + 1);
            ev.game(i as u32 + 1, who, &opp, res);
            ev.record(&opp, rest);
        }
    }
    ev.load()
}

/// "Tom's Modified Median score is 2+3+3.5+4=12.5 (the opponent with a
/// score of 1 is dropped). Jerry's ... 2.5+3+3+4=12.5 ... does NOT break
/// the tie" (SS #1 Modified Median, Example 1).
#[test]
fn modified_median_tom_and_jerry() {
    let ev = tom_and_jerry();
    let rs = shipped("us-chess/swiss");
    assert_eq!(value(&ev, &rs, "score", "Tom"), num("4"));
    assert_eq!(value(&ev, &rs, "score", "Jerry"), num("4"));
    assert_eq!(value(&ev, &rs, "modified_median", "Tom"), num("12.5"));
    assert_eq!(value(&ev, &rs, "modified_median", "Jerry"), num("12.5"));
}

/// SS #3 Solkoff, Example 1. The document says Tom 14.5 and Jerry 13.5, but
/// with the opponents listed in the Modified Median example (which it says
/// are the same players) Tom's Solkoff is 1+2+3+3.5+4 = 13.5 and Jerry's
/// 2+2.5+3+3+4 = 14.5: the document swapped the names. We follow the rule.
#[test]
fn solkoff_tom_and_jerry_follows_the_rule_not_the_swapped_names() {
    let ev = tom_and_jerry();
    let rs = shipped("us-chess/swiss");
    assert_eq!(value(&ev, &rs, "solkoff", "Tom"), num("13.5"));
    assert_eq!(value(&ev, &rs, "solkoff", "Jerry"), num("14.5"));
}

/// "Jane's opponents have scores of 2, 2, 3.5, 4, 5, 5, 6, but the 6-point
/// opponent had a full-point bye in the first round. Fonda's ... 1, 2.5, 4,
/// 4, 5, 5.5, 6. Jane's Modified Median is 25 (one 2-point opponent dropped,
/// the 6-point opponent counted as 5.5). Fonda's is 27 ... Fonda wins"
/// (SS #1 Example 2).
#[test]
fn modified_median_jane_and_fonda() {
    let mut ev = Ev::chess(7);
    let jane = [
        "W W L L L L",
        "W W L L L L",
        "W W W D L L",
        "W W W W L L",
        "W W W W W L",
        "W W W W W L",
        "B W W W W W",
    ];
    let fonda = [
        "W L L L L L",
        "W W D L L L",
        "W W W W L L",
        "W W W W L L",
        "W W W W W L",
        "W W W W W D",
        "W W W W W W",
    ];
    for (who, opps) in [("Jane", jane), ("Fonda", fonda)] {
        for (i, rest) in opps.iter().enumerate() {
            let opp = format!("{who}-opp{}", i + 1);
            ev.game(i as u32 + 1, who, &opp, "1-0");
            ev.record(&opp, rest);
        }
    }
    let ev = ev.load();
    let rs = shipped("us-chess/swiss");
    assert_eq!(value(&ev, &rs, "score", "Jane-opp7"), num("6"));
    assert_eq!(value(&ev, &rs, "adjusted_score", "Jane-opp7"), num("5.5"));
    assert_eq!(value(&ev, &rs, "modified_median", "Jane"), num("25"));
    assert_eq!(value(&ev, &rs, "modified_median", "Fonda"), num("27"));
    let st = rank(&ev, &rs);
    assert!(ahead(&ev, &st, "Fonda", "Jane"));
}

/// "John won his first game, drew his second, and won his third ...
/// Cumulative score is 1+1.5+2.5=5. James ... 0.5+1.5+2.5=4.5. John wins"
/// (SS #2 Cumulative, Example 1).
#[test]
fn cumulative_john_and_james() {
    let mut ev = Ev::chess(3);
    ev.record("John", "W D W").record("James", "D W W");
    let ev = ev.load();
    let rs = shipped("us-chess/swiss");
    assert_eq!(value(&ev, &rs, "cumulative", "John"), num("5"));
    assert_eq!(value(&ev, &rs, "cumulative", "James"), num("4.5"));
}

/// "Sally gets a bye, wins, loses, wins, wins ... (1+2+2+3+4)-1=11. Molly
/// ... 1+2+2+3+4=12. Molly wins" (SS #2 Example 2): one point off for the bye.
#[test]
fn cumulative_sally_and_molly() {
    let mut ev = Ev::chess(5);
    ev.record("Sally", "B W L W W").record("Molly", "W W L W W");
    let ev = ev.load();
    let rs = shipped("us-chess/swiss");
    assert_eq!(value(&ev, &rs, "cumulative", "Sally"), num("11"));
    assert_eq!(value(&ev, &rs, "cumulative", "Molly"), num("12"));
}

/// "May and April tie in a three-round tournament with 2.5 points each. They
/// played each other in the final round and got a draw ... April's first
/// opponent had a full-point bye. May's Solkoff score is 1+2+2.5=5.5.
/// April's ... 0.5+2+2.5=5" (SS #3 Example 2).
#[test]
fn solkoff_may_and_april() {
    let mut ev = Ev::chess(3);
    ev.game(1, "May", "m1", "1-0").game(2, "May", "m2", "1-0");
    ev.game(1, "April", "a1", "1-0")
        .game(2, "April", "a2", "1-0");
    ev.game(3, "May", "April", "1/2-1/2");
    ev.record("m1", "W L")
        .record("m2", "W W")
        .record("a1", "B L")
        .record("a2", "W W");
    let ev = ev.load();
    let rs = shipped("us-chess/swiss");
    assert_eq!(value(&ev, &rs, "solkoff", "May"), num("5.5"));
    assert_eq!(value(&ev, &rs, "solkoff", "April"), num("5"));
}

/// "Max's opponents have Cumulative scores of 5, 5, 10, 13, and 10 ... 43.
/// Dwight's ... 5, 8, 5, 13, and 11 ... 42 ... Max wins on the Opposition
/// Cumulative tiebreak" (SS #4).
#[test]
fn opposition_cumulative_max_and_dwight() {
    let mut ev = Ev::chess(5);
    // Each opponent's own results, in round order, are chosen for its Cumulative.
    ev.game(1, "Max", "mo1", "0-1").record("mo1", "L L L L"); // 1,1,1,1,1 = 5
    ev.game(2, "Max", "mo2", "1-0").record("mo2", "W L L L"); // 1,1,1,1,1 = 5
    ev.game(3, "Max", "mo3", "1-0").record("mo3", "W W D L"); // 1,2,2,2.5,2.5 = 10
    ev.game(4, "Max", "mo4", "1/2-1/2").record("mo4", "W W W L"); // 1,2,3,3.5,3.5 = 13
    ev.game(5, "Max", "mo5", "1-0").record("mo5", "W D W L"); // 1,1.5,2.5,2.5,2.5 = 10
    ev.game(1, "Dwight", "do1", "0-1").record("do1", "L L L L"); // 5
    ev.game(2, "Dwight", "do2", "1-0").record("do2", "W W L L"); // 1,1,2,2,2 = 8
    ev.game(3, "Dwight", "do3", "1-0").record("do3", "W L L L"); // 5
    ev.game(4, "Dwight", "do4", "1/2-1/2")
        .record("do4", "W W W L"); // 13
    ev.game(5, "Dwight", "do5", "1-0").record("do5", "W D W D"); // 1,1.5,2.5,3,3 = 11
    let ev = ev.load();
    let rs = shipped("us-chess/swiss");
    for (id, c) in [
        ("mo1", "5"),
        ("mo2", "5"),
        ("mo3", "10"),
        ("mo4", "13"),
        ("mo5", "10"),
        ("do2", "8"),
        ("do5", "11"),
    ] {
        assert_eq!(value(&ev, &rs, "cumulative", id), num(c), "{id}");
    }
    assert_eq!(value(&ev, &rs, "score", "Max"), num("3.5"));
    assert_eq!(value(&ev, &rs, "score", "Dwight"), num("3.5"));
    assert_eq!(value(&ev, &rs, "opposition_cumulative", "Max"), num("43"));
    assert_eq!(
        value(&ev, &rs, "opposition_cumulative", "Dwight"),
        num("42")
    );
    // "Even if these players tied on all of the previous tiebreaks, Max wins":
    // a chain of score then Opposition Cumulative alone.
    let only_oc = inline(
        "import \"us-chess/lib\"\nprocedure p { step score desc  step opposition_cumulative desc }\nstandings p\n",
    );
    let st = rank(&ev, &only_oc);
    assert!(ahead(&ev, &st, "Max", "Dwight"));
}

/// "Amos lost to Billy, beat Charles, and beat Devin ... Amos's
/// Sonneborn-Berger score is 0+1.5+0.5=2. Billy's ... 2+0.75+0.25=3. Billy
/// wins on tiebreaks" (RR #1 Example 1).
#[test]
fn sonneborn_berger_amos_and_billy() {
    let mut ev = Ev::chess_rr(3);
    ev.game(1, "Amos", "Billy", "0-1")
        .game(1, "Charles", "Devin", "1-0");
    ev.game(2, "Amos", "Charles", "1-0")
        .game(2, "Billy", "Devin", "1/2-1/2");
    ev.game(3, "Amos", "Devin", "1-0")
        .game(3, "Billy", "Charles", "1/2-1/2");
    let ev = ev.load();
    let rs = shipped("us-chess/round-robin");
    assert_eq!(value(&ev, &rs, "sonneborn_berger", "Amos"), num("2"));
    assert_eq!(value(&ev, &rs, "sonneborn_berger", "Billy"), num("3"));
    let st = rank(&ev, &rs);
    assert_eq!(order(&ev, &st), ["Billy", "Amos", "Charles", "Devin"]);
}

/// "Jill's Sonneborn-Berger score is (1/2)+2+0=2.5. Kelly's ... (1/2)+1.5+0=2.
/// Jill is awarded second place" (RR #1 Example 2).
#[test]
fn sonneborn_berger_jill_and_kelly() {
    let mut ev = Ev::chess_rr(3);
    ev.game(1, "Ian", "Jill", "1/2-1/2")
        .game(1, "Kelly", "Larry", "0-1");
    ev.game(2, "Ian", "Kelly", "1/2-1/2")
        .game(2, "Jill", "Larry", "1-0");
    ev.game(3, "Ian", "Larry", "0-1")
        .game(3, "Jill", "Kelly", "0-1");
    let ev = ev.load();
    let rs = shipped("us-chess/round-robin");
    assert_eq!(value(&ev, &rs, "sonneborn_berger", "Jill"), num("2.5"));
    assert_eq!(value(&ev, &rs, "sonneborn_berger", "Kelly"), num("2"));
    let st = rank(&ev, &rs);
    assert_eq!(
        ranks(&ev, &st)[..3],
        [("Larry".into(), 1), ("Jill".into(), 2), ("Kelly".into(), 3)]
    );
}

/// "Hillary and Faith are tied with 2.5 points. Their Sonneborn-Berger
/// scores are identical at 2.25. The game ... was a draw, therefore their
/// tie remains unbroken" (RR #2 Example 1): they share first place.
#[test]
fn head_to_head_draw_leaves_faith_and_hillary_tied() {
    let mut ev = Ev::chess_rr(3);
    ev.game(1, "Evan", "Faith", "0-1")
        .game(1, "Gus", "Hillary", "0-1");
    ev.game(2, "Evan", "Gus", "1-0")
        .game(2, "Faith", "Hillary", "1/2-1/2");
    ev.game(3, "Evan", "Hillary", "0-1")
        .game(3, "Faith", "Gus", "1-0");
    let ev = ev.load();
    let rs = shipped("us-chess/round-robin");
    assert_eq!(value(&ev, &rs, "sonneborn_berger", "Faith"), num("2.25"));
    assert_eq!(value(&ev, &rs, "sonneborn_berger", "Hillary"), num("2.25"));
    let st = rank(&ev, &rs);
    assert_eq!(rank_of(&ev, &st, "Faith"), 1);
    assert_eq!(rank_of(&ev, &st, "Hillary"), 1);
    assert_eq!(rank_of(&ev, &st, "Evan"), 3);
}

/// "Marissa and Roy tie for first place, and their Sonneborn-Berger scores
/// are identical. However, when they played each other, Marissa beat Roy.
/// Marissa wins the Head-To-Head tiebreak" (RR #2 Example 2). A six-player
/// round robin found by search where both score 3.5 with SB 7.75.
#[test]
fn head_to_head_marissa_beats_roy() {
    let results = [
        ("Marissa", "Roy", "1-0"),
        ("Marissa", "A", "1-0"),
        ("Marissa", "B", "1-0"),
        ("Marissa", "C", "1/2-1/2"),
        ("Marissa", "D", "0-1"),
        ("Roy", "A", "1-0"),
        ("Roy", "B", "1/2-1/2"),
        ("Roy", "C", "1-0"),
        ("Roy", "D", "1-0"),
        ("A", "B", "1-0"),
        ("A", "C", "1-0"),
        ("A", "D", "1-0"),
        ("B", "C", "0-1"),
        ("B", "D", "0-1"),
        ("C", "D", "0-1"),
    ];
    let players = ["Marissa", "Roy", "A", "B", "C", "D"];
    let mut ev = Ev::chess_rr(5);
    // Circle-method schedule: in round r, seat i meets seat 5-i after rotating.
    for r in 0..5u32 {
        let mut seats = vec![players[0]];
        for k in 0..5 {
            seats.push(players[1 + (k + r as usize) % 5]);
        }
        for i in 0..3 {
            let (x, y) = (seats[i], seats[5 - i]);
            let (h, a, res) = results
                .iter()
                .find(|(h, a, _)| (*h == x && *a == y) || (*h == y && *a == x))
                .copied()
                .expect("every pair has a result");
            ev.game(r + 1, h, a, res);
        }
    }
    let ev = ev.load();
    let rs = shipped("us-chess/round-robin");
    assert_eq!(value(&ev, &rs, "sonneborn_berger", "Marissa"), num("7.75"));
    assert_eq!(value(&ev, &rs, "sonneborn_berger", "Roy"), num("7.75"));
    let st = rank(&ev, &rs);
    assert_eq!(order(&ev, &st)[..2], ["Marissa", "Roy"]);
    let row = &st.rows[0];
    assert_eq!(
        row.decided_by.as_ref().unwrap().cite.as_deref(),
        Some("RR #2")
    );
}

/// Modified Median at exactly 50% drops both ends; below 50% the highest;
/// nine or more rounds drop two (SS #1).
#[test]
fn modified_median_by_score_band_and_length() {
    let mut ev = Ev::chess(4);
    // Half: 2 of 4. Opponents finish on 0, 1, 2, 3 (plus their game here).
    ev.game(1, "H", "h1", "1-0").record("h1", "L L L");
    ev.game(2, "H", "h2", "1-0").record("h2", "W L L");
    ev.game(3, "H", "h3", "0-1").record("h3", "W L L");
    ev.game(4, "H", "h4", "0-1").record("h4", "W W L");
    let ev = ev.load();
    let rs = shipped("us-chess/swiss");
    // Opponent scores 0, 1, 2, 3: drop 0 and 3 → 3.
    assert_eq!(value(&ev, &rs, "modified_median", "H"), num("3"));

    let mut nine = Ev::chess(9);
    nine.record("N", "W W W W W W W W W");
    let nine = nine.load();
    assert_eq!(value(&nine, &rs, "median_cut", "N"), num("2"));
}

/// US Chess 34E1 (the league is silent): the tied player's own unplayed
/// rounds count as opponents scoring 0, so a bye is the round cut first.
#[test]
fn own_unplayed_round_counts_as_zero_opponent() {
    let mut ev = Ev::chess(3);
    ev.game(1, "P", "o1", "1-0").record("o1", "W W");
    ev.game(2, "P", "o2", "1-0").record("o2", "W L");
    ev.bye(3, "P", "full");
    let ev = ev.load();
    let rs = shipped("us-chess/swiss");
    assert_eq!(value(&ev, &rs, "solkoff", "P"), num("3"));
    // 3 of 3 is above half: the zero is dropped.
    assert_eq!(value(&ev, &rs, "modified_median", "P"), num("3"));
}
