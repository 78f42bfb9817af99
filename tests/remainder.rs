//! The `%` operator: the remainder of floored division, `a - b * floor(a / b)`,
//! exact on fractions, with the divisor's sign; `a % 0` is undefined, as
//! `a / 0` is.

use crate::common::*;
use tb::diag::Source;
use tb::eval::Value;
use tb::num::Num;

fn n(s: &str) -> Num {
    Num::parse(s.trim_start_matches('-'))
        .map(|v| {
            if s.starts_with('-') {
                v.neg().unwrap()
            } else {
                v
            }
        })
        .expect("number")
}

#[test]
fn remainder_of_floored_division() {
    let cases = [
        ("7", "2", "1"),
        ("-7", "2", "1"),
        ("7", "-2", "-1"),
        ("-7", "-2", "-1"),
        ("6", "3", "0"),
        ("-6", "3", "0"),
        ("3.5", "1", "0.5"),
        ("-3.5", "1", "0.5"),
        ("0.75", "0.5", "0.25"),
        ("-0.75", "0.5", "0.25"),
        ("0.75", "-0.5", "-0.25"),
        ("1", "0.3", "0.1"),
        ("0", "5", "0"),
        ("2", "5", "2"),
    ];
    for (a, b, want) in cases {
        let got = n(a).rem(n(b)).unwrap();
        assert_eq!(got, n(want), "{a} % {b}");
        // The definition: a - b * floor(a / b).
        let q = n(a)
            .div(n(b))
            .unwrap()
            .round(0, tb::num::Rounding::Floor)
            .unwrap();
        assert_eq!(got, n(a).sub(n(b).mul(q).unwrap()).unwrap(), "{a} % {b}");
    }
    // Thirds stay exact: 5/3 % 1/2 = 1/6.
    let third = |k| Num::ratio(k, 3).unwrap();
    assert_eq!(
        third(5).rem(Num::ratio(1, 2).unwrap()).unwrap(),
        Num::ratio(1, 6).unwrap()
    );
    assert_eq!(
        n("1").rem(Num::ZERO),
        Err(tb::num::NumError::DivisionByZero)
    );
    // Large values: no intermediate quotient overflows.
    let big = Num::int(i64::MAX);
    assert_eq!(big.rem(Num::int(2)).unwrap(), Num::ONE);
    assert_eq!(big.rem(Num::ratio(1, 3).unwrap()).unwrap(), Num::ZERO);
}

#[test]
fn percent_in_rulesets() {
    let text = std::fs::read_to_string("examples/chess-swiss.toml").expect("example");
    let ev = tb::load::native::load_toml(&Source::new("chess-swiss.toml", text)).expect("loads");
    let rs = inline(
        "metric odd = -7 % 2\n\
         metric frac = 7/2 % 1\n\
         metric neg = 7 % -2\n\
         metric zero = 1 % 0\n\
         metric prec = 1 + 7 % 4 * 2\n\
         metric halves = sum(r.points % 1 for r in rounds)\n\
         metric halves_by_floor = sum(r.points - floor(r.points) for r in rounds)\n\
         param p = 9 % 4\n\
         metric param_value = p\n",
    );
    for part in &ev.participants {
        let id = &part.id;
        assert_eq!(value(&ev, &rs, "odd", id), num("1"));
        assert_eq!(value(&ev, &rs, "frac", id), num("0.5"));
        assert_eq!(value(&ev, &rs, "neg", id), Value::Num(n("-1")));
        assert_eq!(value(&ev, &rs, "zero", id), Value::Undef);
        // `%` binds like `*`: 1 + ((7 % 4) * 2).
        assert_eq!(value(&ev, &rs, "prec", id), num("7"));
        assert_eq!(value(&ev, &rs, "param_value", id), num("1"));
        assert_eq!(
            value(&ev, &rs, "halves", id),
            value(&ev, &rs, "halves_by_floor", id)
        );
    }
    // Ranked (through the evaluators the ranking uses), `%` and its
    // definition give the same standings and values.
    let by_rem = inline("procedure p { step sum(r.points % 1 for r in rounds) desc as \"x\" step score desc }\nstandings p\n");
    let by_floor = inline("procedure p { step sum(r.points - floor(r.points) for r in rounds) desc as \"x\" step score desc }\nstandings p\n");
    let (a, b) = (rank(&ev, &by_rem), rank(&ev, &by_floor));
    assert_eq!(ranks(&ev, &a), ranks(&ev, &b));
    assert_eq!(format!("{:?}", a.rows), format!("{:?}", b.rows));
}

#[test]
fn percent_is_an_operator_in_the_grammar() {
    let parse = |t: &str| tb::syntax::parse::parse(&Source::new("t.tb", t));
    assert!(parse("metric m = 5 % 2\n").is_ok());
    assert!(parse("metric m = (5 % 2) % 1\n").is_ok());
    assert!(parse("metric m = 5 %\n").is_err());
    assert!(parse("metric m = % 2\n").is_err());
    let e = parse("metric m = 1 + 5 % 2\n").unwrap();
    let tb::syntax::ast::Item::Metric(m) = &e.items[0] else {
        panic!()
    };
    let tb::syntax::ast::ExprKind::Binary(op, _, rhs) = &m.body.kind else {
        panic!()
    };
    assert_eq!(*op, tb::syntax::ast::BinOp::Add);
    assert!(matches!(
        rhs.kind,
        tb::syntax::ast::ExprKind::Binary(tb::syntax::ast::BinOp::Rem, ..)
    ));
}
