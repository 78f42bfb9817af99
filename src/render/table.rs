//! The aligned text table (`--format table`, the default).

use super::cells::Cells;
use super::notes::undefined_notes;
use super::{after_round, criterion_note, hidden_columns, title, withdrawn_note, Inputs, Report};
use std::fmt::Write as _;

pub(super) fn table(r: &Report) -> String {
    let Inputs {
        standings: s,
        event,
        rs,
        meta,
        ..
    } = r.from;
    // A table wider than `FIT` characters gets its long criterion labels
    // wrapped over header lines, then, if still too wide, the articles of
    // steps shown as columns left out of "Decided by" (they are under the
    // table): a bridge regulation's labels are long and its values short.
    let mut cells = Cells::new(r, true);
    let mut layout = Layout::new(&cells, false);
    if layout.line_len() > FIT {
        layout = Layout::new(&cells, true);
        if layout.line_len() > FIT {
            cells = Cells::new(r, false);
            layout = Layout::new(&cells, true);
        }
    }
    let Layout { width, head } = layout;
    let ascii = cells.text.is_ascii();
    let chars = |c: &str| if ascii { c.len() } else { c.chars().count() };
    let line_len: usize = width.iter().map(|w| w + 2).sum::<usize>() + 1;
    let mut out = String::with_capacity(1024 + (cells.len() + 1) * line_len);
    let _ = writeln!(
        out,
        "{} — {}{}",
        event.name,
        title(rs, meta),
        after_round(event)
    );
    if let Some(src) = &rs.source_doc {
        let _ = writeln!(out, "Ruleset {}: {src}", meta.ruleset);
    }
    for n in &meta.notes {
        let _ = writeln!(out, "Note: {n}");
    }
    out.push('\n');
    let row = |r: usize| cells.row(r).map(|c| (c, chars(c)));
    for line in &head {
        table_line(
            &mut out,
            &width,
            line.iter().map(|c| (c.as_str(), c.chars().count())),
        );
    }
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

/// The widest a text table should be, in characters (a terminal of 100).
const FIT: usize = 100;

/// The columns' widths and the header's lines.
struct Layout {
    width: Vec<usize>,
    head: Vec<Vec<String>>,
}

impl Layout {
    /// Each column as wide as its widest cell; with `wrap`, a criterion's
    /// label counts only by its longest word, and is wrapped over as many
    /// header lines as it needs (the last line next to the dashes).
    fn new(cells: &Cells, wrap: bool) -> Layout {
        // Widths are in characters; in an all-ASCII table (the usual case)
        // those are bytes, and need no counting.
        let ascii = cells.text.is_ascii();
        let chars = |c: &str| if ascii { c.len() } else { c.chars().count() };
        let ncol = cells.row(0).count();
        let mut width = vec![0usize; ncol];
        for r in 1..cells.len() {
            for (w, c) in width.iter_mut().zip(cells.row(r)) {
                *w = (*w).max(chars(c));
            }
        }
        let mut lines: Vec<Vec<String>> = Vec::with_capacity(ncol);
        for (k, h) in cells.row(0).enumerate() {
            let criterion = k >= 2 && k + 1 < ncol;
            if !wrap || !criterion {
                width[k] = width[k].max(chars(h));
                lines.push(vec![h.to_string()]);
                continue;
            }
            let longest = h.split(' ').map(chars).max().unwrap_or(0);
            width[k] = width[k].max(longest);
            let mut wrapped: Vec<String> = Vec::new();
            for word in h.split(' ') {
                match wrapped.last_mut() {
                    Some(l) if chars(l) + 1 + chars(word) <= width[k] => {
                        l.push(' ');
                        l.push_str(word);
                    }
                    _ => wrapped.push(word.to_string()),
                }
            }
            lines.push(wrapped);
        }
        let depth = lines.iter().map(Vec::len).max().unwrap_or(1);
        let head = (0..depth)
            .map(|d| {
                lines
                    .iter()
                    .map(|l| {
                        let skip = depth - l.len();
                        if d < skip {
                            String::new()
                        } else {
                            l[d - skip].clone()
                        }
                    })
                    .collect()
            })
            .collect();
        Layout { width, head }
    }

    /// A full line's length: the columns and two spaces between each.
    fn line_len(&self) -> usize {
        self.width
            .iter()
            .map(|w| w + 2)
            .sum::<usize>()
            .saturating_sub(2)
    }
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
