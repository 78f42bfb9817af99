//! The data a ruleset reads (SPEC L11), and the check of an event's data
//! against it: every data value a definition reads is declared
//! (`reads participant carryover default 0`); a value the data carries that
//! no loaded ruleset file declares is a warning with a did-you-mean; a unit
//! or boards present on some played games only, or a participant value
//! some participants lack, is an error (it would be read as undefined or
//! zero). A value the data lacks entirely is the evaluator's
//! `tb::eval::missing_data`, which names the value, the definition and the
//! step; a declared default (`??`) is the one legitimate way round it.

use crate::codes;
use crate::diag::{Diag, Source, Span};
use crate::model::{Event, Warning};
use crate::num::Num;
use crate::plan::*;
use crate::syntax::ast::DataKind;
use std::collections::BTreeSet;
use std::sync::Arc;

/// What an expression is, as far as the checker can tell without data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Unknown,
    Entry,
    Part,
    Board,
    Event,
    Entries,
    Parts,
    Boards,
}

/// One read of a data value (a field that is neither built in nor a metric).
#[derive(Clone, Debug)]
pub struct Read {
    /// What it is read from; None where the checker cannot tell (a metric's
    /// parameter): then a declaration of any kind with that name covers it.
    pub kind: Option<DataKind>,
    /// The field as written (`imps`, `imps_against`, `carryover`).
    pub name: Arc<str>,
    /// File of the read.
    pub file: usize,
    /// Span of the read.
    pub span: Span,
    /// Inside the left operand of `a ?? b`: Some(b's value, when b is a
    /// constant number).
    pub guard: Option<Option<Num>>,
}

/// What a definition or step uses: data reads, metrics, board results.
#[derive(Clone, Debug, Default)]
pub struct Uses {
    /// Data values read.
    pub reads: Vec<Read>,
    /// Metrics and criteria used.
    pub metrics: Vec<MetricId>,
    /// Where board results are first read (`r.boards`, `deals`, `score_on`).
    pub boards: Option<(usize, Span)>,
}

/// The uses of a metric's body.
pub fn metric_uses(m: &Metric) -> Uses {
    let mut out = Uses::default();
    let mut types = vec![Ty::Unknown; m.slots];
    walk(&m.body, &mut types, None, &mut out);
    out
}

/// The uses of a step: its value and its `when` condition.
pub fn step_uses(s: &PStep) -> Uses {
    let mut out = Uses::default();
    let mut types = vec![Ty::Unknown; s.slots];
    walk(&s.expr, &mut types, None, &mut out);
    if let Some(w) = &s.when {
        walk(w, &mut types, None, &mut out);
    }
    out
}

/// The uses of a category's condition.
pub fn category_uses(c: &Category) -> Uses {
    let mut out = Uses::default();
    let mut types = vec![Ty::Unknown; c.slots];
    walk(&c.cond, &mut types, None, &mut out);
    out
}

fn const_num(e: &PExpr) -> Option<Num> {
    match &e.kind {
        PKind::Num(n) => Some(*n),
        PKind::Unary(UnOp::Neg, x) => const_num(x)?.neg().ok(),
        _ => None,
    }
}

use crate::syntax::ast::UnOp;

fn ty(e: &PExpr, types: &[Ty]) -> Ty {
    match &e.kind {
        PKind::Builtin(b) => match b {
            Builtin::Me => Ty::Part,
            Builtin::Rounds => Ty::Entries,
            Builtin::Group | Builtin::Others => Ty::Parts,
            Builtin::Event => Ty::Event,
            Builtin::Sessions => Ty::Unknown,
            Builtin::FirstPlace | Builtin::LastPlace => Ty::Unknown,
        },
        PKind::Local(s) => types.get(*s).copied().unwrap_or(Ty::Unknown),
        PKind::Field(b, f) => match f.builtin {
            Some(
                BuiltinField::Opponent | BuiltinField::Partner | BuiltinField::OpponentPartner,
            ) => Ty::Part,
            Some(BuiltinField::Rounds) if ty(b, types) == Ty::Part => Ty::Entries,
            Some(BuiltinField::Boards) => Ty::Boards,
            Some(BuiltinField::Participants) => Ty::Parts,
            _ => Ty::Unknown,
        },
        PKind::Call(Func::Deals, _) => Ty::Boards,
        PKind::If(_, a, b) => {
            let t = ty(a, types);
            if t == ty(b, types) {
                t
            } else {
                Ty::Unknown
            }
        }
        PKind::Binary(BinOp::Coalesce, a, _) => ty(a, types),
        _ => Ty::Unknown,
    }
}

fn walk(e: &PExpr, types: &mut Vec<Ty>, guard: Option<Option<Num>>, out: &mut Uses) {
    match &e.kind {
        PKind::Metric(id, ..) => {
            out.metrics.push(*id);
            e.each_child(|x| walk(x, types, guard, out));
        }
        PKind::Field(b, f) => {
            walk(b, types, guard, out);
            match f.builtin {
                Some(BuiltinField::Boards) => {
                    out.boards.get_or_insert((e.file, e.span));
                }
                Some(_) => {}
                None => {
                    let kind = match ty(b, types) {
                        Ty::Entry => Some(DataKind::Round),
                        Ty::Part => Some(DataKind::Participant),
                        Ty::Event => Some(DataKind::Event),
                        // Boards carry no data values: the evaluator's
                        // missing_data names the field.
                        Ty::Board => return,
                        _ => None,
                    };
                    out.reads.push(Read {
                        kind,
                        name: f.name.clone(),
                        file: e.file,
                        span: e.span,
                        guard,
                    });
                }
            }
        }
        PKind::Call(f, _) => {
            if matches!(f, Func::Deals | Func::ScoreOn) {
                out.boards.get_or_insert((e.file, e.span));
            }
            e.each_child(|x| walk(x, types, guard, out));
        }
        PKind::Agg(_, g) | PKind::List(g) => {
            for (slot, c) in &g.fors {
                walk(c, types, guard, out);
                let t = match ty(c, types) {
                    Ty::Entries => Ty::Entry,
                    Ty::Parts => Ty::Part,
                    Ty::Boards => Ty::Board,
                    _ => Ty::Unknown,
                };
                if types.len() <= *slot {
                    types.resize(*slot + 1, Ty::Unknown);
                }
                types[*slot] = t;
            }
            walk(&g.elem, types, guard, out);
            for x in [&g.cond, &g.by, &g.voluntary].into_iter().flatten() {
                walk(x, types, guard, out);
            }
        }
        // `x ?? undefined` gives no default: it asks whether the event
        // records `x` at all (undefined either way where it does not), as
        // `defined(r.imps ?? undefined)` does.
        PKind::Binary(BinOp::Coalesce, a, b)
            if matches!(&b.kind, PKind::Binary(BinOp::Div, _, z)
                if matches!(z.kind, PKind::Num(n) if n == Num::ZERO)) =>
        {
            walk(a, types, guard, out);
        }
        PKind::Binary(BinOp::Coalesce, a, b) => {
            walk(a, types, Some(const_num(b)), out);
            walk(b, types, guard, out);
        }
        // The rest read no data themselves: only through their parts.
        _ => e.each_child(|x| walk(x, types, guard, out)),
    }
}

/// Whether declaration `d` covers a read of `name` (of `kind`, if known):
/// a unit declared as `reads round imps` covers `r.imps_against` too.
fn covers(d: &DataDecl, kind: Option<DataKind>, name: &str) -> bool {
    kind.is_none_or(|k| k == d.kind)
        && (d.name == name
            || (d.kind == DataKind::Round
                && name.strip_suffix("_against") == Some(d.name.as_str())))
}

/// The declaration a read uses, if any.
pub fn decl_of<'d>(decls: &'d [DataDecl], r: &Read) -> Option<(usize, &'d DataDecl)> {
    decls
        .iter()
        .enumerate()
        .find(|(_, d)| covers(d, r.kind, &r.name))
}

fn what(kind: Option<DataKind>) -> &'static str {
    match kind {
        Some(DataKind::Round) => "a unit of each game",
        Some(DataKind::Participant) => "a participant value",
        Some(DataKind::Event) => "an event value",
        None => "a data value",
    }
}

/// The checker's errors for data reads: each must be declared, and read
/// with `??` exactly where its declaration gives a default (and the same
/// default).
pub fn declaration_errors(
    files: &[Source],
    metrics: &[Metric],
    procs: &[Proc],
    categories: &[Category],
    decls: &[DataDecl],
) -> Vec<Diag> {
    let mut all: Vec<Read> = Vec::new();
    for m in metrics {
        all.extend(metric_uses(m).reads);
    }
    for c in categories {
        all.extend(category_uses(c).reads);
    }
    for p in procs {
        for s in &p.steps {
            all.extend(step_uses(s).reads);
        }
    }
    let mut errors = Vec::new();
    let mut reported: BTreeSet<(Option<DataKind>, Arc<str>)> = BTreeSet::new();
    for r in &all {
        let Some(src) = files.get(r.file) else {
            continue;
        };
        match decl_of(decls, r) {
            None => {
                if !reported.insert((r.kind, r.name.clone())) {
                    continue;
                }
                let names: Vec<&str> = decls
                    .iter()
                    .map(|d| d.name.as_str())
                    .chain(BuiltinField::ALL.iter().map(|(n, _)| *n))
                    .collect();
                let kind = r.kind.map(|k| k.word()).unwrap_or("round");
                // `r.imps_against` is the opponent's `imps`: declare the unit.
                let base = match r.name.strip_suffix("_against") {
                    Some(b) if kind == "round" => b,
                    _ => &r.name,
                };
                let mean = match did_you_mean(&r.name, names.iter().copied()) {
                    Some(c) => format!("did you mean `{c}`? Otherwise "),
                    None => String::new(),
                };
                errors.push(
                    Diag::error(
                        codes::CHECK_UNDECLARED_READ,
                        format!(
                            "`{}` is read as {} but the ruleset does not declare it",
                            r.name,
                            what(r.kind)
                        ),
                    )
                    .at(src, r.span, "read here")
                    .with_help(format!(
                        "{mean}declare what the ruleset reads from the data: `reads {kind} {base}` \
                         (`round`: a unit of each game, `participant`, `event`), with `default N` \
                         only where the regulation says what a missing value counts as",
                    )),
                );
            }
            Some((_, d)) => match (d.default, r.guard) {
                (Some(v), None) => errors.push(
                    Diag::error(
                        codes::CHECK_READ_DEFAULT,
                        format!(
                            "`{}` is declared with `default {v}`, but this read has no `?? {v}`",
                            r.name
                        ),
                    )
                    .at(src, r.span, "read without its default")
                    .with_help(format!(
                        "write `... ?? {v}` here, or drop `default` from the declaration if the data must always give `{}`",
                        d.name
                    )),
                ),
                (None, Some(_)) => errors.push(
                    Diag::error(
                        codes::CHECK_READ_DEFAULT,
                        format!(
                            "`{}` is read with `??` but its declaration gives no default",
                            r.name
                        ),
                    )
                    .at(src, r.span, "read with a default")
                    .with_help(format!(
                        "declare the default: `reads {} {} default N`, or remove the `??` if the data must always give it",
                        d.kind.word(),
                        d.name
                    )),
                ),
                (Some(v), Some(Some(g))) if v != g => errors.push(
                    Diag::error(
                        codes::CHECK_READ_DEFAULT,
                        format!(
                            "`{}` is read with `?? {g}` but declared with `default {v}`",
                            r.name
                        ),
                    )
                    .at(src, r.span, "a different default")
                    .with_help("one value may have one default: make the two agree"),
                ),
                _ => {}
            },
        }
    }
    errors
}

pub use crate::text::did_you_mean;

/// What the ranking procedure actually uses: the metrics reachable from
/// the standings procedure (every procedure when there is none), their
/// data reads, and the first read of board results.
pub fn reachable(rs: &Ruleset) -> Uses {
    let mut procs = vec![false; rs.procs.len()];
    let mut todo: Vec<ProcId> = match rs.standings {
        Some(p) => vec![p],
        None => (0..rs.procs.len()).collect(),
    };
    let mut out = Uses::default();
    let mut seen = vec![false; rs.metrics.len()];
    let mut mtodo: Vec<MetricId> = Vec::new();
    let add = |u: Uses, out: &mut Uses, mtodo: &mut Vec<MetricId>| {
        out.reads.extend(u.reads);
        if out.boards.is_none() {
            out.boards = u.boards;
        }
        mtodo.extend(u.metrics);
    };
    // A category may rank its members with a procedure of its own. Its
    // condition's reads are not counted: a value some participants lack
    // leaves them undecided, named by the warning
    // `tb::rank::category_undecided`, not an error for the whole ranking.
    for c in &rs.categories {
        if let CategoryOrder::Rerank(Some(p)) = c.order {
            todo.push(p);
        }
    }
    while let Some(p) = todo.pop() {
        if std::mem::replace(&mut procs[p], true) {
            continue;
        }
        for s in &rs.procs[p].steps {
            add(step_uses(s), &mut out, &mut mtodo);
            let actions: Vec<PAction> = match &s.then {
                PHandoff::Always(a) => vec![*a],
                PHandoff::BySize(c, o) => c.iter().map(|(_, a)| *a).chain([*o]).collect(),
            };
            for a in actions {
                if let PAction::Proc(q) = a {
                    todo.push(q);
                }
            }
        }
    }
    while let Some(m) = mtodo.pop() {
        if m >= seen.len() || std::mem::replace(&mut seen[m], true) {
            continue;
        }
        out.metrics.push(m);
        add(metric_uses(&rs.metrics[m]), &mut out, &mut mtodo);
    }
    out
}

/// Most participants or games named in one diagnostic.
const MAX_NAMED: usize = 6;

fn name_some(items: &[String]) -> String {
    let mut s = items
        .iter()
        .take(MAX_NAMED)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > MAX_NAMED {
        s.push_str(&format!(" and {} more", items.len() - MAX_NAMED));
    }
    s
}

fn at_line(line: Option<usize>) -> String {
    line.map(|l| format!(" (line {l})")).unwrap_or_default()
}

/// Compare an event's data with what a ruleset reads. Values the data
/// carries that no loaded ruleset file declares become warnings on
/// `event.warnings` (`tb::data::unread_value`, native files only: TRF and
/// USEBIO name their values themselves); data the ruleset reads that is
/// present on some played games or participants only is an error
/// (`tb::data::partial_data`), whatever the format.
pub fn check_event(event: &mut Event, rs: &Ruleset) -> Result<(), Diag> {
    let ruleset = rs
        .files
        .first()
        .map(|f| f.name.clone())
        .unwrap_or_else(|| "the ruleset".into());
    let used = reachable(rs);
    unread_warnings(event, rs, &ruleset);
    let event: &Event = event;
    let (units, values) = reads_without_default(rs, &used);
    let mut errors: Vec<Diag> = units
        .into_iter()
        .filter_map(|(i, r)| partial_unit(event, rs, &rs.reads[i], r, &ruleset))
        .collect();
    errors.extend(
        values
            .into_iter()
            .filter_map(|(i, r)| partial_value(event, rs, &rs.reads[i], r, &ruleset)),
    );
    if let Some((file, span)) = used.boards {
        errors.extend(partial_boards(event, rs, file, span, &ruleset));
    }
    match errors.len() {
        0 => Ok(()),
        1 => Err(errors.remove(0)),
        n => Err(Diag::many(
            codes::DATA_PARTIAL_DATA,
            format!("the data is partial in {n} ways"),
            errors,
        )),
    }
}

/// Declarations read: (index of the declaration, the read to point at).
type ReadsOf<'a> = Vec<(usize, &'a Read)>;

/// The units (round data) and participant values the ranking reads that
/// declare no default: (index of the declaration, the read to point at),
/// one read per declaration. A unit with a declared default may be on
/// some games only (a knockout's carry-over is on one game of the match).
fn reads_without_default<'a>(rs: &Ruleset, used: &'a Uses) -> (ReadsOf<'a>, ReadsOf<'a>) {
    let mut units: Vec<(usize, &Read)> = Vec::new();
    let mut values: Vec<(usize, &Read)> = Vec::new();
    for r in &used.reads {
        if let Some((i, d)) = decl_of(&rs.reads, r) {
            let list = match d.kind {
                DataKind::Round if d.default.is_none() => &mut units,
                DataKind::Participant if d.default.is_none() => &mut values,
                _ => continue,
            };
            // One read per value; point at `r.imps` rather than `r.imps_against`.
            match list.iter_mut().find(|(j, _)| *j == i) {
                None => list.push((i, r)),
                Some(slot) if *slot.1.name != *d.name && *r.name == *d.name => slot.1 = r,
                Some(_) => {}
            }
        }
    }
    (units, values)
}

/// A unit the ranking reads (declared `d`, read at `r`) that is on some
/// played games but not all: an error naming those that lack it.
fn partial_unit(
    event: &Event,
    rs: &Ruleset,
    d: &DataDecl,
    r: &Read,
    ruleset: &str,
) -> Option<Diag> {
    let Some(u) = event.find_unit(&d.name) else {
        return None; // absent everywhere: the evaluator's missing_data
    };
    let (mut with, mut lacking) = (0usize, Vec::new());
    // Units the games that lack it carry instead (`imp` for `imps`).
    let mut instead: BTreeSet<&str> = BTreeSet::new();
    for p in &event.participants {
        for e in p.entries.iter().filter(|e| e.status.played()) {
            if e.unit(u).is_some() {
                with += 1;
            } else {
                lacking.push(format!("`{}` in round {}", p.id, e.round));
                for (v, _) in e.units() {
                    let other = event.units[*v as usize].as_str();
                    if did_you_mean(other, std::iter::once(d.name.as_str())).is_some() {
                        instead.insert(other);
                    }
                }
            }
        }
    }
    let misspelt = match instead.iter().next() {
        Some(o) => format!("; those games give `{o}`: did you mean `{}` there?", d.name),
        None => String::new(),
    };
    if with > 0 && !lacking.is_empty() {
        return Some(
            Diag::error(
                codes::DATA_PARTIAL_DATA,
                format!(
                    "the unit `{}` is missing on {} of {} played rounds: {}",
                    d.name,
                    lacking.len(),
                    with + lacking.len(),
                    name_some(&lacking)
                ),
            )
            .at(
                &rs.files[r.file],
                r.span,
                format!("{ruleset} reads it here"),
            )
            .with_help(format!(
                "give `{}` on every played game (a bye or an unplayed round may lack it); \
                 a missing one would be read as undefined, or as the `??` default{misspelt}",
                d.name
            )),
        );
    }
    None
}

/// A participant value the ranking reads (declared `d`, read at `r`) that
/// some participants have and others lack: an error naming those.
fn partial_value(
    event: &Event,
    rs: &Ruleset,
    d: &DataDecl,
    r: &Read,
    ruleset: &str,
) -> Option<Diag> {
    let have: Vec<&str> = event
        .participants
        .iter()
        .filter(|p| p.values.contains_key(&d.name))
        .map(|p| p.id.as_str())
        .collect();
    if have.is_empty() {
        return None; // absent everywhere: the evaluator's missing_data
    }
    let lacking: Vec<String> = event
        .participants
        .iter()
        .filter(|p| !p.values.contains_key(&d.name))
        .map(|p| format!("`{}`", p.id))
        .collect();
    if !lacking.is_empty() {
        return Some(
            Diag::error(
                codes::DATA_PARTIAL_DATA,
                format!(
                    "the participant value `{}` is given for {} participants but not for {}",
                    d.name,
                    have.len(),
                    name_some(&lacking)
                ),
            )
            .at(&rs.files[r.file], r.span, format!("{ruleset} reads it here"))
            .with_help(format!(
                "give `{}` in every participant's `values`; the ruleset declares no default for it, \
                 so a missing one would be read as undefined",
                d.name
            )),
        );
    }
    None
}

/// Board results, which the ranking reads (in file `file` at `span`), on
/// some played games but not all: an error naming those that lack them.
fn partial_boards(
    event: &Event,
    rs: &Ruleset,
    file: usize,
    span: Span,
    ruleset: &str,
) -> Option<Diag> {
    let (mut with, mut lacking) = (0usize, Vec::new());
    for p in &event.participants {
        for e in p.entries.iter().filter(|e| e.status.played()) {
            if e.boards().is_empty() {
                lacking.push(format!("`{}` in round {}", p.id, e.round));
            } else {
                with += 1;
            }
        }
    }
    if with > 0 && !lacking.is_empty() {
        return Some(
            Diag::error(
                codes::DATA_PARTIAL_DATA,
                format!(
                    "board results are missing on {} of {} played rounds: {}",
                    lacking.len(),
                    with + lacking.len(),
                    name_some(&lacking)
                ),
            )
            .at(
                &rs.files[file],
                span,
                format!("{ruleset} reads board results here"),
            )
            .with_help(
                "give `boards` for every played game (a bye or an unplayed round may lack them); \
                 a game without them would count as no board results, 0 against every opponent",
            ),
        );
    }
    None
}

/// Warnings for the native file's values that no loaded ruleset file
/// declares. Participant values exist only to be read (a carry-over, a
/// qualification place), so each unread one is reported. An event value
/// may describe the event for its readers (`boards_per_match`), and a game
/// unit is a result in its own right (`vp` next to `imps`): those are
/// reported only when they look like a slip, a misspelling of a value the
/// ruleset reads (`imp` for `imps`) or a value the ruleset reads as another
/// kind.
fn unread_warnings(event: &mut Event, rs: &Ruleset, ruleset: &str) {
    let Some(names) = &event.data_names else {
        return;
    };
    let declared = |k: DataKind| -> Vec<&str> {
        rs.reads
            .iter()
            .filter(|d| d.kind == k)
            .map(|d| d.name.as_str())
            .collect()
    };
    let (rounds, parts, evs) = (
        declared(DataKind::Round),
        declared(DataKind::Participant),
        declared(DataKind::Event),
    );
    let list = |v: &[&str]| {
        if v.is_empty() {
            "none".to_string()
        } else {
            v.join(", ")
        }
    };
    // A name the ruleset reads as another kind of value: say where it belongs.
    let elsewhere = |name: &str, not: DataKind| -> Option<DataKind> {
        rs.reads
            .iter()
            .find(|d| d.kind != not && d.name == name)
            .map(|d| d.kind)
    };
    let mut warnings = Vec::new();
    for (name, (first, line)) in &names.participant {
        if parts.contains(&name.as_str()) {
            continue;
        }
        let hint = match (
            did_you_mean(name, parts.iter().copied()),
            elsewhere(name, DataKind::Participant),
        ) {
            (Some(c), _) => format!("did you mean `{c}`?"),
            (None, Some(k)) => format!("{ruleset} reads `{name}` as {}", what(Some(k))),
            (None, None) => format!("{ruleset} reads the participant values: {}", list(&parts)),
        };
        warnings.push(Warning::new(
            codes::DATA_UNREAD_VALUE,
            format!(
                "the participant value `{name}` (first on participant `{first}`{}) is not read by {ruleset}; {hint}",
                line.map(|l| format!(", line {l}")).unwrap_or_default()
            ),
        ));
    }
    for (name, line) in &names.event {
        if evs.contains(&name.as_str()) {
            continue;
        }
        let hint = match (
            did_you_mean(name, evs.iter().copied()),
            elsewhere(name, DataKind::Event),
        ) {
            (Some(c), _) => format!("did you mean `{c}`?"),
            (None, Some(k)) => format!("{ruleset} reads `{name}` as {}", what(Some(k))),
            // An event value may describe the event for its readers
            // (`boards_per_match`): only a likely slip is reported.
            (None, None) => continue,
        };
        warnings.push(Warning::new(
            codes::DATA_UNREAD_VALUE,
            format!(
                "the event value `{name}`{} is not read by {ruleset}; {hint}",
                at_line(*line)
            ),
        ));
    }
    for (name, line) in &names.units {
        if rounds.contains(&name.as_str()) {
            continue;
        }
        if let Some(c) = did_you_mean(name, rounds.iter().copied()) {
            warnings.push(Warning::new(
                codes::DATA_UNREAD_VALUE,
                format!(
                    "the unit `{name}`{} is not read by {ruleset}; did you mean `{c}`?",
                    at_line(*line)
                ),
            ));
        }
    }
    event.warnings.extend(warnings);
}
