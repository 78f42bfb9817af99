//! FIDE TRF loader: fixtures, byes and forfeits, TRF-26 records, diagnostics, robustness.

use tb::diag::{Diag, Severity, Source};
use tb::load::trf::load_trf;
use tb::model::{Event, Outcome, Side, Status, System};
use tb::num::Num;

fn fixture(name: &str) -> Source {
    let path = format!(
        "{}/tests/fixtures/data/chess/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Source::new(name, text)
}

fn load(name: &str, text: &str) -> Result<Event, Diag> {
    load_trf(&Source::new(name, text.to_string()))
}

fn ok(text: &str) -> Event {
    match load("t.trf", text) {
        Ok(e) => e,
        Err(d) => panic!("expected the file to load:\n{}", d.plain()),
    }
}

fn err(text: &str) -> Diag {
    match load("t.trf", text) {
        Ok(_) => panic!("expected an error"),
        Err(d) => d,
    }
}

fn n(s: &str) -> Num {
    Num::parse(s).expect("number")
}

/// A TRF16 001 line in exact columns; `blocks` are (opponent, colour, result).
fn player(num: u32, name: &str, points: &str, blocks: &[(&str, char, char)]) -> String {
    let mut s = format!(
        "001 {num:>4} m    {name:<33} {:>4} {:<3} {:>11} {:<10} {points:>4} {:>4}",
        2000,
        "FID",
        1000 + num,
        "2000/01/01",
        num
    );
    for (opp, c, r) in blocks {
        s.push_str(&format!("  {opp:>4} {c} {r}"));
    }
    s
}

/// The text a diagnostic's first label points at.
fn pointed<'a>(d: &Diag, text: &'a str) -> &'a str {
    let (span, _) = d.labels.first().expect("a label");
    &text[span.start..span.end]
}

fn entry(e: &Event, id: &str, round: u32) -> tb::model::Entry {
    let p = e.find(id).expect("participant");
    e.participants[p]
        .entries
        .iter()
        .find(|x| x.round == round)
        .cloned()
        .expect("entry")
}

fn total(e: &Event, id: &str) -> Num {
    let p = e.find(id).expect("participant");
    e.participants[p]
        .entries
        .iter()
        .fold(Num::ZERO, |a, x| a.add(x.points).expect("sum"))
}

// ---------------------------------------------------------------- fixtures

#[test]
fn uzchesscup_is_a_ten_player_round_robin() {
    let src = fixture("uzchesscup_rr.trf");
    let e = load_trf(&src).unwrap_or_else(|d| panic!("{}", d.plain()));
    assert_eq!(e.system, System::RoundRobin);
    assert_eq!(e.rounds, 9);
    assert_eq!(e.participants.len(), 10);
    assert!(e.name.starts_with("UzChess Cup Masters 2025"));
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    for (i, p) in e.participants.iter().enumerate() {
        assert_eq!(p.id, (i + 1).to_string());
        assert_eq!(p.entries.len(), 9);
        assert!(p.entries.iter().all(|x| x.status == Status::Played));
        let sum = p
            .entries
            .iter()
            .fold(Num::ZERO, |a, x| a.add(x.points).unwrap());
        assert_eq!(Some(sum), p.recorded_score, "player {}", p.id);
        // Everyone met everyone else exactly once.
        let mut opps: Vec<usize> = p.entries.iter().filter_map(|x| x.opponent).collect();
        opps.sort();
        opps.dedup();
        assert_eq!(opps.len(), 9);
        assert!(!opps.contains(&i));
    }
    // Against the expected file's points.
    let exp = fixture("uzchesscup_rr.expected.tsv");
    for row in exp.text.lines().skip(1) {
        let f: Vec<&str> = row.split('\t').collect();
        let p = &e.participants[e.find(f[0]).unwrap()];
        assert_eq!(p.recorded_score, Some(n(f[2])));
    }
    // The rank column as written.
    assert_eq!(e.participants[0].recorded_rank, Some(4));
    assert_eq!(e.participants[1].recorded_rank, Some(1));
    let first = &e.participants[0];
    assert_eq!(first.name, "Erigaisi Arjun");
    assert_eq!(first.rating, Some(2782));
    // Round 1: 1 had black against 9 and won.
    let r1 = entry(&e, "1", 1);
    assert_eq!(r1.opponent, e.find("9"));
    assert_eq!(r1.side, Some(Side::Second));
    assert_eq!(r1.outcome, Outcome::Win);
    assert_eq!(r1.points, Num::ONE);
    let back = entry(&e, "9", 1);
    assert_eq!(back.side, Some(Side::First));
    assert_eq!(back.outcome, Outcome::Loss);
    assert_eq!(entry(&e, "1", 2).outcome, Outcome::Draw);
    assert_eq!(entry(&e, "1", 2).points, n("0.5"));
}

#[test]
fn tec_swiss_has_its_byes_and_forfeits() {
    let e = load_trf(&fixture("tec_swiss_de.trf")).unwrap_or_else(|d| panic!("{}", d.plain()));
    assert_eq!(e.system, System::Swiss);
    assert_eq!(e.rounds, 9);
    assert_eq!(e.participants.len(), 16);
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    for p in &e.participants {
        assert_eq!(Some(total(&e, &p.id)), p.recorded_score, "player {}", p.id);
    }
    // H: half-point bye, no opponent.
    let h = entry(&e, "4", 2);
    assert_eq!(
        (h.status, h.opponent, h.points),
        (Status::HalfBye, None, n("0.5"))
    );
    // U: pairing-allocated bye.
    let u = entry(&e, "6", 3);
    assert_eq!((u.status, u.points), (Status::PairingBye, Num::ONE));
    assert_eq!(u.outcome, Outcome::Win);
    // Z: zero-point byes.
    for r in [4, 5] {
        let z = entry(&e, "12", r);
        assert_eq!((z.status, z.points), (Status::ZeroBye, Num::ZERO));
    }
    assert_eq!(entry(&e, "14", 4).status, Status::ZeroBye);
    // + / -: forfeits keep the scheduled opponent.
    let fl = entry(&e, "9", 4);
    assert_eq!(fl.status, Status::ForfeitLoss);
    assert_eq!(fl.opponent, e.find("11"));
    assert_eq!((fl.points, fl.outcome), (Num::ZERO, Outcome::Loss));
    let fw = entry(&e, "11", 4);
    assert_eq!(fw.status, Status::ForfeitWin);
    assert_eq!(fw.opponent, e.find("9"));
    assert_eq!((fw.points, fw.outcome), (Num::ONE, Outcome::Win));
    assert_eq!(entry(&e, "12", 3).status, Status::ForfeitWin);
    assert_eq!(entry(&e, "14", 3).status, Status::ForfeitLoss);
    assert_eq!(entry(&e, "9", 3).status, Status::HalfBye);
    assert_eq!(entry(&e, "9", 5).status, Status::PairingBye);
    assert_eq!(entry(&e, "12", 2).status, Status::PairingBye);
    // An ordinary game.
    let g = entry(&e, "1", 1);
    assert_eq!(
        (g.status, g.opponent, g.side),
        (Status::Played, e.find("9"), Some(Side::First))
    );
}

#[test]
fn grandmommy_trf26_team_sample_loads() {
    // A TRF-26 team file (records 310 present) loads as a team event: one
    // participant per team (issue 4). Its rank column is known not to match
    // FIDE's reference engine, so this is an input test only.
    let e = load_trf(&fixture("grandmommys_cup_trf26_team.trf"))
        .unwrap_or_else(|d| panic!("{}", d.plain()));
    assert_eq!(e.name, "Grandmommy's Cup");
    assert_eq!(e.kind, tb::model::Kind::Team);
    assert_eq!(e.rounds, 14);
    assert_eq!(e.participants.len(), 50);
    assert_eq!(e.system, System::Swiss);
    assert_eq!(e.start_date.as_deref(), Some("2024/01/01"));
    assert_eq!(
        e.tiebreaks,
        vec!["EDET/P", "EMGSB/C1/P", "BH:MP/C1/P", "MPvGP"]
    );
    for p in &e.participants {
        assert_eq!(p.entries.len(), 14);
    }
}

#[test]
fn fixtures_load_through_the_format_dispatcher() {
    let src = fixture("tec_swiss_de.trf");
    let e = tb::load::load(&src).unwrap_or_else(|d| panic!("{}", d.plain()));
    assert_eq!(e.participants.len(), 16);
}

// ---------------------------------------------------------------- records

#[test]
fn double_forfeit_is_minus_on_both_sides() {
    let text = [
        "012 DF".to_string(),
        player(1, "A", "0.0", &[("2", 'w', '-')]),
        player(2, "B", "0.0", &[("1", 'b', '-')]),
    ]
    .join("\n");
    let e = ok(&text);
    for id in ["1", "2"] {
        let x = entry(&e, id, 1);
        assert_eq!(x.status, Status::DoubleForfeit);
        assert_eq!(x.points, Num::ZERO);
        assert!(x.opponent.is_some());
    }
}

#[test]
fn unrated_games_count_as_played_and_are_noted() {
    let text = [
        player(1, "A", "1.5", &[("2", 'w', 'W'), ("2", 'b', 'D')]),
        player(2, "B", "0.5", &[("1", 'b', 'L'), ("1", 'w', 'D')]),
    ]
    .join("\n");
    let e = ok(&text);
    let w = entry(&e, "1", 1);
    assert_eq!(
        (w.status, w.outcome, w.points),
        (Status::Played, Outcome::Win, Num::ONE)
    );
    assert_eq!(entry(&e, "2", 2).outcome, Outcome::Draw);
    assert_eq!(
        e.participants[0].values.get("unrated_games"),
        Some(&Num::int(2))
    );
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
}

#[test]
fn header_records_name_date_rounds_type() {
    let text = [
        "012 Spring Open".to_string(),
        "042 2025/04/01".to_string(),
        "062 2".to_string(),
        "092 Individual: Round Robin".to_string(),
        "142 3".to_string(),
        player(1, "A", "1.0", &[("2", 'w', '1')]),
        player(2, "B", "0.0", &[("1", 'b', '0')]),
    ]
    .join("\n");
    let e = ok(&text);
    assert_eq!(e.name, "Spring Open");
    assert_eq!(e.start_date.as_deref(), Some("2025/04/01"));
    assert_eq!(e.system, System::RoundRobin);
    // 142 schedules three rounds; only round 1 has results, so rounds 2
    // and 3 are not yet played (issue #33): no absence, and a note.
    assert_eq!(e.rounds, 1);
    assert_eq!(e.scheduled, Some(3));
    assert_eq!(e.participants[0].entries.len(), 1);
    assert_eq!(
        e.notes,
        ["Standings after round 1 of 3: rounds 2-3 have no results yet; a round not yet played counts for no one"]
    );
}

#[test]
fn rounds_default_to_the_most_seen_and_192_decides_the_system() {
    let text = [
        "092 Round-Robin".to_string(),
        "192 FIDE_DUTCH_2025".to_string(),
        player(1, "A", "1.0", &[("0000", '-', 'U'), ("2", 'w', '0')]),
        player(2, "B", "1.0", &[("0000", '-', 'Z'), ("1", 'b', '1')]),
    ]
    .join("\n");
    let e = ok(&text);
    assert_eq!(e.rounds, 2);
    assert_eq!(e.system, System::Swiss);
    let rr = ok(&format!(
        "192 FIDE_ROUNDROBIN_DOUBLE\n{}",
        player(1, "A", "", &[])
    ));
    assert_eq!(rr.system, System::RoundRobin);
    let rr = ok(&format!(
        "092 Individual: Round-Robin\n{}",
        player(1, "A", "", &[])
    ));
    assert_eq!(rr.system, System::RoundRobin);
}

#[test]
fn xxr_declares_the_rounds() {
    let text = ["XXR 5".to_string(), player(1, "A", "0.0", &[])].join("\n");
    let e = ok(&text);
    assert_eq!(e.rounds, 5);
    assert_eq!(e.participants[0].entries.len(), 5);
}

#[test]
fn record_162_sets_the_scoring() {
    let text = [
        "162 W 3.0    D 1.0    L 0.0    A 0.0    P 1.0".to_string(),
        player(1, "A", "4.0", &[("2", 'w', '1'), ("0000", '-', 'U')]),
        player(2, "B", "1.0", &[("1", 'b', '0'), ("3", 'w', '=')]),
        player(3, "C", "4.0", &[("0000", '-', 'F'), ("2", 'b', '=')]),
    ]
    .join("\n");
    let e = ok(&text);
    assert_eq!(e.scoring.win, Num::int(3));
    assert_eq!(e.scoring.draw, Num::ONE);
    assert_eq!(entry(&e, "1", 1).points, Num::int(3));
    assert_eq!(entry(&e, "1", 2).points, Num::ONE, "P sets the pairing bye");
    assert_eq!(
        entry(&e, "3", 1).points,
        Num::int(3),
        "a full bye is worth W"
    );
    assert_eq!(entry(&e, "2", 2).points, Num::ONE);
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    assert_eq!(e.values.get("points_pab"), Some(&Num::ONE));
    // Spec column layout (code in column 6) and glued codes read the same.
    let e = ok(&format!("162  W 2.0 D1.0\n{}", player(1, "A", "", &[])));
    assert_eq!((e.scoring.win, e.scoring.draw), (Num::int(2), Num::ONE));
    // Something unreadable keeps the defaults and warns.
    let e = ok(&format!("162 9\n{}", player(1, "A", "", &[])));
    assert_eq!(e.scoring.win, Num::ONE);
    assert!(e.warnings.iter().any(|w| w.contains("162")));
}

#[test]
fn tiebreak_records_202_and_212() {
    let e = ok(&format!(
        "202 BH/C1,BH, SB ,DE\n{}",
        player(1, "A", "", &[])
    ));
    assert_eq!(e.tiebreaks, vec!["BH/C1", "BH", "SB", "DE"]);
    let e = ok(&format!("212 PTS,BH/C1,AOB\n{}", player(1, "A", "", &[])));
    assert_eq!(e.tiebreaks, vec!["BH/C1", "AOB"]);
    let e = ok(&format!(
        "212 PTS,DE\n202 BH/C1\n{}",
        player(1, "A", "", &[])
    ));
    assert_eq!(e.tiebreaks, vec!["BH/C1"], "202 wins over 212");
}

#[test]
fn record_240_gives_byes_in_an_individual_event() {
    // Round 3 has a game (B-C), so rounds 2 and 3 are played: a round of
    // byes inside the event is a round.
    let text = [
        "240 H   2    1    2".to_string(),
        "240 F   3    1".to_string(),
        player(1, "A", "2.5", &[("2", 'w', '1')]),
        player(
            2,
            "B",
            "1.5",
            &[("1", 'b', '0'), ("0000", '-', ' '), ("3", 'w', '1')],
        ),
        player(
            3,
            "C",
            "0.0",
            &[("0000", '-', ' '), ("0000", '-', ' '), ("2", 'b', '0')],
        ),
        "XXR 3".to_string(),
    ]
    .join("\n");
    let e = ok(&text);
    assert_eq!(e.rounds, 3);
    assert_eq!(entry(&e, "1", 2).status, Status::HalfBye);
    assert_eq!(entry(&e, "2", 2).status, Status::HalfBye);
    assert_eq!(entry(&e, "1", 3).status, Status::FullBye);
    assert_eq!(entry(&e, "1", 3).points, Num::ONE);
    assert_eq!(entry(&e, "2", 3).status, Status::Played);
    assert_eq!(entry(&e, "3", 2).status, Status::Absent);
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    // A bye for an unknown player is an error.
    let d = err(&["240 H   1   77".to_string(), player(1, "A", "", &[])].join("\n"));
    assert_eq!(d.code, "tb::load::trf::unknown_player");
}

#[test]
fn team_records_naming_unknown_teams_are_errors() {
    // Records 310/013 make a team event; 330 and 240 name teams 2 and 9,
    // which no team record defines.
    let text = [
        "013 Team A                            1    2".to_string(),
        "310   1 Team A                           TA      2000    2.0    1.0   1     1    2"
            .to_string(),
        "300   1   1   2    1    2".to_string(),
        "320  1.0  2.0   0".to_string(),
        "330 +-   1   1   2".to_string(),
        "299 +  2.0  2.5   1    1".to_string(),
        "362 TW 2.0   TD 1.0   TL 0.0".to_string(),
        "801  1 TA     2  1.0   2 w 1=   12".to_string(),
        "802   1 TA       2.0    1.0    2 w  1.0".to_string(),
        "240 F   1    9".to_string(),
        player(1, "A", "1.0", &[("2", 'w', '1')]),
        player(2, "B", "0.0", &[("1", 'b', '0')]),
    ]
    .join("\n");
    let d = err(&text);
    let codes: Vec<&str> = std::iter::once(d.code)
        .chain(d.related.iter().map(|r| r.code))
        .collect();
    assert!(
        codes.contains(&"tb::load::trf::unknown_team"),
        "{}",
        d.plain()
    );
}

#[test]
fn comments_rulers_crlf_and_bom() {
    let text = format!(
        "\u{feff}### a comment\r\n012 X\r\n         1         2\r\n1234567890\r\nDDD SSSS\r\n\r\n{}\r\n{}\r\n",
        player(1, "A", "1.0", &[("2", 'w', '1')]),
        player(2, "B", "0.0", &[("1", 'b', '0')])
    );
    let e = ok(&text);
    assert_eq!(e.name, "X");
    assert_eq!(entry(&e, "2", 1).outcome, Outcome::Loss);
}

#[test]
fn trailing_blank_result_is_absent_and_short_lines_are_fine() {
    let text = [
        player(1, "A", "1.0", &[("2", 'w', '1'), ("0000", '-', ' ')]),
        player(2, "B", "0.0", &[("1", 'b', '0')]),
        // A line that stops right after the rank.
        player(3, "C", "0.0", &[]),
        "XXR 2".to_string(),
    ]
    .join("\n");
    let e = ok(&text);
    assert_eq!(entry(&e, "3", 1).status, Status::Absent);
    // Round 2 holds only absences: it is not yet played (issue #33).
    assert_eq!((e.rounds, e.scheduled), (1, Some(2)));
    assert!(e.participants.iter().all(|p| p.entries.len() == 1));
}

#[test]
fn non_ascii_names_in_character_or_byte_columns() {
    // Columns counted in characters (the normal case).
    let text = [
        player(1, "Müller, Jürgen", "1.0", &[("2", 'w', '1')]),
        player(2, "Абдусатторов, Нодирбек", "0.0", &[("1", 'b', '0')]),
    ]
    .join("\n");
    let e = ok(&text);
    assert_eq!(e.participants[0].name, "Müller, Jürgen");
    assert_eq!(e.participants[1].name, "Абдусатторов, Нодирбек");
    assert_eq!(entry(&e, "1", 1).outcome, Outcome::Win);
    // Columns counted in bytes: the name was padded to 33 bytes.
    let name = "Müller, Jürgen";
    let padded = format!("{name}{}", " ".repeat(33 - name.len()));
    let line1 =
        player(1, "@", "1.0", &[("2", 'w', '1')]).replacen(&format!("{:<33}", "@"), &padded, 1);
    let text = [line1, player(2, "B", "0.0", &[("1", 'b', '0')])].join("\n");
    let e = ok(&text);
    assert_eq!(e.participants[0].name, name);
    assert_eq!(e.participants[0].recorded_score, Some(Num::ONE));
    assert_eq!(entry(&e, "1", 1).opponent, e.find("2"));
}

#[test]
fn titles_are_spelled_out() {
    let line = player(1, "A", "", &[]).replacen("001    1 m   ", "001    1 mg  ", 1);
    let e = ok(&line);
    assert_eq!(e.participants[0].title.as_deref(), Some("GM"));
}

// ---------------------------------------------------------------- diagnostics

#[test]
fn unknown_opponent_points_at_the_opponent_columns() {
    let text = [
        player(1, "A", "1.0", &[("99", 'w', '1')]),
        player(2, "B", "0.0", &[]),
    ]
    .join("\n");
    let d = err(&text);
    assert_eq!(d.code, "tb::load::trf::unknown_opponent");
    assert_eq!(pointed(&d, &text), "  99");
    let (_, line, col) = d.location().expect("location");
    assert_eq!((line, col), (1, 92));
    assert!(d.message.contains("99"), "{}", d.message);
    assert!(d.help.is_some());
}

#[test]
fn inconsistent_games_are_errors() {
    // B's line does not show A in round 1.
    let text = [
        player(1, "A", "1.0", &[("2", 'w', '1')]),
        player(2, "B", "0.0", &[("3", 'b', '0')]),
        player(3, "C", "0.0", &[("2", 'w', '1')]),
    ]
    .join("\n");
    let d = err(&text);
    assert_eq!(d.code, "tb::load::trf::inconsistent_game");
    // Results that do not fit: both claim the win.
    let text = [
        player(1, "A", "1.0", &[("2", 'w', '1')]),
        player(2, "B", "1.0", &[("1", 'b', '1')]),
    ]
    .join("\n");
    let d = err(&text);
    assert_eq!(d.code, "tb::load::trf::inconsistent_game");
    assert_eq!(pointed(&d, &text), "1");
    assert_eq!(d.location().map(|l| (l.1, l.2)), Some((1, 99)));
    assert_eq!(d.labels.len(), 2);
    // Both white.
    let text = [
        player(1, "A", "1.0", &[("2", 'w', '1')]),
        player(2, "B", "0.0", &[("1", 'w', '0')]),
    ]
    .join("\n");
    let d = err(&text);
    assert_eq!(d.code, "tb::load::trf::inconsistent_game");
    assert!(d.message.contains("colours"), "{}", d.message);
    assert_eq!(d.location().map(|l| (l.1, l.2)), Some((1, 97)));
    // Forfeit win against a played loss.
    let text = [
        player(1, "A", "1.0", &[("2", 'w', '+')]),
        player(2, "B", "0.0", &[("1", 'b', '0')]),
    ]
    .join("\n");
    assert_eq!(err(&text).code, "tb::load::trf::inconsistent_game");
    // Paired with oneself.
    let text = player(1, "A", "1.0", &[("1", 'w', '1')]);
    assert_eq!(err(&text).code, "tb::load::trf::inconsistent_game");
}

#[test]
fn malformed_blocks_and_numbers_name_line_and_column() {
    // A result code that does not exist.
    let text = [
        "012 X".to_string(),
        player(1, "A", "1.0", &[("2", 'w', 'Q')]),
        player(2, "B", "0.0", &[("1", 'b', '0')]),
    ]
    .join("\n");
    let d = err(&text);
    assert_eq!(d.code, "tb::load::trf::malformed");
    assert!(d.message.contains("line 2"), "{}", d.message);
    assert!(d.message.contains("column 99"), "{}", d.message);
    assert!(d.message.contains("result"), "{}", d.message);
    assert_eq!(pointed(&d, &text), "Q");
    // An opponent number with letters.
    let text = player(1, "A", "1.0", &[("1x", 'w', '1')]);
    let d = err(&text);
    assert_eq!(d.code, "tb::load::trf::malformed");
    assert!(d.message.contains("columns 92-95"), "{}", d.message);
    assert_eq!(pointed(&d, &text), "  1x");
    // A bad colour.
    let d = err(&player(1, "A", "", &[("0000", 'x', 'H')]));
    assert!(d.message.contains("column 97"), "{}", d.message);
    // Points that are not a number.
    let text = player(1, "A", "x.5", &[]);
    let d = err(&text);
    assert!(d.message.contains("columns 81-84"), "{}", d.message);
    assert_eq!(pointed(&d, &text), " x.5");
    // A starting number that is not one.
    let text = "001  abc m    A".to_string();
    let d = err(&text);
    assert!(d.message.contains("columns 5-8"), "{}", d.message);
    // A block shifted by one column.
    let text = format!("{} 0000 - H", player(1, "A", "", &[]));
    let d = err(&text);
    assert_eq!(d.code, "tb::load::trf::malformed");
    // A game result with no opponent; a bye with an opponent.
    assert_eq!(
        err(&player(1, "A", "", &[("0000", '-', '1')])).code,
        "tb::load::trf::malformed"
    );
    let text = [
        player(1, "A", "", &[("2", 'w', 'H')]),
        player(2, "B", "", &[]),
    ]
    .join("\n");
    assert_eq!(err(&text).code, "tb::load::trf::malformed");
    // A bad round count.
    let d = err(&format!("XXR nine\n{}", player(1, "A", "", &[])));
    assert_eq!(d.code, "tb::load::trf::malformed");
    assert_eq!(d.location().map(|l| (l.1, l.2)), Some((1, 5)));
}

#[test]
fn duplicate_player_is_an_error() {
    let text = [player(1, "A", "", &[]), player(1, "B", "", &[])].join("\n");
    let d = err(&text);
    assert_eq!(d.code, "tb::load::trf::duplicate_player");
    assert_eq!(pointed(&d, &text), "   1");
    assert_eq!(d.location().map(|l| l.1), Some(2));
    assert_eq!(d.labels.len(), 2);
}

#[test]
fn several_errors_are_reported_together() {
    let text = [
        player(1, "A", "1.0", &[("98", 'w', '1')]),
        player(2, "B", "1.0", &[("99", 'w', '1')]),
    ]
    .join("\n");
    let d = err(&text);
    assert_eq!(d.code, "tb::load::trf::unknown_opponent");
    assert_eq!(d.related.len(), 2);
    assert!(d.plain().contains("t.trf:2:92"), "{}", d.plain());
}

#[test]
fn points_column_differing_is_a_warning() {
    let text = [
        player(1, "Alpha", "0.5", &[("2", 'w', '1')]),
        player(2, "Beta", "0.0", &[("1", 'b', '0')]),
    ]
    .join("\n");
    let e = ok(&text);
    assert_eq!(e.warnings.len(), 1, "{:?}", e.warnings);
    let w = &e.warnings[0];
    assert!(
        w.contains("Alpha") && w.contains("0.5") && w.contains('1'),
        "{w}"
    );
    // A blank points column is not checked.
    let e = ok(&[
        player(1, "A", "", &[("2", 'w', '1')]),
        player(2, "B", "", &[("1", 'b', '0')]),
    ]
    .join("\n"));
    assert!(e.warnings.is_empty());
}

#[test]
fn no_players_is_an_error() {
    assert_eq!(err("012 Empty\n").code, "tb::load::trf::no_players");
    assert_eq!(err("").code, "tb::load::trf::no_players");
}

#[test]
fn too_large_files_are_rejected() {
    let big = format!("012 X\n{}", " ".repeat(50 * 1024 * 1024));
    let d = err(&big);
    assert_eq!(d.code, "tb::load::trf::too_large");
    assert_eq!(d.severity, Severity::Error);
}

#[test]
fn too_many_players_are_rejected() {
    let mut text = String::with_capacity(100_002 * 10);
    for i in 0..100_001u32 {
        // Starting numbers stop at 9999; the count is what is checked.
        text.push_str(&format!("001 {:>4}\n", i % 9999 + 1));
    }
    let d = err(&text);
    assert_eq!(d.code, "tb::load::trf::too_large");
}

// ---------------------------------------------------------------- robustness

/// A tiny deterministic generator, so failures reproduce.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const NOISE: &[char] = &[
    ' ', '0', '9', '-', '+', '=', 'w', 'b', 'Z', 'U', '.', '\t', 'é', '€', '😀', '\u{feff}', '\r',
    '\n', '#',
];

fn mutate(line: &str, rng: &mut Lcg) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = chars.clone();
    match rng.below(4) {
        0 => out.truncate(rng.below(chars.len() + 1)),
        1 => {
            for _ in 0..1 + rng.below(4) {
                if !out.is_empty() {
                    let i = rng.below(out.len());
                    out[i] = NOISE[rng.below(NOISE.len())];
                }
            }
        }
        2 => {
            let i = rng.below(out.len() + 1);
            out.insert(i, NOISE[rng.below(NOISE.len())]);
        }
        _ => {
            if !out.is_empty() {
                out.remove(rng.below(out.len()));
            }
        }
    }
    out.into_iter().collect()
}

#[test]
fn truncating_every_line_never_panics() {
    for name in ["uzchesscup_rr.trf", "tec_swiss_de.trf"] {
        let src = fixture(name);
        let lines: Vec<&str> = src.text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            let chars: Vec<char> = l.chars().collect();
            for cut in 0..=chars.len() {
                let mut v: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
                v[i] = chars[..cut].iter().collect();
                let _ = load(name, &v.join("\n"));
            }
        }
        // The whole file cut at every byte that is a character boundary.
        for cut in (0..src.text.len()).filter(|&c| src.text.is_char_boundary(c)) {
            let _ = load(name, &src.text[..cut]);
        }
    }
}

#[test]
fn garbling_fixture_lines_never_panics() {
    let mut rng = Lcg(0x5eed);
    for name in [
        "uzchesscup_rr.trf",
        "tec_swiss_de.trf",
        "grandmommys_cup_trf26_team.trf",
    ] {
        let src = fixture(name);
        let lines: Vec<String> = src.text.lines().map(str::to_string).collect();
        let tries = if lines.len() > 100 { 150 } else { 600 };
        for _ in 0..tries {
            let mut v = lines.clone();
            for _ in 0..1 + rng.below(3) {
                let i = rng.below(v.len());
                v[i] = mutate(&v[i], &mut rng);
            }
            match load(name, &v.join("\n")) {
                Ok(e) => {
                    for p in &e.participants {
                        assert_eq!(p.entries.len(), e.rounds as usize);
                    }
                }
                Err(d) => {
                    // Every diagnostic renders and its spans lie in the text.
                    let _ = d.plain();
                    let len = v.join("\n").len();
                    for (s, _) in d
                        .labels
                        .iter()
                        .chain(d.related.iter().flat_map(|r| r.labels.iter()))
                    {
                        assert!(s.start <= s.end && s.end <= len);
                    }
                }
            }
        }
    }
}

proptest::proptest! {
    #[test]
    fn arbitrary_player_lines_never_panic(
        lines in proptest::collection::vec("(001|012|092|162|202|240|XXR|142)[ -~éЖ😀]{0,140}", 0..6)
    ) {
        let _ = load("p.trf", &lines.join("\n"));
    }

    #[test]
    fn arbitrary_round_blocks_never_panic(
        blocks in proptest::collection::vec(("[ 0-9]{0,4}", "[ wbWB\\-x]", "[ 10=+\\-WDLHFUZQ]"), 0..5),
        blocks2 in proptest::collection::vec(("[ 0-9]{0,4}", "[ wbWB\\-x]", "[ 10=+\\-WDLHFUZQ]"), 0..5),
    ) {
        let b1: Vec<(&str, char, char)> = blocks.iter().map(|(o, c, r)| (o.as_str(), c.chars().next().unwrap_or(' '), r.chars().next().unwrap_or(' '))).collect();
        let b2: Vec<(&str, char, char)> = blocks2.iter().map(|(o, c, r)| (o.as_str(), c.chars().next().unwrap_or(' '), r.chars().next().unwrap_or(' '))).collect();
        let text = [player(1, "A", "", &b1), player(2, "B", "", &b2), "240 H 1 1 2".to_string()].join("\n");
        let _ = load("p.trf", &text);
    }
}

/// A large file's player lines (and their entries) are read in two halves
/// at once with two threads: the event, and every diagnostic in its order,
/// are those of one thread, whatever the second half holds.
#[test]
fn two_threads_read_as_one() {
    // Large enough for two threads (256 KiB, 20,000 player-rounds).
    let base = tb_gen::chess_swiss(2_000, 11, 3)
        .to_trf()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(base.len() > 300_000, "{} bytes", base.len());
    let lines: Vec<&str> = base.lines().collect();
    let players: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with("001"))
        .collect();
    let late = players[players.len() * 3 / 4];
    let early = players[players.len() / 4];
    // Line `i` with the text from byte `at` on replaced by `with`.
    let edit = |edits: &[(usize, usize, &str)]| -> String {
        let mut ls: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        for &(i, at, with) in edits {
            ls[i].replace_range(at..at + with.len(), with);
        }
        ls.join("\n") + "\n"
    };
    let first_number = &lines[players[0]][4..8];
    // A decisive game of two players of the last quarter: (line, column of
    // one side's result). Starting numbers are the lines' order.
    let late_game = || {
        for &i in &players[players.len() * 3 / 4..] {
            for k in 0..11 {
                let opp: usize = lines[i][91 + 10 * k..95 + 10 * k]
                    .trim()
                    .parse()
                    .unwrap_or(0);
                let result = &lines[i][98 + 10 * k..99 + 10 * k];
                if opp > players.len() * 3 / 4 && (result == "1" || result == "0") {
                    return (i, 98 + 10 * k);
                }
            }
        }
        panic!("no game in the last quarter")
    };
    let cases = [
        ("as generated", base.clone()),
        // Result of round 1 unreadable, late in the file.
        ("bad result", edit(&[(late, 98, "?")])),
        // Late and early: the diagnostics in line order.
        (
            "two bad results",
            edit(&[(late, 98, "?"), (early, 98, "?")]),
        ),
        // Both sides of a game between two players of the second half
        // claim the same result (found when the entries are built).
        ("inconsistent game", {
            let (i, at) = late_game();
            let other = if &lines[i][at..at + 1] == "1" {
                "0"
            } else {
                "1"
            };
            edit(&[(i, at, other)])
        }),
        // A starting number used again in the second half.
        ("duplicate", edit(&[(late, 4, first_number)])),
    ];
    for (what, text) in cases {
        let src = Source::new("big.trf", text);
        let one = tb::load::trf::load_trf_with(&src, 1);
        let two = tb::load::trf::load_trf_with(&src, 2);
        match (one, two) {
            (Ok(a), Ok(b)) => {
                assert!(a == b, "{what}: the events differ");
                assert_eq!(what, "as generated", "expected an error");
                assert_eq!(a.participants.len(), 2_000);
            }
            (Err(a), Err(b)) => {
                assert_eq!(a.plain(), b.plain(), "{what}");
                assert_ne!(what, "as generated", "{}", a.plain());
            }
            (a, b) => panic!(
                "{what}: one thread {:?}, two {:?}",
                a.err().map(|d| d.plain()),
                b.err().map(|d| d.plain())
            ),
        }
    }
}
