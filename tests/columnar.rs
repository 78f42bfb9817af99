//! The columnar evaluator (`src/columns.rs`) against the per-participant
//! reference evaluator: every shipped ruleset and FIDE's whole list of
//! tie-breaks, over the shipped examples, the oracle fixtures and generated
//! events, give the same standings, values and explanations — or fail with
//! the same error. (The fuzz harness makes the same comparison on every
//! random ruleset and event it ranks.)

use crate::common;
use tb::diag::Source;
use tb::model::Event;
use tb::num::Num;
use tb::plan::Ruleset;
use tb::rank::Options;

fn events() -> Vec<(String, Event)> {
    let mut out = Vec::new();
    let mut files: Vec<_> = ["examples", "tests/fixtures/oracle"]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).expect("dir").flatten())
        .map(|e| e.path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("toml" | "trf" | "csv")
            ) || p.to_string_lossy().ends_with("chess-swiss.json")
        })
        .collect();
    files.sort();
    // Two of the oracle's chess events are enough beside the examples.
    let mut oracle = 0;
    files.retain(|p| {
        let from_oracle = p.starts_with("tests/fixtures/oracle");
        oracle += usize::from(from_oracle);
        !from_oracle || oracle <= 2
    });
    for p in files {
        let text = std::fs::read_to_string(&p).expect("read");
        let name = p.to_string_lossy().into_owned();
        if let Ok(ev) = tb::load::load(&Source::new(&name, text)) {
            out.push((name, ev));
        }
    }
    let load = |name: &str, text: String| {
        tb::load::load(&Source::new(name, text)).unwrap_or_else(|d| panic!("{}", d.plain()))
    };
    let chess = tb_gen::chess_swiss(90, 7, 11);
    out.push((
        "gen.trf".into(),
        load("gen.trf", chess.to_trf().expect("trf")),
    ));
    out.push((
        "gen-cards.json".into(),
        load("gen-cards.json", tb_gen::cards_swiss(60, 6, 11).to_json()),
    ));
    out
}

fn rulesets() -> Vec<(String, Ruleset)> {
    let mut out = common::shipped_rulesets();
    if tb::shipped::get("fide/lib").is_some() {
        // Every individual FIDE code, with modifiers, both editions.
        let codes = "BH/C1,FB,SB/M1,PS/C1,ARO,AOB,KS,TPR,PTP,APRO,APPO,WIN,WON,BPG,BWG,REP,STD,DE";
        let rated = [("unrated_rating".to_string(), Num::int(1000))];
        for (edition, params) in [("2024", &rated[..]), ("2026", &[][..])] {
            let rs = tb::check::check_list(
                Source::new("--tiebreaks", codes),
                "fide/codes",
                Some(edition),
                &tb::shipped::Shipped,
                params,
            )
            .unwrap_or_else(|d| panic!("{}", d.plain()));
            out.push((format!("{codes} {edition:?} {params:?}"), rs));
        }
    }
    out
}

#[test]
fn columnar_and_per_participant_evaluation_agree() {
    let meta = tb::render::Meta::default();
    let columnar = Options {
        lots_seed: Some(3),
        ..Default::default()
    };
    let reference = Options {
        per_participant: true,
        ..columnar.clone()
    };
    let mut compared = 0;
    for (ename, ev) in &events() {
        for (rname, rs) in &rulesets() {
            let a = tb::rank::rank(ev, rs, &columnar);
            let b = tb::rank::rank(ev, rs, &reference);
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    let json = |st| tb::render::render(st, ev, rs, &meta, tb::render::Format::Json);
                    assert_eq!(json(&a), json(&b), "{rname} on {ename}");
                    let explain = |st| {
                        tb::render::explain(st, ev, rs, &mut Default::default(), Default::default())
                    };
                    assert_eq!(explain(&a), explain(&b), "{rname} on {ename}");
                    compared += 1;
                }
                (Err(a), Err(b)) => assert_eq!(a.code, b.code, "{rname} on {ename}"),
                (a, b) => panic!(
                    "{rname} on {ename}: columnar {:?}, reference {:?}",
                    a.err().map(|d| d.code),
                    b.err().map(|d| d.code)
                ),
            }
        }
    }
    assert!(compared > 20, "only {compared} standings compared");
}

/// Columnar work shared among threads (each a fork of the evaluator over
/// its own runs of blocks of participants) gives exactly what one thread
/// gives, and what the reference evaluator gives, on an event large enough
/// for several blocks (about 2,048 rounds each: 4,500 rounds are three).
#[test]
fn threads_do_not_change_results() {
    let meta = tb::render::Meta::default();
    let text = tb_gen::chess_swiss(500, 9, 5).to_json();
    let ev =
        tb::load::load(&Source::new("gen.json", text)).unwrap_or_else(|d| panic!("{}", d.plain()));
    let mut chosen: Vec<(String, Ruleset)> = common::shipped_rulesets()
        .into_iter()
        .filter(|(name, _)| name == "us-chess/swiss")
        .collect();
    if tb::shipped::get("fide/lib").is_some() {
        // FIDE's tie-breaks but PTP and APPO (a search over a range of
        // ratings per participant, slow in a debug build).
        let codes = "BH/C1,FB,SB/M1,PS/C1,ARO,AOB,KS,TPR,APRO,WIN,WON,BPG,BWG,REP,STD,DE";
        chosen.push((codes.to_string(), fide_chain(codes)));
    }
    for (rname, rs) in &chosen {
        let run = |threads: Option<usize>, per_participant: bool| {
            let opts = Options {
                lots_seed: Some(3),
                threads,
                per_participant,
                ..Default::default()
            };
            let st = tb::rank::rank(&ev, rs, &opts).unwrap_or_else(|d| panic!("{}", d.plain()));
            (
                tb::render::render(&st, &ev, rs, &meta, tb::render::Format::Json),
                tb::render::explain(&st, &ev, rs, &mut Default::default(), Default::default()),
            )
        };
        let one = run(Some(1), false);
        for threads in [2, 3] {
            assert!(
                run(Some(threads), false) == one,
                "{rname}: {threads} threads differ from one"
            );
        }
        assert!(
            run(None, true) == one,
            "{rname}: columnar and per-participant evaluation differ"
        );
    }
}

/// The rows of an event of more than `PARALLEL_CELLS` values (3,000
/// participants × 7 columns) are filled in two halves at once when there
/// are threads: the same standings, values and explanation as one thread.
#[test]
fn rows_filled_in_two_halves_are_the_rows_of_one() {
    let Some((ev, rs)) = generated_with_fide_chain(3000, 5, 11) else {
        return;
    };
    let meta = tb::render::Meta::default();
    let run = |threads: usize| {
        let opts = Options {
            lots_seed: None,
            threads: Some(threads),
            per_participant: false,
            ..Default::default()
        };
        let st = tb::rank::rank(&ev, &rs, &opts).unwrap_or_else(|d| panic!("{}", d.plain()));
        assert_eq!(st.rows.len(), 3000);
        assert!(st.rows.iter().all(|r| r.values.len() == st.columns.len()));
        (
            tb::render::render(&st, &ev, &rs, &meta, tb::render::Format::Json),
            tb::render::explain(&st, &ev, &rs, &mut Default::default(), Default::default()),
        )
    };
    assert!(
        run(2) == run(1),
        "rows filled on two threads differ from one"
    );
}

/// CSV prints no notes, so its ranking traces why a value is undefined
/// only where the value decided a place (`only_deciding_reasons`): the
/// same standings and CSV, the same undefined values listed, and every
/// deciding one with the reason a full trace gives.
#[test]
fn tracing_only_deciding_reasons_changes_nothing_printed() {
    let Some((ev, rs)) = generated_with_fide_chain(300, 7, 5) else {
        return;
    };
    let meta = tb::render::Meta::default();
    let run = |only: bool| {
        let opts = Options {
            only_deciding_reasons: only,
            ..Default::default()
        };
        tb::rank::rank(&ev, &rs, &opts).unwrap_or_else(|d| panic!("{}", d.plain()))
    };
    let (full, lean) = (run(false), run(true));
    assert!(
        !full.undefined.is_empty(),
        "the event has undefined values (ARO)"
    );
    let csv = |st| tb::render::render(st, &ev, &rs, &meta, tb::render::Format::Csv);
    assert_eq!(csv(&full), csv(&lean));
    assert_eq!(full.undefined.len(), lean.undefined.len());
    for (f, l) in full.undefined.iter().zip(&lean.undefined) {
        assert_eq!(
            (f.pid, &f.criterion, f.decided),
            (l.pid, &l.criterion, l.decided)
        );
        if f.decided {
            assert_eq!(f.reason, l.reason);
        } else {
            assert_eq!(l.reason, None, "not traced");
        }
    }
}

/// A generated chess Swiss (`players` × `rounds`, `seed`) with the FIDE
/// chain `BH/C1,BH,SB,PS,ARO,DE`; None where the FIDE library is not built in.
fn generated_with_fide_chain(
    players: usize,
    rounds: u32,
    seed: u64,
) -> Option<(tb::model::Event, Ruleset)> {
    tb::shipped::get("fide/lib")?;
    let text = tb_gen::chess_swiss(players, rounds, seed).to_json();
    let ev =
        tb::load::load(&Source::new("gen.json", text)).unwrap_or_else(|d| panic!("{}", d.plain()));
    Some((ev, fide_chain("BH/C1,BH,SB,PS,ARO,DE")))
}

/// The FIDE chain of descriptors `codes` (2024 edition), as `tb eval
/// --tiebreaks CODES --param unrated_rating=1000` builds it.
fn fide_chain(codes: &str) -> Ruleset {
    let rated = [("unrated_rating".to_string(), Num::int(1000))];
    tb::check::check_list(
        Source::new("--tiebreaks", codes),
        "fide/codes",
        Some("2024"),
        &tb::shipped::Shipped,
        &rated,
    )
    .unwrap_or_else(|d| panic!("{}", d.plain()))
}
