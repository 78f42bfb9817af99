//! Syntax: ruleset text and `--tiebreaks` descriptors to an AST with spans.

pub mod ast;
pub mod descriptors;
pub mod parse;
