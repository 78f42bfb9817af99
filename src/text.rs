//! Text helpers shared by the parser, the checker and the loaders: the distance behind every did-you-mean, a fast `trim`, and the cut of a long quote in a diagnostic.

use std::borrow::Cow;

/// Most characters of the user's own text (an item of a list, a line, a
/// cell) that a diagnostic quotes; a longer text is cut and ends with `…`.
/// Without a bound, each of 40,000 errors in a 120 KB list quoted the
/// whole item: gigabytes.
pub const QUOTE_CHARS: usize = 200;

/// `s`, cut to its first [`QUOTE_CHARS`] characters and `…` when longer.
pub fn clip(s: &str) -> Cow<'_, str> {
    clip_to(s, QUOTE_CHARS)
}

/// `s`, cut to its first `max` characters and `…` when longer.
pub fn clip_to(s: &str, max: usize) -> Cow<'_, str> {
    match s.char_indices().nth(max) {
        None => Cow::Borrowed(s),
        Some((at, _)) => Cow::Owned(format!("{}…", &s[..at])),
    }
}

/// Optimal string alignment distance (a swap of two neighbours counts 1,
/// so `Alcie` is 1 from `Alice`), in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev2 = vec![0usize; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0usize; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(prev2[j - 2] + 1);
            }
            cur[j] = d;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The closest of `cands` to `name`: the same but for case, `_` or `-`, or
/// at most one edit away (two for names of five letters or more; none for
/// names of one or two letters, where one edit makes another word: `mp`
/// and `gp` are two units, not a slip).
pub fn did_you_mean<'a>(name: &str, cands: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let squash = |s: &str| -> String {
        s.chars()
            .filter(|c| *c != '_' && *c != '-' && !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let n = squash(name);
    let limit = match name.chars().count() {
        0..=2 => 0,
        3..=4 => 1,
        _ => 2,
    };
    let mut best: Option<(usize, &str)> = None;
    for c in cands {
        if c == name {
            continue;
        }
        let d = if squash(c) == n {
            0
        } else {
            edit_distance(name, c)
        };
        // Equally near: the first alphabetically, whatever order the
        // candidates come in (some come from hash maps).
        if d <= limit && best.is_none_or(|(bd, bc)| d < bd || (d == bd && c < bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// [`str::trim`], exactly, without decoding characters where the ends are
/// ASCII (a TRF line's fields are trimmed a dozen times per player). The
/// ASCII whitespace `str::trim` removes is tab, line feed, vertical tab,
/// form feed, carriage return and space; past those, a non-ASCII end is
/// left to `str::trim` (NO-BREAK SPACE and the other Unicode spaces).
pub fn trim(s: &str) -> &str {
    let ws = |b: u8| matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ');
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && ws(b[i]) {
        i += 1;
    }
    let mut j = b.len();
    while j > i && ws(b[j - 1]) {
        j -= 1;
    }
    // ASCII bytes are character boundaries.
    let t = &s[i..j];
    match (t.as_bytes().first(), t.as_bytes().last()) {
        (Some(&f), Some(&l)) if f >= 0x80 || l >= 0x80 => t.trim(),
        _ => t,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn long_quotes_are_cut() {
        assert_eq!(super::clip("BH/C1"), "BH/C1");
        let long = "é".repeat(super::QUOTE_CHARS + 1);
        let cut = super::clip(&long);
        assert_eq!(cut.chars().count(), super::QUOTE_CHARS + 1);
        assert!(cut.ends_with("é…"));
        assert_eq!(super::clip(&long[2..]), long[2..]);
    }

    use super::trim;

    #[test]
    fn trim_is_str_trim() {
        let cases = [
            "",
            " ",
            "\t\n\x0B\x0C\r ",
            "a",
            " 6.5",
            "1234 ",
            "  Ivanova, Daria  ",
            "\x0B12\x0B",
            "\u{A0}x\u{A0}",
            " \u{A0} y \u{85}",
            "\u{3000}全角\u{3000}",
            "é",
            " é ",
            "\u{A0}",
            " \u{2003} ",
            "x\u{200B}",
            "\u{1680}\u{2028}z\u{2029}",
        ];
        for c in cases {
            assert_eq!(trim(c), c.trim(), "{c:?}");
        }
    }
}
