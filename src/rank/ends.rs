//! The end of a procedure (a decision from the data, lots, shared or unresolved), the columns shown, and id order.

use super::*;

/// The end of a procedure: a decision from the data, lots, shared or unresolved.
pub(super) fn end(
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
        proc_id,
        step: None,
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

pub(super) fn cited(s: String, cite: &Option<String>) -> String {
    match cite {
        Some(c) => format!("{s} ({c})"),
        None => s,
    }
}

/// The columns of the standings: every step of every procedure reachable
/// from the main one, main first, each label once.
pub(super) fn columns(rs: &Ruleset, main: ProcId) -> Vec<Column> {
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

pub(super) fn fnv(s: &str) -> u64 {
    s.bytes().fold(0xcbf29ce484222325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100000001b3)
    })
}

/// SplitMix64: a small, fixed pseudo-random generator so a seed always draws the same lots.
pub(super) struct SplitMix(u64);
impl SplitMix {
    pub(super) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
}
