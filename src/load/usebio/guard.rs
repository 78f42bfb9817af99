//! What the XML reader is never given: a DTD of the file's own (entity declarations expand without bound) and elements with more attributes than any USEBIO element has (the reader compares each attribute with every earlier one).
//!
//! Both are found by a linear scan of the text before `roxmltree` sees it.
//! A `<!DOCTYPE>` that only names an external DTD (`<!DOCTYPE USEBIO
//! SYSTEM "usebio_v1_2.dtd">`, as scorers write it) is harmless: the
//! reader fetches nothing, so it declares no entity. Anything else after
//! `<!DOCTYPE` (an internal subset `[...]`, which is where entities are
//! declared) is refused.

/// Most attributes one element may have. USEBIO writes its data as
/// elements; its elements carry at most a handful of attributes.
pub const MAX_ATTRIBUTES: usize = 100;

/// Where the `<!DOCTYPE` of `text`'s prolog starts, if the reader would
/// find one there. Mirrors `roxmltree`'s prolog: a BOM, the XML
/// declaration, then comments, processing instructions and blanks.
pub(super) fn doctype_at(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = if b.starts_with("\u{feff}".as_bytes()) {
        3
    } else {
        0
    };
    if b[i..].starts_with(b"<?xml ") {
        i = after(b, i, b"?>")?;
    }
    loop {
        while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
            i += 1;
        }
        if b[i..].starts_with(b"<!--") {
            i = after(b, i + 4, b"-->")?;
        } else if b[i..].starts_with(b"<?") {
            i = after(b, i + 2, b"?>")?;
        } else {
            break;
        }
    }
    b[i..].starts_with(b"<!DOCTYPE").then_some(i)
}

/// The offset just past the first `end` at or after `from`.
fn after(b: &[u8], from: usize, end: &[u8]) -> Option<usize> {
    memchr::memmem::find(&b[from..], end).map(|k| from + k + end.len())
}

/// Whether the `<!DOCTYPE` at `at` only names an external DTD:
/// `<!DOCTYPE name>`, `<!DOCTYPE name SYSTEM "uri">` or `<!DOCTYPE name
/// PUBLIC "id" "uri">`. Anything else, an internal subset above all, is
/// not accepted.
pub(super) fn doctype_is_external(text: &str, at: usize) -> bool {
    let b = &text.as_bytes()[at + "<!DOCTYPE".len()..];
    let mut i = 0;
    let mut words = Vec::new();
    loop {
        let blank = b.get(i).is_some_and(|c| c.is_ascii_whitespace());
        while b.get(i).is_some_and(|c| c.is_ascii_whitespace()) {
            i += 1;
        }
        match b.get(i) {
            Some(b'>') => break,
            // Every word is preceded by blanks: `<!DOCTYPE USEBIO"x"` is not
            // read the same way by every reader.
            _ if !blank => return false,
            Some(&q @ (b'"' | b'\'')) => {
                let Some(len) = b[i + 1..].iter().position(|&c| c == q) else {
                    return false;
                };
                words.push(Word::Literal);
                i += len + 2;
            }
            Some(_) => {
                let start = i;
                while b.get(i).is_some_and(|&c| {
                    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b':')
                }) {
                    i += 1;
                }
                if i == start {
                    // `[`, `%`, `<` and the like: not a name.
                    return false;
                }
                words.push(Word::Name(&b[start..i]));
            }
            None => return false,
        }
    }
    use Word::{Literal as L, Name as N};
    matches!(
        words.as_slice(),
        [N(_)] | [N(_), N(b"SYSTEM"), L] | [N(_), N(b"PUBLIC"), L, L]
    )
}

/// One word of a `<!DOCTYPE`.
enum Word<'a> {
    Name(&'a [u8]),
    Literal,
}

/// Where the first element with more than `max` attributes starts, if one
/// does. Counts the `=` signs outside quotes in each start tag; skips
/// comments, CDATA sections, processing instructions and declarations.
/// Text that is not well-formed is counted as well as it can be: the
/// reader refuses it anyway, and a start tag can only be over-counted.
pub(super) fn crowded_element(text: &str, max: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut i = 0;
    while let Some(k) = memchr::memchr(b'<', &b[i..]) {
        let at = i + k;
        let rest = &b[at..];
        let skip_to = |end: &[u8], from: usize| after(b, at + from, end).unwrap_or(b.len());
        i = if rest.starts_with(b"<!--") {
            skip_to(b"-->", 4)
        } else if rest.starts_with(b"<![CDATA[") {
            skip_to(b"]]>", 9)
        } else if rest.starts_with(b"<?") {
            skip_to(b"?>", 2)
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") {
            at + 2
        } else {
            let (end, n) = start_tag(b, at + 1);
            if n > max {
                return Some(at);
            }
            end
        };
    }
    None
}

/// The end of the start tag whose name begins at `from`, and its number
/// of `=` signs outside quoted values.
fn start_tag(b: &[u8], from: usize) -> (usize, usize) {
    let mut n = 0;
    let mut i = from;
    while i < b.len() {
        match b[i] {
            b'>' => return (i + 1, n),
            b'=' => n += 1,
            q @ (b'"' | b'\'') => match memchr::memchr(q, &b[i + 1..]) {
                Some(len) => i += len + 1,
                None => return (b.len(), n),
            },
            // A `<` before the `>`: the tag is broken; count from there.
            b'<' => return (i, n),
            _ => {}
        }
        i += 1;
    }
    (b.len(), n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doctypes() {
        let ok = [
            "<!DOCTYPE USEBIO SYSTEM \"usebio_v1_2.dtd\">",
            "<!DOCTYPE USEBIO>",
            "<!DOCTYPE USEBIO PUBLIC 'a b' \"u.dtd\" >",
        ];
        for d in ok {
            let t = format!("<?xml version=\"1.0\"?>\n<!-- x -->{d}<USEBIO/>");
            let at = doctype_at(&t).expect(d);
            assert!(doctype_is_external(&t, at), "{d}");
        }
        let refused = [
            "<!DOCTYPE USEBIO [<!ENTITY a \"b\">]>",
            "<!DOCTYPE USEBIO SYSTEM \"u.dtd\" [ ]>",
            "<!DOCTYPE USEBIO SYSTEM\"u.dtd\">",
            "<!DOCTYPE USEBIO SYSTEM \"u.dtd",
            "<!DOCTYPE USEBIO SYSTEM>",
            "<!DOCTYPE>",
        ];
        for d in refused {
            let t = format!("{d}<USEBIO/>");
            let at = doctype_at(&t).expect(d);
            assert!(!doctype_is_external(&t, at), "{d}");
        }
        // A DOCTYPE in a comment is no DOCTYPE; the one after it is.
        let t = "<!-- <!DOCTYPE x> --><!DOCTYPE USEBIO [<!ENTITY a \"b\">]><USEBIO/>";
        assert_eq!(doctype_at(t), Some(21));
        assert_eq!(doctype_at("<USEBIO/>"), None);
    }

    #[test]
    fn attributes_are_counted_per_element() {
        let many = |n: usize| (0..n).map(|k| format!(" a{k}=\"x=y\"")).collect::<String>();
        let t = format!("<USEBIO{}><EVENT{}/></USEBIO>", many(3), many(5));
        assert_eq!(crowded_element(&t, 5), None);
        assert_eq!(crowded_element(&t, 4), Some(t.find("<EVENT").unwrap()));
        let hidden = format!(
            "<USEBIO><!-- <X{} --><![CDATA[<Y{}]]></USEBIO>",
            many(9),
            many(9)
        );
        assert_eq!(crowded_element(&hidden, 1), None);
    }
}
