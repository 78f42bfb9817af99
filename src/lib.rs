//! tb: tie-break regulations as readable rulesets, evaluated exactly and explained.
//!
//! The pipeline, one module per stage:
//! ruleset text → [`parse`] (pest) → [`ast`] with spans → [`check`] (names,
//! arities, cycles; all errors at once) → [`plan`] → [`eval`] over an
//! [`model::Event`] from a [`load`]er → standings with a trace → [`render`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod check;
pub mod diag;
pub mod eval;
pub mod load;
pub mod model;
pub mod num;
pub mod par;
pub mod plan;
pub mod rank;
pub mod render;
pub mod shipped;
pub mod syntax;
pub mod text;
