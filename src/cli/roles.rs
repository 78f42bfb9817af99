//! What each positional argument of `eval`, `explain` and `verify` was
//! read as, said in words when the data file is missing: a misplaced or
//! forgotten argument is named, not just reported as a file not found.
//!
//! In: the positional arguments (`[RULESET] DATA`). Out: a diagnostic
//! (`tb::load::io`) when the data file does not exist, else nothing.

use std::path::Path;
use tb::codes;
use tb::diag::Diag;

/// A ruleset by its name: shipped, or a path ending in `.tb`.
fn names_a_ruleset(arg: &str) -> bool {
    tb::shipped::get(arg).is_some() || arg.ends_with(".tb")
}

/// `files` are `[RULESET] DATA` as given; an error that says which was read
/// as what when DATA is not there (standard input, `-`, is always there).
pub fn missing_data(files: &[String]) -> Result<(), Diag> {
    let (ruleset, data) = match files {
        [r, d] => (Some(r.as_str()), d.as_str()),
        [d] => (None, d.as_str()),
        _ => return Ok(()),
    };
    if data == "-" {
        return Ok(());
    }
    let why = match std::fs::metadata(Path::new(data)) {
        Ok(_) => return Ok(()),
        Err(e) => e,
    };
    let err = |help: String| {
        Err(Diag::error(codes::LOAD_IO, format!("cannot read {data}: {why}")).with_help(help))
    };
    let kinds = "a .toml, .json, .trf, .csv or .xml file";
    match ruleset {
        None if names_a_ruleset(data) => err(format!(
            "`{data}` was read as the event, the only argument; it names a ruleset: give the event after it (tb eval {data} EVENT)"
        )),
        None => err(format!(
            "`{data}`, the only argument, was read as the event: give the path of {kinds} (the ruleset, when given, comes first)"
        )),
        Some(r) if names_a_ruleset(data) && !names_a_ruleset(r) => err(format!(
            "`{r}` was read as the ruleset and `{data}` as the event; `{data}` names a ruleset: the ruleset comes first (tb eval {data} {r})"
        )),
        Some(r) => err(format!(
            "`{r}` was read as the ruleset and `{data}`, the second argument, as the event: give the path of {kinds}"
        )),
    }
}
