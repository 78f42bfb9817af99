//! `tb test`: the ruleset tests shipped under `rulesets/` pass, every
//! shipped ruleset has one, an edited expectation fails visibly (exit 4,
//! the difference printed), and a broken test file is a diagnostic with its
//! code, never a test that passes by testing nothing.

use crate::common::tb;
use std::path::{Path, PathBuf};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh folder under the system's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tb-ruleset-tests-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn shipped_ruleset_tests_pass() {
    let out = tb(&["test", "rulesets/"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains(" passed, 0 failed\n"), "{stdout}");
    assert!(!stdout.contains("FAIL"), "{stdout}");
}

/// Every shipped ruleset is named by a test file beside it (`../NAME.tb`
/// from its folder's `tests/`).
#[test]
fn every_shipped_ruleset_has_a_test() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    let mut missing = Vec::new();
    for (name, ..) in tb::shipped::list() {
        let (folder, leaf) = name.rsplit_once('/').unwrap();
        let tests = root.join(folder).join("tests");
        let named = std::fs::read_dir(&tests)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| {
                let t = std::fs::read_to_string(e.path()).unwrap_or_default();
                t.contains(&format!("ruleset = \"../{leaf}.tb\""))
                    || t.contains(&format!("ruleset = \"{name}\""))
            });
        if !named {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "shipped rulesets without a test: {missing:?}"
    );
}

#[test]
fn edited_rank_fails_with_exit_4() {
    let dir = scratch("edited");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    copy_dir(&root, &dir);
    let file = dir.join("cards/tests/swiss.test.toml");
    let t = std::fs::read_to_string(&file).unwrap();
    let edited = t.replacen("A = { rank = 1,", "A = { rank = 2,", 1);
    assert_ne!(t, edited, "the cards test no longer expects A first");
    std::fs::write(&file, edited).unwrap();
    let out = tb(&["test", dir.to_str().unwrap()]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(4), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("  FAIL  Tiebreakers: Step 1 separates equal match points\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("A (A): expected rank 2, computed 1\n"),
        "{stdout}"
    );
    assert!(stdout.contains(" compared, 1 differ\n"), "{stdout}");
    assert!(stdout.contains(" passed, 1 failed\n"), "{stdout}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A small valid test file (an inline event: B beats A), with `edit`
/// applied: its `tb test --diagnostics plain` exit code, stdout and stderr.
fn broken(name: &str, edit: impl Fn(&str) -> String) -> (Option<i32>, String, String) {
    let good = r#"ruleset = "cards/swiss"

[[case]]
name = "one match"
[case.event]
event = { sport = "cards", rounds = 1 }
participants = [{ id = "a", name = "Alice" }, { id = "b", name = "Bob" }]
rounds = [{ round = 1, games = [{ home = "a", away = "b", result = "0-2-0" }] }]
[case.expect]
Bob = { rank = 1, values = { MP = 3 } }
a = 2
"#;
    let dir = scratch(name);
    let file = dir.join("case.test.toml");
    std::fs::write(&file, edit(good)).unwrap();
    let out = tb(&["test", "--diagnostics", "plain", file.to_str().unwrap()]);
    let _ = std::fs::remove_dir_all(&dir);
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn test_file_errors() {
    let (code, stdout, _) = broken("good", |t| t.to_string());
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("ok    one match (3 compared)"), "{stdout}");

    // (what is changed, the code, a text of the diagnostic)
    let cases: [(&str, &str, &str, &str); 9] = [
        (
            "[case.expect]",
            "[case.expekt]",
            "tb::test::unknown_key",
            "did you mean `expect`?",
        ),
        (
            "Bob = {",
            "Bobb = {",
            "tb::test::unknown_participant",
            "did you mean `Bob`?",
        ),
        (
            "{ MP = 3 }",
            "{ PM = 3 }",
            "tb::test::unknown_value",
            "the steps are: MP, OMW%, GW%, OGW%",
        ),
        (
            "ruleset = \"cards/swiss\"",
            "ruleset = \"cards/swis\"",
            "tb::test::missing_file",
            "did you mean `cards/swiss`?",
        ),
        (
            "ruleset = \"cards/swiss\"",
            "ruleset = \"cards/swiss.tb\"",
            "tb::test::missing_file",
            "did you mean the shipped ruleset `cards/swiss`",
        ),
        (
            "[case.expect]\nBob = { rank = 1, values = { MP = 3 } }\na = 2\n",
            "",
            "tb::test::no_expectation",
            "`one match` expects nothing",
        ),
        (
            "a = 2",
            "a = \"second\"",
            "tb::test::invalid",
            "`a` must be a rank",
        ),
        (
            "[case.expect]",
            "[case.expect",
            "tb::test::syntax",
            "TOML syntax error",
        ),
        (
            "participants = [",
            "participant = [",
            "tb::load::native::unknown_field",
            "case.test.toml:7:1",
        ),
    ];
    for (from, to, want, says) in cases {
        let (code, stdout, stderr) = broken("err", |t| {
            assert!(t.contains(from), "{from}");
            t.replacen(from, to, 1)
        });
        assert_eq!(code, Some(3), "{to}: {stdout}{stderr}");
        assert!(stderr.contains(&format!("error[{want}]")), "{to}: {stderr}");
        assert!(stderr.contains(says), "{to}: {stderr}");
        assert!(stdout.contains("ERROR"), "{to}: {stdout}");
    }

    // A missing event file points at its name in the test file.
    let (code, _, stderr) = broken("event", |t| {
        let start = t.find("[case.event]").unwrap();
        let end = t.find("[case.expect]").unwrap();
        format!("{}event = \"events/nope.toml\"\n{}", &t[..start], &t[end..])
    });
    assert_eq!(code, Some(3));
    assert!(
        stderr.contains("error[tb::test::missing_file]: "),
        "{stderr}"
    );
    assert!(
        stderr.contains("case.test.toml:5:9: no event file"),
        "{stderr}"
    );

    // Paths with no tests, and two broken files at once.
    let out = tb(&["test", "--diagnostics", "plain", "no/such/folder"]);
    assert_eq!(out.status.code(), Some(3));
    assert!(text(&out.stderr).contains("error[tb::test::no_tests]"));
    let dir = scratch("two");
    std::fs::write(dir.join("a.test.toml"), "[[case]]\nname = 1\n").unwrap();
    std::fs::write(dir.join("b.test.toml"), "title = \"x\"\n").unwrap();
    let out = tb(&["test", "--diagnostics", "plain", dir.to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.starts_with("error[tb::test::errors]: 2 test cases or files could not be run"),
        "{stderr}"
    );
    assert!(stderr.contains("error[tb::test::invalid]"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
