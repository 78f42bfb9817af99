//! Untrusted text (names, event titles, ruleset labels, quoted input) made safe for each output: one function per kind of escaping, used by every renderer and by the diagnostics.
//!
//! - [`visible`]: for anything a terminal shows (the text table, `tb
//!   explain`, `tb check --verbose`, `tb verify`, plain and fancy
//!   diagnostics). Every control character but newline and tab becomes a
//!   visible character, one for one, so that columns stay aligned: C0
//!   controls and DEL become their Unicode control pictures (ESC is `␛`,
//!   CR `␍`, NUL `␀`, DEL `␡`); C1 controls (U+0080 to U+009F, which have
//!   no picture) become `�`. A name can no longer retitle the window or
//!   clear the screen.
//! - [`csv_field`]: a CSV field's text (`csv::Writer` quotes it, RFC 4180,
//!   when it holds a comma, a quote, a line feed or a carriage return):
//!   controls other than newline and tab are made visible as above. A text field that a
//!   spreadsheet would read as a formula (first character `=`, `+`, `-`,
//!   `@`, tab or CR) gets a `'` in front, as OWASP's advice for CSV
//!   exports says; value fields (numbers such as `-0.5`) are never
//!   changed.
//! - [`push_markdown`]: Markdown text and table cells: controls made
//!   visible, `&`, `<` and `>` written as entities (no raw HTML reaches
//!   the page), `|` as `\|`, and a line break as a space (a row stays one
//!   row).
//!
//! JSON and HTML have escapes of their own (`render::json`, `render::html`).

use std::borrow::Cow;
use std::fmt::Write;

/// The visible stand-in of `c` when it is a control character other than
/// newline and tab (one character, so columns stay aligned).
pub fn picture(c: char) -> Option<char> {
    match c {
        '\n' | '\t' => None,
        '\0'..='\x1f' => char::from_u32(0x2400 + c as u32),
        '\x7f' => Some('\u{2421}'),
        '\u{80}'..='\u{9f}' => Some('\u{fffd}'),
        _ => None,
    }
}

/// Whether `s` may hold a control character [`picture`] replaces: a quick
/// test on bytes (C1 controls are `C2 80` to `C2 9F` in UTF-8), so that
/// text without any is not scanned character by character.
fn may_have_controls(s: &str) -> bool {
    s.bytes()
        .any(|b| (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7f || b == 0xc2)
}

/// `s` with every control character but newline and tab replaced by a
/// visible character (see the module's documentation).
pub fn visible(s: &str) -> Cow<'_, str> {
    if !may_have_controls(s) || !s.chars().any(|c| picture(c).is_some()) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(s.chars().map(|c| picture(c).unwrap_or(c)).collect())
}

/// [`visible`], for an owned text: the same text back when nothing changes.
pub fn visible_owned(s: String) -> String {
    match visible(&s) {
        Cow::Borrowed(_) => s,
        Cow::Owned(t) => t,
    }
}

/// What a CSV field holds: a spreadsheet's formula guard applies to text
/// only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CsvField {
    /// Names, ids, labels, notes: may be guarded with a leading `'`.
    Text,
    /// A value tb computed: a number (`-0.5`) is written as it is; any
    /// other value (a text from the data) is guarded as text is.
    Value,
}

/// The text of the CSV field made of `parts` (written one after another),
/// guarded and with controls made visible (see the module's
/// documentation); quoting is the CSV writer's (`csv::Writer`).
pub fn csv_field<'a>(parts: &[&'a str], kind: CsvField) -> Cow<'a, str> {
    let number = kind == CsvField::Value && parts.iter().all(|p| is_number(p));
    let formula = !number
        && parts
            .iter()
            .find(|p| !p.is_empty())
            .and_then(|p| p.chars().next())
            .is_some_and(|c| matches!(c, '=' | '+' | '-' | '@' | '\t' | '\r'));
    if !formula && !parts.iter().any(|p| may_have_controls(p)) {
        return match parts {
            [one] => Cow::Borrowed(one),
            _ => Cow::Owned(parts.concat()),
        };
    }
    let mut out = String::new();
    if formula {
        out.push('\'');
    }
    for p in parts {
        // A carriage return is data in a quoted field, as a line feed is.
        out.extend(p.chars().map(|c| match c {
            '\r' => c,
            c => picture(c).unwrap_or(c),
        }));
    }
    Cow::Owned(out)
}

/// Whether `s` is a number as tb prints one: a sign, digits, a point or a
/// fraction's slash (`-0.5`, `+3`, `1/3`).
fn is_number(s: &str) -> bool {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    digits.bytes().any(|b| b.is_ascii_digit())
        && digits
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'/')
}

/// Append `text` to Markdown output `out`, escaped (see the module's
/// documentation).
pub fn push_markdown(out: &mut impl Write, text: &str) {
    let special = |b: u8| matches!(b, b'|' | b'&' | b'<' | b'>' | b'\n');
    if !text.bytes().any(special) && !may_have_controls(text) {
        push_str(out, text);
        return;
    }
    for c in text.chars() {
        match c {
            '|' => push_str(out, "\\|"),
            '&' => push_str(out, "&amp;"),
            '<' => push_str(out, "&lt;"),
            '>' => push_str(out, "&gt;"),
            '\n' => push(out, ' '),
            c => push(out, picture(c).unwrap_or(c)),
        }
    }
}

/// Text into a writer that cannot fail (a `String`, tb's output buffer).
fn push_str(out: &mut impl Write, s: &str) {
    let _ = out.write_str(s);
}

fn push(out: &mut impl Write, c: char) {
    let _ = out.write_char(c);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_become_visible_one_for_one() {
        assert_eq!(visible("Ann\u{1b}]0;owned\u{7}"), "Ann␛]0;owned␇");
        assert_eq!(visible("a\r\nb\tc\u{7f}\u{9b}2J"), "a␍\nb\tc␡�2J");
        assert!(matches!(visible("Åsa Öberg § 1\n"), Cow::Borrowed(_)));
        let s = "x\u{0}\u{1f}\u{85}y";
        assert_eq!(visible(s).chars().count(), s.chars().count());
        assert_eq!(visible_owned("plain".to_string()), "plain");
    }

    /// The field as `csv::Writer` writes it (quoted where needed), in a
    /// record with another field (alone, an empty field is written `""`).
    fn csv(parts: &[&str], kind: CsvField) -> String {
        let mut w = csv::WriterBuilder::new().from_writer(Vec::new());
        w.write_record([csv_field(parts, kind).as_ref(), "end"])
            .unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        text.strip_suffix(",end\n").unwrap().to_string()
    }

    #[test]
    fn csv_fields() {
        use CsvField::{Text, Value};
        assert_eq!(csv(&["Ann"], Text), "Ann");
        assert_eq!(csv(&["a,b"], Text), "\"a,b\"");
        assert_eq!(csv(&["say \"hi\""], Text), "\"say \"\"hi\"\"\"");
        assert_eq!(csv(&["a\rb"], Text), "\"a\rb\"");
        assert_eq!(csv(&["a\nb"], Text), "\"a\nb\"");
        assert_eq!(csv(&["=cmd|' /C calc'!A0"], Text), "'=cmd|' /C calc'!A0");
        assert_eq!(csv(&["=1+2,3"], Text), "\"'=1+2,3\"");
        for lead in ["+1", "-1", "@SUM(A1)", "\tx"] {
            assert_eq!(csv(&[lead], Text), format!("'{lead}"));
        }
        assert_eq!(csv(&["\rx"], Text), "\"'\rx\"");
        assert_eq!(csv(&["", "=x"], Text), "'=x");
        assert_eq!(csv(&["-0.5"], Value), "-0.5");
        assert_eq!(csv(&["+3"], Value), "+3");
        assert_eq!(csv(&["-1/3"], Value), "-1/3");
        assert_eq!(csv(&["=x"], Value), "'=x");
        assert_eq!(csv(&["a\u{1b}[2J"], Text), "a␛[2J");
    }

    #[test]
    fn markdown_text() {
        let md = |t: &str| {
            let mut out = String::new();
            push_markdown(&mut out, t);
            out
        };
        assert_eq!(md("Ann"), "Ann");
        assert_eq!(md("a|b"), "a\\|b");
        assert_eq!(
            md("<img src=x onerror=alert(1)>"),
            "&lt;img src=x onerror=alert(1)&gt;"
        );
        assert_eq!(md("Smith & Co"), "Smith &amp; Co");
        assert_eq!(md("two\nlines"), "two lines");
        assert_eq!(md("esc\u{1b}"), "esc␛");
    }
}
