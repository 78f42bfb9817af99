//! The README's table of built-in functions is generated from their rows (`tb::plan::Func::ALL`, written in `src/plan/builtins.rs`): this test fails when the two disagree, and `UPDATE_README=1` rewrites the table.

use std::path::Path;
use tb::plan::Func;

const BEGIN: &str = "<!-- built-in functions: generated from src/plan/builtins.rs -->\n";
const END: &str = "<!-- end of built-in functions -->\n";

/// The table as the rows give it.
fn table() -> String {
    let mut t = String::from("| function | value |\n|---|---|\n");
    for (name, args, doc) in Func::ALL {
        t.push_str(&format!("| `{name}({args})` | {doc} |\n"));
    }
    t
}

#[test]
fn readme_lists_every_builtin_function_as_its_row_says() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let start = readme
        .find(BEGIN)
        .expect("README has no table of built-in functions")
        + BEGIN.len();
    let end = start
        + readme[start..]
            .find(END)
            .expect("the README's table of built-in functions has no end");
    let want = table();
    if readme[start..end] == want {
        return;
    }
    if std::env::var_os("UPDATE_README").is_some() {
        std::fs::write(
            &path,
            format!("{}{want}{}", &readme[..start], &readme[end..]),
        )
        .unwrap();
        return;
    }
    panic!(
        "README.md's table of built-in functions differs from src/plan/builtins.rs; \
         run `UPDATE_README=1 cargo test builtins_readme`\n--- README\n{}--- rows\n{want}",
        &readme[start..end]
    );
}

#[test]
fn every_row_names_a_function_found_by_its_name() {
    for (name, _, doc) in Func::ALL {
        let f = Func::by_name(name).unwrap_or_else(|| panic!("`{name}` not found by name"));
        assert_eq!(f.name(), *name);
        let (least, most) = f.arity();
        assert!(
            1 <= least && least <= most,
            "`{name}`: arity {least} to {most}"
        );
        assert!(
            !doc.contains('|') && !doc.contains('\n'),
            "`{name}`: one line, no `|`"
        );
    }
    assert_eq!(Func::by_name("no_such_function"), None);
}
