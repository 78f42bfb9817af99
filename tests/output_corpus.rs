//! The output corpus: the real `tb` binary run over a fixed table of command
//! lines (every shipped example with its rulesets in every format, `tb check`
//! and `tb list`, FIDE descriptor chains, the generated events in
//! `tests/fixtures/generated/`, the gacrux fixtures, the real data files and a
//! handful of errors), each run's exit code, stdout and stderr compared byte
//! for byte with a snapshot in `tests/snapshots/output_corpus/`.
//!
//! The snapshots were recorded from commit bb25a52, before the structural
//! redesign of issue #20: a refactor passes only if no byte of any output
//! changed. Each snapshot starts with the byte count and an FNV-1a hash of
//! stdout and stderr, because insta compares text with trailing whitespace
//! trimmed and line ends normalised; the hash makes the comparison exact.
//!
//! A deliberate change of output: run
//! `INSTA_UPDATE=always cargo test output_corpus` (or `cargo insta test` and
//! `cargo insta review`), review the diff of `tests/snapshots/` and commit it.
//! Without `INSTA_UPDATE`, a run outside CI writes `.snap.new` files next to
//! the snapshots and fails; with `CI=true` (or `INSTA_UPDATE=no`) it writes
//! nothing and fails. Every case is compared before the test fails, so one
//! run lists every output that changed.
//!
//! `TB_CORPUS_BIN=/path/to/tb` runs the corpus on another binary instead
//! of the one cargo built (a release build, or the reference binary from
//! before a change): `TB_CORPUS_BIN=/tmp/tb-base INSTA_UPDATE=no cargo test
//! output_corpus`.
//!
//! The environment of each run is cleared, then `NO_COLOR=1`, `TERM=dumb`
//! and `COLUMNS=10000` are set, so that neither colour nor terminal width
//! depends on who runs the test. The width is that large because the binary
//! cargo builds for tests has clap's `wrap_help` (a feature divan, a
//! dev-dependency, turns on), which wraps help at `COLUMNS`, while
//! `cargo build` gives a binary that never wraps: at 10000 columns both
//! print the same bytes. (miette's graphical diagnostics do not read
//! `COLUMNS`: stderr is not a terminal, so they are 80 wide.) Commands that need a scratch file run in a temporary
//! folder; the folder and the crate's folder are written `[TMP]` and `[ROOT]`
//! in the snapshots.

use std::path::{Path, PathBuf};
use std::process::Command;

/// One run of the binary.
struct Case {
    /// The snapshot's name: `command__ruleset__data__format`.
    name: String,
    args: Vec<String>,
    /// Run in the scratch folder (for the error cases' own files) rather
    /// than in the crate's folder; `[ROOT]` in an argument is the crate's
    /// folder.
    in_tmp: bool,
}

/// What one run printed.
struct Run {
    code: Option<i32>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("output_corpus")
}

/// A file name as part of a snapshot name: `examples/chess-swiss.toml` ->
/// `chess-swiss_toml`.
fn stem(path: &str) -> String {
    let file = path.rsplit('/').next().unwrap_or(path);
    clean(file)
}

/// Only letters, digits, `-` and `_` in snapshot names.
fn clean(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn case(name: String, args: &[&str]) -> Case {
    Case {
        name,
        args: args.iter().map(|a| a.to_string()).collect(),
        in_tmp: false,
    }
}

/// A command line of arguments without spaces, split at whitespace.
fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// `tb eval RULESET DATA --format FORMAT`.
fn eval(ruleset: &str, data: &str, format: &str) -> Case {
    case(
        format!("eval__{}__{}__{format}", clean(ruleset), stem(data)),
        &["eval", ruleset, data, "--format", format],
    )
}

/// `tb eval --tiebreaks CHAIN DATA --format FORMAT [extra...]`; `label`
/// names the chain in the snapshot name.
fn chain(label: &str, codes: &str, data: &str, format: &str, extra: &[&str]) -> Case {
    let mut args = vec!["eval", "--tiebreaks", codes, data, "--format", format];
    args.extend_from_slice(extra);
    let mut name = format!("tiebreaks__{label}__{}__{format}", stem(data));
    for e in extra {
        name.push_str(&format!("__{}", clean(e.trim_start_matches('-'))));
    }
    case(name, &args)
}

const FORMATS: [&str; 5] = ["table", "json", "csv", "markdown", "html"];

/// Each shipped example with the rulesets that apply to it (README, the
/// examples' own comments, tests/cli_diagnostics.rs); the first one in every
/// format, with `explain` and `verify`, the others as table and JSON.
pub(crate) const EXAMPLES: &[(&str, &[&str])] = &[
    ("examples/bridge-bam.toml", &["wbf/bam"]),
    ("examples/bridge-individual.toml", &["ebu/split-tie"]),
    ("examples/bridge-knockout.toml", &["wbf/knockout"]),
    (
        "examples/bridge-pairs.toml",
        &["wbf/pairs", "ebu/split-tie"],
    ),
    (
        "examples/bridge-round-robin.toml",
        &["wbf/round-robin", "ebu/split-tie"],
    ),
    (
        "examples/bridge-swiss-teams.toml",
        &["wbf/swiss-teams", "ebu/split-tie"],
    ),
    ("examples/cards-swiss.toml", &["cards/swiss"]),
    ("examples/cards-swiss.csv", &["cards/swiss"]),
    ("examples/cards-unplayed.toml", &["cards/swiss"]),
    (
        "examples/chess-swiss.toml",
        &[
            "fide/swiss",
            "fide/swiss-2024",
            "fide/swiss-2026",
            "us-chess/swiss",
            "fide/round-robin",
            "us-chess/round-robin",
        ],
    ),
    (
        "examples/chess-swiss.json",
        &["us-chess/swiss", "fide/swiss", "fide/swiss-2026"],
    ),
    (
        "examples/team-swiss.toml",
        &["fide/team-swiss", "fide/team-round-robin"],
    ),
    // An event in progress: results up to round 7 of 9, two byes entered
    // for round 8 (issue #33).
    ("examples/chess-open-round7.trf", &["fide/swiss"]),
];

fn examples(out: &mut Vec<Case>) {
    for (data, rulesets) in EXAMPLES {
        for (i, rs) in rulesets.iter().enumerate() {
            if i == 0 {
                for f in FORMATS {
                    out.push(eval(rs, data, f));
                }
                out.push(case(
                    format!("explain__{}__{}", clean(rs), stem(data)),
                    &["explain", rs, data],
                ));
                out.push(case(
                    format!("explain__{}__{}__detail", clean(rs), stem(data)),
                    &["explain", rs, data, "--detail"],
                ));
                out.push(case(
                    format!("explain__{}__{}__json_detail", clean(rs), stem(data)),
                    &["explain", rs, data, "--format", "json", "--detail"],
                ));
                out.push(case(
                    format!("verify__{}__{}", clean(rs), stem(data)),
                    &["verify", rs, data],
                ));
            } else {
                out.push(eval(rs, data, "table"));
                out.push(eval(rs, data, "json"));
            }
        }
    }
    // Options on the examples.
    let more: &[(&str, &str)] = &[
        (
            "explain__cards_swiss__cards-swiss_toml__ids_fay_gus",
            "explain cards/swiss examples/cards-swiss.toml --ids fay,gus",
        ),
        (
            "eval__cards_swiss__cards-swiss_toml__csv__param_floor_0_5",
            "eval cards/swiss examples/cards-swiss.toml --format csv --param floor=0.5",
        ),
        (
            "eval__fide_swiss__chess-swiss_toml__json__edition_2026",
            "eval fide/swiss examples/chess-swiss.toml --format json --edition 2026",
        ),
        (
            "eval__fide_round-robin__chess-swiss_toml__table__system_round-robin",
            "eval fide/round-robin examples/chess-swiss.toml --system round-robin",
        ),
        (
            "eval__us-chess_swiss__chess-swiss_toml__table__seed_7",
            "eval us-chess/swiss examples/chess-swiss.toml --seed 7",
        ),
        (
            "eval__fide_team-swiss__team-swiss_toml__table__threads_1",
            "eval fide/team-swiss examples/team-swiss.toml --threads 1",
        ),
        (
            "explain__fide_team-swiss__team-swiss_toml__ids_A_C",
            "explain fide/team-swiss examples/team-swiss.toml --ids A,C",
        ),
        // Standings after an earlier round, and round by round (issue #33):
        // chess, cards and bridge, every format of the round-by-round table.
        (
            "eval__fide_swiss__chess-open-round7_trf__table__after_round_5",
            "eval fide/swiss examples/chess-open-round7.trf --after-round 5",
        ),
        (
            "eval__fide_swiss__chess-open-round7_trf__table__after_round_8",
            "eval fide/swiss examples/chess-open-round7.trf --after-round 8",
        ),
        (
            "verify__fide_swiss__chess-open-round7_trf__after_round_5",
            "verify fide/swiss examples/chess-open-round7.trf --after-round 5",
        ),
        (
            "eval__fide_swiss__chess-open-round7_trf__table__progress",
            "eval fide/swiss examples/chess-open-round7.trf --progress",
        ),
        (
            "eval__cards_swiss__cards-swiss_csv__json__after_round_3",
            "eval cards/swiss examples/cards-swiss.csv --after-round 3 --format json",
        ),
        (
            "eval__wbf_swiss-teams__bridge-swiss-teams_toml__table__after_round_2",
            "eval wbf/swiss-teams examples/bridge-swiss-teams.toml --after-round 2",
        ),
        (
            "eval__wbf_swiss-teams__bridge-swiss-teams_toml__table__progress",
            "eval wbf/swiss-teams examples/bridge-swiss-teams.toml --progress",
        ),
        (
            "eval__cards_swiss__cards-swiss_toml__table__progress",
            "eval cards/swiss examples/cards-swiss.toml --progress --format table",
        ),
        (
            "eval__cards_swiss__cards-swiss_toml__json__progress",
            "eval cards/swiss examples/cards-swiss.toml --progress --format json",
        ),
        (
            "eval__cards_swiss__cards-swiss_toml__csv__progress",
            "eval cards/swiss examples/cards-swiss.toml --progress --format csv",
        ),
        (
            "eval__cards_swiss__cards-swiss_toml__markdown__progress",
            "eval cards/swiss examples/cards-swiss.toml --progress --format markdown",
        ),
        (
            "eval__cards_swiss__cards-swiss_toml__html__progress",
            "eval cards/swiss examples/cards-swiss.toml --progress --format html",
        ),
        // A ruleset for another sport: a warning, then the standings (or an
        // error where the data lacks what it needs); with --strict an error
        // and no standings; the warning as JSON.
        (
            "eval__wbf_pairs__chess-swiss_toml__table",
            "eval wbf/pairs examples/chess-swiss.toml",
        ),
        (
            "eval__wbf_pairs__chess-swiss_toml__table__strict",
            "eval wbf/pairs examples/chess-swiss.toml --strict",
        ),
        (
            "eval__wbf_pairs__chess-swiss_toml__table__diagnostics_json",
            "--diagnostics json eval wbf/pairs examples/chess-swiss.toml",
        ),
        (
            "eval__fide_swiss__bridge-pairs_toml__table__strict",
            "eval fide/swiss examples/bridge-pairs.toml --strict",
        ),
        (
            "eval__fide_swiss__bridge-pairs_toml__table__diagnostics_json",
            "--diagnostics json eval fide/swiss examples/bridge-pairs.toml",
        ),
        (
            "eval__fide_swiss__bridge-pairs_toml__json",
            "eval fide/swiss examples/bridge-pairs.toml --format json",
        ),
    ];
    for (name, line) in more {
        out.push(case(name.to_string(), &words(line)));
    }
}

/// Entry rulesets (`tb list`) and the libraries they import.
const SHIPPED: &[&str] = &[
    "cards/swiss",
    "ebu/split-tie",
    "fide/round-robin-2024",
    "fide/round-robin-2026",
    "fide/round-robin",
    "fide/swiss-2024",
    "fide/swiss-2026",
    "fide/swiss",
    "fide/team-round-robin",
    "fide/team-swiss",
    "us-chess/round-robin",
    "us-chess/swiss",
    "wbf/bam",
    "wbf/knockout",
    "wbf/pairs",
    "wbf/round-robin",
    "wbf/swiss-teams",
    "cards/lib",
    "ebu/lib",
    "fide/lib",
    "fide/team",
    "fide/unplayed",
    "us-chess/lib",
    "wbf/lib",
];

fn listings(out: &mut Vec<Case>) {
    out.push(case("list".into(), &["list"]));
    out.push(case("version".into(), &["--version"]));
    out.push(case("help".into(), &["--help"]));
    out.push(case("help__short".into(), &["-h"]));
    for sub in ["eval", "explain", "check", "verify", "list"] {
        out.push(case(format!("help__{sub}"), &[sub, "--help"]));
    }
    for rs in SHIPPED {
        out.push(case(format!("check__{}", clean(rs)), &["check", rs]));
        out.push(case(
            format!("check__{}__verbose", clean(rs)),
            &["check", "--verbose", rs],
        ));
    }
    // By path: the file name is in the output.
    let mut paths = Vec::new();
    for dir in std::fs::read_dir(root().join("rulesets")).unwrap() {
        for f in std::fs::read_dir(dir.unwrap().path()).unwrap() {
            let p = f.unwrap().path();
            if p.extension().is_some_and(|e| e == "tb") {
                let rel = p.strip_prefix(root()).unwrap().to_string_lossy();
                paths.push(rel.replace('\\', "/"));
            }
        }
    }
    paths.sort();
    for p in &paths {
        out.push(case(format!("check__path__{}", clean(p)), &["check", p]));
    }
    let mut all = vec!["check", "-v"];
    all.extend(SHIPPED);
    out.push(case("check__all_shipped__verbose".into(), &all));
}

/// FIDE descriptor chains (docs/fide.md, tests/fide_*.rs) on chess events.
fn chains(out: &mut Vec<Case>) {
    const CHAINS: &[(&str, &str)] = &[
        ("pts-bhc1-bh-sb-ps-aro", "PTS,BH/C1,BH,SB,PS,ARO"),
        ("bhc1-bh-sb-ps-aro-de", "BH/C1,BH,SB,PS,ARO,DE"),
        ("pts-de-ksl-1", "PTS,DE,KS/L-1"),
        ("de", "PTS,DE,DE/P,WIN,BH,TPN"),
        ("mixed-case", "PTS, bh/c1,BH,SB,aro/C1,DE"),
        (
            "all",
            "PTS,DE,WIN,WON,BPG,BWG,PS,PS/C1,REP,BH,BH/C1,BH/C2,BH/M1,BH/M2,FB,FB/C1,AOB,SB,SB/C1,\
             SB/M1,KS,KS/L-1,ARO,ARO/C1,TPR,PTP,APRO,APPO,STD,TPN,RTNG",
        ),
    ];
    let events = [
        "examples/chess-swiss.toml",
        "tests/fixtures/data/chess/tec_swiss_de.trf",
        "tests/fixtures/data/chess/uzchesscup_rr.trf",
        "tests/fixtures/fide/tiny.trf",
    ];
    for data in events {
        for (label, codes) in CHAINS {
            out.push(chain(label, codes, data, "json", &[]));
        }
        out.push(chain(
            "pts-bhc1-bh-sb-ps-aro",
            CHAINS[0].1,
            data,
            "table",
            &[],
        ));
    }
    let tiny = "tests/fixtures/fide/tiny.trf";
    out.push(chain(
        "pts-bh",
        "PTS,BH",
        tiny,
        "json",
        &["--edition", "2026"],
    ));
    out.push(chain(
        "pts-bh",
        "PTS,BH",
        tiny,
        "json",
        &["--edition", "2024"],
    ));
    out.push(chain(
        "pts-bh",
        "PTS,BH",
        tiny,
        "json",
        &["--system", "round-robin"],
    ));
    out.push(chain("de", CHAINS[3].1, tiny, "markdown", &[]));
    out.push(case(
        "explain__tiebreaks__pts-bhc1-bh-sb-ps-aro__tiny_trf".into(),
        &["explain", "--tiebreaks", CHAINS[0].1, tiny],
    ));
    out.push(case(
        "verify__tiebreaks__pts-bhc1-bh-sb-ps-aro__tec_swiss_de_trf".into(),
        &[
            "verify",
            "--tiebreaks",
            CHAINS[0].1,
            "tests/fixtures/data/chess/tec_swiss_de.trf",
        ],
    ));
    // Team chains (README, docs/fide.md).
    let team = "PTS,EDET/P,EMGSB/C1/P,BH:MP/C1/P,MPvGP";
    let gm = "tests/fixtures/data/chess/grandmommys_cup_trf26_team.trf";
    out.push(chain(
        "team-sample",
        team,
        "examples/team-swiss.toml",
        "json",
        &[],
    ));
    out.push(chain(
        "team-sample",
        team,
        "examples/team-swiss.toml",
        "table",
        &[],
    ));
    out.push(chain("team-sample", team, gm, "table", &[]));
    out.push(chain(
        "pts-ede-edet",
        "PTS,EDE,EDET,BH",
        "examples/team-swiss.toml",
        "json",
        &[],
    ));
    // A TRF-26 file's own records 202/212: no ruleset.
    out.push(case(
        "eval__own-records__grandmommys_cup_trf26_team_trf__table".into(),
        &["eval", gm],
    ));
    out.push(case(
        "eval__own-records__grandmommys_cup_trf26_team_trf__json".into(),
        &["eval", gm, "--format", "json"],
    ));
}

/// Events from `tbgen` (tests/fixtures/generated/README.md), committed so
/// that the test does not depend on the generator.
fn generated(out: &mut Vec<Case>) {
    let g = |f: &str| format!("tests/fixtures/generated/{f}");
    let de = "BH/C1,BH,SB,PS,ARO,DE";
    for f in [
        "chess-swiss-p30-r5-s3.json",
        "chess-swiss-p33-r6-s4.toml",
        "chess-swiss-p40-r7-s1.trf",
        "chess-swiss-p57-r9-s2.trf",
        "chess-swiss-p120-r9-s5.trf",
    ] {
        let p = g(f);
        out.push(eval("fide/swiss", &p, "table"));
        out.push(eval("fide/swiss", &p, "json"));
        out.push(eval("us-chess/swiss", &p, "table"));
        out.push(eval("us-chess/swiss", &p, "json"));
        out.push(chain("bhc1-bh-sb-ps-aro-de", de, &p, "json", &[]));
    }
    let small = g("chess-swiss-p30-r5-s3.json");
    for f in ["csv", "markdown", "html"] {
        out.push(eval("fide/swiss", &small, f));
    }
    out.push(case(
        "explain__fide_swiss__chess-swiss-p30-r5-s3_json".into(),
        &["explain", "fide/swiss", &small],
    ));
    out.push(case(
        "eval__fide_swiss-2026__chess-swiss-p40-r7-s1_trf__json__seed_3".into(),
        &[
            "eval",
            "fide/swiss-2026",
            &g("chess-swiss-p40-r7-s1.trf"),
            "--format",
            "json",
            "--seed",
            "3",
        ],
    ));
    out.push(case(
        "verify__fide_swiss__chess-swiss-p57-r9-s2_trf".into(),
        &["verify", "fide/swiss", &g("chess-swiss-p57-r9-s2.trf")],
    ));
    for f in ["cards-swiss-p48-r6-s1.json", "cards-swiss-p31-r5-s2.toml"] {
        for format in ["table", "json", "csv"] {
            out.push(eval("cards/swiss", &g(f), format));
        }
    }
    out.push(case(
        "explain__cards_swiss__cards-swiss-p31-r5-s2_toml".into(),
        &["explain", "cards/swiss", &g("cards-swiss-p31-r5-s2.toml")],
    ));
    out.push(case(
        "explain__cards_swiss__cards-swiss-p8-r3-s13_toml__detail".into(),
        &[
            "explain",
            "cards/swiss",
            &g("cards-swiss-p8-r3-s13.toml"),
            "--detail",
        ],
    ));
    for f in [
        "bridge-swiss-teams-p36-r7-s1.json",
        "bridge-swiss-teams-p45-r9-s2.toml",
    ] {
        // The generated teams carry IMPs and VPs but no total points, which
        // WBF 3.1 iii needs: an error, kept as one.
        out.push(eval("wbf/swiss-teams", &g(f), "table"));
        out.push(eval("ebu/split-tie", &g(f), "table"));
        out.push(eval("ebu/split-tie", &g(f), "json"));
    }
}

/// The gacrux fixtures, each with the chain, edition, system and rating for
/// unrated players it was made for (`tests/fide_oracle.rs`,
/// `tests/fide_team_oracle.rs`), as JSON.
fn gacrux(out: &mut Vec<Case>) {
    for dir in ["fide", "oracle", "fide_team"] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root().join("tests/fixtures").join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "json"))
            .collect();
        files.sort();
        for json in files {
            let file = json.file_name().unwrap().to_string_lossy().to_string();
            let event = file.split('.').next().unwrap();
            let trf = match (dir, event) {
                ("fide_team", "grandmommy") => {
                    "tests/fixtures/data/chess/grandmommys_cup_trf26_team.trf".to_string()
                }
                // The hand-made files of issue 22 sit next to their JSON.
                ("fide_team", _)
                    if root()
                        .join(format!("tests/fixtures/fide_team/{event}.trf"))
                        .exists() =>
                {
                    format!("tests/fixtures/fide_team/{event}.trf")
                }
                ("fide_team", _) => format!("tests/fixtures/oracle/{event}.trf"),
                _ => format!("tests/fixtures/{dir}/{event}.trf"),
            };
            let v: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
            let codes: Vec<&str> = v["tiebreaks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap())
                .collect();
            let codes = codes.join(",");
            let edition = v["edition"].as_str().unwrap();
            let mut args = vec![
                "eval".to_string(),
                "--tiebreaks".into(),
                codes,
                trf,
                "--edition".into(),
                edition.into(),
            ];
            // The `afterN` fixtures: the standings after round N (gacrux -n).
            if let (Some(n), Some(all)) = (v["round"].as_u64(), v["rounds"].as_u64()) {
                if n < all {
                    args.push("--after-round".into());
                    args.push(n.to_string());
                }
            }
            // The `as-rr` / `as-swiss` fixtures: the system overridden.
            if file.contains(".as-") {
                args.push("--system".into());
                args.push(v["system"].as_str().unwrap().into());
            }
            if let Some(r) = v.get("unrated").and_then(|r| r.as_i64()) {
                args.push("--param".into());
                args.push(format!("unrated_rating={r}"));
            }
            args.push("--format".into());
            args.push("json".into());
            out.push(Case {
                name: format!("gacrux__{dir}__{}", clean(file.trim_end_matches(".json"))),
                args,
                in_tmp: false,
            });
        }
    }
}

/// Real data in tests/fixtures/data/ (as the other tests use it).
fn data(out: &mut Vec<Case>) {
    let bridge = |f: &str| format!("tests/fixtures/data/bridge/{f}");
    for f in [
        "usebio-handicap_pairs.xml",
        "usebio-multi-section-multi-movement-pairs.xml",
        "usebio-pairs-with-np-passed.xml",
        "usebio-pairs.xml",
        "usebio-teams.xml",
        "usebio-three_quarter_howell_with_phantom.xml",
    ] {
        out.push(eval("ebu/split-tie", &bridge(f), "table"));
        out.push(eval("ebu/split-tie", &bridge(f), "json"));
    }
    out.push(eval("wbf/pairs", &bridge("usebio-pairs.xml"), "table"));
    out.push(case(
        "explain__ebu_split-tie__usebio-pairs_xml".into(),
        &["explain", "ebu/split-tie", &bridge("usebio-pairs.xml")],
    ));
    // Issue 22: USEBIO dialects written by hand in tests/fixtures/usebio/.
    let usebio = |f: &str| format!("tests/fixtures/usebio/{f}");
    for f in [
        "butler-pairs.xml",
        "cross-imp-pairs.xml",
        "teams-two-matches-one-round.xml",
    ] {
        out.push(eval("ebu/split-tie", &usebio(f), "table"));
    }
    out.push(case(
        "eval__ebu_split-tie__sitout-head-to-head_xml__prize_places_3".into(),
        &[
            "eval",
            "ebu/split-tie",
            &usebio("sitout-head-to-head.xml"),
            "--param",
            "prize_places=3",
        ],
    ));
    let chess = |f: &str| format!("tests/fixtures/data/chess/{f}");
    let uz = chess("uzchesscup_rr.trf");
    let tec = chess("tec_swiss_de.trf");
    let gm = chess("grandmommys_cup_trf26_team.trf");
    // Issue 22: the old half-point bye notation, read with a warning.
    out.push(eval("fide/swiss", &chess("old_half_bye.trf"), "table"));
    for rs in ["fide/round-robin", "us-chess/round-robin"] {
        out.push(eval(rs, &uz, "table"));
        out.push(eval(rs, &uz, "json"));
    }
    out.push(eval("fide/round-robin-2026", &uz, "json"));
    out.push(eval("fide/round-robin", &uz, "csv"));
    for rs in ["fide/swiss", "us-chess/swiss"] {
        out.push(eval(rs, &tec, "table"));
        out.push(eval(rs, &tec, "json"));
        out.push(case(
            format!("verify__{}__tec_swiss_de_trf", clean(rs)),
            &["verify", rs, &tec],
        ));
    }
    out.push(case(
        "verify__fide_round-robin__uzchesscup_rr_trf".into(),
        &["verify", "fide/round-robin", &uz],
    ));
    out.push(case(
        "explain__fide_swiss__tec_swiss_de_trf".into(),
        &["explain", "fide/swiss", &tec],
    ));
    for f in ["table", "json", "markdown"] {
        out.push(eval("fide/team-swiss", &gm, f));
    }
    out.push(eval("fide/team-round-robin", &gm, "table"));
    out.push(case(
        "eval__fide_team-swiss__grandmommys_cup_trf26_team_trf__table__strict".into(),
        &["eval", "fide/team-swiss", &gm, "--strict"],
    ));
    out.push(case(
        "eval__fide_team-swiss__grandmommys_cup_trf26_team_trf__table__diagnostics_json".into(),
        &["--diagnostics", "json", "eval", "fide/team-swiss", &gm],
    ));
}

/// Files for the error cases, written into the scratch folder.
const SCRATCH_FILES: &[(&str, &str)] = &[
    (
        "broken.tb",
        "import \"us-chess/lib\"\nmetric a = solkof + 1\nmetric b = round(1, 2, 3)\n",
    ),
    ("typo-sport.tb", "import \"cards/lib\"\nsport \"crads\"\n"),
    ("two-sports.tb", "import \"cards/lib\"\nsport \"cards\"\nsport \"chess\"\n"),
    (
        // The README's own ruleset.
        "club.tb",
        "title \"Club Swiss\"\nsource \"Club rules §7, approved 2025\"\nimport \"us-chess/lib\"\n\n\
         procedure club cite \"§7\" {\n    step score desc as \"Score\"\n    step solkoff cite \"§7.2(a)\"\n\
         \x20   step head_to_head cite \"§7.2(b)\"\n    otherwise lots cite \"§7.2(c)\"\n}\nstandings club\n",
    ),
    (
        // A participant without an `id`.
        "missing-field.toml",
        "[event]\nname = \"x\"\nsport = \"chess\"\nsystem = \"swiss\"\nrounds = 1\n\n\
         [[participants]]\nname = \"Ann\"\n\n[[participants]]\nid = \"b\"\nname = \"Bob\"\n\n\
         [[rounds]]\nround = 1\ngames = [ { home = \"a\", away = \"b\", result = \"1-0\" } ]\n",
    ),
    (
        // A field that is not a number, and a row with a column too few.
        "bad.csv",
        "# sport: cards\n# rounds: 2\nround,home,away,home_wins,away_wins,draws\n\
         1,ana,ben,two,1,0\n2,ana,ben,2,1\n",
    ),
    (
        "misspelt-names.csv",
        "# sport: cards\n# rounds: 2\nround,home,away,home_wins,away_wins,draws\n\
         1,Alice,Bob,2,1,0\n1,Carol,Dave,2,0,0\n2,Alcie,Carol,2,1,0\n2,Bob,Dave,1,2,0\n",
    ),
    ("not-json.json", "{ \"event\": { \"name\": \"x\", }\n"),
    (
        "bad-trf.trf",
        "012 broken\n001    1      A                                 2000                             2.5       0002 w 9\n",
    ),
];

fn errors(out: &mut Vec<Case>) {
    let here: &[(&str, &str)] = &[
        ("error__no_command", ""),
        ("error__unknown_command", "frobnicate"),
        ("error__eval_no_args", "eval"),
        (
            "error__misspelt_ruleset",
            "eval fide/swis examples/chess-swiss.toml",
        ),
        (
            "error__unknown_ruleset",
            "eval no/such examples/cards-swiss.toml",
        ),
        ("error__check_misspelt_ruleset", "check us-chess/swis"),
        ("error__no_such_file", "eval cards/swiss no-such-file.toml"),
        (
            "error__unknown_format",
            "eval cards/swiss examples/cards-swiss.toml --format xml",
        ),
        (
            "error__unknown_param",
            "eval cards/swiss examples/cards-swiss.toml --param nosuch=1",
        ),
        (
            "error__unknown_ids",
            "explain cards/swiss examples/cards-swiss.toml --ids fay,nobody",
        ),
        (
            "error__ruleset_and_tiebreaks",
            "eval fide/swiss tests/fixtures/fide/tiny.trf --tiebreaks PTS",
        ),
        (
            "error__edition_on_non_fide",
            "eval us-chess/swiss examples/chess-swiss.toml --edition 2026",
        ),
        ("error__no_ruleset", "eval tests/fixtures/fide/tiny.trf"),
        (
            "error__bad_descriptors",
            "eval --tiebreaks PTS,BH/X1,WIN/C1,EDE tests/fixtures/fide/tiny.trf",
        ),
        (
            "error__bad_descriptors__diagnostics_json",
            "--diagnostics json eval --tiebreaks PTS,BH/X1,WIN/C1,EDE tests/fixtures/fide/tiny.trf",
        ),
        (
            "error__descriptor_dash",
            "eval --tiebreaks BH-C1 tests/fixtures/fide/tiny.trf",
        ),
    ];
    for (name, line) in here {
        out.push(case(name.to_string(), &words(line)));
    }
    let tmp: &[(&str, &str)] = &[
        ("error__check_broken", "check broken.tb"),
        (
            "error__check_broken__fancy",
            "--diagnostics fancy --color never check broken.tb",
        ),
        (
            "error__check_broken__json",
            "--diagnostics json check broken.tb",
        ),
        ("error__check_typo_sport", "check typo-sport.tb"),
        ("error__check_two_sports", "check two-sports.tb"),
        ("check__club", "check --verbose club.tb"),
        (
            "eval__club__chess-swiss_toml__table",
            "eval club.tb [ROOT]/examples/chess-swiss.toml",
        ),
        (
            "eval__club__chess-swiss_toml__json__seed_7",
            "eval club.tb [ROOT]/examples/chess-swiss.toml --format json --seed 7",
        ),
        ("error__missing_field", "eval fide/swiss missing-field.toml"),
        (
            "error__missing_field__fancy",
            "--diagnostics fancy --color never eval fide/swiss missing-field.toml",
        ),
        ("error__bad_csv", "eval cards/swiss bad.csv"),
        (
            "warning__misspelt_csv_names",
            "eval cards/swiss misspelt-names.csv",
        ),
        (
            "warning__misspelt_csv_names__strict",
            "eval cards/swiss misspelt-names.csv --strict",
        ),
        ("error__not_json", "eval cards/swiss not-json.json"),
        ("error__bad_trf", "eval fide/swiss bad-trf.trf"),
    ];
    for (name, line) in tmp {
        let mut c = case(name.to_string(), &words(line));
        c.in_tmp = true;
        out.push(c);
    }
}

fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    examples(&mut out);
    listings(&mut out);
    chains(&mut out);
    generated(&mut out);
    gacrux(&mut out);
    data(&mut out);
    errors(&mut out);
    commands(&mut out);
    out
}

/// The commands of issue #17: `show`, `doc`, `completions`, `man`, their
/// help, their mistakes, `--write-trf` refused, and what a missing data
/// file's arguments were read as (`verify`'s causes are in the verify
/// cases above; the written TRF in tests/cli_commands.rs).
fn commands(out: &mut Vec<Case>) {
    let here: &[(&str, &str)] = &[
        ("show__fide_swiss", "show fide/swiss"),
        ("show__cards_lib", "show cards/lib"),
        (
            "show__fide_rating-difference_txt",
            "show fide/rating-difference.txt",
        ),
        ("error__show_misspelt", "show fide/swis"),
        ("error__show_folder_left_out", "show swiss"),
        ("doc__fide_swiss", "doc fide/swiss"),
        ("doc__fide_swiss__html", "doc fide/swiss --format html"),
        ("doc__fide_team-swiss", "doc fide/team-swiss"),
        ("doc__cards_swiss", "doc cards/swiss"),
        ("doc__wbf_swiss-teams", "doc wbf/swiss-teams"),
        ("doc__ebu_split-tie", "doc ebu/split-tie"),
        ("error__doc_misspelt", "doc fide/swis"),
        ("list__all", "list --all"),
        ("completions__bash", "completions bash"),
        ("man", "man"),
        (
            "error__write_trf_not_trf",
            "eval fide/swiss examples/chess-swiss.toml --write-trf out.trf",
        ),
        ("error__missing_data__one_argument", "eval fide/swiss"),
        (
            "error__missing_data__ruleset_second",
            "eval no-such-file.trf fide/swiss",
        ),
        (
            "error__missing_data__only_argument",
            "verify no-such-file.trf",
        ),
    ];
    for (name, line) in here {
        out.push(case(name.to_string(), &words(line)));
    }
    for sub in ["show", "doc", "completions", "man", "test", "fmt"] {
        out.push(case(format!("help__{sub}"), &[sub, "--help"]));
    }
}

fn run(case: &Case, tmp: &Path) -> Run {
    let bin = std::env::var_os("TB_CORPUS_BIN").unwrap_or(env!("CARGO_BIN_EXE_tb").into());
    let mut cmd = Command::new(bin);
    // clap prints the program's name from argv[0] in help and usage: the
    // same name whichever binary runs (TB_CORPUS_BIN).
    #[cfg(unix)]
    std::os::unix::process::CommandExt::arg0(&mut cmd, "tb");
    let o = cmd
        .args(
            case.args
                .iter()
                .map(|a| a.replace("[ROOT]", &root().to_string_lossy())),
        )
        .current_dir(if case.in_tmp {
            tmp.to_path_buf()
        } else {
            root()
        })
        .env_clear()
        .env("NO_COLOR", "1")
        .env("COLUMNS", "10000")
        .env("TERM", "dumb")
        .output()
        .expect("run tb");
    Run {
        code: o.status.code(),
        stdout: o.stdout,
        stderr: o.stderr,
    }
}

/// FNV-1a, 64 bits: exact bytes, including what insta's text comparison
/// ignores (trailing whitespace, `\r\n`).
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Absolute paths written as `[ROOT]` and `[TMP]`.
fn stable(bytes: &[u8], tmp: &Path) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes)
        .replace(&tmp.to_string_lossy().to_string(), "[TMP]")
        .replace(&root().to_string_lossy().to_string(), "[ROOT]");
    text.into_bytes()
}

fn snapshot(case: &Case, run: &Run, tmp: &Path) -> String {
    let stdout = stable(&run.stdout, tmp);
    let stderr = stable(&run.stderr, tmp);
    let shown: Vec<String> = case
        .args
        .iter()
        .map(|a| {
            if a.is_empty() || a.contains([' ', ',', '"']) {
                format!("{a:?}")
            } else {
                a.clone()
            }
        })
        .collect();
    format!(
        "$ tb {}{}\nexit: {:?}\nstdout: {} bytes, fnv1a64 {:016x}\nstderr: {} bytes, fnv1a64 {:016x}\n\
         ----- stdout -----\n{}\n----- stderr -----\n{}\n",
        shown.join(" "),
        if case.in_tmp { "   (in [TMP])" } else { "" },
        run.code,
        stdout.len(),
        fnv(&stdout),
        stderr.len(),
        fnv(&stderr),
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&stderr),
    )
}

#[test]
fn output_corpus() {
    let tmp = scratch();
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    for (name, text) in SCRATCH_FILES {
        std::fs::write(tmp.join(name), text).unwrap();
    }
    let cases = cases();
    let mut names = std::collections::BTreeSet::new();
    for c in &cases {
        assert!(names.insert(c.name.as_str()), "two cases named {}", c.name);
    }

    // The runs in parallel (each is a process); the comparisons in order.
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().min(4));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut runs: Vec<Option<Run>> = (0..cases.len()).map(|_| None).collect();
    let results = std::sync::Mutex::new(&mut runs);
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(c) = cases.get(i) else { break };
                let r = run(c, &tmp);
                results.lock().unwrap()[i] = Some(r);
            });
        }
    });

    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots/output_corpus");
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let mut failed = Vec::new();
    settings.bind(|| {
        for (c, r) in cases.iter().zip(&runs) {
            let body = snapshot(c, r.as_ref().expect("ran"), &tmp);
            let same = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                insta::assert_snapshot!(c.name.as_str(), body);
            }));
            if same.is_err() {
                failed.push(c.name.clone());
            }
        }
    });
    // A snapshot without its case: a case was dropped or renamed, and its
    // output is no longer compared.
    let dir = root().join("tests/snapshots/output_corpus");
    for f in std::fs::read_dir(&dir).unwrap() {
        let file = f.unwrap().file_name().to_string_lossy().to_string();
        if let Some(name) = file.strip_suffix(".snap") {
            if !names.contains(name) {
                failed.push(format!("{name} (a snapshot with no case)"));
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} cases differ from tests/snapshots/output_corpus/, or snapshots \
         have no case (see this file's header to accept a deliberate change):\n{}",
        failed.len(),
        cases.len(),
        failed.join("\n")
    );
}
