//! Columns: one value per participant of a block or per round of theirs, kept typed (numbers, booleans, participants) where they can be, and the blocks they are computed over.

use crate::eval::Value;
use crate::model::Pid;
use crate::num::Num;
use std::ops::Range;
use std::sync::Arc;

/// An undefined participant in a [`Col::Pids`] (a bye's opponent).
pub(super) const NO_PID: Pid = Pid::MAX;

/// A column: one value per element of the block's domain. Columns of
/// numbers only or of booleans only are kept typed, so operators on them
/// skip the general value's matching, copying and dropping.
#[derive(Clone, Debug)]
pub(super) enum Col {
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
    /// About how much memory the column's elements take.
    pub(super) fn bytes(&self) -> usize {
        fn size<T>(v: &[T]) -> usize {
            std::mem::size_of_val(v)
        }
        match self {
            Col::Vals(vs) => size(vs),
            Col::Nums(ns) => size(ns),
            Col::OptNums(ns, ds) => size(ns) + size(ds),
            Col::Bools(bs) => size(bs),
            Col::OptBools(bs, ds) => size(bs) + size(ds),
            Col::Pids(ps) => size(ps),
            Col::Const(_) | Col::Round | Col::Me => 0,
        }
    }
    /// Element `j` as a number, when the column holds numbers only.
    #[inline]
    pub(super) fn num(&self, j: usize) -> Option<Num> {
        match self {
            Col::Nums(v) => Some(v[j]),
            Col::OptNums(v, d) if d[j] => Some(v[j]),
            Col::Const(Value::Num(n)) => Some(*n),
            _ => None,
        }
    }
    /// Numbers or undefined only, each read by [`Col::num`] (None: undefined).
    pub(super) fn opt_nums(&self) -> bool {
        matches!(
            self,
            Col::Nums(_) | Col::OptNums(..) | Col::Const(Value::Num(_) | Value::Undef)
        )
    }
    /// The column as numbers or undefined, when [`Col::opt_nums`].
    pub(super) fn opt_num_view(&self) -> Option<OptNumView<'_>> {
        match self {
            Col::Nums(v) => Some(OptNumView::Each(v, None)),
            Col::OptNums(v, d) => Some(OptNumView::Each(v, Some(d))),
            Col::Const(Value::Num(n)) => Some(OptNumView::All(Some(*n))),
            Col::Const(Value::Undef) => Some(OptNumView::All(None)),
            _ => None,
        }
    }
    pub(super) fn is_nums(&self) -> bool {
        matches!(self, Col::Nums(_) | Col::Const(Value::Num(_)))
    }
    /// The column as numbers, when it holds numbers only.
    pub(super) fn nums(&self) -> Option<NumView<'_>> {
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
pub(super) enum NumView<'a> {
    Each(&'a [Num]),
    All(Num),
}

/// A column of numbers or undefined read without matching each element
/// (as [`Col::num`] reads it): numbers with the flags of which are
/// defined (none: all), or one number or undefined for all.
#[derive(Clone, Copy)]
pub(super) enum OptNumView<'a> {
    Each(&'a [Num], Option<&'a [bool]>),
    All(Option<Num>),
}

impl OptNumView<'_> {
    #[inline]
    pub(super) fn at(self, j: usize) -> Option<Num> {
        match self {
            OptNumView::Each(ns, None) => Some(ns[j]),
            OptNumView::Each(ns, Some(ds)) => ds[j].then(|| ns[j]),
            OptNumView::All(n) => n,
        }
    }
}

/// `f` over the elements of two columns of numbers, pairwise.
pub(super) fn zip_nums<T>(
    a: NumView,
    b: NumView,
    len: usize,
    mut f: impl FnMut(Num, Num) -> T,
) -> Vec<T> {
    use NumView::*;
    match (a, b) {
        (Each(x), Each(y)) => x.iter().zip(y).map(|(&x, &y)| f(x, y)).collect(),
        (Each(x), All(y)) => x.iter().map(|&x| f(x, y)).collect(),
        (All(x), Each(y)) => y.iter().map(|&y| f(x, y)).collect(),
        (All(x), All(y)) => (0..len).map(|_| f(x, y)).collect(),
    }
}

/// `a` where `truth` is true, else `b` (an `if` of two columns of numbers),
/// in one plain loop per kind of operands.
pub(super) fn pick_nums(truth: &[bool], a: NumView, b: NumView) -> Vec<Num> {
    use NumView::*;
    let pick = |t: bool, x: Num, y: Num| if t { x } else { y };
    match (a, b) {
        (Each(x), Each(y)) => (truth.iter().zip(x).zip(y))
            .map(|((&t, &x), &y)| pick(t, x, y))
            .collect(),
        (Each(x), All(y)) => truth.iter().zip(x).map(|(&t, &x)| pick(t, x, y)).collect(),
        (All(x), Each(y)) => truth.iter().zip(y).map(|(&t, &y)| pick(t, x, y)).collect(),
        (All(x), All(y)) => truth.iter().map(|&t| pick(t, x, y)).collect(),
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
pub(super) fn nums_col(ns: Vec<Num>, defined: Vec<bool>) -> Col {
    match defined.iter().all(|&d| d) {
        true => Col::Nums(Arc::new(ns)),
        false => Col::OptNums(Arc::new(ns), Arc::new(defined)),
    }
}

/// Booleans, undefined where `defined` is false (as [`nums_col`]).
pub(super) fn bools_col(bs: Vec<bool>, defined: Vec<bool>) -> Col {
    match defined.iter().all(|&d| d) {
        true => Col::Bools(Arc::new(bs)),
        false => Col::OptBools(Arc::new(bs), Arc::new(defined)),
    }
}

/// Builds a column value by value, typed while every value has one type.
pub(super) enum Builder {
    Nums(Vec<Num>),
    OptNums(Vec<Num>, Vec<bool>),
    Bools(Vec<bool>),
    OptBools(Vec<bool>, Vec<bool>),
    Vals(Vec<Value>),
}

impl Builder {
    pub(super) fn new(len: usize) -> Builder {
        Builder::Nums(Vec::with_capacity(len))
    }
    #[inline]
    pub(super) fn push_num(&mut self, n: Num) {
        match self {
            Builder::Nums(ns) => ns.push(n),
            _ => self.push(Value::Num(n)),
        }
    }
    #[inline]
    pub(super) fn push(&mut self, v: Value) {
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
    pub(super) fn push_other(&mut self, v: Value) {
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
    pub(super) fn finish(self) -> Col {
        match self {
            Builder::Nums(ns) => Col::Nums(Arc::new(ns)),
            Builder::OptNums(ns, ds) => Col::OptNums(Arc::new(ns), Arc::new(ds)),
            Builder::Bools(bs) => Col::Bools(Arc::new(bs)),
            Builder::OptBools(bs, ds) => Col::OptBools(Arc::new(bs), Arc::new(ds)),
            Builder::Vals(vs) => Col::Vals(Arc::new(vs)),
        }
    }
}

/// What a column has one value for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Dom {
    /// The block's participants.
    Parts,
    /// The rounds of the block's participants, participant by participant.
    Rounds,
}

/// The participants evaluated together.
pub(super) struct Block {
    /// First participant and one past the last.
    pub(super) parts: Range<Pid>,
    /// Every round of those participants: (participant, index of the entry).
    pub(super) rounds: Vec<(Pid, u32)>,
    /// Where each participant's rounds start in `rounds` (and the end).
    pub(super) starts: Vec<usize>,
}

impl Block {
    pub(super) fn len(&self, dom: Dom) -> usize {
        match dom {
            Dom::Parts => self.parts.len(),
            Dom::Rounds => self.rounds.len(),
        }
    }
    /// The participant of element `j`.
    pub(super) fn owner(&self, dom: Dom, j: usize) -> Pid {
        match dom {
            Dom::Parts => self.parts.start + j,
            Dom::Rounds => self.rounds[j].0,
        }
    }
    /// Column `c` (over the participants) as one value per participant.
    pub(super) fn values(&self, c: &Col) -> Vec<Value> {
        match c {
            // The usual results, without matching each element.
            Col::Nums(ns) => ns.iter().map(|&n| Value::Num(n)).collect(),
            Col::Vals(vs) => vs.to_vec(),
            _ => (0..self.parts.len())
                .map(|j| self.at(Dom::Parts, c, j))
                .collect(),
        }
    }

    /// Element `j` of a column, as a value.
    pub(super) fn at(&self, dom: Dom, c: &Col, j: usize) -> Value {
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
    pub(super) fn pid(&self, dom: Dom, c: &Col, j: usize) -> Option<Option<Pid>> {
        match c {
            Col::Pids(ps) => Some((ps[j] != NO_PID).then_some(ps[j])),
            Col::Me => Some(Some(self.owner(dom, j))),
            Col::Const(Value::Part(p)) => Some(Some(*p)),
            _ => None,
        }
    }
    /// A participants' column carried over to their rounds (each round
    /// takes its participant's value).
    pub(super) fn to_rounds(&self, c: &Col) -> Col {
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
    pub(super) fn spread<T: Clone>(&self, per_part: &[T]) -> Arc<Vec<T>> {
        Arc::new(
            self.rounds
                .iter()
                .map(|&(p, _)| per_part[p - self.parts.start].clone())
                .collect(),
        )
    }
}
