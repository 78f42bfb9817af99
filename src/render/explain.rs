//! `tb explain`: the trace told tie by tie, in the regulation's words — the account both the text and the JSON form print.
//!
//! The trace ([`crate::rank::TraceStep`]) is read into [`Account`]: the
//! primary score's groups, then each tie with the steps applied to it (the
//! step's label, its documentation's first sentence, article and
//! direction; each member's value; who was separated and where the rest
//! went), how it ended and the places it gave. `text` prints it for
//! people (`explain_text`), `explain_json` as data. With `--detail`, the
//! parts of each value come from the evaluator's own walk
//! ([`crate::eval::detail`]), asked through [`ExplainOptions::details`].

use super::more::{step_more, text_of};
use super::notes::undefined_reason;
use crate::eval::detail::{first_sentence, Detail};
use crate::eval::Value;
use crate::model::{Event, Pid};
use crate::plan::said::{in_words, Said};
use crate::plan::{PKind, ProcId, Ruleset};
use crate::rank::{HandOff, Outcome, Standings, TraceStep};
use std::collections::HashMap;

/// The parts of each member's value of a step: `(procedure, step, group)`
/// → one [`Detail`] per member of the group, in its order.
pub type DetailFn<'a> = dyn FnMut(ProcId, usize, &[Pid]) -> Vec<Detail> + 'a;

/// The forms of `tb explain`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ExplainFormat {
    /// Text for people.
    #[default]
    Text,
    /// The same account as data (docs/explain.md).
    Json,
}

/// What `tb explain` is asked for.
#[derive(Default)]
pub struct ExplainOptions<'a> {
    /// The participants to follow (every tie when empty).
    pub ids: Vec<Pid>,
    /// The parts of the values (`--detail`): None leaves them out.
    pub details: Option<Box<DetailFn<'a>>>,
}

/// The most participants an account lists one by one in the primary
/// score's groups.
const LIST_FIELD: usize = 64;

/// The explanation of a ranking.
pub struct Account {
    /// The ruleset's title.
    pub title: Option<String>,
    /// The seed lots were drawn with.
    pub lots_seed: Option<u64>,
    /// Each field's first step, which ranks everyone (the primary score).
    pub primaries: Vec<Primary>,
    /// The ties, in the order of the standings.
    pub ties: Vec<Tie>,
    /// The participants asked for (`--ids`); empty: every tie.
    pub ids: Vec<Pid>,
}

/// The first step of a field: the primary score, in groups.
pub struct Primary {
    /// The step.
    pub step: StepWords,
    /// The participants it ranked.
    pub field: usize,
    /// Steps before it that left the whole field level (a two-winner
    /// movement's field, when there is one): label and the shared value.
    pub level_before: Vec<(String, String)>,
    /// Each group of equal score, best first: the value and the members
    /// (all of them up to [`LIST_FIELD`] participants, else only those
    /// asked for with `--ids`, and the ties).
    pub groups: Vec<(String, Vec<Pid>)>,
}

/// A step as the regulation names it (in the JSON account as it is).
#[derive(serde::Serialize)]
pub struct StepWords {
    /// The label (`BH-C1`).
    pub label: String,
    /// The definition's name in words (`opponent scores`), when it differs.
    pub name: Option<String>,
    /// The first sentence of its documentation.
    pub doc: Option<String>,
    /// Article.
    pub cite: Option<String>,
    /// `higher is better` / `lower is better`.
    pub better: Option<&'static str>,
    /// The procedure it belongs to, in words, when not the main one.
    pub procedure: Option<String>,
}

/// A group tied on the primary score, and what broke the tie.
pub struct Tie {
    /// The members.
    pub members: Vec<Pid>,
    /// The primary score they share (None when the whole field is level
    /// and the first step is told as a step of the tie).
    pub on: Option<(String, String)>,
    /// The steps applied, in order.
    pub steps: Vec<Applied>,
    /// The places it gave: (place, shared, member, what decided it).
    pub places: Vec<(usize, bool, Pid, Option<String>)>,
}

/// One step applied to (part of) a tie.
pub struct Applied {
    /// The step (or the procedure's end: `label` says which end).
    pub step: StepWords,
    /// Whether this is the procedure's end.
    pub end: bool,
    /// The members it was applied to.
    pub group: Vec<Pid>,
    /// Each member's value as printed, with why it is undefined and its parts.
    pub values: Vec<Member>,
    /// What it did, in words.
    pub outcome: String,
    /// The order it gave (groups best first), when it separated them.
    pub order: Vec<Vec<Pid>>,
    /// Where each group still level went: (members, in words).
    pub next: Vec<(Vec<Pid>, String)>,
    /// Times the hand-offs applied it again to the same group, with the
    /// same values and no separation (folded into this one).
    pub again: usize,
    /// For a step printed as places (`places`: FIDE DE, EDE), first met by
    /// this group: the places the standings print, where they differ from
    /// the values of this application (after every re-application; 0: not
    /// separated).
    pub printed: Vec<(Pid, String)>,
}

/// A member's value at a step.
pub struct Member {
    /// The participant.
    pub pid: Pid,
    /// The value as printed (`-` where undefined).
    pub text: String,
    /// The exact value (a fraction where it does not terminate).
    pub exact: Option<String>,
    /// Why it is undefined.
    pub undefined: Option<String>,
    /// Its parts (`--detail`).
    pub detail: Option<Detail>,
}

/// `tb explain`: the account of every tie (or those of `opts.ids`), as
/// text or, with `json`, as the JSON document.
pub fn explain(
    s: &Standings,
    event: &Event,
    rs: &Ruleset,
    opts: &mut ExplainOptions,
    format: ExplainFormat,
) -> String {
    let a = account(s, event, rs, opts);
    if format == ExplainFormat::Json {
        super::explain_json::explain_json(&a, event)
    } else {
        // For a terminal: no control character of a name or label reaches it.
        crate::escape::visible_owned(super::explain_text::explain_text(&a, event))
    }
}

/// Reads the trace into an [`Account`].
pub fn account(s: &Standings, event: &Event, rs: &Ruleset, opts: &mut ExplainOptions) -> Account {
    let ids = opts.ids.clone();
    // Only the ties explained have their values' parts computed.
    let wanted = |members: &[Pid]| ids.is_empty() || members.iter().any(|p| ids.contains(p));
    let mut primaries = Vec::new();
    let mut ties: Vec<Tie> = Vec::new();
    // Where each participant's tie is, once a primary step has split them.
    let mut tie_of: HashMap<Pid, usize> = HashMap::new();
    let main = s.trace.first().map(|t| t.proc_id);
    let mut places = Printed::new(s);
    let mut level_before = Vec::new();
    for (i, t) in s.trace.iter().enumerate() {
        let printed = places.printed(t);
        let first = t.group.first().copied();
        let at = first.and_then(|p| tie_of.get(&p).copied());
        let Some(k) = at.filter(|&k| t.group.iter().all(|p| tie_of.get(p) == Some(&k))) else {
            // A field's first step: the primary score.
            let step = words(rs, t, main);
            match &t.outcome {
                Outcome::Split(parts) => {
                    let mut groups = Vec::new();
                    for part in parts {
                        let v = value_text(t, part[0]);
                        let shown = t.group.len() <= LIST_FIELD
                            || part.len() > 1
                            || part.iter().any(|p| ids.contains(p));
                        if shown {
                            groups.push((v.clone(), part.clone()));
                        }
                        if part.len() > 1 {
                            for &p in part {
                                tie_of.insert(p, ties.len());
                            }
                            // Where the group went, when not simply on.
                            let v = match t.handoffs.iter().find(|(g, _)| g == part) {
                                Some((g, h @ (HandOff::Procedure(_) | HandOff::Restart(_)))) => {
                                    format!("{v}; {}", handoff_words(rs, h, g.len()))
                                }
                                _ => v,
                            };
                            ties.push(Tie {
                                members: part.clone(),
                                on: Some((t.criterion.clone(), v)),
                                steps: Vec::new(),
                                places: Vec::new(),
                            });
                        }
                    }
                    primaries.push(Primary {
                        step,
                        field: t.group.len(),
                        level_before: std::mem::take(&mut level_before),
                        groups,
                    });
                }
                // A step that leaves the whole field level and goes on to
                // the next step, which splits it: the field is ranked there.
                Outcome::NotSplit
                    if t.handoffs.is_empty()
                        && s.trace.get(i + 1).is_some_and(|n| {
                            n.proc_id == t.proc_id
                                && n.step.is_some()
                                && n.step == t.step.map(|k| k + 1)
                                && matches!(n.outcome, Outcome::Split(_))
                                && same_members(&n.group, &t.group)
                        }) =>
                {
                    level_before.push((t.criterion.clone(), value_text(t, t.group[0])));
                }
                _ => {
                    // The whole field is level: its first step is the tie's.
                    for &p in &t.group {
                        tie_of.insert(p, ties.len());
                    }
                    let mut a = applied(s, event, rs, t, main, opts, wanted(&t.group));
                    a.printed = printed;
                    ties.push(Tie {
                        members: t.group.clone(),
                        on: None,
                        steps: vec![a],
                        places: Vec::new(),
                    });
                }
            }
            continue;
        };
        let mut a = applied(s, event, rs, t, main, opts, wanted(&ties[k].members));
        a.printed = printed;
        let steps = &mut ties[k].steps;
        // A hand-off re-applying a step to a group it left whole, with the
        // same values: said once, with a count.
        if let Some(last) = steps.last_mut() {
            let same = !a.end
                && a.printed.is_empty()
                && a.order.is_empty()
                && last.order.is_empty()
                && last.step.label == a.step.label
                && same_members(&last.group, &a.group)
                && last
                    .values
                    .iter()
                    .map(|m| (m.pid, &m.text))
                    .collect::<Vec<_>>()
                    == a.values
                        .iter()
                        .map(|m| (m.pid, &m.text))
                        .collect::<Vec<_>>();
            if same {
                last.again += 1;
                last.next = a.next;
                last.outcome = a.outcome;
                continue;
            }
        }
        steps.push(a);
    }
    // The places each tie gave.
    let row_of: HashMap<Pid, usize> = s.rows.iter().enumerate().map(|(i, r)| (r.pid, i)).collect();
    for tie in &mut ties {
        let mut rows: Vec<usize> = tie
            .members
            .iter()
            .filter_map(|p| row_of.get(p).copied())
            .collect();
        rows.sort_unstable();
        for &i in &rows {
            let r = &s.rows[i];
            let shared = rows.iter().filter(|&&j| s.rows[j].rank == r.rank).count() > 1;
            let why = match (&r.unresolved, &r.decided_by) {
                (Some(u), _) => Some(format!("unresolved: {u}")),
                (None, Some(d)) if !shared => Some(match &d.cite {
                    Some(c) => format!("{} ({c})", d.criterion),
                    None => d.criterion.clone(),
                }),
                _ => None,
            };
            tie.places.push((r.rank, shared, r.pid, why));
        }
    }
    ties.retain(|t| wanted(&t.members));
    Account {
        title: rs.title.clone(),
        lots_seed: s.lots_seed,
        primaries,
        ties,
        ids,
    }
}

/// The columns printed as places (FIDE DE, EDE, TBR, BBE): where such a
/// step is first reached by a tied group, the places the standings print
/// for its members, so that the values compared in each application and
/// the place after them all read together.
struct Printed<'s> {
    s: &'s Standings,
    /// Column of each such label.
    placed: HashMap<&'s str, usize>,
    /// Row of each participant.
    row_of: HashMap<Pid, usize>,
    /// Per label: each participant's entry group (numbered), to tell a
    /// group's first application from a re-application to part of it.
    entries: HashMap<&'s str, (HashMap<Pid, usize>, usize)>,
}

impl<'s> Printed<'s> {
    fn new(s: &'s Standings) -> Printed<'s> {
        let placed: HashMap<&str, usize> = s
            .columns
            .iter()
            .enumerate()
            .filter(|(_, c)| c.places)
            .map(|(i, c)| (c.label.as_str(), i))
            .collect();
        let row_of = if placed.is_empty() {
            HashMap::new()
        } else {
            s.rows.iter().enumerate().map(|(i, r)| (r.pid, i)).collect()
        };
        Printed {
            s,
            placed,
            row_of,
            entries: HashMap::new(),
        }
    }

    /// The printed places of `t`'s group, where `t` is the group's first
    /// application of such a step and they differ from its values.
    fn printed(&mut self, t: &'s TraceStep) -> Vec<(Pid, String)> {
        let Some(&ci) = self.placed.get(t.criterion.as_str()) else {
            return Vec::new();
        };
        let (seen, next) = self.entries.entry(t.criterion.as_str()).or_default();
        let first = t.group.first().and_then(|p| seen.get(p)).copied();
        if first.is_some() && t.group.iter().all(|p| seen.get(p) == first.as_ref()) {
            return Vec::new();
        }
        for &p in &t.group {
            seen.insert(p, *next);
        }
        *next += 1;
        let s = self.s;
        let cell = |p: &Pid| self.row_of.get(p).and_then(|&r| s.rows[r].values.get(ci));
        let differs = t.values.iter().any(|(p, v)| {
            cell(p).is_some_and(|shown| {
                crate::eval::compare_values(shown, v) != std::cmp::Ordering::Equal
            })
        });
        if !differs {
            return Vec::new();
        }
        t.group
            .iter()
            .map(|p| {
                let text = cell(p)
                    .and_then(|v| v.display(s.columns[ci].decimals))
                    .unwrap_or_else(|| "-".into());
                (*p, text)
            })
            .collect()
    }
}

fn same_members(a: &[Pid], b: &[Pid]) -> bool {
    a.len() == b.len() && a.iter().all(|p| b.contains(p))
}

/// A member's value at step `t`, as printed.
fn value_text(t: &TraceStep, p: Pid) -> String {
    let more = step_more(t);
    t.values
        .iter()
        .find(|(q, _)| *q == p)
        .and_then(|(q, v)| text_of(v, t.decimals, more.get(q).copied()))
        .unwrap_or_else(|| "-".into())
}

/// A procedure in words: its documentation's first sentence where short,
/// else its name as written (a procedure a list of codes copied is named
/// `LIST_K_NAME_I`: the `NAME` its code declares).
pub(super) fn procedure_words(rs: &Ruleset, id: ProcId) -> String {
    let p = &rs.procs[id];
    // A short sentence that names it (not a code's heading such as `EDET/P:`).
    let named = |d: &String| d.chars().count() <= 60 && d.contains(' ') && !d.ends_with(':');
    if let Some(d) = first_sentence(&p.doc).filter(named) {
        return d.trim_end_matches('.').to_string();
    }
    let mut name = p.name.as_str();
    for other in &rs.procs {
        let Some(rest) = name
            .strip_prefix(other.name.as_str())
            .and_then(|r| r.strip_prefix('_'))
        else {
            continue;
        };
        let digits = rest.find(|c: char| !c.is_ascii_digit()).unwrap_or(0);
        if digits == 0 || !rest[digits..].starts_with('_') {
            continue;
        }
        let inner = &rest[digits + 1..];
        if let Some(cut) = inner.rfind('_') {
            if cut > 0 && inner[cut + 1..].chars().all(|c| c.is_ascii_digit()) {
                name = &inner[..cut];
                break;
            }
        }
    }
    in_words(name)
}

/// Step `t` in the regulation's words.
fn words(rs: &Ruleset, t: &TraceStep, main: Option<ProcId>) -> StepWords {
    let procedure = (Some(t.proc_id) != main).then(|| procedure_words(rs, t.proc_id));
    let Some(k) = t.step else {
        return StepWords {
            label: t.criterion.clone(),
            name: None,
            doc: None,
            cite: t.cite.clone(),
            better: None,
            procedure,
        };
    };
    let step = &rs.procs[t.proc_id].steps[k];
    // The definition the step names, or the first one its expression uses.
    let metric = first_metric(&step.expr).map(|id| &rs.metrics[id]);
    let name = match &step.expr.kind {
        // With its arguments said (EDE's passes on match points and on
        // game points differ only there: "EDE with GP").
        PKind::Metric(_, None, args) if !args.is_empty() => {
            Some(Said::new(rs, None).expr(&step.expr))
        }
        _ => metric.map(|m| in_words(&m.name)),
    }
    // Not when it only repeats the label ("tie break points" beside
    // "Tie-break points").
    .filter(|n| {
        let bare = |s: &str| -> String {
            s.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect()
        };
        bare(n) != bare(&t.criterion)
    });
    let doc = first_sentence(&step.doc).or_else(|| metric.and_then(|m| first_sentence(&m.doc)));
    StepWords {
        label: t.criterion.clone(),
        name,
        doc,
        cite: t.cite.clone(),
        better: t.dir.map(|d| d.phrase()),
        procedure,
    }
}

/// The first metric an expression uses, depth first.
fn first_metric(e: &crate::plan::PExpr) -> Option<usize> {
    match &e.kind {
        PKind::Metric(id, _, _) => Some(*id),
        PKind::Call(_, args) => args.iter().find_map(first_metric),
        PKind::Binary(_, a, b) => first_metric(a).or_else(|| first_metric(b)),
        PKind::Unary(_, x) | PKind::Table(_, x) => first_metric(x),
        PKind::If(c, a, b) => first_metric(c)
            .or_else(|| first_metric(a))
            .or_else(|| first_metric(b)),
        PKind::Agg(_, g) | PKind::List(g) => first_metric(&g.elem),
        _ => None,
    }
}

/// Step `t` as applied to a tie.
fn applied(
    s: &Standings,
    event: &Event,
    rs: &Ruleset,
    t: &TraceStep,
    main: Option<ProcId>,
    opts: &mut ExplainOptions,
    detailed: bool,
) -> Applied {
    let more = step_more(t);
    let mut details = match (&mut opts.details, t.step, &t.outcome) {
        (Some(f), Some(k), Outcome::NotSplit | Outcome::Split(_)) if detailed => {
            f(t.proc_id, k, &t.group).into_iter().map(Some).collect()
        }
        _ => Vec::new(),
    };
    details.resize_with(t.values.len(), || None);
    let values = t
        .values
        .iter()
        .zip(details)
        .map(|((p, v), detail)| Member {
            pid: *p,
            text: text_of(v, t.decimals, more.get(p).copied()).unwrap_or_else(|| "-".into()),
            exact: match v {
                Value::Num(n) => Some(n.to_string()),
                _ => None,
            },
            undefined: (*v == Value::Undef)
                .then(|| undefined_reason(s, *p, &t.criterion).map(str::to_string))
                .flatten(),
            detail,
        })
        .collect();
    let who = |g: &[Pid]| names(event, g);
    let proc_ = &rs.procs[t.proc_id];
    let next_step = t.step.map(|k| k + 1 < proc_.steps.len());
    let (outcome, order, next) = match (&t.outcome, t.step) {
        (Outcome::Skipped, _) => (
            "its condition does not hold for them: skipped; the next step decides".to_string(),
            Vec::new(),
            Vec::new(),
        ),
        (Outcome::NotSplit, None) => (end_words(&t.criterion), Vec::new(), Vec::new()),
        (Outcome::Split(parts), None) => (
            format!("{}: {}", end_words(&t.criterion), ordered(event, parts)),
            parts.clone(),
            Vec::new(),
        ),
        (Outcome::NotSplit, Some(_)) => {
            let rest = match t.handoffs.first() {
                Some((g, h)) => handoff_words(rs, h, g.len()),
                None if next_step == Some(true) => "the next step decides".to_string(),
                None => "no step is left".to_string(),
            };
            (format!("still level: {rest}"), Vec::new(), Vec::new())
        }
        (Outcome::Split(parts), Some(_)) => {
            let next = t
                .handoffs
                .iter()
                .map(|(g, h)| (g.clone(), handoff_words(rs, h, g.len())))
                .collect::<Vec<_>>();
            let mut said = ordered(event, parts);
            for (g, w) in &next {
                said.push_str(&format!("; {} are still level: {w}", who(g)));
            }
            (format!("separated: {said}"), parts.clone(), next)
        }
    };
    Applied {
        step: words(rs, t, main),
        end: t.step.is_none(),
        group: t.group.clone(),
        values,
        outcome,
        order,
        next,
        again: 0,
        printed: Vec::new(),
    }
}

/// Names joined as a sentence lists them: `A, B and C`.
pub(super) fn names(event: &Event, g: &[Pid]) -> String {
    let n: Vec<String> = g.iter().map(|&p| name(event, p)).collect();
    match n.len() {
        0 => String::new(),
        1 => n[0].clone(),
        k => format!("{} and {}", n[..k - 1].join(", "), n[k - 1]),
    }
}

/// A participant as the output names it: `Name (id)`.
pub(super) fn name(event: &Event, p: Pid) -> String {
    let q = &event.participants[p];
    format!("{} ({})", q.name, q.id)
}

/// An order of groups: `A ahead of B and C (level)`.
fn ordered(event: &Event, parts: &[Vec<Pid>]) -> String {
    parts
        .iter()
        .map(|g| {
            if g.len() > 1 {
                format!("{} (level)", names(event, g))
            } else {
                names(event, g)
            }
        })
        .collect::<Vec<_>>()
        .join(" ahead of ")
}

/// Where a hand-off sends a group of `n` still level, in words.
fn handoff_words(rs: &Ruleset, h: &HandOff, n: usize) -> String {
    match h {
        HandOff::Continue => "the next step decides".to_string(),
        HandOff::Repeat => "this step is applied again among them".to_string(),
        HandOff::Restart(_) => "the steps start again from the first, among them".to_string(),
        HandOff::Procedure(name) => {
            let words = rs
                .procs
                .iter()
                .position(|p| &p.name == name)
                .map_or_else(|| in_words(name), |id| procedure_words(rs, id));
            format!("they go to {words} ({n} tied)")
        }
    }
}

/// A procedure's end (the trace's text for it), in words.
fn end_words(what: &str) -> String {
    if what == "shared place" {
        "the steps are exhausted: they share the place".to_string()
    } else if what == "drawing of lots (give --seed to draw)" {
        "unresolved: drawing of lots decides (give --seed to draw)".to_string()
    } else if let Some(r) = what.strip_prefix("unresolved: ") {
        format!("unresolved: {r}")
    } else if let Some(r) = what.strip_prefix("decided in the data: ") {
        format!("decided as the data records: {r}")
    } else if what.starts_with("drawing of lots (seed ") {
        format!(
            "drawn by lots, {}",
            &what["drawing of lots (".len()..what.len() - 1]
        )
    } else {
        what.to_string()
    }
}
