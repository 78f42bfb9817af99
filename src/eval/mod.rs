//! The evaluation stage: exact values of a ruleset's metrics and steps over one event, each zero-argument metric computed once per participant.
//!
//! Comes in: a checked [`Ruleset`] (from `check`, see [`crate::plan`]) and
//! an [`Event`] (from `load`). Goes out: [`Value`]s for `rank`, `render`
//! and `why`, and [`EvalError`]s pointing into the ruleset. May import
//! `plan`, `model`, `num`, `diag`, `par` and the AST's operators; never
//! `check`, `load`, `rank` or `render`.
//!
//! - `value`: the values and how a step compares them;
//! - `reference`: the reference evaluator, node by node for one participant;
//! - `loops`: generators, aggregates and lists;
//! - `builtins`: the built-in functions (their rows: [`crate::plan::builtins`]);
//! - `fields`: the built-in fields and data values;
//! - `cache`: the caches, and what may be cached;
//! - `group`: the fast path of aggregates comparing a member with the
//!   others of its tied group (sorted once per group);
//! - `columnar`: the fast path, a metric for a block of participants at once;
//! - [`why`]: why a value is undefined;
//! - [`detail`]: the parts of a value, for `tb explain --detail`.

use crate::codes;
mod builtins;
mod cache;
pub(crate) mod columnar;
pub mod detail;
mod fields;
mod group;
mod loops;
mod reference;
mod tally;
mod value;
pub mod why;

pub use builtins::{cut_least_significant, cut_most_significant};
pub use group::GROUP_FORMS_FROM;
pub use value::{compare_values, ListItem, Value};

use crate::diag::{Diag, Span};
use crate::model::{Event, Participant, Pid};
use crate::num::Num;
use crate::par;
use crate::plan::*;
use cache::Caches;
use std::sync::Arc;

/// Most numbers `integers(a, b)` may produce.
pub const MAX_INTEGERS: i128 = 1_000_000;

/// A condition that must be true or false to go on is undefined.
pub const UNDEFINED_CONDITION: &str = codes::EVAL_UNDEFINED_CONDITION;

/// Deepest nesting of expression evaluations, through metrics using
/// metrics: deeper is an error (the stack itself grows as needed).
pub const MAX_EVAL_DEPTH: usize = 2_000;

/// Evaluation work allowed on any event: expression evaluations (and items
/// handled by cuts and sorts). With [`EVAL_WORK_PER_CELL`] and
/// [`EVAL_WORK_MAX`] it bounds the time a ruleset can take, whatever its
/// loops and metric arguments multiply to.
pub const EVAL_WORK_BASE: u64 = 5_000_000;
/// Further evaluation work allowed per participant-round of the event, up
/// to [`EVAL_WORK_MAX`]: a small event may still compare every member of a
/// large tie with every other where no faster form applies.
pub const EVAL_WORK_PER_CELL: u64 = 20_000;
/// The most evaluation work allowed on any event, however large, on each
/// of the two paths (the columnar one has its own budget, see
/// `Budget::col_fuel`): a ruleset that would do more is stopped with
/// `too_costly` after seconds (docs/errors.md, "Limits"), not minutes.
/// The heaviest shipped ruleset on the largest events uses under two
/// thirds of it: `fide/swiss` at 100,000 × 15 (1,500,000
/// participant-rounds), 89 million on the columnar path and 49 million on
/// the other; a 50 MiB file holds about 1,950,000.
pub const EVAL_WORK_MAX: u64 = 150_000_000;
/// Most items a list `[...]` may hold.
pub const MAX_LIST_ITEMS: usize = 1_000_000;

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
type R<T> = Result<T, Box<EvalError>>;

/// Per-evaluation environment: who "me" is, local slots, the tied group.
#[derive(Clone, Debug)]
pub struct Env {
    /// The participant being evaluated.
    pub me: Option<Pid>,
    /// Local slots.
    pub locals: Vec<Value>,
    /// The tied group, for criteria.
    pub group: Option<Arc<Vec<Pid>>>,
    /// The places the tied group occupies, first and last (a step's
    /// `when`: `first_place`, `last_place`).
    pub places: Option<(usize, usize)>,
}

impl Env {
    /// The environment metric `m`'s body is evaluated in for `me`: its
    /// arguments in the first local slots, the rest undefined, and the
    /// tied group only where `m` is a criterion.
    #[inline]
    pub fn for_metric(
        m: &crate::plan::Metric,
        me: Option<Pid>,
        mut args: Vec<Value>,
        group: Option<Arc<Vec<Pid>>>,
    ) -> Env {
        args.resize(m.slots.max(args.len()), Value::Undef);
        Env {
            me,
            locals: args,
            group: if m.group_relative { group } else { None },
            places: None,
        }
    }
}

/// Evaluates a ruleset's expressions over one event.
pub struct Evaluator<'a> {
    /// The event.
    pub event: &'a Event,
    /// The ruleset.
    pub rs: &'a Ruleset,
    /// What the event and the ruleset give before anything is evaluated:
    /// one handle, shared by every fork.
    tables: Arc<Tables>,
    /// Values computed so far.
    caches: Caches,
    /// The rounds' built-in fields in columns, block by block, made as
    /// first needed and shared by every fork (see
    /// [`crate::eval::columnar::FieldCols`]); the ranking reads its blocks.
    pub(crate) fields: Arc<columnar::FieldCols>,
    /// Per metric: its body's form if it counts meetings with a
    /// participant (see [`tally`]).
    tally_forms: Arc<Vec<Option<tally::Form<'a>>>>,
    /// Work and nesting left.
    budget: Budget,
    /// Whether metrics may be computed in columns (else only per participant).
    pub columnar: bool,
    /// The smallest tied group whose aggregates over `others` and `group`
    /// take the sorted path of [`group`] (where `columnar` is set); the
    /// tests lower it to compare that path with the loop on small groups.
    pub group_forms_from: usize,
    /// Threads columnar computations may use (1: only the calling one).
    /// More threads never change a value: each computes its own blocks of
    /// participants with a fork of this evaluator.
    pub threads: usize,
    /// Threads waiting to compute columns with this evaluator (a ranking
    /// starts them); None: each computation starts its own. Forks have none.
    pub(crate) workers: Option<columnar::Workers<'a>>,
    /// A thread that frees the lists [`Evaluator::drop_lists`] lets go of
    /// (a ranking starts it); None: they are freed here. Forks have none.
    pub(crate) freer: Option<std::sync::mpsc::Sender<Arc<Vec<Option<Value>>>>>,
}

/// What the evaluator reads of the event and the ruleset that they alone
/// give: computed once when it starts and never changed.
struct Tables {
    /// Total score per participant.
    scores: Vec<Num>,
    /// Each participant's rating, in a table of its own: columns read the
    /// ratings of every round's opponent, and the participants themselves
    /// are large records scattered in memory.
    ratings: Vec<Option<i64>>,
    /// Score after each entry: every participant's entries in turn, a
    /// participant's from `entry_base[p]` (one table, not one per participant).
    running: Vec<Num>,
    /// Index of each participant's first entry among all entries.
    entry_base: Vec<usize>,
    /// Every participant (`event.participants`).
    all: Arc<Vec<Pid>>,
    /// Whether any participant has a rating, any entry boards: a ruleset
    /// asking for data the event does not have at all gets an error.
    has_ratings: bool,
    has_boards: bool,
    /// Per metric: the same value for every participant (see
    /// [`cache::same_for_everyone`]), so computed once, not once per participant.
    same: Vec<bool>,
}

/// How much more an evaluator may do. A fork starts with what is left
/// here; [`Evaluator::absorb_fuel`] charges what it used.
#[derive(Clone, Copy)]
struct Budget {
    /// Evaluation work left (see [`EVAL_WORK_BASE`]).
    fuel: u64,
    /// The columnar path's own work left, so that trying it never leaves
    /// the per-participant evaluator less of its budget.
    col_fuel: u64,
    /// Expression evaluations under way (nested), against [`MAX_EVAL_DEPTH`].
    depth: usize,
    /// Columnar computations under way (nested), against their own limit.
    col_nest: usize,
}

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
                    codes::EVAL_OVERFLOW,
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
        Evaluator::with_threads(event, rs, par::default_threads())
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
        let mid = if par::pays(cells, threads) {
            ps.len() / 2
        } else {
            ps.len()
        };
        let split = entry_base.get(mid).copied().unwrap_or(cells);
        let (run_a, run_b) = running.split_at_mut(split);
        let (sc_a, sc_b) = scores.split_at_mut(mid);
        let (ps_a, ps_b) = ps.split_at(mid);
        let (a, b) = if ps_b.is_empty() {
            (running_scores(ps_a, run_a, sc_a), Ok(false))
        } else {
            par::join(
                || running_scores(ps_a, run_a, sc_a),
                || running_scores(ps_b, run_b, sc_b),
            )
        };
        // The first half's error first, as one pass would meet them.
        let has_boards = a? | b?;
        let cells = cells as u64;
        let fuel = EVAL_WORK_BASE.saturating_add(cells.saturating_mul(EVAL_WORK_PER_CELL));
        let fuel = fuel.min(EVAL_WORK_MAX);
        let tables = Tables {
            scores,
            ratings: ps.iter().map(|p| p.rating).collect(),
            running,
            entry_base,
            all: Arc::new((0..ps.len()).collect()),
            has_ratings: ps.iter().any(|p| p.rating.is_some()),
            has_boards,
            same: cache::same_for_everyone(rs),
        };
        Ok(Evaluator {
            event,
            rs,
            tables: Arc::new(tables),
            caches: Caches::new(rs.metrics.len()),
            fields: Arc::new(columnar::FieldCols::new(event)),
            tally_forms: Arc::new(rs.metrics.iter().map(tally::form).collect()),
            budget: Budget {
                fuel,
                col_fuel: fuel,
                depth: 0,
                col_nest: 0,
            },
            columnar: true,
            group_forms_from: GROUP_FORMS_FROM,
            threads,
            workers: None,
            freer: None,
        })
    }

    /// A copy of this evaluator for another thread, for columnar work
    /// under way (see [`crate::eval::columnar`]): it shares the event, the
    /// ruleset, the tables and every value cached so far, and starts its
    /// own caches of per-round and group values (caches only: what it
    /// computes is what this evaluator would). It works on one thread and
    /// with the budget left here; [`Evaluator::absorb_fuel`] charges what
    /// it used.
    fn fork(&self) -> Evaluator<'a> {
        Evaluator {
            event: self.event,
            rs: self.rs,
            tables: self.tables.clone(),
            caches: self.caches.fork(),
            fields: self.fields.clone(),
            tally_forms: self.tally_forms.clone(),
            budget: self.budget,
            columnar: self.columnar,
            group_forms_from: self.group_forms_from,
            threads: 1,
            workers: None,
            freer: None,
        }
    }

    /// Charge this evaluator with the work its forks did (each started
    /// with the budget left here).
    fn absorb_fuel(&mut self, forks: &[Evaluator]) {
        let fuel = self.budget.fuel;
        let used: u64 = forks
            .iter()
            .map(|f| fuel.saturating_sub(f.budget.fuel))
            .sum();
        self.budget.fuel = fuel.saturating_sub(used);
    }

    /// How many entries participant `p` has, from the table of first
    /// entries: every columnar computation asks this of every participant,
    /// and a participant's own record (hundreds of bytes each) is long out
    /// of cache in a large event (at 100,000 × 15 reading it cost more
    /// than the rest of making the blocks).
    fn entry_count(&self, p: Pid) -> usize {
        let t = &*self.tables;
        let first = t.entry_base[p];
        let end = t.entry_base.get(p + 1).copied().unwrap_or(t.running.len());
        end - first
    }
}

/// The value of the metric `name` for the participant with id `id` (for tests and tools).
pub fn metric_value(event: &Event, rs: &Ruleset, name: &str, id: &str) -> Result<Value, Diag> {
    let p = event.find(id).ok_or_else(|| {
        Diag::error(
            codes::EVAL_UNKNOWN_PARTICIPANT,
            format!("no participant `{id}`"),
        )
    })?;
    let Some(m) = rs.metrics.iter().position(|m| m.name == name) else {
        // A built-in participant field such as `score` or `rating`.
        let builtin = BuiltinField::by_name(name).ok_or_else(|| {
            Diag::error(
                codes::EVAL_UNKNOWN_METRIC,
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
            places: None,
        };
        return ev.eval(&at, &mut env).map_err(|e| e.to_diag(rs));
    };
    if !rs.metrics[m].params.is_empty() || rs.metrics[m].group_relative {
        return Err(Diag::error(
            codes::EVAL_NOT_A_PLAIN_METRIC,
            format!("`{name}` takes arguments or needs a tied group"),
        ));
    }
    let mut ev = Evaluator::new(event, rs)?;
    let at = rs.metrics[m].body.clone();
    ev.metric(m, p, Vec::new(), None, &at)
        .map_err(|e| e.to_diag(rs))
}
