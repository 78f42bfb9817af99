//! FIDE's rating tables (Handbook B.02, Art. 8.1) as data: the `fide_dp` and `fide_expected` built-ins read them.
//!
//! The tables live in `rulesets/fide/rating-tables.txt`, next to the FIDE
//! library that uses them, with their source named there; they are compiled
//! into the binary and read once, on first use.

use crate::num::{Num, Rounding};
use std::sync::OnceLock;

/// The table file, as shipped.
pub const RATING_TABLES: &str = include_str!("../../rulesets/fide/rating-tables.txt");

/// The two tables, read from [`RATING_TABLES`].
#[derive(Debug)]
pub struct RatingTables {
    /// Table 8.1(a): dp for p = 0.00, 0.01, ... 1.00 (index = hundredths).
    pub dp: Vec<i64>,
    /// Table 8.1(b): (from, to, PD of the higher-rated player); `to` None = and more.
    pub pd: Vec<(i64, Option<i64>, Num)>,
}

fn parse(text: &str) -> Result<RatingTables, String> {
    let mut dp: Vec<Option<i64>> = vec![None; 101];
    let mut pd = Vec::new();
    for (no, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        let bad = || format!("rating-tables.txt line {}: cannot read `{line}`", no + 1);
        match f.as_slice() {
            ["dp", p, v] => {
                let p = Num::parse(p).ok_or_else(bad)?;
                let i = p
                    .mul(Num::int(100))
                    .ok()
                    .filter(|x| x.is_integer() && (0..=100).contains(&x.numer()))
                    .ok_or_else(bad)?
                    .numer() as usize;
                dp[i] = Some(v.parse().map_err(|_| bad())?);
            }
            ["pd", from, to, h, _l] => {
                let from: i64 = from.parse().map_err(|_| bad())?;
                let to = if *to == "-" {
                    None
                } else {
                    Some(to.parse::<i64>().map_err(|_| bad())?)
                };
                pd.push((from, to, Num::parse(h).ok_or_else(bad)?));
            }
            _ => return Err(bad()),
        }
    }
    let dp = dp
        .into_iter()
        .enumerate()
        .map(|(i, v)| v.ok_or_else(|| format!("rating-tables.txt: no dp for p = {i}/100")))
        .collect::<Result<Vec<_>, _>>()?;
    pd.sort_by_key(|r| r.0);
    if pd.first().map(|r| r.0) != Some(0) || pd.last().map(|r| r.1) != Some(None) {
        return Err("rating-tables.txt: the pd rows must start at 0 and end with `-`".into());
    }
    Ok(RatingTables { dp, pd })
}

/// The shipped tables (read once).
pub fn rating_tables() -> &'static RatingTables {
    static T: OnceLock<RatingTables> = OnceLock::new();
    T.get_or_init(|| match parse(RATING_TABLES) {
        Ok(t) => t,
        // The file is part of the source tree and checked by a unit test.
        Err(e) => panic!("{e}"),
    })
}

/// Table 8.1(a): the rating difference dp for a fractional score `p` (0 to
/// 1), rounded to the nearest hundredth (half up) as the table lists it.
/// None outside 0..=1.
pub fn dp(p: Num) -> Option<Num> {
    if p < Num::ZERO || p > Num::ONE {
        return None;
    }
    let h = p.mul(Num::int(100)).ok()?.round(0, Rounding::HalfUp).ok()?;
    let i = usize::try_from(h.numer()).ok()?;
    rating_tables().dp.get(i).map(|&v| Num::int(v))
}

/// Table 8.1(b): the scoring probability of a player whose rating exceeds
/// the opponent's by `d` (negative: is below it), over the full scale (no
/// 400-point cut). A fractional difference is taken at its whole part.
pub fn expected(d: Num) -> Option<Num> {
    let abs = if d < Num::ZERO { d.neg().ok()? } else { d };
    let whole = abs.round(0, Rounding::Floor).ok()?.numer();
    let whole = i64::try_from(whole).ok()?;
    let t = rating_tables();
    let row =
        t.pd.iter()
            .find(|(from, to, _)| whole >= *from && to.is_none_or(|to| whole <= to))?;
    if d < Num::ZERO {
        Num::ONE.sub(row.2).ok()
    } else {
        Some(row.2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_read_and_cover_the_scale() {
        let t = parse(RATING_TABLES).expect("tables parse");
        assert_eq!(t.dp.len(), 101);
        assert_eq!(t.dp[50], 0);
        assert_eq!(t.dp[100], 800);
        assert_eq!(t.dp[0], -800);
        // Rows are contiguous.
        for w in t.pd.windows(2) {
            assert_eq!(w[0].1.map(|x| x + 1), Some(w[1].0));
        }
    }

    #[test]
    fn lookups() {
        let n = |s: &str| Num::parse(s).unwrap();
        assert_eq!(dp(n("0.5")), Some(Num::int(0)));
        assert_eq!(dp(n("0.755")), dp(n("0.76")));
        assert_eq!(dp(n("0.99")), Some(Num::int(677)));
        assert_eq!(dp(n("1.01")), None);
        assert_eq!(expected(n("0")), Some(n("0.5")));
        assert_eq!(expected(n("3")), Some(n("0.5")));
        assert_eq!(expected(n("4")), Some(n("0.51")));
        assert_eq!(expected(n("-4")), Some(n("0.49")));
        assert_eq!(expected(n("735")), Some(n("0.99")));
        assert_eq!(expected(n("736")), Some(n("1")));
        assert_eq!(expected(n("-5000")), Some(n("0")));
    }
}
