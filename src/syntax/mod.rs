//! Syntax: ruleset text and `--tiebreaks` descriptors to an AST with spans.
//!
//! - **In:** a ruleset's [`crate::diag::Source`] (its name and text), or a
//!   descriptor list such as `BH/C1,SB`.
//! - **Out:** an [`ast::File`] whose every node carries its span, or a
//!   [`crate::diag::Diag`] (`tb::parse::*`) pointing at the text. No pest
//!   type leaves [`parse`].
//! - **May import:** `diag`, `num`, `text` (for [`parse`] and [`ast`]).
//!   **May not** read files, nor import `check`, `eval`, `rank`, `render`
//!   or `load`. The exception today is [`descriptors`], which checks the
//!   chain's ruleset over the shipped FIDE library and reads the trace of a
//!   ranking; it is being moved out of Rust (issue #20, item 5).

pub mod ast;
pub mod descriptors;
mod limits;
pub mod parse;
