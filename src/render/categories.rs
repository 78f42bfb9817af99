//! Category lists (prize lists) after the overall standings, in every
//! format: a headed section per category in the table, Markdown and HTML;
//! a `categories` member in JSON; a second table in CSV, after a blank
//! line. Without categories nothing is added, so every output stays as it
//! was byte for byte.
//!
//! Each list shows the place in the category (`2=` where shared), the
//! overall rank (`5=` where shared overall), the participant, the first
//! criterion's value (the score) and, for a list ranked among its members
//! (`rerank`), what decided each place there. Participants the condition
//! is undefined for are named under the list with the reason.

use super::{is_shared, push_value, Format, Inputs, Out, Report};
use crate::model::Event;
use crate::rank::categories::{CategoryList, Member};
use crate::rank::Standings;
use std::fmt::Write as _;
use std::io;

/// `text`, the overall standings in `fmt`, followed by the category lists
/// (JSON and CSV have theirs in the report and in [`csv`]).
pub(super) fn with_categories(text: String, r: &Report, fmt: Format) -> String {
    let Inputs {
        standings: s,
        event,
        lists,
        ..
    } = r.from;
    if lists.is_empty() {
        return text;
    }
    let rows = || lists.iter().map(|l| cells(l, s, event)).collect::<Vec<_>>();
    match fmt {
        Format::Table => text + &plain(lists, &rows(), event),
        Format::Markdown => text + &markdown(lists, &rows(), event),
        Format::Html => {
            let at = text.rfind("</main>").unwrap_or(text.len());
            let mut out = text;
            out.insert_str(at, &html(lists, &rows(), event));
            out
        }
        Format::Json | Format::Csv => text,
    }
}

/// Said of a category no participant is in.
const NONE: &str = "No participant is in this category.";

/// The heading of a list: its name, condition, and order.
fn heading(l: &CategoryList) -> String {
    let order = if l.reranked {
        "ranked among its members"
    } else {
        "in the overall order"
    };
    let cite = l.cite.as_ref().map_or(String::new(), |c| format!(" [{c}]"));
    format!(
        "Category {}: {} ({order}; {} of them){cite}",
        l.name,
        l.condition,
        l.members.len()
    )
}

/// The line naming the participants the condition is undefined for.
fn undecided_line(l: &CategoryList, event: &Event) -> Option<String> {
    if l.undecided.is_empty() {
        return None;
    }
    let names: Vec<String> = l
        .undecided
        .iter()
        .map(|(p, why)| who_why(event, *p, why))
        .collect();
    Some(format!(
        "Neither in nor out (the condition is undefined): {}",
        names.join("; ")
    ))
}

/// A participant and why a condition is undefined for it, naming it
/// once: the reason usually starts with its name already.
pub fn who_why(event: &Event, p: crate::model::Pid, why: &str) -> String {
    let q = &event.participants[p];
    let who = format!("{} ({})", q.name, q.id);
    if why.starts_with(&who) || why.starts_with(&q.id) {
        why.to_string()
    } else {
        format!("{who}: {why}")
    }
}

/// The header and the rows of a list's table, as text cells.
fn cells(l: &CategoryList, s: &Standings, event: &Event) -> Vec<Vec<String>> {
    let first = s.columns.first();
    let mut head = vec!["Place".to_string(), "Rank".into(), "Participant".into()];
    if let Some(c) = first {
        head.push(c.label.clone());
    }
    if l.reranked {
        head.push("Decided by".into());
    }
    let mut row_of = vec![usize::MAX; event.participants.len()];
    for (i, r) in s.rows.iter().enumerate() {
        row_of[r.pid] = i;
    }
    // Shared overall as the standings print it (`5=`): by its neighbours
    // there, so that each field of a two-winner movement counts apart.
    let overall_shared = |p: usize| {
        row_of
            .get(p)
            .is_some_and(|&i| i < s.rows.len() && is_shared(s, i))
    };
    let mut out = vec![head];
    for (i, m) in l.members.iter().enumerate() {
        let shared = shared_in(&l.members, i);
        let p = &event.participants[m.pid];
        let mut row = vec![
            format!("{}{}", m.place, if shared { "=" } else { "" }),
            format!(
                "{}{}",
                m.rank,
                if overall_shared(m.rank) { "=" } else { "" }
            ),
            format!("{} ({})", p.name, p.id),
        ];
        if let Some(c) = first {
            let v = s.rows.get(row_of[m.pid]).and_then(|r| r.values.first());
            let mut o = Out::default();
            if !v.is_some_and(|v| push_value(&mut o, v, c.decimals, Out::push_str)) {
                o.push('-');
            }
            row.push(o.into_string());
        }
        if l.reranked {
            row.push(decided(&l.members, i));
        }
        out.push(row);
    }
    out
}

/// Whether member `i` shares its place in the list.
pub(super) fn shared_in(members: &[Member], i: usize) -> bool {
    let place = members[i].place;
    (i > 0 && members[i - 1].place == place) || members.get(i + 1).is_some_and(|m| m.place == place)
}

/// What decided a reranked member's place, as the standings say it.
fn decided(members: &[Member], i: usize) -> String {
    let m = &members[i];
    if let Some(u) = &m.unresolved {
        return format!("unresolved: {u}");
    }
    if shared_in(members, i) {
        return "shared".into();
    }
    match &m.decided_by {
        Some(d) => match &d.cite {
            Some(c) => format!("{} ({c})", d.criterion),
            None => d.criterion.clone(),
        },
        None => String::new(),
    }
}

/// The text table's sections.
fn plain(lists: &[CategoryList], rows: &[Vec<Vec<String>>], event: &Event) -> String {
    let mut out = String::new();
    for (l, rows) in lists.iter().zip(rows) {
        let _ = write!(out, "\n{}\n\n", heading(l));
        if l.members.is_empty() {
            out.push_str(NONE);
            out.push('\n');
        }
        let n = rows.first().map_or(0, Vec::len);
        let width: Vec<usize> = (0..n)
            .map(|k| rows.iter().map(|r| r[k].chars().count()).max().unwrap_or(0))
            .collect();
        let line = |out: &mut String, cells: &[String]| {
            let mut text = String::new();
            for (k, c) in cells.iter().enumerate() {
                if k > 0 {
                    text.push_str("  ");
                }
                let pad = width[k].saturating_sub(c.chars().count());
                // The value column is right-aligned, as in the standings.
                if k == 3 && cells.len() > 3 {
                    text.push_str(&" ".repeat(pad));
                    text.push_str(c);
                } else {
                    text.push_str(c);
                    text.push_str(&" ".repeat(pad));
                }
            }
            out.push_str(text.trim_end());
            out.push('\n');
        };
        for (r, cells) in rows.iter().enumerate().filter(|_| !l.members.is_empty()) {
            line(&mut out, cells);
            if r == 0 {
                let rule: Vec<String> = width.iter().map(|&w| "-".repeat(w)).collect();
                line(&mut out, &rule);
            }
        }
        if let Some(u) = undecided_line(l, event) {
            let _ = write!(out, "\n{u}\n");
        }
    }
    out
}

fn push_markdown(out: &mut String, text: &str) {
    out.push_str(&text.replace('|', "\\|"));
}

/// The Markdown sections: a heading and a table per category.
fn markdown(lists: &[CategoryList], rows: &[Vec<Vec<String>>], event: &Event) -> String {
    let mut out = String::new();
    for (l, rows) in lists.iter().zip(rows) {
        out.push_str("\n### ");
        push_markdown(&mut out, &heading(l));
        out.push_str("\n\n");
        if l.members.is_empty() {
            out.push_str(NONE);
            out.push('\n');
        }
        for (r, cells) in rows.iter().enumerate().filter(|_| !l.members.is_empty()) {
            out.push('|');
            for c in cells {
                out.push(' ');
                push_markdown(&mut out, c);
                out.push_str(" |");
            }
            out.push('\n');
            if r == 0 {
                out.push('|');
                for k in 0..cells.len() {
                    out.push_str(if k == 3 { "---:|" } else { "---|" });
                }
                out.push('\n');
            }
        }
        if let Some(u) = undecided_line(l, event) {
            out.push('\n');
            push_markdown(&mut out, &u);
            out.push('\n');
        }
    }
    out
}

/// The HTML sections: one headed `<section>` per category, inside `<main>`.
fn html(lists: &[CategoryList], rows: &[Vec<Vec<String>>], event: &Event) -> String {
    use super::html::push_html;
    let mut out = String::new();
    for (l, rows) in lists.iter().zip(rows) {
        out.push_str("<section class=\"category\">\n<h2>");
        push_html(&mut out, &heading(l));
        out.push_str("</h2>\n");
        if l.members.is_empty() {
            let _ = writeln!(out, "<p>{NONE}</p>");
        } else {
            out.push_str("<table>\n");
        }
        for (r, cells) in rows.iter().enumerate().filter(|_| !l.members.is_empty()) {
            let tag = if r == 0 { "th" } else { "td" };
            out.push_str(if r == 0 { "<thead><tr>" } else { "<tr>" });
            for c in cells {
                let _ = write!(out, "<{tag}>");
                push_html(&mut out, c);
                let _ = write!(out, "</{tag}>");
            }
            out.push_str(if r == 0 {
                "</tr></thead>\n<tbody>\n"
            } else {
                "</tr>\n"
            });
        }
        if !l.members.is_empty() {
            out.push_str("</tbody>\n</table>\n");
        }
        if let Some(u) = undecided_line(l, event) {
            out.push_str("<p class=\"note\">");
            push_html(&mut out, &u);
            out.push_str("</p>\n");
        }
        out.push_str("</section>\n");
    }
    out
}

/// The CSV table of every list's members, after a blank line: one row
/// per member and category, `place` and `rank` written as the lists write
/// them (`2=`).
pub(super) fn csv(r: &Report, out: &mut dyn io::Write) -> io::Result<()> {
    let Inputs {
        standings: s,
        event,
        lists,
        ..
    } = r.from;
    if lists.is_empty() {
        return Ok(());
    }
    out.write_all(b"\n")?;
    let mut w = super::csv::writer(4096);
    w.write_record(["category", "place", "rank", "id", "name"])?;
    for l in lists {
        let rows = cells(l, s, event);
        for (m, cells) in l.members.iter().zip(rows.iter().skip(1)) {
            let p = &event.participants[m.pid];
            for c in [&l.name, &cells[0], &cells[1], &p.id, &p.name] {
                super::csv::text(&mut w, &[c])?;
            }
            w.write_record(None::<&[u8]>)?;
        }
    }
    super::csv::finish(w, out)
}
