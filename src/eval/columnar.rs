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
//! — or, for an error only in a skipped branch, none.

use crate::eval::{Acc, Env, EvalError, Evaluator, ListItem, Value, R};
use crate::model::{Entry, Event, Pid};
use crate::num::Num;
use crate::plan::*;
use crate::syntax::ast::UnOp;
use std::cell::OnceCell;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

/// About this many rounds per block: enough to spread each node's fixed
/// cost thin, few enough for a column to stay in the processor's cache.
const BLOCK_ENTRIES: usize = 2048;
/// Stack of each thread computing blocks (the main thread's usual size;
/// deeper nesting grows it on the heap, as on the main thread).
const THREAD_STACK: usize = 8 * 1024 * 1024;
/// The blocks computed by one fork: (index among the shared blocks, the
/// block's participants, their values), or the failure that stopped it.
type Done = R<Vec<(usize, Range<Pid>, Vec<Value>)>>;

/// What the forks of one computation share: the expression, the blocks
/// after the first, the next block not yet taken, and whether one failed.
struct Share<'a> {
    e: &'a PExpr,
    slots: usize,
    spans: Box<[Range<Pid>]>,
    next: AtomicUsize,
    failed: AtomicBool,
}

impl<'a> Share<'a> {
    /// Compute blocks with `fork`, one at a time, until none is left or
    /// one of the forks failed.
    fn run(&self, fork: &mut Evaluator<'a>) -> Done {
        let mut done = Vec::new();
        while !self.failed.load(Relaxed) {
            let k = self.next.fetch_add(1, Relaxed);
            let Some(span) = self.spans.get(k) else { break };
            match fork.block_col(self.e, self.slots, span.clone()) {
                // Values made here, on the fork's thread, not in turn on
                // the calling one.
                Ok((blk, col)) => done.push((k, blk.parts.clone(), blk.values(&col))),
                Err(er) => {
                    self.failed.store(true, Relaxed);
                    return Err(er);
                }
            }
        }
        Ok(done)
    }
}

/// A fork's share of one computation, sent to a worker.
struct Job<'a> {
    fork: Evaluator<'a>,
    share: Arc<Share<'a>>,
    /// Where the fork goes back, with what it computed.
    done: std::sync::mpsc::Sender<(Evaluator<'a>, Done)>,
}

/// Threads that wait, for a whole ranking, to compute blocks of columns
/// (see [`Evaluator::blocks`]): started once, where a computation would
/// otherwise start and join threads of its own each time (at 10,000 × 15,
/// a ranking makes about fourteen such computations).
pub(crate) struct Workers<'a> {
    jobs: Vec<std::sync::mpsc::Sender<Job<'a>>>,
}

impl<'a> Workers<'a> {
    /// `n` workers living in `scope`. They stop when this is dropped (the
    /// evaluator holding it must be dropped before the scope ends).
    pub(crate) fn start<'scope>(
        scope: &'scope std::thread::Scope<'scope, '_>,
        n: usize,
    ) -> Workers<'a>
    where
        'a: 'scope,
    {
        let mut jobs = Vec::new();
        for _ in 0..n {
            let (tx, rx) = std::sync::mpsc::channel::<Job<'a>>();
            let started = std::thread::Builder::new()
                .stack_size(THREAD_STACK)
                .spawn_scoped(scope, move || {
                    for mut job in rx {
                        let r = job.share.run(&mut job.fork);
                        let _ = job.done.send((job.fork, r));
                    }
                });
            // Without a thread, computations start their own as before.
            if started.is_ok() {
                jobs.push(tx);
            }
        }
        Workers { jobs }
    }
}

/// Metrics with arguments inlined inside one another at most this deep;
/// deeper calls are evaluated per item by the reference evaluator.
const MAX_INLINE: usize = 16;
/// Whole-column computations nested at most this deep (a metric gathering
/// another that gathers another ...); deeper, the reference evaluator works
/// per participant (it grows its stack as needed).
const MAX_NEST: usize = 24;
/// An undefined participant in a [`Col::Pids`] (a bye's opponent).
const NO_PID: Pid = Pid::MAX;
/// Internal: this metric cannot be computed in columns. Never shown.
pub(crate) const GIVE_UP: &str = "tb::eval::columnar";

/// A column: one value per element of the block's domain. Columns of
/// numbers only or of booleans only are kept typed, so operators on them
/// skip the general value's matching, copying and dropping.
#[derive(Clone, Debug)]
pub(crate) enum Col {
    /// The same value for every element.
    Const(Value),
    /// Any values.
    Vals(Arc<Vec<Value>>),
    /// Numbers, all defined.
    Nums(Arc<Vec<Num>>),
    /// Numbers or undefined (where the flag is false): an opponent's
    /// score, undefined for a bye.
    OptNums(Arc<Vec<Num>>, Arc<Vec<bool>>),
    /// True or false, all defined.
    Bools(Arc<Vec<bool>>),
    /// True, false or undefined (where the flag is false): `p.rated` of
    /// every round's opponent, undefined for a bye.
    OptBools(Arc<Vec<bool>>, Arc<Vec<bool>>),
    /// Participants (`r.opponent`); [`NO_PID`] where undefined.
    Pids(Arc<Vec<Pid>>),
    /// Each element's own round (the variable of `for r in rounds`).
    Round,
    /// Each element's participant (`me`).
    Me,
}

impl Col {
    /// Element `j` as a number, when the column holds numbers only.
    fn num(&self, j: usize) -> Option<Num> {
        match self {
            Col::Nums(v) => Some(v[j]),
            Col::OptNums(v, d) if d[j] => Some(v[j]),
            Col::Const(Value::Num(n)) => Some(*n),
            _ => None,
        }
    }
    /// Numbers or undefined only, each read by [`Col::num`] (None: undefined).
    fn opt_nums(&self) -> bool {
        matches!(
            self,
            Col::Nums(_) | Col::OptNums(..) | Col::Const(Value::Num(_) | Value::Undef)
        )
    }
    fn is_nums(&self) -> bool {
        matches!(self, Col::Nums(_) | Col::Const(Value::Num(_)))
    }
    /// The column as numbers, when it holds numbers only.
    fn nums(&self) -> Option<NumView<'_>> {
        match self {
            Col::Nums(v) => Some(NumView::Each(v)),
            Col::Const(Value::Num(n)) => Some(NumView::All(*n)),
            _ => None,
        }
    }
}

/// A column of numbers read without matching each element: a slice, or
/// one number for all (a constant).
#[derive(Clone, Copy)]
enum NumView<'a> {
    Each(&'a [Num]),
    All(Num),
}

impl NumView<'_> {
    #[inline]
    fn at(self, j: usize) -> Num {
        match self {
            NumView::Each(v) => v[j],
            NumView::All(n) => n,
        }
    }
}

/// `f` over the elements of two columns of numbers, pairwise.
fn zip_nums<T>(a: NumView, b: NumView, len: usize, mut f: impl FnMut(Num, Num) -> T) -> Vec<T> {
    use NumView::*;
    match (a, b) {
        (Each(x), Each(y)) => x.iter().zip(y).map(|(&x, &y)| f(x, y)).collect(),
        (Each(x), All(y)) => x.iter().map(|&x| f(x, y)).collect(),
        (All(x), Each(y)) => y.iter().map(|&y| f(x, y)).collect(),
        (All(x), All(y)) => (0..len).map(|_| f(x, y)).collect(),
    }
}

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

/// `args` is one call of `cut_lowest`, `cut_highest` or `best` (the
/// function and its two arguments): the argument of a `sum` or `mean` that
/// [`Evaluator::total_of_cut`] computes.
fn fused_cut(args: &[PExpr]) -> Option<(Func, &[PExpr; 2])> {
    match args {
        [PExpr {
            kind: PKind::Call(f @ (Func::CutLowest | Func::CutHighest | Func::Best), inner),
            ..
        }] => Some((*f, inner.as_slice().try_into().ok()?)),
        _ => None,
    }
}

/// A typed column's values so far, all defined, and an undefined one after
/// them (`filler` in its place), with the flags of which are defined.
fn first_hole<T>(vs: &mut Vec<T>, filler: T) -> (Vec<T>, Vec<bool>) {
    let mut ds = Vec::with_capacity(vs.capacity());
    ds.resize(vs.len(), true);
    ds.push(false);
    let mut vs = std::mem::take(vs);
    vs.push(filler);
    (vs, ds)
}

/// A typed column as general values (undefined where `defined` is false),
/// with room left for as many as it had.
fn as_values<T>(vs: Vec<T>, defined: Vec<bool>, value: impl Fn(T) -> Value) -> Vec<Value> {
    let mut out = Vec::with_capacity(vs.capacity());
    out.extend(vs.into_iter().zip(defined).map(|(v, d)| match d {
        true => value(v),
        false => Value::Undef,
    }));
    out
}

/// Numbers, undefined where `defined` is false: typed as holding numbers
/// only when none is undefined.
fn nums_col(ns: Vec<Num>, defined: Vec<bool>) -> Col {
    match defined.iter().all(|&d| d) {
        true => Col::Nums(Arc::new(ns)),
        false => Col::OptNums(Arc::new(ns), Arc::new(defined)),
    }
}

/// Booleans, undefined where `defined` is false (as [`nums_col`]).
fn bools_col(bs: Vec<bool>, defined: Vec<bool>) -> Col {
    match defined.iter().all(|&d| d) {
        true => Col::Bools(Arc::new(bs)),
        false => Col::OptBools(Arc::new(bs), Arc::new(defined)),
    }
}

/// Builds a column value by value, typed while every value has one type.
enum Builder {
    Nums(Vec<Num>),
    OptNums(Vec<Num>, Vec<bool>),
    Bools(Vec<bool>),
    OptBools(Vec<bool>, Vec<bool>),
    Vals(Vec<Value>),
}

impl Builder {
    fn new(len: usize) -> Builder {
        Builder::Nums(Vec::with_capacity(len))
    }
    #[inline]
    fn push_num(&mut self, n: Num) {
        match self {
            Builder::Nums(ns) => ns.push(n),
            _ => self.push(Value::Num(n)),
        }
    }
    #[inline]
    fn push(&mut self, v: Value) {
        match (&mut *self, v) {
            (Builder::Nums(ns), Value::Num(n)) => ns.push(n),
            (Builder::OptNums(ns, ds), Value::Num(n)) => {
                ns.push(n);
                ds.push(true);
            }
            (Builder::OptNums(ns, ds), Value::Undef) => {
                ns.push(Num::ZERO);
                ds.push(false);
            }
            (Builder::Bools(bs), Value::Bool(b)) => bs.push(b),
            (Builder::OptBools(bs, ds), Value::Bool(b)) => {
                bs.push(b);
                ds.push(true);
            }
            (Builder::OptBools(bs, ds), Value::Undef) => {
                bs.push(false);
                ds.push(false);
            }
            (Builder::Vals(vs), v) => vs.push(v),
            (_, v) => self.push_other(v),
        }
    }
    /// A value that changes the column's type (or starts it).
    fn push_other(&mut self, v: Value) {
        match (&mut *self, v) {
            (Builder::Nums(ns), Value::Undef) => {
                let (ns, ds) = first_hole(ns, Num::ZERO);
                *self = Builder::OptNums(ns, ds);
            }
            (Builder::Nums(ns), Value::Bool(b)) if ns.is_empty() => {
                let mut bs = Vec::with_capacity(ns.capacity());
                bs.push(b);
                *self = Builder::Bools(bs);
            }
            (Builder::Bools(bs), Value::Undef) => {
                let (bs, ds) = first_hole(bs, false);
                *self = Builder::OptBools(bs, ds);
            }
            (Builder::Vals(vs), v) => vs.push(v),
            (_, v) => {
                let mut vs: Vec<Value> = match std::mem::replace(self, Builder::Vals(Vec::new())) {
                    Builder::Nums(ns) => {
                        let ds = vec![true; ns.len()];
                        as_values(ns, ds, Value::Num)
                    }
                    Builder::OptNums(ns, ds) => as_values(ns, ds, Value::Num),
                    Builder::Bools(bs) => {
                        let ds = vec![true; bs.len()];
                        as_values(bs, ds, Value::Bool)
                    }
                    Builder::OptBools(bs, ds) => as_values(bs, ds, Value::Bool),
                    Builder::Vals(vs) => vs,
                };
                vs.push(v);
                *self = Builder::Vals(vs);
            }
        }
    }
    fn finish(self) -> Col {
        match self {
            Builder::Nums(ns) => Col::Nums(Arc::new(ns)),
            Builder::OptNums(ns, ds) => Col::OptNums(Arc::new(ns), Arc::new(ds)),
            Builder::Bools(bs) => Col::Bools(Arc::new(bs)),
            Builder::OptBools(bs, ds) => Col::OptBools(Arc::new(bs), Arc::new(ds)),
            Builder::Vals(vs) => Col::Vals(Arc::new(vs)),
        }
    }
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
}

impl FieldCols {
    pub(crate) fn new(event: &crate::model::Event) -> FieldCols {
        let spans = block_spans(event);
        let n = spans.len() * BuiltinField::ALL.len();
        FieldCols {
            spans,
            cols: (0..n).map(|_| OnceLock::new()).collect(),
        }
    }
    /// The place of field `f` of the block starting at participant `p0`.
    fn slot(&self, f: BuiltinField, p0: Pid) -> Option<&OnceLock<Option<Col>>> {
        let b = self.spans.binary_search_by_key(&p0, |s| s.start).ok()?;
        self.cols.get(f as usize * self.spans.len() + b)
    }
}

/// What a column has one value for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Dom {
    /// The block's participants.
    Parts,
    /// The rounds of the block's participants, participant by participant.
    Rounds,
}

/// A metric call's argument, as far as sharing its column goes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ArgKey {
    Const(Value),
    Round,
    Me,
}

/// Columns used more than once while one metric is computed with the
/// metrics it gathers (`opponent_value(r, false, false)` as Sonneborn-Berger's
/// value and key), kept per block (by its first participant: every
/// computation cuts the same blocks). Built-in fields are kept longer, in
/// [`FieldCols`].
#[derive(Default)]
pub(crate) struct Memo(HashMap<(Pid, Dom), Vec<(MemoKey, Col)>>);

/// What a shared column is.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum MemoKey {
    /// A metric with these arguments.
    Metric(MetricId, Vec<ArgKey>),
}

impl Memo {
    fn get(&self, p0: Pid, dom: Dom, key: &MemoKey) -> Option<Col> {
        self.0
            .get(&(p0, dom))?
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, c)| c.clone())
    }
    fn put(&mut self, p0: Pid, dom: Dom, key: MemoKey, c: Col) {
        self.0.entry((p0, dom)).or_default().push((key, c));
    }
}

/// The participants evaluated together.
struct Block {
    /// First participant and one past the last.
    parts: Range<Pid>,
    /// Every round of those participants: (participant, index of the entry).
    rounds: Vec<(Pid, u32)>,
    /// Where each participant's rounds start in `rounds` (and the end).
    starts: Vec<usize>,
}

impl Block {
    fn len(&self, dom: Dom) -> usize {
        match dom {
            Dom::Parts => self.parts.len(),
            Dom::Rounds => self.rounds.len(),
        }
    }
    /// The participant of element `j`.
    fn owner(&self, dom: Dom, j: usize) -> Pid {
        match dom {
            Dom::Parts => self.parts.start + j,
            Dom::Rounds => self.rounds[j].0,
        }
    }
    /// Element `j` of a column.
    /// Column `c` (over the participants) as one value per participant.
    fn values(&self, c: &Col) -> Vec<Value> {
        (0..self.parts.len())
            .map(|j| self.at(Dom::Parts, c, j))
            .collect()
    }

    fn at(&self, dom: Dom, c: &Col, j: usize) -> Value {
        match c {
            Col::Const(v) => v.clone(),
            Col::Vals(vs) => vs[j].clone(),
            Col::Nums(ns) => Value::Num(ns[j]),
            Col::OptNums(ns, ds) => match ds[j] {
                true => Value::Num(ns[j]),
                false => Value::Undef,
            },
            Col::Bools(bs) => Value::Bool(bs[j]),
            Col::OptBools(bs, ds) => match ds[j] {
                true => Value::Bool(bs[j]),
                false => Value::Undef,
            },
            Col::Pids(ps) => match ps[j] {
                NO_PID => Value::Undef,
                p => Value::Part(p),
            },
            Col::Round => {
                let (p, i) = self.rounds[j];
                Value::Entry(p, i)
            }
            Col::Me => Value::Part(self.owner(dom, j)),
        }
    }
    /// The participant element `j` of a column names, when the column
    /// holds participants only (None inside: undefined).
    fn pid(&self, dom: Dom, c: &Col, j: usize) -> Option<Option<Pid>> {
        match c {
            Col::Pids(ps) => Some((ps[j] != NO_PID).then_some(ps[j])),
            Col::Me => Some(Some(self.owner(dom, j))),
            Col::Const(Value::Part(p)) => Some(Some(*p)),
            _ => None,
        }
    }
    /// A participants' column carried over to their rounds (each round
    /// takes its participant's value).
    fn to_rounds(&self, c: &Col) -> Col {
        match c {
            Col::Pids(ps) => Col::Pids(self.spread(ps)),
            Col::Vals(vs) => Col::Vals(self.spread(vs)),
            Col::OptNums(ns, ds) => Col::OptNums(self.spread(ns), self.spread(ds)),
            Col::Nums(ns) => Col::Nums(self.spread(ns)),
            Col::Bools(bs) => Col::Bools(self.spread(bs)),
            Col::OptBools(bs, ds) => Col::OptBools(self.spread(bs), self.spread(ds)),
            other => other.clone(),
        }
    }
    /// One value per participant of the block, repeated for each of its rounds.
    fn spread<T: Clone>(&self, per_part: &[T]) -> Arc<Vec<T>> {
        Arc::new(
            self.rounds
                .iter()
                .map(|&(p, _)| per_part[p - self.parts.start].clone())
                .collect(),
        )
    }
}

/// Where a node is evaluated: the domain and the columns of local slots.
struct Cx<'a> {
    dom: Dom,
    locals: Vec<Slot<'a>>,
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

impl<'a> Evaluator<'a> {
    /// Compute metric `id` (no arguments, not a criterion) for every
    /// participant in columns and cache the values. Best effort: on failure
    /// nothing is reported, and the participants not cached yet are computed
    /// by [`Evaluator::metric`] when asked for. Tried once per metric, and
    /// not at all when the evaluator works per participant only.
    pub(crate) fn fill_column(&mut self, id: MetricId) {
        if !self.columnar || self.column_tried[id] || self.col_nest >= MAX_NEST {
            return;
        }
        self.column_tried[id] = true;
        let _ = self.columnar_work(|ev| ev.fill_blocks(id));
    }

    /// A step's expression (no tied group) for every participant, computed
    /// in columns; None when it cannot be (the caller then evaluates it per
    /// participant, and reports any error as before). Steps that are not
    /// relative to a group are shown for everyone, so nothing is computed
    /// that would not have been.
    pub(crate) fn fill_expr(&mut self, e: &'a PExpr, slots: usize) -> Option<Vec<Value>> {
        if !self.columnar || self.col_nest >= MAX_NEST {
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
        let outer = self.col_nest == 0;
        if outer {
            std::mem::swap(&mut self.fuel, &mut self.col_fuel);
        }
        self.col_nest += 1;
        let r = f(self);
        self.col_nest -= 1;
        if outer {
            std::mem::swap(&mut self.fuel, &mut self.col_fuel);
            // Shared columns live as long as one whole computation: kept
            // for the event's lifetime, they cost more memory (hundreds of
            // MB at 100,000 × 15) than recomputing them costs time.
            self.col_memo = Memo::default();
        }
        r
    }

    /// Metric `id` (no arguments) for every participant, into the cache.
    fn fill_blocks(&mut self, id: MetricId) -> R<()> {
        let rs = self.rs;
        let m = &rs.metrics[id];
        let n = self.event.participants.len();
        self.blocks(&m.body, m.slots, |ev, parts, vals| {
            let cache = Arc::make_mut(&mut ev.cache[id]);
            if cache.len() < n {
                cache.resize(n, None);
            }
            for (p, v) in parts.zip(vals) {
                cache[p] = Some(v);
            }
        })
    }

    /// Expression `e` (a metric's body or a step, `slots` local slots) over
    /// every participant, block by block, handing each block's
    /// participants and their values to `put` in order. Stops at the first
    /// failure.
    ///
    /// The first block is computed here: it computes every whole column of
    /// other metrics that `e` gathers (`r.opponent.adjusted_score`), each
    /// itself spread over the threads. The other blocks are then computed
    /// by [`Evaluator::threads`] forks of this evaluator, each taking the
    /// next block not yet taken — on this thread and on the ranking's
    /// [`Workers`] if it has them, else on threads started for this
    /// computation; the forks read those columns and write nothing here;
    /// the values (made by the forks, in parallel) are handed to `put` in
    /// block order after all have finished.
    fn blocks(
        &mut self,
        e: &'a PExpr,
        slots: usize,
        mut put: impl FnMut(&mut Self, Range<Pid>, Vec<Value>),
    ) -> R<()> {
        let spans = self.block_spans();
        let Some((first, rest)) = spans.split_first() else {
            return Ok(());
        };
        let (blk, col) = self.block_col(e, slots, first.clone())?;
        put(self, blk.parts.clone(), blk.values(&col));
        let threads = self.threads.clamp(1, rest.len().max(1));
        if threads == 1 {
            for span in rest {
                let (blk, col) = self.block_col(e, slots, span.clone())?;
                put(self, blk.parts.clone(), blk.values(&col));
            }
            return Ok(());
        }
        // Blocks are handed out one at a time, to whichever thread is free:
        // the calling thread has more to do afterwards (putting the columns
        // in place), and on a shared machine one core may run slower.
        let share = Share {
            e,
            slots,
            spans: rest.into(),
            next: AtomicUsize::new(0),
            failed: AtomicBool::new(false),
        };
        let (forks, results) = match &self.workers {
            Some(w) => self.on_workers(w, Arc::new(share), threads),
            None => self.on_threads(&share, threads),
        };
        self.absorb_fuel(&forks);
        // In block order, whoever computed them.
        let mut cols: Vec<Option<(Range<Pid>, Vec<Value>)>> =
            (0..rest.len()).map(|_| None).collect();
        for r in results {
            for (k, parts, vals) in r? {
                cols[k] = Some((parts, vals));
            }
        }
        debug_assert!(cols.iter().all(Option::is_some));
        for (parts, vals) in cols.into_iter().flatten() {
            put(self, parts, vals);
        }
        Ok(())
    }

    /// [`Evaluator::blocks`]' shared blocks on `threads` forks: this thread
    /// and threads started for them.
    fn on_threads(&self, share: &Share<'a>, threads: usize) -> (Vec<Evaluator<'a>>, Vec<Done>) {
        let mut forks: Vec<Evaluator> = (0..threads).map(|_| self.fork()).collect();
        let results = std::thread::scope(|scope| {
            let mut forks = forks.iter_mut();
            let here = forks.next();
            let mut handles = Vec::new();
            for fork in forks {
                handles.push(
                    std::thread::Builder::new()
                        .stack_size(THREAD_STACK)
                        .spawn_scoped(scope, move || share.run(fork)),
                );
            }
            let mut results = vec![here.map_or(Ok(Vec::new()), |f| share.run(f))];
            for h in handles {
                results.push(match h {
                    Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                    // No thread to be had: give the columnar attempt up.
                    Err(_) => Err(self.give_up(share.e)),
                });
            }
            results
        });
        (forks, results)
    }

    /// [`Evaluator::blocks`]' shared blocks on `threads` forks: this thread
    /// and the ranking's workers, which are waiting for work (starting
    /// threads for every computation cost 0.1-0.2 ms each time).
    fn on_workers(
        &self,
        workers: &Workers<'a>,
        share: Arc<Share<'a>>,
        threads: usize,
    ) -> (Vec<Evaluator<'a>>, Vec<Done>) {
        let (tx, rx) = std::sync::mpsc::channel();
        let mut sent = 0;
        for w in workers.jobs.iter().take(threads - 1) {
            let job = Job {
                fork: self.fork(),
                share: share.clone(),
                done: tx.clone(),
            };
            if w.send(job).is_ok() {
                sent += 1;
            }
        }
        drop(tx);
        let mut here = self.fork();
        let mut results = vec![share.run(&mut here)];
        let mut forks = vec![here];
        for _ in 0..sent {
            match rx.recv() {
                Ok((fork, r)) => {
                    forks.push(fork);
                    results.push(r);
                }
                // A worker is gone (it panicked, which ends the ranking
                // with that panic when the workers are joined).
                Err(_) => results.push(Err(self.give_up(share.e))),
            }
        }
        (forks, results)
    }

    /// The participants of each block: consecutive participants with about
    /// [`BLOCK_ENTRIES`] rounds in all (at least one participant).
    fn block_spans(&self) -> Vec<Range<Pid>> {
        self.fields.spans.clone()
    }

    /// Expression `e` over one block: the participants of `parts`.
    fn block_col(&mut self, e: &PExpr, slots: usize, parts: Range<Pid>) -> R<(Block, Col)> {
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
        let cx = Cx {
            dom: Dom::Parts,
            locals: (0..slots).map(|_| Slot::Empty).collect(),
            inline: 0,
        };
        let col = self.col(e, &cx, &mut blk)?;
        Ok((blk, col))
    }

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
            out.push(f(self, j)?);
        }
        Ok(out.finish())
    }

    /// Evaluate `e` over the block's domain.
    fn col(&mut self, e: &PExpr, cx: &Cx, blk: &mut Block) -> R<Col> {
        // Nesting as deep as the reference evaluator allows, on a stack
        // that grows when little is left (probed every eighth level).
        if self.depth >= crate::eval::MAX_EVAL_DEPTH {
            return Err(self.give_up(e));
        }
        self.depth += 1;
        let c = if self.depth.is_multiple_of(8) {
            stacker::maybe_grow(512 * 1024, 4 * 1024 * 1024, || self.col_node(e, cx, blk))
        } else {
            self.col_node(e, cx, blk)
        };
        self.depth -= 1;
        c
    }

    fn col_node(&mut self, e: &PExpr, cx: &Cx, blk: &mut Block) -> R<Col> {
        let dom = cx.dom;
        self.charge(e, blk.len(dom).max(1) as u64)?;
        Ok(match &e.kind {
            PKind::Num(n) => Col::Const(Value::Num(*n)),
            PKind::Bool(b) => Col::Const(Value::Bool(*b)),
            PKind::Str(s) => Col::Const(Value::Str(s.clone())),
            PKind::Infinity => Col::Const(Value::Inf),
            PKind::Param(i) => Col::Const(Value::Num(self.rs.params[*i].value)),
            PKind::Local(i) => self.local(cx, *i, blk)?,
            PKind::Builtin(Builtin::Me) => Col::Me,
            PKind::Builtin(Builtin::Event) => Col::Const(Value::Event),
            PKind::Builtin(Builtin::Group | Builtin::Others) => return Err(self.give_up(e)),
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
            PKind::Call(func @ (Func::Sum | Func::Mean), args) if fused_cut(args).is_some() => {
                match self.total_of_cut(e, *func, &args[0], cx, blk)? {
                    Some(c) => c,
                    None => self.per_item(e, cx, blk)?,
                }
            }
            PKind::Call(func, args) => {
                let mut cols = Vec::with_capacity(args.len());
                for a in args {
                    cols.push(self.col(a, cx, blk)?);
                }
                if let (Func::Sum | Func::Mean | Func::Count, [Col::Vals(vs)]) =
                    (func, cols.as_slice())
                {
                    // `sum(opponent_scores)`: each participant's list added
                    // up where it is, as the function does (and charged the
                    // same), without a list of arguments per participant.
                    if vs.iter().all(|v| matches!(v, Value::List(_))) {
                        let mut out = Builder::new(vs.len());
                        for v in vs.iter() {
                            if let Value::List(l) = v {
                                self.charge(e, l.len() as u64)?;
                                out.push(self.list_total(e, *func, l)?);
                            }
                        }
                        return Ok(out.finish());
                    }
                }
                if cols.iter().all(|c| matches!(c, Col::Const(_))) {
                    let vals = cols.iter().map(|c| blk.at(dom, c, 0)).collect();
                    Col::Const(self.call(e, *func, vals)?)
                } else {
                    self.map(blk, dom, |ev, j| {
                        let vals = cols.iter().map(|c| blk.at(dom, c, j)).collect();
                        ev.call(e, *func, vals)
                    })?
                }
            }
            PKind::Agg(agg, g) => match self.col_loop(e, Some(*agg), g, cx, blk)? {
                Some(c) => c,
                None => self.per_item(e, cx, blk)?,
            },
            PKind::List(g) => match self.col_loop(e, None, g, cx, blk)? {
                Some(c) => c,
                None => self.per_item(e, cx, blk)?,
            },
            PKind::If(c, a, b) => {
                let cc = self.col(c, cx, blk)?;
                if let Col::Const(v) = &cc {
                    return match self.truth(c, v)? {
                        Some(true) => self.col(a, cx, blk),
                        Some(false) => self.col(b, cx, blk),
                        None => Ok(Col::Const(Value::Undef)),
                    };
                }
                // Where the condition is undefined the reference evaluator
                // takes neither branch: the element is undefined (`known`).
                // A condition of flags with holes (`r.opponent.rated`, a
                // bye's opponent) is merged here; any other with an
                // undefined element is evaluated per element.
                let (truth, known) = match self.truths(c, &cc, dom, blk)? {
                    Some(t) => (t, None),
                    None => match &cc {
                        Col::OptBools(bs, ds) => (bs.clone(), Some(ds.clone())),
                        _ => return self.per_item(e, cx, blk),
                    },
                };
                if known.is_none() && truth.iter().all(|&t| t) {
                    return self.col(a, cx, blk);
                }
                if known.is_none() && !truth.iter().any(|&t| t) {
                    return self.col(b, cx, blk);
                }
                let ca = self.col(a, cx, blk)?;
                let cb = self.col(b, cx, blk)?;
                // The branch element `j` takes; None where the condition is
                // undefined (a hole).
                let taken = |j: usize| {
                    let t = truth[j];
                    known
                        .as_ref()
                        .is_none_or(|k| k[j])
                        .then_some(if t { &ca } else { &cb })
                };
                match (ca.nums(), cb.nums()) {
                    (Some(va), Some(vb)) if known.is_none() => Col::Nums(Arc::new(
                        truth
                            .iter()
                            .enumerate()
                            .map(|(j, &t)| if t { va.at(j) } else { vb.at(j) })
                            .collect(),
                    )),
                    // Numbers with undefined holes (a rating, undefined for
                    // a bye) in either branch, or where the condition is.
                    _ if ca.opt_nums() && cb.opt_nums() => {
                        let mut ns = Vec::with_capacity(truth.len());
                        let mut ds = Vec::with_capacity(truth.len());
                        for (j, &t) in truth.iter().enumerate() {
                            let n = match &known {
                                Some(k) if !k[j] => None,
                                _ if t => ca.num(j),
                                _ => cb.num(j),
                            };
                            ns.push(n.unwrap_or(Num::ZERO));
                            ds.push(n.is_some());
                        }
                        nums_col(ns, ds)
                    }
                    _ => {
                        let mut out = Builder::new(truth.len());
                        for j in 0..truth.len() {
                            match taken(j) {
                                None => out.push(Value::Undef),
                                Some(c) => match c.num(j) {
                                    Some(n) => out.push_num(n),
                                    None => out.push(blk.at(dom, c, j)),
                                },
                            }
                        }
                        out.finish()
                    }
                }
            }
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

    fn col_binary(
        &mut self,
        e: &PExpr,
        op: BinOp,
        a: &PExpr,
        b: &PExpr,
        cx: &Cx,
        blk: &mut Block,
    ) -> R<Col> {
        let dom = cx.dom;
        let len = blk.len(dom);
        match op {
            BinOp::And | BinOp::Or => {
                // `b` counts only where `a` has not decided (as in the
                // reference evaluator, which does not evaluate it there).
                let and = op == BinOp::And;
                let ca = self.col(a, cx, blk)?;
                // Columns of definite truths only; an undefined one anywhere
                // and the reference evaluator decides per element (Kleene).
                let Some(ta) = self.truths(a, &ca, dom, blk)? else {
                    return self.per_item(e, cx, blk);
                };
                if ta.iter().all(|&t| t != and) {
                    return Ok(Col::Const(Value::Bool(!and)));
                }
                let cb = self.col(b, cx, blk)?;
                let decided = |t: bool| t != and;
                let out: Vec<bool> = match &cb {
                    Col::Bools(bs) => ta
                        .iter()
                        .zip(bs.iter())
                        .map(|(&t, &x)| if decided(t) { !and } else { x })
                        .collect(),
                    Col::Const(Value::Bool(x)) => ta
                        .iter()
                        .map(|&t| if decided(t) { !and } else { *x })
                        .collect(),
                    _ => {
                        let mut out = Vec::with_capacity(len);
                        for (j, &t) in ta.iter().enumerate() {
                            out.push(if decided(t) {
                                !and
                            } else {
                                match self.truth(b, &blk.at(dom, &cb, j))? {
                                    Some(x) => x,
                                    None => return self.per_item(e, cx, blk),
                                }
                            });
                        }
                        out
                    }
                };
                Ok(Col::Bools(Arc::new(out)))
            }
            BinOp::Coalesce => {
                let ca = match self.col(a, cx, blk) {
                    // Data the event does not record at all reads as
                    // undefined here, but only for the elements that read it
                    // (a participant who played no round never reads
                    // `r.imps`): the reference evaluator decides per element.
                    Err(er) if er.code == "tb::eval::missing_data" => {
                        return self.per_item(e, cx, blk)
                    }
                    r => r?,
                };
                if (0..len).all(|j| blk.at(dom, &ca, j) != Value::Undef) {
                    return Ok(ca);
                }
                let cb = self.col(b, cx, blk)?;
                self.map(blk, dom, |_, j| {
                    let x = blk.at(dom, &ca, j);
                    Ok(if x == Value::Undef {
                        blk.at(dom, &cb, j)
                    } else {
                        x
                    })
                })
            }
            _ => {
                let ca = self.col(a, cx, blk)?;
                let cb = self.col(b, cx, blk)?;
                if let (Col::Const(x), Col::Const(y)) = (&ca, &cb) {
                    return Ok(Col::Const(self.binary_value(
                        e,
                        op,
                        b,
                        x.clone(),
                        y.clone(),
                    )?));
                }
                if ca.is_nums() && cb.is_nums() {
                    if let Some(c) = self.nums_binary(e, op, &ca, &cb, len)? {
                        return Ok(c);
                    }
                }
                self.map(blk, dom, |ev, j| {
                    ev.binary_value(e, op, b, blk.at(dom, &ca, j), blk.at(dom, &cb, j))
                })
            }
        }
    }

    /// `sum(cut_lowest(list, n))` (Buchholz Cut-1) and the like: each
    /// participant's list cut and added up in a buffer used for all of
    /// them, as the two functions would in turn (and charged the same),
    /// without making the cut list. None when the arguments are not a list
    /// per element and a count.
    fn total_of_cut(
        &mut self,
        e: &PExpr,
        func: Func,
        inner: &PExpr,
        cx: &Cx,
        blk: &mut Block,
    ) -> R<Option<Col>> {
        let Some((cut, [list, count])) = fused_cut(std::slice::from_ref(inner)) else {
            return Ok(None);
        };
        self.charge(inner, blk.len(cx.dom).max(1) as u64)?;
        let lists = self.col(list, cx, blk)?;
        let n = match self.col(count, cx, blk)? {
            Col::Const(v) => self.count_arg(inner, &v)?,
            _ => return Ok(None),
        };
        let Col::Vals(vs) = lists else {
            return Ok(None);
        };
        if !vs.iter().all(|v| matches!(v, Value::List(_))) {
            return Ok(None);
        }
        let mut out = Builder::new(vs.len());
        let mut items = Vec::new();
        for v in vs.iter() {
            if let Value::List(l) = v {
                items.clear();
                items.extend_from_slice(l);
                self.charge(inner, l.len() as u64)?;
                self.cut(inner, cut, &mut items, n)?;
                self.charge(e, items.len() as u64)?;
                out.push(self.list_total(e, func, &items)?);
            }
        }
        Ok(Some(out.finish()))
    }

    /// A built-in field of every round of the block, typed; None for
    /// fields without a typed form. Made once per block for the whole
    /// evaluation (see [`FieldCols`]).
    fn round_field(&mut self, f: BuiltinField, blk: &Block) -> Option<Col> {
        let fields = self.fields.clone();
        let slot = fields.slot(f, blk.parts.start)?;
        if let Some(c) = slot.get() {
            return c.clone();
        }
        let c = self.read_round_field(f, blk);
        slot.get_or_init(|| c).clone()
    }

    /// Field `f` of every round of the block, read from the entries.
    fn read_round_field(&self, f: BuiltinField, blk: &Block) -> Option<Col> {
        let ev = self.event;
        let &(p0, i0) = blk.rounds.first()?;
        let first = &ev.participants[p0].entries[i0 as usize];
        let len = blk.rounds.len();
        // Which kind of field this is does not depend on the round (see
        // `entry_flag`, `entry_number`): decided on the first one.
        Some(if let Some(flag) = crate::eval::entry_flag_of(f) {
            Col::Bools(Arc::new(per_entry(ev, blk, len, flag)))
        } else if f == BuiltinField::RunningScore {
            let b0 = self.entry_base[p0];
            Col::Nums(Arc::new(self.running.get(b0..b0 + len)?.to_vec()))
        } else if crate::eval::entry_num(f, first).is_some() {
            // Defined for every entry when it is for one (the field is
            // numeric whatever the round).
            let num = |en: &Entry| crate::eval::entry_num(f, en).unwrap_or(Num::ZERO);
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
    fn part_field(&self, f: BuiltinField, c: &Col, dom: Dom, blk: &Block) -> Option<Col> {
        use BuiltinField as F;
        if let (Col::Me, Dom::Rounds) = (c, dom) {
            // The participant's own field, the same in each of its rounds.
            return Some(blk.to_rounds(&self.part_field(f, c, Dom::Parts, blk)?));
        }
        let ev = self.event;
        match f {
            F::Score | F::Rated | F::Withdrawn => {}
            F::Rating if self.has_ratings => {}
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
                    F::Rated => self.ratings[p].is_some_and(|r| r > 0),
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
                    F::Score => Some(self.scores[p]),
                    _ => self.ratings[p].map(Num::int),
                });
                ns.push(n.unwrap_or(Num::ZERO));
                defined.push(n.is_some());
            }
            nums_col(ns, defined)
        };
        Some(col)
    }

    /// The truth of each element of a condition's column, as
    /// [`Evaluator::truth`] gives it, when every one is true or false; None
    /// when one is undefined (the caller then evaluates per element, as the
    /// reference evaluator does, so that the fast path never needs
    /// three-valued columns).
    fn truths(&self, c: &PExpr, col: &Col, dom: Dom, blk: &Block) -> R<Option<Arc<Vec<bool>>>> {
        match col {
            Col::Bools(bs) => return Ok(Some(bs.clone())),
            Col::OptBools(bs, ds) => {
                return Ok(ds.iter().all(|&d| d).then(|| bs.clone()));
            }
            Col::Const(v) => return Ok(self.truth(c, v)?.map(|t| Arc::new(vec![t; blk.len(dom)]))),
            _ => {}
        }
        let mut out = Vec::with_capacity(blk.len(dom));
        for j in 0..blk.len(dom) {
            match self.truth(c, &blk.at(dom, col, j))? {
                Some(t) => out.push(t),
                None => return Ok(None),
            }
        }
        Ok(Some(Arc::new(out)))
    }

    /// A comparison or sum, difference or product of two columns of
    /// numbers, with the operators of [`Num`] as the reference evaluator
    /// applies them; None for other operators.
    fn nums_binary(&self, e: &PExpr, op: BinOp, a: &Col, b: &Col, len: usize) -> R<Option<Col>> {
        let (Some(va), Some(vb)) = (a.nums(), b.nums()) else {
            return Ok(None);
        };
        Ok(Some(match op {
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let test = |o: std::cmp::Ordering| match op {
                    BinOp::Eq => o.is_eq(),
                    BinOp::Ne => o.is_ne(),
                    BinOp::Lt => o.is_lt(),
                    BinOp::Le => o.is_le(),
                    BinOp::Gt => o.is_gt(),
                    _ => o.is_ge(),
                };
                Col::Bools(Arc::new(zip_nums(va, vb, len, |x, y| test(x.cmp(&y)))))
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                let mut failed = None;
                let out = zip_nums(va, vb, len, |x, y| {
                    let r = match op {
                        BinOp::Add => x.add(y),
                        BinOp::Sub => x.sub(y),
                        _ => x.mul(y),
                    };
                    r.unwrap_or_else(|er| {
                        failed.get_or_insert(er);
                        Num::ZERO
                    })
                });
                if let Some(er) = failed {
                    self.arith(e, Err(er))?;
                    return Ok(None);
                }
                Col::Nums(Arc::new(out))
            }
            _ => return Ok(None),
        }))
    }

    /// A metric call over the block.
    fn col_metric(
        &mut self,
        e: &PExpr,
        id: MetricId,
        target: &Option<Box<PExpr>>,
        args: &[PExpr],
        cx: &Cx,
        blk: &mut Block,
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
            if self.same.get(id).copied().unwrap_or(false) {
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
            if let Some(c) = self.col_memo.get(blk.parts.start, dom, key) {
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
            self.col_memo.put(blk.parts.start, dom, key, c.clone());
        }
        Ok(c)
    }

    /// The cached values of metric `id` (no arguments) for the participants
    /// of column `t`, undefined where `t` is; None unless `t` holds
    /// participants only and every one of them has a cached value.
    fn gather(&self, id: MetricId, t: &Col, dom: Dom, blk: &Block) -> Option<Col> {
        if let (Col::Me, Dom::Rounds) = (t, dom) {
            // The participant's own value, the same in each of its rounds.
            return Some(blk.to_rounds(&self.gather(id, t, Dom::Parts, blk)?));
        }
        let cache = &self.cache[id];
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
        if let Some(Some(v)) = self.cache[id].get(q) {
            return Ok(v.clone());
        }
        let args = self.pool.pop().unwrap_or_default();
        self.metric(id, q, args, None, e)
    }

    /// An aggregate or list over the participant's rounds, in columns; None
    /// when the loop has another form (evaluated per item instead).
    fn col_loop(
        &mut self,
        e: &PExpr,
        agg: Option<Agg>,
        g: &PGen,
        cx: &Cx,
        blk: &mut Block,
    ) -> R<Option<Col>> {
        let [(slot, coll)] = g.fors.as_slice() else {
            return Ok(None);
        };
        let own_rounds = match &coll.kind {
            PKind::Builtin(Builtin::Rounds) => true,
            PKind::Field(base, f) => {
                matches!(base.kind, PKind::Builtin(Builtin::Me))
                    && f.builtin == Some(BuiltinField::Rounds)
            }
            _ => false,
        };
        if cx.dom != Dom::Parts || !own_rounds {
            return Ok(None);
        }
        let mut locals: Vec<Slot> = self
            .forced_locals(cx, blk)?
            .into_iter()
            .map(|c| c.map_or(Slot::Empty, |c| Slot::Col(blk.to_rounds(&c))))
            .collect();
        if locals.len() <= *slot {
            locals.resize_with(*slot + 1, || Slot::Empty);
        }
        locals[*slot] = Slot::Col(Col::Round);
        let sub = Cx {
            dom: Dom::Rounds,
            locals,
            inline: cx.inline,
        };
        let dr = Dom::Rounds;
        let keep = match &g.cond {
            Some(c) => {
                let cc = self.col(c, &sub, blk)?;
                match self.truths(c, &cc, dr, blk)? {
                    Some(t) => Some(t),
                    // A filter undefined somewhere: per item instead.
                    None => return Ok(None),
                }
            }
            None => None,
        };
        let elem = self.col(&g.elem, &sub, blk)?;
        let by = match &g.by {
            Some(k) if agg.is_none() => Some(self.col(k, &sub, blk)?),
            _ => None,
        };
        let voluntary = match &g.voluntary {
            Some(v) if agg.is_none() => {
                let cv = self.col(v, &sub, blk)?;
                match self.truths(v, &cv, dr, blk)? {
                    Some(t) => Some(t),
                    None => return Ok(None),
                }
            }
            _ => None,
        };
        // Typed columns read directly (most loops are over numbers).
        let nums = |c: &Col| match c {
            Col::Nums(v) => Some(v.clone()),
            _ => None,
        };
        let (elem_nums, by_nums) = (nums(&elem), by.as_ref().and_then(nums));
        let col = self.map(blk, Dom::Parts, |ev, j| {
            let rounds = blk.starts[j]..blk.starts[j + 1];
            match agg {
                // A number from every round: added up directly.
                Some(agg @ (Agg::Sum | Agg::Mean | Agg::Min | Agg::Max)) if elem_nums.is_some() => {
                    let ns: &[Num] = elem_nums.as_deref().map_or(&[], |v| v);
                    let mut acc = Acc::new(agg);
                    for k in rounds {
                        if keep.as_ref().is_none_or(|t| t[k]) {
                            acc.push_num(ev, e, ns[k])?;
                        }
                    }
                    acc.finish(ev, e)
                }
                Some(agg) => {
                    let mut acc = Acc::new(agg);
                    for k in rounds {
                        if keep.as_ref().is_some_and(|t| !t[k]) {
                            continue;
                        }
                        let v = match &elem_nums {
                            Some(ns) => Value::Num(ns[k]),
                            None => blk.at(dr, &elem, k),
                        };
                        if acc.push(ev, e, g, v)? {
                            break;
                        }
                    }
                    acc.finish(ev, e)
                }
                None => {
                    let mut items: Vec<ListItem> = Vec::with_capacity(rounds.len());
                    // `list_push` cannot fail with fewer rounds than a
                    // list's limit: items are pushed directly, keyed as it
                    // keys them (a number key, else the value itself).
                    let direct = rounds.len() < crate::eval::MAX_LIST_ITEMS;
                    for k in rounds {
                        if keep.as_ref().is_some_and(|t| !t[k]) {
                            continue;
                        }
                        let value = match &elem_nums {
                            Some(ns) => ns[k],
                            None => match ev.list_value(g, blk.at(dr, &elem, k))? {
                                Some(n) => n,
                                // An undefined item: the list is undefined.
                                None => return Ok(Value::Undef),
                            },
                        };
                        let vol = voluntary.as_ref().is_some_and(|t| t[k]);
                        let typed_key = match (&by_nums, &by) {
                            (Some(ns), _) => Some(ns[k]),
                            (None, None) => Some(value),
                            (None, Some(_)) => None,
                        };
                        if let (true, Some(key)) = (direct, typed_key) {
                            items.push(ListItem {
                                value,
                                key,
                                voluntary: vol,
                            });
                            continue;
                        }
                        let key = match &by {
                            Some(b) => blk.at(dr, b, k),
                            None => Value::Undef,
                        };
                        ev.list_push(e, &mut items, value, key, vol)?;
                    }
                    Ok(Value::List(Arc::new(items)))
                }
            }
        })?;
        Ok(Some(col))
    }

    /// Local slot `i`'s column (an argument not used before is computed now).
    fn local(&mut self, cx: &Cx, i: usize, blk: &mut Block) -> R<Col> {
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
    fn forced_locals(&mut self, cx: &Cx, blk: &mut Block) -> R<Vec<Option<Col>>> {
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
    fn per_item(&mut self, e: &PExpr, cx: &Cx, blk: &mut Block) -> R<Col> {
        let dom = cx.dom;
        let locals = self.forced_locals(cx, blk)?;
        let mut env = Env {
            me: None,
            locals: Vec::with_capacity(locals.len()),
            group: None,
        };
        let blk = &*blk;
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
