//! Standings during an event (issue #33): a file half-way through the event
//! is ranked on the rounds played, whatever it schedules or enters ahead;
//! `--after-round` and `--progress` through the binary. (gacrux's
//! `current_round` on generated events: `tests/fide_oracle.rs`.)

use crate::common::tb;

/// `examples/chess-open-round7.trf`: results up to round 7, `XXR 9`, and
/// half-point and zero-point byes entered for round 8 (players 3 and 11).
const PARTIAL: &str = "examples/chess-open-round7.trf";

fn run(args: &[&str]) -> (String, String, i32) {
    let o = tb(args);
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

/// The example without `XXR 9` and without the round-8 byes: what the file
/// would be had the pairing program written only the rounds played.
fn without_what_is_ahead(dir: &std::path::Path) -> String {
    let text = std::fs::read_to_string(PARTIAL).expect("example");
    let lines: Vec<String> = text
        .lines()
        .filter(|l| !l.starts_with("XXR"))
        .map(|l| {
            if l.starts_with("001") {
                l.chars()
                    .take(91 + 70)
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            } else {
                l.to_string()
            }
        })
        .collect();
    let path = dir.join("played-only.trf");
    std::fs::write(&path, lines.join("\n") + "\n").expect("write");
    path.to_string_lossy().into_owned()
}

/// FIDE Art. 16 applies to the rounds played: rounds 8 and 9 give no one an
/// absence, and the byes entered for round 8 count for nothing yet. The
/// standings and every value equal those of the file that stops at round 7,
/// with a note naming what was left out, and the title saying after which
/// round they stand.
#[test]
fn rounds_not_yet_played_are_no_absences() {
    let dir = std::env::temp_dir().join(format!("tb-during-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let plain = without_what_is_ahead(&dir);
    for rs in ["fide/swiss", "us-chess/swiss"] {
        let (a, err_a, code_a) = run(&["eval", rs, PARTIAL, "--format", "csv"]);
        let (b, _, code_b) = run(&["eval", rs, &plain, "--format", "csv"]);
        assert_eq!((code_a, code_b), (0, 0), "{err_a}");
        assert_eq!(
            a, b,
            "{rs}: the file with rounds ahead ranks as the one without"
        );
        assert!(err_a.is_empty(), "no warning: {err_a}");
    }
    let (table, _, _) = run(&["eval", "fide/swiss", PARTIAL]);
    let head: Vec<&str> = table.lines().take(3).collect();
    assert!(head[0].ends_with("— after round 7 of 9"), "{}", head[0]);
    assert!(
        head[2].contains("round 8 holds 1 half-point bye entered ahead, 1 zero-point bye entered ahead; round 9 has no results yet"),
        "{}",
        head[2]
    );
    let (json, _, _) = run(&["eval", "fide/swiss", PARTIAL, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["event"]["rounds"], 7);
    assert_eq!(v["event"]["after_round"], 7);
    assert_eq!(v["event"]["scheduled_rounds"], 9);
    let (html, _, _) = run(&["eval", "fide/swiss", PARTIAL, "--format", "html"]);
    assert!(html.contains("<strong>Standings after round 7 of 9</strong>"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--after-round N` of a file equals the file cut after round N; a round
/// past the last with results is a usage error; the file's recorded ranks
/// are not compared with earlier standings.
#[test]
fn after_round_is_the_event_as_it_stood() {
    let (a, _, code) = run(&[
        "eval",
        "fide/swiss",
        PARTIAL,
        "--after-round",
        "7",
        "-f",
        "csv",
    ]);
    let (b, _, _) = run(&["eval", "fide/swiss", PARTIAL, "-f", "csv"]);
    assert_eq!((code, a), (0, b), "after the last round played: as without");
    let (t, _, _) = run(&[
        "eval",
        "cards/swiss",
        "examples/cards-swiss.toml",
        "--after-round",
        "2",
    ]);
    assert!(
        t.lines().next().unwrap().ends_with("— after round 2 of 4"),
        "{t}"
    );
    assert!(t.contains("Note: Standings after round 2 of 4 (--after-round): the results of rounds 3-4 are left out"), "{t}");
    let (_, err, code) = run(&["eval", "fide/swiss", PARTIAL, "--after-round", "8"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("the event has results up to round 7 of 9"),
        "{err}"
    );
    let (_, err, code) = run(&["eval", "fide/swiss", PARTIAL, "--after-round", "0"]);
    assert_eq!(code, 2, "{err}");
}

/// `--progress`: the place after every round, in the final order, the last
/// column the standings' own ranks; chess, cards and bridge.
#[test]
fn progress_ends_on_the_standings() {
    for (rs, data, rounds) in [
        ("fide/swiss", PARTIAL, 7),
        ("cards/swiss", "examples/cards-swiss.toml", 4),
        ("wbf/swiss-teams", "examples/bridge-swiss-teams.toml", 3),
    ] {
        let (csv, err, code) = run(&["eval", rs, data, "--progress", "-f", "csv"]);
        assert_eq!(code, 0, "{err}");
        let (standings, _, _) = run(&["eval", rs, data, "-f", "csv"]);
        let header = csv.lines().next().unwrap();
        assert_eq!(header.split(',').count(), 3 + rounds, "{header}");
        // Same participants in the same order, the last round's place the rank.
        for (p, s) in csv.lines().skip(1).zip(standings.lines().skip(1)) {
            let p: Vec<&str> = p.split(',').collect();
            let s: Vec<&str> = s.split(',').collect();
            assert_eq!(p[..2], s[..2], "{rs}");
            assert_eq!(p.last().unwrap().trim_end_matches('='), s[0], "{rs}");
        }
        assert_eq!(csv.lines().count(), standings.lines().count());
    }
    let (_, err, code) = run(&[
        "eval",
        "fide/swiss",
        PARTIAL,
        "--progress",
        "--write-trf",
        "x.trf",
    ]);
    assert_eq!(code, 2, "{err}");
}
