//! Loaders: each data format to one [`crate::model::Event`], with precise diagnostics.
//!
//! In: a [`Source`] (a file's name and its text, already read; nothing
//! here touches the file system). Out: one [`Event`], the tournament model
//! every later stage reads, or a [`Diag`] (one, or many gathered under
//! one) that points into the text. The format is told by the file name,
//! else by the text ([`Format::detect`]).
//!
//! Formats: `native` (TOML and JSON, one schema: `native::schema`), `trf`
//! (FIDE TRF16 / TRF-26), `csv` (card-game match lists, built through the
//! native schema), `usebio` (bridge results). Large files are read in two
//! halves at once by `crate::par`'s rule; the event never depends on the
//! number of threads.
//!
//! Imports: `model`, `diag`, `num`, `text`, `par` only. Never `eval`,
//! `check`, `plan`, `rank`, `render` or `syntax`: loading knows nothing of
//! rulesets or tie-breaks.

use crate::codes;
use crate::diag::{Diag, Source, Span};
use crate::model::Event;

pub mod csv;
pub mod decode;
pub mod native;
pub mod rounds;
pub mod trf;

pub mod usebio;

/// Limits the loaders share, each refused with a clear error: the same
/// file size, round count and event size whatever the format.
pub mod limits {
    /// Largest data file read.
    pub const MAX_INPUT_BYTES: usize = 50 * 1024 * 1024;
    /// Highest round number (and scheduled number of rounds) accepted.
    pub const MAX_ROUNDS: u32 = 10_000;
    /// Most participant-rounds (participants × rounds) accepted: every one
    /// becomes an entry in memory.
    pub const MAX_PARTICIPANT_ROUNDS: u64 = 5_000_000;
    /// Most participants a native (TOML, JSON) or CSV event holds. TRF
    /// and USEBIO keep their own lower caps, set by what their files can
    /// number (`trf::MAX_PLAYERS`, `usebio::MAX_PARTICIPANTS`).
    pub const MAX_PARTICIPANTS: usize = 1_000_000;
    /// Most distinct unit names (games won, boards, IMPs...) accepted.
    pub const MAX_UNITS: usize = 1_000;

    /// The participant-rounds of `participants` over `rounds` when they are
    /// over [`MAX_PARTICIPANT_ROUNDS`], else `None`: the one rule every
    /// reader of the native schema applies.
    pub(crate) fn participant_rounds_over(participants: usize, rounds: u32) -> Option<u64> {
        let cells = participants as u64 * u64::from(rounds);
        (cells > MAX_PARTICIPANT_ROUNDS).then_some(cells)
    }

    use crate::diag::{Diag, Source};

    /// Refuse a file over [`MAX_INPUT_BYTES`], with `help` for the user.
    pub(crate) fn check_input_size(source: &Source, help: &str) -> Result<(), Diag> {
        if source.text.len() <= MAX_INPUT_BYTES {
            return Ok(());
        }
        Err(Diag::error(
            crate::codes::LOAD_TOO_LARGE,
            format!(
                "{} is {} bytes; the most tb reads is {} bytes",
                source.name,
                source.text.len(),
                MAX_INPUT_BYTES
            ),
        )
        .in_source(source)
        .with_help(help))
    }
}

/// Data formats `tb` reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Native TOML.
    Toml,
    /// Native JSON.
    Json,
    /// FIDE TRF16 / TRF-26.
    Trf,
    /// CSV match list (card-game events from a spreadsheet).
    Csv,
    /// USEBIO XML (bridge results).
    Usebio,
}

impl Format {
    /// Guess the format from a file name, then from the text.
    pub fn detect(name: &str, text: &str) -> Option<Format> {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".toml") {
            Some(Format::Toml)
        } else if lower.ends_with(".json") {
            Some(Format::Json)
        } else if lower.ends_with(".trf") || lower.ends_with(".txt") {
            Some(Format::Trf)
        } else if lower.ends_with(".csv") {
            Some(Format::Csv)
        } else if lower.ends_with(".xml") || usebio::looks_like_usebio(text) {
            Some(Format::Usebio)
        } else if text.trim_start().starts_with('{') {
            Some(Format::Json)
        } else if text
            .lines()
            .any(|l| matches!(l.trim(), "[event]" | "[[participants]]" | "[[rounds]]"))
        {
            // Native TOML with no file name to tell it (standard input).
            Some(Format::Toml)
        } else if text
            .lines()
            .find(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .is_some_and(|header| {
                [',', ';', '\t']
                    .iter()
                    .any(|&c| header.matches(c).count() >= 2)
            })
        {
            // A header row of at least three columns (after `#` notes): a
            // spreadsheet's CSV.
            Some(Format::Csv)
        } else if text.lines().any(|l| l.starts_with("001 ")) {
            Some(Format::Trf)
        } else {
            None
        }
    }
}

/// The event, its sport marked as declared by the file's format.
fn declared(mut ev: Event) -> Event {
    ev.sport_declared = true;
    ev
}

/// Load an event from a named source text, choosing the loader by format.
pub fn load(source: &Source) -> Result<Event, Diag> {
    load_with(source, crate::par::default_threads())
}

/// [`load`] with at most `threads` threads (a large TRF file's player lines,
/// a large event's entries, are read in two halves at once). The event never depends on it.
pub fn load_with(source: &Source, threads: usize) -> Result<Event, Diag> {
    let mut ev = read_with(source, threads)?;
    // One rule for every format: rounds after the last result are not yet
    // played (a loader that checks recorded totals has settled them first).
    rounds::settle(&mut ev);
    Ok(ev)
}

/// The event as the format's loader reads it.
fn read_with(source: &Source, threads: usize) -> Result<Event, Diag> {
    match Format::detect(&source.name, &source.text) {
        Some(Format::Toml) => native::load_toml_with(source, threads),
        Some(Format::Json) => native::load_json_with(source, threads),
        // TRF is a chess format and USEBIO a bridge one: the format
        // declares the sport.
        Some(Format::Trf) => trf::load_trf_with(source, threads).map(declared),
        Some(Format::Csv) => csv::load_csv_with(source, threads),
        Some(Format::Usebio) => usebio::load_usebio(source).map(declared),
        None => Err(Diag::error(
            codes::LOAD_UNKNOWN_FORMAT,
            format!("cannot tell what format {} is in", source.name),
        )
        .with_help("name the file .toml, .json, .trf, .csv or .xml (USEBIO)")),
    }
}

/// A span of one character at `at` (empty at the end), on char boundaries.
pub(crate) fn char_span(text: &str, at: usize) -> Span {
    let mut start = at.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let end = text[start..]
        .chars()
        .next()
        .map(|c| start + c.len_utf8())
        .unwrap_or(start);
    Span::new(start, end)
}
