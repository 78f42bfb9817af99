//! Syntax: ruleset text and lists of short codes to an AST with spans.
//!
//! - **In:** a ruleset's [`crate::diag::Source`] (its name and text), or a
//!   list of short codes such as `BH/C1,SB`.
//! - **Out:** an [`ast::File`] whose every node carries its span, or a
//!   [`crate::diag::Diag`] (`tb::parse::*`) pointing at the text; a list
//!   split into its items ([`descriptors`]). No pest type leaves [`parse`].
//!   A shipped ruleset's tree is read from the form `build.rs` made with
//!   this parser ([`compiled`]) instead of parsed on every run.
//! - **May import:** `diag`, `codes`, `num`, `text`. **May not** read
//!   files, nor import `check`, `eval`, `rank`, `render` or `load`.

pub mod ast;
// `build.rs` compiles this module tree too, to parse the shipped rulesets:
// it makes their trees, so there (where it has not yet set the cfg
// `tb_compiled` for the crate) there are none.
#[cfg_attr(not(tb_compiled), path = "no_trees.rs")]
pub mod compiled;
pub mod descriptors;
mod limits;
pub mod parse;
