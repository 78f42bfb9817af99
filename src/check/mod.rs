//! AST → plan: load imports, resolve every name, check arities, cycles and contexts; report all errors at once.
//!
//! - **In:** the root ruleset's [`Source`], a [`Resolve`]r the caller
//!   supplies for its imports ([`crate::shipped::Shipped`] for the embedded
//!   rulesets; the command line's own resolver adds files on disk), and
//!   `--param` overrides.
//! - **Out:** a [`Ruleset`] plan, or one [`Diag`] holding every problem
//!   found (each with its code, span and help). [`inputs`] then checks an
//!   event's data against what the plan reads.
//! - **May import:** `syntax` (parser, AST), `plan`, `model` (sports, data
//!   warnings), `diag`, `num`, `text`. **May not** read files or the
//!   environment, nor import `eval`, `rank`, `render` or `load`.
//!
//! Children: `exprs` (names and expressions), `args` (named call
//! arguments put in place), `tables` (`table` declarations and their data
//! files, read through the resolver), [`inputs`] (declared data reads).

use crate::codes;
mod args;
pub mod categories;
mod exprs;
pub mod inputs;
pub mod short_codes;
mod tables;
pub use short_codes::check_list;

use crate::diag::{Diag, Source, Span};
use crate::model::{Event, Sport, Warning};
use crate::num::Num;
use crate::plan::*;
use crate::syntax::ast::{self, Action, Direction, ExprKind, FileId, HeaderKind, Item, StepDir};
use crate::syntax::parse;
use exprs::{Ctx, Scope};
use std::collections::HashMap;

/// Deepest chain of imports accepted.
pub const MAX_IMPORT_DEPTH: usize = 16;
/// Most files one ruleset may load.
pub const MAX_FILES: usize = 256;
/// Errors reported at once (the rest are counted).
pub const MAX_ERRORS: usize = 100;

/// The names the language itself gives a meaning (besides the built-in
/// fields): a definition may not take one, and every did-you-mean offers them.
const BUILTIN_NAMES: &[&str] = &[
    "me",
    "rounds",
    "sessions",
    "group",
    "others",
    "event",
    "first_place",
    "last_place",
];

/// Finds the text of an imported file, or of a table's data file: the
/// caller decides where files come from ([`crate::shipped::Shipped`] for
/// the embedded rulesets and their data; the command line adds files on
/// disk). The checker itself reads no files.
pub trait Resolve {
    /// The source named `name`, imported (or read as a table) from the file
    /// `from` (its display name).
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String>;

    /// [`Resolve::resolve`], where a resolver may also refuse a file that
    /// exists, with the code of the refusal (the command line's: a path out
    /// of the ruleset's folder, a file that is not a regular file). The
    /// checker asks this; by default nothing is refused.
    fn lookup(&self, name: &str, from: &Source) -> Result<Source, Unresolved> {
        self.resolve(name, from).map_err(Unresolved::from)
    }
}

/// Why a resolver gives no source for a name.
#[derive(Clone, Debug)]
pub struct Unresolved {
    /// The code of a refusal; None when there is nothing of that name (the
    /// checker reports an unknown import or table file).
    pub code: Option<&'static str>,
    /// What was not found, or why it was refused.
    pub message: String,
    /// How to get the file read, for a refusal.
    pub help: String,
}

impl From<String> for Unresolved {
    fn from(message: String) -> Unresolved {
        Unresolved {
            code: None,
            message,
            help: String::new(),
        }
    }
}

/// The warning for a ruleset applied to data of another sport (a bridge
/// event ranked with `fide/swiss`): the ranking runs, but it is very likely
/// the wrong ruleset. Only where both say their sport, and neither is
/// `other`: data whose sport is the format's default, and rulesets that do
/// not say, are not compared.
pub fn sport_mismatch(rs: &Ruleset, event: &Event) -> Option<Warning> {
    let name = |s: Sport| match s {
        Sport::Chess => "chess",
        Sport::Cards => "cards",
        Sport::Bridge => "bridge",
        Sport::Other => "other",
    };
    let theirs = rs.sport?;
    if !event.sport_declared
        || theirs == event.sport
        || theirs == Sport::Other
        || event.sport == Sport::Other
    {
        return None;
    }
    let title = rs.title.as_deref().unwrap_or("the ruleset");
    Some(Warning::new(
        codes::CHECK_SPORT_MISMATCH,
        format!(
            "{title} is for {}, but the data says its sport is {}: check that this is the right ruleset",
            name(theirs),
            name(event.sport)
        ),
    ))
}

/// Check a ruleset from its root source; imports resolved with `resolver`.
/// `overrides` set parameters by name (from `--param`).
pub fn check(
    root: Source,
    resolver: &dyn Resolve,
    overrides: &[(String, Num)],
) -> Result<Ruleset, Diag> {
    check_with(root, None, resolver, overrides)
}

pub(crate) fn check_with(
    root: Source,
    list: Option<Source>,
    resolver: &dyn Resolve,
    overrides: &[(String, Num)],
) -> Result<Ruleset, Diag> {
    let mut c = Checker::default();
    c.load(root, resolver, 0, Vec::new());
    if let Some(list) = list {
        c.list_root = Some(c.files.len());
        c.files.push(list);
        c.asts.push(ast::File { items: Vec::new() });
    }
    // Lists of codes become steps before names are resolved; a list that
    // names a code wrongly stops there (its standings would not exist).
    if c.errors.is_empty() {
        c.expand_codes();
    }
    // Resolve names only when every file parsed: a file that failed to parse
    // would make every use of its definitions look like an unknown name.
    if c.errors.is_empty() {
        c.collect(resolver);
        c.resolve_all(overrides);
        c.check_code_templates();
        if c.errors.is_empty() {
            // Every data value a definition reads is declared (`reads ...`),
            // with `??` where the declaration gives a default.
            let errs = crate::check::inputs::declaration_errors(
                &c.files,
                &c.metrics,
                &c.procs,
                &c.categories,
                &c.reads,
            );
            c.errors.extend(errs);
        }
    }
    if !c.errors.is_empty() {
        let n = c.errors.len();
        if n > MAX_ERRORS {
            c.errors.truncate(MAX_ERRORS);
            c.errors.push(
                Diag::error(
                    codes::CHECK_ERRORS,
                    format!("... and {} more errors not shown", n - MAX_ERRORS),
                )
                .with_help("fix the errors above first"),
            );
        }
        return Err(Diag::many(
            codes::CHECK_ERRORS,
            format!("the ruleset has {n} error{}", if n == 1 { "" } else { "s" }),
            c.errors,
        ));
    }
    Ok(c.finish())
}

#[derive(Default)]
struct Checker {
    files: Vec<Source>,
    asts: Vec<ast::File>,
    errors: Vec<Diag>,
    title: Option<String>,
    source_doc: Option<String>,
    edition: Option<String>,
    /// The `editions` declaration, with the header that set it (`edition "2024"`).
    editions: Option<ast::EditionsDecl>,
    edition_span: Option<Span>,
    /// Each file's `sport` (the first, where a file has several).
    sports: Vec<(FileId, Sport)>,
    metric_defs: Vec<(FileId, ast::MetricDef)>,
    proc_defs: Vec<(FileId, ast::ProcDef)>,
    param_defs: Vec<(FileId, ast::Ident, ast::Expr)>,
    sets: Vec<(FileId, ast::Ident, ast::Expr)>,
    standings: Option<(FileId, ast::Ident)>,
    reads: Vec<DataDecl>,
    names: HashMap<String, (FileId, Span)>,
    metric_ix: HashMap<String, MetricId>,
    proc_ix: HashMap<String, ProcId>,
    param_ix: HashMap<String, usize>,
    metrics: Vec<Metric>,
    procs: Vec<Proc>,
    params: Vec<Param>,
    /// Metric → metrics its body uses (for the cycle check).
    deps: Vec<Vec<(MetricId, Span)>>,
    /// The file holding a list of codes the caller gave as the standings.
    list_root: Option<FileId>,
    /// What the list of codes as the standings tells its user.
    list_info: Option<ListInfo>,
    /// The short codes declared, for their own check after names resolve.
    decls: short_codes::Decls,
    /// Every code declared, with its documentation.
    code_names: Vec<(String, String)>,
    /// The tables declared, with their rows, and their indices by name.
    tables: Vec<Table>,
    table_ix: HashMap<String, TableId>,
    /// The `category` lines of every file, and what they became.
    category_defs: Vec<(FileId, ast::CategoryDecl)>,
    categories: Vec<Category>,
}

impl Checker {
    fn err(
        &mut self,
        file: FileId,
        span: Span,
        code: &'static str,
        msg: String,
        label: &str,
        help: &str,
    ) {
        let d = Diag::error(code, msg)
            .at(&self.files[file], span, label)
            .with_help(help);
        self.errors.push(d);
    }

    fn load(&mut self, src: Source, resolver: &dyn Resolve, depth: usize, chain: Vec<String>) {
        if self.files.iter().any(|f| f.name == src.name) {
            return; // imported twice (diamond): load once
        }
        let id = self.files.len();
        self.files.push(src.clone());
        let file = match parse::parse_each(&src) {
            Ok(f) => f,
            Err(e) => {
                self.errors.extend(e);
                self.asts.push(ast::File { items: Vec::new() });
                return;
            }
        };
        let imports: Vec<(String, Span)> = file
            .items
            .iter()
            .filter_map(|i| match i {
                Item::Import(n, s) => Some((n.clone(), *s)),
                _ => None,
            })
            .collect();
        self.asts.push(file);
        for (name, span) in imports {
            let mut chain2 = chain.clone();
            chain2.push(src.name.clone());
            match resolver.lookup(&name, &src) {
                Ok(s) => {
                    if chain2.contains(&s.name) {
                        self.err(
                            id,
                            span,
                            codes::CHECK_IMPORT_CYCLE,
                            format!("import cycle: {} → {}", chain2.join(" → "), s.name),
                            "imports a file that imports this one",
                            "move the shared definitions into a library both files import",
                        );
                    } else if depth + 1 > MAX_IMPORT_DEPTH || self.files.len() >= MAX_FILES {
                        self.err(
                            id,
                            span,
                            codes::CHECK_IMPORT_DEPTH,
                            format!("imports nest deeper than {MAX_IMPORT_DEPTH} or load more than {MAX_FILES} files"),
                            "here",
                            "flatten the library structure",
                        );
                    } else {
                        self.load(s, resolver, depth + 1, chain2);
                    }
                }
                Err(Unresolved {
                    code: Some(code),
                    message,
                    help,
                }) => self.err(id, span, code, message, "refused", &help),
                Err(Unresolved {
                    code: None,
                    message,
                    ..
                }) => self.err(
                    id,
                    span,
                    codes::CHECK_UNKNOWN_IMPORT,
                    message,
                    "cannot find this",
                    "`tb list` names the shipped rulesets and libraries; a path is relative to the importing file",
                ),
            }
        }
    }

    /// Register a name; `value` is true for metrics, criteria and parameters,
    /// which must not shadow a built-in.
    fn define(&mut self, file: FileId, name: &ast::Ident, value: bool) -> bool {
        if let Some((f0, s0)) = self.names.get(&name.name).cloned() {
            let (l, _) = self.files[f0].line_col(s0.start);
            let first = format!("{}:{l}", self.files[f0].name);
            self.err(
                file,
                name.span,
                codes::CHECK_DUPLICATE_DEFINITION,
                format!("`{}` is defined twice", name.name),
                "second definition",
                &format!("the first definition is at {first}; rename one of them"),
            );
            return false;
        }
        // A definition named like a built-in would silently change what
        // `r.points` or `score` mean everywhere; refuse it.
        if value
            && (BuiltinField::by_name(&name.name).is_some()
                || BUILTIN_NAMES.contains(&name.name.as_str()))
        {
            self.err(
                file,
                name.span,
                codes::CHECK_SHADOWS_BUILTIN,
                format!("`{}` is a built-in name", name.name),
                "built-in",
                "choose another name (e.g. `total_points`); built-in fields are listed in the README",
            );
            return false;
        }
        self.names.insert(name.name.clone(), (file, name.span));
        true
    }

    /// Which way a step ranks, and whether it is `reversed`: its own `desc`
    /// or `asc`, else the declared direction of the metric or criterion it
    /// names (`name` or `name(args)`). A word that contradicts the
    /// declaration, a step with no direction to go by, and `reversed` over a
    /// value that declares none are errors: each would rank the other way
    /// without a word (a place compared `desc` puts the last first).
    fn step_direction(&mut self, fid: FileId, s: &ast::Step) -> (Direction, bool) {
        let named = match &s.expr.kind {
            ExprKind::Var(n) | ExprKind::Call(ast::Ident { name: n, .. }, _) => {
                self.metric_ix.get(n).map(|&i| (n.clone(), i))
            }
            _ => None,
        };
        let declared = named.as_ref().and_then(|(n, i)| {
            let (dfid, def) = &self.metric_defs[*i];
            def.better.map(|(d, sp)| {
                let (l, _) = self.files[*dfid].line_col(sp.start);
                (n.clone(), d, format!("{}:{l}", self.files[*dfid].name))
            })
        });
        let text = self.files[fid].text[s.expr.span.start..s.expr.span.end].to_string();
        match (s.dir, declared) {
            (None, Some((_, d, _))) => (d, false),
            (Some((StepDir::Given(g), _)), None) => (g, false),
            (Some((StepDir::Given(g), at)), Some((n, d, wher))) => {
                if g != d {
                    self.err(
                        fid,
                        at,
                        codes::CHECK_DIRECTION,
                        format!(
                            "step `{text}` ranks `{}` ({}), but `{n}` is declared `{}`",
                            g.keyword(),
                            g.phrase(),
                            d.phrase()
                        ),
                        &format!("contradicts the definition ({wher})"),
                        &format!(
                            "drop `{}`: the step takes `{}` from the definition; to rank the other way on purpose, write `reversed`",
                            g.keyword(),
                            d.phrase()
                        ),
                    );
                }
                (d, false)
            }
            (Some((StepDir::Reversed, _)), Some((_, d, _))) => (d.reversed(), true),
            (dir, None) => {
                let at = dir.map(|(_, sp)| sp).unwrap_or(s.expr.span);
                let reversed = dir.is_some();
                let help = match &named {
                    Some((n, _)) => format!(
                        "declare it where `{n}` is defined (`... \"Label\" higher is better = ...` or `lower is better`), or write `desc` (higher is better) or `asc` (lower is better) after the step's value"
                    ),
                    None => "write `desc` (higher is better) or `asc` (lower is better) after the step's value".to_string(),
                };
                self.err(
                    fid,
                    at,
                    codes::CHECK_NO_DIRECTION,
                    if reversed {
                        format!("step `{text} reversed`: `{text}` declares no direction to reverse")
                    } else {
                        format!("step `{text}` does not say whether higher or lower is better")
                    },
                    if reversed {
                        "nothing to reverse"
                    } else {
                        "which way is better?"
                    },
                    &help,
                );
                (Direction::Desc, false)
            }
        }
    }

    /// The root's `edition "2024"` sets the parameter an `editions`
    /// declaration names, as a `set` would: one mechanism for the edition.
    fn edition_sets(&mut self) {
        let (Some(decl), Some(ed), Some(at)) = (&self.editions, &self.edition, self.edition_span)
        else {
            return;
        };
        match decl.list.iter().find(|(y, _)| y.to_string() == ed.trim()) {
            Some((y, _)) => {
                let value = ast::Expr {
                    kind: ExprKind::Num(Num::int(i64::from(*y))),
                    span: at,
                };
                let name = ast::Ident {
                    name: decl.param.name.clone(),
                    span: at,
                };
                self.sets.push((0, name, value));
            }
            None => {
                let known: Vec<String> = decl.list.iter().map(|(y, _)| y.to_string()).collect();
                let (param, known) = (decl.param.name.clone(), known.join(", "));
                self.err(
                    0,
                    at,
                    codes::CHECK_UNKNOWN_EDITION,
                    format!("`{ed}` is not an edition `{param}` declares"),
                    "unknown edition",
                    &format!("the editions are {known}"),
                );
            }
        }
    }

    /// Gather definitions from every file; the root's headers describe the ruleset.
    fn collect(&mut self, resolver: &dyn Resolve) {
        let asts = std::mem::take(&mut self.asts);
        for (fid, f) in asts.iter().enumerate() {
            for item in &f.items {
                match item {
                    Item::Header(k, s, _sp) if fid == 0 => match k {
                        HeaderKind::Title => self.title = Some(s.clone()),
                        HeaderKind::Source => self.source_doc = Some(s.clone()),
                        HeaderKind::Edition => {
                            self.edition = Some(s.clone());
                            self.edition_span = Some(*_sp);
                        }
                    },
                    Item::Editions(e) => {
                        if self.editions.is_none() {
                            self.editions = Some(e.clone());
                        }
                    }
                    Item::Header(..)
                    | Item::Import(..)
                    | Item::Modifier(_)
                    | Item::Code(_)
                    | Item::Qualifier(..)
                    | Item::CodeList(_)
                    | Item::StandingsCodes(_) => {}
                    Item::Sport(s, span) => self.sport_item(fid, s, *span),
                    Item::Param(n, e) => {
                        if self.define(fid, n, true) {
                            self.param_defs.push((fid, n.clone(), e.clone()));
                        }
                    }
                    Item::Set(n, e) => self.sets.push((fid, n.clone(), e.clone())),
                    Item::Metric(m) => {
                        if self.define(fid, &m.name, true) {
                            self.metric_defs.push((fid, m.clone()));
                        }
                    }
                    Item::Procedure(p) => {
                        if self.define(fid, &p.name, false) {
                            self.proc_defs.push((fid, p.clone()));
                        }
                    }
                    Item::Reads(d) => self.declare_read(fid, d),
                    Item::Table(t) => self.declare_table(fid, t, resolver),
                    Item::Category(c) => self.category_defs.push((fid, c.clone())),
                    Item::Standings(n) => {
                        if fid == 0 {
                            if let Some((f0, _)) = &self.standings {
                                let f0 = *f0;
                                self.err(
                                    fid,
                                    n.span,
                                    codes::CHECK_DUPLICATE_STANDINGS,
                                    "the ruleset names its standings procedure twice".into(),
                                    "second `standings`",
                                    &format!(
                                        "keep one `standings` line (the other is in {})",
                                        self.files[f0].name
                                    ),
                                );
                            } else {
                                self.standings = Some((fid, n.clone()));
                            }
                        }
                    }
                }
            }
        }
        self.asts = asts;
        self.edition_sets();
    }

    /// Record a `reads` declaration; the same value declared twice (in one
    /// file or two) is an error, as a definition defined twice is.
    fn declare_read(&mut self, fid: FileId, d: &ast::ReadDecl) {
        if BuiltinField::by_name(&d.name.name).is_some() {
            self.err(
                fid,
                d.name.span,
                codes::CHECK_SHADOWS_BUILTIN,
                format!("`{}` is a built-in field, not a data value", d.name.name),
                "built-in",
                "built-in fields need no declaration (the README lists them); declare only the values the data carries, such as `imps`",
            );
            return;
        }
        if let Some(first) = self
            .reads
            .iter()
            .find(|r| r.kind == d.kind && r.name == d.name.name)
        {
            let (l, _) = self.files[first.file].line_col(first.span.start);
            let at = format!("{}:{l}", self.files[first.file].name);
            self.err(
                fid,
                d.name.span,
                codes::CHECK_DUPLICATE_DEFINITION,
                format!(
                    "`reads {} {}` is declared twice",
                    d.kind.word(),
                    d.name.name
                ),
                "second declaration",
                &format!("the first declaration is at {at}; keep one"),
            );
            return;
        }
        self.reads.push(DataDecl {
            kind: d.kind,
            name: d.name.name.clone(),
            default: d.default,
            cite: d.cite.clone(),
            doc: d.doc.clone(),
            file: fid,
            span: d.span,
        });
    }

    fn resolve_all(&mut self, overrides: &[(String, Num)]) {
        self.resolve_params(overrides);
        self.resolve_metrics();
        self.cycles();
        self.resolve_procs();
        self.resolve_categories();
        if let Some((fid, n)) = self.standings.clone() {
            if !self.proc_ix.contains_key(&n.name) {
                self.err(
                    fid,
                    n.span,
                    codes::CHECK_UNKNOWN_PROCEDURE,
                    format!("`standings {}`: no procedure of that name", n.name),
                    "unknown procedure",
                    &self.suggest(&n.name, "a procedure"),
                );
            }
        }
    }

    /// Parameters: constant values, then `set`, then `--param` (each in
    /// turn overriding the one before).
    fn resolve_params(&mut self, overrides: &[(String, Num)]) {
        for (fid, n, e) in self.param_defs.clone() {
            let value = match const_eval(&e) {
                Some(v) => v,
                None => {
                    self.err(
                        fid,
                        e.span,
                        codes::CHECK_PARAM_NOT_CONSTANT,
                        format!("parameter `{}` must be a number", n.name),
                        "not a constant number",
                        "write a number such as `0.33` or `-1`",
                    );
                    Num::ZERO
                }
            };
            self.param_ix.insert(n.name.clone(), self.params.len());
            self.params.push(Param {
                name: n.name.clone(),
                value,
                file: fid,
                span: n.span,
            });
        }
        for (fid, n, e) in self.sets.clone() {
            match (self.param_ix.get(&n.name).copied(), const_eval(&e)) {
                (Some(i), Some(v)) => self.params[i].value = v,
                (None, _) => self.err(
                    fid,
                    n.span,
                    codes::CHECK_UNKNOWN_PARAM,
                    format!("`set {}`: no parameter of that name", n.name),
                    "unknown parameter",
                    &self.suggest(&n.name, "a parameter"),
                ),
                (_, None) => self.err(
                    fid,
                    e.span,
                    codes::CHECK_PARAM_NOT_CONSTANT,
                    format!("`set {}` needs a number", n.name),
                    "not a constant number",
                    "write a number such as `0.5`",
                ),
            }
        }
        for (name, v) in overrides {
            match self.param_ix.get(name) {
                Some(&i) => self.params[i].value = *v,
                None => {
                    let known: Vec<_> = self.params.iter().map(|p| p.name.clone()).collect();
                    self.errors.push(
                        Diag::error(
                            codes::CHECK_UNKNOWN_PARAM,
                            format!("--param {name}: the ruleset has no such parameter"),
                        )
                        .with_help(if known.is_empty() {
                            "this ruleset has no parameters".to_string()
                        } else {
                            format!("its parameters are: {}", known.join(", "))
                        }),
                    );
                }
            }
        }
    }

    /// Every metric's body, checked in its context (a criterion's, for a
    /// group-relative one); the names of metrics and procedures are known
    /// first, so bodies can refer forward.
    fn resolve_metrics(&mut self) {
        for (i, (_, m)) in self.metric_defs.iter().enumerate() {
            self.metric_ix.insert(m.name.name.clone(), i);
        }
        for (i, (_, p)) in self.proc_defs.iter().enumerate() {
            self.proc_ix.insert(p.name.name.clone(), i);
        }
        self.deps = vec![Vec::new(); self.metric_defs.len()];
        for (i, (fid, m)) in self.metric_defs.clone().into_iter().enumerate() {
            let mut sc = Scope::new(
                fid,
                if m.group_relative {
                    Ctx::Criterion
                } else {
                    Ctx::Metric
                },
                Some(i),
            );
            for p in &m.params {
                sc.bind(&p.name);
            }
            let body = self.expr(&m.body, &mut sc);
            self.metrics.push(Metric {
                name: m.name.name.clone(),
                label: m.label.clone().unwrap_or_else(|| m.name.name.clone()),
                params: m.params.iter().map(|p| p.name.clone()).collect(),
                slots: sc.max_slots,
                body,
                cite: m.cite.clone(),
                doc: m.doc.clone(),
                group_relative: m.group_relative,
                better: m.better.map(|(d, _)| d),
                file: fid,
                span: m.name.span,
            });
        }
    }

    /// Every procedure's steps, each with its hand-off (the procedure's
    /// default where it names none), and its end.
    fn resolve_procs(&mut self) {
        for (fid, p) in self.proc_defs.clone() {
            let default = match &p.default_then {
                Some(h) => self.handoff(fid, h),
                None => PHandoff::Always(PAction::Continue),
            };
            let steps = p
                .steps
                .iter()
                .map(|s| self.step(fid, s, &default))
                .collect();
            let (end, end_cite) = match &p.end {
                Some(e) => (e.kind.clone(), e.cite.clone()),
                None => (ast::EndKind::Shared, None),
            };
            self.procs.push(Proc {
                name: p.name.name.clone(),
                cite: p.cite.clone(),
                steps,
                end,
                end_cite,
                doc: p.doc.clone(),
                file: fid,
            });
        }
    }

    /// One step of a procedure in file `fid`: its expression, condition,
    /// hand-off (`default` where it names none), label and direction.
    fn step(&mut self, fid: FileId, s: &ast::Step, default: &PHandoff) -> PStep {
        // A step copied from a code is in the code's file.
        let fid = s.file.unwrap_or(fid);
        let mut sc = Scope::new(fid, Ctx::Step, None);
        let expr = self.expr(&s.expr, &mut sc);
        let group_relative = sc.uses_group;
        let when = s.when.as_ref().map(|w| {
            let mut wc = Scope::new(fid, Ctx::Condition, None);
            let e = self.expr(w, &mut wc);
            sc.max_slots = sc.max_slots.max(wc.max_slots);
            e
        });
        let then = match &s.then {
            Some(h) => self.handoff(fid, h),
            None => default.clone(),
        };
        let label = s.label.clone().unwrap_or_else(|| match &s.expr.kind {
            ExprKind::Var(n) => self
                .metric_ix
                .get(n)
                .map(|&i| {
                    self.metric_defs[i]
                        .1
                        .label
                        .clone()
                        .unwrap_or_else(|| n.clone())
                })
                .unwrap_or_else(|| n.clone()),
            _ => self.files[fid].text[s.expr.span.start..s.expr.span.end].to_string(),
        });
        let cite = s.cite.clone();
        let (dir, reversed) = self.step_direction(fid, s);
        PStep {
            expr,
            slots: sc.max_slots,
            dir,
            reversed,
            select: s.select,
            when,
            then,
            label,
            decimals: s.decimals,
            cite,
            doc: s.doc.clone(),
            group_relative,
            file: fid,
            span: s.span,
            places: s.places,
        }
    }

    fn handoff(&mut self, fid: FileId, h: &ast::Handoff) -> PHandoff {
        match h {
            ast::Handoff::Always(a) => PHandoff::Always(self.action(fid, a)),
            ast::Handoff::BySize(cases, other) => {
                let cases = cases
                    .iter()
                    .map(|(n, a)| (*n, self.action(fid, a)))
                    .collect();
                let other = other
                    .as_ref()
                    .map(|a| self.action(fid, a))
                    .unwrap_or(PAction::Continue);
                PHandoff::BySize(cases, other)
            }
        }
    }

    fn action(&mut self, fid: FileId, a: &Action) -> PAction {
        match a {
            Action::Continue => PAction::Continue,
            Action::Restart => PAction::Restart,
            Action::Repeat => PAction::Repeat,
            Action::Proc(n) => match self.proc_ix.get(&n.name) {
                Some(&i) => PAction::Proc(i),
                None => {
                    // `then repat`: a hand-off word misspelt, not a procedure.
                    let words = ["continue", "restart", "repeat"];
                    let help = match crate::check::inputs::did_you_mean(&n.name, words.into_iter()) {
                        Some(w) => format!(
                            "did you mean `{w}`? (a hand-off is `continue`, `restart`, `repeat` or a procedure)"
                        ),
                        None => self.suggest(&n.name, "a procedure"),
                    };
                    self.err(
                        fid,
                        n.span,
                        codes::CHECK_UNKNOWN_PROCEDURE,
                        format!("no procedure named `{}`", n.name),
                        "unknown procedure",
                        &help,
                    );
                    PAction::Continue
                }
            },
        }
    }

    /// A `sport "..."` line: one of the data format's sports, once per file.
    fn sport_item(&mut self, fid: FileId, name: &str, span: Span) {
        let sport = match name {
            "chess" => Sport::Chess,
            "cards" => Sport::Cards,
            "bridge" => Sport::Bridge,
            "other" => Sport::Other,
            _ => {
                let near = ["chess", "cards", "bridge", "other"]
                    .into_iter()
                    .min_by_key(|c| crate::text::edit_distance(name, c))
                    .filter(|c| crate::text::edit_distance(name, c) <= 2)
                    .map_or(String::new(), |c| format!("did you mean `{c}`? "));
                return self.err(
                    fid,
                    span,
                    codes::CHECK_BAD_SPORT,
                    format!("`sport \"{name}\"`: not a sport tb knows"),
                    "unknown sport",
                    &format!(
                        "{near}tb knows the sports of the data format: chess, cards, bridge, other"
                    ),
                );
            }
        };
        if let Some(&(_, first)) = self.sports.iter().find(|(f, _)| *f == fid) {
            if first != sport {
                self.err(
                    fid,
                    span,
                    codes::CHECK_BAD_SPORT,
                    "the file declares two different sports".into(),
                    "second `sport`",
                    "keep one `sport` line per file",
                );
            }
            return;
        }
        self.sports.push((fid, sport));
    }

    /// The ruleset's sport: its own file's, else the one every imported
    /// file that declares a sport agrees on (a ruleset built over
    /// `fide/lib` is for chess).
    fn sport(&self) -> Option<Sport> {
        if let Some(&(_, s)) = self.sports.iter().find(|(f, _)| *f == 0) {
            return Some(s);
        }
        let first = self.sports.first()?.1;
        self.sports
            .iter()
            .all(|&(_, s)| s == first)
            .then_some(first)
    }

    /// "did you mean" help from every name the ruleset defines.
    fn suggest(&self, name: &str, what: &str) -> String {
        // Each suggestion compares against every name: past a screenful of
        // errors, stop (a generated file with thousands of typos stays fast).
        if self.errors.len() >= MAX_ERRORS {
            return format!("expected {what}; define it, or import the library that does");
        }
        let mut best: Option<(usize, &str)> = None;
        let all = self
            .names
            .keys()
            .map(|s| s.as_str())
            .chain(BUILTIN_NAMES.iter().copied())
            .chain(exprs::SELF_FIELDS.iter().copied());
        for cand in all {
            let d = crate::text::edit_distance(name, cand);
            // Equally near names: the first in alphabetical order, so the
            // suggestion never depends on the name table's hash order.
            if d <= 2.max(name.len() / 3)
                && best.is_none_or(|(bd, bc)| d < bd || (d == bd && cand < bc))
            {
                best = Some((d, cand));
            }
        }
        match best {
            Some((_, c)) => format!("did you mean `{c}`? (expected {what})"),
            None => format!("expected {what}; define it, or import the library that does"),
        }
    }

    fn cycles(&mut self) {
        // Depth-first search with colours; report each cycle once.
        let n = self.deps.len();
        let mut colour = vec![0u8; n];
        let mut reported = vec![false; n];
        for start in 0..n {
            if colour[start] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
            let mut path: Vec<usize> = vec![start];
            colour[start] = 1;
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                if *next < self.deps[node].len() {
                    let (to, span) = self.deps[node][*next];
                    *next += 1;
                    if colour[to] == 1 {
                        if !reported[to] {
                            reported[to] = true;
                            let pos = path.iter().position(|&p| p == to).unwrap_or(0);
                            let mut names: Vec<String> = path[pos..]
                                .iter()
                                .map(|&i| self.metrics[i].name.clone())
                                .collect();
                            names.push(self.metrics[to].name.clone());
                            let fid = self.metrics[node].file;
                            self.err(
                                fid,
                                span,
                                codes::CHECK_CYCLE,
                                format!("metrics depend on themselves: {}", names.join(" → ")),
                                "this use closes the cycle",
                                "a metric may use other participants' values of *other* metrics, never its own",
                            );
                        }
                    } else if colour[to] == 0 {
                        colour[to] = 1;
                        stack.push((to, 0));
                        path.push(to);
                    }
                } else {
                    colour[node] = 2;
                    stack.pop();
                    path.pop();
                }
            }
        }
    }

    fn finish(self) -> Ruleset {
        let standings = self
            .standings
            .as_ref()
            .and_then(|(_, n)| self.proc_ix.get(&n.name).copied());
        let sport = self.sport();
        Ruleset {
            sport,
            title: self.title,
            source_doc: self.source_doc,
            edition: self.edition,
            editions: self.editions.map(|e| Editions {
                param: e.param.name,
                label: e.label,
                list: e.list,
            }),
            list: self.list_info,
            codes: self.code_names,
            files: self.files,
            metrics: self.metrics,
            params: self.params,
            procs: self.procs,
            standings,
            reads: self.reads,
            tables: self.tables,
            categories: self.categories,
        }
    }
}

/// Evaluate a constant parameter expression (numbers, signs, + - * / %).
fn const_eval(e: &ast::Expr) -> Option<Num> {
    match &e.kind {
        ExprKind::Num(n) => Some(*n),
        ExprKind::Unary(ast::UnOp::Neg, x) => const_eval(x)?.neg().ok(),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (const_eval(a)?, const_eval(b)?);
            match op {
                ast::BinOp::Add => a.add(b).ok(),
                ast::BinOp::Sub => a.sub(b).ok(),
                ast::BinOp::Mul => a.mul(b).ok(),
                ast::BinOp::Div => a.div(b).ok(),
                ast::BinOp::Rem => a.rem(b).ok(),
                _ => None,
            }
        }
        _ => None,
    }
}
