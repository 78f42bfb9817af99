//! The command line's own parts: what the library leaves to its caller
//! (reading ruleset files from disk).

pub mod files;
