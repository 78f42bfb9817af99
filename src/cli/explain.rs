//! `tb explain`: rank an event and show, step by step, how its ties were
//! broken (every tie, or those of `--ids`), with `--detail` each value's
//! parts.

use crate::cli::diagnostics::warnings;
use crate::cli::prepare::prepare;
use crate::{DiagStyle, ExplainArgs};
use std::process::ExitCode;
use tb::codes;
use tb::diag::Diag;

/// Run `tb explain`.
pub fn run(a: &ExplainArgs, style: DiagStyle) -> Result<ExitCode, Diag> {
    let p = prepare(&a.rules)?;
    let (event, data) = (&p.event, &p.data);
    let mut pids = Vec::new();
    for id in &a.ids {
        pids.push(event.find(id).ok_or_else(|| {
            Diag::error(
                codes::CLI_UNKNOWN_ID,
                format!("--ids: no participant `{id}` in {data}"),
            )
            .with_help("use the ids shown by `tb eval`")
        })?);
    }
    warnings(&p.event.warnings, p.strict, style)?;
    let st = p.rank(a.seed, style, true)?;
    let mut opts = tb::render::ExplainOptions {
        ids: pids,
        details: None,
    };
    if a.detail {
        // The parts of the values shown, walked again by the
        // reference evaluator (`tb::eval::detail`).
        let mut ev = tb::eval::Evaluator::new(event, &p.rs)?;
        ev.columnar = false;
        opts.details = Some(Box::new(move |proc_id, k, group: &[usize]| {
            ev.step_details(proc_id, k, group)
        }));
    }
    out!(
        "{}",
        tb::render::explain(&st, event, &p.rs, &mut opts, a.format)
    );
    Ok(ExitCode::SUCCESS)
}
