//! The reference evaluator: one expression node at a time for one participant — metrics (with their caches), operators, conditions and errors. Every other path (columns, `why`) computes what this one does.

use crate::codes;
use crate::eval::cache::{EntryValues, PairCache};
use crate::eval::value::values_equal;
use crate::eval::UNDEFINED_CONDITION;
use crate::eval::{compare_values, Env, EvalError, Evaluator, Value, MAX_EVAL_DEPTH, R};
use crate::model::Pid;
use crate::num::{Num, NumError};
use crate::plan::*;
use crate::syntax::ast::UnOp;
use std::cmp::Ordering;
use std::sync::Arc;

/// Stack left below which evaluation moves to a new segment.
pub(super) const STACK_RED_ZONE: usize = 512 * 1024;
/// Size of each new stack segment.
pub(super) const STACK_SEGMENT: usize = 4 * 1024 * 1024;

impl Evaluator<'_> {
    /// An error at expression `e`.
    pub(super) fn fail(
        &self,
        e: &PExpr,
        code: &'static str,
        message: String,
        help: &str,
    ) -> Box<EvalError> {
        Box::new(EvalError {
            code,
            message,
            help: help.to_string(),
            file: e.file,
            span: e.span,
        })
    }

    pub(super) fn arith(&self, e: &PExpr, r: Result<Num, NumError>) -> R<Value> {
        match r {
            Ok(n) => Ok(Value::Num(n)),
            Err(NumError::DivisionByZero) => Ok(Value::Undef),
            Err(NumError::Overflow) => Err(self.fail(
                e,
                codes::EVAL_OVERFLOW,
                "a value grew too large to hold exactly".into(),
                "check the data for absurd numbers; values beyond about 9.2 × 10^18 (64-bit fractions) are refused",
            )),
        }
    }

    /// The value of metric `id` for participant `p` (cached when it takes no arguments).
    pub fn metric(
        &mut self,
        id: MetricId,
        p: Pid,
        args: Vec<Value>,
        group: Option<Arc<Vec<Pid>>>,
        at: &PExpr,
    ) -> R<Value> {
        let cacheable = args.is_empty() && !self.rs.metrics[id].group_relative;
        // A metric that never reads its participant is cached once, under 0.
        let slot = if self.tables.same.get(id).copied().unwrap_or(false) {
            0
        } else {
            p
        };
        if cacheable {
            if let Some(Some(v)) = self.caches.metrics[id].get(slot) {
                let v = v.clone();
                self.recycle(args);
                return Ok(v);
            }
            // First use: compute it for everyone in columns (see
            // `crate::eval::columnar`); what that cannot do is done below. A
            // metric that is the same for everyone is computed once, below.
            if slot == p && !self.tables.same.get(id).copied().unwrap_or(false) {
                self.fill_column(id);
                if let Some(Some(v)) = self.caches.metrics[id].get(slot) {
                    let v = v.clone();
                    self.recycle(args);
                    return Ok(v);
                }
            }
        }
        // First argument one of this participant's own rounds, the others
        // plain values: cached per round and combination of the others.
        let mut entry_hit = None;
        let entry_slot = match args.split_first() {
            Some((Value::Entry(q, i), rest))
                if *q == p
                    && !self.rs.metrics[id].group_relative
                    && rest
                        .iter()
                        .all(|v| matches!(v, Value::Num(_) | Value::Bool(_) | Value::Undef)) =>
            {
                let k = self.tables.entry_base[p] + *i as usize;
                let tables = &self.caches.entry[id];
                let t = tables.iter().position(|(tail, _)| tail.as_slice() == rest);
                match t.and_then(|t| tables[t].1.get(k)) {
                    Some(v) => {
                        entry_hit = Some(v.clone());
                        None
                    }
                    _ => Some((k, rest.to_vec())),
                }
            }
            _ => None,
        };
        if let Some(v) = entry_hit {
            self.recycle(args);
            return Ok(v);
        }
        // Meetings with a participant, counted for every opponent at once
        // (see `crate::eval::tally`).
        if let Some(v) = self.tallied(id, p, &args) {
            self.recycle(args);
            return Ok(v);
        }
        // First argument a participant, the others plain values: cached per
        // pair of participants (see `PairCache`).
        let mut pair_key = None;
        if !self.rs.metrics[id].group_relative {
            if let Some(q) = PairCache::key(&args) {
                if let Some(v) = self.caches.pairs.get(id, slot, q, &args) {
                    self.recycle(args);
                    return Ok(v);
                }
                pair_key = Some((q, args[1..].to_vec()));
            }
        }
        let group_key = match &group {
            Some(g) if self.rs.metrics[id].group_relative => {
                if let Some(v) = self.caches.group.get(g, id, slot, &args) {
                    self.recycle(args);
                    return Ok(v);
                }
                Some((g.clone(), args.clone()))
            }
            _ => None,
        };
        if self.budget.depth >= MAX_EVAL_DEPTH {
            return Err(self.fail(
                at,
                codes::EVAL_TOO_DEEP,
                "metrics nest too deeply".into(),
                "simplify the chain of metric definitions",
            ));
        }
        let rs = self.rs;
        let m = &rs.metrics[id];
        let mut env = Env::for_metric(m, Some(p), args, group);
        self.budget.depth += 1;
        let v = self.eval(&m.body, &mut env);
        self.budget.depth -= 1;
        self.recycle(env.locals);
        let v = v?;
        if cacheable {
            let n = self.event.participants.len();
            let c = Arc::make_mut(&mut self.caches.metrics[id]);
            if c.is_empty() {
                c.resize(n, None);
            }
            c[slot] = Some(v.clone());
        }
        if let Some((q, rest)) = pair_key {
            self.caches.pairs.put(id, slot, q, rest, v.clone());
        }
        if let Some((g, args)) = group_key {
            self.caches.group.put(&g, id, slot, args, v.clone());
        }
        if let Some((k, tail)) = entry_slot {
            let total = self.tables.entry_base.last().copied().unwrap_or(0)
                + self
                    .event
                    .participants
                    .last()
                    .map(|q| q.entries.len())
                    .unwrap_or(0);
            let tables = &mut self.caches.entry[id];
            let t = match tables.iter().position(|(t, _)| *t == tail) {
                Some(t) => t,
                None => {
                    tables.push((tail, EntryValues::new(total)));
                    tables.len() - 1
                }
            };
            tables[t].1.put(k, v.clone());
        }
        Ok(v)
    }

    fn me(&self, e: &PExpr, env: &Env) -> R<Pid> {
        env.me.ok_or_else(|| {
            self.fail(
                e,
                codes::EVAL_NO_PARTICIPANT,
                "this needs a participant".into(),
                "use it inside a metric or step",
            )
        })
    }

    /// Spend `amount` of the evaluation budget; an error when it runs out.
    #[inline]
    pub(super) fn charge(&mut self, e: &PExpr, amount: u64) -> R<()> {
        match self.budget.fuel.checked_sub(amount) {
            Some(f) => {
                self.budget.fuel = f;
                Ok(())
            }
            None => Err(self.fail(
                e,
                codes::EVAL_TOO_COSTLY,
                "evaluating the ruleset on this event takes too much work".into(),
                "loops nest and multiply, and a metric with arguments is computed anew at each use: \
                 compute inner parts as metrics without arguments (each is computed once per participant)",
            )),
        }
    }

    /// Evaluate an expression.
    pub fn eval(&mut self, e: &PExpr, env: &mut Env) -> R<Value> {
        self.charge(e, 1)?;
        if self.budget.depth >= MAX_EVAL_DEPTH {
            return Err(self.fail(
                e,
                codes::EVAL_TOO_DEEP,
                "metrics nest too deeply".into(),
                "simplify the chain of metric definitions",
            ));
        }
        // A leaf evaluates nothing below it: read here, without a level of
        // nesting or a stack probe (a loop reads its variables for every
        // item, and an `if` over them several times).
        match &e.kind {
            PKind::Local(i) => return Ok(env.locals.get(*i).cloned().unwrap_or(Value::Undef)),
            PKind::Num(n) => return Ok(Value::Num(*n)),
            _ => {}
        }
        self.budget.depth += 1;
        // Debug builds take kilobytes of stack per level: grow it on the heap
        // when little is left rather than overflow (a test thread has 2 MB).
        // Probing the stack costs as much as a small node: probe every
        // eighth level, with a red zone that covers the levels in between.
        let v = if self.budget.depth.is_multiple_of(8) {
            stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || self.eval_node(e, env))
        } else {
            self.eval_node(e, env)
        };
        self.budget.depth -= 1;
        v
    }

    fn eval_node(&mut self, e: &PExpr, env: &mut Env) -> R<Value> {
        Ok(match &e.kind {
            PKind::Num(n) => Value::Num(*n),
            PKind::Bool(b) => Value::Bool(*b),
            PKind::Str(s) => Value::Str(s.clone()),
            PKind::Infinity => Value::Inf,
            PKind::Local(i) => env.locals.get(*i).cloned().unwrap_or(Value::Undef),
            PKind::Param(i) => Value::Num(self.rs.params[*i].value),
            PKind::Builtin(b) => match b {
                Builtin::Me => Value::Part(self.me(e, env)?),
                Builtin::Rounds => Value::Entries(self.me(e, env)?),
                Builtin::Sessions => {
                    let p = self.me(e, env)?;
                    Value::Nums(Arc::new(self.event.participants[p].sessions.clone()))
                }
                Builtin::Group => Value::Parts(env.group.clone().ok_or_else(|| self.no_group(e))?),
                Builtin::Others => {
                    let g = env.group.clone().ok_or_else(|| self.no_group(e))?;
                    match env.me {
                        Some(me) => Value::Others(g, me),
                        None => Value::Parts(g),
                    }
                }
                Builtin::Event => Value::Event,
                Builtin::FirstPlace | Builtin::LastPlace => {
                    let (first, last) = env.places.ok_or_else(|| self.no_group(e))?;
                    let place = if *b == Builtin::FirstPlace {
                        first
                    } else {
                        last
                    };
                    Value::Num(Num::from(place as i64))
                }
            },
            PKind::Metric(id, target, args) => {
                let p = match target {
                    None => self.me(e, env)?,
                    Some(t) => match self.eval(t, env)? {
                        Value::Part(p) => p,
                        Value::Undef => return Ok(Value::Undef),
                        other => {
                            return Err(self.fail(
                                t,
                                codes::EVAL_TYPE,
                                format!(
                                    "`.{}` needs a participant, not {}",
                                    self.rs.metrics[*id].name,
                                    other.kind()
                                ),
                                "metrics belong to participants: write e.g. `r.opponent.score`",
                            ))
                        }
                    },
                };
                let mut vals = self.caches.pool.pop().unwrap_or_default();
                for a in args {
                    match self.eval(a, env) {
                        Ok(v) => vals.push(v),
                        Err(err) => {
                            self.recycle(vals);
                            return Err(err);
                        }
                    }
                }
                let group = if self.rs.metrics[*id].group_relative {
                    env.group.clone()
                } else {
                    None
                };
                self.metric(*id, p, vals, group, e)?
            }
            PKind::Field(base, f) => {
                let b = self.eval(base, env)?;
                self.field(e, &b, f)?
            }
            PKind::Call(func, args) => {
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    vals.push(self.eval(a, env)?);
                }
                self.call(e, *func, vals)?
            }
            PKind::Table(id, x) => {
                let v = self.eval(x, env)?;
                self.lookup(e, *id, &v)?
            }
            PKind::Agg(agg, g) => self.aggregate(e, *agg, g, env)?,
            PKind::List(g) => self.list(e, g, env)?,
            PKind::If(c, a, b) => match self.truthy(c, env)? {
                Some(true) => self.eval(a, env)?,
                Some(false) => self.eval(b, env)?,
                // Neither branch: an undefined condition never picks one.
                None => Value::Undef,
            },
            PKind::Unary(op, x) => {
                let v = self.eval(x, env)?;
                self.unary_value(e, *op, x, v)?
            }
            PKind::Binary(op, a, b) => self.binary(e, *op, a, b, env)?,
        })
    }

    fn no_group(&self, e: &PExpr) -> Box<EvalError> {
        self.fail(
            e,
            codes::EVAL_NO_GROUP,
            "`group` is only known while breaking a tie".into(),
            "use it in a `criterion`",
        )
    }

    pub(super) fn type_err(&self, e: &PExpr, what: &str, v: &Value) -> Box<EvalError> {
        self.fail(
            e,
            codes::EVAL_TYPE,
            format!("expected {what}, found {}", v.kind()),
            "check the expression's parts",
        )
    }

    /// A condition's truth: true, false, or None where it is undefined
    /// (the language's three-valued logic: an undefined value is never
    /// taken as false; README, "Undefined values").
    pub fn truthy(&mut self, e: &PExpr, env: &mut Env) -> R<Option<bool>> {
        let v = self.eval(e, env)?;
        self.truth(e, &v)
    }

    /// A condition's value as true, false or undefined (None).
    pub(super) fn truth(&self, e: &PExpr, v: &Value) -> R<Option<bool>> {
        match v {
            Value::Bool(b) => Ok(Some(*b)),
            Value::Undef => Ok(None),
            v => Err(self.type_err(e, "true or false", v)),
        }
    }

    /// A condition that must be true or false to go on (`voluntary`): an
    /// undefined one is an error naming it (`what`), never taken as false.
    pub(crate) fn definite(&self, e: &PExpr, what: &str, v: Option<bool>) -> R<bool> {
        v.ok_or_else(|| {
            self.fail(
                e,
                UNDEFINED_CONDITION,
                format!("{what} is undefined"),
                "the condition reads a value the data does not give here; decide the case with `defined(x)` or `x ?? default`, citing the rule",
            )
        })
    }

    /// Table `id` looked up at `v` (`e` is the lookup): the value of its
    /// last row whose key is at most `v`; undefined below its first key
    /// (`why` says so) and where `v` is.
    pub(super) fn lookup(&self, e: &PExpr, id: TableId, v: &Value) -> R<Value> {
        match v {
            Value::Num(x) => Ok(match self.rs.tables[id].lookup(*x) {
                Some(y) => Value::Num(y),
                None => Value::Undef,
            }),
            Value::Undef => Ok(Value::Undef),
            other => Err(self.type_err(e, "a number", other)),
        }
    }

    /// A prefix operator applied to a value (`x` is the operand's expression).
    pub(super) fn unary_value(&self, e: &PExpr, op: UnOp, x: &PExpr, v: Value) -> R<Value> {
        Ok(match (op, v) {
            (UnOp::Not, Value::Bool(b)) => Value::Bool(!b),
            (UnOp::Not, Value::Undef) => Value::Undef,
            (UnOp::Neg, Value::Num(n)) => self.arith(e, n.neg())?,
            (UnOp::Neg, Value::Undef) => Value::Undef,
            (_, v) => return Err(self.type_err(x, "an operand", &v)),
        })
    }

    fn binary(&mut self, e: &PExpr, op: BinOp, a: &PExpr, b: &PExpr, env: &mut Env) -> R<Value> {
        match op {
            // Kleene's logic: `false and x` is false and `true or x` true
            // whatever x is (x is not evaluated); otherwise an undefined
            // side makes the result undefined.
            BinOp::And | BinOp::Or => {
                let and = op == BinOp::And;
                let ta = self.truthy(a, env)?;
                if ta == Some(!and) {
                    return Ok(Value::Bool(!and));
                }
                let tb = self.truthy(b, env)?;
                return Ok(logic(and, ta, tb));
            }
            BinOp::Coalesce => {
                // A data value the event does not record at all counts as
                // undefined here, so optional data reads `me.carryover ?? 0`.
                let x = match self.eval(a, env) {
                    Err(er) if er.code == codes::EVAL_MISSING_DATA => Value::Undef,
                    r => r?,
                };
                return if x == Value::Undef {
                    self.eval(b, env)
                } else {
                    Ok(x)
                };
            }
            _ => {}
        }
        let x = self.eval(a, env)?;
        let y = self.eval(b, env)?;
        self.binary_value(e, op, b, x, y)
    }

    /// An infix operator other than `and`, `or` and `??` applied to two
    /// values (`b` is the right operand's expression, for `in`'s errors).
    pub(super) fn binary_value(
        &mut self,
        e: &PExpr,
        op: BinOp,
        b: &PExpr,
        x: Value,
        y: Value,
    ) -> R<Value> {
        match op {
            BinOp::Eq | BinOp::Ne if matches!(x, Value::Undef) || matches!(y, Value::Undef) => {
                Ok(Value::Undef)
            }
            BinOp::Eq => Ok(Value::Bool(values_equal(&x, &y))),
            BinOp::Ne => Ok(Value::Bool(!values_equal(&x, &y))),
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                let ord = match (&x, &y) {
                    // Two numbers, the common case, as `compare_values` orders them.
                    (Value::Num(m), Value::Num(n)) => m.cmp(n),
                    (Value::Undef, _) | (_, Value::Undef) => return Ok(Value::Undef),
                    (Value::Num(_) | Value::Inf, Value::Num(_) | Value::Inf) => {
                        compare_values(&x, &y)
                    }
                    _ => {
                        return Err(self.type_err(
                            e,
                            "numbers to compare",
                            if matches!(x, Value::Num(_)) { &y } else { &x },
                        ))
                    }
                };
                Ok(Value::Bool(match op {
                    BinOp::Lt => ord == Ordering::Less,
                    BinOp::Le => ord != Ordering::Greater,
                    BinOp::Gt => ord == Ordering::Greater,
                    _ => ord != Ordering::Less,
                }))
            }
            BinOp::In if x == Value::Undef => Ok(Value::Undef),
            BinOp::In => match y {
                Value::Parts(ps) => Ok(Value::Bool(
                    matches!(x, Value::Part(p) if self.member(&ps, p)),
                )),
                Value::Others(ps, me) => Ok(Value::Bool(
                    matches!(x, Value::Part(p) if p != me && self.member(&ps, p)),
                )),
                Value::Undef => Ok(Value::Undef),
                other => Err(self.type_err(b, "a set of participants after `in`", &other)),
            },
            _ => {
                let (x, y) = match (x, y) {
                    (Value::Undef, _) | (_, Value::Undef) => return Ok(Value::Undef),
                    (Value::Num(x), Value::Num(y)) => (x, y),
                    (Value::Inf, _) | (_, Value::Inf) => {
                        return Err(self.fail(
                            e,
                            codes::EVAL_INFINITY,
                            "arithmetic on infinity".into(),
                            "compare infinity, but do not compute with it",
                        ))
                    }
                    (x, y) => {
                        return Err(self.type_err(
                            e,
                            "numbers",
                            if matches!(x, Value::Num(_)) { &y } else { &x },
                        ))
                    }
                };
                let r = match op {
                    BinOp::Add => x.add(y),
                    BinOp::Sub => x.sub(y),
                    BinOp::Mul => x.mul(y),
                    BinOp::Rem => x.rem(y),
                    _ => x.div(y),
                };
                self.arith(e, r)
            }
        }
    }
}

/// `a and b` (`and`) or `a or b` over truths that may be undefined (None),
/// by Kleene's three-valued logic.
pub(super) fn logic(and: bool, a: Option<bool>, b: Option<bool>) -> Value {
    match (a, b) {
        (Some(x), _) | (_, Some(x)) if x != and => Value::Bool(x),
        (Some(_), Some(_)) => Value::Bool(and),
        _ => Value::Undef,
    }
}
