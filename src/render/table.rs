//! The aligned text table (`--format table`, the default).

use super::cells::Cells;
use super::notes::undefined_notes;
use super::{criterion_note, hidden_columns, title, withdrawn_note, Meta};
use crate::model::Event;
use crate::plan::Ruleset;
use crate::rank::Standings;
use std::fmt::Write as _;

pub(super) fn table(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) -> String {
    let cells = Cells::new(s, event);
    // Widths are in characters; in an all-ASCII table (the usual case)
    // those are bytes, and need no counting.
    let ascii = cells.text.is_ascii();
    let chars = |c: &str| if ascii { c.len() } else { c.chars().count() };
    let mut width = vec![0usize; cells.row(0).count()];
    for r in 0..cells.len() {
        for (w, c) in width.iter_mut().zip(cells.row(r)) {
            *w = (*w).max(chars(c));
        }
    }
    let line_len: usize = width.iter().map(|w| w + 2).sum::<usize>() + 1;
    let mut out = String::with_capacity(1024 + (cells.len() + 1) * line_len);
    let _ = writeln!(out, "{} — {}", event.name, title(rs, meta));
    if let Some(src) = &rs.source_doc {
        let _ = writeln!(out, "Ruleset {}: {src}", meta.ruleset);
    }
    for n in &meta.notes {
        let _ = writeln!(out, "Note: {n}");
    }
    out.push('\n');
    let row = |r: usize| cells.row(r).map(|c| (c, chars(c)));
    table_line(&mut out, &width, row(0));
    let dashes = "-".repeat(width.iter().copied().max().unwrap_or(0));
    table_line(&mut out, &width, width.iter().map(|&w| (&dashes[..w], w)));
    for r in 1..cells.len() {
        table_line(&mut out, &width, row(r));
    }
    if let Some(w) = withdrawn_note(s, event) {
        let _ = writeln!(out, "\n{w}");
    }
    let cites: Vec<String> = cells
        .cols
        .iter()
        .map(|&c| criterion_note(&s.columns[c]))
        .collect();
    if !cites.is_empty() {
        let _ = writeln!(out, "\nCriteria: {}", cites.join("; "));
    }
    if let Some(h) = hidden_columns(s, &cells.cols) {
        let _ = writeln!(out, "Not shown, as no tie reached them: {h}");
    }
    let undefined = undefined_notes(s, event);
    if !undefined.is_empty() {
        out.push_str("\nUndefined values:\n");
        for l in &undefined {
            let _ = writeln!(out, "  {l}");
        }
    }
    if let Some(seed) = s.lots_seed {
        let _ = writeln!(out, "Lots seed: {seed}");
    }
    out
}

/// One line of the aligned table from its cells and their widths in
/// characters: numbers right-aligned, text left-aligned, two spaces between
/// columns, no trailing blanks.
fn table_line<'a>(
    out: &mut String,
    width: &[usize],
    cells: impl Iterator<Item = (&'a str, usize)>,
) {
    let ncol = width.len();
    let start = out.len();
    for (i, (c, chars)) in cells.enumerate() {
        let pad = width[i] - chars;
        if i >= 2 && i + 1 < ncol {
            push_spaces(out, pad);
            out.push_str(c);
        } else {
            out.push_str(c);
            if i + 1 < ncol {
                push_spaces(out, pad);
            }
        }
        if i + 1 < ncol {
            out.push_str("  ");
        }
    }
    let kept = out[start..].trim_end().len();
    out.truncate(start + kept);
    out.push('\n');
}

fn push_spaces(out: &mut String, mut n: usize) {
    const SPACES: &str = "                                ";
    while n > 0 {
        let k = n.min(SPACES.len());
        out.push_str(&SPACES[..k]);
        n -= k;
    }
}
