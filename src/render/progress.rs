//! Round by round (`tb eval --progress`): each participant's place after every round, in the final order, in every output format.
//!
//! The places come from standings computed with the same ruleset over the
//! event as it stood after each round (`rank::progress`); this module
//! only lays them out. A shared place is written `5=`, as in the standings.

use super::html::{page_start, push_html, push_notes};
use super::{after_round, push_name, title, Format, Meta, Out};
use crate::escape::{push_markdown, visible_owned};
use crate::model::{Event, Pid};
use crate::plan::Ruleset;
use crate::rank::progress::Progress;
use serde::Serialize;
use serde_json::ser::Formatter;
use std::fmt::Write as _;
use std::io;

/// "5=" for a shared place, "5" otherwise.
fn place(p: (usize, bool)) -> String {
    if p.1 {
        format!("{}=", p.0)
    } else {
        p.0.to_string()
    }
}

/// The round-by-round table in a format.
pub fn progress(p: &Progress, event: &Event, rs: &Ruleset, meta: &Meta, fmt: Format) -> String {
    // As the standings: no raw control character reaches a reader (JSON
    // escapes them, CSV quotes and guards its fields).
    match fmt {
        Format::Table => visible_owned(table(p, event, rs, meta)),
        Format::Json => json(p, event, meta),
        Format::Csv => csv(p, event),
        Format::Markdown => visible_owned(markdown(p, event, rs, meta)),
        Format::Html => visible_owned(html(p, event, rs, meta)),
    }
}

/// The heading shared by the text formats.
fn heading(event: &Event, rs: &Ruleset, meta: &Meta) -> String {
    format!(
        "{} — {}{} — place after each round",
        event.name,
        title(rs, meta),
        after_round(event)
    )
}

fn name_of(event: &Event, pid: Pid) -> String {
    let mut o = Out::default();
    push_name(&mut o, event, pid);
    o.into_string()
}

fn table(p: &Progress, event: &Event, rs: &Ruleset, meta: &Meta) -> String {
    let mut head = vec!["Rank".to_string(), "Participant".to_string()];
    head.extend(p.rounds.iter().map(|r| format!("R{r}")));
    let mut cells: Vec<Vec<String>> = vec![head];
    for row in &p.rows {
        let mut line = vec![
            row.places.last().copied().map(place).unwrap_or_default(),
            name_of(event, row.pid),
        ];
        line.extend(row.places.iter().map(|&x| place(x)));
        cells.push(line);
    }
    let cols = cells[0].len();
    let width: Vec<usize> = (0..cols)
        .map(|c| {
            cells
                .iter()
                .map(|l| l.get(c).map_or(0, |x| x.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    let _ = writeln!(out, "{}", heading(event, rs, meta));
    for n in &meta.notes {
        let _ = writeln!(out, "Note: {n}");
    }
    out.push('\n');
    let dashes: Vec<String> = width.iter().map(|&w| "-".repeat(w)).collect();
    for (k, line) in cells.iter().enumerate() {
        write_line(&mut out, &width, line);
        if k == 0 {
            write_line(&mut out, &width, &dashes);
        }
    }
    out
}

/// One line of the text table: the rank and name left-aligned, places
/// right-aligned, two spaces apart.
fn write_line(out: &mut String, width: &[usize], line: &[String]) {
    let mut text = String::new();
    for (c, (cell, &w)) in line.iter().zip(width).enumerate() {
        if c > 0 {
            text.push_str("  ");
        }
        let pad = w.saturating_sub(cell.chars().count());
        if c < 2 {
            text.push_str(cell);
            text.extend(std::iter::repeat_n(' ', pad));
        } else {
            text.extend(std::iter::repeat_n(' ', pad));
            text.push_str(cell);
        }
    }
    out.push_str(text.trim_end());
    out.push('\n');
}

/// The JSON document: compact, one participant a line.
#[derive(Serialize)]
struct Doc<'a> {
    ruleset: &'a str,
    event: DocEvent<'a>,
    rounds: &'a [u32],
    progress: Vec<Line<'a>>,
    notes: &'a [String],
}

#[derive(Serialize)]
struct DocEvent<'a> {
    name: &'a str,
    rounds: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    after_round: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    scheduled_rounds: Option<u32>,
}

/// A participant's places, round by round.
#[derive(Serialize)]
struct Line<'a> {
    id: &'a str,
    name: &'a str,
    places: Vec<PlaceAfter>,
}

#[derive(Serialize)]
struct PlaceAfter {
    rank: usize,
    shared: bool,
}

fn json(p: &Progress, event: &Event, meta: &Meta) -> String {
    let (after_round, scheduled_rounds) = event.stands_after().unzip();
    let doc = Doc {
        ruleset: &meta.ruleset,
        event: DocEvent {
            name: &event.name,
            rounds: event.rounds,
            after_round,
            scheduled_rounds,
        },
        rounds: &p.rounds,
        progress: p
            .rows
            .iter()
            .map(|row| {
                let who = &event.participants[row.pid];
                Line {
                    id: &who.id,
                    name: &who.name,
                    places: row
                        .places
                        .iter()
                        .map(|&(rank, shared)| PlaceAfter { rank, shared })
                        .collect(),
                }
            })
            .collect(),
        notes: &meta.notes,
    };
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, OneALine::default());
    // Serialising into a `Vec` cannot fail.
    let _ = doc.serialize(&mut ser);
    out.push(b'\n');
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into())
}

/// serde_json's compact layout, but for the `progress` array: each
/// participant on a line of its own, and its `]` too.
#[derive(Default)]
struct OneALine {
    /// Objects and arrays open.
    depth: usize,
    /// The top-level key being written, or last written.
    key: Vec<u8>,
    in_key: bool,
    /// Per array open: whether it lays its items one a line.
    lines: Vec<bool>,
}

impl Formatter for OneALine {
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth += 1;
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        w.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if self.depth == 1 {
            self.in_key = true;
            self.key.clear();
        }
        if first {
            Ok(())
        } else {
            w.write_all(b",")
        }
    }

    fn end_object_key<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.in_key = false;
        Ok(())
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        s: &str,
    ) -> io::Result<()> {
        if self.in_key {
            self.key.extend_from_slice(s.as_bytes());
        }
        w.write_all(s.as_bytes())
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.lines.push(self.depth == 1 && self.key == b"progress");
        self.depth += 1;
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.depth -= 1;
        if self.lines.pop() == Some(true) {
            w.write_all(b"\n")?;
        }
        w.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        if self.lines.last() == Some(&true) {
            w.write_all(b"\n")?;
        }
        Ok(())
    }
}

fn csv(p: &Progress, event: &Event) -> String {
    let mut w = super::csv::writer(64 + p.rows.len() * (32 + 4 * p.rounds.len()));
    let _ = csv_rows(&mut w, p, event);
    let mut out = Vec::new();
    let _ = super::csv::finish(w, &mut out);
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into())
}

fn csv_rows(w: &mut csv::Writer<Vec<u8>>, p: &Progress, event: &Event) -> csv::Result<()> {
    w.write_field("rank")?;
    w.write_field("id")?;
    w.write_field("name")?;
    for r in &p.rounds {
        w.write_field(format!("r{r}"))?;
    }
    w.write_record(None::<&[u8]>)?;
    for row in &p.rows {
        let who = &event.participants[row.pid];
        let last = row.places.last().map_or(0, |x| x.0);
        w.write_field(last.to_string())?;
        super::csv::text(w, &[&who.id])?;
        super::csv::text(w, &[&who.name])?;
        for &x in &row.places {
            w.write_field(place(x))?;
        }
        w.write_record(None::<&[u8]>)?;
    }
    Ok(())
}

fn markdown(p: &Progress, event: &Event, rs: &Ruleset, meta: &Meta) -> String {
    let mut out = String::new();
    out.push_str("## ");
    push_markdown(&mut out, &heading(event, rs, meta));
    out.push_str("\n\n");
    for n in &meta.notes {
        out.push_str("Note: ");
        push_markdown(&mut out, n);
        out.push_str("\n\n");
    }
    out.push_str("| Rank | Participant |");
    for r in &p.rounds {
        let _ = write!(out, " R{r} |");
    }
    out.push_str("\n|---:|---|");
    for _ in &p.rounds {
        out.push_str("---:|");
    }
    out.push('\n');
    for row in &p.rows {
        let last = row.places.last().copied().map(place).unwrap_or_default();
        let _ = write!(out, "| {last} | ");
        push_markdown(&mut out, &name_of(event, row.pid));
        out.push_str(" |");
        for &x in &row.places {
            let _ = write!(out, " {} |", place(x));
        }
        out.push('\n');
    }
    out
}

fn html(p: &Progress, event: &Event, rs: &Ruleset, meta: &Meta) -> String {
    let mut out = String::new();
    let subtitle = format!("{}: place after each round", title(rs, meta));
    page_start(&mut out, &heading(event, rs, meta), event, &subtitle);
    push_notes(&mut out, &meta.notes);
    out.push_str("</header>\n<main>\n<div class=\"scroll\"><table>\n<thead><tr><th>Rank</th><th>Participant</th>");
    for r in &p.rounds {
        let _ = write!(out, "<th class=\"num\">R{r}</th>");
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in &p.rows {
        let last = row.places.last().copied().map(place).unwrap_or_default();
        let _ = write!(out, "<tr><td class=\"rank\">{last}</td><td class=\"name\">");
        push_html(&mut out, &name_of(event, row.pid));
        out.push_str("</td>");
        for (&x, r) in row.places.iter().zip(&p.rounds) {
            let _ = write!(
                out,
                "<td class=\"num\" data-label=\"R{r}\">{}</td>",
                place(x)
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str(
        "</tbody>\n</table></div>\n</main>\n<footer>Ranked by tb.</footer>\n</body>\n</html>\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_places_are_marked() {
        assert_eq!(place((5, true)), "5=");
        assert_eq!(place((1, false)), "1");
    }
}
