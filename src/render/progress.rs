//! Round by round (`tb eval --progress`): each participant's place after every round, in the final order, in every output format.
//!
//! The places come from standings computed with the same ruleset over the
//! event as it stood after each round (`rank::progress`); this module
//! only lays them out. A shared place is written `5=`, as in the standings.

use super::csv::push_csv;
use super::html::{page_start, push_html, push_notes};
use super::json::push_json_str;
use super::{after_round, push_name, title, Format, Meta, Out};
use crate::escape::{push_markdown, visible_owned};
use crate::model::{Event, Pid};
use crate::plan::Ruleset;
use crate::rank::progress::Progress;
use std::fmt::Write as _;

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

fn json(p: &Progress, event: &Event, meta: &Meta) -> String {
    let mut out = Out::default();
    out.push_str("{\"ruleset\":");
    push_json_str(&mut out, &meta.ruleset);
    out.push_str(",\"event\":{\"name\":");
    push_json_str(&mut out, &event.name);
    let _ = write!(out, ",\"rounds\":{}", event.rounds);
    if let Some((n, m)) = event.stands_after() {
        let _ = write!(out, ",\"after_round\":{n},\"scheduled_rounds\":{m}");
    }
    out.push_str("},\"rounds\":[");
    for (k, r) in p.rounds.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        let _ = write!(out, "{r}");
    }
    out.push_str("],\"progress\":[");
    for (k, row) in p.rows.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        let who = &event.participants[row.pid];
        out.push_str("\n{\"id\":");
        push_json_str(&mut out, &who.id);
        out.push_str(",\"name\":");
        push_json_str(&mut out, &who.name);
        out.push_str(",\"places\":[");
        for (j, &(rank, shared)) in row.places.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            let _ = write!(out, "{{\"rank\":{rank},\"shared\":{shared}}}");
        }
        out.push_str("]}");
    }
    out.push_str("\n],\"notes\":[");
    for (k, n) in meta.notes.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        push_json_str(&mut out, n);
    }
    out.push_str("]}\n");
    out.into_string()
}

fn csv(p: &Progress, event: &Event) -> String {
    let mut out = Out::default();
    out.push_str("rank,id,name");
    for r in &p.rounds {
        let _ = write!(out, ",r{r}");
    }
    out.push('\n');
    for row in &p.rows {
        let who = &event.participants[row.pid];
        let last = row.places.last().map_or(0, |x| x.0);
        let _ = write!(out, "{last},");
        push_csv(&mut out, &who.id);
        out.push(',');
        push_csv(&mut out, &who.name);
        for &x in &row.places {
            out.push(',');
            out.push_str(&place(x));
        }
        out.push('\n');
    }
    out.into_string()
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
