//! Metric calls in columns: whole columns of other participants' metrics gathered, metrics with arguments inlined, and the columns shared while one computation lasts.

use crate::eval::columnar::{Block, Builder, Col, Cx, Dom, Slot, MAX_INLINE, NO_PID};
use crate::eval::{Evaluator, Value, R};
use crate::model::Pid;
use crate::num::Num;
use crate::plan::*;
use std::cell::OnceCell;
use std::collections::HashMap;
use std::sync::Arc;

/// The cached numbers of the participants `ps` (undefined where there is
/// none), in one pass; None unless every one of them has a cached number.
fn gather_nums(cache: &[Option<Value>], ps: &[Pid]) -> Option<Col> {
    let mut ns = Vec::with_capacity(ps.len());
    let mut holes = false;
    for &q in ps {
        if q == NO_PID {
            holes = true;
            ns.push(Num::ZERO);
            continue;
        }
        match cache.get(q)? {
            Some(Value::Num(n)) => ns.push(*n),
            _ => return None,
        }
    }
    Some(if holes {
        let defined = ps.iter().map(|&q| q != NO_PID).collect();
        Col::OptNums(Arc::new(ns), Arc::new(defined))
    } else {
        Col::Nums(Arc::new(ns))
    })
}

/// A metric call's argument, as far as sharing its column goes.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum ArgKey {
    Const(Value),
    Round,
    Me,
}

/// Columns used more than once (`opponent_value(r, false, false)` as
/// Sonneborn-Berger's value and key, and again by Buchholz in the next
/// step), kept per block (by its first participant: every computation cuts
/// the same blocks). A metric's column with constant arguments is a
/// function of the event alone, so it is shared by every computation and
/// every fork of the evaluator (it lives in [`FieldCols`]); it is emptied
/// after a whole computation once it holds more than [`MEMO_KEEP`] bytes:
/// kept for the event's lifetime at 100,000 × 15, such columns would cost
/// more memory (hundreds of MB) than recomputing them costs time.
#[derive(Default)]
pub(super) struct Memo {
    cols: HashMap<(Pid, Dom), Vec<(MemoKey, Col)>>,
    /// The columns' size, about.
    bytes: usize,
}

/// [`Memo`] is emptied after a computation beyond this many bytes.
const MEMO_KEEP: usize = 64 << 20;

/// What a shared column is.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum MemoKey {
    /// A metric with these arguments.
    Metric(MetricId, Vec<ArgKey>),
}

impl Memo {
    fn get(&self, p0: Pid, dom: Dom, key: &MemoKey) -> Option<Col> {
        self.cols
            .get(&(p0, dom))?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, c)| c.clone())
    }
    fn put(&mut self, p0: Pid, dom: Dom, key: MemoKey, c: Col) {
        self.bytes += c.bytes();
        self.cols.entry((p0, dom)).or_default().push((key, c));
    }
    /// Drop the columns if they take too much room to keep.
    pub(super) fn trim(&mut self) {
        if self.bytes > MEMO_KEEP {
            *self = Memo::default();
        }
    }
}

/// Arguments computed before a metric is inlined: cheap, and what the
/// shared column's key is made of (constants, the round, the participant).
fn eager(a: &PExpr) -> bool {
    match &a.kind {
        PKind::Num(_) | PKind::Bool(_) | PKind::Str(_) | PKind::Infinity | PKind::Param(_) => true,
        PKind::Local(_) | PKind::Builtin(Builtin::Me | Builtin::Event) => true,
        PKind::Field(b, _) => matches!(b.kind, PKind::Builtin(Builtin::Event)),
        _ => false,
    }
}

impl Evaluator<'_> {
    /// A metric call over the block: the columnar form of
    /// [`Evaluator::metric`] (a whole column gathered for one without
    /// arguments, the body inlined for one with them).
    pub(super) fn col_metric(
        &mut self,
        e: &PExpr,
        id: MetricId,
        target: &Option<Box<PExpr>>,
        args: &[PExpr],
        cx: &Cx,
        blk: &Block,
    ) -> R<Col> {
        let dom = cx.dom;
        let rs = self.rs;
        let m = &rs.metrics[id];
        if m.group_relative {
            return Err(self.give_up(e));
        }
        if args.is_empty() {
            // A whole column, computed once, gathered by participant.
            let t = match target {
                None => Col::Me,
                Some(t) => self.col(t, cx, blk)?,
            };
            if self.tables.same.get(id).copied().unwrap_or(false) {
                return Ok(Col::Const(self.cached_metric(id, 0, e)?));
            }
            self.fill_column(id);
            if let Some(c) = self.gather(id, &t, dom, blk) {
                return Ok(c);
            }
            return self.map(blk, dom, |ev, j| match blk.at(dom, &t, j) {
                Value::Part(q) => ev.cached_metric(id, q, e),
                Value::Undef => Ok(Value::Undef),
                _ => Err(ev.give_up(e)),
            });
        }
        if target.is_some() || cx.inline >= MAX_INLINE {
            return self.per_item(e, cx, blk);
        }
        // Inline the body with the arguments in its first slots.
        let mut locals = Vec::with_capacity(m.slots.max(args.len()));
        for a in args {
            locals.push(if eager(a) {
                Slot::Col(self.col(a, cx, blk)?)
            } else {
                Slot::Lazy(a, cx, OnceCell::new())
            });
        }
        let key: Option<Vec<ArgKey>> = locals
            .iter()
            .map(|c| match c {
                Slot::Col(Col::Const(v)) => Some(ArgKey::Const(v.clone())),
                Slot::Col(Col::Round) => Some(ArgKey::Round),
                Slot::Col(Col::Me) => Some(ArgKey::Me),
                _ => None,
            })
            .collect();
        let key = key.map(|k| MemoKey::Metric(id, k));
        if let Some(key) = &key {
            if let Some(c) = self.fields.memo().get(blk.parts.start, dom, key) {
                return Ok(c);
            }
        }
        locals.resize_with(m.slots.max(locals.len()), || Slot::Empty);
        let sub = Cx {
            dom,
            locals,
            inline: cx.inline + 1,
        };
        let c = self.col(&m.body, &sub, blk)?;
        if let Some(key) = key {
            self.fields.memo().put(blk.parts.start, dom, key, c.clone());
        }
        Ok(c)
    }

    /// The cached values of metric `id` (no arguments) for the participants
    /// of column `t`, undefined where `t` is; None unless `t` holds
    /// participants only and every one of them has a cached value (the
    /// cache [`Evaluator::metric`] reads).
    fn gather(&self, id: MetricId, t: &Col, dom: Dom, blk: &Block) -> Option<Col> {
        if let (Col::Me, Dom::Rounds) = (t, dom) {
            // The participant's own value, the same in each of its rounds.
            return Some(blk.to_rounds(&self.gather(id, t, Dom::Parts, blk)?));
        }
        let cache = &self.caches.metrics[id];
        if let Col::Pids(ps) = t {
            if let Some(c) = gather_nums(cache, ps) {
                return Some(c);
            }
        }
        let len = blk.len(dom);
        let mut out = Builder::new(len);
        for j in 0..len {
            match blk.pid(dom, t, j)? {
                None => out.push(Value::Undef),
                Some(q) => match cache.get(q)? {
                    Some(Value::Num(n)) => out.push_num(*n),
                    Some(v) => out.push(v.clone()),
                    None => return None,
                },
            }
        }
        Some(out.finish())
    }

    /// Participant `q`'s value of metric `id` (no arguments), from the cache
    /// or the reference evaluator.
    fn cached_metric(&mut self, id: MetricId, q: Pid, e: &PExpr) -> R<Value> {
        if let Some(Some(v)) = self.caches.metrics[id].get(q) {
            return Ok(v.clone());
        }
        let args = self.caches.pool.pop().unwrap_or_default();
        self.metric(id, q, args, None, e)
    }
}
