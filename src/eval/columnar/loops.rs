//! Aggregates and lists over each participant's rounds in columns: the loop's element, filter, key and flag computed once over all the block's rounds, then folded per participant.

use crate::eval::columnar::{Block, Col, Cx, Dom, Slot};
use crate::eval::loops::Acc;
use crate::eval::{Evaluator, ListItem, Value, R};
use crate::num::Num;
use crate::plan::*;
use std::sync::Arc;

impl Evaluator<'_> {
    /// An aggregate or list over the participant's rounds, in columns: the
    /// columnar form of `Evaluator::aggregate` and `Evaluator::list`, folded
    /// by the same [`Acc`] and `Evaluator::list_push`. None when the loop
    /// has another form (evaluated per item instead).
    pub(super) fn col_loop(
        &mut self,
        e: &PExpr,
        agg: Option<Agg>,
        g: &PGen,
        cx: &Cx,
        blk: &Block,
    ) -> R<Option<Col>> {
        let [(slot, coll)] = g.fors.as_slice() else {
            return Ok(None);
        };
        let own_rounds = match &coll.kind {
            PKind::Builtin(Builtin::Rounds) => true,
            PKind::Field(base, f) => {
                matches!(base.kind, PKind::Builtin(Builtin::Me))
                    && f.builtin == Some(BuiltinField::Rounds)
            }
            _ => false,
        };
        if cx.dom != Dom::Parts || !own_rounds {
            return Ok(None);
        }
        let mut locals: Vec<Slot> = self
            .forced_locals(cx, blk)?
            .into_iter()
            .map(|c| c.map_or(Slot::Empty, |c| Slot::Col(blk.to_rounds(&c))))
            .collect();
        if locals.len() <= *slot {
            locals.resize_with(*slot + 1, || Slot::Empty);
        }
        locals[*slot] = Slot::Col(Col::Round);
        let sub = Cx {
            dom: Dom::Rounds,
            locals,
            inline: cx.inline,
        };
        let dr = Dom::Rounds;
        let keep = match &g.cond {
            Some(c) => {
                let cc = self.col(c, &sub, blk)?;
                match self.truths(c, &cc, dr, blk)? {
                    Some(t) => Some(t),
                    // A filter undefined somewhere: per item instead.
                    None => return Ok(None),
                }
            }
            None => None,
        };
        let elem = self.col(&g.elem, &sub, blk)?;
        let by = match &g.by {
            Some(k) if agg.is_none() => Some(self.col(k, &sub, blk)?),
            _ => None,
        };
        let voluntary = match &g.voluntary {
            Some(v) if agg.is_none() => {
                let cv = self.col(v, &sub, blk)?;
                match self.truths(v, &cv, dr, blk)? {
                    Some(t) => Some(t),
                    None => return Ok(None),
                }
            }
            _ => None,
        };
        // Typed columns read directly (most loops are over numbers).
        let nums = |c: &Col| match c {
            Col::Nums(v) => Some(v.clone()),
            _ => None,
        };
        let (elem_nums, by_nums) = (nums(&elem), by.as_ref().and_then(nums));
        // Slices, read in the loops below without going through the Arcs.
        let keep_s: Option<&[bool]> = keep.as_deref().map(Vec::as_slice);
        let vol_s: Option<&[bool]> = voluntary.as_deref().map(Vec::as_slice);
        let elem_s: Option<&[Num]> = elem_nums.as_deref().map(Vec::as_slice);
        // The keys of a list of numbers, when typed (the values themselves
        // without `by`).
        let keys_s: Option<&[Num]> = match &by {
            None => elem_s,
            Some(_) => by_nums.as_deref().map(Vec::as_slice),
        };
        let col = self.map(blk, Dom::Parts, |ev, j| {
            let rounds = blk.starts[j]..blk.starts[j + 1];
            match agg {
                // A number from every round: added up directly.
                Some(agg @ (Agg::Sum | Agg::Mean | Agg::Min | Agg::Max)) if elem_s.is_some() => {
                    let ns: &[Num] = elem_s.unwrap_or(&[]);
                    let mut acc = Acc::new(agg);
                    for k in rounds {
                        if keep_s.is_none_or(|t| t[k]) {
                            acc.push_num(ev, e, ns[k])?;
                        }
                    }
                    acc.finish(ev, e)
                }
                Some(agg) => {
                    let mut acc = Acc::new(agg);
                    for k in rounds {
                        if keep.as_ref().is_some_and(|t| !t[k]) {
                            continue;
                        }
                        let v = match &elem_nums {
                            Some(ns) => Value::Num(ns[k]),
                            None => blk.at(dr, &elem, k),
                        };
                        if acc.push(ev, e, g, v)? {
                            break;
                        }
                    }
                    acc.finish(ev, e)
                }
                None => {
                    let mut items: Vec<ListItem> = Vec::with_capacity(rounds.len());
                    // `list_push` cannot fail with fewer rounds than a
                    // list's limit: items are pushed directly, keyed as it
                    // keys them (a number key, else the value itself).
                    let direct = rounds.len() < crate::eval::MAX_LIST_ITEMS;
                    if let (true, Some(ns), Some(keys)) = (direct, elem_s, keys_s) {
                        // Numbers keyed by numbers (most lists): one plain
                        // loop over this participant's part of each column.
                        let r = rounds;
                        let (ns, keys) = (&ns[r.clone()], &keys[r.clone()]);
                        let keep = keep_s.map(|t| &t[r.clone()]);
                        let vol = vol_s.map(|t| &t[r.clone()]);
                        for (i, (&value, &key)) in ns.iter().zip(keys).enumerate() {
                            if keep.is_none_or(|t| t[i]) {
                                items.push(ListItem {
                                    value,
                                    key,
                                    voluntary: vol.is_some_and(|t| t[i]),
                                });
                            }
                        }
                        return Ok(Value::List(Arc::new(items)));
                    }
                    for k in rounds {
                        if keep.as_ref().is_some_and(|t| !t[k]) {
                            continue;
                        }
                        let value = match &elem_nums {
                            Some(ns) => ns[k],
                            None => match ev.list_value(g, blk.at(dr, &elem, k))? {
                                Some(n) => n,
                                // An undefined item: the list is undefined.
                                None => return Ok(Value::Undef),
                            },
                        };
                        let vol = voluntary.as_ref().is_some_and(|t| t[k]);
                        let typed_key = match (&by_nums, &by) {
                            (Some(ns), _) => Some(ns[k]),
                            (None, None) => Some(value),
                            (None, Some(_)) => None,
                        };
                        if let (true, Some(key)) = (direct, typed_key) {
                            items.push(ListItem {
                                value,
                                key,
                                voluntary: vol,
                            });
                            continue;
                        }
                        let key = match &by {
                            Some(b) => blk.at(dr, b, k),
                            None => Value::Undef,
                        };
                        ev.list_push(e, &mut items, value, key, vol)?;
                    }
                    Ok(Value::List(Arc::new(items)))
                }
            }
        })?;
        Ok(Some(col))
    }
}
