//! Call arguments: `name: value` arguments put in their parameter's place,
//! so the plan (and the evaluator) only ever sees arguments by position.

use super::exprs::Scope;
use super::Checker;
use crate::codes;
use crate::diag::Span;
use crate::plan::{MetricId, PExpr};
use crate::syntax::ast::{self, ExprKind};

/// The value of an argument, with or without its name.
fn value(a: &ast::Expr) -> &ast::Expr {
    match &a.kind {
        ExprKind::Named(_, v) => v,
        _ => a,
    }
}

/// Whether any argument is given by name.
fn any_named(args: &[ast::Expr]) -> bool {
    args.iter().any(|a| matches!(a.kind, ExprKind::Named(..)))
}

impl Checker {
    /// Check a call's argument values in the order written, unnamed.
    pub(super) fn arg_values(&mut self, args: &[ast::Expr], sc: &mut Scope) -> Vec<PExpr> {
        args.iter().map(|a| self.expr(value(a), sc)).collect()
    }

    /// The arguments of a call to metric `id`, in parameter order, and the
    /// count to check the arity against (the metric's own arity when the
    /// named arguments were checked here, so that a problem is reported once).
    pub(super) fn metric_args(
        &mut self,
        id: MetricId,
        args: &[ast::Expr],
        call: Span,
        sc: &mut Scope,
    ) -> (Vec<PExpr>, usize) {
        let values = self.arg_values(args, sc);
        if !any_named(args) {
            return (values, args.len());
        }
        let (name, params) = {
            let (_, m) = &self.metric_defs[id];
            let params: Vec<String> = m.params.iter().map(|p| p.name.clone()).collect();
            (m.name.name.clone(), params)
        };
        let arity = params.len();
        match self.place_args(sc.file, &name, &params, args, call) {
            Some(order) => {
                let mut values: Vec<Option<PExpr>> = values.into_iter().map(Some).collect();
                let placed = order.iter().filter_map(|&i| values[i].take()).collect();
                (placed, arity)
            }
            None => (values, arity),
        }
    }

    /// Refuse names on the arguments of a built-in function: its
    /// parameters have no names to match them against.
    pub(super) fn builtin_named_args(&mut self, func: &str, args: &[ast::Expr], file: usize) {
        for a in args {
            if let ExprKind::Named(n, _) = &a.kind {
                self.err(
                    file,
                    n.span,
                    codes::CHECK_UNKNOWN_ARGUMENT,
                    format!("`{func}` is a built-in function: its arguments have no names"),
                    "named argument",
                    "give its arguments by position; the README lists each built-in function with its arguments",
                );
            }
        }
    }

    /// For each parameter, the index of the argument that gives it:
    /// positional arguments first, then `name: value` ones in any order.
    /// `None` when something is wrong (unknown or repeated name, a
    /// positional argument after a named one, too many or too few), each
    /// problem reported.
    fn place_args(
        &mut self,
        file: usize,
        callee: &str,
        params: &[String],
        args: &[ast::Expr],
        call: Span,
    ) -> Option<Vec<usize>> {
        let takes = if params.is_empty() {
            format!("`{callee}` takes no arguments")
        } else {
            format!("`{callee}` takes: {}", params.join(", "))
        };
        let mut slot: Vec<Option<usize>> = vec![None; params.len()];
        let mut ok = true;
        let mut named_seen = false;
        for (i, a) in args.iter().enumerate() {
            match &a.kind {
                ExprKind::Named(n, _) => {
                    named_seen = true;
                    match params.iter().position(|p| *p == n.name) {
                        Some(k) if slot[k].is_some() => {
                            ok = false;
                            let by_name = slot[k]
                                .is_some_and(|j| matches!(args[j].kind, ExprKind::Named(..)));
                            let how = if by_name { "by name" } else { "by position" };
                            self.err(
                                file,
                                n.span,
                                codes::CHECK_DUPLICATE_ARGUMENT,
                                format!("`{}` of `{callee}` is given twice", n.name),
                                &format!("already given {how}"),
                                "give each parameter one value",
                            );
                        }
                        Some(k) => slot[k] = Some(i),
                        None => {
                            ok = false;
                            let near = params
                                .iter()
                                .map(|p| (crate::text::edit_distance(&n.name, p), p))
                                .filter(|(d, _)| *d <= 2.max(n.name.len() / 3))
                                .min_by_key(|(d, _)| *d)
                                .map_or(String::new(), |(_, p)| format!("did you mean `{p}`? "));
                            self.err(
                                file,
                                n.span,
                                codes::CHECK_UNKNOWN_ARGUMENT,
                                format!("`{callee}` has no parameter named `{}`", n.name),
                                "unknown parameter",
                                &format!("{near}{takes}"),
                            );
                        }
                    }
                }
                _ if named_seen => {
                    ok = false;
                    self.err(
                        file,
                        a.span,
                        codes::CHECK_POSITIONAL_AFTER_NAMED,
                        format!("an argument of `{callee}` without a name follows a named one"),
                        "give this one by name too",
                        &format!(
                            "put the arguments given by position first, or name them all; {takes}"
                        ),
                    );
                }
                _ if i < params.len() => slot[i] = Some(i),
                _ => {
                    ok = false;
                    if i == params.len() {
                        self.err(
                            file,
                            a.span,
                            codes::CHECK_ARITY,
                            format!(
                                "`{callee}` takes {} argument{}, not more",
                                params.len(),
                                if params.len() == 1 { "" } else { "s" }
                            ),
                            "one argument too many",
                            &takes,
                        );
                    }
                }
            }
        }
        if !ok {
            return None;
        }
        let missing: Vec<&String> = params
            .iter()
            .zip(&slot)
            .filter(|(_, s)| s.is_none())
            .map(|(p, _)| p)
            .collect();
        if !missing.is_empty() {
            let names: Vec<String> = missing.iter().map(|p| format!("`{p}`")).collect();
            let add: Vec<String> = missing.iter().map(|p| format!("`{p}: ...`")).collect();
            self.err(
                file,
                call,
                codes::CHECK_MISSING_ARGUMENT,
                format!("`{callee}` needs a value for {}", names.join(" and ")),
                "missing argument",
                &format!("add {}; {takes}", add.join(", ")),
            );
            return None;
        }
        Some(slot.into_iter().flatten().collect())
    }
}
