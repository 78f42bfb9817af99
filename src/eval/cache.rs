//! The evaluator's caches: values computed once and reused (per metric and participant, per round, per tied group), and the facts about a ruleset that decide what may be cached.
//!
//! A cache never changes a value, only how often it is computed: whatever
//! is kept here is what the reference evaluator would compute again.

use crate::eval::{Evaluator, Value};
use crate::model::Pid;
use crate::plan::*;
use std::sync::Arc;

/// Values computed so far, kept to be reused.
pub(super) struct Caches {
    /// Zero-argument metric values, `[metric][participant]`: each metric's
    /// values shared with forks (see [`Evaluator::fork`]) and copied only
    /// if one of them writes.
    pub(super) metrics: Vec<Arc<Vec<Option<Value>>>>,
    /// Per metric: a columnar computation was tried (see [`crate::eval::columnar`]).
    pub(super) column_tried: Vec<bool>,
    /// Values of metrics whose first argument is one of the participant's
    /// own rounds and whose other arguments are plain numbers or booleans
    /// (`opponent_value(r, false, true)`): per metric, one dense table per
    /// combination of the other arguments, indexed by `entry_base[p] + i`,
    /// filled on first use. Such per-round metrics are used by several
    /// tie-breaks (BH, SB, their cuts) and would otherwise be recomputed at
    /// every use.
    pub(super) entry: Vec<Vec<EntryTable>>,
    /// Criteria's values while one tied group is being evaluated: a
    /// criterion that others use (FIDE 6.3 compares each member with every
    /// other) is computed once per member and arguments, not once per use.
    pub(super) group: GroupCache,
    /// The tied group's values and indexes for the aggregates that compare
    /// a member with the others (see [`crate::eval::group`]).
    pub(super) forms: crate::eval::group::FormCache,
    /// Values of metrics whose first argument is a participant (see
    /// [`PairCache`]).
    pub(super) pairs: PairCache,
    /// Each participant's meetings by opponent, for the metrics that count
    /// them (see [`crate::eval::tally`]).
    pub(super) tallies: TallyCache,
    /// Membership of the set of participants last asked about (see
    /// [`Evaluator::member`]).
    members: Members,
    /// Spare argument/local buffers: a metric call takes one and gives it
    /// back, so the hot path allocates nothing.
    pub(super) pool: Vec<Vec<Value>>,
}

impl Caches {
    /// Empty caches for a ruleset of `metrics` metrics.
    pub(super) fn new(metrics: usize) -> Caches {
        Caches {
            metrics: (0..metrics).map(|_| Arc::new(Vec::new())).collect(),
            column_tried: vec![false; metrics],
            entry: vec![Vec::new(); metrics],
            group: GroupCache::default(),
            forms: Default::default(),
            pairs: PairCache::default(),
            tallies: TallyCache::default(),
            members: Members::default(),
            pool: Vec::new(),
        }
    }

    /// The caches of a fork: the metric values computed so far (shared
    /// until written) and which columns were tried; the rest starts afresh.
    pub(super) fn fork(&self) -> Caches {
        Caches {
            metrics: self.metrics.clone(),
            column_tried: self.column_tried.clone(),
            entry: vec![Vec::new(); self.metrics.len()],
            group: GroupCache::default(),
            forms: Default::default(),
            pairs: PairCache::default(),
            tallies: TallyCache::default(),
            members: Members::default(),
            pool: Vec::new(),
        }
    }
}

/// Which participants belong to one set (a tied group): `in group` and
/// `in others`, asked for every round of every member, answered in
/// constant time instead of a scan of the group.
#[derive(Default)]
struct Members {
    /// The set marked (kept, so that its address is not reused).
    set: Option<Arc<Vec<Pid>>>,
    /// `mark[p] == stamp`: p is in the set.
    mark: Vec<u32>,
    stamp: u32,
}

/// One combination of a per-round metric's other arguments, and its values.
pub(super) type EntryTable = (Vec<Value>, EntryValues);

/// Entries per chunk of an [`EntryValues`].
const ENTRY_CHUNK: usize = 256;

/// Values per entry of the event (at `entry_base[p] + i`), kept in chunks
/// allocated where a value is put: evaluating a tied group (Direct
/// Encounter of two players) costs in proportion to the group, not to the
/// event's entries (150,000 at 10,000 × 15).
#[derive(Clone)]
pub(super) struct EntryValues {
    chunks: Vec<Option<Box<[Option<Value>]>>>,
}

impl EntryValues {
    pub(super) fn new(total: usize) -> EntryValues {
        EntryValues {
            chunks: vec![None; total.div_ceil(ENTRY_CHUNK)],
        }
    }
    // Inlined, as the cache reads below: they are asked in every metric
    // call, from another module (perhaps another codegen unit).
    #[inline]
    pub(super) fn get(&self, k: usize) -> Option<&Value> {
        self.chunks
            .get(k / ENTRY_CHUNK)?
            .as_ref()?
            .get(k % ENTRY_CHUNK)?
            .as_ref()
    }
    pub(super) fn put(&mut self, k: usize, v: Value) {
        if let Some(chunk) = self.chunks.get_mut(k / ENTRY_CHUNK) {
            let chunk = chunk.get_or_insert_with(|| vec![None; ENTRY_CHUNK].into_boxed_slice());
            if let Some(cell) = chunk.get_mut(k % ENTRY_CHUNK) {
                *cell = Some(v);
            }
        }
    }
}

impl Evaluator<'_> {
    /// Whether `p` is in the set `ps`: a short set is scanned; a longer one
    /// is marked once (its members, in a table over all participants) and
    /// then answers in constant time for as long as it is the one asked.
    #[inline]
    pub(super) fn member(&mut self, ps: &Arc<Vec<Pid>>, p: Pid) -> bool {
        if ps.len() <= 8 {
            return ps.contains(&p);
        }
        let m = &mut self.caches.members;
        if !m.set.as_ref().is_some_and(|s| Arc::ptr_eq(s, ps)) {
            m.stamp = m.stamp.wrapping_add(1);
            if m.stamp == 0 {
                m.mark.iter_mut().for_each(|x| *x = 0);
                m.stamp = 1;
            }
            m.mark.resize(self.event.participants.len(), 0);
            for &q in ps.iter() {
                if let Some(x) = m.mark.get_mut(q) {
                    *x = m.stamp;
                }
            }
            m.set = Some(ps.clone());
        }
        m.mark.get(p).is_some_and(|&x| x == m.stamp)
    }

    /// Give a buffer back to the pool.
    pub(super) fn recycle(&mut self, mut v: Vec<Value>) {
        v.clear();
        if self.caches.pool.len() < 64 {
            self.caches.pool.push(v);
        }
    }

    /// Forget the cached values of the metrics not in `keep` that hold
    /// lists (the largest values); asked again, they are recomputed.
    pub(crate) fn drop_lists(&mut self, keep: &[bool]) {
        let freer = &self.freer;
        for (id, vals) in self.caches.metrics.iter_mut().enumerate() {
            if keep.get(id).copied().unwrap_or(true) {
                continue;
            }
            // A metric's values are all of one kind but for undefined ones:
            // the first defined value tells (freeing is about memory only).
            let first = vals.iter().flatten().find(|v| !matches!(v, Value::Undef));
            if matches!(first, Some(Value::List(_))) {
                let lists = std::mem::replace(vals, Arc::new(Vec::new()));
                // Freeing a list for every participant touches memory long
                // out of cache (7 ms at 100,000 × 15) and nothing waits for
                // it: the freeing thread does it while the ranking goes on.
                if let Some(tx) = freer {
                    let _ = tx.send(lists);
                }
            }
        }
    }
}

/// Which metrics give the same value whoever they are evaluated for: their
/// bodies never read the participant (`me`, its rounds, sessions or fields,
/// `others`, or a metric of its own that does), only the event, the group,
/// parameters, arguments and other participants' values. E.g. FIDE's "every
/// participant is rated" (Art. 10) or "all the tied players have met" (6.2).
pub(super) fn same_for_everyone(rs: &Ruleset) -> Vec<bool> {
    // 0 not seen, 1 in progress, 2 same for everyone, 3 depends on `me`.
    let mut state = vec![0u8; rs.metrics.len()];
    for id in 0..rs.metrics.len() {
        metric_is_same(rs, id, &mut state, 0);
    }
    state.iter().map(|&s| s == 2).collect()
}

fn metric_is_same(rs: &Ruleset, id: MetricId, state: &mut [u8], depth: usize) -> bool {
    match state.get(id) {
        Some(2) => return true,
        Some(0) if depth < 64 => {}
        // In progress (a cycle the checker rejects), too deep, or `me`-bound.
        _ => return false,
    }
    state[id] = 1;
    let same = expr_is_same(rs, &rs.metrics[id].body, state, depth + 1);
    state[id] = if same { 2 } else { 3 };
    same
}

fn all_same<'e>(
    rs: &Ruleset,
    es: impl IntoIterator<Item = &'e PExpr>,
    state: &mut [u8],
    depth: usize,
) -> bool {
    for x in es {
        if !expr_is_same(rs, x, state, depth) {
            return false;
        }
    }
    true
}

fn expr_is_same(rs: &Ruleset, e: &PExpr, state: &mut [u8], depth: usize) -> bool {
    match &e.kind {
        PKind::Num(_) | PKind::Bool(_) | PKind::Str(_) | PKind::Local(_) | PKind::Param(_) => true,
        PKind::Builtin(b) => matches!(b, Builtin::Group | Builtin::Event),
        PKind::Metric(id, target, args) => {
            all_same(rs, args, state, depth)
                && match target {
                    None => metric_is_same(rs, *id, state, depth),
                    Some(t) => expr_is_same(rs, t, state, depth),
                }
        }
        PKind::Field(base, _) => expr_is_same(rs, base, state, depth),
        PKind::Call(_, args) => all_same(rs, args, state, depth),
        PKind::Table(_, x) => expr_is_same(rs, x, state, depth),
        PKind::Agg(_, g) | PKind::List(g) => {
            all_same(rs, g.fors.iter().map(|(_, c)| c), state, depth)
                && all_same(
                    rs,
                    std::iter::once(&*g.elem)
                        .chain(g.cond.as_deref())
                        .chain(g.by.as_deref())
                        .chain(g.voluntary.as_deref()),
                    state,
                    depth,
                )
        }
        PKind::If(c, a, b) => all_same(rs, [&**c, &**a, &**b], state, depth),
        PKind::Unary(_, x) => expr_is_same(rs, x, state, depth),
        PKind::Binary(_, a, b) => all_same(rs, [&**a, &**b], state, depth),
        _ => false,
    }
}

/// Values of criteria for the tied group evaluated last (held by pointer, so
/// a new group, even one with the same members, starts afresh).
#[derive(Default)]
pub(super) struct GroupCache {
    group: Option<Arc<Vec<Pid>>>,
    // foldhash: asked for every criterion of every member (SipHash was 5%
    // of a large Direct Encounter).
    values:
        std::collections::HashMap<(MetricId, Pid), Vec<ArgsAndValue>, foldhash::fast::RandomState>,
}

/// A criterion's arguments and its value for them.
type ArgsAndValue = (Vec<Value>, Value);

impl GroupCache {
    #[inline]
    pub(super) fn get(
        &self,
        g: &Arc<Vec<Pid>>,
        id: MetricId,
        p: Pid,
        args: &[Value],
    ) -> Option<Value> {
        match &self.group {
            Some(h) if Arc::ptr_eq(h, g) => self
                .values
                .get(&(id, p))?
                .iter()
                .find(|(a, _)| a.as_slice() == args)
                .map(|(_, v)| v.clone()),
            _ => None,
        }
    }
    pub(super) fn put(
        &mut self,
        g: &Arc<Vec<Pid>>,
        id: MetricId,
        p: Pid,
        args: Vec<Value>,
        v: Value,
    ) {
        if !self.group.as_ref().is_some_and(|h| Arc::ptr_eq(h, g)) {
            self.values.clear();
            self.group = Some(g.clone());
        }
        self.values.entry((id, p)).or_default().push((args, v));
    }
}

/// Most values a [`PairCache`] keeps: past it, values are computed anew
/// at each use (as before it existed), so memory stays bounded.
const MAX_PAIRS: usize = 4_000_000;

/// Values of metrics (not group-relative) whose first argument is a
/// participant and whose other arguments are plain numbers or truths, by
/// metric, participant and that participant: FIDE 6.1.2's
/// `meetings(r.opponent, forfeits)` is asked in every round against a
/// tied opponent and counts over all of the participant's rounds, so
/// 20 players tied over 10,000 rounds asked it 200,000 times, each a loop
/// of 10,000 (95 s, then `too_costly`); each pair is now computed once.
#[derive(Default)]
pub(super) struct PairCache {
    values: std::collections::HashMap<
        (MetricId, Pid, Pid),
        Vec<ArgsAndValue>,
        foldhash::fast::RandomState,
    >,
    len: usize,
}

impl PairCache {
    /// The cache's key for `args` (a participant, then plain values), if
    /// they are such arguments.
    #[inline]
    pub(super) fn key(args: &[Value]) -> Option<Pid> {
        match args.split_first() {
            Some((Value::Part(q), rest))
                if rest
                    .iter()
                    .all(|v| matches!(v, Value::Num(_) | Value::Bool(_) | Value::Undef)) =>
            {
                Some(*q)
            }
            _ => None,
        }
    }
    #[inline]
    pub(super) fn get(&self, id: MetricId, p: Pid, q: Pid, args: &[Value]) -> Option<Value> {
        let rest = args.get(1..)?;
        self.values
            .get(&(id, p, q))?
            .iter()
            .find(|(a, _)| a.as_slice() == rest)
            .map(|(_, v)| v.clone())
    }
    pub(super) fn put(&mut self, id: MetricId, p: Pid, q: Pid, rest: Vec<Value>, v: Value) {
        if self.len < MAX_PAIRS {
            self.len += 1;
            self.values.entry((id, p, q)).or_default().push((rest, v));
        }
    }
}

/// The tallies of [`crate::eval::tally`], by metric, participant and the
/// metric's other arguments.
#[derive(Default)]
pub(super) struct TallyCache {
    values: std::collections::HashMap<(MetricId, Pid), Vec<Tally>, foldhash::fast::RandomState>,
}

/// A metric's other arguments and the tally made with them.
type Tally = (Vec<Value>, crate::eval::tally::Counts);

impl TallyCache {
    /// The tally of `id` for `p` with other arguments `rest`, if made.
    pub(super) fn get(
        &self,
        id: MetricId,
        p: Pid,
        rest: &[Value],
    ) -> Option<&crate::eval::tally::Counts> {
        self.values
            .get(&(id, p))?
            .iter()
            .find(|(a, _)| a.as_slice() == rest)
            .map(|(_, c)| c)
    }

    /// Keep a tally.
    pub(super) fn put(
        &mut self,
        id: MetricId,
        p: Pid,
        rest: Vec<Value>,
        counts: crate::eval::tally::Counts,
    ) {
        self.values.entry((id, p)).or_default().push((rest, counts));
    }
}
