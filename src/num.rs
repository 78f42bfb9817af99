//! Exact numbers: every value the engine computes is a reduced fraction of i128s.
//!
//! Why fractions and not `Decimal`: a mean of 2/3, 2/3, 2/3 must tie with a
//! mean of 1, 1, 0, and a decimal type rounds 2/3. Fractions are exact under
//! the four operations, so two mathematically equal values always compare
//! equal. Every
//! operation is checked: a value beyond i128 is an error, never a wrap.
//! Decimals (`rust_decimal`) are used only at the edges: reading literals and
//! data, and rounding for display or where a regulation itself rounds.

use rust_decimal::Decimal;
use std::cmp::Ordering;
use std::fmt;

/// An exact rational number, always reduced, denominator positive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Num {
    num: i128,
    den: i128,
}

/// Arithmetic went outside what the engine can represent exactly.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NumError {
    /// A result does not fit in 128 bits.
    #[error("number too large to hold exactly")]
    Overflow,
    /// Division by zero where the ruleset did not say what it means.
    #[error("division by zero")]
    DivisionByZero,
}

/// Greatest common divisor of |a| and |b|, as an i128 (`i128::MIN` has no
/// absolute value in i128, so the work is done in u128; a result that does
/// not fit, gcd(MIN, 0) or gcd(MIN, MIN), is given as 1: callers only use it
/// to reduce, and reducing less is still exact).
fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    // Nearly every value an event produces fits in 64 bits, where division
    // is a single instruction rather than a 128-bit library call.
    if let (Ok(x), Ok(y)) = (u64::try_from(a), u64::try_from(b)) {
        let g = gcd64(x, y);
        return i128::from(g);
    }
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    i128::try_from(a).unwrap_or(1)
}

/// `-int.frac` with `frac` zero-padded to `places` digits (`-` when `neg`).
fn fixed_text(neg: bool, int: u64, frac: u64, places: u32) -> String {
    let mut digits = [0u8; 20];
    let mut out = String::with_capacity(24 + places as usize);
    if neg {
        out.push('-');
    }
    let mut n = 0;
    let mut v = int;
    loop {
        digits[n] = b'0' + (v % 10) as u8;
        n += 1;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    out.extend(digits[..n].iter().rev().map(|&d| d as char));
    if places > 0 {
        out.push('.');
        let mut f = vec![b'0'; places as usize];
        let mut v = frac;
        for d in f.iter_mut().rev() {
            *d = b'0' + (v % 10) as u8;
            v /= 10;
        }
        out.extend(f.iter().map(|&d| d as char));
    }
    out
}

/// Greatest common divisor of two u64s (Euclid).
fn gcd64(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// How to round to a number of decimal places.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// Nearest, ties away from zero (FIDE ARO: "0.5 rounded up").
    HalfUp,
    /// Toward zero (FIDE 13.4.2(b) "rounded ... towards zero").
    Down,
    /// Toward negative infinity.
    Floor,
    /// Toward positive infinity.
    Ceil,
}

// `add`, `sub`, `mul`, `div`, `neg` are checked and return `Result`: they are
// deliberately not the std operator traits, so no overflow can go unhandled.
#[allow(clippy::should_implement_trait)]
impl Num {
    /// Zero.
    pub const ZERO: Num = Num { num: 0, den: 1 };
    /// One.
    pub const ONE: Num = Num { num: 1, den: 1 };

    /// A whole number.
    pub const fn int(n: i64) -> Num {
        Num {
            num: n as i128,
            den: 1,
        }
    }

    /// `num / den`, reduced. Errors on a zero denominator.
    pub fn ratio(num: i128, den: i128) -> Result<Num, NumError> {
        if den == 0 {
            return Err(NumError::DivisionByZero);
        }
        let (mut n, mut d) = (num, den);
        if d < 0 {
            n = n.checked_neg().ok_or(NumError::Overflow)?;
            d = d.checked_neg().ok_or(NumError::Overflow)?;
        }
        if d == 1 {
            return Ok(Num { num: n, den: 1 });
        }
        let g = gcd(n, d);
        if g > 1 {
            match (i64::try_from(n), i64::try_from(d), i64::try_from(g)) {
                // 64-bit division where it fits (a 128-bit one is a library call).
                (Ok(a), Ok(b), Ok(c)) => {
                    n = i128::from(a / c);
                    d = i128::from(b / c);
                }
                _ => {
                    n /= g;
                    d /= g;
                }
            }
        }
        Ok(Num { num: n, den: d })
    }

    /// Numerator of the reduced fraction.
    pub fn numer(&self) -> i128 {
        self.num
    }
    /// Denominator of the reduced fraction (always positive).
    pub fn denom(&self) -> i128 {
        self.den
    }
    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.num == 0
    }
    /// True when the value is a whole number.
    pub fn is_integer(&self) -> bool {
        self.den == 1
    }

    /// Numerator and denominator both fit in 64 bits (the common case).
    #[inline]
    fn small(&self) -> bool {
        i64::try_from(self.num).is_ok() && i64::try_from(self.den).is_ok()
    }

    /// Exact sum.
    pub fn add(self, o: Num) -> Result<Num, NumError> {
        if self.small() && o.small() {
            // Products of 64-bit values cannot overflow 128 bits, nor can
            // their sum: no checked (library-call) arithmetic needed.
            if self.den == o.den {
                return Num::ratio(self.num + o.num, self.den);
            }
            return Num::ratio(self.num * o.den + o.num * self.den, self.den * o.den);
        }
        if self.den == o.den {
            let n = self.num.checked_add(o.num).ok_or(NumError::Overflow)?;
            return Num::ratio(n, self.den);
        }
        let a = self.num.checked_mul(o.den).ok_or(NumError::Overflow)?;
        let b = o.num.checked_mul(self.den).ok_or(NumError::Overflow)?;
        let d = self.den.checked_mul(o.den).ok_or(NumError::Overflow)?;
        Num::ratio(a.checked_add(b).ok_or(NumError::Overflow)?, d)
    }
    /// Exact difference.
    pub fn sub(self, o: Num) -> Result<Num, NumError> {
        self.add(o.neg()?)
    }
    /// Exact product.
    pub fn mul(self, o: Num) -> Result<Num, NumError> {
        if self.small() && o.small() {
            // As in `add`: 64-bit factors, a product that fits in 128 bits.
            return Num::ratio(self.num * o.num, self.den * o.den);
        }
        if self.den == 1 && o.den == 1 {
            let n = self.num.checked_mul(o.num).ok_or(NumError::Overflow)?;
            return Ok(Num { num: n, den: 1 });
        }
        // Cross-reduce first so intermediate products stay small.
        let g1 = gcd(self.num, o.den).max(1);
        let g2 = gcd(o.num, self.den).max(1);
        let n = (self.num / g1)
            .checked_mul(o.num / g2)
            .ok_or(NumError::Overflow)?;
        let d = (self.den / g2)
            .checked_mul(o.den / g1)
            .ok_or(NumError::Overflow)?;
        Num::ratio(n, d)
    }
    /// Exact quotient; a zero divisor is an error the caller must handle.
    pub fn div(self, o: Num) -> Result<Num, NumError> {
        if o.num == 0 {
            return Err(NumError::DivisionByZero);
        }
        self.mul(Num::ratio(o.den, o.num)?)
    }
    /// Negation.
    pub fn neg(self) -> Result<Num, NumError> {
        Ok(Num {
            num: self.num.checked_neg().ok_or(NumError::Overflow)?,
            den: self.den,
        })
    }

    /// Round to `places` decimal places with the given rule; stays exact.
    pub fn round(self, places: u32, how: Rounding) -> Result<Num, NumError> {
        let scale = 10i128.checked_pow(places).ok_or(NumError::Overflow)?;
        let scaled = self.num.checked_mul(scale).ok_or(NumError::Overflow)?;
        // Floor quotient and remainder, in 64 bits where they fit (a
        // 128-bit division is a library call).
        let (q, r) = match (i64::try_from(scaled), i64::try_from(self.den)) {
            (Ok(a), Ok(b)) => (i128::from(a.div_euclid(b)), i128::from(a.rem_euclid(b))),
            _ => (scaled.div_euclid(self.den), scaled.rem_euclid(self.den)),
        };
        let rounded = match how {
            Rounding::Floor => q,
            Rounding::Ceil => {
                if r == 0 {
                    q
                } else {
                    q + 1
                }
            }
            Rounding::Down => {
                if scaled < 0 && r != 0 {
                    q + 1
                } else {
                    q
                }
            }
            Rounding::HalfUp => {
                // Compare 2r with den: above half rounds up; exactly half goes away from zero.
                let twice = r.checked_mul(2).ok_or(NumError::Overflow)?;
                match twice.cmp(&self.den) {
                    Ordering::Greater => q + 1,
                    Ordering::Less => q,
                    Ordering::Equal => {
                        if scaled >= 0 {
                            q + 1
                        } else {
                            q
                        }
                    }
                }
            }
        };
        Num::ratio(rounded, scale)
    }

    /// Exact conversion from a decimal (data and literals are read this way).
    pub fn from_decimal(d: Decimal) -> Result<Num, NumError> {
        let scale = 10i128.checked_pow(d.scale()).ok_or(NumError::Overflow)?;
        Num::ratio(d.mantissa(), scale)
    }

    /// Parse a decimal string such as `-12.50` or `3`; also accepts `p/q`.
    pub fn parse(s: &str) -> Option<Num> {
        let s = s.trim();
        if let Some((a, b)) = s.split_once('/') {
            let a: i128 = a.trim().parse().ok()?;
            let b: i128 = b.trim().parse().ok()?;
            return Num::ratio(a, b).ok();
        }
        if s.is_empty() || s.contains(['e', 'E']) {
            return None;
        }
        let d: Decimal = s.parse().ok()?;
        Num::from_decimal(d).ok()
    }

    /// Decimal text with exactly `places` places, rounded half up (display only).
    pub fn to_fixed(self, places: u32) -> String {
        match self.round(places, Rounding::HalfUp) {
            Ok(r) => {
                let scale = 10i128.pow(places);
                let v = r.num * (scale / r.den);
                let neg = v < 0;
                let v = v.unsigned_abs();
                let s = scale as u128;
                let int = v / s;
                let frac = v % s;
                let sign = if neg { "-" } else { "" };
                if let (Ok(int), Ok(frac)) = (u64::try_from(int), u64::try_from(frac)) {
                    // The same text, written digit by digit: every printed
                    // value comes here, and `format!` costs ten times more.
                    return fixed_text(neg, int, frac, places);
                }
                if places == 0 {
                    format!("{sign}{int}")
                } else {
                    format!("{sign}{int}.{frac:0width$}", width = places as usize)
                }
            }
            // Too large to scale: the exact fraction (never `Display`, which
            // comes back here).
            Err(_) => self.fraction_text(),
        }
    }

    /// `p/q` (or `p` for a whole number), exact at any size.
    fn fraction_text(self) -> String {
        if self.den == 1 {
            self.num.to_string()
        } else {
            format!("{}/{}", self.num, self.den)
        }
    }

    /// Shortest exact decimal text if the fraction terminates, else `None`.
    pub fn to_exact_decimal(self) -> Option<String> {
        // A reduced fraction terminates iff the denominator has only 2s and 5s.
        let mut d = self.den;
        let mut places = 0u32;
        let (mut twos, mut fives) = (0u32, 0u32);
        while d % 2 == 0 {
            d /= 2;
            twos += 1;
        }
        while d % 5 == 0 {
            d /= 5;
            fives += 1;
        }
        if d != 1 {
            return None;
        }
        places = places.max(twos).max(fives);
        // Scaling to that many places must fit, or there is no decimal text.
        self.round(places, Rounding::HalfUp).ok()?;
        Some(self.to_fixed(places))
    }
}

impl Ord for Num {
    fn cmp(&self, o: &Num) -> Ordering {
        if self.den == o.den {
            return self.num.cmp(&o.num);
        }
        if self.small() && o.small() {
            return (self.num * o.den).cmp(&(o.num * self.den));
        }
        // a/b vs c/d  <=>  a*d vs c*b (b, d > 0). Fall back to a slower exact
        // comparison only if the products overflow.
        match (self.num.checked_mul(o.den), o.num.checked_mul(self.den)) {
            (Some(l), Some(r)) => l.cmp(&r),
            _ => cmp_continued(self.num, self.den, o.num, o.den),
        }
    }
}
impl PartialOrd for Num {
    fn partial_cmp(&self, o: &Num) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

/// Exact comparison of a/b and c/d without overflow, by continued fractions.
fn cmp_continued(a: i128, b: i128, c: i128, d: i128) -> Ordering {
    let (qa, ra) = (a.div_euclid(b), a.rem_euclid(b));
    let (qc, rc) = (c.div_euclid(d), c.rem_euclid(d));
    if qa != qc {
        return qa.cmp(&qc);
    }
    match (ra == 0, rc == 0) {
        (true, true) => Ordering::Equal,
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        // ra/b vs rc/d  <=>  d/rc vs b/ra
        (false, false) => cmp_continued(d, rc, b, ra),
    }
}

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_exact_decimal() {
            Some(s) => f.write_str(&s),
            None => f.write_str(&self.fraction_text()),
        }
    }
}

impl From<i64> for Num {
    fn from(n: i64) -> Num {
        Num::int(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(a: i128, b: i128) -> Num {
        Num::ratio(a, b).unwrap()
    }

    #[test]
    fn thirds_tie_exactly() {
        // SPEC §6: the mean of 2/3, 2/3, 2/3 equals the mean of 1, 1, 0.
        let two_thirds = q(2, 3);
        let a = two_thirds
            .add(two_thirds)
            .unwrap()
            .add(two_thirds)
            .unwrap()
            .div(Num::int(3))
            .unwrap();
        let b = Num::ONE.add(Num::ONE).unwrap().div(Num::int(3)).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.cmp(&b), Ordering::Equal);
    }

    #[test]
    fn rounding_rules() {
        assert_eq!(q(5, 2).round(0, Rounding::HalfUp).unwrap(), Num::int(3));
        assert_eq!(q(-5, 2).round(0, Rounding::HalfUp).unwrap(), Num::int(-3));
        assert_eq!(q(7, 3).round(0, Rounding::Down).unwrap(), Num::int(2));
        assert_eq!(q(-7, 3).round(0, Rounding::Down).unwrap(), Num::int(-2));
        assert_eq!(q(2, 3).to_fixed(2), "0.67");
        assert_eq!(q(1, 2).to_string(), "0.5");
        assert_eq!(q(1, 3).to_string(), "1/3");
        assert_eq!(Num::int(-4).to_fixed(1), "-4.0");
    }

    /// The 64-bit fast paths (arithmetic, rounding, printing) agree with
    /// the general 128-bit arithmetic they short-cut.
    #[test]
    fn fast_paths_match_wide_arithmetic() {
        let vals = [
            q(0, 1),
            q(1, 2),
            q(-7, 3),
            q(2, 3),
            q(1999, 1000),
            q(-1, 1_000_000_007),
            q(i64::MAX as i128, 3),
            q(i64::MIN as i128, 7),
            q(i64::MAX as i128 * 5, 2),
        ];
        for &a in &vals {
            for &b in &vals {
                // Wide: the same operations on values past 64 bits, scaled back.
                let big = Num::ratio(1i128 << 80, 1).unwrap();
                let wide_sum = a.add(big).and_then(|x| x.add(b)).and_then(|x| x.sub(big));
                assert_eq!(a.add(b).ok(), wide_sum.ok(), "{a} + {b}");
                assert_eq!(
                    a.cmp(&b),
                    cmp_continued(a.num, a.den, b.num, b.den),
                    "{a} vs {b}"
                );
                if let (Ok(p), Ok(w)) = (a.mul(b), a.mul(big).and_then(|x| x.mul(b))) {
                    assert_eq!(p.mul(big).ok(), Some(w), "{a} * {b}");
                }
            }
            for places in [0, 1, 2, 4, 12] {
                let text = a.to_fixed(places);
                let r = a.round(places, Rounding::HalfUp).unwrap();
                let v = r.num * (10i128.pow(places) / r.den);
                let (sign, v) = (if v < 0 { "-" } else { "" }, v.unsigned_abs());
                let s = 10u128.pow(places);
                let expect = if places == 0 {
                    format!("{sign}{}", v / s)
                } else {
                    format!("{sign}{}.{:0w$}", v / s, v % s, w = places as usize)
                };
                assert_eq!(text, expect);
            }
        }
    }

    #[test]
    fn parse_and_overflow() {
        assert_eq!(Num::parse("15.62"), Some(q(1562, 100)));
        assert_eq!(Num::parse("1/3"), Some(q(1, 3)));
        assert_eq!(Num::parse("1e5"), None);
        let big = Num::ratio(i128::MAX, 1).unwrap();
        assert_eq!(big.add(Num::ONE), Err(NumError::Overflow));
        assert_eq!(Num::ONE.div(Num::ZERO), Err(NumError::DivisionByZero));
    }

    #[test]
    fn compare_without_overflow() {
        let a = q(i128::MAX - 1, i128::MAX);
        let b = q(i128::MAX - 2, i128::MAX - 1);
        assert_eq!(a.cmp(&b), Ordering::Greater);
    }
}
