//! CSV match lists for card-game events: same standings as the native file,
//! precise diagnostics, and no panic on broken input.

use crate::common;
use common::*;
use tb::diag::Source;

fn load(text: &str) -> Result<tb::model::Event, tb::diag::Diag> {
    tb::load::csv::load_csv(&Source::new("t.csv", text))
}

fn ids_and_values(
    ev: &tb::model::Event,
    st: &tb::rank::Standings,
) -> Vec<(String, usize, Vec<tb::eval::Value>)> {
    st.rows
        .iter()
        .map(|r| (ev.participants[r.pid].id.clone(), r.rank, r.values.clone()))
        .collect()
}

#[test]
fn csv_example_ranks_like_the_toml_example() {
    let root = env!("CARGO_MANIFEST_DIR");
    let csv = load(&std::fs::read_to_string(format!("{root}/examples/cards-swiss.csv")).unwrap())
        .unwrap();
    let toml = tb::load::native::load_toml(&Source::new(
        "x.toml",
        std::fs::read_to_string(format!("{root}/examples/cards-swiss.toml")).unwrap(),
    ))
    .unwrap();
    assert_eq!(csv.name, "Friday Night Swiss");
    assert_eq!(csv.rounds, 4);
    let rs = shipped("cards/swiss");
    assert_eq!(
        ids_and_values(&csv, &rank(&csv, &rs)),
        ids_and_values(&toml, &rank(&toml, &rs))
    );
}

#[test]
fn result_column_and_quoted_names() {
    let ev = load("round,player,opponent,result\n1,\"Smith, Ann\",Bob,2-0-0\n1,Cy,,bye\n").unwrap();
    assert!(ev.find("Smith, Ann").is_some());
    let rs = shipped("cards/swiss");
    assert_eq!(value(&ev, &rs, "match_points", "Cy"), num("3"));
    assert_eq!(value(&ev, &rs, "match_points", "Smith, Ann"), num("3"));
}

#[test]
fn diagnostics_point_at_the_cell() {
    let cases = [
        (
            "round,home,away,result\nx,a,b,2-0-0\n",
            "tb::load::csv::malformed",
            "x",
        ),
        (
            "round,home,away,result\n1,a,b,\"2-0\n",
            "tb::load::csv::malformed",
            "\"",
        ),
        (
            "home,away,result\na,b,2-0-0\n",
            "tb::load::csv::missing_column",
            "home",
        ),
        (
            "round,home,away\n1,a,b\n",
            "tb::load::csv::missing_column",
            "round",
        ),
        ("# only a comment\n", "tb::load::csv::no_header", ""),
        (
            "round,home,away,result\n1,a,b,9-x\n",
            "tb::load::native::bad_result",
            "9-x",
        ),
        (
            "round,home,away,result\n1,a,b,2-0-0\n1,a,c,2-0-0\n",
            "tb::load::native::paired_twice",
            "",
        ),
    ];
    for (text, code, at) in cases {
        let d = load(text).unwrap_err();
        let all: Vec<&tb::diag::Diag> = std::iter::once(&d).chain(d.related.iter()).collect();
        let hit = all
            .iter()
            .find(|x| x.code == code)
            .unwrap_or_else(|| panic!("{text:?}: {}", d.plain()));
        if !at.is_empty() {
            let (span, _) = hit.labels.first().expect("a span");
            assert!(
                text[span.start..span.end].starts_with(at),
                "{text:?}: span {:?}",
                &text[span.start..span.end]
            );
        }
    }
}

#[test]
fn no_panic_on_any_prefix_or_garbling() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/cards-swiss.csv"
    ))
    .unwrap();
    for end in 0..text.len() {
        if text.is_char_boundary(end) {
            let _ = load(&text[..end]);
        }
    }
    for (i, c) in text.char_indices().step_by(7) {
        for rep in ["\"", ",", "\n", "é", "99999999999999999999", ""] {
            let mut t = text.clone();
            t.replace_range(i..i + c.len_utf8(), rep);
            let _ = load(&t);
        }
    }
}
