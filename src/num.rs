//! Exact numbers: every value the engine computes is a reduced fraction whose
//! numerator and denominator are 64-bit integers.
//!
//! Why fractions and not `Decimal`: a mean of 2/3, 2/3, 2/3 must tie with a
//! mean of 1, 1, 0, and a decimal type rounds 2/3. Fractions are exact under
//! the four operations, so two mathematically equal values always compare
//! equal.
//!
//! Why 64 bits: a [`Num`] is inside every value the engine holds (a
//! participant's metrics, list items, columns of 100,000 participants), and
//! memory traffic dominates evaluation. Two i64s make a `Num` 16 bytes with
//! 8-byte alignment; two i128s made it 32 with 16-byte alignment. The range
//! is a numerator in `i64` (about ±9.2 × 10^18) over a positive denominator
//! of at most `i64::MAX`, which is far beyond any score, rating or tie-break.
//!
//! Every operation is checked: the arithmetic is done in i128, where the
//! products and sums of two 64-bit fractions cannot overflow, the result is
//! reduced, and only then narrowed; a reduced result beyond 64 bits is
//! [`NumError::Overflow`], never a wrap or a panic. Decimals (`rust_decimal`)
//! are used only at the edges: reading some literals and data.
//!
//! As text: `print` (the one decimal printer, which the renderer uses too);
//! the tests, against i128 references: `tests`.

use rust_decimal::Decimal;
use std::cmp::Ordering;

mod print;
pub use print::{Exact, Fixed, FAST_PLACES};

/// An exact rational number, always reduced, denominator positive.
///
/// The representation is canonical (reduced, `den >= 1`), so the derived
/// equality and hash are those of the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Num {
    num: i64,
    den: i64,
}

// Every value of the engine holds one: keep it two words.
const _: () = assert!(std::mem::size_of::<Num>() == 16);

/// Arithmetic went outside what the engine can represent exactly.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NumError {
    /// A reduced result whose numerator or denominator does not fit in 64
    /// bits (the size of every value in the engine; see the module doc).
    #[error("number too large to hold exactly (numerator and denominator must fit in 64 bits)")]
    Overflow,
    /// Division by zero where the ruleset did not say what it means.
    #[error("division by zero")]
    DivisionByZero,
}

/// Greatest common divisor of two u64s (Euclid; 0 only for gcd(0, 0)).
fn gcd64(mut a: u64, mut b: u64) -> u64 {
    // Binary (Stein's): shifts and subtractions, no division (tens of
    // cycles each) — gcds are on the path of nearly every fraction sum.
    if a == 0 || b == 0 {
        return a | b;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// Greatest common divisor of two u128s: Euclid, switching to 64-bit
/// division as soon as both fit (a 128-bit division is a library call).
fn gcd128(mut a: u128, mut b: u128) -> u128 {
    loop {
        if let (Ok(x), Ok(y)) = (u64::try_from(a), u64::try_from(b)) {
            return u128::from(gcd64(x, y));
        }
        if b == 0 {
            return a;
        }
        (a, b) = (b, a % b);
    }
}

/// `n / d` (with `d > 0`) already in lowest terms, narrowed to 64 bits.
#[inline]
fn fit(n: i128, d: i128) -> Result<Num, NumError> {
    match (i64::try_from(n), i64::try_from(d)) {
        (Ok(num), Ok(den)) => Ok(Num { num, den }),
        _ => Err(NumError::Overflow),
    }
}

/// `n / d` with `d > 0`, reduced, then narrowed to 64 bits.
#[inline]
fn reduce(n: i128, d: i128) -> Result<Num, NumError> {
    debug_assert!(d > 0);
    if d == 1 {
        return fit(n, 1);
    }
    if let (Ok(n), Ok(d)) = (i64::try_from(n), i64::try_from(d)) {
        // The common case: 64-bit gcd and division. The gcd divides `d`, so
        // it is at most `i64::MAX`, and dividing `i64::MIN` by it is exact.
        let g = gcd64(n.unsigned_abs(), d as u64) as i64;
        return Ok(Num {
            num: n / g,
            den: d / g,
        });
    }
    reduce_wide(n < 0, n.unsigned_abs(), d.unsigned_abs())
}

/// `±n / d` (`d > 0`, magnitudes up to 2^127), reduced, narrowed to 64 bits.
fn reduce_wide(neg: bool, n: u128, d: u128) -> Result<Num, NumError> {
    let g = gcd128(n, d);
    let (n, d) = (n / g, d / g);
    // A magnitude past 2^63 cannot fit either way; below it the cast is exact.
    if n > 1 << 63 || d > 1 << 63 {
        return Err(NumError::Overflow);
    }
    let n = n as i128;
    fit(if neg { -n } else { n }, d as i128)
}

/// A decimal `-?digits(.digits)?`, read exactly (no rounding, at any
/// length); `None` for any other shape.
fn plain_decimal(s: &str) -> Option<Result<Num, NumError>> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let (int, frac) = match body.split_once('.') {
        Some((int, frac)) if !frac.is_empty() => (int, frac),
        Some(_) => return None,
        None => (body, ""),
    };
    if int.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    // Trailing zeros of the fraction do not change the value.
    let frac = frac.trim_end_matches('0');
    let mut m: i128 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        match m
            .checked_mul(10)
            .and_then(|m| m.checked_add(i128::from(b - b'0')))
        {
            Some(v) => m = v,
            None => return Some(Err(NumError::Overflow)),
        }
    }
    let Some(scale) = u32::try_from(frac.len())
        .ok()
        .and_then(|p| 10i128.checked_pow(p))
    else {
        return Some(Err(NumError::Overflow));
    };
    Some(reduce(if neg { -m } else { m }, scale))
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
        Num { num: n, den: 1 }
    }

    /// `num / den`, reduced. Errors on a zero denominator, and with
    /// [`NumError::Overflow`] when the reduced fraction does not fit in 64 bits.
    pub fn ratio(num: i128, den: i128) -> Result<Num, NumError> {
        if den == 0 {
            return Err(NumError::DivisionByZero);
        }
        if den > 0 {
            return reduce(num, den);
        }
        // Magnitudes, so that `i128::MIN` on either side needs no negation.
        reduce_wide(num > 0, num.unsigned_abs(), den.unsigned_abs())
    }

    /// Numerator of the reduced fraction (an `i64`, widened).
    pub fn numer(&self) -> i128 {
        i128::from(self.num)
    }
    /// Denominator of the reduced fraction (positive, at most `i64::MAX`).
    pub fn denom(&self) -> i128 {
        i128::from(self.den)
    }
    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.num == 0
    }
    /// True when the value is a whole number.
    pub fn is_integer(&self) -> bool {
        self.den == 1
    }

    /// `self + c/d` for another reduced fraction `c/d` (`c` possibly negated,
    /// so |c| <= 2^63). Each product is below 2^126 in magnitude, so neither
    /// they nor their sum can overflow i128.
    #[inline]
    fn add_frac(self, c: i128, d: i64) -> Result<Num, NumError> {
        let (a, b) = (i128::from(self.num), i128::from(self.den));
        if self.den == d {
            return reduce(a + c, b);
        }
        // With one side whole the sum is already reduced: gcd(a*d + c, d)
        // = gcd(c, d) = 1 (and symmetrically), so no gcd is needed.
        if b == 1 {
            return fit(a * i128::from(d) + c, i128::from(d));
        }
        if d == 1 {
            return fit(a + c * b, b);
        }
        let d = i128::from(d);
        reduce(a * d + c * b, b * d)
    }

    /// Exact sum.
    #[inline]
    pub fn add(self, o: Num) -> Result<Num, NumError> {
        if self.den == 1 && o.den == 1 {
            return self
                .num
                .checked_add(o.num)
                .map(Num::int)
                .ok_or(NumError::Overflow);
        }
        // Whole numbers, halves and quarters (chess scores, averages of
        // two, a score times a half point): counted in quarters, the sum
        // needs no gcd.
        if let (Some(a), Some(b)) = (self.quarters(), o.quarters()) {
            if let Some(n) = a.checked_add(b) {
                return Ok(Num::from_quarters(n));
            }
        }
        self.add_frac(i128::from(o.num), o.den)
    }
    /// The number as a count of quarters, when it is whole, a half or a
    /// quarter and that count fits in 64 bits (sums of chess scores and of
    /// Sonneborn-Berger's products: see [`Num::from_quarters`]).
    #[inline]
    pub fn quarters(self) -> Option<i64> {
        match self.den {
            1 => self.num.checked_mul(4),
            2 => self.num.checked_mul(2),
            4 => Some(self.num),
            _ => None,
        }
    }
    /// `n` quarters, reduced (the gcd of `n` and 4 is a power of two).
    #[inline]
    pub fn from_quarters(n: i64) -> Num {
        let tz = n.trailing_zeros().min(2);
        Num {
            num: n >> tz,
            den: 4 >> tz,
        }
    }
    /// Exact difference.
    pub fn sub(self, o: Num) -> Result<Num, NumError> {
        if self.den == 1 && o.den == 1 {
            return self
                .num
                .checked_sub(o.num)
                .map(Num::int)
                .ok_or(NumError::Overflow);
        }
        // Negated in i128: `x - i64::MIN` may well fit.
        self.add_frac(-i128::from(o.num), o.den)
    }
    /// Exact product.
    #[inline]
    pub fn mul(self, o: Num) -> Result<Num, NumError> {
        if self.den == 1 && o.den == 1 {
            return self
                .num
                .checked_mul(o.num)
                .map(Num::int)
                .ok_or(NumError::Overflow);
        }
        // Whole numbers and halves (a score times points): the product is in
        // quarters at most, reduced by halving; if it overflows 64 bits
        // before that, the general way below decides.
        if self.den <= 2 && o.den <= 2 {
            if let Some(n) = self.num.checked_mul(o.num) {
                // The denominator is 1, 2 or 4: reduced by the powers of two
                // the numerator shares with it.
                let den = self.den * o.den;
                let tz = n.trailing_zeros().min(den.trailing_zeros());
                return Ok(Num {
                    num: n >> tz,
                    den: den >> tz,
                });
            }
        }
        // (a/b)(c/d): cross-reduce a with d and c with b in 64 bits; what is
        // left is in lowest terms, and its products fit in i128.
        let (a, b, c, d) = (
            self.num.unsigned_abs(),
            self.den as u64,
            o.num.unsigned_abs(),
            o.den as u64,
        );
        let g1 = gcd64(a, d); // d >= 1: at least 1
        let g2 = gcd64(c, b); // b >= 1: at least 1
        let n = u128::from(a / g1) * u128::from(c / g2);
        let den = u128::from(b / g2) * u128::from(d / g1);
        Num::signed(self.num.is_negative() != o.num.is_negative(), n, den)
    }
    /// Exact quotient; a zero divisor is an error the caller must handle.
    pub fn div(self, o: Num) -> Result<Num, NumError> {
        if o.num == 0 {
            return Err(NumError::DivisionByZero);
        }
        // (a/b) / (c/d) = (a d) / (b c): cross-reduce a with c and b with d.
        let (a, b, c, d) = (
            self.num.unsigned_abs(),
            self.den as u64,
            o.num.unsigned_abs(),
            o.den as u64,
        );
        let g1 = gcd64(a, c); // c != 0: at least 1
        let g2 = gcd64(b, d); // b, d >= 1: at least 1
        let n = u128::from(a / g1) * u128::from(d / g2);
        let den = u128::from(b / g2) * u128::from(c / g1);
        Num::signed(self.num.is_negative() != o.num.is_negative(), n, den)
    }
    /// Exact remainder of floored division, `a - b × floor(a / b)`: the
    /// result has the divisor's sign (`-7 % 2` is 1, `7 % -2` is -1,
    /// `7/2 % 1` is 1/2). A zero divisor is an error, as in [`Num::div`].
    pub fn rem(self, o: Num) -> Result<Num, NumError> {
        if o.num == 0 {
            return Err(NumError::DivisionByZero);
        }
        // a/b mod c/d = ((a d) mod (c b)) / (b d): whole numbers in 128
        // bits, so no intermediate quotient can overflow.
        let x = i128::from(self.num) * i128::from(o.den);
        let y = i128::from(o.num) * i128::from(self.den);
        let mut r = x.rem_euclid(y);
        if y < 0 && r != 0 {
            r += y;
        }
        reduce(r, i128::from(self.den) * i128::from(o.den))
    }
    /// `±n / d` already in lowest terms (`d >= 1`, both below 2^127), narrowed.
    #[inline]
    fn signed(neg: bool, n: u128, d: u128) -> Result<Num, NumError> {
        let n = n as i128;
        fit(if neg { -n } else { n }, d as i128)
    }
    /// Negation (`i64::MIN` has none in 64 bits: an overflow).
    pub fn neg(self) -> Result<Num, NumError> {
        Ok(Num {
            num: self.num.checked_neg().ok_or(NumError::Overflow)?,
            den: self.den,
        })
    }

    /// The value times `10^places`, rounded to a whole number with the given
    /// rule, and `10^places`; `None` if they do not fit in i128.
    fn round_scaled(self, places: u32, how: Rounding) -> Option<(i128, i128)> {
        let scale = 10i128.checked_pow(places)?;
        let scaled = i128::from(self.num).checked_mul(scale)?;
        if self.den == 1 {
            return Some((scaled, scale));
        }
        // Floor quotient and remainder, in 64 bits where they fit (a 128-bit
        // division is a library call).
        let (q, r) = match i64::try_from(scaled) {
            Ok(a) => (
                i128::from(a.div_euclid(self.den)),
                i128::from(a.rem_euclid(self.den)),
            ),
            Err(_) => {
                let b = i128::from(self.den);
                (scaled.div_euclid(b), scaled.rem_euclid(b))
            }
        };
        // `r != 0` implies `den >= 2`, so `|q| < 2^126` and `q + 1` fits.
        let rounded = match how {
            Rounding::Floor => q,
            Rounding::Ceil => q + i128::from(r != 0),
            Rounding::Down => q + i128::from(scaled < 0 && r != 0),
            Rounding::HalfUp => {
                // Compare 2r with den (r < den < 2^63, so 2r fits): above
                // half rounds up; exactly half goes away from zero.
                match (2 * r).cmp(&i128::from(self.den)) {
                    Ordering::Greater => q + 1,
                    Ordering::Less => q,
                    Ordering::Equal => q + i128::from(scaled >= 0),
                }
            }
        };
        Some((rounded, scale))
    }

    /// Round to `places` decimal places with the given rule; stays exact.
    pub fn round(self, places: u32, how: Rounding) -> Result<Num, NumError> {
        if self.den == 1 {
            return Ok(self);
        }
        let (rounded, scale) = self.round_scaled(places, how).ok_or(NumError::Overflow)?;
        reduce(rounded, scale)
    }

    /// Exact conversion from a decimal (some data and literals are read this
    /// way); an overflow if the reduced value does not fit in 64 bits.
    pub fn from_decimal(d: Decimal) -> Result<Num, NumError> {
        let scale = 10i128.checked_pow(d.scale()).ok_or(NumError::Overflow)?;
        reduce(d.mantissa(), scale)
    }

    /// Parse a decimal string such as `-12.50` or `3`; also accepts `p/q`.
    /// `None` for anything else and for a value that does not fit exactly.
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
        if let Some(n) = plain_decimal(s) {
            return n.ok();
        }
        // Other shapes the decimal reader takes (`+2`, `1_000`): only up to
        // 28 digits, which it holds without rounding (past them it rounds,
        // and a rounded value is not the one written).
        if s.bytes().filter(u8::is_ascii_digit).count() > 28 {
            return None;
        }
        let d: Decimal = s.parse().ok()?;
        Num::from_decimal(d).ok()
    }
}

impl Ord for Num {
    #[inline]
    fn cmp(&self, o: &Num) -> Ordering {
        if self.den == o.den {
            return self.num.cmp(&o.num);
        }
        // a/b vs c/d  <=>  a*d vs c*b (b, d > 0); 64-bit factors, so the
        // products are exact in i128.
        let l = i128::from(self.num) * i128::from(o.den);
        let r = i128::from(o.num) * i128::from(self.den);
        l.cmp(&r)
    }
}
impl PartialOrd for Num {
    fn partial_cmp(&self, o: &Num) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}

impl From<i64> for Num {
    fn from(n: i64) -> Num {
        Num::int(n)
    }
}

#[cfg(test)]
pub(crate) mod tests;
