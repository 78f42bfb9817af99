//! Columns printed as places: a step written `places` shows, instead of its value, each member's place among those tied when the step was reached.
//!
//! A federation prints some group-relative criteria this way (FIDE: Direct
//! Encounter, Art. 6; EDE, TBR and BBE). The ranking is unchanged; only the
//! column's values are rewritten, from the trace: for a step handed back to
//! itself (`then repeat`), the places in the separate standings after every
//! re-application ([`repeated_places`]); otherwise 1 + the number of the
//! group the step (every step with its label, in any procedure) put ahead
//! ([`ahead_places`]). 0 where it separated nobody, or for a participant not
//! tied there.

use super::{HandOff, Outcome, Standings, TraceStep};
use crate::eval::Value;
use crate::num::Num;
use crate::plan::{PAction, PHandoff, Ruleset};
use std::collections::HashMap;

/// Rewrite the columns of `st` whose steps (in any procedure of `rs`) are
/// written `places`. A step handed back to itself counts its applications
/// in the standings procedure, where the tied groups of the event meet it.
pub fn apply(st: &mut Standings, rs: &Ruleset) {
    let Some(main) = rs.standings else {
        return;
    };
    let main_name = &rs.procs[main].name;
    for procedure in &rs.procs {
        for step in procedure.steps.iter().filter(|s| s.places) {
            if step.then == PHandoff::Always(PAction::Repeat) {
                repeated_places(st, main_name, &step.label);
            } else {
                ahead_places(st, &step.label);
            }
        }
    }
}

/// Places of a step repeated among sub-ties (FIDE Direct Encounter, 6.2,
/// 6.3): for each group tied when the step (labelled `label`, in procedure
/// `procedure`) is reached, 1, 2, ... for their places after every
/// re-application, shared places equal; 0 for everyone when it separates
/// nobody, and for a participant not tied at that point.
fn repeated_places(st: &mut Standings, procedure: &str, label: &str) {
    {
        let Some(ci) = st.columns.iter().position(|c| c.label == label) else {
            return;
        };
        st.columns[ci].places = true;
        // Every application of the step, by its group.
        let mut by_group: HashMap<Vec<usize>, usize> = HashMap::new();
        let mut repeated: Vec<Vec<usize>> = Vec::new();
        for (i, t) in st.trace.iter().enumerate() {
            if t.procedure != procedure || t.criterion != label {
                continue;
            }
            by_group.entry(t.group.clone()).or_insert(i);
            for (g, what) in &t.handoffs {
                if *what == HandOff::Repeat {
                    repeated.push(g.clone());
                }
            }
        }
        let mut place: HashMap<usize, i64> = HashMap::new();
        let mut tops: Vec<usize> = by_group
            .iter()
            .filter(|(g, _)| !repeated.contains(g))
            .map(|(_, &i)| i)
            .collect();
        tops.sort_unstable();
        for i in tops {
            let mut leaves = Vec::new();
            leaves_of(st, &by_group, &repeated, &st.trace[i].group, &mut leaves, 0);
            if leaves.len() < 2 {
                continue;
            }
            let mut before = 0i64;
            for leaf in leaves {
                for &p in &leaf {
                    place.insert(p, before + 1);
                }
                before += leaf.len() as i64;
            }
        }
        for row in &mut st.rows {
            let v = place.get(&row.pid).copied().unwrap_or(0);
            if let Some(cell) = row.values.get_mut(ci) {
                *cell = Value::Num(Num::int(v));
            }
        }
    }
}

/// Places of a step that hands sub-ties elsewhere (FIDE EDE, TBR, BBE): for
/// each group tied when the step is reached, 1 + the number of its members
/// the steps labelled `label` (in any procedure: EDE's restarts, 13.3.3)
/// put ahead; 0 for everyone when they separated nobody, and for a team not
/// tied there.
fn ahead_places(st: &mut Standings, label: &str) {
    let Some(ci) = st.columns.iter().position(|c| c.label == label) else {
        return;
    };
    st.columns[ci].places = true;
    let steps: Vec<&TraceStep> = st.trace.iter().filter(|t| t.criterion == label).collect();
    // The groups that reached the code: not inside another such group.
    let mut groups: Vec<&Vec<usize>> = steps.iter().map(|t| &t.group).collect();
    groups.sort_by_key(|g| std::cmp::Reverse(g.len()));
    let mut entry: Vec<&Vec<usize>> = Vec::new();
    for g in groups {
        if !entry.iter().any(|e| g.iter().all(|p| e.contains(p))) {
            entry.push(g);
        }
    }
    let mut ahead: HashMap<usize, usize> = HashMap::new();
    let mut split: HashMap<usize, bool> = HashMap::new();
    for t in &steps {
        if let Outcome::Split(parts) = &t.outcome {
            let mut before = 0usize;
            for part in parts {
                for &p in part {
                    *ahead.entry(p).or_default() += before;
                }
                before += part.len();
            }
            for &p in &t.group {
                split.insert(p, true);
            }
        }
    }
    let mut place: HashMap<usize, i64> = HashMap::new();
    for g in entry {
        if g.len() < 2 || !g.iter().any(|p| split.contains_key(p)) {
            continue;
        }
        for &p in g {
            place.insert(p, 1 + ahead.get(&p).copied().unwrap_or(0) as i64);
        }
    }
    for row in &mut st.rows {
        let v = place.get(&row.pid).copied().unwrap_or(0);
        if let Some(cell) = row.values.get_mut(ci) {
            *cell = Value::Num(Num::int(v));
        }
    }
}

/// The final sub-groups of `group` after the step and its repeats, best first.
fn leaves_of(
    st: &Standings,
    by_group: &HashMap<Vec<usize>, usize>,
    repeated: &[Vec<usize>],
    group: &[usize],
    out: &mut Vec<Vec<usize>>,
    depth: usize,
) {
    let Some(&i) = by_group.get(group) else {
        out.push(group.to_vec());
        return;
    };
    match &st.trace[i].outcome {
        Outcome::Split(parts) if depth < 10_000 => {
            for part in parts {
                if part.len() > 1 && repeated.iter().any(|g| g == part) {
                    leaves_of(st, by_group, repeated, part, out, depth + 1);
                } else {
                    out.push(part.clone());
                }
            }
        }
        _ => out.push(group.to_vec()),
    }
}
