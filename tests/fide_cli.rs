//! The FIDE features of the binary: `tb eval --tiebreaks` (MTB26
//! descriptors), a TRF-26 file's own tie-break records, `--edition`,
//! `--system`, the shipped fide/ rulesets, and the descriptor diagnostics.
//! Set UPDATE_GOLDEN=1 to rewrite the golden files after an intended change.

use crate::common::tb;
use serde_json::Value as Json;
use std::path::Path;
use std::process::Output;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn json(o: &Output) -> Json {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_str(&stdout(o)).expect("JSON output")
}

fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() || !path.exists() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
    }
    let expected = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        actual,
        expected,
        "output differs from {}; UPDATE_GOLDEN=1 to accept",
        path.display()
    );
}

const TINY: &str = "tests/fixtures/fide/tiny.trf";

/// A participant's values (by id) from `tb eval --format json`.
fn values<'a>(doc: &'a Json, id: &str) -> &'a serde_json::Map<String, Json> {
    doc["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == id)
        .unwrap_or_else(|| panic!("no {id}"))["values"]
        .as_object()
        .unwrap()
}

/// The JSON labels are the descriptors exactly as given (case, spaces
/// trimmed); values are decimal strings, null where undefined (ARO-C1 of a
/// player with one game over the board).
#[test]
fn tiebreaks_json_labels_are_the_descriptors_as_given() {
    let doc = json(&tb(&[
        "eval",
        "--tiebreaks",
        "PTS, bh/c1,BH,SB,aro/C1,DE",
        TINY,
        "--format",
        "json",
    ]));
    let a = values(&doc, "1");
    let labels: Vec<&String> = a.keys().collect();
    assert_eq!(labels, ["PTS", "bh/c1", "BH", "SB", "aro/C1", "DE"]);
    assert_eq!(a["bh/c1"], "7");
    assert_eq!(a["BH"], "9.5");
    assert_eq!(a["SB"], "5.75");
    assert_eq!(a["aro/C1"], Json::Null);
    assert_eq!(a["DE"], "0");
    // The edition came from the start date, and the output says so.
    let notes = doc["notes"].as_array().unwrap();
    assert!(
        notes.iter().any(|n| n
            .as_str()
            .unwrap()
            .contains("FIDE edition 2024 (the event starts on 2024/05/01, before 2026-03-01)")),
        "{notes:?}"
    );
    assert_eq!(doc["standings"][0]["id"], "3");
}

/// --edition 2026: the capped dummy (16.4.1/16.4.2) changes A's Buchholz
/// from 9.5 to 8.5; a file dated from 1 March 2026 gets 2026 by itself.
#[test]
fn edition_explicit_and_by_date() {
    let doc = json(&tb(&[
        "eval",
        "--tiebreaks",
        "PTS,BH",
        TINY,
        "--edition",
        "2026",
        "--format",
        "json",
    ]));
    assert_eq!(values(&doc, "1")["BH"], "8.5");
    assert!(doc["notes"][0]
        .as_str()
        .unwrap()
        .contains("FIDE edition 2026 (--edition)"));
    let doc = json(&tb(&[
        "eval",
        "--tiebreaks",
        "PTS,BH",
        "tests/fixtures/oracle/swiss_000.trf",
        "--format",
        "json",
    ]));
    assert!(doc["notes"][0]
        .as_str()
        .unwrap()
        .starts_with("FIDE edition 2026 (the event starts on 2026/04/01"));
}

/// A TRF-26 file's tie-break records are its ruleset when none is given;
/// PTS comes first (Art. 4.2) although record 202 does not list it.
#[test]
fn trf26_tiebreak_records_are_the_ruleset() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(TINY)).unwrap();
    let text = text.replacen("142 4\n", "142 4\n202 BH/C1, SB\n", 1);
    let path = std::env::temp_dir().join(format!("tb-fide-cli-{}.trf", std::process::id()));
    std::fs::write(&path, text).unwrap();
    let o = tb(&["eval", path.to_str().unwrap(), "--format", "json"]);
    let _ = std::fs::remove_file(&path);
    let doc = json(&o);
    let labels: Vec<&String> = values(&doc, "1").keys().collect();
    assert_eq!(labels, ["PTS", "BH/C1", "SB"]);
    assert!(doc["ruleset"]["name"]
        .as_str()
        .unwrap()
        .contains("records 202/212: BH/C1,SB"));
    // Without records, a ruleset or --tiebreaks is needed.
    let o = tb(&["eval", TINY]);
    assert_eq!(o.status.code(), Some(2), "a usage error");
    assert!(stderr(&o).contains("tb::cli::no_ruleset"), "{}", stderr(&o));
}

/// --system round-robin: forfeits become games (15.2) and Art. 16 goes:
/// C's Buchholz is 5 instead of 9 (see tests/fide_unplayed.rs).
#[test]
fn system_override() {
    let doc = json(&tb(&[
        "eval",
        "--tiebreaks",
        "PTS,BH",
        TINY,
        "--system",
        "round-robin",
        "--format",
        "json",
    ]));
    assert_eq!(values(&doc, "3")["BH"], "5");
    assert!(doc["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n == "treated as a round robin (--system)"));
}

/// Descriptor errors: every problem at once, each a diagnostic with a code
/// and the span of the descriptor in the list; exit code 3.
#[test]
fn descriptor_diagnostics() {
    let o = tb(&[
        "eval",
        "--tiebreaks",
        "PTS,BH/X1,WIN/C1,EDE",
        TINY,
        "--diagnostics",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(3));
    let d: Json = serde_json::from_str(stderr(&o).trim()).expect("JSON diagnostic");
    let related = d["related"].as_array().unwrap();
    let codes: Vec<&str> = related
        .iter()
        .map(|r| r["code"].as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        [
            "tb::descriptors::unknown_modifier",
            "tb::descriptors::invalid_combination",
            "tb::descriptors::unknown_code"
        ]
    );
    // `/X1` in "PTS,BH/X1,...": bytes 7-9, column 8.
    assert_eq!(related[0]["file"], "--tiebreaks");
    assert_eq!(related[0]["column"], 8);
    assert_eq!(related[0]["labels"][0]["start"], 7);
    assert_eq!(related[0]["labels"][0]["end"], 9);
    let o = tb(&[
        "eval",
        "--tiebreaks",
        "BH-C1",
        TINY,
        "--diagnostics",
        "plain",
    ]);
    assert!(
        stderr(&o).contains("write the modifier after a slash: BH/C1"),
        "{}",
        stderr(&o)
    );
    // A ruleset and --tiebreaks together.
    let o = tb(&["eval", "fide/swiss", TINY, "--tiebreaks", "PTS"]);
    assert_eq!(o.status.code(), Some(2), "a usage error");
    assert!(stderr(&o).contains("tb::cli::usage"));
}

/// The shipped rulesets: the Swiss under the edition of the event's date,
/// with the deciding tie-break per row; the 2026 variant; --edition on a
/// ruleset that is not FIDE's is refused.
#[test]
fn shipped_fide_rulesets() {
    let o = tb(&["eval", "fide/swiss", TINY]);
    assert!(o.status.success(), "{}", stderr(&o));
    golden("fide-swiss-tiny.table.txt", &stdout(&o));
    let doc = json(&tb(&["eval", "fide/swiss-2026", TINY, "--format", "json"]));
    assert_eq!(values(&doc, "1")["BH"], "8.5");
    let doc = json(&tb(&[
        "eval",
        "fide/swiss-2024",
        TINY,
        "--edition",
        "2026",
        "--format",
        "json",
    ]));
    assert_eq!(values(&doc, "1")["BH"], "8.5");
    let o = tb(&["eval", "us-chess/swiss", TINY, "--edition", "2026"]);
    assert_eq!(o.status.code(), Some(2), "a usage error");
    let o = tb(&[
        "eval",
        "fide/round-robin",
        "tests/fixtures/data/chess/uzchesscup_rr.trf",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    golden("fide-round-robin-uzchess.table.txt", &stdout(&o));
}

/// The table of tests/fixtures/data/chess/uzchesscup_rr.expected.tsv (PTS,
/// SB, WIN, BWG, KS and the rank after them), through the binary.
#[test]
fn round_robin_expected_table() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/data/chess");
    let table = std::fs::read_to_string(dir.join("uzchesscup_rr.expected.tsv")).unwrap();
    let mut lines = table.lines();
    let head: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let list = head[2..].join(",");
    let doc = json(&tb(&[
        "eval",
        "--tiebreaks",
        &list,
        "tests/fixtures/data/chess/uzchesscup_rr.trf",
        "--format",
        "json",
    ]));
    for line in lines {
        let f: Vec<&str> = line.split('\t').collect();
        let row = doc["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["id"] == f[0])
            .unwrap();
        assert_eq!(row["rank"].to_string(), f[1], "player {} rank", f[0]);
        for (code, want) in head[2..].iter().zip(&f[2..]) {
            let got = row["values"][*code].as_str().unwrap();
            let (g, w) = (
                tb::num::Num::parse(got).unwrap(),
                tb::num::Num::parse(want).unwrap(),
            );
            assert_eq!(g, w, "player {} {code}", f[0]);
        }
    }
}

/// The US Chess rulesets read TRF input too.
#[test]
fn us_chess_rulesets_read_trf() {
    for ruleset in ["us-chess/swiss", "us-chess/round-robin"] {
        let doc = json(&tb(&["eval", ruleset, TINY, "--format", "json"]));
        assert_eq!(doc["standings"].as_array().unwrap().len(), 5);
        assert_eq!(doc["standings"][0]["id"], "3");
    }
}
