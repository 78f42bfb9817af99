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
//!   forfeit win with no opponent (a team board left empty) and `-` is an
//!   absence. Letter codes are case-insensitive.
//! * header records read: `012` name, `042` start date, `092` type text,
//!   `142` (TRF-26) and `XXR` (JaVaFo) number of rounds, `192` (TRF-26)
//!   encoded type, `162` (TRF-26) points per result (`W D L A P X`, each
//!   code followed by its points), `202` / `212` (TRF-26) tie-break lists
//!   (comma-separated descriptors; `212` also names `PTS`), `240` (TRF-26)
//!   byes `T RRR PPPP PPPP ...`. `062` is the number of players, not of rounds.
//! * team records (`013`, `310`, `300`, `320`, `330`, `299`, `352`, `362`):
//!   a file with `310` or `013` is a team event, built by `trf_team` from the
//!   players' games; `801`/`802` and every other record are skipped.
//!
//! Columns are counted in characters; a line with non-ASCII characters that
//! does not fit that way is retried with columns counted in bytes (files
//! written by programs that pad UTF-8 names by bytes).

use crate::diag::{Diag, Source, Span};
use crate::model::{Entry, Event, Outcome, Participant, Scoring, Side, Sport, Status, System};
use crate::num::Num;
use std::collections::HashMap;

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

const MALFORMED: &str = "tb::load::trf::malformed";
const UNKNOWN_OPPONENT: &str = "tb::load::trf::unknown_opponent";
const UNKNOWN_PLAYER: &str = "tb::load::trf::unknown_player";
const INCONSISTENT: &str = "tb::load::trf::inconsistent_game";
const DUPLICATE: &str = "tb::load::trf::duplicate_player";
const TOO_LARGE: &str = "tb::load::trf::too_large";
const NO_PLAYERS: &str = "tb::load::trf::no_players";

const LAYOUT_HELP: &str = "TRF 001 lines use fixed columns: starting number 5-8, name 15-47, \
rating 49-52, points 81-84, rank 86-89, then one 10-column block per round from column 92 \
(opponent 92-95, colour 97, result 99)";

/// Load a TRF event.
pub fn load_trf(source: &Source) -> Result<Event, Diag> {
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
    Loader::new(source).run()
}

/// One physical line: number, byte offset in the source, text without the break.
struct Line<'a> {
    no: usize,
    base: usize,
    text: &'a str,
}

/// Split on `\n`, `\r\n` or a lone `\r`; drop a leading byte-order mark.
fn split_lines(text: &str) -> Vec<Line<'_>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut no, mut i) = (0usize, 1usize, 0usize);
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' || b == b'\r' {
            out.push(Line {
                no,
                base: start,
                text: text.get(start..i).unwrap_or(""),
            });
            no += 1;
            if b == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                i += 1;
            }
            i += 1;
            start = i;
        } else {
            i += 1;
        }
    }
    if start < bytes.len() {
        out.push(Line {
            no,
            base: start,
            text: text.get(start..).unwrap_or(""),
        });
    }
    if let Some(first) = out.first_mut() {
        if let Some(rest) = first.text.strip_prefix('\u{feff}') {
            first.base += '\u{feff}'.len_utf8();
            first.text = rest;
        }
    }
    out
}

/// Fixed columns over a line, counted in characters or in bytes.
struct Cols<'a> {
    text: &'a str,
    base: usize,
    /// Byte offset of each character (character mode); `None` in byte mode.
    offs: Option<Vec<usize>>,
}

impl<'a> Cols<'a> {
    fn chars(l: &Line<'a>) -> Cols<'a> {
        // On an ASCII line (nearly every line) characters are bytes: no table needed.
        let offs = (!l.text.is_ascii()).then(|| l.text.char_indices().map(|(i, _)| i).collect());
        Cols {
            text: l.text,
            base: l.base,
            offs,
        }
    }
    fn bytes(l: &Line<'a>) -> Cols<'a> {
        Cols {
            text: l.text,
            base: l.base,
            offs: None,
        }
    }
    /// Number of columns in the line.
    fn width(&self) -> usize {
        match &self.offs {
            Some(o) => o.len(),
            None => self.text.len(),
        }
    }
    /// Byte offset (in the line) where 1-based column `col` starts, clamped to the end.
    fn off(&self, col: usize) -> usize {
        let i = col.saturating_sub(1);
        match &self.offs {
            Some(o) => o.get(i).copied().unwrap_or(self.text.len()),
            None => i.min(self.text.len()),
        }
    }
    /// Columns `c1..=c2`, shorter at the end of the line; `None` if byte
    /// columns cut a character.
    fn field(&self, c1: usize, c2: usize) -> Option<&'a str> {
        self.text.get(self.off(c1)..self.off(c2.saturating_add(1)))
    }
    /// Like [`Cols::field`] but widened to whole characters.
    fn field_lossy(&self, c1: usize, c2: usize) -> &'a str {
        let mut a = self.off(c1);
        let mut b = self.off(c2.saturating_add(1));
        while a > 0 && !self.text.is_char_boundary(a) {
            a -= 1;
        }
        while b < self.text.len() && !self.text.is_char_boundary(b) {
            b += 1;
        }
        self.text.get(a..b).unwrap_or("")
    }
    /// Source span of columns `c1..=c2`.
    fn span(&self, c1: usize, c2: usize) -> Span {
        Span::new(
            self.base + self.off(c1),
            self.base + self.off(c2.saturating_add(1)),
        )
    }
    /// The single character in column `c`, blank past the end.
    fn ch(&self, c: usize) -> Option<char> {
        self.field(c, c).map(|s| s.chars().next().unwrap_or(' '))
    }
}

/// One round block of a player line as written.
#[derive(Clone, Debug)]
struct Block {
    opp: Option<u32>,
    /// `w`, `b` or ' ' (for `-` and blank).
    colour: char,
    /// Upper-cased result code, ' ' for blank.
    result: char,
    span: Span,
    opp_span: Span,
    colour_span: Span,
    result_span: Span,
    blank: bool,
}

/// One player line as written.
struct Raw {
    line: usize,
    num: u32,
    num_span: Span,
    line_span: Span,
    name: String,
    title: Option<String>,
    rating: Option<i64>,
    federation: Option<String>,
    points: Option<Num>,
    rank: Option<u32>,
    blocks: Vec<Block>,
    /// The line could not be read; its errors are already reported.
    broken: bool,
}

/// Points per kind of result (TRF-26 record 162).
#[derive(Clone, Copy)]
struct Points {
    w: Num,
    d: Num,
    l: Num,
    a: Num,
    p: Num,
}

impl Points {
    fn of(&self, status: Status, outcome: Outcome) -> Num {
        match status {
            Status::Played => match outcome {
                Outcome::Win => self.w,
                Outcome::Draw => self.d,
                Outcome::Loss => self.l,
            },
            Status::ForfeitWin | Status::FullBye => self.w,
            Status::PairingBye => self.p,
            Status::HalfBye => self.d,
            Status::ForfeitLoss | Status::DoubleForfeit | Status::ZeroBye | Status::Absent => {
                self.a
            }
        }
    }
}

/// A `240` bye record.
struct ByeRec {
    line: usize,
    kind: Status,
    kind_char: char,
    round: u32,
    ids: Vec<(u32, Span)>,
}

struct Loader<'s> {
    src: &'s Source,
    errors: Vec<Diag>,
    dropped: usize,
    warnings: Vec<String>,
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

fn parse_u32(s: &str) -> Option<u32> {
    if is_digits(s) {
        s.parse().ok()
    } else {
        None
    }
}

fn shown(s: &str) -> String {
    if s.trim().is_empty() {
        "blank".to_string()
    } else {
        format!("`{}`", s.trim())
    }
}

/// Whitespace-separated tokens with their byte offsets in `text`.
fn tokens(text: &str, sep: &[char]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut cur: Option<(usize, String)> = None;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() || sep.contains(&c) {
            if let Some(t) = cur.take() {
                out.push(t);
            }
        } else {
            match &mut cur {
                Some((_, s)) => s.push(c),
                None => cur = Some((i, c.to_string())),
            }
        }
    }
    if let Some(t) = cur {
        out.push(t);
    }
    out
}

/// The text after the tag (columns 5 on) and its byte offset in the line.
fn content<'a>(l: &Line<'a>) -> (usize, &'a str) {
    match l.text.char_indices().nth(4) {
        Some((i, _)) => (i, l.text.get(i..).unwrap_or("")),
        None => (l.text.len(), ""),
    }
}

fn full_title(t: &str) -> String {
    match t {
        "g" => "GM".into(),
        "m" => "IM".into(),
        "f" => "FM".into(),
        "c" => "CM".into(),
        "wg" => "WGM".into(),
        "wm" => "WIM".into(),
        "wf" => "WFM".into(),
        "wc" => "WCM".into(),
        other => other.to_string(),
    }
}

impl<'s> Loader<'s> {
    fn new(src: &'s Source) -> Loader<'s> {
        Loader {
            src,
            errors: Vec::new(),
            dropped: 0,
            warnings: Vec::new(),
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

    fn run(mut self) -> Result<Event, Diag> {
        let src = self.src;
        let lines = split_lines(&src.text);

        let mut name: Option<String> = None;
        let mut start_date: Option<String> = None;
        let mut type_text: Option<String> = None;
        let mut type_code: Option<String> = None;
        let mut rounds_142: Option<u32> = None;
        let mut rounds_xxr: Option<u32> = None;
        let mut pts = Points {
            w: Num::ONE,
            d: Num::ratio(1, 2).unwrap_or(Num::ZERO),
            l: Num::ZERO,
            a: Num::ZERO,
            p: Num::ONE,
        };
        let mut p_given = false;
        let mut explicit: Vec<(&'static str, Num)> = Vec::new();
        let mut tb_202: Option<Vec<String>> = None;
        let mut tb_212: Option<Vec<String>> = None;
        let mut byes: Vec<ByeRec> = Vec::new();
        let mut team = false;
        let mut team_records: Vec<super::trf_team::RecLine> = Vec::new();
        let mut abnormal: Vec<usize> = Vec::new();
        let mut raws: Vec<Raw> = Vec::new();
        let mut by_num: HashMap<u32, usize> = HashMap::new();
        let mut player_lines = 0usize;

        for l in &lines {
            let tag: String = l.text.chars().take(3).collect();
            let (coff, body) = content(l);
            match tag.as_str() {
                "001" => {
                    player_lines += 1;
                    if player_lines > MAX_PLAYERS {
                        return Err(Diag::error(
                            TOO_LARGE,
                            format!(
                                "{} has more than {MAX_PLAYERS} player lines; tb reads at most {MAX_PLAYERS}",
                                src.name
                            ),
                        )
                        .at(src, Span::new(l.base, l.base + l.text.len()), "one player too many")
                        .with_help("split the event into smaller files"));
                    }
                    if let Some(raw) = self.player(l) {
                        match by_num.get(&raw.num) {
                            Some(&first) => {
                                let fl = raws.get(first).map(|r| (r.line, r.num_span));
                                let mut d = Diag::error(
                                    DUPLICATE,
                                    format!(
                                        "line {}: starting number {} is already used on line {}",
                                        l.no,
                                        raw.num,
                                        fl.map(|f| f.0).unwrap_or(0)
                                    ),
                                )
                                .at(
                                    src,
                                    raw.num_span,
                                    "listed again here",
                                );
                                if let Some((_, sp)) = fl {
                                    d = d.at(src, sp, "first listed here");
                                }
                                self.err(d.with_help(
                                    "every 001 line needs its own starting number (columns 5-8)",
                                ));
                            }
                            None => {
                                by_num.insert(raw.num, raws.len());
                                raws.push(raw);
                            }
                        }
                    }
                }
                "012" => name = Some(body.trim().to_string()).filter(|s| !s.is_empty()),
                "042" => start_date = Some(body.trim().to_string()).filter(|s| !s.is_empty()),
                "092" => type_text = Some(body.trim().to_string()),
                "192" => type_code = Some(body.trim().to_string()),
                "142" | "XXR" => {
                    let first = tokens(body, &[]).into_iter().next();
                    match first.as_ref().and_then(|(_, t)| parse_u32(t)) {
                        Some(n) if n > MAX_ROUNDS => {
                            let (o, t) =
                                first.as_ref().map(|(o, t)| (*o, t.len())).unwrap_or((0, 0));
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
                                rounds_142 = Some(n)
                            } else {
                                rounds_xxr = Some(n)
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
                "162" => self.scoring(l, body, &mut pts, &mut p_given, &mut explicit),
                "202" | "212" => {
                    let list: Vec<String> =
                        tokens(body, &[',']).into_iter().map(|(_, t)| t).collect();
                    if tag == "202" {
                        tb_202.get_or_insert_with(Vec::new).extend(list);
                    } else {
                        tb_212.get_or_insert_with(Vec::new).extend(list);
                    }
                }
                "240" => {
                    if let Some(b) = self.bye_record(l, coff, body) {
                        byes.push(b);
                    }
                }
                "013" | "310" | "300" | "320" | "330" | "352" | "362" | "299" => {
                    if tag == "013" || tag == "310" {
                        team = true;
                    }
                    if tag == "299" {
                        abnormal.push(l.no);
                    }
                    team_records.push(super::trf_team::RecLine {
                        no: l.no,
                        base: l.base,
                        text: l.text,
                    });
                }
                // 132 round dates, team records 300/320/330/352/362/801/802,
                // 250/260, NRS records, JaVaFo XX? records, rulers: skipped.
                _ => {}
            }
        }

        if raws.is_empty() && self.errors.is_empty() {
            return Err(
                Diag::error(NO_PLAYERS, format!("{} has no 001 player lines", src.name))
                    .in_source(src)
                    .with_help("a TRF file lists each player on a line starting with `001`"),
            );
        }
        if !p_given {
            pts.p = pts.w;
        }
        let scoring = Scoring {
            win: pts.w,
            draw: pts.d,
            loss: pts.l,
        };

        // Rounds: declared (142, else XXR) and the most the data shows.
        let seen = raws
            .iter()
            .map(|r| {
                r.blocks
                    .iter()
                    .rposition(|b| !b.blank)
                    .map(|i| i as u32 + 1)
                    .unwrap_or(0)
            })
            .max()
            .unwrap_or(0);
        let declared = rounds_142.or(rounds_xxr);
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

        if u64::from(rounds).saturating_mul(raws.len() as u64) > MAX_ENTRIES {
            return Err(Diag::error(
                TOO_LARGE,
                format!(
                    "{} players over {rounds} rounds is more than tb reads ({MAX_ENTRIES} player-rounds)",
                    raws.len()
                ),
            )
            .in_source(src)
            .with_help("check the number of rounds (records 142 and XXR)"));
        }

        let system = detect_system(type_code.as_deref(), type_text.as_deref());
        // Team-type files skip the individual byes; a team event is one with
        // team rosters (310, or 013 in TRF16).
        let team_type = team
            || type_code
                .as_deref()
                .map(|t| t.to_ascii_uppercase().contains("TEAM"))
                .unwrap_or(false);
        team = team && super::trf_team::is_team(&team_records);

        let mut event = Event::new(
            name.unwrap_or_else(|| src.name.clone()),
            Sport::Chess,
            system,
            rounds,
        );
        event.scoring = scoring;
        event.start_date = start_date;
        for (k, v) in explicit {
            event.values.insert(k.to_string(), v);
        }
        event.tiebreaks = match (tb_202, tb_212) {
            (Some(l), _) => l,
            (None, Some(l)) => l
                .into_iter()
                .filter(|t| !t.eq_ignore_ascii_case("PTS"))
                .collect(),
            (None, None) => Vec::new(),
        };

        // Participants, in file order: pid = index in `raws`.
        for r in &raws {
            let mut p = Participant::new(r.num.to_string(), r.name.clone());
            p.rating = r.rating;
            p.title = r.title.clone();
            p.federation = r.federation.clone();
            p.recorded_score = r.points;
            p.recorded_rank = r.rank;
            event.participants.push(p);
        }

        self.games(&raws, &by_num, &mut event, &pts, rounds);

        if !team_type {
            self.apply_byes(&byes, &raws, &by_num, &mut event, &pts);
            for no in abnormal {
                self.warnings.push(format!(
                    "record 299 (abnormal points) on line {no} is not applied"
                ));
            }
        }

        if !self.errors.is_empty() {
            let mut errs = std::mem::take(&mut self.errors);
            let n = errs.len() + self.dropped;
            if self.dropped > 0 {
                errs.push(Diag::error(
                    MALFORMED,
                    format!("... and {} more problems not shown", self.dropped),
                ));
            }
            let code = errs.first().map(|d| d.code).unwrap_or(MALFORMED);
            return Err(
                Diag::many(code, format!("{n} problems in {}", src.name), errs).in_source(src),
            );
        }

        // Recorded totals against the computed ones.
        for (r, p) in raws.iter().zip(event.participants.iter()) {
            let Some(rec) = r.points else { continue };
            let mut sum = Num::ZERO;
            for e in &p.entries {
                sum = match sum.add(e.points) {
                    Ok(s) => s,
                    Err(_) => {
                        return Err(Diag::error(
                            MALFORMED,
                            format!("line {}: the points add up to a number too large", r.line),
                        )
                        .at(src, r.line_span, "this player"));
                    }
                };
            }
            if sum != rec {
                self.warnings.push(format!(
                    "player {} {} (line {}): points column says {} but the results of rounds 1-{} add up to {}",
                    r.num, r.name, r.line, rec, rounds, sum
                ));
            }
        }

        event.warnings.append(&mut self.warnings);
        event.complete_rounds();
        if team {
            let team_byes: Vec<super::trf_team::TeamBye> = byes
                .iter()
                .map(|b| super::trf_team::TeamBye {
                    line: b.line,
                    kind: b.kind,
                    round: b.round,
                    ids: b.ids.iter().map(|x| x.0).collect(),
                })
                .collect();
            return super::trf_team::build(src, event, &team_records, &team_byes);
        }
        Ok(event)
    }

    /// Read one `001` line; `None` if not even the starting number is readable.
    fn player(&mut self, l: &Line) -> Option<Raw> {
        let cols = Cols::chars(l);
        let num_span = cols.span(5, 8);
        let line_span = Span::new(l.base, l.base + l.text.len());
        let num = match cols.field(5, 8).map(str::trim).and_then(parse_u32) {
            Some(n) if n > 0 => n,
            _ => {
                let d = self.malformed(l, &cols, 5, 8, "the starting number (1 to 9999)");
                self.err(d);
                return None;
            }
        };
        match self.player_rest(l, &cols, num, num_span, line_span) {
            Ok(r) => Some(r),
            Err(e) => {
                if !l.text.is_ascii() {
                    let bcols = Cols::bytes(l);
                    if let Ok(r) = self.player_rest(l, &bcols, num, num_span, line_span) {
                        return Some(r);
                    }
                }
                self.err(e);
                Some(Raw {
                    line: l.no,
                    num,
                    num_span,
                    line_span,
                    name: cols.field_lossy(15, 47).trim().to_string(),
                    title: None,
                    rating: None,
                    federation: None,
                    points: None,
                    rank: None,
                    blocks: Vec::new(),
                    broken: true,
                })
            }
        }
    }

    fn player_rest(
        &self,
        l: &Line,
        cols: &Cols,
        num: u32,
        num_span: Span,
        line_span: Span,
    ) -> Result<Raw, Diag> {
        let bad = |c1: usize, c2: usize, what: &str| self.malformed(l, cols, c1, c2, what);
        let name = cols.field_lossy(15, 47).trim().to_string();
        let title = cols
            .field(11, 13)
            .ok_or_else(|| bad(11, 13, "a title"))?
            .trim();
        let title = if title.is_empty() {
            None
        } else {
            Some(full_title(title))
        };
        let rating = match cols.field(49, 52).map(str::trim) {
            Some("") => None,
            Some(s) if is_digits(s) => s.parse::<i64>().ok().filter(|&r| r > 0),
            _ => return Err(bad(49, 52, "a rating (digits) or blanks")),
        };
        let federation = cols
            .field(54, 56)
            .ok_or_else(|| bad(54, 56, "a federation code"))?
            .trim();
        let federation = if federation.is_empty() {
            None
        } else {
            Some(federation.to_string())
        };
        let points = match cols.field(81, 84).map(str::trim) {
            Some("") => None,
            Some(s) if s.bytes().all(|b| b.is_ascii_digit() || b == b'.') => match Num::parse(s) {
                Some(n) => Some(n),
                None => return Err(bad(81, 84, "the points, e.g. ` 6.5`")),
            },
            _ => return Err(bad(81, 84, "the points, e.g. ` 6.5`")),
        };
        let rank = match cols.field(86, 89).map(str::trim) {
            Some("") => None,
            Some(s) if is_digits(s) => s.parse::<u32>().ok(),
            _ => return Err(bad(86, 89, "the rank (digits) or blanks")),
        };
        let mut blocks = Vec::new();
        let width = cols.width();
        let mut c0 = 92usize;
        while c0 <= width {
            let round = blocks.len() + 1;
            if round > MAX_ROUNDS as usize {
                return Err(bad(
                    c0,
                    width,
                    &format!("at most {MAX_ROUNDS} round blocks"),
                ));
            }
            for gap in [c0 - 2, c0 - 1] {
                if cols.ch(gap) != Some(' ') {
                    return Err(bad(gap, gap, "a blank between round blocks"));
                }
            }
            let opp_txt = cols
                .field(c0, c0 + 3)
                .ok_or_else(|| bad(c0, c0 + 3, "an opponent number"))?;
            let t = opp_txt.trim();
            let opp = if t.is_empty() {
                None
            } else {
                match parse_u32(t) {
                    Some(0) => None,
                    Some(n) => Some(n),
                    None => {
                        return Err(bad(
                            c0,
                            c0 + 3,
                            &format!("the round {round} opponent's starting number or 0000"),
                        ))
                    }
                }
            };
            for gap in [c0 + 4, c0 + 6] {
                if cols.ch(gap) != Some(' ') {
                    return Err(bad(
                        gap,
                        gap,
                        &format!("a blank inside the round {round} block"),
                    ));
                }
            }
            let colour = match cols.ch(c0 + 5) {
                Some(' ') | Some('-') => ' ',
                Some('w') | Some('W') => 'w',
                Some('b') | Some('B') => 'b',
                _ => {
                    return Err(bad(
                        c0 + 5,
                        c0 + 5,
                        &format!("the round {round} colour: w, b or -"),
                    ))
                }
            };
            let result = match cols.ch(c0 + 7).map(|c| c.to_ascii_uppercase()) {
                Some(c) if "10=+-WDLHFUZ ".contains(c) => c,
                _ => {
                    return Err(bad(
                        c0 + 7,
                        c0 + 7,
                        &format!("the round {round} result: 1 0 = + - W D L H F U Z or blank"),
                    ))
                }
            };
            let raw_block = cols.field_lossy(c0, c0 + 7);
            blocks.push(Block {
                opp,
                colour,
                result,
                span: cols.span(c0, c0 + 7),
                opp_span: cols.span(c0, c0 + 3),
                colour_span: cols.span(c0 + 5, c0 + 5),
                result_span: cols.span(c0 + 7, c0 + 7),
                blank: raw_block.trim().is_empty(),
            });
            c0 += 10;
        }
        Ok(Raw {
            line: l.no,
            num,
            num_span,
            line_span,
            name,
            title,
            rating,
            federation,
            points,
            rank,
            blocks,
            broken: false,
        })
    }

    /// TRF-26 record 162: result codes each followed by their points.
    fn scoring(
        &mut self,
        l: &Line,
        body: &str,
        pts: &mut Points,
        p_given: &mut bool,
        explicit: &mut Vec<(&'static str, Num)>,
    ) {
        let toks = tokens(body, &[]);
        let mut i = 0;
        let mut unread: Vec<String> = Vec::new();
        while i < toks.len() {
            let t = &toks[i].1;
            let mut chars = t.chars();
            let code = chars.next().map(|c| c.to_ascii_uppercase());
            let glued = chars.as_str();
            let (value, used) = if glued.is_empty() {
                (toks.get(i + 1).and_then(|n| Num::parse(&n.1)), 2)
            } else {
                (Num::parse(glued), 1)
            };
            match (code, value) {
                (Some(c), Some(v)) if "WDLAPX".contains(c) => {
                    match c {
                        'W' => pts.w = v,
                        'D' => pts.d = v,
                        'L' => pts.l = v,
                        'A' => {
                            pts.a = v;
                            explicit.push(("points_absent", v));
                        }
                        'P' => {
                            pts.p = v;
                            *p_given = true;
                            explicit.push(("points_pab", v));
                        }
                        _ => explicit.push(("points_unknown", v)),
                    }
                    i += used;
                }
                _ => {
                    unread.push(t.clone());
                    i += 1;
                }
            }
        }
        if !unread.is_empty() {
            self.warnings.push(format!(
                "record 162 on line {}: could not read {}; expected result codes W D L A P X each followed by points (e.g. `162 W 1.0    D 0.5    L 0.0`)",
                l.no,
                unread
                    .iter()
                    .map(|u| format!("`{u}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    }

    /// TRF-26 record 240: `240 T RRR PPPP PPPP ...`.
    fn bye_record(&mut self, l: &Line, coff: usize, body: &str) -> Option<ByeRec> {
        let src = self.src;
        let toks = tokens(body, &[]);
        let sp = |o: usize, t: &str| Span::new(l.base + coff + o, l.base + coff + o + t.len());
        let whole = Span::new(l.base, l.base + l.text.len());
        let (kind, kind_char) = match toks.first() {
            Some((o, t)) => match t.to_ascii_uppercase().as_str() {
                "F" => (Status::FullBye, 'F'),
                "H" => (Status::HalfBye, 'H'),
                "Z" => (Status::ZeroBye, 'Z'),
                _ => {
                    self.err(
                        Diag::error(
                            MALFORMED,
                            format!(
                                "line {}, record 240: expected the type of bye F, H or Z, found `{t}`",
                                l.no
                            ),
                        )
                        .at(src, sp(*o, t), "expected F, H or Z")
                        .with_help("record 240 is `240 T RRR PPPP PPPP ...`: bye type, round, ids"),
                    );
                    return None;
                }
            },
            None => return None,
        };
        let round = match toks.get(1) {
            Some((o, t)) => match parse_u32(t) {
                Some(r) if r > 0 => r,
                _ => {
                    self.err(
                        Diag::error(
                            MALFORMED,
                            format!(
                                "line {}, record 240: expected a round number, found `{t}`",
                                l.no
                            ),
                        )
                        .at(src, sp(*o, t), "expected a round number")
                        .with_help("record 240 is `240 T RRR PPPP PPPP ...`: bye type, round, ids"),
                    );
                    return None;
                }
            },
            None => {
                self.err(
                    Diag::error(
                        MALFORMED,
                        format!("line {}, record 240: the round number is missing", l.no),
                    )
                    .at(src, whole, "expected a round number")
                    .with_help("record 240 is `240 T RRR PPPP PPPP ...`: bye type, round, ids"),
                );
                return None;
            }
        };
        let mut ids = Vec::new();
        for (o, t) in toks.iter().skip(2) {
            match parse_u32(t) {
                Some(n) if n > 0 => ids.push((n, sp(*o, t))),
                _ => {
                    self.err(
                        Diag::error(
                            MALFORMED,
                            format!(
                                "line {}, record 240: expected a starting number, found `{t}`",
                                l.no
                            ),
                        )
                        .at(src, sp(*o, t), "expected a starting number")
                        .with_help("record 240 is `240 T RRR PPPP PPPP ...`: bye type, round, ids"),
                    );
                    return None;
                }
            }
        }
        Some(ByeRec {
            line: l.no,
            kind,
            kind_char,
            round,
            ids,
        })
    }

    /// Build every entry from the round blocks, checking both sides of each game.
    fn games(
        &mut self,
        raws: &[Raw],
        by_num: &HashMap<u32, usize>,
        event: &mut Event,
        pts: &Points,
        rounds: u32,
    ) {
        let src = self.src;
        let scoring = event.scoring;
        for (i, a) in raws.iter().enumerate() {
            if a.broken {
                continue;
            }
            let mut entries = Vec::new();
            let mut unrated = 0i64;
            for r in 1..=rounds {
                let absent = Entry::unplayed(r, Status::Absent, pts.a, &scoring);
                let Some(b) = a.blocks.get(r as usize - 1) else {
                    entries.push(absent);
                    continue;
                };
                let Some(n) = b.opp else {
                    let status = match b.result {
                        ' ' | '-' => Status::Absent,
                        'H' => Status::HalfBye,
                        'F' => Status::FullBye,
                        'U' => Status::PairingBye,
                        'Z' => Status::ZeroBye,
                        '+' => Status::ForfeitWin,
                        c => {
                            self.err(
                                Diag::error(
                                    MALFORMED,
                                    format!(
                                        "line {}, column {}: round {r} result `{c}` is a game result but the opponent is 0000",
                                        a.line,
                                        src.line_col(b.result_span.start).1
                                    ),
                                )
                                .at(src, b.result_span, "a game needs an opponent")
                                .at(src, b.opp_span, "no opponent")
                                .with_help("for a bye use H, F, U or Z; for a forfeit win without an opponent use +"),
                            );
                            entries.push(absent);
                            continue;
                        }
                    };
                    let points = pts.of(status, Outcome::Win);
                    let mut e = Entry::unplayed(r, status, points, &scoring);
                    if status == Status::ForfeitWin {
                        e.outcome = Outcome::Win;
                    }
                    entries.push(e);
                    continue;
                };
                if "HFUZ".contains(b.result) {
                    self.err(
                        Diag::error(
                            MALFORMED,
                            format!(
                                "line {}: round {r} result `{}` is a bye, but the opponent is {n}",
                                a.line, b.result
                            ),
                        )
                        .at(src, b.opp_span, "a bye has opponent 0000")
                        .at(src, b.result_span, "bye")
                        .with_help("write 0000 in the opponent columns of a bye, or give the game's result"),
                    );
                    entries.push(absent);
                    continue;
                }
                let Some(&j) = by_num.get(&n) else {
                    self.err(
                        Diag::error(
                            UNKNOWN_OPPONENT,
                            format!(
                                "line {}: round {r} names opponent {n}, but no 001 line has starting number {n}",
                                a.line
                            ),
                        )
                        .at(src, b.opp_span, format!("no player {n}"))
                        .with_help("the opponent columns hold the starting number (columns 5-8) of another 001 line"),
                    );
                    entries.push(absent);
                    continue;
                };
                if j == i {
                    self.err(
                        Diag::error(
                            INCONSISTENT,
                            format!(
                                "line {}: in round {r} player {n} is paired with itself",
                                a.line
                            ),
                        )
                        .at(src, b.opp_span, "own starting number")
                        .with_help("the opponent columns must name another player"),
                    );
                    entries.push(absent);
                    continue;
                }
                let Some(o) = raws.get(j) else {
                    entries.push(absent);
                    continue;
                };
                if o.broken {
                    entries.push(absent);
                    continue;
                }
                let ob = o.blocks.get(r as usize - 1);
                let back = ob.and_then(|x| x.opp);
                if back != Some(a.num) {
                    let shows = match back {
                        Some(m) => format!("opponent {m}"),
                        None => "no opponent".to_string(),
                    };
                    let mut d = Diag::error(
                        INCONSISTENT,
                        format!(
                            "round {r}: line {} pairs {} with {}, but {}'s line {} shows {shows} in that round",
                            a.line, a.num, o.num, o.num, o.line
                        ),
                    )
                    .at(src, b.opp_span, format!("{} plays {}", a.num, o.num));
                    d = match ob {
                        Some(x) => d.at(src, x.span, format!("{} shows {shows}", o.num)),
                        None => {
                            let end = o.line_span.end;
                            d.at(
                                src,
                                Span::new(end, end),
                                format!("{} has no round {r} block", o.num),
                            )
                        }
                    };
                    self.err(
                        d.with_help("both players' lines must name each other in the same round"),
                    );
                    entries.push(absent);
                    continue;
                }
                let Some(ob) = ob else {
                    entries.push(absent);
                    continue;
                };
                let complementary = matches!(
                    (b.result, ob.result),
                    ('1', '0')
                        | ('0', '1')
                        | ('=', '=')
                        | ('W', 'L')
                        | ('L', 'W')
                        | ('D', 'D')
                        | ('+', '-')
                        | ('-', '+')
                        | ('-', '-')
                        | (' ', ' ')
                );
                let played = "10=WDL".contains(b.result);
                let colours_ok = match (b.colour, ob.colour) {
                    ('w', 'b') | ('b', 'w') | (' ', ' ') => true,
                    ('w', 'w') | ('b', 'b') => false,
                    _ => !played,
                };
                if !complementary || !colours_ok {
                    if i < j {
                        let what = if !complementary {
                            format!(
                                "results `{}` and `{}` do not fit together",
                                b.result, ob.result
                            )
                        } else {
                            format!(
                                "colours `{}` and `{}` are not one white and one black",
                                colour_shown(b.colour),
                                colour_shown(ob.colour)
                            )
                        };
                        let (sa, sb) = if !complementary {
                            (b.result_span, ob.result_span)
                        } else {
                            (b.colour_span, ob.colour_span)
                        };
                        self.err(
                            Diag::error(
                                INCONSISTENT,
                                format!(
                                    "round {r}: {} (line {}) against {} (line {}): {what}",
                                    a.num, a.line, o.num, o.line
                                ),
                            )
                            .at(src, sa, format!("{}'s side", a.num))
                            .at(src, sb, format!("{}'s side", o.num))
                            .with_help("a game's two sides must match: 1 against 0, = against =, W against L, D against D, + against -, - against - (double forfeit); colours w against b"),
                        );
                    }
                    entries.push(absent);
                    continue;
                }
                let side = match b.colour {
                    'w' => Some(Side::First),
                    'b' => Some(Side::Second),
                    _ => None,
                };
                let (status, outcome) = match b.result {
                    '1' => (Status::Played, Outcome::Win),
                    '=' => (Status::Played, Outcome::Draw),
                    '0' => (Status::Played, Outcome::Loss),
                    'W' => (Status::Played, Outcome::Win),
                    'D' => (Status::Played, Outcome::Draw),
                    'L' => (Status::Played, Outcome::Loss),
                    '+' => (Status::ForfeitWin, Outcome::Win),
                    '-' if ob.result == '-' => (Status::DoubleForfeit, Outcome::Loss),
                    '-' => (Status::ForfeitLoss, Outcome::Loss),
                    _ => {
                        // Paired but no result yet.
                        if i < j {
                            self.warnings.push(format!(
                                "round {r}: {} and {} are paired but have no result yet; both are treated as absent",
                                a.num, o.num
                            ));
                        }
                        entries.push(absent);
                        continue;
                    }
                };
                if "WDL".contains(b.result) {
                    unrated += 1;
                }
                entries.push(Entry {
                    round: r,
                    session: 1,
                    opponent: Some(j),
                    partner: None,
                    status,
                    outcome,
                    points: pts.of(status, outcome),
                    side,
                    weight: Num::ONE,
                    units: Vec::new(),
                    against: Vec::new(),
                    boards: Vec::new(),
                });
            }
            if let Some(p) = event.participants.get_mut(i) {
                p.entries = entries;
                if unrated > 0 {
                    p.values
                        .insert("unrated_games".to_string(), Num::int(unrated));
                }
            }
        }
    }

    /// Apply `240` byes of an individual event to the players' entries.
    fn apply_byes(
        &mut self,
        byes: &[ByeRec],
        raws: &[Raw],
        by_num: &HashMap<u32, usize>,
        event: &mut Event,
        pts: &Points,
    ) {
        let src = self.src;
        let scoring = event.scoring;
        for b in byes {
            let beyond = b.round > event.rounds;
            if beyond {
                self.warnings.push(format!(
                    "record 240 on line {}: round {} is beyond the event's {} rounds; ignored",
                    b.line, b.round, event.rounds
                ));
            }
            for &(id, span) in &b.ids {
                let Some(&pid) = by_num.get(&id) else {
                    self.err(
                        Diag::error(
                            UNKNOWN_PLAYER,
                            format!(
                                "line {}: record 240 gives a bye to {id}, but no 001 line has starting number {id}",
                                b.line
                            ),
                        )
                        .at(src, span, format!("no player {id}"))
                        .with_help("record 240 lists starting numbers from columns 5-8 of the 001 lines"),
                    );
                    continue;
                };
                if beyond {
                    continue;
                }
                let Some(p) = event.participants.get_mut(pid) else {
                    continue;
                };
                let Some(e) = p.entries.iter_mut().find(|e| e.round == b.round) else {
                    continue;
                };
                if e.status == b.kind {
                    continue;
                }
                if e.status == Status::Absent && e.opponent.is_none() {
                    let points = pts.of(b.kind, Outcome::Loss);
                    *e = Entry::unplayed(b.round, b.kind, points, &scoring);
                } else {
                    let num = raws.get(pid).map(|r| r.num).unwrap_or(id);
                    self.warnings.push(format!(
                        "record 240 on line {} gives player {num} a bye `{}` in round {}, but the 001 line shows {}; the 001 line is used",
                        b.line,
                        b.kind_char,
                        b.round,
                        e.status.name()
                    ));
                }
            }
        }
    }
}

fn colour_shown(c: char) -> char {
    if c == ' ' {
        '-'
    } else {
        c
    }
}

/// Round robin if the TRF-26 code (192) or the type text (092) says so.
fn detect_system(code: Option<&str>, text: Option<&str>) -> System {
    let rr_words = |s: &str| {
        let u = s.to_ascii_uppercase();
        u.contains("ROUNDROBIN")
            || u.contains("ROUND_ROBIN")
            || u.contains("ROUND-ROBIN")
            || u.contains("ROUND ROBIN")
    };
    if let Some(c) = code.filter(|c| !c.is_empty()) {
        return if rr_words(c) {
            System::RoundRobin
        } else {
            System::Swiss
        };
    }
    match text {
        Some(t) if rr_words(t) => System::RoundRobin,
        _ => System::Swiss,
    }
}
