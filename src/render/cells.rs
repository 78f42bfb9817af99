//! The cells of the table, Markdown and HTML outputs, in one string.

use super::more::table_more;
use super::{decided, is_shared, push_cell, push_cell_more, push_name, Out};
use crate::model::Event;
use crate::num::Fixed;
use crate::rank::Standings;

/// The cells of the table, Markdown and HTML outputs, header row first, in
/// one string (rather than a `String` per cell).
pub(super) struct Cells {
    pub(super) text: String,
    /// Cell `k` is `text[bounds[k]..bounds[k + 1]]`.
    pub(super) bounds: Vec<usize>,
    /// Row `r` is cells `rows[r]..rows[r + 1]`.
    rows: Vec<usize>,
}

impl Cells {
    pub(super) fn new(s: &Standings, event: &Event) -> Cells {
        let more = table_more(s);
        let per_row = s.columns.len() + 3;
        let mut text = Out::with_capacity((s.rows.len() + 1) * (32 + 8 * per_row));
        let mut bounds = Vec::with_capacity((s.rows.len() + 1) * per_row + 1);
        let mut rows = Vec::with_capacity(s.rows.len() + 2);
        bounds.push(0);
        rows.push(0);
        let head = ["Rank", "Participant"]
            .into_iter()
            .chain(s.columns.iter().map(|c| c.label.as_str()))
            .chain(["Decided by"]);
        for h in head {
            text.push_str(h);
            bounds.push(text.len());
        }
        rows.push(bounds.len() - 1);
        for (i, r) in s.rows.iter().enumerate() {
            Fixed::int(r.rank as u64).write(&mut text.0);
            if is_shared(s, i) {
                text.push('=');
            }
            bounds.push(text.len());
            push_name(&mut text, event, r.pid);
            bounds.push(text.len());
            for (ci, (v, col)) in r.values.iter().zip(&s.columns).enumerate() {
                if more.is_empty() {
                    push_cell(&mut text, v, col.decimals);
                } else {
                    push_cell_more(&mut text, v, col.decimals, more.get(&(i, ci)).copied());
                }
                bounds.push(text.len());
            }
            decided(s, i).iter().for_each(|d| text.push_str(d));
            bounds.push(text.len());
            rows.push(bounds.len() - 1);
        }
        Cells {
            text: text.into_string(),
            bounds,
            rows,
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
