//! A code's steps copied for one item of a list: the names its modifiers set replaced by their values, what those constants decide folded, procedures renamed, citations merged.

use super::{Decls, Found};
use crate::diag::Span;
use crate::num::Num;
use crate::syntax::ast::{
    self, Action, BinOp, CodeBody, Expr, ExprKind, FileId, Handoff, Ident, ProcDef, StepDir, UnOp,
};
use crate::syntax::descriptors::Descriptor;
use std::collections::HashMap;

/// A list being expanded: its items and what each was read as.
pub(super) struct List<'a> {
    pub(super) d: &'a Decls,
    pub(super) ds: &'a [Descriptor],
    pub(super) found: &'a [Found],
    pub(super) prefix: &'a str,
}

impl List<'_> {
    /// Steps of items `from..`; a code with a procedure of its own that
    /// says `remaining codes` takes the rest of the list there.
    pub(super) fn steps(
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
            // The rest of the list is expanded once, however many of the
            // code's procedures take it: its own codes' procedures are
            // defined once.
            let mut rest: Option<Vec<ast::Step>> = None;
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
                    let rest = match &rest {
                        Some(steps) => steps.clone(),
                        None => rest.insert(self.steps(i + 1, end.clone(), extra)).clone(),
                    };
                    let at = at.min(q.steps.len());
                    q.steps.splice(at..at, rest);
                }
                q.remaining = None;
                if q.end.is_none() {
                    q.end = end.clone();
                }
                q.doc = format!("{label}: {}", p.doc);
                extra.push(q);
            }
            if rest.is_some() {
                break;
            }
        }
        out
    }
}

/// `Art. 8.1, 16` with `Art. 14`: `Art. 8.1, 14, 16`: the modifier's
/// article in its place among the numbered parts (the shared first word
/// once), unless a part already covers it (`14.1.2` covers `14`).
pub(super) fn merge_cite(base: Option<String>, more: &str) -> String {
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
pub(super) fn copy_step(
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

pub(super) fn lit_num(n: Num, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Num(n),
        span,
    }
}

pub(super) fn lit_bool(b: bool, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Bool(b),
        span,
    }
}

/// `e` with every free name in `binds` replaced by its value (spanned
/// where the name was, so every span stays in `e`'s file). `bound` holds
/// the loop variables in scope, which are never replaced.
pub(super) fn subst(e: &Expr, binds: &HashMap<String, Expr>, bound: &mut Vec<String>) -> Expr {
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
pub(super) fn fold(e: Expr) -> Expr {
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
