//! The records of a CSV text without quotes, split in one pass as they are read: the cells the `csv` crate reads (as `load_csv` sets it up), borrowed from the text.
//!
//! Without a `"` nothing is quoted, so a record is a line and a cell what
//! lies between separators, trimmed as the crate trims (`str::trim`); its
//! span is what `cell_spans` gives. As the crate does, an empty line and a
//! line starting with `#` are no record. A text with a quote, or with a
//! carriage return that does not end a line, is left to the crate (`None`),
//! before any record is read.

use super::Cell;
use crate::diag::Span;
use std::borrow::Cow;

/// The records still to read, from the header on.
pub(super) struct Records<'s> {
    text: &'s str,
    /// Where the next line starts.
    at: usize,
    delim: u8,
    /// The lines from the header to the end.
    pub(super) lines: usize,
}

/// The records from byte `start` of `text` (the header first), cells split
/// at `delim`; `None` where the `csv` crate must read them.
pub(super) fn records(text: &str, start: usize, delim: u8) -> Option<Records<'_>> {
    let body = &text.as_bytes()[start..];
    if memchr::memchr(b'"', body).is_some() {
        return None;
    }
    // A carriage return ends a line (before its `\n`, or at the end).
    let ends_line = |i: usize| matches!(body.get(i + 1), None | Some(b'\n'));
    if !memchr::memchr_iter(b'\r', body).all(ends_line) {
        return None;
    }
    Some(Records {
        text,
        at: start,
        delim,
        lines: memchr::memchr_iter(b'\n', body).count() + 1,
    })
}

impl<'s> Records<'s> {
    /// The next record's cells, in `cells` (emptied first); `false` after
    /// the last.
    pub(super) fn next_into(&mut self, cells: &mut Vec<Cell<'s>>) -> bool {
        let text = self.text;
        cells.clear();
        while self.at < text.len() {
            let at = self.at;
            let end = memchr::memchr(b'\n', &text.as_bytes()[at..]).map_or(text.len(), |k| at + k);
            let mut line = &text[at..end];
            if let Some(l) = line.strip_suffix('\r') {
                line = l;
            }
            self.at = end + 1;
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let b = line.as_bytes();
            let mut from = 0;
            loop {
                // Cells are short: a plain loop beats `memchr`'s set-up.
                let next = b[from..].iter().position(|&c| c == self.delim);
                let end = next.map_or(b.len(), |k| from + k);
                let span = trimmed(line, from, end);
                cells.push(Cell {
                    text: Cow::Borrowed(&line[span.0..span.1]),
                    span: Span::new(at + span.0, at + span.1),
                });
                if end == b.len() {
                    break;
                }
                from = end + 1;
            }
            if cells.iter().all(|c| c.text.is_empty()) {
                cells.clear();
                continue; // an empty spreadsheet row
            }
            return true;
        }
        false
    }
}

/// `line[from..end]` without the white space around it, as `str::trim`
/// takes it off (ASCII blanks looked at directly; anything else by `trim`).
fn trimmed(line: &str, from: usize, end: usize) -> (usize, usize) {
    let b = line.as_bytes();
    let (mut s, mut e) = (from, end);
    while s < e && matches!(b[s], b' ' | b'\t') {
        s += 1;
    }
    while e > s && matches!(b[e - 1], b' ' | b'\t') {
        e -= 1;
    }
    // Printable ASCII at both ends: nothing more to take off.
    let printable = |c: u8| (0x21..=0x7e).contains(&c);
    if s == e || (printable(b[s]) && printable(b[e - 1])) {
        return (s, e);
    }
    let cell = &line[from..end];
    let lead = cell.len() - cell.trim_start().len();
    let s = from + lead;
    (s, s.max(from + cell.trim_end().len()))
}
