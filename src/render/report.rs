//! The report: everything an output of `tb eval` shows, as one typed value that `--format json` serialises as it is (serde) and every other format reads.
//!
//! Its fields are the JSON document's members, in the document's order
//! (`schema/eval.schema.json` describes them; `tests/explain_schema.rs`
//! checks the document of every example against it). It borrows its text
//! from the standings, the event, the plan and [`Meta`], so building one
//! copies no name; a row's values are not turned into text until a format
//! writes them (at 10,000 rows a `String` per cell costs more than the
//! evaluation that produced the value).

use super::more::{table_more, text_of, More};
use super::{is_shared, shown, Meta};
use crate::eval::Value;
use crate::model::Event;
use crate::num::{Exact, Fixed};
use crate::plan::Ruleset;
use crate::rank::categories::{CategoryList, Member};
use crate::rank::{Decided, Standings};
use crate::syntax::ast::Direction;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use std::collections::HashMap;
use std::rc::Rc;

/// Standings as every format shows them (see the module's documentation).
#[derive(Serialize)]
pub struct Report<'a> {
    /// The ruleset ranked by.
    pub ruleset: RulesetInfo<'a>,
    /// The event ranked.
    pub event: EventInfo<'a>,
    /// The criteria, one per step, in order.
    pub columns: Vec<ColumnInfo<'a>>,
    /// One place per participant, in the final order.
    pub standings: Vec<Place<'a>>,
    /// What the user should know about the run (edition chosen, ...).
    pub notes: &'a [String],
    /// What the loader found odd in the event.
    pub warnings: Vec<&'a str>,
    /// The seed of the lots drawn, if any.
    pub lots_seed: Option<u64>,
    /// The undefined values met, with their reasons.
    pub undefined: Vec<UndefinedValue<'a>>,
    /// Undefined values counted but not listed.
    pub undefined_more: usize,
    /// Category lists (prize lists); the member is absent without any.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub categories: Vec<CategoryReport<'a>>,
    /// What the report was made from: the text formats lay out more than
    /// the data (which columns a tie reached, the criteria's notes).
    #[serde(skip)]
    pub from: Inputs<'a>,
}

/// The inputs of a [`Report`].
#[derive(Clone, Copy)]
pub struct Inputs<'a> {
    /// The ranking.
    pub standings: &'a Standings,
    /// The event.
    pub event: &'a Event,
    /// The ruleset.
    pub rs: &'a Ruleset,
    /// What the user named.
    pub meta: &'a Meta,
    /// The category lists.
    pub lists: &'a [CategoryList],
}

/// The ruleset's names.
#[derive(Serialize)]
pub struct RulesetInfo<'a> {
    /// As the user named it.
    pub name: &'a str,
    /// Its title.
    pub title: Option<&'a str>,
    /// The regulation it follows.
    pub source: Option<&'a str>,
    /// The edition chosen.
    pub edition: Option<&'a str>,
}

/// The event's size.
#[derive(Serialize)]
pub struct EventInfo<'a> {
    /// Its name.
    pub name: &'a str,
    /// How many take part.
    pub participants: usize,
    /// Rounds played.
    pub rounds: u32,
    /// Standings before the event's end: after this round ...
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after_round: Option<u32>,
    /// ... of this many.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheduled_rounds: Option<u32>,
}

/// A criterion.
#[derive(Serialize)]
pub struct ColumnInfo<'a> {
    /// Its label.
    pub label: &'a str,
    /// Its article.
    pub cite: Option<&'a str>,
    /// `higher` or `lower`: which values it ranks first.
    pub better: &'static str,
    /// Written `reversed`.
    pub reversed: bool,
}

/// A participant's place and values.
#[derive(Serialize)]
pub struct Place<'a> {
    /// The place (equal where shared).
    pub rank: usize,
    /// The participant's id.
    pub id: &'a str,
    /// The participant's name.
    pub name: &'a str,
    /// Whether the place is shared.
    pub shared: bool,
    /// The values as printed, by label.
    pub values: Values<'a>,
    /// The values exactly, by label.
    pub exact: ExactValues<'a>,
    /// What separated it from those tied with it.
    #[serde(serialize_with = "decided_by")]
    pub decided_by: Option<&'a Decided>,
    /// Why the place is shared where the rules could not break the tie.
    pub unresolved: Option<&'a str>,
    /// The round after which the participant withdrew (the text formats
    /// mark the name; the JSON has it in the event, not here).
    #[serde(skip)]
    pub withdrawn_after: Option<u32>,
}

/// A row's values, each as printed (with more digits where its column's
/// decimals would print alike two values a step told apart).
#[derive(Clone)]
pub struct Values<'a> {
    /// The row's index in the standings.
    pub row: usize,
    /// One per column.
    pub values: &'a [Value],
    layout: Rc<Layout<'a>>,
}

/// A row's values exactly (`133/300`, `infinity`).
pub struct ExactValues<'a>(pub Values<'a>);

/// What every row's values share: the columns' keys and decimals, and the
/// cells printed with more digits.
struct Layout<'a> {
    /// The JSON keys: each label once, where it first appears, naming its
    /// last column (what inserting the columns into a map in order gives).
    keys: Vec<(&'a str, usize)>,
    decimals: Vec<Option<u32>>,
    more: HashMap<(usize, usize), More>,
}

/// An undefined value and why.
#[derive(Serialize)]
pub struct UndefinedValue<'a> {
    /// The participant's id.
    pub id: &'a str,
    /// The participant's name.
    pub name: &'a str,
    /// The step.
    pub criterion: &'a str,
    /// Its article.
    pub cite: Option<&'a str>,
    /// Why, in words.
    pub reason: Option<&'a str>,
    /// The cause alone.
    pub cause: Option<&'a str>,
    /// The missing value decided the place.
    pub decided: bool,
}

/// A category's list.
#[derive(Serialize)]
pub struct CategoryReport<'a> {
    /// Its name.
    pub name: &'a str,
    /// Its condition as written.
    pub expression: &'a str,
    /// Its article.
    pub cite: Option<&'a str>,
    /// `rerank` (ranked among its members) or `overall`.
    pub order: &'static str,
    /// Its members, best first.
    pub members: Vec<CategoryPlace<'a>>,
    /// Those the condition is undefined for.
    pub undecided: Vec<Undecided<'a>>,
}

/// A member of a category's list.
#[derive(Serialize)]
pub struct CategoryPlace<'a> {
    /// Its place in the list.
    pub place: usize,
    /// Its overall rank.
    pub rank: usize,
    /// The participant's id.
    pub id: &'a str,
    /// The participant's name.
    pub name: &'a str,
    /// Whether it shares its place in the list.
    pub shared: bool,
    /// Its value of the first criterion, as `values` prints it.
    pub value: Option<String>,
    /// Reranked lists: what separated it.
    #[serde(serialize_with = "decided_by")]
    pub decided_by: Option<&'a Decided>,
    /// Reranked lists: why its place is shared.
    pub unresolved: Option<&'a str>,
}

/// A participant neither in nor out of a category.
#[derive(Serialize)]
pub struct Undecided<'a> {
    /// The participant's id.
    pub id: &'a str,
    /// The participant's name.
    pub name: &'a str,
    /// Why the condition is undefined.
    pub reason: &'a str,
}

impl<'a> Report<'a> {
    /// The report of standings `s` (with category `lists`, if any).
    pub fn new(
        s: &'a Standings,
        event: &'a Event,
        rs: &'a Ruleset,
        meta: &'a Meta,
        lists: &'a [CategoryList],
    ) -> Report<'a> {
        let mut keys: Vec<(&str, usize)> = Vec::new();
        for (ci, c) in s.columns.iter().enumerate() {
            match keys.iter_mut().find(|(k, _)| *k == c.label) {
                Some(found) => found.1 = ci,
                None => keys.push((&c.label, ci)),
            }
        }
        let layout = Rc::new(Layout {
            keys,
            decimals: s.columns.iter().map(|c| c.decimals).collect(),
            more: table_more(s),
        });
        let standings = s
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let p = &event.participants[r.pid];
                let values = Values {
                    row: i,
                    values: &r.values,
                    layout: Rc::clone(&layout),
                };
                Place {
                    rank: r.rank,
                    id: &p.id,
                    name: &p.name,
                    shared: is_shared(s, i),
                    exact: ExactValues(values.clone()),
                    values,
                    decided_by: r.decided_by.as_deref(),
                    unresolved: r.unresolved.as_deref(),
                    withdrawn_after: p.withdrawn_after,
                }
            })
            .collect();
        let (after_round, scheduled_rounds) = event.stands_after().unzip();
        Report {
            ruleset: RulesetInfo {
                name: &meta.ruleset,
                title: rs.title.as_deref(),
                source: rs.source_doc.as_deref(),
                edition: rs.edition.as_deref(),
            },
            event: EventInfo {
                name: &event.name,
                participants: event.participants.len(),
                rounds: event.rounds,
                after_round,
                scheduled_rounds,
            },
            columns: s
                .columns
                .iter()
                .map(|c| ColumnInfo {
                    label: &c.label,
                    cite: c.cite.as_deref(),
                    better: better(c.dir),
                    reversed: c.reversed,
                })
                .collect(),
            standings,
            notes: &meta.notes,
            warnings: event.warnings.iter().map(|w| w.message.as_str()).collect(),
            lots_seed: s.lots_seed,
            undefined: s
                .undefined
                .iter()
                .map(|u| {
                    let p = &event.participants[u.pid];
                    UndefinedValue {
                        id: &p.id,
                        name: &p.name,
                        criterion: &u.criterion,
                        cite: u.cite.as_deref(),
                        reason: u.reason.as_deref(),
                        cause: u.cause.as_deref(),
                        decided: u.decided,
                    }
                })
                .collect(),
            undefined_more: s.undefined_more,
            categories: lists.iter().map(|l| category(l, s, event)).collect(),
            from: Inputs {
                standings: s,
                event,
                rs,
                meta,
                lists,
            },
        }
    }
}

impl Place<'_> {
    /// What decided the place, as the table, CSV, Markdown and HTML say
    /// it, in pieces to be joined.
    pub fn decided(&self) -> [&str; 4] {
        if let Some(u) = self.unresolved {
            return ["unresolved: ", u, "", ""];
        }
        if self.shared {
            return ["shared", "", "", ""];
        }
        match self.decided_by {
            Some(d) => match &d.cite {
                Some(c) => [&d.criterion, " (", c, ")"],
                None => [&d.criterion, "", "", ""],
            },
            None => ["", "", "", ""],
        }
    }
}

impl Values<'_> {
    /// Column `ci`'s value as printed; None where it shows nothing.
    pub fn text(&self, ci: usize) -> Option<String> {
        let v = self.values.get(ci)?;
        text_of(v, self.layout.decimals[ci], self.more(ci))
    }

    /// Column `ci`'s decimals.
    pub fn decimals(&self, ci: usize) -> Option<u32> {
        self.layout.decimals[ci]
    }

    /// The cell's more digits, if any.
    pub(super) fn more(&self, ci: usize) -> Option<More> {
        if self.layout.more.is_empty() {
            return None;
        }
        self.layout.more.get(&(self.row, ci)).copied()
    }

    /// The JSON object of the values, each written by `write`.
    fn serialize_with<S: Serializer>(
        &self,
        serializer: S,
        write: impl Fn(&Values, &Value, usize) -> Shown,
    ) -> Result<S::Ok, S::Error> {
        let keys = &self.layout.keys;
        let present = keys.iter().filter(|(_, ci)| *ci < self.values.len());
        let mut map = serializer.serialize_map(Some(present.clone().count()))?;
        for &(key, ci) in present {
            map.serialize_entry(key, &write(self, &self.values[ci], ci))?;
        }
        map.end()
    }
}

/// One JSON entry of `values` or `exact`: a string or null.
enum Shown {
    Null,
    Fixed(Fixed),
    Exact(crate::num::Num),
    Text(String),
    Str(&'static str),
}

impl Serialize for Shown {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // Numbers are printed on the stack, no `String` per number.
        let mut buf = [0u8; 40];
        match self {
            Shown::Null => serializer.serialize_none(),
            Shown::Fixed(f) => serializer.serialize_str(f.text(&mut buf)),
            Shown::Exact(n) => match n.exact() {
                Some(Exact::Fraction { neg, num, den }) => {
                    let mut text = [0u8; 84];
                    let mut len = 0;
                    let mut put = |s: &[u8]| {
                        text[len..len + s.len()].copy_from_slice(s);
                        len += s.len();
                    };
                    if neg {
                        put(b"-");
                    }
                    put(Fixed::int(num).text(&mut buf).as_bytes());
                    put(b"/");
                    put(Fixed::int(den).text(&mut buf).as_bytes());
                    // Digits, `-` and `/`: always UTF-8.
                    serializer.serialize_str(std::str::from_utf8(&text[..len]).unwrap_or_default())
                }
                Some(Exact::Decimal(d)) => serializer.serialize_str(d.text(&mut buf)),
                None => serializer.collect_str(n),
            },
            Shown::Text(t) => serializer.serialize_str(t),
            Shown::Str(t) => serializer.serialize_str(t),
        }
    }
}

impl Serialize for Values<'_> {
    /// Decimal strings or null, nothing else (the contract), so an
    /// infinite quotient is null here (and "infinity" in `exact`).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.serialize_with(serializer, |this, v, ci| {
            let decimals = this.layout.decimals[ci];
            if let Some(m) = this.more(ci) {
                return text_of(v, decimals, Some(m)).map_or(Shown::Null, Shown::Text);
            }
            match v {
                Value::Inf => Shown::Null,
                Value::Num(n) => match shown(*n, decimals) {
                    Some((f, _)) => Shown::Fixed(f),
                    None => v.display(decimals).map_or(Shown::Null, Shown::Text),
                },
                _ => v.display(decimals).map_or(Shown::Null, Shown::Text),
            }
        })
    }
}

impl Serialize for ExactValues<'_> {
    /// The number's exact decimal or fraction, "infinity", or null where
    /// undefined.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_with(serializer, |_, v, _| match v {
            Value::Num(n) => Shown::Exact(*n),
            Value::Inf => Shown::Str("infinity"),
            Value::Undef => Shown::Null,
            other => other.display(None).map_or(Shown::Null, Shown::Text),
        })
    }
}

/// What decided a place, as `{procedure, criterion, cite}` or null.
fn decided_by<S: Serializer>(d: &Option<&Decided>, serializer: S) -> Result<S::Ok, S::Error> {
    #[derive(Serialize)]
    struct DecidedBy<'a> {
        procedure: &'a str,
        criterion: &'a str,
        cite: Option<&'a str>,
    }
    d.map(|d| DecidedBy {
        procedure: &d.procedure,
        criterion: &d.criterion,
        cite: d.cite.as_deref(),
    })
    .serialize(serializer)
}

/// `higher` or `lower`: which values a column ranks first.
fn better(d: Direction) -> &'static str {
    match d {
        Direction::Desc => "higher",
        Direction::Asc => "lower",
    }
}

/// A category's list as the report holds it.
fn category<'a>(l: &'a CategoryList, s: &'a Standings, event: &'a Event) -> CategoryReport<'a> {
    let mut row_of = vec![usize::MAX; event.participants.len()];
    for (i, r) in s.rows.iter().enumerate() {
        row_of[r.pid] = i;
    }
    CategoryReport {
        name: &l.name,
        expression: &l.condition,
        cite: l.cite.as_deref(),
        order: if l.reranked { "rerank" } else { "overall" },
        members: l
            .members
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let p = &event.participants[m.pid];
                CategoryPlace {
                    place: m.place,
                    rank: m.rank,
                    id: &p.id,
                    name: &p.name,
                    shared: super::categories::shared_in(&l.members, i),
                    value: first_value(s, &row_of, m),
                    decided_by: m.decided_by.as_deref(),
                    unresolved: m.unresolved.as_deref(),
                }
            })
            .collect(),
        undecided: l
            .undecided
            .iter()
            .map(|(p, why)| {
                let q = &event.participants[*p];
                Undecided {
                    id: &q.id,
                    name: &q.name,
                    reason: why,
                }
            })
            .collect(),
    }
}

/// A member's value of the first criterion, as `values` gives it.
fn first_value(s: &Standings, row_of: &[usize], m: &Member) -> Option<String> {
    let row = s.rows.get(*row_of.get(m.pid)?)?;
    let c = s.columns.first()?;
    match row.values.first()? {
        Value::Num(n) => shown(*n, c.decimals).map(|(f, _)| f.to_string()),
        v => v.display(c.decimals),
    }
}
