//! `tb doc RULESET`: a checked ruleset written out as a readable
//! regulation (what a federation publishes next to its .tb file): its
//! procedures in order, each step with its label, documentation, direction,
//! hand-off and article, then the definitions the steps use, with theirs.
//!
//! `tb show NAME` is here too: the text of a shipped file, as it is.
//!
//! In: a checked [`Ruleset`] (its procedures, steps and metrics as the
//! checker planned them; the source text only to quote a formula). Out:
//! Markdown or a self-contained HTML page. It reads no files.

use std::collections::HashSet;
use std::fmt::Write as _;
use tb::codes;
use tb::diag::Diag;
use tb::plan::{PAction, PExpr, PHandoff, PKind, PStep, Ruleset};
use tb::syntax::ast::{EndKind, Select};

/// The formats of `tb doc`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum DocFormat {
    /// Markdown (the default): for a README or a web page.
    Markdown,
    /// A self-contained HTML page (no external assets).
    Html,
}

/// `tb show NAME`: the text of a shipped ruleset, library or table data
/// file; an error with the nearest shipped name when there is none.
pub fn show(name: &str) -> Result<&'static str, Diag> {
    if let Some(text) = tb::shipped::get(name) {
        return Ok(text);
    }
    if let Some(&(_, text)) = tb::shipped::SHIPPED_DATA.iter().find(|(n, _)| *n == name) {
        return Ok(text);
    }
    let names = tb::shipped::SHIPPED
        .iter()
        .chain(tb::shipped::SHIPPED_DATA)
        .map(|(n, _)| *n);
    // A slip (`fide/swis`), else the folder left out (`swiss`).
    let near = match (
        tb::text::did_you_mean(name, names),
        tb::shipped::ending_in(name),
    ) {
        (Some(n), _) => format!("did you mean `{n}`? "),
        (None, leaf) if !leaf.is_empty() => format!("did you mean {}? ", quoted(&leaf)),
        _ => String::new(),
    };
    let file = if std::path::Path::new(name).is_file() {
        "; a file of your own is read as it is (`tb doc` documents it)"
    } else {
        ""
    };
    Err(Diag::error(
        codes::CHECK_UNKNOWN_RULESET,
        format!("no shipped ruleset or library named `{name}`"),
    )
    .with_help(format!(
        "{near}`tb list --all` names the shipped rulesets and libraries{file}"
    )))
}

/// `a`, `b` or `c`, each in backquotes.
fn quoted(names: &[&str]) -> String {
    let q: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match q.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => q.join(""),
    }
}

/// The ruleset `name` (as the user named it), checked, as a document.
pub fn render(name: &str, rs: &Ruleset, format: DocFormat) -> String {
    let mut w: Box<dyn Writer> = match format {
        DocFormat::Markdown => Box::new(Markdown(String::new())),
        DocFormat::Html => Box::new(Html(String::new())),
    };
    let title = rs.title.clone().unwrap_or_else(|| name.to_string());
    w.start(&title);
    w.heading(1, &title);
    let mut about = vec![format!("Ruleset `{name}`")];
    if let Some(s) = &rs.source_doc {
        about.push(format!("source: {s}"));
    }
    if let Some(e) = &rs.edition {
        about.push(format!("edition {e}"));
    }
    w.para(&format!("{}.", about.join("; ")));
    if let Some(root) = rs.standings {
        w.para(&format!(
            "The standings are made by procedure `{}`; a group still tied is handed on as each step says.",
            rs.procs[root].name
        ));
    } else {
        w.para("A library: it defines the criteria rulesets import; it ranks no event itself.");
    }
    for (pi, p) in order(rs).into_iter().map(|i| (i, &rs.procs[i])) {
        let root = if rs.standings == Some(pi) {
            ": the standings"
        } else {
            ""
        };
        w.heading(2, &format!("Procedure `{}`{root}{}", p.name, cite(&p.cite)));
        doc(&mut *w, &p.doc);
        w.list_start();
        for (si, st) in p.steps.iter().enumerate() {
            let mut head = format!("**{}**: {}", st.label, st.dir.phrase());
            if st.reversed {
                head.push_str(" (reversed)");
            }
            match st.select {
                Some(Select::Best) => head.push_str("; separates only a unique best"),
                Some(Select::Worst) => head.push_str("; separates only a unique worst"),
                None => {}
            }
            if let Some(h) = handoff(rs, &st.then) {
                let _ = write!(head, "; {h}");
            }
            head.push_str(&cite(&st.cite));
            let mut body = Vec::new();
            if let Some(c) = &st.when {
                body.push(format!("Applied only when `{}`.", quote(rs, c)));
            }
            let text = step_doc(rs, st);
            if !text.is_empty() {
                body.push(text);
            }
            body.push(format!("Compares `{}`.", quote(rs, &st.expr)));
            w.item(si + 1, &head, &body);
        }
        w.list_end();
        let end = match &p.end {
            EndKind::Shared => "the participants still tied share the place".to_string(),
            EndKind::Lots => {
                "the participants still tied are ordered by drawing of lots".to_string()
            }
            EndKind::Unresolved(r) => format!("the tie is reported unresolved: {r}"),
        };
        w.para(&format!("Otherwise {end}{}.", cite(&p.end_cite)));
    }
    categories(&mut *w, rs);
    let (used, tables_used, params_used) = used(rs);
    if !used.is_empty() {
        w.heading(2, "Definitions");
        for id in used {
            let m = &rs.metrics[id];
            let label = if m.label != m.name {
                format!("{} (`{}`)", m.label, m.name)
            } else {
                format!("`{}`", m.name)
            };
            w.heading(3, &format!("{label}{}", cite(&m.cite)));
            doc(&mut *w, &m.doc);
            let mut how = Vec::new();
            if let Some(d) = m.better {
                how.push(format!("{}.", capital(d.phrase())));
            }
            if m.group_relative {
                how.push("Computed among the tied group.".to_string());
            }
            how.push(format!("Defined as `{}`.", quote(rs, &m.body)));
            w.para(&how.join(" "));
        }
    }
    if !tables_used.is_empty() {
        w.heading(2, "Tables");
        for t in tables_used.iter().map(|&i| &rs.tables[i]) {
            w.heading(3, &format!("`{}`{}", t.name, cite(&t.cite)));
            doc(&mut *w, &t.doc);
        }
    }
    if !params_used.is_empty() {
        w.heading(2, "Parameters");
        w.para("Each can be set with `--param NAME=VALUE`.");
        w.list_start();
        for (i, p) in params_used.iter().map(|&i| &rs.params[i]).enumerate() {
            w.item(i + 1, &format!("`{}` = {}", p.name, p.value), &[]);
        }
        w.list_end();
    }
    w.finish()
}

/// The ruleset's prize-list categories, each with its condition and how
/// its list is ordered.
fn categories(w: &mut dyn Writer, rs: &Ruleset) {
    if rs.categories.is_empty() {
        return;
    }
    w.heading(2, "Categories");
    w.para("Prize lists, printed after the standings.");
    w.list_start();
    for (i, c) in rs.categories.iter().enumerate() {
        let order = match c.order {
            tb::plan::CategoryOrder::Overall => "in the overall order".to_string(),
            tb::plan::CategoryOrder::Rerank(None) => {
                "ranked among its members by the standings procedure".to_string()
            }
            tb::plan::CategoryOrder::Rerank(Some(p)) => format!(
                "ranked among its members by procedure `{}`",
                rs.procs[p].name
            ),
        };
        let head = format!("**{}**: {order}{}", c.name, cite(&c.cite));
        let mut body = Vec::new();
        if !c.doc.trim().is_empty() {
            body.push(c.doc.trim().to_string());
        }
        body.push(format!("Those for whom `{}`.", quote(rs, &c.cond)));
        w.item(i + 1, &head, &body);
    }
    w.list_end();
}

/// The procedures, the standings' first, then the others in the order its
/// steps hand groups to them, then any left (a library's).
fn order(rs: &Ruleset) -> Vec<usize> {
    let mut out: Vec<usize> = rs.standings.into_iter().collect();
    let mut i = 0;
    while i < out.len() {
        for st in &rs.procs[out[i]].steps {
            let actions = match &st.then {
                PHandoff::Always(a) => vec![*a],
                PHandoff::BySize(cases, other) => {
                    cases.iter().map(|(_, a)| *a).chain([*other]).collect()
                }
            };
            for a in actions {
                if let PAction::Proc(q) = a {
                    if !out.contains(&q) {
                        out.push(q);
                    }
                }
            }
        }
        i += 1;
    }
    if out.is_empty() {
        out = (0..rs.procs.len()).collect();
    }
    out
}

/// Where a step sends a sub-group still tied, in words (None: on to the
/// next step, which needs no saying).
fn handoff(rs: &Ruleset, then: &PHandoff) -> Option<String> {
    let action = |a: &PAction| match a {
        PAction::Continue => "the next step".to_string(),
        PAction::Restart => "the first step again".to_string(),
        PAction::Repeat => "this step again, among its members".to_string(),
        PAction::Proc(q) => format!("procedure `{}`", rs.procs[*q].name),
    };
    match then {
        PHandoff::Always(PAction::Continue) => None,
        PHandoff::Always(a) => Some(format!("a group still tied goes to {}", action(a))),
        PHandoff::BySize(cases, other) => {
            let mut parts: Vec<String> = cases
                .iter()
                .map(|(n, a)| format!("a group of {n} still tied goes to {}", action(a)))
                .collect();
            parts.push(format!("any other group still tied to {}", action(other)));
            Some(parts.join(", "))
        }
    }
}

/// A step's documentation: its own `///`, else that of the definition it
/// names.
fn step_doc(rs: &Ruleset, st: &PStep) -> String {
    if !st.doc.trim().is_empty() {
        return st.doc.trim().to_string();
    }
    match &st.expr.kind {
        PKind::Metric(id, None, _) => rs.metrics[*id].doc.trim().to_string(),
        _ => String::new(),
    }
}

/// The metrics, tables and parameters the procedures use, directly or
/// through other metrics, each in the order first met.
fn used(rs: &Ruleset) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let mut out = Vec::new();
    let (mut tables, mut params) = (Vec::new(), Vec::new());
    let mut seen = HashSet::new();
    let mut stack: Vec<&PExpr> = Vec::new();
    for p in order(rs) {
        for st in &rs.procs[p].steps {
            stack.extend(st.when.iter());
            stack.push(&st.expr);
            // Depth first, in the order written.
            while let Some(e) = stack.pop() {
                let before = stack.len();
                e.each_child(|c| stack.push(c));
                stack[before..].reverse();
                match &e.kind {
                    PKind::Metric(id, ..) if seen.insert(*id) => {
                        out.push(*id);
                        stack.push(&rs.metrics[*id].body);
                    }
                    PKind::Table(id, _) if !tables.contains(id) => tables.push(*id),
                    PKind::Param(id) if !params.contains(id) => params.push(*id),
                    _ => {}
                }
            }
        }
    }
    if rs.standings.is_none() && out.is_empty() {
        // A library with no procedures: every definition.
        return (
            (0..rs.metrics.len()).collect(),
            (0..rs.tables.len()).collect(),
            (0..rs.params.len()).collect(),
        );
    }
    (out, tables, params)
}

/// The source text of an expression, on one line: comments dropped, and
/// the span widened to the brackets it leaves open (an expression's span
/// does not hold the brackets around its parts).
fn quote(rs: &Ruleset, e: &PExpr) -> String {
    let Some(text) = rs.files.get(e.file).map(|f| &*f.text) else {
        return String::new();
    };
    let (mut a, mut b) = (e.span.start.min(text.len()), e.span.end.min(text.len()));
    let bytes = text.as_bytes();
    let depth = |a: usize, b: usize| {
        bytes[a..b]
            .iter()
            .fold((0i32, 0i32), |(open, unopened), &c| match c {
                b'(' | b'[' => (open + 1, unopened),
                b')' | b']' if open > 0 => (open - 1, unopened),
                b')' | b']' => (open, unopened + 1),
                _ => (open, unopened),
            })
    };
    let (mut open, mut unopened) = depth(a, b);
    while open > 0 && b < bytes.len() {
        match bytes[b] {
            b')' | b']' => open -= 1,
            b'(' | b'[' => open += 1,
            _ => {}
        }
        b += 1;
    }
    while unopened > 0 && a > 0 {
        a -= 1;
        match bytes[a] {
            b'(' | b'[' => unopened -= 1,
            b')' | b']' => unopened += 1,
            _ => {}
        }
    }
    let text = text.get(a..b).unwrap_or("");
    text.lines()
        .map(|l| l.split_once("//").map_or(l, |(code, _)| code))
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ")
        .replace("( ", "(")
        .replace(" )", ")")
}

/// ` (Art. 6)`, or nothing.
fn cite(c: &Option<String>) -> String {
    c.as_ref().map_or(String::new(), |c| format!(" ({c})"))
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
}

/// Documentation: its paragraphs (blank lines part them).
fn doc(w: &mut dyn Writer, text: &str) {
    for para in text.split("\n\n") {
        let para = para.split_whitespace().collect::<Vec<_>>().join(" ");
        if !para.is_empty() {
            w.para(&para);
        }
    }
}

/// One output format: text with `code` in backquotes and **bold** in
/// double stars, as Markdown writes them; HTML turns them into tags.
trait Writer {
    fn start(&mut self, title: &str);
    fn heading(&mut self, level: usize, text: &str);
    fn para(&mut self, text: &str);
    fn list_start(&mut self);
    fn item(&mut self, n: usize, head: &str, body: &[String]);
    fn list_end(&mut self);
    fn finish(self: Box<Self>) -> String;
}

struct Markdown(String);

impl Writer for Markdown {
    fn start(&mut self, _title: &str) {}
    fn heading(&mut self, level: usize, text: &str) {
        let _ = writeln!(self.0, "{} {text}\n", "#".repeat(level));
    }
    fn para(&mut self, text: &str) {
        let _ = writeln!(self.0, "{text}\n");
    }
    fn list_start(&mut self) {}
    fn item(&mut self, n: usize, head: &str, body: &[String]) {
        // Each part its own paragraph inside the item (a loose list), so
        // that Markdown does not run them into one line.
        let _ = writeln!(self.0, "{n}. {head}");
        for b in body {
            let _ = writeln!(self.0, "\n   {b}");
        }
        if !body.is_empty() {
            self.0.push('\n');
        }
    }
    fn list_end(&mut self) {
        if !self.0.ends_with("\n\n") {
            self.0.push('\n');
        }
    }
    fn finish(self: Box<Self>) -> String {
        let mut s = self.0;
        while s.ends_with("\n\n") {
            s.pop();
        }
        s
    }
}

struct Html(String);

/// Text with `code` and **bold** as tags, the rest escaped.
fn inline(text: &str) -> String {
    let esc = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;");
    let mut out = String::new();
    for (i, part) in esc.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{part}</code>");
            continue;
        }
        for (j, bit) in part.split("**").enumerate() {
            if j % 2 == 1 {
                let _ = write!(out, "<strong>{bit}</strong>");
            } else {
                out.push_str(bit);
            }
        }
    }
    out
}

impl Writer for Html {
    fn start(&mut self, title: &str) {
        let _ = write!(
            self.0,
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>{}</title>\n<style>\n\
             body {{ font-family: system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.5; color: #222; }}\n\
             h1 {{ font-size: 1.6rem; }} h2 {{ font-size: 1.25rem; margin-top: 2rem; border-bottom: 1px solid #ccc; }} h3 {{ font-size: 1.05rem; }}\n\
             code {{ font-family: ui-monospace, monospace; font-size: 0.9em; background: #f3f3f3; padding: 0 0.2em; overflow-wrap: anywhere; }}\n\
             li {{ margin-bottom: 0.6rem; }} li p {{ margin: 0.2rem 0; }}\n\
             </style>\n</head>\n<body>\n",
            inline(title).replace("<code>", "").replace("</code>", "")
        );
    }
    fn heading(&mut self, level: usize, text: &str) {
        let _ = writeln!(self.0, "<h{level}>{}</h{level}>", inline(text));
    }
    fn para(&mut self, text: &str) {
        let _ = writeln!(self.0, "<p>{}</p>", inline(text));
    }
    fn list_start(&mut self) {
        self.0.push_str("<ol>\n");
    }
    fn item(&mut self, _n: usize, head: &str, body: &[String]) {
        let _ = write!(self.0, "<li>{}", inline(head));
        for b in body {
            let _ = write!(self.0, "<p>{}</p>", inline(b));
        }
        self.0.push_str("</li>\n");
    }
    fn list_end(&mut self) {
        self.0.push_str("</ol>\n");
    }
    fn finish(self: Box<Self>) -> String {
        let mut s = self.0;
        s.push_str("</body>\n</html>\n");
        s
    }
}
