//! Seed 001, card-game (Magic-style) Swiss tiebreakers: every worked example
//! as a test. The document rounds to two decimals for show; the engine is
//! exact, so each test asserts the exact fraction and the displayed value.

use crate::common;
use common::*;

fn shown(v: &tb::eval::Value) -> String {
    v.display(Some(2)).unwrap_or_default()
}

/// "Player C's tournament record is 5–2–1. She has 16 match points and she
/// played eight rounds. Her match-win percentage is 16 / 24 = .667"
/// (Definitions: Match-win percentage).
#[test]
fn match_win_percentage_player_c() {
    let mut ev = Ev::cards(8);
    ev.record("C", "W W W W W L L D");
    let (ev, rs) = (ev.load(), shipped("cards/swiss"));
    assert_eq!(value(&ev, &rs, "match_points", "C"), num("16"));
    assert_eq!(value(&ev, &rs, "mwp", "C"), num("2/3"));
    assert_eq!(shown(&value(&ev, &rs, "mwp", "C")), "0.67");
}

/// "Player D goes 1–3–0 in four rounds and withdraws ... 3 / 12 = .25 ...
/// below 0.33, player D's match-win percentage is 0.33 instead of 0.25."
#[test]
fn match_win_percentage_floor_player_d() {
    let mut ev = Ev::cards(8);
    ev.record("D", "W L L L").withdraw("D", 4);
    let (ev, rs) = (ev.load(), shipped("cards/swiss"));
    assert_eq!(value(&ev, &rs, "match_points", "D"), num("3"));
    assert_eq!(value(&ev, &rs, "mwp", "D"), num("0.33"));
}

/// "Player E's match record of 3–2–0 includes a first-round bye. She has 9
/// match points (including 3 match points from the bye) and her match-win
/// percentage is 9 / (5 × 3) = 9 / 15 = .60." The bye round counts.
#[test]
fn match_win_percentage_with_bye_player_e() {
    let mut ev = Ev::cards(5);
    ev.record("E", "B W W L L");
    let (ev, rs) = (ev.load(), shipped("cards/swiss"));
    assert_eq!(value(&ev, &rs, "match_points", "E"), num("9"));
    assert_eq!(value(&ev, &rs, "mwp", "E"), num("3/5"));
}

/// Opponents with the records of the document's players F and G. `first`
/// is the player's own first round: a match against the first opponent
/// (F) or a bye (G). The player loses to the 7–1–0 and 6–1–1 opponents.
fn omw_event(player: &str, bye_first: bool) -> tb::model::Event {
    let mut ev = Ev::cards(8);
    // (record left to play after the match against the player, player's result)
    let opponents: [(&str, &str); 8] = [
        ("W W W W L L L", "W"), // 4-4-0, lost to the player
        ("W W W W W W L", "L"), // 7-1-0, beat the player
        ("W L L D X X X", "W"), // 1-3-1 in five rounds
        ("W W W L L D X", "W"), // 3-3-1 in seven rounds
        ("W W W W W W L", "W"), // 6-2-0
        ("W W W W W L D", "W"), // 5-2-1
        ("W W W W L L D", "W"), // 4-3-1
        ("W W W W W L D", "L"), // 6-1-1, beat the player
    ];
    for (i, (rest, res)) in opponents.iter().enumerate() {
        let round = i as u32 + 1;
        let opp = format!("{player}{round}");
        if round == 1 && bye_first {
            ev.bye(1, player, "pairing");
            continue;
        }
        let result = if *res == "W" { "2-0-0" } else { "0-2-0" };
        ev.game(round, player, &opp, result);
        ev.record(&opp, rest);
    }
    ev.load()
}

/// Player F: opponents 4–4–0, 7–1–0, 1–3–1, 3–3–1, 6–2–0, 5–2–1, 4–3–1,
/// 6–1–1; the 1–3–1 opponent's 4/15 is raised to 0.33. The document sums
/// already-rounded values (4.94 / 8 = 0.62); exactly it is 20711/33600,
/// 0.6164, which also shows as 0.62 (Definitions: Opponents' match-win percentage).
#[test]
fn opponents_match_win_percentage_player_f() {
    let ev = omw_event("F", false);
    let rs = shipped("cards/swiss");
    assert_eq!(value(&ev, &rs, "match_points", "F"), num("18"));
    assert_eq!(value(&ev, &rs, "mwp", "F3"), num("0.33"));
    assert_eq!(value(&ev, &rs, "mwp", "F4"), num("10/21"));
    let omw = value(&ev, &rs, "omwp", "F");
    assert_eq!(omw, num("20711/33600"));
    assert_eq!(shown(&omw), "0.62");
}

/// Player G: the same records but a bye instead of the 4–4–0 opponent; the
/// bye round is ignored and the mean is over 7 opponents: 4.44 / 7 = 0.63
/// in the document, 18611/29400 exactly.
#[test]
fn opponents_match_win_percentage_ignores_bye_player_g() {
    let ev = omw_event("G", true);
    let rs = shipped("cards/swiss");
    assert_eq!(value(&ev, &rs, "match_points", "G"), num("18"));
    let omw = value(&ev, &rs, "omwp", "G");
    assert_eq!(omw, num("18611/29400"));
    assert_eq!(shown(&omw), "0.63");
}

/// Game points: "Player E wins a match 2–0–0, so she earns 6 game points and
/// her opponent receives 0"; "F wins 2–1–0: 6 and 3"; "G wins 2–0–1: 7 and 1"
/// (Definitions: Game Points).
#[test]
fn game_points_per_match() {
    let mut ev = Ev::cards(1);
    ev.game(1, "E", "e", "2-0-0")
        .game(1, "F", "f", "2-1-0")
        .game(1, "G", "g", "2-0-1");
    let ev = ev.load();
    let rs = inline("import \"cards/lib\"\nmetric gp = sum(game_points_in(r) for r in rounds)\n");
    for (id, gp) in [
        ("E", "6"),
        ("e", "0"),
        ("F", "6"),
        ("f", "3"),
        ("G", "7"),
        ("g", "1"),
    ] {
        assert_eq!(value(&ev, &rs, "gp", id), num(gp), "{id}");
    }
}

/// Player H: 2 wins; 2 wins and 1 loss; 1 win and 2 losses; 2 wins: 21 game
/// points over 10 games, 21 / 30 = 0.70 (Definitions: Game-win percentage).
#[test]
fn game_win_percentage_player_h() {
    let mut ev = Ev::cards(4);
    ev.record("H", "2-0-0 2-1-0 1-2-0 2-0-0");
    let (ev, rs) = (ev.load(), shipped("cards/swiss"));
    assert_eq!(value(&ev, &rs, "gwp", "H"), num("0.7"));
}

/// Player I: 9 game points over 11 games, 9 / 33 = 0.27; the document puts
/// no floor on a player's own GW%.
#[test]
fn game_win_percentage_player_i_has_no_floor() {
    let mut ev = Ev::cards(4);
    ev.record("I", "1-2-0 1-2-0 0-2-0 1-2-0");
    let (ev, rs) = (ev.load(), shipped("cards/swiss"));
    let gw = value(&ev, &rs, "gwp", "I");
    assert_eq!(gw, num("3/11"));
    assert_eq!(shown(&gw), "0.27");
}

/// Byes: "considered to have won the match 2–0 ... 3 match points and 6 game
/// points"; the bye's two games count in the player's own GW%.
#[test]
fn bye_is_a_two_nil_win() {
    let mut ev = Ev::cards(2);
    ev.record("P", "B 2-1-0");
    let (ev, rs) = (ev.load(), shipped("cards/swiss"));
    assert_eq!(value(&ev, &rs, "match_points", "P"), num("6"));
    assert_eq!(value(&ev, &rs, "gwp", "P"), num("12/15"));
}

/// Opponents' game-win percentage: "each opponent has a minimum game-win
/// percentage of 0.33": an opponent at 1/6 counts 0.33; bye rounds ignored.
#[test]
fn opponents_game_win_percentage_floor() {
    let mut ev = Ev::cards(3);
    ev.game(1, "P", "weak", "2-0-0")
        .game(2, "P", "strong", "2-1-0");
    ev.record("weak", "1-2-0 0-2-0"); // weak: 3 game points over 7 games = 1/7
    ev.record("strong", "2-0-0 2-0-0"); // strong: 15 over 7 games = 5/7
    ev.record("P", "B");
    let (ev, rs) = (ev.load(), shipped("cards/swiss"));
    assert_eq!(value(&ev, &rs, "gwp", "weak"), num("1/7"));
    // (0.33 + 5/7) / 2 exactly: 731/1400.
    assert_eq!(value(&ev, &rs, "ogwp", "P"), num("731/1400"));
}

/// Tiebreakers, Steps 1-3 in order: equal match points go to OMW%, then
/// GW%, then OGW%; values tied on all three share the place.
#[test]
fn steps_apply_in_order() {
    let mut ev = Ev::cards(2);
    // A and B both win both matches; A's opponents did better (Step 1).
    ev.game(1, "A", "a1", "2-0-0").game(2, "A", "a2", "2-0-0");
    ev.game(1, "B", "b1", "2-0-0").game(2, "B", "b2", "2-0-0");
    ev.game(1, "a2", "x1", "2-0-0").game(2, "a1", "x2", "2-0-0");
    ev.game(1, "b2", "y1", "0-2-0").game(2, "b1", "y2", "0-2-0");
    let (ev, rs) = (ev.load(), shipped("cards/swiss"));
    let st = rank(&ev, &rs);
    assert!(ahead(&ev, &st, "A", "B"));
    let row = st
        .rows
        .iter()
        .find(|r| ev.participants[r.pid].id == "A")
        .unwrap();
    assert_eq!(row.decided_by.as_ref().unwrap().criterion, "OMW%");
    assert_eq!(
        row.decided_by.as_ref().unwrap().cite.as_deref(),
        Some("Step 1")
    );
}
