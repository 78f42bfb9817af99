//! Checks across the records of a native event (repeated games, one appearance a round, knockout stages, declared session scores, fields) and the warnings on a complete event.

use super::cx::Cx;
use super::game::{ByeRec, GameRec};
use super::*;
use crate::model::{Entry, Event, Participant, Pid, Sport, Stage, Status, System, UnitId};
use crate::num::Num;

/// Where a round number came from, for range errors; its stage, for the
/// knockout check.
pub(super) struct RoundRef {
    pub(super) round: u32,
    pub(super) span: Span,
    pub(super) stage: Stage,
}

/// A bridge knockout event says which rounds are the knockout match: every
/// round states its `stage`, and at least one is a knockout match (WBF 2
/// ranks on the knockout match alone; a file that left it to be guessed
/// from session numbers added the qualification's IMPs to it).
pub(super) fn check_stages(cx: &mut Cx, ev: &Event, round_refs: &[RoundRef]) {
    if ev.sport != Sport::Bridge || ev.system != System::Knockout {
        return;
    }
    let mut unstated = 0;
    for r in round_refs.iter().filter(|r| r.stage == Stage::Unstated) {
        unstated += 1;
        cx.err(
            STAGE_MISSING,
            r.span,
            format!("round {} of a knockout event does not say its stage", r.round),
            "no `stage`",
            "in a knockout event every round says which stage it belongs to: `stage = \"knockout\"` for the rounds (segments) of the knockout match, `stage = \"qualification\"` for the qualification's (also `final`, `play-off`)",
        );
    }
    if unstated == 0 && !round_refs.iter().any(|r| r.stage.knockout()) {
        cx.err(
            STAGE_MISSING,
            round_refs.first().map_or(Span::new(0, 0), |r| r.span),
            "no round of this knockout event is in a knockout match".to_string(),
            "no `stage = \"knockout\"`",
            "mark the rounds (segments) of the knockout match `stage = \"knockout\"` (or `final`, `play-off`)",
        );
    }
}

/// The participants without a `field` when others have one: each field is
/// ranked on its own (`rank.rs`), so a pair left without one would be
/// ranked apart from both.
pub(super) fn without_field(ev: &Event) -> Vec<Pid> {
    if ev.participants.iter().all(|p| p.field().is_none()) {
        return Vec::new();
    }
    (0..ev.participants.len())
        .filter(|&i| ev.participants[i].field().is_none())
        .collect()
}

/// A participant whose declared score for a session is not what its games
/// in that session add up to.
pub(super) struct SessionMismatch {
    pub(super) pid: Pid,
    pub(super) session: usize,
    pub(super) declared: Num,
    pub(super) computed: Num,
}

/// Declared per-session scores (`sessions`) checked against the games: the
/// score of session s is the sum of the points of the participant's rounds
/// in session s (its byes included, absent rounds not). A session the
/// participant has no round in cannot be checked, nor can several declared
/// sessions when every round of the event is in one session (the rounds
/// then do not say which session they belong to). The pairs rulesets rank
/// on these scores, so a slip in them would move a pair silently.
pub(super) fn session_mismatches(ev: &Event) -> Vec<SessionMismatch> {
    let mut out = Vec::new();
    if ev.participants.iter().all(|p| p.sessions.is_empty()) {
        return out;
    }
    let mut first = None;
    let mut several = false;
    for e in ev.participants.iter().flat_map(|p| &p.entries) {
        if e.status == Status::Absent {
            continue;
        }
        match first {
            None => first = Some(e.session),
            Some(s) if s != e.session => several = true,
            _ => {}
        }
    }
    for (pid, p) in ev.participants.iter().enumerate() {
        if p.sessions.len() > 1 && !several {
            continue;
        }
        for (i, &declared) in p.sessions.iter().enumerate() {
            let session = i + 1;
            let mut any = false;
            let mut total = Num::ZERO;
            for e in p
                .entries
                .iter()
                .filter(|e| e.status != Status::Absent && e.session as usize == session)
            {
                any = true;
                match total.add(e.points) {
                    Ok(t) => total = t,
                    Err(_) => {
                        any = false;
                        break;
                    }
                }
            }
            if any && total != declared {
                out.push(SessionMismatch {
                    pid,
                    session,
                    declared,
                    computed: total,
                });
            }
        }
    }
    out
}

/// Bridge notes on data read in an older form: a knockout carry-over given
/// as the participant value `carryover` (it belongs to the knockout match:
/// `carryover = [home, away]` on one of its games). It is still read, as
/// the carry-over into the knockout match.
pub(super) fn bridge_warnings(ev: &mut Event) {
    if ev.sport != Sport::Bridge || ev.system != System::Knockout {
        return;
    }
    let mut notes = Vec::new();
    for p in &ev.participants {
        if let Some(c) = p.values.get("carryover") {
            notes.push(crate::model::Warning::new(
                CARRYOVER_VALUE,
                format!(
                    "`{}` ({}): the carry-over {c} is a participant value; it belongs to the knockout match: write `carryover = [home, away]` on one of its games (read as the carry-over into the knockout match)",
                    p.id, p.name
                ),
            ));
        }
    }
    ev.warnings.extend(notes);
}

/// An entry as it compares for duplicate records: which side it was written
/// on does not matter.
fn same_entry(a: &Entry, b: &Entry) -> bool {
    let mut a = a.clone();
    let mut b = b.clone();
    a.side = None;
    b.side = None;
    sort_units(&mut a);
    sort_units(&mut b);
    a == b
}

fn sort_units(e: &mut Entry) {
    e.units_mut().sort_by_key(|(u, _)| *u);
    e.against_mut().sort_by_key(|(u, _)| *u);
}

/// One game per pair per round (a repeat with the same result is dropped, a
/// repeat with another result is an error); one game or bye per participant
/// per round unless all its games that round are part-matches. Returns which
/// games to keep.
pub(super) fn check_rounds(
    cx: &mut Cx,
    ev: &Event,
    games: &[GameRec],
    byes: &[ByeRec],
) -> Vec<bool> {
    // Sorting, not hashing, finds the repeats: one sort of plain numbers
    // instead of a map lookup (and, below, a list) per game.
    let mut keep = vec![true; games.len()];
    let pair = |j: usize| {
        let g = &games[j];
        (g.round, g.home.min(g.away), g.home.max(g.away))
    };
    let mut by_pair: Vec<usize> = (0..games.len()).collect();
    by_pair.sort_unstable_by_key(|&j| (pair(j), j));
    // The first record of each game recorded again, by record.
    let mut first: Vec<Option<usize>> = vec![None; games.len()];
    for group in by_pair.chunk_by(|&a, &b| pair(a) == pair(b)) {
        for &j in &group[1..] {
            first[j] = Some(group[0]);
        }
    }
    for (j, g) in games.iter().enumerate() {
        let Some(i) = first[j] else {
            continue;
        };
        let away = g.away;
        let f = &games[i];
        let other = if f.home == g.home {
            &f.home_entry
        } else {
            &f.away_entry
        };
        if same_entry(other, &g.home_entry) {
            keep[j] = false;
        } else {
            let (a, b) = (&ev.participants[g.home].id, &ev.participants[away].id);
            cx.errors.push(
                Diag::error(
                    INCONSISTENT_GAME,
                    format!(
                        "`{a}` - `{b}` is recorded twice in round {} with different results",
                        g.round
                    ),
                )
                .at(cx.src, g.span, "this record")
                .at(cx.src, f.span, "disagrees with this one")
                .with_help("keep one record of each game, or make both records agree"),
            );
            keep[j] = false;
        }
    }

    // Every appearance, numbered in file order (kept games' sides, then
    // byes): (round, participant, number, span, part-match?).
    let mut seen: Vec<(u32, Pid, usize, Span, bool)> = Vec::new();
    for (g, k) in games.iter().zip(&keep) {
        if *k {
            let part = g.weight < Num::ONE;
            for (pid, span) in &g.sides {
                seen.push((g.round, *pid, seen.len(), *span, part));
            }
        }
    }
    for b in byes {
        seen.push((b.round, b.pid, seen.len(), b.span, false));
    }
    // Grouped by participant and round, each group in file order; reported
    // in the order of each group's first appearance.
    seen.sort_unstable_by_key(|a| (a.0, a.1, a.2));
    let mut twice: Vec<(usize, Diag)> = Vec::new();
    for v in seen.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        if v.len() > 1 && v.iter().any(|a| !a.4) {
            let id = &ev.participants[v[0].1].id;
            let d = Diag::error(
                PAIRED_TWICE,
                format!("`{id}` has {} games or byes in round {}", v.len(), v[0].0),
            )
            .at(cx.src, v[1].3, "again here")
            .at(cx.src, v[0].3, "first here")
            .with_help(
                "a participant plays once a round; a bridge triangle's half matches need `weight` below 1",
            );
            twice.push((v[0].2, d));
        }
    }
    twice.sort_unstable_by_key(|(at, _)| *at);
    cx.errors.extend(twice.into_iter().map(|(_, d)| d));
    keep
}

/// Units are numbered in name order, so the same event reads the same
/// whatever order its keys were written in.
pub(super) fn canonical_units(ev: &mut Event) {
    let remap = canonical_order(ev);
    // Units already in name order (most events) keep their ids.
    let same = remap
        .iter()
        .enumerate()
        .all(|(old, &new)| new as usize == old);
    for p in &mut ev.participants {
        for e in &mut p.entries {
            if same {
                sort_units(e);
                continue;
            }
            for (u, _) in e.units_mut() {
                *u = remap[*u as usize];
            }
            for (u, _) in e.against_mut() {
                *u = remap[*u as usize];
            }
            sort_units(e);
        }
    }
}

/// Sort the event's unit names; returns each old unit id's new id.
pub(super) fn canonical_order(ev: &mut Event) -> Vec<UnitId> {
    let mut names: Vec<(String, UnitId)> = ev
        .units
        .iter()
        .enumerate()
        .map(|(i, n)| (n.clone(), i as UnitId))
        .collect();
    names.sort();
    let mut remap = vec![0 as UnitId; names.len()];
    for (new, (_, old)) in names.iter().enumerate() {
        remap[*old as usize] = new as UnitId;
    }
    ev.units = names.into_iter().map(|(n, _)| n).collect();
    remap
}

pub(super) fn add_warnings(ev: &mut Event) {
    let mut warnings = Vec::new();
    for p in &ev.participants {
        participant_warnings(p, &mut warnings);
    }
    ev.warnings
        .extend(warnings.into_iter().map(crate::model::Warning::from));
}

/// Warnings about one participant's complete entries: a game after its
/// withdrawal, a recorded score that is not the sum of its points.
pub(super) fn participant_warnings(p: &Participant, warnings: &mut Vec<String>) {
    if let Some(k) = p.withdrawn_after {
        for e in p
            .entries
            .iter()
            .filter(|e| e.round > k && e.opponent.is_some())
        {
            warnings.push(format!(
                "participant `{}` ({}) withdrew after round {k} but has a game in round {}",
                p.id, p.name, e.round
            ));
        }
    }
    if let Some(rec) = p.recorded_score {
        let total = p
            .entries
            .iter()
            .try_fold(Num::ZERO, |acc, e| acc.add(e.points));
        if let Ok(total) = total {
            if total != rec {
                warnings.push(format!(
                    "participant `{}` ({}): the recorded score {rec} differs from the {total} computed from the rounds",
                    p.id, p.name
                ));
            }
        }
    }
}
