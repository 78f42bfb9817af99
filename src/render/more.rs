//! More digits where a column's decimals would print alike two values a step
//! told apart (issue 15): which cells, and their text.

use crate::eval::{compare_values, Value};
use crate::model::Pid;
use crate::num::Num;
use crate::rank::{Outcome, Standings, TraceStep};
use crate::syntax::ast::Direction;
use std::cmp::Ordering;
use std::collections::HashMap;

/// How a value is printed where its column's decimals would print it like
/// a value a step told it apart from (issue 15: `Bob = 0.44, Carol = 0.44
/// → Carol > Bob`, 4/9 against 133/300).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum More {
    /// This many decimal places: the fewest above the column's at which
    /// the two values print differently.
    Places(u32),
    /// The exact value (`133/300`): no number of places up to the
    /// language's 12 tells them apart.
    Exact,
}

/// The most places tried before printing the exact value (the language's
/// `decimals` limit).
const MAX_MORE_PLACES: u32 = 12;

/// A value's text at the column's `decimals`, or with `more`.
pub(super) fn text_of(v: &Value, decimals: Option<u32>, more: Option<More>) -> Option<String> {
    match more {
        None => v.display(decimals),
        Some(More::Places(p)) => v.display(Some(p)),
        Some(More::Exact) => match v {
            Value::Num(n) => Some(n.to_string()),
            Value::List(items) => Some(
                items
                    .iter()
                    .map(|i| i.value.to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
            other => other.display(None),
        },
    }
}

/// Whether a value is one digits can tell apart: a number or a list.
fn refinable(v: &Value) -> bool {
    matches!(v, Value::Num(_) | Value::List(_))
}

/// How to print `a` and `b`, which a step told apart but which print alike
/// at `decimals`: the fewest places that print them differently, else
/// exactly. `None` when they already print differently (or cannot differ).
fn more_for(a: &Value, b: &Value, decimals: Option<u32>) -> Option<More> {
    if !refinable(a) || !refinable(b) || compare_values(a, b) == Ordering::Equal {
        return None;
    }
    // Rounding half up is monotone: numbers a unit of the last printed
    // place apart or more never print alike (no text needs making).
    if let (Value::Num(x), Value::Num(y)) = (a, b) {
        let places = decimals.unwrap_or(4).min(18);
        let unit = Num::ratio(1, 10i128.pow(places));
        let gap = x
            .sub(*y)
            .map(|d| if d < Num::ZERO { d.neg() } else { Ok(d) });
        if let (Ok(unit), Ok(Ok(gap))) = (unit, gap) {
            if gap >= unit {
                return None;
            }
        }
    }
    if text_of(a, decimals, None) != text_of(b, decimals, None) {
        return None;
    }
    // Without a column's decimals, a number prints exactly or to 4 places.
    let from = decimals.unwrap_or(4) + 1;
    for p in from..=MAX_MORE_PLACES {
        let m = Some(More::Places(p));
        if text_of(a, None, m) != text_of(b, None, m) {
            return Some(More::Places(p));
        }
    }
    Some(More::Exact)
}

/// The value of `part` that lies next to the following (or preceding) part
/// of a split: its worst value when `worst`, else its best, "worst" and
/// "best" as the step ranks (`dir`). Undefined values, which print as `-`,
/// are left out.
fn edge_value<'a>(
    part: &[Pid],
    value: &impl Fn(Pid) -> Option<&'a Value>,
    dir: Direction,
    worst: bool,
) -> Option<&'a Value> {
    // For `desc` the worst is the least value; for `asc` the greatest.
    let want_less = (dir == Direction::Desc) == worst;
    let mut best: Option<&Value> = None;
    for &p in part {
        let Some(v) = value(p).filter(|v| refinable(v)) else {
            continue;
        };
        let better = match best {
            None => true,
            Some(b) => {
                let o = compare_values(v, b);
                if want_less {
                    o == Ordering::Less
                } else {
                    o == Ordering::Greater
                }
            }
        };
        if better {
            best = Some(v);
        }
    }
    best
}

/// The members of `part` whose value is `edge` (its [`edge_value`]).
fn members_at<'a, 'p>(
    part: &'p [Pid],
    value: &'p impl Fn(Pid) -> Option<&'a Value>,
    edge: &'p Value,
) -> impl Iterator<Item = Pid> + 'p {
    part.iter()
        .copied()
        .filter(move |&p| value(p).is_some_and(|v| compare_values(v, edge) == Ordering::Equal))
}

/// The members of `part` next to the neighbouring part of a split (see
/// [`edge_value`]): the first of them, and all of them.
fn edge<'a>(
    part: &[Pid],
    value: &impl Fn(Pid) -> Option<&'a Value>,
    dir: Direction,
    worst: bool,
) -> (Option<&'a Value>, Vec<Pid>) {
    match edge_value(part, value, dir, worst) {
        None => (None, Vec::new()),
        Some(b) => (Some(b), members_at(part, value, b).collect()),
    }
}

/// For one split of a step, the participants whose values print alike
/// across two neighbouring sub-groups, each with the digits that tell them
/// apart (`value` gives the printed value of a participant).
fn split_more<'a>(
    parts: &[Vec<Pid>],
    value: &impl Fn(Pid) -> Option<&'a Value>,
    dir: Direction,
    decimals: Option<u32>,
    out: &mut Vec<(Pid, More)>,
) {
    for w in parts.windows(2) {
        let a = edge_value(&w[0], value, dir, true);
        let b = edge_value(&w[1], value, dir, false);
        let (Some(a), Some(b)) = (a, b) else { continue };
        // The members are gathered only for the rare pair that needs them.
        if let Some(m) = more_for(a, b, decimals) {
            let members = members_at(&w[0], value, a).chain(members_at(&w[1], value, b));
            out.extend(members.map(|p| (p, m)));
        }
    }
}

/// For one step of the trace, the members whose values would print alike
/// across a split, with the digits that print them apart (as
/// [`table_more`] for the table, checked the same way).
pub(super) fn step_more(t: &TraceStep) -> HashMap<Pid, More> {
    let mut more: HashMap<Pid, More> = HashMap::new();
    if let (Outcome::Split(parts), Some(dir)) = (&t.outcome, t.dir) {
        let by_pid: HashMap<Pid, &Value> = t.values.iter().map(|(p, v)| (*p, v)).collect();
        let value = |p: Pid| by_pid.get(&p).copied();
        let mut found = Vec::new();
        split_more(parts, &value, dir, t.decimals, &mut found);
        for (p, m) in found {
            let e = more.entry(p).or_insert(m);
            *e = (*e).max(m);
        }
        // A pair still printed alike with the larger places: exactly.
        if !more.is_empty() {
            for w in parts.windows(2) {
                let (_, above) = edge(&w[0], &value, dir, true);
                let (_, below) = edge(&w[1], &value, dir, false);
                if let (Some(a), Some(b)) = (above.first(), below.first()) {
                    let (va, vb) = (by_pid[a], by_pid[b]);
                    let (ma, mb) = (more.get(a).copied(), more.get(b).copied());
                    if text_of(va, t.decimals, ma) == text_of(vb, t.decimals, mb) {
                        for p in above.iter().chain(&below) {
                            more.insert(*p, More::Exact);
                        }
                    }
                }
            }
        }
    }
    more
}

/// The cells of the standings printed with more digits than their column's
/// decimals, `(row, column) → text`: where the decimals would print alike
/// two values a step separates (the table, CSV, Markdown, HTML and JSON
/// `values` print these texts).
pub fn more_digits(s: &Standings) -> HashMap<(usize, usize), String> {
    table_more(s)
        .into_iter()
        .filter_map(|((r, c), m)| {
            let v = s.rows.get(r)?.values.get(c)?;
            Some(((r, c), text_of(v, s.columns[c].decimals, Some(m))?))
        })
        .collect()
}

/// As [`more_digits`] for one step of `explain`: participant → text.
pub fn step_more_digits(t: &TraceStep) -> HashMap<Pid, String> {
    let by_pid: HashMap<Pid, &Value> = t.values.iter().map(|(p, v)| (*p, v)).collect();
    step_more(t)
        .into_iter()
        .filter_map(|(p, m)| Some((p, text_of(by_pid.get(&p)?, t.decimals, Some(m))?)))
        .collect()
}

/// Every cell of the standings to print with more digits, by
/// `(row, column)`: for each split in the trace, the values of its column
/// on either side of the split that would print alike. Where two requests
/// for one cell differ, the larger holds; a pair that still prints alike
/// then (rounding to more places is not monotone) prints exactly.
pub(super) fn table_more(s: &Standings) -> HashMap<(usize, usize), More> {
    let mut cells: HashMap<(usize, usize), More> = HashMap::new();
    if s.trace.is_empty() {
        return cells;
    }
    let n = s.rows.iter().map(|r| r.pid + 1).max().unwrap_or(0);
    let mut row_of = vec![usize::MAX; n];
    for (i, r) in s.rows.iter().enumerate() {
        row_of[r.pid] = i;
    }
    let col_of: HashMap<&str, usize> = s
        .columns
        .iter()
        .enumerate()
        .map(|(i, c)| (c.label.as_str(), i))
        .collect();
    // The splits, with their column, to check again below once some cell
    // is refined (most tables have none).
    let row_of = &row_of;
    // A participant's value in column `ci`.
    let column = |ci: usize| {
        move |p: Pid| -> Option<&Value> {
            let r = *row_of.get(p)?;
            s.rows.get(r)?.values.get(ci)
        }
    };
    let mut splits: Vec<(&[Vec<Pid>], usize)> = Vec::new();
    for t in &s.trace {
        let (Outcome::Split(parts), Some(&ci)) = (&t.outcome, col_of.get(t.criterion.as_str()))
        else {
            continue;
        };
        let col = &s.columns[ci];
        let value = column(ci);
        let mut found = Vec::new();
        split_more(parts, &value, col.dir, col.decimals, &mut found);
        splits.push((parts, ci));
        for (p, m) in found {
            let key = (row_of[p], ci);
            let e = cells.entry(key).or_insert(m);
            *e = (*e).max(m);
        }
    }
    if cells.is_empty() {
        return cells;
    }
    let mut checks: Vec<(usize, Pid, Pid)> = Vec::new();
    for (parts, ci) in splits {
        let dir = s.columns[ci].dir;
        let value = column(ci);
        // The first member on either side of the split.
        let first = |part: &[Pid], worst: bool| {
            let e = edge_value(part, &value, dir, worst)?;
            members_at(part, &value, e).next()
        };
        for w in parts.windows(2) {
            if let (Some(a), Some(b)) = (first(&w[0], true), first(&w[1], false)) {
                checks.push((ci, a, b));
            }
        }
    }
    // Each neighbouring pair, as it now prints: still alike → exact.
    let mut index = CellIndex::new(&cells, s);
    for (ci, a, b) in checks {
        let (ra, rb) = (row_of[a], row_of[b]);
        let dec = s.columns[ci].decimals;
        let (va, vb) = (&s.rows[ra].values[ci], &s.rows[rb].values[ci]);
        if compare_values(va, vb) == Ordering::Equal || !refinable(va) || !refinable(vb) {
            continue;
        }
        let (ma, mb) = (cells.get(&(ra, ci)).copied(), cells.get(&(rb, ci)).copied());
        if text_of(va, dec, ma) == text_of(vb, dec, mb) {
            // Every refined cell of the column with either value goes exact.
            let same = index.same(&cells, s, ci, va, vb);
            for k in same.into_iter().chain([(ra, ci), (rb, ci)]) {
                if cells.insert(k, More::Exact).is_none() {
                    index.add(s, k);
                }
            }
        }
    }
    cells
}

/// The refined cells of [`table_more`] by column and number, so that the
/// cells with a value are found without a pass over every refined cell
/// (that pass, once per pair still printing alike, made a 30,000-player
/// card event's table take seconds). Cells whose value is not a number
/// are kept in a list per column and compared as before.
struct CellIndex {
    nums: HashMap<(usize, Num), Vec<usize>>,
    others: HashMap<usize, Vec<usize>>,
}

impl CellIndex {
    fn new(cells: &HashMap<(usize, usize), More>, s: &Standings) -> CellIndex {
        let mut index = CellIndex {
            nums: HashMap::new(),
            others: HashMap::new(),
        };
        for &k in cells.keys() {
            index.add(s, k);
        }
        index
    }

    /// A refined cell `(row, column)`.
    fn add(&mut self, s: &Standings, (r, c): (usize, usize)) {
        match &s.rows[r].values[c] {
            Value::Num(n) => self.nums.entry((c, *n)).or_default().push(r),
            _ => self.others.entry(c).or_default().push(r),
        }
    }

    /// The refined cells of column `ci` whose value compares equal to `va`
    /// or `vb` (`compare_values`, as the pass over every cell did).
    fn same(
        &self,
        cells: &HashMap<(usize, usize), More>,
        s: &Standings,
        ci: usize,
        va: &Value,
        vb: &Value,
    ) -> Vec<(usize, usize)> {
        let alike = |r: usize| {
            let v = &s.rows[r].values[ci];
            compare_values(v, va) == Ordering::Equal || compare_values(v, vb) == Ordering::Equal
        };
        let (Value::Num(a), Value::Num(b)) = (va, vb) else {
            // A list compares equal to any number: every cell is looked at.
            return cells
                .keys()
                .filter(|&&(r, c)| c == ci && alike(r))
                .copied()
                .collect();
        };
        let mut out: Vec<(usize, usize)> = Vec::new();
        for n in [a, b] {
            if let Some(rows) = self.nums.get(&(ci, *n)) {
                out.extend(rows.iter().map(|&r| (r, ci)));
            }
        }
        if let Some(rows) = self.others.get(&ci) {
            out.extend(rows.iter().filter(|&&r| alike(r)).map(|&r| (r, ci)));
        }
        out
    }
}
