//! The shipped rulesets' syntax trees, parsed once at build time
//! (`build.rs`, through this very parser) and embedded serialised
//! (postcard): a
//! shipped file is read from its tree instead of parsed on every run.
//!
//! A text is looked up by its whole content, so a tree is only ever used
//! for exactly the text it was made from (a user's copy of a shipped file
//! gets the same tree a parse would give); any other text is parsed.

use crate::syntax::ast::File;

include!(concat!(env!("OUT_DIR"), "/compiled.rs"));

/// The tree of `text` when it is a shipped ruleset's text, byte for byte.
pub fn lookup(text: &str) -> Option<File> {
    let (_, bytes) = COMPILED.iter().find(|(t, _)| *t == text)?;
    // The bytes were written by the same types in the same build: a failure
    // here is a bug, and a parse gives the right answer anyway.
    postcard::from_bytes(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::COMPILED;
    use crate::diag::Source;

    /// Every embedded tree is the tree a fresh parse of its text gives.
    #[test]
    fn compiled_trees_equal_a_fresh_parse() {
        assert!(COMPILED.len() > 10, "shipped rulesets compiled");
        for (i, (text, _)) in COMPILED.iter().enumerate() {
            let src = Source::new(format!("shipped-{i}"), *text);
            let fresh = crate::syntax::parse::parse_text(&src).expect("shipped file parses");
            assert_eq!(super::lookup(text), Some(fresh), "file {i}");
        }
    }
}
