//! Data files that are not UTF-8, through the binary: 8-bit TRF and CSV
//! files (Windows-1250, Windows-1252) print their names right in every
//! format with a note naming the code page, files
//! mixing UTF-8 and 8-bit lines get a warning naming the line, `--write-trf`
//! copies the input's own bytes, and no shipped example or fixture gets
//! either (a check that cries wolf is a bug).

use crate::common::tb;
use std::path::{Path, PathBuf};

/// `Šarić` as a pairing program on a Central European Windows writes it:
/// Windows-1250, one byte per letter (Windows-1252 has `Š` at 0x8A too, but
/// no `ć`: its 0xE6 is `æ`).
const SARIC_8BIT: &[u8] = b"\x8aar\x69\xe6";

/// tests/fixtures/fide/tiny.trf with player C renamed `name` (bytes, five
/// characters: the name field keeps its width, so every column stays).
fn tiny_with(name: &[u8]) -> Vec<u8> {
    let text = std::fs::read("tests/fixtures/fide/tiny.trf").expect("tiny.trf");
    let from = b"001    3      C    ";
    let at = text
        .windows(from.len())
        .position(|w| w == from)
        .expect("player C");
    let mut out = text[..at + 14].to_vec();
    out.extend_from_slice(name);
    out.extend_from_slice(&text[at + 15 + 4..]);
    out
}

/// A fresh folder under target/ for this test's files.
fn dir(test: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("encodings-{test}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("test folder");
    d
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write test file");
    p.display().to_string()
}

fn out(args: &[&str]) -> (i32, String, String) {
    let o = tb(args);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).expect("UTF-8 output"),
        String::from_utf8(o.stderr).expect("UTF-8 diagnostics"),
    )
}

#[test]
fn an_8_bit_trf_prints_saric_in_every_format() {
    let d = dir("trf");
    let trf = write(&d, "saric.trf", &tiny_with(SARIC_8BIT));
    for format in ["table", "json", "csv", "markdown", "html"] {
        let (code, stdout, stderr) = out(&["eval", "fide/swiss", &trf, "--format", format]);
        assert_eq!(code, 0, "{format}: {stderr}");
        assert!(stdout.contains("Šarić"), "{format}: {stdout}");
        assert!(!stderr.contains("warning"), "{format}: {stderr}");
        // The note reaches every format that prints notes (CSV has none).
        if format != "csv" {
            assert!(
                stdout.contains("read as windows-1250"),
                "{format}: {stdout}"
            );
        }
    }
    // Columns are counted in characters, one per byte: the points column
    // after the name still reads 3.0, so Šarić is first.
    let (_, stdout, _) = out(&["eval", "fide/swiss", &trf, "--format", "csv"]);
    let first = stdout.lines().nth(1).expect("a first row");
    assert!(
        first.starts_with("1,") && first.contains("Šarić"),
        "{stdout}"
    );
    assert!(first.contains(",3"), "{first}");
}

#[test]
fn write_trf_copies_the_inputs_own_bytes() {
    let d = dir("write-trf");
    let input = tiny_with(SARIC_8BIT);
    let trf = write(&d, "saric.trf", &input);
    let ranked = d.join("ranked.trf").display().to_string();
    let (code, _, stderr) = out(&["eval", "fide/swiss", &trf, "--write-trf", &ranked]);
    assert_eq!(code, 0, "{stderr}");
    let written = std::fs::read(&ranked).expect("ranked.trf");
    assert_eq!(written.len(), input.len());
    let line = |bytes: &[u8], tag: &[u8]| -> Vec<u8> {
        let l = bytes.split(|&b| b == b'\n').find(|l| l.starts_with(tag));
        l.expect("the line").to_vec()
    };
    let (before, after) = (line(&input, b"001    3"), line(&written, b"001    3"));
    // Still 8-bit (no UTF-8 `Š`), and only the rank column (86-89) changed.
    assert!(after.windows(5).any(|w| w == SARIC_8BIT));
    assert_eq!(&after[85..89], b"   1");
    assert_eq!((&before[..85], &before[89..]), (&after[..85], &after[89..]));
}

#[test]
fn an_8_bit_csv_prints_its_names_with_a_note() {
    let d = dir("csv");
    let csv = [
        b"# sport: cards\n# rounds: 2\nround,home,away,home_wins,away_wins,draws\n1,".as_slice(),
        SARIC_8BIT,
        b",Bo,2,0,0\n2,Bo,",
        SARIC_8BIT,
        b",1,1,0\n",
    ]
    .concat();
    let csv = write(&d, "saric.csv", &csv);
    let (code, stdout, stderr) = out(&["eval", "cards/swiss", &csv]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Šarić"), "{stdout}");
    assert!(stdout.contains("read as windows-1250"), "{stdout}");
}

#[test]
fn a_western_8_bit_trf_is_windows_1252() {
    let d = dir("western");
    // `Müll€` with the Windows-1252 euro sign (a control character in Latin-1).
    let trf = write(&d, "western.trf", &tiny_with(b"M\xfcll\x80"));
    let (code, stdout, stderr) = out(&["eval", "fide/swiss", &trf]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("1     Müll€ (3)"), "{stdout}");
    assert!(stdout.contains("read as windows-1252"), "{stdout}");
}

#[test]
fn mixed_lines_are_each_read_their_own_way_with_a_warning() {
    let d = dir("mixed");
    // Player A renamed in UTF-8, player C in Windows-1252: line 8 is 8-bit.
    let mut bytes = tiny_with(SARIC_8BIT);
    let from = b"001    1      A ";
    let at = bytes
        .windows(from.len())
        .position(|w| w == from)
        .expect("A");
    // `Ž` is two bytes in UTF-8 but one character, as `A` is: the columns stay.
    bytes.splice(at + 14..at + 15, "Ž".bytes());
    let trf = write(&d, "mixed.trf", &bytes);
    let (code, stdout, stderr) = out(&["eval", "fide/swiss", &trf]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("Šarić") && stdout.contains("Ž (1)"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("Note: The data file is not UTF-8"),
        "{stdout}"
    );
    assert!(
        stderr.contains("warning[tb::load::mixed_encoding]")
            && stderr.contains("line 8 is not UTF-8"),
        "{stderr}"
    );
    let (code, _, stderr) = out(&["eval", "fide/swiss", &trf, "--strict"]);
    assert_eq!(code, 3, "{stderr}");
}

#[test]
fn usebio_follows_its_declared_encoding_without_a_note() {
    // ISO-8859-1 is read as Windows-1252, as browsers do; declared, it is
    // no guess, so there is no note.
    let (code, stdout, stderr) = out(&[
        "eval",
        "ebu/split-tie",
        "tests/fixtures/data/bridge/usebio-teams.xml",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Renée"), "{stdout}");
    assert!(!stdout.contains("not UTF-8"), "{stdout}");
}

/// Every data file under `dir`, recursively.
fn data_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            data_files(&p, out);
        } else if p.extension().is_some_and(|x| {
            ["trf", "txt", "csv", "toml", "json", "xml"]
                .iter()
                .any(|e| x == *e)
        }) {
            out.push(p);
        }
    }
}

#[test]
fn examples_and_fixtures_are_read_without_a_note() {
    use tb::load::decode::{decode, ReadAs};
    let mut files = Vec::new();
    for d in ["examples", "tests/fixtures", "rulesets"] {
        data_files(Path::new(d), &mut files);
    }
    assert!(files.len() > 50, "{}", files.len());
    for f in files {
        let bytes = std::fs::read(&f).expect("read");
        let how = decode(bytes).read_as;
        // The one 8-bit fixture declares ISO-8859-1, which it is.
        assert!(
            matches!(how, ReadAs::Utf8 | ReadAs::Declared(_)),
            "{}: {how:?}",
            f.display()
        );
    }
}
