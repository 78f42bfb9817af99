//! Runs a ruleset's procedures over an event: ordered standings, shared places, and a trace of every decision.
//!
//! A procedure is applied to a group of participants. Each step computes a
//! value per member and splits the group by it. A group the step does not
//! split goes on to the next step; the sub-groups of a split go where the
//! step's hand-off says: on to the next step (`continue`), back to the first
//! step (`restart`), this step again (`repeat`), or to another procedure
//! chosen by the sub-group's size. An explicit work stack keeps the native
//! stack flat however many hand-offs a large tie takes.
//!
//! In: an [`Event`] and a checked [`Ruleset`]; out: [`Standings`] (rows in
//! final order, the columns' values, the trace with typed hand-offs
//! [`HandOff`], undefined values that decided places). It evaluates through
//! `crate::eval` and may not import `render`, `load` or `syntax::descriptors`.
//! Children: `ties` (the ranking's steps in order: the columns computed
//! for everyone, the tied groups broken, the rows numbered and filled),
//! `steps` (a step's values and the split of a group), `ends`
//! (what ends a procedure; the columns), `undefined` (undefined values and
//! why), `places` (columns a step marks `places`, printed as places in the
//! tied group).

use crate::codes;
use crate::diag::Diag;
use crate::eval::{compare_values, Env, EvalError, Evaluator, Value};
use crate::model::{Event, Pid};
use crate::num::Num;
use crate::plan::{MetricId, PAction, PExpr, PKind, PStep, ProcId, Ruleset};
use crate::syntax::ast::{Direction, EndKind, Select};
use std::cmp::Ordering;
use std::sync::Arc;

pub mod categories;
mod ends;
pub mod places;
pub mod progress;
mod steps;
mod ties;
mod undefined;

pub use ends::natural_cmp;
use ends::{columns, end};
use steps::{split, step_error, StepValues};
use undefined::{mark_metrics, UndefinedLog};

/// Options for a ranking run.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Seed for drawing of lots; without one, lots are reported unresolved.
    pub lots_seed: Option<u64>,
    /// Evaluate every metric participant by participant (the reference
    /// evaluator), without the columnar path of [`crate::eval::columnar`]: the
    /// tests compare the two.
    pub per_participant: bool,
    /// Threads the evaluation may use; None: by the event's size
    /// ([`crate::par::threads_for`]: one for a small event, else one per
    /// core, at most 8).
    /// Standings, values and explanations never depend on it.
    pub threads: Option<usize>,
    /// Trace why a value is undefined only where it decided a place (the
    /// warning names it); the others are listed without a reason. For an
    /// output that prints no notes (CSV): tracing 200 reasons through the
    /// reference evaluator was a quarter of a small event's run.
    pub only_deciding_reasons: bool,
    /// Rank only these participants (a category ranked among its members,
    /// `rerank`); None: everyone. The others' values are still computed
    /// where a member's value needs them (an opponent's score).
    pub among: Option<Vec<Pid>>,
    /// Rank with this procedure instead of the ruleset's `standings`
    /// (a category's `rerank by p`).
    pub procedure: Option<ProcId>,
    /// The smallest tied group whose aggregates comparing a member with the
    /// others are computed from the group's values sorted once (None:
    /// [`crate::eval::GROUP_FORMS_FROM`]); the tests lower it. Values never
    /// depend on it.
    pub group_forms_from: Option<usize>,
}

/// One output column: a step's label and how to show it.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// Label (the step's `as`, the metric's label, or its text).
    pub label: String,
    /// Article.
    pub cite: Option<String>,
    /// Decimals to show.
    pub decimals: Option<u32>,
    /// Computed among a tied group (shown only where it was used).
    pub group_relative: bool,
    /// Which way the step ranks (printed as "higher is better" / "lower is better").
    pub dir: Direction,
    /// Written `reversed`: against its definition's declared direction.
    pub reversed: bool,
    /// Written `places` (FIDE prints Direct Encounter so): a place in the
    /// group tied when the step was reached, after every re-application (0:
    /// not separated there), set by [`places::apply`]. Otherwise a group-relative
    /// column shows the value of the participant's last application (the
    /// smallest tied group it was computed in), as `explain` shows it last.
    pub places: bool,
    /// (procedure, step) it comes from.
    pub origin: (ProcId, usize),
}

/// Why a participant's place was fixed.
#[derive(Clone, Debug, PartialEq)]
pub struct Decided {
    /// The procedure.
    pub procedure: String,
    /// The step's label, or the end's description.
    pub criterion: String,
    /// Article.
    pub cite: Option<String>,
}

/// A row of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Participant index.
    pub pid: Pid,
    /// Place, equal for shared places.
    pub rank: usize,
    /// Value per column (None where undefined or not computed).
    pub values: Vec<Value>,
    /// The criterion that separated this participant from those tied with it.
    /// (Shared: everyone a step separated carries the same decision.)
    pub decided_by: Option<Arc<Decided>>,
    /// Set when the place is shared because the rules could not break the tie.
    pub unresolved: Option<String>,
}

/// What a step did to a group.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// The condition did not hold.
    Skipped,
    /// Every member had the same value.
    NotSplit,
    /// The group split into these ordered sub-groups.
    Split(Vec<Vec<Pid>>),
}

/// One entry of the trace.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceStep {
    /// Procedure name.
    pub procedure: String,
    /// Step label, or `end`.
    pub criterion: String,
    /// Article.
    pub cite: Option<String>,
    /// The tied group the step was applied to.
    pub group: Vec<Pid>,
    /// Each member's value.
    pub values: Vec<(Pid, Value)>,
    /// Decimals for display.
    pub decimals: Option<u32>,
    /// Which way the step ranks; `None` for the end of a procedure.
    pub dir: Option<Direction>,
    /// What happened.
    pub outcome: Outcome,
    /// Where each sub-group still tied went.
    pub handoffs: Vec<(Vec<Pid>, HandOff)>,
    /// The procedure applied (its documentation, end and steps: `explain`).
    pub proc_id: ProcId,
    /// The step applied, by index in the procedure; None for its end.
    pub step: Option<usize>,
}

/// Where a step sent a sub-group still tied (the step's `then`), as a
/// value: readers of the trace match on it; its text (`Display`) is what
/// `tb explain` prints.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandOff {
    /// On to the next step (`then continue`).
    Continue,
    /// Back to the first step of the procedure named (`then restart`).
    Restart(String),
    /// The same step again, among the sub-group (`then repeat`).
    Repeat,
    /// To the procedure named.
    Procedure(String),
}

impl std::fmt::Display for HandOff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HandOff::Continue => f.write_str("continue"),
            HandOff::Restart(p) => write!(f, "restart {p}"),
            HandOff::Repeat => f.write_str("repeat this step"),
            HandOff::Procedure(p) => write!(f, "procedure {p}"),
        }
    }
}

/// A hand-off equals the text `tb explain` prints for it.
impl PartialEq<str> for HandOff {
    fn eq(&self, other: &str) -> bool {
        match self {
            HandOff::Continue => other == "continue",
            HandOff::Repeat => other == "repeat this step",
            HandOff::Restart(p) => other.strip_prefix("restart ") == Some(p.as_str()),
            HandOff::Procedure(p) => other.strip_prefix("procedure ") == Some(p.as_str()),
        }
    }
}

impl PartialEq<&str> for HandOff {
    fn eq(&self, other: &&str) -> bool {
        self == *other
    }
}

/// A step value that was undefined for a participant when the step was
/// applied, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct Undefined {
    /// The participant.
    pub pid: Pid,
    /// The step's label.
    pub criterion: String,
    /// Article.
    pub cite: Option<String>,
    /// Why, in words ("`imps_won`: round 3 against Finesse (F): no `imps`
    /// recorded"); None past [`MAX_REASONS`] (counted, not explained).
    pub reason: Option<String>,
    /// The cause alone, the last part of `reason` ("no `imps` recorded").
    pub cause: Option<String>,
    /// The step split the group and placed this participant after members
    /// whose value was defined: the missing value decided its place.
    pub decided: bool,
}

/// Most undefined values explained in one ranking: each reason walks the
/// step's definition again, so an event with thousands of them (every
/// rating tie-break dropped) is explained for the first ones and counted.
pub const MAX_REASONS: usize = 200;

impl Standings {
    /// Whether row `i` shares its place. Rows are in rank order, so a
    /// shared place has a neighbour with the same rank (constant time).
    pub fn is_shared(&self, i: usize) -> bool {
        let r = self.rows[i].rank;
        (i > 0 && self.rows[i - 1].rank == r) || self.rows.get(i + 1).is_some_and(|x| x.rank == r)
    }
}

/// The result of ranking an event.
#[derive(Clone, Debug)]
pub struct Standings {
    /// Rows in final order.
    pub rows: Vec<Row>,
    /// Columns of `rows[i].values`.
    pub columns: Vec<Column>,
    /// Every step applied, in order.
    pub trace: Vec<TraceStep>,
    /// Seed used for lots, if any.
    pub lots_seed: Option<u64>,
    /// Step values that were undefined where a step was applied, in the
    /// order met, then the other undefined values of the columns (a
    /// participant and criterion once; past [`MAX_REASONS`] only those that
    /// decided a place are kept, the others counted in `undefined_more`).
    pub undefined: Vec<Undefined>,
    /// Undefined column values not listed in `undefined`.
    pub undefined_more: usize,
}

struct Task {
    proc_id: ProcId,
    group: Vec<Pid>,
    step: usize,
    /// Procedures this same (unsplit) group was handed to already: a hand-off
    /// of an unsplit group never returns to one of them, so it cannot loop.
    via: Vec<ProcId>,
}

impl Task {
    fn new(proc_id: ProcId, group: Vec<Pid>, step: usize) -> Task {
        Task {
            proc_id,
            group,
            step,
            via: Vec::new(),
        }
    }
}

/// A block of the final order: members and how their order was fixed.
struct Block {
    members: Vec<Pid>,
    decided_by: Option<Arc<Decided>>,
    unresolved: Option<String>,
}

/// Most steps one ranking may apply (a guard against pathological rulesets).
pub const MAX_STEPS: usize = 10_000_000;
/// Most participant-steps (a step applied to a group counts its members)
/// one ranking may apply: the trace keeps each, so this bounds its memory
/// when a huge tie meets a ruleset with very many steps.
pub const MAX_MEMBER_STEPS: usize = 25_000_000;

/// The participants (in the order given) in one group per field, fields in
/// increasing order and participants without a field last; one group of
/// everyone when no participant has a field. Each group is ranked on its
/// own: a two-winner movement's North-South and East-West pairs are never
/// compared (`Participant::field`).
fn field_groups(event: &Event, everyone: Vec<Pid>) -> Vec<Vec<Pid>> {
    if event.participants.iter().all(|p| p.field().is_none()) {
        return vec![everyone];
    }
    let mut keys: Vec<Option<crate::num::Num>> =
        event.participants.iter().map(|p| p.field()).collect();
    keys.sort_by(|a, b| match (a, b) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    });
    keys.dedup();
    keys.into_iter()
        .map(|k| {
            everyone
                .iter()
                .copied()
                .filter(|&p| event.participants[p].field() == k)
                .collect()
        })
        .collect()
}

/// How many participants of the current field the blocks placed so far
/// hold: the group a task holds comes next in the final order (the best
/// sub-group is always handled first), so its first place is one more.
#[derive(Default)]
struct Placed {
    /// Blocks counted so far.
    blocks: usize,
    /// The field of the last block counted.
    field: Option<crate::num::Num>,
    /// Participants placed in that field.
    count: usize,
}

impl Placed {
    /// The first place of the group whose first member is `p` (places start
    /// again at 1 in each field, as the rows are numbered).
    fn first_place(&mut self, blocks: &[Block], event: &Event, p: Pid) -> usize {
        for b in &blocks[self.blocks..] {
            let f = b
                .members
                .first()
                .and_then(|&m| event.participants[m].field());
            if f != self.field {
                self.field = f;
                self.count = 0;
            }
            self.count += b.members.len();
        }
        self.blocks = blocks.len();
        if event.participants[p].field() != self.field {
            return 1;
        }
        self.count + 1
    }
}

/// Rank the event with the ruleset's `standings` procedure.
pub fn rank(event: &Event, rs: &Ruleset, opts: &Options) -> Result<Standings, Diag> {
    let main = opts.procedure.or(rs.standings).ok_or_else(|| {
        Diag::error(
            codes::EVAL_NO_STANDINGS,
            "this ruleset has no `standings` line, so it cannot rank an event",
        )
        .with_help(
            "it is a library: import it from a ruleset that ends with `standings <procedure>`",
        )
    })?;
    let size = event.participants.iter().map(|p| p.entries.len()).sum();
    let threads = opts
        .threads
        .unwrap_or_else(|| crate::par::threads_for(size));
    let mut ev = Evaluator::with_threads(event, rs, threads)?;
    ev.columnar = !opts.per_participant;
    if let Some(k) = opts.group_forms_from {
        ev.group_forms_from = k;
    }
    // The threads computing columns wait through the whole ranking for
    // each computation (an event of one block has nothing to share).
    let keep_workers = ev.columnar && ev.threads > 1 && ev.fields.spans.len() > 2;
    std::thread::scope(|scope| {
        if keep_workers {
            ev.workers = Some(crate::eval::columnar::Workers::start(scope, ev.threads - 1));
            // Lists the ranking no longer needs are freed on a thread of
            // their own (see `Evaluator::drop_lists`); without one, here.
            let (tx, rx) = std::sync::mpsc::channel::<Arc<Vec<Option<Value>>>>();
            let freer =
                std::thread::Builder::new().spawn_scoped(scope, move || rx.iter().for_each(drop));
            if freer.is_ok() {
                ev.freer = Some(tx);
            }
        }
        // `ev` ends inside the scope, and with it the workers.
        ties::standings(ev, event, rs, opts, main)
    })
}

/// A column (and a step of the account) with no `decimals` of its own
/// shows fractions with the places the file writes its scores with
/// (USEBIO's `50.80`, not `50.8`), where every number in it is held exactly
/// in that many places and one is not whole (a count stays `30`). Only
/// files that say (`score_places`).
fn show_score_places(event: &Event, columns: &mut [Column], rows: &[Row], trace: &mut [TraceStep]) {
    let Some(places) = event.score_places else {
        return;
    };
    let scale = Num::int(10i64.pow(places.min(12)));
    let fits = |values: &mut dyn Iterator<Item = &Value>| {
        let (mut all_held, mut fraction) = (true, false);
        for v in values {
            if let Value::Num(n) = v {
                all_held &= n.mul(scale).is_ok_and(|x| x.is_integer());
                fraction |= !n.is_integer();
            }
        }
        all_held && fraction
    };
    for (ci, c) in columns.iter_mut().enumerate() {
        if c.decimals.is_none() && fits(&mut rows.iter().filter_map(|r| r.values.get(ci))) {
            c.decimals = Some(places);
        }
    }
    for t in trace.iter_mut() {
        if t.decimals.is_none() && fits(&mut t.values.iter().map(|(_, v)| v)) {
            t.decimals = Some(places);
        }
    }
}
