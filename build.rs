//! Embeds every file under `rulesets/` in the binary, so shipped rulesets
//! work from any directory: each `.tb` file named without its extension
//! (`fide/lib`), a data file (a table's rows) with it (`fide/rating-difference.txt`).
//! Ruleset tests (`tests/` folders, `*.test.toml` files, and the events
//! they read) are not shipped: `tb test` reads them from disk.
//!
//! Every shipped `.tb` file is also parsed here, by the crate's own parser
//! (its modules included below), and its syntax tree embedded serialised
//! (`syntax::compiled`): a run reads the tree instead of parsing. A shipped
//! file with a syntax error fails the build.
use std::fmt::Write as _;
use std::path::Path;

// The syntax stage and what it imports, compiled into this build script
// as they are into the crate (the same module tree, `src/syntax/mod.rs`,
// under the same `crate::` paths): one grammar, one AST. Its `compiled`
// has no trees here (the cfg `tb_compiled`, which this script sets for
// the crate, is unset). A change to any of them (or to the grammar, which
// pest_derive reads) rebuilds this script, and cargo runs a rebuilt script
// again: the embedded trees never lag behind the types that read them.
#[path = "src"]
#[allow(dead_code, unused_imports, missing_docs)]
mod tb {
    pub mod codes;
    pub mod diag;
    pub mod escape;
    pub mod num;
    pub mod syntax;
    pub mod text;
}
use tb::{codes, diag, escape, num, syntax, text};

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
    // The crate's `syntax::compiled` reads the trees this script makes.
    println!("cargo:rustc-cfg=tb_compiled");
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
    let out_dir = std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into());
    let out_dir = Path::new(&out_dir);
    let _ = std::fs::write(out_dir.join("shipped.rs"), code);
    compile(&rulesets, out_dir);
}

/// Parse every shipped ruleset and write `compiled.rs`: (text, serialised
/// tree) for each. Panics (fails the build) on any syntax error.
fn compile(rulesets: &[(String, String)], out_dir: &Path) {
    let mut code = String::from(
        "/// Every shipped ruleset's text and its syntax tree (postcard).\n\
         static COMPILED: &[(&str, &[u8])] = &[\n",
    );
    for (i, (name, path)) in rulesets.iter().enumerate() {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let src = diag::Source::new(name.clone(), text);
        let file = match syntax::parse::parse_text(&src) {
            Ok(file) => file,
            Err(diags) => {
                let all: Vec<String> = diags.iter().map(diag::Diag::plain).collect();
                panic!("shipped ruleset {name} does not parse:\n{}", all.join("\n"));
            }
        };
        let bytes = postcard::to_allocvec(&file).expect("a syntax tree serialises");
        let bin = out_dir.join(format!("compiled-{i}.bin"));
        std::fs::write(&bin, bytes).unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
        let _ = writeln!(
            code,
            "    (include_str!({path:?}), include_bytes!({:?})),",
            bin.display().to_string()
        );
    }
    code.push_str("];\n");
    let _ = std::fs::write(out_dir.join("compiled.rs"), code);
}
