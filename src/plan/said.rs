//! An expression said in words, for people reading `tb explain --detail`: `sum(cut_lowest(opponent_scores, 1))` becomes "the sum of opponent scores less the 1 least significant".
//!
//! The words come from the ruleset itself (each definition's label, or
//! its name with the underscores read as spaces), from each built-in
//! function's `said` template in its row of [`builtin_functions`], and
//! from the loops: a variable that runs over rounds is "the round" (its
//! fields the round's: "points", "the opponent"), one over participants
//! "they" ("their DE points"). The phrase is for reading, never parsed
//! back; what a value is made of is the evaluator's, not the phrase's.
//!
//! [`builtin_functions`]: super::builtins

use super::{Agg, Builtin, BuiltinField, MetricId, PExpr, PGen, PKind, Ruleset};
use crate::syntax::ast::{BinOp, UnOp};

/// The longest phrase kept whole; a longer one is cut with "…".
const MAX_CHARS: usize = 100;

/// What a loop variable or a parameter runs over, for the words of its
/// fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Var {
    /// A round (an entry): "the round", its fields "points", "the opponent".
    Round,
    /// Another participant: "they", "their DE points".
    Participant,
    /// A board or deal: "the board", "the board's score".
    Board,
    /// Anything else: said by its name.
    Named,
}

/// Says expressions of one ruleset, inside metric `metric`'s body (for
/// its parameters' names) and the loops entered so far.
#[derive(Clone)]
pub struct Said<'a> {
    rs: &'a Ruleset,
    metric: Option<MetricId>,
    vars: Vec<(usize, Var)>,
}

impl<'a> Said<'a> {
    /// Words for expressions of `rs` written in metric `metric`'s body
    /// (None: a step's expression).
    pub fn new(rs: &'a Ruleset, metric: Option<MetricId>) -> Self {
        Said {
            rs,
            metric,
            vars: Vec::new(),
        }
    }

    /// The same, inside loop `g` (its variables named by what they run over).
    pub fn within(&self, g: &PGen) -> Self {
        let mut s = self.clone();
        s.bind(g);
        s
    }

    /// `e` in words, cut to [`MAX_CHARS`].
    pub fn expr(&self, e: &PExpr) -> String {
        let mut s = self.clone();
        let t = s.say(e);
        if t.chars().count() > MAX_CHARS {
            format!("{}…", t.chars().take(MAX_CHARS - 1).collect::<String>())
        } else {
            t
        }
    }

    fn bind(&mut self, g: &PGen) {
        for (slot, coll) in &g.fors {
            let v = self.runs_over(coll);
            self.vars.push((*slot, v));
        }
    }

    /// What a loop over `coll` binds.
    fn runs_over(&self, coll: &PExpr) -> Var {
        match &coll.kind {
            PKind::Builtin(Builtin::Rounds) => Var::Round,
            PKind::Builtin(Builtin::Others | Builtin::Group) => Var::Participant,
            PKind::Field(_, f) => match f.builtin {
                Some(BuiltinField::Rounds) => Var::Round,
                Some(BuiltinField::Participants) => Var::Participant,
                Some(BuiltinField::Boards) => Var::Board,
                _ => Var::Named,
            },
            PKind::Call(super::Func::Deals, _) => Var::Board,
            _ => Var::Named,
        }
    }

    /// What local `slot` holds: a loop's variable, else the metric's parameter.
    fn var(&self, slot: usize) -> (Var, String) {
        if let Some((_, v)) = self.vars.iter().rev().find(|(s, _)| *s == slot) {
            return (*v, String::new());
        }
        let name = self
            .metric
            .and_then(|m| self.rs.metrics[m].params.get(slot))
            .cloned()
            .unwrap_or_default();
        // The libraries' convention for one-letter parameters.
        let v = match name.as_str() {
            "r" | "x" => Var::Round,
            "p" | "q" | "o" => Var::Participant,
            "b" => Var::Board,
            _ => Var::Named,
        };
        (v, in_words(&name))
    }

    fn say(&mut self, e: &PExpr) -> String {
        match &e.kind {
            PKind::Num(n) => n.to_string(),
            PKind::Bool(b) => if *b { "true" } else { "false" }.into(),
            PKind::Str(s) => format!("\"{s}\""),
            PKind::Infinity => "infinity".into(),
            PKind::Local(k) => match self.var(*k) {
                (Var::Round, _) => "the round".into(),
                (Var::Participant, _) => "they".into(),
                (Var::Board, _) => "the board".into(),
                (Var::Named, n) => n,
            },
            PKind::Param(i) => in_words(&self.rs.params[*i].name),
            PKind::Builtin(b) => builtin_words(*b).into(),
            PKind::Metric(id, target, args) => {
                let m = &self.rs.metrics[*id];
                let mut w = metric_words(self.rs, *id);
                // Arguments that are values of their own (`quotient(imps_won,
                // imps_lost)`); flags and pass-through parameters say nothing.
                let named: Vec<String> = args
                    .iter()
                    .filter(|a| matches!(a.kind, PKind::Metric(..)))
                    .map(|a| self.say(a))
                    .collect();
                if !named.is_empty() && m.label == m.name {
                    w = format!("{w} of {}", and_list(&named));
                }
                // A flag given as a constant says which variant: EDE's pass
                // `team_direct_encounter(true, forfeits)` is "... with GP".
                let flags = |on: bool| -> Vec<String> {
                    args.iter()
                        .zip(&m.params)
                        .filter(|(a, _)| matches!(a.kind, PKind::Bool(b) if b == on))
                        .map(|(_, p)| in_words(p))
                        .collect()
                };
                let said: Vec<String> = [(true, "with"), (false, "without")]
                    .into_iter()
                    .map(|(on, with)| (flags(on), with))
                    .filter(|(f, _)| !f.is_empty())
                    .map(|(f, with)| format!("{with} {}", and_list(&f)))
                    .collect();
                if !said.is_empty() {
                    w = format!("{w} {}", said.join(", "));
                }
                match target {
                    None => w,
                    Some(t) => format!("{} {w}", self.owner(t)),
                }
            }
            PKind::Field(b, f) => {
                let words = match f.builtin {
                    Some(BuiltinField::Played) => "the round was played".to_string(),
                    Some(BuiltinField::Unplayed) => "the round was not played".to_string(),
                    Some(BuiltinField::Opponent) => "the opponent".to_string(),
                    Some(BuiltinField::Partner) => "the partner".to_string(),
                    Some(BuiltinField::OpponentPartner) => "the opponent's partner".to_string(),
                    _ => in_words(&f.name),
                };
                match &b.kind {
                    PKind::Local(k) if self.var(*k).0 == Var::Round => words,
                    _ => {
                        let words = words.strip_prefix("the ").unwrap_or(&words).to_string();
                        format!("{} {words}", self.owner(b))
                    }
                }
            }
            PKind::Call(f, args) => {
                let said: Vec<String> = args.iter().map(|a| self.say(a)).collect();
                fill(f.said(), &said)
            }
            PKind::Table(t, x) => {
                format!("{} of {}", in_words(&self.rs.tables[*t].name), self.say(x))
            }
            PKind::Agg(agg, g) => {
                let mut inner = self.clone();
                inner.bind(g);
                let over = inner.over(g);
                let elem = inner.say(&g.elem);
                match agg {
                    Agg::Sum => format!("the sum of {elem} over {over}"),
                    Agg::Mean => format!("the mean of {elem} over {over}"),
                    Agg::Count => format!("the number of {over}"),
                    Agg::Min => format!("the smallest {elem} over {over}"),
                    Agg::Max => format!("the largest {elem} over {over}"),
                    Agg::All => format!("for each of {over}: {elem}"),
                    Agg::Any => format!("for one of {over} at least: {elem}"),
                }
            }
            PKind::List(g) => {
                let mut inner = self.clone();
                inner.bind(g);
                let over = inner.over(g);
                format!("{}, for each of {over}", inner.say(&g.elem))
            }
            PKind::If(c, a, b) => format!(
                "{} if {}, otherwise {}",
                self.say(a),
                self.say(c),
                self.say(b)
            ),
            PKind::Unary(UnOp::Not, x) => format!("not {}", self.say(x)),
            PKind::Unary(UnOp::Neg, x) => format!("−{}", self.say(x)),
            PKind::Binary(op, a, b) => {
                let (x, y) = (self.operand(*op, a), self.operand(*op, b));
                match op {
                    BinOp::Coalesce => format!("{x}, or {y} where it has none"),
                    BinOp::In => format!("{x} is one of {y}"),
                    _ => format!("{x} {} {y}", op_words(*op)),
                }
            }
        }
    }

    /// An operand of `op`, bracketed where words alone would misread it
    /// (a sum inside a product).
    fn operand(&mut self, op: BinOp, e: &PExpr) -> String {
        let t = self.say(e);
        match (&e.kind, op) {
            (PKind::Binary(BinOp::Add | BinOp::Sub, ..), BinOp::Mul | BinOp::Div | BinOp::Sub)
            | (PKind::Binary(BinOp::Mul | BinOp::Div, ..), BinOp::Div) => format!("({t})"),
            _ => t,
        }
    }

    /// The collections loop `g` runs over, with its filter.
    fn over(&mut self, g: &PGen) -> String {
        let colls: Vec<String> = g.fors.iter().map(|(_, c)| self.say(c)).collect();
        let mut s = and_list(&colls);
        if let Some(c) = &g.cond {
            s = format!("{s} where {}", self.say(c));
        }
        s
    }

    /// Whose a value of `t` is: "their", "the opponent's", "Ann's".
    fn owner(&mut self, t: &PExpr) -> String {
        match &t.kind {
            PKind::Local(k) if self.var(*k).0 == Var::Participant => "their".into(),
            PKind::Local(k) if self.var(*k).0 == Var::Round => "the round's".into(),
            PKind::Local(k) if self.var(*k).0 == Var::Board => "the board's".into(),
            PKind::Builtin(Builtin::Me) => "the participant's".into(),
            _ => format!("{}'s", self.say(t)),
        }
    }
}

/// A definition in words: its label where it has one, else its name.
pub fn metric_words(rs: &Ruleset, id: MetricId) -> String {
    let m = &rs.metrics[id];
    if m.label != m.name {
        // Said inside a sentence: "match points", not "Match points"
        // (an abbreviation such as "IMPs won" or "MW%" stays as it is).
        let first: &str = m.label.split([' ', '-', '.']).next().unwrap_or("");
        let capitalised = first.chars().next().is_some_and(char::is_uppercase)
            && first.chars().skip(1).all(char::is_lowercase)
            && first.len() > 1
            && !m.label[first.len()..].starts_with('.');
        if capitalised {
            let mut c = m.label.chars();
            c.next()
                .into_iter()
                .flat_map(char::to_lowercase)
                .chain(c)
                .collect()
        } else {
            m.label.clone()
        }
    } else {
        in_words(&m.name)
    }
}

/// A name as words: underscores read as spaces, the abbreviations the
/// regulations write in capitals (`de_points`: "DE points").
pub fn in_words(name: &str) -> String {
    name.split('_')
        .filter(|w| !w.is_empty())
        .map(|w| match w {
            "de" | "ede" | "mp" | "gp" | "vp" | "imp" | "tbp" | "aro" | "bh" | "sb" | "h2h" => {
                w.to_uppercase()
            }
            "imps" => "IMPs".into(),
            "vps" => "VPs".into(),
            _ => w.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn builtin_words(b: Builtin) -> &'static str {
    match b {
        Builtin::Me => "the participant",
        Builtin::Rounds => "the rounds",
        Builtin::Sessions => "the sessions",
        Builtin::Group => "the tied group",
        Builtin::Others => "the others tied",
        Builtin::Event => "the event",
        Builtin::FirstPlace => "the first place the tie occupies",
        Builtin::LastPlace => "the last place the tie occupies",
    }
}

/// An operator in words or in the signs everyone reads.
pub fn op_words(op: BinOp) -> &'static str {
    match op {
        BinOp::Coalesce => "or else",
        BinOp::Or => "or",
        BinOp::And => "and",
        BinOp::Eq => "=",
        BinOp::Ne => "≠",
        BinOp::Lt => "<",
        BinOp::Le => "≤",
        BinOp::Gt => ">",
        BinOp::Ge => "≥",
        BinOp::In => "is one of",
        BinOp::Add => "+",
        BinOp::Sub => "−",
        BinOp::Mul => "×",
        BinOp::Div => "÷",
        BinOp::Rem => "modulo",
    }
}

/// "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A built-in's `said` template filled with its arguments' words: `{0}`,
/// `{1}` an argument, `{*}` all of them ("a, b and c"); a `[...]` part is
/// left out when it names an argument the call does not have.
fn fill(template: &str, args: &[String]) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('[') {
        out.push_str(&fill_args(&rest[..open], args));
        let close = rest[open..].find(']').map_or(rest.len(), |c| open + c);
        let part = &rest[open + 1..close.min(rest.len())];
        let needs = (0..10).find(|k| part.contains(&format!("{{{k}}}")));
        if needs.is_none_or(|k| k < args.len()) {
            out.push_str(&fill_args(part, args));
        }
        rest = rest.get(close + 1..).unwrap_or("");
    }
    out.push_str(&fill_args(rest, args));
    out
}

fn fill_args(s: &str, args: &[String]) -> String {
    let mut s = s.replace("{*}", &and_list(args));
    for (k, a) in args.iter().enumerate() {
        s = s.replace(&format!("{{{k}}}"), a);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_fill_and_drop_missing_parts() {
        let a = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(fill("the sum of {0}", &a(&["x"])), "the sum of x");
        assert_eq!(
            fill("{0} rounded[ to {1} decimals]", &a(&["x"])),
            "x rounded"
        );
        assert_eq!(
            fill("{0} rounded[ to {1} decimals]", &a(&["x", "2"])),
            "x rounded to 2 decimals"
        );
        assert_eq!(
            fill("the larger of {*}", &a(&["a", "b", "c"])),
            "the larger of a, b and c"
        );
    }

    #[test]
    fn names_read_as_words() {
        assert_eq!(in_words("de_points"), "DE points");
        assert_eq!(in_words("imps_won"), "IMPs won");
        assert_eq!(in_words("adjusted_score"), "adjusted score");
    }
}
