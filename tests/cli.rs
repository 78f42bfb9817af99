//! The real binary: golden outputs, exit codes, the JSON contract, and the
//! README's examples (so the README cannot rot). Set UPDATE_GOLDEN=1 to
//! rewrite the golden files after an intended change.

use crate::common::tb;
use std::path::Path;
use std::process::{Command, Output};

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
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

#[test]
fn eval_cards_table_golden() {
    let o = tb(&["eval", "cards/swiss", "examples/cards-swiss.toml"]);
    assert!(o.status.success(), "{}", stderr(&o));
    golden("cards-swiss.table.txt", &stdout(&o));
}

#[test]
fn eval_formats_golden() {
    for (fmt, ext) in [
        ("json", "json"),
        ("csv", "csv"),
        ("markdown", "md"),
        ("html", "html"),
    ] {
        let o = tb(&[
            "eval",
            "cards/swiss",
            "examples/cards-swiss.toml",
            "--format",
            fmt,
        ]);
        assert!(o.status.success(), "{fmt}: {}", stderr(&o));
        golden(&format!("cards-swiss.{ext}"), &stdout(&o));
    }
    let o = tb(&["eval", "us-chess/swiss", "examples/chess-swiss.toml"]);
    assert!(o.status.success(), "{}", stderr(&o));
    golden("chess-swiss.us-chess.table.txt", &stdout(&o));
    let o = tb(&[
        "eval",
        "us-chess/round-robin",
        "tests/fixtures/data/chess/uzchesscup_rr.trf",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    golden("uzchesscup.us-chess-rr.table.txt", &stdout(&o));
}

/// The JSON contract (SPEC §5): `standings` in final order with `rank`
/// (integer), `id` (string), `name`, and `values` (label → decimal string or null).
#[test]
fn json_contract() {
    let o = tb(&[
        "eval",
        "cards/swiss",
        "examples/cards-swiss.toml",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let rows = v["standings"].as_array().expect("standings array");
    assert_eq!(rows.len(), 8);
    let mut last = 0;
    for r in rows {
        let rank = r["rank"].as_u64().expect("integer rank");
        assert!(rank >= last);
        last = rank;
        assert!(r["id"].is_string() && r["name"].is_string());
        let values = r["values"].as_object().expect("values object");
        for label in ["MP", "OMW%", "GW%", "OGW%"] {
            let x = &values[label];
            assert!(
                x.is_null() || x.as_str().unwrap().parse::<f64>().is_ok(),
                "{label}: {x}"
            );
        }
    }
    assert_eq!(rows[0]["id"], "gus");
    assert_eq!(rows[0]["decided_by"]["cite"], "Step 1");
    // TRF ids are starting numbers without padding.
    let o = tb(&[
        "eval",
        "us-chess/round-robin",
        "tests/fixtures/data/chess/uzchesscup_rr.trf",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["standings"][0]["id"], "2");
    assert_eq!(v["standings"][0]["values"]["SB"], "25.25");
}

/// Same input, same output, byte for byte.
#[test]
fn output_is_deterministic() {
    let a = tb(&[
        "eval",
        "cards/swiss",
        "examples/cards-swiss.toml",
        "--format",
        "json",
    ]);
    let b = tb(&[
        "eval",
        "cards/swiss",
        "examples/cards-swiss.toml",
        "--format",
        "json",
    ]);
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn toml_and_json_events_give_the_same_standings() {
    let a = tb(&[
        "eval",
        "us-chess/swiss",
        "examples/chess-swiss.toml",
        "--format",
        "csv",
    ]);
    let b = tb(&[
        "eval",
        "us-chess/swiss",
        "examples/chess-swiss.json",
        "--format",
        "csv",
    ]);
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn check_every_shipped_ruleset() {
    let names: Vec<&str> = tb::shipped::SHIPPED.iter().map(|(n, _)| *n).collect();
    assert!(names.len() >= 5);
    let mut args = vec!["check"];
    args.extend(names.iter().copied());
    let o = tb(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    for n in names {
        assert!(stdout(&o).contains(&format!("{n}: ok")), "{n}");
    }
}

#[test]
fn check_broken_ruleset_reports_code_span_help() {
    let dir = std::env::temp_dir().join(format!("tb-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("broken.tb");
    std::fs::write(
        &file,
        "import \"us-chess/lib\"\nmetric a = solkof + 1\nmetric b = round(1, 2, 3)\n",
    )
    .unwrap();
    let o = tb(&["--diagnostics", "plain", "check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(3));
    let err = stderr(&o);
    assert!(err.contains("error[tb::check::unknown_metric]"), "{err}");
    assert!(err.contains("broken.tb:2:12"), "{err}");
    assert!(err.contains("did you mean `solkoff`"), "{err}");
    assert!(err.contains("error[tb::check::arity]"), "{err}");
    // The graphical rendering shows the file name and the source line.
    let o = tb(&[
        "--diagnostics",
        "fancy",
        "--color",
        "never",
        "check",
        file.to_str().unwrap(),
    ]);
    let err = stderr(&o);
    assert!(err.contains("tb::check::unknown_metric"), "{err}");
    assert!(err.contains("metric a = solkof + 1"), "{err}");
    assert!(err.contains("broken.tb"), "{err}");
    // JSON diagnostics for tools.
    let o = tb(&["--diagnostics", "json", "check", file.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&o.stderr).expect("json diagnostic");
    assert_eq!(v["related"][0]["code"], "tb::check::unknown_metric");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn verify_agrees_with_recorded_ranks() {
    let o = tb(&["verify", "cards/swiss", "examples/cards-swiss.toml"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("8 compared, 0 differ"));
    // The TEC file's rank column is FIDE's order; US Chess tie-breaks differ.
    let o = tb(&[
        "verify",
        "us-chess/swiss",
        "tests/fixtures/data/chess/tec_swiss_de.trf",
    ]);
    assert_eq!(o.status.code(), Some(4), "{}", stdout(&o));
}

#[test]
fn usage_errors_exit_2_and_input_errors_exit_3() {
    assert_eq!(tb(&["eval"]).status.code(), Some(2));
    assert_eq!(tb(&["frobnicate"]).status.code(), Some(2));
    let o = tb(&["eval", "no/such", "examples/cards-swiss.toml"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(stderr(&o).contains("tb::check::unknown_ruleset"));
    let o = tb(&["eval", "cards/swiss", "no-such-file.toml"]);
    assert_eq!(o.status.code(), Some(3));
    let o = tb(&[
        "eval",
        "cards/swiss",
        "examples/cards-swiss.toml",
        "--param",
        "nosuch=1",
    ]);
    // A `--param` name is part of the command line: a usage error.
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("floor"),
        "lists the ruleset's parameters"
    );
}

/// Everyday slips on the command line are said in words: a misspelt
/// shipped name gets a did-you-mean, and a data file given where the
/// ruleset goes (the two swapped) is named as such, not read as a ruleset.
#[test]
fn misspelt_and_swapped_arguments_are_named() {
    let o = tb(&["eval", "fide/swis", "examples/chess-swiss.toml"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(
        stderr(&o).contains("did you mean `fide/swiss`?"),
        "{}",
        stderr(&o)
    );
    let o = tb(&["eval", "examples/chess-swiss.toml", "fide/swiss"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("tb::cli::usage") && e.contains("wrong way round"),
        "{e}"
    );
    assert!(
        e.contains("tb eval fide/swiss examples/chess-swiss.toml"),
        "{e}"
    );
}

/// DATA `-` reads standard input; the format is told by the text (TOML,
/// JSON, TRF, USEBIO, a CSV header), and the standings are those of the file.
#[test]
fn data_from_standard_input() {
    use std::io::Write as _;
    for (ruleset, file) in [
        ("cards/swiss", "examples/cards-swiss.toml"),
        ("cards/swiss", "examples/cards-swiss.csv"),
        ("fide/swiss", "examples/chess-swiss.json"),
        ("fide/swiss", "tests/fixtures/fide/tiny.trf"),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let mut child = Command::new(env!("CARGO_BIN_EXE_tb"))
            .args(["eval", ruleset, "-", "--format", "csv"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("run tb");
        let text = std::fs::read(&path).unwrap();
        child.stdin.take().unwrap().write_all(&text).unwrap();
        let piped = child.wait_with_output().unwrap();
        let direct = tb(&["eval", ruleset, file, "--format", "csv"]);
        assert_eq!(piped.status.code(), Some(0), "{file}: {}", stderr(&piped));
        assert_eq!(stdout(&piped), stdout(&direct), "{file}");
    }
}

#[test]
fn params_change_the_result() {
    let a = tb(&[
        "eval",
        "cards/swiss",
        "examples/cards-swiss.toml",
        "--format",
        "csv",
    ]);
    let b = tb(&[
        "eval",
        "cards/swiss",
        "examples/cards-swiss.toml",
        "--format",
        "csv",
        "--param",
        "floor=0.5",
    ]);
    assert!(b.status.success(), "{}", stderr(&b));
    assert_ne!(a.stdout, b.stdout);
}

#[test]
fn explain_tells_each_tie_in_the_regulations_words() {
    let o = tb(&[
        "explain",
        "cards/swiss",
        "examples/cards-swiss.toml",
        "--ids",
        "fay,gus",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("1. OMW% (omwp) [Step 1], higher is better"),
        "{out}"
    );
    assert!(out.contains("Fay Okafor (fay): 0.54"), "{out}");
    assert!(out.contains("Gus Lindqvist (gus): 0.56"), "{out}");
    assert!(
        out.contains("→ separated: Gus Lindqvist (gus) ahead of Fay Okafor (fay)"),
        "{out}"
    );
    // Only the tie asked for, and no engine words.
    assert!(!out.contains("Tie 2"), "{out}");
    for engine in ["→ continue", "→ procedure", "still tied"] {
        assert!(!out.contains(engine), "{engine}: {out}");
    }
    golden("cards-swiss.explain.txt", &out);
}

#[test]
fn list_names_rulesets_and_sources() {
    let out = stdout(&tb(&["list"]));
    for n in ["cards/swiss", "us-chess/swiss", "us-chess/round-robin"] {
        assert!(out.contains(n), "{n}");
    }
    // Documents by their titles: "seed 001" (this project's name for its
    // copy of a document) read as `--seed` to users.
    assert!(out.contains("Card-game (Magic-style) Swiss tiebreakers"));
    let all = stdout(&tb(&["list", "--all"]));
    assert!(!out.contains("seed 0") && !all.contains("seed 0"), "{all}");
}

// ------------------------------------------------------------------ README

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

pub(crate) fn blocks(lang: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in readme().lines() {
        match &mut cur {
            None if line.trim_start() == format!("```{lang}") => cur = Some(String::new()),
            Some(b) if line.trim_start() == "```" => {
                out.push(std::mem::take(b));
                cur = None;
            }
            Some(b) => {
                b.push_str(line);
                b.push('\n');
            }
            None => {}
        }
    }
    out
}

/// Every `tb` code block of the README is valid syntax.
#[test]
fn readme_ruleset_examples_parse() {
    let bs = blocks("tb");
    assert!(bs.len() >= 6);
    for b in bs {
        if let Err(d) = tb::syntax::parse::parse(&tb::diag::Source::new("README.md", b.clone())) {
            panic!("README block does not parse:\n{b}\n{}", d.plain());
        }
    }
}

/// The README's "writing your own ruleset" example checks and runs.
#[test]
fn readme_own_ruleset_runs() {
    let b = blocks("tb")
        .into_iter()
        .find(|b| b.contains("procedure club"))
        .expect("club example");
    let dir = std::env::temp_dir().join(format!("tb-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("club.tb");
    std::fs::write(&file, b).unwrap();
    let o = tb(&["check", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = tb(&[
        "eval",
        file.to_str().unwrap(),
        "examples/chess-swiss.toml",
        "--seed",
        "7",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

/// The quick-start command prints what the README shows.
#[test]
fn readme_quick_start_output() {
    let text = readme();
    assert!(text.contains("cargo run --release -- eval cards/swiss examples/cards-swiss.toml"));
    assert!(text.contains("\ncargo test\n"));
    let shown = blocks("text")
        .into_iter()
        .find(|b| b.contains("Friday Night Swiss"))
        .unwrap();
    let out = stdout(&tb(&["eval", "cards/swiss", "examples/cards-swiss.toml"]));
    for line in shown.lines().filter(|l| !l.starts_with("...")) {
        assert!(
            out.contains(line),
            "README line not in output: {line:?}\n{out}"
        );
    }
}

/// `tb eval ... | head`: a reader that closes the pipe early must not make tb panic.
#[test]
fn closed_output_pipe_is_not_a_panic() {
    use std::io::Read;
    use std::process::Stdio;
    // Output far larger than a pipe's buffer, so closing early is certain to be seen.
    let dir = std::env::temp_dir().join(format!("tb-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("big.toml");
    let mut t = String::from("[event]\nname = \"big\"\nrounds = 1\n");
    for i in 0..3000 {
        t.push_str(&format!("[[participants]]\nid = \"p{i}\"\n"));
    }
    std::fs::write(&file, t).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tb"))
        .args([
            "eval",
            "us-chess/swiss",
            file.to_str().unwrap(),
            "--format",
            "html",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 1];
    child.stdout.take().unwrap().read_exact(&mut first).ok(); // read one byte, then close
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        out.status.code().is_some_and(|c| c == 0),
        "{:?}",
        out.status
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `tb explain --detail` shows every number that decided a tie and where it
/// came from: Buchholz's opponents and its cut (FIDE), the IMPs of a WBF
/// three-team tie, the opponents' MW% with the floor (cards).
#[test]
fn explain_detail_shows_each_values_parts() {
    let o = tb(&[
        "explain",
        "fide/swiss",
        "examples/chess-swiss.toml",
        "--ids",
        "2",
        "--detail",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for want in [
        "the sum of opponent scores less the 1 least significant = 12: sum of the 4 counted of 5 items",
        "round 2 against Ivanova, Daria (5): 1.5",
        "adjusted score of Ivanova, Daria (5) (Art. 16.3) = 1.5",
        "not counted: cut: the least significant value",
        "→ separated: Haddad, Omar (3) ahead of Brennan, Liam (2)",
    ] {
        assert!(out.contains(want), "{want}: {out}");
    }
    let o = tb(&[
        "explain",
        "wbf/round-robin",
        "examples/bridge-round-robin.toml",
        "--detail",
    ]);
    let out = stdout(&o);
    for want in [
        "level on VP with 60.20; they go to 1.2 Three teams (3 tied)",
        "quotient of IMPs won and IMPs lost = 1.5161, from:",
        "IMPs won [1.1(a)] = 141: sum of 5 items",
        "round 2 against Clubs (C): 35",
    ] {
        assert!(out.contains(want), "{want}: {out}");
    }
    let o = tb(&[
        "explain",
        "cards/swiss",
        "examples/cards-swiss.toml",
        "--detail",
    ]);
    let out = stdout(&o);
    for want in [
        "MW% of Cleo Martin (cleo) (Definitions: Match-win percentage) = 0.33",
        "floor = 0.33",
    ] {
        assert!(out.contains(want), "{want}: {out}");
    }
    // A card tie decided by OGW% (Step 3): players 4 and 6 level on MP,
    // OMW% and GW%; each opponent's GW% is shown with the 0.33 floor.
    let o = tb(&[
        "explain",
        "cards/swiss",
        "tests/fixtures/generated/cards-swiss-p8-r3-s13.toml",
        "--ids",
        "4",
        "--detail",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for want in [
        "3. OGW% (ogwp) [Step 3], higher is better; among Velaisez, Erik (4) and Dorovski, Zara (6)",
        "round 1 against Griugson, Pavel (8): 0.33",
        "the larger of: the opponent's GW% = 0.1429; floor = 0.33",
        "round 3 against Moraisson, Lucia (7): 0.625",
        "→ separated: Velaisez, Erik (4) ahead of Dorovski, Zara (6)",
        "6 Velaisez, Erik (4) by OGW% (Step 3); 7 Dorovski, Zara (6) by OGW% (Step 3)",
    ] {
        assert!(out.contains(want), "{want}: {out}");
    }
}

/// `tb explain --detail` speaks in words, not in the ruleset's code: on
/// every shipped example, no line of a value's parts quotes an expression
/// (backticks) or a definition's identifier (`adjusted_score`,
/// `cut_lowest`, `r.points`). Only a ruleset's own documentation, which its
/// author wrote for people, may do so (the lines right under a step).
#[test]
fn explain_detail_speaks_in_words() {
    let mut checked = 0;
    for (data, rulesets) in crate::output_corpus::EXAMPLES {
        for rs in rulesets.iter() {
            let o = tb(&["explain", rs, data, "--detail"]);
            assert!(o.status.success(), "{rs} {data}: {}", stderr(&o));
            for line in stdout(&o).lines() {
                // Detail lines are indented past the members' values (5).
                if !line.starts_with("        ") {
                    continue;
                }
                let code = line.contains('`')
                    || line
                        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                        .any(|w| {
                            w.contains('_') && w.chars().all(|c| c.is_ascii_lowercase() || c == '_')
                                || w.starts_with("r.")
                                || w.starts_with("q.")
                        });
                assert!(!code, "{rs} {data}: engine words in {line:?}");
                checked += 1;
            }
        }
    }
    assert!(checked > 500, "{checked} detail lines");
}
