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
    // Options that cannot go together, or name nothing: exit 2 with a
    // diagnostic, never 3 (issue 15), and no standings.
    let dir = workdir("usage2", &[("good.toml", GOOD)]);
    let cases: &[(&[&str], &str)] = &[
        (
            &["eval", "cards/swiss", "good.toml", "--edition", "2024"],
            "tb::cli::usage",
        ),
        (
            &[
                "explain",
                "us-chess/swiss",
                "good.toml",
                "--edition",
                "2026",
            ],
            "tb::cli::usage",
        ),
        (
            &["eval", "cards/swiss", "good.toml", "--tiebreaks", "BH"],
            "tb::cli::usage",
        ),
        (
            &["verify", "fide/swiss", "good.toml", "--tiebreaks", "BH"],
            "tb::cli::usage",
        ),
        (
            &["eval", "cards/swiss", "good.toml", "--param", "floor"],
            "tb::cli::bad_param",
        ),
        (
            &["eval", "cards/swiss", "good.toml", "--param", "nope=1"],
            "tb::check::unknown_param",
        ),
        (
            &["explain", "cards/swiss", "good.toml", "--ids", "zz"],
            "tb::cli::unknown_id",
        ),
        (&["eval", "good.toml"], "tb::cli::no_ruleset"),
    ];
    for (args, want) in cases {
        let mut all = vec!["--diagnostics", "plain"];
        all.extend_from_slice(args);
        let (code, out, err) = tb(&dir, &all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert_eq!(out, "", "{args:?}");
        assert!(
            err.starts_with(&format!("error[{want}]:")),
            "{args:?}: {err}"
        );
    }
}

/// A CSV match list with two slips: a misspelt name and a misspelt column.
const SLIPS_CSV: &str = "\
round,home,away,home_wins,away_wins,drwas
1,Alice,Bob,2,1,0
1,Cleo,Dan,2,0,0
2,Alice,Cleo,2,0,0
2,Bob,Dan,1,2,0
3,Alcie,Dan,2,0,0
3,Bob,Cleo,2,1,0
";

#[test]
fn strict_and_json_warnings() {
    let dir = workdir("strict", &[("slips.csv", SLIPS_CSV)]);
    // Plain: each warning a line with its code; the standings follow.
    let (code, out, err) = tb(
        &dir,
        &["--diagnostics", "plain", "eval", "cards/swiss", "slips.csv"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Alcie"), "{out}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with("warning[tb::load::csv::unknown_column]: column `drwas`"),
        "{err}"
    );
    assert!(
        lines[1].starts_with("warning[tb::load::csv::similar_name]: `Alcie`"),
        "{err}"
    );
    // JSON: one object per warning, with its code.
    let (code, _, err) = tb(
        &dir,
        &["--diagnostics", "json", "eval", "cards/swiss", "slips.csv"],
    );
    assert_eq!(code, 0, "{err}");
    let objs: Vec<serde_json::Value> = err
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    let codes: Vec<&str> = objs
        .iter()
        .map(|o| o["code"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        codes,
        [
            "tb::load::csv::unknown_column",
            "tb::load::csv::similar_name"
        ]
    );
    assert!(objs.iter().all(|o| o["severity"] == "warning"));
    assert!(objs[1]["message"]
        .as_str()
        .unwrap()
        .contains("did you mean `Alice`?"));
    // --strict: every warning an error, no standings, exit 3, on each of
    // eval, explain and verify.
    for cmd in ["eval", "explain", "verify"] {
        let (code, out, err) = tb(
            &dir,
            &[
                "--diagnostics",
                "plain",
                cmd,
                "cards/swiss",
                "slips.csv",
                "--strict",
            ],
        );
        assert_eq!(code, 3, "{cmd}: {err}");
        assert_eq!(out, "", "{cmd}");
        assert!(
            err.starts_with("error[tb::cli::strict]: 2 warnings and --strict"),
            "{cmd}: {err}"
        );
        assert!(
            err.contains("error[tb::load::csv::similar_name]: `Alcie`"),
            "{err}"
        );
        assert!(
            err.contains("error[tb::load::csv::unknown_column]:"),
            "{err}"
        );
    }
    let (code, _, err) = tb(
        &dir,
        &[
            "--diagnostics",
            "json",
            "eval",
            "cards/swiss",
            "slips.csv",
            "--strict",
        ],
    );
    assert_eq!(code, 3);
    let v: serde_json::Value = serde_json::from_str(err.trim()).expect("one JSON object");
    assert_eq!(v["code"], "tb::cli::strict");
    assert_eq!(v["related"][1]["code"], "tb::load::csv::similar_name");
    // A clean file passes --strict unchanged.
    let root = env!("CARGO_MANIFEST_DIR");
    let clean = format!("{root}/examples/cards-swiss.csv");
    let (code, strict_out, err) = tb(&dir, &["eval", "cards/swiss", &clean, "--strict"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let (_, out, _) = tb(&dir, &["eval", "cards/swiss", &clean]);
    assert_eq!(strict_out, out);
}

#[test]
fn ruleset_sport() {
    let root = env!("CARGO_MANIFEST_DIR");
    let ex = |f: &str| format!("{root}/examples/{f}");
    let dir = workdir(
        "sport",
        &[
            ("typo.tb", "import \"cards/lib\"\nsport \"crads\"\n"),
            ("two.tb", "import \"cards/lib\"\nsport \"cards\"\nsport \"chess\"\n"),
            // `sport` stays usable as a name.
            ("own.tb", "sport \"other\"\nmetric sport = score\nprocedure p { step sport desc }\nstandings p\n"),
            ("nosport.csv", "round,home,away,result\n1,a,b,2-0-0\n"),
            ("nosport.toml", "[[participants]]\nid = \"a\"\n[[participants]]\nid = \"b\"\n[[rounds]]\ngames = [{ home = \"a\", away = \"b\", result = \"1-0\" }]\n"),
        ],
    );
    let plain = |args: &[&str]| {
        let mut all = vec!["--diagnostics", "plain"];
        all.extend_from_slice(args);
        tb(&dir, &all)
    };
    // A bridge event with a chess ruleset: a warning, and the run goes on.
    let (code, out, err) = plain(&["eval", "fide/swiss", &ex("bridge-pairs.toml")]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty());
    assert!(
        err.starts_with("warning[tb::check::sport_mismatch]: FIDE individual Swiss is for chess, but the data says its sport is bridge"),
        "{err}"
    );
    let (code, out, _) = plain(&["eval", "fide/swiss", &ex("bridge-pairs.toml"), "--strict"]);
    assert_eq!((code, out.as_str()), (3, ""));
    // FIDE's codes are for chess; a card event is another sport.
    let cards = ex("cards-swiss.toml");
    let (_, _, err) = plain(&[
        "eval",
        "--library",
        "fide/codes",
        "--tiebreaks",
        "BH,SB",
        &cards,
    ]);
    assert!(
        err.starts_with("warning[tb::check::sport_mismatch]: FIDE tie-breaks BH,SB is for chess"),
        "{err}"
    );
    // Without --library, a card event's list is never read as FIDE's codes.
    let (code, _, err) = plain(&["eval", "--tiebreaks", "BH,SB", &cards]);
    assert_ne!(code, 0, "{err}");
    assert!(!err.contains("FIDE"), "{err}");
    // A CSV's sport is the format's default unless `# sport:` says it.
    let (code, _, err) = plain(&["eval", "fide/swiss", "nosport.csv"]);
    assert!(!err.contains("sport_mismatch"), "{code} {err}");
    let (_, _, err) = plain(&["eval", "fide/swiss", &ex("cards-swiss.csv")]);
    assert!(err.contains("sport_mismatch"), "{err}");
    // Data with no `sport`: no warning, whatever the ruleset.
    let (code, _, err) = plain(&["eval", "wbf/pairs", "nosport.toml"]);
    assert_eq!((code, err.as_str()), (0, ""));
    // Every shipped example with its own ruleset: no warning.
    for (rs, data) in [
        ("cards/swiss", "cards-swiss.toml"),
        ("cards/swiss", "cards-swiss.csv"),
        ("fide/swiss", "chess-swiss.toml"),
        ("us-chess/swiss", "chess-swiss.json"),
        ("fide/team-swiss", "team-swiss.toml"),
        ("wbf/pairs", "bridge-pairs.toml"),
        ("wbf/bam", "bridge-bam.toml"),
        ("wbf/knockout", "bridge-knockout.toml"),
        ("wbf/round-robin", "bridge-round-robin.toml"),
        ("wbf/swiss-teams", "bridge-swiss-teams.toml"),
        ("ebu/split-tie", "bridge-individual.toml"),
    ] {
        let (_, _, err) = plain(&["eval", rs, &ex(data)]);
        assert!(!err.contains("sport_mismatch"), "{rs} {data}: {err}");
    }
    // A sport tb does not know, or two in one file: checker errors.
    let (code, _, err) = plain(&["check", "typo.tb"]);
    assert_eq!(code, 3);
    assert!(
        err.starts_with(
            "error[tb::check::bad_sport]: typo.tb:2:1: `sport \"crads\"`: not a sport tb knows"
        ),
        "{err}"
    );
    assert!(err.contains("did you mean `cards`?"), "{err}");
    let (code, _, err) = plain(&["check", "two.tb"]);
    assert_eq!(code, 3);
    assert!(
        err.starts_with("error[tb::check::bad_sport]: two.tb:3:1:"),
        "{err}"
    );
    let (code, _, err) = plain(&["check", "own.tb"]);
    assert_eq!(code, 0, "{err}");
    // Every shipped ruleset and library says its sport in its own file.
    let mut n = 0;
    for dir in std::fs::read_dir(format!("{root}/rulesets"))
        .unwrap()
        .flatten()
    {
        for f in std::fs::read_dir(dir.path()).unwrap().flatten() {
            let path = f.path();
            if path.extension().is_some_and(|e| e == "tb") {
                let text = std::fs::read_to_string(&path).unwrap();
                assert!(
                    text.lines().any(|l| l.starts_with("sport \"")),
                    "{} declares no sport",
                    path.display()
                );
                n += 1;
            }
        }
    }
    assert!(n > 20, "{n} rulesets");
}

#[test]
fn empty_native_file() {
    let dir = workdir(
        "empty",
        &[
            ("empty.toml", ""),
            ("blank.toml", "\n  \n"),
            ("comments.toml", "# results to follow\n\n# (none yet)\n"),
            ("empty.json", ""),
            ("blank.json", " \r\n\t\n"),
        ],
    );
    for f in [
        "empty.toml",
        "blank.toml",
        "comments.toml",
        "empty.json",
        "blank.json",
    ] {
        let (code, out, err) = tb(&dir, &["--diagnostics", "plain", "eval", "cards/swiss", f]);
        assert_eq!(code, 3, "{f}: {err}");
        assert_eq!(out, "", "{f}");
        assert!(
            err.starts_with(&format!("error[tb::load::native::empty]: {f} is empty")),
            "{f}: {err}"
        );
        // Both native readers, and the one-pass JSON path, agree.
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        let src = tb::diag::Source::new(f, text);
        if f.ends_with(".toml") {
            assert_eq!(
                tb::load::native::load_toml(&src).unwrap_err().code,
                "tb::load::native::empty"
            );
        } else {
            assert_eq!(
                tb::load::native::load_json(&src).unwrap_err().code,
                "tb::load::native::empty"
            );
            assert_eq!(
                tb::load::native::load_json_tree(&src).unwrap_err().code,
                "tb::load::native::empty"
            );
            assert!(tb::load::native::load_json_fast(&src).is_none());
        }
    }
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
    // tb::cli::bad_param (a usage error: exit 2).
    let (code, _, err) = plain(&["eval", "cards/swiss", "good.toml", "--param", "floor"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error[tb::cli::bad_param]: --param floor: expected NAME=VALUE"),
        "{err}"
    );
    let (code, _, err) = plain(&["eval", "cards/swiss", "good.toml", "--param", "floor=x"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error[tb::cli::bad_param]:"), "{err}");
    // tb::check::unknown_param from the command line: no place in a file.
    // A usage error too: the name came from the command line.
    let (code, _, err) = plain(&["eval", "cards/swiss", "good.toml", "--param", "nope=1"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error[tb::check::unknown_param]: --param nope"),
        "{err}"
    );
    // tb::cli::unknown_id.
    let (code, _, err) = plain(&["explain", "us-chess/swiss", "good.toml", "--ids", "zz"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error[tb::cli::unknown_id]:"), "{err}");
    // tb::cli::usage: a ruleset and --tiebreaks together.
    let (code, _, err) = plain(&["eval", "us-chess/swiss", "good.toml", "--tiebreaks", "BH"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error[tb::cli::usage]:"), "{err}");
    // tb::cli::no_ruleset: data alone, and no tie-breaks in it.
    let (code, _, err) = plain(&["eval", "good.toml"]);
    assert_eq!(code, 2);
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
    // verify prints the data's warnings as eval does, then the error.
    assert!(
        err.starts_with("warning[tb::load::warning]: participant `b`"),
        "{err}"
    );
    assert!(err.contains("\nerror[tb::verify::no_ranks]:"), "{err}");
}
