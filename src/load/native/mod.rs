//! Native TOML and JSON event format: one schema for every sport, read through a spanned value tree.
//!
//! Both formats are first turned into a [`tree::Node`] tree that keeps the
//! byte span of every value and key: TOML through serde with the `toml`
//! crate's span support, JSON by a small scanner that runs only over text
//! `serde_json` has already accepted. One schema walker (`build`, `game`)
//! then turns the tree into an [`Event`], so the two formats share every
//! rule and every diagnostic. The fields of every table are declared once,
//! in [`schema`]; `docs/data-format.md` documents them.
//!
//! Valid JSON and plain TOML events skip the tree: `fast` reads them in
//! one pass (TOML rewritten as JSON first) and gives up on anything
//! unusual, which then comes here.
//!
//! The parts: `schema` (the table of fields), `tree` (the spanned value
//! tree and exact numbers), `cx` (typed reads with diagnostics), `build`
//! (the event, participants, rounds, decisions), `game` (games, boards,
//! byes, results), `checks` (checks across records, warnings), `fast`
//! (the one-pass JSON reader).
//!
//! Numbers never pass through a float on their way to [`Num`]: JSON numbers
//! are kept as their literal text; TOML floats arrive as `f64` and are
//! printed with Rust's shortest round-trip formatting, which gives back the
//! literal that was written (`15.62` stays `15.62`), then parsed exactly.
//! Numbers may also be written as strings (`"15.62"`, `"2/3"`).

use super::char_span;
pub use super::limits::{
    MAX_INPUT_BYTES, MAX_PARTICIPANTS, MAX_PARTICIPANT_ROUNDS, MAX_ROUNDS, MAX_UNITS,
};
use crate::codes;
use crate::diag::{Diag, Source, Span};
use crate::load::rounds::settle_read;
use crate::model::Event;
#[cfg(doc)]
use crate::num::Num;

mod build;
mod checks;
mod cx;
mod fast;
mod game;
pub mod schema;
mod tree;

/// The one-pass reader fed a match list by participant index (CSV).
pub(in crate::load) use fast::Matches;

use build::build;
pub(super) use build::build_from_tree;
use tree::JsonScan;
pub(super) use tree::{Key, Node, V};

const SYNTAX: &str = codes::LOAD_NATIVE_SYNTAX;
const UNKNOWN_FIELD: &str = codes::LOAD_NATIVE_UNKNOWN_FIELD;
const UNKNOWN_PARTICIPANT: &str = codes::LOAD_NATIVE_UNKNOWN_PARTICIPANT;
const DUPLICATE_PARTICIPANT: &str = codes::LOAD_NATIVE_DUPLICATE_PARTICIPANT;
const PAIRED_TWICE: &str = codes::LOAD_NATIVE_PAIRED_TWICE;
const INCONSISTENT_GAME: &str = codes::LOAD_NATIVE_INCONSISTENT_GAME;
const ROUND_OUT_OF_RANGE: &str = codes::LOAD_NATIVE_ROUND_OUT_OF_RANGE;
const BAD_RESULT: &str = codes::LOAD_NATIVE_BAD_RESULT;
const MIXED_SPORTS: &str = codes::LOAD_NATIVE_MIXED_SPORTS;
const NO_RESULT: &str = codes::LOAD_NATIVE_NO_RESULT;
const INVALID: &str = codes::LOAD_NATIVE_INVALID;
const BYE_WORTH: &str = codes::LOAD_NATIVE_BYE_WORTH;
const STAGE_MISSING: &str = codes::LOAD_NATIVE_STAGE_MISSING;
const SESSION_MISMATCH: &str = codes::LOAD_NATIVE_SESSION_MISMATCH;
const FIELD_MISSING: &str = codes::LOAD_NATIVE_FIELD_MISSING;
const CARRYOVER_VALUE: &str = codes::LOAD_NATIVE_CARRYOVER_VALUE;
const CARRYOVER_OUTSIDE: &str = codes::LOAD_NATIVE_CARRYOVER_OUTSIDE_KNOCKOUT;
const TOO_LARGE: &str = codes::LOAD_TOO_LARGE;

/// Load a native TOML event, with up to one thread per core (at most 8).
pub fn load_toml(source: &Source) -> Result<Event, Diag> {
    load_toml_with(source, crate::par::default_threads())
}

/// Load a native TOML event with at most `threads` threads; as
/// [`load_json_with`], most files are read in one pass straight into the
/// event, and anything else goes through the spanned tree.
pub fn load_toml_with(source: &Source, threads: usize) -> Result<Event, Diag> {
    check_size(source)?;
    match fast::load_toml(&source.text, threads).and_then(settle_read) {
        Some(ev) => Ok(ev),
        None => toml_tree(source),
    }
}

/// The one-pass reader alone on a TOML file: `None` where it leaves the
/// file to the tree path. For tests that check the two paths agree.
#[doc(hidden)]
pub fn load_toml_fast(source: &Source) -> Option<Event> {
    check_size(source).ok()?;
    fast::load_toml(&source.text, crate::par::default_threads()).and_then(settle_read)
}

/// The tree path alone on a TOML file, as `load_toml` ran before the
/// one-pass reader. For tests that check the two paths agree.
#[doc(hidden)]
pub fn load_toml_tree(source: &Source) -> Result<Event, Diag> {
    check_size(source)?;
    toml_tree(source)
}

fn toml_tree(source: &Source) -> Result<Event, Diag> {
    let mut root = match toml::from_str::<Node>(&source.text) {
        Ok(n) => n,
        Err(e) => return Err(toml_error(source, &e)),
    };
    root.fix_spans(Span::new(0, 0));
    build(source, &root)
}

/// Load a native TOML event written as one table inside a larger TOML text
/// (a ruleset test's `[case.event]`): `path` walks from the root to that
/// table, a key for each table and an index (`"0"`) for each array. The
/// diagnostics point into the whole text. The table must be there: the
/// caller found it.
pub fn load_toml_table(source: &Source, path: &[&str]) -> Result<Event, Diag> {
    super::limits::check_input_size(source, "split the file into smaller ones")?;
    let mut root = match toml::from_str::<Node>(&source.text) {
        Ok(n) => n,
        Err(e) => return Err(toml_error(source, &e)),
    };
    root.fix_spans(Span::new(0, 0));
    let mut at = &root;
    for step in path {
        let next = match &at.v {
            V::Table(items) => items.iter().find(|(k, _)| k.name == *step).map(|(_, n)| n),
            V::Arr(items) => step.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        };
        at = next.ok_or_else(|| {
            Diag::error(
                INVALID,
                format!("no table `{}` in the file", path.join(".")),
            )
            .in_source(source)
        })?;
    }
    build(source, at)
}

/// Load a native JSON event, with up to one thread per core (at most 8).
pub fn load_json(source: &Source) -> Result<Event, Diag> {
    load_json_with(source, crate::par::default_threads())
}

/// Load a native JSON event with at most `threads` threads (a large
/// event's entries are made in two halves at once). The event and its
/// diagnostics never depend on it.
pub fn load_json_with(source: &Source, threads: usize) -> Result<Event, Diag> {
    check_size(source)?;
    // Most files are valid: read those in one pass straight into the event.
    // Anything else goes through the spanned tree, which gives the
    // diagnostics (and builds the same event from what the fast path takes).
    match fast::load(&source.text, threads).and_then(settle_read) {
        Some(ev) => Ok(ev),
        None => json_tree(source),
    }
}

/// The one-pass JSON reader alone: `None` where it leaves the file to the
/// tree path. For tests that check the two paths agree.
#[doc(hidden)]
pub fn load_json_fast(source: &Source) -> Option<Event> {
    check_size(source).ok()?;
    fast::load(&source.text, crate::par::default_threads()).and_then(settle_read)
}

/// The tree path alone, as `load_json` ran before the one-pass reader. For
/// tests that check the two paths agree.
#[doc(hidden)]
pub fn load_json_tree(source: &Source) -> Result<Event, Diag> {
    check_size(source)?;
    json_tree(source)
}

fn json_tree(source: &Source) -> Result<Event, Diag> {
    // serde_json checks the syntax and gives the line and column of any
    // error; the scanner below then only ever sees valid JSON.
    if let Err(e) = serde_json::from_str::<serde::de::IgnoredAny>(&source.text) {
        return Err(json_error(source, &e));
    }
    let mut scan = JsonScan::new(&source.text);
    let root = match scan.value(0) {
        Ok(n) => n,
        Err(at) => {
            let span = char_span(&source.text, at);
            return Err(Diag::error(SYNTAX, "JSON syntax error")
                .at(source, span, "here")
                .with_help("check the JSON near this point"));
        }
    };
    build(source, &root)
}

fn check_size(source: &Source) -> Result<(), Diag> {
    super::limits::check_input_size(
        source,
        "split the event into smaller files, or check that this is the right file",
    )?;
    // An empty file (or blanks and TOML comments only) is refused like an
    // empty file of any other format: it is far likelier the wrong file, or
    // a save that failed, than an event with nobody in it. Here, so that the
    // TOML, JSON and one-pass JSON readers all agree.
    if source
        .text
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#'))
    {
        return Err(Diag::error(
            codes::LOAD_NATIVE_EMPTY,
            format!("{} is empty: it holds no event", source.name),
        )
        .in_source(source)
        .with_help("check that this is the right file; an event needs at least its `[[participants]]` and `[[rounds]]`"));
    }
    Ok(())
}

fn toml_error(source: &Source, e: &toml::de::Error) -> Diag {
    let mut msg = e.message().trim().replace('\n', "; ");
    let span = e.span().map(|r| {
        let start = r.start.min(source.text.len());
        let end = r.end.clamp(start, source.text.len());
        // toml 1.x marks some errors with an empty span: the character there.
        if start < end && source.text.is_char_boundary(start) && source.text.is_char_boundary(end) {
            Span::new(start, end)
        } else {
            char_span(&source.text, start)
        }
    });
    // toml 1.x says only "duplicate key": name it, as toml 0.8 did.
    if let Some(sp) = span.filter(|_| msg == "duplicate key") {
        let key = source.text[sp.start..sp.end].trim();
        if !key.is_empty() && key.len() <= 100 && !key.contains('\n') {
            msg = format!("duplicate key `{}`", crate::text::clip(key));
        }
    }
    let d = Diag::error(SYNTAX, format!("TOML syntax error: {msg}"));
    let d = match span {
        Some(span) => d.at(source, span, msg),
        None => d.in_source(source),
    };
    d.with_help("fix the TOML syntax here; docs/data-format.md shows complete examples")
}

fn json_error(source: &Source, e: &serde_json::Error) -> Diag {
    let full = e.to_string();
    let msg = match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    };
    // serde_json's line and column (from 1, in bytes) name the offending
    // character; at the end of input they point just past the text.
    let off = if e.line() == 0 {
        0
    } else {
        source.offset(e.line(), e.column().max(1))
    };
    Diag::error(SYNTAX, format!("JSON syntax error: {msg}"))
        .at(source, char_span(&source.text, off), msg)
        .with_help("fix the JSON syntax here; docs/data-format.md shows complete examples")
}
