//! One-pass reader for native JSON: a valid event straight from the text to an [`Event`], no value tree.
//!
//! The tree path (`build`) keeps a span for every key and value so it
//! can point at any mistake; for a large event that tree costs several times
//! the event itself in time and memory. Most files have no mistake, so this
//! reader goes once through the text, keeps each game and bye as a small
//! record, and at the end makes every participant's entries in one pass.
//!
//! It never reports anything itself. At the first thing it does not handle,
//! or that the tree path would report, it gives up (`None`) and the caller
//! runs the tree path, which gives the diagnostics. So it only has to be
//! strict, never precise: any JSON syntax error, a repeated key, an unknown
//! field, a value of the wrong type or out of range, a participant twice in
//! one round, rounds (with games) not in increasing order, rounds before
//! the event or the participants, and boards or partners (rare and small:
//! left to the tree path) all end it. Whatever it accepts, the tree path
//! accepts too and builds into the same event: `tests/native_fast.rs` checks
//! the two against each other.
//!
//! It mirrors the tree path: `build::build` and its readers
//! (`build::read_participant`, `game::read_game`, `game::read_bye`, ...),
//! the reference for every rule here. Which keys are fields of which
//! table, and which fields this reader leaves to the tree path, it takes
//! from [`schema`], as the tree path does; the rules for each field's
//! value it shares where it can (`parse_result`, `participant_warnings`,
//! ...). `tests/native_schema.rs` checks that both readers take every field
//! of the schema.
//!
//! The parts: `lex` (strict JSON tokens and typed values, participant ids),
//! `recs` (the compact game and bye records, and the entries made from
//! them), `toml_json` (plain TOML as JSON text), `matches` (a match list
//! handed over without text: CSV); this file reads the schema's tables.

mod lex;
mod matches;
mod recs;
mod toml_json;

use super::checks::{canonical_order, session_mismatches, without_field};
use super::game::{compare, flip, outcomes_of, parse_result, Res};
use super::schema;
use super::{MAX_PARTICIPANTS, MAX_ROUNDS, MAX_UNITS};
use crate::model::DataNames;
use crate::model::{
    Decision, Event, Kind, Member, Outcome, Participant, Pid, Scoring, Sport, Status, System,
    UnitId,
};
use crate::num::Num;
use lex::{Ids, Lex};
use recs::{ByeRec, Extra, GameRec, Recs, DERIVED, DRAW, LOSS, NO_EXTRA, NO_GAMES, ONE, WIN};
use std::borrow::Cow;
use std::collections::BTreeMap;

pub(in crate::load) use matches::Matches;

/// Read a whole native JSON event with at most `threads` threads, or `None`
/// to leave it to the tree path. The event never depends on `threads`.
pub(super) fn load(text: &str, threads: usize) -> Option<Event> {
    read(text, threads, None)
}

/// [`load`] for a text rewritten from another format (TOML): the event's
/// data names also get the lines the tree path gives them, `line_of` turning
/// the byte offset in `text` where each is first read into the line in the
/// original file. (JSON's own one-pass reader has never given lines.)
fn load_noting_lines(
    text: &str,
    threads: usize,
    line_of: &dyn Fn(usize) -> Option<usize>,
) -> Option<Event> {
    read(text, threads, Some(line_of))
}

/// Read a whole native TOML event (in the subset `toml_json` rewrites as
/// JSON), or `None` to leave it to the tree path.
pub(super) fn load_toml(text: &str, threads: usize) -> Option<Event> {
    let json = toml_json::to_json(text)?;
    // The JSON keeps the TOML file's lines.
    let starts = std::cell::OnceCell::new();
    let line_of = |at: usize| {
        let starts: &Vec<usize> =
            starts.get_or_init(|| memchr::memchr_iter(b'\n', json.as_bytes()).collect());
        Some(starts.partition_point(|&nl| nl < at) + 1)
    };
    load_noting_lines(&json, threads, &line_of)
}

fn read(
    text: &str,
    threads: usize,
    line_of: Option<&dyn Fn(usize) -> Option<usize>>,
) -> Option<Event> {
    let mut lx = Lex::new(text);
    let mut r = Reader::new(line_of.is_some());
    r.root(&mut lx)?;
    r.done(threads, line_of)
}

/// Where each data name is first read: a byte offset in the text, as the
/// tree path notes the line of each (`Cx::lines`): a value's key, a unit's
/// key, or the game whose card result gives the unit.
#[derive(Default)]
struct Firsts {
    participant: BTreeMap<String, usize>,
    event: BTreeMap<String, usize>,
    units: BTreeMap<String, usize>,
}

impl Firsts {
    fn give_lines(&self, names: &mut DataNames, line_of: &dyn Fn(usize) -> Option<usize>) {
        for (k, (_, line)) in &mut names.participant {
            *line = self.participant.get(k).and_then(|&at| line_of(at));
        }
        for (k, line) in &mut names.event {
            *line = self.event.get(k).and_then(|&at| line_of(at));
        }
        for (k, line) in &mut names.units {
            *line = self.units.get(k).and_then(|&at| line_of(at));
        }
    }
}

struct Reader<'a> {
    ev: Event,
    primary: Option<String>,
    ids: Ids<'a>,
    /// Per participant, the last round it appeared in, as the number of
    /// its round object (0: none yet). Round numbers must increase from one
    /// object to the next, so a second appearance in one round can only be
    /// in the same object: `last == serial`.
    last: Vec<u32>,
    /// The number of the round object being read, from 1.
    serial: u32,
    /// The round number of the last round object read that had games or
    /// byes (the highest of those).
    round: u32,
    /// The highest round number read.
    max_round: u32,
    /// Games of the round object being read whose points disagree with the
    /// result: (game, points, result) for the warning.
    disagree: Vec<(usize, [Num; 2], String)>,
    /// Decisions, read whenever they come and looked up at the end:
    /// (participant ids in order, reason).
    decisions: Vec<(Vec<Cow<'a, str>>, String)>,
    /// Result strings already parsed: a few texts make up nearly all games.
    results: Vec<(String, Res)>,
    /// Which of `DERIVED` are among the event's units.
    interned: [bool; 3],
    recs: Recs,
    /// Where each data name is first read, when the caller wants lines.
    firsts: Option<Firsts>,
}

impl<'a> Reader<'a> {
    /// A reader before the text; `noting_lines`: note where each data name
    /// is first read.
    fn new(noting_lines: bool) -> Self {
        Reader {
            ev: Event::new("", Sport::Chess, System::Swiss, 0),
            primary: None,
            ids: Ids::default(),
            last: Vec::new(),
            serial: 0,
            round: 0,
            max_round: 0,
            disagree: Vec::new(),
            decisions: Vec::new(),
            results: Vec::new(),
            interned: [false; 3],
            recs: Recs::default(),
            firsts: noting_lines.then(Firsts::default),
        }
    }

    /// [`Reader::finish`], and the lines of the data names where `line_of`
    /// is given.
    fn done(
        mut self,
        threads: usize,
        line_of: Option<&dyn Fn(usize) -> Option<usize>>,
    ) -> Option<Event> {
        let firsts = self.firsts.take();
        let mut ev = self.finish(threads)?;
        if let (Some(f), Some(line_of), Some(names)) = (firsts, line_of, &mut ev.data_names) {
            f.give_lines(names, line_of);
        }
        Some(ev)
    }

    fn root(&mut self, lx: &mut Lex<'a>) -> Option<()> {
        let mut s = lx.object()?;
        let mut seen = 0;
        let rounds_seen = schema::ROOT.find("rounds").map_or(0, |i| 1 << i);
        while let Some(key) = lx.key(&mut s)? {
            let Some(field) = lx.field(&mut seen, &schema::ROOT, &key)? else {
                continue;
            };
            // Games name participants and are read with the event's sport
            // and scoring: those must come first.
            let late = seen & rounds_seen != 0;
            match field {
                "event" if !late => self.header(lx)?,
                "participants" if !late => self.participants(lx)?,
                "rounds" => self.rounds(lx)?,
                "decisions" => self.decisions(lx)?,
                _ => return None,
            }
        }
        lx.ws();
        (lx.i == lx.b.len()).then_some(())
    }

    /// `read_event_header`. Fields come in any order, so they are collected
    /// first and applied in the order the tree path applies them.
    fn header(&mut self, lx: &mut Lex<'a>) -> Option<()> {
        let mut s = lx.object()?;
        let mut seen = 0;
        let mut sport = Sport::Chess;
        let mut scoring: [Option<Num>; 3] = [None; 3];
        while let Some(key) = lx.key(&mut s)? {
            let Some(field) = lx.field(&mut seen, &schema::EVENT, &key)? else {
                continue;
            };
            let ev = &mut self.ev;
            match field {
                "name" => ev.name = lx.text()?,
                "sport" => {
                    ev.sport_declared = true;
                    sport = match lx.string()?.as_ref() {
                        "chess" => Sport::Chess,
                        "cards" => Sport::Cards,
                        "bridge" => Sport::Bridge,
                        "other" => Sport::Other,
                        _ => return None,
                    }
                }
                "system" => {
                    ev.system = match lx.string()?.as_ref() {
                        "swiss" => System::Swiss,
                        "round-robin" | "round_robin" => System::RoundRobin,
                        "knockout" => System::Knockout,
                        "movement" => System::Movement,
                        "other" => System::Other,
                        _ => return None,
                    }
                }
                "kind" => {
                    ev.kind = match lx.string()?.as_ref() {
                        "player" => Kind::Player,
                        "pair" => Kind::Pair,
                        "team" => Kind::Team,
                        _ => return None,
                    }
                }
                "rounds" => {
                    let r = lx.count()?;
                    if r == 0 || r > MAX_ROUNDS {
                        return None;
                    }
                    ev.rounds = r;
                }
                "start_date" => ev.start_date = Some(lx.text()?),
                "scoring" => {
                    let mut t = lx.object()?;
                    let mut seen = 0;
                    while let Some(k) = lx.key(&mut t)? {
                        let Some(field) = lx.field(&mut seen, &schema::SCORING, &k)? else {
                            continue;
                        };
                        let i = match field {
                            "win" => 0,
                            "draw" => 1,
                            "loss" => 2,
                            // A bye's worth (`scoring.bye`): rare, left to the tree path.
                            _ => return None,
                        };
                        scoring[i] = Some(lx.num()?);
                    }
                }
                "primary" => self.primary = Some(lx.text()?),
                "values" => {
                    let firsts = &mut self.firsts;
                    ev.values = lx.values(|k, at| {
                        if let Some(f) = firsts {
                            f.event.entry(k.to_string()).or_insert(at);
                        }
                    })?
                }
                "tiebreaks" => {
                    let mut a = lx.array()?;
                    while lx.more(&mut a)? {
                        ev.tiebreaks.push(lx.text()?);
                    }
                }
                _ => return None,
            }
        }
        let ev = &mut self.ev;
        ev.sport = sport;
        ev.scoring = match sport {
            Sport::Cards => Scoring::cards(),
            _ => Scoring::chess(),
        };
        let slots = [
            &mut ev.scoring.win,
            &mut ev.scoring.draw,
            &mut ev.scoring.loss,
        ];
        for (slot, x) in slots.into_iter().zip(scoring) {
            if let Some(x) = x {
                *slot = x;
            }
        }
        Some(())
    }

    fn participants(&mut self, lx: &mut Lex<'a>) -> Option<()> {
        let mut s = lx.array()?;
        while lx.more(&mut s)? {
            if self.ev.participants.len() >= MAX_PARTICIPANTS {
                return None;
            }
            let mut keys = Vec::new();
            let noting = self.firsts.is_some().then_some(&mut keys);
            let (p, id) = read_participant(lx, noting)?;
            if let Some(f) = &mut self.firsts {
                for (k, at) in keys {
                    f.participant.entry(k).or_insert(at);
                }
            }
            self.ids.insert(id, self.ev.participants.len())?;
            self.ev.participants.push(p);
        }
        Some(())
    }

    fn rounds(&mut self, lx: &mut Lex<'a>) -> Option<()> {
        self.start_rounds();
        let mut s = lx.array()?;
        let mut position = 0usize;
        while lx.more(&mut s)? {
            self.read_round(lx, position)?;
            position += 1;
        }
        Some(())
    }

    /// Before the first round: the event's header and participants are read.
    fn start_rounds(&mut self) {
        let sc = self.ev.scoring;
        self.recs.nums = vec![sc.win, sc.draw, sc.loss, Num::ONE];
        self.last = vec![0; self.ev.participants.len()];
    }

    /// `read_round`. `round` and `session` may come after the games and
    /// byes (keys in name order put them last), so the records are given
    /// their round and session, and the points warnings written, at the end.
    fn read_round(&mut self, lx: &mut Lex<'a>, position: usize) -> Option<()> {
        let start = self.start_round();
        let mut s = lx.object()?;
        let mut seen = 0;
        let (mut round, mut session) = (None, 1);
        let bye_units = self.recs.bye_units.len();
        while let Some(key) = lx.key(&mut s)? {
            let Some(field) = lx.field(&mut seen, &schema::ROUND, &key)? else {
                continue;
            };
            match field {
                "round" => round = Some(lx.count()?),
                "session" => session = lx.count()?,
                // Stages (bridge knockouts) are left to the tree path.
                "stage" => return None,
                // The tree path reads games before byes: where byes before
                // them name units, which is first read depends on it.
                "games" if self.firsts.is_some() && self.recs.bye_units.len() > bye_units => {
                    return None
                }
                field => {
                    let mut a = lx.array()?;
                    while lx.more(&mut a)? {
                        if field == "games" {
                            self.game(lx)?;
                        } else {
                            self.bye(lx)?;
                        }
                    }
                }
            }
        }
        let r = round.unwrap_or(u32::try_from(position + 1).unwrap_or(u32::MAX));
        self.end_round(start, r, session)
    }

    /// A round object begins: where its games and byes will start.
    fn start_round(&mut self) -> (usize, usize) {
        self.serial += 1;
        (self.recs.games.len(), self.recs.byes.len())
    }

    /// The end of `read_round` for round `r` (session `session`), whose
    /// games and byes start at `start` (from [`Reader::start_round`]).
    fn end_round(&mut self, start: (usize, usize), r: u32, session: u32) -> Option<()> {
        let (games, byes) = start;
        let declared = self.ev.rounds;
        if r == 0 || r > MAX_ROUNDS || (declared > 0 && r > declared) {
            return None;
        }
        // Only round objects with games or byes need to come in order.
        if games < self.recs.games.len() || byes < self.recs.byes.len() {
            if r <= self.round {
                return None;
            }
            self.round = r;
        }
        self.max_round = self.max_round.max(r);
        let recs = &mut self.recs;
        if games < recs.games.len() {
            // MAX_ROUNDS fits in a u16.
            let r16 = u16::try_from(r).ok()?;
            for g in &mut recs.games[games..] {
                g.round = r16;
            }
            if recs.sessions.len() <= r as usize {
                recs.sessions.resize(r as usize + 1, 1);
            }
            recs.sessions[r as usize] = session;
        }
        for b in &mut recs.byes[byes..] {
            (b.round, b.session) = (r, session);
        }
        for (g, p, text) in self.disagree.drain(..) {
            let [h, a] = self.recs.games[g].pids;
            let hid = &self.ev.participants[h as usize].id;
            let aid = &self.ev.participants[a as usize].id;
            self.ev.warnings.push(format!(
                "round {r}: `{hid}` - `{aid}`: the points [{}, {}] disagree with the result \"{text}\"; the points are used as written",
                p[0], p[1]
            ).into());
        }
        Some(())
    }

    /// A participant named by its id.
    fn lookup(&self, lx: &mut Lex<'a>) -> Option<Pid> {
        // Starting numbers, the usual ids, go straight to the table.
        match lx.small_whole() {
            Some(n) => self.ids.by_number(n),
            None => self.ids.get(&lx.id()?),
        }
    }

    /// A participant's one appearance in the current round.
    fn appear(&mut self, pid: Pid) -> Option<()> {
        let last = self.last.get_mut(pid)?;
        if *last == self.serial {
            return None;
        }
        *last = self.serial;
        Some(())
    }

    /// `unit_id`, for a unit read at `at`.
    fn unit(&mut self, name: &str, at: usize) -> Option<UnitId> {
        if self.ev.find_unit(name).is_none() {
            if self.ev.units.len() >= MAX_UNITS {
                return None;
            }
            if let Some(f) = &mut self.firsts {
                f.units.entry(name.to_string()).or_insert(at);
            }
        }
        Some(self.ev.unit_id(name))
    }

    fn result(&mut self, s: &str) -> Option<Res> {
        if let Some((_, r)) = self.results.iter().find(|(t, _)| t == s) {
            return Some(*r);
        }
        let r = parse_result(s, self.ev.sport)?;
        if self.results.len() < 16 {
            self.results.push((s.to_string(), r));
        }
        Some(r)
    }

    /// `read_game`, without boards and partners.
    fn game(&mut self, lx: &mut Lex<'a>) -> Option<()> {
        lx.ws();
        let open = lx.i;
        let mut s = lx.object()?;
        let mut seen = 0;
        let (mut home, mut away, mut result, mut points, mut weight) =
            (None, None, None, None, None);
        let mut units: Vec<(Cow<'a, str>, [Num; 2])> = Vec::new();
        let mut unit_at: Vec<usize> = Vec::new();
        while let Some((key, at)) = lx.key_at(&mut s)? {
            let Some(i) = schema::GAME.find(&key) else {
                // Every other key is a unit: [home, away].
                if units.iter().any(|(n, _)| *n == key) {
                    return None;
                }
                let pair = lx.pair()?;
                units.push((key, pair));
                unit_at.push(at);
                continue;
            };
            let Some(field) = lx.field_at(&mut seen, &schema::GAME, i)? else {
                continue; // a field left out
            };
            match field {
                "home" => home = Some(self.lookup(lx)?),
                "away" => away = Some(self.lookup(lx)?),
                "result" => result = Some(lx.string()?),
                "points" => points = Some(lx.pair()?),
                "weight" => {
                    let w = lx.num()?;
                    if w <= Num::ZERO {
                        return None;
                    }
                    weight = Some(w);
                }
                // Boards and partners: the schema leaves them to the tree
                // path, so `field_at` has given up on them already.
                _ => return None,
            }
        }
        let units = Units {
            written: &units,
            at: &unit_at,
        };
        self.add_game(open, home?, away?, result.as_deref(), points, weight, units)
    }

    /// The end of `read_game`: the game read at `open` between `home` and
    /// `away`, with its fields.
    #[allow(clippy::too_many_arguments)] // the fields of a game
    fn add_game(
        &mut self,
        open: usize,
        home: Pid,
        away: Pid,
        result: Option<&str>,
        points: Option<[Num; 2]>,
        weight: Option<Num>,
        units: Units<'_, 'a>,
    ) -> Option<()> {
        let Units {
            written: units,
            at: unit_at,
        } = units;
        self.appear(home)?;
        self.appear(away)?;
        let parsed = match result {
            Some(s) => Some(self.result(s)?),
            None => None,
        };

        // Units, interned in the tree path's order (which only matters for
        // the cap on units: ids are put in name order at the end).
        let mut games = NO_GAMES;
        if let Some(Res::Games(w, l, d)) = parsed {
            // A card result gives each unit of `DERIVED` not written out
            // (`game_units_of` makes them).
            let small = |x: u32| u16::try_from(x).ok().filter(|x| *x != u16::MAX);
            games = [small(w)?, small(l)?, small(d)?];
            for (i, name) in DERIVED.iter().enumerate() {
                // Once a name is interned, interning it again changes
                // nothing: skip the search.
                if !self.interned[i] && !units.iter().any(|(n, _)| n == name) {
                    self.unit(name, open)?;
                    self.interned[i] = true;
                }
            }
        }
        let at = self.recs.game_units.len() as u32;
        for ((name, pair), at) in units.iter().zip(unit_at) {
            let u = self.unit(name, *at)?;
            self.recs.game_units.push((u, *pair));
        }

        let ([status_h, status_a], result_outcomes) = outcomes_of(parsed);
        let primary_unit = self
            .primary
            .as_deref()
            .and_then(|p| units.iter().find(|(n, _)| n == p));
        // The scoring's points by outcome are already in `nums`.
        let slot = |o: Outcome| match o {
            Outcome::Win => WIN,
            Outcome::Draw => DRAW,
            Outcome::Loss => LOSS,
        };
        let (pts, outcomes) = if let Some(p) = points {
            if let (Some((h, a)), Some(text)) = (result_outcomes, result) {
                let by_points = compare(p[0], p[1]);
                if h == flip(a) && by_points != h && status_h == Status::Played {
                    let g = self.recs.games.len();
                    self.disagree.push((g, p, text.to_string()));
                }
            }
            (
                [self.recs.num(p[0]), self.recs.num(p[1])],
                result_outcomes.unwrap_or((compare(p[0], p[1]), compare(p[1], p[0]))),
            )
        } else if let Some((h, a)) = result_outcomes {
            ([slot(h), slot(a)], (h, a))
        } else if let Some((_, p)) = primary_unit {
            let outcomes = (compare(p[0], p[1]), compare(p[1], p[0]));
            ([self.recs.num(p[0]), self.recs.num(p[1])], outcomes)
        } else {
            return None; // no result
        };
        let extra = if weight.is_some() || !units.is_empty() {
            let weight = match weight {
                Some(w) => self.recs.num(w),
                None => ONE,
            };
            let units = (at, units.len() as u32);
            self.recs.extras.push(Extra { weight, units });
            (self.recs.extras.len() - 1) as u32
        } else {
            NO_EXTRA
        };
        self.recs.games.push(GameRec {
            // Participant indexes are below MAX_PARTICIPANTS.
            pids: [home as u32, away as u32],
            points: pts,
            extra,
            round: 0, // set at the end of the round
            games,
            status: [status_h, status_a],
            outcome: [outcomes.0, outcomes.1],
        });
        Some(())
    }

    /// `read_bye`.
    fn bye(&mut self, lx: &mut Lex<'a>) -> Option<()> {
        let mut s = lx.object()?;
        let mut seen = 0;
        let (mut who, mut status, mut points) = (None, Status::PairingBye, None);
        let mut units: Vec<(Cow<'a, str>, Num, usize)> = Vec::new();
        while let Some((key, at)) = lx.key_at(&mut s)? {
            let Some(i) = schema::BYE.find(&key) else {
                // Every other key is a unit: one number.
                if units.iter().any(|(n, _, _)| *n == key) {
                    return None;
                }
                let x = lx.num()?;
                units.push((key, x, at));
                continue;
            };
            let Some(field) = lx.field_at(&mut seen, &schema::BYE, i)? else {
                continue; // a field left out
            };
            match field {
                "id" => who = Some(self.lookup(lx)?),
                "type" => {
                    status = match lx.string()?.as_ref() {
                        "pairing" => Status::PairingBye,
                        "full" => Status::FullBye,
                        "half" => Status::HalfBye,
                        "zero" => Status::ZeroBye,
                        "absent" => Status::Absent,
                        _ => return None,
                    }
                }
                "points" => points = Some(lx.num()?),
                _ => return None,
            }
        }
        self.add_bye(who, status, points, &units)
    }

    /// The end of `read_bye`: the bye of `who` with its fields.
    fn add_bye(
        &mut self,
        who: Option<Pid>,
        status: Status,
        points: Option<Num>,
        units: &[(Cow<'a, str>, Num, usize)],
    ) -> Option<()> {
        let at = self.recs.bye_units.len() as u32;
        for (name, x, at) in units {
            let u = self.unit(name, *at)?;
            self.recs.bye_units.push((u, *x));
        }
        let pid = who?;
        self.appear(pid)?;
        // A bridge bye without its worth is an error or needs the event's
        // scoring (`bye_default`): left to the tree path.
        if self.ev.sport == Sport::Bridge
            && points.is_none()
            && matches!(
                status,
                Status::PairingBye | Status::FullBye | Status::HalfBye
            )
        {
            return None;
        }
        let points = match (points, status) {
            (Some(x), _) => self.recs.num(x),
            (None, Status::PairingBye | Status::FullBye) => WIN,
            (None, Status::HalfBye) => DRAW,
            (None, _) => LOSS,
        };
        self.recs.byes.push(ByeRec {
            pid: pid as u32,
            round: 0, // set at the end of the round
            session: 1,
            status,
            points,
            units: (at, units.len() as u32),
        });
        Some(())
    }

    /// `read_decision`, for each decision; the ids are looked up at the end.
    fn decisions(&mut self, lx: &mut Lex<'a>) -> Option<()> {
        let mut s = lx.array()?;
        while lx.more(&mut s)? {
            let mut t = lx.object()?;
            let mut seen = 0;
            let (mut order, mut reason) = (None, None);
            while let Some(key) = lx.key(&mut t)? {
                let Some(field) = lx.field(&mut seen, &schema::DECISION, &key)? else {
                    continue;
                };
                if field == "order" {
                    let mut a = lx.array()?;
                    let mut list = Vec::new();
                    while lx.more(&mut a)? {
                        list.push(lx.id()?);
                    }
                    order = Some(list);
                } else {
                    reason = Some(lx.text()?);
                }
            }
            let reason = reason.unwrap_or_else(|| "decision".to_string());
            self.decisions.push((order?, reason));
        }
        Some(())
    }

    /// The end of `build`: the number of rounds, the size cap, units in name
    /// order; then each participant's entries with its unplayed rounds
    /// filled in, and the warnings.
    fn finish(mut self, threads: usize) -> Option<Event> {
        for (ids, reason) in &self.decisions {
            let order = ids.iter().map(|id| self.ids.get(id));
            let order = order.collect::<Option<Vec<Pid>>>()?;
            let reason = reason.clone();
            self.ev.decisions.push(Decision { order, reason });
        }
        let Reader {
            mut ev,
            mut recs,
            max_round,
            ..
        } = self;
        if ev.rounds == 0 {
            ev.rounds = max_round;
        }
        let n = ev.participants.len();
        if crate::load::limits::participant_rounds_over(n, ev.rounds).is_some() {
            return None;
        }
        let remap = canonical_order(&mut ev);
        for (u, _) in &mut recs.game_units {
            *u = remap[*u as usize];
        }
        for (u, _) in &mut recs.bye_units {
            *u = remap[*u as usize];
        }
        for (slot, name) in recs.derived.iter_mut().zip(DERIVED) {
            *slot = ev.find_unit(name).unwrap_or_default();
        }

        recs.fill_entries(&mut ev, threads);
        // Bridge knockouts (stages, carry-over) and declared session scores
        // that disagree with the games: the tree path reports or notes them.
        if ev.sport == Sport::Bridge
            && (ev.system == System::Knockout || ev.find_unit("carryover").is_some())
        {
            return None;
        }
        if !session_mismatches(&ev).is_empty() || !without_field(&ev).is_empty() {
            return None;
        }
        // The names the file carries (no lines: this reader keeps no spans).
        ev.data_names = Some(crate::model::DataNames::of(&ev));
        Some(ev)
    }
}

/// The units written in a game, and where each is read.
#[derive(Clone, Copy)]
struct Units<'u, 'a> {
    written: &'u [(Cow<'a, str>, [Num; 2])],
    at: &'u [usize],
}

impl Units<'_, '_> {
    /// A game with no units written.
    const NONE: Self = Units {
        written: &[],
        at: &[],
    };
}

/// `read_participant`: the participant and its id.
/// With `keys`, each `values` key and where it is read.
fn read_participant<'a>(
    lx: &mut Lex<'a>,
    mut keys: Option<&mut Vec<(String, usize)>>,
) -> Option<(Participant, Cow<'a, str>)> {
    let mut s = lx.object()?;
    let mut seen = 0;
    let mut p = Participant::new(String::new(), String::new());
    let (mut id, mut name) = (None, None);
    while let Some(key) = lx.key(&mut s)? {
        let Some(field) = lx.field(&mut seen, &schema::PARTICIPANT, &key)? else {
            continue;
        };
        match field {
            "id" => id = Some(lx.id()?),
            "name" => name = Some(lx.text()?),
            "rating" => p.rating = Some(lx.whole()?),
            "title" => p.title = Some(lx.text()?),
            "federation" => p.federation = Some(lx.text()?),
            "sex" => p.sex = Some(lx.text()?),
            "born" => p.born = Some(lx.whole()?),
            "withdrawn_after" => p.withdrawn_after = Some(lx.count()?),
            "members" => {
                let mut a = lx.array()?;
                while lx.more(&mut a)? {
                    p.members.push(read_member(lx)?);
                }
            }
            "sessions" => {
                let mut a = lx.array()?;
                while lx.more(&mut a)? {
                    p.sessions.push(lx.num()?);
                }
            }
            "values" => {
                p.values = lx.values(|k, at| {
                    if let Some(keys) = keys.as_deref_mut() {
                        keys.push((k.to_string(), at));
                    }
                })?
            }
            "score" => p.recorded_score = Some(lx.num()?),
            "rank" => {
                let r = lx.count()?;
                if r == 0 {
                    return None; // ranks start at 1
                }
                p.recorded_rank = Some(r);
            }
            _ => return None,
        }
    }
    let id = id?;
    p.id = id.to_string();
    p.name = name.unwrap_or_else(|| p.id.clone());
    Some((p, id))
}

/// `read_member`.
fn read_member(lx: &mut Lex) -> Option<Member> {
    if lx.peek()? == b'"' {
        let s = lx.text()?;
        return Some(Member {
            id: s.clone(),
            name: s,
            rating: None,
        });
    }
    let mut t = lx.object()?;
    let mut seen = 0;
    let (mut id, mut name, mut rating) = (None, None, None);
    while let Some(key) = lx.key(&mut t)? {
        let Some(field) = lx.field(&mut seen, &schema::MEMBER, &key)? else {
            continue;
        };
        match field {
            "id" => id = Some(lx.id()?.into_owned()),
            "name" => name = Some(lx.text()?),
            _ => rating = Some(lx.whole()?),
        }
    }
    let (id, name) = match (id, name) {
        (Some(i), Some(n)) => (i, n),
        (Some(i), None) => (i.clone(), i),
        (None, Some(n)) => (n.clone(), n),
        (None, None) => return None,
    };
    Some(Member { id, name, rating })
}
