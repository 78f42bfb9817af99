//! `tb explain` as text: the [`Account`] of each tie told for an arbiter, a director or a player, with the parts of each value under `--detail`.

use super::explain::{name, names, Account, Applied, Tie};
use crate::eval::detail::{Detail, How};
use crate::model::Event;
use std::fmt::Write as _;

/// The account as text.
pub fn explain_text(a: &Account, event: &Event) -> String {
    explain_text_from(a, event, 1)
}

/// The account as text, its ties numbered from `first` (a page that
/// tells each tie on its own numbers them as `tb explain` does).
pub fn explain_text_from(a: &Account, event: &Event, first: usize) -> String {
    let mut out = String::with_capacity(4096);
    for p in &a.primaries {
        let _ = writeln!(out, "{} ranks the field of {}:", heading(&p.step), p.field);
        if let Some(doc) = &p.step.doc {
            let _ = writeln!(out, "  {doc}");
        }
        for (label, v) in &p.level_before {
            let _ = writeln!(out, "  (everyone is level on {label} with {v} before it)");
        }
        for (v, g) in &p.groups {
            let tied = if g.len() > 1 { " (tied)" } else { "" };
            let _ = writeln!(out, "  {v}: {}{tied}", names(event, g));
        }
        out.push('\n');
    }
    if a.ties.is_empty() && a.ids.is_empty() {
        out.push_str("No ties to break.\n");
    } else if a.ties.is_empty() {
        let _ = writeln!(out, "{}: in no tie.", names(event, &a.ids));
    }
    for (k, t) in a.ties.iter().enumerate() {
        tie_text(&mut out, k + first, t, event);
    }
    if let Some(seed) = a.lots_seed {
        let _ = writeln!(out, "Lots drawn with --seed {seed}.");
    }
    out
}

/// A step's label, in words, with its article and direction.
fn heading(s: &super::explain::StepWords) -> String {
    let mut h = s.label.clone();
    if let Some(n) = &s.name {
        let _ = write!(h, " ({n})");
    }
    if let Some(c) = &s.cite {
        let _ = write!(h, " [{c}]");
    }
    if let Some(b) = s.better {
        let _ = write!(h, ", {b}");
    }
    h
}

fn tie_text(out: &mut String, k: usize, t: &Tie, event: &Event) {
    let _ = write!(out, "Tie {k}: {}", names(event, &t.members));
    match &t.on {
        Some((label, v)) => {
            let _ = writeln!(out, ", level on {label} with {v}");
        }
        None => {
            let _ = writeln!(out, ": the whole field");
        }
    }
    for (i, s) in t.steps.iter().enumerate() {
        step_text(out, i + 1, s, t, event);
    }
    out.push_str("  Places:");
    for (i, (place, shared, p, why)) in t.places.iter().enumerate() {
        out.push_str(if i == 0 { " " } else { "; " });
        let eq = if *shared { "=" } else { "" };
        let _ = write!(out, "{eq}{place} {}", name(event, *p));
        if let Some(w) = why {
            let _ = write!(out, " by {w}");
        }
    }
    out.push_str("\n\n");
}

fn step_text(out: &mut String, i: usize, s: &Applied, t: &Tie, event: &Event) {
    if s.end {
        let _ = write!(out, "  {i}. End of the steps");
        if let Some(c) = &s.step.cite {
            let _ = write!(out, " [{c}]");
        }
        let _ = writeln!(out, ": {}", s.outcome);
        return;
    }
    let _ = write!(out, "  {i}. {}", heading(&s.step));
    if let Some(p) = &s.step.procedure {
        let _ = write!(out, "; in {p}");
    }
    if s.group.len() < t.members.len() {
        let _ = write!(out, "; among {}", names(event, &s.group));
    }
    out.push('\n');
    if let Some(doc) = &s.step.doc {
        let _ = writeln!(out, "     {doc}");
    }
    for m in &s.values {
        let _ = write!(out, "     {}: {}", name(event, m.pid), m.text);
        if let Some(u) = &m.undefined {
            let _ = write!(out, " (no value: {u})");
        }
        out.push('\n');
        if let Some(d) = &m.detail {
            detail_text(out, d, 8, event, true);
        }
    }
    if s.again > 0 {
        let times = if s.again == 1 { "once more" } else { "again" };
        let _ = writeln!(
            out,
            "     (the hand-offs applied it {times} to the same group{}: same values)",
            if s.again > 1 {
                format!(", {} times", s.again)
            } else {
                String::new()
            }
        );
    }
    let _ = writeln!(out, "     → {}", s.outcome);
    if !s.printed.is_empty() {
        let _ = write!(
            out,
            "     the standings print {} as the place among them after every re-application (0: not separated):",
            s.step.label
        );
        for (k, (p, v)) in s.printed.iter().enumerate() {
            out.push_str(if k == 0 { " " } else { ", " });
            let _ = write!(out, "{} {v}", name(event, *p));
        }
        out.push('\n');
    }
}

/// The parts of a value, indented: how it is combined, then its items or parts.
fn detail_text(out: &mut String, d: &Detail, indent: usize, event: &Event, top: bool) {
    let pad = " ".repeat(indent);
    // A test's value is said as yes or no.
    let value = match d.value {
        crate::eval::Value::Bool(b) => if b { "yes" } else { "no" }.to_string(),
        _ => d.value.display(None).unwrap_or_else(|| "-".into()),
    };
    let mut what = d.said.clone();
    if let Some(c) = &d.cite {
        let _ = write!(what, " [{c}]");
    }
    match &d.how {
        How::Leaf => {
            if !top {
                let _ = writeln!(out, "{pad}{what} = {value}");
            }
        }
        How::Parts(parts) => {
            if top && parts.len() == 1 {
                return detail_text(out, &parts[0], indent, event, false);
            }
            // A loop with the participant's own values beside it: the loop's
            // line stands for the whole.
            if parts[0].what == d.what {
                detail_text(out, &parts[0], indent, event, false);
                for p in &parts[1..] {
                    detail_text(out, p, indent + 2, event, false);
                }
                return;
            }
            let _ = writeln!(out, "{pad}{what} = {value}, from:");
            for p in parts {
                detail_text(out, p, indent + 2, event, false);
            }
        }
        How::Items { agg, items, more } => {
            let counted = items.iter().filter(|i| i.cut.is_none()).count();
            let n = |k: usize| {
                if k == 1 {
                    "1 item".to_string()
                } else {
                    format!("{k} items")
                }
            };
            let of = if counted < items.len() {
                format!(" of the {counted} counted of {}", n(items.len()))
            } else {
                format!(" of {}", n(items.len()))
            };
            if matches!(d.value, crate::eval::Value::Bool(_)) {
                // A test: "...: yes, all of 2 items".
                let _ = writeln!(out, "{pad}{what}: {value}, {agg}{of}");
            } else {
                let _ = writeln!(out, "{pad}{what} = {value}: {agg}{of}");
            }
            for it in items {
                let _ = write!(out, "{pad}  {}", it.source);
                if let Some(v) = it.value {
                    let _ = write!(out, ": {v}");
                }
                for n in &it.notes {
                    if let Some(sub) = n.strip_prefix("  ") {
                        let _ = write!(out, "\n{pad}      {sub}");
                    } else {
                        let _ = write!(out, "\n{pad}      {n}");
                    }
                }
                if let Some(c) = &it.cut {
                    let _ = write!(out, "\n{pad}      not counted: {c}");
                }
                out.push('\n');
            }
            if *more > 0 {
                let _ = writeln!(out, "{pad}  ... and {more} more");
            }
            let _ = &event;
        }
    }
}
