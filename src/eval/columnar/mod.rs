//! Columnar evaluation: a metric computed for a block of participants at once, one expression node at a time over a column of values.
//!
//! The per-participant evaluator walks a metric's expression tree once per
//! participant, and for a loop over the rounds once per round: tens of
//! thousands of participants pay the interpreter's cost per node millions of
//! times. Here each node is visited once per *block* of participants and
//! produces a column: one value per participant of the block, or, inside
//! `for r in rounds`, one per round of theirs. Metrics called with the
//! round and constant arguments (`opponent_value(r, false, false)`) are
//! inlined and their columns shared within the block; metrics of other
//! participants (`r.opponent.adjusted_score`) are whole columns computed
//! first and gathered. A step's criterion that is shown for everyone is
//! computed the same way ([`Evaluator::fill_expr`]). Columns stay typed
//! where they can (numbers, numbers with undefined holes, booleans,
//! participants) so that most nodes run as plain loops over slices.
//!
//! The per-participant evaluator stays the reference. Every value here is
//! made by its own operators, fields, functions and aggregates, item by
//! item, so the two agree by construction; where a node has no columnar form
//! (a loop over something other than the participant's rounds, a nested
//! loop) that node is evaluated per item by the reference evaluator. Both
//! branches of an `if` and every item of a loop are evaluated here, where
//! the reference evaluator would skip some: if anything fails (an error, a
//! tied group, too deep a nesting) the attempt is dropped and the metric is
//! computed per participant, which then reports the error exactly as before

use crate::codes;
mod builtins;
mod column;
mod fields;
mod loops;
mod metrics;
mod ops;
mod threads;

use crate::eval::{Env, EvalError, Evaluator, Value, R};
use crate::plan::*;
use crate::syntax::ast::UnOp;
use column::{Block, Builder, Col, Dom, NO_PID};
use std::cell::OnceCell;
use std::sync::Arc;

pub(crate) use fields::FieldCols;
pub(crate) use threads::Workers;

/// About this many rounds per block: enough to spread each node's fixed
/// cost thin, few enough for a column to stay in the processor's cache.
const BLOCK_ENTRIES: usize = 2048;
/// Metrics with arguments inlined inside one another at most this deep;
/// deeper calls are evaluated per item by the reference evaluator.
const MAX_INLINE: usize = 16;
/// Whole-column computations nested at most this deep (a metric gathering
/// another that gathers another ...); deeper, the reference evaluator works
/// per participant (it grows its stack as needed).
const MAX_NEST: usize = 24;
/// Internal: this metric cannot be computed in columns. Never shown.
const GIVE_UP: &str = codes::EVAL_COLUMNAR;

/// Where a node is evaluated: the domain and the columns of local slots.
struct Cx<'a> {
    dom: Dom,
    locals: Vec<Slot<'a>>,
    /// Metrics inlined around this node (against [`MAX_INLINE`]).
    inline: usize,
}

/// A local slot's column.
enum Slot<'a> {
    /// Not bound (undefined).
    Empty,
    Col(Col),
    /// An argument of an inlined metric, computed in the caller's context
    /// when first used: a branch never taken never computes it (FIDE's
    /// `dummy_score` reads the scheduled opponent's score in the 2026
    /// edition only).
    Lazy(&'a PExpr, &'a Cx<'a>, OnceCell<Col>),
}

impl<'a> Evaluator<'a> {
    /// Compute metric `id` (no arguments, not a criterion) for every
    /// participant in columns and cache the values. Best effort: on failure
    /// nothing is reported, and the participants not cached yet are computed
    /// by [`Evaluator::metric`] when asked for. Tried once per metric, and
    /// not at all when the evaluator works per participant only.
    pub(in crate::eval) fn fill_column(&mut self, id: MetricId) {
        if !self.columnar || self.caches.column_tried[id] || self.budget.col_nest >= MAX_NEST {
            return;
        }
        self.caches.column_tried[id] = true;
        let _ = self.columnar_work(|ev| ev.fill_blocks(id));
    }

    /// A step's expression (no tied group) for every participant, computed
    /// in columns; None when it cannot be (the caller then evaluates it per
    /// participant, and reports any error as before). Steps that are not
    /// relative to a group are shown for everyone, so nothing is computed
    /// that would not have been.
    pub(crate) fn fill_expr(&mut self, e: &'a PExpr, slots: usize) -> Option<Vec<Value>> {
        if !self.columnar || self.budget.col_nest >= MAX_NEST {
            return None;
        }
        let mut out = Vec::with_capacity(self.event.participants.len());
        self.columnar_work(|ev| ev.blocks(e, slots, |_, _, vals| out.extend(vals)))
            .ok()?;
        Some(out)
    }

    /// Run columnar work: charged to its own budget, so that trying it never
    /// leaves the per-participant evaluator with less of its own.
    fn columnar_work<T>(&mut self, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        let outer = self.budget.col_nest == 0;
        if outer {
            std::mem::swap(&mut self.budget.fuel, &mut self.budget.col_fuel);
        }
        self.budget.col_nest += 1;
        let r = f(self);
        self.budget.col_nest -= 1;
        if outer {
            std::mem::swap(&mut self.budget.fuel, &mut self.budget.col_fuel);
            // Shared columns are kept for the next computations unless
            // they take too much room (see `Memo`).
            self.fields.memo().trim();
        }
        r
    }

    /// Metric `id` (no arguments) for every participant, into the cache
    /// [`Evaluator::metric`] reads and fills.
    fn fill_blocks(&mut self, id: MetricId) -> R<()> {
        let rs = self.rs;
        let m = &rs.metrics[id];
        let n = self.event.participants.len();
        self.blocks(&m.body, m.slots, |ev, parts, vals| {
            let cache = Arc::make_mut(&mut ev.caches.metrics[id]);
            if cache.len() < n {
                cache.resize(n, None);
            }
            for (p, v) in parts.zip(vals) {
                cache[p] = Some(v);
            }
        })
    }

    /// Expression `e` over block `k` of [`FieldCols::spans`].
    fn block_col(&mut self, e: &PExpr, slots: usize, k: usize) -> R<(Arc<Block>, Col)> {
        let blk = self.block(k);
        let cx = Cx {
            dom: Dom::Parts,
            locals: (0..slots).map(|_| Slot::Empty).collect(),
            inline: 0,
        };
        let col = self.col(e, &cx, &blk)?;
        Ok((blk, col))
    }

    /// The signal that the columnar path cannot compute `e` as the
    /// reference evaluator would (never shown).
    fn give_up(&self, e: &PExpr) -> Box<EvalError> {
        Box::new(EvalError {
            code: GIVE_UP,
            message: String::new(),
            help: String::new(),
            file: e.file,
            span: e.span,
        })
    }

    /// A column made element by element.
    fn map(
        &mut self,
        blk: &Block,
        dom: Dom,
        mut f: impl FnMut(&mut Self, usize) -> R<Value>,
    ) -> R<Col> {
        let len = blk.len(dom);
        let mut out = Builder::new(len);
        for j in 0..len {
            let v = f(self, j)?;
            if let (Value::List(_), Builder::Nums(ns)) = (&v, &out) {
                if ns.is_empty() {
                    // A list per element (a loop's): general values from
                    // the start, without trying each for a type.
                    return self.map_values(blk, dom, v, f);
                }
            }
            out.push(v);
        }
        Ok(out.finish())
    }

    /// The rest of [`Evaluator::map`] after a first value `v0` that has no
    /// typed column.
    fn map_values(
        &mut self,
        blk: &Block,
        dom: Dom,
        v0: Value,
        mut f: impl FnMut(&mut Self, usize) -> R<Value>,
    ) -> R<Col> {
        let len = blk.len(dom);
        let mut vs = Vec::with_capacity(len);
        vs.push(v0);
        for j in 1..len {
            vs.push(f(self, j)?);
        }
        Ok(Col::Vals(Arc::new(vs)))
    }

    /// Evaluate `e` over the block's domain: the columnar form of
    /// [`Evaluator::eval`], with its nesting limit.
    fn col(&mut self, e: &PExpr, cx: &Cx, blk: &Block) -> R<Col> {
        // Nesting as deep as the reference evaluator allows, on a stack
        // that grows when little is left (probed every eighth level).
        if self.budget.depth >= crate::eval::MAX_EVAL_DEPTH {
            return Err(self.give_up(e));
        }
        self.budget.depth += 1;
        let c = if self.budget.depth.is_multiple_of(8) {
            stacker::maybe_grow(512 * 1024, 4 * 1024 * 1024, || self.col_node(e, cx, blk))
        } else {
            self.col_node(e, cx, blk)
        };
        self.budget.depth -= 1;
        c
    }

    /// One node over the block's domain: the columnar form of
    /// `Evaluator::eval_node`, node kind by node kind (`not` of booleans
    /// typed, other operators as `Evaluator::unary_value` gives them).
    fn col_node(&mut self, e: &PExpr, cx: &Cx, blk: &Block) -> R<Col> {
        let dom = cx.dom;
        self.charge(e, column_work(blk.len(dom)))?;
        Ok(match &e.kind {
            PKind::Num(n) => Col::Const(Value::Num(*n)),
            PKind::Bool(b) => Col::Const(Value::Bool(*b)),
            PKind::Str(s) => Col::Const(Value::Str(s.clone())),
            PKind::Infinity => Col::Const(Value::Inf),
            PKind::Param(i) => Col::Const(Value::Num(self.rs.params[*i].value)),
            PKind::Local(i) => self.local(cx, *i, blk)?,
            PKind::Builtin(Builtin::Me) => Col::Me,
            PKind::Builtin(Builtin::Event) => Col::Const(Value::Event),
            PKind::Builtin(
                Builtin::Group | Builtin::Others | Builtin::FirstPlace | Builtin::LastPlace,
            ) => return Err(self.give_up(e)),
            PKind::Builtin(Builtin::Rounds | Builtin::Sessions) => self.per_item(e, cx, blk)?,
            PKind::Metric(id, target, args) => self.col_metric(e, *id, target, args, cx, blk)?,
            PKind::Field(base, f) => {
                let b = self.col(base, cx, blk)?;
                let typed = match (&b, f.builtin) {
                    (Col::Round, Some(bf)) => self.round_field(bf, blk),
                    (Col::Me | Col::Pids(_), Some(bf)) => self.part_field(bf, &b, dom, blk),
                    _ => None,
                };
                match (typed, b) {
                    (Some(c), _) => c,
                    (None, Col::Const(v)) => Col::Const(self.field(e, &v, f)?),
                    (None, b) => self.map(blk, dom, |ev, j| ev.field(e, &blk.at(dom, &b, j), f))?,
                }
            }
            PKind::Call(func, args) => self.col_call(e, *func, args, cx, blk)?,
            // Element by element, by the reference evaluator's lookup.
            PKind::Table(id, x) => match self.col(x, cx, blk)? {
                Col::Const(v) => Col::Const(self.lookup(e, *id, &v)?),
                cv => self.map(blk, dom, |ev, j| ev.lookup(e, *id, &blk.at(dom, &cv, j)))?,
            },
            PKind::Agg(agg, g) => match self.col_loop(e, Some(*agg), g, cx, blk)? {
                Some(c) => c,
                None => self.per_item(e, cx, blk)?,
            },
            PKind::List(g) => match self.col_loop(e, None, g, cx, blk)? {
                Some(c) => c,
                None => self.per_item(e, cx, blk)?,
            },
            PKind::If(c, a, b) => self.col_if(e, c, a, b, cx, blk)?,
            PKind::Unary(op, x) => match self.col(x, cx, blk)? {
                Col::Const(v) => Col::Const(self.unary_value(e, *op, x, v)?),
                Col::Bools(bs) if *op == UnOp::Not => {
                    Col::Bools(Arc::new(bs.iter().map(|b| !b).collect()))
                }
                cv => self.map(blk, dom, |ev, j| {
                    ev.unary_value(e, *op, x, blk.at(dom, &cv, j))
                })?,
            },
            PKind::Binary(op, a, b) => self.col_binary(e, *op, a, b, cx, blk)?,
        })
    }

    /// Local slot `i`'s column (an argument not used before is computed now).
    fn local(&mut self, cx: &Cx, i: usize, blk: &Block) -> R<Col> {
        Ok(match cx.locals.get(i) {
            None | Some(Slot::Empty) => Col::Const(Value::Undef),
            Some(Slot::Col(c)) => c.clone(),
            Some(Slot::Lazy(a, outer, cell)) => match cell.get() {
                Some(c) => c.clone(),
                None => {
                    let c = self.col(a, outer, blk)?;
                    cell.get_or_init(|| c).clone()
                }
            },
        })
    }

    /// Every local slot's column, computing the arguments not used yet
    /// (for a loop or the reference evaluator, which take them all).
    fn forced_locals(&mut self, cx: &Cx, blk: &Block) -> R<Vec<Option<Col>>> {
        let mut out = Vec::with_capacity(cx.locals.len());
        for (i, s) in cx.locals.iter().enumerate() {
            out.push(match s {
                Slot::Empty => None,
                _ => Some(self.local(cx, i, blk)?),
            });
        }
        Ok(out)
    }

    /// `e` evaluated element by element by the reference evaluator.
    fn per_item(&mut self, e: &PExpr, cx: &Cx, blk: &Block) -> R<Col> {
        let dom = cx.dom;
        let locals = self.forced_locals(cx, blk)?;
        let mut env = Env {
            me: None,
            locals: Vec::with_capacity(locals.len()),
            group: None,
            places: None,
        };
        self.map(blk, dom, |ev, j| {
            env.me = Some(blk.owner(dom, j));
            env.locals.clear();
            env.locals.extend(locals.iter().map(|c| match c {
                Some(c) => blk.at(dom, c, j),
                None => Value::Undef,
            }));
            ev.eval(e, &mut env)
        })
    }
}

/// The work charged for one node over `items` values of a column: an
/// operation on one value of a column costs about a quarter of an
/// expression evaluation (4 and 23 ns measured, docs/performance.md
/// "Session 16: a work budget"), so four count as one, and
/// [`crate::eval::EVAL_WORK_MAX`] bounds the time of either path alike.
pub(crate) fn column_work(items: usize) -> u64 {
    (items as u64).div_ceil(COLUMN_ITEMS_PER_WORK).max(1)
}

/// Values of a column one unit of evaluation work pays for.
const COLUMN_ITEMS_PER_WORK: u64 = 4;
