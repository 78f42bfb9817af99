//! Evaluates compiled expressions over an event: exact values, metrics cached once per participant.

pub(crate) mod columnar;
pub mod tables;
pub mod why;

use crate::diag::{Diag, Span};
use crate::model::{Event, Participant, Pid, Side, Status, System};
use crate::num::{Num, NumError, Rounding};
use crate::plan::*;
use crate::syntax::ast::UnOp;
use std::cmp::Ordering;
use std::sync::Arc;

/// One item of a list value: its value, its significance for cuts, and
/// whether it comes from a voluntarily unplayed round (FIDE 16.5).
#[derive(Clone, Debug, PartialEq)]
pub struct ListItem {
    /// The contribution.
    pub value: Num,
    /// What "least significant" compares (FIDE 14.1.1(d): the opponent's score).
    pub key: Num,
    /// From a voluntarily unplayed round.
    pub voluntary: bool,
}

/// A runtime value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Undefined (a quotient by zero, a bye's opponent, an unrated rating).
    Undef,
    /// An exact number.
    Num(Num),
    /// Larger than every number.
    Inf,
    /// True or false.
    Bool(bool),
    /// Text.
    Str(Arc<str>),
    /// A participant.
    Part(Pid),
    /// A participant's entry (index into its entries).
    Entry(Pid, u32),
    /// A board of an entry.
    Board(Pid, u32, u32),
    /// The event.
    Event,
    /// A list with significance keys.
    List(Arc<Vec<ListItem>>),
    /// Participants (the group, everyone).
    Parts(Arc<Vec<Pid>>),
    /// `others`: the tied group without one of its members. Never made
    /// into a list of its own, so that criteria like FIDE 6.1's
    /// `r.opponent in others`, asked in every round of every member, cost
    /// no copy of the group.
    Others(Arc<Vec<Pid>>, Pid),
    /// A participant's entries.
    Entries(Pid),
    /// An entry's boards.
    Boards(Pid, u32),
    /// Plain numbers (sessions).
    Nums(Arc<Vec<Num>>),
    /// Boards, one per distinct deal (from `deals(...)`).
    Deals(Arc<Vec<(Pid, u32, u32)>>),
}

impl Value {
    /// The number, if this is one.
    pub fn as_num(&self) -> Option<Num> {
        match self {
            Value::Num(n) => Some(*n),
            _ => None,
        }
    }
    /// Display text with `decimals` places for numbers (exact when None and terminating).
    pub fn display(&self, decimals: Option<u32>) -> Option<String> {
        match self {
            Value::Undef => None,
            Value::Num(n) => Some(match decimals {
                Some(d) => n.to_fixed(d),
                None => n.to_exact_decimal().unwrap_or_else(|| n.to_fixed(4)),
            }),
            Value::Inf => Some("inf".into()),
            Value::Bool(b) => Some(if *b { "1".into() } else { "0".into() }),
            Value::Str(s) => Some(s.to_string()),
            Value::List(items) => Some(
                items
                    .iter()
                    .map(|i| Value::Num(i.value).display(decimals).unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            _ => Some("?".into()),
        }
    }
    fn kind(&self) -> &'static str {
        match self {
            Value::Undef => "undefined",
            Value::Num(_) => "a number",
            Value::Inf => "infinity",
            Value::Bool(_) => "true/false",
            Value::Str(_) => "text",
            Value::Part(_) => "a participant",
            Value::Entry(..) => "a round entry",
            Value::Board(..) => "a board",
            Value::Event => "the event",
            Value::List(_) => "a list",
            Value::Parts(_) | Value::Others(..) => "a set of participants",
            Value::Entries(_) => "a participant's rounds",
            Value::Boards(..) => "an entry's boards",
            Value::Nums(_) => "a list of numbers",
            Value::Deals(_) => "a collection of deals",
        }
    }
}

/// Compare two step values, better first for `desc`; undefined is always last.
pub fn compare_values(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Undef, Value::Undef) => Ordering::Equal,
        (Value::Undef, _) => Ordering::Less,
        (_, Value::Undef) => Ordering::Greater,
        (Value::Inf, Value::Inf) => Ordering::Equal,
        (Value::Inf, _) => Ordering::Greater,
        (_, Value::Inf) => Ordering::Less,
        (Value::Num(x), Value::Num(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::List(x), Value::List(y)) => {
            for (i, j) in x.iter().zip(y.iter()) {
                match i.value.cmp(&j.value) {
                    Ordering::Equal => continue,
                    o => return o,
                }
            }
            x.len().cmp(&y.len())
        }
        _ => Ordering::Equal,
    }
}

/// An evaluation failure, with the place in the ruleset it comes from.
#[derive(Clone, Debug)]
pub struct EvalError {
    /// Stable code.
    pub code: &'static str,
    /// What went wrong.
    pub message: String,
    /// How to fix it.
    pub help: String,
    /// File of the expression.
    pub file: usize,
    /// Span of the expression.
    pub span: Span,
}

impl EvalError {
    /// As a diagnostic pointing into the ruleset.
    pub fn to_diag(&self, rs: &Ruleset) -> Diag {
        let d = Diag::error(self.code, self.message.clone()).with_help(self.help.clone());
        match rs.files.get(self.file) {
            Some(src) => d.at(src, self.span, "while evaluating this"),
            None => d,
        }
    }
}

// The error is boxed: every expression node returns an `R<Value>`, and an
// unboxed 88-byte error would make each of those returns twice as large.
pub(crate) type R<T> = Result<T, Box<EvalError>>;

/// Per-evaluation environment: who "me" is, local slots, the tied group.
#[derive(Clone, Debug)]
pub struct Env {
    /// The participant being evaluated.
    pub me: Option<Pid>,
    /// Local slots.
    pub locals: Vec<Value>,
    /// The tied group, for criteria.
    pub group: Option<Arc<Vec<Pid>>>,
}

/// Evaluates a ruleset's expressions over one event.
pub struct Evaluator<'a> {
    /// The event.
    pub event: &'a Event,
    /// The ruleset.
    pub rs: &'a Ruleset,
    /// Total score per participant.
    pub scores: Arc<Vec<Num>>,
    /// Each participant's rating, in a table of its own: columns read the
    /// ratings of every round's opponent, and the participants themselves
    /// are large records scattered in memory.
    pub(crate) ratings: Arc<Vec<Option<i64>>>,
    /// Score after each entry: every participant's entries in turn, a
    /// participant's from `entry_base[p]` (one table, not one per participant).
    pub(crate) running: Arc<Vec<Num>>,
    /// Cached zero-argument metric values: `[metric][participant]`, each
    /// metric's values shared with forks (see [`Evaluator::fork`]) and
    /// copied only if one of them writes.
    pub(crate) cache: Vec<Arc<Vec<Option<Value>>>>,
    /// Per metric: a columnar computation was tried (see [`crate::eval::columnar`]).
    pub(crate) column_tried: Vec<bool>,
    /// Columnar computations under way (nested), against their own limit.
    pub(crate) col_nest: usize,
    /// Columns shared between columnar computations (see [`crate::eval::columnar`]).
    pub(crate) col_memo: crate::eval::columnar::Memo,
    /// Whether metrics may be computed in columns (else only per participant).
    pub columnar: bool,
    /// Threads columnar computations may use (1: only the calling one).
    /// More threads never change a value: each computes its own blocks of
    /// participants with a fork of this evaluator.
    pub threads: usize,
    /// The columnar path's own evaluation budget, so that trying it never
    /// leaves the per-participant evaluator less of its budget.
    pub(crate) col_fuel: u64,
    all: Arc<Vec<Pid>>,
    /// Expression evaluations under way (nested), against [`MAX_EVAL_DEPTH`].
    pub(crate) depth: usize,
    /// Evaluation work left for this evaluator (see [`EVAL_WORK_BASE`]).
    pub(crate) fuel: u64,
    /// Whether any participant has a rating, any entry boards: a ruleset
    /// asking for data the event does not have at all gets an error.
    pub(crate) has_ratings: bool,
    has_boards: bool,
    /// Criteria's values while one tied group is being evaluated: a
    /// criterion that others use (FIDE 6.3 compares each member with every
    /// other) is computed once per member and arguments, not once per use.
    group_cache: GroupCache,
    /// Per metric: the same value for every participant (see
    /// [`same_for_everyone`]), so computed once, not once per participant.
    pub(crate) same: Arc<Vec<bool>>,
    /// Index of each participant's first entry among all entries.
    pub(crate) entry_base: Arc<Vec<usize>>,
    /// The rounds' built-in fields in columns, block by block, shared by
    /// every fork (see [`crate::eval::columnar::FieldCols`]).
    pub(crate) fields: Arc<crate::eval::columnar::FieldCols>,
    /// Values of metrics whose first argument is one of the participant's
    /// own rounds and whose other arguments are plain numbers or booleans
    /// (`opponent_value(r, false, true)`): per metric, one dense table per
    /// combination of the other arguments, indexed by `entry_base[p] + i`,
    /// filled on first use. Such per-round metrics are used by several
    /// tie-breaks (BH, SB, their cuts) and would otherwise be recomputed at
    /// every use.
    entry_cache: Vec<Vec<EntryTable>>,
    /// Spare argument/local buffers: a metric call takes one and gives it
    /// back, so the hot path allocates nothing.
    pub(crate) pool: Vec<Vec<Value>>,
    /// Membership of the set of participants last asked about (see
    /// [`Evaluator::member`]).
    members: Members,
    /// Threads waiting to compute columns with this evaluator (a ranking
    /// starts them); None: each computation starts its own. Forks have none.
    pub(crate) workers: Option<crate::eval::columnar::Workers<'a>>,
    /// A thread that frees the lists [`Evaluator::drop_lists`] lets go of
    /// (a ranking starts it); None: they are freed here. Forks have none.
    pub(crate) freer: Option<std::sync::mpsc::Sender<Arc<Vec<Option<Value>>>>>,
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
type EntryTable = (Vec<Value>, EntryValues);

/// Entries per chunk of an [`EntryValues`].
const ENTRY_CHUNK: usize = 256;

/// Values per entry of the event (at `entry_base[p] + i`), kept in chunks
/// allocated where a value is put: evaluating a tied group (Direct
/// Encounter of two players) costs in proportion to the group, not to the
/// event's entries (150,000 at 10,000 × 15).
#[derive(Clone)]
struct EntryValues {
    chunks: Vec<Option<Box<[Option<Value>]>>>,
}

impl EntryValues {
    fn new(total: usize) -> EntryValues {
        EntryValues {
            chunks: vec![None; total.div_ceil(ENTRY_CHUNK)],
        }
    }
    fn get(&self, k: usize) -> Option<&Value> {
        self.chunks
            .get(k / ENTRY_CHUNK)?
            .as_ref()?
            .get(k % ENTRY_CHUNK)?
            .as_ref()
    }
    fn put(&mut self, k: usize, v: Value) {
        if let Some(chunk) = self.chunks.get_mut(k / ENTRY_CHUNK) {
            let chunk = chunk.get_or_insert_with(|| vec![None; ENTRY_CHUNK].into_boxed_slice());
            if let Some(cell) = chunk.get_mut(k % ENTRY_CHUNK) {
                *cell = Some(v);
            }
        }
    }
}

pub use crate::par::default_threads;

/// Most numbers `integers(a, b)` may produce.
pub const MAX_INTEGERS: i128 = 1_000_000;

/// Internal: an `all` / `any` aggregate is decided and stops early.
const DECIDED: &str = "tb::eval::decided";

/// A condition that must be true or false to go on is undefined.
pub const UNDEFINED_CONDITION: &str = "tb::eval::undefined_condition";

/// Deepest nesting of expression evaluations, through metrics using
/// metrics: deeper is an error (the stack itself grows as needed).
pub const MAX_EVAL_DEPTH: usize = 2_000;
/// Stack left below which evaluation moves to a new segment.
const STACK_RED_ZONE: usize = 512 * 1024;
/// Size of each new stack segment.
const STACK_SEGMENT: usize = 4 * 1024 * 1024;

/// Evaluation work allowed on any event: expression evaluations (and items
/// handled by cuts and sorts). With [`EVAL_WORK_PER_CELL`] it bounds the time
/// a ruleset can take, whatever its loops and metric arguments multiply to.
pub const EVAL_WORK_BASE: u64 = 5_000_000;
/// Further evaluation work allowed per participant-round of the event.
pub const EVAL_WORK_PER_CELL: u64 = 20_000;
/// Most items a list `[...]` may hold.
pub const MAX_LIST_ITEMS: usize = 1_000_000;

pub(crate) use crate::par::PARALLEL_CELLS;

/// The running score after each entry of `ps` (into `running`, their
/// entries in turn) and their scores; whether any entry has boards.
fn running_scores(
    ps: &[Participant],
    running: &mut [Num],
    scores: &mut [Num],
) -> Result<bool, Diag> {
    let mut has_boards = false;
    let mut cells = running.iter_mut();
    for (p, score) in ps.iter().zip(scores) {
        let mut total = Num::ZERO;
        for e in &p.entries {
            has_boards |= !e.boards().is_empty();
            total = total.add(e.points).map_err(|_| {
                Diag::error(
                    "tb::eval::overflow",
                    format!("{}'s score is too large to hold exactly", p.name),
                )
            })?;
            if let Some(c) = cells.next() {
                *c = total;
            }
        }
        *score = total;
    }
    Ok(has_boards)
}

impl<'a> Evaluator<'a> {
    /// Prepare to evaluate `rs` over `event`, with up to one thread per
    /// core (at most 8).
    pub fn new(event: &'a Event, rs: &'a Ruleset) -> Result<Evaluator<'a>, Diag> {
        Evaluator::with_threads(event, rs, default_threads())
    }

    /// Prepare to evaluate `rs` over `event` with at most `threads` threads
    /// (at least one). Values never depend on it.
    pub fn with_threads(
        event: &'a Event,
        rs: &'a Ruleset,
        threads: usize,
    ) -> Result<Evaluator<'a>, Diag> {
        let threads = threads.max(1);
        let ps = &event.participants;
        let mut entry_base = Vec::with_capacity(ps.len());
        let mut cells = 0usize;
        for p in ps {
            entry_base.push(cells);
            cells += p.entries.len();
        }
        let mut scores = vec![Num::ZERO; ps.len()];
        let mut running = vec![Num::ZERO; cells];
        // One pass over the entries (millions of them in a large event),
        // a large event's in two halves at once.
        let mid = if cells >= PARALLEL_CELLS && threads > 1 {
            ps.len() / 2
        } else {
            ps.len()
        };
        let split = entry_base.get(mid).copied().unwrap_or(cells);
        let (run_a, run_b) = running.split_at_mut(split);
        let (sc_a, sc_b) = scores.split_at_mut(mid);
        let (ps_a, ps_b) = ps.split_at(mid);
        let (a, b) = std::thread::scope(|s| {
            let job = (!ps_b.is_empty()).then(|| s.spawn(|| running_scores(ps_b, run_b, sc_b)));
            let a = running_scores(ps_a, run_a, sc_a);
            let b = job.map(|j| j.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
            (a, b)
        });
        // The first half's error first, as one pass would meet them.
        let has_boards = a? | b.unwrap_or(Ok(false))?;
        let cells = cells as u64;
        let fuel = EVAL_WORK_BASE.saturating_add(cells.saturating_mul(EVAL_WORK_PER_CELL));
        Ok(Evaluator {
            event,
            rs,
            scores: Arc::new(scores),
            ratings: Arc::new(event.participants.iter().map(|p| p.rating).collect()),
            running: Arc::new(running),
            cache: (0..rs.metrics.len())
                .map(|_| Arc::new(Vec::new()))
                .collect(),
            column_tried: vec![false; rs.metrics.len()],
            col_nest: 0,
            col_memo: Default::default(),
            columnar: true,
            threads,
            col_fuel: fuel,
            all: Arc::new((0..event.participants.len()).collect()),
            depth: 0,
            fuel,
            has_ratings: event.participants.iter().any(|p| p.rating.is_some()),
            has_boards,
            group_cache: GroupCache::default(),
            same: Arc::new(same_for_everyone(rs)),
            entry_base: Arc::new(entry_base),
            fields: Arc::new(crate::eval::columnar::FieldCols::new(event)),
            entry_cache: vec![Vec::new(); rs.metrics.len()],
            pool: Vec::new(),
            members: Members::default(),
            workers: None,
            freer: None,
        })
    }

    /// A copy of this evaluator for another thread, for columnar work
    /// under way (see [`crate::eval::columnar`]): it shares the event, the
    /// ruleset and every value cached so far, and starts its own caches of
    /// per-round and group values (caches only: what it computes is what
    /// this evaluator would). It works on one thread and with the budget
    /// left here; [`Evaluator::absorb_fuel`] charges what it used.
    pub(crate) fn fork(&self) -> Evaluator<'a> {
        Evaluator {
            event: self.event,
            rs: self.rs,
            scores: self.scores.clone(),
            ratings: self.ratings.clone(),
            running: self.running.clone(),
            cache: self.cache.clone(),
            column_tried: self.column_tried.clone(),
            col_nest: self.col_nest,
            col_memo: Default::default(),
            columnar: self.columnar,
            threads: 1,
            col_fuel: self.col_fuel,
            all: self.all.clone(),
            depth: self.depth,
            fuel: self.fuel,
            has_ratings: self.has_ratings,
            has_boards: self.has_boards,
            group_cache: GroupCache::default(),
            same: self.same.clone(),
            entry_base: self.entry_base.clone(),
            fields: self.fields.clone(),
            entry_cache: vec![Vec::new(); self.rs.metrics.len()],
            pool: Vec::new(),
            members: Members::default(),
            workers: None,
            freer: None,
        }
    }

    /// How many entries participant `p` has, from the table of first
    /// entries: every columnar computation asks this of every participant,
    /// and a participant's own record (hundreds of bytes each) is long out
    /// of cache in a large event (at 100,000 × 15 reading it cost more
    /// than the rest of making the blocks).
    pub(crate) fn entry_count(&self, p: Pid) -> usize {
        let first = self.entry_base[p];
        let end = self
            .entry_base
            .get(p + 1)
            .copied()
            .unwrap_or(self.running.len());
        end - first
    }

    /// Whether `p` is in the set `ps`: a short set is scanned; a longer one
    /// is marked once (its members, in a table over all participants) and
    /// then answers in constant time for as long as it is the one asked.
    fn member(&mut self, ps: &Arc<Vec<Pid>>, p: Pid) -> bool {
        if ps.len() <= 8 {
            return ps.contains(&p);
        }
        let m = &mut self.members;
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

    /// Charge this evaluator with the work its forks did (each started
    /// with the budget left here).
    pub(crate) fn absorb_fuel(&mut self, forks: &[Evaluator]) {
        let used: u64 = forks.iter().map(|f| self.fuel.saturating_sub(f.fuel)).sum();
        self.fuel = self.fuel.saturating_sub(used);
    }

    pub(crate) fn fail(
        &self,
        e: &PExpr,
        code: &'static str,
        message: String,
        help: &str,
    ) -> Box<EvalError> {
        Box::new(EvalError {
            code,
            message,
            help: help.to_string(),
            file: e.file,
            span: e.span,
        })
    }

    pub(crate) fn arith(&self, e: &PExpr, r: Result<Num, NumError>) -> R<Value> {
        match r {
            Ok(n) => Ok(Value::Num(n)),
            Err(NumError::DivisionByZero) => Ok(Value::Undef),
            Err(NumError::Overflow) => Err(self.fail(
                e,
                "tb::eval::overflow",
                "a value grew too large to hold exactly".into(),
                "check the data for absurd numbers; values beyond about 9.2 × 10^18 (64-bit fractions) are refused",
            )),
        }
    }

    /// The value of metric `id` for participant `p` (cached when it takes no arguments).
    pub fn metric(
        &mut self,
        id: MetricId,
        p: Pid,
        args: Vec<Value>,
        group: Option<Arc<Vec<Pid>>>,
        at: &PExpr,
    ) -> R<Value> {
        let cacheable = args.is_empty() && !self.rs.metrics[id].group_relative;
        // A metric that never reads its participant is cached once, under 0.
        let slot = if self.same.get(id).copied().unwrap_or(false) {
            0
        } else {
            p
        };
        if cacheable {
            if let Some(Some(v)) = self.cache[id].get(slot) {
                let v = v.clone();
                self.recycle(args);
                return Ok(v);
            }
            // First use: compute it for everyone in columns (see
            // `crate::eval::columnar`); what that cannot do is done below. A
            // metric that is the same for everyone is computed once, below.
            if slot == p && !self.same.get(id).copied().unwrap_or(false) {
                self.fill_column(id);
                if let Some(Some(v)) = self.cache[id].get(slot) {
                    let v = v.clone();
                    self.recycle(args);
                    return Ok(v);
                }
            }
        }
        // First argument one of this participant's own rounds, the others
        // plain values: cached per round and combination of the others.
        let mut entry_hit = None;
        let entry_slot = match args.split_first() {
            Some((Value::Entry(q, i), rest))
                if *q == p
                    && !self.rs.metrics[id].group_relative
                    && rest
                        .iter()
                        .all(|v| matches!(v, Value::Num(_) | Value::Bool(_) | Value::Undef)) =>
            {
                let k = self.entry_base[p] + *i as usize;
                let tables = &self.entry_cache[id];
                let t = tables.iter().position(|(tail, _)| tail.as_slice() == rest);
                match t.and_then(|t| tables[t].1.get(k)) {
                    Some(v) => {
                        entry_hit = Some(v.clone());
                        None
                    }
                    _ => Some((k, rest.to_vec())),
                }
            }
            _ => None,
        };
        if let Some(v) = entry_hit {
            self.recycle(args);
            return Ok(v);
        }
        let group_key = match &group {
            Some(g) if self.rs.metrics[id].group_relative => {
                if let Some(v) = self.group_cache.get(g, id, slot, &args) {
                    self.recycle(args);
                    return Ok(v);
                }
                Some((g.clone(), args.clone()))
            }
            _ => None,
        };
        if self.depth >= MAX_EVAL_DEPTH {
            return Err(self.fail(
                at,
                "tb::eval::too_deep",
                "metrics nest too deeply".into(),
                "simplify the chain of metric definitions",
            ));
        }
        let rs = self.rs;
        let m = &rs.metrics[id];
        let mut locals = args;
        locals.resize(m.slots.max(locals.len()), Value::Undef);
        let mut env = Env {
            me: Some(p),
            locals,
            group,
        };
        self.depth += 1;
        let v = self.eval(&m.body, &mut env);
        self.depth -= 1;
        self.recycle(env.locals);
        let v = v?;
        if cacheable {
            let n = self.event.participants.len();
            let c = Arc::make_mut(&mut self.cache[id]);
            if c.is_empty() {
                c.resize(n, None);
            }
            c[slot] = Some(v.clone());
        }
        if let Some((g, args)) = group_key {
            self.group_cache.put(&g, id, slot, args, v.clone());
        }
        if let Some((k, tail)) = entry_slot {
            let total = self.entry_base.last().copied().unwrap_or(0)
                + self
                    .event
                    .participants
                    .last()
                    .map(|q| q.entries.len())
                    .unwrap_or(0);
            let tables = &mut self.entry_cache[id];
            let t = match tables.iter().position(|(t, _)| *t == tail) {
                Some(t) => t,
                None => {
                    tables.push((tail, EntryValues::new(total)));
                    tables.len() - 1
                }
            };
            tables[t].1.put(k, v.clone());
        }
        Ok(v)
    }

    fn me(&self, e: &PExpr, env: &Env) -> R<Pid> {
        env.me.ok_or_else(|| {
            self.fail(
                e,
                "tb::eval::no_participant",
                "this needs a participant".into(),
                "use it inside a metric or step",
            )
        })
    }

    /// Give a buffer back to the pool.
    fn recycle(&mut self, mut v: Vec<Value>) {
        v.clear();
        if self.pool.len() < 64 {
            self.pool.push(v);
        }
    }

    /// Spend `amount` of the evaluation budget; an error when it runs out.
    #[inline]
    pub(crate) fn charge(&mut self, e: &PExpr, amount: u64) -> R<()> {
        match self.fuel.checked_sub(amount) {
            Some(f) => {
                self.fuel = f;
                Ok(())
            }
            None => Err(self.fail(
                e,
                "tb::eval::too_costly",
                "evaluating the ruleset on this event takes too much work".into(),
                "loops nest and multiply, and a metric with arguments is computed anew at each use: \
                 compute inner parts as metrics without arguments (each is computed once per participant)",
            )),
        }
    }

    /// Evaluate an expression.
    pub fn eval(&mut self, e: &PExpr, env: &mut Env) -> R<Value> {
        self.charge(e, 1)?;
        if self.depth >= MAX_EVAL_DEPTH {
            return Err(self.fail(
                e,
                "tb::eval::too_deep",
                "metrics nest too deeply".into(),
                "simplify the chain of metric definitions",
            ));
        }
        self.depth += 1;
        // Debug builds take kilobytes of stack per level: grow it on the heap
        // when little is left rather than overflow (a test thread has 2 MB).
        // Probing the stack costs as much as a small node: probe every
        // eighth level, with a red zone that covers the levels in between.
        let v = if self.depth.is_multiple_of(8) {
            stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || self.eval_node(e, env))
        } else {
            self.eval_node(e, env)
        };
        self.depth -= 1;
        v
    }

    fn eval_node(&mut self, e: &PExpr, env: &mut Env) -> R<Value> {
        Ok(match &e.kind {
            PKind::Num(n) => Value::Num(*n),
            PKind::Bool(b) => Value::Bool(*b),
            PKind::Str(s) => Value::Str(s.clone()),
            PKind::Infinity => Value::Inf,
            PKind::Local(i) => env.locals.get(*i).cloned().unwrap_or(Value::Undef),
            PKind::Param(i) => Value::Num(self.rs.params[*i].value),
            PKind::Builtin(b) => match b {
                Builtin::Me => Value::Part(self.me(e, env)?),
                Builtin::Rounds => Value::Entries(self.me(e, env)?),
                Builtin::Sessions => {
                    let p = self.me(e, env)?;
                    Value::Nums(Arc::new(self.event.participants[p].sessions.clone()))
                }
                Builtin::Group => Value::Parts(env.group.clone().ok_or_else(|| self.no_group(e))?),
                Builtin::Others => {
                    let g = env.group.clone().ok_or_else(|| self.no_group(e))?;
                    match env.me {
                        Some(me) => Value::Others(g, me),
                        None => Value::Parts(g),
                    }
                }
                Builtin::Event => Value::Event,
            },
            PKind::Metric(id, target, args) => {
                let p = match target {
                    None => self.me(e, env)?,
                    Some(t) => match self.eval(t, env)? {
                        Value::Part(p) => p,
                        Value::Undef => return Ok(Value::Undef),
                        other => {
                            return Err(self.fail(
                                t,
                                "tb::eval::type",
                                format!(
                                    "`.{}` needs a participant, not {}",
                                    self.rs.metrics[*id].name,
                                    other.kind()
                                ),
                                "metrics belong to participants: write e.g. `r.opponent.score`",
                            ))
                        }
                    },
                };
                let mut vals = self.pool.pop().unwrap_or_default();
                for a in args {
                    match self.eval(a, env) {
                        Ok(v) => vals.push(v),
                        Err(err) => {
                            self.recycle(vals);
                            return Err(err);
                        }
                    }
                }
                let group = if self.rs.metrics[*id].group_relative {
                    env.group.clone()
                } else {
                    None
                };
                self.metric(*id, p, vals, group, e)?
            }
            PKind::Field(base, f) => {
                let b = self.eval(base, env)?;
                self.field(e, &b, f)?
            }
            PKind::Call(func, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(a, env)?);
                }
                self.call(e, *func, vals)?
            }
            PKind::Agg(agg, g) => self.aggregate(e, *agg, g, env)?,
            PKind::List(g) => {
                let mut items = Vec::new();
                let mut unknown = false;
                let mut undefined_item = false;
                self.generate(g, 0, env, &mut unknown, &mut |ev, env| {
                    let v = ev.eval(&g.elem, env)?;
                    let Some(value) = ev.list_value(g, v)? else {
                        undefined_item = true;
                        return Ok(());
                    };
                    let key = match &g.by {
                        Some(k) => ev.eval(k, env)?,
                        None => Value::Undef,
                    };
                    let voluntary = match &g.voluntary {
                        Some(c) => {
                            let t = ev.truthy(c, env)?;
                            ev.definite(c, "a list item's `voluntary` flag", t)?
                        }
                        None => false,
                    };
                    ev.list_push(e, &mut items, value, key, voluntary)
                })?;
                if unknown || undefined_item {
                    Value::Undef
                } else {
                    Value::List(Arc::new(items))
                }
            }
            PKind::If(c, a, b) => match self.truthy(c, env)? {
                Some(true) => self.eval(a, env)?,
                Some(false) => self.eval(b, env)?,
                // Neither branch: an undefined condition never picks one.
                None => Value::Undef,
            },
            PKind::Unary(op, x) => {
                let v = self.eval(x, env)?;
                self.unary_value(e, *op, x, v)?
            }
            PKind::Binary(op, a, b) => self.binary(e, *op, a, b, env)?,
        })
    }

    /// A list item's value: a number, or None for an undefined one (which
    /// makes the whole list undefined: an item is never silently left out).
    pub(crate) fn list_value(&self, g: &PGen, v: Value) -> R<Option<Num>> {
        match v {
            Value::Num(n) => Ok(Some(n)),
            Value::Undef => Ok(None),
            other => Err(self.fail(
                &g.elem,
                "tb::eval::type",
                format!("list items must be numbers, not {}", other.kind()),
                "",
            )),
        }
    }

    /// Append an item to list `e`; its significance key is `key` when that
    /// is a number, else the value itself.
    pub(crate) fn list_push(
        &self,
        e: &PExpr,
        items: &mut Vec<ListItem>,
        value: Num,
        key: Value,
        voluntary: bool,
    ) -> R<()> {
        if items.len() >= MAX_LIST_ITEMS {
            return Err(self.fail(
                e,
                "tb::eval::too_costly",
                format!("a list grew past {MAX_LIST_ITEMS} items"),
                "loops nest and multiply: filter with `where`, or aggregate inner loops first",
            ));
        }
        let key = match key {
            Value::Num(k) => k,
            _ => value,
        };
        items.push(ListItem {
            value,
            key,
            voluntary,
        });
        Ok(())
    }

    fn no_group(&self, e: &PExpr) -> Box<EvalError> {
        self.fail(
            e,
            "tb::eval::no_group",
            "`group` is only known while breaking a tie".into(),
            "use it in a `criterion`",
        )
    }

    pub(crate) fn type_err(&self, e: &PExpr, what: &str, v: &Value) -> Box<EvalError> {
        self.fail(
            e,
            "tb::eval::type",
            format!("expected {what}, found {}", v.kind()),
            "check the expression's parts",
        )
    }

    /// A condition's truth: true, false, or None where it is undefined
    /// (the language's three-valued logic: an undefined value is never
    /// taken as false; README, "Undefined values").
    pub fn truthy(&mut self, e: &PExpr, env: &mut Env) -> R<Option<bool>> {
        let v = self.eval(e, env)?;
        self.truth(e, &v)
    }

    /// A condition's value as true, false or undefined (None).
    pub(crate) fn truth(&self, e: &PExpr, v: &Value) -> R<Option<bool>> {
        match v {
            Value::Bool(b) => Ok(Some(*b)),
            Value::Undef => Ok(None),
            v => Err(self.type_err(e, "true or false", v)),
        }
    }

    /// A condition that must be true or false to go on (`voluntary`): an
    /// undefined one is an error naming it (`what`), never taken as false.
    pub(crate) fn definite(&self, e: &PExpr, what: &str, v: Option<bool>) -> R<bool> {
        v.ok_or_else(|| {
            self.fail(
                e,
                UNDEFINED_CONDITION,
                format!("{what} is undefined"),
                "the condition reads a value the data does not give here; decide the case with `defined(x)` or `x ?? default`, citing the rule",
            )
        })
    }

    /// A prefix operator applied to a value (`x` is the operand's expression).
    pub(crate) fn unary_value(&self, e: &PExpr, op: UnOp, x: &PExpr, v: Value) -> R<Value> {
        Ok(match (op, v) {
            (UnOp::Not, Value::Bool(b)) => Value::Bool(!b),
            (UnOp::Not, Value::Undef) => Value::Undef,
            (UnOp::Neg, Value::Num(n)) => self.arith(e, n.neg())?,
            (UnOp::Neg, Value::Undef) => Value::Undef,
            (_, v) => return Err(self.type_err(x, "an operand", &v)),
        })
    }

    fn binary(&mut self, e: &PExpr, op: BinOp, a: &PExpr, b: &PExpr, env: &mut Env) -> R<Value> {
        match op {
            // Kleene's logic: `false and x` is false and `true or x` true
            // whatever x is (x is not evaluated); otherwise an undefined
            // side makes the result undefined.
            BinOp::And | BinOp::Or => {
                let and = op == BinOp::And;
                let ta = self.truthy(a, env)?;
                if ta == Some(!and) {
                    return Ok(Value::Bool(!and));
                }
                let tb = self.truthy(b, env)?;
                return Ok(logic(and, ta, tb));
            }
            BinOp::Coalesce => {
                // A data value the event does not record at all counts as
                // undefined here, so optional data reads `me.carryover ?? 0`.
                let x = match self.eval(a, env) {
                    Err(er) if er.code == "tb::eval::missing_data" => Value::Undef,
                    r => r?,
                };
                return if x == Value::Undef {
                    self.eval(b, env)
                } else {
                    Ok(x)
                };
            }
            _ => {}
        }
        let x = self.eval(a, env)?;
        let y = self.eval(b, env)?;
        self.binary_value(e, op, b, x, y)
    }

    /// An infix operator other than `and`, `or` and `??` applied to two
    /// values (`b` is the right operand's expression, for `in`'s errors).
    pub(crate) fn binary_value(
        &mut self,
        e: &PExpr,
        op: BinOp,
        b: &PExpr,
        x: Value,
        y: Value,
    ) -> R<Value> {
        match op {
            BinOp::Eq | BinOp::Ne if x == Value::Undef || y == Value::Undef => Ok(Value::Undef),
            BinOp::Eq => Ok(Value::Bool(values_equal(&x, &y))),
            BinOp::Ne => Ok(Value::Bool(!values_equal(&x, &y))),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                if x == Value::Undef || y == Value::Undef {
                    return Ok(Value::Undef);
                }
                let ord = match (&x, &y) {
                    (Value::Num(_) | Value::Inf, Value::Num(_) | Value::Inf) => {
                        compare_values(&x, &y)
                    }
                    _ => {
                        return Err(self.type_err(
                            e,
                            "numbers to compare",
                            if matches!(x, Value::Num(_)) { &y } else { &x },
                        ))
                    }
                };
                Ok(Value::Bool(match op {
                    BinOp::Lt => ord == Ordering::Less,
                    BinOp::Le => ord != Ordering::Greater,
                    BinOp::Gt => ord == Ordering::Greater,
                    _ => ord != Ordering::Less,
                }))
            }
            BinOp::In if x == Value::Undef => Ok(Value::Undef),
            BinOp::In => match y {
                Value::Parts(ps) => Ok(Value::Bool(
                    matches!(x, Value::Part(p) if self.member(&ps, p)),
                )),
                Value::Others(ps, me) => Ok(Value::Bool(
                    matches!(x, Value::Part(p) if p != me && self.member(&ps, p)),
                )),
                Value::Undef => Ok(Value::Undef),
                other => Err(self.type_err(b, "a set of participants after `in`", &other)),
            },
            _ => {
                let (x, y) = match (x, y) {
                    (Value::Undef, _) | (_, Value::Undef) => return Ok(Value::Undef),
                    (Value::Num(x), Value::Num(y)) => (x, y),
                    (Value::Inf, _) | (_, Value::Inf) => {
                        return Err(self.fail(
                            e,
                            "tb::eval::infinity",
                            "arithmetic on infinity".into(),
                            "compare infinity, but do not compute with it",
                        ))
                    }
                    (x, y) => {
                        return Err(self.type_err(
                            e,
                            "numbers",
                            if matches!(x, Value::Num(_)) { &y } else { &x },
                        ))
                    }
                };
                let r = match op {
                    BinOp::Add => x.add(y),
                    BinOp::Sub => x.sub(y),
                    BinOp::Mul => x.mul(y),
                    BinOp::Rem => x.rem(y),
                    _ => x.div(y),
                };
                self.arith(e, r)
            }
        }
    }

    /// Run the loops of a generator, calling `body` for each binding that
    /// passes the filter. `unknown` is set where a binding's filter is
    /// undefined, or a collection to loop over is: what the generator
    /// yields is then not known.
    fn generate(
        &mut self,
        g: &PGen,
        level: usize,
        env: &mut Env,
        unknown: &mut bool,
        body: &mut dyn FnMut(&mut Self, &mut Env) -> R<()>,
    ) -> R<()> {
        if level == g.fors.len() {
            if let Some(c) = &g.cond {
                match self.truthy(c, env)? {
                    Some(true) => {}
                    Some(false) => return Ok(()),
                    None => {
                        *unknown = true;
                        return Ok(());
                    }
                }
            }
            return body(self, env);
        }
        let (slot, coll) = &g.fors[level];
        let c = self.eval(coll, env)?;
        if c == Value::Undef {
            *unknown = true;
            return Ok(());
        }
        // `others`: the group, skipping the member at `skip`.
        let skip = match &c {
            Value::Others(ps, me) => ps.iter().position(|q| q == me),
            _ => None,
        };
        // The i-th item of the collection, made on demand: loops over a
        // participant's rounds (the hot path) allocate nothing.
        let len = match &c {
            Value::Parts(ps) => ps.len(),
            Value::Others(ps, _) => ps.len() - usize::from(skip.is_some()),
            Value::Entries(p) => self.event.participants[*p].entries.len(),
            Value::Boards(p, i) => self.event.participants[*p].entries[*i as usize]
                .boards()
                .len(),
            Value::Nums(ns) => ns.len(),
            Value::Deals(ds) => ds.len(),
            Value::List(items) => items.len(),
            Value::Undef => 0,
            other => return Err(self.type_err(coll, "a collection to loop over", other)),
        };
        if env.locals.len() <= *slot {
            env.locals.resize(*slot + 1, Value::Undef);
        }
        for k in 0..len {
            env.locals[*slot] = match &c {
                Value::Parts(ps) => Value::Part(ps[k]),
                Value::Others(ps, _) => {
                    Value::Part(ps[k + usize::from(skip.is_some_and(|s| k >= s))])
                }
                Value::Entries(p) => Value::Entry(*p, k as u32),
                Value::Boards(p, i) => Value::Board(*p, *i, k as u32),
                Value::Nums(ns) => Value::Num(ns[k]),
                Value::Deals(ds) => {
                    let (p, i, b) = ds[k];
                    Value::Board(p, i, b)
                }
                Value::List(items) => Value::Num(items[k].value),
                _ => Value::Undef,
            };
            self.generate(g, level + 1, env, unknown, body)?;
        }
        Ok(())
    }

    fn aggregate(&mut self, e: &PExpr, agg: Agg, g: &PGen, env: &mut Env) -> R<Value> {
        if let Some(v) = self.first_in_order(agg, g, env)? {
            return Ok(v);
        }
        let mut acc = Acc::new(agg);
        let mut unknown = false;
        let walked = self.generate(g, 0, env, &mut unknown, &mut |ev, env| {
            let v = ev.eval(&g.elem, env)?;
            if acc.push(ev, e, g, v)? {
                // Decided: stop, as `and` / `or` do.
                return Err(ev.fail(e, DECIDED, String::new(), ""));
            }
            Ok(())
        });
        match walked {
            Err(er) if er.code == DECIDED => {}
            r => r?,
        }
        if unknown {
            acc.unknown_item();
        }
        acc.finish(self, e)
    }

    /// `min(x for x in C where cond)` over numbers in ascending order (such
    /// as `integers(a, b)`) is the first `x` that passes, and `max` the last:
    /// stop there instead of testing every number (FIDE PTP searches
    /// thousands of ratings). None when the shortcut does not apply.
    fn first_in_order(&mut self, agg: Agg, g: &PGen, env: &mut Env) -> R<Option<Value>> {
        if !matches!(agg, Agg::Min | Agg::Max) || g.fors.len() != 1 {
            return Ok(None);
        }
        let (slot, coll) = &g.fors[0];
        if !matches!(g.elem.kind, PKind::Local(s) if s == *slot) {
            return Ok(None);
        }
        let Value::Nums(ns) = self.eval(coll, env)? else {
            return Ok(None);
        };
        if !ns.windows(2).all(|w| w[0] <= w[1]) {
            return Ok(None);
        }
        if env.locals.len() <= *slot {
            env.locals.resize(*slot + 1, Value::Undef);
        }
        let order: Box<dyn Iterator<Item = &Num>> = if agg == Agg::Min {
            Box::new(ns.iter())
        } else {
            Box::new(ns.iter().rev())
        };
        for &n in order {
            env.locals[*slot] = Value::Num(n);
            let pass = match &g.cond {
                Some(c) => self.truthy(c, env)?,
                None => Some(true),
            };
            match pass {
                Some(true) => return Ok(Some(Value::Num(n))),
                Some(false) => {}
                // Whether `n` passes is not known, so neither is the result.
                None => return Ok(Some(Value::Undef)),
            }
        }
        Ok(Some(Value::Undef))
    }

    /// A list argument; using a list costs work in proportion to its length.
    fn list_arg(&mut self, e: &PExpr, v: &Value) -> R<Arc<Vec<ListItem>>> {
        let len = match v {
            Value::List(l) => l.len(),
            Value::Nums(ns) => ns.len(),
            _ => 0,
        };
        self.charge(e, len as u64)?;
        match v {
            Value::List(l) => Ok(l.clone()),
            Value::Nums(ns) => Ok(Arc::new(
                ns.iter()
                    .map(|&n| ListItem {
                        value: n,
                        key: n,
                        voluntary: false,
                    })
                    .collect(),
            )),
            other => Err(self.type_err(e, "a list `[...]`", other)),
        }
    }

    /// `sum`, `mean` or `count` of a list's values (`e` the call).
    pub(crate) fn list_total(&self, e: &PExpr, func: Func, l: &[ListItem]) -> R<Value> {
        if func == Func::Count {
            return Ok(Value::Num(Num::int(l.len() as i64)));
        }
        let mut s = Num::ZERO;
        for i in l {
            s = match s.add(i.value) {
                Ok(v) => v,
                Err(er) => return self.arith(e, Err(er)),
            };
        }
        Ok(if func != Func::Mean {
            Value::Num(s)
        } else if l.is_empty() {
            Value::Undef
        } else {
            self.arith(e, s.div(Num::int(l.len() as i64)))?
        })
    }

    /// `cut_lowest`, `cut_highest` or `best` of `items` with count `n`, in place.
    pub(crate) fn cut(
        &mut self,
        e: &PExpr,
        func: Func,
        items: &mut Vec<ListItem>,
        n: usize,
    ) -> R<()> {
        let n = n.min(items.len());
        self.charge(e, (n as u64 + 1).saturating_mul(items.len() as u64))?;
        match func {
            Func::CutLowest => {
                for _ in 0..n {
                    cut_least_significant(items);
                }
            }
            Func::CutHighest => {
                for _ in 0..n {
                    cut_most_significant(items);
                }
            }
            _ => {
                items.sort_by_key(|i| std::cmp::Reverse(i.value));
                items.truncate(n);
            }
        }
        Ok(())
    }

    pub(crate) fn count_arg(&self, e: &PExpr, v: &Value) -> R<usize> {
        match v {
            Value::Num(n) if n.is_integer() && n.numer() >= 0 && n.numer() <= 1_000_000 => {
                Ok(n.numer() as usize)
            }
            other => Err(self.type_err(e, "a whole number of items", other)),
        }
    }

    pub(crate) fn call(&mut self, e: &PExpr, func: Func, args: Vec<Value>) -> R<Value> {
        // A function of a list given an undefined list (one with an
        // undefined item, or from an undefined filter) is undefined too.
        if matches!(args.first(), Some(Value::Undef))
            && matches!(
                func,
                Func::Sum
                    | Func::Mean
                    | Func::Count
                    | Func::CutLowest
                    | Func::CutHighest
                    | Func::Best
                    | Func::Sorted
                    | Func::SortedByKey
            )
        {
            return Ok(Value::Undef);
        }
        let num = |ev: &Self, i: usize| -> R<Option<Num>> {
            match args.get(i) {
                Some(Value::Num(n)) => Ok(Some(*n)),
                Some(Value::Undef) | None => Ok(None),
                Some(other) => Err(ev.type_err(e, "a number", other)),
            }
        };
        Ok(match func {
            Func::Max | Func::Min => {
                let vals: Vec<Value> = if args.len() == 1 {
                    match &args[0] {
                        Value::List(_) | Value::Nums(_) => self
                            .list_arg(e, &args[0])?
                            .iter()
                            .map(|i| Value::Num(i.value))
                            .collect(),
                        other => vec![other.clone()],
                    }
                } else {
                    args.clone()
                };
                let mut best: Option<Value> = None;
                for v in vals {
                    match v {
                        Value::Undef => return Ok(Value::Undef),
                        Value::Num(_) | Value::Inf => {}
                        other => return Err(self.type_err(e, "numbers", &other)),
                    }
                    best = Some(match best {
                        None => v,
                        Some(b) => {
                            let o = compare_values(&v, &b);
                            if (func == Func::Max && o == Ordering::Greater)
                                || (func == Func::Min && o == Ordering::Less)
                            {
                                v
                            } else {
                                b
                            }
                        }
                    });
                }
                best.unwrap_or(Value::Undef)
            }
            Func::Abs => match num(self, 0)? {
                Some(n) => self.arith(e, if n < Num::ZERO { n.neg() } else { Ok(n) })?,
                None => Value::Undef,
            },
            Func::Round | Func::RoundDown | Func::Floor | Func::Ceil => {
                let places = match num(self, 1)? {
                    Some(p) if p.is_integer() && p.numer() >= 0 && p.numer() <= 12 => {
                        p.numer() as u32
                    }
                    None if args.len() < 2 => 0,
                    _ => {
                        return Err(self.fail(
                            e,
                            "tb::eval::type",
                            "decimal places must be a whole number from 0 to 12".into(),
                            "",
                        ))
                    }
                };
                let how = match func {
                    Func::Round => Rounding::HalfUp,
                    Func::RoundDown => Rounding::Down,
                    Func::Floor => Rounding::Floor,
                    _ => Rounding::Ceil,
                };
                match num(self, 0)? {
                    Some(n) => self.arith(e, n.round(places, how))?,
                    None => Value::Undef,
                }
            }
            Func::Defined => Value::Bool(!matches!(args.first(), Some(Value::Undef) | None)),
            Func::Sum | Func::Mean | Func::Count => {
                if let Some(Value::Parts(ps)) = args.first() {
                    if func == Func::Count {
                        return Ok(Value::Num(Num::int(ps.len() as i64)));
                    }
                }
                if let Some(Value::Others(ps, me)) = args.first() {
                    if func == Func::Count {
                        let n = ps.len() - usize::from(self.member(ps, *me));
                        return Ok(Value::Num(Num::int(n as i64)));
                    }
                }
                if let Some(Value::Deals(ds)) = args.first() {
                    if func == Func::Count {
                        return Ok(Value::Num(Num::int(ds.len() as i64)));
                    }
                }
                if let Some(Value::Entries(p)) = args.first() {
                    if func == Func::Count {
                        return Ok(Value::Num(Num::int(
                            self.event.participants[*p].entries.len() as i64,
                        )));
                    }
                }
                let l = self.list_arg(e, args.first().unwrap_or(&Value::Undef))?;
                self.list_total(e, func, &l)?
            }
            Func::CutLowest | Func::CutHighest | Func::Best => {
                let l = self.list_arg(e, &args[0])?;
                let n = self.count_arg(e, &args[1])?;
                let mut items: Vec<ListItem> = l.as_ref().clone();
                self.cut(e, func, &mut items, n)?;
                Value::List(Arc::new(items))
            }
            Func::FideDp | Func::FideExpected => match num(self, 0)? {
                None => Value::Undef,
                Some(n) => {
                    let v = if func == Func::FideDp {
                        crate::eval::tables::dp(n)
                    } else {
                        crate::eval::tables::expected(n)
                    };
                    match v {
                        Some(v) => Value::Num(v),
                        None => {
                            return Err(self.fail(
                                e,
                                "tb::eval::out_of_range",
                                format!("{n} is outside FIDE's table"),
                                if func == Func::FideDp {
                                    "fide_dp takes a fractional score from 0 to 1"
                                } else {
                                    "fide_expected takes a rating difference"
                                },
                            ))
                        }
                    }
                }
            },
            Func::Integers => match (num(self, 0)?, num(self, 1)?) {
                (Some(a), Some(b)) if a.is_integer() && b.is_integer() => {
                    let (a, b) = (a.numer(), b.numer());
                    if b >= a && b.checked_sub(a).is_none_or(|d| d >= MAX_INTEGERS) {
                        return Err(self.fail(
                            e,
                            "tb::eval::too_large",
                            format!("integers({a}, {b}) has more than {MAX_INTEGERS} numbers"),
                            "narrow the range",
                        ));
                    }
                    Value::Nums(Arc::new(
                        (a..=b)
                            .filter_map(|i| i64::try_from(i).ok().map(Num::int))
                            .collect(),
                    ))
                }
                (None, _) | (_, None) => Value::Undef,
                _ => {
                    return Err(self.fail(
                        e,
                        "tb::eval::type",
                        "integers(a, b) needs whole numbers".into(),
                        "round the bounds first, e.g. integers(floor(x), ceil(y))",
                    ))
                }
            },
            Func::Number => match args.first() {
                Some(Value::Num(n)) => Value::Num(*n),
                Some(Value::Str(t)) => Num::parse(t.trim()).map(Value::Num).unwrap_or(Value::Undef),
                Some(Value::Undef) | None => Value::Undef,
                Some(other) => return Err(self.type_err(e, "text or a number", other)),
            },
            Func::Sorted => {
                let l = self.list_arg(e, &args[0])?;
                let mut items: Vec<ListItem> = l.as_ref().clone();
                items.sort_by_key(|i| std::cmp::Reverse(i.value));
                Value::List(Arc::new(items))
            }
            Func::SortedByKey => {
                let l = self.list_arg(e, &args[0])?;
                let mut items: Vec<ListItem> = l.as_ref().clone();
                items.sort_by_key(|i| std::cmp::Reverse(i.key));
                Value::List(Arc::new(items))
            }
            Func::Deals => {
                let who: Vec<Pid> = match &args[0] {
                    Value::Part(p) => vec![*p],
                    Value::Parts(ps) => ps.to_vec(),
                    Value::Others(ps, me) => ps.iter().copied().filter(|q| q != me).collect(),
                    Value::Undef => Vec::new(),
                    other => {
                        return Err(self.type_err(
                            e,
                            "a participant or a set of participants",
                            other,
                        ))
                    }
                };
                let ev = self.event;
                let mut seen: std::collections::BTreeMap<(u32, u32), (Pid, u32, u32)> =
                    std::collections::BTreeMap::new();
                for p in who {
                    for (i, en) in ev.participants[p].entries.iter().enumerate() {
                        for (bi, bd) in en.boards().iter().enumerate() {
                            seen.entry((en.session, bd.number))
                                .or_insert((p, i as u32, bi as u32));
                        }
                    }
                }
                Value::Deals(Arc::new(seen.into_values().collect()))
            }
            Func::ScoreOn => match (&args[0], &args[1]) {
                (Value::Undef, _) | (_, Value::Undef) => Value::Undef,
                (Value::Part(p), Value::Board(q, i, bi)) => {
                    let ev = self.event;
                    let en = &ev.participants[*q].entries[*i as usize];
                    let key = (en.session, en.boards()[*bi as usize].number);
                    ev.participants[*p]
                        .entries
                        .iter()
                        .filter(|x| x.session == key.0)
                        .flat_map(|x| x.boards().iter())
                        .find(|b| b.number == key.1)
                        .map(|b| Value::Num(b.score))
                        .unwrap_or(Value::Undef)
                }
                (Value::Part(_), other) => return Err(self.type_err(e, "a board", other)),
                (other, _) => return Err(self.type_err(e, "a participant", other)),
            },
        })
    }

    pub(crate) fn field(&mut self, e: &PExpr, b: &Value, f: &Field) -> R<Value> {
        use BuiltinField as F;
        let ev = self.event;
        Ok(match b {
            Value::Undef => Value::Undef,
            Value::Entry(p, i) => {
                let en = &ev.participants[*p].entries[*i as usize];
                if let Some(flag) = f.builtin.and_then(|b| entry_flag(b, en)) {
                    return Ok(Value::Bool(flag));
                }
                if let Some(n) = f.builtin.and_then(|b| self.entry_number(b, *p, *i as usize)) {
                    return Ok(Value::Num(n));
                }
                match f.builtin {
                    Some(F::Opponent) => en.opponent.map(Value::Part).unwrap_or(Value::Undef),
                    Some(F::Partner) => en.partner.map(Value::Part).unwrap_or(Value::Undef),
                    Some(F::OpponentPartner) => self
                        .mirror(*p, *i as usize)
                        .and_then(|(q, j)| ev.participants[q].entries[j].partner)
                        .map(Value::Part)
                        .unwrap_or(Value::Undef),
                    Some(F::PointsAgainst) => self
                        .mirror(*p, *i as usize)
                        .map(|(q, j)| Value::Num(ev.participants[q].entries[j].points))
                        .unwrap_or(Value::Undef),
                    Some(F::Boards) if !self.has_boards => {
                        return Err(self.fail(
                            e,
                            "tb::eval::missing_data",
                            "the event's data has no boards (no game records board results)".into(),
                            "this criterion needs board-by-board results: give each game its `boards` (native format), or choose a criterion that does not use them",
                        ))
                    }
                    Some(F::Boards) => Value::Boards(*p, *i),
                    _ => {
                        let (name, against) = match f.name.strip_suffix("_against") {
                            Some(n) if ev.find_unit(n).is_some() => (n, true),
                            _ => (&*f.name, false),
                        };
                        match ev.find_unit(name) {
                            Some(u) => {
                                let v = if against { en.unit_against(u) } else { en.unit(u) };
                                v.map(Value::Num).unwrap_or(Value::Undef)
                            }
                            None => return Err(self.missing(e, "a round", &f.name, &ev.units)),
                        }
                    }
                }
            }
            Value::Part(p) => {
                let part = &ev.participants[*p];
                match f.builtin {
                    Some(F::Id) => Value::Str(Arc::from(part.id.as_str())),
                    Some(F::Rating) if !self.has_ratings => {
                        return Err(self.fail(
                            e,
                            "tb::eval::missing_data",
                            "the event's data has no ratings (no participant has one)".into(),
                            "give participants their ratings (TRF columns 49-52, native `rating`), or guard the use: `if p.rated then p.rating else undefined`",
                        ))
                    }
                    Some(F::Rating) => part.rating.map(|r| Value::Num(Num::int(r))).unwrap_or(Value::Undef),
                    Some(F::Rated) => Value::Bool(part.rating.is_some_and(|r| r > 0)),
                    Some(F::Score) => Value::Num(self.scores[*p]),
                    Some(F::Rounds) => Value::Entries(*p),
                    Some(F::Sessions) => Value::Nums(Arc::new(part.sessions.clone())),
                    Some(F::Withdrawn) => Value::Bool(part.withdrawn_after.is_some()),
                    _ => match part.values.get(&*f.name) {
                        Some(v) => Value::Num(*v),
                        None if ev.participants.iter().any(|q| q.values.contains_key(&*f.name)) => Value::Undef,
                        None => {
                            let known: Vec<String> = ev.participants.first().map(|q| q.values.keys().cloned().collect()).unwrap_or_default();
                            return Err(self.missing(e, "a participant", &f.name, &known));
                        }
                    },
                }
            }
            Value::Board(p, i, bi) => {
                let bd = &ev.participants[*p].entries[*i as usize].boards()[*bi as usize];
                match f.builtin {
                    Some(F::Number) => Value::Num(Num::int(bd.number as i64)),
                    Some(F::Score) => Value::Num(bd.score),
                    Some(F::Top) => bd.top.map(Value::Num).unwrap_or(Value::Undef),
                    Some(F::Session) => Value::Num(Num::int(
                        ev.participants[*p].entries[*i as usize].session as i64,
                    )),
                    Some(F::Played) => Value::Bool(bd.played),
                    _ => return Err(self.missing(e, "a board", &f.name, &[])),
                }
            }
            Value::Event => match f.builtin {
                Some(F::Rounds) => Value::Num(Num::int(ev.rounds as i64)),
                Some(F::Participants) => Value::Parts(self.all.clone()),
                Some(F::Swiss) => Value::Bool(ev.system == System::Swiss),
                Some(F::RoundRobin) => Value::Bool(ev.system == System::RoundRobin),
                Some(F::WinPoints) => Value::Num(ev.scoring.win),
                Some(F::DrawPoints) => Value::Num(ev.scoring.draw),
                Some(F::LossPoints) => Value::Num(ev.scoring.loss),
                Some(F::MaxScore) => self.arith(e, ev.scoring.win.mul(Num::int(ev.rounds as i64)))?,
                _ => match ev.values.get(&*f.name) {
                    Some(v) => Value::Num(*v),
                    None => {
                        let known: Vec<String> = ev.values.keys().cloned().collect();
                        return Err(self.missing(e, "the event", &f.name, &known));
                    }
                },
            },
            other => {
                return Err(self.fail(
                    e,
                    "tb::eval::type",
                    format!("`.{}` cannot be taken of {}", f.name, other.kind()),
                    "fields belong to rounds (`r.points`), participants (`o.score`), boards and `event`",
                ))
            }
        })
    }

    /// A numeric built-in field of entry `i` of participant `p` (`r.round`,
    /// `r.points`, ...); None for the other fields. The one definition of
    /// these fields, for both evaluators.
    pub(crate) fn entry_number(&self, f: BuiltinField, p: Pid, i: usize) -> Option<Num> {
        match f {
            BuiltinField::RunningScore => Some(self.running[self.entry_base[p] + i]),
            _ => entry_num(f, &self.event.participants[p].entries[i]),
        }
    }

    /// The opponent's side of entry `i` of participant `p`: the opponent's
    /// entry that names `p`, in the same round when there is one, else the
    /// one at the same position among their meetings (the n-th meeting of
    /// `p` with `q` is the n-th of `q` with `p`).
    fn mirror(&self, p: Pid, i: usize) -> Option<(Pid, usize)> {
        let entries = &self.event.participants.get(p)?.entries;
        let en = entries.get(i)?;
        let q = en.opponent?;
        let theirs = &self.event.participants.get(q)?.entries;
        if let Some(j) = theirs
            .iter()
            .position(|x| x.round == en.round && x.opponent == Some(p))
        {
            return Some((q, j));
        }
        let n = entries[..i]
            .iter()
            .filter(|x| x.opponent == Some(q))
            .count();
        let j = theirs
            .iter()
            .enumerate()
            .filter(|(_, x)| x.opponent == Some(p))
            .nth(n)?
            .0;
        Some((q, j))
    }

    fn missing(&self, e: &PExpr, of: &str, name: &str, known: &[String]) -> Box<EvalError> {
        let builtin: Vec<&str> = BuiltinField::ALL.iter().map(|(n, _)| *n).collect();
        let help = if known.is_empty() {
            format!(
                "the event's data has no `{name}`; built-in fields are: {}",
                builtin.join(", ")
            )
        } else {
            format!(
                "the event's data has: {}; built-in fields are: {}",
                known.join(", "),
                builtin.join(", ")
            )
        };
        self.fail(
            e,
            "tb::eval::missing_data",
            format!("{of} has no field or data value `{name}`"),
            &help,
        )
    }
}

impl Evaluator<'_> {
    /// Forget the cached values of the metrics not in `keep` that hold
    /// lists (the largest values); asked again, they are recomputed.
    pub(crate) fn drop_lists(&mut self, keep: &[bool]) {
        let freer = &self.freer;
        for (id, vals) in self.cache.iter_mut().enumerate() {
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

/// A number field of an entry that the entry alone gives (not the running
/// score, see [`Evaluator::entry_number`]); None for other fields. The one
/// definition of these fields, for both evaluators.
#[inline]
pub(crate) fn entry_num(f: BuiltinField, en: &crate::model::Entry) -> Option<Num> {
    use BuiltinField as F;
    Some(match f {
        F::Round => Num::int(en.round as i64),
        F::Session => Num::int(en.session as i64),
        F::Points => en.points,
        F::Weight => en.weight,
        _ => return None,
    })
}

/// An entry's true-or-false built-in field (`r.played`, `r.voluntary`,
/// ...); None for the other fields. The one definition of these fields, for
/// both evaluators.
pub(crate) fn entry_flag(f: BuiltinField, en: &crate::model::Entry) -> Option<bool> {
    entry_flag_of(f).map(|flag| flag(en))
}

/// The function reading true-or-false built-in field `f` of an entry; None
/// for the other fields. Chosen once, it reads every entry of an event
/// without matching the field again for each.
pub(crate) fn entry_flag_of(f: BuiltinField) -> Option<fn(&crate::model::Entry) -> bool> {
    use crate::model::{Entry, Outcome};
    use BuiltinField as F;
    Some(match f {
        F::Played => |en: &Entry| en.status.played(),
        F::Knockout => |en: &Entry| en.stage.knockout(),
        F::Qualification => |en: &Entry| en.stage == crate::model::Stage::Qualification,
        F::Unplayed => |en: &Entry| !en.status.played(),
        F::Forfeit => |en: &Entry| en.status.forfeit(),
        F::ForfeitWin => |en: &Entry| en.status == Status::ForfeitWin,
        F::ForfeitLoss => |en: &Entry| en.status == Status::ForfeitLoss,
        F::DoubleForfeit => |en: &Entry| en.status == Status::DoubleForfeit,
        F::Bye => |en: &Entry| en.status.bye(),
        F::PairingBye => |en: &Entry| en.status == Status::PairingBye,
        F::FullBye => |en: &Entry| en.status == Status::FullBye,
        F::HalfBye => |en: &Entry| en.status == Status::HalfBye,
        F::ZeroBye => |en: &Entry| en.status == Status::ZeroBye,
        F::Absent => |en: &Entry| en.status == Status::Absent,
        F::RequestedBye => |en: &Entry| en.status.requested_bye(),
        F::Voluntary => |en: &Entry| en.status.voluntary(),
        F::Win => |en: &Entry| en.outcome == Outcome::Win,
        F::Draw => |en: &Entry| en.outcome == Outcome::Draw,
        F::Loss => |en: &Entry| en.outcome == Outcome::Loss,
        F::HasOpponent => |en: &Entry| en.opponent.is_some(),
        F::First => |en: &Entry| en.side == Some(Side::First),
        F::Second => |en: &Entry| en.side == Some(Side::Second),
        _ => return None,
    })
}

/// Which metrics give the same value whoever they are evaluated for: their
/// bodies never read the participant (`me`, its rounds, sessions or fields,
/// `others`, or a metric of its own that does), only the event, the group,
/// parameters, arguments and other participants' values. E.g. FIDE's "every
/// participant is rated" (Art. 10) or "all the tied players have met" (6.2).
fn same_for_everyone(rs: &Ruleset) -> Vec<bool> {
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
struct GroupCache {
    group: Option<Arc<Vec<Pid>>>,
    values: std::collections::HashMap<(MetricId, Pid), Vec<ArgsAndValue>>,
}

/// A criterion's arguments and its value for them.
type ArgsAndValue = (Vec<Value>, Value);

impl GroupCache {
    fn get(&self, g: &Arc<Vec<Pid>>, id: MetricId, p: Pid, args: &[Value]) -> Option<Value> {
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
    fn put(&mut self, g: &Arc<Vec<Pid>>, id: MetricId, p: Pid, args: Vec<Value>, v: Value) {
        if !self.group.as_ref().is_some_and(|h| Arc::ptr_eq(h, g)) {
            self.values.clear();
            self.group = Some(g.clone());
        }
        self.values.entry((id, p)).or_default().push((args, v));
    }
}

/// The running state of an aggregate (`sum`, `count`, `all`, ...) over
/// the items of a generator; the per-participant and the columnar
/// evaluators both fold items through it, so they agree by construction.
pub(crate) struct Acc {
    agg: Agg,
    acc: Option<Num>,
    count: i64,
    undef: bool,
    inf: bool,
    truth: bool,
}

impl Acc {
    pub(crate) fn new(agg: Agg) -> Acc {
        Acc {
            agg,
            acc: None,
            count: 0,
            undef: false,
            inf: false,
            truth: matches!(agg, Agg::All),
        }
    }

    /// Add one item (`e` is the aggregate, `g` its generator). True when the
    /// result is decided (`all` met a false, `any` a true): later items
    /// would not change it and are not evaluated.
    pub(crate) fn push(&mut self, ev: &Evaluator, e: &PExpr, g: &PGen, v: Value) -> R<bool> {
        match self.agg {
            // An undefined item is not known to count (nor, below, to be
            // true or false): the result is undefined unless decided.
            Agg::Count => match v {
                Value::Bool(false) => {}
                Value::Undef => self.undef = true,
                _ => self.count += 1,
            },
            Agg::All | Agg::Any => {
                let b = match v {
                    Value::Bool(b) => b,
                    Value::Undef => {
                        self.undef = true;
                        return Ok(false);
                    }
                    other => return Err(ev.type_err(&g.elem, "true or false", &other)),
                };
                if self.agg == Agg::All {
                    self.truth &= b;
                } else {
                    self.truth |= b;
                }
                return Ok(self.truth != (self.agg == Agg::All));
            }
            Agg::Sum | Agg::Mean | Agg::Min | Agg::Max => {
                let n = match v {
                    Value::Num(n) => n,
                    Value::Undef => {
                        self.undef = true;
                        return Ok(false);
                    }
                    Value::Inf if matches!(self.agg, Agg::Min | Agg::Max) => {
                        self.inf = true;
                        self.count += 1;
                        return Ok(false);
                    }
                    other => return Err(ev.type_err(&g.elem, "a number", &other)),
                };
                self.push_num(ev, e, n)?;
            }
        }
        Ok(false)
    }

    /// Add a number to a `sum`, `mean`, `min` or `max` (the arm of
    /// [`Acc::push`] for a number, for callers that hold one).
    #[inline]
    pub(crate) fn push_num(&mut self, ev: &Evaluator, e: &PExpr, n: Num) -> R<()> {
        debug_assert!(matches!(
            self.agg,
            Agg::Sum | Agg::Mean | Agg::Min | Agg::Max
        ));
        self.count += 1;
        self.acc = Some(match (self.acc, self.agg) {
            (None, _) => n,
            (Some(a), Agg::Min) => a.min(n),
            (Some(a), Agg::Max) => a.max(n),
            (Some(a), _) => a.add(n).map_err(|_| {
                ev.fail(
                    e,
                    "tb::eval::overflow",
                    "a sum grew too large to hold exactly".into(),
                    "",
                )
            })?,
        });
        Ok(())
    }

    /// An item whose membership is unknown (its `where` is undefined):
    /// the result is undefined unless `all`/`any` is decided without it.
    pub(crate) fn unknown_item(&mut self) {
        self.undef = true;
    }

    /// The aggregate's value.
    pub(crate) fn finish(self, ev: &Evaluator, e: &PExpr) -> R<Value> {
        Ok(match self.agg {
            // Kleene: `all` is false once an item is false, `any` true once
            // one is true, whatever the undefined items would be.
            Agg::All if !self.truth => Value::Bool(false),
            Agg::Any if self.truth => Value::Bool(true),
            _ if self.undef => Value::Undef,
            Agg::Count => Value::Num(Num::int(self.count)),
            Agg::All | Agg::Any => Value::Bool(self.truth),
            Agg::Max if self.inf => Value::Inf,
            Agg::Min if self.inf && self.acc.is_none() => Value::Inf,
            Agg::Sum => Value::Num(self.acc.unwrap_or(Num::ZERO)),
            Agg::Mean => match self.acc {
                None => Value::Undef,
                Some(s) => ev.arith(e, s.div(Num::int(self.count)))?,
            },
            _ => self.acc.map(Value::Num).unwrap_or(Value::Undef),
        })
    }
}

/// `a and b` (`and`) or `a or b` over truths that may be undefined (None),
/// by Kleene's three-valued logic.
pub(crate) fn logic(and: bool, a: Option<bool>, b: Option<bool>) -> Value {
    match (a, b) {
        (Some(x), _) | (_, Some(x)) if x != and => Value::Bool(x),
        (Some(_), Some(_)) => Value::Bool(and),
        _ => Value::Undef,
    }
}

fn values_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Num(x), Value::Num(y)) => x == y,
        _ => a == b,
    }
}

/// Remove the least significant item, with FIDE 16.5's exception: when some
/// items come from voluntarily unplayed rounds, the lowest of those is cut
/// instead, as long as it is not lower than the least significant value
/// (i.e. the higher of the two contributions is cut; 16.5.1).
pub fn cut_least_significant(items: &mut Vec<ListItem>) {
    if items.is_empty() {
        return;
    }
    // Least significant: lowest key; among equal keys, the lowest value (14.1.1(d)).
    let mut lsv = 0;
    for (i, it) in items.iter().enumerate() {
        let b = &items[lsv];
        if (it.key, it.value) < (b.key, b.value) {
            lsv = i;
        }
    }
    let mut cut = lsv;
    let vur = items
        .iter()
        .enumerate()
        .filter(|(_, it)| it.voluntary)
        .min_by(|(_, a), (_, b)| a.value.cmp(&b.value))
        .map(|(i, _)| i);
    if let Some(v) = vur {
        if items[v].value >= items[lsv].value {
            cut = v;
        }
    }
    items.remove(cut);
}

/// Remove the most significant item: highest key; among equal keys, the highest value.
pub fn cut_most_significant(items: &mut Vec<ListItem>) {
    if items.is_empty() {
        return;
    }
    let mut best = 0;
    for (i, it) in items.iter().enumerate() {
        let b = &items[best];
        if (it.key, it.value) > (b.key, b.value) {
            best = i;
        }
    }
    items.remove(best);
}

/// The value of the metric `name` for the participant with id `id` (for tests and tools).
pub fn metric_value(event: &Event, rs: &Ruleset, name: &str, id: &str) -> Result<Value, Diag> {
    let p = event.find(id).ok_or_else(|| {
        Diag::error(
            "tb::eval::unknown_participant",
            format!("no participant `{id}`"),
        )
    })?;
    let Some(m) = rs.metrics.iter().position(|m| m.name == name) else {
        // A built-in participant field such as `score` or `rating`.
        let builtin = BuiltinField::by_name(name).ok_or_else(|| {
            Diag::error(
                "tb::eval::unknown_metric",
                format!("the ruleset has no metric `{name}`"),
            )
        })?;
        let at = PExpr {
            kind: PKind::Field(
                Box::new(PExpr {
                    kind: PKind::Builtin(Builtin::Me),
                    span: Span::default(),
                    file: 0,
                }),
                Field {
                    name: Arc::from(name),
                    builtin: Some(builtin),
                },
            ),
            span: Span::default(),
            file: 0,
        };
        let mut ev = Evaluator::new(event, rs)?;
        let mut env = Env {
            me: Some(p),
            locals: Vec::new(),
            group: None,
        };
        return ev.eval(&at, &mut env).map_err(|e| e.to_diag(rs));
    };
    if rs.metrics[m].arity > 0 || rs.metrics[m].group_relative {
        return Err(Diag::error(
            "tb::eval::not_a_plain_metric",
            format!("`{name}` takes arguments or needs a tied group"),
        ));
    }
    let mut ev = Evaluator::new(event, rs)?;
    let at = rs.metrics[m].body.clone();
    ev.metric(m, p, Vec::new(), None, &at)
        .map_err(|e| e.to_diag(rs))
}
