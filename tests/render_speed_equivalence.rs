//! `src/render/` writes every format from its typed report straight into
//! one buffer, with a fast path for numbers (JSON is the report serialised
//! by serde_json, CSV goes through `csv::Writer`); this checks it, byte for
//! byte, against the simple implementation it replaced (kept below as the reference: a `String` per
//! cell, `Value::display` per value; for JSON a serde_json tree,
//! `reference::to_json`, pretty-printed by serde_json), on real
//! standings and on standings made hostile (names and values that need
//! escaping in every format, every kind of value, duplicate labels,
//! unresolved and shared places, no columns, no rows).

use crate::common;
use std::sync::Arc;
use tb::diag::Source;
use tb::eval::{ListItem, Value};
use tb::model::Event;
use tb::num::Num;
use tb::plan::Ruleset;
use tb::rank::{Decided, Options, Standings};
use tb::render::{Format, Meta};

const FORMATS: [Format; 5] = [
    Format::Table,
    Format::Json,
    Format::Csv,
    Format::Markdown,
    Format::Html,
];

/// Both implementations agree on every format and on `explain` (all steps,
/// and the steps of a few participants).
fn check(what: &str, s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) {
    // The HTML page is the table's cells (compared here as the text table
    // and Markdown) in a styled page with explanations; that every
    // participant is in it is checked here, the page itself by
    // .ci/screenshots.sh in a browser.
    let page = tb::render::render(s, event, rs, meta, Format::Html);
    for r in &s.rows {
        let p = &event.participants[r.pid];
        let name = format!(
            "{} <span class=\"id\">({})</span>",
            reference::esc(&p.name),
            reference::esc(&p.id)
        );
        assert!(page.contains(&name), "{what}, HTML: no {name}");
    }
    for fmt in FORMATS.into_iter().filter(|&f| f != Format::Html) {
        let fast = tb::render::render(s, event, rs, meta, fmt);
        let slow = reference::render(s, event, rs, meta, fmt);
        if fast != slow {
            let line = fast
                .lines()
                .zip(slow.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            panic!(
                "{what}, {fmt:?}: differs at line {}\nfast: {:?}\nslow: {:?}",
                line + 1,
                fast.lines().nth(line),
                slow.lines().nth(line)
            );
        }
    }
    // The document reads back as the reference tree.
    let text = tb::render::render(s, event, rs, meta, Format::Json);
    let back: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    assert_eq!(
        back,
        reference::to_json(s, event, rs, meta),
        "{what}, to_json"
    );
    // `tb explain` is told from the trace (`render::explain`), checked by
    // its own golden tests: it has no reference here.
}

fn load(name: &str, text: String) -> Event {
    tb::load::load(&Source::new(name, text)).unwrap_or_else(|d| panic!("{}", d.plain()))
}

fn events() -> Vec<(String, Event)> {
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir("examples")
        .expect("examples")
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            matches!(
                p.extension().and_then(|x| x.to_str()),
                Some("toml" | "csv" | "json")
            )
        })
        .collect();
    files.sort();
    for p in files {
        let name = p.to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&p).expect("read");
        if let Ok(ev) = tb::load::load(&Source::new(&name, text)) {
            out.push((name, ev));
        }
    }
    let chess = tb_gen::chess_swiss(300, 9, 5).to_trf().expect("trf");
    out.push(("gen.trf".into(), load("gen.trf", chess)));
    let cards = tb_gen::cards_swiss(120, 7, 5).to_json();
    out.push(("gen-cards.json".into(), load("gen-cards.json", cards)));
    let bridge = tb_gen::bridge_swiss_teams(60, 7, 5).to_json();
    out.push(("gen-bridge.json".into(), load("gen-bridge.json", bridge)));
    out
}

fn rulesets() -> Vec<(String, Ruleset)> {
    let mut out = common::shipped_rulesets();
    let codes = "BH/C1,BH,SB,PS,ARO,DE,AOB,TPR,PTP,APRO,WON,REP,KS,FB";
    let rated = [("unrated_rating".to_string(), Num::int(1000))];
    let rs = tb::check::check_list(
        Source::new("--tiebreaks", codes),
        "fide/codes",
        Some("2024"),
        &tb::shipped::Shipped,
        &rated,
    )
    .unwrap_or_else(|d| panic!("{}", d.plain()));
    out.push((codes.to_string(), rs));
    out
}

#[test]
fn every_format_matches_the_reference_on_real_standings() {
    let meta = Meta {
        ruleset: "a/ruleset".into(),
        notes: vec!["edition 2024".into()],
    };
    let rulesets = rulesets();
    let mut compared = 0;
    for (ename, ev) in &events() {
        for (rname, rs) in &rulesets {
            for lots_seed in [None, Some(7)] {
                let opts = Options {
                    lots_seed,
                    ..Default::default()
                };
                if let Ok(st) = tb::rank::rank(ev, rs, &opts) {
                    check(&format!("{rname} on {ename}"), &st, ev, rs, &meta);
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 20, "only {compared} standings compared");
}

/// Names, labels and values that need escaping in every format, values of
/// every kind (infinite, undefined, text, true/false, lists, repeating and
/// huge fractions), a duplicate label, unresolved and undecided places.
fn make_hostile(st: &mut Standings, ev: &mut Event, rs: &mut Ruleset, meta: &mut Meta) {
    ev.name = "Open <2024> & \"Cup\", 1|2".into();
    ev.warnings = vec!["recorded total, \"12\"".into()];
    rs.title = Some("Tie-breaks | <\"quoted\"> & more".into());
    meta.notes.push("a note\twith a tab".into());
    for (k, p) in ev.participants.iter_mut().enumerate() {
        match k % 6 {
            0 => p.name = format!("Doe, \"J\" {k}"),
            1 => p.name = "a|b <i>&amp;</i>\ttab\nline \\ back".into(),
            2 => p.name = "Ünïcødé — 名前 \u{3000}".into(),
            3 => p.id = format!("id,{k}"),
            4 => p.name = String::new(),
            _ => {}
        }
    }
    let n = st.columns.len();
    if n >= 2 {
        st.columns[1].label = st.columns[0].label.clone();
    }
    if let Some(c) = st.columns.last_mut() {
        c.label = "x\"y|<z>, w".into();
        c.cite = Some("Art. 1, \"2\" | <3>".into());
    }
    for (j, c) in st.columns.iter_mut().enumerate() {
        c.decimals = [None, Some(0), Some(2), Some(4), Some(19)][j % 5];
    }
    let item = |v: i64| ListItem {
        value: Num::ratio(i128::from(v), 3).unwrap(),
        key: Num::ZERO,
        voluntary: false,
    };
    for (i, row) in st.rows.iter_mut().enumerate() {
        for (j, v) in row.values.iter_mut().enumerate() {
            *v = match (i + 2 * j) % 12 {
                0 => Value::Inf,
                1 => Value::Undef,
                2 => Value::Str(Arc::from("s, \"q\" |<>&\n\\")),
                3 => Value::Bool(i % 2 == 0),
                4 => Value::List(Arc::new(vec![item(1), item(-5), item(9)])),
                5 => Value::Num(Num::ratio(-7, 3).unwrap()),
                6 => Value::Num(Num::ratio(i128::from(i64::MAX), 3).unwrap()),
                7 => Value::Num(Num::ratio(1, 1 << 40).unwrap()),
                8 => Value::Num(Num::ratio(-5, 2).unwrap()),
                9 => Value::Num(Num::ratio(i128::from(i64::MIN), 1).unwrap()),
                _ => continue,
            };
        }
        match i % 9 {
            3 => row.unresolved = Some("lots, \"drawn\" | <no> \u{3000}".into()),
            5 => row.decided_by = None,
            7 => {
                row.decided_by = Some(Arc::new(Decided {
                    procedure: "proc \"p\"".into(),
                    criterion: "c|<1>, 2".into(),
                    cite: None,
                }))
            }
            _ => {}
        }
    }
}

#[test]
fn every_format_matches_the_reference_on_hostile_standings() {
    let rulesets = rulesets();
    let mut compared = 0;
    for (ename, ev) in &events() {
        for (rname, rs) in &rulesets {
            let Ok(st) = tb::rank::rank(ev, rs, &Options::default()) else {
                continue;
            };
            let (mut st, mut ev, mut rs) = (st, ev.clone(), rs.clone());
            let mut meta = Meta::default();
            make_hostile(&mut st, &mut ev, &mut rs, &mut meta);
            let what = format!("hostile {rname} on {ename}");
            check(&what, &st, &ev, &rs, &meta);
            // No columns, then no rows.
            st.columns.clear();
            st.rows.iter_mut().for_each(|r| r.values.clear());
            check(&format!("{what}, no columns"), &st, &ev, &rs, &meta);
            st.rows.clear();
            st.trace.clear();
            check(&format!("{what}, no rows"), &st, &ev, &rs, &meta);
            compared += 1;
        }
    }
    assert!(compared > 20, "only {compared} standings compared");
}

/// The implementation `src/render.rs` had before it wrote into one buffer,
/// unchanged but for the paths.
mod reference {
    use serde_json::{json, Map, Value as Json};
    use tb::eval::Value;
    use tb::model::Event;
    use tb::plan::Ruleset;
    use tb::rank::{Column, Outcome, Standings};
    use tb::render::{Format, Meta};
    use tb::syntax::ast::Direction;

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
            Format::Table => vis(&table(s, event, rs, meta)),
            Format::Json => {
                serde_json::to_string_pretty(&to_json(s, event, rs, meta)).unwrap_or_default()
                    + "\n"
            }
            Format::Csv => csv(s, event),
            Format::Markdown => markdown(s, event, rs, meta),
            Format::Html => unreachable!("checked apart"),
        }
    }

    /// The JSON document as a serde_json tree (what `tb::render::Report`
    /// serialises to without a tree; it was `tb::render::to_json`).
    pub fn to_json(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) -> Json {
        let more = tb::render::more_digits(s);
        let rows: Vec<Json> = s
            .rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let p = &event.participants[r.pid];
                let mut values = Map::new();
                let mut exact = Map::new();
                for (ci, (v, c)) in r.values.iter().zip(&s.columns).enumerate() {
                    // `values` holds decimal strings or null, nothing else (the
                    // contract); an infinite quotient is null there and
                    // "infinity" in `exact`.
                    let shown = match (v, more.get(&(i, ci))) {
                        (Value::Inf, _) => Json::Null,
                        (_, Some(t)) => Json::String(t.clone()),
                        (_, None) => v.display(c.decimals).map(Json::String).unwrap_or(Json::Null),
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
                json!({
                    "rank": r.rank,
                    "id": p.id,
                    "name": p.name,
                    "shared": is_shared(s, i),
                    "values": values,
                    "exact": exact,
                    "decided_by": r.decided_by.as_ref().map(|d| json!({"procedure": d.procedure, "criterion": d.criterion, "cite": d.cite})),
                    "unresolved": r.unresolved,
                })
            })
            .collect();
        let better = |d: Direction| match d {
            Direction::Desc => "higher",
            Direction::Asc => "lower",
        };
        let columns: Vec<Json> = s
            .columns
            .iter()
            .map(|c| json!({"label": c.label, "cite": c.cite, "better": better(c.dir), "reversed": c.reversed}))
            .collect();
        let undefined: Vec<Json> = s
            .undefined
            .iter()
            .map(|u| {
                let p = &event.participants[u.pid];
                json!({"id": p.id, "name": p.name, "criterion": u.criterion,
                       "cite": u.cite, "reason": u.reason, "cause": u.cause, "decided": u.decided})
            })
            .collect();
        json!({
            "ruleset": {"name": meta.ruleset, "title": rs.title, "source": rs.source_doc, "edition": rs.edition},
            "event": {"name": event.name, "participants": event.participants.len(), "rounds": event.rounds},
            "columns": columns,
            "standings": rows,
            "notes": meta.notes,
            "warnings": event.warnings,
            "lots_seed": s.lots_seed,
            "undefined": undefined,
            "undefined_more": s.undefined_more,
        })
    }

    /// The columns a table shows: the first, and those of a step some tie
    /// reached (applied to two or more, its condition holding).
    fn shown(s: &Standings) -> Vec<usize> {
        (0..s.columns.len())
            .filter(|&i| {
                i == 0
                    || s.trace.iter().any(|t| {
                        t.criterion == s.columns[i].label
                            && t.group.len() >= 2
                            && t.outcome != Outcome::Skipped
                    })
            })
            .collect()
    }

    fn hidden(s: &Standings) -> Option<String> {
        let shown = shown(s);
        let h: Vec<String> = (0..s.columns.len())
            .filter(|i| !shown.contains(i))
            .map(|i| match &s.columns[i].cite {
                Some(c) => format!("{} ({c})", s.columns[i].label),
                None => s.columns[i].label.clone(),
            })
            .collect();
        (!h.is_empty()).then(|| h.join("; "))
    }

    fn withdrawn(s: &Standings, event: &Event) -> Option<String> {
        let w: Vec<String> = s
            .rows
            .iter()
            .filter_map(|r| {
                let p = &event.participants[r.pid];
                let when = match p.withdrawn_after? {
                    0 => "before round 1".to_string(),
                    n => format!("after round {n}"),
                };
                Some(format!("{} ({}) {when}", p.name, p.id))
            })
            .collect();
        (!w.is_empty()).then(|| format!("† Withdrew: {}", w.join("; ")))
    }

    fn criterion(c: &Column) -> String {
        let dir = match c.dir {
            Direction::Desc => "higher is better",
            Direction::Asc => "lower is better",
        };
        let rev = if c.reversed { ", reversed" } else { "" };
        let places = if c.places {
            ", printed as the place among those tied when it was reached, 0 if it separated none"
        } else if c.group_relative {
            ", among the tied: as last compared"
        } else {
            ""
        };
        match &c.cite {
            Some(ci) => format!("{} ({dir}{rev}{places}): {ci}", c.label),
            None => format!("{} ({dir}{rev}{places})", c.label),
        }
    }

    fn header_cells(s: &Standings) -> Vec<String> {
        let mut h = vec!["Rank".to_string(), "Participant".to_string()];
        h.extend(shown(s).into_iter().map(|c| s.columns[c].label.clone()));
        h.push("Decided by".into());
        h
    }

    fn body_cells(s: &Standings, event: &Event) -> Vec<Vec<String>> {
        let more = tb::render::more_digits(s);
        s.rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let p = &event.participants[r.pid];
                let mark = if p.withdrawn_after.is_some() {
                    " †"
                } else {
                    ""
                };
                let mut row = vec![rank_text(s, i), format!("{} ({}){mark}", p.name, p.id)];
                row.extend(shown(s).into_iter().map(|ci| {
                    match (more.get(&(i, ci)), r.values.get(ci)) {
                        (Some(t), _) => t.clone(),
                        (None, Some(v)) => cell(v, s.columns[ci].decimals),
                        (None, None) => "-".into(),
                    }
                }));
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
        let mut body = body_cells(s, event);
        let ncol = head.len();
        let fits = |w: &[usize]| w.iter().map(|w| w + 2).sum::<usize>().saturating_sub(2) <= 100;
        let (mut width, mut heads) = layout(&head, &body, false);
        if !fits(&width) {
            (width, heads) = layout(&head, &body, true);
            if !fits(&width) {
                // "Decided by" without the article of a step shown as a column.
                let labels: Vec<String> = shown(s)
                    .into_iter()
                    .map(|c| s.columns[c].label.clone())
                    .collect();
                for (i, row) in body.iter_mut().enumerate() {
                    let r = &s.rows[i];
                    if let (None, false, Some(d)) = (&r.unresolved, is_shared(s, i), &r.decided_by)
                    {
                        if labels.contains(&d.criterion) {
                            *row.last_mut().unwrap() = d.criterion.clone();
                        }
                    }
                }
                (width, heads) = layout(&head, &body, true);
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
        for h in &heads {
            out.push_str(&line(h));
        }
        out.push_str(&line(&width.iter().map(|w| "-".repeat(*w)).collect()));
        for row in &body {
            out.push_str(&line(row));
        }
        if let Some(w) = withdrawn(s, event) {
            out.push_str(&format!("\n{w}\n"));
        }
        let cites: Vec<String> = shown(s)
            .into_iter()
            .map(|c| criterion(&s.columns[c]))
            .collect();
        if !cites.is_empty() {
            out.push_str(&format!("\nCriteria: {}\n", cites.join("; ")));
        }
        if let Some(h) = hidden(s) {
            out.push_str(&format!("Not shown, as no tie reached them: {h}\n"));
        }
        // The notes are no fast path: both renderers use the one definition.
        let notes = tb::render::undefined_notes(s, event);
        if !notes.is_empty() {
            out.push_str("\nUndefined values:\n");
            for n in &notes {
                out.push_str(&format!("  {n}\n"));
            }
        }
        if let Some(seed) = s.lots_seed {
            out.push_str(&format!("Lots seed: {seed}\n"));
        }
        out
    }

    /// Widths and header lines: a criterion's label wrapped at its longest
    /// word with `wrap`, bottom-aligned.
    fn layout(head: &[String], body: &[Vec<String>], wrap: bool) -> (Vec<usize>, Vec<Vec<String>>) {
        let ncol = head.len();
        let mut width = vec![0usize; ncol];
        for row in body {
            for (i, c) in row.iter().enumerate() {
                width[i] = width[i].max(c.chars().count());
            }
        }
        let mut lines = Vec::new();
        for (k, h) in head.iter().enumerate() {
            if !wrap || k < 2 || k + 1 == ncol {
                width[k] = width[k].max(h.chars().count());
                lines.push(vec![h.clone()]);
                continue;
            }
            let longest = h.split(' ').map(|w| w.chars().count()).max().unwrap_or(0);
            width[k] = width[k].max(longest);
            let mut wrapped: Vec<String> = Vec::new();
            for word in h.split(' ') {
                match wrapped.last_mut() {
                    Some(l) if l.chars().count() + 1 + word.chars().count() <= width[k] => {
                        *l = format!("{l} {word}");
                    }
                    _ => wrapped.push(word.to_string()),
                }
            }
            lines.push(wrapped);
        }
        let depth = lines.iter().map(Vec::len).max().unwrap_or(1);
        let heads = (0..depth)
            .map(|d| {
                lines
                    .iter()
                    .map(|l: &Vec<String>| {
                        let skip = depth - l.len();
                        if d < skip {
                            String::new()
                        } else {
                            l[d - skip].clone()
                        }
                    })
                    .collect()
            })
            .collect();
        (width, heads)
    }

    /// A control character's visible stand-in (issue #36): its control
    /// picture, `\u{fffd}` for C1 controls; newline and tab stay.
    fn pic(c: char) -> char {
        match c {
            '\n' | '\t' => c,
            '\0'..='\x1f' => char::from_u32(0x2400 + c as u32).unwrap_or(c),
            '\x7f' => '\u{2421}',
            '\u{80}'..='\u{9f}' => '\u{fffd}',
            c => c,
        }
    }

    fn vis(s: &str) -> String {
        s.chars().map(pic).collect()
    }

    /// `text`: a name or label (guarded against spreadsheet formulas);
    /// otherwise a value, guarded only when it is not a number.
    fn csv_field(s: &str, text: bool) -> String {
        let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
        let number = digits.chars().any(|c| c.is_ascii_digit())
            && digits
                .chars()
                .all(|c| c.is_ascii_digit() || c == '.' || c == '/');
        let guard = (text || !number) && s.starts_with(['=', '+', '-', '@', '\t', '\r']);
        let shown: String = s
            .chars()
            .map(|c| if c == '\r' { c } else { pic(c) })
            .collect();
        let shown = if guard { format!("'{shown}") } else { shown };
        if s.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", shown.replace('"', "\"\""))
        } else {
            shown
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
                .map(|h| csv_field(h, true))
                .collect::<Vec<_>>()
                .join(","),
        );
        out.push('\n');
        let more = tb::render::more_digits(s);
        for (i, r) in s.rows.iter().enumerate() {
            let p = &event.participants[r.pid];
            let mut row = vec![
                r.rank.to_string(),
                csv_field(&p.id, true),
                csv_field(&p.name, true),
            ];
            row.extend(
                r.values
                    .iter()
                    .zip(&s.columns)
                    .enumerate()
                    .map(|(ci, (v, c))| match more.get(&(i, ci)) {
                        Some(t) => t.clone(),
                        None => v.display(c.decimals).unwrap_or_default(),
                    })
                    .map(|v| csv_field(&v, false)),
            );
            row.push(csv_field(&decided_text(s, i), true));
            out.push_str(&row.join(","));
            out.push('\n');
        }
        out
    }

    fn markdown(s: &Standings, event: &Event, rs: &Ruleset, meta: &Meta) -> String {
        let md = |t: &str| {
            vis(t)
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('|', "\\|")
                .replace('\n', " ")
        };
        let mut out = format!(
            "## {} — {}\n\n",
            md(&event.name),
            md(&rs.title.clone().unwrap_or_else(|| meta.ruleset.clone()))
        );
        if let Some(src) = &rs.source_doc {
            out.push_str(&format!("Ruleset {}: {}\n\n", md(&meta.ruleset), md(src)));
        }
        for n in &meta.notes {
            out.push_str(&format!("Note: {}\n\n", md(n)));
        }
        let head = header_cells(s);
        let head: Vec<String> = head.iter().map(|h| md(h)).collect();
        out.push_str(&format!("| {} |\n", head.join(" | ")));
        let n = head.len();
        out.push('|');
        for k in 0..n {
            out.push_str(if k >= 2 && k + 1 < n { "---:|" } else { "---|" });
        }
        out.push('\n');
        for row in body_cells(s, event) {
            out.push_str(&format!(
                "| {} |\n",
                row.iter().map(|c| md(c)).collect::<Vec<_>>().join(" | ")
            ));
        }
        if let Some(w) = withdrawn(s, event) {
            out.push_str(&format!("\n{}\n", md(&w)));
        }
        let shown = shown(s);
        if !shown.is_empty() {
            out.push_str("\nCriteria:\n\n");
            for c in shown {
                out.push_str(&format!("- {}\n", md(&criterion(&s.columns[c]))));
            }
        }
        if let Some(h) = hidden(s) {
            out.push_str(&format!(
                "\nNot shown, as no tie reached them: {}\n",
                md(&h)
            ));
        }
        let notes = tb::render::undefined_notes(s, event);
        if !notes.is_empty() {
            out.push_str("\nUndefined values:\n\n");
            for n in &notes {
                out.push_str(&format!("- {}\n", md(n)));
            }
        }
        if let Some(seed) = s.lots_seed {
            out.push_str(&format!("\nLots seed: {seed}\n"));
        }
        out
    }

    pub fn esc(s: &str) -> String {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    }
}
