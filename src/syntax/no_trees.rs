//! [`compiled`](super) as `build.rs` compiles it: the build script is what
//! makes the shipped rulesets' trees, so it has none yet.

use crate::syntax::ast::File;

/// No trees yet: every text is parsed.
pub fn lookup(_: &str) -> Option<File> {
    None
}
