//! The command line's own parts: what the library leaves to its caller
//! (reading ruleset files from disk, and rewriting them for `tb fmt`), and
//! `tb test` (ruleset tests), and the bodies of the commands issue #17 added:
//! `verify`'s causes, `show` and `doc`, `eval --write-trf`, completions and
//! the man page, and what each argument was read as when they are swapped
//! or the data file is missing.

pub mod category;
pub mod doc;
pub mod files;
pub mod fmt;
pub mod manual;
pub mod roles;
pub mod test;
pub mod trf_out;
pub mod verify;
pub mod write;
