//! FIDE Tournament Report File: TRF16 and TRF-26, individual events.
//!
//! Layout (FIDE handbook C.04 Annex 2, TRF16; and TRF-26, "Format of
//! Tournament Report File, Version 2026"), columns 1-based:
//!
//! * every record starts with a three-character tag in columns 1-3;
//!   `###` lines are comments;
//! * `001` player lines: starting number 5-8, sex 10, title 11-13, name
//!   15-47, rating 49-52, federation 54-56, FIDE id 58-68, birth date 70-79,
//!   points 81-84, rank 86-89, then one ten-column block per round from
//!   column 92: opponent 92-95 (`0000` or blank for none), colour 97
//!   (`w`, `b`, `-` or blank), result 99;
//! * result codes: `1 = 0` played; `W D L` played but unrated (under one
//!   move); `+ -` forfeit win and loss (a `-` on both sides of a pairing is a
//!   double forfeit); `H F U Z` half-point, full-point, pairing-allocated and
//!   zero-point bye; blank = not paired. With opponent `0000`, `+` is a
//!   forfeit win with no opponent (a team board left empty), `-` is an
//!   absence and `=` is a half-point bye in the old notation (read as `H`,
//!   with a warning naming the lines). Letter codes are case-insensitive.
//! * header records read: `012` name, `042` start date, `092` type text,
//!   `142` (TRF-26) and `XXR` (JaVaFo) number of rounds, `192` (TRF-26)
//!   encoded type (in a team event also the primary score: `team`), `162` (TRF-26) points per result (`W D L A P X`, each
//!   code followed by its points), `202` / `212` (TRF-26) tie-break lists
//!   (comma-separated descriptors; `212` also names `PTS`), `240` (TRF-26)
//!   byes `T RRR PPPP PPPP ...`. `062` is the number of players, not of rounds.
//! * team records (`013`, `310`, `300`, `320`, `330`, `299`, `352`, `362`):
//!   a file with `310` or `013` is a team event, built by `team` from the
//!   players' games; `801`/`802` and every other record are skipped.
//!
//! Columns are counted in characters; a line with non-ASCII characters that
//! does not fit that way is retried with columns counted in bytes (files
//! written by programs that pad UTF-8 names by bytes).
//!
//! The parts: this file reads the records in order and makes the event
//! (`Loader::run` and its steps); `lines` (lines and columns), `players`
//! (`001` lines and their round blocks), `header` (records `162`, `240`,
//! the system), `results` (every player's entries, both sides of each game
//! checked), `team` (team events from the players' games), and `write`
//! (the file written back with computed ranks, `tb eval --write-trf`).

use crate::codes;
use crate::diag::{Diag, Source, Span};
use crate::model::{Event, Participant, Scoring, Sport};
use crate::num::Num;

mod header;
mod lines;
mod players;
mod results;
mod team;
pub mod write;

use header::{detect_system, ByeRec, Points};
use lines::{content, parse_u32, shown, split_lines, tokens, Cols, Line};
use players::{Block, ByNum, Raw, Tail};
use results::{total, Played};

/// Largest TRF file accepted, in bytes.
pub const MAX_BYTES: usize = 50 * 1024 * 1024;
/// Most player lines accepted.
pub const MAX_PLAYERS: usize = 100_000;
/// Most rounds accepted (TRF-26 writes round numbers in three digits).
pub const MAX_ROUNDS: u32 = 999;
/// Most player-rounds (players times rounds) accepted.
const MAX_ENTRIES: u64 = 2_000_000;
/// Errors reported at once; more are summarised.
const MAX_ERRORS: usize = 100;

const MALFORMED: &str = codes::LOAD_TRF_MALFORMED;
const UNKNOWN_OPPONENT: &str = codes::LOAD_TRF_UNKNOWN_OPPONENT;
const UNKNOWN_PLAYER: &str = codes::LOAD_TRF_UNKNOWN_PLAYER;
const INCONSISTENT: &str = codes::LOAD_TRF_INCONSISTENT_GAME;
const DUPLICATE: &str = codes::LOAD_TRF_DUPLICATE_PLAYER;
const TOO_LARGE: &str = codes::LOAD_TRF_TOO_LARGE;
const NO_PLAYERS: &str = codes::LOAD_TRF_NO_PLAYERS;

const LAYOUT_HELP: &str = "TRF 001 lines use fixed columns: starting number 5-8, name 15-47, \
rating 49-52, points 81-84, rank 86-89, then one 10-column block per round from column 92 \
(opponent 92-95, colour 97, result 99)";

/// Load a TRF event, with up to one thread per core (at most 8).
pub fn load_trf(source: &Source) -> Result<Event, Diag> {
    load_trf_with(source, crate::par::default_threads())
}

/// Load a TRF event with at most `threads` threads: a large file's player
/// lines are read in two halves at once when there are two or more. The
/// event and its diagnostics never depend on it.
pub fn load_trf_with(source: &Source, threads: usize) -> Result<Event, Diag> {
    if source.text.len() > MAX_BYTES {
        return Err(Diag::error(
            TOO_LARGE,
            format!(
                "{} is {} bytes; TRF files larger than {} bytes are not read",
                source.name,
                source.text.len(),
                MAX_BYTES
            ),
        )
        .in_source(source)
        .with_help("split the file or remove records tb does not need"));
    }
    let mut loader = Loader::new(source);
    loader.threads = threads.max(1);
    loader.run()
}

struct Loader<'s> {
    src: &'s Source,
    errors: Vec<Diag>,
    dropped: usize,
    warnings: Vec<String>,
    /// Lines with a half-point bye in the old notation (`0000 - =`), one
    /// per bye.
    old_half_byes: Vec<usize>,
    /// Games paired without a result yet: (round, index of the warning
    /// about it in `warnings`). In a round not yet played the warning
    /// gives way to the note that says so (`load::rounds`).
    paired: Vec<(u32, usize)>,
    /// Most threads to read with.
    threads: usize,
}

impl<'s> Loader<'s> {
    fn new(src: &'s Source) -> Loader<'s> {
        Loader {
            src,
            errors: Vec::new(),
            dropped: 0,
            warnings: Vec::new(),
            old_half_byes: Vec::new(),
            paired: Vec::new(),
            threads: 1,
        }
    }

    fn err(&mut self, d: Diag) {
        if self.errors.len() < MAX_ERRORS {
            self.errors.push(d);
        } else {
            self.dropped += 1;
        }
    }

    fn malformed(&self, l: &Line, cols: &Cols, c1: usize, c2: usize, what: &str) -> Diag {
        let found = if c1 > cols.width() {
            "the end of the line".to_string()
        } else {
            shown(cols.field_lossy(c1, c2))
        };
        let where_ = if c1 == c2 {
            format!("column {c1}")
        } else {
            format!("columns {c1}-{c2}")
        };
        let span = if c1 > cols.width() {
            let end = cols.base + cols.text.len();
            Span::new(end, end)
        } else {
            cols.span(c1, c2)
        };
        Diag::error(
            MALFORMED,
            format!("line {}, {where_}: expected {what}, found {found}", l.no),
        )
        .at(self.src, span, format!("expected {what}"))
        .with_help(LAYOUT_HELP)
    }

    /// Read the whole file: its records, then the event they make.
    fn run(mut self) -> Result<Event, Diag> {
        let src = self.src;
        let mut rec = Records::new(src.text.len());
        self.read_lines(&mut rec)?;
        if rec.raws.is_empty() && self.errors.is_empty() {
            return Err(
                Diag::error(NO_PLAYERS, format!("{} has no 001 player lines", src.name))
                    .in_source(src)
                    .with_help("a TRF file lists each player on a line starting with `001`"),
            );
        }
        if !rec.p_given {
            rec.pts.p = rec.pts.w;
        }
        let scoring = Scoring {
            win: rec.pts.w,
            draw: rec.pts.d,
            loss: rec.pts.l,
        };
        let rounds = self.rounds(&rec)?;
        // Team-type files skip the individual byes; a team event is one with
        // team rosters (310, or 013 in TRF16).
        let team_type = rec.team
            || rec
                .type_code
                .as_deref()
                .map(|t| t.to_ascii_uppercase().contains("TEAM"))
                .unwrap_or(false);
        let team = rec.team && team::is_team(&rec.team_records);
        let mut event = event_header(src, &mut rec, scoring, rounds);

        let mut played = self.games(
            &rec.raws,
            &rec.blocks,
            &rec.by_num,
            scoring,
            &rec.pts,
            rounds,
        );
        self.note_old_half_byes();
        // Participants, in file order: pid = index in `raws`.
        event.participants = std::mem::take(&mut rec.people);
        for (p, g) in event.participants.iter_mut().zip(&mut played) {
            p.entries = std::mem::take(&mut g.entries);
            if g.unrated > 0 {
                p.values
                    .insert("unrated_games".to_string(), Num::int(g.unrated));
            }
        }
        if !team_type {
            self.apply_byes(
                &rec.byes,
                &rec.raws,
                &rec.by_num,
                &mut event,
                &rec.pts,
                &mut played,
            );
            for no in &rec.abnormal {
                self.warnings.push(format!(
                    "record 299 (abnormal points) on line {no} is not applied"
                ));
            }
        }
        self.all_errors()?;
        if self.settle(&mut event) {
            // Points over the entries left, not the ones summed as they were read.
            played.iter_mut().for_each(|g| g.total = None);
        }
        self.check_totals(&rec.raws, &event, &played, event.rounds)?;

        event
            .warnings
            .extend(self.warnings.drain(..).map(crate::model::Warning::from));
        // `Event::complete_rounds` has nothing to do: every player has one
        // entry per round, in order, as `games` built them (a 240 bye
        // replaces an entry in place), and a pass over every entry costs a
        // tenth of the loading.
        debug_assert!(event.participants.iter().all(|p| p
            .entries
            .iter()
            .map(|e| e.round)
            .eq(1..=event.rounds)));
        if team {
            let team_byes: Vec<team::TeamBye> = rec
                .byes
                .iter()
                .map(|b| team::TeamBye {
                    line: b.line,
                    kind: b.kind,
                    round: b.round,
                    ids: b.ids.iter().map(|x| x.0).collect(),
                })
                .collect();
            return team::build(
                src,
                event,
                &rec.team_records,
                &team_byes,
                rec.type_code.as_deref(),
            );
        }
        Ok(event)
    }

    /// Every line of the file into `rec`. A large file's second half of
    /// player lines is read on a second thread meanwhile, and taken from it
    /// if it had nothing to say (`Tail`).
    fn read_lines(&mut self, rec: &mut Records<'s>) -> Result<(), Diag> {
        let text = &self.src.text;
        let mut lines = split_lines(text).peekable();
        let Some(at) = self.tail_start() else {
            return lines.try_for_each(|l| self.record(&l, rec, None));
        };
        let src = self.src;
        let (head, read) = crate::par::join(
            || {
                while let Some(l) = lines.next_if(|l| l.base < at) {
                    self.record(&l, rec, None)?;
                }
                Ok(())
            },
            || Loader::read_tail(src, at),
        );
        head?;
        let mut tail = Tail { at, read };
        lines.try_for_each(|l| self.record(&l, rec, Some(&mut tail)))
    }

    /// One line: a record read into `rec` (most are skipped).
    fn record(
        &mut self,
        l: &Line<'s>,
        rec: &mut Records<'s>,
        tail: Option<&mut Tail>,
    ) -> Result<(), Diag> {
        // The tag is the first three characters; every tag read is ASCII,
        // so its first three bytes are the same (and need no String): a
        // line where they are not whole characters is skipped either way.
        let tag = l.text.get(..3).unwrap_or("");
        let (coff, body) = content(l);
        match tag {
            "001" => self.player_line(l, rec, tail)?,
            "012" => rec.name = Some(body.trim().to_string()).filter(|s| !s.is_empty()),
            "042" => rec.start_date = Some(body.trim().to_string()).filter(|s| !s.is_empty()),
            "092" => rec.type_text = Some(body.trim().to_string()),
            "192" => rec.type_code = Some(body.trim().to_string()),
            "142" | "XXR" => self.rounds_record(l, tag, coff, body, rec),
            "162" => self.scoring(l, body, &mut rec.pts, &mut rec.p_given, &mut rec.explicit),
            "202" | "212" => {
                let list: Vec<String> = tokens(body, &[',']).into_iter().map(|(_, t)| t).collect();
                if tag == "202" {
                    rec.tb_202.get_or_insert_with(Vec::new).extend(list);
                } else {
                    rec.tb_212.get_or_insert_with(Vec::new).extend(list);
                }
            }
            "240" => {
                if let Some(b) = self.bye_record(l, coff, body) {
                    rec.byes.push(b);
                }
            }
            "013" | "310" | "300" | "320" | "330" | "352" | "362" | "299" => {
                if tag == "013" || tag == "310" {
                    rec.team = true;
                }
                if tag == "299" {
                    rec.abnormal.push(l.no);
                }
                rec.team_records.push(team::RecLine {
                    no: l.no,
                    base: l.base,
                    text: l.text,
                });
            }
            // 132 round dates, team records 300/320/330/352/362/801/802,
            // 250/260, NRS records, JaVaFo XX? records, rulers: skipped.
            _ => {}
        }
        Ok(())
    }

    /// A `001` line: the player (from the second thread where it read
    /// it), unless its starting number is taken.
    fn player_line(
        &mut self,
        l: &Line,
        rec: &mut Records,
        tail: Option<&mut Tail>,
    ) -> Result<(), Diag> {
        let src = self.src;
        rec.player_lines += 1;
        if rec.player_lines > MAX_PLAYERS {
            return Err(Diag::error(
                TOO_LARGE,
                format!(
                    "{} has more than {MAX_PLAYERS} player lines; tb reads at most {MAX_PLAYERS}",
                    src.name
                ),
            )
            .at(
                src,
                Span::new(l.base, l.base + l.text.len()),
                "one player too many",
            )
            .with_help("split the event into smaller files"));
        }
        let read = match tail.and_then(|t| t.player(l, &mut rec.blocks)) {
            Some(read) => Some(read),
            None => self.player(l, &mut rec.blocks),
        };
        let Some((raw, person)) = read else {
            return Ok(());
        };
        match rec.by_num.get(raw.num) {
            Some(first) => {
                let fl = rec.raws.get(first).map(|r| (r.line, r.num_span));
                let mut d = Diag::error(
                    DUPLICATE,
                    format!(
                        "line {}: starting number {} is already used on line {}",
                        l.no,
                        raw.num,
                        fl.map(|f| f.0).unwrap_or(0)
                    ),
                )
                .at(src, raw.num_span, "listed again here");
                if let Some((_, sp)) = fl {
                    d = d.at(src, sp, "first listed here");
                }
                self.err(d.with_help("every 001 line needs its own starting number (columns 5-8)"));
                // Its blocks are the last ones read: drop them.
                rec.blocks.truncate(raw.first);
            }
            None => {
                rec.by_num.insert(raw.num, rec.raws.len());
                rec.raws.push(raw);
                rec.people.push(person);
            }
        }
        Ok(())
    }

    /// Record `142` (TRF-26) or `XXR` (JaVaFo): the number of rounds.
    fn rounds_record(&mut self, l: &Line, tag: &str, coff: usize, body: &str, rec: &mut Records) {
        let src = self.src;
        let first = tokens(body, &[]).into_iter().next();
        match first.as_ref().and_then(|(_, t)| parse_u32(t)) {
            Some(n) if n > MAX_ROUNDS => {
                let (o, t) = first.as_ref().map(|(o, t)| (*o, t.len())).unwrap_or((0, 0));
                let s = l.base + coff + o;
                self.err(
                    Diag::error(
                        MALFORMED,
                        format!(
                            "line {}, record {tag}: {n} rounds is more than tb reads ({MAX_ROUNDS})",
                            l.no
                        ),
                    )
                    .at(src, Span::new(s, s + t), "too many rounds")
                    .with_help(format!("write e.g. `{tag} 9`")),
                );
            }
            Some(n) => {
                if tag == "142" {
                    rec.rounds_142 = Some(n)
                } else {
                    rec.rounds_xxr = Some(n)
                }
            }
            None => {
                let (s, len) = match &first {
                    Some((o, t)) => (l.base + coff + o, t.len()),
                    None => (l.base + coff, 0),
                };
                self.err(
                    Diag::error(
                        MALFORMED,
                        format!(
                            "line {}, record {tag}: expected the number of rounds, found {}",
                            l.no,
                            shown(first.as_ref().map(|f| f.1.as_str()).unwrap_or(""))
                        ),
                    )
                    .at(src, Span::new(s, s + len), "expected a whole number")
                    .with_help(format!("write e.g. `{tag} 9`")),
                );
            }
        }
    }

    /// The number of rounds: declared (142, else XXR), or the most the data
    /// shows where it shows more; an event too large is refused.
    fn rounds(&mut self, rec: &Records) -> Result<u32, Diag> {
        let seen = rec.raws.iter().map(|r| r.seen).max().unwrap_or(0);
        let declared = rec.rounds_142.or(rec.rounds_xxr);
        let rounds = match declared {
            Some(d) if d >= seen => d,
            Some(d) => {
                self.warnings.push(format!(
                    "the file declares {d} rounds but has results up to round {seen}; using {seen}"
                ));
                seen
            }
            None => seen,
        };
        if u64::from(rounds).saturating_mul(rec.raws.len() as u64) > MAX_ENTRIES {
            return Err(Diag::error(
                TOO_LARGE,
                format!(
                    "{} players over {rounds} rounds is more than tb reads ({MAX_ENTRIES} player-rounds)",
                    rec.raws.len()
                ),
            )
            .in_source(self.src)
            .with_help("check the number of rounds (records 142 and XXR)"));
        }
        Ok(rounds)
    }

    /// Leave out the rounds not yet played (`load::rounds::settle`): a game
    /// paired without a result in one of them is part of the note, not a
    /// warning. Whether anything was left out.
    fn settle(&mut self, event: &mut Event) -> bool {
        let mut per_round: Vec<(u32, usize)> = Vec::new();
        for &(r, _) in &self.paired {
            match per_round.iter_mut().find(|x| x.0 == r) {
                Some(x) => x.1 += 1,
                None => per_round.push((r, 1)),
            }
        }
        if !crate::load::rounds::settle_paired(event, &per_round) {
            return false;
        }
        let mut gone: Vec<usize> = self
            .paired
            .iter()
            .filter(|p| p.0 > event.rounds)
            .map(|p| p.1)
            .collect();
        gone.sort_unstable();
        for i in gone.into_iter().rev() {
            self.warnings.remove(i);
        }
        true
    }

    /// One warning for every half-point bye written the old way (`0000 - =`
    /// or a blank opponent with `=`), naming the lines.
    fn note_old_half_byes(&mut self) {
        let mut lines = std::mem::take(&mut self.old_half_byes);
        if lines.is_empty() {
            return;
        }
        let n = lines.len();
        lines.dedup();
        let mut shown: Vec<String> = lines.iter().take(10).map(|l| l.to_string()).collect();
        if lines.len() > 10 {
            shown.push(format!("and {} more", lines.len() - 10));
        }
        let byes = if n == 1 { "bye" } else { "byes" };
        self.warnings.push(format!(
            "{n} half-point {byes} written in the old notation `0000 - =` (result `=` without an opponent) read as half-point byes (`H`), on line{} {}",
            if lines.len() == 1 { "" } else { "s" },
            shown.join(", ")
        ));
    }

    /// Every error so far as one diagnostic, if there is any.
    fn all_errors(&mut self) -> Result<(), Diag> {
        if self.errors.is_empty() {
            return Ok(());
        }
        let src = self.src;
        let mut errs = std::mem::take(&mut self.errors);
        let n = errs.len() + self.dropped;
        if self.dropped > 0 {
            errs.push(Diag::error(
                MALFORMED,
                format!("... and {} more problems not shown", self.dropped),
            ));
        }
        let code = errs.first().map(|d| d.code).unwrap_or(MALFORMED);
        Err(Diag::many(code, format!("{n} problems in {}", src.name), errs).in_source(src))
    }

    /// Recorded totals against the computed ones (summed when the entries
    /// were built, unless a bye changed them since): a warning where they
    /// differ.
    fn check_totals(
        &mut self,
        raws: &[Raw],
        event: &Event,
        played: &[Played],
        rounds: u32,
    ) -> Result<(), Diag> {
        for ((r, p), g) in raws.iter().zip(event.participants.iter()).zip(played) {
            let Some(rec) = p.recorded_score else {
                continue;
            };
            let Some(sum) = g.total.unwrap_or_else(|| total(&p.entries)) else {
                return Err(Diag::error(
                    MALFORMED,
                    format!("line {}: the points add up to a number too large", r.line),
                )
                .at(self.src, r.line_span, "this player"));
            };
            if sum != rec {
                self.warnings.push(format!(
                    "player {} {} (line {}): points column says {} but the results of rounds 1-{} add up to {}",
                    r.num, p.name, r.line, rec, rounds, sum
                ));
            }
        }
        Ok(())
    }
}

/// What the records of a file say, gathered as its lines are read.
struct Records<'s> {
    name: Option<String>,
    start_date: Option<String>,
    type_text: Option<String>,
    type_code: Option<String>,
    rounds_142: Option<u32>,
    rounds_xxr: Option<u32>,
    pts: Points,
    /// Whether record 162 gave the points of a pairing bye.
    p_given: bool,
    /// Points per result given explicitly, as event values.
    explicit: Vec<(&'static str, Num)>,
    tb_202: Option<Vec<String>>,
    tb_212: Option<Vec<String>>,
    byes: Vec<ByeRec>,
    /// Whether the file has team rosters (`013`, `310`).
    team: bool,
    team_records: Vec<team::RecLine<'s>>,
    /// Lines of `299` records.
    abnormal: Vec<usize>,
    /// The players' lines, round blocks and participants, in file order.
    raws: Vec<Raw>,
    blocks: Vec<Block>,
    people: Vec<Participant>,
    by_num: ByNum,
    player_lines: usize,
}

impl Records<'_> {
    /// Nothing read yet, with room for a file of `len` bytes.
    fn new(len: usize) -> Self {
        // Room, from the file's size, for the players and round blocks of a
        // usual file (89 columns before a player's blocks, 10 per block):
        // growing these large vectors would copy them over and over.
        let most_players = (len / 90).min(MAX_PLAYERS);
        Records {
            name: None,
            start_date: None,
            type_text: None,
            type_code: None,
            rounds_142: None,
            rounds_xxr: None,
            pts: Points {
                w: Num::ONE,
                d: Num::ratio(1, 2).unwrap_or(Num::ZERO),
                l: Num::ZERO,
                a: Num::ZERO,
                p: Num::ONE,
            },
            p_given: false,
            explicit: Vec::new(),
            tb_202: None,
            tb_212: None,
            byes: Vec::new(),
            team: false,
            team_records: Vec::new(),
            abnormal: Vec::new(),
            raws: Vec::with_capacity(most_players),
            blocks: Vec::with_capacity(len / 10),
            people: Vec::with_capacity(most_players),
            by_num: ByNum::new(),
            player_lines: 0,
        }
    }
}

/// The event the header records describe, without its participants.
fn event_header(src: &Source, rec: &mut Records, scoring: Scoring, rounds: u32) -> Event {
    let system = detect_system(rec.type_code.as_deref(), rec.type_text.as_deref());
    let mut event = Event::new(
        rec.name.take().unwrap_or_else(|| src.name.clone()),
        Sport::Chess,
        system,
        rounds,
    );
    event.scoring = scoring;
    event.start_date = rec.start_date.take();
    for (k, v) in std::mem::take(&mut rec.explicit) {
        event.values.insert(k.to_string(), v);
    }
    event.tiebreaks = match (rec.tb_202.take(), rec.tb_212.take()) {
        (Some(l), _) => l,
        (None, Some(l)) => l
            .into_iter()
            .filter(|t| !t.eq_ignore_ascii_case("PTS"))
            .collect(),
        (None, None) => Vec::new(),
    };
    event
}
