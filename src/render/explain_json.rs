//! `tb explain --format json`: the [`Account`] as data (documented in docs/explain.md, schema in schema/explain.schema.json), typed and serialised by serde_json.

use super::explain::{Account, Applied, Member, StepWords, Tie};
use crate::eval::detail::{Detail, How};
use crate::model::{Event, Pid};
use serde::Serialize;

/// The account as a JSON document, pretty-printed.
pub fn explain_json(a: &Account, event: &Event) -> String {
    let w = Names(event);
    let doc = Doc {
        title: a.title.as_deref(),
        lots_seed: a.lots_seed,
        primary: a
            .primaries
            .iter()
            .map(|p| PrimaryDoc {
                step: &p.step,
                field: p.field,
                level_before: p.level_before.iter().map(Level::of).collect(),
                groups: p
                    .groups
                    .iter()
                    .map(|(value, g)| Group {
                        value,
                        members: w.many(g),
                    })
                    .collect(),
            })
            .collect(),
        ties: a.ties.iter().map(|t| TieDoc::of(t, &w)).collect(),
    };
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

#[derive(Serialize)]
struct Doc<'a> {
    title: Option<&'a str>,
    lots_seed: Option<u64>,
    primary: Vec<PrimaryDoc<'a>>,
    ties: Vec<TieDoc<'a>>,
}

/// A participant, by id and name.
#[derive(Serialize)]
struct Who<'a> {
    id: &'a str,
    name: &'a str,
}

/// Who is who in the event.
struct Names<'a>(&'a Event);

impl<'a> Names<'a> {
    fn one(&self, p: Pid) -> Who<'a> {
        let q = &self.0.participants[p];
        Who {
            id: &q.id,
            name: &q.name,
        }
    }

    fn many(&self, g: &[Pid]) -> Vec<Who<'a>> {
        g.iter().map(|&p| self.one(p)).collect()
    }
}

#[derive(Serialize)]
struct PrimaryDoc<'a> {
    step: &'a StepWords,
    field: usize,
    level_before: Vec<Level<'a>>,
    groups: Vec<Group<'a>>,
}

/// A criterion's label and a value of it.
#[derive(Serialize)]
struct Level<'a> {
    label: &'a str,
    value: &'a str,
}

impl<'a> Level<'a> {
    fn of((label, value): &'a (String, String)) -> Level<'a> {
        Level { label, value }
    }
}

#[derive(Serialize)]
struct Group<'a> {
    value: &'a str,
    members: Vec<Who<'a>>,
}

#[derive(Serialize)]
struct TieDoc<'a> {
    members: Vec<Who<'a>>,
    level_on: Option<Level<'a>>,
    steps: Vec<AppliedDoc<'a>>,
    places: Vec<PlaceDoc<'a>>,
}

impl<'a> TieDoc<'a> {
    fn of(t: &'a Tie, w: &Names<'a>) -> TieDoc<'a> {
        TieDoc {
            members: w.many(&t.members),
            level_on: t.on.as_ref().map(Level::of),
            steps: t.steps.iter().map(|s| AppliedDoc::of(s, w)).collect(),
            places: t
                .places
                .iter()
                .map(|(place, shared, p, why)| PlaceDoc {
                    place: *place,
                    shared: *shared,
                    participant: w.one(*p),
                    decided_by: why.as_deref(),
                })
                .collect(),
        }
    }
}

#[derive(Serialize)]
struct PlaceDoc<'a> {
    place: usize,
    shared: bool,
    participant: Who<'a>,
    decided_by: Option<&'a str>,
}

#[derive(Serialize)]
struct AppliedDoc<'a> {
    step: &'a StepWords,
    end: bool,
    group: Vec<Who<'a>>,
    values: Vec<MemberDoc<'a>>,
    outcome: &'a str,
    order: Vec<Vec<Who<'a>>>,
    next: Vec<Next<'a>>,
    applied_again: usize,
    printed_places: Vec<Printed<'a>>,
}

impl<'a> AppliedDoc<'a> {
    fn of(s: &'a Applied, w: &Names<'a>) -> AppliedDoc<'a> {
        AppliedDoc {
            step: &s.step,
            end: s.end,
            group: w.many(&s.group),
            values: s.values.iter().map(|m| MemberDoc::of(m, w)).collect(),
            outcome: &s.outcome,
            order: s.order.iter().map(|g| w.many(g)).collect(),
            next: s
                .next
                .iter()
                .map(|(g, to)| Next {
                    members: w.many(g),
                    goes_to: to,
                })
                .collect(),
            applied_again: s.again,
            printed_places: s
                .printed
                .iter()
                .map(|(p, place)| Printed {
                    participant: w.one(*p),
                    place,
                })
                .collect(),
        }
    }
}

#[derive(Serialize)]
struct Next<'a> {
    members: Vec<Who<'a>>,
    goes_to: &'a str,
}

#[derive(Serialize)]
struct Printed<'a> {
    participant: Who<'a>,
    place: &'a str,
}

#[derive(Serialize)]
struct MemberDoc<'a> {
    participant: Who<'a>,
    value: &'a str,
    exact: Option<&'a str>,
    undefined: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<DetailDoc<'a>>,
}

impl<'a> MemberDoc<'a> {
    fn of(m: &'a Member, w: &Names<'a>) -> MemberDoc<'a> {
        MemberDoc {
            participant: w.one(m.pid),
            value: &m.text,
            exact: m.exact.as_deref(),
            undefined: m.undefined.as_deref(),
            detail: m.detail.as_ref().map(DetailDoc::of),
        }
    }
}

/// The parts of a value (`--detail`), as data: `parts` for a value made of
/// others, `combined_by`, `items` and `more_items` for one combined from a
/// list, neither for a leaf.
#[derive(Serialize)]
struct DetailDoc<'a> {
    what: &'a str,
    said: &'a str,
    label: Option<&'a str>,
    doc: Option<&'a str>,
    cite: Option<&'a str>,
    value: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    parts: Option<Vec<DetailDoc<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    combined_by: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    items: Option<Vec<ItemDoc<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    more_items: Option<usize>,
}

impl<'a> DetailDoc<'a> {
    fn of(d: &'a Detail) -> DetailDoc<'a> {
        let mut doc = DetailDoc {
            what: &d.what,
            said: &d.said,
            label: d.label.as_deref(),
            doc: d.doc.as_deref(),
            cite: d.cite.as_deref(),
            value: d.value.display(None),
            parts: None,
            combined_by: None,
            items: None,
            more_items: None,
        };
        match &d.how {
            How::Leaf => {}
            How::Parts(ps) => doc.parts = Some(ps.iter().map(DetailDoc::of).collect()),
            How::Items { agg, items, more } => {
                doc.combined_by = Some(agg);
                doc.items = Some(
                    items
                        .iter()
                        .map(|i| ItemDoc {
                            source: &i.source,
                            value: i.value.map(|v| v.to_string()),
                            notes: i.notes.iter().map(|n| n.trim_start()).collect(),
                            cut: i.cut.as_deref(),
                        })
                        .collect(),
                );
                doc.more_items = Some(*more);
            }
        }
        doc
    }
}

#[derive(Serialize)]
struct ItemDoc<'a> {
    source: &'a str,
    value: Option<String>,
    notes: Vec<&'a str>,
    cut: Option<&'a str>,
}
