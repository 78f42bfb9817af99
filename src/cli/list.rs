//! `tb list`: the shipped rulesets and the documents they implement; with
//! `--all` the libraries too, with how many metrics and codes each defines.

use std::process::ExitCode;
use tb::diag::Diag;

/// Run `tb list` (`all`: `--all`).
pub fn run(all: bool) -> Result<ExitCode, Diag> {
    for (name, title, source) in tb::shipped::list() {
        outln!("{name:<24} {title}");
        if !source.is_empty() {
            outln!("{:<24} source: {source}", "");
        }
    }
    if all {
        outln!("");
        outln!("Libraries (`import \"NAME\"` from any file; `tb show NAME` prints one, `tb doc NAME` documents its definitions):");
        for name in tb::shipped::libraries() {
            let Some(src) = tb::shipped::source(name) else {
                continue;
            };
            let rs = tb::check::check(src, &tb::shipped::Shipped, &[])?;
            let codes = match rs.codes.len() {
                0 => String::new(),
                n => format!(", {n} codes"),
            };
            outln!(
                "{name:<24} {} ({} metrics{codes})",
                rs.title.as_deref().unwrap_or(""),
                rs.metrics.len()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
