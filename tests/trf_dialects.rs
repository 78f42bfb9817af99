//! TRF dialects of real files (issue 22): the old half-point bye notation,
//! record 192 choosing the primary score of a team event, a match forfeited
//! on every board. Expected values are worked out by hand in the fixtures'
//! `###` comments; the team files are also compared with gacrux
//! (`fide_team_oracle`).

use tb::diag::Source;
use tb::model::{Event, Kind, Status};
use tb::num::Num;

fn load(rel: &str) -> Event {
    let path = format!("{}/tests/fixtures/{rel}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    tb::load::load(&Source::new(path, text)).expect("loads")
}

fn n(s: &str) -> Num {
    Num::parse(s).unwrap()
}

/// The values of `list` per participant id, in `edition`.
fn values(e: &Event, list: &str, edition: &str) -> Vec<(String, Vec<String>)> {
    let rs = tb::check::check_list(
        Source::new("--tiebreaks", list.to_string()),
        if e.kind == Kind::Team {
            "fide/team-codes"
        } else {
            "fide/codes"
        },
        Some(edition),
        &tb::shipped::Shipped,
        &[],
    )
    .unwrap_or_else(|d| panic!("{}", d.plain()));
    let st = tb::rank::rank(e, &rs, &tb::rank::Options::default())
        .unwrap_or_else(|d| panic!("{}", d.plain()));
    st.rows
        .iter()
        .map(|r| {
            let id = e.participants[r.pid].id.clone();
            let vals = r
                .values
                .iter()
                .map(|v| match v {
                    tb::eval::Value::Num(x) => x.to_string(),
                    other => format!("{other:?}"),
                })
                .collect();
            (id, vals)
        })
        .collect()
}

fn row<'a>(v: &'a [(String, Vec<String>)], id: &str) -> &'a [String] {
    &v.iter().find(|(i, _)| i == id).unwrap().1
}

#[test]
fn old_half_point_bye_notation_is_a_half_point_bye_with_a_note() {
    let e = load("data/chess/old_half_bye.trf");
    for id in ["2", "4"] {
        let p = &e.participants[e.find(id).unwrap()];
        let r2 = &p.entries[1];
        assert_eq!(r2.status, Status::HalfBye, "player {id}");
        assert_eq!(r2.points, n("0.5"));
    }
    let notes: Vec<String> = e.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("2 half-point byes"), "{}", notes[0]);
    assert!(notes[0].contains("lines 13, 15"), "{}", notes[0]);
    let v24 = values(&e, "PTS,BH", "2024");
    let v26 = values(&e, "PTS,BH", "2026");
    for (id, pts, bh24, bh26) in [
        ("1", "1.5", "4.5", "4.5"),
        ("2", "0.5", "4", "4"),
        ("3", "2", "4", "4"),
        ("4", "2", "5.5", "5"),
    ] {
        assert_eq!(row(&v24, id), [pts, bh24], "player {id} 2024");
        assert_eq!(row(&v26, id), [pts, bh26], "player {id} 2026");
    }
}

#[test]
fn a_result_other_than_equals_without_opponent_is_still_refused() {
    let text = std::fs::read_to_string(format!(
        "{}/tests/fixtures/data/chess/old_half_bye.trf",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    .replace("0000 - =", "0000 - 1");
    let d = tb::load::load(&Source::new("x.trf", text)).unwrap_err();
    assert!(d
        .plain()
        .contains("is a game result but the opponent is 0000"));
}

#[test]
fn record_192_makes_game_points_primary() {
    let e = load("fide_team/team_gp_primary.trf");
    assert_eq!(e.kind, Kind::Team);
    let v = values(&e, "PTS,MPvGP,BH,BH:MP,ESB,SB,EMGSB", "2024");
    // Ranked on game points, the tie of teams 2 and 3 broken by match points.
    let order: Vec<&str> = v.iter().map(|(i, _)| i.as_str()).collect();
    assert_eq!(order, ["1", "3", "2", "4"]);
    for (id, want) in [
        ("1", ["3.5", "3", "8.5", "9", "8.5", "10", "10"]),
        ("2", ["3", "3", "9", "9", "8.5", "8.5", "10"]),
        ("3", ["3", "4", "9", "8", "12", "9", "7.5"]),
        ("4", ["2.5", "2", "9.5", "10", "6.5", "8", "8"]),
    ] {
        assert_eq!(row(&v, id), want, "team {id}");
    }
}

#[test]
fn team_codes_that_name_no_primary_score_are_noted() {
    let path = format!(
        "{}/tests/fixtures/fide_team/team_gp_primary.trf",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap();
    let notes = |code: &str| -> (Vec<String>, Num) {
        let t = text.replace("192 FIDE_TEAM_TYPEA_GP_MP", &format!("192 {code}"));
        let e = tb::load::load(&Source::new("t.trf", t)).unwrap();
        let p = &e.participants[e.find("1").unwrap()];
        (
            e.warnings
                .iter()
                .map(|w| w.to_string())
                .filter(|w| w.contains("192"))
                .collect(),
            p.entries[1].points,
        )
    };
    // Match points primary, silently (team 1 lost round 2: 0 MP): codes
    // naming MP, and team codes naming none.
    for code in [
        "FIDE_TEAM_TYPEA_MP_GP",
        "FIDE_TEAM_MP_BAKU",
        "FIDE_TEAM",
        "fide_team_typea_mp",
    ] {
        assert_eq!(notes(code), (vec![], n("0")), "{code}");
    }
    // Game points primary: team 1 lost round 2 by 0.5-1.5.
    for code in [
        "FIDE_TEAM_TYPEB_GP",
        "FIDE_TEAM_GP_MP",
        "CUSTOM_TEAM_SWISS_GP",
    ] {
        assert_eq!(notes(code), (vec![], n("0.5")), "{code}");
    }
    // A code that says nothing tb knows: match points, with a warning.
    let (w, pts) = notes("FIDE_TEAM_TYPEC");
    assert_eq!(pts, n("0"));
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].contains("`FIDE_TEAM_TYPEC`"), "{}", w[0]);
}

#[test]
fn a_match_forfeited_on_every_board_is_a_forfeited_match() {
    let e = load("fide_team/team_forfeited_match.trf");
    let r2 = |id: &str| e.participants[e.find(id).unwrap()].entries[1].clone();
    assert_eq!(r2("2").status, Status::ForfeitWin);
    assert_eq!(r2("2").points, n("2"));
    assert_eq!(r2("4").status, Status::ForfeitLoss);
    assert_eq!(r2("4").points, n("0"));
    assert_eq!(r2("1").status, Status::Played);
    let v24 = values(&e, "PTS,BH", "2024");
    let v26 = values(&e, "PTS,BH", "2026");
    for (id, pts, bh24, bh26) in [
        ("1", "3", "9", "9"),
        ("2", "4", "11", "8"),
        ("3", "4", "8", "8"),
        ("4", "1", "8", "8"),
    ] {
        assert_eq!(row(&v24, id), [pts, bh24], "team {id} 2024");
        assert_eq!(row(&v26, id), [pts, bh26], "team {id} 2026");
    }
}
