//! Why a value is undefined: the reference evaluator walked again, down to the first missing piece, said in words.
//!
//! The standings and `tb explain` show an undefined step value with its
//! reason ("round 1 against Finesse (F): no `imps` recorded (this game has
//! `imp`)") rather than a bare `-`. The reason is found by evaluating the
//! step's expression again with the reference evaluator ([`Evaluator::eval`],
//! the one definition of every value) and following, at each node whose
//! value is undefined, the part that made it so: an undefined operand, the
//! branch an `if` took, the first item of a loop that is undefined, the body
//! of a metric. It runs only for the few values that are undefined, after
//! ranking, so it costs nothing on the hot path.

use crate::eval::{Env, Evaluator, Value};
use crate::model::{Pid, Status};
use crate::num::Num;
use crate::plan::{Agg, BuiltinField, Func, PExpr, PGen, PKind};
use crate::syntax::ast::BinOp;
use std::sync::Arc;

/// How a mean (or min, max) over an empty list is said.
const EMPTY_LIST: &str = "is over nothing (an empty list)";

/// How deep the walk follows metrics into metrics before it stops looking.
const MAX_WHY_DEPTH: usize = 48;

impl Evaluator<'_> {
    /// Why `e` is undefined for participant `me` (among `group`, for a
    /// criterion; `slots` locals), or None when the value is defined or the
    /// walk cannot say: the whole account (metrics and rounds on the way,
    /// then the cause) and the cause alone, which many participants may
    /// share (FIDE Art. 10 drops every rating tie-break at once).
    pub fn why_undefined(
        &mut self,
        e: &PExpr,
        me: Pid,
        group: Option<Arc<Vec<Pid>>>,
        slots: usize,
    ) -> Option<(String, String)> {
        let mut env = Env {
            me: Some(me),
            locals: vec![Value::Undef; slots],
            group,
            places: None,
        };
        let mut path = Vec::new();
        let leaf = self.why(e, &mut env, 0, &mut path)?;
        path.push(leaf.clone());
        Some((path.join(": "), leaf))
    }

    /// The reason `e` is undefined, with the context on the way to it
    /// (metrics entered, loop items) pushed onto `path`.
    fn why(
        &mut self,
        e: &PExpr,
        env: &mut Env,
        depth: usize,
        path: &mut Vec<String>,
    ) -> Option<String> {
        if depth > MAX_WHY_DEPTH || self.eval(e, env).ok()? != Value::Undef {
            return None;
        }
        match &e.kind {
            PKind::Metric(id, target, args) => {
                let p = match target {
                    None => env.me?,
                    Some(t) => match self.eval(t, env).ok()? {
                        Value::Part(p) => p,
                        _ => return self.why(t, env, depth + 1, path),
                    },
                };
                let mut vals = Vec::with_capacity(args.len());
                for a in args {
                    let v = self.eval(a, env).ok()?;
                    // An undefined argument is the likely cause: said where
                    // it was given, not as the metric's parameter.
                    if v == Value::Undef {
                        return self.why(a, env, depth + 1, path);
                    }
                    vals.push(v);
                }
                let m = &self.rs.metrics[*id];
                let mut sub = Env::for_metric(m, Some(p), vals, env.group.clone());
                // The step's own metric is the criterion the output names
                // already; metrics below it are named on the way.
                let mark = path.len();
                if target.is_some() || Some(p) != env.me {
                    path.push(format!("`{}` of {}", m.name, self.who(p)));
                } else if depth > 0 {
                    path.push(format!("`{}`", m.name));
                }
                let body = &self.rs.metrics[*id].body;
                let reason = self.why(body, &mut sub, depth + 1, path);
                // A mean over an empty list given as an argument (FIDE's
                // `rounded_mean(opponent_ratings)`): say why the list given
                // here is empty rather than name the parameter.
                if reason.as_deref().is_some_and(|r| r.ends_with(EMPTY_LIST)) {
                    for (a, v) in args.iter().zip(&sub.locals) {
                        if matches!(v, Value::List(l) if l.is_empty()) {
                            path.truncate(mark);
                            if let Some(r) = self.why_empty(a, env, depth + 1) {
                                return Some(r);
                            }
                        }
                    }
                }
                match reason {
                    Some(r) => Some(r),
                    None => {
                        path.truncate(mark);
                        Some(format!("`{}` has no value", self.text(e)))
                    }
                }
            }
            PKind::Field(base, f) => {
                let b = self.eval(base, env).ok()?;
                if b == Value::Undef {
                    return self.why(base, env, depth + 1, path);
                }
                // The round is named once: by the loop that reached it, or here.
                let named = self.item_name(&b);
                if named.is_some() && path.last() != named.as_ref() {
                    path.extend(named);
                }
                Some(self.missing_field(&b, f.builtin, &f.name))
            }
            PKind::Binary(BinOp::Div | BinOp::Rem, a, b) => {
                let y = self.eval(b, env).ok()?;
                match y {
                    Value::Num(n) if n == Num::ZERO => Some(if is_zero_literal(b) {
                        format!(
                            "the ruleset gives no value here (`undefined`, {})",
                            self.at(e)
                        )
                    } else {
                        format!(
                            "`{}` is 0, so `{}` has no value",
                            self.text(b),
                            self.text(e)
                        )
                    }),
                    _ => self.first_undefined(&[a, b], env, depth, path),
                }
            }
            PKind::Binary(BinOp::Coalesce, _, b) => self.why(b, env, depth + 1, path),
            PKind::Binary(_, a, b) => self.first_undefined(&[a, b], env, depth, path),
            PKind::Unary(_, x) => self.why(x, env, depth + 1, path),
            PKind::If(c, a, b) => {
                let t = self.truthy(c, env).ok()?;
                let taken = match t {
                    None => return self.why(c, env, depth + 1, path),
                    Some(true) => a,
                    Some(false) => b,
                };
                // `if c then undefined else ...`: the rule's own condition
                // is the reason (FIDE Art. 10 drops rating tie-breaks).
                if matches!(&taken.kind, PKind::Binary(BinOp::Div, _, z) if is_zero_literal(z)) {
                    let when = if t == Some(true) { "" } else { "not " };
                    return Some(format!(
                        "the ruleset gives no value when {when}`{}` ({})",
                        self.text(c),
                        self.at(taken)
                    ));
                }
                self.why(taken, env, depth + 1, path)
            }
            PKind::Call(func, args) => {
                let refs: Vec<&PExpr> = args.iter().collect();
                if let Some(r) = self.first_undefined(&refs, env, depth, path) {
                    return Some(r);
                }
                Some(match func {
                    Func::Mean | Func::Min | Func::Max => {
                        format!("`{}` {EMPTY_LIST}", self.text(e))
                    }
                    _ => format!("`{}` has no value for these arguments", self.text(e)),
                })
            }
            PKind::Table(id, x) => {
                let Value::Num(v) = self.eval(x, env).ok()? else {
                    return self.why(x, env, depth + 1, path);
                };
                let t = &self.rs.tables[*id];
                let first = t
                    .rows
                    .first()
                    .map_or(String::new(), |(k, _)| format!(" ({k}, in {})", t.data));
                Some(format!(
                    "`{}`: {v} is below the first key of table `{}`{first}",
                    self.text(e),
                    t.name
                ))
            }
            PKind::Agg(agg, g) => {
                if let Some(r) = self.why_items(g, 0, env, depth, path) {
                    return Some(r);
                }
                Some(match (agg, &g.cond) {
                    // "no game played": a mean over the rounds played, none.
                    (Agg::Mean | Agg::Min | Agg::Max, Some(c)) => format!(
                        "`{}` is over nothing: no item passes `{}`",
                        self.text(e),
                        self.text(c)
                    ),
                    (Agg::Mean | Agg::Min | Agg::Max, None) => {
                        format!("`{}` is over nothing", self.text(e))
                    }
                    _ => format!("`{}` has no value", self.text(e)),
                })
            }
            PKind::List(g) => self.why_items(g, 0, env, depth, path),
            PKind::Local(_) => Some(format!("`{}` has no value", self.text(e))),
            _ => None,
        }
    }

    /// Why the list `e` (a metric or a list expression) is empty: the
    /// filter no item passed ("no game played").
    fn why_empty(&mut self, e: &PExpr, env: &mut Env, depth: usize) -> Option<String> {
        if depth > MAX_WHY_DEPTH {
            return None;
        }
        match &e.kind {
            PKind::Metric(id, None, args) if args.is_empty() => {
                let mut sub = Env::for_metric(&self.rs.metrics[*id], env.me, Vec::new(), None);
                let body = &self.rs.metrics[*id].body;
                let r = self.why_empty(body, &mut sub, depth + 1)?;
                Some(format!("`{}` is empty: {r}", self.rs.metrics[*id].name))
            }
            PKind::List(g) => Some(match &g.cond {
                Some(c) => format!("no item passes `{}`", self.text(c)),
                None => "it has no items".to_string(),
            }),
            _ => None,
        }
    }

    /// The first of `parts` that is undefined, and why.
    fn first_undefined(
        &mut self,
        parts: &[&PExpr],
        env: &mut Env,
        depth: usize,
        path: &mut Vec<String>,
    ) -> Option<String> {
        for p in parts {
            if self.eval(p, env).ok()? == Value::Undef {
                return self.why(p, env, depth + 1, path);
            }
        }
        None
    }

    /// The first item of a generator whose collection, filter or value is
    /// undefined, and why (with the item named on the path).
    fn why_items(
        &mut self,
        g: &PGen,
        level: usize,
        env: &mut Env,
        depth: usize,
        path: &mut Vec<String>,
    ) -> Option<String> {
        if level == g.fors.len() {
            if let Some(c) = &g.cond {
                match self.truthy(c, env).ok()? {
                    Some(false) => return None,
                    Some(true) => {}
                    None => return self.why(c, env, depth + 1, path),
                }
            }
            return self.why(&g.elem, env, depth + 1, path);
        }
        let (slot, coll) = &g.fors[level];
        let c = self.eval(coll, env).ok()?;
        if c == Value::Undef {
            return self.why(coll, env, depth + 1, path);
        }
        if env.locals.len() <= *slot {
            env.locals.resize(*slot + 1, Value::Undef);
        }
        for item in self.items(&c) {
            env.locals[*slot] = item.clone();
            let mark = path.len();
            if let Some(what) = self.item_name(&item) {
                path.push(what);
            }
            if let Some(r) = self.why_items(g, level + 1, env, depth, path) {
                return Some(r);
            }
            path.truncate(mark);
        }
        None
    }

    /// The items a loop over `c` binds, in order.
    pub(super) fn items(&self, c: &Value) -> Vec<Value> {
        let ev = self.event;
        match c {
            Value::Parts(ps) => ps.iter().map(|&p| Value::Part(p)).collect(),
            Value::Others(ps, me) => ps
                .iter()
                .filter(|q| *q != me)
                .map(|&p| Value::Part(p))
                .collect(),
            Value::Entries(p) => (0..ev.participants[*p].entries.len() as u32)
                .map(|i| Value::Entry(*p, i))
                .collect(),
            Value::Boards(p, i) => (0..ev.participants[*p].entries[*i as usize].boards().len()
                as u32)
                .map(|b| Value::Board(*p, *i, b))
                .collect(),
            Value::Nums(ns) => ns.iter().map(|&n| Value::Num(n)).collect(),
            Value::Deals(ds) => ds.iter().map(|&(p, i, b)| Value::Board(p, i, b)).collect(),
            Value::List(items) => items.iter().map(|i| Value::Num(i.value)).collect(),
            _ => Vec::new(),
        }
    }

    /// A loop item as the reason names it: a round and its opponent, a
    /// participant, a board.
    pub(super) fn item_name(&self, v: &Value) -> Option<String> {
        let ev = self.event;
        Some(match v {
            Value::Entry(p, i) => {
                let en = &ev.participants[*p].entries[*i as usize];
                match en.opponent {
                    Some(q) => format!("round {} against {}", en.round, self.who(q)),
                    None => format!("round {} ({})", en.round, status_words(en.status)),
                }
            }
            Value::Part(p) => self.who(*p),
            Value::Board(p, i, b) => {
                let en = &ev.participants[*p].entries[*i as usize];
                format!(
                    "board {} of round {}",
                    en.boards()[*b as usize].number,
                    en.round
                )
            }
            _ => return None,
        })
    }

    /// Why field `name` of a defined value `b` is undefined.
    fn missing_field(&self, b: &Value, f: Option<BuiltinField>, name: &str) -> String {
        use BuiltinField as F;
        let ev = self.event;
        match b {
            Value::Entry(p, i) => {
                let en = &ev.participants[*p].entries[*i as usize];
                match f {
                    Some(F::Opponent) => "no opponent".to_string(),
                    Some(F::Partner) => "no partner".to_string(),
                    Some(F::OpponentPartner) => "no opponent's partner".to_string(),
                    Some(F::PointsAgainst) => "no opponent's score".to_string(),
                    _ => {
                        let unit = name.strip_suffix("_against").unwrap_or(name);
                        let side = if unit.len() < name.len() {
                            "the opponent's "
                        } else {
                            ""
                        };
                        let has: Vec<String> = en
                            .units()
                            .iter()
                            .map(|(u, _)| format!("`{}`", ev.units[*u as usize]))
                            .collect();
                        let what = if has.is_empty() {
                            "it records no units".to_string()
                        } else {
                            format!("it records {}", has.join(", "))
                        };
                        format!("no {side}`{unit}` recorded ({what})")
                    }
                }
            }
            Value::Part(p) => match f {
                Some(F::Rating) => format!("{} has no rating", self.who(*p)),
                _ => format!("{} has no `{name}` value", self.who(*p)),
            },
            Value::Board(..) => format!("the board has no `{name}`"),
            _ => format!("no `{name}`"),
        }
    }

    /// A participant as the output names it.
    pub(super) fn who(&self, p: Pid) -> String {
        let q = &self.event.participants[p];
        if q.name.is_empty() || q.name == q.id {
            q.id.clone()
        } else {
            format!("{} ({})", q.name, q.id)
        }
    }

    /// The ruleset's own text of `e`, on one line and kept short.
    pub(super) fn text(&self, e: &PExpr) -> String {
        let Some(src) = self.rs.files.get(e.file) else {
            return String::new();
        };
        let t = src.text.get(e.span.start..e.span.end).unwrap_or("");
        let t = t.split_whitespace().collect::<Vec<_>>().join(" ");
        if t.chars().count() > 60 {
            format!("{}…", t.chars().take(59).collect::<String>())
        } else {
            t
        }
    }

    /// Where `e` is written: `file:line`.
    fn at(&self, e: &PExpr) -> String {
        match self.rs.files.get(e.file) {
            Some(src) => format!("{}:{}", src.name, src.line_col(e.span.start).0),
            None => String::new(),
        }
    }
}

/// `undefined` compiles to `1 / 0`: its divisor is the literal zero.
fn is_zero_literal(e: &PExpr) -> bool {
    matches!(e.kind, PKind::Num(n) if n == Num::ZERO)
}

/// An unplayed round in words.
fn status_words(s: Status) -> &'static str {
    match s {
        Status::Played => "played",
        Status::ForfeitWin => "won by forfeit",
        Status::ForfeitLoss => "lost by forfeit",
        Status::DoubleForfeit => "a double forfeit",
        Status::PairingBye => "a pairing bye",
        Status::FullBye => "a full-point bye",
        Status::HalfBye => "a half-point bye",
        Status::ZeroBye => "a zero-point bye",
        Status::Absent => "absent",
    }
}
