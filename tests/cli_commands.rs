//! The commands of issue #17 through the real binary: `--write-trf` (the
//! ranked copy round-trips through the loader and `tb verify`, and differs
//! from its input only in the rank columns), its refusals, `verify`'s and
//! `tb test`'s causes, `show` and `doc`, completions and the man page.
//! Their outputs on the shipped files are also in the output corpus
//! (tests/output_corpus.rs, `commands`).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cli_commands-{name}"));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch folder");
    d
}

/// Run `tb` in the crate's folder: (exit code, stdout, stderr).
fn tb(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_tb"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env("COLUMNS", "10000")
        .output()
        .expect("run tb");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The lines of `after` that differ from `before`'s, each with its
/// original, for a snapshot; every other byte must be the same.
fn changed_lines(before: &[u8], after: &[u8], cols: std::ops::Range<usize>) -> String {
    let split =
        |b: &[u8]| -> Vec<Vec<u8>> { b.split(|&c| c == b'\n').map(<[u8]>::to_vec).collect() };
    let (a, b) = (split(before), split(after));
    assert_eq!(a.len(), b.len(), "the same number of lines");
    let mut out = String::new();
    for (x, y) in a.iter().zip(&b) {
        if x == y {
            continue;
        }
        // Only the rank columns differ (a short line may be padded to them).
        let mut x2 = x.clone();
        x2.resize(x.len().max(cols.end), b' ');
        let mut y2 = y.clone();
        y2.resize(y.len().max(cols.end), b' ');
        assert_eq!(x2[..cols.start], y2[..cols.start], "before the rank");
        assert_eq!(x2[cols.end..], y2[cols.end..], "after the rank");
        let show = |l: &[u8]| String::from_utf8_lossy(&l[..cols.end.min(l.len())]).into_owned();
        out.push_str(&format!("- {}\n+ {}\n", show(x), show(y)));
    }
    out
}

/// `eval ... --write-trf`, then `verify` of the written file with the same
/// rules: no difference; the input and output differ only in rank columns.
fn round_trip(name: &str, rules: &[&str], data: &str, cols: std::ops::Range<usize>) -> String {
    let dir = scratch(name);
    let out = dir.join("ranked.trf");
    let out_s = out.to_string_lossy().to_string();
    let mut args = vec!["eval"];
    args.extend_from_slice(rules);
    args.extend_from_slice(&[data, "--write-trf", &out_s]);
    let (code, _, err) = tb(&args);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("wrote "), "{err}");
    let mut args = vec!["verify"];
    args.extend_from_slice(rules);
    args.push(&out_s);
    let (code, stdout, err) = tb(&args);
    assert_eq!(code, 0, "{stdout}{err}");
    assert!(stdout.ends_with(" 0 differ\n"), "{stdout}");
    let before = std::fs::read(root().join(data)).unwrap();
    let after = std::fs::read(&out).unwrap();
    changed_lines(&before, &after, cols)
}

#[test]
fn write_trf_round_trips_through_verify() {
    let tec = "tests/fixtures/data/chess/tec_swiss_de.trf";
    insta::assert_snapshot!(
        "write_trf_tec_swiss_de_fide_swiss",
        round_trip("tec", &["fide/swiss"], tec, 85..89)
    );
    // The file's own chain, by descriptors.
    round_trip(
        "tec-codes",
        &["--tiebreaks", "PTS,BH/C1,BH,SB,PS,ARO"],
        tec,
        85..89,
    );
    let uz = "tests/fixtures/data/chess/uzchesscup_rr.trf";
    insta::assert_snapshot!(
        "write_trf_uzchesscup_rr_fide_round_robin",
        round_trip("uz", &["fide/round-robin"], uz, 85..89)
    );
    // A TRF-26 team file: the team ranks of its 310 records, with the
    // tie-breaks its records 202 declare.
    let gm = "tests/fixtures/data/chess/grandmommys_cup_trf26_team.trf";
    insta::assert_snapshot!(
        "write_trf_grandmommys_cup_own_records",
        round_trip("gm", &[], gm, 68..71)
    );
}

/// `tb --diagnostics plain eval ARGS --write-trf OUT`.
fn eval_write_trf(args: &[&str], out: &str) -> (i32, String, String) {
    let mut all = vec!["--diagnostics", "plain", "eval"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--write-trf", out]);
    tb(&all)
}

#[test]
fn write_trf_refusals() {
    let dir = scratch("refusals");
    let out = dir.join("out.trf").to_string_lossy().to_string();
    // Not a TRF file.
    let (code, _, err) = eval_write_trf(&["fide/swiss", "examples/chess-swiss.toml"], &out);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("error[tb::cli::write_trf]"), "{err}");
    assert!(err.contains("is not a TRF file"), "{err}");
    assert!(!Path::new(&out).exists(), "nothing written");
    // Over the input itself.
    let copy = dir.join("in.trf");
    std::fs::copy(root().join("tests/fixtures/fide/tiny.trf"), &copy).unwrap();
    let copy_s = copy.to_string_lossy().to_string();
    let (code, _, err) = eval_write_trf(&["--tiebreaks", "PTS,BH", &copy_s], &copy_s);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is the input file"), "{err}");
    // A folder that does not exist: exit 3.
    let nowhere = dir
        .join("no/such/folder/out.trf")
        .to_string_lossy()
        .to_string();
    let (code, _, err) = eval_write_trf(&["--tiebreaks", "PTS,BH", &copy_s], &nowhere);
    assert_eq!(code, 3, "{err}");
    assert!(err.contains("error[tb::cli::write_failed]"), "{err}");
}

/// The line after the first line of `out` that `at` picks: where
/// `verify` and `tb test` print a difference's cause.
fn line_after(out: &str, at: impl Fn(&str) -> bool) -> &str {
    let lines: Vec<&str> = out.lines().collect();
    let i = lines.iter().position(|l| at(l)).expect(out);
    lines[i + 1]
}

#[test]
fn verify_names_the_step_where_the_orders_part() {
    let (code, out, _) = tb(&[
        "verify",
        "fide/swiss",
        "tests/fixtures/data/chess/tec_swiss_de.trf",
    ]);
    assert_eq!(code, 4);
    // Each difference is followed by its cause, with both values.
    let cause = line_after(&out, |l| {
        l.starts_with("BRUNO (2): recorded rank 3, computed 5")
    });
    assert!(cause.starts_with("  ") && cause.contains(" puts "), "{out}");
}

/// The README's `verify` and `doc` examples are what the binary prints.
#[test]
fn readme_examples_of_verify_and_doc() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let block = |start: &str| -> Vec<String> {
        let at = readme
            .find(start)
            .unwrap_or_else(|| panic!("README has {start}"));
        readme[at + start.len()..]
            .lines()
            .skip(1)
            .take_while(|l| !l.starts_with("```") && !l.starts_with("$ "))
            .filter(|l| *l != "...")
            .map(str::to_string)
            .collect()
    };
    let (_, out, _) = tb(&[
        "verify",
        "fide/swiss",
        "tests/fixtures/data/chess/tec_swiss_de.trf",
    ]);
    for line in block("$ tb verify fide/swiss tests/fixtures/data/chess/tec_swiss_de.trf") {
        assert!(
            out.contains(&format!("{line}\n")),
            "README line not printed: {line:?}\n{out}"
        );
    }
    let (_, out, _) = tb(&["doc", "fide/swiss"]);
    for line in block("$ tb doc fide/swiss") {
        assert!(
            out.contains(&format!("{line}\n")),
            "README line not printed: {line:?}\n{out}"
        );
    }
}

#[test]
fn ruleset_tests_print_the_cause_as_verify_does() {
    let dir = scratch("test-cause");
    let event = root().join("examples/cards-swiss.toml");
    let text = format!(
        "[[case]]\nname = \"wrong\"\nruleset = \"cards/swiss\"\nevent = {:?}\n[case.expect]\nfay = 1\n",
        event.to_string_lossy()
    );
    let file = dir.join("wrong.test.toml");
    std::fs::write(&file, text).unwrap();
    let (code, out, err) = tb(&["test", &file.to_string_lossy()]);
    assert_eq!(code, 4, "{out}{err}");
    let cause = line_after(&out, |l| l.contains("expected rank 1, computed"));
    assert!(cause.contains(" puts ") || cause.contains("level"), "{out}");
    assert!(out.contains("1 compared, 1 differ"), "{out}");
}

#[test]
fn show_and_doc() {
    let (code, out, _) = tb(&["show", "fide/swiss"]);
    assert_eq!(code, 0);
    assert_eq!(out, tb::shipped::get("fide/swiss").unwrap());
    let (code, _, err) = tb(&["--diagnostics", "plain", "show", "fide/swis"]);
    assert_eq!(code, 3);
    assert!(err.contains("did you mean `fide/swiss`?"), "{err}");
    // The chain in the regulation's order, each step with its article.
    let (code, out, _) = tb(&["doc", "fide/swiss"]);
    assert_eq!(code, 0);
    let at = |s: &str| out.find(s).unwrap_or_else(|| panic!("{s} not in\n{out}"));
    assert!(
        at("**PTS**") < at("**DE**")
            && at("**DE**") < at("**BH-C1**")
            && at("**BH-C1**") < at("**SB**")
    );
    assert!(
        out.contains("(Art. 6)") && out.contains("## Definitions"),
        "{out}"
    );
    let (code, html, _) = tb(&["doc", "fide/swiss", "--format", "html"]);
    assert_eq!(code, 0);
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("<strong>BH-C1</strong>"));
    assert!(!html.contains("http"), "self-contained: no external assets");
}

#[test]
fn completions_and_man_page() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (code, out, err) = tb(&["completions", shell]);
        assert_eq!(code, 0, "{err}");
        assert!(
            out.contains("verify") && out.contains("write-trf"),
            "{shell}"
        );
    }
    let (code, out, _) = tb(&["man"]);
    assert_eq!(code, 0);
    assert!(out.contains(".TH tb 1") && out.contains("verify"), "{out}");
}
