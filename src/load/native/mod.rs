//! Native TOML and JSON event format: one schema for every sport, read through a spanned value tree.
//!
//! Both formats are first turned into a [`Node`] tree that keeps the byte
//! span of every value and key: TOML through serde with the `toml` crate's
//! span support, JSON by a small scanner that runs only over text
//! `serde_json` has already accepted. One schema walker then turns the tree
//! into an [`Event`], so the two formats share every rule and every
//! diagnostic. The schema is documented in `docs/data-format.md`.
//!
//! Valid JSON events skip the tree: `native_fast.rs` reads them in one pass
//! and gives up on anything unusual, which then comes here.
//!
//! Numbers never pass through a float on their way to [`Num`]: JSON numbers
//! are kept as their literal text; TOML floats arrive as `f64` and are
//! printed with Rust's shortest round-trip formatting, which gives back the
//! literal that was written (`15.62` stays `15.62`), then parsed exactly.
//! Numbers may also be written as strings (`"15.62"`, `"2/3"`).

pub use super::limits::{MAX_INPUT_BYTES, MAX_PARTICIPANT_ROUNDS, MAX_ROUNDS};
use crate::diag::{Diag, Source, Span};
use crate::model::{
    Board, Decision, Entry, EntryExtra, Event, Kind, Member, Outcome, Participant, Pid, Scoring,
    Side, Sport, Stage, Status, System, UnitId,
};
use crate::num::Num;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// Most participants accepted.
pub const MAX_PARTICIPANTS: usize = 1_000_000;
/// Most distinct unit names accepted.
pub const MAX_UNITS: usize = 1_000;

const SYNTAX: &str = "tb::load::native::syntax";
const UNKNOWN_FIELD: &str = "tb::load::native::unknown_field";
const UNKNOWN_PARTICIPANT: &str = "tb::load::native::unknown_participant";
const DUPLICATE_PARTICIPANT: &str = "tb::load::native::duplicate_participant";
const PAIRED_TWICE: &str = "tb::load::native::paired_twice";
const INCONSISTENT_GAME: &str = "tb::load::native::inconsistent_game";
const ROUND_OUT_OF_RANGE: &str = "tb::load::native::round_out_of_range";
const BAD_RESULT: &str = "tb::load::native::bad_result";
const MIXED_SPORTS: &str = "tb::load::native::mixed_sports";
const NO_RESULT: &str = "tb::load::native::no_result";
const INVALID: &str = "tb::load::native::invalid";
const BYE_WORTH: &str = "tb::load::native::bye_worth";
const STAGE_MISSING: &str = "tb::load::native::stage_missing";
const SESSION_MISMATCH: &str = "tb::load::native::session_mismatch";
const FIELD_MISSING: &str = "tb::load::native::field_missing";
const CARRYOVER_VALUE: &str = "tb::load::native::carryover_value";
const CARRYOVER_OUTSIDE: &str = "tb::load::native::carryover_outside_knockout";
const TOO_LARGE: &str = "tb::load::too_large";

/// Load a native TOML event.
pub fn load_toml(source: &Source) -> Result<Event, Diag> {
    check_size(source)?;
    let mut root = match toml::from_str::<Node>(&source.text) {
        Ok(n) => n,
        Err(e) => return Err(toml_error(source, &e)),
    };
    root.fix_spans(Span::new(0, 0));
    build(source, &root)
}

// The one-pass JSON reader: a child module so that it shares this file's
// private rules and helpers (`parse_result`, the field lists, ...).
mod fast;

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
    match fast::load(&source.text, threads) {
        Some(ev) => Ok(ev),
        None => json_tree(source),
    }
}

/// The one-pass JSON reader alone: `None` where it leaves the file to the
/// tree path. For tests that check the two paths agree.
#[doc(hidden)]
pub fn load_json_fast(source: &Source) -> Option<Event> {
    check_size(source).ok()?;
    fast::load(&source.text, crate::par::default_threads())
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
    let mut scan = JsonScan {
        text: &source.text,
        i: 0,
    };
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
    if source.text.len() > MAX_INPUT_BYTES {
        return Err(Diag::error(
            TOO_LARGE,
            format!(
                "{} is {} bytes; the most tb reads is {} bytes",
                source.name,
                source.text.len(),
                MAX_INPUT_BYTES
            ),
        )
        .in_source(source)
        .with_help("split the event into smaller files, or check that this is the right file"));
    }
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
            "tb::load::native::empty",
            format!("{} is empty: it holds no event", source.name),
        )
        .in_source(source)
        .with_help("check that this is the right file; an event needs at least its `[[participants]]` and `[[rounds]]`"));
    }
    Ok(())
}

/// A span of one character at `at` (empty at the end), on char boundaries.
fn char_span(text: &str, at: usize) -> Span {
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

fn toml_error(source: &Source, e: &toml::de::Error) -> Diag {
    let msg = e.message().trim().replace('\n', "; ");
    let d = Diag::error(SYNTAX, format!("TOML syntax error: {msg}"));
    let d = match e.span() {
        Some(r) => {
            let start = r.start.min(source.text.len());
            let end = r.end.clamp(start, source.text.len());
            let span = if source.text.is_char_boundary(start) && source.text.is_char_boundary(end) {
                Span::new(start, end)
            } else {
                char_span(&source.text, start)
            };
            d.at(source, span, msg)
        }
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

// ---------------------------------------------------------------------------
// The spanned value tree
// ---------------------------------------------------------------------------

/// A value read from TOML or JSON, with the span of its text.
#[derive(Clone, Debug)]
pub(super) struct Node {
    pub(super) span: Option<Span>,
    pub(super) v: V,
}

#[derive(Clone, Debug)]
pub(super) enum V {
    Null,
    Bool(bool),
    Int(i64),
    /// A TOML float.
    Float(f64),
    /// A number kept as its literal text (JSON numbers, huge TOML integers).
    NumText(String),
    Str(String),
    Arr(Vec<Node>),
    Table(Vec<(Key, Node)>),
}

#[derive(Clone, Debug)]
pub(super) struct Key {
    pub(super) name: String,
    pub(super) span: Option<Span>,
}

impl Node {
    fn bare(v: V) -> Node {
        Node { span: None, v }
    }
    fn sp(&self) -> Span {
        self.span.unwrap_or_default()
    }
    /// Give every value and key without a span of its own (implicit TOML
    /// tables) the span of the nearest enclosing value that has one.
    fn fix_spans(&mut self, parent: Span) {
        let me = *self.span.get_or_insert(parent);
        match &mut self.v {
            V::Arr(items) => items.iter_mut().for_each(|n| n.fix_spans(me)),
            V::Table(items) => {
                for (k, n) in items.iter_mut() {
                    n.fix_spans(me);
                    if k.span.is_none() {
                        k.span = n.span;
                    }
                }
            }
            _ => {}
        }
    }
    fn kind(&self) -> &'static str {
        match self.v {
            V::Null => "null",
            V::Bool(_) => "a boolean",
            V::Int(_) | V::Float(_) | V::NumText(_) => "a number",
            V::Str(_) => "a string",
            V::Arr(_) => "an array",
            V::Table(_) => "a table",
        }
    }
}

impl Key {
    fn sp(&self) -> Span {
        self.span.unwrap_or_default()
    }
}

// The `toml` crate hands out spans to a type that asks for a struct with
// these names (this is how `toml::Spanned` works). Asking for them ourselves
// lets one visitor take the span when there is one and the plain value when
// there is not (implicit tables have no span).
const SPANNED_NAME: &str = "$__serde_spanned_private_Spanned";
const SPANNED_START: &str = "$__serde_spanned_private_start";
const SPANNED_END: &str = "$__serde_spanned_private_end";
const SPANNED_VALUE: &str = "$__serde_spanned_private_value";
const SPANNED_FIELDS: &[&str] = &[SPANNED_START, SPANNED_END, SPANNED_VALUE];
const DATETIME_FIELD: &str = "$__toml_private_datetime";

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        d.deserialize_struct(SPANNED_NAME, SPANNED_FIELDS, NodeVisitor)
    }
}

/// A value without asking for its span (the inside of a spanned value).
struct Bare(Node);

impl<'de> Deserialize<'de> for Bare {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Bare, D::Error> {
        d.deserialize_any(NodeVisitor).map(Bare)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a value")
    }
    fn visit_bool<E>(self, b: bool) -> Result<Node, E> {
        Ok(Node::bare(V::Bool(b)))
    }
    fn visit_i64<E>(self, i: i64) -> Result<Node, E> {
        Ok(Node::bare(V::Int(i)))
    }
    fn visit_u64<E>(self, u: u64) -> Result<Node, E> {
        Ok(Node::bare(match i64::try_from(u) {
            Ok(i) => V::Int(i),
            Err(_) => V::NumText(u.to_string()),
        }))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Node, E> {
        Ok(Node::bare(V::Float(f)))
    }
    fn visit_str<E>(self, s: &str) -> Result<Node, E> {
        Ok(Node::bare(V::Str(s.to_string())))
    }
    fn visit_string<E>(self, s: String) -> Result<Node, E> {
        Ok(Node::bare(V::Str(s)))
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::bare(V::Null))
    }
    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::bare(V::Null))
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        Node::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut items = Vec::new();
        while let Some(n) = seq.next_element::<Node>()? {
            items.push(n);
        }
        Ok(Node::bare(V::Arr(items)))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let first = match map.next_key::<Key>()? {
            None => return Ok(Node::bare(V::Table(Vec::new()))),
            Some(k) => k,
        };
        if first.name == SPANNED_START {
            let start: usize = map.next_value()?;
            let _ = map.next_key::<Key>()?;
            let end: usize = map.next_value()?;
            let _ = map.next_key::<Key>()?;
            let Bare(mut inner) = map.next_value()?;
            inner.span = Some(Span::new(start, end.max(start)));
            return Ok(inner);
        }
        if first.name == DATETIME_FIELD {
            let s: String = map.next_value()?;
            return Ok(Node::bare(V::Str(s)));
        }
        let mut items = vec![(first, map.next_value::<Node>()?)];
        while let Some(k) = map.next_key::<Key>()? {
            let v = map.next_value::<Node>()?;
            items.push((k, v));
        }
        Ok(Node::bare(V::Table(items)))
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        d.deserialize_struct(SPANNED_NAME, SPANNED_FIELDS, KeyVisitor)
    }
}

struct KeyVisitor;

impl<'de> Visitor<'de> for KeyVisitor {
    type Value = Key;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }
    fn visit_str<E>(self, s: &str) -> Result<Key, E> {
        Ok(Key {
            name: s.to_string(),
            span: None,
        })
    }
    fn visit_string<E>(self, s: String) -> Result<Key, E> {
        Ok(Key {
            name: s,
            span: None,
        })
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Key, A::Error> {
        let _ = map.next_key::<String>()?;
        let start: usize = map.next_value()?;
        let _ = map.next_key::<String>()?;
        let end: usize = map.next_value()?;
        let _ = map.next_key::<String>()?;
        let name: String = map.next_value()?;
        Ok(Key {
            name,
            span: Some(Span::new(start, end.max(start))),
        })
    }
}

/// Builds the spanned tree from JSON text that serde_json has accepted.
struct JsonScan<'a> {
    text: &'a str,
    i: usize,
}

impl JsonScan<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.i).copied()
    }
    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> Result<(), usize> {
        self.ws();
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.i)
        }
    }
    fn value(&mut self, depth: usize) -> Result<Node, usize> {
        if depth > 200 {
            return Err(self.i);
        }
        self.ws();
        let start = self.i;
        let v = match self.peek() {
            Some(b'{') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.peek() == Some(b'}') {
                    self.i += 1;
                } else {
                    loop {
                        self.ws();
                        let ks = self.i;
                        let name = self.string()?;
                        let key = Key {
                            name,
                            span: Some(Span::new(ks, self.i)),
                        };
                        self.eat(b':')?;
                        let v = self.value(depth + 1)?;
                        items.push((key, v));
                        self.ws();
                        match self.peek() {
                            Some(b',') => self.i += 1,
                            Some(b'}') => {
                                self.i += 1;
                                break;
                            }
                            _ => return Err(self.i),
                        }
                    }
                }
                V::Table(items)
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.peek() == Some(b']') {
                    self.i += 1;
                } else {
                    loop {
                        items.push(self.value(depth + 1)?);
                        self.ws();
                        match self.peek() {
                            Some(b',') => self.i += 1,
                            Some(b']') => {
                                self.i += 1;
                                break;
                            }
                            _ => return Err(self.i),
                        }
                    }
                }
                V::Arr(items)
            }
            Some(b'"') => V::Str(self.string()?),
            Some(b't') => self.literal("true", V::Bool(true))?,
            Some(b'f') => self.literal("false", V::Bool(false))?,
            Some(b'n') => self.literal("null", V::Null)?,
            Some(c) if c == b'-' || c.is_ascii_digit() => {
                while matches!(
                    self.peek(),
                    Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                ) {
                    self.i += 1;
                }
                V::NumText(self.text[start..self.i].to_string())
            }
            _ => return Err(self.i),
        };
        Ok(Node {
            span: Some(Span::new(start, self.i)),
            v,
        })
    }
    fn literal(&mut self, word: &str, v: V) -> Result<V, usize> {
        if self.text[self.i..].starts_with(word) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.i)
        }
    }
    fn string(&mut self) -> Result<String, usize> {
        let start = self.i;
        if self.peek() != Some(b'"') {
            return Err(start);
        }
        let bytes = self.text.as_bytes();
        let mut j = start + 1;
        loop {
            match bytes.get(j) {
                None => return Err(j),
                Some(b'\\') => j += 2,
                Some(b'"') => break,
                Some(_) => j += 1,
            }
        }
        self.i = j + 1;
        // Escapes are decoded by serde_json itself.
        serde_json::from_str::<String>(self.text.get(start..=j).ok_or(start)?).map_err(|_| start)
    }
}

// ---------------------------------------------------------------------------
// Exact numbers
// ---------------------------------------------------------------------------

/// A TOML float, exactly as it was written: Rust prints the shortest decimal
/// that reads back as the same f64, which is the literal in the file.
fn num_from_f64(f: f64) -> Option<Num> {
    if !f.is_finite() {
        return None;
    }
    Num::parse(&format!("{f}"))
}

/// A JSON number literal (possibly with an exponent), exactly.
fn num_from_text(t: &str) -> Option<Num> {
    let (mantissa, exp) = match t.find(['e', 'E']) {
        Some(i) => (&t[..i], t[i + 1..].parse::<i32>().ok()?),
        None => (t, 0),
    };
    let m = plain_decimal(mantissa).or_else(|| Num::parse(mantissa))?;
    if exp == 0 {
        return Some(m);
    }
    if exp.unsigned_abs() > 38 {
        return None;
    }
    let p = Num::ratio(10i128.checked_pow(exp.unsigned_abs())?, 1).ok()?;
    if exp >= 0 {
        m.mul(p).ok()
    } else {
        m.div(p).ok()
    }
}

/// A plain decimal such as `-12.50` or `3`, of at most 18 digits: the
/// value `Num::parse` gives, without the detour through a `Decimal` (most
/// numbers of a large event are like this). Anything else is `None`.
fn plain_decimal(t: &str) -> Option<Num> {
    let digits = t.strip_prefix('-').unwrap_or(t);
    let (int, frac) = match digits.split_once('.') {
        Some((_, "")) => return None,
        Some(parts) => parts,
        None => (digits, ""),
    };
    let all = || int.bytes().chain(frac.bytes());
    if int.is_empty() || int.len() + frac.len() > 18 || !all().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let m = all().fold(0i128, |m, b| m * 10 + i128::from(b - b'0'));
    let m = if digits.len() < t.len() { -m } else { m };
    Num::ratio(m, 10i128.pow(frac.len() as u32)).ok()
}

// ---------------------------------------------------------------------------
// The schema walker
// ---------------------------------------------------------------------------

struct Cx<'s> {
    src: &'s Source,
    errors: Vec<Diag>,
    /// What a pairing bye is worth when the bye does not say
    /// (`event.scoring.bye`).
    bye_points: Option<Num>,
    /// Whether `[event]` gave a `scoring` table.
    scoring_given: bool,
    /// Where each data value name and unit first appears (line, 1-based),
    /// for the check against a ruleset's reads.
    lines: crate::model::DataNames,
}

impl Cx<'_> {
    fn err(&mut self, code: &'static str, span: Span, msg: String, label: &str, help: &str) {
        self.errors.push(
            Diag::error(code, msg)
                .at(self.src, span, label)
                .with_help(help),
        );
    }
    fn wrong_type(&mut self, n: &Node, what: &str, expected: &str) {
        self.err(
            SYNTAX,
            n.sp(),
            format!("{what} must be {expected}, not {}", n.kind()),
            &format!("expected {expected}"),
            "docs/data-format.md lists every field and its type",
        );
    }

    fn table<'n>(&mut self, n: &'n Node, what: &str) -> Option<Obj<'n>> {
        match &n.v {
            V::Table(items) => {
                // A repeated key (possible only in JSON) is reported here and
                // then counts as read, so it is not also an unknown field.
                // Most tables are small (a game has three keys): comparing
                // each key with the ones before is cheaper than hashing.
                let small = items.len() <= 16;
                let mut seen: HashMap<&str, ()> = HashMap::new();
                let mut used = vec![false; items.len()];
                for (i, (k, _)) in items.iter().enumerate() {
                    let again = if small {
                        items[..i].iter().any(|(first, _)| first.name == k.name)
                    } else {
                        seen.insert(k.name.as_str(), ()).is_some()
                    };
                    if again {
                        used[i] = true;
                        self.err(
                            SYNTAX,
                            k.sp(),
                            format!("`{}` is given twice in {what}", k.name),
                            "second time",
                            "give each field once",
                        );
                    }
                }
                Some(Obj { items, used })
            }
            _ => {
                self.wrong_type(n, what, "a table");
                None
            }
        }
    }

    /// Report the fields nobody asked for.
    fn finish(&mut self, obj: &Obj, what: &str, allowed: &[&str]) {
        for (k, _) in obj.rest() {
            self.err(
                UNKNOWN_FIELD,
                k.sp(),
                format!("{what} has no field `{}`", k.name),
                "unknown field",
                &format!("the fields of {what} are: {}", allowed.join(", ")),
            );
        }
    }

    fn array<'n>(&mut self, n: &'n Node, what: &str) -> Option<&'n [Node]> {
        match &n.v {
            V::Arr(items) => Some(items),
            _ => {
                self.wrong_type(n, what, "an array");
                None
            }
        }
    }

    fn string(&mut self, n: &Node, what: &str) -> Option<String> {
        match &n.v {
            V::Str(s) => Some(s.clone()),
            _ => {
                self.wrong_type(n, what, "a string");
                None
            }
        }
    }

    fn boolean(&mut self, n: &Node, what: &str) -> Option<bool> {
        match &n.v {
            V::Bool(b) => Some(*b),
            _ => {
                self.wrong_type(n, what, "true or false");
                None
            }
        }
    }

    fn num(&mut self, n: &Node, what: &str) -> Option<Num> {
        let parsed = match &n.v {
            V::Int(i) => Some(Num::int(*i)),
            V::Float(f) => num_from_f64(*f),
            V::NumText(t) => num_from_text(t),
            V::Str(s) => Num::parse(s),
            _ => {
                self.wrong_type(n, what, "a number");
                return None;
            }
        };
        if parsed.is_none() {
            self.err(
                SYNTAX,
                n.sp(),
                format!("{what} is not a number tb can hold exactly"),
                "not an exact number",
                "write a decimal such as 15.62 or a fraction such as \"2/3\"; \
                 at most 18 significant digits, no infinities",
            );
        }
        parsed
    }

    fn whole(&mut self, n: &Node, what: &str) -> Option<i64> {
        let x = self.num(n, what)?;
        match i64::try_from(x.numer()) {
            Ok(i) if x.is_integer() => Some(i),
            _ => {
                self.err(
                    SYNTAX,
                    n.sp(),
                    format!("{what} must be a whole number, not {x}"),
                    "not a whole number",
                    "write a whole number",
                );
                None
            }
        }
    }

    fn count(&mut self, n: &Node, what: &str) -> Option<u32> {
        let i = self.whole(n, what)?;
        match u32::try_from(i) {
            Ok(u) => Some(u),
            Err(_) => {
                self.err(
                    SYNTAX,
                    n.sp(),
                    format!("{what} must be a whole number from 0, not {i}"),
                    "out of range",
                    "write a whole number from 0",
                );
                None
            }
        }
    }

    fn pair(&mut self, n: &Node, what: &str) -> Option<[Num; 2]> {
        match &n.v {
            V::Arr(items) if items.len() == 2 => {
                let a = self.num(&items[0], what);
                let b = self.num(&items[1], what);
                Some([a?, b?])
            }
            _ => {
                self.wrong_type(n, what, "a pair [home, away]");
                None
            }
        }
    }

    /// A participant or member id: a string, or a whole number kept as text.
    fn id(&mut self, n: &Node, what: &str) -> Option<String> {
        let s = match &n.v {
            V::Str(s) => s.clone(),
            V::Int(i) => i.to_string(),
            V::NumText(t) if t.bytes().all(|b| b.is_ascii_digit() || b == b'-') => t.clone(),
            _ => {
                self.wrong_type(n, what, "a string or a whole number");
                return None;
            }
        };
        if s.trim().is_empty() {
            self.err(
                SYNTAX,
                n.sp(),
                format!("{what} is empty"),
                "empty id",
                "give every participant a non-empty id",
            );
            return None;
        }
        Some(s)
    }

    /// The line of a key, if the reader kept its span.
    fn line(&self, span: Option<Span>) -> Option<usize> {
        span.map(|s| self.src.line_col(s.start).0)
    }

    fn values(&mut self, n: &Node, what: &str) -> BTreeMap<String, Num> {
        let mut out = BTreeMap::new();
        if let V::Table(items) = &n.v {
            if self.table(n, what).is_some() {
                for (k, v) in items {
                    if let Some(x) = self.num(v, &format!("`{}` in {what}", k.name)) {
                        out.insert(k.name.clone(), x);
                    }
                }
            }
        } else {
            self.wrong_type(n, what, "a table of numbers");
        }
        out
    }
}

/// A table being read: which of its fields have been asked for.
struct Obj<'n> {
    items: &'n [(Key, Node)],
    used: Vec<bool>,
}

impl<'n> Obj<'n> {
    /// The value of a field; `null` counts as absent.
    fn get(&mut self, name: &str) -> Option<&'n Node> {
        let i = self.items.iter().position(|(k, _)| k.name == name)?;
        self.used[i] = true;
        match self.items[i].1.v {
            V::Null => None,
            _ => Some(&self.items[i].1),
        }
    }
    fn rest(&self) -> impl Iterator<Item = &'n (Key, Node)> + '_ {
        self.items
            .iter()
            .zip(&self.used)
            .filter(|(_, u)| !**u)
            .map(|(kv, _)| kv)
    }
}

const ROOT_FIELDS: &[&str] = &["event", "participants", "rounds", "decisions"];
const EVENT_FIELDS: &[&str] = &[
    "name",
    "sport",
    "system",
    "kind",
    "rounds",
    "start_date",
    "scoring",
    "primary",
    "values",
    "tiebreaks",
];
const SCORING_FIELDS: &[&str] = &["win", "draw", "loss", "bye"];
const PARTICIPANT_FIELDS: &[&str] = &[
    "id",
    "name",
    "rating",
    "title",
    "federation",
    "withdrawn_after",
    "members",
    "sessions",
    "values",
    "score",
    "rank",
];
const MEMBER_FIELDS: &[&str] = &["id", "name", "rating"];
const ROUND_FIELDS: &[&str] = &["round", "session", "stage", "games", "byes"];
const GAME_FIELDS: &[&str] = &[
    "home",
    "away",
    "result",
    "points",
    "weight",
    "boards",
    "home_partner",
    "away_partner",
    "any other name: a unit, [home, away]",
];
const BOARD_FIELDS: &[&str] = &["number", "home", "away", "top", "played"];
const BYE_FIELDS: &[&str] = &["id", "type", "points", "any other name: a unit, one number"];
const DECISION_FIELDS: &[&str] = &["order", "reason"];

/// One game as read, with both sides' entries and where it was written.
struct GameRec {
    round: u32,
    span: Span,
    /// (participant, span of its id) for home, away, home partner, away partner.
    sides: Vec<(Pid, Span)>,
    home: Pid,
    away: Pid,
    weight: Num,
    home_entry: Entry,
    away_entry: Entry,
    partner_entries: Vec<(Pid, Entry)>,
}

struct ByeRec {
    round: u32,
    pid: Pid,
    span: Span,
    entry: Entry,
}

/// Where a round number came from, for range errors; its stage, for the
/// knockout check.
struct RoundRef {
    round: u32,
    span: Span,
    stage: Stage,
}

/// Build an event from a value tree made by another loader (CSV), so every
/// format shares the native schema's rules and diagnostics.
pub(super) fn build_from_tree(src: &Source, root: &Node) -> Result<Event, Diag> {
    build(src, root)
}

fn build(src: &Source, root: &Node) -> Result<Event, Diag> {
    let mut cx = Cx {
        src,
        errors: Vec::new(),
        bye_points: None,
        scoring_given: false,
        lines: Default::default(),
    };
    let mut top = match cx.table(root, "the file") {
        Some(t) => t,
        None => return Err(finish_errors(src, cx.errors)),
    };
    let event_node = top.get("event");
    let participants_node = top.get("participants");
    let rounds_node = top.get("rounds");
    let decisions_node = top.get("decisions");
    cx.finish(&top, "the file", ROOT_FIELDS);

    let (mut ev, primary) = read_event_header(&mut cx, event_node)?;
    let declared_rounds = ev.rounds;

    // Participants, and where each one's `sessions` (else its id) is.
    let mut index: HashMap<String, Pid> = HashMap::new();
    let mut session_spans: Vec<Span> = Vec::new();
    let mut id_spans: Vec<Span> = Vec::new();
    if let Some(pn) = participants_node {
        if let Some(list) = cx.array(pn, "`participants`") {
            if list.len() > MAX_PARTICIPANTS {
                return Err(too_large(
                    src,
                    pn.sp(),
                    format!(
                        "{} participants; the most tb reads is {MAX_PARTICIPANTS}",
                        list.len()
                    ),
                ));
            }
            for pnode in list {
                if let Some((p, id_span, sessions_span)) = read_participant(&mut cx, pnode) {
                    if let Some(&first) = index.get(&p.id) {
                        let msg = format!("participant id `{}` is used twice", p.id);
                        let first_name = ev.participants[first].name.clone();
                        cx.err(
                            DUPLICATE_PARTICIPANT,
                            id_span,
                            msg,
                            "second participant with this id",
                            &format!("ids must be unique; the first `{}` is {first_name}", p.id),
                        );
                        continue;
                    }
                    index.insert(p.id.clone(), ev.participants.len());
                    session_spans.push(sessions_span.unwrap_or(id_span));
                    id_spans.push(id_span);
                    ev.participants.push(p);
                }
            }
        }
    }

    // Rounds.
    let mut games: Vec<GameRec> = Vec::new();
    let mut byes: Vec<ByeRec> = Vec::new();
    let mut round_refs: Vec<RoundRef> = Vec::new();
    if let Some(rn) = rounds_node {
        if let Some(list) = cx.array(rn, "`rounds`") {
            for (i, rnode) in list.iter().enumerate() {
                read_round(
                    &mut cx,
                    &mut ev,
                    primary.as_deref(),
                    &index,
                    rnode,
                    i,
                    &mut games,
                    &mut byes,
                    &mut round_refs,
                )?;
            }
        }
    }

    // Decisions.
    if let Some(dn) = decisions_node {
        if let Some(list) = cx.array(dn, "`decisions`") {
            for d in list {
                if let Some(dec) = read_decision(&mut cx, &index, d) {
                    ev.decisions.push(dec);
                }
            }
        }
    }

    // The scheduled number of rounds, and every round inside it.
    match declared_rounds {
        0 => ev.rounds = round_refs.iter().map(|r| r.round).max().unwrap_or(0),
        n => {
            for r in round_refs.iter().filter(|r| r.round > n) {
                cx.err(
                    ROUND_OUT_OF_RANGE,
                    r.span,
                    format!("round {} is after the last round ({n})", r.round),
                    "beyond `event.rounds`",
                    "correct the round number, or raise `rounds` in [event]",
                );
            }
        }
    }
    let cells = ev.participants.len() as u64 * u64::from(ev.rounds);
    if cells > MAX_PARTICIPANT_ROUNDS {
        return Err(too_large(
            src,
            Span::new(0, 0),
            format!(
                "{} participants × {} rounds is {cells} participant-rounds; the most tb reads is {MAX_PARTICIPANT_ROUNDS}",
                ev.participants.len(),
                ev.rounds
            ),
        ));
    }

    check_stages(&mut cx, &ev, &round_refs);
    let keep = check_rounds(&mut cx, &ev, &games, &byes);

    if !cx.errors.is_empty() {
        return Err(finish_errors(src, cx.errors));
    }

    // Everything is consistent: hand out the entries. Room for one entry a
    // round, the usual count, saves regrowing each list entry by entry.
    for p in &mut ev.participants {
        p.entries.reserve_exact(ev.rounds as usize);
    }
    for (g, keep) in games.into_iter().zip(keep) {
        if !keep {
            continue;
        }
        ev.participants[g.home].entries.push(g.home_entry);
        ev.participants[g.away].entries.push(g.away_entry);
        for (pid, e) in g.partner_entries {
            ev.participants[pid].entries.push(e);
        }
    }
    for b in byes {
        ev.participants[b.pid].entries.push(b.entry);
    }
    canonical_units(&mut ev);
    ev.complete_rounds();
    for m in session_mismatches(&ev) {
        let p = &ev.participants[m.pid];
        cx.err(
            SESSION_MISMATCH,
            session_spans[m.pid],
            format!(
                "`{}` ({}): session {} is declared as {}, but its games add up to {}",
                p.id, p.name, m.session, m.declared, m.computed
            ),
            "declared session scores",
            "a session score is the sum of the points of the participant's rounds in that session (in the unit of the points); correct the declared score or the games",
        );
    }
    for pid in without_field(&ev) {
        let p = &ev.participants[pid];
        cx.err(
            FIELD_MISSING,
            id_spans[pid],
            format!(
                "`{}` ({}) has no `field`, but other participants have one",
                p.id, p.name
            ),
            "no field",
            "in a two-winner movement every pair is ranked in its field: give each participant `values = { field = 1 }` (North-South) or `{ field = 2 }` (East-West)",
        );
    }
    if !cx.errors.is_empty() {
        return Err(finish_errors(src, cx.errors));
    }
    add_warnings(&mut ev);
    bridge_warnings(&mut ev);
    ev.data_names = Some(with_lines(crate::model::DataNames::of(&ev), &cx.lines));
    Ok(ev)
}

/// A bridge knockout event says which rounds are the knockout match: every
/// round states its `stage`, and at least one is a knockout match (WBF 2
/// ranks on the knockout match alone; a file that left it to be guessed
/// from session numbers added the qualification's IMPs to it).
fn check_stages(cx: &mut Cx, ev: &Event, round_refs: &[RoundRef]) {
    if ev.sport != Sport::Bridge || ev.system != System::Knockout {
        return;
    }
    let mut unstated = 0;
    for r in round_refs.iter().filter(|r| r.stage == Stage::Unstated) {
        unstated += 1;
        cx.err(
            STAGE_MISSING,
            r.span,
            format!("round {} of a knockout event does not say its stage", r.round),
            "no `stage`",
            "in a knockout event every round says which stage it belongs to: `stage = \"knockout\"` for the rounds (segments) of the knockout match, `stage = \"qualification\"` for the qualification's (also `final`, `play-off`)",
        );
    }
    if unstated == 0 && !round_refs.iter().any(|r| r.stage.knockout()) {
        cx.err(
            STAGE_MISSING,
            round_refs.first().map_or(Span::new(0, 0), |r| r.span),
            "no round of this knockout event is in a knockout match".to_string(),
            "no `stage = \"knockout\"`",
            "mark the rounds (segments) of the knockout match `stage = \"knockout\"` (or `final`, `play-off`)",
        );
    }
}

/// The participants without a `field` when others have one: each field is
/// ranked on its own (`rank.rs`), so a pair left without one would be
/// ranked apart from both.
pub(super) fn without_field(ev: &Event) -> Vec<Pid> {
    if ev.participants.iter().all(|p| p.field().is_none()) {
        return Vec::new();
    }
    (0..ev.participants.len())
        .filter(|&i| ev.participants[i].field().is_none())
        .collect()
}

/// A participant whose declared score for a session is not what its games
/// in that session add up to.
pub(super) struct SessionMismatch {
    pub(super) pid: Pid,
    pub(super) session: usize,
    pub(super) declared: Num,
    pub(super) computed: Num,
}

/// Declared per-session scores (`sessions`) checked against the games: the
/// score of session s is the sum of the points of the participant's rounds
/// in session s (its byes included, absent rounds not). A session the
/// participant has no round in cannot be checked, nor can several declared
/// sessions when every round of the event is in one session (the rounds
/// then do not say which session they belong to). The pairs rulesets rank
/// on these scores, so a slip in them would move a pair silently.
pub(super) fn session_mismatches(ev: &Event) -> Vec<SessionMismatch> {
    let mut out = Vec::new();
    if ev.participants.iter().all(|p| p.sessions.is_empty()) {
        return out;
    }
    let mut first = None;
    let mut several = false;
    for e in ev.participants.iter().flat_map(|p| &p.entries) {
        if e.status == Status::Absent {
            continue;
        }
        match first {
            None => first = Some(e.session),
            Some(s) if s != e.session => several = true,
            _ => {}
        }
    }
    for (pid, p) in ev.participants.iter().enumerate() {
        if p.sessions.len() > 1 && !several {
            continue;
        }
        for (i, &declared) in p.sessions.iter().enumerate() {
            let session = i + 1;
            let mut any = false;
            let mut total = Num::ZERO;
            for e in p
                .entries
                .iter()
                .filter(|e| e.status != Status::Absent && e.session as usize == session)
            {
                any = true;
                match total.add(e.points) {
                    Ok(t) => total = t,
                    Err(_) => {
                        any = false;
                        break;
                    }
                }
            }
            if any && total != declared {
                out.push(SessionMismatch {
                    pid,
                    session,
                    declared,
                    computed: total,
                });
            }
        }
    }
    out
}

/// Bridge notes on data read in an older form: a knockout carry-over given
/// as the participant value `carryover` (it belongs to the knockout match:
/// `carryover = [home, away]` on one of its games). It is still read, as
/// the carry-over into the knockout match.
fn bridge_warnings(ev: &mut Event) {
    if ev.sport != Sport::Bridge || ev.system != System::Knockout {
        return;
    }
    let mut notes = Vec::new();
    for p in &ev.participants {
        if let Some(c) = p.values.get("carryover") {
            notes.push(crate::model::Warning::new(
                CARRYOVER_VALUE,
                format!(
                    "`{}` ({}): the carry-over {c} is a participant value; it belongs to the knockout match: write `carryover = [home, away]` on one of its games (read as the carry-over into the knockout match)",
                    p.id, p.name
                ),
            ));
        }
    }
    ev.warnings.extend(notes);
}

/// The event's data names with the lines the tree reader saw them at.
fn with_lines(
    mut names: crate::model::DataNames,
    lines: &crate::model::DataNames,
) -> crate::model::DataNames {
    for (k, v) in &mut names.participant {
        if let Some(l) = lines.participant.get(k) {
            *v = l.clone();
        }
    }
    for (k, v) in &mut names.event {
        *v = lines.event.get(k).copied().flatten();
    }
    for (k, v) in &mut names.units {
        *v = lines.units.get(k).copied().flatten();
    }
    names
}

fn finish_errors(src: &Source, errors: Vec<Diag>) -> Diag {
    let n = errors.len();
    if n == 1 {
        return Diag::many(INVALID, "", errors);
    }
    Diag::many(INVALID, format!("{n} problems in {}", src.name), errors)
        .in_source(src)
        .with_help("each problem is listed below with its place in the file")
}

fn too_large(src: &Source, span: Span, msg: String) -> Diag {
    Diag::error(TOO_LARGE, msg)
        .at(src, span, "too large")
        .with_help("tb caps the size of an event so that a bad file cannot exhaust memory; split the event or check the file")
}

fn read_event_header(cx: &mut Cx, node: Option<&Node>) -> Result<(Event, Option<String>), Diag> {
    let mut ev = Event::new("", Sport::Chess, System::Swiss, 0);
    let Some(node) = node else {
        return Ok((ev, None));
    };
    let Some(mut t) = cx.table(node, "[event]") else {
        return Ok((ev, None));
    };
    if let Some(n) = t.get("name") {
        ev.name = cx.string(n, "`event.name`").unwrap_or_default();
    }
    if let Some(n) = t.get("sport") {
        ev.sport_declared = true;
        if let Some(s) = cx.string(n, "`event.sport`") {
            ev.sport = match s.as_str() {
                "chess" => Sport::Chess,
                "cards" => Sport::Cards,
                "bridge" => Sport::Bridge,
                "other" => Sport::Other,
                _ => {
                    bad_choice(cx, n, "`event.sport`", &s, "chess, cards, bridge, other");
                    Sport::Chess
                }
            };
        }
    }
    ev.scoring = match ev.sport {
        Sport::Cards => Scoring::cards(),
        _ => Scoring::chess(),
    };
    if let Some(n) = t.get("system") {
        if let Some(s) = cx.string(n, "`event.system`") {
            ev.system = match s.as_str() {
                "swiss" => System::Swiss,
                "round-robin" | "round_robin" => System::RoundRobin,
                "knockout" => System::Knockout,
                "movement" => System::Movement,
                "other" => System::Other,
                _ => {
                    bad_choice(
                        cx,
                        n,
                        "`event.system`",
                        &s,
                        "swiss, round-robin, knockout, movement, other",
                    );
                    System::Swiss
                }
            };
        }
    }
    if let Some(n) = t.get("kind") {
        if let Some(s) = cx.string(n, "`event.kind`") {
            ev.kind = match s.as_str() {
                "player" => Kind::Player,
                "pair" => Kind::Pair,
                "team" => Kind::Team,
                _ => {
                    bad_choice(cx, n, "`event.kind`", &s, "player, pair, team");
                    Kind::Player
                }
            };
        }
    }
    if let Some(n) = t.get("rounds") {
        if let Some(r) = cx.count(n, "`event.rounds`") {
            if r > MAX_ROUNDS {
                return Err(too_large(
                    cx.src,
                    n.sp(),
                    format!("{r} rounds; the most tb reads is {MAX_ROUNDS}"),
                ));
            }
            if r == 0 {
                cx.err(
                    ROUND_OUT_OF_RANGE,
                    n.sp(),
                    "`event.rounds` is 0".to_string(),
                    "no rounds",
                    "give the scheduled number of rounds, or leave `rounds` out to use the highest round in the data",
                );
            }
            ev.rounds = r;
        }
    }
    if let Some(n) = t.get("start_date") {
        ev.start_date = cx.string(n, "`event.start_date`");
    }
    if let Some(n) = t.get("scoring") {
        if let Some(mut s) = cx.table(n, "`event.scoring`") {
            cx.scoring_given = true;
            for (field, slot) in [
                ("win", &mut ev.scoring.win),
                ("draw", &mut ev.scoring.draw),
                ("loss", &mut ev.scoring.loss),
            ] {
                if let Some(v) = s.get(field) {
                    if let Some(x) = cx.num(v, &format!("`event.scoring.{field}`")) {
                        *slot = x;
                    }
                }
            }
            if let Some(v) = s.get("bye") {
                cx.bye_points = cx.num(v, "`event.scoring.bye`");
            }
            cx.finish(&s, "`event.scoring`", SCORING_FIELDS);
        }
    }
    let mut primary = None;
    if let Some(n) = t.get("primary") {
        primary = cx.string(n, "`event.primary`");
    }
    if let Some(n) = t.get("values") {
        ev.values = cx.values(n, "`event.values`");
        if let V::Table(items) = &n.v {
            for (k, _) in items {
                let line = cx.line(k.span);
                cx.lines.event.entry(k.name.clone()).or_insert(line);
            }
        }
    }
    if let Some(n) = t.get("tiebreaks") {
        if let Some(list) = cx.array(n, "`event.tiebreaks`") {
            for item in list {
                if let Some(s) = cx.string(item, "a tie-break descriptor") {
                    ev.tiebreaks.push(s);
                }
            }
        }
    }
    cx.finish(&t, "[event]", EVENT_FIELDS);
    Ok((ev, primary))
}

fn bad_choice(cx: &mut Cx, n: &Node, what: &str, got: &str, choices: &str) {
    cx.err(
        SYNTAX,
        n.sp(),
        format!("{what} cannot be \"{got}\""),
        "not one of the choices",
        &format!("write one of: {choices}"),
    );
}

fn read_participant(cx: &mut Cx, node: &Node) -> Option<(Participant, Span, Option<Span>)> {
    let mut t = cx.table(node, "a participant")?;
    let Some(id_node) = t.get("id") else {
        cx.err(
            SYNTAX,
            node.sp(),
            "a participant has no `id`".to_string(),
            "no id",
            "give every participant an id (a string or a whole number)",
        );
        return None;
    };
    let id = cx.id(id_node, "a participant id")?;
    let mut p = Participant::new(id.clone(), id);
    if let Some(n) = t.get("name") {
        if let Some(s) = cx.string(n, "a participant name") {
            p.name = s;
        }
    }
    if let Some(n) = t.get("rating") {
        p.rating = cx.whole(n, "a rating");
    }
    if let Some(n) = t.get("title") {
        p.title = cx.string(n, "a title");
    }
    if let Some(n) = t.get("federation") {
        p.federation = cx.string(n, "a federation");
    }
    if let Some(n) = t.get("withdrawn_after") {
        p.withdrawn_after = cx.count(n, "`withdrawn_after`");
    }
    if let Some(n) = t.get("members") {
        if let Some(list) = cx.array(n, "`members`") {
            for m in list {
                if let Some(m) = read_member(cx, m) {
                    p.members.push(m);
                }
            }
        }
    }
    let sessions_span = t.get("sessions").map(|n| n.sp());
    if let Some(n) = t.get("sessions") {
        if let Some(list) = cx.array(n, "`sessions`") {
            for s in list {
                if let Some(x) = cx.num(s, "a session score") {
                    p.sessions.push(x);
                }
            }
        }
    }
    if let Some(n) = t.get("values") {
        p.values = cx.values(n, "a participant's `values`");
        if let V::Table(items) = &n.v {
            for (k, _) in items {
                let line = cx.line(k.span);
                cx.lines
                    .participant
                    .entry(k.name.clone())
                    .or_insert_with(|| (p.id.clone(), line));
            }
        }
    }
    if let Some(n) = t.get("score") {
        p.recorded_score = cx.num(n, "`score`");
    }
    if let Some(n) = t.get("rank") {
        p.recorded_rank = cx.count(n, "`rank`");
        if p.recorded_rank == Some(0) {
            cx.err(
                SYNTAX,
                n.sp(),
                "`rank` is 0: ranks start at 1".to_string(),
                "rank 0",
                "write the place as printed, from 1",
            );
        }
    }
    cx.finish(&t, "a participant", PARTICIPANT_FIELDS);
    Some((p, id_node.sp(), sessions_span))
}

fn read_member(cx: &mut Cx, node: &Node) -> Option<Member> {
    if let V::Str(s) = &node.v {
        return Some(Member {
            id: s.clone(),
            name: s.clone(),
            rating: None,
        });
    }
    let mut t = cx.table(node, "a member")?;
    let id = t.get("id").and_then(|n| cx.id(n, "a member id"));
    let name = t.get("name").and_then(|n| cx.string(n, "a member name"));
    let rating = t.get("rating").and_then(|n| cx.whole(n, "a rating"));
    cx.finish(&t, "a member", MEMBER_FIELDS);
    let (id, name) = match (id, name) {
        (Some(i), Some(n)) => (i, n),
        (Some(i), None) => (i.clone(), i),
        (None, Some(n)) => (n.clone(), n),
        (None, None) => {
            cx.err(
                SYNTAX,
                node.sp(),
                "a member has neither `id` nor `name`".to_string(),
                "empty member",
                "give each member an id, a name, or both",
            );
            return None;
        }
    };
    Some(Member { id, name, rating })
}

fn lookup(cx: &mut Cx, index: &HashMap<String, Pid>, n: &Node, what: &str) -> Option<(Pid, Span)> {
    let id = cx.id(n, what)?;
    match index.get(&id) {
        Some(&p) => Some((p, n.sp())),
        None => {
            cx.err(
                UNKNOWN_PARTICIPANT,
                n.sp(),
                format!("no participant has the id `{id}`"),
                "unknown id",
                "add this participant to [[participants]], or correct the id",
            );
            None
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn read_round(
    cx: &mut Cx,
    ev: &mut Event,
    primary: Option<&str>,
    index: &HashMap<String, Pid>,
    node: &Node,
    position: usize,
    games: &mut Vec<GameRec>,
    byes: &mut Vec<ByeRec>,
    round_refs: &mut Vec<RoundRef>,
) -> Result<(), Diag> {
    let Some(mut t) = cx.table(node, "a round") else {
        return Ok(());
    };
    let (round, round_span) = match t.get("round") {
        Some(n) => match cx.count(n, "a round number") {
            Some(r) => (r, n.sp()),
            None => return Ok(()),
        },
        None => (u32::try_from(position + 1).unwrap_or(u32::MAX), node.sp()),
    };
    if round > MAX_ROUNDS {
        return Err(too_large(
            cx.src,
            round_span,
            format!("round {round}; the highest round tb reads is {MAX_ROUNDS}"),
        ));
    }
    if round == 0 {
        cx.err(
            ROUND_OUT_OF_RANGE,
            round_span,
            "round 0: rounds are numbered from 1".to_string(),
            "round 0",
            "number rounds from 1",
        );
        return Ok(());
    }
    let session = match t.get("session") {
        Some(n) => cx.count(n, "a session number").unwrap_or(1),
        None => 1,
    };
    // The stage is what the data says, never inferred (WBF 2 needs the
    // knockout match told apart from the qualification).
    let stage = match t.get("stage") {
        Some(n) => match cx.string(n, "a round's `stage`") {
            Some(name) => Stage::by_name(&name).unwrap_or_else(|| {
                bad_choice(cx, n, "a round's `stage`", &name, Stage::NAMES);
                Stage::Unstated
            }),
            None => Stage::Unstated,
        },
        None => Stage::Unstated,
    };
    round_refs.push(RoundRef {
        round,
        span: round_span,
        stage,
    });
    if let Some(gn) = t.get("games") {
        if let Some(list) = cx.array(gn, "`games`") {
            for g in list {
                if let Some(mut rec) = read_game(cx, ev, primary, index, g, round, session) {
                    let carry = ev.find_unit("carryover");
                    if ev.sport == Sport::Bridge
                        && !stage.knockout()
                        && carry.is_some_and(|u| rec.home_entry.unit(u).is_some())
                    {
                        cx.err(
                            CARRYOVER_OUTSIDE,
                            rec.span,
                            format!("a carry-over in round {round}, which is not in a knockout match"),
                            "carry-over outside a knockout match",
                            "a knockout carry-over belongs to the knockout match: give this round `stage = \"knockout\"` (or `final`, `play-off`); a BAM stage's carry-over is the participant value `carryover`",
                        );
                    }
                    rec.home_entry.stage = stage;
                    rec.away_entry.stage = stage;
                    for (_, e) in &mut rec.partner_entries {
                        e.stage = stage;
                    }
                    games.push(rec);
                }
            }
        }
    }
    if let Some(bn) = t.get("byes") {
        if let Some(list) = cx.array(bn, "`byes`") {
            for b in list {
                if let Some(mut rec) = read_bye(cx, ev, index, b, round, session) {
                    rec.entry.stage = stage;
                    byes.push(rec);
                }
            }
        }
    }
    cx.finish(&t, "a round", ROUND_FIELDS);
    Ok(())
}

/// A result string, read for the event's sport.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Res {
    /// Each side's outcome (chess-style results).
    Outcomes(Outcome, Outcome),
    /// Games won by home, won by away, drawn (cards).
    Games(u32, u32, u32),
    /// One side forfeited; `true` when home won.
    Forfeit(bool),
    DoubleForfeit,
}

fn parse_result(s: &str, sport: Sport) -> Option<Res> {
    let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    match t.as_str() {
        "+-" | "+:-" | "+/-" => return Some(Res::Forfeit(true)),
        "-+" | "-:+" | "-/+" => return Some(Res::Forfeit(false)),
        "--" | "-:-" | "-/-" => return Some(Res::DoubleForfeit),
        _ => {}
    }
    if sport == Sport::Cards {
        let parts: Vec<&str> = t.split('-').collect();
        if !(2..=3).contains(&parts.len()) {
            return None;
        }
        let mut g = [0u32; 3];
        for (slot, p) in g.iter_mut().zip(&parts) {
            if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) || p.len() > 4 {
                return None;
            }
            *slot = p.parse().ok()?;
        }
        return Some(Res::Games(g[0], g[1], g[2]));
    }
    if t == "=" {
        return Some(Res::Outcomes(Outcome::Draw, Outcome::Draw));
    }
    let side = |x: &str| -> Option<Outcome> {
        match x {
            "1" | "1.0" => Some(Outcome::Win),
            "0" | "0.0" => Some(Outcome::Loss),
            "½" | "1/2" | "0.5" | ".5" => Some(Outcome::Draw),
            _ => None,
        }
    };
    let (a, b) = t.split_once('-').or_else(|| t.split_once(':'))?;
    let (a, b) = (side(a)?, side(b)?);
    let valid = matches!(
        (a, b),
        (Outcome::Win, Outcome::Loss)
            | (Outcome::Loss, Outcome::Win)
            | (Outcome::Draw, Outcome::Draw)
            | (Outcome::Loss, Outcome::Loss)
            | (Outcome::Draw, Outcome::Loss)
            | (Outcome::Loss, Outcome::Draw)
    );
    valid.then_some(Res::Outcomes(a, b))
}

/// Whether a result `sport` cannot read is unmistakably another sport's:
/// a draw written the chess way (½, 1/2, 0.5, =) in a card-game event, or
/// games won-lost-drawn (three numbers) elsewhere.
fn other_sports_result(s: &str, sport: Sport) -> bool {
    let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    if sport == Sport::Cards {
        parse_result(&t, Sport::Chess).is_some()
            && (t.contains('½') || t.contains("1/2") || t.contains(".5") || t == "=")
    } else {
        match parse_result(&t, Sport::Cards) {
            // Two numbers may be a team match score ("2-2"): only the
            // three-number form is unmistakably cards.
            Some(Res::Games(..)) => t.split('-').count() == 3,
            _ => false,
        }
    }
}

fn flip(o: Outcome) -> Outcome {
    match o {
        Outcome::Win => Outcome::Loss,
        Outcome::Loss => Outcome::Win,
        Outcome::Draw => Outcome::Draw,
    }
}

fn compare(h: Num, a: Num) -> Outcome {
    match h.cmp(&a) {
        std::cmp::Ordering::Greater => Outcome::Win,
        std::cmp::Ordering::Less => Outcome::Loss,
        std::cmp::Ordering::Equal => Outcome::Draw,
    }
}

fn points_for(s: &Scoring, o: Outcome) -> Num {
    match o {
        Outcome::Win => s.win,
        Outcome::Draw => s.draw,
        Outcome::Loss => s.loss,
    }
}

fn unit_id(cx: &mut Cx, ev: &mut Event, name: &str, span: Span) -> Option<UnitId> {
    if ev.find_unit(name).is_none() && ev.units.len() >= MAX_UNITS {
        cx.err(
            TOO_LARGE,
            span,
            format!("more than {MAX_UNITS} different units"),
            "one unit too many",
            "tb caps the number of unit names; check for misspelt or generated keys",
        );
        return None;
    }
    if !cx.lines.units.contains_key(name) {
        let line = cx.line(Some(span));
        cx.lines.units.insert(name.to_string(), line);
    }
    Some(ev.unit_id(name))
}

fn read_game(
    cx: &mut Cx,
    ev: &mut Event,
    primary: Option<&str>,
    index: &HashMap<String, Pid>,
    node: &Node,
    round: u32,
    session: u32,
) -> Option<GameRec> {
    let mut t = cx.table(node, "a game")?;
    let errors_before = cx.errors.len();
    // `what` is the key in backquotes, for the diagnostics.
    let side_id = |cx: &mut Cx, t: &mut Obj, key: &str, what: &str| match t.get(key) {
        Some(n) => lookup(cx, index, n, what).map(Some),
        None => Some(None),
    };
    let home = side_id(cx, &mut t, "home", "`home`");
    let away = side_id(cx, &mut t, "away", "`away`");
    let home_partner = side_id(cx, &mut t, "home_partner", "`home_partner`");
    let away_partner = side_id(cx, &mut t, "away_partner", "`away_partner`");
    let result = t
        .get("result")
        .and_then(|n| cx.string(n, "`result`").map(|s| (s, n.sp())));
    let points = t.get("points").and_then(|n| cx.pair(n, "`points`"));
    // The result, read for the sport (checked even if an id is wrong).
    let sport = ev.sport;
    let scoring = ev.scoring;
    let parsed = match &result {
        Some((s, span)) => match parse_result(s, sport) {
            Some(r) => Some(r),
            None if other_sports_result(s, sport) => {
                // A result of another sport's shape: one file, one sport.
                let (this, that) = if sport == Sport::Cards {
                    ("a card-game event", "a chess-style result (win/draw/loss)")
                } else {
                    (
                        "a chess-style event",
                        "a card-game result (games won-lost-drawn)",
                    )
                };
                cx.err(
                    MIXED_SPORTS,
                    *span,
                    format!("\"{s}\" is {that}, but this is {this}"),
                    "another sport's result",
                    if sport == Sport::Cards {
                        "one file holds one sport: set `sport` in [event] to the event's game; card results are games won - games lost - drawn, e.g. \"2-1-0\""
                    } else {
                        "one file holds one sport: set `sport = \"cards\"` in [event] for a card-game event; chess results are \"1-0\", \"0-1\", \"1/2-1/2\""
                    },
                );
                None
            }
            None => {
                let help = if sport == Sport::Cards {
                    "card results are games won by home - games won by away - drawn games, e.g. \"2-1-0\"; forfeits \"+-\", \"-+\", \"--\""
                } else {
                    "write \"1-0\", \"0-1\", \"1/2-1/2\" (or \"½-½\", \"0.5-0.5\", \"=\"), \"0-0\"; forfeits \"+-\", \"-+\", \"--\""
                };
                cx.err(
                    BAD_RESULT,
                    *span,
                    format!("\"{s}\" is not a result tb knows"),
                    "unknown result",
                    help,
                );
                None
            }
        },
        None => None,
    };
    let weight = match t.get("weight") {
        Some(n) => {
            let w = cx.num(n, "`weight`");
            if let Some(w) = w {
                if w <= Num::ZERO {
                    cx.err(
                        SYNTAX,
                        n.sp(),
                        format!("`weight` must be more than 0, not {w}"),
                        "not positive",
                        "a full meeting has weight 1; a triangle's half match 0.5",
                    );
                }
            }
            w.unwrap_or(Num::ONE)
        }
        None => Num::ONE,
    };
    let mut boards: Vec<(u32, Num, Num, Option<Num>, bool)> = Vec::new();
    if let Some(bn) = t.get("boards") {
        if let Some(list) = cx.array(bn, "`boards`") {
            for (i, b) in list.iter().enumerate() {
                let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
                if let Some(board) = read_board(cx, b, number) {
                    boards.push(board);
                }
            }
        }
    }
    // Every other key is a unit: [home, away].
    let mut units: Vec<(String, Span, [Num; 2])> = Vec::new();
    for (k, v) in t.rest() {
        match &v.v {
            V::Arr(items) if items.len() == 2 => {
                if let Some(pair) = cx.pair(v, &format!("unit `{}`", k.name)) {
                    units.push((k.name.clone(), k.sp(), pair));
                }
            }
            _ => cx.err(
                UNKNOWN_FIELD,
                k.sp(),
                format!(
                    "a game has no field `{}`, and its value is not a unit pair [home, away]",
                    k.name
                ),
                "unknown field",
                &format!("the fields of a game are: {}", GAME_FIELDS.join(", ")),
            ),
        }
    }
    let (home, away) = match (home, away) {
        (Some(Some(h)), Some(Some(a))) => (h, a),
        (Some(None), _) | (_, Some(None)) => {
            cx.err(
                SYNTAX,
                node.sp(),
                "a game needs both `home` and `away`".to_string(),
                "incomplete game",
                "name both sides; a participant without an opponent gets a bye in `byes`",
            );
            return None;
        }
        _ => return None,
    };
    let (Some(home_partner), Some(away_partner)) = (home_partner, away_partner) else {
        return None;
    };
    if cx.errors.len() > errors_before {
        return None;
    }
    let mut seen: Vec<(Pid, Span)> = Vec::new();
    for s in [Some(home), Some(away), home_partner, away_partner]
        .into_iter()
        .flatten()
    {
        if let Some(first) = seen.iter().find(|(p, _)| *p == s.0) {
            let id = ev.participants[s.0].id.clone();
            cx.errors.push(
                Diag::error(
                    PAIRED_TWICE,
                    format!("`{id}` appears twice in the same game"),
                )
                .at(cx.src, s.1, "again here")
                .at(cx.src, first.1, "first here")
                .with_help("a participant cannot play itself or partner its opponent"),
            );
            return None;
        }
        seen.push(s);
    }

    let mut home_units: Vec<(UnitId, Num)> = Vec::new();
    let mut away_units: Vec<(UnitId, Num)> = Vec::new();
    if let Some(Res::Games(w, l, d)) = parsed {
        for (name, h, a) in [
            ("games_won", w, l),
            ("games_lost", l, w),
            ("games_drawn", d, d),
        ] {
            if units.iter().any(|(n, _, _)| n == name) {
                continue; // given explicitly: that wins
            }
            let u = unit_id(cx, ev, name, node.sp())?;
            home_units.push((u, Num::int(i64::from(h))));
            away_units.push((u, Num::int(i64::from(a))));
        }
    }
    for (name, span, [h, a]) in &units {
        let u = unit_id(cx, ev, name, *span)?;
        home_units.push((u, *h));
        away_units.push((u, *a));
    }
    let (mut status_h, mut status_a) = (Status::Played, Status::Played);
    let outcome_from_result = match parsed {
        Some(Res::Outcomes(h, _)) => Some(h),
        Some(Res::Games(w, l, _)) => Some(compare(Num::int(i64::from(w)), Num::int(i64::from(l)))),
        Some(Res::Forfeit(home_won)) => {
            if home_won {
                status_h = Status::ForfeitWin;
                status_a = Status::ForfeitLoss;
                Some(Outcome::Win)
            } else {
                status_h = Status::ForfeitLoss;
                status_a = Status::ForfeitWin;
                Some(Outcome::Loss)
            }
        }
        Some(Res::DoubleForfeit) => {
            status_h = Status::DoubleForfeit;
            status_a = Status::DoubleForfeit;
            None
        }
        None => None,
    };
    // Outcomes for each side: most results are mirror images; "0-0", "½-0"
    // and double forfeits are not.
    let result_outcomes: Option<(Outcome, Outcome)> = match parsed {
        Some(Res::Outcomes(h, a)) => Some((h, a)),
        Some(Res::DoubleForfeit) => Some((Outcome::Loss, Outcome::Loss)),
        _ => outcome_from_result.map(|o| (o, flip(o))),
    };
    let primary_unit = primary.and_then(|p| units.iter().find(|(n, _, _)| n == p));
    let board_totals = if boards.is_empty() {
        None
    } else {
        let mut h = Num::ZERO;
        let mut a = Num::ZERO;
        for b in &boards {
            match (h.add(b.1), a.add(b.2)) {
                (Ok(x), Ok(y)) => (h, a) = (x, y),
                _ => {
                    cx.err(
                        TOO_LARGE,
                        node.sp(),
                        "the board scores add up to more than tb can hold".to_string(),
                        "too large",
                        "check the board scores",
                    );
                    return None;
                }
            }
        }
        Some([h, a])
    };
    let (pts, outcomes) = if let Some(p) = points {
        // Points that rank the two sides the other way round from the
        // result: kept as written, with a warning naming both and the round.
        if let (Some((h, a)), Some((text, _))) = (result_outcomes, &result) {
            let by_points = compare(p[0], p[1]);
            if h == flip(a) && by_points != h && status_h == Status::Played {
                let hid = &ev.participants[home.0].id;
                let aid = &ev.participants[away.0].id;
                ev.warnings.push(format!(
                    "round {round}: `{hid}` - `{aid}`: the points [{}, {}] disagree with the result \"{text}\"; the points are used as written",
                    p[0], p[1]
                ).into());
            }
        }
        (
            p,
            result_outcomes.unwrap_or((compare(p[0], p[1]), compare(p[1], p[0]))),
        )
    } else if let Some((h, a)) = result_outcomes {
        ([points_for(&scoring, h), points_for(&scoring, a)], (h, a))
    } else if let Some((_, _, p)) = primary_unit {
        (*p, (compare(p[0], p[1]), compare(p[1], p[0])))
    } else if let Some([h, a]) = board_totals {
        let o = compare(h, a);
        (
            [points_for(&scoring, o), points_for(&scoring, flip(o))],
            (o, flip(o)),
        )
    } else {
        let hid = &ev.participants[home.0].id;
        let aid = &ev.participants[away.0].id;
        let help = match primary {
            Some(p) => format!("give `result`, `points = [home, away]`, `{p} = [home, away]` (the event's primary unit) or `boards`"),
            None => "give `result`, `points = [home, away]` or `boards`, or set `primary` in [event] to the unit that is the score".to_string(),
        };
        cx.err(
            NO_RESULT,
            node.sp(),
            format!("the game `{hid}` - `{aid}` in round {round} has no result"),
            "no result",
            &help,
        );
        return None;
    };

    let mut home_boards = Vec::new();
    let mut away_boards = Vec::new();
    for (number, h, a, top, played) in boards {
        home_boards.push(Board {
            number,
            score: h,
            top,
            played,
        });
        away_boards.push(Board {
            number,
            score: a,
            top,
            played,
        });
    }
    let home_entry = Entry {
        round,
        session,
        stage: Stage::Unstated,
        opponent: Some(away.0),
        partner: home_partner.map(|p| p.0),
        status: status_h,
        outcome: outcomes.0,
        points: pts[0],
        side: Some(Side::First),
        weight,
        extra: EntryExtra::new(home_units.clone(), away_units.clone(), home_boards),
    };
    let away_entry = Entry {
        round,
        session,
        stage: Stage::Unstated,
        opponent: Some(home.0),
        partner: away_partner.map(|p| p.0),
        status: status_a,
        outcome: outcomes.1,
        points: pts[1],
        side: Some(Side::Second),
        weight,
        extra: EntryExtra::new(away_units, home_units, away_boards),
    };
    // Partners share their side's entry; each one's opponent is the other
    // side's partner (or, without one, the other side's player).
    let mut partner_entries = Vec::new();
    if let Some(hp) = home_partner {
        let mut e = home_entry.clone();
        e.partner = Some(home.0);
        e.opponent = Some(away_partner.map_or(away.0, |p| p.0));
        partner_entries.push((hp.0, e));
    }
    if let Some(ap) = away_partner {
        let mut e = away_entry.clone();
        e.partner = Some(away.0);
        e.opponent = Some(home_partner.map_or(home.0, |p| p.0));
        partner_entries.push((ap.0, e));
    }
    Some(GameRec {
        round,
        span: node.sp(),
        sides: seen,
        home: home.0,
        away: away.0,
        weight,
        home_entry,
        away_entry,
        partner_entries,
    })
}

fn read_board(
    cx: &mut Cx,
    node: &Node,
    position: u32,
) -> Option<(u32, Num, Num, Option<Num>, bool)> {
    match &node.v {
        V::Arr(_) => {
            let [h, a] = cx.pair(node, "a board")?;
            Some((position, h, a, None, true))
        }
        V::Table(_) => {
            let mut t = cx.table(node, "a board")?;
            let number = match t.get("number") {
                Some(n) => cx.count(n, "a board number")?,
                None => position,
            };
            let h = t
                .get("home")
                .and_then(|n| cx.num(n, "a board's `home` score"));
            let a = t
                .get("away")
                .and_then(|n| cx.num(n, "a board's `away` score"));
            let top = t.get("top").and_then(|n| cx.num(n, "a board's `top`"));
            let played = match t.get("played") {
                Some(n) => cx.boolean(n, "a board's `played`").unwrap_or(true),
                None => true,
            };
            cx.finish(&t, "a board", BOARD_FIELDS);
            match (h, a) {
                (Some(h), Some(a)) => Some((number, h, a, top, played)),
                _ => {
                    cx.err(
                        SYNTAX,
                        node.sp(),
                        "a board needs both `home` and `away` scores".to_string(),
                        "incomplete board",
                        "write a board as [home, away] or { number = 7, home = 6, away = -6, top = 24 }",
                    );
                    None
                }
            }
        }
        _ => {
            cx.wrong_type(node, "a board", "a pair [home, away] or a table");
            None
        }
    }
}

fn read_bye(
    cx: &mut Cx,
    ev: &mut Event,
    index: &HashMap<String, Pid>,
    node: &Node,
    round: u32,
    session: u32,
) -> Option<ByeRec> {
    let mut t = cx.table(node, "a bye")?;
    let Some(id_node) = t.get("id") else {
        cx.err(
            SYNTAX,
            node.sp(),
            "a bye has no `id`".to_string(),
            "no id",
            "name who had the bye: { id = \"erin\", type = \"pairing\" }",
        );
        return None;
    };
    let who = lookup(cx, index, id_node, "a bye's `id`");
    let status = match t.get("type") {
        Some(n) => match cx.string(n, "a bye's `type`")?.as_str() {
            "pairing" => Status::PairingBye,
            "full" => Status::FullBye,
            "half" => Status::HalfBye,
            "zero" => Status::ZeroBye,
            "absent" => Status::Absent,
            other => {
                bad_choice(
                    cx,
                    n,
                    "a bye's `type`",
                    other,
                    "pairing, full, half, zero, absent",
                );
                return None;
            }
        },
        None => Status::PairingBye,
    };
    let s = ev.scoring;
    let points = match t.get("points") {
        Some(n) => cx.num(n, "a bye's `points`")?,
        None => match bye_default(status, &s, cx.bye_points, ev.sport, cx.scoring_given) {
            Ok(x) => x,
            Err(why) => {
                cx.err(
                    BYE_WORTH,
                    node.sp(),
                    format!("round {round}: {why}"),
                    "a bye of unstated worth",
                    "a bridge event's regulations state what a bye is worth (often a stated number of VPs): give the bye its worth, `{ id = \"C\", type = \"pairing\", points = 12 }`, or give the event's `scoring = { win = 20, draw = 10, loss = 0, bye = 12 }`",
                );
                s.loss
            }
        },
    };
    let mut units = Vec::new();
    for (k, v) in t.rest() {
        match &v.v {
            V::Int(_) | V::Float(_) | V::NumText(_) | V::Str(_) => {
                let x = cx.num(v, &format!("unit `{}`", k.name))?;
                let u = unit_id(cx, ev, &k.name, k.sp())?;
                units.push((u, x));
            }
            _ => cx.err(
                UNKNOWN_FIELD,
                k.sp(),
                format!(
                    "a bye has no field `{}`, and its value is not a unit value",
                    k.name
                ),
                "unknown field",
                &format!("the fields of a bye are: {}", BYE_FIELDS.join(", ")),
            ),
        }
    }
    let (pid, span) = who?;
    let mut entry = Entry::unplayed(round, status, points, &s);
    entry.session = session;
    entry.set_units(units);
    Some(ByeRec {
        round,
        pid,
        span,
        entry,
    })
}

/// What a bye that does not give its `points` is worth. A pairing bye is
/// worth `event.scoring.bye` where given, else a win — in chess (FIDE's
/// pairing-allocated bye) and card games (seed 001: byes count as 2-0 match
/// wins). A bridge event has no such rule: there a pairing bye is worth
/// what the event's scoring says (`scoring.bye`), and a full or half bye a
/// win or a draw of the event's own `scoring`; otherwise the worth is
/// unstated (the error's text, Err) — never the chess point by default.
pub(super) fn bye_default(
    status: Status,
    s: &Scoring,
    bye: Option<Num>,
    sport: Sport,
    scoring_given: bool,
) -> Result<Num, &'static str> {
    let bridge = sport == Sport::Bridge;
    match status {
        Status::PairingBye => match bye {
            Some(x) => Ok(x),
            None if bridge => Err("a pairing bye in a bridge event is worth what the event's regulations say, and neither the bye's `points` nor the event's `scoring.bye` gives it"),
            None => Ok(s.win),
        },
        Status::FullBye | Status::HalfBye if bridge && !scoring_given => Err(
            "a full or half bye is worth a win or a draw of the event's scoring, and this bridge event gives no `scoring` (nor the bye its `points`)",
        ),
        Status::FullBye => Ok(s.win),
        Status::HalfBye => Ok(s.draw),
        _ => Ok(s.loss),
    }
}

fn read_decision(cx: &mut Cx, index: &HashMap<String, Pid>, node: &Node) -> Option<Decision> {
    let mut t = cx.table(node, "a decision")?;
    let order_node = t.get("order");
    let reason = t
        .get("reason")
        .and_then(|n| cx.string(n, "a decision's `reason`"))
        .unwrap_or_else(|| "decision".to_string());
    cx.finish(&t, "a decision", DECISION_FIELDS);
    let Some(order_node) = order_node else {
        cx.err(
            SYNTAX,
            node.sp(),
            "a decision has no `order`".to_string(),
            "no order",
            "list the participants in the decided order: order = [\"A\", \"B\"]",
        );
        return None;
    };
    let list = cx.array(order_node, "a decision's `order`")?;
    let mut order = Vec::new();
    for n in list {
        if let Some((p, _)) = lookup(cx, index, n, "a participant in a decision") {
            order.push(p);
        }
    }
    (order.len() == list.len()).then_some(Decision { order, reason })
}

/// An entry as it compares for duplicate records: which side it was written
/// on does not matter.
fn same_entry(a: &Entry, b: &Entry) -> bool {
    let mut a = a.clone();
    let mut b = b.clone();
    a.side = None;
    b.side = None;
    sort_units(&mut a);
    sort_units(&mut b);
    a == b
}

fn sort_units(e: &mut Entry) {
    e.units_mut().sort_by_key(|(u, _)| *u);
    e.against_mut().sort_by_key(|(u, _)| *u);
}

/// One game per pair per round (a repeat with the same result is dropped, a
/// repeat with another result is an error); one game or bye per participant
/// per round unless all its games that round are part-matches. Returns which
/// games to keep.
fn check_rounds(cx: &mut Cx, ev: &Event, games: &[GameRec], byes: &[ByeRec]) -> Vec<bool> {
    // Sorting, not hashing, finds the repeats: one sort of plain numbers
    // instead of a map lookup (and, below, a list) per game.
    let mut keep = vec![true; games.len()];
    let pair = |j: usize| {
        let g = &games[j];
        (g.round, g.home.min(g.away), g.home.max(g.away))
    };
    let mut by_pair: Vec<usize> = (0..games.len()).collect();
    by_pair.sort_unstable_by_key(|&j| (pair(j), j));
    // The first record of each game recorded again, by record.
    let mut first: Vec<Option<usize>> = vec![None; games.len()];
    for group in by_pair.chunk_by(|&a, &b| pair(a) == pair(b)) {
        for &j in &group[1..] {
            first[j] = Some(group[0]);
        }
    }
    for (j, g) in games.iter().enumerate() {
        let Some(i) = first[j] else {
            continue;
        };
        let away = g.away;
        let f = &games[i];
        let other = if f.home == g.home {
            &f.home_entry
        } else {
            &f.away_entry
        };
        if same_entry(other, &g.home_entry) {
            keep[j] = false;
        } else {
            let (a, b) = (&ev.participants[g.home].id, &ev.participants[away].id);
            cx.errors.push(
                Diag::error(
                    INCONSISTENT_GAME,
                    format!(
                        "`{a}` - `{b}` is recorded twice in round {} with different results",
                        g.round
                    ),
                )
                .at(cx.src, g.span, "this record")
                .at(cx.src, f.span, "disagrees with this one")
                .with_help("keep one record of each game, or make both records agree"),
            );
            keep[j] = false;
        }
    }

    // Every appearance, numbered in file order (kept games' sides, then
    // byes): (round, participant, number, span, part-match?).
    let mut seen: Vec<(u32, Pid, usize, Span, bool)> = Vec::new();
    for (g, k) in games.iter().zip(&keep) {
        if *k {
            let part = g.weight < Num::ONE;
            for (pid, span) in &g.sides {
                seen.push((g.round, *pid, seen.len(), *span, part));
            }
        }
    }
    for b in byes {
        seen.push((b.round, b.pid, seen.len(), b.span, false));
    }
    // Grouped by participant and round, each group in file order; reported
    // in the order of each group's first appearance.
    seen.sort_unstable_by_key(|a| (a.0, a.1, a.2));
    let mut twice: Vec<(usize, Diag)> = Vec::new();
    for v in seen.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        if v.len() > 1 && v.iter().any(|a| !a.4) {
            let id = &ev.participants[v[0].1].id;
            let d = Diag::error(
                PAIRED_TWICE,
                format!("`{id}` has {} games or byes in round {}", v.len(), v[0].0),
            )
            .at(cx.src, v[1].3, "again here")
            .at(cx.src, v[0].3, "first here")
            .with_help(
                "a participant plays once a round; a bridge triangle's half matches need `weight` below 1",
            );
            twice.push((v[0].2, d));
        }
    }
    twice.sort_unstable_by_key(|(at, _)| *at);
    cx.errors.extend(twice.into_iter().map(|(_, d)| d));
    keep
}

/// Units are numbered in name order, so the same event reads the same
/// whatever order its keys were written in.
fn canonical_units(ev: &mut Event) {
    let remap = canonical_order(ev);
    for p in &mut ev.participants {
        for e in &mut p.entries {
            for (u, _) in e.units_mut() {
                *u = remap[*u as usize];
            }
            for (u, _) in e.against_mut() {
                *u = remap[*u as usize];
            }
            sort_units(e);
        }
    }
}

/// Sort the event's unit names; returns each old unit id's new id.
fn canonical_order(ev: &mut Event) -> Vec<UnitId> {
    let mut names: Vec<(String, UnitId)> = ev
        .units
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i as UnitId))
        .collect();
    names.sort();
    let mut remap = vec![0 as UnitId; names.len()];
    for (new, (_, old)) in names.iter().enumerate() {
        remap[*old as usize] = new as UnitId;
    }
    ev.units = names.into_iter().map(|(n, _)| n).collect();
    remap
}

fn add_warnings(ev: &mut Event) {
    let mut warnings = Vec::new();
    for p in &ev.participants {
        participant_warnings(p, &mut warnings);
    }
    ev.warnings
        .extend(warnings.into_iter().map(crate::model::Warning::from));
}

/// Warnings about one participant's complete entries: a game after its
/// withdrawal, a recorded score that is not the sum of its points.
fn participant_warnings(p: &Participant, warnings: &mut Vec<String>) {
    if let Some(k) = p.withdrawn_after {
        for e in p
            .entries
            .iter()
            .filter(|e| e.round > k && e.opponent.is_some())
        {
            warnings.push(format!(
                "participant `{}` ({}) withdrew after round {k} but has a game in round {}",
                p.id, p.name, e.round
            ));
        }
    }
    if let Some(rec) = p.recorded_score {
        let total = p
            .entries
            .iter()
            .try_fold(Num::ZERO, |acc, e| acc.add(e.points));
        if let Ok(total) = total {
            if total != rec {
                warnings.push(format!(
                    "participant `{}` ({}): the recorded score {rec} differs from the {total} computed from the rounds",
                    p.id, p.name
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut for plain decimals gives what `Num::parse` gives.
    #[test]
    fn plain_decimals_parse_as_num_parse_does() {
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "7",
            "007",
            "-12.50",
            "0.5",
            "-0.0",
            "2.",
            ".5",
            "-",
            "",
            "1.2.3",
            "+5",
            "1_000",
            " 3",
            "1e5",
            "1/2",
            "999999999999999999",
            "9999999999999999999",
            "123456789.123456789",
            "0.000000000000000001",
            "-99999999999999999.9",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        // Every split of 1 to 20 digits into whole and fractional parts.
        let digits = "98765432109876543210";
        for n in 1..=20 {
            for point in 0..=n {
                let (a, b) = digits[..n].split_at(point);
                for sign in ["", "-"] {
                    texts.push(format!("{sign}{a}.{b}"));
                    texts.push(format!("{sign}{a}{b}"));
                }
            }
        }
        for t in &texts {
            if let Some(x) = plain_decimal(t) {
                assert_eq!(Some(x), Num::parse(t), "{t:?}");
            }
        }
        assert_eq!(plain_decimal("-12.50"), Num::parse("-12.5"));
        assert!(plain_decimal("9999999999999999999").is_none());
    }
}
