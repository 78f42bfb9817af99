//! tb: tie-break regulations as readable rulesets, evaluated exactly and explained.
//!
//! The crate documentation below is `ARCHITECTURE.md`: the pipeline, one
//! folder per stage, and what each stage may import.
#![doc = include_str!("../ARCHITECTURE.md")]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod check;
pub mod codes;
pub mod diag;
pub mod escape;
pub mod eval;
pub mod format;
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
