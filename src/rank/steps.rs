//! A step's values per participant (kept for the standings' columns) and the split of a tied group by them.

use super::*;

/// Values of steps that are not group-relative, participant by
/// participant: `[participant][step]`, every step of every procedure
/// numbered in turn. A tied group meets the steps one after another, and
/// the standings read every step of a participant: a participant's values
/// side by side are read from memory once, not once per step (participants
/// come in no order, and one table per step is read at random).
pub(super) struct StepValues {
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
pub(super) enum StepCol {
    /// None yet.
    Empty,
    /// Everyone's, as computed in columns (kept as they came, not copied).
    All(Vec<Value>),
    /// Those computed so far, participant by participant.
    Some(Vec<Option<Value>>),
}

impl StepValues {
    pub(super) fn new(rs: &Ruleset, n: usize) -> StepValues {
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
    pub(super) fn col(&self, proc_id: ProcId, step: usize) -> Option<usize> {
        *self.slot.get(*self.first.get(proc_id)? + step)?
    }
    pub(super) fn get(&self, proc_id: ProcId, step: usize, p: Pid) -> Option<&Value> {
        match self.cols.get(self.col(proc_id, step)?)? {
            StepCol::Empty => None,
            StepCol::All(vals) => vals.get(p),
            StepCol::Some(vals) => vals.get(p)?.as_ref(),
        }
    }
    /// Whether every participant has a value of this step.
    pub(super) fn complete(&self, proc_id: ProcId, step: usize) -> bool {
        match self.col(proc_id, step).and_then(|k| self.cols.get(k)) {
            Some(StepCol::All(_)) => true,
            Some(StepCol::Some(vals)) => vals.iter().all(Option::is_some),
            _ => false,
        }
    }
    /// Everyone's values of a step (one per participant).
    pub(super) fn put_all(&mut self, proc_id: ProcId, step: usize, vals: Vec<Value>) {
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
    pub(super) fn put(&mut self, proc_id: ProcId, step: usize, p: Pid, v: Value) {
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
pub(super) fn step_error(
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
pub(super) fn split(values: &[(Pid, Value)], step: &PStep) -> Vec<Vec<Pid>> {
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
pub(super) fn keep_order(values: &[(Pid, Value)], members: Vec<Pid>) -> Vec<Pid> {
    // A set, not a scan: `select best then repeat` on a tie of thousands
    // calls this once per member separated.
    let members: std::collections::HashSet<Pid> = members.into_iter().collect();
    values
        .iter()
        .map(|(p, _)| *p)
        .filter(|p| members.contains(p))
        .collect()
}
