//! The formatter's tokens: a ruleset's text cut into words, numbers,
//! strings, comments, operators and punctuation, each with the number of
//! line breaks before it. The formatter needs no more than this (and never
//! parses with it): the parser in `syntax` stays the one judge of the text.

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A name or a keyword (`metric`, `r`, `opponent`).
    Word,
    /// `12`, `0.33`.
    Number,
    /// `"..."`, quotes included.
    Str,
    /// `// ...` or `/// ...` to the end of the line.
    Comment,
    /// `==`, `!=`, `<=`, `>=`, `=>`, `??`, `<`, `>`, `=`, `+`, `-`, `*`, `/`, `%`.
    Op,
    /// `(`, `[` or `{`.
    Open,
    /// `)`, `]` or `}`.
    Close,
    /// `,`, `.` or `:`.
    Punct,
    /// Any other character (the text then does not parse).
    Other,
}

/// One token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// What it is.
    pub kind: Kind,
    /// Its text (a comment without its trailing blanks).
    pub text: &'a str,
    /// Line breaks in the blanks before it.
    pub newlines: usize,
}

impl Token<'_> {
    /// Is this token exactly `s` (a word, an operator, a bracket)?
    pub fn is(&self, s: &str) -> bool {
        self.kind != Kind::Str && self.kind != Kind::Comment && self.text == s
    }
}

/// Operators of two characters, tried before those of one.
const OPS2: [&str; 6] = ["==", "!=", "<=", ">=", "=>", "??"];

/// Cut `text` into tokens. Never fails: what the language does not know
/// becomes an [`Kind::Other`] token (such a text does not parse, and the
/// formatter refuses it before looking at its tokens).
pub fn lex(text: &str) -> Vec<Token<'_>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut newlines = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        let kind = match c {
            b'\n' => {
                newlines += 1;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                Kind::Comment
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    // An escape takes the next character whatever it is.
                    i += if bytes[i] == b'\\' && bytes.get(i + 1).is_some_and(|&b| b != b'\n') {
                        2
                    } else {
                        1
                    };
                }
                if bytes.get(i) == Some(&b'"') {
                    i += 1;
                }
                Kind::Str
            }
            b'0'..=b'9' => {
                i = digits(bytes, i);
                // A fraction part only with digits after the dot: `1.x` is
                // the number 1 and a field, as the grammar reads it.
                if bytes.get(i) == Some(&b'.') && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
                    i = digits(bytes, i + 1);
                }
                Kind::Number
            }
            b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                Kind::Word
            }
            b'(' | b'[' | b'{' => {
                i += 1;
                Kind::Open
            }
            b')' | b']' | b'}' => {
                i += 1;
                Kind::Close
            }
            b',' | b'.' | b':' => {
                i += 1;
                Kind::Punct
            }
            _ if OPS2.iter().any(|op| text[i..].starts_with(op)) => {
                i += 2;
                Kind::Op
            }
            b'<' | b'>' | b'=' | b'+' | b'-' | b'*' | b'/' | b'%' => {
                i += 1;
                Kind::Op
            }
            _ => {
                // One character, however many bytes it takes.
                i += text[i..].chars().next().map_or(1, char::len_utf8);
                Kind::Other
            }
        };
        let mut t = &text[start..i];
        if kind == Kind::Comment {
            t = t.trim_end();
        }
        out.push(Token {
            kind,
            text: t,
            newlines,
        });
        newlines = 0;
    }
    out
}

/// The end of a run of ASCII digits starting at `i`.
fn digits(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(Kind, &str)> {
        lex(text).iter().map(|t| (t.kind, t.text)).collect()
    }

    #[test]
    fn tokens_of_each_kind() {
        use Kind::*;
        assert_eq!(
            kinds("metric x(a) = a.b >= 1.5 ?? -2 // c  \n\"s\\\"t\" 1/2"),
            vec![
                (Word, "metric"),
                (Word, "x"),
                (Open, "("),
                (Word, "a"),
                (Close, ")"),
                (Op, "="),
                (Word, "a"),
                (Punct, "."),
                (Word, "b"),
                (Op, ">="),
                (Number, "1.5"),
                (Op, "??"),
                (Op, "-"),
                (Number, "2"),
                (Comment, "// c"),
                (Str, "\"s\\\"t\""),
                (Number, "1"),
                (Op, "/"),
                (Number, "2"),
            ]
        );
    }

    #[test]
    fn line_breaks_are_counted_and_odd_text_survives() {
        let t = lex("a\n\n  b\r\n\"open\n€");
        assert_eq!(
            t.iter().map(|t| t.newlines).collect::<Vec<_>>(),
            [0, 2, 1, 1]
        );
        assert_eq!(t[2].text, "\"open");
        assert_eq!((t[3].kind, t[3].text), (Kind::Other, "€"));
        assert_eq!(kinds("1.x")[0], (Kind::Number, "1"));
    }
}
