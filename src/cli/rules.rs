//! The ruleset a command ranks with: a shipped name or a .tb file, or a
//! list of codes (`--tiebreaks`, a TRF-26 file's records 202/212) with the
//! library that declares them; then the edition of its regulation.

use crate::{PathArgs, RulesArgs};
use tb::codes;
use tb::diag::{Diag, Source};
use tb::num::Num;

/// `--param NAME=VALUE`, each read as an exact number.
pub fn parse_params(raw: &[String]) -> Result<Vec<(String, Num)>, Diag> {
    raw.iter()
        .map(|p| {
            let (k, v) = p.split_once('=').ok_or_else(|| {
                Diag::error(
                    codes::CLI_BAD_PARAM,
                    format!("--param {p}: expected NAME=VALUE"),
                )
                .with_help("e.g. --param floor=0.33")
            })?;
            let n = Num::parse(v).ok_or_else(|| {
                Diag::error(
                    codes::CLI_BAD_PARAM,
                    format!("--param {p}: `{v}` is not a number"),
                )
                .with_help("write a decimal such as 0.5 or a fraction such as 1/3")
            })?;
            Ok((k.trim().to_string(), n))
        })
        .collect()
}

/// A ruleset named on the command line (shipped, or a file), checked with
/// `--param`'s values.
pub fn load_ruleset(
    name: &str,
    params: &[String],
    paths: &PathArgs,
) -> Result<tb::plan::Ruleset, Diag> {
    let overrides = parse_params(params)?;
    let resolver = paths.resolver()?;
    let root = crate::cli::files::load_root(name)?;
    tb::check::check(root, &resolver, &overrides)
}

/// The ruleset for `a` and how the output names it: the one named (`name`),
/// else the list of `--tiebreaks`, else the TRF-26 file's own records
/// 202/212 (`data` names the file), each with its library.
pub fn choose(
    a: &RulesArgs,
    name: Option<String>,
    data: &str,
    event: &tb::model::Event,
    overrides: &[(String, Num)],
) -> Result<(tb::plan::Ruleset, String), Diag> {
    if let Some(name) = name {
        return Ok((load_ruleset(&name, &a.params, &a.paths)?, name));
    }
    let (src, shown) = match &a.tiebreaks {
        Some(list) => (
            Source::new("--tiebreaks", list.clone()),
            format!("--tiebreaks {list}"),
        ),
        None if !event.tiebreaks.is_empty() => {
            let list = event.tiebreaks.join(",");
            (
                Source::new(format!("{data} (records 202/212)"), list.clone()),
                format!("{data} records 202/212: {list}"),
            )
        }
        None => {
            return Err(Diag::error(
                codes::CLI_NO_RULESET,
                format!("no ruleset for {data}"),
            )
            .with_help("give a ruleset (`tb list`), --tiebreaks \"PTS,BH/C1,BH,SB\", or a TRF-26 file with its tie-breaks in records 202/212"))
        }
    };
    let library = match &a.library {
        Some(l) => {
            library_exists(l)?;
            l.clone()
        }
        None => default_library(event)?,
    };
    let resolver = a.paths.resolver()?;
    let rs = tb::check::check_list(src, &library, None, &resolver, overrides)?;
    Ok((rs, shown))
}

/// The shipped library whose codes a list uses when `--library` is not
/// given: the one that declares codes for the event's sport (its `sport`
/// line), for a team event the one whose name says `team`, for an
/// individual event one whose name does not. None found, or several: an
/// error that names them.
fn default_library(event: &tb::model::Event) -> Result<String, Diag> {
    let sport = match event.sport {
        tb::model::Sport::Chess => "chess",
        tb::model::Sport::Cards => "cards",
        tb::model::Sport::Bridge => "bridge",
        tb::model::Sport::Other => "other",
    };
    let team = event.kind == tb::model::Kind::Team;
    let line = format!("sport \"{sport}\"");
    let mut fits: Vec<&str> = tb::shipped::code_libraries()
        .into_iter()
        .filter(|n| {
            // The substring search first: most libraries name no such sport.
            tb::shipped::get(n)
                .is_some_and(|t| t.contains(line.as_str()) && t.lines().any(|l| l.trim() == line))
        })
        .filter(|n| n.contains("team") == team)
        .collect();
    // Several for one sport: the one whose `codes` line says `default`.
    let marked = |n: &&str| {
        tb::shipped::get(n).is_some_and(|t| {
            t.lines()
                .filter_map(|l| l.strip_prefix("codes \""))
                .filter_map(|l| l.split_once('"'))
                .any(|(_, rest)| rest.trim_start().starts_with("default"))
        })
    };
    if fits.len() > 1 && fits.iter().filter(|n| marked(n)).count() == 1 {
        fits.retain(marked);
    }
    match fits.as_slice() {
        [one] => Ok(one.to_string()),
        _ => {
            let all = tb::shipped::code_libraries().join(", ");
            let why = if fits.is_empty() {
                format!("no shipped library declares codes for {sport}")
            } else {
                format!(
                    "several shipped libraries declare codes for {sport}: {}",
                    fits.join(", ")
                )
            };
            Err(
                Diag::error(codes::CLI_USAGE, format!("--tiebreaks: {why}")).with_help(format!(
                    "name the library with --library (shipped: {all}; or the path of a .tb file)"
                )),
            )
        }
    }
}

/// `--library NAME`: a file (`.tb` may be left out) or a shipped library.
fn library_exists(name: &str) -> Result<(), Diag> {
    let mut p = std::path::PathBuf::from(name);
    if p.extension().is_none() {
        p.set_extension("tb");
    }
    if p.is_file() || tb::shipped::get(name).is_some() {
        return Ok(());
    }
    let known = tb::shipped::code_libraries();
    let near = known
        .iter()
        .min_by_key(|k| (tb::text::edit_distance(name, k), **k))
        .filter(|k| tb::text::edit_distance(name, k) <= 3)
        .map_or(String::new(), |k| format!("did you mean `{k}`? "));
    Err(Diag::error(
        codes::CLI_USAGE,
        format!("--library {name}: no such file, and no shipped library of that name"),
    )
    .with_help(format!(
        "{near}the shipped libraries with codes are: {}; or give the path of a .tb file",
        known.join(", ")
    )))
}

/// The edition of the regulation a ruleset that declares editions ranks
/// by: `--edition` (`explicit`), else the ruleset's own `edition`, else
/// the one in force on the event's start date; set as its parameter and
/// named in `notes`. `shown` names the ruleset in an error.
pub fn edition(
    rs: &mut tb::plan::Ruleset,
    explicit: Option<&str>,
    shown: &str,
    overrides: &[(String, Num)],
    event: &tb::model::Event,
    notes: &mut Vec<String>,
) -> Result<(), Diag> {
    let Some(eds) = rs.editions.clone() else {
        if explicit.is_some() {
            return Err(Diag::error(
                codes::CLI_USAGE,
                format!("--edition: {shown} declares no editions"),
            )
            .with_help("--edition chooses among the editions a ruleset's library declares (`editions ...`), e.g. the FIDE rulesets' 2024 and 2026"));
        }
        return Ok(());
    };
    let i = rs.params.iter().position(|p| p.name == eds.param);
    let set_by_user = overrides.iter().any(|(k, _)| k == &eds.param);
    let (year, why) = match (explicit, &rs.edition) {
        (Some(e), own) => given_edition(&eds, e, own.as_deref(), shown)?,
        (None, Some(_)) => (None, String::new()),
        (None, None) if set_by_user => (None, String::new()),
        (None, None) => {
            let (y, why) = eds.for_date(event.start_date.as_deref());
            (Some(y), why)
        }
    };
    if let (Some(y), Some(i)) = (year, i) {
        rs.params[i].value = Num::int(i64::from(y));
        notes.push(format!("{} {y} ({why})", eds.label));
        if let Some(list) = &rs.list {
            rs.edition = Some(y.to_string());
            rs.source_doc = list.source.as_ref().map(|s| format!("{s}, {y} edition"));
        }
    }
    Ok(())
}

/// `--edition E`: its year among those `eds` lists, and why it is used
/// (`own`: the ruleset's own edition, which it replaces).
fn given_edition(
    eds: &tb::plan::Editions,
    e: &str,
    own: Option<&str>,
    shown: &str,
) -> Result<(Option<u32>, String), Diag> {
    let Some(&(y, _)) = eds.list.iter().find(|(y, _)| y.to_string() == e) else {
        let known: Vec<String> = eds.list.iter().map(|(y, _)| y.to_string()).collect();
        return Err(Diag::error(
            codes::CLI_USAGE,
            format!("--edition {e}: not an edition of {shown}"),
        )
        .with_help(format!(
            "its editions ({}) are {}",
            eds.label,
            known.join(", ")
        )));
    };
    Ok(match own {
        Some(own) if own != e => (
            Some(y),
            format!("--edition, instead of the ruleset's {own}"),
        ),
        _ => (Some(y), "--edition".to_string()),
    })
}

/// What a list of codes tells its user under the edition in use: an item
/// a later edition defines, and a primary score the list leaves out.
pub fn list_notes(rs: &tb::plan::Ruleset, notes: &mut Vec<String>) {
    let Some(list) = &rs.list else {
        return;
    };
    let current: Option<u32> = rs.edition.as_deref().and_then(|e| e.parse().ok());
    let cite = list
        .newer_cite
        .as_ref()
        .map_or(String::new(), |c| format!(" ({c})"));
    for (item, y) in &list.since {
        if let Some(cur) = current.filter(|c| c < y) {
            notes.push(format!(
                "{item} is defined by the {y} edition; under the {cur} edition it is used as a self-defined tie-break{cite}"
            ));
        }
    }
    if let Some((name, what, cite)) = &list.primary_added {
        let cite = cite.as_ref().map_or(String::new(), |c| format!(" ({c})"));
        notes.push(format!(
            "the list has no {name}: participants are ranked on {what} first{cite}"
        ));
    }
}
