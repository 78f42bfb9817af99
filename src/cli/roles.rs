//! What each positional argument of `eval`, `explain` and `verify` was
//! read as, said in words when the data file is missing: a misplaced or
//! forgotten argument is named, not just reported as a file not found.
//!
//! In: the positional arguments (`[RULESET] DATA`). Out: a diagnostic
//! when they are the wrong way round (`tb::cli::usage`, [`swapped`]) or
//! the data file does not exist (`tb::load::io`, [`missing_data`]).

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

/// `tb eval DATA RULESET`: the data file where the ruleset goes and a
/// ruleset name where the data goes. Said in those words, before either is
/// read as the other.
pub fn swapped(ruleset: &str, data: &str) -> Result<(), Diag> {
    let is_data = |p: &str| {
        let lower = p.to_ascii_lowercase();
        [".toml", ".json", ".trf", ".txt", ".csv", ".xml"]
            .iter()
            .any(|e| lower.ends_with(e))
            && std::path::Path::new(p).is_file()
    };
    let is_ruleset = |p: &str| {
        !std::path::Path::new(p).exists()
            && (tb::shipped::source(p).is_some() || p.ends_with(".tb"))
    };
    if is_data(ruleset) && is_ruleset(data) {
        return Err(Diag::error(
            codes::CLI_USAGE,
            format!("`{ruleset}` is a data file and `{data}` a ruleset: the two are the wrong way round"),
        )
        .with_help(format!("the ruleset comes first: tb eval {data} {ruleset}")));
    }
    Ok(())
}
