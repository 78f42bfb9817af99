//! Embeds every file under `rulesets/` in the binary, so shipped rulesets
//! work from any directory: each `.tb` file named without its extension
//! (`fide/lib`), a data file (a table's rows) with it (`fide/rating-difference.txt`).
//! Ruleset tests (`tests/` folders, `*.test.toml` files, and the events
//! they read) are not shipped: `tb test` reads them from disk.
use std::fmt::Write as _;
use std::path::Path;

/// Every file under `dir` as (name, absolute path): `.tb` files into
/// `rulesets` (named without the extension), the others into `data`.
fn walk(
    dir: &Path,
    base: &Path,
    rulesets: &mut Vec<(String, String)>,
    data: &mut Vec<(String, String)>,
) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        let name = p.file_name().map(|n| n.to_string_lossy().to_string());
        let name = name.unwrap_or_default();
        if name == "tests" || name.ends_with(".test.toml") {
            continue;
        }
        if p.is_dir() {
            walk(&p, base, rulesets, data);
        } else if !p
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        {
            let rel = p.strip_prefix(base).unwrap_or(&p);
            let (rel, out) = if p.extension().is_some_and(|e| e == "tb") {
                (rel.with_extension(""), &mut *rulesets)
            } else {
                (rel.to_path_buf(), &mut *data)
            };
            let name = rel.to_string_lossy().replace('\\', "/");
            out.push((
                name,
                p.canonicalize().unwrap_or(p.clone()).display().to_string(),
            ));
        }
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets");
    println!("cargo:rerun-if-changed=rulesets");
    let (mut rulesets, mut data) = (Vec::new(), Vec::new());
    walk(&root, &root, &mut rulesets, &mut data);
    let mut code = String::new();
    for (doc, array, files) in [
        ("Every shipped ruleset and library", "SHIPPED", &rulesets),
        (
            "Every shipped data file (the rows of a `table`)",
            "SHIPPED_DATA",
            &data,
        ),
    ] {
        let _ = writeln!(
            code,
            "/// {doc}: (name, text).\npub static {array}: &[(&str, &str)] = &["
        );
        for (name, path) in files {
            let _ = writeln!(code, "    ({name:?}, include_str!({path:?})),");
        }
        code.push_str("];\n");
    }
    let out =
        Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into())).join("shipped.rs");
    let _ = std::fs::write(out, code);
}
