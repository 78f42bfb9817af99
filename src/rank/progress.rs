//! Round by round (`tb eval --progress`): each participant's place after every round, ranked with the one ruleset over the event as it stood then.

use crate::diag::Diag;
use crate::model::{Event, Pid};
use crate::plan::Ruleset;
use crate::rank::{places, rank, Options, Standings};

/// Places after each round, participants in the final order.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// The rounds after which the places stand, in order.
    pub rounds: Vec<u32>,
    /// One row per participant, in the order of the last round's standings.
    pub rows: Vec<ProgressRow>,
}

/// One participant's places.
#[derive(Clone, Debug, PartialEq)]
pub struct ProgressRow {
    /// The participant.
    pub pid: Pid,
    /// After each round of [`Progress::rounds`]: the place, and whether it
    /// is shared.
    pub places: Vec<(usize, bool)>,
}

impl Progress {
    /// The places of `standings`, the standings after each of `rounds` (the
    /// last is the final order).
    pub fn new(rounds: Vec<u32>, standings: &[Standings]) -> Progress {
        let n = standings
            .iter()
            .flat_map(|s| s.rows.iter().map(|r| r.pid + 1))
            .max()
            .unwrap_or(0);
        let mut by_pid: Vec<Vec<(usize, bool)>> = vec![Vec::with_capacity(rounds.len()); n];
        for s in standings {
            for (i, r) in s.rows.iter().enumerate() {
                if let Some(v) = by_pid.get_mut(r.pid) {
                    v.push((r.rank, s.is_shared(i)));
                }
            }
        }
        let rows = standings
            .last()
            .map(|s| {
                s.rows
                    .iter()
                    .map(|r| ProgressRow {
                        pid: r.pid,
                        places: std::mem::take(&mut by_pid[r.pid]),
                    })
                    .collect()
            })
            .unwrap_or_default();
        Progress { rounds, rows }
    }
}

/// The places after rounds 1 to the last of `event`; `last` is the final
/// standings, already ranked. The event is cloned once and cut from the
/// end a round at a time ([`Event::after_round`], the rule of
/// `--after-round`), so each round costs one ranking; the steps printed as
/// places are applied as in the standings.
pub fn by_round(
    event: &Event,
    rs: &Ruleset,
    opts: &Options,
    last: Standings,
) -> Result<Progress, Diag> {
    let rounds: Vec<u32> = (1..=event.rounds).collect();
    let mut earlier: Vec<Standings> = Vec::with_capacity(rounds.len());
    let mut ev = event.clone();
    for &n in rounds.iter().rev().skip(1) {
        ev.after_round(n)
            .map_err(|why| Diag::error(crate::codes::CLI_USAGE, why))?;
        let mut st = rank(&ev, rs, opts)?;
        places::apply(&mut st, rs);
        earlier.push(st);
    }
    earlier.reverse();
    earlier.push(last);
    Ok(Progress::new(rounds, &earlier))
}
