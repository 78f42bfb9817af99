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

// ---------------------------------------------------------------------------
// Rounds the seed does not describe (issue 15, slip 9): forfeits, half- and
// zero-point byes, opponents who played no game, averages over nothing. Each
// gets the defined value `rulesets/cards/lib.tb` states, with its source.
// ---------------------------------------------------------------------------

/// The card metrics a standings row can show, plus MW% (read by OMW%).
const CARD_METRICS: [&str; 5] = ["match_points", "mwp", "omwp", "gwp", "ogwp"];

fn assert_all_defined(ev: &tb::model::Event, rs: &tb::plan::Ruleset, id: &str) {
    for m in CARD_METRICS {
        let v = value(ev, rs, m, id);
        assert!(v != tb::eval::Value::Undef, "{m} of {id} is undefined");
    }
}

/// Forfeit win, outside the seed: the absent player receives a Match Loss
/// (MTR Infraction Procedure Guide, Tardiness) and a match conceded without
/// a game won is reported 2-0 (MTR 2.4), so the player present has won 2-0,
/// as with a bye (seed 001, Byes: "3 match points and 6 game points"). The
/// round counts as competed; the absent opponent was not faced, so OMW% and
/// OGW% ignore it, as they ignore a bye.
#[test]
fn forfeit_win_counts_as_a_two_nil_win_mtr() {
    let mut ev = Ev::cards(2);
    ev.game(1, "P", "absent", "+-").game(2, "P", "Q", "2-1-0");
    ev.record("absent", "W"); // the no-show wins round 2: MW% 1 if it counted
    ev.record("Q", "L"); // Q: 1-2 against P, then 0-2: MW% 0.33, GW% 3/15
    let (ev, rs) = (ev.load(), shipped("cards/swiss"));
    assert_eq!(value(&ev, &rs, "match_points", "P"), num("6"));
    assert_eq!(value(&ev, &rs, "mwp", "P"), num("1"));
    // (6 + 6) / (3 x (2 + 3))
    assert_eq!(value(&ev, &rs, "gwp", "P"), num("12/15"));
    assert_eq!(value(&ev, &rs, "omwp", "P"), num("0.33"));
    assert_eq!(value(&ev, &rs, "ogwp", "P"), num("0.33"));
}

/// Forfeit loss, outside the seed: a no-show did not compete in the round
/// (seed 001, Definitions: Match-win percentage, "the number of rounds in
/// which he or she competed"), scores nothing and plays no game
/// ("Unplayed games are worth no points").
#[test]
fn forfeit_loss_is_not_a_round_competed() {
    let mut ev = Ev::cards(3);
    ev.record("N", "f 2-1-0 0-2-0");
    let (ev, rs) = (ev.load(), shipped("cards/swiss"));
    assert_eq!(value(&ev, &rs, "match_points", "N"), num("3"));
    assert_eq!(value(&ev, &rs, "mwp", "N"), num("1/2"));
    assert_eq!(value(&ev, &rs, "gwp", "N"), num("6/15"));
    assert_all_defined(&ev, &rs, "N");
}

/// A player whose only round is a forfeit win (slip 9: GW% and every
/// opponent's OGW% were undefined): GW% is the 2-0 win's 1; having faced no
/// one, OMW% and OGW% are 0.33, the least each mean can be, since "each
/// opponent has a minimum" of 0.33 (seed 001, Definitions; the mean over no
/// opponents is outside the seed).
#[test]
fn forfeit_only_player_has_every_value_defined() {
    let mut ev = Ev::cards(1);
    ev.game(1, "P", "absent", "+-").game(1, "A", "B", "2-0-0");
    let (ev, rs) = (ev.load(), shipped("cards/swiss"));
    assert_eq!(value(&ev, &rs, "gwp", "P"), num("1"));
    assert_eq!(value(&ev, &rs, "omwp", "P"), num("0.33"));
    assert_eq!(value(&ev, &rs, "ogwp", "P"), num("0.33"));
    assert_all_defined(&ev, &rs, "P");
    // The no-show competed in no round: MW% is the floor, not undefined
    // ("or 0.33, whichever is greater").
    assert_eq!(value(&ev, &rs, "mwp", "absent"), num("0.33"));
    assert_eq!(value(&ev, &rs, "match_points", "absent"), num("0"));
}

/// Seed 001, Byes: a pairing-allocated bye ("assigned a bye") and a full bye
/// (a bye worth a win, granted by the organiser) are both "won the match
/// 2-0": 3 match points, 6 game points over two games, ignored in OMW%/OGW%.
#[test]
fn pairing_and_full_byes_are_two_nil_wins() {
    let mut ev = Ev::cards(2);
    ev.record("U", "U 2-1-0").record("B", "B 2-1-0");
    let (ev, rs) = (ev.load(), shipped("cards/swiss"));
    for id in ["U", "B"] {
        assert_eq!(value(&ev, &rs, "match_points", id), num("6"), "{id}");
        assert_eq!(value(&ev, &rs, "mwp", id), num("1"), "{id}");
        assert_eq!(value(&ev, &rs, "gwp", id), num("12/15"), "{id}");
        // one opponent faced, 1-2 and then nothing: MW% 0.33, GW% 1/3
        assert_eq!(value(&ev, &rs, "omwp", id), num("0.33"), "{id}");
        assert_eq!(value(&ev, &rs, "ogwp", id), num("1/3"), "{id}");
    }
}

/// A zero-point bye (slip 9: scored as a 2-0 bye) is worth nothing and is
/// not a round competed (seed 001, Definitions: Match Points, "No points
/// are awarded for a match loss"; Match-win percentage, "rounds in which he
/// or she competed"); it has no game ("Unplayed games are worth no points").
#[test]
fn zero_bye_scores_nothing() {
    let mut ev = Ev::cards(2);
    ev.record("Z", "Z 2-1-0");
    let (ev, rs) = (ev.load(), shipped("cards/swiss"));
    assert_eq!(value(&ev, &rs, "match_points", "Z"), num("3"));
    assert_eq!(value(&ev, &rs, "mwp", "Z"), num("1"));
    assert_eq!(value(&ev, &rs, "gwp", "Z"), num("2/3"));
    assert_eq!(value(&ev, &rs, "omwp", "Z"), num("0.33"));
    let st = rank(&ev, &rs);
    let score = |id: &str| {
        st.rows
            .iter()
            .find(|r| ev.participants[r.pid].id == id)
            .map(|r| r.values[0].clone())
    };
    assert_eq!(score("Z"), Some(num("3")), "the MP column agrees");
}

/// A half-point bye (slip 9: scored as a 2-0 bye) is worth a drawn match,
/// 1 match point (seed 001, Definitions: Match Points, "1 match point for
/// each match ending in a draw"), and its round counts as competed like the
/// match it stands for; it has no game ("Unplayed games are worth no
/// points"), so GW% is over the games played.
#[test]
fn half_bye_is_a_drawn_match_without_games() {
    let mut ev = Ev::cards(2);
    ev.record("H", "H 2-1-0");
    let (ev, rs) = (ev.load(), shipped("cards/swiss"));
    assert_eq!(value(&ev, &rs, "match_points", "H"), num("4"));
    assert_eq!(value(&ev, &rs, "mwp", "H"), num("2/3"));
    assert_eq!(value(&ev, &rs, "gwp", "H"), num("2/3"));
    // A half bye alone: one round competed, no game played: GW% 0.
    let mut ev = Ev::cards(1);
    ev.bye(1, "H", "half").game(1, "A", "B", "2-0-0");
    let ev = ev.load();
    assert_eq!(value(&ev, &rs, "mwp", "H"), num("1/3"));
    assert_eq!(value(&ev, &rs, "gwp", "H"), num("0"));
    assert_all_defined(&ev, &rs, "H");
}

/// Seed 001, Definitions: Opponents' game-win percentages: "each opponent
/// has a minimum game-win percentage of 0.33". An opponent who played no
/// game (a match reported 0-0-0, then dropped) has GW% 0 (no game points:
/// "Unplayed games are worth no points") and counts 0.33 in OGW% (slip 9:
/// OGW% was undefined).
#[test]
fn opponent_with_no_game_counts_the_floor() {
    let mut ev = Ev::cards(2);
    ev.game(1, "P", "idle", "0-0-0").game(2, "P", "Q", "2-0-0");
    ev.record("Q", "2-0-0"); // Q: 0-2 against P, then 2-0: GW% 1/2
    ev.withdraw("idle", 1);
    let (ev, rs) = (ev.load(), shipped("cards/swiss"));
    assert_eq!(value(&ev, &rs, "gwp", "idle"), num("0"));
    // (0.33 + 1/2) / 2
    assert_eq!(value(&ev, &rs, "ogwp", "P"), num("0.415"));
    assert_all_defined(&ev, &rs, "P");
    assert_all_defined(&ev, &rs, "idle");
}

/// Whether a participant competed in some round: played, a bye worth
/// something, or a forfeit win.
fn competed(p: &tb::model::Participant) -> bool {
    use tb::model::Status::*;
    p.entries.iter().any(|e| {
        matches!(
            e.status,
            Played | PairingBye | FullBye | HalfBye | ForfeitWin
        )
    })
}

/// Issue 15, build item 6: no card criterion is undefined for a player who
/// competed, in a handwritten event with every kind of round (forfeit win
/// and loss, double forfeit, pairing, full, half and zero byes, a 0-0-0
/// match, a drop) and in generated Swiss events with no-shows and drops.
#[test]
fn no_card_criterion_is_undefined_for_a_player_who_competed() {
    let mut ev = Ev::cards(4);
    ev.game(1, "A", "B", "+-")
        .game(1, "C", "D", "2-1-0")
        .game(1, "E", "F", "--");
    ev.bye(1, "G", "pairing")
        .bye(1, "H", "half")
        .bye(1, "I", "zero");
    ev.bye(1, "J", "full");
    ev.game(2, "A", "C", "2-0-0")
        .game(2, "B", "D", "-+")
        .game(2, "E", "G", "0-0-0");
    ev.game(2, "F", "H", "1-1-1")
        .bye(2, "I", "zero")
        .bye(2, "J", "half");
    ev.game(3, "A", "J", "1-2-0")
        .game(3, "C", "E", "+-")
        .game(3, "G", "H", "2-0");
    ev.game(3, "I", "F", "0-2").bye(3, "D", "pairing");
    ev.game(4, "A", "G", "2-1-0")
        .game(4, "C", "H", "0-0-0")
        .bye(4, "J", "zero");
    ev.withdraw("B", 2).withdraw("E", 3);
    let (ev, rs) = (ev.load(), shipped("cards/swiss"));
    let mut checked = 0;
    for p in &ev.participants {
        if competed(p) {
            assert_all_defined(&ev, &rs, &p.id);
            checked += 1;
        }
    }
    assert_eq!(
        checked, 9,
        "everyone but B, a no-show in both rounds before dropping"
    );

    let (mut forfeits, mut players) = (0, 0);
    for seed in 1..=8 {
        let g = tb_gen::cards_swiss(40, 6, seed);
        forfeits += g.stats.forfeits;
        let ev = tb::load::native::load_toml(&tb::diag::Source::new("gen.toml", g.to_toml()))
            .unwrap_or_else(|d| panic!("{}", d.plain()));
        for p in ev.participants.iter().filter(|p| competed(p)) {
            assert_all_defined(&ev, &rs, &p.id);
            players += 1;
        }
    }
    assert!(forfeits > 0, "the generated events hold no forfeit");
    // A no-show who then dropped competed in no round; everyone else did.
    assert!(players > 300, "{players} of 320 competed");
}

/// examples/cards-unplayed.toml (forfeits, a zero-point and a half-point
/// bye, a no-show who drops) ranks as it records, and every player has every
/// value: Hana (a loss and a draw, then a no-show and a drop) and Dev (a
/// no-show in round 1, then a draw and two losses) are ranked by OMW%, not
/// dropped to the bottom by an undefined value.
#[test]
fn unplayed_example_ranks_as_recorded() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/cards-unplayed.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let ev = tb::load::native::load_toml(&tb::diag::Source::new("cards-unplayed.toml", text))
        .unwrap_or_else(|d| panic!("{}", d.plain()));
    assert!(ev.warnings.is_empty(), "{:?}", ev.warnings);
    let rs = shipped("cards/swiss");
    let st = rank(&ev, &rs);
    for row in &st.rows {
        let p = &ev.participants[row.pid];
        assert_eq!(Some(row.rank as u32), p.recorded_rank, "{}", p.id);
        assert_all_defined(&ev, &rs, &p.id);
    }
    // Dev: no-show (not competed), 1-1-1 draw, 1-2 loss, 1-2 loss: 1 match
    // point over 3 rounds (0.33), 10 game points over 9 games.
    assert_eq!(value(&ev, &rs, "mwp", "dev"), num("0.33"));
    assert_eq!(value(&ev, &rs, "gwp", "dev"), num("10/27"));
    // Eli: 0-2, zero bye, forfeit win (2-0), 2-0: 6 match points over 3
    // rounds; 12 game points over 6 games; faced Fay and Ivy only.
    assert_eq!(value(&ev, &rs, "match_points", "eli"), num("6"));
    assert_eq!(value(&ev, &rs, "mwp", "eli"), num("2/3"));
    assert_eq!(value(&ev, &rs, "gwp", "eli"), num("2/3"));
    // Fay 6/12 and Ivy 4/12 (pairing bye, loss, half bye, loss): 5/12.
    assert_eq!(value(&ev, &rs, "omwp", "eli"), num("5/12"));
}
