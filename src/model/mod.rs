//! The tournament model every loader produces and the evaluator reads: one shape for chess, team chess, cards and bridge.
//!
//! A participant (player, pair, team) has one *entry* per encounter it took
//! part in, in round order. A round normally gives one entry; a bridge
//! triangle gives two half-weight entries in the same round; a round a
//! participant did not play gives one unplayed entry (bye, forfeit, absent)
//! carrying the points it was awarded. Every loader fills in an entry for
//! every scheduled round, so "the participant's rounds" is always complete.

use crate::codes;
use crate::num::Num;
use std::collections::BTreeMap;

/// Which game the event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sport {
    /// Individual or team chess.
    Chess,
    /// Card games scored by matches of several games (Magic-style Swiss).
    Cards,
    /// Contract bridge.
    Bridge,
    /// Anything else.
    Other,
}

/// How the event was paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum System {
    /// Swiss system.
    Swiss,
    /// All-play-all, single or multiple.
    RoundRobin,
    /// Knockout matches.
    Knockout,
    /// A movement (pairs events: Mitchell, Howell, ...).
    Movement,
    /// Not known.
    Other,
}

/// Participants of an event are all of one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// One player.
    Player,
    /// A bridge pair.
    Pair,
    /// A team.
    Team,
}

/// Points for a win, a draw and a loss in the event's primary unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    /// Points for a win (chess 1, cards 3, team chess MP 2).
    pub win: Num,
    /// Points for a draw.
    pub draw: Num,
    /// Points for a loss.
    pub loss: Num,
}

impl Scoring {
    /// Chess individual: 1, ½, 0.
    pub fn chess() -> Scoring {
        Scoring {
            win: Num::ONE,
            draw: Num::ratio(1, 2).unwrap_or(Num::ZERO),
            loss: Num::ZERO,
        }
    }
    /// Card-game matches: 3, 1, 0.
    pub fn cards() -> Scoring {
        Scoring {
            win: Num::int(3),
            draw: Num::ONE,
            loss: Num::ZERO,
        }
    }
    /// The outcome that `points` corresponds to (FIDE 16.3.1, 16.4: "the
    /// result corresponding to the awarded number of points").
    pub fn outcome_of(&self, points: Num) -> Outcome {
        if points >= self.win {
            Outcome::Win
        } else if points > self.loss && points >= self.draw {
            Outcome::Draw
        } else if points > self.loss {
            // Between loss and draw (never in the shipped scorings): nearest below.
            Outcome::Loss
        } else {
            Outcome::Loss
        }
    }
}

/// Win, draw or loss from one side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Won.
    Win,
    /// Drawn (or, for cards, an unfinished match with equal games).
    Draw,
    /// Lost.
    Loss,
}

/// What happened to one participant in one entry. FIDE Art. 16 needs every
/// kind of unplayed round kept apart, so the model keeps them all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Played over the board / at the table.
    Played,
    /// Won by forfeit (the opponent did not appear).
    ForfeitWin,
    /// Lost by forfeit (did not appear); the scheduled opponent is kept.
    ForfeitLoss,
    /// Both sides forfeited.
    DoubleForfeit,
    /// Pairing-allocated bye (odd number of participants).
    PairingBye,
    /// Full-point bye on request (not pairing-allocated).
    FullBye,
    /// Half-point bye on request.
    HalfBye,
    /// Zero-point bye on request.
    ZeroBye,
    /// Not paired and not present (includes every round after withdrawal).
    Absent,
}

impl Status {
    /// Played over the board.
    pub fn played(self) -> bool {
        self == Status::Played
    }
    /// A forfeit of either side.
    pub fn forfeit(self) -> bool {
        matches!(
            self,
            Status::ForfeitWin | Status::ForfeitLoss | Status::DoubleForfeit
        )
    }
    /// Any kind of bye (no opponent was scheduled).
    pub fn bye(self) -> bool {
        matches!(
            self,
            Status::PairingBye | Status::FullBye | Status::HalfBye | Status::ZeroBye
        )
    }
    /// Stable lower-case name, used in output and diagnostics.
    pub fn name(self) -> &'static str {
        match self {
            Status::Played => "played",
            Status::ForfeitWin => "forfeit-win",
            Status::ForfeitLoss => "forfeit-loss",
            Status::DoubleForfeit => "double-forfeit",
            Status::PairingBye => "pairing-bye",
            Status::FullBye => "full-bye",
            Status::HalfBye => "half-bye",
            Status::ZeroBye => "zero-bye",
            Status::Absent => "absent",
        }
    }
}

/// Colour in chess, direction in bridge, home/away in team events.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// White / North-South / home: the first-named side.
    First,
    /// Black / East-West / away: the second-named side.
    Second,
}

/// The stage of an event a round belongs to, as the data states it
/// (native `stage = "knockout"` on a round). WBF section 2 needs to know
/// which rounds are the knockout match: it is never inferred from session
/// numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Stage {
    /// The data does not say.
    #[default]
    Unstated,
    /// A qualification (round robin or Swiss) before a knockout.
    Qualification,
    /// A knockout match (quarter-final, semi-final, ...).
    Knockout,
    /// The final (a knockout match).
    Final,
    /// A play-off (a knockout match).
    PlayOff,
}

impl Stage {
    /// The stage named as in the native format; None for another name.
    pub fn by_name(s: &str) -> Option<Stage> {
        Some(match s {
            "qualification" => Stage::Qualification,
            "knockout" => Stage::Knockout,
            "final" => Stage::Final,
            "play-off" | "playoff" => Stage::PlayOff,
            _ => return None,
        })
    }
    /// The names [`Stage::by_name`] reads, for help texts.
    pub const NAMES: &'static str = "qualification, knockout, final, play-off";
    /// A knockout match: WBF 2 "any knockout stage including the finals
    /// and play-off".
    pub fn knockout(self) -> bool {
        matches!(self, Stage::Knockout | Stage::Final | Stage::PlayOff)
    }
}

/// Index of a participant in [`Event::participants`].
pub type Pid = usize;

/// Interned name of a scoring unit ("imps", "vp", "gp", "games_won", ...).
pub type UnitId = u16;

/// One board inside an encounter: a team-chess board game or a bridge board.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    /// Board number within the match (team chess: 1 = top board) or the
    /// deal number (bridge).
    pub number: u32,
    /// This side's score on the board (game points; IMPs; matchpoints; ...).
    pub score: Num,
    /// The most that could be scored on the board (matchpoint top), if known.
    pub top: Option<Num>,
    /// Whether this board was actually played (143.5.5: an unplayed board
    /// carries the score awarded at the time).
    pub played: bool,
}

/// One participant's side of one encounter (or of an unplayed round).
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// Round number, from 1.
    pub round: u32,
    /// Session this round belongs to (pairs events), from 1.
    pub session: u32,
    /// The stage the round belongs to, as the data states it (bridge: the
    /// knockout match is the rounds of stage `knockout`, never inferred).
    pub stage: Stage,
    /// Who was met or scheduled (forfeits keep the scheduled opponent).
    pub opponent: Option<Pid>,
    /// Partner in an individual bridge event.
    pub partner: Option<Pid>,
    /// What happened.
    pub status: Status,
    /// Result from this side's point of view (for unplayed rounds, the one
    /// corresponding to the awarded points).
    pub outcome: Outcome,
    /// Points awarded in the event's primary unit.
    pub points: Num,
    /// Colour / direction / home-away.
    pub side: Option<Side>,
    /// How much this meeting counts (1; a triangle's half match ½).
    pub weight: Num,
    /// Units, opposing units and boards, out of line: they are empty in
    /// individual chess, where an event can hold millions of entries, and
    /// three inline `Vec`s would nearly double the size of every entry.
    /// None when all three are empty, never an all-empty [`EntryExtra`]
    /// (write it only through [`EntryExtra::new`] or the setters), so the
    /// derived equality still means "same units, against and boards".
    pub(crate) extra: Option<Box<EntryExtra>>,
}

// Events hold one entry per participant and round (1.5 million at 100,000
// players x 15 rounds) and filling fresh pages dominates the run time at
// that size: keep rarely used data out of line so this stays small.
const _: () = assert!(std::mem::size_of::<Entry>() <= 96);

/// The parts of an [`Entry`] most events leave empty (see [`Entry::units`],
/// [`Entry::against`], [`Entry::boards`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EntryExtra {
    /// This side's values in named units (IMPs, VPs, MP, GP, games won, ...).
    pub units: Vec<(UnitId, Num)>,
    /// The opposing side's values in the same units, when there is one.
    pub against: Vec<(UnitId, Num)>,
    /// Boards, when the data has them.
    pub boards: Vec<Board>,
}

impl EntryExtra {
    /// The value of [`Entry`]'s `extra` for these parts: None when all
    /// three are empty (and then nothing is allocated).
    pub fn new(
        units: Vec<(UnitId, Num)>,
        against: Vec<(UnitId, Num)>,
        boards: Vec<Board>,
    ) -> Option<Box<EntryExtra>> {
        if units.is_empty() && against.is_empty() && boards.is_empty() {
            None
        } else {
            Some(Box::new(EntryExtra {
                units,
                against,
                boards,
            }))
        }
    }
}

impl Entry {
    /// An unplayed entry with no opponent.
    pub fn unplayed(round: u32, status: Status, points: Num, scoring: &Scoring) -> Entry {
        Entry {
            round,
            session: 1,
            stage: Stage::Unstated,
            opponent: None,
            partner: None,
            status,
            outcome: scoring.outcome_of(points),
            points,
            side: None,
            weight: Num::ONE,
            extra: None,
        }
    }
    /// This side's values in named units (IMPs, VPs, MP, GP, games won, ...).
    pub fn units(&self) -> &[(UnitId, Num)] {
        self.extra.as_deref().map_or(&[], |x| &x.units)
    }
    /// The opposing side's values in the same units, when there is one.
    pub fn against(&self) -> &[(UnitId, Num)] {
        self.extra.as_deref().map_or(&[], |x| &x.against)
    }
    /// Boards, when the data has them.
    pub fn boards(&self) -> &[Board] {
        self.extra.as_deref().map_or(&[], |x| &x.boards)
    }
    /// [`Entry::units`], to change in place (a slice: its length, and so
    /// whether `extra` is needed, cannot change).
    pub fn units_mut(&mut self) -> &mut [(UnitId, Num)] {
        self.extra.as_deref_mut().map_or(&mut [], |x| &mut x.units)
    }
    /// [`Entry::against`], to change in place.
    pub fn against_mut(&mut self) -> &mut [(UnitId, Num)] {
        self.extra
            .as_deref_mut()
            .map_or(&mut [], |x| &mut x.against)
    }
    /// Replace [`Entry::units`].
    pub fn set_units(&mut self, units: Vec<(UnitId, Num)>) {
        let x = self.take_extra();
        self.extra = EntryExtra::new(units, x.against, x.boards);
    }
    /// Replace [`Entry::against`].
    pub fn set_against(&mut self, against: Vec<(UnitId, Num)>) {
        let x = self.take_extra();
        self.extra = EntryExtra::new(x.units, against, x.boards);
    }
    /// Replace [`Entry::boards`].
    pub fn set_boards(&mut self, boards: Vec<Board>) {
        let x = self.take_extra();
        self.extra = EntryExtra::new(x.units, x.against, boards);
    }
    /// The out-of-line parts, leaving None (the setters rebuild `extra`
    /// through [`EntryExtra::new`], which keeps it None when all are empty).
    fn take_extra(&mut self) -> EntryExtra {
        self.extra.take().map(|x| *x).unwrap_or_default()
    }
    /// Value of a unit for this side, if recorded.
    pub fn unit(&self, u: UnitId) -> Option<Num> {
        self.units().iter().find(|(k, _)| *k == u).map(|(_, v)| *v)
    }
    /// Value of a unit for the opposing side, if recorded.
    pub fn unit_against(&self, u: UnitId) -> Option<Num> {
        self.against()
            .iter()
            .find(|(k, _)| *k == u)
            .map(|(_, v)| *v)
    }
}

/// A member of a team or pair, in board order.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// Identifier of the member (FIDE id, national number, ...).
    pub id: String,
    /// Name.
    pub name: String,
    /// Rating, if any.
    pub rating: Option<i64>,
}

/// A player, pair or team.
#[derive(Clone, Debug, PartialEq)]
pub struct Participant {
    /// Identifier as given in the data (TRF: starting number, unpadded).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Rating, if any.
    pub rating: Option<i64>,
    /// Title (chess).
    pub title: Option<String>,
    /// Federation or club.
    pub federation: Option<String>,
    /// Sex as the data writes it (TRF column 10: `m` or `w`), for categories.
    pub sex: Option<String>,
    /// Year of birth (TRF columns 70-73, native `born`), for categories:
    /// age categories go by the year of birth, so the year is all that is kept.
    pub born: Option<i64>,
    /// Roster / pair members in board order.
    pub members: Vec<Member>,
    /// Withdrew after this round (rounds after it are absent).
    pub withdrawn_after: Option<u32>,
    /// Entries in round order (several in one round for a triangle).
    pub entries: Vec<Entry>,
    /// Per-session scores (pairs events), session 1 first.
    pub sessions: Vec<Num>,
    /// Other per-participant numbers in the data: `carryover`,
    /// `qualification_rank`, recorded totals and so on.
    pub values: BTreeMap<String, Num>,
    /// The total the data itself records (TRF points column, USEBIO score), for checks.
    pub recorded_score: Option<Num>,
    /// The rank the data itself records (TRF rank column, USEBIO place), for `verify`.
    pub recorded_rank: Option<u32>,
}

impl Participant {
    /// A participant with only an id and a name.
    pub fn new(id: impl Into<String>, name: impl Into<String>) -> Participant {
        Participant {
            id: id.into(),
            name: name.into(),
            rating: None,
            title: None,
            federation: None,
            sex: None,
            born: None,
            members: Vec::new(),
            withdrawn_after: None,
            entries: Vec::new(),
            sessions: Vec::new(),
            values: BTreeMap::new(),
            recorded_score: None,
            recorded_rank: None,
        }
    }

    /// The field the participant is ranked in, when the event has several
    /// (a two-winner bridge movement: the participant value `field`, 1
    /// North-South, 2 East-West). Each field is ranked on its own, with
    /// places from 1 (`rank.rs`).
    pub fn field(&self) -> Option<Num> {
        self.values.get(FIELD_VALUE).copied()
    }
}

/// The participant value naming the field a participant is ranked in.
pub const FIELD_VALUE: &str = "field";

/// How a field is printed: `NS` for 1, `EW` for 2 (a two-winner bridge
/// movement), else the number.
pub fn field_name(field: Num) -> String {
    if field == Num::ONE {
        "NS".to_string()
    } else if field == Num::int(2) {
        "EW".to_string()
    } else {
        field.to_string()
    }
}

/// A decision taken outside the rules and recorded in the data (a play-off
/// result): these participants, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    /// Participants in the decided order.
    pub order: Vec<Pid>,
    /// What decided it ("play-off", "sudden death board 1").
    pub reason: String,
}

/// A whole event, ready to evaluate.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// Event name.
    pub name: String,
    /// Which game.
    pub sport: Sport,
    /// Whether the data says which game it is (native `sport`, CSV
    /// `# sport:`, or a format of one game: TRF, USEBIO) rather than
    /// `sport` being the default: only a declared sport is compared with a
    /// ruleset's (`check::sport_mismatch`).
    pub sport_declared: bool,
    /// Pairing system.
    pub system: System,
    /// Participant kind.
    pub kind: Kind,
    /// Number of rounds the standings cover: the rounds played (those with
    /// results; `load::rounds` leaves out later rounds that hold only
    /// pre-entered byes or nothing), or the round asked for with
    /// `--after-round`. Every entry's round is at most this.
    pub rounds: u32,
    /// The number of rounds the data schedules, when the standings stand
    /// before its end (TRF `XXR 9` after round 7: `Some(9)`, with `rounds`
    /// 7); None when they cover every scheduled round, or the data does
    /// not say how many there will be.
    pub scheduled: Option<u32>,
    /// Points for win, draw, loss in the primary unit.
    pub scoring: Scoring,
    /// Start date as written (YYYY-MM-DD or YYYY/MM/DD), if known.
    pub start_date: Option<String>,
    /// Names of the units used in entries, indexed by [`UnitId`].
    pub units: Vec<String>,
    /// All participants.
    pub participants: Vec<Participant>,
    /// Decisions recorded in the data.
    pub decisions: Vec<Decision>,
    /// Event-level numbers (e.g. `board_top`, `boards_per_match`).
    pub values: BTreeMap<String, Num>,
    /// A tie-break list the data carries (TRF-26 records 202/212), as descriptors.
    pub tiebreaks: Vec<String>,
    /// Warnings the loader found (recorded totals that disagree, ...).
    pub warnings: Vec<Warning>,
    /// What the loader did that is no slip but changes what is ranked
    /// (rounds not yet played left out): printed with the standings,
    /// never an error under `--strict`.
    pub notes: Vec<String>,
    /// The data names a native file carries (values typed by a user), for
    /// the check against what a ruleset reads; None for the formats whose
    /// names the format itself fixes (TRF, USEBIO, CSV).
    pub data_names: Option<DataNames>,
    /// The decimal places the file writes its scores with (USEBIO's
    /// `53.40`: 2), for showing them so; None where the format does not say
    /// (every format but USEBIO).
    pub score_places: Option<u32>,
}

/// The data value names a native file carries: participant values, event
/// values and game units, each with the line of its first occurrence where
/// the reader knows it (the TOML and JSON tree readers; the one-pass JSON
/// reader gives no lines). Lines are a diagnostic aid, not data: two
/// `DataNames` with the same names are equal.
#[derive(Clone, Debug, Default)]
pub struct DataNames {
    /// Participant value name → (first participant that has it, its line).
    pub participant: BTreeMap<String, (String, Option<usize>)>,
    /// Event value name → its line.
    pub event: BTreeMap<String, Option<usize>>,
    /// Game unit name → the line of its first use.
    pub units: BTreeMap<String, Option<usize>>,
}

impl PartialEq for DataNames {
    fn eq(&self, o: &DataNames) -> bool {
        self.participant.keys().eq(o.participant.keys())
            && self.event.keys().eq(o.event.keys())
            && self.units.keys().eq(o.units.keys())
    }
}

impl DataNames {
    /// The names an event's data carries, without lines.
    pub fn of(ev: &Event) -> DataNames {
        let mut n = DataNames::default();
        for p in &ev.participants {
            for k in p.values.keys() {
                n.participant
                    .entry(k.clone())
                    .or_insert_with(|| (p.id.clone(), None));
            }
        }
        n.event = ev.values.keys().map(|k| (k.clone(), None)).collect();
        n.units = ev.units.iter().map(|k| (k.clone(), None)).collect();
        n
    }
}

/// A warning about the data: a stable code (in docs/errors.md) and what it
/// says. The run goes on; `--strict` makes it an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The stable code, e.g. `tb::load::warning`.
    pub code: &'static str,
    /// What is wrong, naming the participant and round where there are.
    pub message: String,
}

impl Warning {
    /// A warning with its own code.
    pub fn new(code: &'static str, message: impl Into<String>) -> Warning {
        Warning {
            code,
            message: message.into(),
        }
    }
}

/// A loader's general warning (`tb::load::warning`): a recorded total that
/// disagrees, a game after a withdrawal, ...
impl From<String> for Warning {
    fn from(message: String) -> Warning {
        Warning::new(codes::LOAD_WARNING, message)
    }
}

impl From<&str> for Warning {
    fn from(message: &str) -> Warning {
        Warning::from(message.to_string())
    }
}

/// A warning reads as its message (tests and the JSON output's `warnings`).
impl std::ops::Deref for Warning {
    type Target = str;
    fn deref(&self) -> &str {
        &self.message
    }
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// In the JSON output a warning is its message, as it always was.
impl serde::Serialize for Warning {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.message)
    }
}

impl Event {
    /// An empty event.
    pub fn new(name: impl Into<String>, sport: Sport, system: System, rounds: u32) -> Event {
        Event {
            name: name.into(),
            sport,
            sport_declared: false,
            system,
            kind: Kind::Player,
            rounds,
            scheduled: None,
            scoring: match sport {
                Sport::Cards => Scoring::cards(),
                _ => Scoring::chess(),
            },
            start_date: None,
            units: Vec::new(),
            participants: Vec::new(),
            decisions: Vec::new(),
            values: BTreeMap::new(),
            tiebreaks: Vec::new(),
            warnings: Vec::new(),
            notes: Vec::new(),
            data_names: None,
            score_places: None,
        }
    }

    /// The id of a unit, adding it if new.
    pub fn unit_id(&mut self, name: &str) -> UnitId {
        if let Some(i) = self.units.iter().position(|u| u == name) {
            return i as UnitId;
        }
        self.units.push(name.to_string());
        (self.units.len() - 1) as UnitId
    }

    /// The id of a unit, if the event has it.
    pub fn find_unit(&self, name: &str) -> Option<UnitId> {
        self.units
            .iter()
            .position(|u| u == name)
            .map(|i| i as UnitId)
    }

    /// Index of a participant by id.
    pub fn find(&self, id: &str) -> Option<Pid> {
        self.participants.iter().position(|p| p.id == id)
    }

    /// `(rounds, scheduled)` when the standings stand before the event's
    /// end: "after round 7 of 9" on every published output.
    pub fn stands_after(&self) -> Option<(u32, u32)> {
        self.scheduled
            .filter(|&m| m > self.rounds)
            .map(|m| (self.rounds, m))
    }

    /// The last round in which any entry is a result: a game played or
    /// forfeited (0 when there is none). Rounds after it hold at most byes
    /// entered ahead and absences: they are not yet played (`load::rounds`).
    /// Cheap on a complete event: it stops at the first participant with a
    /// result in the last round.
    pub fn last_round_with_results(&self) -> u32 {
        let mut last = 0;
        for p in &self.participants {
            // Entries are in round order: the last result is found from the end.
            if let Some(e) = p
                .entries
                .iter()
                .rev()
                .take_while(|e| e.round > last)
                .find(|e| e.status.played() || e.status.forfeit())
            {
                last = e.round;
                if last >= self.rounds {
                    break;
                }
            }
        }
        last
    }

    /// The event as it stood after round `n` (`--after-round`): later rounds'
    /// results are left out, byes entered for them too. What the file records
    /// at its end (each participant's total and rank, play-off decisions) no
    /// longer holds and is dropped, so `verify` and the totals' check compare
    /// nothing stale. An error, for the user, when `n` is past the rounds with
    /// results; round `n` itself may be the last: nothing changes then.
    pub fn after_round(&mut self, n: u32) -> Result<(), String> {
        if n > self.rounds {
            let of = match self.scheduled {
                Some(m) => format!(" of {m}"),
                None => String::new(),
            };
            return Err(format!(
                "the event has results up to round {}{of}; there is no round {n} to stand after",
                self.rounds
            ));
        }
        if n == self.rounds {
            return Ok(());
        }
        let scheduled = self.scheduled.unwrap_or(self.rounds);
        let played = self.rounds;
        self.keep_rounds(n);
        self.scheduled = Some(scheduled);
        for p in &mut self.participants {
            p.recorded_score = None;
            p.recorded_rank = None;
        }
        self.decisions.clear();
        self.notes.push(format!(
            "Standings after round {n} of {scheduled} (--after-round): the results of round{} {} are left out",
            if played == n + 1 { "" } else { "s" },
            if played == n + 1 {
                played.to_string()
            } else {
                format!("{}-{played}", n + 1)
            }
        ));
        Ok(())
    }

    /// Keep rounds 1 to `n` only: later entries are dropped, and so are the
    /// session scores of sessions with a round after `n` and withdrawals
    /// after `n`; `rounds` becomes `n`. What is dropped is counted by round
    /// and kind, for the note that says so. The recorded totals, ranks and
    /// decisions are kept: the caller knows whether they still hold.
    pub fn keep_rounds(&mut self, n: u32) -> Vec<(u32, Status, usize)> {
        let mut dropped: Vec<(u32, Status, usize)> = Vec::new();
        let mut first_cut_session = u32::MAX;
        for p in &mut self.participants {
            let keep = p.entries.partition_point(|e| e.round <= n);
            for e in &p.entries[keep..] {
                first_cut_session = first_cut_session.min(e.session);
                match dropped
                    .iter_mut()
                    .find(|d| d.0 == e.round && d.1 == e.status)
                {
                    Some(d) => d.2 += 1,
                    None => dropped.push((e.round, e.status, 1)),
                }
            }
            p.entries.truncate(keep);
            if p.withdrawn_after.is_some_and(|w| w > n) {
                p.withdrawn_after = None;
            }
        }
        if first_cut_session != u32::MAX {
            let whole = first_cut_session.saturating_sub(1) as usize;
            for p in &mut self.participants {
                p.sessions.truncate(whole);
            }
        }
        self.rounds = n;
        dropped.sort_by_key(|d| (d.0, d.1.name()));
        dropped
    }

    /// Fill every scheduled round a participant has no entry for with an
    /// absent, zero-point entry; sort entries by round. Loaders call this last.
    pub fn complete_rounds(&mut self) {
        let scoring = self.scoring;
        let rounds = self.rounds;
        let mut present = vec![false; rounds as usize + 1];
        for p in &mut self.participants {
            present.iter_mut().for_each(|x| *x = false);
            for e in &p.entries {
                if let Some(x) = present.get_mut(e.round as usize) {
                    *x = true;
                }
            }
            for r in 1..=rounds {
                if !present[r as usize] {
                    p.entries
                        .push(Entry::unplayed(r, Status::Absent, scoring.loss, &scoring));
                }
            }
            p.entries.sort_by_key(|e| e.round);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Entries compare equal whether their empty units, against and boards
    /// were never set or set to empty: `extra` never holds an all-empty box.
    #[test]
    fn empty_extras_are_none() {
        let scoring = Scoring::chess();
        let plain = Entry::unplayed(1, Status::Played, Num::ONE, &scoring);
        let mut e = plain.clone();
        e.set_units(vec![(0, Num::ONE)]);
        e.set_boards(Vec::new());
        assert_eq!(e.units(), &[(0, Num::ONE)]);
        assert_ne!(e, plain);
        e.set_units(Vec::new());
        assert!(e.extra.is_none());
        assert_eq!(e, plain);
        assert_eq!(EntryExtra::new(Vec::new(), Vec::new(), Vec::new()), None);
    }
}
