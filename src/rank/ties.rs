//! The ranking's steps, in order: the columns computed for everyone, the tied groups broken step by step (the trace kept), the rows numbered and filled.

use super::*;

/// [`rank`] with the evaluator ready: the columns everyone is shown, the
/// procedures applied to the tied groups from `main` on, and the rows.
pub(super) fn standings<'a>(
    ev: Evaluator<'a>,
    event: &'a Event,
    rs: &'a Ruleset,
    opts: &Options,
    main: ProcId,
) -> Result<Standings, Diag> {
    let mut run = Run::new(ev, event, rs, opts, main);
    run.precompute();
    run.break_ties(main)?;
    let mut rows = run.rows();
    run.fill(&mut rows)?;
    run.note_undefined(&rows);
    let Run {
        mut columns,
        mut trace,
        undefined,
        ..
    } = run;
    show_score_places(event, &mut columns, &rows, &mut trace);
    Ok(Standings {
        rows,
        columns,
        trace,
        lots_seed: opts.lots_seed,
        undefined: undefined.list,
        undefined_more: undefined.more,
    })
}

/// A ranking under way: what the steps read and what they build.
struct Run<'a, 'o> {
    ev: Evaluator<'a>,
    event: &'a Event,
    rs: &'a Ruleset,
    opts: &'o Options,
    columns: Vec<Column>,
    /// Columns per participant in `group_values`.
    width: usize,
    /// Values of group-relative columns, `[participant * width + column]`
    /// (one table, not one list per participant). A participant's value of
    /// such a column is the one computed in the last (smallest) group it
    /// was tied in when the step applied: the comparison its place came
    /// from, which "Decided by" names. Earlier applications, to larger
    /// groups, are shown by `explain`.
    group_values: Vec<Value>,
    /// A step that is not relative to the tied group has one value per
    /// participant: kept, not recomputed when the step meets the
    /// participant again (`repeat`, `restart`) or its column is printed.
    step_values: StepValues,
    trace: Vec<TraceStep>,
    undefined: UndefinedLog<'a>,
    /// The final order, block by block.
    blocks: Vec<Block>,
    /// What last separated each participant from others.
    last_decided: Vec<Option<Arc<Decided>>>,
    /// What each step records as having decided a place: one shared value
    /// per step, not one made (with three strings) for every split.
    decided_by_step: Vec<Vec<Arc<Decided>>>,
    placed: Placed,
}

impl<'a, 'o> Run<'a, 'o> {
    fn new(
        ev: Evaluator<'a>,
        event: &'a Event,
        rs: &'a Ruleset,
        opts: &'o Options,
        main: ProcId,
    ) -> Run<'a, 'o> {
        let columns = columns(rs, main);
        let n = event.participants.len();
        let width = columns.len();
        let group_values = if columns.iter().any(|c| c.group_relative) {
            vec![Value::Undef; n.saturating_mul(width)]
        } else {
            Vec::new()
        };
        let decided_by_step = rs
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
        Run {
            ev,
            event,
            rs,
            opts,
            columns,
            width,
            group_values,
            step_values: StepValues::new(rs, n),
            trace: Vec::new(),
            undefined: UndefinedLog {
                only_deciding: opts.only_deciding_reasons,
                ..Default::default()
            },
            blocks: Vec::new(),
            last_decided: vec![None; n],
            decided_by_step,
            placed: Placed::default(),
        }
    }

    /// Every value of a step that is not group-relative is shown for every
    /// participant: computed for all of them at once, in columns, where the
    /// step allows it (else per participant when first needed).
    fn precompute(&mut self) {
        let rs = self.rs;
        let precomputed: Vec<&Column> = self.columns.iter().filter(|c| !c.group_relative).collect();
        // What the rest of the ranking may still evaluate per participant:
        // the group-relative steps and every `when`. Once the values of the
        // steps using a list metric are all kept, its lists (a few hundred
        // MB at 100,000 × 15) can go; a metric dropped wrongly would only be
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
            match self.ev.fill_expr(&step.expr, step.slots) {
                Some(vals) => self.step_values.put_all(c.origin.0, c.origin.1, vals),
                // Evaluated per participant later: keep everything.
                None => break,
            }
            self.ev.drop_lists(&later[k]);
        }
    }

    /// Applies the procedures to the tied groups, from `main` on, until
    /// every group is placed (`blocks`), each decision in the trace.
    fn break_ties(&mut self, main: ProcId) -> Result<(), Diag> {
        let event = self.event;
        // Natural id order makes the result independent of input order.
        let mut everyone: Vec<Pid> = match &self.opts.among {
            Some(members) => members.clone(),
            None => (0..event.participants.len()).collect(),
        };
        everyone
            .sort_by(|&a, &b| natural_cmp(&event.participants[a].id, &event.participants[b].id));
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
            check_limits(applied, member_steps)?;
            let proc_ = &self.rs.procs[task.proc_id];
            if task.group.len() == 1 {
                let p = task.group[0];
                self.blocks.push(Block {
                    members: task.group,
                    decided_by: self.last_decided[p].clone(),
                    unresolved: None,
                });
            } else if task.step >= proc_.steps.len() {
                let ended = end(
                    event,
                    self.rs,
                    task.proc_id,
                    task.group,
                    self.opts,
                    &mut self.trace,
                );
                self.blocks.extend(ended);
            } else {
                self.apply(task, &mut stack)?;
            }
        }
        Ok(())
    }

    /// Applies a task's step to its group; what comes next goes on `stack`.
    fn apply(&mut self, task: Task, stack: &mut Vec<Task>) -> Result<(), Diag> {
        let (rs, event) = (self.rs, self.event);
        let proc_ = &rs.procs[task.proc_id];
        let step = &proc_.steps[task.step];
        // The group as the step's condition and a group-relative step see it
        // (`group`, `others`); not copied for the other steps.
        let shared =
            (step.when.is_some() || step.group_relative).then(|| Arc::new(task.group.clone()));
        if let Some(cond) = &step.when {
            let first = self.placed.first_place(&self.blocks, event, task.group[0]);
            let mut env = Env {
                me: None,
                locals: vec![Value::Undef; step.slots],
                group: shared.clone(),
                places: Some((first, first + task.group.len() - 1)),
            };
            // A condition the group's data leaves undefined is an error: the
            // step is neither applied nor skipped on a guess.
            let holds = self
                .ev
                .truthy(cond, &mut env)
                .and_then(|t| self.ev.definite(cond, "the step's `when` condition", t))
                .map_err(|e| step_error(&e, rs, event, task.proc_id, task.step, None))?;
            if !holds {
                self.trace.push(trace_step(
                    rs,
                    (task.proc_id, task.step),
                    task.group.clone(),
                    Vec::new(),
                    Outcome::Skipped,
                    Vec::new(),
                ));
                stack.push(Task {
                    step: task.step + 1,
                    ..task
                });
                return Ok(());
            }
        }
        let values = self.values(&task, &shared)?;
        let parts = split(&values, step);
        if values.iter().any(|(_, v)| *v == Value::Undef) {
            self.undefined
                .note(&mut self.ev, step, &values, &parts, &shared);
        }
        if parts.len() == 1 {
            self.not_split(task, values, stack);
        } else {
            self.split(task, values, parts, stack);
        }
        Ok(())
    }

    /// The values of a task's step for each member of its group.
    fn values(
        &mut self,
        task: &Task,
        shared: &Option<Arc<Vec<Pid>>>,
    ) -> Result<Vec<(Pid, Value)>, Diag> {
        let step = &self.rs.procs[task.proc_id].steps[task.step];
        let mut values = Vec::with_capacity(task.group.len());
        for &p in &task.group {
            if !step.group_relative {
                if let Some(v) = self.step_values.get(task.proc_id, task.step, p) {
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
                places: None,
            };
            let v = self.ev.eval(&step.expr, &mut env).map_err(|e| {
                step_error(&e, self.rs, self.event, task.proc_id, task.step, Some(p))
            })?;
            if step.group_relative {
                if let Some(ci) = self
                    .columns
                    .iter()
                    .position(|c| c.origin == (task.proc_id, task.step))
                {
                    self.group_values[p * self.width + ci] = v.clone();
                }
            } else {
                self.step_values.put(task.proc_id, task.step, p, v.clone());
            }
            values.push((p, v));
        }
        Ok(values)
    }

    /// Everyone is still tied. A hand-off to another procedure applies to
    /// them too (all teams level on VPs go to the procedure for their
    /// number); otherwise, or if that procedure already had this very
    /// group, the next step follows.
    fn not_split(&mut self, task: Task, values: Vec<(Pid, Value)>, stack: &mut Vec<Task>) {
        let rs = self.rs;
        let step = &rs.procs[task.proc_id].steps[task.step];
        let at = (task.proc_id, task.step);
        let mut handoffs = Vec::new();
        let next = match step.then.for_size(task.group.len()) {
            PAction::Proc(q) if q != task.proc_id && !task.via.contains(&q) => {
                handoffs.push((
                    task.group.clone(),
                    HandOff::Procedure(rs.procs[q].name.clone()),
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
        let group = next.group.clone();
        self.trace.push(trace_step(
            rs,
            at,
            group,
            values,
            Outcome::NotSplit,
            handoffs,
        ));
        stack.push(next);
    }

    /// The group split into `parts`: each goes where the step sends it.
    fn split(
        &mut self,
        task: Task,
        values: Vec<(Pid, Value)>,
        parts: Vec<Vec<Pid>>,
        stack: &mut Vec<Task>,
    ) {
        let rs = self.rs;
        let proc_ = &rs.procs[task.proc_id];
        let step = &proc_.steps[task.step];
        let decided = self.decided_by_step[task.proc_id][task.step].clone();
        let mut handoffs = Vec::new();
        let mut next = Vec::new();
        for part in &parts {
            for &p in part {
                self.last_decided[p] = Some(decided.clone());
            }
            if part.len() == 1 {
                next.push(Task::new(task.proc_id, part.clone(), 0));
                continue;
            }
            let (t, what) = match step.then.for_size(part.len()) {
                PAction::Continue => (
                    Task::new(task.proc_id, part.clone(), task.step + 1),
                    HandOff::Continue,
                ),
                PAction::Restart => (
                    Task::new(task.proc_id, part.clone(), 0),
                    HandOff::Restart(proc_.name.clone()),
                ),
                PAction::Repeat => (
                    Task::new(task.proc_id, part.clone(), task.step),
                    HandOff::Repeat,
                ),
                PAction::Proc(q) => (
                    Task::new(q, part.clone(), 0),
                    HandOff::Procedure(rs.procs[q].name.clone()),
                ),
            };
            handoffs.push((part.clone(), what));
            next.push(t);
        }
        let group = task.group.clone();
        self.trace.push(trace_step(
            rs,
            (task.proc_id, task.step),
            group,
            values,
            Outcome::Split(parts),
            handoffs,
        ));
        // Push in reverse so the best sub-group is handled (and placed) first.
        stack.extend(next.into_iter().rev());
    }

    /// The rows in final order, numbered (places start again at 1 in each
    /// field: a block never spans two), their values not yet filled.
    fn rows(&mut self) -> Vec<Row> {
        let event = self.event;
        let mut rows = Vec::with_capacity(event.participants.len());
        let mut rank_no = 1;
        let field_of = |b: &Block| {
            b.members
                .first()
                .and_then(|&p| event.participants[p].field())
        };
        let fields = event.participants.iter().any(|p| p.field().is_some());
        let blocks = std::mem::take(&mut self.blocks);
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
                    values: Vec::with_capacity(self.width),
                    decided_by: b.decided_by.clone(),
                    unresolved: b.unresolved.clone(),
                });
            }
            rank_no += size;
        }
        rows
    }

    /// Column values: plain metrics for everyone; group-relative ones where
    /// used. Each column's values are read from one table, in the order of
    /// the standings, where reading a participant's values one after
    /// another would miss the cache at every column.
    fn fill(&mut self, rows: &mut [Row]) -> Result<(), Diag> {
        let (columns, width) = (&self.columns, self.width);
        let (group_values, step_values) = (&self.group_values, &self.step_values);
        // A column's value of `p` where it is known: group-relative values
        // kept where they were used, the others computed for everyone.
        let known = |ci: usize, c: &Column, p: Pid| -> Option<Value> {
            if c.group_relative {
                Some(group_values[p * width + ci].clone())
            } else {
                step_values.get(c.origin.0, c.origin.1, p).cloned()
            }
        };
        // Every value at hand (none left to evaluate participant by
        // participant): a large event's rows are filled in two halves at once.
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
            if crate::par::pays(rows.len().saturating_mul(width), self.ev.threads) {
                let half = rows.len() / 2;
                let (first, second) = rows.split_at_mut(half);
                crate::par::join(|| fill(second), || fill(first));
            } else {
                fill(rows);
            }
            return Ok(());
        }
        for (ci, c) in columns.iter().enumerate() {
            for row in rows.iter_mut() {
                let p = row.pid;
                let v = match known(ci, c, p) {
                    Some(v) => v,
                    None => {
                        let step = &self.rs.procs[c.origin.0].steps[c.origin.1];
                        let mut env = Env {
                            me: Some(p),
                            locals: vec![Value::Undef; step.slots],
                            group: None,
                            places: None,
                        };
                        self.ev.eval(&step.expr, &mut env).map_err(|e| {
                            step_error(&e, self.rs, self.event, c.origin.0, c.origin.1, Some(p))
                        })?
                    }
                };
                row.values.push(v);
            }
        }
        Ok(())
    }

    /// The columns' other undefined values (a step no tie reached): shown as
    /// undefined in the output, so explained too.
    fn note_undefined(&mut self, rows: &[Row]) {
        for (ci, c) in self.columns.iter().enumerate() {
            if c.group_relative {
                continue;
            }
            let step = &self.rs.procs[c.origin.0].steps[c.origin.1];
            for row in rows {
                if row.values[ci] == Value::Undef {
                    self.undefined
                        .note(&mut self.ev, step, &[(row.pid, Value::Undef)], &[], &None);
                }
            }
        }
    }
}

/// The guards against pathological rulesets ([`MAX_MEMBER_STEPS`],
/// [`MAX_STEPS`]), after `applied` steps over `member_steps` members.
fn check_limits(applied: usize, member_steps: usize) -> Result<(), Diag> {
    if member_steps > MAX_MEMBER_STEPS {
        return Err(Diag::error(
            codes::EVAL_TOO_MANY_STEPS,
            format!("breaking the ties took more than {MAX_MEMBER_STEPS} participant-steps"),
        )
        .with_help(
            "a very large tie meets very many steps: check the ruleset's steps and hand-offs",
        ));
    }
    if applied > MAX_STEPS {
        return Err(Diag::error(
            codes::EVAL_TOO_MANY_STEPS,
            "the procedures applied more than ten million steps",
        )
        .with_help("check the ruleset's hand-offs for a loop"));
    }
    Ok(())
}

/// The trace of step `at` (procedure, step) applied to `group`.
fn trace_step(
    rs: &Ruleset,
    at: (ProcId, usize),
    group: Vec<Pid>,
    values: Vec<(Pid, Value)>,
    outcome: Outcome,
    handoffs: Vec<(Vec<Pid>, HandOff)>,
) -> TraceStep {
    let proc_ = &rs.procs[at.0];
    let step = &proc_.steps[at.1];
    TraceStep {
        procedure: proc_.name.clone(),
        criterion: step.label.clone(),
        cite: step.cite.clone(),
        group,
        values,
        decimals: step.decimals,
        dir: Some(step.dir),
        outcome,
        handoffs,
        proc_id: at.0,
        step: Some(at.1),
    }
}
