//! Lines and fixed columns of a TRF file: the lines split as TRF writers end them, columns counted in characters (or bytes), tokens of free-form records.

use crate::diag::Span;

/// One physical line: number, byte offset in the source, text without the break.
pub(super) struct Line<'a> {
    pub(super) no: usize,
    pub(super) base: usize,
    pub(super) text: &'a str,
}

/// The lines of a text, split on `\n`, `\r\n` or a lone `\r`, with a
/// leading byte-order mark dropped. An iterator, not a list: nothing to
/// allocate for a file of many thousand lines.
pub(super) struct Lines<'a> {
    pub(super) text: &'a str,
    /// Byte offset where the next line starts.
    pub(super) pos: usize,
    /// Number of the next line.
    pub(super) no: usize,
    /// Offset of the first `\n` at or after `pos` (the text's length if
    /// none): kept, so that a file broken by lone `\r`s is not searched to
    /// its end again for every line.
    pub(super) nl: usize,
}

pub(super) fn split_lines(text: &str) -> Lines<'_> {
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
pub(super) fn lines_from(text: &str, at: usize) -> Lines<'_> {
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
pub(super) struct Cols<'a> {
    pub(super) text: &'a str,
    pub(super) base: usize,
    /// Byte offset of each character (character mode); `None` in byte mode.
    pub(super) offs: Option<Vec<usize>>,
}

impl<'a> Cols<'a> {
    pub(super) fn chars(l: &Line<'a>) -> Cols<'a> {
        // On an ASCII line (nearly every line) characters are bytes: no table needed.
        let offs = (!l.text.is_ascii()).then(|| l.text.char_indices().map(|(i, _)| i).collect());
        Cols {
            text: l.text,
            base: l.base,
            offs,
        }
    }
    pub(super) fn bytes(l: &Line<'a>) -> Cols<'a> {
        Cols {
            text: l.text,
            base: l.base,
            offs: None,
        }
    }
    /// Number of columns in the line.
    pub(super) fn width(&self) -> usize {
        match &self.offs {
            Some(o) => o.len(),
            None => self.text.len(),
        }
    }
    /// Byte offset (in the line) where 1-based column `col` starts, clamped to the end.
    pub(super) fn off(&self, col: usize) -> usize {
        let i = col.saturating_sub(1);
        match &self.offs {
            Some(o) => o.get(i).copied().unwrap_or(self.text.len()),
            None => i.min(self.text.len()),
        }
    }
    /// Columns `c1..=c2`, shorter at the end of the line; `None` if byte
    /// columns cut a character.
    pub(super) fn field(&self, c1: usize, c2: usize) -> Option<&'a str> {
        self.text.get(self.off(c1)..self.off(c2.saturating_add(1)))
    }
    /// Like [`Cols::field`] but widened to whole characters.
    pub(super) fn field_lossy(&self, c1: usize, c2: usize) -> &'a str {
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
    pub(super) fn span(&self, c1: usize, c2: usize) -> Span {
        Span::new(
            self.base + self.off(c1),
            self.base + self.off(c2.saturating_add(1)),
        )
    }
    /// The single character in column `c`, blank past the end.
    pub(super) fn ch(&self, c: usize) -> Option<char> {
        self.field(c, c).map(|s| s.chars().next().unwrap_or(' '))
    }
}

pub(super) fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Digits only (no sign, no blanks) as a u32; `None` if it does not fit.
pub(super) fn parse_u32(s: &str) -> Option<u32> {
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

pub(super) fn shown(s: &str) -> String {
    if s.trim().is_empty() {
        "blank".to_string()
    } else {
        format!("`{}`", s.trim())
    }
}

/// Whitespace-separated tokens with their byte offsets in `text`.
pub(super) fn tokens(text: &str, sep: &[char]) -> Vec<(usize, String)> {
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
pub(super) fn content<'a>(l: &Line<'a>) -> (usize, &'a str) {
    match l.text.char_indices().nth(4) {
        Some((i, _)) => (i, l.text.get(i..).unwrap_or("")),
        None => (l.text.len(), ""),
    }
}
