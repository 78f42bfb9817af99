//! The event and its ruleset, ready to rank (`eval`, `explain`, `verify`,
//! `tb test`): the data file loaded (or an event given), cut after a round,
//! its system overridden, the ruleset chosen and its edition, the data
//! checked against what the ruleset reads.

use crate::cli::diagnostics::warnings;
use crate::cli::{data, roles, rules};
use crate::{DiagStyle, RulesArgs, SystemArg};
use tb::codes;
use tb::diag::Diag;
use tb::render::Meta;

/// A ruleset and an event, ready to rank.
pub struct Prepared {
    pub rs: tb::plan::Ruleset,
    pub event: tb::model::Event,
    pub meta: Meta,
    pub data: String,
    /// `--threads`.
    pub threads: Option<usize>,
    /// `--strict`.
    pub strict: bool,
}

impl Prepared {
    /// Rank the event; a place an undefined value decided is a warning
    /// (an error with `--strict`).
    /// `notes`: the output prints the undefined values' reasons (every
    /// format but CSV); without, only the reasons of places are traced.
    pub fn rank(
        &self,
        seed: Option<u64>,
        style: DiagStyle,
        notes: bool,
    ) -> Result<tb::rank::Standings, Diag> {
        let mut st = tb::rank::rank(
            &self.event,
            &self.rs,
            &tb::rank::Options {
                lots_seed: seed,
                threads: self.threads,
                only_deciding_reasons: !notes,
                ..Default::default()
            },
        )?;
        // Columns the ruleset prints as places in the tied group.
        tb::rank::places::apply(&mut st, &self.rs);
        warnings(&undefined_warnings(&st, &self.event), self.strict, style)?;
        Ok(st)
    }
}

/// A place decided by an undefined value is never silent: a warning names
/// the participant, the criterion and why the value is missing.
fn undefined_warnings(
    st: &tb::rank::Standings,
    event: &tb::model::Event,
) -> Vec<tb::model::Warning> {
    st.undefined
        .iter()
        .filter(|u| u.decided)
        .map(|u| {
            let p = &event.participants[u.pid];
            let why = u.reason.as_deref().unwrap_or("the reason was not traced");
            tb::model::Warning::new(
                codes::RANK_UNDEFINED_VALUE,
                format!(
                    "{} ({}) was placed after those tied with it by {}, whose value for it is undefined: {why}",
                    p.name, p.id, u.criterion
                ),
            )
        })
        .collect()
}

/// The data checked against the ruleset that will rank it: the values it
/// reads (`tb::check::inputs`) and its sport; warnings go on the event.
fn check_against(event: &mut tb::model::Event, rs: &tb::plan::Ruleset) -> Result<(), Diag> {
    tb::check::inputs::check_event(event, rs)?;
    let mismatch = tb::check::sport_mismatch(rs, event);
    event.warnings.extend(mismatch);
    Ok(())
}

/// Load the event and the rules the arguments name (see [`RulesArgs`]).
pub fn prepare(a: &RulesArgs) -> Result<Prepared, Diag> {
    prepare_event(a, None)
}

/// [`prepare`], with the event already loaded when `loaded` holds one (a
/// ruleset test's inline event; `a`'s data file then only names it).
pub fn prepare_event(a: &RulesArgs, loaded: Option<tb::model::Event>) -> Result<Prepared, Diag> {
    prepare_with(a, loaded, None)
}

/// [`prepare_event`]; `bytes`, when there are some, are the data file's,
/// already read (`--write-trf` copies them, and reads the file once).
pub fn prepare_with(
    a: &RulesArgs,
    loaded: Option<tb::model::Event>,
    bytes: Option<Vec<u8>>,
) -> Result<Prepared, Diag> {
    let (ruleset, data) = files(a, loaded.is_none())?;
    let mut event = event(a, &data, loaded, bytes)?;
    // What the loader left out (rounds not yet played) comes first.
    let mut notes = event.notes.clone();
    system(a, &mut event, &mut notes);
    let explicit = a.edition.as_deref().map(str::trim);
    let overrides = rules::parse_params(&a.params)?;
    let (mut rs, shown) = rules::choose(a, ruleset, &data, &event, &overrides)?;
    rules::edition(&mut rs, explicit, &shown, &overrides, &event, &mut notes)?;
    rules::list_notes(&rs, &mut notes);
    check_against(&mut event, &rs)?;
    Ok(Prepared {
        rs,
        event,
        meta: Meta {
            ruleset: shown,
            notes,
        },
        data,
        threads: a.threads.map(usize::from),
        strict: a.strict,
    })
}

/// The ruleset (if named) and the data file among the arguments, refused
/// when they ask for two sources of rules, or (`on_disk`: the data is a
/// file to read) look swapped or leave the data out.
fn files(a: &RulesArgs, on_disk: bool) -> Result<(Option<String>, String), Diag> {
    let (ruleset, data) = match a.files.as_slice() {
        [r, d] => (Some(r.clone()), d.clone()),
        [d] => (None, d.clone()),
        _ => unreachable!("clap takes one or two files"),
    };
    if ruleset.is_some() && a.tiebreaks.is_some() {
        return Err(Diag::error(
            codes::CLI_USAGE,
            format!(
                "both a ruleset ({}) and --tiebreaks were given",
                ruleset.unwrap_or_default()
            ),
        )
        .with_help("give either a ruleset or --tiebreaks"));
    }
    if let (Some(r), Some(_)) = (&ruleset, &a.library) {
        return Err(Diag::error(
            codes::CLI_USAGE,
            format!("--library was given with a ruleset ({r})"),
        )
        .with_help("a ruleset imports its own libraries; --library names the codes of --tiebreaks (or of a TRF-26 file's records 202/212)"));
    }
    if on_disk {
        if let Some(r) = &ruleset {
            roles::swapped(r, &data)?;
        }
        roles::missing_data(&a.files)?;
    }
    Ok((ruleset, data))
}

/// The event: `loaded`, or the file `data` (its `bytes` when already
/// read), as it stood after `--after-round`.
fn event(
    a: &RulesArgs,
    data: &str,
    loaded: Option<tb::model::Event>,
    bytes: Option<Vec<u8>>,
) -> Result<tb::model::Event, Diag> {
    let threads = a.threads.map(usize::from);
    let mut event = match (loaded, bytes) {
        (Some(event), _) => event,
        (None, Some(bytes)) => data::load_bytes(data, bytes, threads)?,
        (None, None) => data::load_data(data, threads)?,
    };
    if let Some(n) = a.after_round {
        event.after_round(n).map_err(|why| {
            Diag::error(codes::CLI_USAGE, format!("--after-round {n}: {why}"))
                .with_help("give a round that has results; `tb eval` without --after-round ranks after the last one")
        })?;
    }
    Ok(event)
}

/// `--system`: the event treated as a Swiss or a round robin, with a note
/// when the data said otherwise.
fn system(a: &RulesArgs, event: &mut tb::model::Event, notes: &mut Vec<String>) {
    if let Some(sys) = a.system {
        let (system, name) = match sys {
            SystemArg::Swiss => (tb::model::System::Swiss, "a Swiss"),
            SystemArg::RoundRobin => (tb::model::System::RoundRobin, "a round robin"),
        };
        if event.system != system {
            notes.push(format!("treated as {name} (--system)"));
        }
        event.system = system;
    }
}
