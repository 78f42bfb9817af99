//! The syntax of a list of short codes (`PTS,BH/C1,EDET:MP/P`): codes, qualifiers and modifiers, with their spans; what they mean is declared by the rulesets.
//!
//! A list is what `tb eval --tiebreaks` takes, what a TRF-26 file carries
//! in records 202/212, and what `codes "..."` writes in a ruleset. Each
//! item is `CODE[:QUALIFIER][/MODIFIER]...`: a code, an optional qualifier
//! after a colon, and modifiers after slashes, each a letter and its
//! argument (`C1`, `L-1.5`, `P`). Which codes, qualifiers and modifiers
//! exist, what arguments they take and what they compute is declared in
//! the language (`code`, `qualifier`, `modifier`) and checked by
//! `check::short_codes`; this module only splits the text and reports what no
//! declaration could fix (an empty item, a slash with nothing after it).

use crate::codes;
use crate::diag::{Diag, Source, Span};

/// One item of a list, split.
#[derive(Clone, Debug, PartialEq)]
pub struct Descriptor {
    /// The item exactly as written (the output label).
    pub text: String,
    /// Where the item is.
    pub span: Span,
    /// The code as written (`bh` in `bh/c1`).
    pub name: String,
    /// Where the code is.
    pub name_span: Span,
    /// `:GP`: the qualifier as written and where it is (with its colon).
    pub qualifier: Option<(String, Span)>,
    /// The modifiers, in order.
    pub modifiers: Vec<Modifier>,
}

/// One modifier of an item: `/C1` is letter `C`, argument `1`.
#[derive(Clone, Debug, PartialEq)]
pub struct Modifier {
    /// The letter, upper case.
    pub letter: char,
    /// The argument after the letter (may be empty).
    pub arg: String,
    /// The modifier as written, without its slash (`C1`).
    pub text: String,
    /// Where it is (without the slash).
    pub span: Span,
}

/// The help of the list's own syntax errors.
pub const SYNTAX_HELP: &str =
    "a list is CODE[:QUALIFIER][/MODIFIER]... items separated by commas, e.g. PTS,BH/C1,SB";

/// Split the list that is `src.text[within]` (all of `src` when `within` is
/// None); spans are offsets into `src`. Every problem is reported at once.
pub fn parse_list(src: &Source, within: Option<Span>) -> Result<Vec<Descriptor>, Vec<Diag>> {
    let whole = within.unwrap_or(Span::new(0, src.text.len()));
    let text = &src.text[whole.start..whole.end];
    let mut out = Vec::new();
    let mut errors = Vec::new();
    let mut start = whole.start;
    for piece in text.split(',') {
        let lead = piece.len() - piece.trim_start().len();
        let t = piece.trim();
        let span = Span::new(start + lead, start + lead + t.len());
        start += piece.len() + 1;
        if t.is_empty() {
            if !text.trim().is_empty() {
                errors.push(
                    Diag::error(
                        codes::DESCRIPTORS_EMPTY,
                        "an empty item in the tie-break list",
                    )
                    .at(src, span, "nothing here")
                    .with_help(SYNTAX_HELP),
                );
            }
            continue;
        }
        match item(src, t, span) {
            Ok(d) => out.push(d),
            Err(e) => errors.push(e),
        }
    }
    if out.is_empty() && errors.is_empty() {
        errors.push(
            Diag::error(codes::DESCRIPTORS_EMPTY, "the tie-break list is empty")
                .in_source(src)
                .with_help(SYNTAX_HELP),
        );
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// One item: `t` is its text, at `span`.
fn item(src: &Source, t: &str, span: Span) -> Result<Descriptor, Diag> {
    let at = |a: usize, b: usize| Span::new(span.start + a, span.start + b);
    let mut parts = t.split('/');
    let head = parts.next().unwrap_or("");
    let (name, qualifier) = match head.split_once(':') {
        Some((n, q)) => (n, Some((q.to_string(), at(n.len(), head.len())))),
        None => (head, None),
    };
    let mut modifiers = Vec::new();
    let mut off = head.len();
    for m in parts {
        let mspan = at(off + 1, off + 1 + m.len());
        off += 1 + m.len();
        let mut chars = m.chars();
        let Some(letter) = chars.next() else {
            return Err(Diag::error(
                codes::DESCRIPTORS_UNKNOWN_MODIFIER,
                format!("`{}`: an empty modifier", crate::text::clip(t)),
            )
            .at(src, at(off - 1, off), "nothing after `/`")
            .with_help(SYNTAX_HELP));
        };
        modifiers.push(Modifier {
            letter: letter.to_ascii_uppercase(),
            arg: chars.as_str().to_string(),
            text: m.to_string(),
            span: mspan,
        });
    }
    Ok(Descriptor {
        text: t.to_string(),
        span,
        name: name.to_string(),
        name_span: at(0, name.len()),
        qualifier,
        modifiers,
    })
}

#[cfg(test)]
mod tests;
