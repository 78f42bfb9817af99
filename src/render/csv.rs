//! Comma-separated values (`--format csv`), quoted where a field needs it;
//! text fields guarded against spreadsheet formulas (`crate::escape`).

use super::more::{table_more, text_of};
use super::{decided, push_value, Out, Repeat};
use crate::escape::{push_csv_field, CsvField};
use crate::model::Event;
use crate::num::Fixed;
use crate::rank::Standings;

pub(super) fn csv(s: &Standings, event: &Event) -> String {
    let more = table_more(s);
    let mut out = Out::with_capacity(256 + s.rows.len() * (48 + 12 * s.columns.len()));
    let head = ["rank", "id", "name"]
        .into_iter()
        .chain(s.columns.iter().map(|c| c.label.as_str()))
        .chain(["decided_by"]);
    for (k, h) in head.enumerate() {
        if k > 0 {
            out.push(',');
        }
        push_csv(&mut out, h);
    }
    out.push('\n');
    let mut decided_by = Repeat::new();
    for (i, r) in s.rows.iter().enumerate() {
        let p = &event.participants[r.pid];
        Fixed::int(r.rank as u64).write(&mut out.0);
        out.push(',');
        push_csv(&mut out, &p.id);
        out.push(',');
        push_csv(&mut out, &p.name);
        for (ci, (v, c)) in r.values.iter().zip(&s.columns).enumerate() {
            out.push(',');
            // An undefined value is an empty field.
            match more.get(&(i, ci)) {
                None => {
                    push_value(&mut out, v, c.decimals, push_csv_value);
                }
                Some(&m) => {
                    if let Some(t) = text_of(v, c.decimals, Some(m)) {
                        push_csv_value(&mut out, &t);
                    }
                }
            }
        }
        out.push(',');
        decided_by.write(&mut out, decided(s, i), |out, d| push_csv_joined(out, d));
        out.push('\n');
    }
    out.into_string()
}

/// A text field made of `parts` (a name, a label, what decided a place):
/// quoted where needed, guarded against formulas (`crate::escape`).
fn push_csv_joined(out: &mut Out, parts: &[&str]) {
    push_csv_field(out, parts, CsvField::Text);
}

/// A text field (see [`push_csv_joined`]).
pub(super) fn push_csv(out: &mut Out, text: &str) {
    push_csv_joined(out, &[text]);
}

/// A value field: quoted where needed, never altered otherwise (`-0.5`
/// stays a number).
fn push_csv_value(out: &mut Out, text: &str) {
    push_csv_field(out, &[text], CsvField::Value);
}
