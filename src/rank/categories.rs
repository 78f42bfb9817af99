//! Prize lists: the standings restricted to a category's members.
//!
//! A category (`category "U1600" = rating < 1600`, or `tb eval --category`)
//! is a condition over each participant's data. Its list keeps the
//! overall order by default, the usual rule of prize regulations: the
//! members are placed 1..n as they stand overall, members sharing an
//! overall place share their place in the list, and each keeps its overall
//! rank. `rerank` (`rerank by p`) ranks the members among themselves
//! instead, with the standings procedure (or `p`): tie-breaks computed
//! among a tied group (direct encounter) then see only members, while a
//! participant's own values (Buchholz, opponents' scores) stay those of the
//! whole event.
//!
//! A participant for whom the condition is undefined (an unrated player in
//! `rating < 1600`) is never silently in or out: it is in neither list, and
//! is listed as undecided with the reason, which the CLI turns into the
//! warning `tb::rank::category_undecided`.

use super::{rank, Decided, Options, Standings};
use crate::codes;
use crate::diag::Diag;
use crate::eval::{Env, Evaluator, Value};
use crate::model::{Event, Pid};
use crate::plan::{Category, CategoryOrder, Ruleset};
use std::sync::Arc;

/// Participants a condition is undefined for, each with the reason.
pub type Undecided = Vec<(Pid, String)>;

/// One category's list.
#[derive(Clone, Debug)]
pub struct CategoryList {
    /// Its name (the list's heading).
    pub name: String,
    /// The condition as written.
    pub condition: String,
    /// Article.
    pub cite: Option<String>,
    /// Ranked among its members (`rerank`) rather than in the overall order.
    pub reranked: bool,
    /// The members, best first.
    pub members: Vec<Member>,
    /// Participants the condition is undefined for, with the reason.
    pub undecided: Undecided,
}

/// A member of a category's list.
#[derive(Clone, Debug)]
pub struct Member {
    /// The participant.
    pub pid: Pid,
    /// Its place in the category's list (equal for a shared place).
    pub place: usize,
    /// Its rank in the overall standings.
    pub rank: usize,
    /// Reranked lists: what separated it from the members tied with it.
    pub decided_by: Option<Arc<Decided>>,
    /// Reranked lists: why its place is shared, where the rules could not say.
    pub unresolved: Option<String>,
}

/// Each category of `rs`, in order, with the overall standings `overall`.
/// `opts` are the overall ranking's (the seed for lots, threads).
pub fn lists(
    event: &Event,
    rs: &Ruleset,
    overall: &Standings,
    opts: &Options,
) -> Result<Vec<CategoryList>, Diag> {
    if rs.categories.is_empty() {
        return Ok(Vec::new());
    }
    let mut ev = Evaluator::with_threads(event, rs, 1)?;
    let mut rank_of = vec![0; event.participants.len()];
    for r in &overall.rows {
        rank_of[r.pid] = r.rank;
    }
    let mut out = Vec::new();
    for c in &rs.categories {
        let (members, undecided) = membership(&mut ev, rs, c, overall)?;
        let members = match c.order {
            CategoryOrder::Overall => in_overall_order(&members, &rank_of),
            CategoryOrder::Rerank(procedure) => {
                let opts = Options {
                    among: Some(members),
                    procedure,
                    ..opts.clone()
                };
                let st = rank(event, rs, &opts)?;
                st.rows
                    .iter()
                    .map(|r| Member {
                        pid: r.pid,
                        place: r.rank,
                        rank: rank_of[r.pid],
                        decided_by: r.decided_by.clone(),
                        unresolved: r.unresolved.clone(),
                    })
                    .collect()
            }
        };
        out.push(CategoryList {
            name: c.name.clone(),
            condition: text_of(rs, c),
            cite: c.cite.clone(),
            reranked: c.order != CategoryOrder::Overall,
            members,
            undecided,
        });
    }
    Ok(out)
}

/// The members of `c` in the overall order, and those it is undefined
/// for, with why. A condition that is neither true, false nor undefined
/// (a number) is an error, as a step's `when` is.
fn membership(
    ev: &mut Evaluator,
    rs: &Ruleset,
    c: &Category,
    overall: &Standings,
) -> Result<(Vec<Pid>, Undecided), Diag> {
    let mut members = Vec::new();
    let mut undecided = Vec::new();
    for r in &overall.rows {
        let mut env = Env {
            me: Some(r.pid),
            locals: vec![Value::Undef; c.slots],
            group: None,
            places: None,
        };
        match ev.truthy(&c.cond, &mut env).map_err(|e| e.to_diag(rs))? {
            Some(true) => members.push(r.pid),
            Some(false) => {}
            None => {
                // The cause alone ("Nowak, Ewa (8) has no rating"): a
                // category reads the participant's own data, so the path
                // to it would only name the participant again.
                let why = ev
                    .why_undefined(&c.cond, r.pid, None, c.slots)
                    .map(|(_, cause)| cause)
                    .unwrap_or_else(|| "its value is undefined".into());
                undecided.push((r.pid, why));
            }
        }
    }
    // Undefined for everyone: the data lacks what the condition reads
    // (`sex` in a file that records none), a slip to stop at rather
    // than a warning per participant.
    if members.is_empty() && !undecided.is_empty() && undecided.len() == overall.rows.len() {
        let cause = &undecided[0].1;
        return Err(Diag::error(
            codes::EVAL_MISSING_DATA,
            format!(
                "category {}: the condition is undefined for every participant ({cause})",
                c.name
            ),
        )
        .with_help("the data does not give what the condition reads: check the field's name and the data file, or say how a missing value counts (`x ?? default`, `defined(x)`)"));
    }
    Ok((members, undecided))
}

/// Places 1..n in the overall order: one more than the members ranked
/// strictly better overall, so a shared overall place stays shared.
fn in_overall_order(members: &[Pid], rank_of: &[usize]) -> Vec<Member> {
    let mut out: Vec<Member> = Vec::with_capacity(members.len());
    for (i, &p) in members.iter().enumerate() {
        let rank = rank_of[p];
        let place = match out.last() {
            Some(prev) if prev.rank == rank => prev.place,
            _ => i + 1,
        };
        out.push(Member {
            pid: p,
            place,
            rank,
            decided_by: None,
            unresolved: None,
        });
    }
    out
}

/// The condition's text as written, on one line.
fn text_of(rs: &Ruleset, c: &Category) -> String {
    let text = rs
        .files
        .get(c.cond.file)
        .and_then(|f| f.text.get(c.cond.span.start..c.cond.span.end))
        .unwrap_or("");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}
