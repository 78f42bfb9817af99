//! One-pass reader for native JSON: a valid event straight from the text to an [`Event`], no value tree.
//!
//! The tree path in `native.rs` keeps a span for every key and value so it
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
//! The rules below mirror the tree path's (`read_participant`, `read_game`,
//! `read_bye`, ...) and share its helpers, so a change to the schema must be
//! made in both places; that test fails if it is not.

use super::{
    canonical_order, compare, flip, num_from_text, parse_result, participant_warnings, Res,
    DECISION_FIELDS, EVENT_FIELDS, MAX_PARTICIPANTS, MAX_PARTICIPANT_ROUNDS, MAX_ROUNDS, MAX_UNITS,
    MEMBER_FIELDS, PARTICIPANT_FIELDS, ROUND_FIELDS, SCORING_FIELDS,
};
use crate::model::{
    Decision, Entry, EntryExtra, Event, Kind, Member, Outcome, Participant, Pid, Scoring, Side,
    Sport, Status, System, UnitId,
};
use crate::num::Num;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// Events from this many participant-rounds on have their participants'
/// entries made in two halves at once (with two threads or more).
const PARALLEL_ENTRIES: usize = 20_000;

/// Read a whole native JSON event with at most `threads` threads, or `None`
/// to leave it to the tree path. The event never depends on `threads`.
pub(super) fn load(text: &str, threads: usize) -> Option<Event> {
    let mut lx = Lex {
        text,
        b: text.as_bytes(),
        i: 0,
    };
    let mut r = Reader {
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
    };
    r.root(&mut lx)?;
    r.finish(threads)
}

// ---------------------------------------------------------------------------
// Strict JSON tokens
// ---------------------------------------------------------------------------

/// A cursor over the text. Every reader takes exactly the JSON grammar (as
/// strict as serde_json, which the tree path uses to check syntax) or less:
/// anything else is `None`.
struct Lex<'a> {
    text: &'a str,
    b: &'a [u8],
    i: usize,
}

/// An open object or array: whether the first element is still to come, and
/// the byte that closes it.
struct Seq {
    first: bool,
    close: u8,
}

impl<'a> Lex<'a> {
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    /// The next byte after white space, not taken.
    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    fn object(&mut self) -> Option<Seq> {
        self.eat(b'{')?;
        Some(Seq {
            first: true,
            close: b'}',
        })
    }

    fn array(&mut self) -> Option<Seq> {
        self.eat(b'[')?;
        Some(Seq {
            first: true,
            close: b']',
        })
    }

    /// Whether `s` has another element; if so the cursor is at it. A comma
    /// must come between elements and never before the closing bracket.
    fn more(&mut self, s: &mut Seq) -> Option<bool> {
        let c = self.peek()?;
        if s.first {
            s.first = false;
            if c == s.close {
                self.i += 1;
                return Some(false);
            }
            return Some(true);
        }
        self.i += 1;
        match c {
            b',' => Some(true),
            _ if c == s.close => Some(false),
            _ => None,
        }
    }

    /// The next key of object `s` with the cursor at its value; `Some(None)`
    /// at the end of the object.
    fn key(&mut self, s: &mut Seq) -> Option<Option<Cow<'a, str>>> {
        if !self.more(s)? {
            return Some(None);
        }
        let k = self.string()?;
        self.eat(b':')?;
        Some(Some(k))
    }

    /// A string: borrowed from the text when it has no escapes.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        if self.peek()? != b'"' {
            return None;
        }
        let open = self.i;
        let len = self.b[open + 1..]
            .iter()
            .position(|&c| c == b'"' || c == b'\\' || c < 0x20)?;
        let j = open + 1 + len;
        match self.b[j] {
            b'"' => {
                self.i = j + 1;
                Some(Cow::Borrowed(&self.text[open + 1..j]))
            }
            b'\\' => self.escaped(open),
            // JSON forbids raw control characters in strings.
            _ => None,
        }
    }

    /// A string with escapes, decoded by serde_json exactly as the tree path
    /// decodes it (an invalid escape is an error there, so `None` here).
    fn escaped(&mut self, open: usize) -> Option<Cow<'a, str>> {
        let mut j = open + 1;
        loop {
            match *self.b.get(j)? {
                b'"' => break,
                b'\\' => j += 2,
                c if c < 0x20 => return None,
                _ => j += 1,
            }
        }
        let s = serde_json::from_str::<String>(self.text.get(open..=j)?).ok()?;
        self.i = j + 1;
        Some(Cow::Owned(s))
    }

    /// A number literal as written. Longer than 40 characters is given up:
    /// no such number is exact in tb, and serde_json refuses some of them
    /// (out of range of an f64).
    fn number(&mut self) -> Option<&'a str> {
        self.ws();
        let start = self.i;
        if self.b.get(self.i) == Some(&b'-') {
            self.i += 1;
        }
        match *self.b.get(self.i)? {
            b'0' => self.i += 1,
            b'1'..=b'9' => self.digits()?,
            _ => return None,
        }
        if self.b.get(self.i) == Some(&b'.') {
            self.i += 1;
            self.digits()?;
        }
        if let Some(b'e' | b'E') = self.b.get(self.i) {
            self.i += 1;
            if let Some(b'+' | b'-') = self.b.get(self.i) {
                self.i += 1;
            }
            self.digits()?;
        }
        (self.i - start <= 40).then(|| &self.text[start..self.i])
    }

    /// One or more digits.
    fn digits(&mut self) -> Option<()> {
        let start = self.i;
        while self.b.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        (self.i > start).then_some(())
    }

    // Typed values, read as the tree path's `Cx` helpers read them.

    /// `Cx::string`.
    fn text(&mut self) -> Option<String> {
        self.string().map(Cow::into_owned)
    }

    /// `Cx::num`: a number literal, or a number written as a string.
    fn num(&mut self) -> Option<Num> {
        if self.peek()? == b'"' {
            Num::parse(&self.string()?)
        } else {
            num_from_text(self.number()?)
        }
    }

    /// `Cx::whole`.
    fn whole(&mut self) -> Option<i64> {
        let x = self.num()?;
        if !x.is_integer() {
            return None;
        }
        i64::try_from(x.numer()).ok()
    }

    /// `Cx::count`.
    fn count(&mut self) -> Option<u32> {
        u32::try_from(self.whole()?).ok()
    }

    /// `Cx::id`: a string, or a whole number kept as its text.
    fn id(&mut self) -> Option<Cow<'a, str>> {
        let s = if self.peek()? == b'"' {
            self.string()?
        } else {
            let t = self.number()?;
            if !t.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
                return None;
            }
            Cow::Borrowed(t)
        };
        (!s.trim().is_empty()).then_some(s)
    }

    /// A number literal that `dense_key` takes (plain digits, no leading
    /// zero, below `DENSE_LIMIT`), read in one go; otherwise `None` with the
    /// cursor where it was.
    fn small_whole(&mut self) -> Option<usize> {
        self.ws();
        let start = self.i;
        let mut n = 0usize;
        while let Some(&c) = self.b.get(self.i).filter(|c| c.is_ascii_digit()) {
            n = n * 10 + usize::from(c - b'0');
            self.i += 1;
            if self.i - start > 7 {
                break;
            }
        }
        let plain = !matches!(self.b.get(self.i), Some(b'0'..=b'9' | b'.' | b'e' | b'E'));
        if self.i > start && self.b[start] != b'0' && plain && n < DENSE_LIMIT {
            return Some(n);
        }
        self.i = start;
        None
    }

    /// `Cx::pair`: exactly two numbers.
    fn pair(&mut self) -> Option<[Num; 2]> {
        self.eat(b'[')?;
        let a = self.num()?;
        self.eat(b',')?;
        let b = self.num()?;
        self.eat(b']')?;
        Some([a, b])
    }

    /// `once`, then the value: `Some(None)` when it is `null`, which the tree
    /// path takes as a field left out (the `null` is passed over).
    fn field(
        &mut self,
        seen: &mut u32,
        fields: &[&'static str],
        key: &str,
    ) -> Option<Option<&'static str>> {
        let f = once(seen, fields, key)?;
        Some((!self.null()).then_some(f))
    }

    /// Pass over a `null`, if that is what comes next.
    fn null(&mut self) -> bool {
        let null = self.peek() == Some(b'n') && self.b[self.i..].starts_with(b"null");
        if null {
            self.i += 4;
        }
        null
    }

    /// `Cx::values`: a table of numbers.
    fn values(&mut self) -> Option<BTreeMap<String, Num>> {
        let mut s = self.object()?;
        let mut out = BTreeMap::new();
        while let Some(k) = self.key(&mut s)? {
            let x = self.num()?;
            if out.insert(k.into_owned(), x).is_some() {
                return None; // a repeated key
            }
        }
        Some(out)
    }
}

/// The field of `fields` that `key` names, the first time it is seen (bit i
/// of `seen` marks field i); `None` for an unknown or repeated key.
fn once(seen: &mut u32, fields: &[&'static str], key: &str) -> Option<&'static str> {
    let i = fields.iter().position(|f| *f == key)?;
    first(seen, i)?;
    Some(fields[i])
}

/// Mark field `i` seen; `None` if it was already.
fn first(seen: &mut u32, i: usize) -> Option<()> {
    if *seen & (1 << i) != 0 {
        return None;
    }
    *seen |= 1 << i;
    Some(())
}

// ---------------------------------------------------------------------------
// Participant ids
// ---------------------------------------------------------------------------

/// Ids below this that are plain whole numbers (the usual case: starting
/// numbers) index a table directly instead of being hashed.
const DENSE_LIMIT: usize = 1 << 21;

/// Participant ids to indexes.
#[derive(Default)]
struct Ids<'a> {
    /// By number, for ids `dense_key` accepts; `u32::MAX` is no participant.
    dense: Vec<u32>,
    /// Every other id.
    other: HashMap<Cow<'a, str>, Pid>,
}

/// The number of an id written as a plain whole number (`"17"` or `17`, no
/// sign, no leading zero), below [`DENSE_LIMIT`].
fn dense_key(id: &str) -> Option<usize> {
    let b = id.as_bytes();
    if b.is_empty() || b.len() > 7 || b[0] == b'0' || !b.iter().all(u8::is_ascii_digit) {
        return None;
    }
    id.parse().ok().filter(|&n| n < DENSE_LIMIT)
}

impl<'a> Ids<'a> {
    fn get(&self, id: &str) -> Option<Pid> {
        match dense_key(id) {
            Some(n) => self.by_number(n),
            None => self.other.get(id).copied(),
        }
    }

    /// The participant whose id is the number `n`, for `n` that `dense_key`
    /// gives.
    fn by_number(&self, n: usize) -> Option<Pid> {
        match self.dense.get(n) {
            Some(&p) if p != u32::MAX => Some(p as Pid),
            _ => None,
        }
    }

    /// Add an id; `None` if it is taken.
    fn insert(&mut self, id: Cow<'a, str>, pid: Pid) -> Option<()> {
        if self.get(&id).is_some() {
            return None;
        }
        match dense_key(&id) {
            Some(n) => {
                if self.dense.len() <= n {
                    self.dense.resize(n + 1, u32::MAX);
                }
                // Pids stay below MAX_PARTICIPANTS, far below u32::MAX.
                self.dense[n] = u32::try_from(pid).ok()?;
            }
            None => {
                self.other.insert(id, pid);
            }
        }
        Some(())
    }
}

// ---------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------

// Games and byes are kept as small records while the text is read, and the
// participants' entries are made from them at the end, one participant after
// the other. Writing each entry as its game is read would touch a different
// participant's memory at every step; at 100,000 players that costs more
// than all the rest of the reading.

/// One game as read. Reading the games back at the end is a jump to a
/// random game for every entry, so a game takes 32 bytes, aligned: one
/// cache line for two games. What few games have is kept aside (`Extra`).
#[repr(align(32))]
struct GameRec {
    /// Home, away. (Participant indexes stay below `MAX_PARTICIPANTS`, and
    /// record indexes below the input size: all fit in a u32.)
    pids: [u32; 2],
    /// Home's and away's points, as indexes in `Recs::nums`.
    points: [u32; 2],
    /// Index in `Recs::extras`, or `NO_EXTRA`.
    extra: u32,
    /// At most `MAX_ROUNDS`. The session is `Recs::sessions[round]`.
    round: u16,
    /// A card result: games won by home, won by away, drawn (each at most
    /// 9999); `NO_GAMES` when the result is not one.
    games: [u16; 3],
    status: [Status; 2],
    outcome: [Outcome; 2],
}

const NO_EXTRA: u32 = u32::MAX;
const NO_GAMES: [u16; 3] = [u16::MAX; 3];

/// A game's weight other than 1, or units written in it.
struct Extra {
    /// Index in `Recs::nums`.
    weight: u32,
    /// `Recs::game_units[at..at + len]`.
    units: (u32, u32),
}

/// One bye as read.
struct ByeRec {
    pid: u32,
    round: u32,
    session: u32,
    status: Status,
    /// Index in `Recs::nums`.
    points: u32,
    /// `Recs::bye_units[at..at + len]`.
    units: (u32, u32),
}

/// The units a card result gives, unless the game writes them itself.
const DERIVED: [&str; 3] = ["games_won", "games_lost", "games_drawn"];

/// Slots of `Recs::nums` that are filled from the start.
const WIN: u32 = 0;
const DRAW: u32 = 1;
const LOSS: u32 = 2;
const ONE: u32 = 3;

#[derive(Default)]
struct Recs {
    games: Vec<GameRec>,
    extras: Vec<Extra>,
    byes: Vec<ByeRec>,
    /// The session of each round that has games, by round number (round
    /// numbers of round objects with games are all different).
    sessions: Vec<u32>,
    /// The values records point at: the scoring's win, draw and loss, 1,
    /// then every other value as it was read.
    nums: Vec<Num>,
    game_units: Vec<(UnitId, [Num; 2])>,
    bye_units: Vec<(UnitId, Num)>,
    /// The unit ids of `DERIVED`, once units are in their final order.
    derived: [UnitId; 3],
}

impl Recs {
    /// Index of a value added to `nums`.
    fn num(&mut self, x: Num) -> u32 {
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
}

// ---------------------------------------------------------------------------
// The schema
// ---------------------------------------------------------------------------

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
    disagree: Vec<(usize, [Num; 2], Cow<'a, str>)>,
    /// Decisions, read whenever they come and looked up at the end:
    /// (participant ids in order, reason).
    decisions: Vec<(Vec<Cow<'a, str>>, String)>,
    /// Result strings already parsed: a few texts make up nearly all games.
    results: Vec<(String, Res)>,
    /// Which of `DERIVED` are among the event's units.
    interned: [bool; 3],
    recs: Recs,
}

impl<'a> Reader<'a> {
    fn root(&mut self, lx: &mut Lex<'a>) -> Option<()> {
        let mut s = lx.object()?;
        let mut seen = 0;
        let fields = &["event", "participants", "rounds", "decisions"];
        while let Some(key) = lx.key(&mut s)? {
            let Some(field) = lx.field(&mut seen, fields, &key)? else {
                continue;
            };
            // Games name participants and are read with the event's sport
            // and scoring: those must come first.
            let late = seen & 0b0100 != 0;
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
            let Some(field) = lx.field(&mut seen, EVENT_FIELDS, &key)? else {
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
                        let Some(field) = lx.field(&mut seen, SCORING_FIELDS, &k)? else {
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
                "values" => ev.values = lx.values()?,
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
            let (p, id) = read_participant(lx)?;
            self.ids.insert(id, self.ev.participants.len())?;
            self.ev.participants.push(p);
        }
        Some(())
    }

    fn rounds(&mut self, lx: &mut Lex<'a>) -> Option<()> {
        let sc = self.ev.scoring;
        self.recs.nums = vec![sc.win, sc.draw, sc.loss, Num::ONE];
        self.last = vec![0; self.ev.participants.len()];
        let mut s = lx.array()?;
        let mut position = 0usize;
        while lx.more(&mut s)? {
            self.read_round(lx, position)?;
            position += 1;
        }
        Some(())
    }

    /// `read_round`. `round` and `session` may come after the games and
    /// byes (keys in name order put them last), so the records are given
    /// their round and session, and the points warnings written, at the end.
    fn read_round(&mut self, lx: &mut Lex<'a>, position: usize) -> Option<()> {
        let (games, byes) = (self.recs.games.len(), self.recs.byes.len());
        self.serial += 1;
        let mut s = lx.object()?;
        let mut seen = 0;
        let (mut round, mut session) = (None, 1);
        while let Some(key) = lx.key(&mut s)? {
            let Some(field) = lx.field(&mut seen, ROUND_FIELDS, &key)? else {
                continue;
            };
            match field {
                "round" => round = Some(lx.count()?),
                "session" => session = lx.count()?,
                // Stages (bridge knockouts) are left to the tree path.
                "stage" => return None,
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

    /// `unit_id`.
    fn unit(&mut self, name: &str) -> Option<UnitId> {
        if self.ev.find_unit(name).is_none() && self.ev.units.len() >= MAX_UNITS {
            return None;
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
        let mut s = lx.object()?;
        let mut seen = 0;
        let (mut home, mut away, mut result, mut points, mut weight) =
            (None, None, None, None, None);
        let mut units: Vec<(Cow<'a, str>, [Num; 2])> = Vec::new();
        while let Some(key) = lx.key(&mut s)? {
            // Matched directly, not through a field list: there is a game
            // for every two entries of the event.
            let field = match key.as_ref() {
                "home" => 0,
                "away" => 1,
                "result" => 2,
                "points" => 3,
                "weight" => 4,
                "boards" => 5,
                "home_partner" => 6,
                "away_partner" => 7,
                _ => {
                    // Every other key is a unit: [home, away].
                    if units.iter().any(|(n, _)| *n == key) {
                        return None;
                    }
                    let pair = lx.pair()?;
                    units.push((key, pair));
                    continue;
                }
            };
            first(&mut seen, field)?;
            if lx.null() {
                continue; // a field left out
            }
            match field {
                0 => home = Some(self.lookup(lx)?),
                1 => away = Some(self.lookup(lx)?),
                2 => result = Some(lx.string()?),
                3 => points = Some(lx.pair()?),
                4 => {
                    let w = lx.num()?;
                    if w <= Num::ZERO {
                        return None;
                    }
                    weight = Some(w);
                }
                // Boards and partners: left to the tree path.
                _ => return None,
            }
        }
        let (home, away) = (home?, away?);
        self.appear(home)?;
        self.appear(away)?;
        let parsed = match &result {
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
                    self.unit(name)?;
                    self.interned[i] = true;
                }
            }
        }
        let at = self.recs.game_units.len() as u32;
        for (name, pair) in &units {
            let u = self.unit(name)?;
            self.recs.game_units.push((u, *pair));
        }

        let (mut status_h, mut status_a) = (Status::Played, Status::Played);
        let outcome_from_result = match parsed {
            Some(Res::Outcomes(h, _)) => Some(h),
            Some(Res::Games(w, l, _)) => {
                Some(compare(Num::int(i64::from(w)), Num::int(i64::from(l))))
            }
            Some(Res::Forfeit(home_won)) => {
                if home_won {
                    (status_h, status_a) = (Status::ForfeitWin, Status::ForfeitLoss);
                    Some(Outcome::Win)
                } else {
                    (status_h, status_a) = (Status::ForfeitLoss, Status::ForfeitWin);
                    Some(Outcome::Loss)
                }
            }
            Some(Res::DoubleForfeit) => {
                (status_h, status_a) = (Status::DoubleForfeit, Status::DoubleForfeit);
                None
            }
            None => None,
        };
        let result_outcomes = match parsed {
            Some(Res::Outcomes(h, a)) => Some((h, a)),
            Some(Res::DoubleForfeit) => Some((Outcome::Loss, Outcome::Loss)),
            _ => outcome_from_result.map(|o| (o, flip(o))),
        };
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
            if let (Some((h, a)), Some(text)) = (result_outcomes, &result) {
                let by_points = compare(p[0], p[1]);
                if h == flip(a) && by_points != h && status_h == Status::Played {
                    let g = self.recs.games.len();
                    self.disagree.push((g, p, text.clone()));
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
        let mut units: Vec<(Cow<'a, str>, Num)> = Vec::new();
        while let Some(key) = lx.key(&mut s)? {
            let field = match key.as_ref() {
                "id" => 0,
                "type" => 1,
                "points" => 2,
                _ => {
                    // Every other key is a unit: one number.
                    if units.iter().any(|(n, _)| *n == key) {
                        return None;
                    }
                    let x = lx.num()?;
                    units.push((key, x));
                    continue;
                }
            };
            first(&mut seen, field)?;
            if lx.null() {
                continue; // a field left out
            }
            match field {
                0 => who = Some(self.lookup(lx)?),
                1 => {
                    status = match lx.string()?.as_ref() {
                        "pairing" => Status::PairingBye,
                        "full" => Status::FullBye,
                        "half" => Status::HalfBye,
                        "zero" => Status::ZeroBye,
                        "absent" => Status::Absent,
                        _ => return None,
                    }
                }
                _ => points = Some(lx.num()?),
            }
        }
        let at = self.recs.bye_units.len() as u32;
        for (name, x) in &units {
            let u = self.unit(name)?;
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
                let Some(field) = lx.field(&mut seen, DECISION_FIELDS, &key)? else {
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
        if n as u64 * u64::from(ev.rounds) > MAX_PARTICIPANT_ROUNDS {
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
        let mid = if threads >= 2 && n.saturating_mul(rounds) >= PARALLEL_ENTRIES {
            n / 2
        } else {
            n
        };
        let (head, tail) = ev.participants.split_at_mut(mid);
        let (mut warnings, rest) = std::thread::scope(|s| {
            let job = (!tail.is_empty()).then(|| s.spawn(|| build(tail, mid)));
            let warnings = build(head, 0);
            let rest = job.map(|j| j.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
            (warnings, rest)
        });
        warnings.extend(rest.unwrap_or_default());
        ev.warnings
            .extend(warnings.into_iter().map(crate::model::Warning::from));
        // Bridge knockouts (stages, carry-over) and declared session scores
        // that disagree with the games: the tree path reports or notes them.
        if ev.sport == Sport::Bridge
            && (ev.system == System::Knockout || ev.find_unit("carryover").is_some())
        {
            return None;
        }
        if !super::session_mismatches(&ev).is_empty() || !super::without_field(&ev).is_empty() {
            return None;
        }
        // The names the file carries (no lines: this reader keeps no spans).
        ev.data_names = Some(crate::model::DataNames::of(&ev));
        Some(ev)
    }
}

/// `read_participant`: the participant and its id.
fn read_participant<'a>(lx: &mut Lex<'a>) -> Option<(Participant, Cow<'a, str>)> {
    let mut s = lx.object()?;
    let mut seen = 0;
    let mut p = Participant::new(String::new(), String::new());
    let (mut id, mut name) = (None, None);
    while let Some(key) = lx.key(&mut s)? {
        let Some(field) = lx.field(&mut seen, PARTICIPANT_FIELDS, &key)? else {
            continue;
        };
        match field {
            "id" => id = Some(lx.id()?),
            "name" => name = Some(lx.text()?),
            "rating" => p.rating = Some(lx.whole()?),
            "title" => p.title = Some(lx.text()?),
            "federation" => p.federation = Some(lx.text()?),
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
            "values" => p.values = lx.values()?,
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
        let Some(field) = lx.field(&mut seen, MEMBER_FIELDS, &key)? else {
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
