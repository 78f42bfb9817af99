//! Why a computed rank differs from a recorded one, for `tb verify` and
//! `tb test`: the step at which the computed order and the recorded order
//! part, with both participants' values there.
//!
//! In: the event, its standings (their trace) and the rank each
//! participant is recorded (or expected) at. Out: one line of text per
//! difference. It reads `Standings.trace` only; it ranks nothing itself.

use tb::eval::Value;
use tb::model::{Event, Pid};
use tb::rank::{Outcome, Standings, TraceStep};

/// One participant whose computed rank is not the one recorded.
pub struct Difference {
    /// "NAME (ID): recorded rank 2, computed 3".
    pub line: String,
    /// The step that parts the two orders (see [`cause`]).
    pub cause: Option<String>,
}

/// The participants whose computed rank is not the one recorded
/// (`recorded(pid)`; None: not recorded), in the standings' order, and how
/// many were compared.
pub fn differences(
    event: &Event,
    st: &Standings,
    recorded: &dyn Fn(Pid) -> Option<usize>,
) -> (usize, Vec<Difference>) {
    let mut compared = 0;
    let mut out = Vec::new();
    for row in &st.rows {
        let Some(rec) = recorded(row.pid) else {
            continue;
        };
        compared += 1;
        if rec != row.rank {
            let p = &event.participants[row.pid];
            out.push(Difference {
                line: format!(
                    "{} ({}): recorded rank {rec}, computed {}",
                    p.name, p.id, row.rank
                ),
                cause: cause(event, st, row.pid, rec, recorded),
            });
        }
    }
    (compared, out)
}

/// Why `pid`, computed at one rank, is recorded at `rec`: the step that
/// orders it and the participant whose order with it the record reverses.
/// None when no such participant is found.
pub fn cause(
    event: &Event,
    st: &Standings,
    pid: Pid,
    rec: usize,
    recorded: &dyn Fn(Pid) -> Option<usize>,
) -> Option<String> {
    let rank_of = |p: Pid| st.rows.iter().find(|r| r.pid == p).map(|r| r.rank);
    let here = rank_of(pid)?;
    // Ranks are compared within a field (a two-winner bridge movement
    // ranks North-South and East-West apart).
    let field = event.participants[pid].field();
    let others = || {
        st.rows
            .iter()
            .filter(move |r| r.pid != pid && event.participants[r.pid].field() == field)
    };
    // The participants whose order with `pid` the record reverses (or
    // makes level, or unmakes level).
    let mut partners: Vec<(Pid, usize)> = others()
        .filter_map(|r| {
            let theirs = recorded(r.pid)?;
            (here.cmp(&r.rank) != rec.cmp(&theirs)).then_some((r.pid, r.rank))
        })
        .collect();
    if partners.is_empty() {
        // Only this participant's rank is known (a ruleset test expecting
        // one rank): those it passed, or that passed it, on the way.
        partners = others()
            .filter(|r| {
                if here > rec {
                    r.rank >= rec && r.rank < here
                } else {
                    r.rank <= rec && r.rank > here
                }
            })
            .map(|r| (r.pid, r.rank))
            .collect();
    }
    // The one nearest the place the record gives `pid`: who holds it here.
    let (other, theirs) = partners
        .into_iter()
        .min_by_key(|&(p, r)| (r.abs_diff(rec), r, p))?;
    let (a, b) = (who(event, pid), who(event, other));
    if theirs == here {
        return Some(format!(
            "the ruleset leaves {a} and {b} level ({} here): nothing separates them",
            ordinal(here)
        ));
    }
    let Some(t) = st.trace.iter().find(|t| parts(t, pid, other)) else {
        return Some(format!(
            "{b} is {} here and {a} {}: no step of the trace separates them",
            ordinal(theirs),
            ordinal(here)
        ));
    };
    let (first, second) = if theirs < here {
        (other, pid)
    } else {
        (pid, other)
    };
    let cite = t.cite.as_ref().map_or(String::new(), |c| format!(" [{c}]"));
    let value = |p: Pid| {
        t.values
            .iter()
            .find(|(q, _)| *q == p)
            .map(|(_, v)| shown(v, t.decimals))
    };
    let name = |p: Pid| match value(p) {
        Some(v) => format!("{} ({v})", event.participants[p].name),
        None => who(event, p),
    };
    Some(format!(
        "{}{cite} puts {} before {}",
        t.criterion,
        name(first),
        name(second)
    ))
}

/// The step that split `a` and `b` apart: both in the group it was
/// applied to, in different sub-groups after it.
fn parts(t: &TraceStep, a: Pid, b: Pid) -> bool {
    let Outcome::Split(groups) = &t.outcome else {
        return false;
    };
    let at = |p: Pid| groups.iter().position(|g| g.contains(&p));
    matches!((at(a), at(b)), (Some(x), Some(y)) if x != y)
}

fn who(event: &Event, p: Pid) -> String {
    let p = &event.participants[p];
    format!("{} ({})", p.name, p.id)
}

/// A value as `explain` shows it ("undefined" where there is none).
fn shown(v: &Value, decimals: Option<u32>) -> String {
    v.display(decimals)
        .unwrap_or_else(|| "undefined".to_string())
}

/// 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st.
pub fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
