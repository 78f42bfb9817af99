//! The native JSON loader's one-pass reader against its tree path: whatever
//! the one-pass reader accepts, the tree path accepts too and builds into the
//! same event; everything else is left to the tree path, so `load_json`
//! gives the tree path's diagnostics. Checked on generated events, on every
//! native example and fixture (TOML ones turned into JSON), on the fuzz
//! inputs, and on thousands of mutations of them.

use tb::diag::Source;
use tb::load::native::{load_json, load_json_fast, load_json_tree, load_toml};
use tb::model::Event;

/// The property for one text. Returns whether the one-pass reader took it.
fn agree(name: &str, text: &str) -> bool {
    let src = Source::new(name, text.to_string());
    // Small inputs are shown in full when the paths disagree.
    let text = if text.len() < 4000 { text } else { "(large)" };
    let fast = load_json_fast(&src);
    let tree = load_json_tree(&src);
    let took = match (&fast, &tree) {
        (Some(f), Ok(t)) => {
            assert!(
                f == t,
                "{name}: the two paths build different events\n{text}"
            );
            true
        }
        (Some(_), Err(d)) => panic!(
            "{name}: the one-pass reader accepts what the tree path rejects:\n{}\n{text}",
            d.plain()
        ),
        (None, _) => false,
    };
    // What users get: the tree path's event or its very diagnostic.
    match (load_json(&src), tree) {
        (Ok(a), Ok(b)) => assert!(a == b, "{name}: load_json differs from the tree path"),
        (Err(a), Err(b)) => assert_eq!(a.plain(), b.plain(), "{name}"),
        _ => panic!("{name}: load_json and the tree path disagree on success"),
    }
    took
}

fn generated() -> Vec<(String, tb_gen::Swiss)> {
    let mut out = Vec::new();
    for (players, rounds, seed) in [(200, 7, 1), (51, 9, 2), (1000, 11, 3), (7, 3, 4)] {
        out.push((
            format!("chess {players}x{rounds}"),
            tb_gen::chess_swiss(players, rounds, seed),
        ));
        out.push((
            format!("cards {players}x{rounds}"),
            tb_gen::cards_swiss(players, rounds, seed),
        ));
        out.push((
            format!("bridge {players}x{rounds}"),
            tb_gen::bridge_swiss_teams(players, rounds, seed),
        ));
    }
    out
}

#[test]
fn generated_events_take_the_one_pass_reader() {
    for (name, g) in generated() {
        let json = g.to_json();
        assert!(agree(&name, &json), "{name}: left to the tree path");
        // And the TOML rendering of the same event loads to the same event.
        let from_toml = load_toml(&Source::new("gen.toml", g.to_toml()))
            .unwrap_or_else(|d| panic!("{name}: {}", d.plain()));
        let from_json = load_json_fast(&Source::new("gen.json", json)).expect("fast");
        assert!(from_toml == from_json, "{name}: TOML and JSON differ");
    }
}

/// Every file under `dir` (recursively) whose name ends in `ext`.
pub(crate) fn files(dir: &str, ext: &str, out: &mut Vec<std::path::PathBuf>) {
    let root = format!("{}/{dir}", env!("CARGO_MANIFEST_DIR"));
    let Ok(entries) = std::fs::read_dir(&root) else {
        return;
    };
    let mut paths: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        let rel = p
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .map(|r| r.to_string_lossy().trim_start_matches('/').to_string())
            .unwrap_or_default();
        if p.is_dir() {
            files(&rel, ext, out);
        } else if ext.is_empty() || p.extension().is_some_and(|e| e == ext) {
            out.push(p);
        }
    }
}

/// A native TOML file as JSON, when it converts (dates, for one, do not).
fn toml_as_json(text: &str) -> Option<String> {
    let v: toml::Value = toml::from_str(text).ok()?;
    serde_json::to_string_pretty(&v).ok()
}

/// Every native example and fixture, JSON as it is and TOML as JSON.
fn native_texts() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for dir in ["examples", "tests", "fuzz/seeds", "fuzz/regressions"] {
        let mut paths = Vec::new();
        files(dir, "json", &mut paths);
        files(dir, "toml", &mut paths);
        for p in paths {
            let Ok(text) = std::fs::read_to_string(&p) else {
                continue;
            };
            let name = p.display().to_string();
            if name.ends_with(".toml") {
                if let Some(json) = toml_as_json(&text) {
                    out.push((name, json));
                }
            } else {
                out.push((name, text));
            }
        }
    }
    out
}

#[test]
fn every_native_example_agrees() {
    let texts = native_texts();
    let mut took = Vec::new();
    for (name, text) in &texts {
        if agree(name, text) {
            took.push(name.clone());
        }
    }
    // The common shapes must not fall back: chess and cards Swiss, bridge
    // teams scored in IMPs and VPs.
    for must in [
        "examples/chess-swiss.json",
        "examples/chess-swiss.toml",
        "examples/cards-swiss.toml",
        "examples/bridge-swiss-teams.toml",
        "examples/bridge-round-robin.toml",
    ] {
        assert!(
            took.iter().any(|t| t.ends_with(must)),
            "{must} was left to the tree path; taken: {took:?}"
        );
    }
    // A TOML example read as JSON is the same event as read as TOML.
    for name in took.iter().filter(|n| n.ends_with(".toml")) {
        let toml_text = std::fs::read_to_string(name).expect("read");
        let json = toml_as_json(&toml_text).expect("converts");
        let a = load_toml(&Source::new("x.toml", toml_text)).expect("loads");
        let b = load_json(&Source::new("x.json", json)).expect("loads");
        assert!(a == b, "{name}: TOML and JSON differ");
    }
}

#[test]
fn fuzz_inputs_agree() {
    // The committed seeds and, where a fuzzing run left one, the corpus.
    let mut paths = Vec::new();
    for dir in [
        "fuzz/seeds/native_json",
        "fuzz/regressions/native_json",
        "fuzz/corpus/native_json",
        "fuzz/artifacts/native_json",
    ] {
        files(dir, "", &mut paths);
    }
    for p in paths {
        let data = std::fs::read(&p).unwrap_or_default();
        agree(&p.display().to_string(), &String::from_utf8_lossy(&data));
    }
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n.max(1)
    }
}

/// JSON split into tokens: strings, numbers and words, punctuation, white
/// space; joining them gives the text back.
fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let mut end = i + c.len_utf8();
        if c == '"' {
            let mut escaped = false;
            for (j, d) in chars.by_ref() {
                end = j + d.len_utf8();
                if d == '"' && !escaped {
                    break;
                }
                escaped = d == '\\' && !escaped;
            }
        } else if c.is_alphanumeric() || c == '-' || c == '.' {
            while let Some(&(j, d)) = chars.peek() {
                if !(d.is_alphanumeric() || matches!(d, '-' | '.' | '+')) {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
        }
        out.push(text[i..end].to_string());
    }
    out
}

/// Numbers worth trying in place of a number: every way of writing one, some
/// that tb cannot hold, some that are not JSON.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "15",
    "-1",
    "-0",
    "0.5",
    "2.0",
    "2.50",
    "1e1",
    "1E-1",
    "1e+0",
    "3.",
    "01",
    "\"3\"",
    "\"0.5\"",
    "\"2/3\"",
    "\"1/0\"",
    "\"x\"",
    "null",
    "true",
    "99999999999999999999999999999",
    "1e39",
    "4294967296",
    "[1,2]",
    "10001",
];

/// Strings (and other values) worth trying in place of a string: every shape
/// of result, near misses of the schema's words and keys, escapes.
const STRINGS: &[&str] = &[
    "\"1-0\"",
    "\"0-1\"",
    "\"1/2-1/2\"",
    "\"½-½\"",
    "\"=\"",
    "\"0-0\"",
    "\"+-\"",
    "\"-+\"",
    "\"--\"",
    "\"2-1-0\"",
    "\"2-1\"",
    "\"0-2-1\"",
    "\"1 - 0\"",
    "\"x\"",
    "\"\"",
    "\"  \"",
    "\"1\"",
    "\"2\"",
    "\"\\u0031\"",
    "\"a\\\"b\"",
    "\"\\x\"",
    "\"home\"",
    "\"away\"",
    "\"result\"",
    "\"points\"",
    "\"weight\"",
    "\"imps\"",
    "\"vp\"",
    "\"id\"",
    "\"type\"",
    "\"half\"",
    "\"zero\"",
    "\"full\"",
    "\"absent\"",
    "\"pairing\"",
    "\"round\"",
    "\"session\"",
    "\"games\"",
    "\"byes\"",
    "\"rounds\"",
    "\"event\"",
    "\"participants\"",
    "\"decisions\"",
    "\"order\"",
    "\"reason\"",
    "\"sport\"",
    "\"cards\"",
    "\"bridge\"",
    "\"chess\"",
    "\"primary\"",
    "\"score\"",
    "\"rank\"",
    "\"withdrawn_after\"",
    "\"members\"",
    "\"sessions\"",
    "\"values\"",
    "\"rating\"",
    "\"boards\"",
    "\"home_partner\"",
    "\"scoring\"",
    "\"win\"",
    "\"draw\"",
    "\"loss\"",
    "\"games_won\"",
    "\"tiebreaks\"",
    "\"kind\"",
    "\"team\"",
    "null",
    "[]",
    "{}",
    "[\"1\",2.5]",
    "3",
];

fn mutate(toks: &[String], rng: &mut Rng) -> String {
    let mut t = toks.to_vec();
    // Values and keys: what most mutations change, so that many mutants are
    // still events and the two paths have something to compare.
    let values: Vec<usize> = (0..t.len())
        .filter(|&i| t[i].starts_with(|c: char| c == '"' || c == '-' || c.is_alphanumeric()))
        .collect();
    let any: Vec<usize> = (0..t.len()).filter(|&i| !t[i].trim().is_empty()).collect();
    let times = if rng.below(4) == 0 { 2 } else { 1 };
    for _ in 0..times {
        let i = values[rng.below(values.len())];
        match rng.below(12) {
            0..=5 => {
                let pool = if t[i].starts_with('"') {
                    STRINGS
                } else {
                    NUMBERS
                };
                t[i] = pool[rng.below(pool.len())].to_string();
            }
            6..=7 => {
                // Another value or key of the same file.
                let s = t[values[rng.below(values.len())]].clone();
                t[i] = s;
            }
            8 => {
                // Repeat a stretch: a repeated key, game or round.
                let i = any[rng.below(any.len())];
                let j = (i + 1 + rng.below(12)).min(t.len());
                let copy: String = t[i..j].concat();
                t[i].insert_str(0, &copy);
            }
            9 => {
                // Drop a stretch.
                let i = any[rng.below(any.len())];
                let j = (i + 1 + rng.below(6)).min(t.len());
                t[i..j].iter_mut().for_each(String::clear);
            }
            10 => {
                // Move a few tokens (a round's number, a game's side) to
                // the end of their object.
                let i = any[rng.below(any.len())];
                let j = (i + 4).min(t.len());
                let moved: String = t[i..j].concat();
                t[i..j].iter_mut().for_each(String::clear);
                if let Some(k) = (j..t.len()).find(|&k| t[k] == "}") {
                    t[k].insert_str(0, &moved);
                }
            }
            _ => t[any[rng.below(any.len())]].clear(),
        }
    }
    t.concat()
}

#[test]
fn mutations_agree() {
    let mut bases: Vec<(String, String)> = native_texts()
        .into_iter()
        .filter(|(name, text)| {
            (name.contains("examples/") || name.contains("seeds/")) && text.len() < 20_000
        })
        .collect();
    for (name, g) in generated().into_iter().filter(|(n, _)| n.ends_with("7x3")) {
        bases.push((name, g.to_json()));
    }
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut tried, mut took) = (0, 0);
    for (name, text) in &bases {
        let toks = tokens(text);
        assert_eq!(toks.concat(), *text);
        for k in 0..400 {
            let m = mutate(&toks, &mut rng);
            tried += 1;
            if agree(&format!("{name} mutation {k}"), &m) {
                took += 1;
            }
        }
    }
    // Enough mutants were valid events for the comparison to mean something.
    assert!(took * 20 > tried, "only {took} of {tried} mutants taken");
}

/// Corners of JSON and of the schema, each a text that either path may take.
#[test]
fn edge_cases_agree() {
    let two = r#""participants":[{"id":"a"},{"id":"b"}]"#;
    let game = r#"{"home":"a","away":"b","result":"1-0"}"#;
    let cases = [
        String::new(),
        "{}".into(),
        "[]".into(),
        "{} x".into(),
        "{}}".into(),
        "\u{feff}{}".into(),
        " \t\r\n{ } \n".into(),
        "{\"event\":{\"name\":\"a\u{1}b\"}}".into(),
        r#"{"event":{"name":"\u0000\ud83d\ude00 \"q\" \/"}}"#.into(),
        r#"{"event":{"name":"\ud800"}}"#.into(),
        r#"{"event":{"name":"\x"}}"#.into(),
        r#"{"event":{"na\u006de":"x","rounds":1e0}}"#.into(),
        r#"{"event":{"rounds":"2"}}"#.into(),
        r#"{"event":{"rounds":2.0}}"#.into(),
        r#"{"event":{"rounds":0}}"#.into(),
        r#"{"event":{"rounds":10001}}"#.into(),
        r#"{"event":{"rounds":-}}"#.into(),
        r#"{"event":{"rounds":1.5e}}"#.into(),
        r#"{"event":{"scoring":{"win":"2/3","draw":1e-1,"loss":-0}}}"#.into(),
        r#"{"event":{"scoring":{"win":1e39}}}"#.into(),
        r#"{"event":{},"event":{}}"#.into(),
        r#"{"event":null,"participants":null,"rounds":null,"decisions":null}"#.into(),
        format!(r#"{{{two},"rounds":[{{"games":[{game}]}}]}}"#),
        format!(r#"{{"rounds":[{{"games":[{game}]}}],{two}}}"#),
        format!(r#"{{{two},"rounds":[{{"games":[{game}],"round":2}},{{"round":1}}]}}"#),
        format!(r#"{{{two},"rounds":[{{"games":[{game}]}},{{"round":1,"games":[]}}]}}"#),
        format!(r#"{{{two},"rounds":[{{"games":[{game}]}},{{"round":1,"games":[{game}]}}]}}"#),
        format!(r#"{{{two},"rounds":[{{"games":[{game},{game}]}}]}}"#),
        format!(r#"{{{two},"rounds":[{{"games":[{game}],"byes":[{{"id":"a"}}]}}]}}"#),
        format!(r#"{{{two},"rounds":[{{"games":[{game}],"session":2,"round":3}}]}}"#),
        format!(r#"{{{two},"decisions":[{{"order":["b","a"]}}]}}"#),
        format!(r#"{{"decisions":[{{"order":["b","a"],"reason":null}}],{two}}}"#),
        format!(r#"{{"decisions":[{{"order":["b","c"]}}],{two}}}"#),
        r#"{"participants":[{"id":1},{"id":"1"}]}"#.into(),
        r#"{"participants":[{"id":-1},{"id":0},{"id":"01"},{"id":2097152},{"id":9999999}]}"#.into(),
        r#"{"participants":[{"id":1.0}]}"#.into(),
        r#"{"participants":[{"id":" "}]}"#.into(),
        r#"{"participants":[{"id":"x","id":"y"}]}"#.into(),
        r#"{"participants":[{"id":"x","rank":0}]}"#.into(),
        r#"{"participants":[{"id":"x","members":["p",{"id":"q"},{"name":"r","rating":"7"}]}]}"#
            .into(),
        r#"{"participants":[{"id":"x","members":[{}]}]}"#.into(),
        r#"{"participants":[{"id":"x","values":{"a":1,"a":2}}]}"#.into(),
        r#"{"participants":[{"id":1},{"id":2}],"rounds":[{"games":[{"home":1,"away":2,"mp":[1,2],"mp":[2,1]}]}]}"#.into(),
        r#"{"participants":[{"id":1},{"id":2}],"rounds":[{"games":[{"home":1,"away":2,"result":"1-0","points":[0,1],"weight":"1/2"}]}]}"#.into(),
        r#"{"participants":[{"id":1},{"id":2}],"rounds":[{"games":[{"home":1,"away":2,"weight":0,"result":"1-0"}]}]}"#.into(),
        r#"{"participants":[{"id":1},{"id":2}],"rounds":[{"games":[{"home":1,"away":1,"result":"1-0"}]}]}"#.into(),
        r#"{"event":{"sport":"cards"},"participants":[{"id":1},{"id":2}],"rounds":[{"games":[{"home":1,"away":2,"result":"2-1-1","games_lost":[5,6]}]}]}"#.into(),
        r#"{"event":{"sport":"cards"},"participants":[{"id":1},{"id":2}],"rounds":[{"games":[{"home":1,"away":2,"result":"1/2-1/2"}]}]}"#.into(),
        r#"{"event":{"primary":"vp"},"participants":[{"id":1},{"id":2}],"rounds":[{"games":[{"home":1,"away":2,"vp":[10,10]}]}],"byes":[]}"#.into(),
        r#"{"participants":[{"id":1},{"id":2}],"rounds":[{"byes":[{"id":1,"type":"half","imps":"3","vp":2.5}]}]}"#.into(),
        r#"{"participants":[{"id":1},{"id":2}],"rounds":[{"byes":[{"id":1,"vp":[2]}]}]}"#.into(),
    ];
    for (i, text) in cases.iter().enumerate() {
        agree(&format!("case {i}"), text);
    }
}

/// The event is the same whichever path built it, down to the warnings.
#[test]
fn warnings_come_out_the_same() {
    let text = r#"{"event":{"sport":"chess","rounds":3},
"participants":[{"id":"a","score":3,"withdrawn_after":1},{"id":"b"},{"id":"c","score":"1/2"}],
"rounds":[{"games":[{"home":"a","away":"b","result":"1-0","points":[0,1]}]},
{"games":[{"home":"a","away":"c","result":"0-1"}],"byes":[{"id":"b","type":"half"}]}]}"#;
    assert!(agree("warnings", text));
    let ev: Event = load_json(&Source::new("w.json", text)).expect("loads");
    assert_eq!(ev.warnings.len(), 4, "{:?}", ev.warnings);
}

/// A large event's entries are made in two halves at once with two
/// threads: the same event, warnings and all (a participant in each half
/// withdrawn after round 1 but with later games), as with one thread and as
/// the tree path builds it.
#[test]
fn two_threads_build_the_same_event() {
    let text = tb_gen::chess_swiss(2_000, 11, 4).to_json();
    let mut v: serde_json::Value = serde_json::from_str(&text).expect("generated JSON");
    for i in [10, 1_900] {
        v["participants"][i]["withdrawn_after"] = serde_json::json!(1);
    }
    let src = Source::new("big.json", v.to_string());
    let one = tb::load::native::load_json_with(&src, 1).unwrap_or_else(|d| panic!("{}", d.plain()));
    let two = tb::load::native::load_json_with(&src, 2).unwrap_or_else(|d| panic!("{}", d.plain()));
    assert!(one == two, "one and two threads build different events");
    let tree = load_json_tree(&src).unwrap_or_else(|d| panic!("{}", d.plain()));
    assert!(
        two == tree,
        "two threads and the tree path build different events"
    );
    let withdrew = |ev: &Event| {
        ev.warnings
            .iter()
            .filter(|w| w.contains("withdrew"))
            .count()
    };
    assert!(withdrew(&two) >= 2, "{:?}", two.warnings);
    assert_eq!(one.warnings, two.warnings);
}
