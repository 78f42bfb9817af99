//! Fuzz harnesses for `tb`, shared by the libFuzzer targets in
//! `fuzz/fuzz_targets/` (nightly, `cargo fuzz run ...`) and by the stable
//! replay test `tests/hostile_regressions.rs`, which runs every committed
//! seed and regression input through the same functions on every
//! `cargo test`.
//!
//! Each harness takes arbitrary bytes and must return without panicking,
//! overflowing the stack or looping. Beyond "no crash" they check what the
//! user would see: every diagnostic has a `tb::` code and a message, its
//! spans lie inside its source on character boundaries, and it renders in
//! all three styles (fancy, plain, JSON). Whatever loads is then ranked with
//! the shipped rulesets, and the JSON output of two runs must be identical.
#![allow(dead_code)]

use std::fmt::Write as _;
use tb::check::Resolve;
use tb::diag::{Diag, Source};
use tb::model::Event;
use tb::plan::Ruleset;
use tb::shipped::Shipped;

/// What a harness made of its input (for tests that want to look).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The input was accepted (and, for data, ranked by every shipped ruleset).
    Accepted,
    /// The input was rejected with this diagnostic code.
    Rejected(&'static str),
}

/// Text of a data file as the CLI reads it: UTF-8, else every byte as a
/// Latin-1 character (TRF and USEBIO files often are Latin-1).
pub fn text_of(data: &[u8]) -> String {
    match std::str::from_utf8(data) {
        Ok(t) => t.to_string(),
        Err(_) => data.iter().map(|&b| b as char).collect(),
    }
}

/// Check everything a user would see of a diagnostic; panic if it is broken.
pub fn check_diag(d: &Diag) {
    assert_ne!(
        d.code, "tb::eval::decided",
        "an internal signal reached the user"
    );
    assert!(
        d.code.starts_with("tb::"),
        "diagnostic without a tb:: code: {:?}",
        d.code
    );
    assert!(
        !d.message.trim().is_empty() || !d.related.is_empty(),
        "diagnostic {} without a message",
        d.code
    );
    if let Some(src) = &d.source {
        for (span, _) in &d.labels {
            assert!(
                span.start <= span.end && span.end <= src.text.len(),
                "{}: span {:?} outside a source of {} bytes",
                d.code,
                span,
                src.text.len()
            );
            assert!(
                src.text.is_char_boundary(span.start) && src.text.is_char_boundary(span.end),
                "{}: span {:?} cuts a character",
                d.code,
                span
            );
        }
    }
    for r in &d.related {
        check_diag(r);
    }
    let _ = d.plain();
    let _ = serde_json::to_string(&d.to_json()).expect("diagnostic JSON");
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(100);
    let mut s = String::new();
    let _ = handler.render_report(&mut s, d);
}

fn verdict<T>(r: &Result<T, Diag>) -> Verdict {
    match r {
        Ok(_) => Verdict::Accepted,
        Err(d) => {
            check_diag(d);
            Verdict::Rejected(d.code)
        }
    }
}

/// Imports resolved from the fuzz input itself: parts separated by a line
/// `----` are files `f0`, `f1`, ...; anything else is looked up among the
/// shipped rulesets (so `import "cards/lib"` works too).
struct PartsResolver {
    parts: Vec<String>,
}

impl Resolve for PartsResolver {
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String> {
        if let Some(i) = name.strip_prefix('f').and_then(|n| n.parse::<usize>().ok()) {
            if let Some(t) = self.parts.get(i) {
                return Ok(Source::new(format!("f{i}"), t.as_str()));
            }
        }
        Shipped.resolve(name, from)
    }
}

/// Parse and check a ruleset (with in-input imports); if it checks and can
/// rank, rank two small events with it.
pub fn fuzz_ruleset(data: &[u8]) -> Verdict {
    let text = String::from_utf8_lossy(data);
    let parts: Vec<String> = text.split("\n----\n").map(str::to_string).collect();
    let root = Source::new("f0", parts[0].as_str());
    let resolver = PartsResolver { parts };
    let r = tb::check::check(root, &resolver, &[]);
    let v = verdict(&r);
    if let Ok(rs) = r {
        for ev in small_events() {
            rank_twice(&ev, &rs);
        }
    }
    v
}

/// Load a TRF file; rank it with every shipped ruleset.
pub fn fuzz_trf(data: &[u8]) -> Verdict {
    let src = Source::new("fuzz.trf", text_of(data));
    let r = tb::load::trf::load_trf(&src);
    let v = verdict(&r);
    if let Ok(ev) = r {
        rank_with_shipped(&ev, data);
    }
    v
}

/// Load a native TOML event; rank it with every shipped ruleset.
pub fn fuzz_toml(data: &[u8]) -> Verdict {
    let src = Source::new("fuzz.toml", String::from_utf8_lossy(data).into_owned());
    let r = tb::load::native::load_toml(&src);
    let v = verdict(&r);
    if let Ok(ev) = r {
        rank_with_shipped(&ev, data);
    }
    v
}

/// Load a native JSON event; rank it with every shipped ruleset.
pub fn fuzz_json(data: &[u8]) -> Verdict {
    let src = Source::new("fuzz.json", String::from_utf8_lossy(data).into_owned());
    let r = tb::load::native::load_json(&src);
    let v = verdict(&r);
    if let Ok(ev) = r {
        rank_with_shipped(&ev, data);
    }
    v
}

/// Load a USEBIO XML file; rank it with every shipped ruleset.
pub fn fuzz_usebio(data: &[u8]) -> Verdict {
    let src = Source::new("fuzz.xml", text_of(data));
    let r = tb::load::usebio::load_usebio(&src);
    let v = verdict(&r);
    if let Ok(ev) = r {
        rank_with_shipped(&ev, data);
    }
    v
}

/// Load a CSV match list; rank it with every shipped ruleset.
pub fn fuzz_csv(data: &[u8]) -> Verdict {
    let src = Source::new("fuzz.csv", text_of(data));
    let r = tb::load::csv::load_csv(&src);
    let v = verdict(&r);
    if let Ok(ev) = r {
        rank_with_shipped(&ev, data);
    }
    v
}

/// A FIDE tie-break list (`--tiebreaks`, TRF-26 records 202/212): the first
/// line is the list, the rest picks the edition; what parses is built into
/// a ruleset, checked, and ranks two small events.
pub fn fuzz_descriptors(data: &[u8]) -> Verdict {
    let text = String::from_utf8_lossy(data);
    let (list, rest) = text.split_once('\n').unwrap_or((&text, ""));
    let src = Source::new("--tiebreaks", list);
    let edition = if rest.contains("2026") {
        "2026"
    } else {
        "2024"
    };
    let library = if rest.contains("team") {
        "fide/team-codes"
    } else {
        "fide/codes"
    };
    let r = tb::check::check_list(src, library, Some(edition), &tb::shipped::Shipped, &[]);
    let v = verdict(&r);
    match r {
        Ok(rs) => {
            for ev in small_events() {
                rank_twice(&ev, &rs);
            }
        }
        Err(d) => check_diag(&d),
    }
    v
}

/// Any data file through format detection, as `tb eval` reads it.
pub fn fuzz_any(name: &str, data: &[u8]) -> Verdict {
    let src = Source::new(name, text_of(data));
    let r = tb::load::load(&src);
    let v = verdict(&r);
    if let Ok(ev) = r {
        rank_with_shipped(&ev, data);
    }
    v
}

/// Build a well-formed event from the bytes (see [`event_toml`]), load it
/// and rank it with every shipped ruleset.
pub fn fuzz_eval(data: &[u8]) -> Verdict {
    let text = event_toml(data);
    let src = Source::new("fuzz.toml", text);
    let r = tb::load::native::load_toml(&src);
    let v = verdict(&r);
    if let Ok(ev) = r {
        rank_with_shipped(&ev, data);
    }
    v
}

/// The shipped rulesets that rank an event, checked.
pub fn shipped_rulesets() -> Vec<(&'static str, Ruleset)> {
    let mut out = Vec::new();
    for (name, _, _) in tb::shipped::list() {
        let root = tb::shipped::source(name).expect("shipped ruleset loads");
        let rs = tb::check::check(root, &Shipped, &[]).expect("shipped ruleset checks");
        out.push((name, rs));
    }
    out
}

/// Rank with one shipped ruleset, picked by the input (a fuzzer reaches
/// them all over its runs; one per input keeps it fast), or with every one
/// when `TB_FUZZ_ALL_RULESETS` is set.
fn rank_with_shipped(ev: &Event, data: &[u8]) {
    thread_local! {
        static SHIPPED: Vec<(&'static str, Ruleset)> = shipped_rulesets();
        static ALL: bool = std::env::var_os("TB_FUZZ_ALL_RULESETS").is_some();
    }
    let all = ALL.with(|a| *a);
    SHIPPED.with(|rulesets| {
        if rulesets.is_empty() {
            return;
        }
        let pick = data.iter().fold(data.len(), |h, &b| {
            h.wrapping_mul(31).wrapping_add(usize::from(b))
        });
        for (i, (_, rs)) in rulesets.iter().enumerate() {
            if all || i == pick % rulesets.len() {
                rank_twice(ev, rs);
            }
        }
    });
}

/// Rank once and render as JSON (`None` when ranking fails).
pub fn rank_json(ev: &Event, rs: &Ruleset) -> Option<String> {
    let opts = tb::rank::Options {
        lots_seed: Some(7),
        ..Default::default()
    };
    let st = tb::rank::rank(ev, rs, &opts).ok()?;
    let meta = tb::render::Meta::default();
    Some(tb::render::render(
        &st,
        ev,
        rs,
        &meta,
        tb::render::Format::Json,
    ))
}

/// Rank, render as JSON, rank again: the two outputs must be identical.
pub fn rank_twice(ev: &Event, rs: &Ruleset) -> Option<String> {
    let opts = tb::rank::Options {
        lots_seed: Some(7),
        ..Default::default()
    };
    // The second run uses the reference evaluator only: the columnar path
    // must give the same output, and fail where it fails, with the same code.
    let reference = tb::rank::Options {
        per_participant: true,
        ..opts.clone()
    };
    let meta = tb::render::Meta::default();
    let first = match tb::rank::rank(ev, rs, &opts) {
        Ok(st) => st,
        Err(d) => {
            check_diag(&d);
            if let Err(r) = tb::rank::rank(ev, rs, &reference) {
                assert_eq!(d.code, r.code, "the reference evaluator fails otherwise");
            } else {
                // Work budgets are spent differently by the two paths.
                assert_eq!(
                    d.code, "tb::eval::too_costly",
                    "only the columnar path fails"
                );
            }
            return None;
        }
    };
    let a = tb::render::render(&first, ev, rs, &meta, tb::render::Format::Json);
    for f in [
        tb::render::Format::Table,
        tb::render::Format::Csv,
        tb::render::Format::Markdown,
        tb::render::Format::Html,
    ] {
        let _ = tb::render::render(&first, ev, rs, &meta, f);
    }
    // `tb explain`, text and JSON, with the parts of every value (`--detail`).
    if let Ok(mut detail_ev) = tb::eval::Evaluator::new(ev, rs) {
        detail_ev.columnar = false;
        let mut opts = tb::render::ExplainOptions {
            ids: Vec::new(),
            details: Some(Box::new(move |p, k, g: &[usize]| {
                detail_ev.step_details(p, k, g)
            })),
        };
        for f in [
            tb::render::ExplainFormat::Text,
            tb::render::ExplainFormat::Json,
        ] {
            let _ = tb::render::explain(&first, ev, rs, &mut opts, f);
        }
    }
    let second = match tb::rank::rank(ev, rs, &reference) {
        Ok(st) => st,
        // Work budgets are spent differently by the two paths.
        Err(d) if d.code == "tb::eval::too_costly" => return Some(a),
        Err(d) => panic!("the reference evaluator fails where the columnar did not: {d:?}"),
    };
    let b = tb::render::render(&second, ev, rs, &meta, tb::render::Format::Json);
    assert_eq!(
        a, b,
        "the same input gave different output (columnar vs reference)"
    );
    Some(a)
}

fn small_events() -> Vec<Event> {
    thread_local! {
        static EVENTS: Vec<Event> = {
            let mut v = Vec::new();
            for seed in [&b"\x01\x07\x05chess"[..], &b"\x02\x08\x04cards game"[..]] {
                if let Ok(ev) = tb::load::native::load_toml(&Source::new("e.toml", event_toml(seed))) {
                    v.push(ev);
                }
            }
            v
        };
    }
    EVENTS.with(|e| e.clone())
}

/// Bytes → a native TOML event that is well-formed by construction (each
/// round a set of disjoint pairings, byes and absences), so the evaluator
/// sees many shapes of real events rather than loader errors.
///
/// Byte 0 picks the sport and system, byte 1 the number of players (1-14),
/// byte 2 the number of rounds (1-9); then per player a rating byte and a
/// withdrawal byte, then per round and player one byte deciding whether the
/// player is paired with the next unpaired one (and the result), gets a bye
/// of some kind, or is absent. Missing bytes count as zero.
pub fn event_toml(data: &[u8]) -> String {
    let mut it = data.iter().copied();
    let mut next = move || it.next().unwrap_or(0);
    let b0 = next();
    let cards = b0 & 1 == 1;
    let rr = b0 & 2 == 2;
    let n = 1 + usize::from(next()) % 14;
    let rounds = 1 + u32::from(next()) % 9;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "[event]\nsport = \"{}\"\nsystem = \"{}\"\nrounds = {rounds}\n",
        if cards { "cards" } else { "chess" },
        if rr { "round-robin" } else { "swiss" }
    );
    for i in 0..n {
        let r = next();
        let w = next();
        let _ = writeln!(out, "[[participants]]\nid = \"p{i}\"\nname = \"P{i}\"");
        if r % 3 != 0 {
            let _ = writeln!(out, "rating = {}", 1000 + u32::from(r) * 7);
        }
        if w % 7 == 1 {
            let _ = writeln!(out, "withdrawn_after = {}", u32::from(w >> 3) % rounds);
        }
        out.push('\n');
    }
    for round in 1..=rounds {
        let _ = writeln!(out, "[[rounds]]\nround = {round}");
        let mut games = Vec::new();
        let mut byes = Vec::new();
        let mut used = vec![false; n];
        for i in 0..n {
            if used[i] {
                continue;
            }
            let b = next();
            match b % 8 {
                0..=4 => {
                    // Pair with the k-th next unpaired player, if any.
                    let k = usize::from(b >> 3) % 4;
                    let partner = (i + 1..n).filter(|&j| !used[j]).nth(k);
                    if let Some(j) = partner {
                        used[i] = true;
                        used[j] = true;
                        let r = next();
                        let result = if cards {
                            let (w, l, d) = (r % 3, (r >> 2) % 3, (r >> 4) % 2);
                            match r >> 5 {
                                6 => "+-".to_string(),
                                7 => "--".to_string(),
                                _ => format!("{w}-{l}-{d}"),
                            }
                        } else {
                            ["1-0", "0-1", "1/2-1/2", "+-", "-+", "--", "0-0", "1-0"]
                                [usize::from(r % 8)]
                            .to_string()
                        };
                        games.push(format!(
                            "{{ home = \"p{i}\", away = \"p{j}\", result = \"{result}\" }}"
                        ));
                    }
                }
                5 | 6 => {
                    used[i] = true;
                    let kind = ["pairing", "full", "half", "zero"][usize::from(b >> 3) % 4];
                    byes.push(format!("{{ id = \"p{i}\", type = \"{kind}\" }}"));
                }
                _ => used[i] = true, // absent
            }
        }
        let _ = writeln!(out, "games = [{}]", games.join(", "));
        let _ = writeln!(out, "byes = [{}]\n", byes.join(", "));
    }
    out
}
