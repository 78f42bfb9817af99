//! Syntax errors after the first: the parser recovers and reports every
//! one of a file, each at its own line and column, and nothing for text
//! that only follows a mistake (`src/syntax/parse/recover.rs`).

use tb::diag::Source;

/// The line, column and message of each syntax error in `text`.
fn errors(text: &str) -> Vec<(usize, usize, String)> {
    let src = Source::new("r.tb", text);
    let all = tb::syntax::parse::parse_each(&src).expect_err("a syntax error");
    all.iter()
        .map(|d| {
            assert_eq!(d.code, "tb::parse::syntax", "{}", d.plain());
            let (_, l, c) = d.location().expect("a place");
            (l, c, d.message.clone())
        })
        .collect()
}

fn places(text: &str) -> Vec<(usize, usize)> {
    errors(text).into_iter().map(|(l, c, _)| (l, c)).collect()
}

#[test]
fn three_errors_in_three_places_are_all_reported() {
    let text = "\
metric share = score / event.rounds
metric winner = if score = 3 then 1 else 0

procedure main {
  step share desc
  step winner dsc
  otherwise shared
}

param k 0.5
standings main
";
    let e = errors(text);
    assert_eq!(
        e.iter().map(|(l, c, _)| (*l, *c)).collect::<Vec<_>>(),
        [(2, 26), (6, 15), (10, 9)],
        "{e:?}"
    );
    assert!(e[0].2.contains("write `==`"), "{}", e[0].2);
    assert!(e[1].2.contains("did you mean `desc`?"), "{}", e[1].2);
    assert!(e[2].2.contains("expected `=`"), "{}", e[2].2);
    // The same through `parse`: one diagnostic gathering the three.
    let d = tb::syntax::parse::parse(&Source::new("r.tb", text)).unwrap_err();
    assert_eq!(d.related.len(), 3, "{}", d.plain());
}

#[test]
fn one_mistake_gives_one_error() {
    // A missing `}`: the next procedure parses, nothing else is reported.
    let text =
        "procedure p {\n  step score desc\nprocedure q {\n  step rating desc\n}\nstandings p\n";
    assert_eq!(places(text), [(1, 13)]);
    // A string over two lines: not a second error where it ends.
    assert_eq!(places("title \"Club\nrules\"\nstandings p\n"), [(1, 7)]);
    // A bad step: the steps after it still count, and their errors too.
    let text = "procedure p {\n  step score -\n  step rating desc\n  step x dsc\n}\n";
    assert_eq!(places(text), [(2, 14), (4, 10)]);
}

#[test]
fn an_unfinished_line_is_reported_after_its_last_word() {
    let text =
        "metric a = score +\nmetric b = 2 * // note\nprocedure p {\n  step\n  step a desc\n}\n";
    assert_eq!(places(text), [(1, 18), (2, 14), (4, 3)]);
    // At the end of the file too.
    assert_eq!(places("metric a =\n\n"), [(1, 10)]);
}

#[test]
fn misspelt_keywords_get_a_did_you_mean() {
    for (text, word) in [
        ("metrc m = 1\n", "metric"),
        (
            "procedure p {\n  step 1 desc\n  otherwize shared\n}\n",
            "otherwise",
        ),
        ("procedure p {\n  step 1 asec\n}\n", "asc"),
        (
            "procedure p {\n  step 1 desc\n  otherwise share\n}\n",
            "shared",
        ),
    ] {
        let e = errors(text);
        assert!(
            e[0].2.contains(&format!("did you mean `{word}`?")),
            "{text:?}: {e:?}"
        );
    }
    // Not a keyword two letters and a first letter away.
    let e = errors("procedure p {\n  step 1 desc select first\n}\n");
    assert!(!e[0].2.contains("did you mean"), "{e:?}");
}

/// Recovery starts again at lines with a word in their first column: in
/// every shipped ruleset, each such line starts an item, so the text cut
/// there parses piece by piece.
#[test]
fn shipped_rulesets_start_every_item_in_the_first_column() {
    let mut names = tb::shipped::libraries();
    names.extend(tb::shipped::list().into_iter().map(|(n, _, _)| n));
    assert!(names.len() > 10, "{names:?}");
    for name in names {
        let text = tb::shipped::get(name).unwrap();
        let mut starts: Vec<usize> = vec![0];
        let mut off = 0;
        for line in text.split_inclusive('\n') {
            if off > 0 && line.starts_with(|c: char| c.is_ascii_alphabetic()) {
                starts.push(off);
            }
            off += line.len();
        }
        starts.push(text.len());
        for w in starts.windows(2) {
            let piece = &text[w[0]..w[1]];
            if let Err(d) = tb::syntax::parse::parse(&Source::new(name, piece)) {
                panic!(
                    "{name}: the piece from byte {} does not parse alone:\n{}",
                    w[0],
                    d.plain()
                );
            }
        }
    }
}
