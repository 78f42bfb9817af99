//! `tb verify`: rank an event and compare the ranks with those its file
//! records, each difference followed by its cause (`causes.rs`, which
//! `tb test` shares).

pub mod causes;

use crate::cli::diagnostics::warnings;
use crate::cli::prepare::prepare;
use crate::{DiagStyle, RulesArgs, EXIT_VERIFY};
use std::process::ExitCode;
use tb::codes;
use tb::diag::Diag;

/// Run `tb verify`: exit 4 when a rank differs.
pub fn run(rules: &RulesArgs, style: DiagStyle) -> Result<ExitCode, Diag> {
    let after = rules.after_round;
    let p = prepare(rules)?;
    warnings(&p.event.warnings, p.strict, style)?;
    let (event, data) = (&p.event, &p.data);
    let st = p.rank(None, style, true)?;
    let recorded = |pid: usize| event.participants[pid].recorded_rank.map(|r| r as usize);
    let (compared, list) = causes::differences(event, &st, &recorded);
    for d in &list {
        // Names from the data, for a terminal.
        outln!("{}", tb::escape::visible(&d.line));
        if let Some(c) = &d.cause {
            outln!("  {}", tb::escape::visible(c));
        }
    }
    let diffs = list.len();
    if compared == 0 {
        let help = match after {
            // The file's ranks are those after its last round.
            Some(n) => format!("the ranks a file records are those after its last round with results; leave out --after-round {n} to compare them"),
            None => "TRF files carry a rank column; native files a `rank` per participant".to_string(),
        };
        return Err(Diag::error(
            codes::VERIFY_NO_RANKS,
            format!("{data} records no ranks to compare"),
        )
        .with_help(help));
    }
    outln!("{compared} compared, {diffs} differ");
    Ok(if diffs == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_VERIFY)
    })
}
