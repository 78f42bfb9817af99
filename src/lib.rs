//! tb: tie-break regulations as readable rulesets, evaluated exactly and explained.
//!
//! The pipeline, one module per stage:
//! ruleset text → [`parse`] (pest) → [`ast`] with spans → [`check`] (names,
//! arities, cycles; all errors at once) → [`plan`] → [`eval`] over an
//! [`model::Event`] from a [`load`]er → standings with a trace → [`render`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod ast;
pub mod check;
mod columns;
pub mod descriptors;
pub mod diag;
pub mod eval;
pub mod gen;
pub mod inputs;
pub mod load;
pub mod model;
pub mod num;
pub mod parse;
pub mod plan;
pub mod rank;
pub mod render;
pub mod shipped;
pub mod tables;
pub mod text;
pub mod why;
