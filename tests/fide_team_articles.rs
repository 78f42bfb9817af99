//! FIDE team tie-breaks computed by hand (Play-off and Tie-Break
//! Regulations, seed 004: Art. 11, 12.1-12.3, 13.1-13.4, 14.1.2), on the
//! native-format event `examples/team-swiss.toml` (four teams, four boards,
//! everyone on 3 MP), evaluated with the shipped team rulesets.

use crate::common;
use common::*;
use tb::diag::Source;
use tb::model::{Event, Kind};

fn event() -> Event {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/team-swiss.toml");
    let text = std::fs::read_to_string(path).unwrap();
    tb::load::load(&Source::new("team-swiss.toml", text)).expect("loads")
}

fn team_lib() -> tb::plan::Ruleset {
    inline("import \"fide/team\"\nset fide_edition = 2026\n")
}

fn v(ev: &Event, metric: &str, id: &str) -> tb::eval::Value {
    value(ev, &team_lib(), metric, id)
}

#[test]
fn native_team_event_loads() {
    let ev = event();
    assert_eq!(ev.kind, Kind::Team);
    assert_eq!(ev.participants.len(), 4);
}

/// Art. 11.1: MP and GP. A: won 2.5-1.5, drew 2-2, lost 1.5-2.5.
#[test]
fn art_11_match_and_game_points() {
    let ev = event();
    assert_eq!(v(&ev, "match_points", "A"), num("3"));
    assert_eq!(v(&ev, "game_points", "A"), num("6"));
    assert_eq!(v(&ev, "game_points", "B"), num("6.5"));
    // 13.1: MPvGP is the secondary score, GP.
    assert_eq!(v(&ev, "match_or_game_points", "D"), num("5.5"));
}

/// Art. 12.1: A's boards: 1.5, 1.5, 2, 1 → 1×1.5 + 2×1.5 + 3×2 + 4×1 = 14.5.
#[test]
fn art_12_1_board_count() {
    let ev = event();
    assert_eq!(v(&ev, "board_count", "A"), num("14.5"));
}

/// Art. 12.2 and 12.3 as lists compared board by board.
#[test]
fn art_12_2_and_12_3_top_and_bottom_boards() {
    let ev = event();
    let tbr = format!("{:?}", v(&ev, "top_board_results", "C"));
    // C: board 1: 1 + 0.5 + 0.5 = 2.
    assert!(tbr.contains('2'), "{tbr}");
    let rs = inline("import \"fide/team\"\nprocedure p { step top_board_results desc as \"TBR\" }\nstandings p\n");
    let st = rank(&ev, &rs);
    assert_eq!(order(&ev, &st)[0], "C");
}

/// Art. 13.2 with 14.1.2: EMGSB = Σ opponent's MP × GP scored (all 3 MP: 3 × 6
/// for A = 18); Cut-1 drops the contribution of the lowest-MP opponent, the
/// lowest such contribution when all are level: A's 3×1.5 → 13.5.
#[test]
fn art_13_2_extended_sonneborn_berger() {
    let ev = event();
    assert_eq!(v(&ev, "emgsb", "A"), num("18"));
    assert_eq!(v(&ev, "emmsb", "A"), num("9"));
    // EGGSB: 6.5 × 2.5 + 6 × 2 + 5.5 × 1.5 = 36.5.
    assert_eq!(v(&ev, "eggsb", "A"), num("36.5"));
    let rs = inline("import \"fide/team\"\nmetric x = sum(cut_lowest(sonneborn_berger_values_in(false, true, false), 1))\n");
    assert_eq!(value(&ev, &rs, "x", "A"), num("13.5"));
}

/// Art. 13.4: divisor ⌊(2 MP × 3 rounds) / 4 GP⌋ = 1; SSSC(A) = 6 + BH 9 = 15.
#[test]
fn art_13_4_sssc() {
    let ev = event();
    assert_eq!(v(&ev, "sssc_divisor", "A"), num("1"));
    assert_eq!(v(&ev, "scores_and_schedule_strength", "A"), num("15"));
}

/// Art. 13.3: EDE on MP separates nobody (all drew 3 MP among themselves);
/// on GP B (6.5) is first and D (5.5) last; between A and C (6) GP is
/// applied again (13.3.3, the score that separated them), then MP: their
/// 2-2 match leaves them level on both, and the TRF-26 sample chain's EDET
/// takes it board by board (13.3.2): A won board 3.
#[test]
fn art_13_3_extended_direct_encounter_board_by_board() {
    let ev = event();
    for name in ["fide/team-swiss", "fide/team-round-robin"] {
        let st = rank(&ev, &shipped(name));
        assert_eq!(order(&ev, &st), ["B", "A", "C", "D"], "{name}");
    }
}

/// Art. 13.3.3 where the two readings part, built by hand
/// (tests/fixtures/fide_team/ede_readings.toml, whose header works it out):
/// five teams on 4 MP who all met; game points put E first, D last and A, B,
/// C level. Among A, B and C game points are applied again, as FIDE's TEC
/// exercise and gacrux do (the score that separated them is kept): C 5.5,
/// A 5, B 1.5. Restarting from match points would have put A (who beat B
/// and C) before C. The same kind of event, found by search and checked
/// against gacrux, is in tests/fide_team_oracle.rs.
#[test]
fn art_13_3_3_keeps_the_score_that_separated() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/fide_team/ede_readings.toml"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let ev = tb::load::load(&Source::new("ede_readings.toml", text)).expect("loads");
    for code in ["EDE", "EDEC", "EDET", "EDEB", "EDEBT", "EDEBB"] {
        for edition in ["2024", "2026"] {
            let rs = tb::check::check_list(
                Source::new("--tiebreaks", format!("PTS,{code}")),
                "fide/team-codes",
                Some(edition),
                &tb::shipped::Shipped,
                &[],
            )
            .unwrap_or_else(|d| panic!("{}", d.plain()));
            let st = rank(&ev, &rs);
            assert_eq!(
                order(&ev, &st),
                ["E", "C", "A", "B", "D"],
                "{code} {edition}"
            );
        }
    }
    // The shipped round-robin ruleset (EDEBT/P) reads it the same way.
    let st = rank(&ev, &shipped("fide/team-round-robin"));
    assert_eq!(order(&ev, &st), ["E", "C", "A", "B", "D"]);
}

/// 12.1: BC only when all tied teams have the same GP: here they do not, so
/// the step is skipped and the next one decides.
#[test]
fn art_12_1_board_count_needs_equal_game_points() {
    let ev = event();
    let rs = inline(
        "import \"fide/team\"\nprocedure p {\n step board_count asc when all(q.game_points == t.game_points for q in group for t in group) as \"BC\"\n step game_points desc as \"GP\"\n}\nstandings p\n",
    );
    let st = rank(&ev, &rs);
    assert_eq!(order(&ev, &st)[0], "B");
}

/// A team record naming a team that has no 310 record.
#[test]
fn unknown_team_is_reported() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/oracle/team_000.trf"
    );
    let text = std::fs::read_to_string(path).unwrap() + "330 +-   2   7  99\n";
    let d = tb::load::load(&Source::new("t.trf", text)).expect_err("unknown team");
    let codes: Vec<&str> = std::iter::once(d.code)
        .chain(d.related.iter().map(|r| r.code))
        .collect();
    assert!(codes.contains(&"tb::load::trf::unknown_team"), "{codes:?}");
}
