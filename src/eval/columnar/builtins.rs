//! Built-in function calls on columns: each function's columnar form, by the name its row in `builtin_functions!` gives (most: the implementation element by element; `sum`, `mean`, `count`: lists added up where they are).

use crate::eval::columnar::{Block, Builder, Col, Cx};
use crate::eval::{Evaluator, Value, R};
use crate::plan::builtins::builtin_functions;
use crate::plan::*;

/// [`Evaluator::col_call`], from the rows of `builtin_functions!`: each
/// function's columnar form, by the name its row gives.
macro_rules! define_col_call {
    ($($variant:ident $name:literal ($lo:literal, $hi:literal) $args:literal
        => $imp:ident, $col:ident: $doc:literal, said $said:literal,)*) => {
        impl<'a> Evaluator<'a> {
            /// Built-in function `func` of `args` over the block (`e` is the
            /// call): the columnar form of [`Evaluator::call`].
            pub(super) fn col_call(
                &mut self,
                e: &PExpr,
                func: Func,
                args: &[PExpr],
                cx: &Cx,
                blk: &Block,
            ) -> R<Col> {
                match func {
                    $(Func::$variant => $col(self, e, func, args, cx, blk),)*
                }
            }
        }
    };
}

builtin_functions!(define_col_call);

/// The arguments' columns.
fn arg_cols(ev: &mut Evaluator, args: &[PExpr], cx: &Cx, blk: &Block) -> R<Vec<Col>> {
    let mut cols = Vec::with_capacity(args.len());
    for a in args {
        cols.push(ev.col(a, cx, blk)?);
    }
    Ok(cols)
}

/// A function applied to columns `cols` by [`Evaluator::call`], once for
/// constant arguments, else element by element.
fn call_each(
    ev: &mut Evaluator,
    e: &PExpr,
    func: Func,
    cols: Vec<Col>,
    cx: &Cx,
    blk: &Block,
) -> R<Col> {
    let dom = cx.dom;
    if cols.iter().all(|c| matches!(c, Col::Const(_))) {
        let vals = cols.iter().map(|c| blk.at(dom, c, 0)).collect();
        Ok(Col::Const(ev.call(e, func, vals)?))
    } else {
        ev.map(blk, dom, |ev, j| {
            let vals = cols.iter().map(|c| blk.at(dom, c, j)).collect();
            ev.call(e, func, vals)
        })
    }
}

/// The columnar form of a function without one of its own: its
/// implementation ([`Evaluator::call`]) element by element.
fn each(ev: &mut Evaluator, e: &PExpr, func: Func, args: &[PExpr], cx: &Cx, blk: &Block) -> R<Col> {
    let cols = arg_cols(ev, args, cx, blk)?;
    call_each(ev, e, func, cols, cx, blk)
}

/// `sum`, `mean` and `count` (mirrors `total` in `eval::builtins`): of a
/// cut list (`sum(cut_lowest(list, n))`) by [`Evaluator::total_of_cut`]; of
/// a list per element, each added up where it is, as the function does
/// (and charged the same), without a list of arguments per element; else
/// element by element.
fn totals(
    ev: &mut Evaluator,
    e: &PExpr,
    func: Func,
    args: &[PExpr],
    cx: &Cx,
    blk: &Block,
) -> R<Col> {
    if matches!(func, Func::Sum | Func::Mean) && fused_cut(args).is_some() {
        return match ev.total_of_cut(e, func, &args[0], cx, blk)? {
            Some(c) => Ok(c),
            None => ev.per_item(e, cx, blk),
        };
    }
    let cols = arg_cols(ev, args, cx, blk)?;
    if let [Col::Vals(vs)] = cols.as_slice() {
        // `sum(opponent_scores)`.
        if vs.iter().all(|v| matches!(v, Value::List(_))) {
            let mut out = Builder::new(vs.len());
            for v in vs.iter() {
                if let Value::List(l) = v {
                    ev.charge(e, l.len() as u64)?;
                    out.push(ev.list_total(e, func, l)?);
                }
            }
            return Ok(out.finish());
        }
    }
    call_each(ev, e, func, cols, cx, blk)
}

/// `args` is one call of `cut_lowest`, `cut_highest` or `best` (the
/// function and its two arguments): the argument of a `sum` or `mean` that
/// [`Evaluator::total_of_cut`] computes.
fn fused_cut(args: &[PExpr]) -> Option<(Func, &[PExpr; 2])> {
    match args {
        [PExpr {
            kind: PKind::Call(f @ (Func::CutLowest | Func::CutHighest | Func::Best), inner),
            ..
        }] => Some((*f, inner.as_slice().try_into().ok()?)),
        _ => None,
    }
}

impl Evaluator<'_> {
    /// `sum(cut_lowest(list, n))` (Buchholz Cut-1) and the like: each
    /// participant's list cut and added up in a buffer used for all of
    /// them, as the two functions would in turn (and charged the same),
    /// without making the cut list: mirrors `cut_list` then `total` of
    /// `eval::builtins` ([`Evaluator::cut`], [`Evaluator::list_total`]).
    /// None when the arguments are not a list per element and a count.
    fn total_of_cut(
        &mut self,
        e: &PExpr,
        func: Func,
        inner: &PExpr,
        cx: &Cx,
        blk: &Block,
    ) -> R<Option<Col>> {
        let Some((cut, [list, count])) = fused_cut(std::slice::from_ref(inner)) else {
            return Ok(None);
        };
        self.charge(inner, super::column_work(blk.len(cx.dom)))?;
        let lists = self.col(list, cx, blk)?;
        let n = match self.col(count, cx, blk)? {
            Col::Const(v) => self.count_arg(inner, &v)?,
            _ => return Ok(None),
        };
        let Col::Vals(vs) = lists else {
            return Ok(None);
        };
        if !vs.iter().all(|v| matches!(v, Value::List(_))) {
            return Ok(None);
        }
        let mut out = Builder::new(vs.len());
        let mut items = Vec::new();
        for v in vs.iter() {
            if let Value::List(l) = v {
                items.clear();
                items.extend_from_slice(l);
                self.charge(inner, l.len() as u64)?;
                self.cut(inner, cut, &mut items, n)?;
                self.charge(e, items.len() as u64)?;
                out.push(self.list_total(e, func, &items)?);
            }
        }
        Ok(Some(out.finish()))
    }
}
