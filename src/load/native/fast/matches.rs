//! A match list handed to the one-pass reader without writing its games out: the event and its participants as native JSON text, then each round's games and byes by participant index.
//!
//! For a loader that already knows which participant each game names (CSV):
//! writing the games as JSON, for the reader to find the names again, cost
//! a third of the loading. The rules are all the reader's own: the head
//! goes through `Reader::root`, each game through `Reader::add_game` (the
//! end of `read_game`), each bye through `Reader::add_bye` (`read_bye`),
//! each round through `Reader::end_round` (`read_round`). So the event is
//! the one the reader makes of the same list written as native JSON,
//! `{"round": n, "games": [{"home", "away", "result"}, ...], "byes":
//! [{"id", "type": "pairing"}, ...]}` for each round, and where that would
//! give up (`None`), so does this: the caller then builds the tree.

use super::lex::Lex;
use super::{Reader, Units};
use crate::model::{Event, Pid, Status};

/// The one-pass reader, fed a round at a time.
pub(in crate::load) struct Matches<'a> {
    r: Reader<'a>,
}

impl<'a> Matches<'a> {
    /// After `head`: a native JSON object with `event` and `participants`
    /// (participant `i` is the `i`th), no rounds and no `values` (the
    /// lines of data names are those of the games, see [`Matches::finish`]).
    pub(in crate::load) fn new(head: &'a str) -> Option<Self> {
        let mut r = Reader::new(true);
        r.root(&mut Lex::new(head))?;
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
