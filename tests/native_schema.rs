//! The native format's schema table (`tb::load::native::schema`) is what both JSON readers use: every field of every table, written with its example, is taken by the tree reader, and by the one-pass reader exactly when the table says so (building the same event); an unknown key and a missing required field get the diagnostic the table words, from the tree reader, while the one-pass reader leaves them to it.

use serde_json::{json, Value};
use tb::diag::{Diag, Source};
use tb::load::native::schema::{self, Table};
use tb::load::native::{load_json, load_json_fast, load_json_tree};

/// A small valid event with one of every table: the examples in the
/// schema fit it (ids `p1` to `p6`; `p1` beats `p2`, `p5` has a bye).
fn base() -> Value {
    json!({
        "event": {"name": "Schema"},
        "participants": [
            {"id": "p1"}, {"id": "p2"}, {"id": "p3"},
            {"id": "p4"}, {"id": "p5"}, {"id": "p6"}
        ],
        "rounds": [{
            "round": 1,
            "games": [{"home": "p1", "away": "p2", "result": "1-0"}],
            "byes": [{"id": "p5"}]
        }],
        "decisions": [{"order": ["p1"]}]
    })
}

/// The object in `ev` that is an instance of `table`, made if the base
/// event has none (a scoring table, a member, a board).
fn instance<'v>(ev: &'v mut Value, table: &Table) -> &'v mut serde_json::Map<String, Value> {
    let slot = match table.what {
        "the file" => ev,
        "[event]" => &mut ev["event"],
        "`event.scoring`" => {
            ev["event"]["scoring"] = json!({});
            &mut ev["event"]["scoring"]
        }
        "a participant" => &mut ev["participants"][0],
        "a member" => {
            ev["participants"][0]["members"] = json!([{"name": "M"}]);
            &mut ev["participants"][0]["members"][0]
        }
        "a round" => &mut ev["rounds"][0],
        "a game" => &mut ev["rounds"][0]["games"][0],
        "a board" => {
            ev["rounds"][0]["games"][0]["boards"] = json!([{"home": 1, "away": 0}]);
            &mut ev["rounds"][0]["games"][0]["boards"][0]
        }
        "a bye" => &mut ev["rounds"][0]["byes"][0],
        "a decision" => &mut ev["decisions"][0],
        other => panic!("no place in the test event for {other}: add one"),
    };
    slot.as_object_mut().expect("an object")
}

fn source(ev: &Value) -> Source {
    Source::new("schema.json", serde_json::to_string_pretty(ev).unwrap())
}

/// Every diagnostic under `d`, itself included.
fn all(d: &Diag) -> Vec<&Diag> {
    let mut out = vec![d];
    for r in &d.related {
        out.extend(all(r));
    }
    out
}

#[test]
fn the_base_event_takes_the_one_pass_reader() {
    let src = source(&base());
    let tree = load_json_tree(&src).unwrap_or_else(|d| panic!("{}", d.plain()));
    assert!(load_json_fast(&src) == Some(tree));
}

#[test]
fn every_field_of_the_schema_is_taken_by_both_readers() {
    for table in schema::TABLES {
        for field in table.fields {
            let mut ev = base();
            let example: Value = serde_json::from_str(field.example)
                .unwrap_or_else(|e| panic!("{}.{}: bad example: {e}", table.what, field.name));
            // A field the base event has is taken there already (with the
            // value the event needs).
            instance(&mut ev, table)
                .entry(field.name.to_string())
                .or_insert(example);
            let src = source(&ev);
            let at = format!("`{}` of {}", field.name, table.what);
            let tree = load_json_tree(&src)
                .unwrap_or_else(|d| panic!("{at}: the tree reader refuses it:\n{}", d.plain()));
            match load_json_fast(&src) {
                Some(fast) => {
                    assert!(field.fast, "{at}: the schema leaves it to the tree reader, but the one-pass reader took it");
                    assert!(fast == tree, "{at}: the two readers build different events");
                }
                None => assert!(
                    !field.fast,
                    "{at}: the schema says the one-pass reader reads it, but it gave up"
                ),
            }
        }
    }
}

#[test]
fn an_unknown_key_gets_the_schemas_diagnostic() {
    for table in schema::TABLES {
        let mut ev = base();
        // `true` is neither a unit pair nor a unit value.
        instance(&mut ev, table).insert("colour_of_the_sky".to_string(), json!(true));
        let src = source(&ev);
        assert!(
            load_json_fast(&src).is_none(),
            "{}: one-pass reader took it",
            table.what
        );
        let d = load_json_tree(&src).expect_err(table.what);
        let found = all(&d).into_iter().any(|d| {
            d.code == "tb::load::native::unknown_field"
                && d.message == table.unknown("colour_of_the_sky")
                && d.help.as_deref() == Some(table.help().as_str())
        });
        assert!(found, "{}: {}", table.what, d.plain());
        // What users get is the tree reader's diagnostic.
        assert_eq!(load_json(&src).expect_err("refused").plain(), d.plain());
    }
}

#[test]
fn a_missing_required_field_gets_the_schemas_help() {
    for table in schema::TABLES {
        for field in table.fields.iter().filter(|f| f.required.is_some()) {
            let mut ev = base();
            instance(&mut ev, table).remove(field.name);
            let src = source(&ev);
            let at = format!("`{}` of {}", field.name, table.what);
            assert!(
                load_json_fast(&src).is_none(),
                "{at}: one-pass reader took it"
            );
            let d = load_json_tree(&src).expect_err(&at);
            let found = all(&d).into_iter().any(|d| {
                d.code == "tb::load::native::syntax" && d.help.as_deref() == field.required
            });
            assert!(found, "{at}: {}", d.plain());
            assert_eq!(load_json(&src).expect_err("refused").plain(), d.plain());
        }
    }
}
