//! The JSON document (`--format json`, a stable contract: see the README for
//! the schema), pretty-printed as serde_json prints it.
//!
//! The one JSON writer of the standings: every member goes through it. It
//! writes the text directly, without a tree (a row's tree costs more than
//! ranking it). Its reference, which it must match byte for byte, is the
//! serde_json tree `reference::to_json` in `tests/render_speed_equivalence.rs`
//! (the implementation it replaced), pretty-printed by serde_json.

use super::more::{table_more, text_of, More};
use super::{is_shared, push_value, shown, Meta, Out, Repeat};
use crate::eval::Value;
use crate::model::Event;
use crate::num::Fixed;
use crate::plan::Ruleset;
use crate::rank::{Decided, Standings};
use crate::syntax::ast::Direction;
use std::collections::HashMap;

/// The document: the small members before and after `standings` as
/// [`Small`] values, the rows written straight.
pub(super) fn json_text(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) -> String {
    // Each label's key once, where the label first appears, naming its last
    // column: what inserting the columns into a JSON map in order gives.
    let mut keys: Vec<(String, usize)> = Vec::new();
    for (ci, c) in s.columns.iter().enumerate() {
        let mut key = Out::default();
        key.push_str("        ");
        push_json_str(&mut key, &c.label);
        key.push_str(": ");
        let key = key.into_string();
        match keys.iter_mut().find(|(k, _)| *k == key) {
            Some(found) => found.1 = ci,
            None => keys.push((key, ci)),
        }
    }
    let mut out = Out::with_capacity(1024 + s.rows.len() * (320 + 80 * keys.len()));
    let (head, tail) = members(s, event, rs, meta);
    out.push('{');
    for (key, value) in &head {
        push_member(&mut out, key, value);
        out.push(',');
    }
    out.push_str("\n  \"standings\": ");
    if s.rows.is_empty() {
        out.push_str("[]");
    } else {
        out.push('[');
        let more = table_more(s);
        let mut decided_by = Repeat::new();
        for i in 0..s.rows.len() {
            out.push_str(if i == 0 { "\n" } else { ",\n" });
            json_row(&mut out, s, event, &keys, &more, &mut decided_by, i);
        }
        out.push_str("\n  ]");
    }
    for (key, value) in &tail {
        out.push(',');
        push_member(&mut out, key, value);
    }
    out.push_str("\n}\n");
    out.into_string()
}

/// A value of the document's small members (all but `standings`).
enum Small<'a> {
    Null,
    Bool(bool),
    Int(u64),
    Str(&'a str),
    Array(Vec<Small<'a>>),
    Object(Vec<(&'static str, Small<'a>)>),
}

impl<'a> Small<'a> {
    fn text(t: Option<&'a str>) -> Small<'a> {
        t.map_or(Small::Null, Small::Str)
    }

    /// Pretty-printed as serde_json does, its lines indented `depth` levels.
    fn write(&self, out: &mut Out, depth: usize) {
        match self {
            Small::Null => out.push_str("null"),
            Small::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Small::Int(n) => Fixed::int(*n).write(&mut out.0),
            Small::Str(t) => push_json_str(out, t),
            Small::Array(items) => push_nested(out, depth, "[", "]", items, |out, v| {
                v.write(out, depth + 1)
            }),
            Small::Object(members) => push_nested(out, depth, "{", "}", members, |out, (k, v)| {
                push_json_str(out, k);
                out.push_str(": ");
                v.write(out, depth + 1);
            }),
        }
    }
}

/// An array or object: `open` and `close` around its items, one a line,
/// indented a level deeper than `depth` (`[]`, `{}` when empty).
fn push_nested<T>(
    out: &mut Out,
    depth: usize,
    open: &str,
    close: &str,
    items: &[T],
    write: impl Fn(&mut Out, &T),
) {
    out.push_str(open);
    for (k, item) in items.iter().enumerate() {
        out.push_str(if k == 0 { "\n" } else { ",\n" });
        push_indent(out, depth + 1);
        write(out, item);
    }
    if !items.is_empty() {
        out.push('\n');
        push_indent(out, depth);
    }
    out.push_str(close);
}

fn push_indent(out: &mut Out, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

/// The members of the document before `standings`, and after it.
type Members<'a> = Vec<(&'static str, Small<'a>)>;

fn members<'a>(
    s: &'a Standings,
    event: &'a Event,
    rs: &'a Ruleset,
    meta: &'a Meta,
) -> (Members<'a>, Members<'a>) {
    use Small::{Array, Bool, Int, Object, Str};
    let text = Small::text;
    let head = vec![
        (
            "ruleset",
            Object(vec![
                ("name", Str(&meta.ruleset)),
                ("title", text(rs.title.as_deref())),
                ("source", text(rs.source_doc.as_deref())),
                ("edition", text(rs.edition.as_deref())),
            ]),
        ),
        ("event", {
            let mut fields = vec![
                ("name", Str(&event.name)),
                ("participants", Int(event.participants.len() as u64)),
                ("rounds", Int(u64::from(event.rounds))),
            ];
            // Standings before the event's end: after which round of how
            // many (only then, so that a complete event's output is as it was).
            if let Some((n, m)) = event.stands_after() {
                fields.push(("after_round", Int(u64::from(n))));
                fields.push(("scheduled_rounds", Int(u64::from(m))));
            }
            Object(fields)
        }),
        (
            "columns",
            Array(
                s.columns
                    .iter()
                    .map(|c| {
                        Object(vec![
                            ("label", Str(&c.label)),
                            ("cite", text(c.cite.as_deref())),
                            ("better", Str(better(c.dir))),
                            ("reversed", Bool(c.reversed)),
                        ])
                    })
                    .collect(),
            ),
        ),
    ];
    let undefined = s.undefined.iter().map(|u| {
        let p = &event.participants[u.pid];
        Object(vec![
            ("id", Str(&p.id)),
            ("name", Str(&p.name)),
            ("criterion", Str(&u.criterion)),
            ("cite", text(u.cite.as_deref())),
            ("reason", text(u.reason.as_deref())),
            ("cause", text(u.cause.as_deref())),
            ("decided", Bool(u.decided)),
        ])
    });
    let tail = vec![
        ("notes", Array(meta.notes.iter().map(|n| Str(n)).collect())),
        (
            "warnings",
            Array(event.warnings.iter().map(|w| Str(w)).collect()),
        ),
        ("lots_seed", s.lots_seed.map_or(Small::Null, Int)),
        ("undefined", Array(undefined.collect())),
        ("undefined_more", Int(s.undefined_more as u64)),
    ];
    (head, tail)
}

/// `"key": value` at the top level of the document.
fn push_member(out: &mut Out, key: &str, value: &Small) {
    out.push_str("\n  ");
    push_json_str(out, key);
    out.push_str(": ");
    value.write(out, 1);
}

/// One entry of `standings`, as serde_json pretty-prints it there.
fn json_row<'a>(
    out: &mut Out,
    s: &'a Standings,
    event: &Event,
    keys: &[(String, usize)],
    more: &HashMap<(usize, usize), More>,
    decided_by: &mut Repeat<Option<&'a Decided>>,
    i: usize,
) {
    let r = &s.rows[i];
    let p = &event.participants[r.pid];
    out.push_str("    {\n      \"rank\": ");
    Fixed::int(r.rank as u64).write(&mut out.0);
    out.push_str(",\n      \"id\": ");
    push_json_str(out, &p.id);
    out.push_str(",\n      \"name\": ");
    push_json_str(out, &p.name);
    out.push_str(",\n      \"shared\": ");
    out.push_str(if is_shared(s, i) { "true" } else { "false" });
    out.push_str(",\n      \"values\": ");
    let values = out.len();
    let same = json_object(out, keys, &r.values, |out, v, ci| {
        match more.get(&(i, ci)) {
            None => json_shown(out, v, s.columns[ci].decimals),
            Some(&m) => {
                match text_of(v, s.columns[ci].decimals, Some(m)) {
                    Some(t) => push_json_str(out, &t),
                    None => out.push_str("null"),
                }
                false
            }
        }
    });
    let values = values..out.len();
    out.push_str(",\n      \"exact\": ");
    if same {
        // Every value is shown exactly (the usual case): the same text again.
        out.0.extend_from_within(values);
    } else {
        json_object(out, keys, &r.values, |out, v, _| {
            json_exact(out, v);
            true
        });
    }
    out.push_str(",\n      \"decided_by\": ");
    decided_by.write(out, r.decided_by.as_deref(), |out, d| match d {
        Some(d) => {
            out.push_str("{\n        \"procedure\": ");
            push_json_str(out, &d.procedure);
            out.push_str(",\n        \"criterion\": ");
            push_json_str(out, &d.criterion);
            out.push_str(",\n        \"cite\": ");
            push_json_opt(out, d.cite.as_deref());
            out.push_str("\n      }");
        }
        None => out.push_str("null"),
    });
    out.push_str(",\n      \"unresolved\": ");
    push_json_opt(out, r.unresolved.as_deref());
    out.push_str("\n    }");
}

/// A row's `values` or `exact` object: `write` gives each value's JSON and
/// says whether it is also the value's `exact` entry; so does the result,
/// for all of them.
fn json_object(
    out: &mut Out,
    keys: &[(String, usize)],
    values: &[Value],
    write: impl Fn(&mut Out, &Value, usize) -> bool,
) -> bool {
    let mut first = true;
    let mut same = true;
    for (key, ci) in keys {
        let Some(v) = values.get(*ci) else { continue };
        out.push_str(if first { "{\n" } else { ",\n" });
        first = false;
        out.push_str(key);
        same &= write(out, v, *ci);
    }
    out.push_str(if first { "{}" } else { "\n      }" });
    same
}

/// A `values` entry: decimal strings or null, nothing else (the contract),
/// so an infinite quotient is null there (and "infinity" in `exact`).
/// Returns whether the `exact` entry reads the same.
fn json_shown(out: &mut Out, v: &Value, decimals: Option<u32>) -> bool {
    match v {
        Value::Inf => out.push_str("null"),
        Value::Num(n) => match shown(*n, decimals) {
            Some((f, exact)) => {
                out.push('"');
                f.write(&mut out.0);
                out.push('"');
                return exact;
            }
            None => push_json_value(out, v, decimals),
        },
        _ => push_json_value(out, v, decimals),
    }
    false
}

/// An `exact` entry: the number's exact decimal or fraction, "infinity",
/// or null where undefined.
fn json_exact(out: &mut Out, v: &Value) {
    match v {
        Value::Num(n) => {
            out.push('"');
            n.write_exact(&mut out.0);
            out.push('"');
        }
        Value::Inf => out.push_str("\"infinity\""),
        Value::Undef => out.push_str("null"),
        other => push_json_value(out, other, None),
    }
}

/// `higher` or `lower`: which values a column ranks first (JSON `columns`).
fn better(d: Direction) -> &'static str {
    match d {
        Direction::Desc => "higher",
        Direction::Asc => "lower",
    }
}

/// The inside of a JSON string, escaped as serde_json escapes it: `"`,
/// `\\` and control characters (the usual five by letter, the others as
/// `\u00xx`); everything else as it is.
pub(super) fn push_json_chars(out: &mut Out, text: &str) {
    // Most text needs no escape: one quick pass says so.
    if !text.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push_str(text);
        return;
    }
    let bytes = text.as_bytes();
    let mut done = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let short = match b {
            b'"' => b'"',
            b'\\' => b'\\',
            b'\n' => b'n',
            b'\r' => b'r',
            b'\t' => b't',
            0x08 => b'b',
            0x0c => b'f',
            0..=0x1f => b'u',
            _ => continue,
        };
        // Up to `i` is plain text, and `i` is ASCII: a char boundary.
        out.0.extend_from_slice(&bytes[done..i]);
        out.0.extend_from_slice(&[b'\\', short]);
        if short == b'u' {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            let hex = [
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 15)],
            ];
            out.0.extend_from_slice(&hex);
        }
        done = i + 1;
    }
    out.0.extend_from_slice(&bytes[done..]);
}

pub(super) fn push_json_str(out: &mut Out, text: &str) {
    out.push('"');
    push_json_chars(out, text);
    out.push('"');
}

fn push_json_opt(out: &mut Out, text: Option<&str>) {
    match text {
        Some(t) => push_json_str(out, t),
        None => out.push_str("null"),
    }
}

/// `v`'s display text as a JSON string, or null where it has none.
fn push_json_value(out: &mut Out, v: &Value, decimals: Option<u32>) {
    let start = out.len();
    out.push('"');
    if push_value(out, v, decimals, push_json_chars) {
        out.push('"');
    } else {
        out.truncate(start);
        out.push_str("null");
    }
}
