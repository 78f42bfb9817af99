//! The undefined step values met while ranking, each with why, and the metrics a ranking uses.

use super::*;

/// The undefined step values met while ranking (see [`Standings::undefined`]).
#[derive(Default)]
pub(super) struct UndefinedLog<'a> {
    /// (participant, criterion) already recorded (hashed with foldhash: a
    /// set consulted for every undefined value, never iterated).
    pub(super) seen: std::collections::HashSet<(Pid, &'a str), foldhash::fast::RandomState>,
    pub(super) list: Vec<Undefined>,
    pub(super) more: usize,
    /// Trace why only for the values that decided a place (see
    /// [`Options::only_deciding_reasons`]).
    pub(super) only_deciding: bool,
}

impl<'a> UndefinedLog<'a> {
    /// Record the members whose value of `step` is undefined, with the
    /// reason (from the reference evaluator, [`Evaluator::why_undefined`])
    /// and whether the split (`parts`) placed them below defined values.
    pub(super) fn note(
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
            let why = (self.list.len() < MAX_REASONS && (decided || !self.only_deciding))
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
pub(super) fn mark_metrics(rs: &Ruleset, e: &PExpr, used: &mut [bool]) {
    // Metrics are followed with a work list (chains of metrics can be
    // thousands deep); an expression's own nesting is bounded by the parser.
    let mut todo = Vec::new();
    pub(super) fn walk(e: &PExpr, used: &mut [bool], todo: &mut Vec<MetricId>) {
        if let PKind::Metric(id, ..) = &e.kind {
            if let Some(u) = used.get_mut(*id) {
                if !*u {
                    *u = true;
                    todo.push(*id);
                }
            }
        }
        e.each_child(|x| walk(x, used, todo));
    }
    walk(e, used, &mut todo);
    while let Some(id) = todo.pop() {
        walk(&rs.metrics[id].body, used, &mut todo);
    }
}
