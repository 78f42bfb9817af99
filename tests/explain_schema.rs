//! Every shipped example's `tb eval --format json` and `tb explain --format json --detail` output validates against the JSON Schemas checked in under `schema/`, and every member `tb eval`'s report (`tb::render::Report`) writes is described there.

use crate::output_corpus::EXAMPLES;
use std::path::Path;
use std::process::Command;

fn schema(name: &str) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("schema")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("schema file");
    let value: serde_json::Value = serde_json::from_str(&text).expect("schema is JSON");
    jsonschema::validator_for(&value).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn tb_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_tb"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run tb");
    assert!(
        out.status.success(),
        "tb {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("tb {args:?}: not JSON: {e}"))
}

fn check(v: &jsonschema::Validator, doc: &serde_json::Value, what: &str) {
    let errors: Vec<String> = v
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}:\n{}", errors.join("\n"));
}

#[test]
fn every_example_output_matches_the_schemas() {
    let eval = schema("eval.schema.json");
    let explain = schema("explain.schema.json");
    let mut checked = 0;
    for (data, rulesets) in EXAMPLES {
        for rs in rulesets.iter() {
            let doc = tb_json(&["eval", rs, data, "--format", "json"]);
            check(&eval, &doc, &format!("eval {rs} {data}"));
            for extra in [&[][..], &["--detail"][..]] {
                let mut args = vec!["explain", rs, data, "--format", "json"];
                args.extend_from_slice(extra);
                let doc = tb_json(&args);
                check(&explain, &doc, &format!("explain {rs} {data} {extra:?}"));
            }
            checked += 1;
        }
    }
    assert!(checked >= 12, "{checked}");
}

/// The schemas catch a document of the wrong shape (a test of the test).
#[test]
fn the_schemas_reject_a_wrong_document() {
    let explain = schema("explain.schema.json");
    let bad = serde_json::json!({ "title": 3, "ties": "none" });
    assert!(!explain.is_valid(&bad));
    let eval = schema("eval.schema.json");
    assert!(!eval.is_valid(&serde_json::json!({ "standings": [{ "rank": 0 }] })));
}

/// A document with categories matches the schema too, for chess, cards and
/// bridge (`tests/categories.rs` has their content).
#[test]
fn category_lists_match_the_schema() {
    let eval = schema("eval.schema.json");
    for (rs, data, cat) in [
        (
            "fide/swiss",
            "tests/fixtures/data/chess/categories.trf",
            "Women=sex == \"w\" rerank",
        ),
        (
            "cards/swiss",
            "tests/fixtures/data/categories/cards-swiss.toml",
            "Juniors=born >= 2009",
        ),
        (
            "wbf/round-robin",
            "tests/fixtures/data/categories/bridge-round-robin.toml",
            "Seniors=me.seniors == 1 rerank",
        ),
    ] {
        let doc = tb_json(&["eval", rs, data, "--category", cat, "--format", "json"]);
        assert!(doc["categories"].is_array(), "{rs}");
        check(&eval, &doc, &format!("eval {rs} {data} --category {cat}"));
    }
}

/// The schema allows members it does not name (fields are added, never
/// dropped), so validating alone would let a field added to the report
/// go undocumented: every member of every example's document must be
/// named in the schema where it appears.
#[test]
fn every_member_of_the_report_is_in_the_schema() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/eval.schema.json");
    let text = std::fs::read_to_string(path).expect("schema file");
    let root: serde_json::Value = serde_json::from_str(&text).expect("schema is JSON");
    let mut missing = Vec::new();
    let mut docs: Vec<(String, serde_json::Value)> = Vec::new();
    for (data, rulesets) in EXAMPLES {
        for rs in rulesets.iter() {
            let doc = tb_json(&["eval", rs, data, "--format", "json"]);
            docs.push((format!("{rs} {data}"), doc));
        }
    }
    let cat = "Women=sex == \"w\" rerank";
    let data = "tests/fixtures/data/chess/categories.trf";
    let doc = tb_json(&[
        "eval",
        "fide/swiss",
        data,
        "--category",
        cat,
        "--format",
        "json",
    ]);
    docs.push((format!("categories {data}"), doc));
    for (what, doc) in &docs {
        undocumented(&root, &root, doc, what, &mut missing);
    }
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "not in schema/eval.schema.json:\n{}",
        missing.join("\n")
    );
}

/// Collects into `missing` each member of `value` that `node` (a part of
/// the schema `root`) does not name.
fn undocumented(
    root: &serde_json::Value,
    node: &serde_json::Value,
    value: &serde_json::Value,
    at: &str,
    missing: &mut Vec<String>,
) {
    use serde_json::Value;
    let node = match node.get("$ref").and_then(Value::as_str) {
        Some(r) => {
            let name = r.trim_start_matches("#/$defs/");
            &root["$defs"][name]
        }
        None => node,
    };
    match value {
        Value::Object(members) => {
            let named = node.get("properties").and_then(Value::as_object);
            let others = node.get("additionalProperties").filter(|a| a.is_object());
            for (key, v) in members {
                match (named.and_then(|n| n.get(key)), others) {
                    (Some(n), _) | (None, Some(n)) => {
                        undocumented(root, n, v, &format!("{at}.{key}"), missing)
                    }
                    (None, None) => missing.push(format!("{at}.{key}")),
                }
            }
        }
        Value::Array(items) => {
            if let Some(n) = node.get("items") {
                for v in items {
                    undocumented(root, n, v, &format!("{at}[]"), missing);
                }
            }
        }
        _ => {}
    }
}
