//! A Markdown table (`--format markdown`) with the notes the text table
//! has: the document, the notes, the withdrawn, the criteria, the steps
//! not shown, the undefined values and the lots seed.

use super::cells::Cells;
use super::notes::undefined_notes;
use super::{after_round, criterion_note, hidden_columns, title, withdrawn_note, Inputs, Report};
use crate::escape::push_markdown;
use std::fmt::Write as _;

pub(super) fn markdown(r: &Report) -> String {
    let Inputs {
        standings: s,
        event,
        rs,
        meta,
        ..
    } = r.from;
    let cells = Cells::new(r, true);
    let mut out = String::with_capacity(1024 + cells.text.len() + 3 * cells.bounds.len());
    out.push_str("## ");
    push_markdown(&mut out, &event.name);
    out.push_str(" — ");
    push_markdown(&mut out, title(rs, meta));
    out.push_str(&after_round(event));
    out.push_str("\n\n");
    if let Some(src) = &rs.source_doc {
        out.push_str("Ruleset ");
        push_markdown(&mut out, &meta.ruleset);
        out.push_str(": ");
        push_markdown(&mut out, src);
        out.push_str("\n\n");
    }
    for n in &meta.notes {
        out.push_str("Note: ");
        push_markdown(&mut out, n);
        out.push_str("\n\n");
    }
    let ncol = cells.cols.len() + 3;
    for r in 0..cells.len() {
        out.push_str("| ");
        for (k, c) in cells.row(r).enumerate() {
            if k > 0 {
                out.push_str(" | ");
            }
            // Labels come from the ruleset, names from the data: both escaped.
            push_markdown(&mut out, c);
        }
        out.push_str(" |\n");
        if r == 0 {
            // Values right-aligned, as in the text table.
            out.push('|');
            for k in 0..ncol {
                out.push_str(if k >= 2 && k + 1 < ncol {
                    "---:|"
                } else {
                    "---|"
                });
            }
            out.push('\n');
        }
    }
    if let Some(w) = withdrawn_note(s, event) {
        out.push('\n');
        push_markdown(&mut out, &w);
        out.push('\n');
    }
    if !cells.cols.is_empty() {
        out.push_str("\nCriteria:\n\n");
        for &c in &cells.cols {
            out.push_str("- ");
            push_markdown(&mut out, &criterion_note(&s.columns[c]));
            out.push('\n');
        }
    }
    if let Some(h) = hidden_columns(s, &cells.cols) {
        out.push_str("\nNot shown, as no tie reached them: ");
        push_markdown(&mut out, &h);
        out.push('\n');
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
    if let Some(seed) = s.lots_seed {
        let _ = write!(out, "\nLots seed: {seed}\n");
    }
    out
}
