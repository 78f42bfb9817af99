//! Runs a ruleset's procedures over an event: ordered standings, shared places, and a trace of every decision.
//!
//! A procedure is applied to a group of participants. Each step computes a
//! value per member and splits the group by it. A group the step does not
//! split goes on to the next step; the sub-groups of a split go where the
//! step's hand-off says: on to the next step (`continue`), back to the first
//! step (`restart`), this step again (`repeat`), or to another procedure
//! chosen by the sub-group's size. An explicit work stack keeps the native
//! stack flat however many hand-offs a large tie takes.

use crate::diag::Diag;
use crate::eval::{compare_values, Env, EvalError, Evaluator, Value};
use crate::model::{Event, Pid};
use crate::par::PARALLEL_CELLS;
use crate::plan::{MetricId, PAction, PExpr, PKind, PStep, ProcId, Ruleset};
use crate::syntax::ast::{Direction, EndKind, Select};
use std::cmp::Ordering;
use std::sync::Arc;

/// Options for a ranking run.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Seed for drawing of lots; without one, lots are reported unresolved.
    pub lots_seed: Option<u64>,
    /// Evaluate every metric participant by participant (the reference
    /// evaluator), without the columnar path of [`crate::eval::columnar`]: the
    /// tests compare the two.
    pub per_participant: bool,
    /// Threads the evaluation may use; None: one per core, at most 8.
    /// Standings, values and explanations never depend on it.
    pub threads: Option<usize>,
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
    /// Printed as FIDE prints Direct Encounter and the team codes EDE, TBR,
    /// BBE: a place in the group tied when the step was reached, after every
    /// re-application (0: not separated there), set by
    /// `descriptors::direct_encounter_places`. Otherwise a group-relative
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
    /// Where each sub-group went ("continue", "restart", "procedure two_teams", ...).
    pub handoffs: Vec<(Vec<Pid>, String)>,
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

/// Rank the event with the ruleset's `standings` procedure.
pub fn rank(event: &Event, rs: &Ruleset, opts: &Options) -> Result<Standings, Diag> {
    let main = rs.standings.ok_or_else(|| {
        Diag::error(
            "tb::eval::no_standings",
            "this ruleset has no `standings` line, so it cannot rank an event",
        )
        .with_help(
            "it is a library: import it from a ruleset that ends with `standings <procedure>`",
        )
    })?;
    let threads = opts.threads.unwrap_or_else(crate::par::default_threads);
    let mut ev = Evaluator::with_threads(event, rs, threads)?;
    ev.columnar = !opts.per_participant;
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
        standings(ev, event, rs, opts, main)
    })
}

/// [`rank`] with the evaluator ready: the columns everyone is shown, the
/// procedures applied to the tied groups from `main` on, and the rows.
fn standings<'a>(
    mut ev: Evaluator<'a>,
    event: &'a Event,
    rs: &'a Ruleset,
    opts: &Options,
    main: ProcId,
) -> Result<Standings, Diag> {
    let columns = columns(rs, main);
    let n = event.participants.len();
    // Values of group-relative columns, `[participant * columns + column]`
    // (one table, not one list per participant).
    let width = columns.len();
    // A participant's value of such a column is the one computed in the
    // last (smallest) group it was tied in when the step applied: the
    // comparison its place came from, which "Decided by" names. Earlier
    // applications, to larger groups, are shown by `explain`.
    let mut group_values: Vec<Value> = if columns.iter().any(|c| c.group_relative) {
        vec![Value::Undef; n.saturating_mul(width)]
    } else {
        Vec::new()
    };
    let mut trace = Vec::new();
    let mut undefined = UndefinedLog::default();
    let mut blocks: Vec<Block> = Vec::new();
    let mut last_decided: Vec<Option<Arc<Decided>>> = vec![None; n];
    // A step that is not relative to the tied group has one value per
    // participant: kept, not recomputed when the step meets the participant
    // again (`repeat`, `restart`) or its column is printed.
    let mut step_values = StepValues::new(rs, n);
    // Every such value is shown for every participant: computed for all of
    // them at once, in columns, where the step allows it (else per
    // participant when first needed, as below).
    let precomputed: Vec<&Column> = columns.iter().filter(|c| !c.group_relative).collect();
    // What the rest of the ranking may still evaluate per participant: the
    // group-relative steps and every `when`. Once the values of the steps
    // using a list metric are all kept, its lists (a few hundred MB at
    // 100,000 × 15) can go; a metric dropped wrongly would only be
    // recomputed, never give another value.
    let mut needed = vec![false; rs.metrics.len()];
    for proc_ in &rs.procs {
        for s in &proc_.steps {
            if s.group_relative {
                mark_metrics(rs, &s.expr, &mut needed);
            }
            if let Some(w) = &s.when {
                mark_metrics(rs, w, &mut needed);
            }
        }
    }
    let mut later = vec![needed.clone(); precomputed.len()];
    for k in (0..precomputed.len()).rev() {
        let next = k + 1;
        if next < precomputed.len() {
            let (o0, o1) = precomputed[next].origin;
            later[k] = later[next].clone();
            mark_metrics(rs, &rs.procs[o0].steps[o1].expr, &mut later[k]);
        }
    }
    for (k, c) in precomputed.iter().enumerate() {
        let step = &rs.procs[c.origin.0].steps[c.origin.1];
        match ev.fill_expr(&step.expr, step.slots) {
            Some(vals) => step_values.put_all(c.origin.0, c.origin.1, vals),
            // Evaluated per participant later: keep everything.
            None => break,
        }
        ev.drop_lists(&later[k]);
    }

    // What each step records as having decided a place: one shared value
    // per step, not one made (with three strings) for every split.
    let decided_by_step: Vec<Vec<Arc<Decided>>> = rs
        .procs
        .iter()
        .map(|p| {
            p.steps
                .iter()
                .map(|s| {
                    Arc::new(Decided {
                        procedure: p.name.clone(),
                        criterion: s.label.clone(),
                        cite: s.cite.clone(),
                    })
                })
                .collect()
        })
        .collect();
    // Natural id order makes the result independent of input order.
    let mut everyone: Vec<Pid> = (0..n).collect();
    everyone.sort_by(|&a, &b| natural_cmp(&event.participants[a].id, &event.participants[b].id));
    // Each field of a two-winner movement (North-South, East-West) is
    // ranked on its own, from place 1: one top-level group per field.
    let mut stack: Vec<Task> = field_groups(event, everyone)
        .into_iter()
        .rev()
        .map(|g| Task::new(main, g, 0))
        .collect();
    let mut applied = 0usize;
    let mut member_steps = 0usize;
    while let Some(task) = stack.pop() {
        applied += 1;
        member_steps += task.group.len();
        if member_steps > MAX_MEMBER_STEPS {
            return Err(Diag::error(
                "tb::eval::too_many_steps",
                format!("breaking the ties took more than {MAX_MEMBER_STEPS} participant-steps"),
            )
            .with_help(
                "a very large tie meets very many steps: check the ruleset's steps and hand-offs",
            ));
        }
        if applied > MAX_STEPS {
            return Err(Diag::error(
                "tb::eval::too_many_steps",
                "the procedures applied more than ten million steps",
            )
            .with_help("check the ruleset's hand-offs for a loop"));
        }
        let proc_ = &rs.procs[task.proc_id];
        if task.group.len() == 1 {
            let p = task.group[0];
            blocks.push(Block {
                members: task.group,
                decided_by: last_decided[p].clone(),
                unresolved: None,
            });
            continue;
        }
        if task.step >= proc_.steps.len() {
            blocks.extend(end(event, rs, task.proc_id, task.group, opts, &mut trace));
            continue;
        }
        let step = &proc_.steps[task.step];
        // The group as the step's condition and a group-relative step see it
        // (`group`, `others`); not copied for the other steps.
        let shared =
            (step.when.is_some() || step.group_relative).then(|| Arc::new(task.group.clone()));
        if let Some(cond) = &step.when {
            let mut env = Env {
                me: None,
                locals: vec![Value::Undef; step.slots],
                group: shared.clone(),
            };
            // A condition the group's data leaves undefined is an error: the
            // step is neither applied nor skipped on a guess.
            let holds = ev
                .truthy(cond, &mut env)
                .and_then(|t| ev.definite(cond, "the step's `when` condition", t))
                .map_err(|e| step_error(&e, rs, event, task.proc_id, task.step, None))?;
            if !holds {
                trace.push(TraceStep {
                    procedure: proc_.name.clone(),
                    criterion: step.label.clone(),
                    cite: step.cite.clone(),
                    group: task.group.clone(),
                    values: Vec::new(),
                    decimals: step.decimals,
                    dir: Some(step.dir),
                    outcome: Outcome::Skipped,
                    handoffs: Vec::new(),
                });
                stack.push(Task {
                    step: task.step + 1,
                    ..task
                });
                continue;
            }
        }
        let mut values = Vec::with_capacity(task.group.len());
        for &p in &task.group {
            if !step.group_relative {
                if let Some(v) = step_values.get(task.proc_id, task.step, p) {
                    values.push((p, v.clone()));
                    continue;
                }
            }
            let mut env = Env {
                me: Some(p),
                locals: vec![Value::Undef; step.slots],
                group: if step.group_relative {
                    shared.clone()
                } else {
                    None
                },
            };
            let v = ev
                .eval(&step.expr, &mut env)
                .map_err(|e| step_error(&e, rs, event, task.proc_id, task.step, Some(p)))?;
            if !step.group_relative {
                step_values.put(task.proc_id, task.step, p, v.clone());
            }
            if step.group_relative {
                if let Some(ci) = columns
                    .iter()
                    .position(|c| c.origin == (task.proc_id, task.step))
                {
                    group_values[p * width + ci] = v.clone();
                }
            }
            values.push((p, v));
        }
        let parts = split(&values, step);
        if values.iter().any(|(_, v)| *v == Value::Undef) {
            undefined.note(&mut ev, step, &values, &parts, &shared);
        }
        if parts.len() == 1 {
            // Everyone is still tied. A hand-off to another procedure applies
            // to them too (all teams level on VPs go to the procedure for
            // their number); otherwise, or if that procedure already had this
            // very group, the next step follows.
            let mut handoffs = Vec::new();
            let next = match step.then.for_size(task.group.len()) {
                PAction::Proc(q) if q != task.proc_id && !task.via.contains(&q) => {
                    handoffs.push((
                        task.group.clone(),
                        format!("procedure {}", rs.procs[q].name),
                    ));
                    let mut via = task.via.clone();
                    via.push(task.proc_id);
                    Task {
                        proc_id: q,
                        group: task.group.clone(),
                        step: 0,
                        via,
                    }
                }
                _ => Task {
                    step: task.step + 1,
                    ..task
                },
            };
            trace.push(TraceStep {
                procedure: proc_.name.clone(),
                criterion: step.label.clone(),
                cite: step.cite.clone(),
                group: next.group.clone(),
                values,
                decimals: step.decimals,
                dir: Some(step.dir),
                outcome: Outcome::NotSplit,
                handoffs,
            });
            stack.push(next);
            continue;
        }
        let decided = decided_by_step[task.proc_id][task.step].clone();
        let mut handoffs = Vec::new();
        let mut next = Vec::new();
        for part in &parts {
            for &p in part {
                last_decided[p] = Some(decided.clone());
            }
            if part.len() == 1 {
                next.push(Task::new(task.proc_id, part.clone(), 0));
                continue;
            }
            let (t, what) = match step.then.for_size(part.len()) {
                PAction::Continue => (
                    Task::new(task.proc_id, part.clone(), task.step + 1),
                    "continue".to_string(),
                ),
                PAction::Restart => (
                    Task::new(task.proc_id, part.clone(), 0),
                    format!("restart {}", proc_.name),
                ),
                PAction::Repeat => (
                    Task::new(task.proc_id, part.clone(), task.step),
                    "repeat this step".to_string(),
                ),
                PAction::Proc(q) => (
                    Task::new(q, part.clone(), 0),
                    format!("procedure {}", rs.procs[q].name),
                ),
            };
            handoffs.push((part.clone(), what));
            next.push(t);
        }
        trace.push(TraceStep {
            procedure: proc_.name.clone(),
            criterion: step.label.clone(),
            cite: step.cite.clone(),
            group: task.group.clone(),
            values,
            decimals: step.decimals,
            dir: Some(step.dir),
            outcome: Outcome::Split(parts),
            handoffs,
        });
        // Push in reverse so the best sub-group is handled (and placed) first.
        stack.extend(next.into_iter().rev());
    }

    // Column values: plain metrics for everyone; group-relative ones where used.
    // The rows in order, then their values column by column: each column's
    // values are read from one table, in the order of the standings,
    // where reading a participant's values one after another would miss
    // the cache at every column.
    let mut rows = Vec::with_capacity(n);
    let mut rank_no = 1;
    // Places start again at 1 in each field (a block never spans two).
    let field_of = |b: &Block| {
        b.members
            .first()
            .and_then(|&p| event.participants[p].field())
    };
    let fields = event.participants.iter().any(|p| p.field().is_some());
    let mut field = blocks.first().and_then(field_of);
    for b in blocks {
        let size = b.members.len();
        if fields && field_of(&b) != field {
            field = field_of(&b);
            rank_no = 1;
        }
        for &p in &b.members {
            rows.push(Row {
                pid: p,
                rank: rank_no,
                values: Vec::with_capacity(width),
                decided_by: b.decided_by.clone(),
                unresolved: b.unresolved.clone(),
            });
        }
        rank_no += size;
    }
    // A column's value of `p` where it is known: group-relative values kept
    // where they were used, the others computed for everyone.
    let known = |ci: usize, c: &Column, p: Pid| -> Option<Value> {
        if c.group_relative {
            Some(group_values[p * width + ci].clone())
        } else {
            step_values.get(c.origin.0, c.origin.1, p).cloned()
        }
    };
    // Every value at hand (none left to evaluate participant by participant):
    // a large event's rows are filled in two halves at once.
    let at_hand = columns
        .iter()
        .all(|c| c.group_relative || step_values.complete(c.origin.0, c.origin.1));
    if at_hand {
        let fill = |rows: &mut [Row]| {
            for (ci, c) in columns.iter().enumerate() {
                for row in rows.iter_mut() {
                    row.values
                        .push(known(ci, c, row.pid).unwrap_or(Value::Undef));
                }
            }
        };
        if ev.threads > 1 && n.saturating_mul(width) >= PARALLEL_CELLS {
            let half = rows.len() / 2;
            let (first, second) = rows.split_at_mut(half);
            let first = std::sync::Mutex::new(first);
            let fill_first = || fill(&mut first.lock().unwrap_or_else(|e| e.into_inner()));
            std::thread::scope(|scope| {
                let other = std::thread::Builder::new().spawn_scoped(scope, fill_first);
                fill(second);
                // Without a thread, this one fills both halves.
                if other.is_err() {
                    fill_first();
                }
            });
        } else {
            fill(&mut rows);
        }
    } else {
        for (ci, c) in columns.iter().enumerate() {
            for row in &mut rows {
                let p = row.pid;
                let v = match known(ci, c, p) {
                    Some(v) => v,
                    None => {
                        let step = &rs.procs[c.origin.0].steps[c.origin.1];
                        let mut env = Env {
                            me: Some(p),
                            locals: vec![Value::Undef; step.slots],
                            group: None,
                        };
                        ev.eval(&step.expr, &mut env).map_err(|e| {
                            step_error(&e, rs, event, c.origin.0, c.origin.1, Some(p))
                        })?
                    }
                };
                row.values.push(v);
            }
        }
    }
    // The columns' other undefined values (a step no tie reached): shown as
    // undefined in the output, so explained too.
    for (ci, c) in columns.iter().enumerate() {
        if c.group_relative {
            continue;
        }
        let step = &rs.procs[c.origin.0].steps[c.origin.1];
        for row in &rows {
            if row.values[ci] == Value::Undef {
                undefined.note(&mut ev, step, &[(row.pid, Value::Undef)], &[], &None);
            }
        }
    }
    Ok(Standings {
        rows,
        columns,
        trace,
        lots_seed: opts.lots_seed,
        undefined: undefined.list,
        undefined_more: undefined.more,
    })
}

/// The undefined step values met while ranking (see [`Standings::undefined`]).
#[derive(Default)]
struct UndefinedLog<'a> {
    /// (participant, criterion) already recorded.
    seen: std::collections::HashSet<(Pid, &'a str)>,
    list: Vec<Undefined>,
    more: usize,
}

impl<'a> UndefinedLog<'a> {
    /// Record the members whose value of `step` is undefined, with the
    /// reason (from the reference evaluator, [`Evaluator::why_undefined`])
    /// and whether the split (`parts`) placed them below defined values.
    fn note(
        &mut self,
        ev: &mut Evaluator,
        step: &'a PStep,
        values: &[(Pid, Value)],
        parts: &[Vec<Pid>],
        group: &Option<Arc<Vec<Pid>>>,
    ) {
        let some_defined = values.iter().any(|(_, v)| *v != Value::Undef);
        for (p, v) in values {
            if *v != Value::Undef || !self.seen.insert((*p, step.label.as_str())) {
                continue;
            }
            let decided = some_defined && parts.len() > 1;
            if !decided && self.list.len() >= MAX_REASONS {
                self.more += 1;
                continue;
            }
            let why = (self.list.len() < MAX_REASONS)
                .then(|| {
                    let g = if step.group_relative {
                        group.clone()
                    } else {
                        None
                    };
                    ev.why_undefined(&step.expr, *p, g, step.slots)
                })
                .flatten();
            self.list.push(Undefined {
                pid: *p,
                criterion: step.label.clone(),
                cite: step.cite.clone(),
                reason: why.as_ref().map(|w| w.0.clone()),
                cause: why.map(|w| w.1),
                decided,
            });
        }
    }
}

/// Mark every metric `e` uses, directly or through other metrics.
fn mark_metrics(rs: &Ruleset, e: &PExpr, used: &mut [bool]) {
    // Metrics are followed with a work list (chains of metrics can be
    // thousands deep); an expression's own nesting is bounded by the parser.
    let mut todo = Vec::new();
    fn walk(e: &PExpr, used: &mut [bool], todo: &mut Vec<MetricId>) {
        if let PKind::Metric(id, ..) = &e.kind {
            if let Some(u) = used.get_mut(*id) {
                if !*u {
                    *u = true;
                    todo.push(*id);
                }
            }
        }
        let mut each = |x: &PExpr| walk(x, used, todo);
        match &e.kind {
            PKind::Metric(_, target, args) => {
                target.iter().for_each(|t| each(t));
                args.iter().for_each(each);
            }
            PKind::Field(b, _) | PKind::Unary(_, b) => each(b),
            PKind::Call(_, args) => args.iter().for_each(each),
            PKind::Agg(_, g) | PKind::List(g) => {
                g.fors.iter().for_each(|(_, c)| each(c));
                each(&g.elem);
                for x in [&g.cond, &g.by, &g.voluntary].into_iter().flatten() {
                    each(x);
                }
            }
            PKind::If(c, a, b) => {
                each(c);
                each(a);
                each(b);
            }
            PKind::Binary(_, a, b) => {
                each(a);
                each(b);
            }
            _ => {}
        }
    }
    walk(e, used, &mut todo);
    while let Some(id) = todo.pop() {
        walk(&rs.metrics[id].body, used, &mut todo);
    }
}

/// Values of steps that are not group-relative, participant by
/// participant: `[participant][step]`, every step of every procedure
/// numbered in turn. A tied group meets the steps one after another, and
/// the standings read every step of a participant: a participant's values
/// side by side are read from memory once, not once per step (participants
/// come in no order, and one table per step is read at random).
struct StepValues {
    /// Where each procedure's steps are numbered from (`[procedure]`).
    first: Vec<usize>,
    /// The number of each step that has values (`[first[procedure] + step]`):
    /// those that are not relative to the tied group.
    slot: Vec<Option<usize>>,
    /// Participants.
    n: usize,
    /// Each such step's values (`[slot][participant]`), a step's values
    /// together: a tie is broken among participants far apart in the
    /// table, whose values of that step stay in cache this way.
    cols: Vec<StepCol>,
}

/// The values of one step.
enum StepCol {
    /// None yet.
    Empty,
    /// Everyone's, as computed in columns (kept as they came, not copied).
    All(Vec<Value>),
    /// Those computed so far, participant by participant.
    Some(Vec<Option<Value>>),
}

impl StepValues {
    fn new(rs: &Ruleset, n: usize) -> StepValues {
        let (mut first, mut slot, mut width) = (Vec::new(), Vec::new(), 0);
        for p in &rs.procs {
            first.push(slot.len());
            for s in &p.steps {
                slot.push((!s.group_relative).then(|| {
                    width += 1;
                    width - 1
                }));
            }
        }
        StepValues {
            first,
            slot,
            n,
            cols: (0..width).map(|_| StepCol::Empty).collect(),
        }
    }
    fn col(&self, proc_id: ProcId, step: usize) -> Option<usize> {
        *self.slot.get(*self.first.get(proc_id)? + step)?
    }
    fn get(&self, proc_id: ProcId, step: usize, p: Pid) -> Option<&Value> {
        match self.cols.get(self.col(proc_id, step)?)? {
            StepCol::Empty => None,
            StepCol::All(vals) => vals.get(p),
            StepCol::Some(vals) => vals.get(p)?.as_ref(),
        }
    }
    /// Whether every participant has a value of this step.
    fn complete(&self, proc_id: ProcId, step: usize) -> bool {
        match self.col(proc_id, step).and_then(|k| self.cols.get(k)) {
            Some(StepCol::All(_)) => true,
            Some(StepCol::Some(vals)) => vals.iter().all(Option::is_some),
            _ => false,
        }
    }
    /// Everyone's values of a step (one per participant).
    fn put_all(&mut self, proc_id: ProcId, step: usize, vals: Vec<Value>) {
        if vals.len() != self.n {
            for (p, v) in vals.into_iter().enumerate() {
                self.put(proc_id, step, p, v);
            }
            return;
        }
        if let Some(c) = self.col(proc_id, step).and_then(|k| self.cols.get_mut(k)) {
            *c = StepCol::All(vals);
        }
    }
    fn put(&mut self, proc_id: ProcId, step: usize, p: Pid, v: Value) {
        let n = self.n;
        let Some(c) = self.col(proc_id, step).and_then(|k| self.cols.get_mut(k)) else {
            return;
        };
        match c {
            StepCol::Empty => {
                let mut vals = vec![None; n];
                if let Some(slot) = vals.get_mut(p) {
                    *slot = Some(v);
                }
                *c = StepCol::Some(vals);
            }
            StepCol::All(vals) => {
                if let Some(slot) = vals.get_mut(p) {
                    *slot = v;
                }
            }
            StepCol::Some(vals) => {
                if let Some(slot) = vals.get_mut(p) {
                    *slot = Some(v);
                }
            }
        }
    }
}

/// An evaluation error as a diagnostic that names the criterion it comes
/// from (the step's label and procedure) and the participant, and points at
/// the step too when the failing expression is elsewhere (a metric).
fn step_error(
    e: &EvalError,
    rs: &Ruleset,
    event: &Event,
    proc_id: ProcId,
    step_no: usize,
    who: Option<Pid>,
) -> Diag {
    let mut d = e.to_diag(rs);
    let proc_ = &rs.procs[proc_id];
    let step = &proc_.steps[step_no];
    let part = match who.and_then(|p| event.participants.get(p)) {
        Some(p) => format!(", for participant `{}`", p.id),
        None => String::new(),
    };
    let what = if who.is_some() {
        "criterion"
    } else {
        "the condition of criterion"
    };
    d.message = format!(
        "{what} `{}` (procedure `{}`{part}): {}",
        step.label, proc_.name, d.message
    );
    if step.file == e.file && step.span != e.span {
        d.labels.push((step.span, "in this step".into()));
    } else if step.file != e.file {
        if let Some(src) = rs.files.get(step.file) {
            d.related.push(
                Diag::error(e.code, format!("used by criterion `{}`", step.label)).at(
                    src,
                    step.span,
                    "in this step",
                ),
            );
        }
    }
    d
}

/// Split a group by a step's values into ordered sub-groups (better first).
fn split(values: &[(Pid, Value)], step: &PStep) -> Vec<Vec<Pid>> {
    let better = |a: &Value, b: &Value| -> Ordering {
        // Undefined is worst in both directions.
        match (a, b) {
            (Value::Undef, Value::Undef) => Ordering::Equal,
            (Value::Undef, _) => Ordering::Greater,
            (_, Value::Undef) => Ordering::Less,
            _ => match step.dir {
                Direction::Desc => compare_values(b, a),
                Direction::Asc => compare_values(a, b),
            },
        }
    };
    let mut sorted: Vec<&(Pid, Value)> = values.iter().collect();
    sorted.sort_by(|a, b| better(&a.1, &b.1)); // stable: ties keep group order
    let mut parts: Vec<Vec<Pid>> = Vec::new();
    let mut last: Option<&Value> = None;
    for (p, v) in sorted {
        match last {
            Some(l) if better(l, v) == Ordering::Equal => {
                if let Some(g) = parts.last_mut() {
                    g.push(*p);
                }
            }
            _ => parts.push(vec![*p]),
        }
        last = Some(v);
    }
    match step.select {
        None => parts,
        // Only a unique best (worst) is separated; everyone else stays together.
        Some(Select::Best) if parts.len() > 1 && parts[0].len() == 1 => {
            let rest: Vec<Pid> = parts[1..].iter().flatten().copied().collect();
            let rest = keep_order(values, rest);
            vec![parts[0].clone(), rest]
        }
        Some(Select::Worst) if parts.len() > 1 && parts[parts.len() - 1].len() == 1 => {
            let last = parts[parts.len() - 1].clone();
            let rest: Vec<Pid> = parts[..parts.len() - 1].iter().flatten().copied().collect();
            vec![keep_order(values, rest), last]
        }
        Some(_) => vec![values.iter().map(|(p, _)| *p).collect()],
    }
}

/// Members in their original group order.
fn keep_order(values: &[(Pid, Value)], members: Vec<Pid>) -> Vec<Pid> {
    // A set, not a scan: `select best then repeat` on a tie of thousands
    // calls this once per member separated.
    let members: std::collections::HashSet<Pid> = members.into_iter().collect();
    values
        .iter()
        .map(|(p, _)| *p)
        .filter(|p| members.contains(p))
        .collect()
}

/// The end of a procedure: a decision from the data, lots, shared or unresolved.
fn end(
    event: &Event,
    rs: &Ruleset,
    proc_id: ProcId,
    group: Vec<Pid>,
    opts: &Options,
    trace: &mut Vec<TraceStep>,
) -> Vec<Block> {
    let proc_ = &rs.procs[proc_id];
    let mk_trace = |what: String, outcome: Outcome| TraceStep {
        procedure: proc_.name.clone(),
        criterion: what,
        cite: proc_.end_cite.clone(),
        group: group.clone(),
        values: Vec::new(),
        decimals: None,
        dir: None,
        outcome,
        handoffs: Vec::new(),
    };
    // A decision recorded in the data (a play-off) that orders all of them.
    for d in &event.decisions {
        if group.iter().all(|p| d.order.contains(p)) {
            let ordered: Vec<Pid> = d
                .order
                .iter()
                .copied()
                .filter(|p| group.contains(p))
                .collect();
            trace.push(mk_trace(
                format!("decided in the data: {}", d.reason),
                Outcome::Split(ordered.iter().map(|&p| vec![p]).collect()),
            ));
            return ordered
                .into_iter()
                .map(|p| Block {
                    members: vec![p],
                    decided_by: Some(Arc::new(Decided {
                        procedure: proc_.name.clone(),
                        criterion: d.reason.clone(),
                        cite: proc_.end_cite.clone(),
                    })),
                    unresolved: None,
                })
                .collect();
        }
    }
    match &proc_.end {
        EndKind::Shared => {
            trace.push(mk_trace("shared place".into(), Outcome::NotSplit));
            vec![Block {
                members: group,
                decided_by: None,
                unresolved: None,
            }]
        }
        EndKind::Lots => match opts.lots_seed {
            Some(seed) => {
                let mut order = group.clone();
                let mut rng = SplitMix(
                    seed ^ order.iter().fold(0u64, |h, &p| {
                        h.wrapping_mul(31)
                            .wrapping_add(fnv(&event.participants[p].id))
                    }),
                );
                for i in (1..order.len()).rev() {
                    let j = (rng.next() % (i as u64 + 1)) as usize;
                    order.swap(i, j);
                }
                let what = format!("drawing of lots (seed {seed})");
                trace.push(mk_trace(
                    what.clone(),
                    Outcome::Split(order.iter().map(|&p| vec![p]).collect()),
                ));
                order
                    .into_iter()
                    .map(|p| Block {
                        members: vec![p],
                        decided_by: Some(Arc::new(Decided {
                            procedure: proc_.name.clone(),
                            criterion: what.clone(),
                            cite: proc_.end_cite.clone(),
                        })),
                        unresolved: None,
                    })
                    .collect()
            }
            None => {
                let why = "drawing of lots (give --seed to draw)".to_string();
                trace.push(mk_trace(why.clone(), Outcome::NotSplit));
                vec![Block {
                    members: group,
                    decided_by: None,
                    unresolved: Some(cited(why, &proc_.end_cite)),
                }]
            }
        },
        EndKind::Unresolved(reason) => {
            trace.push(mk_trace(format!("unresolved: {reason}"), Outcome::NotSplit));
            vec![Block {
                members: group,
                decided_by: None,
                unresolved: Some(cited(reason.clone(), &proc_.end_cite)),
            }]
        }
    }
}

fn cited(s: String, cite: &Option<String>) -> String {
    match cite {
        Some(c) => format!("{s} ({c})"),
        None => s,
    }
}

/// The columns of the standings: every step of every procedure reachable
/// from the main one, main first, each label once.
fn columns(rs: &Ruleset, main: ProcId) -> Vec<Column> {
    let mut seen_procs = vec![main];
    let mut i = 0;
    while i < seen_procs.len() {
        let p = &rs.procs[seen_procs[i]];
        for s in &p.steps {
            let mut targets = Vec::new();
            match &s.then {
                crate::plan::PHandoff::Always(PAction::Proc(q)) => targets.push(*q),
                crate::plan::PHandoff::BySize(cases, other) => {
                    for (_, a) in cases {
                        if let PAction::Proc(q) = a {
                            targets.push(*q);
                        }
                    }
                    if let PAction::Proc(q) = other {
                        targets.push(*q);
                    }
                }
                _ => {}
            }
            for q in targets {
                if !seen_procs.contains(&q) {
                    seen_procs.push(q);
                }
            }
        }
        i += 1;
    }
    let mut cols: Vec<Column> = Vec::new();
    for &pid in &seen_procs {
        for (si, s) in rs.procs[pid].steps.iter().enumerate() {
            if cols.iter().any(|c| c.label == s.label) {
                continue;
            }
            cols.push(Column {
                label: s.label.clone(),
                cite: s.cite.clone(),
                decimals: s.decimals,
                group_relative: s.group_relative,
                dir: s.dir,
                reversed: s.reversed,
                places: false,
                origin: (pid, si),
            });
        }
    }
    cols
}

/// Compare ids numerically when both are numbers, else as text.
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    match (a.parse::<u64>(), b.parse::<u64>()) {
        // "01" and "1" are equal as numbers: fall back to the text, so the
        // order never depends on the input's order.
        (Ok(x), Ok(y)) => x.cmp(&y).then_with(|| a.cmp(b)),
        (Ok(_), Err(_)) => Ordering::Less,
        (Err(_), Ok(_)) => Ordering::Greater,
        _ => a.cmp(b),
    }
}

fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}

/// SplitMix64: a small, fixed pseudo-random generator so a seed always draws the same lots.
struct SplitMix(u64);
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
}
