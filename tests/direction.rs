//! Issue 15, slips 1 and 2: a step's direction belongs to its definition
//! (a contradicting or missing one is a checker error; `reversed` and FIDE's
//! `/R` reverse visibly), and what the output prints separates what the
//! ranking separates (more digits where the column's decimals would print
//! two separated values alike; one value per participant and column).

use crate::common::*;
use std::collections::HashMap;
use std::path::Path;
use std::process::Output;
use tb::diag::Source;
use tb::syntax::ast::Direction;

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn check_err(text: &str) -> tb::diag::Diag {
    match tb::check::check(Source::new("t.tb", text), &tb::shipped::Shipped, &[]) {
        Ok(_) => panic!("should not check:\n{text}"),
        Err(d) => d.related.first().cloned().unwrap_or(d),
    }
}

/// Two players: A beat B in their game; both have 1 point (each beat C or
/// D). A is ahead on Direct Encounter.
fn de_event() -> tb::model::Event {
    let mut ev = Ev::chess(2);
    ev.game(1, "A", "B", "1-0");
    ev.game(1, "C", "D", "1-0");
    ev.game(2, "B", "C", "1-0");
    ev.game(2, "D", "A", "1-0");
    ev.load()
}

/// Slip 1: `step direct_encounter_with(false) desc then repeat` passed the
/// checker and put the loser of the direct game first. Now an error whose
/// help says what to write.
#[test]
fn direction_slip_de_desc_is_an_error() {
    let text = "import \"fide/lib\"\n\
                procedure p {\n    step tournament_score\n    step direct_encounter_with(false) desc then repeat\n}\n\
                standings p\n";
    let d = check_err(text);
    assert_eq!(d.code, "tb::check::direction");
    assert!(d.message.contains("lower is better"), "{}", d.message);
    let help = d.help.clone().unwrap_or_default();
    assert!(
        help.contains("drop `desc`") && help.contains("reversed"),
        "{help}"
    );
    // Without the word, the step takes the declaration: the winner is first.
    let ok = inline(&text.replace(" desc then", " then"));
    let ev = de_event();
    let st = rank(&ev, &ok);
    assert!(ahead(&ev, &st, "A", "B"), "{:?}", order(&ev, &st));
    // `asc`, which agrees, is accepted and ranks the same.
    let asc = inline(&text.replace(" desc then", " asc then"));
    assert_eq!(order(&ev, &rank(&ev, &asc)), order(&ev, &st));
}

#[test]
fn contradicting_a_declared_higher_is_an_error() {
    let d = check_err(
        "metric m \"M\" higher is better = score\nprocedure p { step m asc }\nstandings p\n",
    );
    assert_eq!(d.code, "tb::check::direction");
    assert!(d.message.contains("higher is better"), "{}", d.message);
}

#[test]
fn a_bare_name_takes_the_declared_direction() {
    let ev = de_event();
    // Lower is better: the fewest points first.
    let rs =
        inline("metric pts \"P\" lower is better = score\nprocedure p { step pts }\nstandings p\n");
    let proc_ = &rs.procs[rs.standings.unwrap()];
    assert_eq!(proc_.steps[0].dir, Direction::Asc);
    assert!(!proc_.steps[0].reversed);
    let st = rank(&ev, &rs);
    let explicit = inline("procedure p { step score asc }\nstandings p\n");
    assert_eq!(order(&ev, &st), order(&ev, &rank(&ev, &explicit)));
    // `name(args)` counts as the name.
    let rs = inline(
        "metric twice(k) lower is better = k * score\nprocedure p { step twice(2) }\nstandings p\n",
    );
    assert_eq!(rs.procs[0].steps[0].dir, Direction::Asc);
}

#[test]
fn reversed_turns_the_declared_direction_round() {
    let ev = de_event();
    let rs = inline(
        "metric pts \"P\" lower is better = score\nprocedure p { step pts reversed }\nstandings p\n",
    );
    let step = &rs.procs[0].steps[0];
    assert_eq!(step.dir, Direction::Desc);
    assert!(step.reversed);
    let explicit = inline("procedure p { step score desc }\nstandings p\n");
    assert_eq!(
        order(&ev, &rank(&ev, &rs)),
        order(&ev, &rank(&ev, &explicit))
    );
    // `tb check --verbose` says so.
    let dir = std::env::temp_dir().join(format!("tb-direction-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("r.tb");
    std::fs::write(
        &f,
        "metric pts \"P\" lower is better = score\nprocedure p cite \"§1\" { step pts reversed cite \"§1(a)\" }\nstandings p\n",
    )
    .unwrap();
    let o = tb(&["check", "--verbose", f.to_str().unwrap()]);
    assert!(o.status.success());
    let text = out(&o);
    assert!(
        text.contains("1. P: higher is better (reversed) [§1(a)]"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_step_with_no_direction_to_go_by_is_an_error() {
    assert_eq!(
        inline_errors("procedure p { step score }\n"),
        vec!["tb::check::no_direction"]
    );
    // A metric that declares none needs the word in the step.
    assert_eq!(
        inline_errors("metric m = score\nprocedure p { step m }\n"),
        vec!["tb::check::no_direction"]
    );
    assert_eq!(
        inline_errors("procedure p { step score reversed }\n"),
        vec!["tb::check::no_direction"]
    );
    // The direction words are not reserved: names may still use them.
    inline(
        "metric lower = 1\nmetric better higher is better = lower\nprocedure p { step better }\n",
    );
}

/// FIDE `/R` reverses the code's direction (the step is `reversed`, as
/// `explain` and JSON show), for declared codes (TPN: lower is better).
#[test]
fn fide_r_modifier_still_reverses() {
    // Four players on one point each, pairing numbers 1-4.
    let mut ev = Ev::chess(2);
    ev.game(1, "1", "2", "1-0");
    ev.game(1, "3", "4", "1-0");
    ev.game(2, "2", "3", "1-0");
    ev.game(2, "4", "1", "1-0");
    let ev = ev.load();
    let run = |list: &str| {
        let src = Source::new("--tiebreaks", list);
        let rs = tb::check::check_list(src, "fide/codes", Some("2026"), &tb::shipped::Shipped, &[])
            .expect("checks");
        let tpn = rs
            .procs
            .iter()
            .flat_map(|p| &p.steps)
            .find(|s| Some(s.label.as_str()) == list.rsplit(',').next())
            .map(|s| (s.reversed, s.dir))
            .expect("a step for the last code");
        (tpn, order(&ev, &rank(&ev, &rs)))
    };
    let (tpn, plain) = run("PTS,TPN");
    assert_eq!(
        tpn,
        (false, tb::syntax::ast::Direction::Asc),
        "TPN: lower is better"
    );
    let (tpn, rev) = run("PTS,TPN/R");
    assert_eq!(
        tpn,
        (true, tb::syntax::ast::Direction::Desc),
        "TPN/R: reversed"
    );
    assert_eq!(plain, ["1", "2", "3", "4"]);
    assert_eq!(rev, ["4", "3", "2", "1"]);
    // A composed value (`sum` of a cut list) is written `desc`; /R makes it `asc`.
    let (bh, _) = run("PTS,BH/C1/R");
    assert_eq!(bh, (false, tb::syntax::ast::Direction::Asc), "BH/C1/R: asc");
}

/// Every shipped library declares the direction of every criterion and of
/// every metric a shipped step names, and no step contradicts it (the
/// checker would refuse it).
#[test]
fn shipped_libraries_declare_directions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        for f in std::fs::read_dir(dir.unwrap().path()).unwrap() {
            let p = f.unwrap().path();
            if p.extension().is_some_and(|e| e == "tb") {
                files.push(p);
            }
        }
    }
    assert!(files.len() > 10);
    let mut defs: HashMap<String, (bool, bool)> = HashMap::new(); // name → (criterion, declared)
    let mut stepped: Vec<String> = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let file = tb::syntax::parse::parse(&Source::new(f.display().to_string(), text)).unwrap();
        for item in &file.items {
            match item {
                tb::syntax::ast::Item::Metric(m) => {
                    defs.insert(m.name.name.clone(), (m.group_relative, m.better.is_some()));
                }
                tb::syntax::ast::Item::Procedure(p) => {
                    for s in &p.steps {
                        if let tb::syntax::ast::ExprKind::Var(n)
                        | tb::syntax::ast::ExprKind::Call(
                            tb::syntax::ast::Ident { name: n, .. },
                            _,
                        ) = &s.expr.kind
                        {
                            stepped.push(n.clone());
                        }
                    }
                }
                _ => {}
            }
        }
    }
    for (name, (criterion, declared)) in &defs {
        assert!(
            !criterion || *declared,
            "criterion {name} declares no direction"
        );
    }
    for n in stepped {
        if let Some((_, declared)) = defs.get(&n) {
            assert!(declared, "metric {n} is a step but declares no direction");
        }
    }
    for (name, rs) in shipped_rulesets() {
        assert!(rs.standings.is_some(), "{name}");
    }
}

// ------------------------------------------------------------------ display

/// Bob 4/9, Carol 133/300, Dan 1/2, all on half a point: `decimals 2`
/// would print Bob and Carol as 0.44 although the step ranks Bob first.
const RATIO_TB: &str = "title \"Ratio\"\n\
reads participant won\nreads participant games\n\
metric ratio \"R\" higher is better = me.won / me.games\n\
procedure p {\n    step score desc as \"Pts\"\n    step ratio decimals 2\n}\n\
standings p\n";

const RATIO_TOML: &str = r#"[event]
name = "Ratio test"
sport = "chess"
rounds = 1

[[participants]]
id = "B"
name = "Bob"
values = { won = 4, games = 9 }

[[participants]]
id = "C"
name = "Carol"
values = { won = 133, games = 300 }

[[participants]]
id = "E"
name = "Eve"
values = { won = 1, games = 2 }

[[participants]]
id = "F"
name = "Fay"
values = { won = 1, games = 3 }

[[rounds]]
round = 1
games = [ { home = "B", away = "C", result = "1/2-1/2" }, { home = "E", away = "F", result = "1/2-1/2" } ]
"#;

fn ratio_files(tag: &str) -> (std::path::PathBuf, String, String) {
    let dir = std::env::temp_dir().join(format!("tb-ratio-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let r = dir.join("ratio.tb");
    let e = dir.join("ratio.toml");
    std::fs::write(&r, RATIO_TB).unwrap();
    std::fs::write(&e, RATIO_TOML).unwrap();
    let (r, e) = (r.display().to_string(), e.display().to_string());
    (dir, r, e)
}

/// Slip 2: `Bob = 0.44, Carol = 0.44 → Bob > Carol`. Every format prints
/// the two apart (0.444 / 0.443); Eve and Fay, whom the step also
/// separates but who print apart at 2 places, keep 2 places.
#[test]
fn four_ninths_and_133_300_print_apart_in_every_format() {
    let (dir, r, e) = ratio_files("formats");
    let table = out(&tb(&["eval", &r, &e]));
    assert!(table.contains("Bob (B)      0.5  0.444"), "{table}");
    assert!(table.contains("Carol (C)    0.5  0.443"), "{table}");
    assert!(table.contains("0.50"), "{table}");
    assert!(table.contains("0.33"), "{table}");
    let csv = out(&tb(&["eval", &r, &e, "--format", "csv"]));
    assert!(csv.contains("2,B,Bob,0.5,0.444,R"), "{csv}");
    assert!(csv.contains("3,C,Carol,0.5,0.443,R"), "{csv}");
    let md = out(&tb(&["eval", &r, &e, "--format", "markdown"]));
    assert!(md.contains("| Bob (B) | 0.5 | 0.444 |"), "{md}");
    let html = out(&tb(&["eval", &r, &e, "--format", "html"]));
    assert!(html.contains("data-label=\"R\">0.443</td>"), "{html}");
    let json: serde_json::Value =
        serde_json::from_str(&out(&tb(&["eval", &r, &e, "--format", "json"]))).unwrap();
    let rows = json["standings"].as_array().unwrap();
    assert_eq!(rows[1]["values"]["R"], "0.444");
    assert_eq!(rows[1]["exact"]["R"], "4/9");
    assert_eq!(rows[2]["values"]["R"], "0.443");
    assert_eq!(rows[0]["values"]["R"], "0.50");
    assert_eq!(json["columns"][1]["better"], "higher");
    let explain = out(&tb(&["explain", &r, &e]));
    // The two are told apart wherever explain prints them (a step's
    // values, or the primary score's groups).
    assert!(explain.contains("0.444"), "{explain}");
    assert!(explain.contains("0.443"), "{explain}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A participant's printed name in the table, Markdown, HTML and explain.
fn shown_name(p: &serde_json::Value) -> String {
    format!(
        "{} ({})",
        p["name"].as_str().unwrap_or(""),
        p["id"].as_str().unwrap_or("")
    )
}

/// A step's application in `tb explain`: its label, the printed values
/// (by printed name) and, where it split the group, the parts.
struct Applied {
    label: String,
    values: HashMap<String, String>,
    parts: Vec<Vec<String>>,
}

fn explain_applications(text: &str) -> Vec<Applied> {
    // `tb explain --format json`: each tie's steps, with the printed values
    // and the order a split gave.
    let doc: serde_json::Value = serde_json::from_str(text).expect("explain JSON");
    let mut out = Vec::new();
    for tie in doc["ties"].as_array().into_iter().flatten() {
        for step in tie["steps"].as_array().into_iter().flatten() {
            let mut values = HashMap::new();
            for v in step["values"].as_array().into_iter().flatten() {
                values.insert(
                    shown_name(&v["participant"]),
                    v["value"].as_str().unwrap_or("-").to_string(),
                );
            }
            let parts = step["order"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|g| g.as_array().into_iter().flatten().map(shown_name).collect())
                .collect();
            out.push(Applied {
                label: step["step"]["label"].as_str().unwrap_or("").to_string(),
                values,
                parts,
            });
        }
    }
    out
}

/// Printed cells by (participant's printed name, column label).
type Cells = HashMap<(String, String), String>;

/// Cells by (printed name, column label) from a format's header and rows
/// already split into cells; `name_col` holds the printed name.
fn cells_by_name(header: Vec<String>, rows: Vec<Vec<String>>, name_col: usize) -> Cells {
    let mut m = HashMap::new();
    for r in rows {
        for (k, h) in header.iter().enumerate() {
            if let (Some(n), Some(c)) = (r.get(name_col), r.get(k)) {
                // The table's and Markdown's mark after a withdrawn participant.
                let n = n.trim_end_matches(" †").to_string();
                m.insert((n, h.clone()), c.clone());
            }
        }
    }
    m
}

fn csv_fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// The property of issue 15: for every shipped ruleset and example it can
/// rank, two participants a step separates print differently in that
/// step's column — in the table, CSV, Markdown, HTML, JSON `values` and in
/// `tb explain`'s account of the step.
#[test]
fn separated_participants_print_apart_in_every_format() {
    let examples: Vec<String> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"))
            .unwrap()
            .map(|f| f.unwrap().path())
            .filter(|p| {
                p.extension()
                    .is_some_and(|e| e == "toml" || e == "json" || e == "csv")
            })
            .map(|p| format!("examples/{}", p.file_name().unwrap().to_string_lossy()))
            .collect();
    let (dir, ratio_tb, ratio_toml) = ratio_files("property");
    let mut pairs: Vec<(String, String)> = Vec::new();
    for (name, ..) in tb::shipped::list() {
        for e in &examples {
            pairs.push((name.to_string(), e.clone()));
        }
    }
    pairs.push((ratio_tb, ratio_toml));
    let mut ranked = 0;
    let mut checked = 0;
    for (r, e) in &pairs {
        let o = tb(&["eval", r, e, "--format", "json"]);
        if !o.status.success() {
            continue; // a ruleset for another sport or system
        }
        ranked += 1;
        let json: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
        let rows = json["standings"].as_array().unwrap().clone();
        let formats = cells_of_every_format(r, e, &rows);
        checked += check_separated(r, e, &formats);
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(ranked >= 12, "only {ranked} ruleset/example pairs ranked");
    assert!(checked > 100, "only {checked} separated pairs checked");
}

/// Each format's cells of `tb eval r e`, by (participant's name, column):
/// JSON `values` (`rows`), CSV, Markdown, HTML and the table.
fn cells_of_every_format(
    r: &str,
    e: &str,
    rows: &[serde_json::Value],
) -> Vec<(&'static str, Cells)> {
    let name_of: HashMap<String, String> = rows
        .iter()
        .map(|p| (p["id"].as_str().unwrap().to_string(), shown_name(p)))
        .collect();
    let mut formats: Vec<(&'static str, Cells)> = Vec::new();
    let mut j = HashMap::new();
    for p in rows {
        if let Some(vals) = p["values"].as_object() {
            for (k, v) in vals {
                j.insert(
                    (shown_name(p), k.clone()),
                    v.as_str().unwrap_or("null").to_string(),
                );
            }
        }
    }
    formats.push(("json", j));
    let csv = out(&tb(&["eval", r, e, "--format", "csv"]));
    let mut lines = csv.lines();
    let head = csv_fields(lines.next().unwrap());
    let body: Vec<Vec<String>> = lines
        .map(|l| {
            let mut f = csv_fields(l);
            // Name the row as the other formats do.
            let id = f[1].clone();
            f[2] = name_of.get(&id).cloned().unwrap_or_default();
            f
        })
        .collect();
    formats.push(("csv", cells_by_name(head, body, 2)));
    let md = out(&tb(&["eval", r, e, "--format", "markdown"]));
    let md_rows: Vec<Vec<String>> = md
        .lines()
        .filter(|l| l.starts_with("| "))
        .map(|l| {
            l.trim_start_matches("| ")
                .trim_end_matches(" |")
                .split(" | ")
                .map(str::to_string)
                .collect()
        })
        .collect();
    formats.push((
        "markdown",
        cells_by_name(md_rows[0].clone(), md_rows[1..].to_vec(), 1),
    ));
    let html = out(&tb(&["eval", r, e, "--format", "html"]));
    // A cell's text: its tags dropped (the id's span), the withdrawn
    // mark left out (as the other formats' names have none).
    let cells = |l: &str, tag: &str| -> Vec<String> {
        l.split(&format!("<{tag} "))
            .skip(1)
            .map(|c| {
                let inner = c.split_once('>').map_or("", |(_, t)| t);
                let inner = inner.split(&format!("</{tag}>")).next().unwrap_or("");
                let inner = inner.split("<span class=\"mark\">").next().unwrap_or("");
                let mut text = String::new();
                let mut in_tag = false;
                for ch in inner.chars() {
                    match ch {
                        '<' => in_tag = true,
                        '>' => in_tag = false,
                        c if !in_tag => text.push(c),
                        _ => {}
                    }
                }
                text.replace("&amp;", "&")
            })
            .collect()
    };
    let head = html
        .lines()
        .find(|l| l.starts_with("<thead>"))
        .map(|l| cells(l, "th"))
        .unwrap();
    let body: Vec<Vec<String>> = html
        .lines()
        .filter(|l| l.starts_with("<tr") && l.contains("<td class=\"rank\""))
        .map(|l| cells(l, "td"))
        .collect();
    assert_eq!(body.len(), rows.len(), "{r} {e}: HTML rows");
    formats.push(("html", cells_by_name(head, body, 1)));
    let table = out(&tb(&["eval", r, e]));
    let t_rows: Vec<Vec<String>> = table
        .lines()
        .skip_while(|l| !l.starts_with("Rank "))
        .take_while(|l| !l.is_empty())
        .filter(|l| !l.starts_with("----"))
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect()
        })
        .collect();
    formats.push((
        "table",
        cells_by_name(t_rows[0].clone(), t_rows[1..].to_vec(), 1),
    ));
    formats
}

/// Every pair of participants a step of `tb explain r e` separates prints
/// apart in that step's column in each of `formats` (and in the account
/// itself); how many pairs were checked.
fn check_separated(r: &str, e: &str, formats: &[(&'static str, Cells)]) -> usize {
    let mut checked = 0;
    // Columns computed among the tied group: one value per participant
    // is printed, that of the last tie it was compared in (FIDE's DE:
    // its place); a pair is checked there where that tie separated them.
    let rs = tb::check::check(
        crate::files::load_root(r).unwrap(),
        &tb::shipped::Shipped,
        &[],
    )
    .unwrap();
    let relative: Vec<String> = rs
        .procs
        .iter()
        .flat_map(|p| &p.steps)
        .filter(|s| s.group_relative)
        .map(|s| s.label.clone())
        .collect();
    let explain = out(&tb(&["explain", r, e, "--format", "json"]));
    let applied = explain_applications(&explain);
    for (i, ap) in applied.iter().enumerate() {
        let (label, parts, values) = (&ap.label, &ap.parts, &ap.values);
        let compared_later = |n: &String| {
            applied[i + 1..]
                .iter()
                .any(|l| &l.label == label && l.values.contains_key(n))
        };
        for w in parts.windows(2) {
            for a in &w[0] {
                for b in &w[1] {
                    checked += 1;
                    let (va, vb) = (values.get(a), values.get(b));
                    assert!(
                        va != vb,
                        "{r} {e}: explain prints {a} and {b} alike ({va:?}) under {label}"
                    );
                    if relative.contains(label) && (compared_later(a) || compared_later(b)) {
                        continue;
                    }
                    for (f, cells) in formats {
                        let key = |n: &String| (n.clone(), label.clone());
                        let (ca, cb) = (cells.get(&key(a)), cells.get(&key(b)));
                        if ca.is_none() && cb.is_none() {
                            continue; // no such column (a step inside another procedure)
                        }
                        assert!(
                            ca != cb,
                            "{r} {e}: {f} prints {a} and {b} alike ({ca:?}) in {label}, which separates them"
                        );
                    }
                }
            }
        }
    }
    checked
}
