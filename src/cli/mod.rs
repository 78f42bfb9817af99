//! The command line's own parts: what the library leaves to its caller
//! (reading ruleset files from disk, and rewriting them for `tb fmt`), and
//! `tb test` (ruleset tests).

pub mod files;
pub mod fmt;
pub mod test;
