//! Generators: the loops of `sum(E for r in rounds where C)` and `[E for r in rounds by K]`, the aggregates folded over them, and the list values they build.

use crate::codes;
use crate::eval::{Env, Evaluator, ListItem, Value, MAX_LIST_ITEMS, R};
use crate::num::Num;
use crate::plan::*;
use std::sync::Arc;

/// Internal: an `all` / `any` aggregate is decided and stops early.
const DECIDED: &str = codes::EVAL_DECIDED;

impl Evaluator<'_> {
    /// A list `[E for ... where C by K voluntary V]` (`e`, with generator `g`).
    pub(super) fn list(&mut self, e: &PExpr, g: &PGen, env: &mut Env) -> R<Value> {
        let mut items = Vec::new();
        let mut unknown = false;
        let mut undefined_item = false;
        self.generate(g, 0, env, &mut unknown, &mut |ev, env| {
            let v = ev.eval(&g.elem, env)?;
            let Some(value) = ev.list_value(g, v)? else {
                undefined_item = true;
                return Ok(());
            };
            let key = match &g.by {
                Some(k) => ev.eval(k, env)?,
                None => Value::Undef,
            };
            let voluntary = match &g.voluntary {
                Some(c) => {
                    let t = ev.truthy(c, env)?;
                    ev.definite(c, "a list item's `voluntary` flag", t)?
                }
                None => false,
            };
            ev.list_push(e, &mut items, value, key, voluntary)
        })?;
        Ok(if unknown || undefined_item {
            Value::Undef
        } else {
            Value::List(Arc::new(items))
        })
    }

    /// A list item's value: a number, or None for an undefined one (which
    /// makes the whole list undefined: an item is never silently left out).
    pub(super) fn list_value(&self, g: &PGen, v: Value) -> R<Option<Num>> {
        match v {
            Value::Num(n) => Ok(Some(n)),
            Value::Undef => Ok(None),
            other => Err(self.fail(
                &g.elem,
                codes::EVAL_TYPE,
                format!("list items must be numbers, not {}", other.kind()),
                "",
            )),
        }
    }

    /// Append an item to list `e`; its significance key is `key` when that
    /// is a number, else the value itself.
    pub(super) fn list_push(
        &self,
        e: &PExpr,
        items: &mut Vec<ListItem>,
        value: Num,
        key: Value,
        voluntary: bool,
    ) -> R<()> {
        if items.len() >= MAX_LIST_ITEMS {
            return Err(self.fail(
                e,
                codes::EVAL_TOO_COSTLY,
                format!("a list grew past {MAX_LIST_ITEMS} items"),
                "loops nest and multiply: filter with `where`, or aggregate inner loops first",
            ));
        }
        let key = match key {
            Value::Num(k) => k,
            _ => value,
        };
        items.push(ListItem {
            value,
            key,
            voluntary,
        });
        Ok(())
    }

    /// Run the loops of a generator, calling `body` for each binding that
    /// passes the filter. `unknown` is set where a binding's filter is
    /// undefined, or a collection to loop over is: what the generator
    /// yields is then not known.
    fn generate(
        &mut self,
        g: &PGen,
        level: usize,
        env: &mut Env,
        unknown: &mut bool,
        body: &mut dyn FnMut(&mut Self, &mut Env) -> R<()>,
    ) -> R<()> {
        if level == g.fors.len() {
            if let Some(c) = &g.cond {
                match self.truthy(c, env)? {
                    Some(true) => {}
                    Some(false) => return Ok(()),
                    None => {
                        *unknown = true;
                        return Ok(());
                    }
                }
            }
            return body(self, env);
        }
        let (slot, coll) = &g.fors[level];
        let c = self.eval(coll, env)?;
        if c == Value::Undef {
            *unknown = true;
            return Ok(());
        }
        // `others`: the group, skipping the member at `skip`.
        let skip = match &c {
            Value::Others(ps, me) => ps.iter().position(|q| q == me),
            _ => None,
        };
        // The i-th item of the collection, made on demand: loops over a
        // participant's rounds (the hot path) allocate nothing.
        let len = match &c {
            Value::Parts(ps) => ps.len(),
            Value::Others(ps, _) => ps.len() - usize::from(skip.is_some()),
            Value::Entries(p) => self.event.participants[*p].entries.len(),
            Value::Boards(p, i) => self.event.participants[*p].entries[*i as usize]
                .boards()
                .len(),
            Value::Nums(ns) => ns.len(),
            Value::Deals(ds) => ds.len(),
            Value::List(items) => items.len(),
            Value::Undef => 0,
            other => return Err(self.type_err(coll, "a collection to loop over", other)),
        };
        if env.locals.len() <= *slot {
            env.locals.resize(*slot + 1, Value::Undef);
        }
        for k in 0..len {
            env.locals[*slot] = match &c {
                Value::Parts(ps) => Value::Part(ps[k]),
                Value::Others(ps, _) => {
                    Value::Part(ps[k + usize::from(skip.is_some_and(|s| k >= s))])
                }
                Value::Entries(p) => Value::Entry(*p, k as u32),
                Value::Boards(p, i) => Value::Board(*p, *i, k as u32),
                Value::Nums(ns) => Value::Num(ns[k]),
                Value::Deals(ds) => {
                    let (p, i, b) = ds[k];
                    Value::Board(p, i, b)
                }
                Value::List(items) => Value::Num(items[k].value),
                _ => Value::Undef,
            };
            self.generate(g, level + 1, env, unknown, body)?;
        }
        Ok(())
    }

    pub(super) fn aggregate(&mut self, e: &PExpr, agg: Agg, g: &PGen, env: &mut Env) -> R<Value> {
        // A member compared with the others of a large tied group: from the
        // group's values sorted once (`eval::group`), not a loop per member.
        if self.columnar {
            if let Some(v) = self.group_aggregate(agg, g, env) {
                return Ok(v);
            }
        }
        if let Some(v) = self.first_in_order(agg, g, env)? {
            return Ok(v);
        }
        let mut acc = Acc::new(agg);
        let mut unknown = false;
        let walked = self.generate(g, 0, env, &mut unknown, &mut |ev, env| {
            let v = ev.eval(&g.elem, env)?;
            if acc.push(ev, e, g, v)? {
                // Decided: stop, as `and` / `or` do.
                return Err(ev.fail(e, DECIDED, String::new(), ""));
            }
            Ok(())
        });
        match walked {
            Err(er) if er.code == DECIDED => {}
            r => r?,
        }
        if unknown {
            acc.unknown_item();
        }
        acc.finish(self, e)
    }

    /// `min(x for x in C where cond)` over numbers in ascending order (such
    /// as `integers(a, b)`) is the first `x` that passes, and `max` the last:
    /// stop there instead of testing every number (FIDE PTP searches
    /// thousands of ratings). None when the shortcut does not apply.
    fn first_in_order(&mut self, agg: Agg, g: &PGen, env: &mut Env) -> R<Option<Value>> {
        if !matches!(agg, Agg::Min | Agg::Max) || g.fors.len() != 1 {
            return Ok(None);
        }
        let (slot, coll) = &g.fors[0];
        if !matches!(g.elem.kind, PKind::Local(s) if s == *slot) {
            return Ok(None);
        }
        let Value::Nums(ns) = self.eval(coll, env)? else {
            return Ok(None);
        };
        if !ns.windows(2).all(|w| w[0] <= w[1]) {
            return Ok(None);
        }
        if env.locals.len() <= *slot {
            env.locals.resize(*slot + 1, Value::Undef);
        }
        let order: Box<dyn Iterator<Item = &Num>> = if agg == Agg::Min {
            Box::new(ns.iter())
        } else {
            Box::new(ns.iter().rev())
        };
        for &n in order {
            env.locals[*slot] = Value::Num(n);
            let pass = match &g.cond {
                Some(c) => self.truthy(c, env)?,
                None => Some(true),
            };
            match pass {
                Some(true) => return Ok(Some(Value::Num(n))),
                Some(false) => {}
                // Whether `n` passes is not known, so neither is the result.
                None => return Ok(Some(Value::Undef)),
            }
        }
        Ok(Some(Value::Undef))
    }
}

/// The running state of an aggregate (`sum`, `count`, `all`, ...) over
/// the items of a generator; the per-participant and the columnar
/// evaluators both fold items through it, so they agree by construction.
pub(super) struct Acc {
    agg: Agg,
    acc: Option<Num>,
    count: i64,
    undef: bool,
    inf: bool,
    truth: bool,
}

impl Acc {
    pub(super) fn new(agg: Agg) -> Acc {
        Acc {
            agg,
            acc: None,
            count: 0,
            undef: false,
            inf: false,
            truth: matches!(agg, Agg::All),
        }
    }

    /// Add one item (`e` is the aggregate, `g` its generator). True when the
    /// result is decided (`all` met a false, `any` a true): later items
    /// would not change it and are not evaluated.
    pub(super) fn push(&mut self, ev: &Evaluator, e: &PExpr, g: &PGen, v: Value) -> R<bool> {
        match self.agg {
            // An undefined item is not known to count (nor, below, to be
            // true or false): the result is undefined unless decided.
            Agg::Count => match v {
                Value::Bool(false) => {}
                Value::Undef => self.undef = true,
                _ => self.count += 1,
            },
            Agg::All | Agg::Any => {
                let b = match v {
                    Value::Bool(b) => b,
                    Value::Undef => {
                        self.undef = true;
                        return Ok(false);
                    }
                    other => return Err(ev.type_err(&g.elem, "true or false", &other)),
                };
                if self.agg == Agg::All {
                    self.truth &= b;
                } else {
                    self.truth |= b;
                }
                return Ok(self.truth != (self.agg == Agg::All));
            }
            Agg::Sum | Agg::Mean | Agg::Min | Agg::Max => {
                let n = match v {
                    Value::Num(n) => n,
                    Value::Undef => {
                        self.undef = true;
                        return Ok(false);
                    }
                    Value::Inf if matches!(self.agg, Agg::Min | Agg::Max) => {
                        self.inf = true;
                        self.count += 1;
                        return Ok(false);
                    }
                    other => return Err(ev.type_err(&g.elem, "a number", &other)),
                };
                self.push_num(ev, e, n)?;
            }
        }
        Ok(false)
    }

    /// Add a number to a `sum`, `mean`, `min` or `max` (the arm of
    /// [`Acc::push`] for a number, for callers that hold one).
    #[inline]
    pub(super) fn push_num(&mut self, ev: &Evaluator, e: &PExpr, n: Num) -> R<()> {
        debug_assert!(matches!(
            self.agg,
            Agg::Sum | Agg::Mean | Agg::Min | Agg::Max
        ));
        self.count += 1;
        self.acc = Some(match (self.acc, self.agg) {
            (None, _) => n,
            (Some(a), Agg::Min) => a.min(n),
            (Some(a), Agg::Max) => a.max(n),
            (Some(a), _) => a.add(n).map_err(|_| {
                ev.fail(
                    e,
                    codes::EVAL_OVERFLOW,
                    "a sum grew too large to hold exactly".into(),
                    "",
                )
            })?,
        });
        Ok(())
    }

    /// An item whose membership is unknown (its `where` is undefined):
    /// the result is undefined unless `all`/`any` is decided without it.
    pub(super) fn unknown_item(&mut self) {
        self.undef = true;
    }

    /// The aggregate's value.
    pub(super) fn finish(self, ev: &Evaluator, e: &PExpr) -> R<Value> {
        Ok(match self.agg {
            // Kleene: `all` is false once an item is false, `any` true once
            // one is true, whatever the undefined items would be.
            Agg::All if !self.truth => Value::Bool(false),
            Agg::Any if self.truth => Value::Bool(true),
            _ if self.undef => Value::Undef,
            Agg::Count => Value::Num(Num::int(self.count)),
            Agg::All | Agg::Any => Value::Bool(self.truth),
            Agg::Max if self.inf => Value::Inf,
            Agg::Min if self.inf && self.acc.is_none() => Value::Inf,
            Agg::Sum => Value::Num(self.acc.unwrap_or(Num::ZERO)),
            Agg::Mean => match self.acc {
                None => Value::Undef,
                Some(s) => ev.arith(e, s.div(Num::int(self.count)))?,
            },
            _ => self.acc.map(Value::Num).unwrap_or(Value::Undef),
        })
    }
}
