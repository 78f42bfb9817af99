//! Short codes: the `modifier`, `code`, `qualifier` and `codes` declarations of the loaded files, and every list of codes expanded into the steps (and procedures) its codes declare.
//!
//! Expansion happens on the syntax tree, before names are resolved: each
//! item of a list (`BH/C1`) is looked up among the declared codes
//! (case-insensitively, through `means` to the code with steps), its
//! modifiers are read as their declarations say, and the code's steps are
//! copied with every name a modifier sets replaced by its value. Parts
//! that the values decide are then folded (`if false then a else b` is
//! `b`, `cut_lowest(x, 0)` is `x`, a step whose `when` is false is left
//! out), so a list computes exactly what the same steps written by hand
//! would. The copied steps keep the code's file, so a mistake in a code is
//! reported where the code is written; a mistake in a list is reported in
//! the list.

use super::Checker;
use crate::codes;
use crate::diag::{Diag, Span};
use crate::num::Num;
use crate::plan::ListInfo;
use crate::syntax::ast::{
    self, Action, ArgForm, BinOp, CodeBody, CodeDecl, CodeListDecl, CodesRef, Expr, ExprKind,
    FileId, Handoff, Ident, Item, ModifierDecl, ProcDef, StepDir, UnOp,
};
use crate::syntax::descriptors::{self, Descriptor};
use std::collections::HashMap;

/// The procedure a list given as the standings ranks with.
pub const LIST_PROCEDURE: &str = "descriptors";

/// The declarations of every loaded file.
#[derive(Default)]
pub struct Decls {
    modifiers: Vec<(FileId, ModifierDecl)>,
    codes: Vec<(FileId, CodeDecl)>,
    qualifiers: Vec<String>,
    list: Option<(FileId, CodeListDecl)>,
}

impl Decls {
    fn code(&self, name: &str) -> Option<usize> {
        self.codes
            .iter()
            .position(|(_, c)| c.name.name.eq_ignore_ascii_case(name))
    }
    fn letter_known(&self, letter: char) -> bool {
        self.modifiers
            .iter()
            .any(|(_, m)| same_letter(&m.letter, letter))
    }
    /// Every code's name, in declaration order.
    fn names(&self) -> String {
        let names: Vec<&str> = self
            .codes
            .iter()
            .map(|(_, c)| c.name.name.as_str())
            .collect();
        names.join(" ")
    }
    /// The names a code's modifiers set, at their values without the
    /// modifier, then what `with` fixed (nearest first wins).
    fn defaults(&self, r: &Resolved) -> HashMap<String, Expr> {
        let mut binds: HashMap<String, Expr> = HashMap::new();
        for (_, m) in &self.modifiers {
            if !r.takes.iter().any(|l| l.eq_ignore_ascii_case(&m.letter)) {
                continue;
            }
            match &m.default {
                Some(e) => {
                    binds.insert(m.name.name.clone(), e.clone());
                }
                None => {
                    let v = match m.form {
                        None => lit_bool(false, m.name.span),
                        Some(_) => lit_num(Num::ZERO, m.name.span),
                    };
                    binds.entry(m.name.name.clone()).or_insert(v);
                }
            }
        }
        for (_, n, e) in r.with.iter().rev() {
            binds.insert(n.name.clone(), fold(e.clone()));
        }
        binds
    }
}

fn same_letter(declared: &str, letter: char) -> bool {
    let mut cs = declared.chars();
    matches!((cs.next(), cs.next()), (Some(c), None) if c.eq_ignore_ascii_case(&letter))
}

/// A code followed through `means` to the one with steps.
struct Resolved {
    /// The code with steps.
    target: usize,
    /// The names aliases fixed (`with board_count = true`), nearest first,
    /// then the code's own `with`.
    with: Vec<(FileId, Ident, Expr)>,
    /// The citation of the first step, where an alias gives one.
    cite: Option<String>,
    /// The modifiers accepted (the nearest declaration that says).
    takes: Vec<String>,
    /// The edition that introduced it (the nearest that says).
    since: Option<u32>,
}

/// An item of a list, read: its code, the names its modifiers set, and the
/// modifiers' citations.
type Found = (Resolved, HashMap<String, Expr>, Vec<String>);

impl Checker {
    /// Gather the declarations, check them, and expand every list of codes
    /// (in procedures, as the standings, or the list the caller gave).
    pub(super) fn expand_codes(&mut self) {
        let mut d = Decls::default();
        for (fid, f) in self.asts.iter().enumerate() {
            for item in &f.items {
                match item {
                    Item::Modifier(m) => d.modifiers.push((fid, m.clone())),
                    Item::Code(c) => d.codes.push((fid, c.clone())),
                    Item::Qualifier(q, _, _) => d.qualifiers.push(q.clone()),
                    Item::CodeList(l) if d.list.is_none() => d.list = Some((fid, l.clone())),
                    _ => {}
                }
            }
        }
        self.check_decls(&d);
        if !self.errors.is_empty() {
            return;
        }
        self.code_names = d
            .codes
            .iter()
            .map(|(_, c)| (c.name.name.clone(), c.doc.clone()))
            .collect();
        // Lists inside procedures.
        for fid in 0..self.asts.len() {
            let mut extra = Vec::new();
            let mut items = std::mem::take(&mut self.asts[fid].items);
            for item in &mut items {
                let Item::Procedure(p) = item else { continue };
                if let Some((_, at)) = p.remaining {
                    self.err(
                        fid,
                        at,
                        codes::CHECK_CODES,
                        "`remaining codes` outside a code".into(),
                        "not in a code's procedure",
                        "`remaining codes` belongs in a procedure inside `code \"...\" { ... }`: it stands for the codes after that one in a list",
                    );
                }
                let lists = std::mem::take(&mut p.codes);
                let end = p.end.clone();
                for (k, (at, list)) in lists.iter().enumerate().rev() {
                    let ds = match descriptors::parse_list(&self.files[fid], Some(list.span)) {
                        Ok(ds) => ds,
                        Err(es) => {
                            self.errors.extend(es);
                            continue;
                        }
                    };
                    let prefix = format!("{}_{}", p.name.name, k + 1);
                    if let Some(steps) =
                        self.expand_list(&d, fid, &ds, end.clone(), &prefix, &mut extra)
                    {
                        let at = (*at).min(p.steps.len());
                        p.steps.splice(at..at, steps);
                    }
                }
            }
            items.extend(extra.into_iter().map(Item::Procedure));
            self.asts[fid].items = items;
        }
        // A list as the standings: the caller's list, or the root's `standings codes "..."`.
        let root_list = self.asts[0].items.iter().find_map(|i| match i {
            Item::StandingsCodes(r) => Some((0, r.clone())),
            _ => None,
        });
        let given = self.list_root.map(|fid| {
            let span = Span::new(0, self.files[fid].text.len());
            let list = self.files[fid].text.to_string();
            (fid, CodesRef { list, span })
        });
        if let Some((fid, list)) = given.or(root_list) {
            self.standings_list(&d, fid, &list);
        }
        self.decls = d;
    }

    /// The root file's codes' steps, with no modifier given, resolve as a
    /// list naming them would need: a mistake in a code is found when its
    /// file is checked (`tb check`), not only when a list first names it.
    /// Imported libraries' codes are checked when a list uses them (their
    /// own check covers the rest), which keeps `--tiebreaks` from checking
    /// every code of a library each time. Runs after names are resolved;
    /// the steps are checked and dropped.
    pub(super) fn check_code_templates(&mut self) {
        let d = std::mem::take(&mut self.decls);
        for i in 0..d.codes.len() {
            let (tfid, code) = &d.codes[i];
            if *tfid != 0 {
                continue;
            }
            let CodeBody::Steps(steps, procs) = &code.body else {
                continue;
            };
            let Some(r) = self.resolve_code(&d, i) else {
                continue;
            };
            let binds = d.defaults(&r);
            let own: Vec<&str> = procs.iter().map(|p| p.name.name.as_str()).collect();
            let none = HashMap::new();
            for s in steps.iter().chain(procs.iter().flat_map(|p| &p.steps)) {
                let label = &code.name.name;
                if let Some(s) = copy_step(s, *tfid, &binds, &none, false, label, None) {
                    self.check_step(*tfid, &s, &own);
                }
            }
        }
        self.decls = d;
    }

    /// The declarations themselves: letters, takes, means, primary codes.
    fn check_decls(&mut self, d: &Decls) {
        for (i, (fid, m)) in d.modifiers.iter().enumerate() {
            let one_letter =
                m.letter.chars().count() == 1 && m.letter.chars().all(|c| c.is_ascii_alphabetic());
            if !one_letter {
                self.err(
                    *fid,
                    m.span,
                    codes::CHECK_CODES,
                    format!("`modifier \"{}\"`: a modifier is one letter", m.letter),
                    "not one letter",
                    "write the letter that follows the slash, e.g. `modifier \"C\" whole cut`",
                );
            }
            let twice = d.modifiers[..i]
                .iter()
                .any(|(_, o)| o.letter.eq_ignore_ascii_case(&m.letter) && o.form == m.form);
            if twice {
                self.err(
                    *fid,
                    m.span,
                    codes::CHECK_DUPLICATE_DEFINITION,
                    format!(
                        "`modifier \"{}\"` is declared twice with the same argument",
                        m.letter
                    ),
                    "second declaration",
                    "declare each letter once per argument form (`whole`, `signed whole`, `decimal`, `signed decimal`, or none)",
                );
            }
        }
        for (i, (fid, c)) in d.codes.iter().enumerate() {
            let twice = d.codes[..i]
                .iter()
                .any(|(_, o)| o.name.name.eq_ignore_ascii_case(&c.name.name));
            if twice {
                self.err(
                    *fid,
                    c.name.span,
                    codes::CHECK_DUPLICATE_DEFINITION,
                    format!("`code \"{}\"` is declared twice", c.name.name),
                    "second declaration",
                    "keep one declaration per code (codes are read without regard to case)",
                );
            }
            if c.name.name.is_empty() || c.name.name.contains([',', '/', '"', '\\', ' ']) {
                self.err(
                    *fid,
                    c.name.span,
                    codes::CHECK_CODES,
                    format!("`code \"{}\"`: not a code a list can name", c.name.name),
                    "here",
                    "a code is letters and digits (and `:` before a qualifier), e.g. `BH` or `BH:GP`",
                );
            }
            for t in &c.takes {
                let mut cs = t.name.chars();
                let known = matches!((cs.next(), cs.next()), (Some(l), None) if d.letter_known(l));
                if !known {
                    self.err(
                        *fid,
                        t.span,
                        codes::CHECK_CODES,
                        format!(
                            "`code \"{}\"` takes `{}`, which no `modifier` declares",
                            c.name.name, t.name
                        ),
                        "unknown modifier",
                        "declare it (`modifier \"C\" whole cut ...`) or import the library that does",
                    );
                }
            }
            if let CodeBody::Means(target, _) = &c.body {
                if self.resolve_code(d, i).is_none() {
                    self.err(
                        *fid,
                        target.span,
                        codes::CHECK_CODES,
                        format!(
                            "`code \"{}\" means \"{}\"`: no such code, or the meanings go round in a circle",
                            c.name.name, target.name
                        ),
                        "unknown code",
                        &format!("the codes are: {}", d.names()),
                    );
                }
            }
        }
        if let Some((fid, l)) = &d.list {
            for p in &l.primary {
                if d.code(&p.name).is_none() {
                    self.err(
                        *fid,
                        p.span,
                        codes::CHECK_CODES,
                        format!("`primary \"{}\"`: no such code", p.name),
                        "unknown code",
                        &format!("the codes are: {}", d.names()),
                    );
                }
            }
        }
    }

    /// Follow `means` from code `i` to the code with steps.
    fn resolve_code(&self, d: &Decls, mut i: usize) -> Option<Resolved> {
        let mut r = Resolved {
            target: i,
            with: Vec::new(),
            cite: None,
            takes: Vec::new(),
            since: None,
        };
        let mut takes_set = false;
        for _ in 0..=d.codes.len() {
            let (fid, c) = &d.codes[i];
            if r.cite.is_none() {
                r.cite = c.cite.clone();
            }
            if !takes_set && !c.takes.is_empty() {
                r.takes = c
                    .takes
                    .iter()
                    .map(|t| t.name.to_ascii_uppercase())
                    .collect();
                takes_set = true;
            }
            r.since = r.since.or(c.since);
            match &c.body {
                CodeBody::Steps(..) => {
                    r.target = i;
                    // The code's own values come last: aliases fix them.
                    for (n, e) in &c.with {
                        r.with.push((*fid, n.clone(), e.clone()));
                    }
                    return Some(r);
                }
                CodeBody::Means(t, with) => {
                    for (n, e) in with {
                        r.with.push((*fid, n.clone(), e.clone()));
                    }
                    i = d.code(&t.name)?;
                }
            }
        }
        None
    }

    /// The standings as a list: the procedure `descriptors`, titled with
    /// the list, starting with the primary code when the list lacks one,
    /// and ended as the `codes` declaration says.
    fn standings_list(&mut self, d: &Decls, fid: FileId, list: &CodesRef) {
        let Some((lfid, decl)) = d.list.clone() else {
            self.err(
                fid,
                list.span,
                codes::CHECK_CODES,
                "a list of codes as the standings needs a `codes` declaration".into(),
                "no `codes ... otherwise ...` line is loaded",
                "import the library that declares the codes (e.g. `import \"fide/codes\"`), or write a procedure whose steps include `codes \"...\"`",
            );
            return;
        };
        let ds = match descriptors::parse_list(&self.files[fid], Some(list.span)) {
            Ok(ds) => ds,
            Err(es) => {
                self.errors.extend(es);
                return;
            }
        };
        let mut info = ListInfo {
            source: decl.source.clone(),
            newer_cite: decl.newer.clone(),
            ..ListInfo::default()
        };
        let mut extra = Vec::new();
        let end = Some(decl.end.clone());
        let Some(mut steps) = self.expand_list(d, fid, &ds, end, "", &mut extra) else {
            return;
        };
        // The edition each code came with, for the notes.
        for item in &ds {
            let found = d.code(&code_name(d, item));
            if let Some(y) = found.and_then(|i| self.resolve_code(d, i)?.since) {
                info.since.push((item.text.clone(), y));
            }
        }
        let has_primary = ds.iter().any(|item| {
            let name = code_name(d, item);
            decl.primary
                .iter()
                .any(|p| p.name.eq_ignore_ascii_case(&name))
        });
        if let (false, Some(first)) = (has_primary, decl.primary.first()) {
            let lone = Descriptor {
                text: first.name.clone(),
                span: first.span,
                name: first.name.clone(),
                name_span: first.span,
                qualifier: None,
                modifiers: Vec::new(),
            };
            let mut none = Vec::new();
            if let Some(mut s) = self.expand_list(d, lfid, &[lone], None, "", &mut none) {
                let cite = s.first().and_then(|s| s.cite.clone());
                // "Points (Art. 4.2)." says what the code is: "points".
                let doc = d
                    .code(&first.name)
                    .map_or("", |i| d.codes[i].1.doc.as_str());
                let what = doc.split(['(', '.', ';', ':']).next().unwrap_or("").trim();
                let what = match what.chars().next() {
                    Some(c) if what.len() > 1 => {
                        format!("{}{}", c.to_lowercase(), &what[c.len_utf8()..])
                    }
                    _ => first.name.clone(),
                };
                info.primary_added = Some((first.name.clone(), what, cite));
                s.extend(steps);
                steps = s;
            }
        }
        let text: Vec<&str> = ds.iter().map(|x| x.text.as_str()).collect();
        let titled = self.asts[0]
            .items
            .iter()
            .any(|i| matches!(i, Item::Header(ast::HeaderKind::Title, ..)));
        if !titled {
            let title = format!("{} {}", decl.title, text.join(","));
            let header = Item::Header(ast::HeaderKind::Title, title, list.span);
            self.asts[0].items.push(header);
        }
        let name = Ident {
            name: LIST_PROCEDURE.into(),
            span: decl.span,
        };
        let proc_def = ProcDef {
            codes: Vec::new(),
            remaining: None,
            name: name.clone(),
            cite: decl.cite.clone(),
            default_then: None,
            steps,
            end: Some(decl.end.clone()),
            doc: String::new(),
            span: decl.span,
        };
        self.asts[lfid].items.push(Item::Procedure(proc_def));
        self.asts[lfid]
            .items
            .extend(extra.into_iter().map(Item::Procedure));
        self.asts[0]
            .items
            .retain(|i| !matches!(i, Item::StandingsCodes(_)));
        self.asts[0].items.push(Item::Standings(name));
        self.list_info = Some(info);
    }

    /// The steps of a list (written in file `fid`); procedures of its codes
    /// go to `extra`, named with `prefix` and the item's place. None when
    /// an item is wrong (the errors are recorded).
    fn expand_list(
        &mut self,
        d: &Decls,
        fid: FileId,
        ds: &[Descriptor],
        end: Option<ast::End>,
        prefix: &str,
        extra: &mut Vec<ProcDef>,
    ) -> Option<Vec<ast::Step>> {
        let before = self.errors.len();
        let found: Vec<Option<Found>> =
            ds.iter().map(|item| self.read_item(d, fid, item)).collect();
        if self.errors.len() > before {
            return None;
        }
        let found: Vec<Found> = found.into_iter().flatten().collect();
        let list = List {
            d,
            ds,
            found: &found,
            prefix,
        };
        Some(list.steps(0, end, extra))
    }

    /// Look an item up and read its qualifier and modifiers: the code, the
    /// names its modifiers set, and their citations.
    fn read_item(&mut self, d: &Decls, fid: FileId, item: &Descriptor) -> Option<Found> {
        let src = self.files[fid].clone();
        let t = &item.text;
        let Some(ci) = d.code(&code_name(d, item)) else {
            self.errors.push(unknown_code(d, &src, item));
            return None;
        };
        let r = self.resolve_code(d, ci)?;
        let name = d.codes[ci].1.name.name.clone();
        let mut errors = Vec::new();
        // A qualifier that is not part of the code's own name means the code as it is.
        if let Some((q, qspan)) = &item.qualifier {
            let own = name.contains(':');
            if !own && !d.qualifiers.iter().any(|k| k.eq_ignore_ascii_case(q)) {
                let known: Vec<String> = d.qualifiers.iter().map(|k| format!(":{k}")).collect();
                let qualified: Vec<&str> = d
                    .codes
                    .iter()
                    .map(|(_, c)| c.name.name.as_str())
                    .filter(|c| c.contains(':'))
                    .collect();
                // Libraries without qualifiers are for events with one score.
                let (code, msg, help) = if known.is_empty() && qualified.is_empty() {
                    (
                        codes::DESCRIPTORS_TEAM_CODE,
                        format!("`:{q}` chooses a score type (a team's match or game points); the codes of this list take none"),
                        format!("write `{}`", item.name),
                    )
                } else {
                    let or_none = |v: Vec<String>| {
                        if v.is_empty() {
                            "none".to_string()
                        } else {
                            v.join(" ")
                        }
                    };
                    (
                        codes::DESCRIPTORS_BAD_VALUE,
                        format!("`{t}`: `:{q}` is not a qualifier of {}", item.name),
                        format!(
                            "qualifiers of every code: {}; codes of their own: {}",
                            or_none(known),
                            or_none(qualified.iter().map(|s| s.to_string()).collect())
                        ),
                    )
                };
                errors.push(
                    Diag::error(code, msg)
                        .at(&src, *qspan, "unknown qualifier")
                        .with_help(help),
                );
            }
        }
        let mut binds = d.defaults(&r);
        let mut seen: Vec<char> = Vec::new();
        let mut cites = Vec::new();
        for m in &item.modifiers {
            match read_modifier(d, &r, &name, t, &src, m, &seen) {
                Ok((decl, value)) => {
                    seen.push(m.letter);
                    binds.insert(decl.name.name.clone(), value);
                    if let Some(c) = &decl.cite {
                        cites.push(c.clone());
                    }
                }
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() {
            Some((r, binds, cites))
        } else {
            self.errors.extend(errors);
            None
        }
    }
}

/// The code an item names: `BH:GP` when that is declared, else `BH`.
fn code_name(d: &Decls, item: &Descriptor) -> String {
    match &item.qualifier {
        Some((q, _)) if d.code(&format!("{}:{q}", item.name)).is_some() => {
            format!("{}:{q}", item.name)
        }
        _ => item.name.clone(),
    }
}

/// The error for an item whose code no library declares.
fn unknown_code(d: &Decls, src: &crate::diag::Source, item: &Descriptor) -> Diag {
    if let Some((base, m)) = item
        .name
        .split_once('-')
        .filter(|(b, _)| d.code(b).is_some())
    {
        return Diag::error(
            codes::DESCRIPTORS_UNKNOWN_CODE,
            format!("`{}` is written with a dash", item.name),
        )
        .at(src, item.name_span, "a label, not a code with its modifier")
        .with_help(format!("write the modifier after a slash: {base}/{m}"));
    }
    let upper = item.name.to_ascii_uppercase();
    let distance = |c: &str| crate::text::edit_distance(&upper, &c.to_ascii_uppercase());
    let near = d
        .codes
        .iter()
        .map(|(_, c)| c.name.name.as_str())
        .filter(|c| !c.contains(':'))
        .min_by_key(|c| (distance(c), *c))
        .filter(|c| distance(c) <= 1)
        .map_or(String::new(), |c| format!("did you mean `{c}`? "));
    let help = if d.codes.is_empty() {
        "no library that declares codes is loaded: import one (e.g. `import \"fide/codes\"`)"
            .to_string()
    } else {
        format!("{near}the codes are: {}", d.names())
    };
    Diag::error(
        codes::DESCRIPTORS_UNKNOWN_CODE,
        format!(
            "`{}` is not a tie-break code of the loaded libraries",
            item.name
        ),
    )
    .at(src, item.name_span, "unknown code")
    .with_help(help)
}

/// One modifier of item `t` (of code `name`): the declaration that reads
/// it and the value it gives its name. `seen`: the letters before it.
fn read_modifier<'d>(
    d: &'d Decls,
    r: &Resolved,
    name: &str,
    t: &str,
    src: &crate::diag::Source,
    m: &descriptors::Modifier,
    seen: &[char],
) -> Result<(&'d ModifierDecl, Expr), Diag> {
    let l = m.letter;
    if !d.letter_known(l) {
        let mut letters: Vec<String> = d
            .modifiers
            .iter()
            .map(|(_, x)| format!("/{}", x.letter.to_ascii_uppercase()))
            .collect();
        letters.dedup();
        let help = if letters.is_empty() {
            "the loaded libraries declare no modifiers".to_string()
        } else {
            format!("modifiers are {}", letters.join(" "))
        };
        return Err(Diag::error(
            codes::DESCRIPTORS_UNKNOWN_MODIFIER,
            format!("`{t}`: tb does not support the modifier `/{}`", m.text),
        )
        .at(src, m.span, "unsupported modifier")
        .with_help(help));
    }
    let doc = |l: char| -> String {
        let docs: Vec<&str> = d
            .modifiers
            .iter()
            .filter(|(_, x)| same_letter(&x.letter, l) && !x.doc.is_empty())
            .map(|(_, x)| x.doc.as_str())
            .collect();
        docs.join(" ")
    };
    if !r.takes.iter().any(|x| same_letter(x, l)) {
        let takers: Vec<&str> = d
            .codes
            .iter()
            .filter(|(_, c)| c.takes.iter().any(|x| same_letter(&x.name, l)))
            .map(|(_, c)| c.name.name.as_str())
            .collect();
        let doc = doc(l);
        let takers = if takers.is_empty() {
            "no code".to_string()
        } else {
            takers.join(", ")
        };
        let help = if doc.is_empty() {
            format!("/{l} is taken by {takers}")
        } else {
            format!("{doc} /{l} is taken by {takers}")
        };
        return Err(Diag::error(
            codes::DESCRIPTORS_INVALID_COMBINATION,
            format!("`{t}`: {name} does not take `/{}`", m.text),
        )
        .at(src, m.span, format!("not a modifier of {name}"))
        .with_help(help));
    }
    let excludes = |x: &ModifierDecl, a: char, b: char| {
        same_letter(&x.letter, a) && x.excludes.as_deref().is_some_and(|e| same_letter(e, b))
    };
    let excluded = seen.iter().any(|&s| {
        d.modifiers
            .iter()
            .any(|(_, x)| excludes(x, l, s) || excludes(x, s, l))
    });
    if seen.contains(&l) || excluded {
        return Err(Diag::error(
            codes::DESCRIPTORS_INVALID_COMBINATION,
            format!("`{t}`: `/{}` repeats or contradicts an earlier modifier", m.text),
        )
        .at(src, m.span, "second cut or repeated modifier")
        .with_help("give each modifier once; Cut-n and Median-n do not combine (Median already cuts the lowest)"));
    }
    let form = if m.arg.is_empty() {
        None
    } else {
        arg_form(&m.arg)
    };
    let decl = d.modifiers.iter().find(|(_, x)| {
        same_letter(&x.letter, l)
            && x.form == form.map(|(f, _)| f)
            && (form.is_some() || m.arg.is_empty())
    });
    let Some((_, decl)) = decl else {
        let forms: Vec<String> = d
            .modifiers
            .iter()
            .filter(|(_, x)| same_letter(&x.letter, l))
            .map(|(_, x)| match x.form {
                None => format!("/{l} alone"),
                Some(f) => format!("/{l} with a {} number", f.words()),
            })
            .collect();
        let doc = doc(l);
        return Err(Diag::error(
            codes::DESCRIPTORS_BAD_VALUE,
            format!("`{t}`: cannot read `/{}`", m.text),
        )
        .at(src, m.span, format!("expected {}", forms.join(" or ")))
        .with_help(if doc.is_empty() {
            format!("write {}", forms.join(" or "))
        } else {
            doc
        }));
    };
    let value = form.map_or(Num::ZERO, |(_, v)| v);
    let mut vb = HashMap::new();
    vb.insert("value".to_string(), lit_num(value, m.span));
    if let Some(g) = &decl.guard {
        let g = fold(subst(g, &vb, &mut Vec::new()));
        if !matches!(g.kind, ExprKind::Bool(true)) {
            let help = if decl.doc.is_empty() {
                "see the modifier's declaration".to_string()
            } else {
                decl.doc.clone()
            };
            return Err(Diag::error(
                codes::DESCRIPTORS_BAD_VALUE,
                format!("`{t}`: `/{}` is outside what `/{l}` accepts", m.text),
            )
            .at(src, m.span, "out of range")
            .with_help(help));
        }
    }
    let v = match (&decl.value, decl.form) {
        (Some(e), _) => fold(subst(e, &vb, &mut Vec::new())),
        (None, None) => lit_bool(true, decl.name.span),
        (None, Some(_)) => lit_num(value, decl.name.span),
    };
    Ok((decl, v))
}

/// A list being expanded: its items and what each was read as.
struct List<'a> {
    d: &'a Decls,
    ds: &'a [Descriptor],
    found: &'a [Found],
    prefix: &'a str,
}

impl List<'_> {
    /// Steps of items `from..`; a code with a procedure of its own that
    /// says `remaining codes` takes the rest of the list there.
    fn steps(
        &self,
        from: usize,
        end: Option<ast::End>,
        extra: &mut Vec<ProcDef>,
    ) -> Vec<ast::Step> {
        let mut out = Vec::new();
        for i in from..self.ds.len() {
            let (r, binds, cites) = &self.found[i];
            let (tfid, code) = &self.d.codes[r.target];
            let CodeBody::Steps(steps, procs) = &code.body else {
                continue;
            };
            let reversed = matches!(
                binds.get("reversed").map(|e| &e.kind),
                Some(ExprKind::Bool(true))
            );
            // A code's procedures are named for the item's place in the list.
            let rename: HashMap<String, String> = procs
                .iter()
                .map(|p| {
                    let n = if self.prefix.is_empty() {
                        format!("{}_{}", p.name.name, i + 1)
                    } else {
                        format!("{}_{}_{}", self.prefix, p.name.name, i + 1)
                    };
                    (p.name.name.clone(), n)
                })
                .collect();
            let label = self.ds[i].text.as_str();
            for (k, s) in steps.iter().enumerate() {
                let own = if k == 0 { r.cite.clone() } else { None };
                let cite = cites.iter().fold(own.or_else(|| s.cite.clone()), |c, m| {
                    Some(merge_cite(c, m))
                });
                if let Some(s) = copy_step(s, *tfid, binds, &rename, reversed, label, cite) {
                    out.push(s);
                }
            }
            let mut takes_rest = false;
            for p in procs {
                let mut q = p.clone();
                q.name = Ident {
                    name: rename[&p.name.name].clone(),
                    span: p.name.span,
                };
                q.steps = p
                    .steps
                    .iter()
                    .filter_map(|s| {
                        copy_step(s, *tfid, binds, &rename, reversed, label, s.cite.clone())
                    })
                    .collect();
                if let Some((at, _)) = p.remaining {
                    let rest = self.steps(i + 1, end.clone(), extra);
                    let at = at.min(q.steps.len());
                    q.steps.splice(at..at, rest);
                    takes_rest = true;
                }
                q.remaining = None;
                if q.end.is_none() {
                    q.end = end.clone();
                }
                q.doc = format!("{label}: {}", p.doc);
                extra.push(q);
            }
            if takes_rest {
                break;
            }
        }
        out
    }
}

/// The form of a modifier's argument and its value: `1` whole, `-1`
/// signed whole, `2.5` decimal, `-1.5` signed decimal; None when
/// unreadable.
fn arg_form(arg: &str) -> Option<(ArgForm, Num)> {
    let (signed, neg, digits) = match arg.as_bytes().first()? {
        b'+' => (true, false, &arg[1..]),
        b'-' => (true, true, &arg[1..]),
        _ => (false, false, arg),
    };
    let (whole, frac) = match digits.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (digits, None),
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !all_digits(whole) || frac.is_some_and(|f| !all_digits(f)) {
        return None;
    }
    let n = Num::parse(digits)?;
    let n = if neg { n.neg().ok()? } else { n };
    let form = match (signed, frac.is_some()) {
        (false, false) => ArgForm::Whole,
        (true, false) => ArgForm::SignedWhole,
        (false, true) => ArgForm::Decimal,
        (true, true) => ArgForm::SignedDecimal,
    };
    Some((form, n))
}

/// `Art. 8.1, 16` with `Art. 14`: `Art. 8.1, 14, 16`: the modifier's
/// article in its place among the numbered parts (the shared first word
/// once), unless a part already covers it (`14.1.2` covers `14`).
fn merge_cite(base: Option<String>, more: &str) -> String {
    let Some(base) = base else {
        return more.to_string();
    };
    let word = |s: &str| s.split_whitespace().next().map(str::to_string);
    let more = match (word(&base), word(more)) {
        (Some(a), Some(b)) if a == b && more.len() > a.len() => more[a.len()..].trim_start(),
        _ => more,
    };
    let number = |p: &str| -> Option<Vec<u32>> {
        let p = p.trim_start_matches(|c: char| !c.is_ascii_digit());
        p.split('.').map(|x| x.parse().ok()).collect()
    };
    let parts: Vec<&str> = base.split(", ").collect();
    let Some(key) = number(more) else {
        return format!("{base}, {more}");
    };
    if parts
        .iter()
        .filter_map(|p| number(p))
        .any(|n| n.starts_with(&key))
    {
        return base;
    }
    let at = parts
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, p)| number(p).is_some_and(|n| n > key))
        .map_or(parts.len(), |(i, _)| i);
    let mut out: Vec<&str> = parts[..at].to_vec();
    out.push(more);
    out.extend_from_slice(&parts[at..]);
    out.join(", ")
}

/// A step of a code copied for one item: names replaced, folded, labelled.
/// None when its `when` is false for these values.
fn copy_step(
    s: &ast::Step,
    file: FileId,
    binds: &HashMap<String, Expr>,
    rename: &HashMap<String, String>,
    reversed: bool,
    label: &str,
    cite: Option<String>,
) -> Option<ast::Step> {
    let mut out = s.clone();
    out.expr = fold(subst(&s.expr, binds, &mut Vec::new()));
    out.when = match s
        .when
        .as_ref()
        .map(|w| fold(subst(w, binds, &mut Vec::new())))
    {
        Some(Expr {
            kind: ExprKind::Bool(false),
            ..
        }) => return None,
        Some(Expr {
            kind: ExprKind::Bool(true),
            ..
        })
        | None => None,
        Some(w) => Some(w),
    };
    if reversed {
        out.dir = match s.dir {
            None => Some((StepDir::Reversed, s.expr.span)),
            Some((StepDir::Given(g), at)) => Some((StepDir::Given(g.reversed()), at)),
            Some((StepDir::Reversed, _)) => None,
        };
    }
    let rn = |a: &Action| match a {
        Action::Proc(n) => Action::Proc(Ident {
            name: rename
                .get(&n.name)
                .cloned()
                .unwrap_or_else(|| n.name.clone()),
            span: n.span,
        }),
        a => a.clone(),
    };
    out.then = s.then.as_ref().map(|h| match h {
        Handoff::Always(a) => Handoff::Always(rn(a)),
        Handoff::BySize(cases, other) => Handoff::BySize(
            cases.iter().map(|(n, a)| (*n, rn(a))).collect(),
            other.as_ref().map(rn),
        ),
    });
    out.label = Some(label.to_string());
    out.cite = cite;
    out.file = Some(s.file.unwrap_or(file));
    Some(out)
}

fn lit_num(n: Num, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Num(n),
        span,
    }
}

fn lit_bool(b: bool, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Bool(b),
        span,
    }
}

/// `e` with every free name in `binds` replaced by its value (spanned
/// where the name was, so every span stays in `e`'s file). `bound` holds
/// the loop variables in scope, which are never replaced.
fn subst(e: &Expr, binds: &HashMap<String, Expr>, bound: &mut Vec<String>) -> Expr {
    let kind = match &e.kind {
        ExprKind::Var(n) if !bound.contains(n) => match binds.get(n) {
            Some(v) => return respan(v, e.span),
            None => e.kind.clone(),
        },
        ExprKind::Field(b, f, args) => {
            let args = args
                .as_ref()
                .map(|a| a.iter().map(|x| subst(x, binds, bound)).collect());
            ExprKind::Field(Box::new(subst(b, binds, bound)), f.clone(), args)
        }
        ExprKind::Call(f, args) => ExprKind::Call(
            f.clone(),
            args.iter().map(|x| subst(x, binds, bound)).collect(),
        ),
        ExprKind::Named(n, x) => ExprKind::Named(n.clone(), Box::new(subst(x, binds, bound))),
        ExprKind::Aggregate(f, g) => ExprKind::Aggregate(f.clone(), subst_gen(g, binds, bound)),
        ExprKind::List(g) => ExprKind::List(subst_gen(g, binds, bound)),
        ExprKind::If(c, a, b) => ExprKind::If(
            Box::new(subst(c, binds, bound)),
            Box::new(subst(a, binds, bound)),
            Box::new(subst(b, binds, bound)),
        ),
        ExprKind::Unary(op, x) => ExprKind::Unary(*op, Box::new(subst(x, binds, bound))),
        ExprKind::Binary(op, a, b) => ExprKind::Binary(
            *op,
            Box::new(subst(a, binds, bound)),
            Box::new(subst(b, binds, bound)),
        ),
        k => k.clone(),
    };
    Expr { kind, span: e.span }
}

fn subst_gen(
    g: &ast::Generator,
    binds: &HashMap<String, Expr>,
    bound: &mut Vec<String>,
) -> ast::Generator {
    let depth = bound.len();
    let mut fors = Vec::new();
    for (v, xs) in &g.fors {
        fors.push((v.clone(), subst(xs, binds, bound)));
        bound.push(v.name.clone());
    }
    let mut go = |x: &Option<Box<Expr>>| x.as_ref().map(|x| Box::new(subst(x, binds, bound)));
    let cond = go(&g.cond);
    let by = go(&g.by);
    let voluntary = go(&g.voluntary);
    let elem = Box::new(subst(&g.elem, binds, bound));
    bound.truncate(depth);
    ast::Generator {
        elem,
        fors,
        cond,
        by,
        voluntary,
    }
}

/// `v` with every span set to `at`.
fn respan(v: &Expr, at: Span) -> Expr {
    fn walk(e: &mut Expr, at: Span) {
        e.span = at;
        match &mut e.kind {
            ExprKind::Field(b, f, args) => {
                walk(b, at);
                f.span = at;
                for a in args.iter_mut().flatten() {
                    walk(a, at);
                }
            }
            ExprKind::Call(f, args) => {
                f.span = at;
                args.iter_mut().for_each(|a| walk(a, at));
            }
            ExprKind::Named(n, x) => {
                n.span = at;
                walk(x, at);
            }
            ExprKind::Aggregate(f, g) => {
                f.span = at;
                walk_gen(g, at);
            }
            ExprKind::List(g) => walk_gen(g, at),
            ExprKind::If(c, a, b) => {
                walk(c, at);
                walk(a, at);
                walk(b, at);
            }
            ExprKind::Unary(_, x) => walk(x, at),
            ExprKind::Binary(_, a, b) => {
                walk(a, at);
                walk(b, at);
            }
            _ => {}
        }
    }
    fn walk_gen(g: &mut ast::Generator, at: Span) {
        walk(&mut g.elem, at);
        for (v, xs) in &mut g.fors {
            v.span = at;
            walk(xs, at);
        }
        for x in [&mut g.cond, &mut g.by, &mut g.voluntary]
            .into_iter()
            .flatten()
        {
            walk(x, at);
        }
    }
    let mut out = v.clone();
    walk(&mut out, at);
    out
}

/// Fold what constants decide: `not`, arithmetic and comparisons of
/// numbers, `and`/`or` with a constant side, `if` on a constant, and
/// `cut_lowest(x, 0)` / `cut_highest(x, 0)`, which leave `x` as it is. A
/// value that would be undefined (a division by zero) is left unfolded.
fn fold(e: Expr) -> Expr {
    let span = e.span;
    let kind = match e.kind {
        ExprKind::Unary(op, x) => match (op, fold(*x)) {
            (
                UnOp::Not,
                Expr {
                    kind: ExprKind::Bool(v),
                    ..
                },
            ) => ExprKind::Bool(!v),
            (
                UnOp::Neg,
                Expr {
                    kind: ExprKind::Num(n),
                    span: at,
                },
            ) => match n.neg() {
                Ok(m) => ExprKind::Num(m),
                Err(_) => ExprKind::Unary(UnOp::Neg, Box::new(lit_num(n, at))),
            },
            (op, x) => ExprKind::Unary(op, Box::new(x)),
        },
        ExprKind::Binary(op, l, r) => {
            let (l, r) = (fold(*l), fold(*r));
            match (op, &l.kind, &r.kind) {
                (BinOp::And, ExprKind::Bool(false), _) | (BinOp::And, _, ExprKind::Bool(false)) => {
                    ExprKind::Bool(false)
                }
                (BinOp::Or, ExprKind::Bool(true), _) | (BinOp::Or, _, ExprKind::Bool(true)) => {
                    ExprKind::Bool(true)
                }
                (BinOp::And, ExprKind::Bool(true), _) | (BinOp::Or, ExprKind::Bool(false), _) => {
                    return r
                }
                (BinOp::And, _, ExprKind::Bool(true)) | (BinOp::Or, _, ExprKind::Bool(false)) => {
                    return l
                }
                (_, ExprKind::Num(a), ExprKind::Num(c)) => match num_op(op, *a, *c) {
                    Some(k) => k,
                    None => ExprKind::Binary(op, Box::new(l), Box::new(r)),
                },
                (BinOp::Eq, ExprKind::Bool(a), ExprKind::Bool(c)) => ExprKind::Bool(a == c),
                (BinOp::Ne, ExprKind::Bool(a), ExprKind::Bool(c)) => ExprKind::Bool(a != c),
                _ => ExprKind::Binary(op, Box::new(l), Box::new(r)),
            }
        }
        ExprKind::If(c, a, x) => match fold(*c) {
            Expr {
                kind: ExprKind::Bool(true),
                ..
            } => return fold(*a),
            Expr {
                kind: ExprKind::Bool(false),
                ..
            } => return fold(*x),
            c => ExprKind::If(Box::new(c), Box::new(fold(*a)), Box::new(fold(*x))),
        },
        ExprKind::Call(f, args) => {
            let mut args: Vec<Expr> = args.into_iter().map(fold).collect();
            let zero =
                matches!(args.get(1).map(|a| &a.kind), Some(ExprKind::Num(n)) if *n == Num::ZERO);
            let cut = f.name == "cut_lowest" || f.name == "cut_highest";
            if cut && args.len() == 2 && zero {
                return args.swap_remove(0);
            }
            ExprKind::Call(f, args)
        }
        ExprKind::Named(n, x) => ExprKind::Named(n, Box::new(fold(*x))),
        ExprKind::Field(x, f, args) => ExprKind::Field(
            Box::new(fold(*x)),
            f,
            args.map(|a| a.into_iter().map(fold).collect()),
        ),
        k => k,
    };
    Expr { kind, span }
}

fn num_op(op: BinOp, a: Num, c: Num) -> Option<ExprKind> {
    Some(match op {
        BinOp::Add => ExprKind::Num(a.add(c).ok()?),
        BinOp::Sub => ExprKind::Num(a.sub(c).ok()?),
        BinOp::Mul => ExprKind::Num(a.mul(c).ok()?),
        BinOp::Div => ExprKind::Num(a.div(c).ok()?),
        BinOp::Rem => ExprKind::Num(a.rem(c).ok()?),
        BinOp::Eq => ExprKind::Bool(a == c),
        BinOp::Ne => ExprKind::Bool(a != c),
        BinOp::Lt => ExprKind::Bool(a < c),
        BinOp::Le => ExprKind::Bool(a <= c),
        BinOp::Gt => ExprKind::Bool(a > c),
        BinOp::Ge => ExprKind::Bool(a >= c),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_forms() {
        assert_eq!(arg_form("1").map(|x| x.0), Some(ArgForm::Whole));
        assert_eq!(arg_form("-1").map(|x| x.0), Some(ArgForm::SignedWhole));
        assert_eq!(arg_form("+2.5").map(|x| x.0), Some(ArgForm::SignedDecimal));
        assert_eq!(arg_form("60.5").map(|x| x.0), Some(ArgForm::Decimal));
        assert_eq!(arg_form(""), None);
        assert_eq!(arg_form("1x"), None);
        assert_eq!(arg_form("-"), None);
        assert_eq!(arg_form("1."), None);
    }

    #[test]
    fn citations_merge_in_article_order() {
        let m = |b: &str, x: &str| merge_cite(Some(b.into()), x);
        assert_eq!(m("Art. 8.1, 16", "Art. 14"), "Art. 8.1, 14, 16");
        assert_eq!(m("Art. 9.2", "Art. 14.5"), "Art. 9.2, 14.5");
        assert_eq!(m("Art. 9.2, 14.5", "Art. 14.5"), "Art. 9.2, 14.5");
        assert_eq!(
            m("Art. 13.2.1, 14.1.2, 16", "Art. 14"),
            "Art. 13.2.1, 14.1.2, 16"
        );
        assert_eq!(m("§ 3", "Art. 14"), "§ 3, Art. 14");
        assert_eq!(merge_cite(None, "Art. 14"), "Art. 14");
    }

    fn e(kind: ExprKind) -> Expr {
        Expr {
            kind,
            span: Span::new(0, 0),
        }
    }

    #[test]
    fn folding_decides_only_what_constants_decide() {
        let n = |i| e(ExprKind::Num(Num::int(i)));
        let var = |s: &str| e(ExprKind::Var(s.into()));
        let bin = |op, a, b| e(ExprKind::Binary(op, Box::new(a), Box::new(b)));
        let iff = e(ExprKind::If(
            Box::new(bin(BinOp::Gt, n(1), n(0))),
            Box::new(var("a")),
            Box::new(var("b")),
        ));
        assert_eq!(fold(iff).kind, ExprKind::Var("a".into()));
        let div0 = bin(BinOp::Div, n(1), n(0));
        assert!(matches!(fold(div0).kind, ExprKind::Binary(BinOp::Div, ..)));
        let and = bin(BinOp::And, e(ExprKind::Bool(true)), var("x"));
        assert_eq!(fold(and).kind, ExprKind::Var("x".into()));
        let cut = e(ExprKind::Call(
            Ident {
                name: "cut_lowest".into(),
                span: Span::new(0, 0),
            },
            vec![var("l"), bin(BinOp::Add, n(0), n(0))],
        ));
        assert_eq!(fold(cut).kind, ExprKind::Var("l".into()));
    }

    #[test]
    fn loop_variables_are_not_replaced() {
        let mut binds = HashMap::new();
        binds.insert("x".to_string(), e(ExprKind::Num(Num::int(7))));
        let g = ast::Generator {
            elem: Box::new(e(ExprKind::Var("x".into()))),
            fors: vec![(
                Ident {
                    name: "x".into(),
                    span: Span::new(0, 0),
                },
                e(ExprKind::Var("rounds".into())),
            )],
            cond: None,
            by: None,
            voluntary: None,
        };
        let out = subst(&e(ExprKind::List(g)), &binds, &mut Vec::new());
        let ExprKind::List(g) = out.kind else {
            panic!("a list")
        };
        assert_eq!(g.elem.kind, ExprKind::Var("x".into()));
    }
}
