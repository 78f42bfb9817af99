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

use rust_decimal::Decimal;
use std::cmp::Ordering;
use std::fmt;

/// An exact rational number, always reduced, denominator positive.
///
/// The representation is canonical (reduced, `den >= 1`), so the derived
/// equality and hash are those of the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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

// ------------------------------------------------------------ printing
//
// One decimal printer: [`Fixed::write`]. `to_fixed`, `to_exact_decimal` and
// `Display` all print through it, and so does the renderer (straight into
// its output buffer, which is why the parts are public). Only what does not
// fit 64 bits (more than 18 places) is printed by `format!`.

/// Most decimal places the 64-bit printer handles (10^18 < 2^63).
pub const FAST_PLACES: u32 = 18;

/// 10^k for every k up to [`FAST_PLACES`] (a load, not a loop).
const POW10: [u64; FAST_PLACES as usize + 1] = {
    let mut p = [1u64; FAST_PLACES as usize + 1];
    let mut k = 1;
    while k < p.len() {
        p[k] = p[k - 1] * 10;
        k += 1;
    }
    p
};

/// "00" to "99": the integer part is written two digits per division.
const PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// Decimal text in parts: `-int.frac`, `frac` zero-padded to `places`
/// digits (at most [`FAST_PLACES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixed {
    neg: bool,
    int: u64,
    frac: u64,
    places: u32,
}

impl Fixed {
    /// A whole number.
    pub fn int(v: u64) -> Fixed {
        Fixed {
            neg: false,
            int: v,
            frac: 0,
            places: 0,
        }
    }

    /// The text, back to front into `buf`; returns where it starts.
    fn digits(self, buf: &mut [u8; 40]) -> usize {
        let mut i = buf.len();
        let mut f = self.frac;
        for _ in 0..self.places {
            i -= 1;
            buf[i] = b'0' + (f % 10) as u8;
            f /= 10;
        }
        if self.places > 0 {
            i -= 1;
            buf[i] = b'.';
        }
        let mut v = self.int;
        while v >= 100 {
            let d = (v % 100) as usize * 2;
            v /= 100;
            i -= 2;
            buf[i..i + 2].copy_from_slice(&PAIRS[d..d + 2]);
        }
        if v >= 10 {
            let d = v as usize * 2;
            i -= 2;
            buf[i..i + 2].copy_from_slice(&PAIRS[d..d + 2]);
        } else {
            i -= 1;
            buf[i] = b'0' + v as u8;
        }
        if self.neg {
            i -= 1;
            buf[i] = b'-';
        }
        i
    }

    /// Appends the text to `out` (ASCII: `out` stays UTF-8 if it was).
    pub fn write(self, out: &mut Vec<u8>) {
        let mut buf = [0u8; 40];
        let i = self.digits(&mut buf);
        out.extend_from_slice(&buf[i..]);
    }

    /// Appends the text to a `String`.
    fn push_to(self, out: &mut String) {
        let mut buf = [0u8; 40];
        let i = self.digits(&mut buf);
        // Digits, `-` and `.`: always UTF-8.
        out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or_default());
    }
}

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 40];
        let i = self.digits(&mut buf);
        f.write_str(std::str::from_utf8(&buf[i..]).unwrap_or_default())
    }
}

/// A number as it reads exactly (`Num`'s `Display`), in 64-bit parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exact {
    /// A terminating decimal, in its shortest form.
    Decimal(Fixed),
    /// `num/den` (negative when `neg`): the decimal would not terminate.
    Fraction {
        /// Below zero.
        neg: bool,
        /// The numerator's magnitude.
        num: u64,
        /// The denominator (2 or more).
        den: u64,
    },
}

/// The places of the decimal of a reduced fraction with denominator `den`
/// (`None` if it does not terminate: it does iff `den` is 2^a 5^b).
fn decimal_places(den: u64) -> Option<u32> {
    let twos = den.trailing_zeros();
    let (mut rest, mut fives) = (den >> twos, 0);
    while rest % 5 == 0 {
        rest /= 5;
        fives += 1;
    }
    (rest == 1).then_some(twos.max(fives))
}

/// `v / 10^places` as decimal text with exactly `places` places.
fn scaled_text(v: i128, places: u32) -> String {
    let neg = v < 0;
    let v = v.unsigned_abs();
    let s = 10u128.pow(places);
    let (int, frac) = (v / s, v % s);
    if let (Ok(int), Ok(frac), true) = (
        u64::try_from(int),
        u64::try_from(frac),
        places <= FAST_PLACES,
    ) {
        let mut out = String::with_capacity(24 + places as usize);
        Fixed {
            neg,
            int,
            frac,
            places,
        }
        .push_to(&mut out);
        return out;
    }
    let sign = if neg { "-" } else { "" };
    if places == 0 {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac:0width$}", width = places as usize)
    }
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
    pub fn add(self, o: Num) -> Result<Num, NumError> {
        if self.den == 1 && o.den == 1 {
            return self
                .num
                .checked_add(o.num)
                .map(Num::int)
                .ok_or(NumError::Overflow);
        }
        // Halves (chess scores, averages of two): the sum is whole or
        // still in halves, with no gcd to take.
        if self.den == 2 && o.den == 2 {
            if let Some(n) = self.num.checked_add(o.num) {
                return Ok(if n & 1 == 0 {
                    Num::int(n >> 1)
                } else {
                    Num { num: n, den: 2 }
                });
            }
        }
        self.add_frac(i128::from(o.num), o.den)
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
            if let Some(mut n) = self.num.checked_mul(o.num) {
                let mut den = self.den * o.den;
                while den > 1 && n & 1 == 0 {
                    n >>= 1;
                    den >>= 1;
                }
                return Ok(Num { num: n, den });
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

    /// `self` rounded half up to `places` places (as [`Num::to_fixed`]),
    /// in 64-bit parts; `None` where that does not fit (more than
    /// [`FAST_PLACES`] places, or a scaled value past 64 bits).
    pub fn fixed(self, places: u32) -> Option<Fixed> {
        if places > FAST_PLACES {
            return None;
        }
        let (num, den) = (self.num, self.den);
        if den == 1 {
            // A whole number: its digits, then zeros.
            return Some(Fixed {
                neg: num < 0,
                int: num.unsigned_abs(),
                frac: 0,
                places,
            });
        }
        let scale = POW10[places as usize] as i64;
        let scaled = num.checked_mul(scale)?;
        let (q, r) = (scaled.div_euclid(den), scaled.rem_euclid(den));
        // 2r against den, written so that nothing can overflow; exactly
        // half goes away from zero (as `round_scaled`).
        let rounded = match r.cmp(&(den - r)) {
            Ordering::Greater => q + 1,
            Ordering::Less => q,
            Ordering::Equal => q + i64::from(scaled >= 0),
        };
        let (abs, scale) = (rounded.unsigned_abs(), scale.unsigned_abs());
        Some(Fixed {
            neg: rounded < 0,
            int: abs / scale,
            frac: abs % scale,
            places,
        })
    }

    /// The exact text (`Display`) in 64-bit parts; `None` for a terminating
    /// decimal of more than [`FAST_PLACES`] places.
    pub fn exact(self) -> Option<Exact> {
        let (neg, abs, den) = (self.num < 0, self.num.unsigned_abs(), self.den as u64);
        let Some(places) = decimal_places(den) else {
            return Some(Exact::Fraction { neg, num: abs, den });
        };
        if places > FAST_PLACES {
            return None;
        }
        // `den` divides 10^places: the decimal is exact, nothing to round.
        let mult = POW10[places as usize] / den;
        Some(Exact::Decimal(Fixed {
            neg,
            int: abs / den,
            frac: abs % den * mult,
            places,
        }))
    }

    /// Decimal text with exactly `places` places, rounded half up (display only).
    pub fn to_fixed(self, places: u32) -> String {
        if let Some(f) = self.fixed(places) {
            return f.to_string();
        }
        match self.round_scaled(places, Rounding::HalfUp) {
            Some((v, _)) => scaled_text(v, places),
            // Too many places to scale: the exact fraction (never `Display`,
            // which comes back here).
            None => self.fraction_text(),
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
        match self.exact() {
            Some(Exact::Decimal(d)) => Some(d.to_string()),
            Some(Exact::Fraction { .. }) => None,
            None => {
                // More places than 64 bits hold: scaling to them must fit
                // i128, or there is no decimal text.
                let places = decimal_places(self.den as u64)?;
                let (v, _) = self.round_scaled(places, Rounding::HalfUp)?;
                Some(scaled_text(v, places))
            }
        }
    }

    /// Appends the `Display` text to `out`: its exact decimal, else `p/q`.
    pub fn write_exact(self, out: &mut Vec<u8>) {
        match self.exact() {
            Some(Exact::Decimal(d)) => d.write(out),
            Some(Exact::Fraction { neg, num, den }) => {
                if neg {
                    out.push(b'-');
                }
                Fixed::int(num).write(out);
                out.push(b'/');
                Fixed::int(den).write(out);
            }
            None => {
                let text = self
                    .to_exact_decimal()
                    .unwrap_or_else(|| self.fraction_text());
                out.extend_from_slice(text.as_bytes());
            }
        }
    }
}

impl Ord for Num {
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

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Vec::with_capacity(40);
        self.write_exact(&mut text);
        // Digits, `-`, `.` and `/`: always UTF-8.
        f.write_str(std::str::from_utf8(&text).unwrap_or_default())
    }
}

impl From<i64> for Num {
    fn from(n: i64) -> Num {
        Num::int(n)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn q(a: i128, b: i128) -> Num {
        Num::ratio(a, b).unwrap()
    }

    #[test]
    fn two_words() {
        assert_eq!(std::mem::size_of::<Num>(), 16);
        assert_eq!(std::mem::align_of::<Num>(), 8);
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
        assert_eq!(q(-1, 1000).to_fixed(2), "0.00");
        // Display needs no 64-bit result: a third of `i64::MAX` to 2 places.
        assert_eq!(q(i64::MAX.into(), 3).to_fixed(2), "3074457345618258602.33");
        assert_eq!(
            q(i64::MAX.into(), 3).round(2, Rounding::HalfUp),
            Err(NumError::Overflow)
        );
    }

    // -- The reference: the same operations done the obvious way in i128 --

    /// `n / d` reduced by a plain Euclid in i128, kept only if it fits in 64 bits.
    fn reference(n: i128, d: i128) -> Option<Num> {
        assert_ne!(d, 0);
        let (n, d) = if d < 0 { (-n, -d) } else { (n, d) };
        let (mut x, mut y) = (n.abs(), d);
        while y != 0 {
            (x, y) = (y, x % y);
        }
        let (n, d) = (n / x, d / x);
        Some(Num {
            num: i64::try_from(n).ok()?,
            den: i64::try_from(d).ok()?,
        })
    }

    fn parts(x: Num) -> (i128, i128) {
        (i128::from(x.num), i128::from(x.den))
    }

    /// `x` times `10^places`, rounded to a whole number by `how` (the sign of
    /// the remainder decides; no fast path).
    fn ref_scaled(x: Num, places: u32, how: Rounding) -> i128 {
        let (a, b) = parts(x);
        let a = a * 10i128.pow(places);
        let (fl, rem) = (a.div_euclid(b), a.rem_euclid(b));
        match how {
            Rounding::Floor => fl,
            Rounding::Ceil if rem == 0 => fl,
            Rounding::Ceil => fl + 1,
            Rounding::Down if a < 0 && rem != 0 => fl + 1,
            Rounding::Down => fl,
            Rounding::HalfUp if 2 * rem > b || (2 * rem == b && a > 0) => fl + 1,
            Rounding::HalfUp => fl,
        }
    }

    /// Exact comparison of a/b and c/d (b, d > 0) by continued fractions,
    /// without any product.
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

    /// Edge values near the 64-bit limits, and random fractions of every size.
    fn sample() -> Vec<Num> {
        let max = i128::from(i64::MAX);
        let min = i128::from(i64::MIN);
        let mut v = vec![
            q(0, 1),
            q(1, 1),
            q(-1, 1),
            q(1, 2),
            q(-7, 3),
            q(2, 3),
            q(1999, 1000),
            q(-1, 1_000_000_007),
            q(max, 1),
            q(max - 1, 1),
            q(min, 1),
            q(min + 1, 1),
            q(max, 3),
            q(min, 3),
            q(min, 7),
            q(max, 2),
            // Halves, the fast paths of sums and products: small, negative
            // and extreme.
            q(-1, 2),
            q(3, 2),
            q(-5, 2),
            q(max - 2, 2),
            q(min + 1, 2),
            q(1, max),
            q(-1, max),
            q(max - 1, max),
            q(min, max),
            q(1 << 32, 3),
            q(3, 1 << 40),
            q(1, 1 << 62),
        ];
        // SplitMix64: numerators and denominators of random bit widths.
        let mut s: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            s = s.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        for _ in 0..80 {
            let (w1, w2) = (next() % 64, next() % 64);
            let n = (next() >> (63 - w1)) as i64;
            let n = if next() % 2 == 0 { -n } else { n };
            let d = ((next() >> (64 - w2.max(1))) as i64).max(1);
            v.push(q(n.into(), d.into()));
        }
        v
    }

    /// Every operation agrees with the i128 reference on edge and random
    /// values: the 64-bit fast paths, the wide paths, and the overflows.
    #[test]
    fn fast_paths_match_wide_arithmetic() {
        let vals = sample();
        let (mut ok, mut over) = (0, 0);
        for &a in &vals {
            let (an, ad) = parts(a);
            assert!(a.den > 0);
            assert_eq!(reference(an, ad), Some(a), "not reduced: {a:?}");
            assert_eq!(a.neg().ok(), reference(-an, ad), "-{a:?}");
            assert_eq!(Num::parse(&a.to_string()), Some(a), "{a:?} as text");
            for &b in &vals {
                let (bn, bd) = parts(b);
                let sum = reference(an * bd + bn * ad, ad * bd);
                (ok, over) = if sum.is_some() {
                    (ok + 1, over)
                } else {
                    (ok, over + 1)
                };
                assert_eq!(a.add(b).ok(), sum, "{a:?} + {b:?}");
                assert_eq!(
                    a.sub(b).ok(),
                    reference(an * bd - bn * ad, ad * bd),
                    "{a:?} - {b:?}"
                );
                assert_eq!(a.mul(b).ok(), reference(an * bn, ad * bd), "{a:?} * {b:?}");
                let quotient = match bn {
                    0 => Err(NumError::DivisionByZero),
                    _ => reference(an * bd, ad * bn).ok_or(NumError::Overflow),
                };
                assert_eq!(a.div(b), quotient, "{a:?} / {b:?}");
                assert_eq!(a.cmp(&b), cmp_continued(an, ad, bn, bd), "{a:?} vs {b:?}");
                assert_eq!(a == b, cmp_continued(an, ad, bn, bd).is_eq());
            }
            for places in [0, 1, 2, 4, 12, 19] {
                for how in [
                    Rounding::HalfUp,
                    Rounding::Down,
                    Rounding::Floor,
                    Rounding::Ceil,
                ] {
                    let v = ref_scaled(a, places, how);
                    let s = 10i128.pow(places);
                    let r = a.round(places, how).ok();
                    assert_eq!(r, reference(v, s), "{a:?} {places} {how:?}");
                    // Where the difference fits: within one step of
                    // `10^-places`, on the side `how` says.
                    let diff = r.and_then(|r| a.sub(r).ok());
                    if let (Some(r), Some(diff), Ok(step)) = (r, diff, Num::ratio(1, s)) {
                        assert!(diff.abs_lt(step), "{a:?} {places} {how:?}");
                        match how {
                            Rounding::Floor => assert!(diff >= Num::ZERO),
                            Rounding::Ceil => assert!(diff <= Num::ZERO),
                            Rounding::Down => assert!(r.abs_le(a)),
                            Rounding::HalfUp => {
                                let half = step.div(Num::int(2)).unwrap();
                                assert!(diff.abs_le(half));
                            }
                        }
                    }
                }
                // Text, through `format!` rather than the digit-by-digit writer.
                let v = ref_scaled(a, places, Rounding::HalfUp);
                let (sign, v) = (if v < 0 { "-" } else { "" }, v.unsigned_abs());
                let s = 10u128.pow(places);
                let expect = if places == 0 {
                    format!("{sign}{}", v / s)
                } else {
                    format!("{sign}{}.{:0w$}", v / s, v % s, w = places as usize)
                };
                assert_eq!(a.to_fixed(places), expect);
            }
        }
        // The sample exercises both outcomes.
        assert!(ok > 1000 && over > 100, "{ok} sums fit, {over} overflow");
    }

    impl Num {
        /// |self| vs |o|, exactly.
        fn abs_cmp(self, o: Num) -> Ordering {
            let (a, b) = parts(self);
            let (c, d) = parts(o);
            cmp_continued(a.abs(), b, c.abs(), d)
        }
        fn abs_lt(self, o: Num) -> bool {
            self.abs_cmp(o).is_lt()
        }
        fn abs_le(self, o: Num) -> bool {
            self.abs_cmp(o).is_le()
        }
    }

    /// Numbers of every shape for the printer: whole, terminating and
    /// repeating fractions, halves on both sides of zero, and the edges of
    /// 64 bits and of [`FAST_PLACES`] (decimals of more than 18 places).
    pub(crate) fn printed() -> Vec<Num> {
        let dens = [
            1,
            2,
            3,
            4,
            5,
            6,
            7,
            8,
            16,
            20,
            25,
            40,
            64,
            100,
            125,
            128,
            1000,
            1024,
            3125,
            3 * 1024,
            1 << 20,
            1 << 40,
            1 << 62,
            5i128.pow(20),
            5i128.pow(27),
            i128::from(i64::MAX),
        ];
        let nums = (-250..=250).chain([
            999_999,
            -999_999,
            1 << 40,
            i128::from(i64::MAX),
            i128::from(i64::MIN),
            i128::from(i64::MAX / 3),
            i128::from(i64::MIN / 7),
        ]);
        let mut out = sample();
        for num in nums {
            for den in dens {
                out.extend(Num::ratio(num, den).ok());
            }
        }
        out
    }

    /// The reference for `Display`: the shortest decimal by `format!` on
    /// i128 where the fraction terminates and scales, else `p/q`.
    fn ref_display(x: Num) -> String {
        let (a, b) = parts(x);
        let places = (0..=38u32).find(|&p| 10i128.pow(p) % b == 0);
        let scaled = places.and_then(|p| a.checked_mul(10i128.pow(p)).map(|v| (p, v / b)));
        match scaled {
            Some((0, v)) => format!("{v}"),
            Some((p, v)) => {
                let (sign, v, s) = (
                    if v < 0 { "-" } else { "" },
                    v.unsigned_abs(),
                    10u128.pow(p),
                );
                format!("{sign}{}.{:0w$}", v / s, v % s, w = p as usize)
            }
            None => format!("{a}/{b}"),
        }
    }

    /// The one printer ([`Fixed::write`], through `to_fixed`, `Display`,
    /// `write_exact`, `fixed` and `exact`) against `format!` on i128.
    #[test]
    fn printer_matches_format() {
        for x in printed() {
            let exact = ref_display(x);
            assert_eq!(x.to_string(), exact, "{x:?}");
            let mut written = Vec::new();
            x.write_exact(&mut written);
            assert_eq!(String::from_utf8(written).unwrap(), exact, "{x:?}");
            let terminating = !exact.contains('/');
            assert_eq!(x.to_exact_decimal(), terminating.then(|| exact.clone()));
            match x.exact() {
                Some(Exact::Decimal(d)) => assert_eq!(d.to_string(), exact),
                Some(Exact::Fraction { .. }) => assert!(!terminating),
                // More places than 64 bits hold (printed `p/q` if past i128).
                None => assert!(decimal_places(x.den as u64).is_some_and(|p| p > FAST_PLACES)),
            }
            for places in [0, 1, 2, 3, 4, 6, 12, 17, 18, 19, 30] {
                let text = x.to_fixed(places);
                let scales = 10i128.checked_pow(places);
                if scales.and_then(|s| parts(x).0.checked_mul(s)).is_some() {
                    let v = ref_scaled(x, places, Rounding::HalfUp);
                    let (sign, v, s) = (
                        if v < 0 { "-" } else { "" },
                        v.unsigned_abs(),
                        10u128.pow(places),
                    );
                    let expect = if places == 0 {
                        format!("{sign}{}", v / s)
                    } else {
                        format!("{sign}{}.{:0w$}", v / s, v % s, w = places as usize)
                    };
                    assert_eq!(text, expect, "{x:?} to {places}");
                }
                if let Some(f) = x.fixed(places) {
                    assert_eq!(f.to_string(), text, "{x:?} to {places}");
                }
            }
        }
    }

    #[test]
    fn parse_and_overflow() {
        assert_eq!(Num::parse("15.62"), Some(q(1562, 100)));
        assert_eq!(Num::parse("1/3"), Some(q(1, 3)));
        assert_eq!(Num::parse("1e5"), None);
        assert_eq!(Num::parse("9223372036854775807"), Some(Num::int(i64::MAX)));
        assert_eq!(Num::parse("-9223372036854775808"), Some(Num::int(i64::MIN)));
        assert_eq!(Num::parse("9223372036854775808"), None);
        assert_eq!(
            Num::parse("0.000000000000000001"),
            Some(q(1, 10i128.pow(18)))
        );
        assert_eq!(Num::parse("0.0000000000000000001"), None);
        assert_eq!(Num::parse("123456789012345678901234567890123"), None);
        // Exactly what is written, at any length; never a rounded value.
        assert_eq!(
            Num::parse("1.000000000000000000000000000000000000000000000"),
            Some(Num::ONE)
        );
        assert_eq!(Num::parse("0.50000000000000000000000000001"), None);
        assert_eq!(Num::parse("+2.50"), Some(q(5, 2)));
        assert_eq!(Num::from_decimal(Decimal::new(-15, 1)), Ok(q(-3, 2)));
        assert_eq!(Num::from_decimal(Decimal::MAX), Err(NumError::Overflow));

        let max = Num::int(i64::MAX);
        let min = Num::int(i64::MIN);
        assert_eq!(max.add(Num::ONE), Err(NumError::Overflow));
        assert_eq!(min.sub(Num::ONE), Err(NumError::Overflow));
        assert_eq!(min.neg(), Err(NumError::Overflow));
        assert_eq!(Num::int(-1).sub(min), Ok(max));
        assert_eq!(min.div(Num::int(-1)), Err(NumError::Overflow));
        assert_eq!(min.mul(q(1, 2)), Ok(Num::int(i64::MIN / 2)));
        assert_eq!(Num::ratio(i128::MAX, 1), Err(NumError::Overflow));
        assert_eq!(Num::ratio(1, 1 << 63), Err(NumError::Overflow));
        assert_eq!(Num::ratio(-1, 1 << 63), Err(NumError::Overflow));
        assert_eq!(Num::ratio(i128::MIN, i128::MIN), Ok(Num::ONE));
        assert_eq!(Num::ratio(i128::MIN, 1 << 64), Ok(Num::int(i64::MIN)));
        assert_eq!(Num::ratio(1 << 63, -1), Ok(min));
        assert_eq!(Num::ratio(3 << 70, 1 << 71), Ok(q(3, 2)));
        assert_eq!(Num::ONE.div(Num::ZERO), Err(NumError::DivisionByZero));
        assert_eq!(Num::ratio(1, 0), Err(NumError::DivisionByZero));
    }

    #[test]
    fn compare_without_overflow() {
        let m = i128::from(i64::MAX);
        let a = q(m - 1, m);
        let b = q(m - 2, m - 1);
        assert_eq!(a.cmp(&b), Ordering::Greater);
        assert!(Num::int(i64::MIN) < q(i64::MIN.into(), 3));
    }
}
