//! The rounds an event has played: those with results. A round after the last one with results is not yet played, whatever the file schedules.
//!
//! Pairing programs write the number of rounds from the start (TRF `XXR 9`,
//! a native `rounds = 9`, a CSV header's round columns) and enter byes ahead
//! (a requested half-point bye for round 8, written after round 7). FIDE's
//! regulations apply to "the rounds played", and its reference engine takes
//! the current round as an input: a round not yet played is no absence, and
//! must not give Art. 16's dummy opponents or count in a percentage. So
//! every loader's event passes through [`settle`], one rule for every
//! format: the standings cover rounds 1 to the last with a game played or
//! forfeited, the later rounds are dropped with a note naming each and what
//! it held, and the event keeps the scheduled number for "after round 7 of
//! 9". A round inside the event that holds no game (all byes) is kept: only
//! the rounds after the last result are not yet played; and an event with
//! no game at all is left whole (nothing tells its byes from byes entered
//! ahead).

use crate::model::{Event, Status};

/// Leave out the rounds not yet played (see the module's documentation);
/// a note on the event says which and what they held. Nothing changes on
/// an event whose last round has results. Call it before comparing
/// recorded totals with the results: a total written after round 7 does not
/// count a bye entered for round 8.
pub fn settle(ev: &mut Event) {
    settle_paired(ev, &[]);
}

/// The rounds the event has played when some scheduled rounds are not
/// yet played (see the module's documentation), else None. An event with
/// no game at all is left as it is: its byes cannot be told from byes
/// entered ahead, and there is no round to stand after.
pub fn played_rounds(ev: &Event) -> Option<u32> {
    let last = ev.last_round_with_results();
    (last > 0 && last < ev.rounds).then_some(last)
}

/// For the one-pass readers, which check recorded totals before any
/// round is left out: the event settled as the tree path settles it, or
/// None to leave it to the tree path, where a left-out round holds more
/// than absences (a bye entered ahead: the totals' check must not count its
/// points). An absence scores nothing, so leaving it out afterwards changes
/// no check.
pub(crate) fn settle_read(mut ev: Event) -> Option<Event> {
    if let Some(last) = played_rounds(&ev) {
        let only_absent = ev.participants.iter().all(|p| {
            p.entries
                .iter()
                .filter(|e| e.round > last)
                .all(|e| e.status == Status::Absent && e.points == crate::num::Num::ZERO)
        });
        if !only_absent {
            return None;
        }
        settle(&mut ev);
    }
    Some(ev)
}

/// [`settle`], where the loader also knows of games paired without a
/// result yet (a TRF pairing with a blank result), `(round, games)`: the
/// note counts them in the rounds it leaves out. Returns whether anything
/// was left out.
pub fn settle_paired(ev: &mut Event, paired: &[(u32, usize)]) -> bool {
    let Some(last) = played_rounds(ev) else {
        return false;
    };
    let scheduled = ev.scheduled.unwrap_or(ev.rounds);
    let dropped = ev.keep_rounds(last);
    ev.scheduled = Some(scheduled);
    ev.notes.push(note(last, scheduled, &dropped, paired));
    true
}

/// "Standings after round 7 of 9: round 8 holds 12 games paired without a
/// result, 2 half-point byes entered ahead; round 9 has no results yet; ...".
fn note(
    last: u32,
    scheduled: u32,
    dropped: &[(u32, Status, usize)],
    paired: &[(u32, usize)],
) -> String {
    let mut parts = Vec::new();
    let mut empty = Vec::new();
    for r in last + 1..=scheduled {
        let games = paired
            .iter()
            .filter(|p| p.0 == r)
            .map(|p| p.1)
            .sum::<usize>();
        let mut held: Vec<String> = Vec::new();
        if games > 0 {
            let s = if games == 1 { "" } else { "s" };
            held.push(format!("{games} game{s} paired without a result"));
        }
        held.extend(
            dropped
                .iter()
                .filter(|d| d.0 == r && d.1 != Status::Absent)
                .map(|&(_, status, n)| held_ahead(status, n)),
        );
        if held.is_empty() {
            empty.push(r);
        } else {
            parts.push(format!("round {r} holds {}", held.join(", ")));
        }
    }
    match empty.as_slice() {
        [] => {}
        [r] => parts.push(format!("round {r} has no results yet")),
        [a, .., b] => parts.push(format!("rounds {a}-{b} have no results yet")),
    }
    format!(
        "Standings after round {last} of {scheduled}: {}; a round not yet played counts for no one",
        parts.join("; ")
    )
}

/// "2 half-point byes entered ahead".
fn held_ahead(status: Status, n: usize) -> String {
    let (one, many) = match status {
        Status::PairingBye => ("pairing-allocated bye", "pairing-allocated byes"),
        Status::FullBye => ("full-point bye", "full-point byes"),
        Status::HalfBye => ("half-point bye", "half-point byes"),
        Status::ZeroBye => ("zero-point bye", "zero-point byes"),
        // Only byes and absences can follow the last result.
        _ => ("entry", "entries"),
    };
    format!("{n} {} entered ahead", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Entry, Participant, Scoring, Sport, System};
    use crate::num::Num;

    fn event(rounds: u32, entries: &[&[Status]]) -> Event {
        let mut ev = Event::new("t", Sport::Chess, System::Swiss, rounds);
        let sc = Scoring::chess();
        for (i, list) in entries.iter().enumerate() {
            let mut p = Participant::new(i.to_string(), format!("P{i}"));
            for (r, &s) in (1..).zip(list.iter()) {
                p.entries.push(Entry::unplayed(r, s, Num::ZERO, &sc));
            }
            ev.participants.push(p);
        }
        ev
    }

    /// Two rounds played, a half-point bye entered for round 3, round 4
    /// empty: the standings stand after round 2 of 4.
    #[test]
    fn rounds_after_the_last_result_are_not_played() {
        use Status::*;
        let mut ev = event(
            4,
            &[
                &[Played, Played, HalfBye, Absent],
                &[Played, ForfeitLoss, Absent, Absent],
            ],
        );
        settle(&mut ev);
        assert_eq!(ev.rounds, 2);
        assert_eq!(ev.scheduled, Some(4));
        assert!(ev.participants.iter().all(|p| p.entries.len() == 2));
        assert_eq!(
            ev.notes,
            ["Standings after round 2 of 4: round 3 holds 1 half-point bye entered ahead; round 4 has no results yet; a round not yet played counts for no one"]
        );
    }

    /// A round of byes inside the event is played; a complete event is
    /// left as it is.
    #[test]
    fn complete_events_are_unchanged() {
        use Status::*;
        let mut ev = event(3, &[&[Played, FullBye, Played], &[Played, Absent, Absent]]);
        let before = ev.clone();
        settle(&mut ev);
        assert_eq!(ev, before);
    }
}
