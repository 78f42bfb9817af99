//! Comma-separated values (`--format csv`): the report's rows through
//! `csv::Writer` (which quotes where a field needs it), text fields guarded
//! against spreadsheet formulas (`crate::escape`).

use super::report::Place;
use super::{shown, Report};
use crate::escape::{csv_field, CsvField};
use crate::eval::Value;
use crate::num::Fixed;
use std::borrow::Cow;
use std::io;

/// A CSV writer into a buffer: the tables here differ in length (the
/// category lists follow the standings), so records may too.
pub(super) fn writer(capacity: usize) -> csv::Writer<Vec<u8>> {
    csv::WriterBuilder::new()
        .flexible(true)
        .from_writer(Vec::with_capacity(capacity))
}

/// The buffer written, handed to `out`.
pub(super) fn finish(w: csv::Writer<Vec<u8>>, out: &mut dyn io::Write) -> io::Result<()> {
    let text = w.into_inner().map_err(|e| e.into_error())?;
    out.write_all(&text)
}

/// A text field: a name, a label, what decided a place.
pub(super) fn text<W: io::Write>(w: &mut csv::Writer<W>, parts: &[&str]) -> csv::Result<()> {
    w.write_field(csv_field(parts, CsvField::Text).as_bytes())
}

/// Writes the standings, every column (data for programs: a ruleset's
/// columns never depend on the event).
pub(super) fn write(r: &Report, out: &mut dyn io::Write) -> io::Result<()> {
    let mut w = writer(256 + r.standings.len() * (48 + 12 * r.columns.len()));
    text(&mut w, &["rank"])?;
    text(&mut w, &["id"])?;
    text(&mut w, &["name"])?;
    for c in &r.columns {
        text(&mut w, &[c.label])?;
    }
    text(&mut w, &["decided_by"])?;
    w.write_record(None::<&[u8]>)?;
    let mut digits = Vec::with_capacity(40);
    // Consecutive rows are mostly decided by the same criterion: its field
    // is made once.
    let mut last: Option<([&str; 4], Cow<str>)> = None;
    for place in &r.standings {
        digits.clear();
        Fixed::int(place.rank as u64).write(&mut digits);
        w.write_field(&digits)?;
        text(&mut w, &[place.id])?;
        text(&mut w, &[place.name])?;
        for ci in 0..r.columns.len() {
            value(&mut w, place, ci, &mut digits)?;
        }
        let d = place.decided();
        match &last {
            Some((parts, field)) if *parts == d => w.write_field(field.as_bytes())?,
            _ => {
                let field = csv_field(&d, CsvField::Text);
                w.write_field(field.as_bytes())?;
                last = Some((d, field));
            }
        }
        w.write_record(None::<&[u8]>)?;
    }
    finish(w, out)
}

/// A value field: as the table prints it, never altered otherwise (`-0.5`
/// stays a number); an undefined value is an empty field.
fn value<W: io::Write>(
    w: &mut csv::Writer<W>,
    place: &Place,
    ci: usize,
    digits: &mut Vec<u8>,
) -> csv::Result<()> {
    let values = &place.values;
    let Some(v) = values.values.get(ci) else {
        return w.write_field([]);
    };
    if values.more(ci).is_none() {
        if let Value::Num(n) = v {
            if let Some((f, _)) = shown(*n, values.decimals(ci)) {
                // Digits, a sign and a point: nothing to guard or quote.
                digits.clear();
                f.write(digits);
                return w.write_field(&digits[..]);
            }
        }
    }
    match values.text(ci) {
        Some(t) => w.write_field(csv_field(&[&t], CsvField::Value).as_bytes()),
        None => w.write_field([]),
    }
}
