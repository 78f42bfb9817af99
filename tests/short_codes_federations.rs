//! The short codes of the shipped libraries other than FIDE's: `us-chess/lib`
//! (MM, SOLK, CUM, OPPCUM, SB, H2H) and `cards/lib` (MP, MW%, OMW%, GW%,
//! OGW%). A list of a library's codes ranks every example exactly as the
//! shipped ruleset with the same steps, in the library and through the CLI;
//! a misspelt code is named; the bridge libraries declare none. Also: the
//! README's club library of codes runs as shown.

use crate::common::{rank, shipped, tb};
use tb::diag::{Diag, Source};
use tb::model::Event;
use tb::plan::Ruleset;
use tb::rank::Standings;
use tb::syntax::ast::Direction;

fn list(codes: &str, library: &str) -> Result<Ruleset, Diag> {
    tb::check::check_list(
        Source::new("--tiebreaks", codes),
        library,
        None,
        &tb::shipped::Shipped,
        &[],
    )
}

fn listed(codes: &str, library: &str) -> Ruleset {
    list(codes, library).unwrap_or_else(|d| panic!("{codes}: {}", d.plain()))
}

fn load(path: &str) -> Event {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{path}: {e}"));
    tb::load::load(&Source::new(path, text)).unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// What a row says, with a decision named by its column (the labels of a
/// list are its codes, the ruleset's are its own).
fn rows(st: &Standings) -> Vec<String> {
    st.rows
        .iter()
        .map(|r| {
            let decided = r.decided_by.as_ref().map(|d| {
                let col = st.columns.iter().position(|c| c.label == d.criterion);
                (
                    col.map_or(d.criterion.clone(), |c| format!("column {c}")),
                    d.cite.clone(),
                )
            });
            format!(
                "{} {} {:?} {:?} {:?}",
                r.pid, r.rank, r.values, decided, r.unresolved
            )
        })
        .collect()
}

/// The list and the ruleset rank `ev` alike: places, values, what decided
/// each, and columns with the same citation, decimals and direction.
fn same_standings(what: &str, ev: &Event, by_codes: &Ruleset, by_hand: &Ruleset) {
    let (a, b) = (rank(ev, by_codes), rank(ev, by_hand));
    assert_eq!(rows(&a), rows(&b), "{what}");
    let cols = |st: &Standings| -> Vec<String> {
        st.columns
            .iter()
            .map(|c| {
                format!(
                    "{:?} {:?} {:?} {}",
                    c.cite, c.decimals, c.dir, c.group_relative
                )
            })
            .collect()
    };
    assert_eq!(cols(&a), cols(&b), "{what}");
}

const CHESS: [&str; 8] = [
    "examples/chess-swiss.toml",
    "examples/chess-swiss.json",
    "tests/fixtures/data/chess/uzchesscup_rr.trf",
    "tests/fixtures/generated/chess-swiss-p30-r5-s3.json",
    "tests/fixtures/generated/chess-swiss-p33-r6-s4.toml",
    "tests/fixtures/generated/chess-swiss-p40-r7-s1.trf",
    "tests/fixtures/generated/chess-swiss-p57-r9-s2.trf",
    "tests/fixtures/generated/chess-swiss-p120-r9-s5.trf",
];

/// `us-chess/swiss` and `us-chess/round-robin` written as codes rank every
/// chess example as the rulesets do, with or without PTS in the list.
#[test]
fn us_chess_codes_rank_as_the_shipped_rulesets() {
    let swiss = shipped("us-chess/swiss");
    let round_robin = shipped("us-chess/round-robin");
    for path in CHESS {
        let ev = load(path);
        for codes in [
            "MM,CUM,SOLK,OPPCUM",
            "PTS,MM,CUM,SOLK,OPPCUM",
            "pts,mm,cum,solk,oppcum",
        ] {
            let what = format!("{codes} on {path}");
            same_standings(&what, &ev, &listed(codes, "us-chess/lib"), &swiss);
        }
        for codes in ["SB,H2H", "PTS,SB,H2H"] {
            let what = format!("{codes} on {path}");
            same_standings(&what, &ev, &listed(codes, "us-chess/lib"), &round_robin);
        }
    }
}

const CARDS: [&str; 5] = [
    "examples/cards-swiss.toml",
    "examples/cards-swiss.csv",
    "examples/cards-unplayed.toml",
    "tests/fixtures/generated/cards-swiss-p31-r5-s2.toml",
    "tests/fixtures/generated/cards-swiss-p48-r6-s1.json",
];

/// `cards/swiss` written as codes ranks every card example as it does.
#[test]
fn card_codes_rank_as_the_shipped_ruleset() {
    let swiss = shipped("cards/swiss");
    for path in CARDS {
        let ev = load(path);
        for codes in ["OMW%,GW%,OGW%", "MP,OMW%,GW%,OGW%", "mp,omw%,gw%,ogw%"] {
            let what = format!("{codes} on {path}");
            same_standings(&what, &ev, &listed(codes, "cards/lib"), &swiss);
        }
    }
}

/// Every code ranks higher-is-better, as its definition says; `/R`, where
/// a code takes it, ranks the other way. The primary scores and
/// head-to-head take no `/R`.
#[test]
fn each_code_ranks_its_way_and_r_reverses_it() {
    for (library, codes, fixed) in [
        ("us-chess/lib", "MM,SOLK,CUM,OPPCUM,SB", "PTS,H2H"),
        ("cards/lib", "MW%,OMW%,GW%,OGW%", "MP"),
    ] {
        let reversed: Vec<String> = codes.split(',').map(|c| format!("{c}/R")).collect();
        for (items, want) in [
            (format!("{fixed},{codes}"), Direction::Desc),
            (reversed.join(","), Direction::Asc),
        ] {
            let rs = listed(&items, library);
            let main = &rs.procs[rs.standings.expect("standings")];
            for step in main
                .steps
                .iter()
                .filter(|s| s.label.ends_with("/R") || want == Direction::Desc)
            {
                assert_eq!(step.dir, want, "{library} {}", step.label);
            }
        }
        for code in fixed.split(',') {
            let d = list(&format!("{code}/R"), library).expect_err("no /R");
            assert_eq!(
                d.code,
                "tb::descriptors::invalid_combination",
                "{}",
                d.plain()
            );
        }
    }
}

/// A misspelt code is named with the one meant and the library's codes.
#[test]
fn a_misspelt_code_gets_a_did_you_mean() {
    for (library, typo, meant, all) in [
        (
            "us-chess/lib",
            "SOLKF",
            "SOLK",
            "PTS MM SOLK CUM OPPCUM SB H2H",
        ),
        (
            "us-chess/lib",
            "OPCUM",
            "OPPCUM",
            "PTS MM SOLK CUM OPPCUM SB H2H",
        ),
        ("cards/lib", "OMW", "OMW%", "MP MW% OMW% GW% OGW%"),
    ] {
        let d = list(typo, library).expect_err("unknown code");
        assert_eq!(d.code, "tb::descriptors::unknown_code");
        let plain = d.plain();
        assert!(
            plain.contains(&format!("did you mean `{meant}`?")),
            "{plain}"
        );
        assert!(plain.contains(&format!("the codes are: {all}")), "{plain}");
    }
}

/// The bridge libraries declare no codes (bridge has no customary list):
/// a list over them says that a `codes` declaration is missing.
#[test]
fn bridge_libraries_declare_no_codes() {
    for library in ["wbf/lib", "ebu/lib"] {
        assert!(shipped(library).codes.is_empty(), "{library}");
        let d = list("IMPQ", library).expect_err("no codes");
        assert_eq!(d.code, "tb::check::codes", "{}", d.plain());
    }
}

/// The CSV rows of `tb eval` with `--tiebreaks`, without the label of what
/// decided each (the codes against the ruleset's labels), and the header.
fn csv(args: &[&str]) -> (String, Vec<String>) {
    let o = tb(args);
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut lines = out.lines();
    let header = lines.next().unwrap_or("").to_string();
    let rows = lines
        .map(|l| {
            let (row, decided) = l.rsplit_once(',').unwrap_or((l, ""));
            let cite = decided.split_once(" (").map_or("", |(_, c)| c);
            format!("{row} ({cite}")
        })
        .collect();
    (header, rows)
}

/// Through the real binary: `--library` with each library's list prints
/// the ruleset's standings under the codes.
#[test]
fn the_cli_ranks_by_each_librarys_codes() {
    for (library, codes, ruleset, data, header) in [
        (
            "us-chess/lib",
            "MM,CUM,SOLK,OPPCUM",
            "us-chess/swiss",
            "examples/chess-swiss.toml",
            "rank,id,name,PTS,MM,CUM,SOLK,OPPCUM,decided_by",
        ),
        (
            "cards/lib",
            "OMW%,GW%,OGW%",
            "cards/swiss",
            "examples/cards-swiss.toml",
            "rank,id,name,MP,OMW%,GW%,OGW%,decided_by",
        ),
    ] {
        let (got_header, got) = csv(&[
            "eval",
            "--library",
            library,
            "--tiebreaks",
            codes,
            data,
            "--format",
            "csv",
        ]);
        let (_, want) = csv(&["eval", ruleset, data, "--format", "csv"]);
        assert_eq!(got_header, header);
        assert_eq!(got, want, "{library} {codes}");
    }
    // The brief's own order, and the note on the score put first.
    let o = tb(&[
        "eval",
        "--library",
        "us-chess/lib",
        "--tiebreaks",
        "MM,SOLK,CUM,OPPCUM",
        "examples/chess-swiss.toml",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        out.contains("Note: the list has no PTS: participants are ranked on score first"),
        "{out}"
    );
    assert!(
        out.contains("US Chess tie-breaks MM,SOLK,CUM,OPPCUM"),
        "{out}"
    );
}

// ------------------------------------------------------------------ README

/// The README's code blocks of one language, in order.
fn readme_blocks(lang: &str) -> Vec<String> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let text = std::fs::read_to_string(path).unwrap();
    text.split(&format!("```{lang}\n"))
        .skip(1)
        .filter_map(|b| b.split_once("\n```").map(|(b, _)| format!("{b}\n")))
        .collect()
}

/// The README's club library of codes checks, its list prints what the
/// README shows, and a ruleset that imports it ranks by `standings codes`.
#[test]
fn readme_club_codes_run_as_shown() {
    let lib = readme_blocks("tb")
        .into_iter()
        .find(|b| b.contains("codes \"Club tie-breaks\""))
        .expect("the README's club library of codes");
    let shown = readme_blocks("text")
        .into_iter()
        .find(|b| b.contains("Club tie-breaks OPP/C1,WIN,OPP"))
        .expect("the README's output of the club's list");
    let dir = std::env::temp_dir().join(format!("tb-readme-codes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("club-codes.tb"), lib).unwrap();
    let ruleset = "import \"club-codes\"\nstandings codes \"OPP/C1,WIN,OPP\"\n";
    std::fs::write(dir.join("club.tb"), ruleset).unwrap();
    let (lib, club) = (dir.join("club-codes.tb"), dir.join("club.tb"));
    let (lib, club) = (lib.to_str().unwrap(), club.to_str().unwrap());
    let o = tb(&["check", lib, club]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let data = "examples/chess-swiss.toml";
    let args = ["--tiebreaks", "OPP/C1,WIN,OPP", data, "--seed", "7"];
    let o = tb(&[&["eval", "--library", lib][..], &args[..]].concat());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for line in shown.lines().filter(|l| !l.starts_with("...")) {
        assert!(
            out.contains(line),
            "README line not in output: {line:?}\n{out}"
        );
    }
    let by_ruleset = tb(&["eval", club, data, "--seed", "7"]);
    // The title and the `Ruleset` line name the list or the file; the rest is the same.
    let table = |s: &str| {
        let lines = s.lines().skip(1).filter(|l| !l.starts_with("Ruleset "));
        lines.collect::<Vec<_>>().join("\n")
    };
    assert_eq!(
        table(&String::from_utf8_lossy(&by_ruleset.stdout)),
        table(&out)
    );
    for (list, says) in [
        ("OPP/C4", "`/C4` is outside what `/C` accepts"),
        ("WIN/C1", "WIN does not take `/C1`"),
    ] {
        let o = tb(&["eval", "--library", lib, "--tiebreaks", list, data]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{err}");
    }
    std::fs::remove_dir_all(&dir).ok();
}
