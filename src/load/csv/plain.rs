//! The records of a CSV text without quotes, split in one pass: the cells the `csv` crate reads (as `load_csv` sets it up), borrowed from the text.
//!
//! Without a `"` nothing is quoted, so a record is a line and a cell what
//! lies between separators, trimmed as the crate trims (`str::trim`); its
//! span is what `cell_spans` gives. As the crate does, an empty line and a
//! line starting with `#` are no record. A text with a quote, or with a
//! carriage return that does not end a line, is left to the crate (`None`).

use super::Cell;
use crate::diag::Span;
use std::borrow::Cow;

/// The records from byte `start` of `text` (the header first), cells split
/// at `delim`; `None` where the `csv` crate must read them.
pub(super) fn records(text: &str, start: usize, delim: u8) -> Option<Vec<Vec<Cell<'_>>>> {
    let body = &text.as_bytes()[start..];
    if memchr::memchr(b'"', body).is_some() {
        return None;
    }
    let mut out = Vec::with_capacity(memchr::memchr_iter(b'\n', body).count() + 1);
    let mut at = start;
    while at < text.len() {
        let end = memchr::memchr(b'\n', &text.as_bytes()[at..]).map_or(text.len(), |k| at + k);
        let mut line = &text[at..end];
        if let Some(l) = line.strip_suffix('\r') {
            line = l;
        }
        if line.contains('\r') {
            return None;
        }
        let line_start = at;
        at = end + 1;
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        // Rows mostly have as many cells as the one before.
        let mut cells = Vec::with_capacity(out.last().map_or(4, Vec::len));
        let b = line.as_bytes();
        let mut from = 0;
        loop {
            let end = memchr::memchr(delim, &b[from..]).map_or(b.len(), |k| from + k);
            let span = trimmed(line, from, end);
            cells.push(Cell {
                text: Cow::Borrowed(&line[span.0..span.1]),
                span: Span::new(line_start + span.0, line_start + span.1),
            });
            if end == b.len() {
                break;
            }
            from = end + 1;
        }
        if cells.iter().all(|c| c.text.is_empty()) {
            continue; // an empty spreadsheet row
        }
        out.push(cells);
    }
    Some(out)
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
