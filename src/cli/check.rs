//! `tb check`: check rulesets, report every error at once, and with
//! `--verbose` list each procedure's steps and the short codes declared.

use crate::cli::rules::load_ruleset;
use crate::PathArgs;
use std::process::ExitCode;
use tb::diag::Diag;

/// Run `tb check` on each of `rulesets`; the last error stops the run
/// after every ruleset was checked.
pub fn run(rulesets: &[String], verbose: bool, paths: &PathArgs) -> Result<ExitCode, Diag> {
    let mut failed = None;
    for r in rulesets {
        match load_ruleset(r, &[], paths) {
            Ok(rs) => summary(r, &rs, verbose),
            Err(d) => failed = Some(d),
        }
    }
    match failed {
        Some(d) => Err(d),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// One ruleset's line (`ok`, its counts), and with `verbose` its steps
/// and short codes.
fn summary(r: &str, rs: &tb::plan::Ruleset, verbose: bool) {
    let codes = match rs.codes.len() {
        0 => String::new(),
        n => format!(", {n} codes"),
    };
    outln!(
        "{r}: ok ({} metrics, {} procedures{codes}{})",
        rs.metrics.len(),
        rs.procs.len(),
        if rs.standings.is_some() {
            ""
        } else {
            ", library"
        }
    );
    if verbose {
        out!("{}", tb::render::procedures(rs));
        if !rs.codes.is_empty() {
            outln!("Short codes (`--tiebreaks`, `codes \"...\"`):");
            for (code, doc) in &rs.codes {
                outln!("  {code:<8} {doc}");
            }
        }
    }
}
