//! Meetings counted in one pass: `count(x in rounds where C and x.opponent == p)`, asked for each opponent `p`, answered from one tally of the participant's rounds by opponent.
//!
//! FIDE 6.1.2's `meetings(p, forfeits)` is asked in every round against a
//! tied opponent, and each answer loops over all of the participant's
//! rounds: a group whose members met each other many times (a double
//! round robin, or 100 players over 9,900 rounds) costs pairs × rounds,
//! 124 s for the second (issue #36). Here the participant's rounds are
//! walked once per metric and combination of the other arguments: each
//! round where `C` holds adds one to its opponent's count, and the answer
//! for any `p` is a look-up.
//!
//! The reference is the loop of `Evaluator::aggregate` over the metric's
//! body (`eval::loops`). The tally mirrors it where it can be sure to:
//! `C` does not read `p`, so it is the same for every `p`; `C and B` is
//! false wherever `C` is false, whatever `B`; where `C` is true, `B`
//! (`x.opponent == p`) is true for exactly one participant when the
//! opponent is one. Anything else — `C` undefined or not a truth, an
//! opponent that is not a participant, an error — makes the tally step
//! aside for that participant, and the loop runs, so values and errors
//! are the loop's. The per-participant evaluator
//! (`rank::Options::per_participant`) never takes it;
//! `tests/group_forms.rs` compares the two on generated events.

use crate::eval::{Env, Evaluator, Value};
use crate::model::Pid;
use crate::num::Num;
use crate::plan::*;

/// A metric's body of the tallied form.
#[derive(Clone, Copy)]
pub(super) struct Form<'e> {
    /// The loop variable's slot (`x`).
    x: usize,
    /// `C`: the part of the filter that does not read `p`.
    cond: &'e PExpr,
    /// `x.opponent`.
    opponent: &'e PExpr,
}

/// The tallied form of metric `m`'s body, if it has it: `count(x in rounds
/// where C and x.opponent == p)` (or `p == x.opponent`), `p` the metric's
/// first parameter and `C` not reading it.
pub(super) fn form(m: &Metric) -> Option<Form<'_>> {
    if m.params.is_empty() || m.group_relative {
        return None;
    }
    let PKind::Agg(Agg::Count, g) = &m.body.kind else {
        return None;
    };
    let [(x, coll)] = g.fors.as_slice() else {
        return None;
    };
    if !matches!(coll.kind, PKind::Builtin(Builtin::Rounds))
        || !matches!(g.elem.kind, PKind::Local(s) if s == *x)
        || g.by.is_some()
        || g.voluntary.is_some()
    {
        return None;
    }
    let PKind::Binary(BinOp::And, cond, test) = &g.cond.as_deref()?.kind else {
        return None;
    };
    let PKind::Binary(BinOp::Eq, a, b) = &test.kind else {
        return None;
    };
    let is_p = |e: &PExpr| matches!(e.kind, PKind::Local(0));
    let is_opponent = |e: &PExpr| match &e.kind {
        PKind::Field(on, f) => {
            f.builtin == Some(BuiltinField::Opponent)
                && matches!(on.kind, PKind::Local(s) if s == *x)
        }
        _ => false,
    };
    let opponent = match (is_opponent(a), is_opponent(b)) {
        (true, _) if is_p(b) => a,
        (_, true) if is_p(a) => b,
        _ => return None,
    };
    if *x == 0 || reads_local(cond, 0) {
        return None;
    }
    Some(Form {
        x: *x,
        cond,
        opponent,
    })
}

/// Whether `e` reads local slot `slot` anywhere.
fn reads_local(e: &PExpr, slot: usize) -> bool {
    if matches!(e.kind, PKind::Local(s) if s == slot) {
        return true;
    }
    let mut found = false;
    e.each_child(|c| found = found || reads_local(c, slot));
    found
}

/// Each opponent's count, by participant id (sorted), or None where the
/// tally stepped aside.
pub(super) type Counts = Option<Vec<(Pid, u32)>>;

impl Evaluator<'_> {
    /// The value of tallied metric `id` for participant `p` with arguments
    /// `args` (`args[0]` the opponent asked about), or None to run the loop.
    pub(super) fn tallied(&mut self, id: MetricId, p: Pid, args: &[Value]) -> Option<Value> {
        if !self.columnar {
            return None;
        }
        let form = (*self.tally_forms.get(id)?)?;
        let (Value::Part(q), rest) = args.split_first()? else {
            return None;
        };
        if !rest
            .iter()
            .all(|v| matches!(v, Value::Num(_) | Value::Bool(_) | Value::Undef))
        {
            return None;
        }
        if self.caches.tallies.get(id, p, rest).is_none() {
            let c = self.tally(id, form, p, args);
            self.caches.tallies.put(id, p, rest.to_vec(), c);
        }
        let counts = self.caches.tallies.get(id, p, rest)?.as_ref()?;
        let n = match counts.binary_search_by_key(q, |&(o, _)| o) {
            Ok(i) => counts[i].1,
            Err(_) => 0,
        };
        Some(Value::Num(Num::int(i64::from(n))))
    }

    /// Walk `p`'s rounds once: where `C` holds, count the opponent.
    fn tally(&mut self, id: MetricId, form: Form, p: Pid, args: &[Value]) -> Counts {
        let m = &self.rs.metrics[id];
        let mut locals = self.caches.pool.pop().unwrap_or_default();
        locals.extend_from_slice(args);
        let mut env = Env::for_metric(m, Some(p), locals, None);
        let rounds = self.event.participants[p].entries.len();
        let mut met: Vec<Pid> = Vec::new();
        let mut sure = true;
        for i in 0..rounds {
            env.locals[form.x] = Value::Entry(p, i as u32);
            match self.truthy(form.cond, &mut env) {
                Ok(Some(false)) => {}
                Ok(Some(true)) => match self.eval(form.opponent, &mut env) {
                    Ok(Value::Part(o)) => met.push(o),
                    _ => sure = false,
                },
                _ => sure = false,
            }
            if !sure {
                break;
            }
        }
        self.recycle(env.locals);
        if !sure {
            return None;
        }
        met.sort_unstable();
        let mut counts: Vec<(Pid, u32)> = Vec::new();
        for o in met {
            match counts.last_mut() {
                Some((last, n)) if *last == o => *n += 1,
                _ => counts.push((o, 1)),
            }
        }
        Some(counts)
    }
}
