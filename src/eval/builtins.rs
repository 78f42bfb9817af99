//! The built-in functions' implementations (`max`, `round`, `cut_lowest`, `deals`, ...), one function per row of [`crate::plan::builtins`], and the list operations they share with the columnar path.

use crate::codes;
use crate::eval::{compare_values, Evaluator, ListItem, Value, MAX_INTEGERS, R};
use crate::model::Pid;
use crate::num::{Num, Rounding};
use crate::plan::builtins::builtin_functions;
use crate::plan::*;
use std::cmp::Ordering;
use std::sync::Arc;

/// [`Evaluator::call`], from the rows of `builtin_functions!`: each
/// function's implementation, by the name its row gives.
macro_rules! define_call {
    ($($variant:ident $name:literal ($lo:literal, $hi:literal) $args:literal
        => $imp:ident, $col:ident: $doc:literal, said $said:literal,)*) => {
        impl Evaluator<'_> {
            /// Built-in function `func` applied to `args` (`e` is the call).
            pub(super) fn call(&mut self, e: &PExpr, func: Func, args: Vec<Value>) -> R<Value> {
                match func {
                    $(Func::$variant => $imp(self, e, func, args),)*
                }
            }
        }
    };
}

builtin_functions!(define_call);

/// A function of a list given an undefined list (one with an undefined
/// item, or from an undefined filter) is undefined too.
fn undefined_list(args: &[Value]) -> bool {
    matches!(args.first(), Some(Value::Undef))
}

/// Argument `i` as a number; None where it is undefined or missing.
fn num(ev: &Evaluator, e: &PExpr, args: &[Value], i: usize) -> R<Option<Num>> {
    match args.get(i) {
        Some(Value::Num(n)) => Ok(Some(*n)),
        Some(Value::Undef) | None => Ok(None),
        Some(other) => Err(ev.type_err(e, "a number", other)),
    }
}

/// `max` and `min`: of the arguments, or of one list's values.
fn max_min(ev: &mut Evaluator, e: &PExpr, func: Func, args: Vec<Value>) -> R<Value> {
    let vals: Vec<Value> = if args.len() == 1 {
        match &args[0] {
            Value::List(_) | Value::Nums(_) => ev
                .list_arg(e, &args[0])?
                .iter()
                .map(|i| Value::Num(i.value))
                .collect(),
            other => vec![other.clone()],
        }
    } else {
        args
    };
    let mut best: Option<Value> = None;
    for v in vals {
        match v {
            Value::Undef => return Ok(Value::Undef),
            Value::Num(_) | Value::Inf => {}
            other => return Err(ev.type_err(e, "numbers", &other)),
        }
        best = Some(match best {
            None => v,
            Some(b) => {
                let o = compare_values(&v, &b);
                if (func == Func::Max && o == Ordering::Greater)
                    || (func == Func::Min && o == Ordering::Less)
                {
                    v
                } else {
                    b
                }
            }
        });
    }
    Ok(best.unwrap_or(Value::Undef))
}

/// `abs`.
fn abs(ev: &mut Evaluator, e: &PExpr, _: Func, args: Vec<Value>) -> R<Value> {
    Ok(match num(ev, e, &args, 0)? {
        Some(n) => ev.arith(e, if n < Num::ZERO { n.neg() } else { Ok(n) })?,
        None => Value::Undef,
    })
}

/// `round`, `round_down`, `floor` and `ceil`, to whole numbers or to the
/// places of the second argument.
fn round(ev: &mut Evaluator, e: &PExpr, func: Func, args: Vec<Value>) -> R<Value> {
    let places = match num(ev, e, &args, 1)? {
        Some(p) if p.is_integer() && p.numer() >= 0 && p.numer() <= 12 => p.numer() as u32,
        None if args.len() < 2 => 0,
        _ => {
            return Err(ev.fail(
                e,
                codes::EVAL_TYPE,
                "decimal places must be a whole number from 0 to 12".into(),
                "",
            ))
        }
    };
    let how = match func {
        Func::Round => Rounding::HalfUp,
        Func::RoundDown => Rounding::Down,
        Func::Floor => Rounding::Floor,
        _ => Rounding::Ceil,
    };
    Ok(match num(ev, e, &args, 0)? {
        Some(n) => ev.arith(e, n.round(places, how))?,
        None => Value::Undef,
    })
}

/// `defined`.
fn defined(_: &mut Evaluator, _: &PExpr, _: Func, args: Vec<Value>) -> R<Value> {
    Ok(Value::Bool(!matches!(
        args.first(),
        Some(Value::Undef) | None
    )))
}

/// `sum`, `mean` and `count` of a list; `count` also of a set of
/// participants, a participant's rounds or deals.
fn total(ev: &mut Evaluator, e: &PExpr, func: Func, args: Vec<Value>) -> R<Value> {
    if undefined_list(&args) {
        return Ok(Value::Undef);
    }
    if let Some(Value::Parts(ps)) = args.first() {
        if func == Func::Count {
            return Ok(Value::Num(Num::int(ps.len() as i64)));
        }
    }
    if let Some(Value::Others(ps, me)) = args.first() {
        if func == Func::Count {
            let n = ps.len() - usize::from(ev.member(ps, *me));
            return Ok(Value::Num(Num::int(n as i64)));
        }
    }
    if let Some(Value::Deals(ds)) = args.first() {
        if func == Func::Count {
            return Ok(Value::Num(Num::int(ds.len() as i64)));
        }
    }
    if let Some(Value::Entries(p)) = args.first() {
        if func == Func::Count {
            return Ok(Value::Num(Num::int(
                ev.event.participants[*p].entries.len() as i64,
            )));
        }
    }
    let l = ev.list_arg(e, args.first().unwrap_or(&Value::Undef))?;
    ev.list_total(e, func, &l)
}

/// `cut_lowest`, `cut_highest` and `best`.
fn cut_list(ev: &mut Evaluator, e: &PExpr, func: Func, args: Vec<Value>) -> R<Value> {
    if undefined_list(&args) {
        return Ok(Value::Undef);
    }
    let l = ev.list_arg(e, &args[0])?;
    let n = ev.count_arg(e, &args[1])?;
    let mut items: Vec<ListItem> = l.as_ref().clone();
    ev.cut(e, func, &mut items, n)?;
    Ok(Value::List(Arc::new(items)))
}

/// `integers`: at most [`MAX_INTEGERS`] of them.
fn integers(ev: &mut Evaluator, e: &PExpr, _: Func, args: Vec<Value>) -> R<Value> {
    Ok(match (num(ev, e, &args, 0)?, num(ev, e, &args, 1)?) {
        (Some(a), Some(b)) if a.is_integer() && b.is_integer() => {
            let (a, b) = (a.numer(), b.numer());
            if b >= a && b.checked_sub(a).is_none_or(|d| d >= MAX_INTEGERS) {
                return Err(ev.fail(
                    e,
                    codes::EVAL_TOO_LARGE,
                    format!("integers({a}, {b}) has more than {MAX_INTEGERS} numbers"),
                    "narrow the range",
                ));
            }
            Value::Nums(Arc::new(
                (a..=b)
                    .filter_map(|i| i64::try_from(i).ok().map(Num::int))
                    .collect(),
            ))
        }
        (None, _) | (_, None) => Value::Undef,
        _ => {
            return Err(ev.fail(
                e,
                codes::EVAL_TYPE,
                "integers(a, b) needs whole numbers".into(),
                "round the bounds first, e.g. integers(floor(x), ceil(y))",
            ))
        }
    })
}

/// `number`.
fn number(ev: &mut Evaluator, e: &PExpr, _: Func, args: Vec<Value>) -> R<Value> {
    Ok(match args.first() {
        Some(Value::Num(n)) => Value::Num(*n),
        Some(Value::Str(t)) => Num::parse(t.trim()).map(Value::Num).unwrap_or(Value::Undef),
        Some(Value::Undef) | None => Value::Undef,
        Some(other) => return Err(ev.type_err(e, "text or a number", other)),
    })
}

/// `sorted` (by value) and `sorted_by_key` (by significance key): highest
/// first, equal ones kept in their order.
fn sorted(ev: &mut Evaluator, e: &PExpr, func: Func, args: Vec<Value>) -> R<Value> {
    if undefined_list(&args) {
        return Ok(Value::Undef);
    }
    let l = ev.list_arg(e, &args[0])?;
    let mut items: Vec<ListItem> = l.as_ref().clone();
    if func == Func::SortedByKey {
        items.sort_by_key(|i| std::cmp::Reverse(i.key));
    } else {
        items.sort_by_key(|i| std::cmp::Reverse(i.value));
    }
    Ok(Value::List(Arc::new(items)))
}

/// `deals`: one board for every distinct deal (session and board number)
/// that a participant, or any of a set of participants, has in its rounds,
/// in session and board order.
fn deals(ev: &mut Evaluator, e: &PExpr, _: Func, args: Vec<Value>) -> R<Value> {
    let who: Vec<Pid> = match &args[0] {
        Value::Part(p) => vec![*p],
        Value::Parts(ps) => ps.to_vec(),
        Value::Others(ps, me) => ps.iter().copied().filter(|q| q != me).collect(),
        Value::Undef => Vec::new(),
        other => return Err(ev.type_err(e, "a participant or a set of participants", other)),
    };
    let event = ev.event;
    let mut seen: std::collections::BTreeMap<(u32, u32), (Pid, u32, u32)> =
        std::collections::BTreeMap::new();
    for p in who {
        for (i, en) in event.participants[p].entries.iter().enumerate() {
            for (bi, bd) in en.boards().iter().enumerate() {
                seen.entry((en.session, bd.number))
                    .or_insert((p, i as u32, bi as u32));
            }
        }
    }
    Ok(Value::Deals(Arc::new(seen.into_values().collect())))
}

/// `score_on`: a participant's score on the deal of a board (same session
/// and board number), whether played or awarded (EBU 143.5.5).
fn score_on(ev: &mut Evaluator, e: &PExpr, _: Func, args: Vec<Value>) -> R<Value> {
    Ok(match (&args[0], &args[1]) {
        (Value::Undef, _) | (_, Value::Undef) => Value::Undef,
        (Value::Part(p), Value::Board(q, i, bi)) => {
            let event = ev.event;
            let en = &event.participants[*q].entries[*i as usize];
            let key = (en.session, en.boards()[*bi as usize].number);
            event.participants[*p]
                .entries
                .iter()
                .filter(|x| x.session == key.0)
                .flat_map(|x| x.boards().iter())
                .find(|b| b.number == key.1)
                .map(|b| Value::Num(b.score))
                .unwrap_or(Value::Undef)
        }
        (Value::Part(_), other) => return Err(ev.type_err(e, "a board", other)),
        (other, _) => return Err(ev.type_err(e, "a participant", other)),
    })
}

impl Evaluator<'_> {
    /// A list argument; using a list costs work in proportion to its length.
    fn list_arg(&mut self, e: &PExpr, v: &Value) -> R<Arc<Vec<ListItem>>> {
        let len = match v {
            Value::List(l) => l.len(),
            Value::Nums(ns) => ns.len(),
            _ => 0,
        };
        self.charge(e, len as u64)?;
        match v {
            Value::List(l) => Ok(l.clone()),
            Value::Nums(ns) => Ok(Arc::new(
                ns.iter()
                    .map(|&n| ListItem {
                        value: n,
                        key: n,
                        voluntary: false,
                    })
                    .collect(),
            )),
            other => Err(self.type_err(e, "a list `[...]`", other)),
        }
    }

    /// `sum`, `mean` or `count` of a list's values (`e` the call).
    pub(super) fn list_total(&self, e: &PExpr, func: Func, l: &[ListItem]) -> R<Value> {
        if func == Func::Count {
            return Ok(Value::Num(Num::int(l.len() as i64)));
        }
        // Whole numbers, halves and quarters (chess scores, Sonneborn-Berger
        // products): added up as a count of quarters, the same exact sum
        // without a fraction per item.
        let mut quarters = Some(0i64);
        for i in l {
            match (quarters, i.value.quarters()) {
                (Some(q), Some(x)) => quarters = q.checked_add(x),
                _ => quarters = None,
            }
            if quarters.is_none() {
                break;
            }
        }
        let mut s = Num::ZERO;
        let rest = match quarters {
            Some(q) => {
                s = Num::from_quarters(q);
                &l[l.len()..]
            }
            None => l,
        };
        for i in rest {
            s = match s.add(i.value) {
                Ok(v) => v,
                Err(er) => return self.arith(e, Err(er)),
            };
        }
        Ok(if func != Func::Mean {
            Value::Num(s)
        } else if l.is_empty() {
            Value::Undef
        } else {
            self.arith(e, s.div(Num::int(l.len() as i64)))?
        })
    }

    /// `cut_lowest`, `cut_highest` or `best` of `items` with count `n`, in place.
    pub(super) fn cut(
        &mut self,
        e: &PExpr,
        func: Func,
        items: &mut Vec<ListItem>,
        n: usize,
    ) -> R<()> {
        let n = n.min(items.len());
        self.charge(e, (n as u64 + 1).saturating_mul(items.len() as u64))?;
        match func {
            Func::CutLowest => {
                for _ in 0..n {
                    cut_least_significant(items);
                }
            }
            Func::CutHighest => {
                for _ in 0..n {
                    cut_most_significant(items);
                }
            }
            _ => {
                items.sort_by_key(|i| std::cmp::Reverse(i.value));
                items.truncate(n);
            }
        }
        Ok(())
    }

    pub(super) fn count_arg(&self, e: &PExpr, v: &Value) -> R<usize> {
        match v {
            Value::Num(n) if n.is_integer() && n.numer() >= 0 && n.numer() <= 1_000_000 => {
                Ok(n.numer() as usize)
            }
            other => Err(self.type_err(e, "a whole number of items", other)),
        }
    }
}

/// Remove the least significant item, with FIDE 16.5's exception: when some
/// items come from voluntarily unplayed rounds, the lowest of those is cut
/// instead, as long as it is not lower than the least significant value
/// (i.e. the higher of the two contributions is cut; 16.5.1).
pub fn cut_least_significant(items: &mut Vec<ListItem>) {
    if items.is_empty() {
        return;
    }
    // Least significant: lowest key; among equal keys, the lowest value (14.1.1(d)).
    let mut lsv = 0;
    for (i, it) in items.iter().enumerate() {
        let b = &items[lsv];
        if (it.key, it.value) < (b.key, b.value) {
            lsv = i;
        }
    }
    let mut cut = lsv;
    let vur = items
        .iter()
        .enumerate()
        .filter(|(_, it)| it.voluntary)
        .min_by(|(_, a), (_, b)| a.value.cmp(&b.value))
        .map(|(i, _)| i);
    if let Some(v) = vur {
        if items[v].value >= items[lsv].value {
            cut = v;
        }
    }
    items.remove(cut);
}

/// Remove the most significant item: highest key; among equal keys, the highest value.
pub fn cut_most_significant(items: &mut Vec<ListItem>) {
    if items.is_empty() {
        return;
    }
    let mut best = 0;
    for (i, it) in items.iter().enumerate() {
        let b = &items[best];
        if (it.key, it.value) > (b.key, b.value) {
            best = i;
        }
    }
    items.remove(best);
}
