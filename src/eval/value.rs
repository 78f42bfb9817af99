//! Runtime values: what an expression evaluates to, how a step compares two of them, and when two are equal.

use crate::model::Pid;
use crate::num::Num;
use std::cmp::Ordering;
use std::sync::Arc;

/// whether it comes from a voluntarily unplayed round (FIDE 16.5).
#[derive(Clone, Debug, PartialEq)]
pub struct ListItem {
    /// The contribution.
    pub value: Num,
    /// What "least significant" compares (FIDE 14.1.1(d): the opponent's score).
    pub key: Num,
    /// From a voluntarily unplayed round.
    pub voluntary: bool,
}

/// A runtime value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Undefined (a quotient by zero, a bye's opponent, an unrated rating).
    Undef,
    /// An exact number.
    Num(Num),
    /// Larger than every number.
    Inf,
    /// True or false.
    Bool(bool),
    /// Text.
    Str(Arc<str>),
    /// A participant.
    Part(Pid),
    /// A participant's entry (index into its entries).
    Entry(Pid, u32),
    /// A board of an entry.
    Board(Pid, u32, u32),
    /// The event.
    Event,
    /// A list with significance keys.
    List(Arc<Vec<ListItem>>),
    /// Participants (the group, everyone).
    Parts(Arc<Vec<Pid>>),
    /// `others`: the tied group without one of its members. Never made
    /// into a list of its own, so that criteria like FIDE 6.1's
    /// `r.opponent in others`, asked in every round of every member, cost
    /// no copy of the group.
    Others(Arc<Vec<Pid>>, Pid),
    /// A participant's entries.
    Entries(Pid),
    /// An entry's boards.
    Boards(Pid, u32),
    /// Plain numbers (sessions).
    Nums(Arc<Vec<Num>>),
    /// Boards, one per distinct deal (from `deals(...)`).
    Deals(Arc<Vec<(Pid, u32, u32)>>),
}

impl Value {
    /// The number, if this is one.
    pub fn as_num(&self) -> Option<Num> {
        match self {
            Value::Num(n) => Some(*n),
            _ => None,
        }
    }
    /// Display text with `decimals` places for numbers (exact when None and terminating).
    pub fn display(&self, decimals: Option<u32>) -> Option<String> {
        match self {
            Value::Undef => None,
            Value::Num(n) => Some(match decimals {
                Some(d) => n.to_fixed(d),
                None => n.to_exact_decimal().unwrap_or_else(|| n.to_fixed(4)),
            }),
            Value::Inf => Some("inf".into()),
            Value::Bool(b) => Some(if *b { "1".into() } else { "0".into() }),
            Value::Str(s) => Some(s.to_string()),
            Value::List(items) => Some(
                items
                    .iter()
                    .map(|i| Value::Num(i.value).display(decimals).unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            _ => Some("?".into()),
        }
    }
    /// What kind of value this is, for error messages ("expected a number, found text").
    pub(super) fn kind(&self) -> &'static str {
        match self {
            Value::Undef => "undefined",
            Value::Num(_) => "a number",
            Value::Inf => "infinity",
            Value::Bool(_) => "true/false",
            Value::Str(_) => "text",
            Value::Part(_) => "a participant",
            Value::Entry(..) => "a round entry",
            Value::Board(..) => "a board",
            Value::Event => "the event",
            Value::List(_) => "a list",
            Value::Parts(_) | Value::Others(..) => "a set of participants",
            Value::Entries(_) => "a participant's rounds",
            Value::Boards(..) => "an entry's boards",
            Value::Nums(_) => "a list of numbers",
            Value::Deals(_) => "a collection of deals",
        }
    }
}

/// Compare two step values, better first for `desc`; undefined is always last.
pub fn compare_values(a: &Value, b: &Value) -> Ordering {
    match (a, b) {
        (Value::Undef, Value::Undef) => Ordering::Equal,
        (Value::Undef, _) => Ordering::Less,
        (_, Value::Undef) => Ordering::Greater,
        (Value::Inf, Value::Inf) => Ordering::Equal,
        (Value::Inf, _) => Ordering::Greater,
        (_, Value::Inf) => Ordering::Less,
        (Value::Num(x), Value::Num(y)) => x.cmp(y),
        (Value::Bool(x), Value::Bool(y)) => x.cmp(y),
        (Value::List(x), Value::List(y)) => {
            for (i, j) in x.iter().zip(y.iter()) {
                match i.value.cmp(&j.value) {
                    Ordering::Equal => continue,
                    o => return o,
                }
            }
            x.len().cmp(&y.len())
        }
        _ => Ordering::Equal,
    }
}

/// `==` between two defined values.
#[inline]
pub(super) fn values_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Num(x), Value::Num(y)) => x == y,
        _ => a == b,
    }
}
