//! `tb explain`: a readable account of each step of the ranking.

use super::more::step_more;
use super::notes::undefined_reason;
use super::{push_cell, push_cell_more, push_name, push_names, Out};
use crate::eval::{compare_values, Value};
use crate::model::{Event, Pid};
use crate::rank::{Outcome, Standings, TraceStep};
use crate::syntax::ast::Direction;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt::Write as _;

/// A readable account of each step that involved the given participants
/// (all steps on tied groups when `ids` is empty).
pub fn explain(s: &Standings, event: &Event, pids: &[usize]) -> String {
    let mut out = Out::with_capacity(64 * (s.trace.len() + event.participants.len()));
    // Columns printed as places (FIDE DE, EDE, TBR, BBE): where such a step
    // is first reached by a tied group, the places the table prints for its
    // members follow the step's values, so that the two read together (the
    // values compared in each application; the place after them all).
    let placed: HashMap<&str, usize> = s
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| c.places)
        .map(|(i, c)| (c.label.as_str(), i))
        .collect();
    let row_of: HashMap<Pid, usize> = if placed.is_empty() {
        HashMap::new()
    } else {
        s.rows.iter().enumerate().map(|(i, r)| (r.pid, i)).collect()
    };
    // Per such label: each participant's entry group (numbered), to tell a
    // group's first application from a re-application to part of it.
    let mut entries: HashMap<&str, (HashMap<Pid, usize>, usize)> = HashMap::new();
    for t in &s.trace {
        let mut places_line = None;
        if let Some(&ci) = placed.get(t.criterion.as_str()) {
            let (seen, next) = entries.entry(t.criterion.as_str()).or_default();
            let first = t.group.first().and_then(|p| seen.get(p)).copied();
            let inside = first.is_some() && t.group.iter().all(|p| seen.get(p) == first.as_ref());
            if !inside {
                for &p in &t.group {
                    seen.insert(p, *next);
                }
                *next += 1;
                places_line = Some(ci);
            }
        }
        if t.group.len() > event.participants.len().min(64) && pids.is_empty() {
            // The first split of the whole field is the score itself; summarise it.
            let _ = writeln!(
                out,
                "{} / {}{}: ranks the whole field of {}",
                t.procedure,
                t.criterion,
                dir_note(t.dir),
                t.group.len()
            );
            continue;
        }
        if !pids.is_empty() && !pids.iter().any(|p| t.group.contains(p)) {
            continue;
        }
        if !pids.is_empty() && t.group.len() > 64 {
            let _ = write!(
                out,
                "{} / {}{}: ",
                t.procedure,
                t.criterion,
                dir_note(t.dir)
            );
            let more = step_more(t);
            let shown = t.values.iter().filter(|(p, _)| pids.contains(p));
            for (k, (p, v)) in shown.enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                push_name(&mut out, event, *p);
                out.push_str(" = ");
                push_cell_more(&mut out, v, t.decimals, more.get(p).copied());
            }
            out.push('\n');
            continue;
        }
        explain_step(&mut out, t, event, s);
        // Only where a printed place differs from the value just shown.
        let places_line = places_line.filter(|&ci| {
            t.values.iter().any(|(p, v)| {
                row_of
                    .get(p)
                    .and_then(|&r| s.rows[r].values.get(ci))
                    .is_some_and(|shown| compare_values(shown, v) != Ordering::Equal)
            })
        });
        if let Some(ci) = places_line {
            out.push_str("  printed in the ");
            out.push_str(&t.criterion);
            out.push_str(
                " column (place among them after every re-application; 0: not separated): ",
            );
            for (k, p) in t.group.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                push_name(&mut out, event, *p);
                out.push_str(" = ");
                match row_of.get(p).and_then(|&r| s.rows[r].values.get(ci)) {
                    Some(v) => push_cell(&mut out, v, s.columns[ci].decimals),
                    None => out.push('-'),
                }
            }
            out.push('\n');
        }
    }
    out.into_string()
}

fn explain_step(out: &mut Out, t: &TraceStep, event: &Event, s: &Standings) {
    out.push_str(&t.procedure);
    out.push_str(" / ");
    out.push_str(&t.criterion);
    out.push_str(&dir_note(t.dir));
    if let Some(c) = &t.cite {
        out.push_str(" [");
        out.push_str(c);
        out.push(']');
    }
    out.push_str("\n  tied: ");
    push_names(out, event, &t.group, ", ");
    out.push('\n');
    // Values a split tells apart print apart: more digits where needed.
    let more = step_more(t);
    for (p, v) in &t.values {
        out.push_str("    ");
        push_name(out, event, *p);
        out.push_str(" = ");
        push_cell_more(out, v, t.decimals, more.get(p).copied());
        if *v == Value::Undef {
            if let Some(why) = undefined_reason(s, *p, &t.criterion) {
                out.push_str(" (undefined: ");
                out.push_str(why);
                out.push(')');
            }
        }
        out.push('\n');
    }
    match &t.outcome {
        Outcome::Skipped => out.push_str("  → condition does not hold; step skipped\n"),
        Outcome::NotSplit => out.push_str("  → does not separate them\n"),
        Outcome::Split(parts) => {
            out.push_str("  → ");
            for (k, g) in parts.iter().enumerate() {
                if k > 0 {
                    out.push_str("  >  ");
                }
                push_names(out, event, g, " = ");
            }
            out.push('\n');
            for (g, what) in &t.handoffs {
                out.push_str("    still tied: ");
                push_names(out, event, g, ", ");
                out.push_str(" → ");
                out.push_str(&what.to_string());
                out.push('\n');
            }
        }
    }
}

/// ` (higher is better)` after a step's label in `explain`; nothing for an end.
fn dir_note(d: Option<Direction>) -> String {
    d.map(|d| format!(" ({})", d.phrase())).unwrap_or_default()
}
