//! Tests of exact arithmetic and of the printer, against i128 references.

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
        // Quarters (Sonneborn-Berger products), counted in quarters by
        // sums: small, negative and extreme.
        q(1, 4),
        q(-3, 4),
        q(5, 4),
        q(max, 4),
        q(min + 1, 4),
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
            None => assert!(print::decimal_places(x.den as u64).is_some_and(|p| p > FAST_PLACES)),
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
