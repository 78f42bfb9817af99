//! Descriptor syntax and chain tests.
use super::*;

fn list(s: &str) -> Result<Vec<Descriptor>, Diag> {
    parse_list(&Source::new("--tiebreaks", s))
}

fn codes(s: &str) -> Vec<&'static str> {
    match list(s) {
        Ok(_) => Vec::new(),
        Err(d) if d.related.is_empty() => vec![d.code],
        Err(d) => d.related.iter().map(|r| r.code).collect(),
    }
}

#[test]
fn reads_codes_and_modifiers() {
    let l = list("PTS, bh/c1,SB/M1 ,KS/L-1,DE/P,GE,FB/C2,AOB/F,KS/L60,KS/L+1.5").unwrap();
    assert_eq!(l.len(), 10);
    assert_eq!(l[1].text, "bh/c1");
    assert_eq!(l[1].cut, 1);
    assert_eq!(l[2].median, 1);
    assert_eq!(l[3].limit, Some(Limit::Shift(Num::ratio(-1, 2).unwrap())));
    assert!(l[4].forfeits);
    assert_eq!(l[5].name, "REP");
    assert!(l[7].fore);
    assert_eq!(l[8].limit, Some(Limit::Percent(Num::int(60))));
    assert_eq!(l[9].limit, Some(Limit::Shift(Num::ratio(3, 2).unwrap())));
    assert_eq!(l[2].span, Span::new(11, 16));
}

#[test]
fn rejects_with_codes() {
    assert_eq!(codes("XYZ"), vec![E_UNKNOWN]);
    assert_eq!(codes("BH-C1"), vec![E_UNKNOWN]);
    assert_eq!(codes("EDE"), vec![E_TEAM]);
    assert_eq!(codes("BH:MP/C1"), vec![E_TEAM]);
    assert_eq!(codes("WIN/C1"), vec![E_INVALID]);
    assert_eq!(codes("BH/L-1"), vec![E_INVALID]);
    assert_eq!(codes("BH/C1/M1"), vec![E_INVALID]);
    assert_eq!(codes("BH/Cx"), vec![E_VALUE]);
    assert_eq!(codes("KS/L"), vec![E_VALUE]);
    assert_eq!(codes("BH/V2026"), vec![E_MODIFIER]);
    assert_eq!(codes("PTS,,BH"), vec![E_EMPTY]);
    assert_eq!(codes(""), vec![E_EMPTY]);
    assert_eq!(codes("XYZ,WIN/C1"), vec![E_UNKNOWN, E_INVALID]);
}

/// Each generated step ranks the way its code does (`step_expr`'s
/// lower-is-better flag), whether the direction comes from the FIDE
/// library's declaration or is written; `/R` reverses it, visibly
/// (`reversed` over a declared name).
#[test]
fn checks_agree() {
    for (lists, team) in [
        (
            "PTS,DE,WIN,WON,BPG,BWG,PS,REP,BH,BH/C1,AOB,FB,SB,SB/M1,KS,ARO,ARO/C1,TPR,PTP,APRO,APPO,STD,TPN,RTNG",
            false,
        ),
        ("MPTS,GPTS,MPVGP,BC,TBR,BBE,EMMSB,EGGSB/C1,SSSC,EDE", true),
    ] {
        for reverse in [false, true] {
            let text: Vec<String> = lists
                .split(',')
                .map(|c| {
                    if reverse && c != "PTS" && c != "MPTS" {
                        format!("{c}/R")
                    } else {
                        c.to_string()
                    }
                })
                .collect();
            let src = Source::new("--tiebreaks", text.join(","));
            let ds = parse_list_for(&src, team).expect("descriptors");
            let chain = Chain::new(ds.clone(), Edition::E2026);
            let rs = ruleset(&chain, &[]).unwrap_or_else(|d| panic!("{}", d.plain()));
            let main = &rs.procs[rs.standings.expect("standings")];
            for d in &ds {
                let (expr, asc, _) = step_expr(d);
                let step = main
                    .steps
                    .iter()
                    .find(|s| s.label == d.text)
                    .unwrap_or_else(|| panic!("no step for {}", d.text));
                let want = if asc != d.reverse {
                    crate::syntax::ast::Direction::Asc
                } else {
                    crate::syntax::ast::Direction::Desc
                };
                assert_eq!(step.dir, want, "{}", d.text);
                let written = chain.ruleset_text();
                if d.reverse && !expr.starts_with("sum(") {
                    assert!(step.reversed, "{} is written `reversed`", d.text);
                    assert!(written.contains(" reversed "), "{written}");
                }
            }
        }
    }
}

#[test]
fn editions_by_date() {
    let src = Source::new("t", format!("import \"{LIBRARY}\"\n"));
    let rs = crate::check::check(src, &crate::shipped::Shipped, &[]).expect("library");
    let editions = rs.editions.expect("fide/lib declares its editions");
    let ev = |d: Option<&str>| {
        let y = editions.for_date(d).0;
        Edition::parse(&y.to_string()).expect("an edition")
    };
    assert_eq!(ev(Some("2026/02/28")), Edition::E2024);
    assert_eq!(ev(Some("2026-03-01")), Edition::E2026);
    assert_eq!(ev(Some("01.03.2026")), Edition::E2026);
    assert_eq!(ev(Some("2024/08/01")), Edition::E2024);
    assert_eq!(ev(Some("soon")), Edition::E2026);
    assert_eq!(ev(None), Edition::E2026);
}
