//! The TOML and CSV loaders' one-pass readers against their tree paths, the
//! reference they mirror (`native::load_toml_tree`, `csv::load_csv_tree`:
//! each format as it was read before): whatever the one-pass reader
//! accepts, the tree path builds into the same event, the data names'
//! lines included; anything else gives the tree path's very diagnostic.
//! Checked on generated events, on every TOML and CSV example and fixture,
//! and on hostile edits of them (a line left out or repeated, a misspelt
//! key, a value of the wrong type, CRLF, `;`, quotes, a byte-order mark).

use crate::native_fast::files;
use tb::diag::Source;
use tb::load::csv::{load_csv, load_csv_tree};
use tb::load::native::{load_toml, load_toml_fast, load_toml_tree};
use tb::model::Event;

/// The event and its data names with their lines (`DataNames` equality
/// leaves the lines out).
fn same(a: &Event, b: &Event) -> bool {
    a == b && format!("{:?}", a.data_names) == format!("{:?}", b.data_names)
}

fn shown(text: &str) -> &str {
    if text.len() < 4000 {
        text
    } else {
        "(large)"
    }
}

/// TOML: the property for one text; whether the one-pass reader took it.
fn toml_agrees(name: &str, text: &str) -> bool {
    let src = Source::new(name, text.to_string());
    let tree = load_toml_tree(&src);
    let took = match (load_toml_fast(&src), &tree) {
        (Some(f), Ok(t)) => {
            assert!(
                same(&f, t),
                "{name}: the two paths differ\n{:?}\n{:?}\n{}",
                f.data_names,
                t.data_names,
                shown(text)
            );
            true
        }
        (Some(_), Err(d)) => panic!(
            "{name}: the one-pass reader takes what the tree path refuses:\n{}\n{}",
            d.plain(),
            shown(text)
        ),
        (None, _) => false,
    };
    match (load_toml(&src), tree) {
        (Ok(a), Ok(b)) => assert!(same(&a, &b), "{name}: load_toml differs"),
        (Err(a), Err(b)) => assert_eq!(a.plain(), b.plain(), "{name}"),
        _ => panic!(
            "{name}: load_toml and the tree path disagree\n{}",
            shown(text)
        ),
    }
    took
}

/// CSV: `load_csv` (one pass where it can) against the tree path.
fn csv_agrees(name: &str, text: &str) {
    let src = Source::new(name, text.to_string());
    match (load_csv(&src), load_csv_tree(&src)) {
        (Ok(a), Ok(b)) => assert!(
            same(&a, &b),
            "{name}: load_csv differs from the tree path\n{}",
            shown(text)
        ),
        (Err(a), Err(b)) => assert_eq!(a.plain(), b.plain(), "{name}"),
        (a, b) => panic!(
            "{name}: one path loads, the other does not: {:?} / {:?}\n{}",
            a.err().map(|d| d.plain()),
            b.err().map(|d| d.plain()),
            shown(text)
        ),
    }
}

fn texts(ext: &str) -> Vec<(String, String)> {
    let mut paths = Vec::new();
    for dir in ["examples", "tests", "fuzz/seeds", "fuzz/regressions"] {
        files(dir, ext, &mut paths);
    }
    paths
        .into_iter()
        .filter_map(|p| Some((p.display().to_string(), std::fs::read_to_string(&p).ok()?)))
        .collect()
}

/// Hostile edits of a text: each line left out and repeated (small files),
/// keys misspelt, values of the wrong type, other line ends and separators,
/// quotes, a byte-order mark.
fn edits(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= 200 {
        for i in 0..lines.len() {
            let mut without = lines.clone();
            without.remove(i);
            out.push(without.join("\n"));
            let mut twice = lines.clone();
            twice.insert(i, lines[i]);
            out.push(twice.join("\n"));
        }
    }
    for (from, to) in [
        ("home", "hmoe"),
        ("result", "resutl"),
        ("id", "iid"),
        ("round", "rounds"),
        ("name", "nmae"),
        ("= 1", "= \"x\""),
        ("= \"", "= 1 #\""),
        ("\"2-", "\"9-"),
        (", ", ",, "),
        ("\n", "\r\n"),
        ("\n", "\r"),
        (",", ";"),
        (",", "\t"),
        ("a", "\"a\""),
        ("e", "\\e"),
        ("1", "01"),
        ("1", "1.0"),
        ("1", "1e0"),
        ("1", "1_0"),
        (" ", "\t"),
        ("]", ",]"),
        ("}", ",}"),
        ("[[", "["),
        ("# ", "#\u{7}"),
    ] {
        if text.contains(from) {
            out.push(text.replacen(from, to, 1));
            out.push(text.replace(from, to));
        }
    }
    out.push(format!("\u{feff}{text}"));
    out.push(format!(
        "{text}\n{}",
        lines.first().copied().unwrap_or_default()
    ));
    out
}

#[test]
fn generated_events_take_the_one_pass_readers() {
    for (players, rounds, seed) in [(200, 7, 1), (51, 9, 2), (7, 3, 4)] {
        for (kind, g) in [
            ("chess", tb_gen::chess_swiss(players, rounds, seed)),
            ("cards", tb_gen::cards_swiss(players, rounds, seed)),
            ("bridge", tb_gen::bridge_swiss_teams(players, rounds, seed)),
        ] {
            let name = format!("{kind} {players}x{rounds}");
            assert!(
                toml_agrees(&name, &g.to_toml()),
                "{name}: left to the tree path"
            );
        }
    }
}

#[test]
fn every_toml_example_and_fixture_agrees() {
    let mut took = Vec::new();
    for (name, text) in texts("toml") {
        if toml_agrees(&name, &text) {
            took.push(name);
        }
    }
    for must in ["examples/cards-swiss.toml", "examples/chess-swiss.toml"] {
        assert!(
            took.iter().any(|t| t.ends_with(must)),
            "{must} left to the tree path"
        );
    }
}

#[test]
fn every_csv_example_and_fixture_agrees() {
    let all = texts("csv");
    assert!(!all.is_empty());
    for (name, text) in all {
        csv_agrees(&name, &text);
    }
}

#[test]
fn hostile_edits_give_the_tree_paths_diagnostics() {
    for (name, text) in texts("toml") {
        if name.contains("/examples/") || name.contains("/generated/") {
            for (i, t) in edits(&text).iter().enumerate() {
                toml_agrees(&format!("{name} edit {i}"), t);
            }
        }
    }
    for (name, text) in texts("csv") {
        for (i, t) in edits(&text).iter().enumerate() {
            csv_agrees(&format!("{name} edit {i}"), t);
        }
    }
}

#[test]
fn csv_as_spreadsheets_save_it_loads_as_the_tree_path_does() {
    let rows =
        "round,home,away,result\n1,Ana,Ben,2-1-0\n1,Cleo,,bye\n2,Ben,Cleo,1-1-1\n2,Ana,,bye\n";
    for text in [
        rows.to_string(),
        rows.replace('\n', "\r\n"),
        rows.replace(',', ";"),
        rows.replace(',', "\t"),
        format!("\u{feff}{rows}"),
        rows.replace("Ana", "\"Ana\""),
        rows.replace("Ana", "\"Ana, A\""),
        rows.replace("Ben,", " Ben\u{a0},"),
        rows.replace("Ben,", "Ben\u{b},"),
        rows.replace("Cleo", "cleo "),
        rows.replace("2-1-0", "2-1-x"),
        rows.replace("1,Ana", "1,Ana\r"),
        format!(
            "# name: Friday\n# sport: chess\n{}",
            rows.replace("2-1-0", "1-0").replace("1-1-1", "1/2-1/2")
        ),
        format!("# rounds: 1\n{rows}"),
        format!("# name: \"quoted\" \\ name\n{rows}"),
        rows.replace("2,Ben,Cleo", "1,Ben,Cleo"),
        format!("{rows}3,Ana,drop\n"),
        format!("{rows}\n\n#c\n   \n,,,\n"),
    ] {
        csv_agrees("sheet.csv", &text);
    }
}

#[test]
fn toml_lines_of_data_names_are_the_tree_paths() {
    // Units and values first written on different lines, games as inline
    // tables and as tables of their own.
    let text = "[event]\nsport = \"bridge\"\nprimary = \"vp\"\nvalues = { boards = 16 }\n\n[[participants]]\nid = 1\nvalues = { seed = 2 }\n[[participants]]\nid = 2\n\n[[rounds]]\nround = 1\ngames = [\n  { home = 1, away = 2, imps = [3, 1], vp = [12, 8] },\n]\n[[rounds]]\nround = 2\n[[rounds.games]]\nhome = 2\naway = 1\nvp = [10, 10]\nextra = [1, 2]\n";
    assert!(toml_agrees("lines.toml", text));
    let cards = "[event]\nsport = \"cards\"\n[[participants]]\nid = \"a\"\n[[participants]]\nid = \"b\"\n[[rounds]]\n[[rounds.games]]\nhome = \"a\"\naway = \"b\"\nresult = \"2-1-0\"\n";
    assert!(toml_agrees("cards.toml", cards));
}

/// How a player (by number) is written in a round's rows.
type Naming = dyn Fn(usize, i64) -> String;

/// A CSV match list: `players` players over `rounds` (in that order in the
/// file), paired by a simple generator from `seed`, an odd one out given a
/// bye (every other one as `bye` in the result column), each third game
/// written home and away as won-lost-drawn numbers, one player dropping
/// after the first round. `name` gives each player's name as written in a
/// row (the player, the round).
fn match_list(players: usize, rounds: &[i64], seed: u64, name: &Naming) -> String {
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
    let mut next = |n: usize| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (x >> 33) as usize % n
    };
    let mut out = String::from("round,home,away,result,home_wins,away_wins\n");
    for (k, &r) in rounds.iter().enumerate() {
        // The player who dropped after the first round plays no more.
        let mut order: Vec<usize> = (0..players).filter(|&p| k == 0 || p != 3).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, next(i + 1));
        }
        for pair in order.chunks(2) {
            let home = name(pair[0], r);
            match pair {
                [_, b] if next(3) == 0 => {
                    let (w, l) = (next(3), next(3));
                    out += &format!("{r},{home},{},,{w},{l}\n", name(*b, r));
                }
                [_, b] => {
                    let result = ["2-0-0", "0-2-0", "1-1-1", "2-1-0"][next(4)];
                    out += &format!("{r},{home},{},{result}\n", name(*b, r));
                }
                _ if r % 2 == 0 => out += &format!("{r},{home},,bye\n"),
                _ => out += &format!("{r},{home},,\n"),
            }
        }
        if k == 0 && players > 3 {
            out += &format!("{r},{},drop\n", name(3, r));
        }
    }
    out
}

#[test]
fn generated_match_lists_load_as_the_tree_path_does() {
    let plain = |p: usize, _: i64| format!("Player {p}");
    // The same player spelt in other cases and spacing in later rounds.
    let respelt = |p: usize, r: i64| match (p % 3, r % 2) {
        (0, 0) => format!("  PLAYER   {p} "),
        (1, 1) => format!("player {p}"),
        _ => format!("Player {p}"),
    };
    // Names longer than the players' map holds in itself, and names of
    // several bytes a letter.
    let long = |p: usize, _: i64| format!("Player number {p} of the long names club");
    let accented = |p: usize, _: i64| format!("Jürgen Ørsted Ša {p}");
    // One name misspelt in one round: a similar-name warning.
    let misspelt = |p: usize, r: i64| match (p, r) {
        (5, 2) => "Plaeyr 5".to_string(),
        _ => format!("Player {p}"),
    };
    // Quoted names: the `csv` crate splits the records.
    let quoted = |p: usize, _: i64| format!("\"Player, {p}\"");
    let names: [(&str, &Naming); 6] = [
        ("plain", &plain),
        ("respelt", &respelt),
        ("long", &long),
        ("accented", &accented),
        ("misspelt", &misspelt),
        ("quoted", &quoted),
    ];
    let rounds: [&[i64]; 5] = [
        &[1, 2, 3, 4, 5],
        // Out of order, and past the 64 rounds kept as bits.
        &[3, 1, 2],
        &[1, 2, 63, 64, 65, 90],
        // A round given twice: its players play twice in it.
        &[1, 2, 2],
        &[0, 1],
    ];
    for (label, name) in names {
        for (k, rounds) in rounds.iter().enumerate() {
            for (players, seed) in [(9, 1), (40, 2), (301, 3)] {
                let text = match_list(players, rounds, seed, name);
                csv_agrees(&format!("{label} rounds {k} {players}"), &text);
                csv_agrees(
                    &format!("{label} rounds {k} {players} CRLF"),
                    &text.replace('\n', "\r\n"),
                );
            }
        }
    }
    // The one-pass path is taken where it can be: a generated list loads
    // with a similar-name warning where a name is misspelt.
    let text = match_list(40, &[1, 2, 3], 2, &misspelt);
    let ev = load_csv(&Source::new("m.csv", text)).expect("loads");
    assert!(ev
        .warnings
        .iter()
        .any(|w| format!("{w:?}").contains("Plaeyr 5")));
}
