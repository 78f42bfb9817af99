//! Errors as data: one diagnostic type for rulesets and data files, rendered by the CLI.
//!
//! Every diagnostic has a stable code (`tb::check::unknown_metric`), a message,
//! help text, and — where there is one — the file and the span it points at.
//! The library never prints; the CLI chooses fancy, plain or JSON rendering.

use crate::escape::{visible, visible_owned};
use miette::{LabeledSpan, NamedSource, SourceSpan};
use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, OnceLock};

/// A byte range in a source text.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct Span {
    /// Start offset in bytes.
    pub start: usize,
    /// End offset in bytes (exclusive).
    pub end: usize,
}

impl Span {
    /// A span from start to end.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    /// The smallest span covering both.
    pub fn join(self, o: Span) -> Span {
        Span::new(self.start.min(o.start), self.end.max(o.end))
    }
}

impl From<Span> for SourceSpan {
    fn from(s: Span) -> SourceSpan {
        SourceSpan::new(s.start.into(), s.end.saturating_sub(s.start))
    }
}

/// A named source text that diagnostics point into.
#[derive(Clone, Debug)]
pub struct Source {
    /// File name as shown to the user.
    pub name: String,
    /// Whole text.
    pub text: Arc<str>,
    /// Byte offset of each line's start, made on the first `line_col` and
    /// shared by every clone (each diagnostic holds one): a file with
    /// thousands of errors is rendered in linear time, not a scan from the
    /// start of the text per error.
    line_starts: Arc<OnceLock<Vec<usize>>>,
}

impl Source {
    /// A source from a name and its text.
    pub fn new(name: impl Into<String>, text: impl Into<Arc<str>>) -> Source {
        Source {
            name: name.into(),
            text: text.into(),
            line_starts: Arc::default(),
        }
    }
    /// Byte offset of a 1-based line and column (clamped to the text).
    pub fn offset(&self, line: usize, col: usize) -> usize {
        let mut off = 0;
        for (i, l) in self.text.split_inclusive('\n').enumerate() {
            if i + 1 == line {
                return (off + col.saturating_sub(1)).min(off + l.len());
            }
            off += l.len();
        }
        self.text.len()
    }
    /// The span of a whole 1-based line, without its line break.
    pub fn line_span(&self, line: usize) -> Span {
        let start = self.offset(line, 1);
        let rest = &self.text[start..];
        let len = rest.find('\n').unwrap_or(rest.len());
        Span::new(start, start + len)
    }
    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let starts = self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(memchr::memchr_iter(b'\n', self.text.as_bytes()).map(|i| i + 1))
                .collect()
        });
        // The last line starting at or before `offset`.
        let line = starts.partition_point(|&s| s <= offset).max(1);
        (line, offset - starts[line - 1] + 1)
    }
}

/// Whether a diagnostic stops the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The input cannot be used.
    Error,
    /// The input is usable but something looks wrong.
    Warning,
}

/// One problem found in a ruleset or in data.
#[derive(Clone, Debug)]
pub struct Diag {
    /// Stable code, e.g. `tb::check::unknown_metric`.
    pub code: &'static str,
    /// What is wrong, one sentence.
    pub message: String,
    /// How to fix it.
    pub help: Option<String>,
    /// Where, if the problem has a place.
    pub source: Option<Source>,
    /// The span within `source` and its label.
    pub labels: Vec<(Span, String)>,
    /// Error or warning.
    pub severity: Severity,
    /// Further problems reported together with this one.
    pub related: Vec<Diag>,
    /// The source with its name, as miette shows it.
    named: Option<NamedSource<Arc<str>>>,
}

/// Most characters of a message, a help or a label: a backstop for
/// messages that quote the user's text whole (a 45 MB CSV cell once gave
/// 47 MB on standard error). Quotes are cut shorter where they are made
/// (`text::clip`).
pub const MAX_TEXT_CHARS: usize = 2_000;

/// `s`, cut to [`MAX_TEXT_CHARS`] characters (and `…`) when longer.
fn bounded(s: String) -> String {
    // Bytes first: most texts are far shorter, and then not scanned.
    if s.len() <= MAX_TEXT_CHARS {
        return s;
    }
    match crate::text::clip_to(&s, MAX_TEXT_CHARS) {
        std::borrow::Cow::Owned(cut) => cut,
        std::borrow::Cow::Borrowed(_) => s,
    }
}

/// Most bytes of source a fancy rendering excerpts around a label (the
/// labelled lines and one line either side, as miette shows them); a
/// diagnostic on longer lines is shown without the excerpt, its place in
/// its message as plain output gives it.
pub const MAX_EXCERPT_BYTES: usize = 4_000;

impl Diag {
    /// A new error with a code and message.
    pub fn error(code: &'static str, message: impl Into<String>) -> Diag {
        Diag {
            code,
            message: bounded(message.into()),
            help: None,
            source: None,
            labels: Vec::new(),
            severity: Severity::Error,
            related: Vec::new(),
            named: None,
        }
    }
    /// A new warning.
    pub fn warning(code: &'static str, message: impl Into<String>) -> Diag {
        Diag {
            severity: Severity::Warning,
            ..Diag::error(code, message)
        }
    }
    /// Add help text.
    pub fn with_help(mut self, help: impl Into<String>) -> Diag {
        self.help = Some(bounded(help.into()));
        self
    }
    /// Point at a span of a source.
    pub fn at(mut self, source: &Source, span: Span, label: impl Into<String>) -> Diag {
        self.set_source(source);
        self.labels.push((span, bounded(label.into())));
        self
    }
    /// Attach the source without a label.
    pub fn in_source(mut self, source: &Source) -> Diag {
        self.set_source(source);
        self
    }
    fn set_source(&mut self, source: &Source) {
        self.source = Some(source.clone());
        self.named = Some(NamedSource::new(source.name.clone(), source.text.clone()));
    }
    /// Gather several diagnostics under one (all errors at once).
    pub fn many(code: &'static str, message: impl Into<String>, mut all: Vec<Diag>) -> Diag {
        if all.len() == 1 {
            return all.pop().unwrap_or_else(|| Diag::error(code, "no errors"));
        }
        let mut d = Diag::error(code, message);
        d.related = all;
        d
    }
    /// This diagnostic (and its related ones) for a fancy rendering on a
    /// terminal: control characters in its texts and in the source it
    /// excerpts made visible (`escape::visible`, its spans moved to match);
    /// where the excerpt would be longer than [`MAX_EXCERPT_BYTES`], no
    /// source, its place and labels in the message instead.
    pub fn for_terminal(&self) -> Diag {
        self.terminal_copy(&mut HashMap::new())
    }
    fn terminal_copy(&self, shown: &mut HashMap<usize, Option<Shown>>) -> Diag {
        let mut d = self.clone();
        d.related = self
            .related
            .iter()
            .map(|r| r.terminal_copy(shown))
            .collect();
        let long = self.source.as_ref().is_some_and(|src| {
            self.labels
                .iter()
                .any(|(span, _)| excerpt_bytes(&src.text, *span) > MAX_EXCERPT_BYTES)
        });
        if long {
            if let Some((f, l, c)) = self.location() {
                d.message = format!("{f}:{l}:{c}: {}", d.message);
            }
            for (_, label) in self.labels.iter().filter(|(_, l)| !l.is_empty()) {
                d.message.push_str(&format!(" ({label})"));
            }
            d.labels.clear();
            d.source = None;
            d.named = None;
        }
        d.message = visible_owned(d.message);
        d.help = d.help.map(visible_owned);
        for (_, label) in &mut d.labels {
            *label = visible_owned(std::mem::take(label));
        }
        if let Some(src) = &self.source.as_ref().filter(|_| !long) {
            // Sources are shared by many diagnostics: each is made visible once.
            let key = Arc::as_ptr(&src.text) as *const u8 as usize;
            let entry = shown.entry(key).or_insert_with(|| Shown::of(&src.text));
            let text = match entry {
                Some(v) => {
                    for (span, _) in &mut d.labels {
                        *span = Span::new(v.moved(span.start), v.moved(span.end));
                    }
                    v.text.clone()
                }
                None => src.text.clone(),
            };
            d.named = Some(NamedSource::new(visible(&src.name), text));
        }
        d
    }
    /// Where the first label points, as (file, line, column), for plain output.
    pub fn location(&self) -> Option<(String, usize, usize)> {
        let src = self.source.as_ref()?;
        let (span, _) = self.labels.first()?;
        let (l, c) = src.line_col(span.start);
        Some((src.name.clone(), l, c))
    }
    /// A plain one-line-per-problem rendering (screen readers, logs, tests).
    pub fn plain(&self) -> String {
        let mut out = String::new();
        self.plain_into(&mut out);
        out
    }
    fn plain_into(&self, out: &mut String) {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        // The user's own text (a name, a label, a file name) reaches the
        // terminal or the log with its control characters made visible.
        let message = visible(&self.message);
        match self.location() {
            Some((f, l, c)) => out.push_str(&format!(
                "{sev}[{}]: {}:{l}:{c}: {message}\n",
                self.code,
                visible(&f)
            )),
            None => out.push_str(&format!("{sev}[{}]: {message}\n", self.code)),
        }
        for (_, label) in self.labels.iter().filter(|(_, l)| !l.is_empty()) {
            out.push_str(&format!("  here: {}\n", visible(label)));
        }
        if let Some(h) = &self.help {
            out.push_str(&format!("  help: {}\n", visible(h)));
        }
        for r in &self.related {
            r.plain_into(out);
        }
    }
    /// A JSON rendering for tools.
    pub fn to_json(&self) -> serde_json::Value {
        let loc = self.location();
        serde_json::json!({
            "code": self.code,
            "severity": match self.severity { Severity::Error => "error", Severity::Warning => "warning" },
            "message": self.message,
            "help": self.help,
            "file": loc.as_ref().map(|l| l.0.clone()),
            "line": loc.as_ref().map(|l| l.1),
            "column": loc.as_ref().map(|l| l.2),
            "labels": self.labels.iter().map(|(s, l)| serde_json::json!({"start": s.start, "end": s.end, "label": l})).collect::<Vec<_>>(),
            "related": self.related.iter().map(|r| r.to_json()).collect::<Vec<_>>(),
        })
    }
}

/// A source text with its control characters made visible, for a fancy
/// rendering.
#[derive(Clone)]
struct Shown {
    text: Arc<str>,
    /// After each replaced character: its end in the original text and how
    /// many bytes the text has grown by there.
    grown: Vec<(usize, usize)>,
}

impl Shown {
    /// None when `text` has no control character to replace.
    fn of(text: &str) -> Option<Shown> {
        if matches!(visible(text), std::borrow::Cow::Borrowed(_)) {
            return None;
        }
        let mut out = String::with_capacity(text.len() + 16);
        let mut grown = Vec::new();
        let mut total = 0;
        for (i, c) in text.char_indices() {
            match crate::escape::picture(c) {
                Some(p) => {
                    out.push(p);
                    total += p.len_utf8() - c.len_utf8();
                    grown.push((i + c.len_utf8(), total));
                }
                None => out.push(c),
            }
        }
        Some(Shown {
            text: out.into(),
            grown,
        })
    }
    /// Where offset `at` of the original text is in the shown one.
    fn moved(&self, at: usize) -> usize {
        let k = self.grown.partition_point(|&(end, _)| end <= at);
        at + if k == 0 { 0 } else { self.grown[k - 1].1 }
    }
}

/// The bytes miette excerpts for a label at `span`: its lines, and one
/// line before and one after.
fn excerpt_bytes(text: &str, span: Span) -> usize {
    let b = text.as_bytes();
    let line_start = |at: usize| memchr::memrchr(b'\n', &b[..at]).map_or(0, |k| k + 1);
    let line_end = |at: usize| memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |k| at + k + 1);
    let (start, end) = (span.start.min(b.len()), span.end.min(b.len()));
    let mut from = line_start(start);
    if from > 0 {
        from = line_start(from - 1);
    }
    let mut to = line_end(end.max(start));
    if to < b.len() {
        to = line_end(to);
    }
    to - from
}

impl fmt::Display for Diag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Diag {}

impl miette::Diagnostic for Diag {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h.as_str()) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.named.as_ref().map(|s| s as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.labels.is_empty() {
            return None;
        }
        Some(Box::new(self.labels.iter().map(|(s, l)| {
            LabeledSpan::new_with_span(if l.is_empty() { None } else { Some(l.clone()) }, *s)
        })))
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(
            self.related.iter().map(|d| d as &dyn miette::Diagnostic),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The span of `d`'s first label in the text miette would excerpt.
    fn shown_label(d: &Diag) -> String {
        let named = d.named.as_ref().expect("a source");
        let (span, _) = d.labels[0];
        named.inner()[span.start..span.end].to_string()
    }

    #[test]
    fn terminal_copy_makes_controls_visible_and_moves_spans() {
        let src = Source::new(
            "f\u{1b}.tb",
            "title \"\u{1b}]0;x\u{7}\u{9b}\"\nmetric m = nope\n",
        );
        let at = src.text.find("nope").unwrap();
        let d = Diag::error("tb::x", "bad \u{1b}[2J")
            .at(&src, Span::new(at, at + 4), "here\u{7}")
            .with_help("help\u{0}");
        let t = d.for_terminal();
        assert_eq!(shown_label(&t), "nope");
        assert_eq!(t.message, "bad ␛[2J");
        assert_eq!(t.labels[0].1, "here␇");
        assert_eq!(t.help.as_deref(), Some("help␀"));
        assert!(t.named.as_ref().unwrap().inner().contains("␛]0;x␇�"));
        assert!(!d.plain().chars().any(|c| c.is_control() && c != '\n'));
    }

    #[test]
    fn long_lines_are_not_excerpted_and_texts_are_bounded() {
        let text = format!("a,b\n{}\n", "x".repeat(MAX_EXCERPT_BYTES * 2));
        let src = Source::new("long.csv", text);
        let d =
            Diag::error("tb::x", "y".repeat(MAX_TEXT_CHARS * 3)).at(&src, Span::new(4, 5), "cell");
        assert_eq!(d.message.chars().count(), MAX_TEXT_CHARS + 1);
        let t = d.for_terminal();
        assert!(t.named.is_none() && t.labels.is_empty());
        assert!(t.message.starts_with("long.csv:2:1: yyy") && t.message.ends_with("… (cell)"));
        // Two lines before the long one: its excerpt (a line either side) is short.
        let text = format!("a,b\nc,d\ne,f\n{}\n", "x".repeat(MAX_EXCERPT_BYTES * 2));
        let src = Source::new("long.csv", text);
        let short = Diag::error("tb::x", "z").at(&src, Span::new(0, 1), "");
        assert!(short.for_terminal().named.is_some());
        let next = Diag::error("tb::x", "z").at(&src, Span::new(8, 9), "");
        assert!(
            next.for_terminal().named.is_none(),
            "the long line is context"
        );
    }
}
