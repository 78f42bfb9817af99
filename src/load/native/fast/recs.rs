//! The one-pass reader's compact records of games and byes, and every participant's entries made from them at the end.

use super::super::checks::participant_warnings;
use crate::model::{
    Entry, EntryExtra, Event, Outcome, Participant, Pid, Scoring, Side, Status, UnitId,
};
use crate::num::Num;

// Games and byes are kept as small records while the text is read, and the
// participants' entries are made from them at the end, one participant after
// the other. Writing each entry as its game is read would touch a different
// participant's memory at every step; at 100,000 players that costs more
// than all the rest of the reading.

/// One game as read. Reading the games back at the end is a jump to a
/// random game for every entry, so a game takes 32 bytes, aligned: one
/// cache line for two games. What few games have is kept aside (`Extra`).
#[repr(align(32))]
pub(super) struct GameRec {
    /// Home, away. (Participant indexes stay below `MAX_PARTICIPANTS`, and
    /// record indexes below the input size: all fit in a u32.)
    pub(super) pids: [u32; 2],
    /// Home's and away's points, as indexes in `Recs::nums`.
    pub(super) points: [u32; 2],
    /// Index in `Recs::extras`, or `NO_EXTRA`.
    pub(super) extra: u32,
    /// At most `MAX_ROUNDS`. The session is `Recs::sessions[round]`.
    pub(super) round: u16,
    /// A card result: games won by home, won by away, drawn (each at most
    /// 9999); `NO_GAMES` when the result is not one.
    pub(super) games: [u16; 3],
    pub(super) status: [Status; 2],
    pub(super) outcome: [Outcome; 2],
}

pub(super) const NO_EXTRA: u32 = u32::MAX;
pub(super) const NO_GAMES: [u16; 3] = [u16::MAX; 3];

/// A game's weight other than 1, or units written in it.
pub(super) struct Extra {
    /// Index in `Recs::nums`.
    pub(super) weight: u32,
    /// `Recs::game_units[at..at + len]`.
    pub(super) units: (u32, u32),
}

/// One bye as read.
pub(super) struct ByeRec {
    pub(super) pid: u32,
    pub(super) round: u32,
    pub(super) session: u32,
    pub(super) status: Status,
    /// Index in `Recs::nums`.
    pub(super) points: u32,
    /// `Recs::bye_units[at..at + len]`.
    pub(super) units: (u32, u32),
}

/// The units a card result gives, unless the game writes them itself.
pub(super) const DERIVED: [&str; 3] = ["games_won", "games_lost", "games_drawn"];

/// Slots of `Recs::nums` that are filled from the start.
pub(super) const WIN: u32 = 0;
pub(super) const DRAW: u32 = 1;
pub(super) const LOSS: u32 = 2;
pub(super) const ONE: u32 = 3;

#[derive(Default)]
pub(super) struct Recs {
    pub(super) games: Vec<GameRec>,
    pub(super) extras: Vec<Extra>,
    pub(super) byes: Vec<ByeRec>,
    /// The session of each round that has games, by round number (round
    /// numbers of round objects with games are all different).
    pub(super) sessions: Vec<u32>,
    /// The values records point at: the scoring's win, draw and loss, 1,
    /// then every other value as it was read.
    pub(super) nums: Vec<Num>,
    pub(super) game_units: Vec<(UnitId, [Num; 2])>,
    pub(super) bye_units: Vec<(UnitId, Num)>,
    /// The unit ids of `DERIVED`, once units are in their final order.
    pub(super) derived: [UnitId; 3],
}

impl Recs {
    /// Index of a value added to `nums`.
    pub(super) fn num(&mut self, x: Num) -> u32 {
        self.nums.push(x);
        (self.nums.len() - 1) as u32
    }

    /// The round of reference `r`: `2g + side` for side `side` of game `g`,
    /// `2 * games + b` for bye `b`.
    fn round_of(&self, r: usize) -> u32 {
        match self.games.get(r / 2) {
            Some(g) => u32::from(g.round),
            None => self.byes[r - 2 * self.games.len()].round,
        }
    }

    /// The entry reference `r` gives: what `read_game` and `read_bye` build.
    fn entry(&self, r: usize, scoring: &Scoring) -> Entry {
        let Some(g) = self.games.get(r / 2) else {
            let b = &self.byes[r - 2 * self.games.len()];
            let mut e = Entry::unplayed(b.round, b.status, self.nums[b.points as usize], scoring);
            e.session = b.session;
            let (at, len) = (b.units.0 as usize, b.units.1 as usize);
            let mut units = self.bye_units[at..at + len].to_vec();
            units.sort_by_key(|(u, _)| *u);
            e.set_units(units);
            return e;
        };
        let s = r % 2;
        let (weight, written) = match self.extras.get(g.extra as usize) {
            Some(x) => {
                let (at, len) = (x.units.0 as usize, x.units.1 as usize);
                (x.weight, &self.game_units[at..at + len])
            }
            None => (ONE, &[][..]),
        };
        Entry {
            round: u32::from(g.round),
            session: self.sessions[usize::from(g.round)],
            stage: crate::model::Stage::Unstated,
            opponent: Some(g.pids[1 - s] as Pid),
            partner: None,
            status: g.status[s],
            outcome: g.outcome[s],
            points: self.nums[g.points[s] as usize],
            side: Some(if s == 0 { Side::First } else { Side::Second }),
            weight: self.nums[weight as usize],
            extra: EntryExtra::new(
                self.game_units_of(g, written, s),
                self.game_units_of(g, written, 1 - s),
                Vec::new(),
            ),
        }
    }

    /// Side `s`'s units in game `g`, sorted by unit: those its card result
    /// gives, unless written out, and those written out.
    fn game_units_of(
        &self,
        g: &GameRec,
        written: &[(UnitId, [Num; 2])],
        s: usize,
    ) -> Vec<(UnitId, Num)> {
        let cards = g.games != NO_GAMES;
        let mut units = Vec::with_capacity(if cards { 3 } else { 0 } + written.len());
        if cards {
            let [w, l, d] = g.games;
            // Home won w and lost l; away the other way round.
            let vals = if s == 0 { [w, l, d] } else { [l, w, d] };
            // Unit ids follow the names, so games_drawn, games_lost,
            // games_won is their order.
            for i in [2, 1, 0] {
                let u = self.derived[i];
                if !written.iter().any(|(w, _)| *w == u) {
                    units.push((u, Num::int(i64::from(vals[i]))));
                }
            }
        }
        if !written.is_empty() {
            units.extend(written.iter().map(|(u, pair)| (*u, pair[s])));
            units.sort_by_key(|(u, _)| *u);
        }
        units
    }

    /// Each participant's entries, made from the records, with its
    /// unplayed rounds filled in; and the warnings on each participant, in
    /// order. A large event's second half of participants is made on a
    /// second thread.
    pub(super) fn fill_entries(&self, ev: &mut Event, threads: usize) {
        let recs = self;
        let n = ev.participants.len();
        // Each participant's games and byes (references as in
        // `Recs::round_of`), grouped by participant: a counting sort.
        let mut start = vec![0u32; n + 1];
        for g in &recs.games {
            start[g.pids[0] as usize + 1] += 1;
            start[g.pids[1] as usize + 1] += 1;
        }
        for b in &recs.byes {
            start[b.pid as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut refs = vec![0u32; start[n] as usize];
        let owners = recs.games.iter().flat_map(|g| g.pids);
        let owners = owners.chain(recs.byes.iter().map(|b| b.pid));
        for (r, pid) in (0..).zip(owners) {
            refs[next[pid as usize] as usize] = r;
            next[pid as usize] += 1;
        }
        drop(next);

        // As `Event::complete_rounds` then `add_warnings`, a participant at a
        // time: exactly one entry per round (nobody appears twice in one),
        // the unplayed ones absent with zero points.
        let scoring = ev.scoring;
        let absent = Entry::unplayed(0, Status::Absent, scoring.loss, &scoring);
        let rounds = ev.rounds as usize;
        // The entries of participants `ps`, the first of them `first`, and
        // their warnings in order.
        let build = |ps: &mut [Participant], first: usize| -> Vec<String> {
            let mut warnings = Vec::new();
            // This participant's reference in each round (usize::MAX: none).
            let mut by_round = vec![usize::MAX; rounds];
            for (pid, p) in (first..).zip(ps.iter_mut()) {
                for &r in &refs[start[pid] as usize..start[pid + 1] as usize] {
                    let r = r as usize;
                    by_round[recs.round_of(r) as usize - 1] = r;
                }
                let mut entries = Vec::with_capacity(by_round.len());
                for (round, r) in (1..).zip(&mut by_round) {
                    entries.push(if *r == usize::MAX {
                        let mut e = absent.clone();
                        e.round = round;
                        e
                    } else {
                        recs.entry(std::mem::replace(r, usize::MAX), &scoring)
                    });
                }
                p.entries = entries;
                participant_warnings(p, &mut warnings);
            }
            warnings
        };
        // A large event's second half of participants on another thread.
        let warnings = if crate::par::pays(n.saturating_mul(rounds), threads) {
            let mid = n / 2;
            let (head, tail) = ev.participants.split_at_mut(mid);
            let (mut warnings, rest) = crate::par::join(|| build(head, 0), || build(tail, mid));
            warnings.extend(rest);
            warnings
        } else {
            build(&mut ev.participants, 0)
        };
        ev.warnings
            .extend(warnings.into_iter().map(crate::model::Warning::from));
    }
}
