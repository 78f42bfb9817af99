//! Hostile and broken input (issue 6): every committed fuzz seed and
//! regression input replayed through the fuzz harnesses on stable, and one
//! test per limit or crash found — no panic, no stack overflow, no hang, and
//! a diagnostic with a code (and a span where there is one).

use crate::harness;

use harness::Verdict;
use std::time::{Duration, Instant};
use tb::diag::{Diag, Source};
use tb::model::Event;
use tb::plan::Ruleset;

/// Generous: a debug build on a loaded 2-core CI machine. Release runs take
/// a small fraction of this.
const FAST: Duration = Duration::from_secs(10);
/// For inputs that must run into the evaluation budget
/// (`tb::eval::EVAL_WORK_BASE`, about a second in a debug build): they
/// must end with an error, and not slowly.
const BUDGET: Duration = Duration::from_secs(40);

fn check_text(text: &str) -> Result<Ruleset, Diag> {
    tb::check::check(Source::new("hostile.tb", text), &tb::shipped::Shipped, &[])
}

/// The ruleset must be rejected with `code`; returns the diagnostic that has it.
fn rejected(text: &str, code: &str) -> Diag {
    let t = Instant::now();
    let r = check_text(text);
    assert!(t.elapsed() < FAST, "checking took {:?}", t.elapsed());
    let d = match r {
        Ok(_) => panic!("expected {code}, but the ruleset checked"),
        Err(d) => d,
    };
    harness::check_diag(&d);
    let found = std::iter::once(&d)
        .chain(d.related.iter())
        .find(|x| x.code == code)
        .cloned();
    found.unwrap_or_else(|| panic!("expected {code}, got:\n{}", d.plain()))
}

fn small_event() -> Event {
    let text = harness::event_toml(b"\x00\x0a\x05some bytes for the pairings of a small swiss");
    tb::load::native::load_toml(&Source::new("small.toml", text)).expect("small event loads")
}

/// Rank with `rs`; must finish fast, and fail (if it fails) with `code`.
fn rank_fails_with(ev: &Event, rs: &Ruleset, code: &str) -> Diag {
    let t = Instant::now();
    let r = tb::rank::rank(ev, rs, &tb::rank::Options::default());
    assert!(t.elapsed() < BUDGET, "ranking took {:?}", t.elapsed());
    match r {
        Ok(_) => panic!("expected {code}, but ranking succeeded"),
        Err(d) => {
            harness::check_diag(&d);
            assert_eq!(d.code, code, "{}", d.plain());
            d
        }
    }
}

fn replay(dir: &str, f: fn(&[u8]) -> Verdict) -> usize {
    let root = format!("{}/fuzz/{dir}", env!("CARGO_MANIFEST_DIR"));
    let Ok(entries) = std::fs::read_dir(&root) else {
        return 0;
    };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    let mut n = 0;
    for p in paths.iter().filter(|p| p.is_file()) {
        let data = std::fs::read(p).unwrap_or_default();
        let t = Instant::now();
        let _ = f(&data);
        assert!(t.elapsed() < FAST, "{} took {:?}", p.display(), t.elapsed());
        n += 1;
    }
    n
}

// ---------------------------------------------------------------------------
// Seeds and regressions found by fuzzing, replayed on stable
// ---------------------------------------------------------------------------

#[test]
fn replay_ruleset_seeds_and_regressions() {
    let n = replay("seeds/ruleset", harness::fuzz_ruleset)
        + replay("regressions/ruleset", harness::fuzz_ruleset);
    assert!(n > 0);
}

#[test]
fn replay_trf_seeds_and_regressions() {
    let n = replay("seeds/trf", harness::fuzz_trf) + replay("regressions/trf", harness::fuzz_trf);
    assert!(n > 0);
}

#[test]
fn replay_native_toml_seeds_and_regressions() {
    let n = replay("seeds/native_toml", harness::fuzz_toml)
        + replay("regressions/native_toml", harness::fuzz_toml);
    assert!(n > 0);
}

#[test]
fn replay_native_json_seeds_and_regressions() {
    let n = replay("seeds/native_json", harness::fuzz_json)
        + replay("regressions/native_json", harness::fuzz_json);
    assert!(n > 0);
}

#[test]
fn replay_usebio_seeds_and_regressions() {
    let n = replay("seeds/usebio", harness::fuzz_usebio)
        + replay("regressions/usebio", harness::fuzz_usebio);
    assert!(n > 0);
}

#[test]
fn replay_csv_seeds_and_regressions() {
    let n = replay("seeds/csv", harness::fuzz_csv) + replay("regressions/csv", harness::fuzz_csv);
    assert!(n > 0);
}

#[test]
fn replay_descriptor_seeds_and_regressions() {
    let n = replay("seeds/descriptors", harness::fuzz_descriptors)
        + replay("regressions/descriptors", harness::fuzz_descriptors);
    assert!(n > 0);
}

#[test]
fn replay_eval_seeds_and_regressions() {
    let n =
        replay("seeds/eval", harness::fuzz_eval) + replay("regressions/eval", harness::fuzz_eval);
    assert!(n > 0);
}

#[test]
fn seeds_are_accepted_where_they_should_be() {
    let root = format!("{}/fuzz/seeds", env!("CARGO_MANIFEST_DIR"));
    for f in ["cards-swiss.toml", "chess-swiss.toml"] {
        let data = std::fs::read(format!("{root}/native_toml/{f}")).expect("seed");
        assert_eq!(harness::fuzz_toml(&data), Verdict::Accepted, "{f}");
    }
    let data = std::fs::read(format!("{root}/native_json/chess-swiss.json")).expect("seed");
    assert_eq!(harness::fuzz_json(&data), Verdict::Accepted);
    let data = std::fs::read(format!("{root}/trf/uzchesscup_rr.trf")).expect("seed");
    assert_eq!(harness::fuzz_trf(&data), Verdict::Accepted);
    let data = std::fs::read(format!("{root}/ruleset/features.tb")).expect("seed");
    assert_eq!(harness::fuzz_ruleset(&data), Verdict::Accepted);
    let data = std::fs::read(format!("{root}/ruleset/imports.tb")).expect("seed");
    assert_eq!(
        harness::fuzz_ruleset(&data),
        Verdict::Rejected("tb::check::import_cycle")
    );
}

// ---------------------------------------------------------------------------
// Ruleset nesting: the parser, checker and evaluator recurse on it
// ---------------------------------------------------------------------------

#[test]
fn deep_brackets_are_refused() {
    let text = format!("metric m = {}1{}\n", "(".repeat(5000), ")".repeat(5000));
    let d = rejected(&text, "tb::parse::too_deep");
    assert!(d.location().is_some());
}

#[test]
fn long_operator_chain_is_refused_not_overflowed() {
    let text = format!("metric m = 1{}\n", " + 1".repeat(60_000));
    rejected(&text, "tb::parse::too_deep");
}

#[test]
fn long_prefix_chain_is_refused() {
    let text = format!("metric m = {}1\n", "- ".repeat(100_000));
    rejected(&text, "tb::parse::too_deep");
    let text = format!("metric m = {}true\n", "not ".repeat(100_000));
    rejected(&text, "tb::parse::too_deep");
}

#[test]
fn long_else_if_chain_is_refused() {
    let text = format!(
        "metric m = {}0\n",
        "if score > 1 then 1 else ".repeat(30_000)
    );
    rejected(&text, "tb::parse::too_deep");
}

#[test]
fn long_field_chain_is_refused() {
    let text = format!("metric m = me{}\n", ".score".repeat(50_000));
    rejected(&text, "tb::parse::too_deep");
}

#[test]
fn many_loops_in_one_generator_are_refused() {
    let text = format!("metric m = sum(1{} )\n", " for r in rounds".repeat(5_000));
    rejected(&text, "tb::parse::too_deep");
}

#[test]
fn reasonable_nesting_still_checks() {
    // 30 brackets, a 100-term sum, an else-if chain of 10, 4 loops.
    let text = format!(
        "metric a = {}1{}\nmetric b = 1{}\nmetric c = {}0\nmetric d = sum(1 for x in rounds for y in rounds for z in rounds for w in rounds)\n",
        "(".repeat(30),
        ")".repeat(30),
        " + 1".repeat(99),
        "if score > 1 then 1 else ".repeat(10)
    );
    check_text(&text).unwrap_or_else(|d| panic!("{}", d.plain()));
}

#[test]
fn deep_chain_of_metrics_does_not_overflow_the_stack() {
    // Each metric uses the next: evaluation nests once per metric.
    let mut text = String::new();
    for i in 0..3000 {
        text.push_str(&format!(
            "metric m{i} = (m{} + 1) * 1 + sum(0 for r in rounds)\n",
            i + 1
        ));
    }
    text.push_str("metric m3000 = score\nprocedure p { step m0 desc }\nstandings p\n");
    // A deep chain may be refused at check time or at evaluation time, with
    // a clear error; it must never overflow the stack.
    match check_text(&text) {
        Err(d) => harness::check_diag(&d),
        Ok(rs) => {
            let ev = small_event();
            let r = std::thread::Builder::new()
                .stack_size(2 << 20) // the default for test threads
                .spawn(move || tb::rank::rank(&ev, &rs, &tb::rank::Options::default()).map(|_| ()))
                .expect("thread")
                .join()
                .expect("no panic");
            if let Err(d) = r {
                harness::check_diag(&d);
                assert_eq!(d.code, "tb::eval::too_deep");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Work limits: nothing loops for long
// ---------------------------------------------------------------------------

#[test]
fn nested_loops_that_multiply_are_stopped() {
    let rs = check_text(&format!(
        "metric m = sum(1 {})\nprocedure p {{ step m desc }}\nstandings p\n",
        "for a in event.participants ".repeat(8)
    ))
    .expect("checks");
    let d = rank_fails_with(&small_event(), &rs, "tb::eval::too_costly");
    assert!(d.location().is_some());
}

#[test]
fn exponential_metrics_with_arguments_are_stopped() {
    let mut text = String::new();
    for i in 0..60 {
        text.push_str(&format!(
            "metric f{i}(x) = f{}(x) + f{}(x + 1)\n",
            i + 1,
            i + 1
        ));
    }
    text.push_str("metric f60(x) = x\nprocedure p { step f0(1) desc }\nstandings p\n");
    let rs = check_text(&text).expect("checks");
    rank_fails_with(&small_event(), &rs, "tb::eval::too_costly");
}

#[test]
fn big_cuts_are_cheap() {
    let rs = check_text(
        "metric m = sum(cut_lowest([1 for a in event.participants for b in event.participants for r in rounds], 1000000))\nprocedure p { step m desc }\nstandings p\n",
    )
    .expect("checks");
    let t = Instant::now();
    let _ = tb::rank::rank(&small_event(), &rs, &tb::rank::Options::default());
    assert!(t.elapsed() < FAST);
}

#[test]
fn many_unknown_names_are_reported_quickly() {
    let mut text = String::new();
    for i in 0..5000 {
        text.push_str(&format!("metric d{i} = u{i} + v{i}\n"));
    }
    let d = rejected(&text, "tb::check::unknown_metric");
    assert!(d.location().is_some());
}

// ---------------------------------------------------------------------------
// Number magnitude
// ---------------------------------------------------------------------------

#[test]
fn huge_numbers_in_a_ruleset_are_errors() {
    let d = rejected(
        "metric m = 123456789012345678901234567890123456789012345\n",
        "tb::parse::bad_number",
    );
    assert!(d.location().is_some());
    // Literals past 64 bits: a 20-digit whole number, 20 decimal places.
    rejected("metric m = 99999999999999999999\n", "tb::parse::bad_number");
    rejected(
        "metric m = 0.00000000000000000001\n",
        "tb::parse::bad_number",
    );
    // Arithmetic past what 64-bit fractions hold: an error, not a wrap.
    let rs = check_text(
        "metric m = 9999999999 * 9999999999 * 9999999999\nprocedure p { step m desc }\nstandings p\n",
    )
    .expect("checks");
    rank_fails_with(&small_event(), &rs, "tb::eval::overflow");
}

#[test]
fn extreme_fractions_in_data_do_not_panic() {
    for v in [
        "\"-170141183460469231731687303715884105728/3\"",
        "\"-170141183460469231731687303715884105728/1\"",
        "\"170141183460469231731687303715884105727/2\"",
        "\"1/-170141183460469231731687303715884105728\"",
        "\"-170141183460469231731687303715884105728/-1\"",
        "\"-9223372036854775808/3\"",
        "\"9223372036854775807/2\"",
        "-9223372036854775808",
        "9223372036854775807",
        "9223372036854775808",
        "1e18",
        "1e19",
        "1e-19",
        "1e38",
        "-1e38",
        "1e-38",
        "99999999999999999999999999999999999999999",
    ] {
        let text = format!(
            "{{\"event\": {{\"rounds\": 1}}, \"participants\": [{{\"id\": \"a\", \"score\": {v}}}, {{\"id\": \"b\"}}], \"rounds\": [{{\"games\": [{{\"home\": \"a\", \"away\": \"b\", \"points\": [{v}, 0]}}]}}]}}"
        );
        let _ = harness::fuzz_json(text.as_bytes());
    }
}

#[test]
fn num_never_panics_at_the_edges() {
    use tb::num::Num;
    let edge = [
        "-170141183460469231731687303715884105728/3",
        "-170141183460469231731687303715884105728/1",
        "170141183460469231731687303715884105727/1",
        "170141183460469231731687303715884105727/170141183460469231731687303715884105726",
        "1/170141183460469231731687303715884105727",
        "-1/170141183460469231731687303715884105727",
        // The edges of the 64-bit range a `Num` holds.
        "-9223372036854775808/3",
        "-9223372036854775808",
        "9223372036854775807",
        "9223372036854775807/9223372036854775806",
        "1/9223372036854775807",
        "-1/9223372036854775807",
        "-9223372036854775807/2",
        "0",
        "1",
        "-1",
        "2/3",
    ];
    let nums: Vec<Num> = edge.iter().filter_map(|s| Num::parse(s)).collect();
    assert_eq!(
        nums.len(),
        11,
        "the 64-bit edges parse, the 128-bit ones do not"
    );
    for &a in &nums {
        let _ = a.neg();
        let _ = a.to_string();
        let _ = a.to_fixed(12);
        for p in 0..=12 {
            for how in [
                tb::num::Rounding::HalfUp,
                tb::num::Rounding::Down,
                tb::num::Rounding::Floor,
                tb::num::Rounding::Ceil,
            ] {
                let _ = a.round(p, how);
            }
        }
        for &b in &nums {
            let _ = a.add(b);
            let _ = a.sub(b);
            let _ = a.mul(b);
            let _ = a.div(b);
            let _ = a.cmp(&b);
        }
    }
}

// ---------------------------------------------------------------------------
// Data sizes
// ---------------------------------------------------------------------------

#[test]
fn many_rounds_and_participants_load_fast_or_are_refused() {
    // 500 participants and 10,000 scheduled rounds: 5,000,000 participant-rounds.
    let mut text = String::from("[event]\nrounds = 10000\n");
    for i in 0..500 {
        text.push_str(&format!("[[participants]]\nid = \"p{i}\"\n"));
    }
    let t = Instant::now();
    let r = tb::load::native::load_toml(&Source::new("big.toml", text));
    assert!(t.elapsed() < FAST * 4, "took {:?}", t.elapsed());
    if let Err(d) = r {
        harness::check_diag(&d);
    }
}

#[test]
fn absurd_round_numbers_are_refused() {
    let text = "[event]\nrounds = 4000000000\n[[participants]]\nid = \"a\"\n";
    let d = tb::load::native::load_toml(&Source::new("r.toml", text)).expect_err("refused");
    harness::check_diag(&d);
    assert_eq!(d.code, "tb::load::too_large");
    let text = "[[participants]]\nid = \"a\"\n[[participants]]\nid = \"b\"\n[[rounds]]\nround = 99999999\ngames = [{ home = \"a\", away = \"b\", result = \"1-0\" }]\n";
    let d = tb::load::native::load_toml(&Source::new("r.toml", text)).expect_err("refused");
    assert_eq!(d.code, "tb::load::too_large");
    let text = "012 x\nXXR 4000000000\n001    1      A                                                                    0.0    1\n";
    let d = tb::load::trf::load_trf(&Source::new("r.trf", text)).expect_err("refused");
    harness::check_diag(&d);
}

#[test]
fn oversized_ruleset_is_refused() {
    let text = format!("// {}\n", "x".repeat(tb::syntax::parse::MAX_FILE_BYTES));
    rejected(&text, "tb::parse::too_large");
}

// ---------------------------------------------------------------------------
// Order independence corner: ids that compare equal as numbers
// ---------------------------------------------------------------------------

#[test]
fn ids_equal_as_numbers_do_not_make_order_matter() {
    let a = "[event]\nrounds = 1\n[[participants]]\nid = \"01\"\n[[participants]]\nid = \"1\"\n[[rounds]]\ngames = [{ home = \"01\", away = \"1\", result = \"1/2-1/2\" }]\n";
    let b = "[event]\nrounds = 1\n[[participants]]\nid = \"1\"\n[[participants]]\nid = \"01\"\n[[rounds]]\ngames = [{ home = \"01\", away = \"1\", result = \"1/2-1/2\" }]\n";
    let rs = tb::check::check(
        crate::files::load_root("us-chess/swiss").expect("shipped"),
        &tb::shipped::Shipped,
        &[],
    )
    .expect("checks");
    let ea = tb::load::native::load_toml(&Source::new("a.toml", a)).expect("loads");
    let eb = tb::load::native::load_toml(&Source::new("b.toml", b)).expect("loads");
    assert_eq!(harness::rank_twice(&ea, &rs), harness::rank_twice(&eb, &rs));
}

// ---------------------------------------------------------------------------
// Crashes found by fuzzing (inputs in fuzz/regressions/, replayed above)
// ---------------------------------------------------------------------------

/// fuzz/regressions/ruleset/syntax_error_span_cuts_a_character.tb: a syntax
/// error at a multi-byte character gave a one-byte span inside it, which
/// rendering then sliced.
#[test]
fn syntax_error_at_a_multibyte_character() {
    for text in ["step x desc\u{FFFD}", "metric m = 1 \u{00E9}", "\u{1F600}"] {
        let d = check_text(text).expect_err("a syntax error");
        harness::check_diag(&d);
        let (span, _) = d.labels.first().expect("a span").clone();
        assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
        assert!(span.end > span.start);
    }
}

/// Found by `tests/hostile_props.rs`: a malformed CSV cell followed by a
/// multi-byte character gave a one-byte span inside it
/// (fuzz/regressions/csv/).
#[test]
fn csv_error_at_a_multibyte_character() {
    for text in [
        "round,home,away,result\n1,\"a\u{e9}\"\u{e9},b,2-0-0\n",
        "round,home,away\n1,\"\u{e9}",
        "round,home,away\n1,\"x\"\u{1F600}\n",
    ] {
        let d = tb::load::csv::load_csv(&Source::new("m.csv", text)).expect_err("malformed");
        harness::check_diag(&d);
    }
}

// ---------------------------------------------------------------------------
// Deeply nested data: the parsers must refuse it, not overflow
// ---------------------------------------------------------------------------

#[test]
fn deeply_nested_data_is_refused_or_read() {
    let n = 50_000;
    let cases = [
        (
            "deep.toml",
            format!("x = {}1{}\n", "[".repeat(n), "]".repeat(n)),
        ),
        (
            "deep.toml",
            format!("x = {}1{}\n", "{ a = ".repeat(n), " }".repeat(n)),
        ),
        ("deep.json", format!("{}1{}", "[".repeat(n), "]".repeat(n))),
        (
            "deep.json",
            format!("{}1{}", "{\"a\": ".repeat(n), "}".repeat(n)),
        ),
        (
            "deep.xml",
            format!("<USEBIO>{}{}</USEBIO>", "<E>".repeat(n), "</E>".repeat(n)),
        ),
        (
            "deep.csv",
            format!("round,home,away,result\n1,{}\n", "\"".repeat(n)),
        ),
    ];
    for (name, text) in cases {
        let t = Instant::now();
        let _ = harness::fuzz_any(name, text.as_bytes());
        assert!(t.elapsed() < FAST, "{name} took {:?}", t.elapsed());
    }
}

/// A device that never ends (or a file that grows) is read only up to the
/// limit: `tb check /dev/zero`, `import "/dev/zero"`.
#[test]
fn endless_files_are_read_only_up_to_the_limit() {
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    let t = Instant::now();
    let d = crate::files::load_root("/dev/zero").expect_err("too large");
    assert_eq!(d.code, "tb::check::io");
    assert!(d.message.contains("larger than"), "{}", d.message);
    let dir = std::env::temp_dir().join(format!("tb-hostile-zero-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let root = dir.join("root.tb");
    std::fs::write(&root, "import \"/dev/zero\"\n").expect("write");
    let src = crate::files::load_root(&root.display().to_string()).expect("root");
    let d =
        tb::check::check(src, &crate::files::DiskResolver::default(), &[]).expect_err("refused");
    harness::check_diag(&d);
    // An absolute path is refused before anything is opened (issue #36).
    assert_eq!(d.code, "tb::check::path_outside");
    assert!(t.elapsed() < FAST);
}

/// Found by fuzzing (fuzz/regressions/usebio/long_start_tag_cut_in_a_character.xml):
/// a USEBIO diagnostic's span is cut to 200 bytes, which fell inside a
/// multi-byte character.
#[test]
fn usebio_span_cut_on_a_character_boundary() {
    let text = format!(
        "<USEBIO Version=\"1.2\"><CLUB><CLUB_NAME a=\"{}\">x</CLUB_NAME></CLUB></USEBIO>",
        "\u{e9}".repeat(150)
    );
    let d = tb::load::usebio::load_usebio(&Source::new("r.xml", text)).expect_err("no EVENT");
    harness::check_diag(&d);
    assert_eq!(
        harness::fuzz_usebio(
            &std::fs::read(format!(
                "{}/fuzz/regressions/usebio/long_start_tag_cut_in_a_character.xml",
                env!("CARGO_MANIFEST_DIR")
            ))
            .expect("regression file")
        ),
        Verdict::Rejected("tb::load::usebio::missing")
    );
}

// ---------------------------------------------------------------------------
// Issue 36: resource bounds, through the binary
// ---------------------------------------------------------------------------

/// Address space given to the binary in the tests below: what the inputs
/// once took (gigabytes) is refused by the kernel, so a regression fails
/// the test instead of slowing the machine down.
const CAP_BYTES: u64 = 2 << 30;

/// Run the release or debug `tb` with `args` (in a fresh folder), standard
/// input from `stdin`, its address space capped at [`CAP_BYTES`] where
/// `prlimit` exists; must end within `FAST`. Returns exit code, stdout and
/// stderr.
fn tb_capped(args: &[&str], stdin: std::process::Stdio) -> (i32, String, String) {
    use std::process::Command;
    let exe = env!("CARGO_BIN_EXE_tb");
    let capped = Command::new("prlimit").arg("--version").output().is_ok();
    let mut cmd = if capped {
        let mut c = Command::new("prlimit");
        c.arg(format!("--as={CAP_BYTES}")).arg("--").arg(exe);
        c
    } else {
        Command::new(exe)
    };
    let t = Instant::now();
    let out = cmd
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .stdin(stdin)
        .output()
        .expect("run tb");
    assert!(t.elapsed() < FAST, "tb {args:?} took {:?}", t.elapsed());
    let text = |b: &[u8]| String::from_utf8_lossy(b).to_string();
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

/// A file for one test, in a folder of its own.
fn hostile_file(name: &str, bytes: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("tb-hostile-36-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write");
    p.display().to_string()
}

/// Every diagnostic style, for a run that must fail with `code`: exit 3,
/// the code on standard error, and standard error no longer than `max`.
fn refused_in_every_style(args: &[&str], code: &str, max: usize) -> String {
    let mut plain = String::new();
    for style in ["plain", "fancy", "json"] {
        let mut all = vec!["--diagnostics", style];
        all.extend_from_slice(args);
        let (status, _, err) = tb_capped(&all, std::process::Stdio::null());
        assert_eq!(status, 3, "{style}: {}", &err[..err.len().min(2000)]);
        assert!(
            err.contains(code),
            "{style}: {}",
            &err[..err.len().min(2000)]
        );
        assert!(err.len() <= max, "{style}: {} bytes on stderr", err.len());
        if style == "plain" {
            plain = err;
        }
    }
    plain
}

/// A 1 MB USEBIO file whose one entity is used 100,000 times once took 8 s
/// and 1.9 GB (a larger one aborted the process): a DTD of the file's own
/// is refused before the XML is read.
#[test]
fn usebio_entities_are_refused_by_the_binary() {
    let text = format!(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE USEBIO [<!ENTITY a \"{}\">]>\n<USEBIO Version=\"1.2\"><EVENT><EVENT_DESCRIPTION>{}</EVENT_DESCRIPTION></EVENT></USEBIO>\n",
        "a".repeat(600_000),
        "&a;".repeat(100_000)
    );
    let path = hostile_file("entities.xml", text.as_bytes());
    let err = refused_in_every_style(
        &["eval", "wbf/pairs", &path],
        "tb::load::usebio::dtd",
        4_000,
    );
    assert!(err.contains(":2:1:"), "{err}");
}

/// An element with 100,000 attributes once took 15 s (the XML reader's
/// duplicate check is quadratic): refused past 100.
#[test]
fn usebio_crowded_element_is_refused_by_the_binary() {
    let attrs: String = (0..100_000).map(|k| format!(" a{k}=\"\"")).collect();
    let text = format!("<USEBIO Version=\"1.2\"><EVENT{attrs}/></USEBIO>");
    let path = hostile_file("attributes.xml", text.as_bytes());
    refused_in_every_style(
        &["eval", "wbf/pairs", &path],
        "tb::load::usebio::attributes",
        4_000,
    );
}

/// `BH/C1/C1/...` in a 120 KB `--tiebreaks` once needed gigabytes and
/// gave 12 MB of errors, each quoting the whole item: each quote is cut at
/// 200 characters.
#[test]
fn repeated_modifiers_in_a_tiebreak_list_are_quoted_short() {
    let list = format!("PTS,BH{}", "/C1".repeat(40_000));
    let args = ["eval", "--tiebreaks", &list, "examples/chess-swiss.toml"];
    let err = refused_in_every_style(&args, "tb::descriptors::invalid_combination", 200_000);
    let first = err.lines().nth(1).expect("a second line");
    assert!(
        first.contains("C1/C1…`: `/C1` repeats"),
        "{}",
        &first[..first.len().min(400)]
    );
}

/// The same in a ruleset (300 KB here, to stay fast in a debug build; 900 KB
/// once took 23 GB): `standings codes "BH/C1/C1/..."`.
#[test]
fn repeated_modifiers_in_a_ruleset_list_are_quoted_short() {
    let text = format!(
        "import \"fide/codes\"\nstandings codes \"PTS,BH{}\"\n",
        "/C1".repeat(100_000)
    );
    let path = hostile_file("codes.tb", text.as_bytes());
    refused_in_every_style(
        &["eval", &path, "examples/chess-swiss.toml"],
        "tb::descriptors::invalid_combination",
        200_000,
    );
}

/// A 5 MB cell of a CSV match list: the diagnostic quotes it cut short in
/// every style (a 45 MB line once gave 47 MB on standard error), and the
/// fancy rendering leaves out the excerpt of so long a line.
#[test]
fn a_long_bad_csv_cell_gives_a_short_diagnostic() {
    let text = format!(
        "player,round,opponent,result\na,1,b,{}\n",
        "x".repeat(5_000_000)
    );
    let path = hostile_file("long.csv", text.as_bytes());
    refused_in_every_style(&["eval", "fide/swiss", &path], "tb::load::", 8_000);
}

/// `--write-trf` read the whole data path before any size check
/// (`/dev/zero` grew without bound); now the data is read once, never past
/// the 200 MB limit, from a path and from standard input alike.
#[test]
fn data_is_read_once_and_never_past_the_limit() {
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    let out = hostile_file("out.trf", b"");
    let (status, _, err) = tb_capped(
        &[
            "--diagnostics",
            "plain",
            "eval",
            "fide/swiss",
            "/dev/zero",
            "--write-trf",
            &out,
        ],
        std::process::Stdio::null(),
    );
    assert_eq!(status, 2, "{err}");
    assert!(err.contains("tb::cli::write_trf"), "{err}");
    // Named as a TRF file, it is one to copy: too large.
    #[cfg(unix)]
    {
        let named =
            std::path::PathBuf::from(hostile_file("zero.trf", b"")).with_file_name("zero-link.trf");
        let _ = std::fs::remove_file(&named);
        std::os::unix::fs::symlink("/dev/zero", &named).expect("symlink");
        let named = named.display().to_string();
        let (status, _, err) = tb_capped(
            &[
                "--diagnostics",
                "plain",
                "eval",
                "fide/swiss",
                &named,
                "--write-trf",
                &out,
            ],
            std::process::Stdio::null(),
        );
        assert_eq!(status, 3, "{err}");
        assert!(err.contains("tb::load::too_large"), "{err}");
    }
    let zero = std::fs::File::open("/dev/zero").expect("/dev/zero");
    let (status, _, err) = tb_capped(
        &["--diagnostics", "plain", "eval", "fide/swiss", "-"],
        zero.into(),
    );
    assert_eq!(status, 3, "{err}");
    assert!(err.contains("tb::load::too_large"), "{err}");
}

/// An event whose title and names carry a terminal's escape sequences,
/// formula-like text, raw HTML, a bare CR and a line break.
const EVIL_EVENT: &str = r#"[event]
name = "Open\u001b]0;pwned\u0007 <b>bold</b> & co"
sport = "chess"
rounds = 1

[[participants]]
id = "a"
name = "=cmd|' /C calc'!A0"

[[participants]]
id = "b"
name = "Bob\r\nline|pipe\u001b[2J"

[[participants]]
id = "c"
name = "@Carol"

[[rounds]]
games = [ { home = "a", away = "b", result = "1/2-1/2" } ]
byes = [ { id = "c" } ]
"#;

/// No control character but newline and tab reaches a terminal: not from
/// a name or an event title (table, explain, verify), not from a ruleset's
/// label (check --verbose, diagnostics plain and fancy).
#[test]
fn escape_sequences_never_reach_the_terminal() {
    let event = hostile_file("evil.toml", EVIL_EVENT.as_bytes());
    let raw = |s: &str| s.chars().any(|c| c.is_control() && c != '\n' && c != '\t');
    for args in [
        vec!["eval", "fide/swiss", &event],
        vec!["eval", "fide/swiss", &event, "--format", "html"],
        vec!["explain", "fide/swiss", &event],
    ] {
        let (status, out, err) = tb_capped(&args, std::process::Stdio::null());
        assert_eq!(status, 0, "{args:?}: {err}");
        assert!(!raw(&out) && !raw(&err), "{args:?}: {out:?}");
    }
    let (_, out, _) = tb_capped(&["eval", "fide/swiss", &event], std::process::Stdio::null());
    assert!(out.contains("Open␛]0;pwned␇"), "{out}");
    assert!(out.contains("Bob␍\nline|pipe␛[2J"), "{out}");
    let ruleset = hostile_file(
        "evil.tb",
        b"title \"T\x1b]0;x\x07\"\nmetric neg = score - 1\nprocedure p { step neg desc as \"S\x1b[2J\" }\nstandings p\n",
    );
    let (status, out, err) = tb_capped(
        &["check", "--verbose", &ruleset],
        std::process::Stdio::null(),
    );
    assert_eq!(status, 0, "{err}");
    assert!(out.contains("S␛[2J") && !raw(&out), "{out:?}");
    let broken = hostile_file(
        "broken.tb",
        b"title \"T\x1b]0;x\x07\"\nmetric m = nope\x1b[2J\n",
    );
    for style in ["plain", "fancy"] {
        let (status, _, err) = tb_capped(
            &["--diagnostics", style, "check", &broken],
            std::process::Stdio::null(),
        );
        assert_eq!(status, 3, "{err}");
        assert!(err.contains('␛') && !raw(&err), "{style}: {err:?}");
    }
}

/// CSV: formula-like names get a `'`, a bare CR is quoted, numbers (`-0.5`
/// in a column) are left as they are; Markdown: no raw HTML, `|` escaped,
/// a line break in a name does not split the row.
#[test]
fn csv_and_markdown_output_are_safe() {
    let event = hostile_file("evil-csv.toml", EVIL_EVENT.as_bytes());
    let (status, csv, err) = tb_capped(
        &["eval", "fide/swiss", &event, "--format", "csv"],
        std::process::Stdio::null(),
    );
    assert_eq!(status, 0, "{err}");
    assert!(csv.contains(",a,'=cmd|' /C calc'!A0,"), "{csv}");
    assert!(csv.contains(",c,'@Carol,"), "{csv}");
    assert!(csv.contains(",b,\"Bob\r\nline|pipe␛[2J\","), "{csv:?}");
    let mut reader = csv::ReaderBuilder::new().from_reader(csv.as_bytes());
    assert_eq!(reader.records().count(), 3, "one record per participant");
    let (status, md, err) = tb_capped(
        &["eval", "fide/swiss", &event, "--format", "markdown"],
        std::process::Stdio::null(),
    );
    assert_eq!(status, 0, "{err}");
    assert!(
        md.starts_with("## Open␛]0;pwned␇ &lt;b&gt;bold&lt;/b&gt; &amp; co — "),
        "{md}"
    );
    assert!(md.contains("| Bob␍ line\\|pipe␛[2J (b) |"), "{md}");
    assert!(!md.contains('<') && !md.contains('\r'), "{md}");
    // A negative value is a number, not a formula; a label is text.
    let ruleset = hostile_file(
        "negative.tb",
        b"metric neg = score - 1\nprocedure p { step neg desc as \"-neg\" }\nstandings p\n",
    );
    let (status, csv, err) = tb_capped(
        &["eval", &ruleset, &event, "--format", "csv"],
        std::process::Stdio::null(),
    );
    assert_eq!(status, 0, "{err}");
    assert!(csv.starts_with("rank,id,name,'-neg,decided_by\n"), "{csv}");
    assert!(csv.contains("'=cmd|' /C calc'!A0,-0.5,"), "{csv}");
}
