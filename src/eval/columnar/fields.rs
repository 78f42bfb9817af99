//! Built-in fields in columns: the rounds' fields (`r.played`, `r.opponent`, ...) read once per block for the whole evaluation, and the participants' (`score`, `rating`, `rated`).

use crate::eval::columnar::column::{bools_col, nums_col};
use crate::eval::columnar::metrics::Memo;
use crate::eval::columnar::{Block, Col, Dom, BLOCK_ENTRIES, NO_PID};
use crate::eval::fields::{entry_flag_of, entry_num};
use crate::eval::Evaluator;
use crate::model::{Entry, Event, Pid};
use crate::num::Num;
use crate::plan::BuiltinField;
use std::ops::Range;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

/// `read` of each entry of the block's rounds, in order: the block's
/// participants' entries, read participant by participant (a tight loop
/// over each one's slice, not one iterator nested in another).
fn per_entry<T>(ev: &Event, blk: &Block, len: usize, read: impl Fn(&Entry) -> T) -> Vec<T> {
    let mut out = Vec::with_capacity(len);
    for p in blk.parts.clone() {
        out.extend(ev.participants[p].entries.iter().map(&read));
    }
    out
}

/// The participants of each block: consecutive participants with about
/// [`BLOCK_ENTRIES`] rounds in all (at least one participant).
fn block_spans(event: &crate::model::Event) -> Vec<Range<Pid>> {
    let parts = &event.participants;
    let mut spans = Vec::with_capacity(parts.len() * 16 / BLOCK_ENTRIES + 1);
    let mut p0 = 0;
    while p0 < parts.len() {
        let mut p1 = p0;
        let mut entries = 0;
        while p1 < parts.len() && (p1 == p0 || entries < BLOCK_ENTRIES) {
            entries += parts[p1].entries.len();
            p1 += 1;
        }
        spans.push(p0..p1);
        p0 = p1;
    }
    spans
}

/// The columns of the rounds' built-in fields (`r.played`, `r.round`,
/// `r.opponent`, ...), block by block: functions of the event alone, each
/// made by whichever computation and thread first needs it, once, and then
/// shared by every computation and every fork of the evaluator. Reading a
/// field from the entries (large records) once per block, in parallel,
/// beats both a pass per computation and a pass over the whole event on
/// one thread before the blocks can start.
pub(crate) struct FieldCols {
    /// The blocks (every computation cuts the same: [`block_spans`]).
    pub(crate) spans: Vec<Range<Pid>>,
    /// `[field][block]`: the column, or None for a field with no typed form.
    cols: Vec<OnceLock<Option<Col>>>,
    /// Each block's rounds, listed once for every computation.
    blocks: Vec<OnceLock<Arc<Block>>>,
    /// Metrics' columns shared by computations (see [`Memo`]).
    memo: Mutex<Memo>,
}

impl FieldCols {
    pub(in crate::eval) fn new(event: &crate::model::Event) -> FieldCols {
        let spans = block_spans(event);
        let n = spans.len() * BuiltinField::ALL.len();
        FieldCols {
            blocks: spans.iter().map(|_| OnceLock::new()).collect(),
            spans,
            cols: (0..n).map(|_| OnceLock::new()).collect(),
            memo: Mutex::default(),
        }
    }
    /// The shared columns (a panic elsewhere leaves them usable: each is
    /// put whole or not at all).
    pub(super) fn memo(&self) -> MutexGuard<'_, Memo> {
        self.memo.lock().unwrap_or_else(|p| p.into_inner())
    }
    /// The place of field `f` of the block starting at participant `p0`.
    fn slot(&self, f: BuiltinField, p0: Pid) -> Option<&OnceLock<Option<Col>>> {
        let b = self.spans.binary_search_by_key(&p0, |s| s.start).ok()?;
        self.cols.get(f as usize * self.spans.len() + b)
    }
}

impl Evaluator<'_> {
    /// Block `k` of [`FieldCols::spans`]: its participants and their
    /// rounds, listed on first use.
    pub(super) fn block(&self, k: usize) -> Arc<Block> {
        let fields = self.fields.clone();
        fields.blocks[k]
            .get_or_init(|| {
                let parts = fields.spans[k].clone();
                let mut blk = Block {
                    parts: parts.clone(),
                    rounds: Vec::with_capacity(BLOCK_ENTRIES + 64),
                    starts: Vec::with_capacity(parts.len() + 1),
                };
                blk.starts.push(0);
                for p in parts {
                    let k = self.entry_count(p);
                    blk.rounds.extend((0..k as u32).map(|i| (p, i)));
                    blk.starts.push(blk.rounds.len());
                }
                Arc::new(blk)
            })
            .clone()
    }

    /// A built-in field of every round of the block, typed; None for
    /// fields without a typed form, as [`Evaluator::field`] gives it of
    /// each round. Made once per block for the whole evaluation (see
    /// [`FieldCols`]).
    pub(super) fn round_field(&mut self, f: BuiltinField, blk: &Block) -> Option<Col> {
        let fields = self.fields.clone();
        let slot = fields.slot(f, blk.parts.start)?;
        if let Some(c) = slot.get() {
            return c.clone();
        }
        let c = self.read_round_field(f, blk);
        slot.get_or_init(|| c).clone()
    }

    /// Field `f` of every round of the block, read from the entries with
    /// the reference's own readers (`entry_flag_of`, `entry_num`, the
    /// running scores of `Evaluator::entry_number`).
    fn read_round_field(&self, f: BuiltinField, blk: &Block) -> Option<Col> {
        let ev = self.event;
        let &(p0, i0) = blk.rounds.first()?;
        let first = &ev.participants[p0].entries[i0 as usize];
        let len = blk.rounds.len();
        // Which kind of field this is does not depend on the round (see
        // `entry_flag`, `entry_number`): decided on the first one.
        Some(if let Some(flag) = entry_flag_of(f) {
            Col::Bools(Arc::new(per_entry(ev, blk, len, flag)))
        } else if f == BuiltinField::RunningScore {
            let b0 = self.tables.entry_base[p0];
            Col::Nums(Arc::new(self.tables.running.get(b0..b0 + len)?.to_vec()))
        } else if entry_num(f, first).is_some() {
            // Defined for every entry when it is for one (the field is
            // numeric whatever the round).
            let num = |en: &Entry| entry_num(f, en).unwrap_or(Num::ZERO);
            Col::Nums(Arc::new(per_entry(ev, blk, len, num)))
        } else if f == BuiltinField::Opponent {
            let opp = |en: &Entry| en.opponent.unwrap_or(NO_PID);
            Col::Pids(Arc::new(per_entry(ev, blk, len, opp)))
        } else {
            return None;
        })
    }

    /// A built-in field of the participants of column `c` (`score`,
    /// `p.rated`), as [`Evaluator::field`] gives it; None for other fields.
    pub(super) fn part_field(
        &self,
        f: BuiltinField,
        c: &Col,
        dom: Dom,
        blk: &Block,
    ) -> Option<Col> {
        use BuiltinField as F;
        if let (Col::Me, Dom::Rounds) = (c, dom) {
            // The participant's own field, the same in each of its rounds.
            return Some(blk.to_rounds(&self.part_field(f, c, Dom::Parts, blk)?));
        }
        let ev = self.event;
        match f {
            F::Score | F::Rated | F::Withdrawn => {}
            F::Rating if self.tables.has_ratings => {}
            _ => return None,
        }
        let len = blk.len(dom);
        // Typed as they are read: the field of each participant, and
        // whether there is one (not for a bye's missing opponent, nor an
        // unrated player's rating).
        let mut defined = Vec::with_capacity(len);
        let col = if matches!(f, F::Rated | F::Withdrawn) {
            let mut bs = Vec::with_capacity(len);
            for j in 0..len {
                let b = blk.pid(dom, c, j)?.map(|p| match f {
                    F::Rated => self.tables.ratings[p].is_some_and(|r| r > 0),
                    _ => ev.participants[p].withdrawn_after.is_some(),
                });
                bs.push(b.unwrap_or(false));
                defined.push(b.is_some());
            }
            bools_col(bs, defined)
        } else {
            let mut ns = Vec::with_capacity(len);
            for j in 0..len {
                let n = blk.pid(dom, c, j)?.and_then(|p| match f {
                    F::Score => Some(self.tables.scores[p]),
                    _ => self.tables.ratings[p].map(Num::int),
                });
                ns.push(n.unwrap_or(Num::ZERO));
                defined.push(n.is_some());
            }
            nums_col(ns, defined)
        };
        Some(col)
    }
}
