//! The parts of a value (`tb explain --detail`): the reference evaluator walked again over a step's expression, recording each list's items with their source, what a cut removed and why, and the operands arithmetic combined.
//!
//! Like [`why`](super::why), every number comes from [`Evaluator::eval`],
//! the one definition of every value; the walk only follows the
//! expression's structure: a metric's body, the branch an `if` took, the
//! items of a loop (named by the round, opponent or participant each
//! binds), the cuts applied to a list (replayed with the evaluator's own
//! cut functions), the operands of `+ - * /`. It runs only for the tied
//! groups `tb explain --detail` shows, after ranking: nothing on the hot
//! path.

use crate::eval::{cut_least_significant, cut_most_significant, Env, Evaluator, ListItem, Value};
use crate::model::Pid;
use crate::num::Num;
use crate::plan::said::{metric_words, op_words, Said};
use crate::plan::{Agg, Func, PExpr, PGen, PKind};
use crate::syntax::ast::BinOp;
use std::sync::Arc;

/// How deep the walk follows metrics into metrics.
const MAX_DETAIL_DEPTH: usize = 40;

/// Where the walk into another participant's value starts (and below
/// which it may start one): one level of it, never a walk from there.
const NESTED_DEPTH: usize = 20;

/// Most items of one list or loop shown; the rest are counted.
pub const MAX_DETAIL_ITEMS: usize = 64;

/// One part of a value: what it is in the ruleset's words, its value, and
/// what it is made of.
#[derive(Clone, Debug, PartialEq)]
pub struct Detail {
    /// The metric's name (`opponent_scores`), or the expression's text.
    pub what: String,
    /// The same in words, for people: the metric's label or its name read
    /// as words ("DE points"), an expression said by [`Said`] ("the sum of
    /// opponent scores less the 1 least significant").
    pub said: String,
    /// The metric's label (`BH`), if it has one.
    pub label: Option<String>,
    /// The first sentence of the metric's documentation.
    pub doc: Option<String>,
    /// The metric's article.
    pub cite: Option<String>,
    /// Its value.
    pub value: Value,
    /// What it is made of.
    pub how: How,
}

/// What a part of a value is made of.
#[derive(Clone, Debug, PartialEq)]
pub enum How {
    /// Nothing below it to show (a field, a number, another participant's value).
    Leaf,
    /// Items combined by `agg` (`sum`, `mean`, `count`, `min`, `max`,
    /// `all`, `any`, or `list` for a list given whole).
    Items {
        /// How the items are combined.
        agg: String,
        /// The items, in the order the loop met them (at most
        /// [`MAX_DETAIL_ITEMS`]).
        items: Vec<Item>,
        /// Items not shown past [`MAX_DETAIL_ITEMS`].
        more: usize,
    },
    /// Combined from these parts by the expression `what` (a quotient of
    /// two sums; one plus a count).
    Parts(Vec<Detail>),
}

/// One item of a list or loop.
#[derive(Clone, Debug, PartialEq)]
pub struct Item {
    /// What the item is: the round and opponent, participant or board its
    /// loop bound (`round 3 against Lund, Erik (10)`).
    pub source: String,
    /// Its value; None where the loop only counts or tests items.
    pub value: Option<Num>,
    /// How its value came, in words: the branches taken (`because ...`),
    /// the operands of a product, another participant's value and the
    /// rounds it counts differently.
    pub notes: Vec<String>,
    /// Why the item is not counted, where a cut removed it.
    pub cut: Option<String>,
    /// The item as the list holds it (significance key, voluntary flag),
    /// for replaying cuts.
    list: Option<ListItem>,
}

/// The first sentence of a documentation comment, on one line.
pub fn first_sentence(doc: &str) -> Option<String> {
    let text = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return None;
    }
    let end = text
        .match_indices(". ")
        .map(|(i, _)| i + 1)
        .find(|&i| {
            // Not an article number ("Art. 6") or an abbreviation.
            let before = &text[..i - 1];
            let word = before
                .rsplit(|c: char| !c.is_alphanumeric() && c != '.')
                .next()
                .unwrap_or("");
            !matches!(word, "Art" | "e.g" | "i.e" | "cf" | "vs")
                && !word.chars().last().is_some_and(|c| c.is_ascii_digit())
        })
        .unwrap_or(text.len());
    Some(text[..end].to_string())
}

impl Evaluator<'_> {
    /// The parts of step `k` of procedure `proc_id`'s value for each member
    /// of `group` (the tied group it was applied to), in its order.
    pub fn step_details(&mut self, proc_id: usize, k: usize, group: &[Pid]) -> Vec<Detail> {
        let step = &self.rs.procs[proc_id].steps[k];
        let shared = step.group_relative.then(|| Arc::new(group.to_vec()));
        group
            .iter()
            .map(|&p| {
                let step = &self.rs.procs[proc_id].steps[k];
                self.detail(&step.expr, p, shared.clone(), step.slots)
            })
            .collect()
    }

    /// The parts of `e`'s value for participant `me` (among `group`, for a
    /// criterion; `slots` locals).
    pub fn detail(
        &mut self,
        e: &PExpr,
        me: Pid,
        group: Option<Arc<Vec<Pid>>>,
        slots: usize,
    ) -> Detail {
        let mut env = Env {
            me: Some(me),
            locals: vec![Value::Undef; slots],
            group,
            places: None,
        };
        let said = Said::new(self.rs, None);
        self.detail_of(e, &mut env, 0, &said)
    }

    fn detail_of(&mut self, e: &PExpr, env: &mut Env, depth: usize, said: &Said) -> Detail {
        let value = self.eval(e, env).unwrap_or(Value::Undef);
        let mut d = Detail {
            what: self.text(e),
            said: said.expr(e),
            label: None,
            doc: None,
            cite: None,
            value,
            how: How::Leaf,
        };
        if depth > MAX_DETAIL_DEPTH {
            return d;
        }
        match &e.kind {
            PKind::Metric(id, None, args) => {
                let Some(mut sub) = self.metric_env(*id, args, env) else {
                    return d;
                };
                let m = &self.rs.metrics[*id];
                let (name, label, doc, cite) = (
                    m.name.clone(),
                    (m.label != m.name).then(|| m.label.clone()),
                    first_sentence(&m.doc),
                    m.cite.clone(),
                );
                let body = &self.rs.metrics[*id].body;
                let inner =
                    self.detail_of(body, &mut sub, depth + 1, &Said::new(self.rs, Some(*id)));
                d.what = name;
                d.label = label;
                d.doc = doc;
                d.cite = cite;
                // A metric that only names another (or an expression) takes
                // that one's parts; a named metric below stays a part.
                d.how = match inner.how {
                    // Made of its arguments (`quotient(imps_won, imps_lost)`):
                    // their parts.
                    How::Leaf if !args.is_empty() => {
                        let parts: Vec<Detail> = args
                            .iter()
                            .map(|a| self.detail_of(a, env, depth + 1, said))
                            .collect();
                        if parts.iter().any(|p| p.how != How::Leaf) {
                            How::Parts(parts)
                        } else {
                            How::Leaf
                        }
                    }
                    How::Leaf => How::Leaf,
                    how if inner.cite.is_none() && inner.doc.is_none() => how,
                    _ => How::Parts(vec![inner]),
                };
            }
            PKind::If(c, a, b) => {
                let taken = match self.truthy(c, env) {
                    Ok(Some(true)) => a,
                    Ok(Some(false)) => b,
                    _ => return d,
                };
                let inner = self.detail_of(taken, env, depth + 1, said);
                if inner.how == How::Leaf && inner.cite.is_none() {
                    // A constant or field chosen by the condition: the
                    // condition's own parts say why.
                    let cond = self.detail_of(c, env, depth + 1, said);
                    if cond.how != How::Leaf {
                        d.how = How::Parts(vec![cond]);
                    }
                } else if inner.cite.is_some() || inner.doc.is_some() {
                    d.how = How::Parts(vec![inner]);
                } else {
                    d.how = inner.how;
                }
            }
            PKind::Call(Func::Sum | Func::Mean | Func::Count | Func::Min | Func::Max, args)
                if args.len() == 1 && matches!(d.value, Value::Num(_)) =>
            {
                if let Some(items) = self.list_items(&args[0], env, depth + 1, said) {
                    let func = match &e.kind {
                        PKind::Call(f, _) => f.name(),
                        _ => "",
                    };
                    d.how = items_how(func, items);
                }
            }
            PKind::Call(
                Func::CutLowest | Func::CutHighest | Func::Best | Func::Sorted | Func::SortedByKey,
                _,
            )
            | PKind::List(_) => {
                if let Some(items) = self.list_items(e, env, depth + 1, said) {
                    d.how = items_how("list", items);
                }
            }
            PKind::Agg(agg, g) => {
                let mut items = Vec::new();
                let inner = said.within(g);
                self.loop_items(g, *agg, 0, env, depth, &mut Vec::new(), &mut items, &inner);
                d.how = items_how(agg_name(*agg), items);
                // The participant's own values its items are compared with
                // (`q.de_points > de_points`: the games among the tied).
                let mut own = Vec::new();
                for x in [g.cond.as_deref(), Some(&*g.elem)].into_iter().flatten() {
                    own_metrics(x, &g.fors, &mut own);
                }
                if !own.is_empty() {
                    let mut parts = vec![d.clone()];
                    for x in own {
                        parts.push(self.detail_of(x, env, depth + 1, said));
                    }
                    d.how = How::Parts(parts);
                }
            }
            PKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, a, b) => {
                let (x, y) = (
                    self.detail_of(a, env, depth + 1, said),
                    self.detail_of(b, env, depth + 1, said),
                );
                if x.how != How::Leaf || y.how != How::Leaf {
                    // A constant operand is in the phrase itself ("1 + the
                    // number of ..."): only the parts with parts of their own.
                    let parts = [(a, x), (b, y)]
                        .into_iter()
                        .filter(|(e, _)| !matches!(e.kind, PKind::Num(_)))
                        .map(|(_, p)| p)
                        .collect();
                    d.how = How::Parts(parts);
                }
            }
            _ => {}
        }
        d
    }

    /// The environment metric `id`'s body is evaluated in, its arguments
    /// bound (None when one cannot be evaluated).
    fn metric_env(&mut self, id: usize, args: &[PExpr], env: &mut Env) -> Option<Env> {
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a, env).ok()?);
        }
        let m = &self.rs.metrics[id];
        Some(Env::for_metric(m, env.me, vals, env.group.clone()))
    }

    /// The items of the list `e` evaluates to, each named by its source,
    /// with the items a cut removed marked (None when `e` is no list).
    fn list_items(
        &mut self,
        e: &PExpr,
        env: &mut Env,
        depth: usize,
        said: &Said,
    ) -> Option<Vec<Item>> {
        if depth > MAX_DETAIL_DEPTH {
            return None;
        }
        let Ok(Value::List(held)) = self.eval(e, env) else {
            return None;
        };
        let named = match &e.kind {
            PKind::Metric(id, None, args) => {
                let mut sub = self.metric_env(*id, args, env)?;
                let body = &self.rs.metrics[*id].body;
                self.list_items(body, &mut sub, depth + 1, &Said::new(self.rs, Some(*id)))
            }
            PKind::If(c, a, b) => match self.truthy(c, env).ok()? {
                Some(true) => self.list_items(a, env, depth + 1, said),
                Some(false) => self.list_items(b, env, depth + 1, said),
                None => None,
            },
            PKind::Call(f @ (Func::CutLowest | Func::CutHighest | Func::Best), args) => {
                let mut items = self.list_items(&args[0], env, depth + 1, said)?;
                let n = self.eval(&args[1], env).ok()?.as_num()?;
                replay_cut(*f, &mut items, n.numer().max(0) as usize);
                Some(items)
            }
            PKind::Call(f @ (Func::Sorted | Func::SortedByKey), args) if args.len() == 1 => {
                // The evaluator's order (`sorted` in eval/builtins.rs): highest
                // first, by key or by value, a stable sort of the items counted.
                let items = self.list_items(&args[0], env, depth + 1, said)?;
                let (mut kept, cut): (Vec<Item>, Vec<Item>) =
                    items.into_iter().partition(|i| i.cut.is_none());
                let by_key = *f == Func::SortedByKey;
                kept.sort_by_key(|i| {
                    std::cmp::Reverse(
                        i.list
                            .as_ref()
                            .map(|l| if by_key { l.key } else { l.value }),
                    )
                });
                kept.extend(cut);
                Some(kept)
            }
            PKind::List(g) => {
                let mut items = Vec::new();
                let inner = said.within(g);
                self.loop_items(
                    g,
                    Agg::Sum,
                    0,
                    env,
                    depth,
                    &mut Vec::new(),
                    &mut items,
                    &inner,
                );
                Some(items)
            }
            _ => None,
        };
        // The evaluator's own items are the values; the walk only names
        // them (any disagreement: the items unnamed).
        let kept: Vec<&Item> = named
            .as_ref()
            .map(|n| n.iter().filter(|i| i.cut.is_none()).collect())
            .unwrap_or_default();
        let agree = kept.len() == held.len()
            && kept
                .iter()
                .zip(held.iter())
                .all(|(i, h)| i.value == Some(h.value));
        if agree {
            let mut items = named?;
            for (i, h) in items
                .iter_mut()
                .filter(|i| i.cut.is_none())
                .zip(held.iter())
            {
                i.list = Some(h.clone());
            }
            return Some(items);
        }
        Some(
            held.iter()
                .enumerate()
                .map(|(k, h)| Item {
                    source: format!("item {}", k + 1),
                    value: Some(h.value),
                    notes: Vec::new(),
                    cut: None,
                    list: Some(h.clone()),
                })
                .collect(),
        )
    }

    /// The bindings of generator `g` that pass its filter, as items: the
    /// element's value (none for `count`, `all`, `any`) and how it came.
    #[allow(clippy::too_many_arguments)]
    fn loop_items(
        &mut self,
        g: &PGen,
        agg: Agg,
        level: usize,
        env: &mut Env,
        depth: usize,
        names: &mut Vec<String>,
        out: &mut Vec<Item>,
        said: &Said,
    ) {
        if level == g.fors.len() {
            let mut notes = Vec::new();
            if let Some(c) = &g.cond {
                match self.truthy(c, env) {
                    Ok(Some(true)) => {}
                    _ => return,
                }
                self.comparison_note(c, env, &mut notes, said);
            }
            if matches!(agg, Agg::All | Agg::Any) {
                self.comparison_note(&g.elem, env, &mut notes, said);
            }
            let value = match agg {
                Agg::Count | Agg::All | Agg::Any => None,
                _ => self.eval(&g.elem, env).ok().and_then(|v| v.as_num()),
            };
            if value.is_some() {
                self.value_notes(&g.elem, env, depth + 1, true, &mut notes, said);
            }
            out.push(Item {
                source: if names.is_empty() {
                    format!("item {}", out.len() + 1)
                } else {
                    names.join(", ")
                },
                value,
                notes,
                cut: None,
                list: None,
            });
            return;
        }
        let (slot, coll) = &g.fors[level];
        let Ok(c) = self.eval(coll, env) else { return };
        if env.locals.len() <= *slot {
            env.locals.resize(*slot + 1, Value::Undef);
        }
        for item in self.items(&c) {
            let named = self.item_name(&item);
            env.locals[*slot] = item;
            if let Some(n) = &named {
                names.push(n.clone());
            }
            self.loop_items(g, agg, level + 1, env, depth, names, out, said);
            if named.is_some() {
                names.pop();
            }
        }
    }

    /// Where a value is the larger or smaller of several (a floor, a cap:
    /// `max(match_points / (3 * rounds_competed), floor)`), following
    /// metrics and the branches taken: each candidate with its value.
    fn choice_note(
        &mut self,
        e: &PExpr,
        env: &mut Env,
        depth: usize,
        said: &Said,
    ) -> Option<String> {
        if depth > MAX_DETAIL_DEPTH {
            return None;
        }
        match &e.kind {
            PKind::Metric(id, None, args) => {
                let mut sub = self.metric_env(*id, args, env)?;
                let body = &self.rs.metrics[*id].body;
                self.choice_note(body, &mut sub, depth + 1, &Said::new(self.rs, Some(*id)))
            }
            PKind::If(c, a, b) => match self.truthy(c, env).ok()? {
                Some(true) => self.choice_note(a, env, depth + 1, said),
                Some(false) => self.choice_note(b, env, depth + 1, said),
                None => None,
            },
            PKind::Call(f @ (Func::Max | Func::Min), args) if args.len() > 1 => {
                let mut each = Vec::new();
                for a in args {
                    let v = self.eval(a, env).ok()?.display(None)?;
                    each.push(format!("{} = {v}", said.expr(a)));
                }
                Some(format!(
                    "the {} of: {}",
                    if *f == Func::Max { "larger" } else { "smaller" },
                    each.join("; ")
                ))
            }
            _ => None,
        }
    }

    /// For an item counted because `c` held: the comparison's two sides
    /// with their values (`q.points` = 4 > `points` = 2).
    fn comparison_note(&mut self, c: &PExpr, env: &mut Env, notes: &mut Vec<String>, said: &Said) {
        match &c.kind {
            PKind::Binary(BinOp::And, a, b) => {
                self.comparison_note(a, env, notes, said);
                self.comparison_note(b, env, notes, said);
            }
            PKind::Binary(
                op @ (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne),
                a,
                b,
            ) => {
                let (Ok(x), Ok(y)) = (self.eval(a, env), self.eval(b, env)) else {
                    return;
                };
                if let (Some(x), Some(y)) = (x.display(None), y.display(None)) {
                    // Values of participants compared; not a field tested
                    // against a constant (`r.points == event.win_points`).
                    if !matches!(a.kind, PKind::Metric(..)) || !matches!(b.kind, PKind::Metric(..))
                    {
                        return;
                    }
                    notes.push(format!(
                        "{} ({x}) {} {} ({y})",
                        said.expr(a),
                        op_words(*op),
                        said.expr(b)
                    ));
                }
            }
            _ => {}
        }
    }

    /// How an item's value came: each `if` whose `then` branch was taken
    /// (an exception the rules make, with its metric and article); the
    /// operands of the product or quotient at the item's top; another
    /// participant's value, with the rounds it counts by an exception.
    fn value_notes(
        &mut self,
        e: &PExpr,
        env: &mut Env,
        depth: usize,
        top: bool,
        notes: &mut Vec<String>,
        said: &Said,
    ) {
        if depth > MAX_DETAIL_DEPTH {
            return;
        }
        match &e.kind {
            PKind::Metric(id, None, args) => {
                let Some(mut sub) = self.metric_env(*id, args, env) else {
                    return;
                };
                let mark = notes.len();
                let body = &self.rs.metrics[*id].body;
                let inner = Said::new(self.rs, Some(*id));
                self.value_notes(body, &mut sub, depth + 1, top, notes, &inner);
                // A branch taken inside: said with its metric and article.
                let m = &self.rs.metrics[*id];
                let cite = m.cite.as_ref().map_or(String::new(), |c| format!(", {c}"));
                let what = metric_words(self.rs, *id);
                for n in &mut notes[mark..] {
                    if n.starts_with("because ") {
                        *n = format!("{n} ({what}{cite})");
                    }
                }
            }
            PKind::Metric(id, Some(t), args) => {
                let Ok(Value::Part(p)) = self.eval(t, env) else {
                    return;
                };
                let v = self.eval(e, env).ok().and_then(|v| v.display(None));
                let m = &self.rs.metrics[*id];
                let what = metric_words(self.rs, *id);
                let cite = m.cite.as_ref().map_or(String::new(), |c| format!(" ({c})"));
                notes.push(format!(
                    "{what} of {}{cite} = {}",
                    self.who(p),
                    v.unwrap_or_else(|| "-".into())
                ));
                // The rounds of theirs it counts by an exception (16.3: an
                // unplayed round counted as a draw).
                if depth < NESTED_DEPTH {
                    let mut other = Env {
                        me: Some(p),
                        locals: Vec::new(),
                        group: None,
                        places: None,
                    };
                    let Some(mut sub) = self.metric_env(*id, args, env) else {
                        return;
                    };
                    other.locals = std::mem::take(&mut sub.locals);
                    other.group = sub.group;
                    let body = &self.rs.metrics[*id].body;
                    let inner = Said::new(self.rs, Some(*id));
                    if let Some(n) =
                        self.choice_note(body, &mut other.clone(), NESTED_DEPTH, &inner)
                    {
                        notes.push(format!("  {n}"));
                    }
                    let d = self.detail_of(body, &mut other, NESTED_DEPTH, &inner);
                    for item in exceptional(&d) {
                        notes.push(format!(
                            "  of which {}: {} {}",
                            item.source,
                            item.value.map_or("-".into(), |v| v.to_string()),
                            item.notes.join("; ")
                        ));
                    }
                }
            }
            PKind::If(c, a, b) => match self.truthy(c, env) {
                Ok(Some(true)) => {
                    notes.push(format!("because {}", said.expr(c)));
                    self.value_notes(a, env, depth + 1, false, notes, said);
                }
                Ok(Some(false)) => self.value_notes(b, env, depth + 1, false, notes, said),
                _ => {}
            },
            PKind::Binary(op @ (BinOp::Mul | BinOp::Div), a, b) if top => {
                let (x, y) = (
                    self.eval(a, env).ok().and_then(|v| v.display(None)),
                    self.eval(b, env).ok().and_then(|v| v.display(None)),
                );
                if let (Some(x), Some(y)) = (x, y) {
                    notes.push(format!(
                        "{} ({x}) {} {} ({y})",
                        said.expr(a),
                        op_words(*op),
                        said.expr(b)
                    ));
                }
                self.value_notes(a, env, depth + 1, false, notes, said);
                self.value_notes(b, env, depth + 1, false, notes, said);
            }
            PKind::Binary(_, a, b) => {
                self.value_notes(a, env, depth + 1, false, notes, said);
                self.value_notes(b, env, depth + 1, false, notes, said);
            }
            // A floor or a cap written in the item itself (OGW%'s
            // `max(r.opponent.gwp, floor)`): each candidate, then their parts.
            PKind::Call(Func::Max | Func::Min, args) if args.len() > 1 => {
                if let Some(n) = self.choice_note(e, env, depth + 1, said) {
                    notes.push(n);
                }
                for a in args {
                    self.value_notes(a, env, depth + 1, false, notes, said);
                }
            }
            _ => {}
        }
    }
}

/// The metrics of the participant itself (no target) that `e` uses with
/// arguments free of the loop's variables (`fors`), once each.
fn own_metrics<'e>(e: &'e PExpr, fors: &[(usize, PExpr)], out: &mut Vec<&'e PExpr>) {
    match &e.kind {
        PKind::Metric(_, None, args)
            if !args.iter().any(|a| uses_slots(a, fors))
                && !out.iter().any(|o| o.span == e.span && o.file == e.file) =>
        {
            out.push(e);
        }
        PKind::Metric(..) => {}
        PKind::Binary(_, a, b) => {
            own_metrics(a, fors, out);
            own_metrics(b, fors, out);
        }
        PKind::Unary(_, x) => own_metrics(x, fors, out),
        _ => {}
    }
}

/// Whether `e` reads one of the loop variables of `fors`.
fn uses_slots(e: &PExpr, fors: &[(usize, PExpr)]) -> bool {
    match &e.kind {
        PKind::Local(k) => fors.iter().any(|(s, _)| s == k),
        PKind::Metric(_, t, args) => {
            t.as_deref().is_some_and(|t| uses_slots(t, fors))
                || args.iter().any(|a| uses_slots(a, fors))
        }
        PKind::Field(b, _) | PKind::Unary(_, b) | PKind::Table(_, b) => uses_slots(b, fors),
        PKind::Call(_, args) => args.iter().any(|a| uses_slots(a, fors)),
        PKind::Binary(_, a, b) => uses_slots(a, fors) || uses_slots(b, fors),
        PKind::If(c, a, b) => uses_slots(c, fors) || uses_slots(a, fors) || uses_slots(b, fors),
        // A nested loop: assumed to (said as a part of the item, not of the participant).
        PKind::Agg(..) | PKind::List(_) => true,
        _ => false,
    }
}

/// The items of a part (through its one named sub-part) that a branch
/// made an exception of.
fn exceptional(d: &Detail) -> Vec<&Item> {
    match &d.how {
        How::Items { items, .. } => items
            .iter()
            .filter(|i| i.notes.iter().any(|n| n.starts_with("because ")))
            .collect(),
        How::Parts(ps) if ps.len() == 1 => exceptional(&ps[0]),
        _ => Vec::new(),
    }
}

/// Items combined by `agg`, at most [`MAX_DETAIL_ITEMS`] kept.
fn items_how(agg: &str, mut items: Vec<Item>) -> How {
    let more = items.len().saturating_sub(MAX_DETAIL_ITEMS);
    items.truncate(MAX_DETAIL_ITEMS);
    How::Items {
        agg: agg.to_string(),
        items,
        more,
    }
}

/// An aggregate's name as the ruleset writes it.
fn agg_name(a: Agg) -> &'static str {
    match a {
        Agg::Sum => "sum",
        Agg::Mean => "mean",
        Agg::Count => "count",
        Agg::Min => "min",
        Agg::Max => "max",
        Agg::All => "all",
        Agg::Any => "any",
    }
}

/// Marks the items cut `n` times by `f`, replaying the evaluator's own cut
/// ([`cut_least_significant`], [`cut_most_significant`], `best`'s sort) on
/// the items still counted.
fn replay_cut(f: Func, items: &mut [Item], n: usize) {
    let live: Vec<usize> = (0..items.len())
        .filter(|&k| items[k].cut.is_none() && items[k].list.is_some())
        .collect();
    let held: Vec<ListItem> = live.iter().filter_map(|&k| items[k].list.clone()).collect();
    if f == Func::Best {
        // `best`: the n highest values, a stable sort highest first.
        let mut order: Vec<usize> = (0..held.len()).collect();
        order.sort_by_key(|&k| std::cmp::Reverse(held[k].value));
        for &k in order.iter().skip(n) {
            items[live[k]].cut = Some(format!("not among the {n} best"));
        }
        return;
    }
    let mut live = live;
    let mut held = held;
    for _ in 0..n.min(held.len()) {
        let before = held.clone();
        if f == Func::CutLowest {
            cut_least_significant(&mut held);
        } else {
            cut_most_significant(&mut held);
        }
        // The removed item: the first place the two lists differ.
        let at = (0..before.len())
            .find(|&k| held.get(k) != Some(&before[k]))
            .unwrap_or(before.len() - 1);
        let it = &before[at];
        let least = before
            .iter()
            .all(|o| (o.key, o.value) >= (it.key, it.value));
        let why = match f {
            Func::CutLowest if !least && it.voluntary => {
                "cut: a voluntarily unplayed round's value, cut instead of the least significant one".to_string()
            }
            Func::CutLowest => "cut: the least significant value".to_string(),
            _ => "cut: the most significant value".to_string(),
        };
        let why = if it.key != it.value {
            format!("{why}; significance {}", it.key)
        } else {
            why
        };
        items[live[at]].cut = Some(why);
        live.remove(at);
    }
}
