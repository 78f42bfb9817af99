//! Strict JSON tokens for the one-pass reader, typed values read as the tree path's `Cx` reads them, fields found through the schema, and participant ids to indexes.

use super::super::schema::Table;
use super::super::tree::num_from_text;
use crate::model::Pid;
use crate::num::Num;
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

/// A cursor over the text. Every reader takes exactly the JSON grammar (as
/// strict as serde_json, which the tree path uses to check syntax) or less:
/// anything else is `None`.
pub(super) struct Lex<'a> {
    pub(super) text: &'a str,
    pub(super) b: &'a [u8],
    pub(super) i: usize,
}

/// An open object or array: whether the first element is still to come, and
/// the byte that closes it.
pub(super) struct Seq {
    first: bool,
    close: u8,
}

impl<'a> Lex<'a> {
    /// A cursor at the start of `text`.
    pub(super) fn new(text: &'a str) -> Self {
        Lex {
            text,
            b: text.as_bytes(),
            i: 0,
        }
    }

    pub(super) fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
    }

    /// The next byte after white space, not taken.
    pub(super) fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.b.get(self.i).copied()
    }

    pub(super) fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    pub(super) fn object(&mut self) -> Option<Seq> {
        self.eat(b'{')?;
        Some(Seq {
            first: true,
            close: b'}',
        })
    }

    pub(super) fn array(&mut self) -> Option<Seq> {
        self.eat(b'[')?;
        Some(Seq {
            first: true,
            close: b']',
        })
    }

    /// Whether `s` has another element; if so the cursor is at it. A comma
    /// must come between elements and never before the closing bracket.
    pub(super) fn more(&mut self, s: &mut Seq) -> Option<bool> {
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
    pub(super) fn key(&mut self, s: &mut Seq) -> Option<Option<Cow<'a, str>>> {
        Some(self.key_at(s)?.map(|(k, _)| k))
    }

    /// [`Lex::key`], and where the key starts.
    pub(super) fn key_at(&mut self, s: &mut Seq) -> Option<Option<(Cow<'a, str>, usize)>> {
        if !self.more(s)? {
            return Some(None);
        }
        self.ws();
        let at = self.i;
        let k = self.string()?;
        self.eat(b':')?;
        Some(Some((k, at)))
    }

    /// A string: borrowed from the text when it has no escapes.
    pub(super) fn string(&mut self) -> Option<Cow<'a, str>> {
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
    pub(super) fn escaped(&mut self, open: usize) -> Option<Cow<'a, str>> {
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
    pub(super) fn number(&mut self) -> Option<&'a str> {
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
    pub(super) fn digits(&mut self) -> Option<()> {
        let start = self.i;
        while self.b.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        (self.i > start).then_some(())
    }

    // Typed values, read as the tree path's `Cx` helpers read them.

    /// `Cx::string`.
    pub(super) fn text(&mut self) -> Option<String> {
        self.string().map(Cow::into_owned)
    }

    /// `Cx::num`: a number literal, or a number written as a string.
    pub(super) fn num(&mut self) -> Option<Num> {
        if self.peek()? == b'"' {
            Num::parse(&self.string()?)
        } else {
            num_from_text(self.number()?)
        }
    }

    /// `Cx::whole`.
    pub(super) fn whole(&mut self) -> Option<i64> {
        let x = self.num()?;
        if !x.is_integer() {
            return None;
        }
        i64::try_from(x.numer()).ok()
    }

    /// `Cx::count`.
    pub(super) fn count(&mut self) -> Option<u32> {
        u32::try_from(self.whole()?).ok()
    }

    /// `Cx::id`: a string, or a whole number kept as its text.
    pub(super) fn id(&mut self) -> Option<Cow<'a, str>> {
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
    pub(super) fn small_whole(&mut self) -> Option<usize> {
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
    pub(super) fn pair(&mut self) -> Option<[Num; 2]> {
        self.eat(b'[')?;
        let a = self.num()?;
        self.eat(b',')?;
        let b = self.num()?;
        self.eat(b']')?;
        Some([a, b])
    }

    /// The field of `table` that `key` names, the first time it is seen
    /// (bit i of `seen` marks field i), with the cursor at its value:
    /// `Some(None)` when the value is `null`, which the tree path takes as
    /// a field left out (the `null` is passed over). `None` for an unknown
    /// or repeated key, or a field the schema leaves to the tree path.
    pub(super) fn field(
        &mut self,
        seen: &mut u32,
        table: &'static Table,
        key: &str,
    ) -> Option<Option<&'static str>> {
        let i = table.find(key)?;
        self.field_at(seen, table, i)
    }

    /// [`Lex::field`] for the field `i` of `table`.
    pub(super) fn field_at(
        &mut self,
        seen: &mut u32,
        table: &'static Table,
        i: usize,
    ) -> Option<Option<&'static str>> {
        first(seen, i)?;
        if self.null() {
            return Some(None);
        }
        let f = &table.fields[i];
        f.fast.then_some(Some(f.name))
    }

    /// Pass over a `null`, if that is what comes next.
    pub(super) fn null(&mut self) -> bool {
        let null = self.peek() == Some(b'n') && self.b[self.i..].starts_with(b"null");
        if null {
            self.i += 4;
        }
        null
    }

    /// `Cx::values`: a table of numbers, `key_at` told each key and where
    /// it starts.
    pub(super) fn values(
        &mut self,
        mut key_at: impl FnMut(&str, usize),
    ) -> Option<BTreeMap<String, Num>> {
        let mut s = self.object()?;
        let mut out = BTreeMap::new();
        while let Some((k, at)) = self.key_at(&mut s)? {
            key_at(&k, at);
            let x = self.num()?;
            if out.insert(k.into_owned(), x).is_some() {
                return None; // a repeated key
            }
        }
        Some(out)
    }
}

/// Mark field `i` seen; `None` if it was already.
fn first(seen: &mut u32, i: usize) -> Option<()> {
    if *seen & (1 << i) != 0 {
        return None;
    }
    *seen |= 1 << i;
    Some(())
}

/// Ids below this that are plain whole numbers (the usual case: starting
/// numbers) index a table directly instead of being hashed.
const DENSE_LIMIT: usize = 1 << 21;

/// Participant ids to indexes.
#[derive(Default)]
pub(super) struct Ids<'a> {
    /// By number, for ids `dense_key` accepts; `u32::MAX` is no participant.
    dense: Vec<u32>,
    /// Every other id (a fast hash seeded per process: one look-up for
    /// each side of each game).
    other: HashMap<Cow<'a, str>, Pid, foldhash::fast::RandomState>,
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
    pub(super) fn get(&self, id: &str) -> Option<Pid> {
        match dense_key(id) {
            Some(n) => self.by_number(n),
            None => self.other.get(id).copied(),
        }
    }

    /// The participant whose id is the number `n`, for `n` that `dense_key`
    /// gives.
    pub(super) fn by_number(&self, n: usize) -> Option<Pid> {
        match self.dense.get(n) {
            Some(&p) if p != u32::MAX => Some(p as Pid),
            _ => None,
        }
    }

    /// Add an id; `None` if it is taken.
    pub(super) fn insert(&mut self, id: Cow<'a, str>, pid: Pid) -> Option<()> {
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
