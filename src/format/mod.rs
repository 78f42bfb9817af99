//! Formatting (`tb fmt`): a ruleset's text in the one canonical layout.
//!
//! - **In:** a ruleset's [`Source`].
//! - **Out:** the same text laid out canonically, or the file's syntax
//!   error (a file that does not parse is never formatted), or
//!   `tb::fmt::unstable` if the result would not be the same ruleset (a bug:
//!   nothing may be written then).
//! - **May import:** `syntax` (to parse before and after), `diag`, `codes`.
//!   **May not** read or write files, nor import the stages after `syntax`.
//!
//! The rules, taken from what the shipped rulesets already did, so that a
//! ruleset reads the same next to its regulation:
//!
//! - The author's line breaks stay: nothing is joined or split, whatever
//!   the width (a regulation's long expression is laid out by its author).
//! - Indentation is 4 spaces per level. An item, a step and a closing `}`
//!   start at the depth of their braces; a line that continues a statement
//!   (`cite` on its own line, the next part of an expression, `else ...`)
//!   is one level deeper; one more for each earlier line whose brackets
//!   `(` `[` are still open (however many it opened), and one more inside
//!   an `if` branch written as a block (`then` or `else` ending a line,
//!   until the `else` or the end of the expression). A line that starts
//!   with an operator (`+ ...`, `and ...`) is not indented further.
//! - One space between tokens, except: none inside brackets, before `,`
//!   `.` `:` or after `.`, between a name and its `(` (`sum(`, `metric
//!   f(a)`; a keyword keeps its space: `not (`), after a minus sign before
//!   its operand (`-1`, but `- -1`), and around the slash of a fraction of two numbers
//!   (`1/2`). A space inside braces on one line: `{ 2024, 2026 }`.
//! - Comments and `///` documentation stay where they are, with their
//!   text; a comment on a line of its own is indented as the code after it
//!   (inside the braces before a `}`); the trailing comments of a paragraph
//!   (lines between blank lines) start in one column, 3 spaces after the
//!   longest of those lines.
//! - No trailing blanks; a run of blank lines becomes one; no blank line
//!   at the start, just after `{` or just before `}`; exactly one line
//!   break at the end. [`format`] breaks lines with `\n`; [`format_file`]
//!   with what the file uses (`\r\n` when its first line ends so), so that
//!   a file saved on Windows stays as its editor wrote it.
//!
//! Safety: the result must have the same tokens (comments included), parse
//! to the same tree (ignoring where things are), and stay as it is when
//! formatted again; otherwise formatting fails.

mod layout;
pub mod lex;

use crate::codes;
use crate::diag::{Diag, Source, Span};
use crate::syntax::parse::parse;

/// `src` in canonical layout. Fails with the syntax error of a text that
/// does not parse, and with `tb::fmt::unstable` if the layout changed
/// anything but blanks (see [`verify`]).
pub fn format(src: &Source) -> Result<String, Diag> {
    parse(src)?;
    let out = layout::layout(&src.text);
    verify(src, &out)?;
    Ok(out)
}

/// [`format`], each line ending as the file's first line does: a file
/// whose lines end in `\r\n` is formatted with `\r\n` (the canonical
/// layout is otherwise the same; a mix of endings becomes the first's).
pub fn format_file(src: &Source) -> Result<String, Diag> {
    let out = format(src)?;
    Ok(if uses_crlf(&src.text) {
        out.replace('\n', "\r\n")
    } else {
        out
    })
}

/// Whether the first line of `text` ends in `\r\n`.
fn uses_crlf(text: &str) -> bool {
    text.find('\n').is_some_and(|i| text[..i].ends_with('\r'))
}

/// Check that `formatted` is `src` laid out again and nothing else: the
/// same tokens with the same text, the same syntax tree apart from spans,
/// and already in canonical layout. `src` must parse.
pub fn verify(src: &Source, formatted: &str) -> Result<(), Diag> {
    let unstable = |what: String| {
        Diag::error(
            codes::FMT_UNSTABLE,
            format!("formatting {} would {what}; nothing was written", src.name),
        )
        .with_help("this is a bug in tb fmt: please report it with the file")
    };
    let before = lex::lex(&src.text);
    let after = lex::lex(formatted);
    let same = |a: &lex::Token, b: &lex::Token| a.kind == b.kind && a.text == b.text;
    if let Some(i) = (0..before.len().max(after.len()))
        .find(|&i| !matches!((before.get(i), after.get(i)), (Some(a), Some(b)) if same(a, b)))
    {
        let what = match after.get(i) {
            Some(t) => format!("change this token into `{}`", t.text),
            None => "drop this token".to_string(),
        };
        let d = unstable("change its tokens".to_string());
        return Err(match before.get(i) {
            Some(t) => {
                let at = t.text.as_ptr() as usize - src.text.as_ptr() as usize;
                d.at(src, Span::new(at, at + t.text.len()), what)
            }
            None => d.in_source(src),
        });
    }
    let again = Source::new(src.name.clone(), formatted.to_string());
    let new = tree_text(&again)
        .map_err(|e| unstable(format!("make it fail to parse ({})", e.message)))?;
    if tree_text(src)? != new {
        return Err(unstable("change what it parses to".to_string()).in_source(src));
    }
    if layout::layout(formatted) != formatted {
        return Err(unstable(
            "give a text that formats differently again".to_string(),
        ));
    }
    Ok(())
}

/// The syntax tree of `src` as text, without any span: two texts that
/// differ only in layout give the same.
pub fn tree_text(src: &Source) -> Result<String, Diag> {
    Ok(without_spans(&format!("{:?}", parse(src)?)))
}

/// A syntax tree's debug text with every span left out.
fn without_spans(debug: &str) -> String {
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug;
    while let Some(i) = rest.find("Span { start: ") {
        out.push_str(&rest[..i]);
        out.push_str("Span");
        rest = &rest[i..];
        rest = rest.find('}').map_or("", |j| &rest[j + 1..]);
    }
    out.push_str(rest);
    out
}

/// Where a file first differs from its formatted text (`tb fmt --check`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// The line, from 1.
    pub line: usize,
    /// The line as formatting writes it, shown in backticks (or "the end
    /// of the file").
    pub expected: String,
    /// The line as the file has it, shown the same way.
    pub found: String,
}

/// The first line where `found` (a file) differs from `expected` (its
/// formatted text); None if they are the same. Tabs and carriage returns
/// are shown as `\t` and `\r`, so that a difference in blanks is visible.
pub fn first_difference(expected: &str, found: &str) -> Option<Difference> {
    let mut e = expected.split_inclusive('\n');
    let mut f = found.split_inclusive('\n');
    let mut line = 0;
    loop {
        line += 1;
        match (e.next(), f.next()) {
            (None, None) => return None,
            (a, b) if a == b => continue,
            (a, b) => {
                return Some(Difference {
                    line,
                    expected: show(a),
                    found: show(b),
                })
            }
        }
    }
}

/// A line for a difference report.
fn show(line: Option<&str>) -> String {
    let Some(line) = line else {
        return "the end of the file".to_string();
    };
    let (text, note) = match line.strip_suffix('\n') {
        Some(t) => (t, ""),
        None => (line, " (no line break at the end of the file)"),
    };
    let text = text.replace('\t', "\\t").replace('\r', "\\r");
    format!("`{text}`{note}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(text: &str) -> String {
        format(&Source::new("t.tb", text)).unwrap_or_else(|d| panic!("{}", d.plain()))
    }

    #[test]
    fn spacing_and_indentation() {
        assert_eq!(
            fmt("metric  x( a ,b )=a+ -b*(1/2)- - -1  \n\n\n\t  cite \"A\"\r\nprocedure p{\n\nstep x desc\n\n}\n\n"),
            "metric x(a, b) = a + -b * (1/2) - - -1\n\n    cite \"A\"\nprocedure p {\n    step x desc\n}\n"
        );
    }

    #[test]
    fn a_crlf_file_keeps_its_line_ends() {
        let src = Source::new("t.tb", "param  x=1\r\n\r\n\r\nparam y = 2\n");
        let out = format_file(&src).expect("formats");
        assert_eq!(out, "param x = 1\r\n\r\nparam y = 2\r\n");
        let again = format_file(&Source::new("t.tb", out.clone())).expect("formats");
        assert_eq!(again, out);
        let lf = Source::new("t.tb", "param  x=1\nparam y = 2\r\n");
        assert_eq!(
            format_file(&lf).expect("formats"),
            "param x = 1\nparam y = 2\n"
        );
    }

    #[test]
    fn spans_are_left_out_of_trees() {
        assert_eq!(
            without_spans("A { span: Span { start: 1, end: 2 }, b: Span { start: 3, end: 4 } }"),
            "A { span: Span, b: Span }"
        );
    }

    #[test]
    fn differences_show_blanks() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        let d = first_difference("a\nb\n", "a\n\tb\r\n").expect("differs");
        assert_eq!(
            (d.line, d.expected.as_str(), d.found.as_str()),
            (2, "`b`", "`\\tb\\r`")
        );
        let d = first_difference("a\n", "a").expect("differs");
        assert_eq!(d.found, "`a` (no line break at the end of the file)");
        let d = first_difference("a\n", "a\n\n").expect("differs");
        assert_eq!((d.line, d.expected.as_str()), (2, "the end of the file"));
    }
}
