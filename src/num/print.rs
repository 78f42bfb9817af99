//! Numbers as text: the one decimal printer, [`Fixed::write`], and the
//! texts of a [`Num`] built on it (`to_fixed`, `to_exact_decimal`,
//! `Display`, and the 64-bit parts the renderer writes straight into its
//! buffer). Only what does not fit 64 bits (more than [`FAST_PLACES`]
//! places) is printed by `format!`. Tested against `format!` on i128
//! (`tests::printer_matches_format`).

use super::{Num, Rounding};
use std::cmp::Ordering;
use std::fmt;

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
    #[inline]
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
    #[inline]
    pub fn write(self, out: &mut Vec<u8>) {
        let mut buf = [0u8; 40];
        let i = self.digits(&mut buf);
        out.extend_from_slice(&buf[i..]);
    }

    /// The text, written into `buf` (no allocation).
    #[inline]
    pub fn text(self, buf: &mut [u8; 40]) -> &str {
        let i = self.digits(buf);
        // Digits, `-` and `.`: always UTF-8.
        std::str::from_utf8(&buf[i..]).unwrap_or_default()
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
#[inline]
pub(super) fn decimal_places(den: u64) -> Option<u32> {
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

impl Num {
    /// `self` rounded half up to `places` places (as [`Num::to_fixed`]),
    /// in 64-bit parts; `None` where that does not fit (more than
    /// [`FAST_PLACES`] places, or a scaled value past 64 bits).
    #[inline]
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
    #[inline]
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

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = Vec::with_capacity(40);
        self.write_exact(&mut text);
        // Digits, `-`, `.` and `/`: always UTF-8.
        f.write_str(std::str::from_utf8(&text).unwrap_or_default())
    }
}
