//! A match list handed to the one-pass reader without writing its games out: the event and its participants as native JSON text, then each round's games and byes by participant index.
//!
//! For a loader that already knows which participant each game names (CSV):
//! writing the games as JSON, for the reader to find the names again, cost
//! a third of the loading. The rules are the reader's own: the head goes
//! through `Reader::root`, each game through `Reader::add_game` (the end
//! of `read_game`), each bye through `Reader::add_bye` (`read_bye`), each
//! round through `Reader::end_round` (`read_round`); each participant, an
//! id and perhaps `withdrawn_after`, is what `read_participant` makes of
//! those two fields. So the event is the one the reader makes of the same
//! list written as native JSON, `{"id", "withdrawn_after"}` for each
//! participant, `{"round": n, "games": [{"home", "away", "result"}, ...],
//! "byes": [{"id", "type": "pairing"}, ...]}` for each round, and where
//! that would give up (`None`), so does this: the caller then builds the
//! tree. One thing is the caller's word: the ids are all different (the
//! reader would give up on one given twice).

use super::lex::Lex;
use super::MAX_PARTICIPANTS;
use super::{Reader, Units};
use crate::model::{Event, Participant, Pid, Status};

/// The one-pass reader, fed a round at a time.
pub(in crate::load) struct Matches<'a> {
    r: Reader<'a>,
}

impl<'a> Matches<'a> {
    /// After `head`, a native JSON object with `event` (no `values`: the
    /// lines of data names are those of the games, see [`Matches::finish`])
    /// and no participants or rounds, and the `participants` (participant
    /// `i` is the `i`th), each an id (all different) and the round it
    /// withdrew after, if it did.
    pub(in crate::load) fn new<'p>(
        head: &'a str,
        participants: impl IntoIterator<Item = (&'p str, Option<i64>)>,
    ) -> Option<Self> {
        let mut r = Reader::new(true);
        r.root(&mut Lex::new(head))?;
        if !r.ev.participants.is_empty() {
            return None;
        }
        for (id, withdrawn_after) in participants {
            // `Reader::participants` and `read_participant`.
            if r.ev.participants.len() >= MAX_PARTICIPANTS || id.trim().is_empty() {
                return None;
            }
            let mut p = Participant::new(String::new(), String::new());
            if let Some(w) = withdrawn_after {
                p.withdrawn_after = Some(u32::try_from(w).ok()?);
            }
            p.id = id.to_string();
            p.name = p.id.clone();
            r.ev.participants.push(p);
        }
        let read_values = r
            .firsts
            .as_ref()
            .is_some_and(|f| !f.participant.is_empty() || !f.event.is_empty());
        if r.serial > 0 || read_values {
            return None;
        }
        r.start_rounds();
        Some(Matches { r })
    }

    /// Round `number` (rounds in increasing order): its games, each
    /// `(home, away, result, at)` with `at` where the game is in the
    /// source file, in order, then its pairing byes.
    pub(in crate::load) fn round<'g>(
        &mut self,
        number: i64,
        games: impl IntoIterator<Item = (Pid, Pid, &'g str, usize)>,
        byes: impl IntoIterator<Item = Pid>,
    ) -> Option<()> {
        let start = self.r.start_round();
        for (home, away, result, at) in games {
            let result = Some(result);
            self.r
                .add_game(at, home, away, result, None, None, Units::NONE)?;
        }
        for who in byes {
            self.r.add_bye(Some(who), Status::PairingBye, None, &[])?;
        }
        self.r.end_round(start, u32::try_from(number).ok()?, 1)
    }

    /// The event, with at most `threads` threads; the data names get the
    /// lines `line_of` finds for the `at` of the game where each is first
    /// read.
    pub(in crate::load) fn finish(
        self,
        threads: usize,
        line_of: &dyn Fn(usize) -> Option<usize>,
    ) -> Option<Event> {
        self.r.done(threads, Some(line_of))
    }
}
