//! The TextMate grammar in `editors/tb.tmLanguage.json` (VS Code, Sublime
//! Text, GitHub's highlighter) highlights every keyword of
//! `grammar/tb.pest`: a keyword added to the language without a colour
//! fails here.

use std::collections::BTreeSet;
use std::path::Path;

/// The words of the grammar's keyword rules (`kw_x = @{ "x" ~ ... }`).
fn pest_keywords() -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let pest = std::fs::read_to_string(root.join("grammar/tb.pest")).unwrap();
    pest.lines()
        .filter(|l| l.starts_with("kw_"))
        .filter_map(|l| l.split('"').nth(1))
        .map(str::to_string)
        .collect()
}

/// The words of every `\b(a|b|c)\b` alternation among the grammar's patterns.
fn highlighted() -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("editors/tb.tmLanguage.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).expect("the grammar is JSON");
    assert_eq!(json["scopeName"], "source.tb");
    let mut words = BTreeSet::new();
    for (_, rule) in json["repository"].as_object().expect("a repository") {
        let Some(m) = rule["match"].as_str() else {
            continue;
        };
        let Some(inner) = m.strip_prefix("\\b(").and_then(|r| r.strip_suffix(")\\b")) else {
            continue;
        };
        words.extend(inner.split('|').map(str::to_string));
    }
    words
}

#[test]
fn every_keyword_of_the_language_is_highlighted() {
    let keywords = pest_keywords();
    assert!(keywords.len() > 50, "read {} keywords", keywords.len());
    let words = highlighted();
    let missing: Vec<&String> = keywords.iter().filter(|k| !words.contains(*k)).collect();
    assert!(
        missing.is_empty(),
        "keywords with no colour in editors/tb.tmLanguage.json: {missing:?}"
    );
    let stale: Vec<&String> = words.iter().filter(|w| !keywords.contains(*w)).collect();
    assert!(
        stale.is_empty(),
        "highlighted words the language no longer has: {stale:?}"
    );
}
