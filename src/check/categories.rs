//! Prize-list categories: a `category` line's condition is checked as a
//! metric's body is (every name resolved, a misspelt one an error with a
//! did-you-mean; `group` and criteria refused, a category being about one
//! participant), and `tb eval --category [NAME=]EXPR` is checked the same
//! way against a ruleset already checked ([`add_given`]): one definition
//! of what a category's condition may say, wherever it is written.

use super::exprs::{Ctx, Scope};
use super::Checker;
use crate::codes;
use crate::diag::{Diag, Source};
use crate::plan::*;
use crate::syntax::ast::{self, ExprKind, FileId, Ident, Item};

impl Checker {
    /// Every file's `category` lines, in load order, after the metrics and
    /// procedures they may name are known.
    pub(super) fn resolve_categories(&mut self) {
        for (fid, d) in std::mem::take(&mut self.category_defs) {
            if let Some(c) = self.category(fid, &d) {
                self.categories.push(c);
            }
        }
    }

    /// One `category` line, or None where it is an error (reported).
    fn category(&mut self, fid: FileId, d: &ast::CategoryDecl) -> Option<Category> {
        if d.name.trim().is_empty() {
            self.err(
                fid,
                d.span,
                codes::CHECK_CATEGORY,
                "a category needs a name".into(),
                "unnamed",
                "name it as its list is headed: `category \"U1600\" = rating < 1600`",
            );
            return None;
        }
        if self.categories.iter().any(|c| c.name == d.name) {
            self.err(
                fid,
                d.span,
                codes::CHECK_DUPLICATE_DEFINITION,
                format!("the category `{}` is defined twice", d.name),
                "second definition",
                "give each category its own name",
            );
            return None;
        }
        // A category is about one participant at a time, as a metric is:
        // `me` is the participant, and the tied group does not exist.
        let mut sc = Scope::new(fid, Ctx::Metric, None);
        let cond = self.expr(&d.cond, &mut sc);
        let order = match &d.rerank {
            None => CategoryOrder::Overall,
            Some(None) => CategoryOrder::Rerank(None),
            Some(Some(p)) => match self.proc_ix.get(&p.name) {
                Some(&i) => CategoryOrder::Rerank(Some(i)),
                None => {
                    let help = self.suggest(&p.name, "a procedure");
                    self.err(
                        fid,
                        p.span,
                        codes::CHECK_UNKNOWN_PROCEDURE,
                        format!("`rerank by {}`: no procedure of that name", p.name),
                        "unknown procedure",
                        &help,
                    );
                    return None;
                }
            },
        };
        Some(Category {
            name: d.name.clone(),
            cond,
            slots: sc.max_slots,
            order,
            cite: d.cite.clone(),
            doc: d.doc.clone(),
        })
    }
}

/// The name and the condition of `--category` text: `NAME=EXPR` when what
/// comes before the first `=` is a plain name (no operator, no bracket) and
/// the `=` is not part of `==`, `<=`, `>=` or `!=`; otherwise the whole text
/// is the condition, and names the list too.
pub fn split_given(text: &str) -> (String, String) {
    if let Some(at) = text.find('=') {
        let (name, rest) = (&text[..at], &text[at + 1..]);
        // An empty name (`=rating < 1600`) is kept, to be refused as such.
        let plain = !name.contains(['<', '>', '!', '(', ')', '"', '.']) && !rest.starts_with('=');
        if plain {
            return (name.trim().to_string(), rest.trim().to_string());
        }
    }
    (text.trim().to_string(), text.trim().to_string())
}

/// Check the categories the command line gives (`NAME=EXPR` or `EXPR`,
/// [`split_given`]) against `rs`, and add them after the ruleset's own.
/// Each is read as the line `category "NAME" = EXPR` of a source named
/// `--category`, so that a diagnostic points into what was typed. The
/// participant values such a condition reads (`me.club`) count as
/// declared (the command line names them where it reads them) when the
/// data has them: `data_values` are the names of the participant values
/// the event carries; any other name is an error with a did-you-mean over
/// them and the built-in fields (`me.ratng`: did you mean `rating`?).
pub fn add_given(rs: &mut Ruleset, given: &[String], data_values: &[String]) -> Result<(), Diag> {
    if given.is_empty() {
        return Ok(());
    }
    let mut c = Checker::from_ruleset(rs);
    let mut added = Vec::new();
    for text in given {
        let (name, cond) = split_given(text);
        let src = Source::new(
            "--category",
            format!("category {} = {cond}", super::short_codes::quote(&name)),
        );
        let fid = c.files.len();
        c.files.push(src.clone());
        let file = match crate::syntax::parse::parse_each(&src) {
            Ok(f) => f,
            Err(e) => {
                c.errors.extend(e);
                continue;
            }
        };
        match file.items.as_slice() {
            [Item::Category(d)] => {
                if let Some(cat) = c.category(fid, d) {
                    c.categories.push(cat.clone());
                    added.push((fid, cat));
                }
            }
            _ => c.errors.push(
                Diag::error(
                    codes::CLI_USAGE,
                    format!("--category {text}: not one condition"),
                )
                .with_help("give `NAME=CONDITION` or a condition alone, e.g. --category 'U1600=rating < 1600'"),
            ),
        }
    }
    for (fid, cat) in &added {
        unknown_values(&mut c, rs, *fid, cat, data_values);
    }
    if !c.errors.is_empty() {
        let n = c.errors.len();
        if n == 1 {
            return Err(c.errors.remove(0));
        }
        return Err(Diag::many(
            codes::CHECK_ERRORS,
            format!("{n} problems in --category"),
            c.errors,
        ));
    }
    for (fid, cat) in added {
        for r in crate::check::inputs::category_uses(&cat).reads {
            let declared = rs.reads.iter().any(|d| d.name == *r.name);
            if !declared && r.kind.is_none_or(|k| k == DataKind::Participant) {
                rs.reads.push(DataDecl {
                    kind: DataKind::Participant,
                    name: r.name.to_string(),
                    default: None,
                    cite: None,
                    doc: "read by --category".into(),
                    file: fid,
                    span: r.span,
                });
            }
        }
        rs.categories.push(cat);
    }
    rs.files = c.files;
    Ok(())
}

/// The errors for values a command-line category reads that neither the
/// ruleset declares nor the data has.
fn unknown_values(c: &mut Checker, rs: &Ruleset, fid: FileId, cat: &Category, data: &[String]) {
    for r in crate::check::inputs::category_uses(cat).reads {
        let known =
            rs.reads.iter().any(|d| d.name == *r.name) || data.iter().any(|d| *d == *r.name);
        if known || r.kind.is_some_and(|k| k != DataKind::Participant) {
            continue;
        }
        let names = data
            .iter()
            .map(String::as_str)
            .chain(BuiltinField::ALL.iter().map(|(n, _)| *n));
        let mean = match crate::text::did_you_mean(&r.name, names) {
            Some(n) => format!("did you mean `{n}`? "),
            None => String::new(),
        };
        c.err(
            fid,
            r.span,
            codes::CHECK_UNDECLARED_READ,
            format!("`{}`: no participant has such a value, and it is no built-in field", r.name),
            "unknown",
            &format!("{mean}a category reads the participants' built-in fields (`rating`, `sex`, `born`, `federation`, `me.title`) and the values the data gives them"),
        );
    }
}

impl Checker {
    /// A checker that knows the names `rs` defines, as it stood after
    /// checking `rs`: enough to check one more expression against it.
    fn from_ruleset(rs: &Ruleset) -> Checker {
        let mut c = Checker {
            files: rs.files.clone(),
            tables: rs.tables.clone(),
            reads: rs.reads.clone(),
            categories: rs.categories.clone(),
            ..Default::default()
        };
        for (i, m) in rs.metrics.iter().enumerate() {
            c.metric_ix.insert(m.name.clone(), i);
            c.names.insert(m.name.clone(), (m.file, m.span));
            let id = |name: &str| Ident {
                name: name.to_string(),
                span: m.span,
            };
            // What a use of the metric is checked against (its parameters
            // and whether it is a criterion); its body is checked already.
            c.metric_defs.push((
                m.file,
                ast::MetricDef {
                    name: id(&m.name),
                    params: m.params.iter().map(|p| id(p)).collect(),
                    label: Some(m.label.clone()),
                    better: m.better.map(|d| (d, m.span)),
                    body: ast::Expr {
                        kind: ExprKind::Bool(true),
                        span: m.span,
                    },
                    cite: m.cite.clone(),
                    doc: m.doc.clone(),
                    group_relative: m.group_relative,
                    span: m.span,
                },
            ));
        }
        c.deps = vec![Vec::new(); rs.metrics.len()];
        for (i, p) in rs.params.iter().enumerate() {
            c.param_ix.insert(p.name.clone(), i);
            c.names.insert(p.name.clone(), (p.file, p.span));
        }
        for (i, p) in rs.procs.iter().enumerate() {
            c.proc_ix.insert(p.name.clone(), i);
            // For the did-you-mean of `rerank by`; a procedure keeps no span.
            c.names
                .entry(p.name.clone())
                .or_insert((p.file, crate::diag::Span::default()));
        }
        for (i, t) in rs.tables.iter().enumerate() {
            c.table_ix.insert(t.name.clone(), i);
            c.names.insert(t.name.clone(), (t.file, t.span));
        }
        c
    }
}
