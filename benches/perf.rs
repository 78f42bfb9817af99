//! `cargo bench`: loading and evaluating generated Swiss events at 1,000 × 9,
//! 10,000 × 15 and 100,000 × 15 (TRF: 9,999 players, its starting numbers
//! have four digits). See docs/performance.md for the figures and how to
//! reproduce them.
//!
//! * `load`: text → [`tb::model::Event`] (TRF16, native JSON).
//! * `eval`: [`tb::rank::rank`] over a loaded event — every metric, every
//!   step, the trace; rulesets are checked once, outside the timing.
//! * `total`: load and evaluate, what `tb eval` does apart from reading the
//!   file, checking the ruleset and printing.
//!
//! Chains: the card-game chain (`cards/swiss`), a US Chess chain
//! (`us-chess/swiss`), and a six-step FIDE chain with Article 16
//! (`BH/C1,BH,SB,PS,ARO,DE`, as `tb eval --tiebreaks` builds it over the
//! shipped `fide/lib`; skipped with a message when that library is absent).
//!
//! Inputs are generated in memory with `tb_gen` (seed 1) the first time a
//! size is needed; nothing is written to disk. Run one group with e.g.
//! `cargo bench --bench perf -- eval::fide` and shorten runs with
//! `--sample-count 5`.

use divan::Bencher;
use std::sync::{Arc, Mutex, OnceLock};
use tb::diag::Source;
use tb::model::Event;
use tb::plan::Ruleset;
use tb_gen::Swiss;

// The binary's allocator and settings, so that the figures are the binary's.
#[path = "../src/alloc.rs"]
mod alloc;
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    alloc::keep_freed_pages();
    divan::main();
}

/// The three sizes of the issue; TRF has at most 9,999 players.
const SIZES: &[&str] = &["1000x9", "10000x15", "100000x15"];
const TRF_SIZES: &[&str] = &["1000x9", "9999x15"];
const SEED: u64 = 1;
/// The FIDE chain: six steps after points, with Article 16 throughout.
const FIDE_CHAIN: &str = "BH/C1,BH,SB,PS,ARO,DE";

fn size(s: &str) -> (usize, u32) {
    let (p, r) = s.split_once('x').expect("PLAYERSxROUNDS");
    (p.parse().expect("players"), r.parse().expect("rounds"))
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Chess,
    Cards,
}

/// A generated event in every form the benchmarks read.
struct Input {
    trf: Option<String>,
    json: String,
    event: Event,
}

type Cache = Mutex<Vec<((Kind, &'static str), Arc<Input>)>>;

/// Generated inputs, made once per kind and size. Only one 100,000-player
/// input is kept at a time, so memory stays near one event's worth.
fn input(kind: Kind, size_label: &'static str) -> Arc<Input> {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
    let mut c = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, i)) = c.iter().find(|(k, _)| *k == (kind, size_label)) {
        return i.clone();
    }
    let (players, rounds) = size(size_label);
    if players >= 100_000 {
        c.retain(|((_, s), _)| size(s).0 < 100_000);
    }
    let g: Swiss = match kind {
        Kind::Chess => tb_gen::chess_swiss(players, rounds, SEED),
        Kind::Cards => tb_gen::cards_swiss(players, rounds, SEED),
    };
    let trf = g.to_trf().ok();
    let json = g.to_json();
    let event = load_json(&json);
    let i = Arc::new(Input { trf, json, event });
    c.push(((kind, size_label), i.clone()));
    i
}

fn load_json(text: &str) -> Event {
    tb::load::native::load_json(&Source::new("gen.json", text.to_string()))
        .unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// A source for a loader. The text is shared (`Arc<str>`), so making one
/// costs a copy of the text; the benchmarks make it outside the timing.
fn source(name: &str, text: &str) -> Source {
    Source::new(name, text)
}

fn shipped(name: &str) -> Ruleset {
    let root = tb::shipped::source(name).unwrap_or_else(|| panic!("no shipped ruleset {name}"));
    tb::check::check(root, &tb::shipped::Shipped, &[]).unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// The FIDE chain as `tb eval --tiebreaks BH/C1,BH,SB,PS,ARO,DE
/// --param unrated_rating=1000` builds it,
/// under the edition the event's start date selects; `None` (with a
/// message) while `fide/lib` is not shipped.
fn fide(event: &Event) -> Option<Ruleset> {
    if fide_missing() {
        return None;
    }
    // Rating tie-breaks need every participant rated (Art. 10); the
    // generated events have 3% unrated players, rated 1000 here
    // (`--param unrated_rating=1000`), so ARO is computed for everyone.
    let rated = [("unrated_rating".to_string(), tb::num::Num::int(1000))];
    let list = Source::new("--tiebreaks", FIDE_CHAIN);
    let mut rs = tb::check::check_list(list, "fide/codes", None, &tb::shipped::Shipped, &rated)
        .unwrap_or_else(|d| panic!("{}", d.plain()));
    // The edition in force on the event's start date, as `tb eval` picks it.
    if let Some(eds) = rs.editions.clone() {
        let (year, _) = eds.for_date(event.start_date.as_deref());
        for p in rs.params.iter_mut().filter(|p| p.name == eds.param) {
            p.value = tb::num::Num::int(i64::from(year));
        }
    }
    Some(rs)
}

fn fide_missing() -> bool {
    static MISSING: OnceLock<bool> = OnceLock::new();
    *MISSING.get_or_init(|| {
        let missing = tb::shipped::get("fide/lib").is_none();
        if missing {
            eprintln!("fide/lib is not shipped: the FIDE chain benchmarks are skipped");
        }
        missing
    })
}

fn rank(event: &Event, rs: &Ruleset) -> tb::rank::Standings {
    tb::rank::rank(event, rs, &tb::rank::Options::default())
        .unwrap_or_else(|d| panic!("{}", d.plain()))
}

mod load {
    use super::*;

    /// TRF16 chess (9,999 players at most).
    #[divan::bench(args = TRF_SIZES, max_time = 20)]
    fn trf_chess(b: Bencher, size: &'static str) {
        let i = input(Kind::Chess, size);
        let text = i.trf.as_deref().expect("a TRF rendering");
        b.with_inputs(|| source("gen.trf", text))
            .bench_local_refs(|s| tb::load::trf::load_trf(s).expect("loads"));
    }

    /// Native JSON chess.
    #[divan::bench(args = SIZES, max_time = 20)]
    fn json_chess(b: Bencher, size: &'static str) {
        let i = input(Kind::Chess, size);
        b.with_inputs(|| source("gen.json", &i.json))
            .bench_local_refs(|s| tb::load::native::load_json(s).expect("loads"));
    }

    /// Native JSON card-game Swiss.
    #[divan::bench(args = SIZES, max_time = 20)]
    fn json_cards(b: Bencher, size: &'static str) {
        let i = input(Kind::Cards, size);
        b.with_inputs(|| source("gen.json", &i.json))
            .bench_local_refs(|s| tb::load::native::load_json(s).expect("loads"));
    }
}

mod eval {
    use super::*;

    /// `cards/swiss`: MP, OMW%, GW%, OGW%.
    #[divan::bench(args = SIZES, max_time = 20)]
    fn cards_swiss(b: Bencher, size: &'static str) {
        let i = input(Kind::Cards, size);
        let rs = shipped("cards/swiss");
        b.bench_local(|| rank(&i.event, &rs));
    }

    /// `us-chess/swiss`: score, Modified Median, Cumulative, Solkoff, Opp. Cumulative.
    #[divan::bench(args = SIZES, max_time = 20)]
    fn us_chess_swiss(b: Bencher, size: &'static str) {
        let i = input(Kind::Chess, size);
        let rs = shipped("us-chess/swiss");
        b.bench_local(|| rank(&i.event, &rs));
    }

    /// FIDE `BH/C1,BH,SB,PS,ARO,DE` with Article 16.
    #[divan::bench(args = SIZES, max_time = 20, ignore = fide_missing())]
    fn fide(b: Bencher, size: &'static str) {
        let i = input(Kind::Chess, size);
        let Some(rs) = super::fide(&i.event) else {
            return;
        };
        b.bench_local(|| rank(&i.event, &rs));
    }
}

mod total {
    use super::*;

    /// TRF → standings with the FIDE chain: the 50 ms target at 9,999 × 15.
    #[divan::bench(args = TRF_SIZES, max_time = 20, ignore = fide_missing())]
    fn fide_trf(b: Bencher, size: &'static str) {
        let i = input(Kind::Chess, size);
        let Some(rs) = fide(&i.event) else { return };
        let text = i.trf.as_deref().expect("a TRF rendering");
        b.with_inputs(|| source("gen.trf", text))
            .bench_local_refs(|s| rank(&tb::load::trf::load_trf(s).expect("loads"), &rs));
    }

    /// Native JSON → standings with the FIDE chain: the 1 s target at 100,000 × 15.
    #[divan::bench(args = SIZES, max_time = 20, ignore = fide_missing())]
    fn fide_json(b: Bencher, size: &'static str) {
        let i = input(Kind::Chess, size);
        let Some(rs) = fide(&i.event) else { return };
        b.with_inputs(|| source("gen.json", &i.json))
            .bench_local_refs(|s| rank(&tb::load::native::load_json(s).expect("loads"), &rs));
    }

    /// Native JSON → standings, card-game chain.
    #[divan::bench(args = SIZES, max_time = 20)]
    fn cards_json(b: Bencher, size: &'static str) {
        let i = input(Kind::Cards, size);
        let rs = shipped("cards/swiss");
        b.with_inputs(|| source("gen.json", &i.json))
            .bench_local_refs(|s| rank(&tb::load::native::load_json(s).expect("loads"), &rs));
    }

    /// TRF → standings, US Chess chain.
    #[divan::bench(args = TRF_SIZES, max_time = 20)]
    fn us_chess_trf(b: Bencher, size: &'static str) {
        let i = input(Kind::Chess, size);
        let rs = shipped("us-chess/swiss");
        let text = i.trf.as_deref().expect("a TRF rendering");
        b.with_inputs(|| source("gen.trf", text))
            .bench_local_refs(|s| rank(&tb::load::trf::load_trf(s).expect("loads"), &rs));
    }
}
