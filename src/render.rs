//! Standings and traces → text: table, JSON (a stable contract), CSV, Markdown, HTML.

use crate::eval::Value;
use crate::model::Event;
use crate::plan::Ruleset;
use crate::rank::{Outcome, Standings, TraceStep};
use serde_json::{json, Map, Value as Json};

/// Output formats of `tb eval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Aligned text table.
    Table,
    /// JSON (documented schema).
    Json,
    /// Comma-separated values.
    Csv,
    /// A Markdown table.
    Markdown,
    /// An HTML table.
    Html,
}

/// What the header of an output says about the ruleset.
#[derive(Clone, Debug, Default)]
pub struct Meta {
    /// The name the user gave (`cards/swiss`, a path, or `--tiebreaks ...`).
    pub ruleset: String,
    /// Extra notes to print (edition chosen, warnings).
    pub notes: Vec<String>,
}

/// Whether row `i` shares its place. Rows are in rank order, so a shared
/// place has a neighbour with the same rank (constant time: output stays
/// linear in the number of participants).
fn is_shared(s: &Standings, i: usize) -> bool {
    let r = s.rows[i].rank;
    (i > 0 && s.rows[i - 1].rank == r) || s.rows.get(i + 1).is_some_and(|x| x.rank == r)
}

fn rank_text(s: &Standings, i: usize) -> String {
    let r = s.rows[i].rank;
    let shared = is_shared(s, i);
    if shared {
        format!("{r}=")
    } else {
        r.to_string()
    }
}

fn cell(v: &Value, decimals: Option<u32>) -> String {
    v.display(decimals).unwrap_or_else(|| "-".into())
}

fn decided_text(s: &Standings, i: usize) -> String {
    let row = &s.rows[i];
    if let Some(u) = &row.unresolved {
        return format!("unresolved: {u}");
    }
    let shared = is_shared(s, i);
    if shared {
        return "shared".into();
    }
    match &row.decided_by {
        Some(d) => match &d.cite {
            Some(c) => format!("{} ({c})", d.criterion),
            None => d.criterion.clone(),
        },
        None => String::new(),
    }
}

/// Render standings in a format.
pub fn render(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta, fmt: Format) -> String {
    match fmt {
        Format::Table => table(s, event, rs, meta),
        Format::Json => {
            serde_json::to_string_pretty(&to_json(s, event, rs, meta)).unwrap_or_default() + "\n"
        }
        Format::Csv => csv(s, event),
        Format::Markdown => markdown(s, event, rs, meta),
        Format::Html => html(s, event, rs, meta),
    }
}

fn header_cells(s: &Standings) -> Vec<String> {
    let mut h = vec!["Rank".to_string(), "Participant".to_string()];
    h.extend(s.columns.iter().map(|c| c.label.clone()));
    h.push("Decided by".into());
    h
}

fn body_cells(s: &Standings, event: &Event) -> Vec<Vec<String>> {
    s.rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let p = &event.participants[r.pid];
            let mut row = vec![rank_text(s, i), format!("{} ({})", p.name, p.id)];
            row.extend(
                r.values
                    .iter()
                    .zip(&s.columns)
                    .map(|(v, c)| cell(v, c.decimals)),
            );
            row.push(decided_text(s, i));
            row
        })
        .collect()
}

fn table(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{} — {}\n",
        event.name,
        rs.title.clone().unwrap_or_else(|| meta.ruleset.clone())
    ));
    if let Some(src) = &rs.source_doc {
        out.push_str(&format!("Ruleset {}: {src}\n", meta.ruleset));
    }
    for n in &meta.notes {
        out.push_str(&format!("Note: {n}\n"));
    }
    out.push('\n');
    let head = header_cells(s);
    let body = body_cells(s, event);
    let ncol = head.len();
    let mut width = vec![0usize; ncol];
    for row in std::iter::once(&head).chain(body.iter()) {
        for (i, c) in row.iter().enumerate() {
            width[i] = width[i].max(c.chars().count());
        }
    }
    let line = |row: &Vec<String>| -> String {
        let mut l = String::new();
        for (i, c) in row.iter().enumerate() {
            let pad = width[i] - c.chars().count();
            // Numbers right-aligned, text left-aligned.
            if i >= 2 && i + 1 < ncol {
                l.push_str(&" ".repeat(pad));
                l.push_str(c);
            } else {
                l.push_str(c);
                if i + 1 < ncol {
                    l.push_str(&" ".repeat(pad));
                }
            }
            if i + 1 < ncol {
                l.push_str("  ");
            }
        }
        l.trim_end().to_string() + "\n"
    };
    out.push_str(&line(&head));
    out.push_str(&line(&width.iter().map(|w| "-".repeat(*w)).collect()));
    for row in &body {
        out.push_str(&line(row));
    }
    let cites: Vec<String> = s
        .columns
        .iter()
        .filter_map(|c| c.cite.as_ref().map(|ci| format!("{}: {ci}", c.label)))
        .collect();
    if !cites.is_empty() {
        out.push_str(&format!("\nCriteria: {}\n", cites.join("; ")));
    }
    if let Some(seed) = s.lots_seed {
        out.push_str(&format!("Lots seed: {seed}\n"));
    }
    out
}

/// The JSON document of `tb eval --format json` (see the README for the schema).
pub fn to_json(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) -> Json {
    let rows: Vec<Json> = s
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let p = &event.participants[r.pid];
            let mut values = Map::new();
            let mut exact = Map::new();
            for (v, c) in r.values.iter().zip(&s.columns) {
                // `values` holds decimal strings or null, nothing else (the
                // contract); an infinite quotient is null there and
                // "infinity" in `exact`.
                let shown = match v {
                    Value::Inf => Json::Null,
                    _ => v.display(c.decimals).map(Json::String).unwrap_or(Json::Null),
                };
                values.insert(c.label.clone(), shown);
                let ex = match v {
                    Value::Num(n) => Json::String(n.to_string()),
                    Value::Inf => Json::String("infinity".into()),
                    Value::Undef => Json::Null,
                    other => other.display(None).map(Json::String).unwrap_or(Json::Null),
                };
                exact.insert(c.label.clone(), ex);
            }
            let shared = is_shared(s, i);
            json!({
                "rank": r.rank,
                "id": p.id,
                "name": p.name,
                "shared": shared,
                "values": values,
                "exact": exact,
                "decided_by": r.decided_by.as_ref().map(|d| json!({"procedure": d.procedure, "criterion": d.criterion, "cite": d.cite})),
                "unresolved": r.unresolved,
            })
        })
        .collect();
    json!({
        "ruleset": {"name": meta.ruleset, "title": rs.title, "source": rs.source_doc, "edition": rs.edition},
        "event": {"name": event.name, "participants": event.participants.len(), "rounds": event.rounds},
        "columns": s.columns.iter().map(|c| json!({"label": c.label, "cite": c.cite})).collect::<Vec<_>>(),
        "standings": rows,
        "notes": meta.notes,
        "warnings": event.warnings,
        "lots_seed": s.lots_seed,
    })
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn csv(s: &Standings, event: &Event) -> String {
    let mut out = String::new();
    let mut head = vec!["rank".to_string(), "id".to_string(), "name".to_string()];
    head.extend(s.columns.iter().map(|c| c.label.clone()));
    head.push("decided_by".into());
    out.push_str(
        &head
            .iter()
            .map(|h| csv_field(h))
            .collect::<Vec<_>>()
            .join(","),
    );
    out.push('\n');
    for (i, r) in s.rows.iter().enumerate() {
        let p = &event.participants[r.pid];
        let mut row = vec![r.rank.to_string(), p.id.clone(), p.name.clone()];
        row.extend(
            r.values
                .iter()
                .zip(&s.columns)
                .map(|(v, c)| v.display(c.decimals).unwrap_or_default()),
        );
        row.push(decided_text(s, i));
        out.push_str(
            &row.iter()
                .map(|h| csv_field(h))
                .collect::<Vec<_>>()
                .join(","),
        );
        out.push('\n');
    }
    out
}

fn markdown(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) -> String {
    let mut out = format!(
        "## {} — {}\n\n",
        event.name,
        rs.title.clone().unwrap_or_else(|| meta.ruleset.clone())
    );
    let head = header_cells(s);
    out.push_str(&format!("| {} |\n", head.join(" | ")));
    out.push_str(&format!(
        "|{}\n",
        head.iter().map(|_| "---|").collect::<String>()
    ));
    for row in body_cells(s, event) {
        out.push_str(&format!(
            "| {} |\n",
            row.iter()
                .map(|c| c.replace('|', "\\|"))
                .collect::<Vec<_>>()
                .join(" | ")
        ));
    }
    out
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn html(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) -> String {
    let mut out = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{}</title></head><body>\n<h1>{}</h1>\n<p>{}</p>\n<table>\n<thead><tr>",
        esc(&event.name),
        esc(&event.name),
        esc(&rs.title.clone().unwrap_or_else(|| meta.ruleset.clone()))
    );
    for h in header_cells(s) {
        out.push_str(&format!("<th>{}</th>", esc(&h)));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for row in body_cells(s, event) {
        out.push_str("<tr>");
        for c in row {
            out.push_str(&format!("<td>{}</td>", esc(&c)));
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table>\n</body></html>\n");
    out
}

/// A readable account of each step that involved the given participants
/// (all steps on tied groups when `ids` is empty).
pub fn explain(s: &Standings, event: &Event, pids: &[usize]) -> String {
    let mut out = String::new();
    let name = |p: usize| {
        format!(
            "{} ({})",
            event.participants[p].name, event.participants[p].id
        )
    };
    for t in &s.trace {
        if t.group.len() > event.participants.len().min(64) && pids.is_empty() {
            // The first split of the whole field is the score itself; summarise it.
            out.push_str(&format!(
                "{} / {}: ranks the whole field of {}\n",
                t.procedure,
                t.criterion,
                t.group.len()
            ));
            continue;
        }
        if !pids.is_empty() && !pids.iter().any(|p| t.group.contains(p)) {
            continue;
        }
        if !pids.is_empty() && t.group.len() > 64 {
            let vals: Vec<String> = t
                .values
                .iter()
                .filter(|(p, _)| pids.contains(p))
                .map(|(p, v)| format!("{} = {}", name(*p), cell(v, t.decimals)))
                .collect();
            out.push_str(&format!(
                "{} / {}: {}\n",
                t.procedure,
                t.criterion,
                vals.join(", ")
            ));
            continue;
        }
        explain_step(&mut out, t, &name);
    }
    out
}

fn explain_step(out: &mut String, t: &TraceStep, name: &dyn Fn(usize) -> String) {
    let cite = t
        .cite
        .as_ref()
        .map(|c| format!(" [{c}]"))
        .unwrap_or_default();
    out.push_str(&format!("{} / {}{}\n", t.procedure, t.criterion, cite));
    out.push_str(&format!(
        "  tied: {}\n",
        t.group
            .iter()
            .map(|&p| name(p))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    for (p, v) in &t.values {
        out.push_str(&format!("    {} = {}\n", name(*p), cell(v, t.decimals)));
    }
    match &t.outcome {
        Outcome::Skipped => out.push_str("  → condition does not hold; step skipped\n"),
        Outcome::NotSplit => out.push_str("  → does not separate them\n"),
        Outcome::Split(parts) => {
            let txt: Vec<String> = parts
                .iter()
                .map(|g| g.iter().map(|&p| name(p)).collect::<Vec<_>>().join(" = "))
                .collect();
            out.push_str(&format!("  → {}\n", txt.join("  >  ")));
            for (g, what) in &t.handoffs {
                out.push_str(&format!(
                    "    still tied: {} → {what}\n",
                    g.iter().map(|&p| name(p)).collect::<Vec<_>>().join(", ")
                ));
            }
        }
    }
}
