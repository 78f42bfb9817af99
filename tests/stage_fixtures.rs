//! Snapshot tests over fixture folders, one folder per kind of case; each
//! `*.tb` file in a folder is a case (its first line a `//` comment saying
//! what it shows), run through the real `tb` binary in that folder:
//!
//! - `tests/fixtures/parse/`: valid rulesets covering the language;
//!   `tb check --verbose --diagnostics plain FILE` must succeed, and what it
//!   prints is snapshotted.
//! - `tests/fixtures/check/`: rulesets with one mistake each (a few with
//!   several); the diagnostics of `tb check --diagnostics plain FILE`.
//!   Files under `lib/` are imported by them, not cases.
//! - `tests/fixtures/syntax/`: rulesets with syntax errors (a few with
//!   several, all reported); the diagnostics of
//!   `tb check --diagnostics plain FILE`.
//! - `tests/fixtures/poor/`: diagnostics known to be unhelpful today, each
//!   file's first line saying what would be better (docs/errors.md, "Known
//!   poor messages"). When a message improves, its snapshot shows the diff:
//!   accept it, and move the file to `check/` (or `syntax/`) once the
//!   message is good.
//!
//! Snapshots are in `tests/snapshots/stage_fixtures/FOLDER/FILE.snap`, with
//! the ruleset's text, the exit code, stdout and stderr. Adding a file adds a
//! case; a snapshot whose file is gone fails. To record:
//! `INSTA_UPDATE=always cargo test --test integration stage_fixtures`, then
//! review `git diff tests/snapshots/stage_fixtures/`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures(folder: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(folder)
}

/// The `*.tb` files directly in a folder, sorted by name.
fn cases(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tb"))
        .collect();
    names.sort();
    names
}

/// Run `tb ARGS FILE` in the fixture's folder, with a fixed environment
/// (no colour, no terminal), and write what it did as a snapshot body.
fn run(dir: &Path, file: &str, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tb"))
        .args(args)
        .arg(file)
        .current_dir(dir)
        .env_clear()
        .env("NO_COLOR", "1")
        .env("TERM", "dumb")
        .output()
        .expect("run tb");
    let text = std::fs::read_to_string(dir.join(file)).unwrap();
    let body = format!(
        "$ tb {} {file}\nexit: {:?}\n----- {file} -----\n{text}----- stdout -----\n{}----- stderr -----\n{}",
        args.join(" "),
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    (out.status.code(), body)
}

/// Snapshot every case of `folder`; `ok` says whether `tb` must succeed.
fn snapshot_folder(folder: &str, args: &[&str], ok: bool) {
    let dir = fixtures(folder);
    let files = cases(&dir);
    assert!(!files.is_empty(), "no cases in {}", dir.display());
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(format!("snapshots/stage_fixtures/{folder}"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let mut failed = Vec::new();
    settings.bind(|| {
        for file in &files {
            let text = std::fs::read_to_string(dir.join(file)).unwrap();
            if !text.starts_with("//") {
                failed.push(format!(
                    "{file}: the first line is not a `//` comment saying what it shows"
                ));
            }
            let (code, body) = run(&dir, file, args);
            if (code == Some(0)) != ok {
                failed.push(format!(
                    "{file}: exit {code:?}, expected {}",
                    if ok { "0" } else { "an error" }
                ));
            }
            let name = file.trim_end_matches(".tb");
            let same = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                insta::assert_snapshot!(name, body);
            }));
            if same.is_err() {
                failed.push(format!("{file}: differs from its snapshot"));
            }
        }
    });
    // A snapshot whose file is gone compares nothing any more.
    let snaps = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots/stage_fixtures")
        .join(folder);
    if let Ok(entries) = std::fs::read_dir(&snaps) {
        for e in entries {
            let snap = e.unwrap().file_name().to_string_lossy().into_owned();
            if let Some(name) = snap.strip_suffix(".snap") {
                if !files.iter().any(|f| f.trim_end_matches(".tb") == name) {
                    failed.push(format!(
                        "{snap}: a snapshot with no tests/fixtures/{folder}/{name}.tb"
                    ));
                }
            }
        }
    }
    assert!(
        failed.is_empty(),
        "tests/fixtures/{folder}: {} of {} cases failed (see this file's header to record a \
         deliberate change):\n{}",
        failed.len(),
        files.len(),
        failed.join("\n")
    );
}

/// Valid rulesets: parsed and checked, their procedures listed.
#[test]
fn parse_fixtures() {
    snapshot_folder(
        "parse",
        &["check", "--verbose", "--diagnostics", "plain"],
        true,
    );
}

/// Broken rulesets: the checker's diagnostics.
#[test]
fn check_fixtures() {
    snapshot_folder("check", &["check", "--diagnostics", "plain"], false);
}

/// Syntax errors: each at its token, all of a file at once.
#[test]
fn syntax_fixtures() {
    snapshot_folder("syntax", &["check", "--diagnostics", "plain"], false);
}

/// Diagnostics known to be poor: an improvement shows up as a diff.
#[test]
fn poor_message_fixtures() {
    snapshot_folder("poor", &["check", "--diagnostics", "plain"], false);
}
