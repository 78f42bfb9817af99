//! Operators and conditions on columns: typed loops over slices where the operands allow, the reference evaluator's own operators element by element otherwise.

use crate::codes;
use crate::eval::columnar::column::{nums_col, pick_nums, zip_nums};
use crate::eval::columnar::{Block, Builder, Col, Cx, Dom};
use crate::eval::{Evaluator, Value, R};
use crate::num::{Num, NumError};
use crate::plan::*;
use std::sync::Arc;

impl Evaluator<'_> {
    /// `if c then a else b` over the block, as [`Evaluator::eval`] takes
    /// it element by element: both branches computed in columns and merged
    /// (`e` is the conditional).
    pub(super) fn col_if(
        &mut self,
        e: &PExpr,
        c: &PExpr,
        a: &PExpr,
        b: &PExpr,
        cx: &Cx,
        blk: &Block,
    ) -> R<Col> {
        let dom = cx.dom;
        let cc = self.col(c, cx, blk)?;
        if let Col::Const(v) = &cc {
            return match self.truth(c, v)? {
                Some(true) => self.col(a, cx, blk),
                Some(false) => self.col(b, cx, blk),
                None => Ok(Col::Const(Value::Undef)),
            };
        }
        // Where the condition is undefined the reference evaluator
        // takes neither branch: the element is undefined (`known`).
        // A condition of flags with holes (`r.opponent.rated`, a
        // bye's opponent) is merged here; any other with an
        // undefined element is evaluated per element.
        let (truth, known) = match self.truths(c, &cc, dom, blk)? {
            Some(t) => (t, None),
            None => match &cc {
                Col::OptBools(bs, ds) => (bs.clone(), Some(ds.clone())),
                _ => return self.per_item(e, cx, blk),
            },
        };
        if known.is_none() && truth.iter().all(|&t| t) {
            return self.col(a, cx, blk);
        }
        if known.is_none() && !truth.iter().any(|&t| t) {
            return self.col(b, cx, blk);
        }
        let ca = self.col(a, cx, blk)?;
        let cb = self.col(b, cx, blk)?;
        // The branch element `j` takes; None where the condition is
        // undefined (a hole).
        let taken = |j: usize| {
            let t = truth[j];
            known
                .as_ref()
                .is_none_or(|k| k[j])
                .then_some(if t { &ca } else { &cb })
        };
        Ok(match (ca.nums(), cb.nums()) {
            (Some(va), Some(vb)) if known.is_none() => {
                Col::Nums(Arc::new(pick_nums(&truth, va, vb)))
            }
            // Numbers with undefined holes (a rating, undefined for
            // a bye) in either branch, or where the condition is.
            _ if ca.opt_nums() && cb.opt_nums() => {
                let (Some(va), Some(vb)) = (ca.opt_num_view(), cb.opt_num_view()) else {
                    unreachable!("columns of numbers or undefined have a view");
                };
                let known: Option<&[bool]> = known.as_deref().map(Vec::as_slice);
                let mut ns = Vec::with_capacity(truth.len());
                let mut ds = Vec::with_capacity(truth.len());
                for (j, &t) in truth.iter().enumerate() {
                    let n = match known {
                        Some(k) if !k[j] => None,
                        _ if t => va.at(j),
                        _ => vb.at(j),
                    };
                    ns.push(n.unwrap_or(Num::ZERO));
                    ds.push(n.is_some());
                }
                nums_col(ns, ds)
            }
            _ => {
                let mut out = Builder::new(truth.len());
                for j in 0..truth.len() {
                    match taken(j) {
                        None => out.push(Value::Undef),
                        Some(c) => match c.num(j) {
                            Some(n) => out.push_num(n),
                            None => out.push(blk.at(dom, c, j)),
                        },
                    }
                }
                out.finish()
            }
        })
    }

    /// An infix operator over the block: the columnar form of
    /// `Evaluator::binary` (Kleene's `and`/`or` with `b` counted only where
    /// `a` has not decided, `??`, and the others by
    /// `Evaluator::binary_value`, typed for numbers by
    /// [`Evaluator::nums_binary`]).
    pub(super) fn col_binary(
        &mut self,
        e: &PExpr,
        op: BinOp,
        a: &PExpr,
        b: &PExpr,
        cx: &Cx,
        blk: &Block,
    ) -> R<Col> {
        let dom = cx.dom;
        let len = blk.len(dom);
        match op {
            BinOp::And | BinOp::Or => {
                // `b` counts only where `a` has not decided (as in the
                // reference evaluator, which does not evaluate it there).
                let and = op == BinOp::And;
                let ca = self.col(a, cx, blk)?;
                // Columns of definite truths only; an undefined one anywhere
                // and the reference evaluator decides per element (Kleene).
                let Some(ta) = self.truths(a, &ca, dom, blk)? else {
                    return self.per_item(e, cx, blk);
                };
                if ta.iter().all(|&t| t != and) {
                    return Ok(Col::Const(Value::Bool(!and)));
                }
                let cb = self.col(b, cx, blk)?;
                let decided = |t: bool| t != and;
                let out: Vec<bool> = match &cb {
                    // Where `a` decided, `t & x` is false and `t | x` true:
                    // the same values, as one plain pass.
                    Col::Bools(bs) if and => {
                        ta.iter().zip(bs.iter()).map(|(&t, &x)| t & x).collect()
                    }
                    Col::Bools(bs) => ta.iter().zip(bs.iter()).map(|(&t, &x)| t | x).collect(),
                    // Where `a` decided, `t & x` is false and `t | x` true
                    // (as above): `a` itself, or the same value everywhere.
                    Col::Const(Value::Bool(x)) => {
                        return Ok(match (and, *x) {
                            (true, true) | (false, false) => Col::Bools(ta),
                            (true, false) => Col::Const(Value::Bool(false)),
                            (false, true) => Col::Const(Value::Bool(true)),
                        });
                    }
                    _ => {
                        let mut out = Vec::with_capacity(len);
                        for (j, &t) in ta.iter().enumerate() {
                            out.push(if decided(t) {
                                !and
                            } else {
                                match self.truth(b, &blk.at(dom, &cb, j))? {
                                    Some(x) => x,
                                    None => return self.per_item(e, cx, blk),
                                }
                            });
                        }
                        out
                    }
                };
                Ok(Col::Bools(Arc::new(out)))
            }
            BinOp::Coalesce => {
                let ca = match self.col(a, cx, blk) {
                    // Data the event does not record at all reads as
                    // undefined here, but only for the elements that read it
                    // (a participant who played no round never reads
                    // `r.imps`): the reference evaluator decides per element.
                    Err(er) if er.code == codes::EVAL_MISSING_DATA => {
                        return self.per_item(e, cx, blk)
                    }
                    r => r?,
                };
                let defined = match &ca {
                    Col::Nums(_) | Col::Bools(_) | Col::Round | Col::Me => true,
                    Col::OptNums(_, ds) | Col::OptBools(_, ds) => ds.iter().all(|&d| d),
                    _ => (0..len).all(|j| blk.at(dom, &ca, j) != Value::Undef),
                };
                if defined {
                    return Ok(ca);
                }
                let cb = self.col(b, cx, blk)?;
                self.map(blk, dom, |_, j| {
                    let x = blk.at(dom, &ca, j);
                    Ok(if x == Value::Undef {
                        blk.at(dom, &cb, j)
                    } else {
                        x
                    })
                })
            }
            _ => {
                let ca = self.col(a, cx, blk)?;
                let cb = self.col(b, cx, blk)?;
                if let (Col::Const(x), Col::Const(y)) = (&ca, &cb) {
                    return Ok(Col::Const(self.binary_value(
                        e,
                        op,
                        b,
                        x.clone(),
                        y.clone(),
                    )?));
                }
                if ca.is_nums() && cb.is_nums() {
                    if let Some(c) = self.nums_binary(e, op, &ca, &cb, len)? {
                        return Ok(c);
                    }
                }
                self.map(blk, dom, |ev, j| {
                    ev.binary_value(e, op, b, blk.at(dom, &ca, j), blk.at(dom, &cb, j))
                })
            }
        }
    }

    /// The truth of each element of a condition's column, as
    /// [`Evaluator::truth`] gives it, when every one is true or false; None
    /// when one is undefined (the caller then evaluates per element, as the
    /// reference evaluator does, so that the fast path never needs
    /// three-valued columns).
    pub(super) fn truths(
        &self,
        c: &PExpr,
        col: &Col,
        dom: Dom,
        blk: &Block,
    ) -> R<Option<Arc<Vec<bool>>>> {
        match col {
            Col::Bools(bs) => return Ok(Some(bs.clone())),
            Col::OptBools(bs, ds) => {
                return Ok(ds.iter().all(|&d| d).then(|| bs.clone()));
            }
            Col::Const(v) => return Ok(self.truth(c, v)?.map(|t| Arc::new(vec![t; blk.len(dom)]))),
            _ => {}
        }
        let mut out = Vec::with_capacity(blk.len(dom));
        for j in 0..blk.len(dom) {
            match self.truth(c, &blk.at(dom, col, j))? {
                Some(t) => out.push(t),
                None => return Ok(None),
            }
        }
        Ok(Some(Arc::new(out)))
    }

    /// A comparison or sum, difference or product of two columns of
    /// numbers, with the operators of [`Num`] as `Evaluator::binary_value`
    /// applies them; None for other operators.
    fn nums_binary(&self, e: &PExpr, op: BinOp, a: &Col, b: &Col, len: usize) -> R<Option<Col>> {
        let (Some(va), Some(vb)) = (a.nums(), b.nums()) else {
            return Ok(None);
        };
        Ok(Some(match op {
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                // One loop per operator, not a choice per element.
                // (Numbers are kept reduced: equal values are equal fields.)
                Col::Bools(Arc::new(match op {
                    BinOp::Eq => zip_nums(va, vb, len, |x, y| x == y),
                    BinOp::Ne => zip_nums(va, vb, len, |x, y| x != y),
                    BinOp::Lt => zip_nums(va, vb, len, |x, y| x < y),
                    BinOp::Le => zip_nums(va, vb, len, |x, y| x <= y),
                    BinOp::Gt => zip_nums(va, vb, len, |x, y| x > y),
                    _ => zip_nums(va, vb, len, |x, y| x >= y),
                }))
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                let mut failed = None;
                let mut each = |r: Result<Num, NumError>| {
                    r.unwrap_or_else(|er| {
                        failed.get_or_insert(er);
                        Num::ZERO
                    })
                };
                // One loop per operator, not a choice per element.
                let out = match op {
                    BinOp::Add => zip_nums(va, vb, len, |x, y| each(x.add(y))),
                    BinOp::Sub => zip_nums(va, vb, len, |x, y| each(x.sub(y))),
                    _ => zip_nums(va, vb, len, |x, y| each(x.mul(y))),
                };
                if let Some(er) = failed {
                    self.arith(e, Err(er))?;
                    return Ok(None);
                }
                Col::Nums(Arc::new(out))
            }
            _ => return Ok(None),
        }))
    }
}
