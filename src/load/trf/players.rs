//! TRF `001` player lines: the player, its round blocks in one compact array, starting numbers to indexes; a large file's second half of player lines read on a second thread.

use super::lines::{is_digits, lines_from, parse_u32, Cols, Line};
use super::*;
use crate::model::Participant;

/// Files from this size on have their player lines read in two halves at
/// once (below it, starting a thread costs more than it saves). A size in
/// bytes, not cells: the lines are split before anything is counted.
const PARALLEL_BYTES: usize = 256 * 1024;

/// One round block of a player line, as the game checks read it. Kept to 8
/// bytes in one array for all players: checking a game reads the opponent's
/// block, and opponents come in pairing order (random), so a compact array
/// that stays in cache is what makes large files load fast.
#[derive(Clone, Copy)]
pub(super) struct Block {
    /// Opponent's starting number; 0 for none (`0000` or blank).
    pub(super) opp: u32,
    /// `w`, `b` or ' ' (for `-` and blank).
    pub(super) colour: u8,
    /// Upper-cased result code (ASCII), ' ' for blank.
    pub(super) result: u8,
    /// Bytes in the opponent columns (4 unless a character is multi-byte).
    pub(super) opp_len: u8,
}

/// Source spans of one round block, for diagnostics.
pub(super) struct BlockSpans {
    pub(super) span: Span,
    pub(super) opp: Span,
    pub(super) colour: Span,
    pub(super) result: Span,
}

/// One player line as the checks need it; what the line says of the
/// player goes straight into a [`Participant`].
pub(super) struct Raw {
    pub(super) line: usize,
    pub(super) num: u32,
    pub(super) num_span: Span,
    pub(super) line_span: Span,
    /// This player's blocks: `first..first + len` of all the blocks.
    pub(super) first: usize,
    pub(super) len: usize,
    /// Source offset of each block, where the line's columns are
    /// characters that are not all bytes; `None`: block `k` starts at
    /// column `92 + 10k`, which is the same byte in the line.
    pub(super) starts: Option<Vec<usize>>,
    /// The line has a points column (its total is checked).
    pub(super) scored: bool,
    /// The last round with a non-blank block (0 for none).
    pub(super) seen: u32,
    /// The line could not be read; its errors are already reported.
    pub(super) broken: bool,
}

impl Raw {
    /// This player's blocks among all the players' `blocks`.
    pub(super) fn blocks<'b>(&self, blocks: &'b [Block]) -> &'b [Block] {
        blocks.get(self.first..self.first + self.len).unwrap_or(&[])
    }

    /// Spans of block `k` (0-based) of this player.
    ///
    /// Columns from the fifth of a block on (blank, colour, blank, result)
    /// hold one ASCII character each or lie past the line's end, so their
    /// offsets follow from the block's start and its opponent columns'
    /// length, clamped to the line's end as [`Cols::off`] clamps.
    pub(super) fn spans(&self, blocks: &[Block], k: usize) -> BlockSpans {
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
pub(super) struct ByNum(Vec<usize>);

impl ByNum {
    const NONE: usize = usize::MAX;
    pub(super) fn new() -> ByNum {
        ByNum(vec![ByNum::NONE; 10_000])
    }
    pub(super) fn get(&self, n: u32) -> Option<usize> {
        match self.0.get(n as usize) {
            Some(&i) if i != ByNum::NONE => Some(i),
            _ => None,
        }
    }
    pub(super) fn insert(&mut self, n: u32, i: usize) {
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

/// The player lines of a large file's second half, read on another thread
/// while this one reads the first half, and taken in the order this one
/// meets them.
pub(super) struct Tail {
    /// Where the second half starts (a line start).
    pub(super) at: usize,
    /// What the other thread read: `None` if it met anything but readable
    /// player lines without a word to say (this thread then reads them
    /// itself, so that every diagnostic comes as it would have and in the
    /// same order).
    pub(super) read: Option<TailPlayers>,
}

/// Player lines read by [`Loader::read_tail`]: each one with the range of
/// its blocks in `blocks`.
pub(super) struct TailPlayers {
    pub(super) players: std::vec::IntoIter<(Raw, Participant)>,
    pub(super) blocks: Vec<Block>,
}

impl Tail {
    /// The player read from line `l` by the other thread, its blocks
    /// appended to `blocks`; `None` if this thread is to read it.
    pub(super) fn player(
        &mut self,
        l: &Line,
        blocks: &mut Vec<Block>,
    ) -> Option<(Raw, Participant)> {
        if l.base < self.at {
            return None;
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

/// Round blocks of the usual shape from column `c0` on, in a line whose
/// columns are bytes: two blanks, opponent (blanks then digits), blank,
/// colour, blank, result, all within the line. They are appended to
/// `blocks` (the player's from `first`) as [`Loader::player_rest`] would read
/// them, `seen` updated likewise; returns the column of the first block
/// that is not of that shape (or past the end), for the general reading.
pub(super) fn usual_blocks(
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
pub(super) const RESULTS: &[u8] = b"10=+-WDLHFUZ ";

/// A round block's colour as kept in [`Block`]: `w`, `b`, or ' ' for `-`
/// and blank; `None` for anything else.
pub(super) fn colour_code(c: u8) -> Option<u8> {
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
pub(super) fn parse_points(s: &str) -> Option<Num> {
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

pub(super) fn full_title(t: &str) -> String {
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
    /// Where a second thread is to start reading player lines: the start
    /// of the line after the middle of a large file; `None` for one thread.
    pub(super) fn tail_start(&self) -> Option<usize> {
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
    pub(super) fn read_tail(src: &Source, at: usize) -> Option<TailPlayers> {
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

    /// Read one `001` line, its round blocks appended to `blocks`; `None`
    /// if not even the starting number is readable.
    pub(super) fn player(
        &mut self,
        l: &Line,
        blocks: &mut Vec<Block>,
    ) -> Option<(Raw, Participant)> {
        let cols = Cols::chars(l);
        let num_span = cols.span(5, 8);
        let line_span = Span::new(l.base, l.base + l.text.len());
        let num = match cols.field(5, 8).map(crate::text::trim).and_then(parse_u32) {
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
                let name = crate::text::trim(cols.field_lossy(15, 47));
                Some((raw, Participant::new(num.to_string(), name)))
            }
        }
    }

    /// What the rest of a `001` line, in columns `cols`, says of the player
    /// `raw`. Its round blocks are appended to `blocks`, and `raw` gets
    /// what the checks need of it, when the whole line reads; on an error
    /// `raw` is as it was (`blocks` may have some of the line's blocks).
    pub(super) fn player_rest(
        &self,
        l: &Line,
        cols: &Cols,
        raw: &mut Raw,
        blocks: &mut Vec<Block>,
    ) -> Result<Participant, Diag> {
        let bad = |c1: usize, c2: usize, what: &str| self.malformed(l, cols, c1, c2, what);
        let name = crate::text::trim(cols.field_lossy(15, 47));
        let title = cols
            .field(11, 13)
            .ok_or_else(|| bad(11, 13, "a title"))
            .map(crate::text::trim)?;
        let title = if title.is_empty() {
            None
        } else {
            Some(full_title(title))
        };
        let rating = match cols.field(49, 52).map(crate::text::trim) {
            Some("") => None,
            Some(s) if is_digits(s) => s.parse::<i64>().ok().filter(|&r| r > 0),
            _ => return Err(bad(49, 52, "a rating (digits) or blanks")),
        };
        let federation = cols
            .field(54, 56)
            .ok_or_else(|| bad(54, 56, "a federation code"))
            .map(crate::text::trim)?;
        let federation = if federation.is_empty() {
            None
        } else {
            Some(federation.to_string())
        };
        let points = match cols.field(81, 84).map(crate::text::trim) {
            Some("") => None,
            Some(s) if s.bytes().all(|b| b.is_ascii_digit() || b == b'.') => {
                match parse_points(s) {
                    Some(n) => Some(n),
                    None => return Err(bad(81, 84, "the points, e.g. ` 6.5`")),
                }
            }
            _ => return Err(bad(81, 84, "the points, e.g. ` 6.5`")),
        };
        let rank = match cols.field(86, 89).map(crate::text::trim) {
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
            let t = crate::text::trim(opp_txt);
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
        // Sex (column 10) and birth date (columns 70-79), read for
        // categories only, and leniently: files that wrote anything there
        // loaded before these were read, and must still load. The year is
        // the date's first four digits (`1985/04/12`, `1985`); `0000` and
        // anything else is no date.
        p.sex = cols
            .field(10, 10)
            .map(crate::text::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string);
        p.born = cols
            .field(70, 73)
            .filter(|s| is_digits(s))
            .and_then(|s| s.parse::<i64>().ok())
            .filter(|&y| y > 0);
        p.recorded_score = points;
        p.recorded_rank = rank;
        Ok(p)
    }
}
