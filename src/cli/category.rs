//! `tb eval --category [NAME=]CONDITION`: the command line's categories
//! checked against the ruleset (`tb::check::categories::add_given`), the
//! data checked again for what they read, and after ranking every
//! category's list, with a warning naming each participant a condition
//! leaves undecided (an error with `--strict`).

use crate::cli::diagnostics::warnings;
use crate::cli::prepare::Prepared;
use crate::DiagStyle;
use tb::codes;
use tb::diag::Diag;
use tb::rank::categories::CategoryList;

/// Add the categories given on the command line to the ruleset. The
/// participant values they read count as declared, so the data is checked
/// again: a native file's value that only a category reads is no longer
/// reported as unread.
pub fn add(p: &mut Prepared, given: &[String]) -> Result<(), Diag> {
    if given.is_empty() {
        return Ok(());
    }
    let mut values: Vec<String> = p
        .event
        .participants
        .iter()
        .flat_map(|q| q.values.keys().cloned())
        .collect();
    values.sort();
    values.dedup();
    tb::check::categories::add_given(&mut p.rs, given, &values)?;
    p.event
        .warnings
        .retain(|w| w.code != codes::DATA_UNREAD_VALUE);
    tb::check::inputs::check_event(&mut p.event, &p.rs)
}

/// Every category's list over the overall standings `st`; the participants
/// a condition leaves undecided are warnings.
pub fn lists(
    p: &Prepared,
    st: &tb::rank::Standings,
    seed: Option<u64>,
    style: DiagStyle,
) -> Result<Vec<CategoryList>, Diag> {
    let opts = tb::rank::Options {
        lots_seed: seed,
        threads: p.threads,
        ..Default::default()
    };
    let lists = tb::rank::categories::lists(&p.event, &p.rs, st, &opts)?;
    let mut undecided = Vec::new();
    for l in &lists {
        for (pid, why) in &l.undecided {
            undecided.push(tb::model::Warning::new(
                codes::RANK_CATEGORY_UNDECIDED,
                format!(
                    "category {}: neither in nor out, as `{}` is undefined: {}",
                    l.name,
                    l.condition,
                    tb::render::who_why(&p.event, *pid, why)
                ),
            ));
        }
    }
    warnings(&undecided, p.strict, style)?;
    Ok(lists)
}
