//! `tb eval --progress`: the standings after every round, each computed with the one ruleset, as `tb eval --after-round N` would.

use tb::diag::Diag;
use tb::model::Event;
use tb::plan::Ruleset;
use tb::rank::{Options, Standings};
use tb::render::Progress;

/// The places after rounds 1 to the last of `event`; `last` is the final
/// standings, already ranked (with its warnings given). The event is
/// cloned once and cut from the end, a round at a time
/// (`load::rounds::after_round`, the rule of `--after-round`), so each
/// round costs one ranking.
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
        tb::load::rounds::after_round(&mut ev, n)
            .map_err(|why| Diag::error(tb::codes::CLI_USAGE, why))?;
        let mut st = tb::rank::rank(&ev, rs, opts)?;
        tb::rank::places::apply(&mut st, rs);
        earlier.push(st);
    }
    earlier.reverse();
    earlier.push(last);
    Ok(Progress::new(rounds, &earlier))
}
