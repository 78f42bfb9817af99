//! `table NAME "FILE"`: a step function read from a data file through the
//! caller's resolver. Lookups in both evaluators, the undefined value below
//! the first key with its reason, the diagnostics of a data file, and the
//! FIDE tables (Handbook B.02, Art. 8.1) the FIDE library declares.

use crate::common::{first_step_both_ways, InMemory};
use tb::diag::{Diag, Source};
use tb::eval::Value;
use tb::model::Event;
use tb::num::Num;
use tb::plan::Ruleset;

const STEPS: &str = "# a step function\n\n0    10\n1/2  20   # from a half\n2    30\n";

fn check_with(text: &str, files: &[(&'static str, &'static str)]) -> Result<Ruleset, Diag> {
    let files = InMemory(files.iter().copied().collect());
    tb::check::check(Source::new("t.tb", text), &files, &[])
}

fn ruleset(text: &str) -> Ruleset {
    check_with(text, &[("steps.txt", STEPS)]).unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// Four players, each with a value `x` but the last: a -1, b 1/2, c 7.
const EVENT: &str = r#"
[event]
rounds = 1
[[participants]]
id = "a"
values = { x = -1 }
[[participants]]
id = "b"
values = { x = 0.5 }
[[participants]]
id = "c"
values = { x = 7 }
[[participants]]
id = "d"
[[rounds]]
games = [ { home = "a", away = "b", result = "1-0" }, { home = "c", away = "d", result = "1-0" } ]
"#;

fn event() -> Event {
    tb::load::native::load_toml(&Source::new("t.toml", EVENT))
        .unwrap_or_else(|d| panic!("{}", d.plain()))
}

/// The step `expr` for a, b, c, d by both evaluators (which must agree),
/// and the reasons given for the undefined values.
fn values_of(expr: &str) -> (Vec<Value>, Vec<String>) {
    let rs = ruleset(&format!(
        "table steps \"steps.txt\" cite \"Art. 1\"\nreads participant x\nmetric m = {expr}\nprocedure p {{ step m desc }}\nstandings p\n"
    ));
    let (vals, st) = first_step_both_ways(&event(), &rs, expr);
    let reasons = st
        .undefined
        .iter()
        .filter_map(|u| u.reason.clone())
        .collect();
    (vals, reasons)
}

fn n(s: &str) -> Value {
    Value::Num(Num::parse(s).unwrap())
}

#[test]
fn a_lookup_is_the_value_of_the_last_row_at_or_below() {
    // Exactly on a key, between keys, past the last key.
    let (vals, _) = values_of("steps(0) + steps(0.49) + steps(1/2) + steps(1999)");
    assert_eq!(vals, vec![n("70"); 4]);
}

#[test]
fn below_the_first_key_is_undefined_with_its_reason() {
    let (vals, reasons) = values_of("steps(me.x)");
    assert_eq!(vals, [Value::Undef, n("20"), n("30"), Value::Undef]);
    assert!(
        reasons.iter().any(|r| r.contains(
            "`steps(me.x)`: -1 is below the first key of table `steps` (0, in steps.txt)"
        )),
        "{reasons:?}"
    );
    // d records no `x`: the reason is the data, not the table.
    assert!(reasons.iter().any(|r| r.contains("x")), "{reasons:?}");
}

/// The first diagnostic with `code`, and the text its first label points at.
fn hit(d: &Diag, code: &str) -> (Diag, String) {
    let found = std::iter::once(d)
        .chain(d.related.iter())
        .find(|x| x.code == code && !x.labels.is_empty())
        .unwrap_or_else(|| panic!("expected {code}, got:\n{}", d.plain()))
        .clone();
    let src = found.source.clone().expect("a source");
    let (span, _) = found.labels[0];
    let text = src.text[span.start..span.end].to_string();
    (found, text)
}

#[test]
fn data_file_problems_point_at_their_row() {
    let decl = "table t \"t.txt\"\nmetric m = t(1)\n";
    // A file the resolver cannot find: at the file's name.
    let d = check_with(decl, &[]).expect_err("no file");
    let (found, at) = hit(&d, "tb::check::unknown_table_file");
    assert_eq!(at, "\"t.txt\"");
    assert!(found.message.contains("table `t`"), "{}", found.message);
    // A row that is not two numbers, keys out of order: in the data file.
    let d = check_with(decl, &[("t.txt", "# t\n0 1\n1 one\n2 2\n2 3\n1.5 4 5\n")])
        .expect_err("bad rows");
    let (found, at) = hit(&d, "tb::check::table_row");
    assert_eq!(at, "1 one");
    assert_eq!(found.location(), Some(("t.txt".to_string(), 3, 1)));
    let (found, at) = hit(&d, "tb::check::table_order");
    assert_eq!(at, "2 3");
    assert_eq!(found.location(), Some(("t.txt".to_string(), 5, 1)));
    assert_eq!(d.related.len(), 3, "{}", d.plain());
    // A float's exponent is no exact number.
    let d = check_with(decl, &[("t.txt", "0 1e3\n")]).expect_err("float");
    assert_eq!(hit(&d, "tb::check::table_row").1, "0 1e3");
    // No rows at all: at the declaration's file name.
    let d = check_with(decl, &[("t.txt", "# nothing\n\n")]).expect_err("empty");
    assert_eq!(hit(&d, "tb::check::table_row").1, "\"t.txt\"");
}

#[test]
fn a_table_is_looked_up_at_one_value() {
    let files = [("t.txt", "0 1\n")];
    for (text, code, at) in [
        ("metric m = t(1, 2)", "tb::check::arity", "t(1, 2)"),
        ("metric m = t()", "tb::check::arity", "t()"),
        ("metric m = t + 1", "tb::check::arity", "t"),
        ("metric m = me.t(1)", "tb::check::arity", "t"),
        ("metric m = t(x: 1)", "tb::check::unknown_argument", "x"),
        ("metric t = 1", "tb::check::duplicate_definition", "t"),
    ] {
        let d = check_with(&format!("table t \"t.txt\"\n{text}\n"), &files).expect_err(text);
        assert_eq!(hit(&d, code).1, at, "{text}");
    }
    // A built-in name cannot be a table (it would change what it means).
    let d = check_with("table score \"t.txt\"\n", &files).expect_err("score");
    assert_eq!(hit(&d, "tb::check::shadows_builtin").1, "score");
}

#[test]
fn table_is_not_a_reserved_word() {
    let rs = check_with("metric table = 1\nmetric tables(table) = table + 1\n", &[])
        .unwrap_or_else(|d| panic!("{}", d.plain()));
    assert_eq!(rs.metrics.len(), 2);
}

#[test]
fn a_table_on_disk_is_read_next_to_the_declaring_file() {
    let dir = std::env::temp_dir().join(format!("tb-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("lib")).unwrap();
    std::fs::write(dir.join("lib/steps.txt"), STEPS).unwrap();
    std::fs::write(
        dir.join("lib/lib.tb"),
        "table steps \"steps.txt\"\nmetric s = steps(1)\n",
    )
    .unwrap();
    std::fs::write(dir.join("a.tb"), "import \"lib/lib\"\n").unwrap();
    let root = crate::files::load_root(dir.join("a.tb").to_str().unwrap()).unwrap();
    let rs = tb::check::check(root, &crate::files::DiskResolver::default(), &[])
        .unwrap_or_else(|d| panic!("{}", d.plain()));
    assert_eq!(rs.tables.len(), 1);
    assert!(
        rs.tables[0].data.ends_with("steps.txt"),
        "{}",
        rs.tables[0].data
    );
    assert_eq!(rs.tables[0].rows.len(), 3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The FIDE library's tables, as shipped.
fn fide_tables() -> Vec<tb::plan::Table> {
    let rs = tb::check::check(
        tb::shipped::source("fide/lib").expect("shipped"),
        &tb::shipped::Shipped,
        &[],
    )
    .unwrap_or_else(|d| panic!("{}", d.plain()));
    rs.tables
}

fn table<'a>(ts: &'a [tb::plan::Table], name: &str) -> &'a tb::plan::Table {
    ts.iter().find(|t| t.name == name).expect(name)
}

/// Table 8.1(a) lists dp for every hundredth from 0 to 1, symmetric about
/// 0.50; table 8.1(b)'s two columns share their rows and add up to 1.
#[test]
fn the_fide_tables_cover_the_regulation() {
    // Shipped as data, not as a ruleset.
    assert!(tb::shipped::data("fide/rating-difference.txt").is_some());
    assert!(tb::shipped::get("fide/rating-difference.txt").is_none());
    let ts = fide_tables();
    let a = table(&ts, "rating_difference");
    assert_eq!(a.data, "fide/rating-difference.txt");
    assert_eq!(a.rows.len(), 101);
    for (i, (p, dp)) in a.rows.iter().enumerate() {
        assert_eq!(*p, Num::ratio(i as i128, 100).unwrap());
        let (_, mirror) = a.rows[100 - i];
        assert_eq!(dp.neg().unwrap(), mirror, "dp({p})");
    }
    assert_eq!(a.rows[100].1, Num::int(800));
    let h = table(&ts, "expected_score_of_higher_rated");
    let l = table(&ts, "expected_score_of_lower_rated");
    assert_eq!(h.rows.len(), 51);
    assert_eq!(
        h.rows.first(),
        Some(&(Num::ZERO, Num::parse("0.5").unwrap()))
    );
    assert_eq!(h.rows.last(), Some(&(Num::int(736), Num::ONE)));
    for (rh, rl) in h.rows.iter().zip(&l.rows) {
        assert_eq!(rh.0, rl.0);
        assert_eq!(rh.1.add(rl.1).unwrap(), Num::ONE, "D = {}", rh.0);
    }
}

/// `dp(p)` looks p up at the nearest hundredth, .005 up, as table 8.1(a)
/// lists it: every fraction with a denominator up to 60 against the row
/// picked by integer arithmetic.
#[test]
fn dp_rounds_the_score_to_the_nearest_hundredth() {
    let ts = fide_tables();
    let a = table(&ts, "rating_difference");
    let mut probes = Vec::new();
    for den in 1..=60i64 {
        for num in 0..=den {
            probes.push((num, den));
        }
    }
    let mut text = String::from("import \"fide/lib\"\n");
    for (i, (num, den)) in probes.iter().enumerate() {
        text.push_str(&format!("metric probe{i} = dp({num}/{den})\n"));
    }
    let rs = tb::check::check(Source::new("probe.tb", text), &tb::shipped::Shipped, &[])
        .unwrap_or_else(|d| panic!("{}", d.plain()));
    let ev = event();
    for (i, (num, den)) in probes.iter().enumerate() {
        // Hundredths, half up: floor((200 num + den) / (2 den)).
        let hundredths = (200 * num + den) / (2 * den);
        let want = Value::Num(a.rows[hundredths as usize].1);
        let got = tb::eval::metric_value(&ev, &rs, &format!("probe{i}"), "a")
            .unwrap_or_else(|d| panic!("{}", d.plain()));
        assert_eq!(got, want, "dp({num}/{den})");
    }
}

/// `expected_score(rating)` against one opponent rated 2000: the
/// higher-rated player's probability for a difference d >= 0, the
/// lower-rated player's for d < 0, a row holding up to the next row's D (a
/// fraction of a point counts for the row below).
#[test]
fn expected_score_takes_the_higher_or_lower_rated_column() {
    let probes = [
        ("0", "0.5"),
        ("3", "0.5"),
        ("3.5", "0.5"),
        ("4", "0.51"),
        ("-4", "0.49"),
        ("-3.5", "0.5"),
        ("-10.5", "0.49"),
        ("735", "0.99"),
        ("736", "1"),
        ("5000", "1"),
        ("-5000", "0"),
    ];
    let mut text = String::from("import \"fide/lib\"\n");
    for (i, (d, _)) in probes.iter().enumerate() {
        text.push_str(&format!("metric probe{i} = expected_score(2000 + {d})\n"));
    }
    let rs = tb::check::check(Source::new("probe.tb", text), &tb::shipped::Shipped, &[])
        .unwrap_or_else(|d| panic!("{}", d.plain()));
    let ev = tb::load::native::load_toml(&Source::new(
        "two.toml",
        "[event]\nrounds = 1\n[[participants]]\nid = \"a\"\nrating = 1900\n[[participants]]\nid = \"b\"\nrating = 2000\n[[rounds]]\ngames = [ { home = \"a\", away = \"b\", result = \"1-0\" } ]\n",
    ))
    .unwrap_or_else(|d| panic!("{}", d.plain()));
    for (i, (d, want)) in probes.iter().enumerate() {
        let got = tb::eval::metric_value(&ev, &rs, &format!("probe{i}"), "a")
            .unwrap_or_else(|e| panic!("{}", e.plain()));
        assert_eq!(got, n(want), "expected_score(2000 + {d})");
    }
}
