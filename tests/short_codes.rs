//! Short codes declared in the language (`modifier`, `code`, `qualifier`,
//! `codes`): FIDE's MTB26 vocabulary in `rulesets/fide/codes.tb` and
//! `team-codes.tb`, a user's own library of codes, lists in a procedure and
//! as the standings, and the diagnostics of each slip.

use crate::common::{inline, inline_errors, order, rank, tb, Ev};
use tb::diag::{Diag, Source};
use tb::plan::Ruleset;
use tb::syntax::ast::Direction;

fn list(codes: &str, library: &str, edition: Option<&str>) -> Result<Ruleset, Diag> {
    tb::check::check_list(
        Source::new("--tiebreaks", codes),
        library,
        edition,
        &tb::shipped::Shipped,
        &[],
    )
}

fn error_codes(r: Result<Ruleset, Diag>) -> Vec<&'static str> {
    match r {
        Ok(_) => Vec::new(),
        Err(d) if d.related.is_empty() => vec![d.code],
        Err(d) => d.related.iter().map(|r| r.code).collect(),
    }
}

/// Each FIDE code ranks the way the regulations say (DE, TPN, Board Count
/// and EDE: lower is better; the rest higher), whether the direction comes
/// from the library's declaration or the code's step writes it; `/R`
/// reverses every one.
#[test]
fn every_fide_code_ranks_its_way_and_r_reverses_it() {
    let lower = ["DE", "TPN", "BC", "EDE"];
    for (codes, library) in [
        (
            "PTS,DE,WIN,WON,BPG,BWG,PS,REP,BH,BH/C1,AOB,FB,SB,SB/M1,KS,ARO,ARO/C1,TPR,PTP,APRO,APPO,STD,TPN,RTNG",
            "fide/codes",
        ),
        (
            "MPTS,GPTS,MPVGP,BC,TBR,BBE,EMMSB,EGGSB/C1,SSSC,EDE",
            "fide/team-codes",
        ),
    ] {
        for reverse in [false, true] {
            let items: Vec<String> = codes
                .split(',')
                .map(|c| match reverse && c != "PTS" && c != "MPTS" {
                    true => format!("{c}/R"),
                    false => c.to_string(),
                })
                .collect();
            let rs = list(&items.join(","), library, Some("2026"))
                .unwrap_or_else(|d| panic!("{}", d.plain()));
            let main = &rs.procs[rs.standings.expect("standings")];
            for item in &items {
                let step = main
                    .steps
                    .iter()
                    .find(|s| &s.label == item)
                    .unwrap_or_else(|| panic!("no step for {item}"));
                let code = item.split('/').next().unwrap_or("");
                let asc = lower.contains(&code) != item.ends_with("/R");
                let want = if asc { Direction::Asc } else { Direction::Desc };
                assert_eq!(step.dir, want, "{item}");
            }
        }
    }
}

/// Every code takes every modifier it declares, with each form of
/// argument: the steps it then stands for check.
#[test]
fn every_fide_code_takes_each_of_its_modifiers() {
    let samples = [
        ("C", "C1"),
        ("M", "M2"),
        ("P", "P"),
        ("F", "F"),
        ("R", "R"),
        ("L", "L60"),
        ("L", "L-1"),
        ("L", "L+1.5"),
    ];
    for library in ["fide/codes", "fide/team-codes"] {
        let rs = list("PTS", library, None).unwrap_or_else(|d| panic!("{}", d.plain()));
        for (code, _) in &rs.codes {
            let probe = list(&format!("{code}/Q"), library, None).expect_err("Q is no modifier");
            assert!(probe.plain().contains("modifier"), "{}", probe.plain());
            let mut tried = 0;
            for (_, m) in samples {
                let text = format!("{code}/{m}");
                match list(&text, library, Some("2024")) {
                    Ok(_) => tried += 1,
                    Err(d) => {
                        let codes = error_codes(Err(d.clone()));
                        assert!(
                            codes == ["tb::descriptors::invalid_combination"],
                            "{library} {text}: {}",
                            d.plain()
                        );
                    }
                }
            }
            assert!(tried >= 1, "{code} takes at least /R");
        }
    }
}

#[test]
fn slips_in_a_list_are_reported_with_their_codes() {
    let codes = |s: &str| error_codes(list(s, "fide/codes", None));
    assert_eq!(codes("XYZ"), ["tb::descriptors::unknown_code"]);
    assert_eq!(codes("BH-C1"), ["tb::descriptors::unknown_code"]);
    assert_eq!(codes("EDE"), ["tb::descriptors::unknown_code"]);
    assert_eq!(codes("BH:MP/C1"), ["tb::descriptors::team_code"]);
    assert_eq!(codes("WIN/C1"), ["tb::descriptors::invalid_combination"]);
    assert_eq!(codes("BH/L-1"), ["tb::descriptors::invalid_combination"]);
    assert_eq!(codes("BH/C1/M1"), ["tb::descriptors::invalid_combination"]);
    assert_eq!(codes("BH/C1/C2"), ["tb::descriptors::invalid_combination"]);
    assert_eq!(codes("BH/Cx"), ["tb::descriptors::bad_value"]);
    assert_eq!(codes("BH/C100"), ["tb::descriptors::bad_value"]);
    assert_eq!(codes("KS/L"), ["tb::descriptors::bad_value"]);
    assert_eq!(codes("KS/L101"), ["tb::descriptors::bad_value"]);
    assert_eq!(codes("KS/L60.5"), ["tb::descriptors::bad_value"]);
    assert_eq!(codes("BH/V2026"), ["tb::descriptors::unknown_modifier"]);
    assert_eq!(codes("PTS,,BH"), ["tb::descriptors::empty"]);
    assert_eq!(codes(""), ["tb::descriptors::empty"]);
    assert_eq!(
        codes("XYZ,WIN/C1"),
        [
            "tb::descriptors::unknown_code",
            "tb::descriptors::invalid_combination"
        ]
    );
    let team = |s: &str| error_codes(list(s, "fide/team-codes", None));
    assert_eq!(team("EDET:MP/P,BH:GP/C1,MPVGP"), Vec::<&str>::new());
    assert_eq!(team("WIN:GP"), ["tb::descriptors::bad_value"]);
    assert_eq!(team("BH:XP"), ["tb::descriptors::bad_value"]);
    // A near miss names the code meant.
    let d = list("SBB", "fide/codes", None).expect_err("unknown");
    assert!(d.plain().contains("did you mean `SB`?"), "{}", d.plain());
}

/// The editions the codes' library declares choose by the event's date.
#[test]
fn editions_by_date() {
    let rs = list("PTS", "fide/codes", None).unwrap_or_else(|d| panic!("{}", d.plain()));
    let editions = rs.editions.expect("fide/codes declares its editions");
    let y = |d: Option<&str>| editions.for_date(d).0;
    assert_eq!(y(Some("2026/02/28")), 2024);
    assert_eq!(y(Some("2026-03-01")), 2026);
    assert_eq!(y(Some("01.03.2026")), 2026);
    assert_eq!(y(Some("2024/08/01")), 2024);
    assert_eq!(y(Some("soon")), 2026);
    assert_eq!(y(None), 2026);
}

/// A library of a club's own: codes over its own definitions, a modifier,
/// an alias; used from a procedure, as the standings, and by the CLI.
const CLUB: &str = r#"
title "Club codes"
metric wins_count "Wins" higher is better = count(r in rounds where r.win)
metric opp "Opp" higher is better = sum(r.opponent.score for r in rounds where r.has_opponent)

/// /R: the other way round.
modifier "R" reversed
/// /Wn: wins count n times.
modifier "W" whole weight where value >= 1 default 1

codes "Club tie-breaks" primary "PTS" otherwise shared

/// Points.
code "PTS" { step score desc }
/// Wins, weighted.
code "W" takes "W", "R" { step wins_count * weight desc }
/// Opponents' scores.
code "OPP" takes "R" { step opp }
/// Another name.
code "O" means "OPP"
"#;

fn four_players() -> Ev {
    let mut ev = Ev::chess(2);
    ev.game(1, "1", "2", "1-0");
    ev.game(1, "3", "4", "1/2-1/2");
    ev.game(2, "1", "3", "0-1");
    ev.game(2, "2", "4", "1-0");
    ev
}

#[test]
fn a_club_declares_its_own_codes() {
    let dir = std::env::temp_dir().join(format!("tb-short-codes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lib = dir.join("club.tb");
    std::fs::write(&lib, CLUB).unwrap();
    let data = dir.join("event.toml");
    std::fs::write(&data, four_players().toml()).unwrap();
    let (lib, data) = (lib.to_str().unwrap(), data.to_str().unwrap());
    let o = tb(&[
        "eval",
        "--library",
        lib,
        "--tiebreaks",
        "o,W/W2",
        data,
        "--format",
        "csv",
    ]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.lines().next().unwrap_or("").contains("o,W/W2"), "{out}");
    // The list had no PTS: it is put first, and a note says so.
    let o = tb(&["eval", "--library", lib, "--tiebreaks", "O", data]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("the list has no PTS: participants are ranked on points first"),
        "{out}"
    );
    // A code the library does not declare, with the library's list in the help.
    let o = tb(&["eval", "--library", lib, "--tiebreaks", "BH", data]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("the codes are: PTS W OPP O"), "{err}");
    // A misspelt shipped library gets the nearest.
    let o = tb(&["eval", "--library", "fide/code", "--tiebreaks", "PTS", data]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("did you mean `fide/codes`?"), "{err}");
    // --library belongs with a list, not a ruleset.
    let o = tb(&["eval", "fide/swiss", "--library", lib, data]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_list_among_a_procedures_steps_ranks_as_its_steps_written_out() {
    let ev = four_players().load();
    let by_codes = inline(
        "import \"fide/codes\"\nprocedure p { step tournament_score codes \"BH/C1,SB\" otherwise shared }\nstandings p\n",
    );
    let by_hand = inline(
        "import \"fide/lib\"\nprocedure p { step tournament_score step sum(cut_lowest(opponent_scores, 1)) desc step sonneborn_berger otherwise shared }\nstandings p\n",
    );
    assert_eq!(
        order(&ev, &rank(&ev, &by_codes)),
        order(&ev, &rank(&ev, &by_hand))
    );
    let steps: Vec<&str> = by_codes.procs[0]
        .steps
        .iter()
        .map(|s| s.label.as_str())
        .collect();
    assert_eq!(steps, ["PTS", "BH/C1", "SB"]);
    // The whole standings as a list.
    let rs = inline("import \"fide/codes\"\nstandings codes \"PTS,BH/C1,SB\"\n");
    assert_eq!(rs.title.as_deref(), Some("FIDE tie-breaks PTS,BH/C1,SB"));
    assert_eq!(
        order(&ev, &rank(&ev, &rs)),
        order(&ev, &rank(&ev, &by_hand))
    );
}

#[test]
fn declarations_that_cannot_work_are_errors() {
    let e = |s: &str| inline_errors(s);
    assert_eq!(
        e("code \"X\" takes \"Q\" { step 1 desc }"),
        ["tb::check::codes"]
    );
    assert_eq!(e("code \"X\" means \"Y\""), ["tb::check::codes"]);
    assert_eq!(e("modifier \"CC\" whole cut"), ["tb::check::codes"]);
    assert_eq!(e("standings codes \"BH\""), ["tb::check::codes"]);
    assert_eq!(
        e("procedure p { remaining codes otherwise shared }"),
        ["tb::check::codes"]
    );
    assert_eq!(
        e("code \"A\" { step 1 desc }\ncode \"a\" { step 2 desc }"),
        ["tb::check::duplicate_definition"]
    );
    // A code's own steps are checked where it is written, used or not.
    let d = tb::check::check(
        Source::new("lib.tb", "code \"X\" { step no_such_metric }\n"),
        &tb::shipped::Shipped,
        &[],
    )
    .expect_err("unknown name");
    let plain = d.plain();
    assert!(plain.contains("lib.tb:1:"), "{plain}");
    assert!(plain.contains("no_such_metric"), "{plain}");
}

/// `tb list --all` names the libraries with their counts; `tb check
/// LIBRARY --verbose` lists a library's codes with their documentation.
#[test]
fn the_cli_shows_which_codes_a_library_declares() {
    let o = tb(&["list", "--all"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success());
    let line = out
        .lines()
        .find(|l| l.starts_with("fide/codes "))
        .expect("fide/codes listed");
    assert!(line.contains(" codes)"), "{line}");
    let o = tb(&["check", "fide/codes", "--verbose"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("  BH       Buchholz (Art. 8.1)"), "{out}");
}
