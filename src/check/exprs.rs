//! Expressions: every name in a definition resolved (a local, parameter,
//! metric, built-in or field), calls checked against what they call, and
//! the AST expression turned into the plan's [`PExpr`].

use super::Checker;
use crate::codes;
use crate::diag::Span;
use crate::num::Num;
use crate::plan::*;
use crate::syntax::ast::{self, ExprKind, FileId};
use std::sync::Arc;

impl Checker {
    pub(super) fn pe(&self, kind: PKind, span: Span, file: FileId) -> PExpr {
        PExpr { kind, span, file }
    }

    pub(super) fn expr(&mut self, e: &ast::Expr, sc: &mut Scope) -> PExpr {
        let f = sc.file;
        let kind = match &e.kind {
            ExprKind::Num(n) => PKind::Num(*n),
            ExprKind::Bool(b) => PKind::Bool(*b),
            ExprKind::Str(s) => PKind::Str(Arc::from(s.as_str())),
            ExprKind::Infinity => PKind::Infinity,
            ExprKind::Var(name) => self.var(name, e.span, sc),
            ExprKind::Field(base, name, args) => {
                let b = self.expr(base, sc);
                if let Some(&id) = self.metric_ix.get(&name.name) {
                    let args = args.as_deref().unwrap_or(&[]);
                    let (pargs, n) = self.metric_args(id, args, e.span, sc);
                    self.metric_use(id, name.span, n, sc);
                    PKind::Metric(id, Some(Box::new(b)), pargs)
                } else if args.is_some() && self.table_ix.contains_key(&name.name) {
                    self.table_as_value(&name.name, name.span, f)
                } else if args.is_some() {
                    let help = self.suggest(&name.name, "a metric");
                    self.err(
                        f,
                        name.span,
                        codes::CHECK_UNKNOWN_METRIC,
                        format!("no metric named `{}`", name.name),
                        "unknown metric",
                        &help,
                    );
                    PKind::Bool(false)
                } else {
                    PKind::Field(
                        Box::new(b),
                        Field {
                            name: Arc::from(name.name.as_str()),
                            builtin: BuiltinField::by_name(&name.name),
                        },
                    )
                }
            }
            ExprKind::Call(name, args) => {
                if let Some(&id) = self.metric_ix.get(&name.name) {
                    let (pargs, n) = self.metric_args(id, args, e.span, sc);
                    self.metric_use(id, name.span, n, sc);
                    return self.pe(PKind::Metric(id, None, pargs), e.span, f);
                }
                if let Some(&id) = self.table_ix.get(&name.name) {
                    let kind = self.table_call(id, name, args, e.span, sc);
                    return self.pe(kind, e.span, f);
                }
                let pargs = self.arg_values(args, sc);
                if let Some(func) = Func::by_name(&name.name) {
                    self.builtin_named_args(&name.name, args, f);
                    let (lo, hi) = func.arity();
                    if args.len() < lo || args.len() > hi {
                        let want = if lo == hi {
                            format!("{lo}")
                        } else {
                            format!("{lo} to {hi}")
                        };
                        self.err(
                            f,
                            e.span,
                            codes::CHECK_ARITY,
                            format!(
                                "`{}` takes {want} argument{}, not {}",
                                name.name,
                                if hi == 1 { "" } else { "s" },
                                args.len()
                            ),
                            "wrong number of arguments",
                            "see the list of built-in functions in the README",
                        );
                    }
                    PKind::Call(func, pargs)
                } else {
                    let help = self.suggest(&name.name, "a metric or built-in function");
                    self.err(
                        f,
                        name.span,
                        codes::CHECK_UNKNOWN_FUNCTION,
                        format!("no metric or function named `{}`", name.name),
                        "unknown",
                        &help,
                    );
                    PKind::Bool(false)
                }
            }
            ExprKind::Aggregate(name, g) => {
                let agg = Agg::by_name(&name.name);
                if agg.is_none() {
                    self.err(
                        f,
                        name.span,
                        codes::CHECK_UNKNOWN_AGGREGATE,
                        format!("`{}` cannot take `for ... in ...`", name.name),
                        "not an aggregate",
                        "aggregates are sum, mean, count, min, max, all and any; lists are written `[x for r in rounds]`",
                    );
                }
                let pg = self.generator(g, sc, false);
                PKind::Agg(agg.unwrap_or(Agg::Sum), pg)
            }
            ExprKind::List(g) => PKind::List(self.generator(g, sc, true)),
            ExprKind::If(c, a, b) => PKind::If(
                Box::new(self.expr(c, sc)),
                Box::new(self.expr(a, sc)),
                Box::new(self.expr(b, sc)),
            ),
            ExprKind::Named(n, x) => {
                // The parser writes `name: value` only among a call's
                // arguments, where the calls above take it apart.
                self.err(
                    f,
                    n.span,
                    codes::CHECK_UNKNOWN_ARGUMENT,
                    format!("`{}: ...` outside the arguments of a call", n.name),
                    "named argument",
                    "write `name: value` only inside `metric_name(...)`",
                );
                return self.expr(x, sc);
            }
            ExprKind::Unary(op, x) => PKind::Unary(*op, Box::new(self.expr(x, sc))),
            ExprKind::Binary(op, a, b) => {
                PKind::Binary(*op, Box::new(self.expr(a, sc)), Box::new(self.expr(b, sc)))
            }
        };
        self.pe(kind, e.span, f)
    }

    fn generator(&mut self, g: &ast::Generator, sc: &mut Scope, is_list: bool) -> PGen {
        let mark = sc.locals.len();
        let mut fors = Vec::new();
        for (v, coll) in &g.fors {
            let c = self.expr(coll, sc);
            let slot = sc.bind(&v.name);
            fors.push((slot, c));
        }
        let elem = Box::new(self.expr(&g.elem, sc));
        let cond = g.cond.as_ref().map(|c| Box::new(self.expr(c, sc)));
        let by = g.by.as_ref().map(|c| Box::new(self.expr(c, sc)));
        let voluntary = g.voluntary.as_ref().map(|c| Box::new(self.expr(c, sc)));
        if !is_list && (by.is_some() || voluntary.is_some()) {
            self.err(
                sc.file,
                g.elem.span,
                codes::CHECK_BY_OUTSIDE_LIST,
                "`by` and `voluntary` belong in a list `[...]`".into(),
                "here",
                "write the list as `[x for r in rounds by key]` and aggregate it",
            );
        }
        sc.unbind_to(mark);
        PGen {
            elem,
            fors,
            cond,
            by,
            voluntary,
        }
    }

    fn metric_use(&mut self, id: MetricId, span: Span, nargs: usize, sc: &mut Scope) {
        let (arity, group_relative, name) = {
            let (_, m) = &self.metric_defs[id];
            (m.params.len(), m.group_relative, m.name.name.clone())
        };
        if arity != nargs {
            self.err(
                sc.file,
                span,
                codes::CHECK_ARITY,
                format!(
                    "`{name}` takes {arity} argument{}, not {nargs}",
                    if arity == 1 { "" } else { "s" }
                ),
                "wrong number of arguments",
                "give one value for each parameter in the metric's definition",
            );
        }
        if group_relative {
            sc.uses_group = true;
            if sc.ctx == Ctx::Metric {
                self.err(
                    sc.file,
                    span,
                    codes::CHECK_GROUP_IN_METRIC,
                    format!("metric uses `{name}`, a criterion computed among the tied group"),
                    "group-relative",
                    "declare the using definition as a `criterion`, or use it directly as a step",
                );
            }
        }
        if let Some(cur) = sc.current {
            self.deps[cur].push((id, span));
        }
    }

    fn var(&mut self, name: &str, span: Span, sc: &mut Scope) -> PKind {
        if let Some(slot) = sc.lookup(name) {
            return PKind::Local(slot);
        }
        if let Some(&i) = self.param_ix.get(name) {
            return PKind::Param(i);
        }
        if let Some(&id) = self.metric_ix.get(name) {
            self.metric_use(id, span, 0, sc);
            return PKind::Metric(id, None, Vec::new());
        }
        if self.table_ix.contains_key(name) {
            return self.table_as_value(name, span, sc.file);
        }
        if name == "undefined" {
            // No value, as `x / 0` gives: e.g. a rating tie-break dropped
            // when unrated players are present (FIDE Art. 10).
            let one = self.pe(PKind::Num(Num::ONE), span, sc.file);
            let zero = self.pe(PKind::Num(Num::ZERO), span, sc.file);
            return PKind::Binary(BinOp::Div, Box::new(one), Box::new(zero));
        }
        let builtin = match name {
            "me" => Some(Builtin::Me),
            "rounds" => Some(Builtin::Rounds),
            "sessions" => Some(Builtin::Sessions),
            "group" => Some(Builtin::Group),
            "others" => Some(Builtin::Others),
            "event" => Some(Builtin::Event),
            "first_place" => Some(Builtin::FirstPlace),
            "last_place" => Some(Builtin::LastPlace),
            _ => None,
        };
        let self_field = match name {
            n if SELF_FIELDS.contains(&n) => BuiltinField::by_name(name),
            _ => None,
        };
        let needs_me = !matches!(
            builtin,
            Some(Builtin::Group)
                | Some(Builtin::Others)
                | Some(Builtin::Event)
                | Some(Builtin::FirstPlace)
                | Some(Builtin::LastPlace)
        );
        // The places a tied group occupies are known when a step is
        // reached, and only to its condition (EBU 143.4: a tie is split
        // only where it straddles a place that matters).
        if matches!(
            builtin,
            Some(Builtin::FirstPlace) | Some(Builtin::LastPlace)
        ) && sc.ctx != Ctx::Condition
        {
            self.err(
                sc.file,
                span,
                codes::CHECK_PLACES_OUTSIDE_CONDITION,
                format!("`{name}` is the place of a tied group, known only in a step's `when`"),
                "outside a condition",
                "use it in a step's condition, e.g. `step x when first_place <= 3`",
            );
        }
        if builtin.is_some() || self_field.is_some() {
            if matches!(builtin, Some(Builtin::Group) | Some(Builtin::Others)) {
                sc.uses_group = true;
                if sc.ctx == Ctx::Metric {
                    self.err(
                        sc.file,
                        span,
                        codes::CHECK_GROUP_IN_METRIC,
                        format!("`{name}` is only known among a tied group"),
                        "group-relative",
                        "declare this definition with `criterion` instead of `metric`",
                    );
                }
            }
            if needs_me && sc.ctx == Ctx::Condition {
                self.err(
                    sc.file,
                    span,
                    codes::CHECK_ME_IN_CONDITION,
                    format!("a step's `when` condition is about the whole group; `{name}` is about one participant"),
                    "per-participant",
                    "write the condition over the group, e.g. `all(t.rated for t in group)`",
                );
            }
            if let Some(b) = builtin {
                return PKind::Builtin(b);
            }
            return PKind::Field(
                Box::new(self.pe(PKind::Builtin(Builtin::Me), span, sc.file)),
                Field {
                    name: Arc::from(name),
                    builtin: self_field,
                },
            );
        }
        let help = self.suggest(name, "a metric, parameter or variable");
        self.err(
            sc.file,
            span,
            codes::CHECK_UNKNOWN_METRIC,
            format!("unknown name `{name}`"),
            "not defined",
            &help,
        );
        PKind::Bool(false)
    }
}

/// The participant's fields a bare name reads (`rating` is `me.rating`):
/// its score and the data a category is usually about. `title` is a
/// header keyword, so a participant's title is read as `me.title`.
pub(super) const SELF_FIELDS: &[&str] = &[
    "score",
    "rating",
    "rated",
    "id",
    "withdrawn",
    "sex",
    "born",
    "federation",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ctx {
    Metric,
    Criterion,
    Step,
    Condition,
}

pub(super) struct Scope {
    pub(super) file: FileId,
    pub(super) ctx: Ctx,
    pub(super) current: Option<MetricId>,
    pub(super) locals: Vec<(String, usize)>,
    pub(super) max_slots: usize,
    pub(super) uses_group: bool,
}

impl Scope {
    pub(super) fn new(file: FileId, ctx: Ctx, current: Option<MetricId>) -> Scope {
        Scope {
            file,
            ctx,
            current,
            locals: Vec::new(),
            max_slots: 0,
            uses_group: false,
        }
    }
    pub(super) fn bind(&mut self, name: &str) -> usize {
        let slot = self.locals.len();
        self.locals.push((name.to_string(), slot));
        self.max_slots = self.max_slots.max(slot + 1);
        slot
    }
    pub(super) fn unbind_to(&mut self, mark: usize) {
        self.locals.truncate(mark);
    }
    pub(super) fn lookup(&self, name: &str) -> Option<usize> {
        self.locals
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, s)| *s)
    }
}
