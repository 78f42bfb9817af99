//! Standings and traces → text: table, JSON (a stable contract), CSV,
//! Markdown, HTML; `tb explain`'s account; `tb check --verbose`'s procedures.
//!
//! In: the ranking's result ([`crate::rank::Standings`], its trace
//! included), the plan it ran ([`crate::plan::Ruleset`]: titles, sources),
//! the event ([`crate::model::Event`]: names, ids, warnings) and [`Meta`]
//! (what the user named), gathered into one [`Report`] (serde `Serialize`:
//! the JSON document is the report serialised). Out: each format written
//! to any `io::Write` ([`write`]; [`render`] gives the text), nothing else
//! (no printing, no exit codes). May not import the loaders
//! (`crate::load`) or the language's front end (`crate::check`,
//! `crate::syntax` but for the AST's `Direction`/`Select`/`EndKind` it
//! shows), nor evaluate anything.
//!
//! Adding a format is one file: a function from the [`Report`] to an
//! `io::Write`, and its arm in [`write`].
//!
//! Speed: an event of 10,000 participants prints 10,000 rows, and a
//! `String` per cell, a `format!` per value or a JSON tree per row cost
//! far more than the evaluation that produced them. So the report borrows
//! its text and holds values, not their text; each format writes into one
//! pre-sized buffer, handed to the writer at once. Numbers are printed by
//! `crate::num`'s one printer ([`crate::num::Fixed`]) straight into that
//! buffer (serde_json's `collect_str` for JSON), giving exactly the text
//! of `Value::display` (the tests below compare the two); anything else
//! goes through `Value::display` itself. JSON is `serde_json`'s, CSV
//! quoting `csv::Writer`'s.
//!
//! Which columns a table shows: the table, Markdown and HTML show a step's
//! column only where some tie reached the step ([`shown_columns`]; the
//! first column, the score, always): a bridge regulation has a dozen steps,
//! most of which no tie in a given event reaches, and printing them all
//! made a 238-character table of `-`. The steps left out are named under
//! the table. CSV and JSON are data for programs and keep every column, so
//! that a ruleset's columns never depend on the event.
//!
//! One file per output: `table`, `markdown`, `html`, `csv`, `json`,
//! `explain`, `procedures`, `progress` (round by round); the shared
//! pieces: `report` (the [`Report`]), `cells` (the cells of table,
//! Markdown and HTML), `notes` (undefined values), `more` (more digits
//! where a split would print alike) and `categories` (the prize lists
//! after the standings).

mod categories;
mod cells;
mod csv;
mod explain;
mod explain_json;
mod explain_text;
mod html;
mod json;
mod markdown;
mod more;
mod notes;
mod procedures;
mod progress;
mod report;
mod table;

pub use categories::who_why;
pub use explain::{explain, Account, DetailFn, ExplainFormat, ExplainOptions};
pub use more::{more_digits, step_more_digits};
pub use notes::{undefined_notes, undefined_reason};
pub use procedures::procedures;
pub use progress::progress;
pub use report::{
    CategoryPlace, CategoryReport, ColumnInfo, EventInfo, ExactValues, Inputs, Place, Report,
    RulesetInfo, Undecided, UndefinedValue, Values,
};

use crate::eval::Value;
use crate::model::Event;
use crate::num::{Exact, Fixed, Num};
use crate::plan::Ruleset;
use crate::rank::{Outcome, Standings};
use more::{text_of, More};
use std::collections::HashSet;
use std::fmt;
use std::io;

/// Writes the report in a format to `out`.
pub fn write(r: &Report, fmt: Format, out: &mut dyn io::Write) -> io::Result<()> {
    let text = match fmt {
        // Names, titles and labels shown on a terminal: no control
        // character reaches it (one visible character for one, so the
        // columns stay aligned). CSV and Markdown escape each field.
        Format::Table => crate::escape::visible_owned(table::table(r)),
        Format::Markdown => markdown::markdown(r),
        Format::Html => crate::escape::visible_owned(html::html(r)),
        // Data for programs, the category lists included.
        Format::Json => return json::write(r, out),
        Format::Csv => {
            csv::write(r, out)?;
            return categories::csv(r, out);
        }
    };
    out.write_all(categories::with_categories(text, r, fmt).as_bytes())
}

/// Standings in a format, as text (no category lists).
pub fn render(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta, fmt: Format) -> String {
    let mut out = Vec::new();
    // Writing into a `Vec` cannot fail.
    let _ = write(&Report::new(s, event, rs, meta, &[]), fmt, &mut out);
    // Never lossy: every format writes UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into())
}

/// Output formats of `tb eval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned text table.
    Table,
    /// JSON (documented schema).
    Json,
    /// Comma-separated values.
    Csv,
    /// A Markdown table and its notes.
    Markdown,
    /// A self-contained HTML page to publish (styled, printable).
    Html,
}

/// What the header of an output says about the ruleset.
#[derive(Clone, Debug, Default)]
pub struct Meta {
    /// The name the user gave (`cards/swiss`, a path, or `--tiebreaks ...`).
    pub ruleset: String,
    /// Extra notes to print (edition chosen, warnings).
    pub notes: Vec<String>,
}

/// Text being written, held as bytes: appending a few ASCII digits to a
/// `String` costs a UTF-8 check or a push per character, to a `Vec<u8>` one
/// copy. Only `str`s, `char`s and ASCII digits go in, so it is UTF-8.
#[derive(Default)]
struct Out(Vec<u8>);

impl Out {
    fn with_capacity(n: usize) -> Out {
        Out(Vec::with_capacity(n))
    }

    fn push_str(&mut self, s: &str) {
        self.0.extend_from_slice(s.as_bytes());
    }

    fn push(&mut self, c: char) {
        self.push_str(c.encode_utf8(&mut [0; 4]));
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn into_string(self) -> String {
        // Never lossy: see the type.
        String::from_utf8(self.0).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into())
    }
}

impl fmt::Write for Out {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_str(s);
        Ok(())
    }
}

/// Whether row `i` shares its place. Rows are in rank order, so a shared
/// place has a neighbour with the same rank (constant time: output stays
/// linear in the number of participants).
fn is_shared(s: &Standings, i: usize) -> bool {
    s.is_shared(i)
}

/// " — after round 7 of 9" for the title of standings that stand before
/// the event's end; empty otherwise.
fn after_round(event: &Event) -> String {
    match event.stands_after() {
        Some((n, m)) => format!(" — after round {n} of {m}"),
        None => String::new(),
    }
}

/// The ruleset's title, or the name the user gave it.
fn title<'a>(rs: &'a Ruleset, meta: &'a Meta) -> &'a str {
    rs.title.as_deref().unwrap_or(&meta.ruleset)
}

/// The columns the table, Markdown and HTML show, in order: the first (the
/// score every participant is ranked on) and those of the steps some tie
/// reached, that is, applied to a group of two or more whose condition held
/// (see the module's documentation).
fn shown_columns(s: &Standings) -> Vec<usize> {
    let reached: HashSet<&str> = s
        .trace
        .iter()
        .filter(|t| t.group.len() >= 2 && t.outcome != Outcome::Skipped)
        .map(|t| t.criterion.as_str())
        .collect();
    (0..s.columns.len())
        .filter(|&i| i == 0 || reached.contains(s.columns[i].label.as_str()))
        .collect()
}

/// The columns [`shown_columns`] leaves out, as "label (article)" for the
/// line under the table; None when every column is shown.
fn hidden_columns(s: &Standings, shown: &[usize]) -> Option<String> {
    let hidden: Vec<String> = (0..s.columns.len())
        .filter(|i| !shown.contains(i))
        .map(|i| {
            let c = &s.columns[i];
            match &c.cite {
                Some(ci) => format!("{} ({ci})", c.label),
                None => c.label.clone(),
            }
        })
        .collect();
    (!hidden.is_empty()).then(|| hidden.join("; "))
}

/// The mark after a withdrawn participant's name in the table and Markdown,
/// explained under the table by [`withdrawn_note`].
const WITHDRAWN_MARK: &str = " †";

/// When a participant withdrew, in words.
fn withdrew_when(after: u32) -> String {
    match after {
        0 => "before round 1".to_string(),
        r => format!("after round {r}"),
    }
}

/// The line under the table naming each withdrawn participant and when
/// they withdrew; None when nobody did.
fn withdrawn_note(s: &Standings, event: &Event) -> Option<String> {
    let mut out = Out::default();
    for r in &s.rows {
        if let Some(after) = event.participants[r.pid].withdrawn_after {
            out.push_str(if out.len() == 0 {
                "† Withdrew: "
            } else {
                "; "
            });
            push_name(&mut out, event, r.pid);
            out.push(' ');
            out.push_str(&withdrew_when(after));
        }
    }
    (out.len() > 0).then(|| out.into_string())
}

/// Each column's description under the table: its label, which way it
/// ranks (a place is lower-is-better, a score higher-is-better: the reader
/// must not have to guess), how it is printed, then its article.
fn criterion_note(c: &crate::rank::Column) -> String {
    let mut note = format!("{} ({}", c.label, c.dir.phrase());
    if c.reversed {
        note.push_str(", reversed");
    }
    if c.places {
        note.push_str(
            ", printed as the place among those tied when it was reached, 0 if it separated none",
        );
    } else if c.group_relative {
        note.push_str(", among the tied: as last compared");
    }
    note.push(')');
    if let Some(ci) = &c.cite {
        note.push_str(": ");
        note.push_str(ci);
    }
    note
}

/// How `Value::display` shows the number `n`, by the 64-bit printer
/// (`None` outside it), and whether that is also its exact text (`Display`).
fn shown(n: Num, decimals: Option<u32>) -> Option<(Fixed, bool)> {
    match decimals {
        Some(places) => Some((n.fixed(places)?, false)),
        None => match n.exact()? {
            Exact::Decimal(d) => Some((d, true)),
            // Not a terminating decimal: four places, as `Value::display`.
            Exact::Fraction { .. } => Some((n.fixed(4)?, false)),
        },
    }
}

/// Appends `v` as `Value::display` shows it: a number by the fast path, other
/// text through `text`, which escapes it as the format needs (digits never
/// need it). False, having written nothing, where it shows nothing.
fn push_value(out: &mut Out, v: &Value, decimals: Option<u32>, text: fn(&mut Out, &str)) -> bool {
    if let Some((f, _)) = match v {
        Value::Num(n) => shown(*n, decimals),
        _ => None,
    } {
        f.write(&mut out.0);
        return true;
    }
    match v.display(decimals) {
        Some(shown) => {
            text(out, &shown);
            true
        }
        None => false,
    }
}

/// A value as the table, Markdown, HTML and `explain` show it (`-` if undefined).
fn push_cell(out: &mut Out, v: &Value, decimals: Option<u32>) {
    if !push_value(out, v, decimals, Out::push_str) {
        out.push('-');
    }
}

/// Appends a cell as [`push_cell`] does, with `more` digits where given.
fn push_cell_more(out: &mut Out, v: &Value, decimals: Option<u32>, more: Option<More>) {
    match more {
        None => push_cell(out, v, decimals),
        Some(m) => match text_of(v, decimals, Some(m)) {
            Some(t) => out.push_str(&t),
            None => out.push('-'),
        },
    }
}

fn push_name(out: &mut Out, event: &Event, p: usize) {
    let p = &event.participants[p];
    out.push_str(&p.name);
    out.push_str(" (");
    out.push_str(&p.id);
    out.push(')');
}

fn push_names(out: &mut Out, event: &Event, group: &[usize], sep: &str) {
    for (k, &p) in group.iter().enumerate() {
        if k > 0 {
            out.push_str(sep);
        }
        push_name(out, event, p);
    }
}

#[cfg(test)]
mod tests {
    use super::html::push_html;
    use super::*;
    use crate::eval::ListItem;
    use std::sync::Arc;

    fn written(write: impl FnOnce(&mut Out)) -> String {
        let mut out = Out::default();
        write(&mut out);
        out.into_string()
    }

    #[test]
    fn numbers_read_as_value_display_and_num_display() {
        let places = [None, Some(0), Some(1), Some(2), Some(3), Some(4)];
        let places = places.into_iter().chain([6, 12, 17, 18, 19, 30].map(Some));
        let places: Vec<_> = places.collect();
        for n in crate::num::tests::printed() {
            let v = Value::Num(n);
            for &d in &places {
                let fast = written(|o| assert!(push_value(o, &v, d, Out::push_str)));
                assert_eq!(Some(fast), v.display(d), "{n:?} to {d:?} places");
            }
            if let Some((f, true)) = shown(n, None) {
                // Said to read exactly: it does.
                assert_eq!(f.to_string(), n.to_string(), "{n:?}");
            }
        }
    }

    #[test]
    fn other_values_read_as_value_display() {
        let item = |v: i64| ListItem {
            value: Num::ratio(i128::from(v), 4).unwrap(),
            key: Num::ZERO,
            voluntary: false,
        };
        let values = [
            Value::Undef,
            Value::Inf,
            Value::Bool(true),
            Value::Bool(false),
            Value::Str("a, \"b\" | <c> & d\n".into()),
            Value::List(Arc::new(vec![item(1), item(-6), item(10)])),
            Value::Event,
        ];
        for v in &values {
            for d in [None, Some(0), Some(2)] {
                let mut out = Out::default();
                let shown = push_value(&mut out, v, d, Out::push_str);
                let text = out.into_string();
                assert_eq!(shown.then_some(text.clone()), v.display(d), "{v:?}");
                assert!(shown || text.is_empty());
            }
        }
    }

    #[test]
    fn escaping_matches_the_formats() {
        let texts = [
            "plain",
            "",
            "Noom, Anna",
            "say \"hi\"",
            "a|b",
            "<b>&amp;</b>",
            "tab\tline\nreturn\r\u{0}\u{1}\u{8}\u{c}\u{1f}\u{7f}",
            "back\\slash",
            "Ünïcødé — 名前",
        ];
        for t in texts {
            // Controls but CR made visible; quoted where a reader needs it.
            let shown: String = t
                .chars()
                .map(|c| match c {
                    '\r' => c,
                    c => crate::escape::picture(c).unwrap_or(c),
                })
                .collect();
            let csv = if t.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", shown.replace('"', "\"\""))
            } else {
                shown
            };
            // In a record with another field (alone, an empty field is `""`).
            let mut w = csv::writer(0);
            csv::text(&mut w, &[t]).unwrap();
            w.write_record(["end"]).unwrap();
            let mut record = Vec::new();
            csv::finish(w, &mut record).unwrap();
            let record = String::from_utf8(record).unwrap();
            assert_eq!(record.strip_suffix(",end\n"), Some(csv.as_str()));
            let mut html = String::new();
            push_html(&mut html, t);
            let esc = t
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('"', "&quot;");
            assert_eq!(html, esc);
        }
    }
}
