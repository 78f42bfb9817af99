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
//!   a file with `310` or `013` is a team event, built by `team` from the
//!   players' games; `801`/`802` and every other record are skipped.
//!
//! Columns are counted in characters; a line with non-ASCII characters that
//! does not fit that way is retried with columns counted in bytes (files
//! written by programs that pad UTF-8 names by bytes).

use crate::diag::{Diag, Source, Span};
use crate::model::{Entry, Event, Outcome, Participant, Scoring, Side, Sport, Status, System};
use crate::num::Num;

mod team;

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

/// One physical line: number, byte offset in the source, text without the break.
struct Line<'a> {
    no: usize,
    base: usize,
    text: &'a str,
}

/// The lines of a text, split on `\n`, `\r\n` or a lone `\r`, with a
/// leading byte-order mark dropped. An iterator, not a list: nothing to
/// allocate for a file of many thousand lines.
struct Lines<'a> {
    text: &'a str,
    /// Byte offset where the next line starts.
    pos: usize,
    /// Number of the next line.
    no: usize,
    /// Offset of the first `\n` at or after `pos` (the text's length if
    /// none): kept, so that a file broken by lone `\r`s is not searched to
    /// its end again for every line.
    nl: usize,
}

fn split_lines(text: &str) -> Lines<'_> {
    Lines {
        text,
        pos: 0,
        no: 1,
        nl: memchr::memchr(b'\n', text.as_bytes()).unwrap_or(text.len()),
    }
}

/// The lines of `text` from byte `at` on (a line start), numbered from 2:
/// the same lines [`split_lines`] gives from there, with numbers that
/// are not the file's (the first line's byte-order mark is not looked for).
fn lines_from(text: &str, at: usize) -> Lines<'_> {
    Lines {
        text,
        pos: at,
        no: 2,
        nl: 0,
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        let (text, start) = (self.text, self.pos);
        if start >= text.len() {
            return None;
        }
        if self.nl < start {
            self.nl = text
                .as_bytes()
                .get(start..)
                .and_then(|r| memchr::memchr(b'\n', r))
                .map_or(text.len(), |i| start + i);
        }
        let nl = self.nl;
        // The line ends at that `\n`, or at a `\r` before it.
        let cr = text
            .as_bytes()
            .get(start..nl)
            .and_then(|l| memchr::memchr(b'\r', l));
        let (end, next) = match cr {
            Some(cr) if start + cr + 1 == nl && nl < text.len() => (start + cr, nl + 1),
            Some(cr) => (start + cr, start + cr + 1),
            None => (nl, nl + 1),
        };
        let mut line = Line {
            no: self.no,
            base: start,
            text: text.get(start..end).unwrap_or(""),
        };
        if self.no == 1 {
            if let Some(t) = line.text.strip_prefix('\u{feff}') {
                line.base += '\u{feff}'.len_utf8();
                line.text = t;
            }
        }
        self.no += 1;
        self.pos = next;
        Some(line)
    }
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

/// One round block of a player line, as the game checks read it. Kept to 8
/// bytes in one array for all players: checking a game reads the opponent's
/// block, and opponents come in pairing order (random), so a compact array
/// that stays in cache is what makes large files load fast.
#[derive(Clone, Copy)]
struct Block {
    /// Opponent's starting number; 0 for none (`0000` or blank).
    opp: u32,
    /// `w`, `b` or ' ' (for `-` and blank).
    colour: u8,
    /// Upper-cased result code (ASCII), ' ' for blank.
    result: u8,
    /// Bytes in the opponent columns (4 unless a character is multi-byte).
    opp_len: u8,
}

/// Source spans of one round block, for diagnostics.
struct BlockSpans {
    span: Span,
    opp: Span,
    colour: Span,
    result: Span,
}

/// One player's entries as [`Loader::games`] builds them.
#[derive(Default)]
struct Played {
    entries: Vec<Entry>,
    /// Games played but unrated (`W D L`).
    unrated: i64,
    /// The points over `entries` where the line records a total (`None`
    /// inside: too large to hold).
    total: Option<Option<Num>>,
}

/// One player line as the checks need it; what the line says of the
/// player goes straight into a [`Participant`].
struct Raw {
    line: usize,
    num: u32,
    num_span: Span,
    line_span: Span,
    /// This player's blocks: `first..first + len` of all the blocks.
    first: usize,
    len: usize,
    /// Source offset of each block, where the line's columns are
    /// characters that are not all bytes; `None`: block `k` starts at
    /// column `92 + 10k`, which is the same byte in the line.
    starts: Option<Vec<usize>>,
    /// The line has a points column (its total is checked).
    scored: bool,
    /// The last round with a non-blank block (0 for none).
    seen: u32,
    /// The line could not be read; its errors are already reported.
    broken: bool,
}

impl Raw {
    /// This player's blocks among all the players' `blocks`.
    fn blocks<'b>(&self, blocks: &'b [Block]) -> &'b [Block] {
        blocks.get(self.first..self.first + self.len).unwrap_or(&[])
    }

    /// Spans of block `k` (0-based) of this player.
    ///
    /// Columns from the fifth of a block on (blank, colour, blank, result)
    /// hold one ASCII character each or lie past the line's end, so their
    /// offsets follow from the block's start and its opponent columns'
    /// length, clamped to the line's end as [`Cols::off`] clamps.
    fn spans(&self, blocks: &[Block], k: usize) -> BlockSpans {
        let end = self.line_span.end;
        let start = match &self.starts {
            Some(s) => s.get(k).copied().unwrap_or(end),
            None => (self.line_span.start + 91 + 10 * k).min(end),
        };
        let opp_len = blocks
            .get(self.first + k)
            .map_or(0, |b| usize::from(b.opp_len));
        // Offset of the block's column 5 + m.
        let off = |m: usize| (start + opp_len + m).min(end);
        BlockSpans {
            span: Span::new(start, off(4)),
            opp: Span::new(start, off(0)),
            colour: Span::new(off(1), off(2)),
            result: Span::new(off(3), off(4)),
        }
    }
}

/// Starting number to index in the players' list. Starting numbers and
/// opponents are read from four columns, so they are below 10,000: a table
/// indexed by number, where every game looks its opponent up, is far faster
/// than hashing.
struct ByNum(Vec<usize>);

impl ByNum {
    const NONE: usize = usize::MAX;
    fn new() -> ByNum {
        ByNum(vec![ByNum::NONE; 10_000])
    }
    fn get(&self, n: u32) -> Option<usize> {
        match self.0.get(n as usize) {
            Some(&i) if i != ByNum::NONE => Some(i),
            _ => None,
        }
    }
    fn insert(&mut self, n: u32, i: usize) {
        let n = n as usize;
        if n >= self.0.len() {
            // Not reached (four columns), but never out of bounds.
            self.0.resize(n + 1, ByNum::NONE);
        }
        if let Some(x) = self.0.get_mut(n) {
            *x = i;
        }
    }
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
    /// Most threads to read with.
    threads: usize,
}

/// Files from this size on have their player lines read in two halves at
/// once (below it, starting a thread costs more than it saves).
const PARALLEL_BYTES: usize = 256 * 1024;
/// Events from this many player-rounds on have their players' entries
/// built in two halves at once.
const PARALLEL_ENTRIES: usize = 20_000;

/// The player lines of a large file's second half, read on another thread
/// while this one reads the first half, and taken in the order this one
/// meets them.
struct Tail<'scope> {
    /// Where the second half starts (a line start).
    at: usize,
    /// The other thread, until joined.
    job: Option<std::thread::ScopedJoinHandle<'scope, Option<TailPlayers>>>,
    /// What it read: `None` if it met anything but readable player lines
    /// without a word to say (this thread then reads them itself, so that
    /// every diagnostic comes as it would have and in the same order).
    read: Option<TailPlayers>,
}

/// Player lines read by [`Loader::read_tail`]: each one with the range of
/// its blocks in `blocks`.
struct TailPlayers {
    players: std::vec::IntoIter<(Raw, Participant)>,
    blocks: Vec<Block>,
}

impl Tail<'_> {
    /// The player read from line `l` by the other thread, its blocks
    /// appended to `blocks`; `None` if this thread is to read it.
    fn player(&mut self, l: &Line, blocks: &mut Vec<Block>) -> Option<(Raw, Participant)> {
        if l.base < self.at {
            return None;
        }
        if let Some(job) = self.job.take() {
            self.read = job.join().ok().flatten();
        }
        let read = self.read.as_mut()?;
        let (mut raw, person) = read.players.next()?;
        let own = read.blocks.get(raw.first..raw.first + raw.len)?;
        raw.first = blocks.len();
        raw.line = l.no;
        blocks.extend_from_slice(own);
        Some((raw, person))
    }
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Digits only (no sign, no blanks) as a u32; `None` if it does not fit.
fn parse_u32(s: &str) -> Option<u32> {
    if s.is_empty() {
        return None;
    }
    s.bytes().try_fold(0u32, |n, b| {
        if b.is_ascii_digit() {
            n.checked_mul(10)?.checked_add(u32::from(b - b'0'))
        } else {
            None
        }
    })
}

/// Round blocks of the usual shape from column `c0` on, in a line whose
/// columns are bytes: two blanks, opponent (blanks then digits), blank,
/// colour, blank, result, all within the line. They are appended to
/// `blocks` (the player's from `first`) as [`Loader::player_rest`] would read
/// them, `seen` updated likewise; returns the column of the first block
/// that is not of that shape (or past the end), for the general reading.
fn usual_blocks(
    text: &[u8],
    mut c0: usize,
    first: usize,
    blocks: &mut Vec<Block>,
    seen: &mut u32,
) -> usize {
    loop {
        // Byte offset of column c0 - 2 (the first blank before the block).
        let at = c0.saturating_sub(3);
        let Some(&[b' ', b' ', o0, o1, o2, o3, b' ', colour, b' ', result]) = text.get(at..at + 10)
        else {
            return c0;
        };
        let round = blocks.len() - first + 1;
        if round > MAX_ROUNDS as usize {
            return c0;
        }
        let opp_cols = [o0, o1, o2, o3];
        let blanks = opp_cols.iter().take_while(|&&b| b == b' ').count();
        let mut opp = 0u32;
        for &b in opp_cols.iter().skip(blanks) {
            if !b.is_ascii_digit() {
                return c0;
            }
            opp = opp * 10 + u32::from(b - b'0');
        }
        let blank = blanks == 4 && colour == b' ';
        let Some(colour) = colour_code(colour) else {
            return c0;
        };
        let result = result.to_ascii_uppercase();
        if !RESULTS.contains(&result) {
            return c0;
        }
        if !(blank && result == b' ') {
            *seen = round as u32;
        }
        blocks.push(Block {
            opp,
            colour,
            result,
            opp_len: 4,
        });
        c0 += 10;
    }
}

/// Result codes of a round block, upper-cased; blank for none.
const RESULTS: &[u8] = b"10=+-WDLHFUZ ";

/// A round block's colour as kept in [`Block`]: `w`, `b`, or ' ' for `-`
/// and blank; `None` for anything else.
fn colour_code(c: u8) -> Option<u8> {
    match c {
        b' ' | b'-' => Some(b' '),
        b'w' | b'W' => Some(b'w'),
        b'b' | b'B' => Some(b'b'),
        _ => None,
    }
}

/// The points column: digits and dots, as [`Num::parse`] reads them. The
/// usual `6.5`, `10`, `13.0` are read directly (the decimal parser is slow
/// for ten thousand lines); any other shape goes to [`Num::parse`].
fn parse_points(s: &str) -> Option<Num> {
    let (int, frac) = match s.split_once('.') {
        None => (s, ""),
        Some((int, frac)) if !frac.is_empty() => (int, frac),
        Some(_) => return Num::parse(s),
    };
    // Eighteen digits fit an i128 with room to spare.
    if int.is_empty()
        || s.len() > 18
        || !is_digits(int)
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return Num::parse(s);
    }
    // Same value as the decimal's mantissa over 10^scale (what `Num::parse` gives).
    let mut mantissa: i128 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        mantissa = mantissa * 10 + i128::from(b - b'0');
    }
    Num::ratio(mantissa, 10i128.pow(frac.len() as u32)).ok()
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
            threads: 1,
        }
    }

    /// Where a second thread is to start reading player lines: the start
    /// of the line after the middle of a large file; `None` for one thread.
    fn tail_start(&self) -> Option<usize> {
        let text = self.src.text.as_bytes();
        if self.threads < 2 || text.len() < PARALLEL_BYTES {
            return None;
        }
        let mid = text.len() / 2;
        let nl = mid + memchr::memchr(b'\n', text.get(mid..)?)?;
        Some(nl + 1).filter(|&at| at < text.len())
    }

    /// Read the player lines of the text from `at` on, with nothing else
    /// to say: `None` as soon as a line is not readable or a diagnostic
    /// comes up.
    fn read_tail(src: &Source, at: usize) -> Option<TailPlayers> {
        let mut loader = Loader::new(src);
        // Room as in `run` (89 columns before the blocks, 10 per block).
        let rest = src.text.len().saturating_sub(at);
        let mut players = Vec::with_capacity(rest / 90);
        let mut blocks = Vec::with_capacity(rest / 10);
        for l in lines_from(&src.text, at) {
            if l.text.get(..3) == Some("001") {
                let read = loader.player(&l, &mut blocks)?;
                if !loader.errors.is_empty() || !loader.warnings.is_empty() {
                    return None;
                }
                players.push(read);
            }
        }
        Some(TailPlayers {
            players: players.into_iter(),
            blocks,
        })
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
        let mut team_records: Vec<team::RecLine> = Vec::new();
        let mut abnormal: Vec<usize> = Vec::new();
        // Room, from the file's size, for the players and round blocks of a
        // usual file (89 columns before a player's blocks, 10 per block):
        // growing these large vectors would copy them over and over.
        let most_players = (src.text.len() / 90).min(MAX_PLAYERS);
        let mut raws: Vec<Raw> = Vec::with_capacity(most_players);
        let mut blocks: Vec<Block> = Vec::with_capacity(src.text.len() / 10);
        let mut people: Vec<Participant> = Vec::with_capacity(most_players);
        let mut by_num = ByNum::new();
        let mut player_lines = 0usize;

        let tail_at = self.tail_start();
        std::thread::scope(|scope| -> Result<(), Diag> {
            let mut tail = tail_at.map(|at| Tail {
                at,
                job: Some(scope.spawn(move || Loader::read_tail(src, at))),
                read: None,
            });
            for l in lines {
                let l = &l;
                // The tag is the first three characters; every tag read is
                // ASCII, so its first three bytes are the same (and need no
                // String): a line where they are not whole characters is skipped
                // either way.
                let tag = l.text.get(..3).unwrap_or("");
                let (coff, body) = content(l);
                match tag {
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
                        let read = match tail.as_mut().and_then(|t| t.player(l, &mut blocks)) {
                            Some(read) => Some(read),
                            None => self.player(l, &mut blocks),
                        };
                        if let Some((raw, person)) = read {
                            match by_num.get(raw.num) {
                                Some(first) => {
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
                                    // Its blocks are the last ones read: drop them.
                                    blocks.truncate(raw.first);
                                }
                                None => {
                                    by_num.insert(raw.num, raws.len());
                                    raws.push(raw);
                                    people.push(person);
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
                        team_records.push(team::RecLine {
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
            Ok(())
        })?;

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
        let seen = raws.iter().map(|r| r.seen).max().unwrap_or(0);
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
        team = team && team::is_team(&team_records);

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

        let mut played = self.games(&raws, &blocks, &by_num, scoring, &pts, rounds);

        // Participants, in file order: pid = index in `raws`.
        event.participants = people;
        for (p, g) in event.participants.iter_mut().zip(&mut played) {
            p.entries = std::mem::take(&mut g.entries);
            if g.unrated > 0 {
                p.values
                    .insert("unrated_games".to_string(), Num::int(g.unrated));
            }
        }

        if !team_type {
            self.apply_byes(&byes, &raws, &by_num, &mut event, &pts, &mut played);
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

        // Recorded totals against the computed ones (summed when the
        // entries were built, unless a bye changed them since).
        for ((r, p), g) in raws.iter().zip(event.participants.iter()).zip(&played) {
            let Some(rec) = p.recorded_score else {
                continue;
            };
            let Some(sum) = g.total.unwrap_or_else(|| total(&p.entries)) else {
                return Err(Diag::error(
                    MALFORMED,
                    format!("line {}: the points add up to a number too large", r.line),
                )
                .at(src, r.line_span, "this player"));
            };
            if sum != rec {
                self.warnings.push(format!(
                    "player {} {} (line {}): points column says {} but the results of rounds 1-{} add up to {}",
                    r.num, p.name, r.line, rec, rounds, sum
                ));
            }
        }

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
            let team_byes: Vec<team::TeamBye> = byes
                .iter()
                .map(|b| team::TeamBye {
                    line: b.line,
                    kind: b.kind,
                    round: b.round,
                    ids: b.ids.iter().map(|x| x.0).collect(),
                })
                .collect();
            return team::build(src, event, &team_records, &team_byes);
        }
        Ok(event)
    }

    /// Read one `001` line, its round blocks appended to `blocks`; `None`
    /// if not even the starting number is readable.
    fn player(&mut self, l: &Line, blocks: &mut Vec<Block>) -> Option<(Raw, Participant)> {
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
        let first = blocks.len();
        let mut raw = Raw {
            line: l.no,
            num,
            num_span,
            line_span,
            first,
            len: 0,
            starts: None,
            scored: false,
            seen: 0,
            broken: false,
        };
        match self.player_rest(l, &cols, &mut raw, blocks) {
            Ok(p) => Some((raw, p)),
            Err(e) => {
                blocks.truncate(first);
                if !l.text.is_ascii() {
                    match self.player_rest(l, &Cols::bytes(l), &mut raw, blocks) {
                        Ok(p) => return Some((raw, p)),
                        Err(_) => blocks.truncate(first),
                    }
                }
                self.err(e);
                raw.broken = true;
                let name = cols.field_lossy(15, 47).trim();
                Some((raw, Participant::new(num.to_string(), name)))
            }
        }
    }

    /// What the rest of a `001` line, in columns `cols`, says of the player
    /// `raw`. Its round blocks are appended to `blocks`, and `raw` gets
    /// what the checks need of it, when the whole line reads; on an error
    /// `raw` is as it was (`blocks` may have some of the line's blocks).
    fn player_rest(
        &self,
        l: &Line,
        cols: &Cols,
        raw: &mut Raw,
        blocks: &mut Vec<Block>,
    ) -> Result<Participant, Diag> {
        let bad = |c1: usize, c2: usize, what: &str| self.malformed(l, cols, c1, c2, what);
        let name = cols.field_lossy(15, 47).trim();
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
            Some(s) if s.bytes().all(|b| b.is_ascii_digit() || b == b'.') => {
                match parse_points(s) {
                    Some(n) => Some(n),
                    None => return Err(bad(81, 84, "the points, e.g. ` 6.5`")),
                }
            }
            _ => return Err(bad(81, 84, "the points, e.g. ` 6.5`")),
        };
        let rank = match cols.field(86, 89).map(str::trim) {
            Some("") => None,
            Some(s) if is_digits(s) => s.parse::<u32>().ok(),
            _ => return Err(bad(86, 89, "the rank (digits) or blanks")),
        };
        let first = blocks.len();
        let width = cols.width();
        let mut seen = 0u32;
        let mut starts = Vec::new();
        let mut c0 = 92usize;
        while c0 <= width {
            if cols.offs.is_none() {
                // Columns are bytes: blocks of the usual shape are read in
                // one go; the code below takes any other block.
                c0 = usual_blocks(l.text.as_bytes(), c0, first, blocks, &mut seen);
                if c0 > width {
                    break;
                }
            }
            let round = blocks.len() - first + 1;
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
            // 0 stands for no opponent, as `0000` and blanks do.
            let opp = if t.is_empty() {
                0
            } else {
                match parse_u32(t) {
                    Some(n) => n,
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
            let written = cols.ch(c0 + 5);
            let ascii = |c: Option<char>| c.filter(char::is_ascii).map(|c| c as u8);
            let colour = match ascii(written).and_then(colour_code) {
                Some(c) => c,
                None => {
                    return Err(bad(
                        c0 + 5,
                        c0 + 5,
                        &format!("the round {round} colour: w, b or -"),
                    ))
                }
            };
            let result = match ascii(cols.ch(c0 + 7)).map(|c| c.to_ascii_uppercase()) {
                Some(c) if RESULTS.contains(&c) => c,
                _ => {
                    return Err(bad(
                        c0 + 7,
                        c0 + 7,
                        &format!("the round {round} result: 1 0 = + - W D L H F U Z or blank"),
                    ))
                }
            };
            // Blank: nothing written in the block's eight columns (the two
            // blanks inside it were checked above).
            if !(t.is_empty() && written == Some(' ') && result == b' ') {
                seen = round as u32;
            }
            // Only a line whose columns are not its bytes needs them.
            if cols.offs.is_some() {
                starts.push(l.base + cols.off(c0));
            }
            blocks.push(Block {
                opp,
                colour,
                result,
                // At most four characters of four bytes each.
                opp_len: opp_txt.len() as u8,
            });
            c0 += 10;
        }
        raw.first = first;
        raw.len = blocks.len() - first;
        raw.starts = cols.offs.is_some().then_some(starts);
        raw.scored = points.is_some();
        raw.seen = seen;
        let mut p = Participant::new(raw.num.to_string(), name);
        p.rating = rating;
        p.title = title;
        p.federation = federation;
        p.recorded_score = points;
        p.recorded_rank = rank;
        Ok(p)
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

    /// Build every player's entries from the round blocks, checking both
    /// sides of each game; one [`Played`] per player, in order. They are
    /// attached to the participants afterwards, in one pass: touching each
    /// participant between the entries being written costs a cache miss.
    fn games(
        &mut self,
        raws: &[Raw],
        blocks: &[Block],
        by_num: &ByNum,
        scoring: Scoring,
        pts: &Points,
        rounds: u32,
    ) -> Vec<Played> {
        let plain = plain_games(raws, blocks, by_num, rounds);
        let ctx = Games {
            raws,
            blocks,
            by_num,
            scoring,
            pts,
            plain: &plain,
            rounds,
        };
        // A large event's second half of players is built on another
        // thread, with a loader of its own: used if it had nothing to say,
        // else built again here, so that every diagnostic comes as it
        // would have and in the same order.
        let n = raws.len();
        let entries = n.saturating_mul(rounds as usize);
        let mid = if self.threads >= 2 && entries >= PARALLEL_ENTRIES {
            n / 2
        } else {
            n
        };
        let src = self.src;
        let (mut played, rest) = std::thread::scope(|s| {
            let job = (mid < n).then(|| {
                s.spawn(|| {
                    let mut other = Loader::new(src);
                    let played = other.games_of(&ctx, mid..n);
                    (other.errors.is_empty() && other.warnings.is_empty()).then_some(played)
                })
            });
            let played = self.games_of(&ctx, 0..mid);
            (played, job.and_then(|j| j.join().ok().flatten()))
        });
        let rest = match rest {
            Some(rest) => rest,
            None => self.games_of(&ctx, mid..n),
        };
        played.extend(rest);
        played
    }

    /// The entries of players `range`, with every check of their blocks.
    fn games_of(&mut self, ctx: &Games, range: std::ops::Range<usize>) -> Vec<Played> {
        let (blocks, plain, rounds, pts) = (ctx.blocks, ctx.plain, ctx.rounds, ctx.pts);
        let nr = rounds as usize;
        let mut played = Vec::with_capacity(range.len());
        for i in range {
            let Some(a) = ctx.raws.get(i) else {
                break;
            };
            if a.broken {
                played.push(Played::default());
                continue;
            }
            let own = a.blocks(blocks);
            let mut unrated = 0i64;
            let entries: Vec<Entry> = (1..=rounds)
                .map(|r| {
                    let k = r as usize - 1;
                    // The usual case, found by `plain_games`: the same entry
                    // as the checks give, without their look-ups.
                    if let (Some(b), Some(&p)) = (own.get(k), plain.get(i * nr + k)) {
                        // Not a double forfeit: the other side is not `-`.
                        let game = game_status(char::from(b.result), '+');
                        if let (true, Some((status, outcome))) = (p != 0, game) {
                            if matches!(b.result, b'W' | b'D' | b'L') {
                                unrated += 1;
                            }
                            return game_entry(r, p as usize - 1, b, status, outcome, pts);
                        }
                    }
                    self.round_entry(ctx, i, a, own, r, &mut unrated)
                })
                .collect();
            // Summed now, while the entries are in cache.
            let total = a.scored.then(|| total(&entries));
            played.push(Played {
                entries,
                unrated,
                total,
            });
        }
        played
    }

    /// Player `i`'s entry for round `r`, with every check of its block
    /// (`own` are the player's blocks, `a` its line).
    fn round_entry(
        &mut self,
        ctx: &Games,
        i: usize,
        a: &Raw,
        own: &[Block],
        r: u32,
        unrated: &mut i64,
    ) -> Entry {
        let src = self.src;
        let Games {
            raws,
            blocks,
            by_num,
            scoring,
            pts,
            ..
        } = *ctx;
        let k = r as usize - 1;
        let absent = || Entry::unplayed(r, Status::Absent, pts.a, &scoring);
        let Some(b) = own.get(k) else {
            return absent();
        };
        let result = char::from(b.result);
        if b.opp == 0 {
            let status = match result {
                ' ' | '-' => Status::Absent,
                'H' => Status::HalfBye,
                'F' => Status::FullBye,
                'U' => Status::PairingBye,
                'Z' => Status::ZeroBye,
                '+' => Status::ForfeitWin,
                c => {
                    let sp = a.spans(blocks, k);
                    self.err(
                        Diag::error(
                            MALFORMED,
                            format!(
                                "line {}, column {}: round {r} result `{c}` is a game result but the opponent is 0000",
                                a.line,
                                src.line_col(sp.result.start).1
                            ),
                        )
                        .at(src, sp.result, "a game needs an opponent")
                        .at(src, sp.opp, "no opponent")
                        .with_help("for a bye use H, F, U or Z; for a forfeit win without an opponent use +"),
                    );
                    return absent();
                }
            };
            let points = pts.of(status, Outcome::Win);
            let mut e = Entry::unplayed(r, status, points, &scoring);
            if status == Status::ForfeitWin {
                e.outcome = Outcome::Win;
            }
            return e;
        }
        let n = b.opp;
        if matches!(result, 'H' | 'F' | 'U' | 'Z') {
            let sp = a.spans(blocks, k);
            self.err(
                Diag::error(
                    MALFORMED,
                    format!(
                        "line {}: round {r} result `{result}` is a bye, but the opponent is {n}",
                        a.line
                    ),
                )
                .at(src, sp.opp, "a bye has opponent 0000")
                .at(src, sp.result, "bye")
                .with_help(
                    "write 0000 in the opponent columns of a bye, or give the game's result",
                ),
            );
            return absent();
        }
        let Some(j) = by_num.get(n) else {
            self.err(
                Diag::error(
                    UNKNOWN_OPPONENT,
                    format!(
                        "line {}: round {r} names opponent {n}, but no 001 line has starting number {n}",
                        a.line
                    ),
                )
                .at(src, a.spans(blocks, k).opp, format!("no player {n}"))
                .with_help("the opponent columns hold the starting number (columns 5-8) of another 001 line"),
            );
            return absent();
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
                .at(src, a.spans(blocks, k).opp, "own starting number")
                .with_help("the opponent columns must name another player"),
            );
            return absent();
        }
        let Some(o) = raws.get(j) else {
            return absent();
        };
        if o.broken {
            return absent();
        }
        let ob = o.blocks(blocks).get(k);
        let back = ob.map(|x| x.opp).filter(|&m| m != 0);
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
            .at(src, a.spans(blocks, k).opp, format!("{} plays {}", a.num, o.num));
            d = match ob {
                Some(_) => d.at(
                    src,
                    o.spans(blocks, k).span,
                    format!("{} shows {shows}", o.num),
                ),
                None => {
                    let end = o.line_span.end;
                    d.at(
                        src,
                        Span::new(end, end),
                        format!("{} has no round {r} block", o.num),
                    )
                }
            };
            self.err(d.with_help("both players' lines must name each other in the same round"));
            return absent();
        }
        let Some(ob) = ob else {
            return absent();
        };
        let oresult = char::from(ob.result);
        let (complementary, colours_ok) = fit(b, ob);
        if !complementary || !colours_ok {
            // Reported once, from the side listed first.
            if i < j {
                let what = if !complementary {
                    format!("results `{result}` and `{oresult}` do not fit together")
                } else {
                    format!(
                        "colours `{}` and `{}` are not one white and one black",
                        colour_shown(b.colour),
                        colour_shown(ob.colour)
                    )
                };
                let (mine, theirs) = (a.spans(blocks, k), o.spans(blocks, k));
                let (sa, sb) = if !complementary {
                    (mine.result, theirs.result)
                } else {
                    (mine.colour, theirs.colour)
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
            return absent();
        }
        let Some((status, outcome)) = game_status(result, oresult) else {
            // Paired but no result yet.
            if i < j {
                self.warnings.push(format!(
                    "round {r}: {} and {} are paired but have no result yet; both are treated as absent",
                    a.num, o.num
                ));
            }
            return absent();
        };
        if matches!(result, 'W' | 'D' | 'L') {
            *unrated += 1;
        }
        game_entry(r, j, b, status, outcome, pts)
    }

    /// Apply `240` byes of an individual event to the players' entries.
    /// A bye that changes an entry clears that player's total in `played`.
    fn apply_byes(
        &mut self,
        byes: &[ByeRec],
        raws: &[Raw],
        by_num: &ByNum,
        event: &mut Event,
        pts: &Points,
        played: &mut [Played],
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
                let Some(pid) = by_num.get(id) else {
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
                    if let Some(g) = played.get_mut(pid) {
                        g.total = None;
                    }
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

fn colour_shown(c: u8) -> char {
    if c == b' ' {
        '-'
    } else {
        char::from(c)
    }
}

/// What the checks of each round read, besides the player's own line.
#[derive(Clone, Copy)]
struct Games<'a> {
    raws: &'a [Raw],
    blocks: &'a [Block],
    by_num: &'a ByNum,
    scoring: Scoring,
    pts: &'a Points,
    /// [`plain_games`] of the event.
    plain: &'a [u32],
    rounds: u32,
}

/// Whether two sides of a pairing fit: (results complementary, colours one
/// white and one black where the game was played).
fn fit(b: &Block, ob: &Block) -> (bool, bool) {
    let (result, oresult) = (char::from(b.result), char::from(ob.result));
    let complementary = matches!(
        (result, oresult),
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
    let played = matches!(result, '1' | '0' | '=' | 'W' | 'D' | 'L');
    let colours_ok = match (b.colour, ob.colour) {
        (b'w', b'b') | (b'b', b'w') | (b' ', b' ') => true,
        (b'w', b'w') | (b'b', b'b') => false,
        _ => !played,
    };
    (complementary, colours_ok)
}

/// What a game whose sides fit is, from the side with `result`; `None` when
/// the pairing has no result yet.
fn game_status(result: char, oresult: char) -> Option<(Status, Outcome)> {
    Some(match result {
        '1' => (Status::Played, Outcome::Win),
        '=' => (Status::Played, Outcome::Draw),
        '0' => (Status::Played, Outcome::Loss),
        'W' => (Status::Played, Outcome::Win),
        'D' => (Status::Played, Outcome::Draw),
        'L' => (Status::Played, Outcome::Loss),
        '+' => (Status::ForfeitWin, Outcome::Win),
        '-' if oresult == '-' => (Status::DoubleForfeit, Outcome::Loss),
        '-' => (Status::ForfeitLoss, Outcome::Loss),
        _ => return None,
    })
}

/// The entry of a game against player `j`, from this side's block `b`.
fn game_entry(
    r: u32,
    j: usize,
    b: &Block,
    status: Status,
    outcome: Outcome,
    pts: &Points,
) -> Entry {
    let side = match b.colour {
        b'w' => Some(Side::First),
        b'b' => Some(Side::Second),
        _ => None,
    };
    Entry {
        round: r,
        session: 1,
        stage: crate::model::Stage::Unstated,
        opponent: Some(j),
        partner: None,
        status,
        outcome,
        points: pts.of(status, outcome),
        side,
        weight: Num::ONE,
        extra: None,
    }
}

/// The ordinary games of every player, at `i * rounds + k` for player `i`
/// and block `k`: the opponent's index + 1 where both lines name each
/// other, the results and colours fit and there is a result, so the checks
/// of [`Loader::round_entry`] pass without a word; 0 for a round that
/// needs them. A double forfeit is left to them too, so that this side's
/// result alone tells what the game is.
///
/// Looked up round by round in a round-major copy of the blocks, the
/// opponents' blocks stay in cache; in pairing order over the whole file,
/// with entries being written in between, nearly every look-up missed it.
fn plain_games(raws: &[Raw], blocks: &[Block], by_num: &ByNum, rounds: u32) -> Vec<u32> {
    let n = raws.len();
    let nr = rounds as usize;
    // Round `k` of player `i` at `k * n + i`; result 0 where there is no
    // block or the line could not be read.
    let none = Block {
        opp: 0,
        colour: 0,
        result: 0,
        opp_len: 0,
    };
    let mut grid = vec![none; n * nr];
    for (i, a) in raws.iter().enumerate().filter(|(_, a)| !a.broken) {
        for (k, b) in a.blocks(blocks).iter().take(nr).enumerate() {
            if let Some(g) = grid.get_mut(k * n + i) {
                *g = *b;
            }
        }
    }
    // Read for every round: apart from the players' lines, in little room.
    let nums: Vec<u32> = raws.iter().map(|a| a.num).collect();
    let mut plain = vec![0u32; n * nr];
    for (k, row) in grid.chunks_exact(n.max(1)).enumerate() {
        for (i, (b, &num)) in row.iter().zip(&nums).enumerate() {
            if b.result == 0 || b.opp == 0 || matches!(b.result, b'H' | b'F' | b'U' | b'Z') {
                continue;
            }
            let Some(j) = by_num.get(b.opp).filter(|&j| j != i) else {
                continue;
            };
            let Some(ob) = row.get(j).filter(|ob| ob.result != 0) else {
                continue;
            };
            if ob.opp != num || fit(b, ob) != (true, true) {
                continue;
            }
            let (result, oresult) = (char::from(b.result), char::from(ob.result));
            if game_status(result, oresult).is_none() || (result, oresult) == ('-', '-') {
                continue;
            }
            if let (Some(p), Ok(opp)) = (plain.get_mut(i * nr + k), u32::try_from(j + 1)) {
                *p = opp;
            }
        }
    }
    plain
}

/// A player's points over `entries`, in order; `None` if the sum does not fit.
fn total(entries: &[Entry]) -> Option<Num> {
    // Points in whole and half points (every shipped scoring) are added up
    // in halves, without reducing a fraction at each step. With numerators
    // below 2^40 and fewer than 2^20 entries no partial sum (in halves,
    // below 2^61) can overflow, here or adding 64-bit `Num`s, so both give
    // the same exact sum.
    if entries.len() < 1 << 20 {
        let mut halves: i128 = 0;
        let small = entries.iter().all(|e| {
            let (n, d) = (e.points.numer(), e.points.denom());
            let fits = n.unsigned_abs() < 1 << 40 && (d == 1 || d == 2);
            if fits {
                halves += if d == 1 { 2 * n } else { n };
            }
            fits
        });
        if small {
            return Num::ratio(halves, 2).ok();
        }
    }
    let mut sum = Num::ZERO;
    for e in entries {
        sum = sum.add(e.points).ok()?;
    }
    Some(sum)
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
