//! How diagnostics reach standard error: the event's warnings (errors with
//! `--strict`) and the diagnostic that stops a run, in the style asked for.

use crate::DiagStyle;
use std::io::Write as _;
use tb::codes;
use tb::diag::Diag;

/// The summary of warnings that `--strict` turned into errors.
const STRICT: &str = codes::CLI_STRICT;

/// The event's warnings: with `--strict`, an error (each warning becomes an
/// error with its own code); without, printed to stderr and the run goes on
/// (`--diagnostics json`: one JSON object per line, as errors are).
pub fn warnings(list: &[tb::model::Warning], strict: bool, style: DiagStyle) -> Result<(), Diag> {
    let help = "--strict makes every warning an error; correct the data (or the ruleset), or leave out --strict";
    if strict && !list.is_empty() {
        let n = list.len();
        let all = list
            .iter()
            .map(|w| Diag::error(w.code, w.message.clone()).with_help(help))
            .collect();
        return Err(Diag::many(
            STRICT,
            format!(
                "{n} warning{} and --strict: no standings",
                if n == 1 { "" } else { "s" }
            ),
            all,
        ));
    }
    for w in list {
        let d = Diag::warning(w.code, w.message.clone());
        match style {
            DiagStyle::Json => eprintln!(
                "{}",
                serde_json::to_string(&d.to_json()).unwrap_or_default()
            ),
            _ => eprint!("{}", d.plain()),
        }
    }
    Ok(())
}

/// Print the diagnostic that stopped the run.
pub fn report(d: &Diag, style: DiagStyle, color: bool) {
    let mut err = std::io::stderr();
    let text = match style {
        DiagStyle::Json => serde_json::to_string(&d.to_json()).unwrap_or_default() + "\n",
        DiagStyle::Plain | DiagStyle::Auto => d.plain(),
        DiagStyle::Fancy => {
            let theme = if color {
                miette::GraphicalTheme::unicode()
            } else {
                miette::GraphicalTheme::unicode_nocolor()
            };
            let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(100);
            let mut s = String::new();
            match handler.render_report(&mut s, &d.for_terminal()) {
                Ok(()) => s,
                Err(_) => d.plain(),
            }
        }
    };
    let _ = err.write_all(text.as_bytes());
}
