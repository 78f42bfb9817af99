//! Golden tests of how the real `tb` binary reports broken input: a broken
//! ruleset and a broken data file in each rendering (fancy without colour,
//! at miette's fixed width of 100; `--diagnostics plain`; `--diagnostics
//! json`), the exit codes (2 usage, 3 input, 4 verify mismatch), and every
//! code only the CLI raises.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh folder holding the given files; the binary runs inside it so the
/// file names in its output are the short relative ones.
fn workdir(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tb-cli-diag-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    for (f, text) in files {
        std::fs::write(d.join(f), text).expect("write");
    }
    d
}

/// Run `tb` in `dir`: (exit code, stdout, stderr).
fn tb(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tb"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .expect("run tb");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[track_caller]
fn same(actual: &str, expected: &str) {
    assert!(
        actual == expected,
        "output differs from the golden text.\n--- expected\n{expected}\n--- actual\n{actual}\n---"
    );
}

const BROKEN_RULESET: &str = "\
title \"Broken\"
metric total = sum(r.points for r in rounds)
metric bonus = totl + abs(1, 2)
procedure p { step bonus desc }
standings p
";

#[test]
fn broken_ruleset_plain() {
    let dir = workdir("rs-plain", &[("broken.tb", BROKEN_RULESET)]);
    let (code, out, err) = tb(&dir, &["--diagnostics", "plain", "check", "broken.tb"]);
    assert_eq!(code, 3);
    assert_eq!(out, "");
    same(
        &err,
        "\
error[tb::check::errors]: the ruleset has 2 errors
error[tb::check::unknown_metric]: broken.tb:3:16: unknown name `totl`
  here: not defined
  help: did you mean `total`? (expected a metric, parameter or variable)
error[tb::check::arity]: broken.tb:3:23: `abs` takes 1 argument, not 2
  here: wrong number of arguments
  help: see the list of built-in functions in the README
",
    );
}

#[test]
fn broken_ruleset_json() {
    let dir = workdir("rs-json", &[("broken.tb", BROKEN_RULESET)]);
    let (code, out, err) = tb(&dir, &["--diagnostics", "json", "check", "broken.tb"]);
    assert_eq!(code, 3);
    assert_eq!(out, "");
    let v: serde_json::Value = serde_json::from_str(err.trim()).expect("one JSON object");
    assert_eq!(v["code"], "tb::check::errors");
    assert_eq!(v["severity"], "error");
    let rel = v["related"].as_array().expect("related");
    assert_eq!(rel.len(), 2);
    assert_eq!(rel[0]["code"], "tb::check::unknown_metric");
    assert_eq!(rel[0]["file"], "broken.tb");
    assert_eq!(
        (rel[0]["line"].as_u64(), rel[0]["column"].as_u64()),
        (Some(3), Some(16))
    );
    let (s, e) = (
        rel[0]["labels"][0]["start"].as_u64().unwrap_or(0) as usize,
        rel[0]["labels"][0]["end"].as_u64().unwrap_or(0) as usize,
    );
    assert_eq!(&BROKEN_RULESET[s..e], "totl");
    assert_eq!(rel[1]["code"], "tb::check::arity");
    same(
        &err,
        &(serde_json::json!({
            "code": "tb::check::errors",
            "severity": "error",
            "message": "the ruleset has 2 errors",
            "help": null,
            "file": null,
            "line": null,
            "column": null,
            "labels": [],
            "related": [
                {
                    "code": "tb::check::unknown_metric",
                    "severity": "error",
                    "message": "unknown name `totl`",
                    "help": "did you mean `total`? (expected a metric, parameter or variable)",
                    "file": "broken.tb",
                    "line": 3,
                    "column": 16,
                    "labels": [{"start": s, "end": e, "label": "not defined"}],
                    "related": [],
                },
                {
                    "code": "tb::check::arity",
                    "severity": "error",
                    "message": "`abs` takes 1 argument, not 2",
                    "help": "see the list of built-in functions in the README",
                    "file": "broken.tb",
                    "line": 3,
                    "column": 23,
                    "labels": [{"start": s + 7, "end": s + 16, "label": "wrong number of arguments"}],
                    "related": [],
                },
            ],
        })
        .to_string()
            + "\n"),
    );
}

#[test]
fn broken_ruleset_fancy() {
    let dir = workdir("rs-fancy", &[("broken.tb", BROKEN_RULESET)]);
    let (code, _, err) = tb(
        &dir,
        &[
            "--diagnostics",
            "fancy",
            "--color",
            "never",
            "check",
            "broken.tb",
        ],
    );
    assert_eq!(code, 3);
    same(&err, FANCY_RULESET);
}

const FANCY_RULESET: &str = r#"tb::check::errors

  × the ruleset has 2 errors

Error: tb::check::unknown_metric

  × unknown name `totl`
   ╭─[broken.tb:3:16]
 2 │ metric total = sum(r.points for r in rounds)
 3 │ metric bonus = totl + abs(1, 2)
   ·                ──┬─
   ·                  ╰── not defined
 4 │ procedure p { step bonus desc }
   ╰────
  help: did you mean `total`? (expected a metric, parameter or variable)

Error: tb::check::arity

  × `abs` takes 1 argument, not 2
   ╭─[broken.tb:3:23]
 2 │ metric total = sum(r.points for r in rounds)
 3 │ metric bonus = totl + abs(1, 2)
   ·                       ────┬────
   ·                           ╰── wrong number of arguments
 4 │ procedure p { step bonus desc }
   ╰────
  help: see the list of built-in functions in the README
"#;

/// A card-game event whose round 2 holds a chess result and an unknown player.
const BROKEN_DATA: &str = "\
[event]
sport = \"cards\"
rounds = 2

[[participants]]
id = \"ana\"
[[participants]]
id = \"ben\"
[[participants]]
id = \"cy\"

[[rounds]]
games = [{ home = \"ana\", away = \"ben\", result = \"2-1-0\" }]
byes = [{ id = \"cy\" }]

[[rounds]]
games = [
  { home = \"ana\", away = \"cy\", result = \"1/2-1/2\" },
  { home = \"ben\", away = \"dee\", result = \"2-0-0\" },
]
";

#[test]
fn broken_data_plain() {
    let dir = workdir("data-plain", &[("event.toml", BROKEN_DATA)]);
    let (code, out, err) = tb(
        &dir,
        &[
            "--diagnostics",
            "plain",
            "eval",
            "cards/swiss",
            "event.toml",
        ],
    );
    assert_eq!(code, 3);
    assert_eq!(out, "");
    same(&err, PLAIN_DATA);
}

const PLAIN_DATA: &str = r#"error[tb::load::native::invalid]: 2 problems in event.toml
  help: each problem is listed below with its place in the file
error[tb::load::native::mixed_sports]: event.toml:18:41: "1/2-1/2" is a chess-style result (win/draw/loss), but this is a card-game event
  here: another sport's result
  help: one file holds one sport: set `sport` in [event] to the event's game; card results are games won - games lost - drawn, e.g. "2-1-0"
error[tb::load::native::unknown_participant]: event.toml:19:26: no participant has the id `dee`
  here: unknown id
  help: add this participant to [[participants]], or correct the id
"#;

#[test]
fn broken_data_json() {
    let dir = workdir("data-json", &[("event.toml", BROKEN_DATA)]);
    let (code, out, err) = tb(
        &dir,
        &["--diagnostics", "json", "eval", "cards/swiss", "event.toml"],
    );
    assert_eq!(code, 3);
    assert_eq!(out, "");
    let v: serde_json::Value = serde_json::from_str(err.trim()).expect("one JSON object");
    let codes: Vec<&str> = v["related"]
        .as_array()
        .expect("related")
        .iter()
        .filter_map(|r| r["code"].as_str())
        .collect();
    assert_eq!(
        codes,
        [
            "tb::load::native::mixed_sports",
            "tb::load::native::unknown_participant"
        ]
    );
    assert_eq!(v["related"][0]["line"], 18);
}

#[test]
fn broken_data_fancy() {
    let dir = workdir("data-fancy", &[("event.toml", BROKEN_DATA)]);
    let (code, _, err) = tb(
        &dir,
        &[
            "--diagnostics",
            "fancy",
            "--color",
            "never",
            "eval",
            "cards/swiss",
            "event.toml",
        ],
    );
    assert_eq!(code, 3);
    same(&err, FANCY_DATA);
}

const FANCY_DATA: &str = r#"tb::load::native::invalid

  × 2 problems in event.toml
  help: each problem is listed below with its place in the file

Error: tb::load::native::mixed_sports

  × "1/2-1/2" is a chess-style result (win/draw/loss), but this is a card-game event
    ╭─[event.toml:18:41]
 17 │ games = [
 18 │   { home = "ana", away = "cy", result = "1/2-1/2" },
    ·                                         ────┬────
    ·                                             ╰── another sport's result
 19 │   { home = "ben", away = "dee", result = "2-0-0" },
    ╰────
  help: one file holds one sport: set `sport` in [event] to the event's game; card results are
        games won - games lost - drawn, e.g. "2-1-0"

Error: tb::load::native::unknown_participant

  × no participant has the id `dee`
    ╭─[event.toml:19:26]
 18 │   { home = "ana", away = "cy", result = "1/2-1/2" },
 19 │   { home = "ben", away = "dee", result = "2-0-0" },
    ·                          ──┬──
    ·                            ╰── unknown id
 20 │ ]
    ╰────
  help: add this participant to [[participants]], or correct the id
"#;

// ---------------------------------------------------------------------------
// Exit codes and CLI-only codes
// ---------------------------------------------------------------------------

const GOOD: &str = "\
[event]
rounds = 1
[[participants]]
id = \"a\"
rank = 2
[[participants]]
id = \"b\"
score = 3
[[rounds]]
games = [{ home = \"a\", away = \"b\", result = \"1-0\" }]
";

#[test]
fn usage_errors_exit_2() {
    let dir = workdir("usage", &[]);
    let (code, _, err) = tb(&dir, &["eval"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, _) = tb(&dir, &["no-such-command"]);
    assert_eq!(code, 2);
}

#[test]
fn cli_codes() {
    let dir = workdir("codes", &[("good.toml", GOOD)]);
    let plain = |args: &[&str]| {
        let mut all = vec!["--diagnostics", "plain"];
        all.extend_from_slice(args);
        tb(&dir, &all)
    };
    // tb::load::io: no such file.
    let (code, _, err) = plain(&["eval", "us-chess/swiss", "missing.toml"]);
    assert_eq!(code, 3);
    assert!(
        err.starts_with("error[tb::load::io]: cannot read missing.toml"),
        "{err}"
    );
    // tb::load::too_large: a (sparse) file past 200 MB is not read at all.
    let big = dir.join("big.toml");
    std::fs::File::create(&big)
        .and_then(|f| f.set_len(201 * 1024 * 1024))
        .expect("sparse file");
    let (code, _, err) = plain(&["eval", "us-chess/swiss", "big.toml"]);
    assert_eq!(code, 3);
    assert!(err.starts_with("error[tb::load::too_large]:"), "{err}");
    let _ = std::fs::remove_file(&big);
    // ... nor is a device that never ends.
    if Path::new("/dev/zero").exists() {
        let (code, _, err) = plain(&["eval", "us-chess/swiss", "/dev/zero"]);
        assert_eq!(code, 3);
        assert!(err.starts_with("error[tb::load::too_large]:"), "{err}");
    }
    // tb::cli::bad_param.
    let (code, _, err) = plain(&["eval", "cards/swiss", "good.toml", "--param", "floor"]);
    assert_eq!(code, 3);
    assert!(
        err.starts_with("error[tb::cli::bad_param]: --param floor: expected NAME=VALUE"),
        "{err}"
    );
    let (code, _, err) = plain(&["eval", "cards/swiss", "good.toml", "--param", "floor=x"]);
    assert_eq!(code, 3);
    assert!(err.starts_with("error[tb::cli::bad_param]:"), "{err}");
    // tb::check::unknown_param from the command line: no place in a file.
    let (code, _, err) = plain(&["eval", "cards/swiss", "good.toml", "--param", "nope=1"]);
    assert_eq!(code, 3);
    assert!(
        err.starts_with("error[tb::check::unknown_param]: --param nope"),
        "{err}"
    );
    // tb::cli::unknown_id.
    let (code, _, err) = plain(&["explain", "us-chess/swiss", "good.toml", "--ids", "zz"]);
    assert_eq!(code, 3);
    assert!(err.starts_with("error[tb::cli::unknown_id]:"), "{err}");
    // tb::cli::usage: a ruleset and --tiebreaks together.
    let (code, _, err) = plain(&["eval", "us-chess/swiss", "good.toml", "--tiebreaks", "BH"]);
    assert_eq!(code, 3);
    assert!(err.starts_with("error[tb::cli::usage]:"), "{err}");
    // tb::cli::no_ruleset: data alone, and no tie-breaks in it.
    let (code, _, err) = plain(&["eval", "good.toml"]);
    assert_eq!(code, 3);
    assert!(err.starts_with("error[tb::cli::no_ruleset]:"), "{err}");
    // tb::check::unknown_ruleset.
    let (code, _, err) = plain(&["check", "no/such"]);
    assert_eq!(code, 3);
    assert!(
        err.starts_with("error[tb::check::unknown_ruleset]:"),
        "{err}"
    );
    // tb::load::warning: printed, and the run goes on (exit 0).
    let (code, out, err) = plain(&["eval", "us-chess/swiss", "good.toml"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty());
    assert!(
        err.starts_with("warning[tb::load::warning]: participant `b`"),
        "{err}"
    );
}

#[test]
fn verify_exit_codes() {
    let no_ranks = GOOD.replace("rank = 2\n", "");
    let right = GOOD.replace("rank = 2\n", "rank = 1\n");
    let dir = workdir(
        "verify",
        &[
            ("wrong.toml", GOOD),
            ("right.toml", &right),
            ("none.toml", &no_ranks),
        ],
    );
    let (code, out, _) = tb(&dir, &["verify", "us-chess/swiss", "wrong.toml"]);
    assert_eq!(code, 4, "{out}");
    assert!(out.contains("recorded rank 2, computed 1"), "{out}");
    let (code, out, _) = tb(&dir, &["verify", "us-chess/swiss", "right.toml"]);
    assert_eq!(code, 0, "{out}");
    let (code, _, err) = tb(
        &dir,
        &[
            "--diagnostics",
            "plain",
            "verify",
            "us-chess/swiss",
            "none.toml",
        ],
    );
    assert_eq!(code, 3);
    assert!(err.starts_with("error[tb::verify::no_ranks]:"), "{err}");
}
