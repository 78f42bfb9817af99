//! A Markdown table (`--format markdown`).

use super::cells::Cells;
use super::notes::undefined_notes;
use super::{title, Meta};
use crate::model::Event;
use crate::plan::Ruleset;
use crate::rank::Standings;
use std::fmt::Write as _;

pub(super) fn markdown(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) -> String {
    let cells = Cells::new(s, event);
    let mut out = String::with_capacity(1024 + cells.text.len() + 3 * cells.bounds.len());
    let _ = write!(out, "## {} — {}\n\n", event.name, title(rs, meta));
    for r in 0..cells.len() {
        out.push_str("| ");
        for (k, c) in cells.row(r).enumerate() {
            if k > 0 {
                out.push_str(" | ");
            }
            // The header is written as it is; only body cells are escaped.
            if r == 0 {
                out.push_str(c);
            } else {
                push_markdown(&mut out, c);
            }
        }
        out.push_str(" |\n");
        if r == 0 {
            out.push('|');
            for _ in cells.row(0) {
                out.push_str("---|");
            }
            out.push('\n');
        }
    }
    let undefined = undefined_notes(s, event);
    if !undefined.is_empty() {
        out.push_str("\nUndefined values:\n\n");
        for l in &undefined {
            out.push_str("- ");
            push_markdown(&mut out, l);
            out.push('\n');
        }
    }
    out
}

fn push_markdown(out: &mut String, text: &str) {
    if text.contains('|') {
        out.push_str(&text.replace('|', "\\|"));
    } else {
        out.push_str(text);
    }
}
