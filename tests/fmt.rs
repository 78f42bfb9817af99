//! `tb fmt`: golden layouts of small rulesets with comments in awkward
//! places; the shipped rulesets are formatted (what CI enforces); and the
//! property that formatting never changes a ruleset: for every shipped
//! ruleset and versions of it with its blanks scrambled, the formatted text
//! is the same, formats to itself again, parses to the same tree, and ranks
//! every shipped example the same. The command line: `--check`'s report and
//! exit code, rewriting in place, standard input, and the user's slips.

use proptest::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use tb::check::Resolve;
use tb::diag::Source;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fmt(text: &str) -> String {
    tb::format::format(&Source::new("t.tb", text)).unwrap_or_else(|d| panic!("{}", d.plain()))
}

// ---------------------------------------------------------------------------
// Golden layouts
// ---------------------------------------------------------------------------

/// Each input, and the text `tb fmt` makes of it.
const GOLDEN: &[(&str, &str, &str)] = &[
    (
        "comments at the end of lines, inside a procedure, between steps, before `}`",
        "// About the club.\n\
         title  \"Club\"  // its name\n\
         import \"fide/lib\"\n\
         \n\
         /// The club's order.\n\
         procedure club cite \"7\" {\n\
         // first the score\n\
         step score desc   // points\n\
         \x20   // then Buchholz\n\
         \x20 step buchholz\n\
         \x20      cite \"7.2\"\n\
         \t// nothing else\n\
         }\n\
         standings club // the only one\n",
        "// About the club.\n\
         title \"Club\"   // its name\n\
         import \"fide/lib\"\n\
         \n\
         /// The club's order.\n\
         procedure club cite \"7\" {\n\
         \x20   // first the score\n\
         \x20   step score desc   // points\n\
         \x20   // then Buchholz\n\
         \x20   step buchholz\n\
         \x20       cite \"7.2\"\n\
         \x20   // nothing else\n\
         }\n\
         standings club        // the only one\n",
    ),
    (
        "`///` before items, blank lines, CRLF, tabs, no final line break",
        "\n\n/// A parameter.\r\n///   Two lines.\r\nparam  x=-1\t\r\n\r\n\r\n\r\n/// The editions.\n\
         editions x \"E\" {2024,2026 from \"2026-03-01\"}\n\
         /// Half of minus x.\nmetric half_x = 1/2 * - x*(100 / 3)",
        "/// A parameter.\n///   Two lines.\nparam x = -1\n\n/// The editions.\n\
         editions x \"E\" { 2024, 2026 from \"2026-03-01\" }\n\
         /// Half of minus x.\nmetric half_x = 1/2 * -x * (100/3)\n",
    ),
    (
        "an `if` in block form, brackets across lines, an operator starting a line",
        "metric m(a) =\n\
         if a > 0 then\n\
         sum(x.points\n\
         for x in rounds // each\n\
         where x.played)\n\
         + 1\n\
         else if a < 0 then -1\n\
         else\n\
         0 // none\n\
         cite \"1\"\n",
        "metric m(a) =\n\
         \x20   if a > 0 then\n\
         \x20       sum(x.points\n\
         \x20           for x in rounds   // each\n\
         \x20           where x.played)\n\
         \x20       + 1\n\
         \x20   else if a < 0 then -1\n\
         \x20   else\n\
         \x20       0                     // none\n\
         \x20   cite \"1\"\n",
    ),
    (
        "a code with a procedure of its own, step options on later lines, a list of codes",
        "code \"X\" takes \"R\" {\nstep f(a: 1,b: 2)\nthen restart\n\
         procedure own{\n  then repeat\nstep g\n  remaining   codes\n}\n}\n\
         codes \"T\"\nsource \"S\" otherwise lots\n\
         modifier \"R\" reversed\n",
        "code \"X\" takes \"R\" {\n    step f(a: 1, b: 2)\n        then restart\n\
         \x20   procedure own {\n        then repeat\n        step g\n        remaining codes\n    }\n}\n\
         codes \"T\"\n    source \"S\" otherwise lots\n\
         modifier \"R\" reversed\n",
    ),
];

#[test]
fn golden_layouts() {
    for (what, input, expected) in GOLDEN {
        let out = fmt(input);
        assert_eq!(out, *expected, "{what}:\n{out}");
        assert_eq!(fmt(&out), out, "{what}: formatting again changes it");
    }
}

#[test]
fn an_empty_file_stays_empty() {
    assert_eq!(fmt(""), "");
    assert_eq!(fmt("\n\n  \n"), "");
    assert_eq!(fmt("  // only a comment  \n\n"), "// only a comment\n");
}

#[test]
fn a_file_that_does_not_parse_is_refused() {
    let d =
        tb::format::format(&Source::new("t.tb", "metric x = (1\n")).expect_err("does not parse");
    assert_eq!(d.code, tb::codes::PARSE_SYNTAX);
}

/// A layout that changes the ruleset is refused (`tb::fmt::unstable`):
/// whatever the formatter produced is checked before anything is written.
#[test]
fn unsafe_output_is_refused() {
    let src = Source::new("t.tb", "metric x = 1 - 2\n/// doc\nmetric y = 1\n");
    tb::format::verify(&src, "metric x = 1 - 2\n/// doc\nmetric y = 1\n").expect("same text");
    let bad = [
        "metric x = 1 -- 2\n/// doc\nmetric y = 1\n",
        "metric x = 1 - 2\n/// doc\n\nmetric y = 1\n",
        "metric x = 1 - 2\n/// doc\n  metric y = 1\n",
        "metric x = 1 - 2 /// doc\nmetric y = 1\n",
    ];
    for b in bad {
        let d = tb::format::verify(&src, b).expect_err(b);
        assert_eq!(d.code, tb::codes::FMT_UNSTABLE, "{b}: {}", d.plain());
    }
}

// ---------------------------------------------------------------------------
// The shipped rulesets
// ---------------------------------------------------------------------------

/// Every `.tb` file under `rulesets/`, by shipped name (`fide/lib`).
fn shipped_files() -> BTreeMap<String, String> {
    fn walk(dir: &Path, base: &Path, out: &mut BTreeMap<String, String>) {
        for e in std::fs::read_dir(dir).expect("rulesets/") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                walk(&p, base, out);
            } else if p.extension().is_some_and(|x| x == "tb") {
                let name = p
                    .strip_prefix(base)
                    .expect("under rulesets/")
                    .with_extension("");
                let text = std::fs::read_to_string(&p).expect("read");
                out.insert(name.to_string_lossy().replace('\\', "/"), text);
            }
        }
    }
    let mut out = BTreeMap::new();
    let base = root().join("rulesets");
    walk(&base, &base, &mut out);
    assert!(out.len() > 20, "the shipped rulesets: {}", out.len());
    out
}

/// Resolves imports among a set of texts (relative to the importing file's
/// folder first, as the shipped resolver does), and tables' data files
/// among the shipped ones.
struct Texts<'a>(&'a BTreeMap<String, String>);

impl Resolve for Texts<'_> {
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String> {
        let dir = from.name.rsplit_once('/').map_or("", |(d, _)| d);
        for n in [format!("{dir}/{name}"), name.to_string()] {
            if let Some(t) = self.0.get(&n) {
                return Ok(Source::new(n, t.clone()));
            }
            if let Some(s) = tb::shipped::data(&n) {
                return Ok(s);
            }
        }
        Err(format!("no file `{name}`"))
    }
}

/// The text with its blanks scrambled, line structure kept: random
/// indentation, spaces or tabs between tokens where a blank may go (and
/// none where it may not), trailing blanks, more blank lines where there
/// was one, `\r\n` for some line ends, no final line break.
fn scramble(text: &str, seed: u64) -> String {
    let mut state = seed;
    let mut next = move |n: u64| {
        // SplitMix64.
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    };
    let blanks = |k: u64| -> String {
        (0..k)
            .map(|i| if i % 3 == 2 { '\t' } else { ' ' })
            .collect()
    };
    let tokens = tb::format::lex::lex(text);
    let mut out = String::new();
    let mut prev: Option<&tb::format::lex::Token> = None;
    for t in &tokens {
        if t.newlines > 0 {
            out.push_str(&blanks(next(3)));
            for i in 0..t.newlines {
                if next(4) == 0 {
                    out.push('\r');
                }
                out.push('\n');
                if i > 0 && next(2) == 0 {
                    out.push_str(&blanks(next(3)));
                    out.push('\n');
                }
            }
            out.push_str(&blanks(next(14)));
        } else if let Some(p) = prev {
            // Two words, numbers or a `/` next to a `/` must stay apart.
            let joinable = |k: tb::format::lex::Kind| {
                matches!(
                    k,
                    tb::format::lex::Kind::Word | tb::format::lex::Kind::Number
                )
            };
            let must = (joinable(p.kind) && joinable(t.kind))
                || (p.text == "/" && t.text == "/")
                || t.kind == tb::format::lex::Kind::Comment
                || (p.kind == tb::format::lex::Kind::Op && t.kind == tb::format::lex::Kind::Op);
            out.push_str(&blanks(next(3) + u64::from(must)));
        }
        out.push_str(t.text);
        prev = Some(t);
    }
    out
}

/// What every shipped example ranks to with the given texts of the
/// rulesets: for each shipped ruleset for the example's sport, its table.
fn standings(texts: &BTreeMap<String, String>) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut examples: Vec<PathBuf> = std::fs::read_dir(root().join("examples"))
        .expect("examples/")
        .map(|e| e.expect("entry").path())
        .collect();
    examples.sort();
    for ex in examples {
        let text = std::fs::read_to_string(&ex).expect("example");
        let Ok(event) = tb::load::load_with(&Source::new(ex.display().to_string(), text), 1) else {
            continue;
        };
        for (name, ..) in tb::shipped::list() {
            let src = Source::new(name, texts[name].clone());
            let rs = tb::check::check(src, &Texts(texts), &[])
                .unwrap_or_else(|d| panic!("{name}: {}", d.plain()));
            if tb::check::sport_mismatch(&rs, &event).is_some() {
                continue;
            }
            let mut event = event.clone();
            if tb::check::inputs::check_event(&mut event, &rs).is_err() {
                continue;
            }
            let Ok(st) = tb::rank::rank(&event, &rs, &tb::rank::Options::default()) else {
                continue;
            };
            let meta = tb::render::Meta {
                ruleset: name.to_string(),
                notes: Vec::new(),
            };
            let table = tb::render::render(&st, &event, &rs, &meta, tb::render::Format::Json);
            out.push((format!("{name} on {}", ex.display()), table));
        }
    }
    out
}

/// Done when (issue #18): `tb fmt --check rulesets/` passes.
#[test]
fn shipped_rulesets_are_formatted() {
    let out = crate::common::tb(&["fmt", "--check", "rulesets/"]);
    assert!(
        out.status.success(),
        "run `tb fmt rulesets/`:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
}

/// The README's rulesets are in the layout it documents.
#[test]
fn readme_examples_are_formatted() {
    for b in crate::cli::blocks("tb") {
        assert_eq!(fmt(&b), b, "a README example is not formatted");
    }
}

#[test]
fn formatting_never_changes_what_a_ruleset_computes() {
    let shipped = shipped_files();
    let before = standings(&shipped);
    assert!(
        before.len() >= 20,
        "rulesets ranked on examples: {}",
        before.len()
    );
    for seed in 0..3 {
        let formatted: BTreeMap<String, String> = shipped
            .iter()
            .map(|(name, text)| {
                (
                    name.clone(),
                    fmt(&scramble(text, seed * 1000 + name.len() as u64)),
                )
            })
            .collect();
        for (name, text) in &formatted {
            assert_eq!(
                *text,
                fmt(&shipped[name]),
                "{name}: scrambled (seed {seed}) formats differently"
            );
        }
        assert_eq!(standings(&formatted), before, "seed {seed}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Any scrambling of a shipped ruleset's blanks parses to the same
    /// tree, formats to the same text as the ruleset, and that text formats
    /// to itself and parses to the same tree.
    #[test]
    fn scrambled_blanks_format_back(seed in any::<u64>(), pick in any::<prop::sample::Index>()) {
        let shipped = shipped_files();
        let (name, text) = shipped.iter().nth(pick.index(shipped.len())).expect("some file");
        let tree = tb::format::tree_text(&Source::new(name.clone(), text.clone())).expect("parses");
        let scrambled = scramble(text, seed);
        let src = Source::new(name.clone(), scrambled.clone());
        prop_assert_eq!(&tb::format::tree_text(&src).expect("scrambled parses"), &tree);
        let out = tb::format::format(&src).map_err(|d| TestCaseError::fail(d.plain()))?;
        prop_assert_eq!(&out, &fmt(text));
        prop_assert_eq!(&fmt(&out), &out);
        prop_assert_eq!(&tb::format::tree_text(&Source::new(name.clone(), out)).expect("parses"), &tree);
    }
}

// ---------------------------------------------------------------------------
// The command line
// ---------------------------------------------------------------------------

fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("fmt")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(d.join("sub")).expect("scratch folder");
    d
}

fn run(args: &[&str], dir: &Path) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tb"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run tb");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn check_reports_rewrite_lists_and_nothing_is_left() {
    let d = scratch("check");
    let messy = "metric x =\n  1+2\n";
    std::fs::write(d.join("sub/messy.tb"), messy).expect("write");
    std::fs::write(d.join("tidy.tb"), "metric y = 1\n").expect("write");
    std::fs::write(d.join("notes.txt"), "not a ruleset {").expect("write");

    let (code, out, err) = run(&["fmt", "--check", "."], &d);
    assert_eq!(code, 4, "{out}{err}");
    assert_eq!(
        out,
        "./sub/messy.tb:2: not formatted\n  expected: `    1 + 2`\n  found:    `  1+2`\n\
         not formatted: 1 of 2 files (`tb fmt PATH` rewrites them)\n"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("sub/messy.tb")).expect("read"),
        messy
    );

    let (code, out, err) = run(&["fmt", "."], &d);
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (0, "./sub/messy.tb\n", "")
    );
    assert_eq!(
        std::fs::read_to_string(d.join("sub/messy.tb")).expect("read"),
        "metric x =\n    1 + 2\n"
    );
    assert_eq!(
        run(&["fmt", "--check", "."], &d),
        (0, String::new(), String::new())
    );
    assert_eq!(
        run(&["fmt", "tidy.tb"], &d),
        (0, String::new(), String::new())
    );
}

#[test]
fn a_file_that_does_not_parse_is_reported_and_the_others_formatted() {
    let d = scratch("broken");
    std::fs::write(d.join("a.tb"), "metric x = (1\n").expect("write");
    std::fs::write(d.join("b.tb"), "metric  y = 1\n").expect("write");
    let (code, out, err) = run(&["--diagnostics", "plain", "fmt", "a.tb", "b.tb"], &d);
    assert_eq!(code, 3, "{out}{err}");
    assert_eq!(out, "b.tb\n");
    assert!(
        err.contains("tb::parse::syntax") && err.contains("a.tb:1:12"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("a.tb")).expect("read"),
        "metric x = (1\n"
    );
    assert_eq!(
        std::fs::read_to_string(d.join("b.tb")).expect("read"),
        "metric y = 1\n"
    );
}

#[test]
fn slips_on_the_command_line() {
    let d = scratch("slips");
    std::fs::write(d.join("club.tb"), "metric y = 1\n").expect("write");
    let (code, _, err) = run(&["--diagnostics", "plain", "fmt", "club"], &d);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("club: no such file or folder") && err.contains("did you mean `club.tb`?"),
        "{err}"
    );
    let (code, _, err) = run(&["--diagnostics", "plain", "fmt", "-", "club.tb"], &d);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = run(&["fmt"], &d);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn standard_input_to_standard_output() {
    use std::io::Write as _;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tb"))
        .args(["fmt", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run tb");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"param  x=1 // one")
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "param x = 1   // one\n"
    );
}

/// A named pipe given to `tb fmt` is there but is not a file it can
/// rewrite: said so, not "no such file" (and nothing waits on the pipe).
#[cfg(unix)]
#[test]
fn a_named_pipe_is_not_a_file_to_rewrite() {
    let d = scratch("fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(d.join("pipe.tb"))
        .status()
        .expect("mkfifo");
    assert!(made.success());
    let (code, _, err) = run(&["--diagnostics", "plain", "fmt", "pipe.tb"], &d);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("pipe.tb: not a regular file or a folder"),
        "{err}"
    );
}
