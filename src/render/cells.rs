//! The cells of the table, Markdown and HTML outputs, in one string: the
//! rank (`2=` where shared), the participant (marked where withdrawn), the
//! columns some tie reached ([`shown_columns`]), what decided the place.

use super::{push_cell, push_cell_more, shown_columns, Out, Report, WITHDRAWN_MARK};
use crate::num::Fixed;

/// The cells of the table, Markdown and HTML outputs, header row first, in
/// one string (rather than a `String` per cell).
pub(super) struct Cells {
    pub(super) text: String,
    /// Cell `k` is `text[bounds[k]..bounds[k + 1]]`.
    pub(super) bounds: Vec<usize>,
    /// Row `r` is cells `rows[r]..rows[r + 1]`.
    rows: Vec<usize>,
    /// The standings' columns shown, in order (cells 2.. of each row).
    pub(super) cols: Vec<usize>,
}

impl Cells {
    /// `articles`: "Decided by" gives the deciding step's article too (the
    /// text table leaves it out of a step shown as a column, whose article
    /// is under the table, where the table would not fit 100 characters).
    pub(super) fn new(r: &Report, articles: bool) -> Cells {
        let cols = shown_columns(r.from.standings);
        let per_row = cols.len() + 3;
        let n = r.standings.len();
        let mut text = Out::with_capacity((n + 1) * (32 + 8 * per_row));
        let mut bounds = Vec::with_capacity((n + 1) * per_row + 1);
        let mut rows = Vec::with_capacity(n + 2);
        bounds.push(0);
        rows.push(0);
        let head = ["Rank", "Participant"]
            .into_iter()
            .chain(cols.iter().map(|&c| r.columns[c].label))
            .chain(["Decided by"]);
        for h in head {
            text.push_str(h);
            bounds.push(text.len());
        }
        rows.push(bounds.len() - 1);
        for place in &r.standings {
            Fixed::int(place.rank as u64).write(&mut text.0);
            if place.shared {
                text.push('=');
            }
            bounds.push(text.len());
            text.push_str(place.name);
            text.push_str(" (");
            text.push_str(place.id);
            text.push(')');
            if place.withdrawn_after.is_some() {
                text.push_str(WITHDRAWN_MARK);
            }
            bounds.push(text.len());
            let values = &place.values;
            for &ci in &cols {
                let Some(v) = values.values.get(ci) else {
                    text.push('-');
                    bounds.push(text.len());
                    continue;
                };
                match values.more(ci) {
                    None => push_cell(&mut text, v, values.decimals(ci)),
                    more => push_cell_more(&mut text, v, values.decimals(ci), more),
                }
                bounds.push(text.len());
            }
            let mut d = place.decided();
            if !articles && cols.iter().any(|&c| r.columns[c].label == d[0]) {
                d[1..].iter_mut().for_each(|p| *p = "");
            }
            d.iter().for_each(|d| text.push_str(d));
            bounds.push(text.len());
            rows.push(bounds.len() - 1);
        }
        Cells {
            text: text.into_string(),
            bounds,
            rows,
            cols,
        }
    }

    /// The number of rows, the header included.
    pub(super) fn len(&self) -> usize {
        self.rows.len() - 1
    }

    /// Row `r`'s cells (row 0 is the header).
    pub(super) fn row(&self, r: usize) -> impl Iterator<Item = &str> {
        self.bounds[self.rows[r]..=self.rows[r + 1]]
            .windows(2)
            .map(|w| &self.text[w[0]..w[1]])
    }
}
