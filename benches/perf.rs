//! `cargo bench`: loading and evaluating generated Swiss events at 1,000 × 9,
//! 10,000 × 15 and 100,000 × 15 (TRF: 9,999 players, its starting numbers
//! have four digits). See docs/performance.md for the figures and how to
//! reproduce them.
//!
//! * `load`: text → [`tb::model::Event`] (TRF16, native JSON, TOML, CSV),
//!   each format at the same sizes so that they compare (10,000 × 15 and
//!   40,000 × 5: issue #19 asks every loader within 2× of JSON); native
//!   JSON and TOML also through the spanned tree alone (`*_tree`), the
//!   cost of a single native path today (issue #31).
//! * `eval`: [`tb::rank::rank`] over a loaded event — every metric, every
//!   step, the trace; rulesets are checked once, outside the timing. The
//!   FIDE chain also with `--threads 1` (`fide_one_thread`): the default
//!   thread count must never be slower. Shipped chess rulesets with Direct
//!   Encounter first (`shipped_chess`) at 1,000 × 9 and 10,000 × 15.
//! * `check`: the shipped `fide/swiss` parsed and checked, and the FIDE
//!   chain as `--tiebreaks` builds it: the fixed cost of every run.
//! * `total`: load and evaluate, what `tb eval` does apart from reading the
//!   file, checking the ruleset and printing.
//! * `startup`: the fixed cost. A shipped library's syntax tree read from
//!   its compiled form against a parse of its text, and whole `tb`
//!   processes as a user runs them (`tb --version`, `tb check fide/swiss`,
//!   `tb eval` of a 1,000 × 9 TRF with the FIDE chain, default threads and
//!   one): start-up, page faults and exit included.
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
/// Sizes at which the card-game loaders (JSON, TOML, CSV) are compared.
const FORMAT_SIZES: &[&str] = &["1000x9", "10000x15", "40000x5"];
const SEED: u64 = 1;
/// Shipped chess rulesets (`RULESET@SIZE`) ranked by `eval::shipped_chess`.
const SHIPPED_CHESS: &[&str] = &[
    "fide/swiss@1000x9",
    "fide/swiss@10000x15",
    "fide/round-robin@1000x9",
    "fide/round-robin@10000x15",
    "us-chess/round-robin@1000x9",
    "us-chess/round-robin@10000x15",
];
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
    toml: String,
    /// The card-game event as a CSV match list (`None` for chess).
    csv: Option<String>,
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
    let toml = g.to_toml();
    let csv = (kind == Kind::Cards).then(|| to_csv(&json));
    let event = load_json(&json);
    let i = Arc::new(Input {
        trf,
        json,
        toml,
        csv,
        event,
    });
    c.push(((kind, size_label), i.clone()));
    i
}

/// A generated card-game event (native JSON) as a CSV match list, as
/// `benches/to_csv.py` writes it: tbgen writes no CSV. The player's id is
/// appended to each name, since generated names repeat and CSV knows a
/// player by name.
fn to_csv(json: &str) -> String {
    use serde_json::Value;
    let v: Value = serde_json::from_str(json).expect("generated JSON");
    let names: std::collections::HashMap<String, String> = v["participants"]
        .as_array()
        .expect("participants")
        .iter()
        .map(|p| {
            let name = p["name"].as_str().unwrap_or_default().replace(',', "");
            (p["id"].to_string(), format!("{name} {}", p["id"]))
        })
        .collect();
    let mut out = String::from("round,home,away,result\n");
    for r in v["rounds"].as_array().expect("rounds") {
        let round = &r["round"];
        for g in r["games"].as_array().into_iter().flatten() {
            let (home, away) = (
                &names[&g["home"].to_string()],
                &names[&g["away"].to_string()],
            );
            let result = g["result"].as_str().unwrap_or_default();
            out.push_str(&format!("{round},{home},{away},{result}\n"));
        }
        for b in r["byes"].as_array().into_iter().flatten() {
            out.push_str(&format!("{round},{},,bye\n", names[&b["id"].to_string()]));
        }
    }
    out
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
    rank_on(event, rs, None)
}

/// Rank on `threads` threads (`None`: the default, as `tb eval` without
/// `--threads`).
fn rank_on(event: &Event, rs: &Ruleset, threads: Option<usize>) -> tb::rank::Standings {
    let opts = tb::rank::Options {
        threads,
        ..Default::default()
    };
    tb::rank::rank(event, rs, &opts).unwrap_or_else(|d| panic!("{}", d.plain()))
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
    #[divan::bench(args = FORMAT_SIZES, max_time = 20)]
    fn json_cards(b: Bencher, size: &'static str) {
        let i = input(Kind::Cards, size);
        b.with_inputs(|| source("gen.json", &i.json))
            .bench_local_refs(|s| tb::load::native::load_json(s).expect("loads"));
    }

    /// Native TOML, the same card-game events.
    #[divan::bench(args = FORMAT_SIZES, max_time = 20)]
    fn toml_cards(b: Bencher, size: &'static str) {
        let i = input(Kind::Cards, size);
        b.with_inputs(|| source("gen.toml", &i.toml))
            .bench_local_refs(|s| tb::load::native::load_toml(s).expect("loads"));
    }

    /// Native JSON card-game Swiss through the spanned tree alone (the
    /// path every diagnostic comes from): what one loader pipeline would
    /// cost if the one-pass reader were deleted today (docs/performance.md,
    /// session 16).
    #[divan::bench(args = FORMAT_SIZES, max_time = 20)]
    fn json_cards_tree(b: Bencher, size: &'static str) {
        let i = input(Kind::Cards, size);
        b.with_inputs(|| source("gen.json", &i.json))
            .bench_local_refs(|s| tb::load::native::load_json_tree(s).expect("loads"));
    }

    /// Native TOML through the spanned tree alone, as `json_cards_tree`.
    #[divan::bench(args = FORMAT_SIZES, max_time = 20)]
    fn toml_cards_tree(b: Bencher, size: &'static str) {
        let i = input(Kind::Cards, size);
        b.with_inputs(|| source("gen.toml", &i.toml))
            .bench_local_refs(|s| tb::load::native::load_toml_tree(s).expect("loads"));
    }

    /// CSV match list, the same card-game events.
    #[divan::bench(args = FORMAT_SIZES, max_time = 20)]
    fn csv_cards(b: Bencher, size: &'static str) {
        let i = input(Kind::Cards, size);
        let text = i.csv.as_deref().expect("a CSV rendering");
        b.with_inputs(|| source("gen.csv", text))
            .bench_local_refs(|s| tb::load::csv::load_csv(s).expect("loads"));
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

    /// Shipped chess rulesets whose criteria compare each member of a tied
    /// group with the others (Direct Encounter first in `fide/swiss` and
    /// `fide/round-robin`: every score group is a tied group; issue #35),
    /// at 1,000 × 9 and 10,000 × 15.
    #[divan::bench(args = SHIPPED_CHESS, max_time = 20, ignore = fide_missing())]
    fn shipped_chess(b: Bencher, which: &'static str) {
        let (name, size) = which.split_once('@').expect("RULESET@SIZE");
        let i = input(Kind::Chess, size);
        let rs = shipped(name);
        b.bench_local(|| rank(&i.event, &rs));
    }

    /// `tb eval fide/swiss --progress` (issue #33): the place after every
    /// round of a 1,000-player, 9-round Swiss, that is the final standings
    /// and one ranking for each earlier round (the event cut from the end).
    #[divan::bench(max_time = 20, ignore = fide_missing())]
    fn fide_swiss_progress(b: Bencher) {
        let i = input(Kind::Chess, "1000x9");
        let rs = shipped("fide/swiss");
        b.bench_local(|| {
            let last = rank(&i.event, &rs);
            tb::rank::progress::by_round(&i.event, &rs, &tb::rank::Options::default(), last)
                .expect("progress")
        });
    }

    /// The same FIDE chain on one thread: `fide` (default threads) must
    /// never be slower.
    #[divan::bench(args = SIZES, max_time = 20, ignore = fide_missing())]
    fn fide_one_thread(b: Bencher, size: &'static str) {
        let i = input(Kind::Chess, size);
        let Some(rs) = super::fide(&i.event) else {
            return;
        };
        b.bench_local(|| rank_on(&i.event, &rs, Some(1)));
    }
}

mod check {
    use super::*;

    /// Parse and check the shipped `fide/swiss` (what `tb check fide/swiss`
    /// and every `tb eval fide/swiss` pay before reading the event).
    #[divan::bench(max_time = 10, ignore = fide_missing())]
    fn fide_swiss() -> Ruleset {
        shipped("fide/swiss")
    }

    /// The FIDE chain as `tb eval --tiebreaks` builds it (`fide/codes`
    /// over `fide/lib`).
    #[divan::bench(max_time = 10, ignore = fide_missing())]
    fn fide_chain(b: Bencher) {
        let i = input(Kind::Chess, "1000x9");
        b.bench_local(|| fide(&i.event));
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

/// Standings → output (`tb eval --format ...`): the FIDE chain's
/// standings at 10,000 × 15, written in each format into a buffer.
mod render {
    use super::*;
    use tb::render::{Format, Meta, Report};

    const FORMATS: &[&str] = &["table", "json", "csv", "markdown", "html"];

    #[divan::bench(args = FORMATS, max_time = 10, ignore = fide_missing())]
    fn fide_10000x15(b: Bencher, format: &'static str) {
        let i = input(Kind::Chess, "10000x15");
        let Some(rs) = fide(&i.event) else { return };
        let st = rank(&i.event, &rs);
        let meta = Meta {
            ruleset: FIDE_CHAIN.into(),
            notes: Vec::new(),
        };
        let fmt = <Format as clap::ValueEnum>::from_str(format, false).expect("a format");
        b.bench_local(|| {
            let mut out = Vec::new();
            let report = Report::new(&st, &i.event, &rs, &meta, &[]);
            tb::render::write(&report, fmt, &mut out).expect("written");
            out
        });
    }
}

mod startup {
    use super::*;
    use std::process::{Command, Stdio};

    /// `fide/lib`'s syntax tree from the form compiled at build time (what
    /// every run that imports it does).
    #[divan::bench(max_time = 5, ignore = fide_missing())]
    fn fide_lib_compiled() -> Option<tb::syntax::ast::File> {
        tb::syntax::compiled::lookup(tb::shipped::get("fide/lib").unwrap_or_default())
    }

    /// `fide/lib` parsed from its text (what a run did before).
    #[divan::bench(max_time = 5, ignore = fide_missing())]
    fn fide_lib_parsed() -> bool {
        let text = tb::shipped::get("fide/lib").unwrap_or_default();
        tb::syntax::parse::parse_text(&source("fide/lib", text)).is_ok()
    }

    /// Run the `tb` binary built with this benchmark, output discarded.
    fn tb(args: &[&str]) {
        let ok = Command::new(env!("CARGO_BIN_EXE_tb"))
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "tb {args:?} fails");
    }

    /// The generated 1,000 × 9 chess event as a TRF file (written once,
    /// in the temporary folder).
    fn trf_file() -> &'static str {
        static PATH: OnceLock<String> = OnceLock::new();
        PATH.get_or_init(|| {
            let path = std::env::temp_dir().join("tb-bench-startup-1000x9.trf");
            let i = input(Kind::Chess, "1000x9");
            let text = i.trf.as_deref().expect("a TRF rendering");
            std::fs::write(&path, text).expect("writes the TRF");
            path.display().to_string()
        })
    }

    /// `tb --version`: the process alone.
    #[divan::bench(max_time = 5)]
    fn version() {
        tb(&["--version"]);
    }

    /// `tb check fide/swiss`: the shipped rulesets loaded and checked.
    #[divan::bench(max_time = 5, ignore = fide_missing())]
    fn check_fide_swiss() {
        tb(&["check", "fide/swiss"]);
    }

    /// `tb eval --tiebreaks PTS,BH/C1,BH,SB,PS,ARO` on a 1,000 × 9 TRF, as
    /// `benches/vs-gacrux.sh` runs it against gacrux.
    #[divan::bench(args = ["default", "1"], max_time = 10, ignore = fide_missing())]
    fn eval_fide_1000x9(threads: &str) {
        let chain = "PTS,BH/C1,BH,SB,PS,ARO";
        let mut args = vec!["eval", "--tiebreaks", chain, trf_file(), "--format", "csv"];
        if threads != "default" {
            args.extend(["--threads", threads]);
        }
        tb(&args);
    }
}
