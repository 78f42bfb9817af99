//! `tb explain --format json`: the [`Account`] as data (documented in docs/explain.md, schema in schema/explain.schema.json).

use super::explain::{Account, Applied, Member, StepWords, Tie};
use crate::eval::detail::{Detail, How};
use crate::model::{Event, Pid};
use serde_json::{json, Map, Value as Json};

/// The account as a JSON document, pretty-printed.
pub fn explain_json(a: &Account, event: &Event) -> String {
    let who = |p: Pid| {
        let q = &event.participants[p];
        json!({ "id": q.id, "name": q.name })
    };
    let many = |g: &[Pid]| Json::Array(g.iter().map(|&p| who(p)).collect());
    let primaries: Vec<Json> = a
        .primaries
        .iter()
        .map(|p| {
            json!({
                "step": step_json(&p.step),
                "field": p.field,
                "level_before": p.level_before.iter().map(|(l, v)| json!({ "label": l, "value": v })).collect::<Vec<_>>(),
                "groups": p.groups.iter().map(|(v, g)| json!({
                    "value": v,
                    "members": many(g),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let ties: Vec<Json> = a.ties.iter().map(|t| tie_json(t, &who, &many)).collect();
    let doc = json!({
        "title": a.title,
        "lots_seed": a.lots_seed,
        "primary": primaries,
        "ties": ties,
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

fn step_json(s: &StepWords) -> Json {
    json!({
        "label": s.label,
        "name": s.name,
        "doc": s.doc,
        "cite": s.cite,
        "better": s.better,
        "procedure": s.procedure,
    })
}

fn tie_json(t: &Tie, who: &dyn Fn(Pid) -> Json, many: &dyn Fn(&[Pid]) -> Json) -> Json {
    json!({
        "members": many(&t.members),
        "level_on": t.on.as_ref().map(|(l, v)| json!({ "label": l, "value": v })),
        "steps": t.steps.iter().map(|s| applied_json(s, who, many)).collect::<Vec<_>>(),
        "places": t.places.iter().map(|(place, shared, p, why)| {
            let mut m = Map::new();
            m.insert("place".into(), json!(place));
            m.insert("shared".into(), json!(shared));
            m.insert("participant".into(), who(*p));
            m.insert("decided_by".into(), json!(why));
            Json::Object(m)
        }).collect::<Vec<_>>(),
    })
}

fn applied_json(s: &Applied, who: &dyn Fn(Pid) -> Json, many: &dyn Fn(&[Pid]) -> Json) -> Json {
    json!({
        "step": step_json(&s.step),
        "end": s.end,
        "group": many(&s.group),
        "values": s.values.iter().map(|m| member_json(m, who)).collect::<Vec<_>>(),
        "outcome": s.outcome,
        "order": s.order.iter().map(|g| many(g)).collect::<Vec<_>>(),
        "next": s.next.iter().map(|(g, w)| json!({ "members": many(g), "goes_to": w })).collect::<Vec<_>>(),
        "applied_again": s.again,
        "printed_places": s.printed.iter().map(|(p, v)| json!({ "participant": who(*p), "place": v })).collect::<Vec<_>>(),
    })
}

fn member_json(m: &Member, who: &dyn Fn(Pid) -> Json) -> Json {
    let mut o = Map::new();
    o.insert("participant".into(), who(m.pid));
    o.insert("value".into(), json!(m.text));
    o.insert("exact".into(), json!(m.exact));
    o.insert("undefined".into(), json!(m.undefined));
    if let Some(d) = &m.detail {
        o.insert("detail".into(), detail_json(d));
    }
    Json::Object(o)
}

/// The parts of a value (`--detail`), as data.
pub fn detail_json(d: &Detail) -> Json {
    let mut o = Map::new();
    o.insert("what".into(), json!(d.what));
    o.insert("said".into(), json!(d.said));
    o.insert("label".into(), json!(d.label));
    o.insert("doc".into(), json!(d.doc));
    o.insert("cite".into(), json!(d.cite));
    o.insert("value".into(), json!(d.value.display(None)));
    match &d.how {
        How::Leaf => {}
        How::Parts(ps) => {
            o.insert(
                "parts".into(),
                Json::Array(ps.iter().map(detail_json).collect()),
            );
        }
        How::Items { agg, items, more } => {
            o.insert("combined_by".into(), json!(agg));
            o.insert(
                "items".into(),
                Json::Array(
                    items
                        .iter()
                        .map(|i| {
                            json!({
                                "source": i.source,
                                "value": i.value.map(|v| v.to_string()),
                                "notes": i.notes.iter().map(|n| n.trim_start()).collect::<Vec<_>>(),
                                "cut": i.cut,
                            })
                        })
                        .collect(),
                ),
            );
            o.insert("more_items".into(), json!(more));
        }
    }
    Json::Object(o)
}
