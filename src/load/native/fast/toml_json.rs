//! A plain native TOML event rewritten as the JSON text that holds the same values, line for line, for the one-pass reader; anything else is `None`.
//!
//! The one-pass reader (`super::load`) is the only place that turns a valid
//! event's text into an [`crate::model::Event`] without the value tree. For
//! TOML it reads this JSON: each TOML table becomes a JSON object, each
//! array of tables an array of objects, each value the JSON value the
//! tree path reads from the `toml` crate's (`super::super::tree`). The
//! JSON keeps the TOML file's lines (a newline for each of its newlines),
//! so a byte offset in it gives the line the tree path would report.
//!
//! Strict, never precise: it takes a subset of TOML that the `toml` crate
//! reads the same way, and gives up (`None`, the tree path then reads the
//! file and gives any diagnostic) on everything else: escapes in strings,
//! multi-line strings, quoted or dotted keys, dates, booleans, special
//! floats, exponents, `+`, `_` and non-decimal integers, integers of more
//! than 18 digits, floats of more than 15 digits (all of those are exact
//! through the `f64` the tree path reads them into), a table header whose
//! parent is not the table just read, a bare carriage return, a control
//! character in a comment. A key given twice, or a table reopened, becomes
//! a JSON key given twice, which the one-pass reader gives up on.

/// The JSON text of a TOML event in the subset above, or `None`.
pub(super) fn to_json(text: &str) -> Option<String> {
    let mut c = Conv {
        t: text,
        b: text.as_bytes(),
        i: 0,
        out: String::with_capacity(text.len() + text.len() / 4),
        frames: vec![Frame {
            name: "",
            array: false,
            keys: false,
        }],
        depth: 0,
    };
    c.out.push('{');
    loop {
        c.blank();
        match c.b.get(c.i) {
            None => break,
            Some(b'\n' | b'\r' | b'#') => c.end_of_line()?,
            Some(b'[') => c.header()?,
            Some(_) => c.key_value()?,
        }
    }
    while c.frames.len() > 1 {
        c.close();
    }
    c.out.push('}');
    Some(c.out)
}

/// An open table: its key, whether it is an element of an array of tables,
/// and whether a key has been written in it (a comma before the next).
struct Frame<'a> {
    name: &'a str,
    array: bool,
    keys: bool,
}

struct Conv<'a> {
    t: &'a str,
    b: &'a [u8],
    i: usize,
    out: String,
    /// The root table, then each table the last header opened.
    frames: Vec<Frame<'a>>,
    /// How deep in arrays and inline tables the value being read is.
    depth: usize,
}

/// Deeper nesting than any event has: given up.
const MAX_DEPTH: usize = 32;

impl<'a> Conv<'a> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    /// Spaces and tabs.
    fn blank(&mut self) {
        while let Some(b' ' | b'\t') = self.peek() {
            self.i += 1;
        }
    }

    /// Blanks, an optional comment, then a newline (written) or the end.
    fn end_of_line(&mut self) -> Option<()> {
        self.blank();
        if self.peek() == Some(b'#') {
            self.comment()?;
        }
        self.newline_or_end()
    }

    /// A comment to the end of its line, without control characters.
    fn comment(&mut self) -> Option<()> {
        while let Some(c) = self.peek() {
            match c {
                b'\n' | b'\r' => break,
                b'\t' => {}
                0..=0x1f | 0x7f => return None,
                _ => {}
            }
            self.i += 1;
        }
        Some(())
    }

    fn newline_or_end(&mut self) -> Option<()> {
        match self.peek() {
            None => Some(()),
            Some(b'\n') => {
                self.i += 1;
                self.out.push('\n');
                Some(())
            }
            Some(b'\r') if self.b.get(self.i + 1) == Some(&b'\n') => {
                self.i += 2;
                self.out.push('\n');
                Some(())
            }
            _ => None,
        }
    }

    /// Blanks, comments and newlines, as between the values of an array.
    fn space(&mut self) -> Option<()> {
        loop {
            self.blank();
            match self.peek() {
                Some(b'#') => self.comment()?,
                Some(b'\n' | b'\r') => self.newline_or_end()?,
                _ => return Some(()),
            }
        }
    }

    /// A bare key.
    fn key(&mut self) -> Option<&'a str> {
        let start = self.i;
        while let Some(b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-') = self.peek() {
            self.i += 1;
        }
        (self.i > start).then(|| &self.t[start..self.i])
    }

    /// `"key":`, after a comma if the object has keys already.
    fn write_key(&mut self, key: &str, comma: bool) {
        if comma {
            self.out.push(',');
        }
        self.out.push('"');
        self.out.push_str(key);
        self.out.push_str("\":");
    }

    /// `key = value` in the table the last header opened.
    fn key_value(&mut self) -> Option<()> {
        let k = self.key()?;
        self.blank();
        (self.peek()? == b'=').then(|| self.i += 1)?;
        self.blank();
        let f = self.frames.last_mut()?;
        let comma = std::mem::replace(&mut f.keys, true);
        self.write_key(k, comma);
        self.value()?;
        self.end_of_line()
    }

    /// `[a.b]` or `[[a.b]]`: close the tables not on the path, open the
    /// last key's table (or the next element of its array).
    fn header(&mut self) -> Option<()> {
        let array = self.b.get(self.i + 1) == Some(&b'[');
        self.i += if array { 2 } else { 1 };
        let mut path = Vec::new();
        loop {
            self.blank();
            path.push(self.key()?);
            self.blank();
            match self.peek()? {
                b'.' => self.i += 1,
                b']' => break,
                _ => return None,
            }
        }
        let close: &[u8] = if array { b"]]" } else { b"]" };
        self.b[self.i..].starts_with(close).then_some(())?;
        self.i += close.len();

        // The parent must be the table open now (or one around it).
        let last = path.len() - 1;
        let open = &self.frames[1..];
        if open.len() < last || open.iter().zip(&path[..last]).any(|(f, k)| f.name != *k) {
            return None;
        }
        let next_element = array
            && open
                .get(last)
                .is_some_and(|f| f.array && f.name == path[last]);
        let keep = last + if next_element { 2 } else { 1 };
        while self.frames.len() > keep {
            self.close();
        }
        if next_element {
            self.out.push_str("},{");
            self.frames.last_mut()?.keys = false;
        } else {
            let parent = self.frames.last_mut()?;
            let comma = std::mem::replace(&mut parent.keys, true);
            self.write_key(path[last], comma);
            self.out.push_str(if array { "[{" } else { "{" });
            self.frames.push(Frame {
                name: path[last],
                array,
                keys: false,
            });
        }
        // After the table is opened: its `{` is on the header's line, where
        // the `toml` crate's span of the table starts.
        self.end_of_line()
    }

    fn close(&mut self) {
        if let Some(f) = self.frames.pop() {
            self.out.push_str(if f.array { "}]" } else { "}" });
        }
    }

    fn value(&mut self) -> Option<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        match self.peek()? {
            b'"' | b'\'' => self.string()?,
            b'[' => self.array()?,
            b'{' => self.inline_table()?,
            b'-' | b'0'..=b'9' => self.number()?,
            _ => return None,
        }
        self.depth -= 1;
        Some(())
    }

    /// A one-line string without escapes, basic or literal: its text is the
    /// JSON string's text (no quote or backslash in it, no control
    /// character: the one-pass reader gives up on a tab).
    fn string(&mut self) -> Option<()> {
        let q = self.peek()?;
        let start = self.i + 1;
        let len = self.b[start..]
            .iter()
            .position(|&c| c == q || c == b'"' || c == b'\\' || c < 0x20 || c == 0x7f)?;
        let end = start + len;
        if self.b[end] != q || (q == b'\'' && len == 0 && self.b.get(end + 1) == Some(&q)) {
            return None;
        }
        if q == b'"' && len == 0 && self.b.get(end + 1) == Some(&q) {
            return None; // `"""`: a multi-line string
        }
        self.out.push('"');
        self.out.push_str(&self.t[start..end]);
        self.out.push('"');
        self.i = end + 1;
        Some(())
    }

    /// `[a, b, ...]`, over lines, with comments and a trailing comma.
    fn array(&mut self) -> Option<()> {
        self.i += 1;
        self.out.push('[');
        let mut first = true;
        loop {
            self.space()?;
            if self.peek()? == b']' {
                break;
            }
            if !first {
                self.out.push(',');
            }
            first = false;
            self.value()?;
            self.space()?;
            match self.peek()? {
                b',' => self.i += 1,
                b']' => break,
                _ => return None,
            }
        }
        self.i += 1;
        self.out.push(']');
        Some(())
    }

    /// `{ k = v, ... }` on one line, without a trailing comma.
    fn inline_table(&mut self) -> Option<()> {
        self.i += 1;
        self.out.push('{');
        self.blank();
        if self.peek()? == b'}' {
            self.i += 1;
            self.out.push('}');
            return Some(());
        }
        let mut comma = false;
        loop {
            let k = self.key()?;
            self.blank();
            (self.peek()? == b'=').then(|| self.i += 1)?;
            self.blank();
            self.write_key(k, comma);
            comma = true;
            self.value()?;
            self.blank();
            match self.peek()? {
                b',' => {
                    self.i += 1;
                    self.blank();
                }
                b'}' => break,
                _ => return None,
            }
        }
        self.i += 1;
        self.out.push('}');
        Some(())
    }

    /// A decimal integer or float, written as TOML and JSON both write it:
    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?`, then the end of the value.
    fn number(&mut self) -> Option<()> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        let int = self.digits();
        if int == 0 || (int > 1 && self.b[self.i - int] == b'0') {
            return None;
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            let frac = self.digits();
            if frac == 0 || int + frac > 15 {
                return None;
            }
        } else if int > 18 {
            return None;
        }
        match self.peek() {
            None | Some(b' ' | b'\t' | b',' | b']' | b'}' | b'\n' | b'\r' | b'#') => {}
            _ => return None,
        }
        self.out.push_str(&self.t[start..self.i]);
        Some(())
    }

    fn digits(&mut self) -> usize {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        self.i - start
    }
}

#[cfg(test)]
mod tests {
    use super::to_json;

    #[test]
    fn tables_arrays_and_values_become_json_line_for_line() {
        let toml = "# note\n[event]\nname = \"A\" # c\nrounds = 2\n\n[[participants]]\nid = 1\n[[participants]]\nid = 'b'\nvalues = { x = 1.5 }\n[[rounds]]\ngames = [\n  { home = 1, away = \"b\", points = [1, 0] },\n]\n";
        let json = to_json(toml).expect("plain TOML");
        assert_eq!(json.matches('\n').count(), toml.matches('\n').count());
        let v: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        assert_eq!(v["participants"][1]["values"]["x"], 1.5);
        assert_eq!(v["rounds"][0]["games"][0]["away"], "b");
        assert_eq!(v["event"]["rounds"], 2);
    }

    #[test]
    fn what_the_subset_leaves_out_is_none() {
        for t in [
            "a = \"x\\n\"",
            "a = \"\"\"x\"\"\"",
            "a.b = 1",
            "\"a\" = 1",
            "a = 2025-01-04",
            "a = true",
            "a = 1e5",
            "a = +1",
            "a = 1_000",
            "a = 01",
            "a = 0x1",
            "a = inf",
            "a = 1234567890123456789",
            "a = 1.234567890123456",
            "a = 1\rb = 2",
            "# \u{1}\n",
            "a = { b = 1, }",
            "a = 1 b",
            "[x.y]\n",
            "[[a]]\n[b]\n[a.c]\n",
        ] {
            assert_eq!(to_json(t), None, "{t:?}");
        }
    }
}
