//! The benchmarks' generated events at small size (200 players × 7 rounds):
//! they load from every rendering, evaluate with the shipped rulesets, and
//! the results are deterministic and exact — the TRF and the JSON of the
//! same chess event give the same standings, the JSON and the TOML of a
//! card-game event load to the same event, and every score equals the
//! generator's own tally.

use tb::diag::Source;
use tb::eval::Value;
use tb::model::{Event, Status};
use tb::num::Num;
use tb::plan::Ruleset;
use tb::rank::{Options, Standings};
use tb_gen::{self as gen, ByeKind, Res, Swiss};

const PLAYERS: usize = 200;
const ROUNDS: u32 = 7;
const SEED: u64 = 2025;

fn load(name: &str, text: &str) -> Event {
    tb::load::load(&Source::new(name, text.to_string()))
        .unwrap_or_else(|d| panic!("{name} does not load: {}", d.plain()))
}

fn ruleset(name: &str) -> Ruleset {
    let root = crate::files::load_root(name).unwrap_or_else(|d| panic!("{name}: {}", d.plain()));
    tb::check::check(root, &tb::shipped::Shipped, &[])
        .unwrap_or_else(|d| panic!("{name}: {}", d.plain()))
}

/// Rank with the columnar evaluator, checked against the per-participant
/// reference evaluator (the benchmarks time the former).
fn rank(ev: &Event, rs: &Ruleset) -> Standings {
    let st =
        tb::rank::rank(ev, rs, &Options::default()).unwrap_or_else(|d| panic!("{}", d.plain()));
    let reference = Options {
        per_participant: true,
        ..Default::default()
    };
    let r = tb::rank::rank(ev, rs, &reference).unwrap_or_else(|d| panic!("{}", d.plain()));
    assert_eq!(
        st.rows, r.rows,
        "columnar and per-participant evaluation differ"
    );
    st
}

/// Rank, id and every value of every row: what a reader of the standings sees.
fn table(ev: &Event, st: &Standings) -> Vec<(usize, String, Vec<Value>)> {
    st.rows
        .iter()
        .map(|r| (r.rank, ev.participants[r.pid].id.clone(), r.values.clone()))
        .collect()
}

fn column(st: &Standings, label: &str) -> usize {
    st.columns
        .iter()
        .position(|c| c.label == label)
        .unwrap_or_else(|| panic!("no column {label}"))
}

/// The generator's score of participant `i` as an exact number.
fn tally(g: &Swiss, i: usize) -> Num {
    Num::parse(&g.score_text(i)).expect("a score")
}

fn chess() -> Swiss {
    gen::chess_swiss(PLAYERS, ROUNDS, SEED)
}

fn cards() -> Swiss {
    gen::cards_swiss(PLAYERS, ROUNDS, SEED)
}

#[test]
fn generation_is_deterministic() {
    let (a, b) = (chess(), chess());
    assert_eq!(a.to_trf().unwrap(), b.to_trf().unwrap());
    assert_eq!(a.to_json(), b.to_json());
    assert_eq!(cards().to_toml(), cards().to_toml());
    let other = gen::chess_swiss(PLAYERS, ROUNDS, SEED + 1);
    assert_ne!(a.to_json(), other.to_json());
}

#[test]
fn chess_event_has_what_the_benchmarks_need() {
    let g = chess();
    let s = &g.stats;
    assert!(s.half_byes > 5, "{s:?}");
    assert!(s.pairing_byes > 0, "{s:?}");
    assert!(s.forfeits > 0, "{s:?}");
    assert!(s.withdrawals > 3, "{s:?}");
    assert!(s.draws > 50, "{s:?}");
    assert_eq!(s.repeat_pairings, 0, "{s:?}");
    // Everyone still in the event has exactly one game or bye per round.
    for (r, round) in g.rounds.iter().enumerate() {
        let mut seen = vec![0; PLAYERS];
        for x in round.games.iter().flat_map(|x| [x.home, x.away]) {
            seen[x as usize] += 1;
        }
        for b in &round.byes {
            seen[b.who as usize] += 1;
        }
        for (p, &k) in seen.iter().enumerate() {
            let active = g.players[p].withdrawn_after.is_none_or(|w| w as usize > r);
            assert_eq!(k, usize::from(active), "player {} round {}", p + 1, r + 1);
        }
        let pairing = round
            .byes
            .iter()
            .filter(|b| b.kind == ByeKind::Pairing)
            .count();
        assert!(pairing <= 1);
    }
    // No two players meet twice.
    let mut pairs: Vec<(u32, u32)> = g
        .rounds
        .iter()
        .flat_map(|r| {
            r.games
                .iter()
                .map(|x| (x.home.min(x.away), x.home.max(x.away)))
        })
        .collect();
    let n = pairs.len();
    pairs.sort_unstable();
    pairs.dedup();
    assert_eq!(pairs.len(), n);
}

#[test]
fn chess_trf_and_json_give_the_same_event_and_standings() {
    let g = chess();
    let trf = load("gen.trf", &g.to_trf().unwrap());
    let json = load("gen.json", &g.to_json());
    let toml = load("gen.toml", &g.to_toml());
    assert!(trf.warnings.is_empty(), "{:?}", trf.warnings);
    assert!(json.warnings.is_empty(), "{:?}", json.warnings);
    assert_eq!(json, toml);
    assert_eq!(trf.participants.len(), PLAYERS);
    assert_eq!(trf.rounds, ROUNDS);
    for (i, (a, b)) in trf.participants.iter().zip(&json.participants).enumerate() {
        assert_eq!(a.id, b.id);
        assert_eq!(a.name, b.name);
        assert_eq!(a.rating, b.rating);
        assert_eq!(a.recorded_score, Some(tally(&g, i)));
        assert_eq!(a.recorded_score, b.recorded_score);
        assert_eq!(a.entries, b.entries, "participant {}", a.id);
    }
    // The model keeps every kind of round apart.
    let count = |st: Status| {
        trf.participants
            .iter()
            .flat_map(|p| &p.entries)
            .filter(|e| e.status == st)
            .count()
    };
    for st in [
        Status::Played,
        Status::ForfeitWin,
        Status::ForfeitLoss,
        Status::PairingBye,
        Status::HalfBye,
        Status::Absent,
    ] {
        assert!(count(st) > 0, "no {st:?} round");
    }

    let rs = ruleset("us-chess/swiss");
    let (a, b) = (rank(&trf, &rs), rank(&json, &rs));
    assert_eq!(table(&trf, &a), table(&json, &b));
    // Deterministic: the same again, trace and all.
    let again = rank(&trf, &rs);
    assert_eq!(a.rows, again.rows);
    assert_eq!(a.trace, again.trace);
    // Exact: the score column is the generator's tally, and standings
    // are ordered by it.
    let col = column(&a, "Score");
    for row in &a.rows {
        let i = row.pid;
        assert_eq!(
            row.values[col],
            Value::Num(tally(&g, i)),
            "player {}",
            i + 1
        );
    }
    for w in a.rows.windows(2) {
        assert!(g.scores[w[0].pid] >= g.scores[w[1].pid]);
        assert!(w[0].rank <= w[1].rank);
    }
}

/// The FIDE rulesets: the shipped Swiss order and the benchmarks' six-step
/// chain (`tb eval --tiebreaks BH/C1,BH,SB,PS,ARO,DE --param
/// unrated_rating=1000`); the TRF and the JSON agree.
#[test]
fn chess_fide_chains() {
    if tb::shipped::get("fide/lib").is_none() {
        eprintln!("fide/lib is not shipped yet: skipped");
        return;
    }
    let g = chess();
    let trf = load("gen.trf", &g.to_trf().unwrap());
    let json = load("gen.json", &g.to_json());
    let rated = [("unrated_rating".to_string(), Num::int(1000))];
    let mut six = tb::check::check_list(
        Source::new("--tiebreaks", "BH/C1,BH,SB,PS,ARO,DE"),
        "fide/codes",
        None,
        &tb::shipped::Shipped,
        &rated,
    )
    .unwrap_or_else(|d| panic!("{}", d.plain()));
    if let Some(eds) = six.editions.clone() {
        let (year, _) = eds.for_date(trf.start_date.as_deref());
        let (other, _) = eds.for_date(json.start_date.as_deref());
        assert_eq!(year, other, "both formats give the same edition");
        for p in six.params.iter_mut().filter(|p| p.name == eds.param) {
            p.value = Num::int(i64::from(year));
        }
    }
    let mut rulesets = vec![six];
    if tb::shipped::get("fide/swiss").is_some() {
        rulesets.push(ruleset("fide/swiss"));
    }
    for rs in &rulesets {
        let (a, b) = (rank(&trf, rs), rank(&json, rs));
        assert_eq!(table(&trf, &a), table(&json, &b));
        assert_eq!(a.rows, rank(&trf, rs).rows);
        // ARO is computed (the unrated are rated 1000 in the chain).
        if let Some(aro) = a.columns.iter().position(|c| c.label == "ARO") {
            assert!(a
                .rows
                .iter()
                .any(|r| matches!(r.values[aro], Value::Num(_))));
        }
    }
}

#[test]
fn cards_json_and_toml_load_alike_and_evaluate_exactly() {
    let g = cards();
    let s = &g.stats;
    assert!(s.drawn_games > 0 && s.draws > 0, "{s:?}");
    assert!(
        s.pairing_byes > 0 && s.withdrawals > 0 && s.forfeits > 0,
        "{s:?}"
    );
    assert_eq!(s.repeat_pairings, 0, "{s:?}");
    let unfinished = g
        .rounds
        .iter()
        .flat_map(|r| &r.games)
        .filter(|x| {
            matches!(
                x.res,
                Res::Cards {
                    home: 1,
                    away: 1,
                    ..
                }
            )
        })
        .count();
    assert!(unfinished > 0);

    let json = load("gen.json", &g.to_json());
    let toml = load("gen.toml", &g.to_toml());
    assert_eq!(json, toml);
    assert!(json.warnings.is_empty(), "{:?}", json.warnings);

    let rs = ruleset("cards/swiss");
    let a = rank(&json, &rs);
    let b = rank(&toml, &rs);
    assert_eq!(table(&json, &a), table(&toml, &b));
    assert_eq!(a.rows, rank(&json, &rs).rows);
    let mp = column(&a, "MP");
    for row in &a.rows {
        assert_eq!(row.values[mp], Value::Num(tally(&g, row.pid)));
    }
    // Percentages are exact fractions: OMW% of everyone who played is a
    // mean of fractions with denominators 3 × rounds, never a float.
    let omw = column(&a, "OMW%");
    assert!(a.rows.iter().any(|r| matches!(&r.values[omw],
        Value::Num(n) if !n.is_integer())));
}

#[test]
fn bridge_teams_load_with_exact_vps() {
    let g = gen::bridge_swiss_teams(60, ROUNDS, SEED);
    let json = load("gen.json", &g.to_json());
    let toml = load("gen.toml", &g.to_toml());
    assert_eq!(json, toml);
    assert!(json.warnings.is_empty(), "{:?}", json.warnings);
    let vp = json.find_unit("vp").expect("a vp unit");
    let twenty = Num::int(20);
    for (i, p) in json.participants.iter().enumerate() {
        let mut sum = Num::ZERO;
        for e in &p.entries {
            sum = sum.add(e.points).unwrap();
            if e.status == Status::Played {
                let (mine, theirs) = (e.unit(vp).unwrap(), e.unit_against(vp).unwrap());
                assert_eq!(mine.add(theirs).unwrap(), twenty);
                assert_eq!(e.points, mine);
            }
        }
        assert_eq!(sum, tally(&g, i), "team {}", p.id);
    }
}
