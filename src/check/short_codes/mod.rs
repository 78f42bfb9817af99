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
use super::{Ctx, Resolve, Scope};
use crate::codes;
use crate::diag::{Diag, Source, Span};
use crate::num::Num;
use crate::plan::ListInfo;
use crate::plan::Ruleset;
use crate::syntax::ast::Action;
use crate::syntax::ast::{
    self, CodeBody, CodeDecl, CodeListDecl, CodesRef, Expr, FileId, Ident, Item, ModifierDecl,
    ProcDef,
};
use crate::syntax::descriptors::{self, Descriptor};
use crate::text::clip;
use std::collections::HashMap;

mod copy;
mod read;

use copy::{copy_step, fold, lit_bool, lit_num, List};
use read::{code_name, read_modifier, unknown_code};

/// Check a list of short codes (`PTS,BH/C1,SB`, as `tb eval --tiebreaks`
/// takes it) as the standings of a ruleset that imports `library`, under
/// `edition` when given (the edition header of the ruleset). Problems in
/// the list point into `list`.
pub fn check_list(
    list: Source,
    library: &str,
    edition: Option<&str>,
    resolver: &dyn Resolve,
    overrides: &[(String, Num)],
) -> Result<Ruleset, Diag> {
    let mut root = String::new();
    if let Some(e) = edition {
        root.push_str(&format!("edition {}\n", quote(e)));
    }
    root.push_str(&format!("import {}\n", quote(library)));
    let name = list.name.clone();
    super::check_with(
        Source::new("<tiebreaks>", root),
        Some(list),
        resolver,
        overrides,
    )
    .map_err(|d| {
        // Problems in the list alone read as the list's, not the ruleset's.
        let in_list = |x: &Diag| x.source.as_ref().is_some_and(|s| s.name == name);
        if d.related.is_empty() || !d.related.iter().all(in_list) {
            return d;
        }
        let mut all = d.related;
        if all.len() == 1 {
            return all.remove(0);
        }
        let n = all.len();
        Diag::many(
            all[0].code,
            format!("{n} problems in the tie-break list"),
            all,
        )
    })
}

/// A string literal of the language for `s`.
pub(crate) fn quote(s: &str) -> String {
    let mut q = String::from("\"");
    for c in s.chars() {
        if matches!(c, '"' | '\\') {
            q.push('\\');
        }
        q.push(c);
    }
    q.push('"');
    q
}

/// The procedure a list given as the standings ranks with.
pub const LIST_PROCEDURE: &str = "descriptors";

/// The declarations of every loaded file.
#[derive(Default)]
pub struct Decls {
    pub(super) modifiers: Vec<(FileId, ModifierDecl)>,
    pub(super) codes: Vec<(FileId, CodeDecl)>,
    pub(super) qualifiers: Vec<String>,
    pub(super) list: Option<(FileId, CodeListDecl)>,
}

impl Decls {
    pub(super) fn code(&self, name: &str) -> Option<usize> {
        self.codes
            .iter()
            .position(|(_, c)| c.name.name.eq_ignore_ascii_case(name))
    }
    pub(super) fn letter_known(&self, letter: char) -> bool {
        self.modifiers
            .iter()
            .any(|(_, m)| same_letter(&m.letter, letter))
    }
    /// Every code's name, in declaration order.
    pub(super) fn names(&self) -> String {
        let names: Vec<&str> = self
            .codes
            .iter()
            .map(|(_, c)| c.name.name.as_str())
            .collect();
        names.join(" ")
    }
    /// The names a code's modifiers set, at their values without the
    /// modifier, then what `with` fixed (nearest first wins).
    pub(super) fn defaults(&self, r: &Resolved) -> HashMap<String, Expr> {
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

pub(super) fn same_letter(declared: &str, letter: char) -> bool {
    let mut cs = declared.chars();
    matches!((cs.next(), cs.next()), (Some(c), None) if c.eq_ignore_ascii_case(&letter))
}

/// A code followed through `means` to the one with steps.
pub(super) struct Resolved {
    /// The code with steps.
    pub(super) target: usize,
    /// The names aliases fixed (`with board_count = true`), nearest first,
    /// then the code's own `with`.
    pub(super) with: Vec<(FileId, Ident, Expr)>,
    /// The citation of the first step, where an alias gives one.
    pub(super) cite: Option<String>,
    /// The modifiers accepted (the nearest declaration that says).
    pub(super) takes: Vec<String>,
    /// The edition that introduced it (the nearest that says).
    pub(super) since: Option<u32>,
}

/// An item of a list, read: its code, the names its modifiers set, and the
/// modifiers' citations.
pub(super) type Found = (Resolved, HashMap<String, Expr>, Vec<String>);

impl Checker {
    /// Resolve a step copied from a code (its value, condition, hand-offs
    /// and direction) and drop it: hand-offs to the code's `own`
    /// procedures are known by name.
    pub(super) fn check_step(&mut self, fid: FileId, s: &ast::Step, own: &[&str]) {
        let mut sc = Scope::new(fid, Ctx::Step, None);
        let _ = self.expr(&s.expr, &mut sc);
        if let Some(w) = &s.when {
            let mut wc = Scope::new(fid, Ctx::Condition, None);
            let _ = self.expr(w, &mut wc);
        }
        let actions: Vec<&Action> = match &s.then {
            Some(ast::Handoff::Always(a)) => vec![a],
            Some(ast::Handoff::BySize(cases, other)) => {
                cases.iter().map(|(_, a)| a).chain(other.iter()).collect()
            }
            None => Vec::new(),
        };
        for a in actions {
            if !matches!(a, Action::Proc(n) if own.contains(&n.name.as_str())) {
                let _ = self.action(fid, a);
            }
        }
        let _ = self.step_direction(fid, s);
    }

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
                "use a library that declares codes (`tb list --all` shows them, with how many codes each has), or write a procedure whose steps include `codes \"...\"`",
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
        let sourced = self.asts[0]
            .items
            .iter()
            .any(|i| matches!(i, Item::Header(ast::HeaderKind::Source, ..)));
        if let (false, Some(s)) = (sourced, &decl.source) {
            let header = Item::Header(ast::HeaderKind::Source, s.clone(), list.span);
            self.asts[0].items.push(header);
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
        // Messages quote the item cut short: a hostile list repeats one
        // modifier thousands of times in one item, one error each.
        let t = clip(&item.text);
        let t = t.as_ref();
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
                        format!("`:{}` chooses a score type (a team's match or game points); the codes of this list take none", clip(q)),
                        format!("write `{}`", clip(&item.name)),
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
                        format!(
                            "`{t}`: `:{}` is not a qualifier of {}",
                            clip(q),
                            clip(&item.name)
                        ),
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
