//! The error catalogue (`docs/errors.md`) against the code: every
//! diagnostic code (`tb::codes::ALL`, `src/codes.rs`) is documented, every documented code exists,
//! every test the catalogue names exists, and each library code is
//! triggered here with assertions on its code and on the text its span
//! points at (through `Diag::plain()` too). CLI-only codes are triggered
//! through the real binary in `tests/cli_diagnostics.rs`.

use std::collections::BTreeSet;
use std::path::PathBuf;
use tb::diag::{Diag, Source};
use tb::model::Event;
use tb::plan::Ruleset;

// ---------------------------------------------------------------------------
// The catalogue itself
// ---------------------------------------------------------------------------

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every code tb emits: the named constants of `src/codes.rs`.
fn codes_in_source() -> BTreeSet<String> {
    tb::codes::ALL.iter().map(|c| c.to_string()).collect()
}

fn catalogue() -> String {
    std::fs::read_to_string(root().join("docs/errors.md")).expect("docs/errors.md")
}

/// Codes the catalogue documents: the first cell of each table row.
fn codes_in_catalogue() -> BTreeSet<String> {
    catalogue()
        .lines()
        .filter_map(|l| l.strip_prefix("| `tb::"))
        .filter_map(|l| l.split('`').next())
        .map(|c| format!("tb::{c}"))
        .collect()
}

#[test]
fn every_code_in_the_source_is_in_the_catalogue() {
    let documented = codes_in_catalogue();
    let missing: Vec<_> = codes_in_source()
        .into_iter()
        .filter(|c| !documented.contains(c))
        .collect();
    assert!(
        missing.is_empty(),
        "codes used in src/ but not documented in docs/errors.md (add a row for each): {missing:?}"
    );
}

#[test]
fn every_code_in_the_catalogue_is_in_the_source() {
    let used = codes_in_source();
    let stale: Vec<_> = codes_in_catalogue()
        .into_iter()
        .filter(|c| !used.contains(c))
        .collect();
    assert!(
        stale.is_empty(),
        "docs/errors.md documents codes no longer used: {stale:?}"
    );
}

#[test]
fn every_test_the_catalogue_names_exists() {
    // Test references are written `tests/FILE.rs::NAME`.
    let text = catalogue();
    let mut checked = 0;
    for (i, _) in text.match_indices("tests/") {
        let rest = &text[i..];
        let Some(end) = rest.find(|c: char| c == '`' || c.is_whitespace() || c == ',' || c == ')')
        else {
            continue;
        };
        let r = &rest[..end];
        let Some((file, name)) = r.split_once(".rs::") else {
            continue;
        };
        let src = std::fs::read_to_string(root().join(format!("{file}.rs")))
            .unwrap_or_else(|_| panic!("docs/errors.md names {r}, but {file}.rs does not exist"));
        assert!(
            src.contains(&format!("fn {name}(")),
            "docs/errors.md names {r}, but there is no test `{name}` in {file}.rs"
        );
        checked += 1;
    }
    assert!(
        checked > 20,
        "the catalogue should name its tests ({checked} found)"
    );
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/// The diagnostic with `code` in `d` or among its related ones.
/// A summary that shares its first problem's code has no place of its
/// own: the problem itself (with its span) is preferred.
fn find<'a>(d: &'a Diag, code: &str) -> Option<&'a Diag> {
    if d.code == code && !d.labels.is_empty() {
        return Some(d);
    }
    d.related
        .iter()
        .find_map(|r| find(r, code))
        .or((d.code == code).then_some(d))
}

/// The text the first label points at.
fn pointed(d: &Diag) -> Option<String> {
    let src = d.source.as_ref()?;
    let (span, _) = d.labels.first()?;
    Some(src.text[span.start..span.end].to_string())
}

/// `r` must fail with `code`; where `at` is given, the span must point at
/// exactly that text, and the plain rendering must give its place.
#[track_caller]
fn expect<T>(r: Result<T, Diag>, code: &str, at: Option<&str>) -> Diag {
    let d = match r {
        Ok(_) => panic!("expected {code}, but it succeeded"),
        Err(d) => d,
    };
    let hit = find(&d, code)
        .unwrap_or_else(|| panic!("expected {code}, got:\n{}", d.plain()))
        .clone();
    let plain = hit.plain();
    assert!(plain.contains(&format!("[{code}]")), "{plain}");
    match at {
        Some(text) => {
            assert_eq!(pointed(&hit).as_deref(), Some(text), "{plain}");
            let (file, line, col) = hit.location().expect("a place");
            assert!(
                plain.contains(&format!("{file}:{line}:{col}:")),
                "plain output names the place: {plain}"
            );
        }
        None => assert!(hit.labels.is_empty() || hit.source.is_some(), "{plain}"),
    }
    assert!(!hit.message.is_empty());
    hit
}

fn check(text: &str) -> Result<Ruleset, Diag> {
    tb::check::check(Source::new("t.tb", text), &tb::shipped::Shipped, &[])
}

fn ruleset(text: &str) -> Ruleset {
    check(text).unwrap_or_else(|d| panic!("{}", d.plain()))
}

fn toml(text: &str) -> Result<Event, Diag> {
    tb::load::native::load_toml(&Source::new("e.toml", text))
}

fn json(text: &str) -> Result<Event, Diag> {
    tb::load::native::load_json(&Source::new("e.json", text))
}

fn trf(text: &str) -> Result<Event, Diag> {
    tb::load::trf::load_trf(&Source::new("e.trf", text))
}

/// A chess Swiss of two rounds: a beat b, c had a bye; then b beat c, a bye.
const CHESS: &str = "[event]\nrounds = 2\n[[participants]]\nid = \"a\"\n[[participants]]\nid = \"b\"\n[[participants]]\nid = \"c\"\n[[rounds]]\ngames = [{ home = \"a\", away = \"b\", result = \"1-0\" }]\nbyes = [{ id = \"c\" }]\n[[rounds]]\ngames = [{ home = \"b\", away = \"c\", result = \"1-0\" }]\nbyes = [{ id = \"a\" }]\n";

fn chess() -> Event {
    toml(CHESS).unwrap_or_else(|d| panic!("{}", d.plain()))
}

fn rank(ev: &Event, rs: &Ruleset) -> Result<tb::rank::Standings, Diag> {
    tb::rank::rank(ev, rs, &tb::rank::Options::default())
}

/// A fresh folder for files on disk.
fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tb-catalogue-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// A TRF16 001 line in exact columns; `blocks` are (opponent, colour, result).
fn player(num: u32, points: &str, blocks: &[(&str, char, char)]) -> String {
    let mut s = format!(
        "001 {num:>4} m    {:<33} {:>4} {:<3} {:>11} {:<10} {points:>4} {:>4}",
        format!("Player {num}"),
        2000,
        "FID",
        1000 + num,
        "2000/01/01",
        num
    );
    for (opp, c, r) in blocks {
        s.push_str(&format!("  {opp:>4} {c} {r}"));
    }
    s
}

// ---------------------------------------------------------------------------
// tb::syntax::parse
// ---------------------------------------------------------------------------

#[test]
fn parse_codes() {
    expect(check("metric = 1\n"), "tb::parse::syntax", Some("="));
    expect(
        check("procedure p { step score desc decimals 13 }\n"),
        "tb::parse::bad_decimals",
        Some("13"),
    );
    expect(
        check("metric m = 123456789012345678901234567890123\n"),
        "tb::parse::bad_number",
        Some("123456789012345678901234567890123"),
    );
    expect(
        check(&format!(
            "metric m = {}1{}\n",
            "(".repeat(60),
            ")".repeat(60)
        )),
        "tb::parse::too_deep",
        Some("("),
    );
    expect(
        check(&format!("metric m = {}1\n", "- ".repeat(40))),
        "tb::parse::too_deep",
        Some("-"),
    );
    expect(
        check(&format!("metric m = 1{}\n", " + 1".repeat(200))),
        "tb::parse::too_deep",
        Some("+"),
    );
    expect(
        check(&format!(
            "metric m = sum(1{})\n",
            " for r in rounds".repeat(9)
        )),
        "tb::parse::too_deep",
        Some("for r in rounds"),
    );
    let big = format!("// {}\n", "x".repeat(tb::syntax::parse::MAX_FILE_BYTES));
    let d = expect(check(&big), "tb::parse::too_large", None);
    assert!(d.labels.is_empty());
}

// ---------------------------------------------------------------------------
// tb::check
// ---------------------------------------------------------------------------

#[test]
fn check_codes() {
    expect(
        check("metric m = abs(1, 2)\n"),
        "tb::check::arity",
        Some("abs(1, 2)"),
    );
    expect(
        check("metric f(x) = x\nmetric g = f()\n"),
        "tb::check::arity",
        Some("f"),
    );
    expect(
        check("metric a = b + 1\nmetric b = a\n"),
        "tb::check::cycle",
        Some("a"),
    );
    let d = expect(
        check("metric a = 1\nmetric a = 2\n"),
        "tb::check::duplicate_definition",
        Some("a"),
    );
    assert_eq!(d.location().map(|l| l.1), Some(2));
    let d = expect(
        check("procedure p { step score desc }\nstandings p\nstandings p\n"),
        "tb::check::duplicate_standings",
        Some("p"),
    );
    assert_eq!(d.location().map(|l| l.1), Some(3));
    // Several errors at once: gathered under tb::check::errors.
    let d = check("metric a = nope1\nmetric b = nope2\n").expect_err("errors");
    assert_eq!(d.code, "tb::check::errors");
    assert_eq!(d.related.len(), 2);
    assert!(d.message.contains("2 errors"));
    expect(
        check("metric m = count(group)\n"),
        "tb::check::group_in_metric",
        Some("group"),
    );
    expect(
        check("criterion c = count(others)\nmetric m = c\n"),
        "tb::check::group_in_metric",
        Some("c"),
    );
    // Direction belongs to the definition (issue 15, slip 1): a step that
    // contradicts it, and a step with no direction to go by.
    expect(
        check("criterion place lower is better = 1\nprocedure p { step place desc }\n"),
        "tb::check::direction",
        Some("desc"),
    );
    expect(
        check("procedure p { step score }\n"),
        "tb::check::no_direction",
        Some("score"),
    );
    expect(
        check("metric m = 1\nprocedure p { step m reversed }\n"),
        "tb::check::no_direction",
        Some("reversed"),
    );
    expect(
        check("procedure p { step 1 desc when score > 1 }\n"),
        "tb::check::me_in_condition",
        Some("score"),
    );
    expect(
        check("metric m = first_place\nprocedure p { step m desc }\n"),
        "tb::check::places_outside_condition",
        Some("first_place"),
    );
    expect(
        check("param k = score\n"),
        "tb::check::param_not_constant",
        Some("score"),
    );
    expect(
        check("param k = 1\nset k = rounds\n"),
        "tb::check::param_not_constant",
        Some("rounds"),
    );
    expect(
        check("metric m = abs(r.points for r in rounds)\n"),
        "tb::check::unknown_aggregate",
        Some("abs"),
    );
    expect(
        check("metric points = 1\n"),
        "tb::check::shadows_builtin",
        Some("points"),
    );
    expect(
        check("metric m = foo(1)\n"),
        "tb::check::unknown_function",
        Some("foo"),
    );
    expect(
        check("metric m = sum(r.points for r in rounds by r.points)\n"),
        "tb::check::by_outside_list",
        Some("r.points"),
    );
    expect(
        check("import \"nope/nothing\"\n"),
        "tb::check::unknown_import",
        Some("import \"nope/nothing\""),
    );
    let d = expect(
        check("metric total = 1\nmetric m = totl + 1\n"),
        "tb::check::unknown_metric",
        Some("totl"),
    );
    assert!(d
        .help
        .as_deref()
        .unwrap_or("")
        .contains("did you mean `total`"));
    expect(
        check("metric m = me.nothing(1)\n"),
        "tb::check::unknown_metric",
        Some("nothing"),
    );
    expect(
        check("set nope = 1\n"),
        "tb::check::unknown_param",
        Some("nope"),
    );
    let d = tb::check::check(
        Source::new("t.tb", "param k = 1\n"),
        &tb::shipped::Shipped,
        &[("j".to_string(), tb::num::Num::ONE)],
    );
    let d = expect(d, "tb::check::unknown_param", None);
    assert!(d.help.as_deref().unwrap_or("").contains("k"));
    expect(
        check("standings nope\n"),
        "tb::check::unknown_procedure",
        Some("nope"),
    );
    expect(
        check("procedure p { step score desc then nope }\n"),
        "tb::check::unknown_procedure",
        Some("nope"),
    );
    expect(
        crate::files::load_root("no/such/ruleset"),
        "tb::check::unknown_ruleset",
        None,
    );
}

#[test]
fn check_file_codes() {
    // A file that is not UTF-8.
    let dir = temp_dir("io");
    let bad = dir.join("bad.tb");
    std::fs::write(&bad, b"metric m = 1 // \xff\xfe\n").expect("write");
    expect(
        crate::files::load_root(&bad.display().to_string()),
        "tb::check::io",
        None,
    );
    // An import cycle through files on disk.
    let dir = temp_dir("cycle");
    std::fs::write(dir.join("a.tb"), "import \"b\"\nmetric x = 1\n").expect("write");
    std::fs::write(dir.join("b.tb"), "import \"a\"\nmetric y = 1\n").expect("write");
    let root = crate::files::load_root(&dir.join("a.tb").display().to_string()).expect("root");
    let d = expect(
        tb::check::check(root, &crate::files::DiskResolver::default(), &[]),
        "tb::check::import_cycle",
        Some("import \"a\""),
    );
    assert!(d.message.contains("→"));
    // Imports nested deeper than MAX_IMPORT_DEPTH.
    let dir = temp_dir("depth");
    let n = tb::check::MAX_IMPORT_DEPTH + 2;
    for i in 0..n {
        std::fs::write(
            dir.join(format!("f{i}.tb")),
            format!("import \"f{}\"\nmetric m{i} = 1\n", i + 1),
        )
        .expect("write");
    }
    std::fs::write(dir.join(format!("f{n}.tb")), "metric last = 1\n").expect("write");
    let root = crate::files::load_root(&dir.join("f0.tb").display().to_string()).expect("root");
    expect(
        tb::check::check(root, &crate::files::DiskResolver::default(), &[]),
        "tb::check::import_depth",
        Some(&format!("import \"f{}\"", tb::check::MAX_IMPORT_DEPTH + 1)),
    );
}

// ---------------------------------------------------------------------------
// tb::eval
// ---------------------------------------------------------------------------

/// Rank `CHESS` with a one-step ruleset over `expr` (`when` optional).
fn rank_with(metrics: &str, step: &str) -> Result<tb::rank::Standings, Diag> {
    let rs = ruleset(&format!(
        "{metrics}\nprocedure p {{ step score desc\n step {step} }}\nstandings p\n"
    ));
    rank(&chess(), &rs)
}

#[test]
fn eval_codes() {
    // Everyone in CHESS is on 1.5 points, so every second step runs.
    expect(
        rank_with("", "infinity + 1 desc"),
        "tb::eval::infinity",
        Some("infinity + 1"),
    );
    expect(
        rank_with("", "1 + true desc"),
        "tb::eval::type",
        Some("1 + true"),
    );
    expect(
        rank_with("metric m = 9999999999 * 9999999999 * 9999999999", "m desc"),
        "tb::eval::overflow",
        Some("9999999999 * 9999999999"),
    );
    expect(
        rank_with("", "count(integers(0, 100000000)) desc"),
        "tb::eval::too_large",
        Some("integers(0, 100000000)"),
    );
    // A metric used where there is no participant: a step's condition.
    expect(
        rank_with("metric m = score", "1 desc when m > 0"),
        "tb::eval::no_participant",
        Some("m"),
    );
    // Data the event does not have: the error names the criterion.
    let d = expect(
        rank_with(
            "reads round imps\nmetric imp_total = sum(r.imps for r in rounds)",
            "imp_total desc as \"IMPs\"",
        ),
        "tb::eval::missing_data",
        Some("r.imps"),
    );
    assert!(d.message.contains("criterion `IMPs`"), "{}", d.message);
    assert!(d.message.contains("`imps`"), "{}", d.message);
    let d = expect(
        rank_with(
            "metric aro = mean(r.opponent.rating for r in rounds where r.played)",
            "aro desc as \"ARO\"",
        ),
        "tb::eval::missing_data",
        Some("r.opponent.rating"),
    );
    assert!(
        d.message.contains("criterion `ARO`") && d.message.contains("no ratings"),
        "{}",
        d.message
    );
    let d = expect(
        rank_with(
            "metric bc = sum(b.score for r in rounds for b in r.boards)",
            "bc asc as \"BC\"",
        ),
        "tb::eval::missing_data",
        Some("r.boards"),
    );
    assert!(
        d.message.contains("criterion `BC`") && d.message.contains("no boards"),
        "{}",
        d.message
    );
    expect(
        rank_with("reads event nothing", "event.nothing desc"),
        "tb::eval::missing_data",
        Some("event.nothing"),
    );
    // A library cannot rank.
    expect(
        rank(&chess(), &ruleset("metric m = 1\n")),
        "tb::eval::no_standings",
        None,
    );
    // Work and depth limits.
    expect(
        rank_with(
            "",
            "sum(1 for a in integers(1, 1000) for b in integers(1, 1000) for c in integers(1, 1000)) desc",
        ),
        "tb::eval::too_costly",
        Some("1"),
    );
    let mut chain = String::new();
    for i in 0..tb::eval::MAX_EVAL_DEPTH {
        chain.push_str(&format!("metric m{i} = m{} + 1\n", i + 1));
    }
    chain.push_str(&format!("metric m{} = 0", tb::eval::MAX_EVAL_DEPTH));
    let d = rank_with(&chain, "m0 desc").expect_err("too deep");
    let d = find(&d, "tb::eval::too_deep").expect("too_deep").clone();
    assert!(pointed(&d).is_some());
    // The metric API.
    let ev = chess();
    let rs = ruleset("metric f(x) = x\nmetric g = 1\n");
    expect(
        tb::eval::metric_value(&ev, &rs, "g", "zz"),
        "tb::eval::unknown_participant",
        None,
    );
    expect(
        tb::eval::metric_value(&ev, &rs, "nothing", "a"),
        "tb::eval::unknown_metric",
        None,
    );
    expect(
        tb::eval::metric_value(&ev, &rs, "f", "a"),
        "tb::eval::not_a_plain_metric",
        None,
    );
}

#[test]
fn too_many_steps_bounds_a_huge_tie_times_many_steps() {
    // 2,000 participants all on 0 and 13,000 steps: past MAX_MEMBER_STEPS.
    let mut ev = String::from("[event]\nrounds = 1\n");
    for i in 0..2000 {
        ev.push_str(&format!("[[participants]]\nid = \"p{i}\"\n"));
    }
    let ev = toml(&ev).expect("loads");
    let mut rs = String::from("procedure p {\n");
    for _ in 0..13_000 {
        rs.push_str(" step 1 desc when false\n");
    }
    rs.push_str("}\nstandings p\n");
    expect(rank(&ev, &ruleset(&rs)), "tb::eval::too_many_steps", None);
}

// ---------------------------------------------------------------------------
// tb::load (native TOML / JSON)
// ---------------------------------------------------------------------------

const TWO: &str = "[[participants]]\nid = \"a\"\n[[participants]]\nid = \"b\"\n";

#[test]
fn native_codes() {
    expect(toml("[event\n"), "tb::load::native::syntax", Some("\n"));
    expect(json("{\"event\": }"), "tb::load::native::syntax", Some("}"));
    expect(
        toml("[event]\nsport = \"golf\"\n"),
        "tb::load::native::syntax",
        Some("\"golf\""),
    );
    expect(
        toml("[event]\ncolour = 1\n"),
        "tb::load::native::unknown_field",
        Some("colour"),
    );
    expect(
        toml(&format!(
            "{TWO}[[rounds]]\ngames = [{{ home = \"a\", away = \"zed\", result = \"1-0\" }}]\n"
        )),
        "tb::load::native::unknown_participant",
        Some("\"zed\""),
    );
    expect(
        toml(&format!("{TWO}[[participants]]\nid = \"a\"\n")),
        "tb::load::native::duplicate_participant",
        Some("\"a\""),
    );
    expect(
        toml(&format!("{TWO}[[participants]]\nid = \"c\"\n[[rounds]]\ngames = [{{ home = \"a\", away = \"b\", result = \"1-0\" }}, {{ home = \"a\", away = \"c\", result = \"1-0\" }}]\n")),
        "tb::load::native::paired_twice",
        Some("\"a\""),
    );
    expect(
        toml(&format!(
            "{TWO}[[rounds]]\ngames = [{{ home = \"a\", away = \"a\", result = \"1-0\" }}]\n"
        )),
        "tb::load::native::paired_twice",
        Some("\"a\""),
    );
    // One game recorded differently from its two sides.
    let d = expect(
        toml(&format!("{TWO}[[rounds]]\ngames = [{{ home = \"a\", away = \"b\", result = \"1-0\" }}, {{ home = \"b\", away = \"a\", result = \"1-0\" }}]\n")),
        "tb::load::native::inconsistent_game",
        Some("{ home = \"b\", away = \"a\", result = \"1-0\" }"),
    );
    assert_eq!(d.labels.len(), 2);
    expect(
        toml(&format!("[event]\nrounds = 1\n{TWO}[[rounds]]\nround = 2\ngames = [{{ home = \"a\", away = \"b\", result = \"1-0\" }}]\n")),
        "tb::load::native::round_out_of_range",
        Some("2"),
    );
    expect(
        toml(&format!("{TWO}[[rounds]]\nround = 0\n")),
        "tb::load::native::round_out_of_range",
        Some("0"),
    );
    expect(
        toml(&format!(
            "{TWO}[[rounds]]\ngames = [{{ home = \"a\", away = \"b\", result = \"1-1\" }}]\n"
        )),
        "tb::load::native::bad_result",
        Some("\"1-1\""),
    );
    // Mixed sports: a card-game result in a chess file, and the reverse.
    expect(
        toml(&format!(
            "{TWO}[[rounds]]\ngames = [{{ home = \"a\", away = \"b\", result = \"2-1-0\" }}]\n"
        )),
        "tb::load::native::mixed_sports",
        Some("\"2-1-0\""),
    );
    expect(
        toml(&format!("[event]\nsport = \"cards\"\n{TWO}[[rounds]]\ngames = [{{ home = \"a\", away = \"b\", result = \"½-½\" }}]\n")),
        "tb::load::native::mixed_sports",
        Some("\"½-½\""),
    );
    expect(
        toml(&format!(
            "{TWO}[[rounds]]\ngames = [{{ home = \"a\", away = \"b\" }}]\n"
        )),
        "tb::load::native::no_result",
        Some("{ home = \"a\", away = \"b\" }"),
    );
    // Several problems: gathered under tb::load::native::invalid.
    let d = toml("[event]\ncolour = 1\nshade = 2\n").expect_err("two problems");
    assert_eq!(d.code, "tb::load::native::invalid");
    assert_eq!(d.related.len(), 2);
    // Sizes.
    expect(
        toml("[event]\nrounds = 100000\n"),
        "tb::load::too_large",
        Some("100000"),
    );
    expect(
        toml(&format!("{TWO}[[rounds]]\nround = 99999999\n")),
        "tb::load::too_large",
        Some("99999999"),
    );
    let d = expect(
        toml(&"#".repeat(tb::load::native::MAX_INPUT_BYTES + 1)),
        "tb::load::too_large",
        None,
    );
    assert!(d.labels.is_empty());
}

#[test]
fn native_warnings_name_participant_and_round() {
    // A recorded total that disagrees with the rounds.
    let ev = toml("[event]\nrounds = 1\n[[participants]]\nid = \"a\"\nscore = 5\n[[participants]]\nid = \"b\"\n[[rounds]]\ngames = [{ home = \"a\", away = \"b\", result = \"1-0\" }]\n").expect("loads");
    assert_eq!(ev.warnings.len(), 1, "{:?}", ev.warnings);
    assert!(ev.warnings[0].contains("`a`") && ev.warnings[0].contains('5'));
    // Points that rank the sides the other way round from the result.
    let ev = toml(&format!("{TWO}[[rounds]]\ngames = [{{ home = \"a\", away = \"b\", result = \"1-0\", points = [0, 1] }}]\n")).expect("loads");
    assert_eq!(ev.warnings.len(), 1, "{:?}", ev.warnings);
    let w = &ev.warnings[0];
    assert!(
        w.contains("round 1") && w.contains("`a`") && w.contains("`b`"),
        "{w}"
    );
    // Points in another unit that agree with the result: no warning.
    let ev = toml(&format!("[event]\nsport = \"bridge\"\n{TWO}[[rounds]]\ngames = [{{ home = \"a\", away = \"b\", result = \"1-0\", points = [17, 3] }}]\n")).expect("loads");
    assert!(ev.warnings.is_empty(), "{:?}", ev.warnings);
}

// ---------------------------------------------------------------------------
// tb::load::trf
// ---------------------------------------------------------------------------

#[test]
fn trf_codes() {
    let a = player(1, "1.0", &[("2", 'w', '1')]);
    let b = player(2, "0.0", &[("1", 'b', '0')]);
    trf(&format!("{a}\n{b}\n")).unwrap_or_else(|d| panic!("{}", d.plain()));

    expect(trf("012 nothing here\n"), "tb::load::trf::no_players", None);
    let bad_rating = a.replacen(" 2000 ", " 20x0 ", 1);
    expect(
        trf(&format!("{bad_rating}\n{b}\n")),
        "tb::load::trf::malformed",
        Some("20x0"),
    );
    let c = player(1, "0.0", &[]);
    expect(
        trf(&format!("{a}\n{b}\n{c}\n")),
        "tb::load::trf::duplicate_player",
        Some("   1"),
    );
    let to9 = player(1, "1.0", &[("9", 'w', '1')]);
    expect(
        trf(&format!("{to9}\n{b}\n")),
        "tb::load::trf::unknown_opponent",
        Some("   9"),
    );
    // The two sides of one game disagree.
    let b_wins_too = player(2, "1.0", &[("1", 'b', '1')]);
    let d = expect(
        trf(&format!("{a}\n{b_wins_too}\n")),
        "tb::load::trf::inconsistent_game",
        Some("1"),
    );
    assert_eq!(d.labels.len(), 2);
    expect(
        trf(&format!("{a}\n{b}\n240 F   1    7\n")),
        "tb::load::trf::unknown_player",
        Some("7"),
    );
    expect(
        trf(&format!("XXR 5000\n{a}\n{b}\n")),
        "tb::load::trf::malformed",
        Some("5000"),
    );
    let d = expect(
        trf(&format!("{}\n", "#".repeat(tb::load::trf::MAX_BYTES + 1))),
        "tb::load::trf::too_large",
        None,
    );
    assert!(d.labels.is_empty());
}

#[test]
fn trf_warnings_name_player() {
    // The points column says 3.0, the results add up to 1.
    let a = player(1, "3.0", &[("2", 'w', '1')]);
    let b = player(2, "0.0", &[("1", 'b', '0')]);
    let ev = trf(&format!("{a}\n{b}\n")).expect("loads");
    assert_eq!(ev.warnings.len(), 1, "{:?}", ev.warnings);
    assert!(ev.warnings[0].contains("player 1") && ev.warnings[0].contains("rounds 1-1"));
}

// ---------------------------------------------------------------------------
// tb::load (format detection), CSV, USEBIO
// ---------------------------------------------------------------------------

#[test]
fn load_codes() {
    expect(
        tb::load::load(&Source::new("results.dat", "nothing tb reads")),
        "tb::load::unknown_format",
        None,
    );
}

#[test]
fn csv_codes() {
    let csv = |t: &str| tb::load::csv::load_csv(&Source::new("m.csv", t));
    expect(csv("# only a comment\n"), "tb::load::csv::no_header", None);
    expect(
        csv("home,away,result\na,b,2-0-0\n"),
        "tb::load::csv::missing_column",
        Some("home,away,result"),
    );
    expect(
        csv("round,home,away,result\n1,\"a,b,2-0-0\n"),
        "tb::load::csv::malformed",
        Some("\""),
    );
}

#[test]
fn usebio_codes() {
    let x = |t: &str| tb::load::usebio::load_usebio(&Source::new("r.xml", t));
    let teams = |teams: &str, matches: &str| {
        format!("<USEBIO Version=\"1.2\"><EVENT EVENT_TYPE=\"SWISS_TEAMS\"><PARTICIPANTS>{teams}</PARTICIPANTS>{matches}</EVENT></USEBIO>")
    };
    let two = "<TEAM TEAM_ID=\"1\"/><TEAM TEAM_ID=\"2\"/>";
    let game = |a: &str, b: &str, sa: &str| {
        format!("<MATCH><ROUND_NUMBER>1</ROUND_NUMBER><TEAM>{a}</TEAM><OPPOSING_TEAM>{b}</OPPOSING_TEAM><TEAM_SCORE>{sa}</TEAM_SCORE><OPPOSING_TEAM_SCORE>8</OPPOSING_TEAM_SCORE></MATCH>")
    };
    x(&teams(two, &game("1", "2", "12"))).unwrap_or_else(|d| panic!("{}", d.plain()));
    expect(x("<USEBIO"), "tb::load::usebio::syntax", Some("<"));
    expect(
        x("<?xml version=\"1.0\"?><html/>"),
        "tb::load::usebio::not_usebio",
        Some("<html/>"),
    );
    expect(
        x("<USEBIO Version=\"1.2\"/>"),
        "tb::load::usebio::missing",
        Some("<USEBIO Version=\"1.2\"/>"),
    );
    expect(
        x(&teams("<PLAYER/>", "")),
        "tb::load::usebio::unsupported",
        None,
    );
    expect(
        x(&teams("<TEAM TEAM_ID=\"1\"/><TEAM TEAM_ID=\"1\"/>", "")),
        "tb::load::usebio::duplicate_participant",
        Some("<TEAM TEAM_ID=\"1\"/>"),
    );
    expect(
        x(&teams(two, &game("1", "9", "12"))),
        "tb::load::usebio::unknown_participant",
        None,
    );
    expect(
        x(&teams(two, &game("1", "2", "twelve"))),
        "tb::load::usebio::bad_number",
        None,
    );
    // Problems are gathered under tb::load::usebio::invalid.
    let d = x(&teams(
        two,
        &format!("{}{}", game("1", "9", "12"), game("1", "2", "x")),
    ))
    .expect_err("two problems");
    assert_eq!(d.code, "tb::load::usebio::invalid");
}

// ---------------------------------------------------------------------------
// tb::syntax::descriptors (`--tiebreaks` and TRF-26 records 202/212)
// ---------------------------------------------------------------------------

#[test]
fn descriptor_codes() {
    let p = |t: &str| {
        tb::check::check_list(
            Source::new("--tiebreaks", t),
            "fide/codes",
            None,
            &tb::shipped::Shipped,
            &[],
        )
    };
    p("BH/C1,SB,DE").unwrap_or_else(|d| panic!("{}", d.plain()));
    expect(p(""), "tb::descriptors::empty", None);
    expect(p("BH,,SB"), "tb::descriptors::empty", Some(""));
    expect(p("BH,XYZ"), "tb::descriptors::unknown_code", Some("XYZ"));
    expect(p("BH-C1"), "tb::descriptors::unknown_code", Some("BH-C1"));
    expect(p("BH,BC"), "tb::descriptors::unknown_code", Some("BC"));
    expect(p("BH:MP"), "tb::descriptors::team_code", Some(":MP"));
    expect(p("BH/Q"), "tb::descriptors::unknown_modifier", Some("Q"));
    expect(
        p("DE/C1"),
        "tb::descriptors::invalid_combination",
        Some("C1"),
    );
    expect(
        p("BH/C1/C1"),
        "tb::descriptors::invalid_combination",
        Some("C1"),
    );
    expect(p("BH/C0"), "tb::descriptors::bad_value", Some("C0"));
}
