//! `tb eval`: rank an event and print the standings (or, with
//! `--progress`, each participant's place after every round), with the
//! categories' lists, and with `--write-trf` the TRF file with its ranks.

use crate::cli::category;
use crate::cli::diagnostics::warnings;
use crate::cli::prepare::{prepare_with, Prepared};
use crate::cli::{data, trf_out};
use crate::{DiagStyle, EvalArgs};
use std::process::ExitCode;
use tb::diag::Diag;
use tb::render::Format;

/// Run `tb eval`.
pub fn run(a: &EvalArgs, style: DiagStyle) -> Result<ExitCode, Diag> {
    // The input of `--write-trf` is read once: its bytes are loaded
    // and then copied.
    let trf_in = match (&a.write_trf, a.rules.files.last()) {
        (Some(out), Some(data)) => Some(trf_out::accepts(data, out, data::read_data)?),
        _ => None,
    };
    let mut p = prepare_with(&a.rules, None, trf_in.as_ref().map(|t| t.0.clone()))?;
    category::add(&mut p, &a.categories)?;
    warnings(&p.event.warnings, p.strict, style)?;
    let st = p.rank(a.seed, style, a.format != Format::Csv)?;
    if a.progress {
        return progress(&p, a, st);
    }
    let lists = category::lists(&p, &st, a.seed, style)?;
    if let (Some(out), Some((bytes, before))) = (&a.write_trf, &trf_in) {
        let note = trf_out::write(&p.data, bytes, out, before.as_ref(), &p.event, &st)?;
        // Standard error carries only JSON objects with `--diagnostics json`.
        if !matches!(style, DiagStyle::Json) {
            eprintln!("{}", tb::escape::visible(&note));
        }
    }
    let report = tb::render::Report::new(&st, &p.event, &p.rs, &p.meta, &lists);
    if let Err(e) = tb::render::write(&report, a.format, &mut std::io::stdout().lock()) {
        super::output_failed(e);
    }
    std::mem::forget(report);
    // The process ends here: the event and the standings are left
    // for the kernel to take back whole rather than freed piece by
    // piece (a fiftieth of a small event's run).
    std::mem::forget(st);
    std::mem::forget(p);
    Ok(ExitCode::SUCCESS)
}

/// `--progress`: each participant's place after every round, ranked by
/// the same ruleset (`st`: the standings after the last round).
fn progress(p: &Prepared, a: &EvalArgs, st: tb::rank::Standings) -> Result<ExitCode, Diag> {
    let opts = tb::rank::Options {
        lots_seed: a.seed,
        threads: p.threads,
        only_deciding_reasons: true,
        ..Default::default()
    };
    let table = tb::rank::progress::by_round(&p.event, &p.rs, &opts, st)?;
    out!(
        "{}",
        tb::render::progress(&table, &p.event, &p.rs, &p.meta, a.format)
    );
    Ok(ExitCode::SUCCESS)
}
