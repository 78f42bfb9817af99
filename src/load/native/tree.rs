//! The spanned value tree both native formats are read into (TOML through serde, JSON by a scanner over text serde_json accepted), and exact numbers from their literals.

use crate::diag::Span;
use crate::num::Num;
use serde::de::{Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

// ---------------------------------------------------------------------------
// The spanned value tree
// ---------------------------------------------------------------------------

/// A value read from TOML or JSON, with the span of its text.
#[derive(Clone, Debug)]
pub(in crate::load) struct Node {
    pub(in crate::load) span: Option<Span>,
    pub(in crate::load) v: V,
}

#[derive(Clone, Debug)]
pub(in crate::load) enum V {
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
pub(in crate::load) struct Key {
    pub(in crate::load) name: String,
    pub(in crate::load) span: Option<Span>,
}

impl Node {
    fn bare(v: V) -> Node {
        Node { span: None, v }
    }
    pub(super) fn sp(&self) -> Span {
        self.span.unwrap_or_default()
    }
    /// Give every value and key without a span of its own (implicit TOML
    /// tables) the span of the nearest enclosing value that has one.
    pub(super) fn fix_spans(&mut self, parent: Span) {
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
    pub(super) fn kind(&self) -> &'static str {
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
    pub(super) fn sp(&self) -> Span {
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
            // The private field names are known: passed over, not kept.
            let start: usize = map.next_value()?;
            let _ = map.next_key::<IgnoredAny>()?;
            let end: usize = map.next_value()?;
            let _ = map.next_key::<IgnoredAny>()?;
            let Bare(mut inner) = map.next_value()?;
            // toml 1.x spans a `[table]` by its header alone: up to its
            // last value, as before, so that a table's error shows it whole.
            let end = match &inner.v {
                V::Table(items) => items
                    .iter()
                    .filter_map(|(_, n)| n.span)
                    .fold(end, |e, s| e.max(s.end)),
                _ => end,
            };
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
        // The private field names are known: passed over, not kept.
        let _ = map.next_key::<IgnoredAny>()?;
        let start: usize = map.next_value()?;
        let _ = map.next_key::<IgnoredAny>()?;
        let end: usize = map.next_value()?;
        let _ = map.next_key::<IgnoredAny>()?;
        let name: String = map.next_value()?;
        Ok(Key {
            name,
            span: Some(Span::new(start, end.max(start))),
        })
    }
}

/// Builds the spanned tree from JSON text that serde_json has accepted.
pub(super) struct JsonScan<'a> {
    text: &'a str,
    i: usize,
}

impl JsonScan<'_> {
    /// A scanner at the start of `text`.
    pub(super) fn new(text: &str) -> JsonScan<'_> {
        JsonScan { text, i: 0 }
    }

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
    pub(super) fn value(&mut self, depth: usize) -> Result<Node, usize> {
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
        let inner = &self.text[start + 1..j];
        // Most strings hold no escape: serde_json has accepted the text, so
        // they are their bytes. Escapes are decoded by serde_json itself.
        if !inner.as_bytes().contains(&b'\\') {
            return Ok(inner.to_string());
        }
        serde_json::from_str::<String>(self.text.get(start..=j).ok_or(start)?).map_err(|_| start)
    }
}

// ---------------------------------------------------------------------------
// Exact numbers
// ---------------------------------------------------------------------------

/// A TOML float, exactly as it was written: Rust prints the shortest decimal
/// that reads back as the same f64, which is the literal in the file.
pub(super) fn num_from_f64(f: f64) -> Option<Num> {
    if !f.is_finite() {
        return None;
    }
    Num::parse(&format!("{f}"))
}

/// A JSON number literal (possibly with an exponent), exactly.
pub(super) fn num_from_text(t: &str) -> Option<Num> {
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
