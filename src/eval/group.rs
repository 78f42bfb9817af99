//! Group-relative aggregates in n log n: the forms a ruleset uses to compare a participant with the others of its tied group, answered from the group's values sorted once.
//!
//! `count(q in others where q.x > x)`, `all(q.x == x for q in others)`,
//! `all(x > q.y for q in others where q.x <= x)`, `all(q.c for q in group
//! where q.x >= x)`, `count(q in group where q.c)`: asked for every member
//! of a tied group, each loops over the group, so a group of n costs n²
//! (FIDE Direct Encounter, Art. 6, as the first tie-break: every score
//! group of a large Swiss; issue #35). Here the values `q.x` of the whole
//! group are computed once, sorted by the condition's value, with prefix
//! counts and range minima and maxima of the element's; each member's
//! aggregate is then a binary search and a few look-ups.
//!
//! The reference is the loop of `Evaluator::aggregate` (`eval::loops`):
//! the same items, conditions and three-valued logic (`count`, `all` and
//! `any` do not depend on the items' order). Whatever the fast path is not
//! sure to compute as the loop does — a value neither a number nor a truth
//! where one is compared, an error while computing the group's values, a
//! form it does not know — makes it step aside and the loop runs, so
//! errors are the loop's. The per-participant evaluator
//! (`rank::Options::per_participant`) never takes it;
//! `tests/group_forms.rs` compares the two on generated events.

use crate::eval::{Env, Evaluator, Value};
use crate::model::Pid;
use crate::num::Num;
use crate::plan::*;
use std::sync::Arc;

/// The smallest tied group whose aggregates take the fast path by default:
/// below it the loop is as fast as sorting.
pub const GROUP_FORMS_FROM: usize = 16;

/// `q.m(args)`: a metric of the loop's participant, its arguments not
/// reading it.
#[derive(Clone, Copy)]
struct QTerm<'e> {
    at: &'e PExpr,
    id: MetricId,
    args: &'e [PExpr],
}

/// A truth about the loop's participant `q`.
#[derive(Clone, Copy)]
enum Test<'e> {
    /// `q.a OP x`, `x` not reading `q` (written either way round: the
    /// operator is turned to put `q.a` first).
    Cmp(QTerm<'e>, BinOp, &'e PExpr),
    /// `q.c`: true or false.
    Truth(QTerm<'e>),
}

/// What each item of the aggregate is.
#[derive(Clone, Copy)]
enum Elem<'e> {
    /// `count(q in S where ...)`: the participant itself (always counted).
    Member,
    /// A truth.
    Test(Test<'e>),
}

/// A recognised aggregate: `agg(elem for q in S where cond)`, S being
/// `others` or `group`.
struct Form<'e> {
    agg: Agg,
    others: bool,
    cond: Option<Test<'e>>,
    elem: Elem<'e>,
}

/// The aggregate `agg` over generator `g` as a form of this module, if it is one.
fn form(agg: Agg, g: &PGen) -> Option<Form<'_>> {
    if !matches!(agg, Agg::Count | Agg::All | Agg::Any)
        || g.fors.len() != 1
        || g.by.is_some()
        || g.voluntary.is_some()
    {
        return None;
    }
    let (slot, coll) = &g.fors[0];
    let others = match coll.kind {
        PKind::Builtin(Builtin::Others) => true,
        PKind::Builtin(Builtin::Group) => false,
        _ => return None,
    };
    let cond = match &g.cond {
        None => None,
        Some(c) => Some(test(c, *slot)?),
    };
    let elem = match &g.elem.kind {
        PKind::Local(s) if s == slot && agg == Agg::Count => Elem::Member,
        _ => Elem::Test(test(&g.elem, *slot)?),
    };
    // What the index does not answer: how many items of a range pass a
    // comparison, whether any equals a value. (A participant as an item of
    // `all`/`any` is a type error: the loop reports it.)
    match (elem, agg) {
        (Elem::Test(Test::Cmp(..)), Agg::Count)
        | (Elem::Test(Test::Cmp(_, BinOp::Eq, _)), Agg::Any)
        | (Elem::Member, Agg::All | Agg::Any) => None,
        _ => Some(Form {
            agg,
            others,
            cond,
            elem,
        }),
    }
}

/// `e` as a truth about the loop's participant (in local `slot`).
fn test(e: &PExpr, slot: usize) -> Option<Test<'_>> {
    if let PKind::Binary(op, a, b) = &e.kind {
        let turned = match op {
            BinOp::Lt => BinOp::Gt,
            BinOp::Le => BinOp::Ge,
            BinOp::Gt => BinOp::Lt,
            BinOp::Ge => BinOp::Le,
            BinOp::Eq => BinOp::Eq,
            _ => return None,
        };
        if let Some(q) = qterm(a, slot).filter(|_| free(b, slot)) {
            return Some(Test::Cmp(q, *op, b));
        }
        return qterm(b, slot)
            .filter(|_| free(a, slot))
            .map(|q| Test::Cmp(q, turned, a));
    }
    qterm(e, slot).map(Test::Truth)
}

fn qterm(e: &PExpr, slot: usize) -> Option<QTerm<'_>> {
    match &e.kind {
        PKind::Metric(id, Some(t), args)
            if matches!(t.kind, PKind::Local(s) if s == slot)
                && args.iter().all(|a| free(a, slot)) =>
        {
            Some(QTerm {
                at: e,
                id: *id,
                args,
            })
        }
        _ => None,
    }
}

/// Whether `e` never reads local `slot` (the loop's participant): its
/// value is the same for every item, so it is computed once.
fn free(e: &PExpr, slot: usize) -> bool {
    match &e.kind {
        PKind::Local(s) => *s != slot,
        PKind::Num(_)
        | PKind::Bool(_)
        | PKind::Str(_)
        | PKind::Infinity
        | PKind::Param(_)
        | PKind::Builtin(_) => true,
        PKind::Metric(_, t, args) => {
            t.as_deref().is_none_or(|t| free(t, slot)) && args.iter().all(|a| free(a, slot))
        }
        PKind::Field(x, _) | PKind::Table(_, x) | PKind::Unary(_, x) => free(x, slot),
        PKind::Call(_, args) => args.iter().all(|a| free(a, slot)),
        PKind::Agg(_, g) | PKind::List(g) => {
            g.fors.iter().all(|(_, c)| free(c, slot))
                && free(&g.elem, slot)
                && [&g.cond, &g.by, &g.voluntary]
                    .iter()
                    .all(|x| x.as_deref().is_none_or(|x| free(x, slot)))
        }
        PKind::If(c, a, b) => free(c, slot) && free(a, slot) && free(b, slot),
        PKind::Binary(_, a, b) => free(a, slot) && free(b, slot),
    }
}

/// Which of the group's values a side of an index is: a metric and its
/// arguments, compared (false) or a truth (true).
type Side = (bool, MetricId, Vec<Value>);

/// The group's values of one metric and arguments (None: being computed,
/// or not computable here).
type Col = ((MetricId, Vec<Value>), Option<Arc<Vec<Value>>>);

/// An index by its condition and element (None: not possible).
type Indexed = ((Option<Side>, Option<Side>), Option<Arc<Index>>);

/// The group's values and indexes of the tied group asked last (held by
/// pointer, as [`crate::eval::cache::GroupCache`]).
#[derive(Default)]
pub(super) struct FormCache {
    group: Option<Arc<Vec<Pid>>>,
    /// Each member's position in the group (valid where the group has that
    /// member there: positions of earlier groups are left behind).
    pos: Vec<u32>,
    /// `q.m(args)` for every member, in the group's order; None: being
    /// computed, or not computable here (the loop answers).
    cols: Vec<Col>,
    /// Indexes by condition and element; None: not possible (the loop answers).
    indexes: Vec<Indexed>,
}

/// One group's values of a condition and an element, ordered for look-ups.
struct Index {
    /// Group positions whose condition value is defined, in the order of
    /// that value (no condition: every position, in the group's order).
    order: Vec<u32>,
    /// The condition's values along `order`, ascending (a truth: 0 for
    /// true, 1 for false).
    keys: Vec<Num>,
    /// Where each group position is in `order` (`u32::MAX`: its condition
    /// is undefined).
    rank: Vec<u32>,
    /// Positions whose condition is undefined.
    cond_undef: u32,
    /// Prefix counts along `order` of elements undefined, true, false.
    undef: Vec<u32>,
    yes: Vec<u32>,
    no: Vec<u32>,
    /// A compared element's numbers along `order` (None: undefined), in
    /// trees of ranges' least and greatest (see [`tree`]).
    min: Vec<Option<Num>>,
    max: Vec<Option<Num>>,
}

/// The least (or greatest, `max`) defined number of two.
fn pick(a: Option<Num>, b: Option<Num>, max: bool) -> Option<Num> {
    match (a, b) {
        (Some(x), Some(y)) => Some(if max { x.max(y) } else { x.min(y) }),
        (x, None) => x,
        (None, y) => y,
    }
}

/// A tree of ranges' extremes of `base` (a segment tree: node `i` holds
/// the extreme of its children `2i` and `2i + 1`, the leaves from `n`).
fn tree(base: Vec<Option<Num>>, max: bool) -> Vec<Option<Num>> {
    let n = base.len();
    let mut t = vec![None; n];
    t.extend(base);
    for i in (1..n).rev() {
        t[i] = pick(t[2 * i], t[2 * i + 1], max);
    }
    t
}

/// The extreme of the leaves `lo .. hi` of tree `t`.
fn range(t: &[Option<Num>], lo: usize, hi: usize, max: bool) -> Option<Num> {
    let n = t.len() / 2;
    let (mut l, mut r) = (lo + n, hi.min(n) + n);
    let mut acc = None;
    while l < r {
        if l & 1 == 1 {
            acc = pick(acc, t[l], max);
            l += 1;
        }
        if r & 1 == 1 {
            r -= 1;
            acc = pick(acc, t[r], max);
        }
        l >>= 1;
        r >>= 1;
    }
    acc
}

/// A value as an index key: a number (compared) or 0/1 for true/false
/// (a truth); `Some(None)` where undefined; None for any other value.
fn key(v: &Value, truth: bool) -> Option<Option<Num>> {
    match (v, truth) {
        (Value::Undef, _) => Some(None),
        (Value::Num(n), false) => Some(Some(*n)),
        (Value::Bool(b), true) => Some(Some(Num::int(i64::from(!*b)))),
        _ => None,
    }
}

impl Index {
    /// The index of condition values `cond` and element values `elem`
    /// (each a truth or compared: the bool); None where a value is of
    /// another kind.
    fn build(
        n: usize,
        cond: Option<(&[Value], bool)>,
        elem: Option<(&[Value], bool)>,
    ) -> Option<Index> {
        let mut keyed = Vec::with_capacity(n);
        let mut cond_undef = 0u32;
        for i in 0..n {
            match cond {
                None => keyed.push((Num::ZERO, i as u32)),
                Some((vals, truth)) => match key(vals.get(i)?, truth)? {
                    Some(k) => keyed.push((k, i as u32)),
                    None => cond_undef += 1,
                },
            }
        }
        keyed.sort_unstable();
        let mut rank = vec![u32::MAX; n];
        for (r, &(_, i)) in keyed.iter().enumerate() {
            rank[i as usize] = r as u32;
        }
        let (keys, order): (Vec<Num>, Vec<u32>) = keyed.into_iter().unzip();
        let len = order.len();
        let (mut undef, mut yes, mut no) =
            (vec![0u32; len + 1], vec![0; len + 1], vec![0; len + 1]);
        let mut nums = Vec::new();
        for (r, &i) in order.iter().enumerate() {
            let (mut u, mut y, mut f) = (0, 0, 0);
            if let Some((vals, truth)) = elem {
                let k = key(vals.get(i as usize)?, truth)?;
                match (k, truth) {
                    (None, _) => u = 1,
                    (Some(k), true) if k == Num::ZERO => y = 1,
                    (Some(_), true) => f = 1,
                    (Some(_), false) => {}
                }
                if !truth {
                    nums.push(k);
                }
            }
            undef[r + 1] = undef[r] + u;
            yes[r + 1] = yes[r] + y;
            no[r + 1] = no[r] + f;
        }
        let compared = !nums.is_empty();
        Some(Index {
            order,
            keys,
            rank,
            cond_undef,
            undef,
            yes,
            no,
            min: if compared {
                tree(nums.clone(), false)
            } else {
                Vec::new()
            },
            max: if compared {
                tree(nums, true)
            } else {
                Vec::new()
            },
        })
    }

    /// `order`'s range `lo .. hi` of keys `k OP x`.
    fn span(&self, op: BinOp, x: Num) -> (usize, usize) {
        let below = self.keys.partition_point(|k| *k < x);
        let upto = self.keys.partition_point(|k| *k <= x);
        let len = self.keys.len();
        match op {
            BinOp::Lt => (0, below),
            BinOp::Le => (0, upto),
            BinOp::Gt => (upto, len),
            BinOp::Ge => (below, len),
            _ => (below, upto),
        }
    }

    /// `counts[lo .. hi]`, leaving out position `skip` of `order`.
    fn count(counts: &[u32], lo: usize, hi: usize, skip: Option<usize>) -> u32 {
        let all = counts[hi] - counts[lo];
        match skip {
            Some(r) => all - (counts[r + 1] - counts[r]),
            None => all,
        }
    }

    /// The extreme of the element's numbers over `lo .. hi` but `skip`.
    fn extreme(&self, lo: usize, hi: usize, skip: Option<usize>, max: bool) -> Option<Num> {
        let t = if max { &self.max } else { &self.min };
        match skip {
            Some(r) => pick(range(t, lo, r, max), range(t, r + 1, hi, max), max),
            None => range(t, lo, hi, max),
        }
    }
}

/// What the items in a range are: how many, undefined, true; whether any is
/// true, any false.
#[derive(Default)]
struct Items {
    undef: u32,
    yes: u32,
    any_yes: bool,
    any_no: bool,
}

impl<'a> Evaluator<'a> {
    /// The aggregate `agg` over `g` by this module's fast path, if it is one
    /// of its forms and the tied group is large enough; None: the loop
    /// computes it (see the module's documentation).
    pub(super) fn group_aggregate(&mut self, agg: Agg, g: &PGen, env: &mut Env) -> Option<Value> {
        let group = env.group.clone()?;
        if group.len() < self.group_forms_from {
            return None;
        }
        let f = form(agg, g)?;
        let cond = match f.cond {
            Some(t) => Some(self.side(&group, t, env)?),
            None => None,
        };
        let elem = match f.elem {
            Elem::Test(t) => Some(self.side(&group, t, env)?),
            Elem::Member => None,
        };
        let index = self.index(&group, cond, elem)?;
        let x = match limit(f.cond) {
            Some((_, x)) => Some(self.number(x, env)?),
            None => None,
        };
        let y = match limit(match f.elem {
            Elem::Test(t) => Some(t),
            Elem::Member => None,
        }) {
            Some((_, y)) => Some(self.number(y, env)?),
            None => None,
        };
        let at = &*g.elem;
        let steps = usize::BITS - group.len().leading_zeros();
        self.charge(at, u64::from(steps)).ok()?;
        let me = if f.others { env.me } else { None };
        let n = self.event.participants.len();
        let cache = self.caches.forms.of(&group, n);
        let skip = me.and_then(|p| cache.position(&group, p));
        Some(answer(&f, &index, group.len(), skip, x, y))
    }

    /// A value that does not read the loop's participant, computed once:
    /// a number or undefined (None for another kind, or an error: the loop
    /// computes the aggregate).
    fn number(&mut self, e: &PExpr, env: &mut Env) -> Option<Option<Num>> {
        match self.eval(e, env).ok()? {
            Value::Num(n) => Some(Some(n)),
            Value::Undef => Some(None),
            _ => None,
        }
    }

    /// The group's values of `t`'s metric, with its arguments computed here.
    fn side(
        &mut self,
        group: &Arc<Vec<Pid>>,
        t: Test,
        env: &mut Env,
    ) -> Option<(Side, Arc<Vec<Value>>)> {
        let (q, truth) = match t {
            Test::Cmp(q, _, _) => (q, false),
            Test::Truth(q) => (q, true),
        };
        let mut args = Vec::with_capacity(q.args.len());
        for a in q.args {
            args.push(self.eval(a, env).ok()?);
        }
        let col = self.column(group, q, &args)?;
        Some(((truth, q.id, args), col))
    }

    /// `q.m(args)` for every member `q` of the group, in its order: computed
    /// as the loop computes each (`Evaluator::metric`, with the group where
    /// the metric is group-relative), once per group.
    fn column(
        &mut self,
        group: &Arc<Vec<Pid>>,
        q: QTerm,
        args: &[Value],
    ) -> Option<Arc<Vec<Value>>> {
        let n = self.event.participants.len();
        let key = (q.id, args.to_vec());
        let cache = self.caches.forms.of(group, n);
        if let Some((_, hit)) = cache.cols.iter().find(|(k, _)| *k == key) {
            return hit.clone();
        }
        // In progress: a use of the same values while they are computed
        // (none in a checked ruleset, whose metrics do not recurse) loops.
        cache.cols.push((key.clone(), None));
        self.charge(q.at, group.len() as u64).ok()?;
        let within = self.rs.metrics[q.id].group_relative.then(|| group.clone());
        let mut vals = Vec::with_capacity(group.len());
        for &p in group.iter() {
            let mut a = self.caches.pool.pop().unwrap_or_default();
            a.extend_from_slice(args);
            vals.push(self.metric(q.id, p, a, within.clone(), q.at).ok()?);
        }
        let vals = Arc::new(vals);
        let cache = self.caches.forms.of(group, n);
        if let Some((_, slot)) = cache.cols.iter_mut().find(|(k, _)| *k == key) {
            *slot = Some(vals.clone());
        }
        Some(vals)
    }

    /// The index of a condition's and an element's values over the group,
    /// made once per group.
    fn index(
        &mut self,
        group: &Arc<Vec<Pid>>,
        cond: Option<(Side, Arc<Vec<Value>>)>,
        elem: Option<(Side, Arc<Vec<Value>>)>,
    ) -> Option<Arc<Index>> {
        let n = self.event.participants.len();
        let (ck, cv) = cond.map_or((None, None), |(k, v)| (Some(k), Some(v)));
        let (ek, evs) = elem.map_or((None, None), |(k, v)| (Some(k), Some(v)));
        let key = (ck, ek);
        let cache = self.caches.forms.of(group, n);
        if let Some((_, hit)) = cache.indexes.iter().find(|(k, _)| *k == key) {
            return hit.clone();
        }
        let built =
            Index::build(group.len(), values(&key.0, &cv), values(&key.1, &evs)).map(Arc::new);
        let cache = self.caches.forms.of(group, n);
        cache.indexes.push((key, built.clone()));
        built
    }
}

impl FormCache {
    /// The cache for `group` (emptied if it held another), in an event of
    /// `n` participants.
    fn of(&mut self, group: &Arc<Vec<Pid>>, n: usize) -> &mut FormCache {
        if !self.group.as_ref().is_some_and(|h| Arc::ptr_eq(h, group)) {
            self.cols.clear();
            self.indexes.clear();
            self.group = Some(group.clone());
            self.pos.resize(n, u32::MAX);
            for (i, &p) in group.iter().enumerate() {
                if let Some(x) = self.pos.get_mut(p) {
                    *x = i as u32;
                }
            }
        }
        self
    }

    /// Where `p` is in `group` (made current by [`FormCache::of`]).
    fn position(&self, group: &Arc<Vec<Pid>>, p: Pid) -> Option<usize> {
        let i = *self.pos.get(p)? as usize;
        (group.get(i) == Some(&p)).then_some(i)
    }
}

/// The value a comparison tests against (`x` of `q.a OP x`), if `t` is one.
fn limit<'e>(t: Option<Test<'e>>) -> Option<(BinOp, &'e PExpr)> {
    match t {
        Some(Test::Cmp(_, op, x)) => Some((op, x)),
        _ => None,
    }
}

/// A side of an index as [`Index::build`] takes it.
fn values<'v>(k: &Option<Side>, v: &'v Option<Arc<Vec<Value>>>) -> Option<(&'v [Value], bool)> {
    match (k, v) {
        (Some((truth, ..)), Some(v)) => Some((v.as_slice(), *truth)),
        _ => None,
    }
}

/// The aggregate of form `f` for the member at group position `skip` (left
/// out: `others`), the condition's limit `x` and the element's `y` (each
/// None where there is none, `Some(None)` where undefined): as the loop
/// would fold the items, in any order.
fn answer(
    f: &Form,
    ix: &Index,
    n: usize,
    skip: Option<usize>,
    x: Option<Option<Num>>,
    y: Option<Option<Num>>,
) -> Value {
    let own = |r: u32| (r != u32::MAX).then_some(r as usize);
    let skip_rank = skip.and_then(|i| ix.rank.get(i).copied());
    let own_undef = u32::from(skip_rank == Some(u32::MAX));
    let in_set = n - usize::from(skip.is_some());
    // Items whose condition is true: `order[lo .. hi]`; `unknown`, some
    // item's condition is undefined.
    let (lo, hi, unknown) = match (f.cond, x) {
        (None, _) => (0, ix.order.len(), false),
        (Some(Test::Truth(_)), _) => {
            let (lo, hi) = ix.span(BinOp::Eq, Num::ZERO);
            (lo, hi, ix.cond_undef - own_undef > 0)
        }
        (Some(Test::Cmp(_, op, _)), Some(Some(x))) => {
            let (lo, hi) = ix.span(op, x);
            (lo, hi, ix.cond_undef - own_undef > 0)
        }
        // An undefined limit: every item's condition is undefined.
        (Some(Test::Cmp(..)), _) => (0, 0, in_set > 0),
    };
    let skip_in = skip_rank.and_then(own).filter(|r| (lo..hi).contains(r));
    let len = (hi - lo) as u32 - u32::from(skip_in.is_some());
    let mut items = Items::default();
    match f.elem {
        Elem::Member => items.yes = len,
        Elem::Test(Test::Truth(_)) => {
            items.undef = Index::count(&ix.undef, lo, hi, skip_in);
            items.yes = Index::count(&ix.yes, lo, hi, skip_in);
            items.any_yes = items.yes > 0;
            items.any_no = Index::count(&ix.no, lo, hi, skip_in) > 0;
        }
        Elem::Test(Test::Cmp(_, op, _)) => match y {
            Some(Some(y)) => {
                items.undef = Index::count(&ix.undef, lo, hi, skip_in);
                let least = ix.extreme(lo, hi, skip_in, false);
                let most = ix.extreme(lo, hi, skip_in, true);
                // Some item passes (`any_yes`), some fails (`any_no`).
                let (yes, no) = match op {
                    BinOp::Lt => (least.map(|m| m < y), most.map(|m| m >= y)),
                    BinOp::Le => (least.map(|m| m <= y), most.map(|m| m > y)),
                    BinOp::Gt => (most.map(|m| m > y), least.map(|m| m <= y)),
                    BinOp::Ge => (most.map(|m| m >= y), least.map(|m| m < y)),
                    // `==`: only whether some item differs (see `form`).
                    _ => (
                        None,
                        Some(least.is_some_and(|m| m < y) || most.is_some_and(|m| m > y)),
                    ),
                };
                items.any_yes = yes == Some(true);
                items.any_no = no == Some(true);
            }
            _ => items.undef = len,
        },
    }
    let undefined = unknown || items.undef > 0;
    match f.agg {
        Agg::All if items.any_no => Value::Bool(false),
        Agg::Any if items.any_yes => Value::Bool(true),
        _ if undefined => Value::Undef,
        Agg::Count => Value::Num(Num::int(i64::from(items.yes))),
        agg => Value::Bool(agg == Agg::All),
    }
}
