//! The layer rules checked: each stage's source is read and every path it
//! names (`use crate::X`, `crate::X::...`, `super::super::...` out of its
//! folder, `std::fs`) is compared with what the stage may not import.
//!
//! [`RULES`] is the table ARCHITECTURE.md's "May not import" column
//! describes, in the one place it is enforced.

use std::path::Path;

/// What each stage (a folder under `src/`) may not import: paths that
/// start with one of `forbidden` and none of `allowed` (a finer part of a
/// forbidden stage that the stage's contract lets it use). `std::fs` is
/// the file system.
struct Rule {
    stage: &'static str,
    forbidden: &'static [&'static str],
    allowed: &'static [&'static str],
}

/// ARCHITECTURE.md's table, and beside the pipeline `format` (`tb fmt`).
const RULES: &[Rule] = &[
    Rule {
        stage: "syntax",
        forbidden: &["check", "plan", "load", "eval", "rank", "render", "std::fs"],
        allowed: &[],
    },
    Rule {
        stage: "check",
        forbidden: &["eval", "rank", "render", "load", "std::fs"],
        allowed: &[],
    },
    Rule {
        stage: "plan",
        forbidden: &["eval", "rank", "render", "load"],
        allowed: &[],
    },
    Rule {
        stage: "model",
        forbidden: &["syntax", "check", "plan", "load", "eval", "rank", "render"],
        allowed: &[],
    },
    Rule {
        stage: "load",
        forbidden: &["eval", "check", "rank", "render"],
        allowed: &[],
    },
    Rule {
        stage: "eval",
        forbidden: &["rank", "render", "load"],
        allowed: &[],
    },
    Rule {
        stage: "rank",
        forbidden: &["render", "load", "syntax::descriptors"],
        allowed: &[],
    },
    Rule {
        stage: "render",
        forbidden: &["load", "check", "syntax"],
        // The AST's `Direction`, `Select` and `EndKind`, which it shows.
        allowed: &["syntax::ast"],
    },
    Rule {
        stage: "format",
        forbidden: &[
            "check", "plan", "model", "load", "eval", "rank", "render", "std::fs",
        ],
        allowed: &[],
    },
];

/// The text of `src` with comments and the contents of string and
/// character literals blanked (a path in a doc comment or a message is
/// not an import); line breaks are kept.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    // Blank `b[from..to]`, keeping line breaks.
    let blank = |out: &mut String, from: usize, to: usize| {
        for &c in &b[from..to.min(b.len())] {
            out.push(if c == b'\n' { '\n' } else { ' ' });
        }
    };
    while i < b.len() {
        let rest = &src[i..];
        if rest.starts_with("//") {
            let end = rest.find('\n').map_or(b.len(), |n| i + n);
            blank(&mut out, i, end);
            i = end;
        } else if rest.starts_with("/*") {
            // Block comments nest.
            let (mut depth, mut j) = (0, i);
            while j < b.len() {
                if src[j..].starts_with("/*") {
                    depth += 1;
                    j += 2;
                } else if src[j..].starts_with("*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if let Some((prefix, hashes)) = raw_string_start(rest) {
            let close = format!("\"{}", "#".repeat(hashes));
            let open = prefix + hashes + 1;
            let end = rest[open..]
                .find(&close)
                .map_or(b.len(), |n| i + open + n + close.len());
            blank(&mut out, i, end);
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if b[i] == b'\'' {
            // A character literal ('x', '\n', '"'); otherwise a lifetime.
            let len = if b.get(i + 1) == Some(&b'\\') {
                rest.get(3..).and_then(|r| r.find('\'')).map(|n| n + 4)
            } else {
                rest[1..]
                    .char_indices()
                    .nth(1)
                    .filter(|(_, c)| *c == '\'')
                    .map(|(n, _)| n + 2)
            };
            match len {
                Some(n) => {
                    blank(&mut out, i, i + n);
                    i += n;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// A raw string starting `rest` (`r"`, `r#"`, `br"`): the length of its
/// `r` or `br`, and its number of `#`.
fn raw_string_start(rest: &str) -> Option<(usize, usize)> {
    let r = rest.strip_prefix('b').unwrap_or(rest).strip_prefix('r')?;
    let hashes = r.len() - r.trim_start_matches('#').len();
    r[hashes..]
        .starts_with('"')
        .then_some((rest.len() - r.len(), hashes))
}

/// Every path that starts at byte `at` of `code` (a use tree: `a::b`,
/// `a::{b, c::d}`, `a::*`), each as its segments.
fn use_tree(code: &str, at: usize) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    tree(code.as_bytes(), &mut { at }, Vec::new(), &mut paths);
    paths
}

/// Read one use tree at `*i` under `prefix` into `out`.
fn tree(b: &[u8], i: &mut usize, mut prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let skip_ws = |i: &mut usize| {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    loop {
        skip_ws(i);
        if b.get(*i) == Some(&b'{') {
            *i += 1;
            loop {
                skip_ws(i);
                match b.get(*i) {
                    None => return,
                    Some(b'}') => {
                        *i += 1;
                        return;
                    }
                    Some(b',') => *i += 1,
                    Some(_) => {
                        let before = *i;
                        tree(b, i, prefix.clone(), out);
                        // `as name`, or anything else the group holds.
                        while *i < b.len() && !matches!(b[*i], b',' | b'}') {
                            *i += 1;
                        }
                        if *i == before {
                            *i += 1;
                        }
                    }
                }
            }
        }
        let start = *i;
        while *i < b.len() && (b[*i].is_ascii_alphanumeric() || b[*i] == b'_' || b[*i] == b'*') {
            *i += 1;
        }
        let seg = String::from_utf8_lossy(&b[start..*i]).to_string();
        if seg.is_empty() {
            out.push(prefix);
            return;
        }
        if seg != "self" {
            prefix.push(seg);
        }
        skip_ws(i);
        if b[*i..].starts_with(b"::") {
            *i += 2;
        } else {
            out.push(prefix);
            return;
        }
    }
}

/// The module path of a file under `src/` (`load/trf/team.rs` ->
/// `load::trf::team`; a `mod.rs` is its folder).
fn module_of(rel: &str) -> Vec<String> {
    let rel = rel.strip_suffix(".rs").unwrap_or(rel);
    let mut parts: Vec<String> = rel.split('/').map(str::to_string).collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// Every path the source names from the crate's root or the standard
/// library, `super::` chains resolved against the file's module `rel`:
/// each as `crate::a::b` or `std::a::b`, with its line.
fn paths_named(rel: &str, src: &str) -> Vec<(usize, String)> {
    let code = code_only(src);
    let module = module_of(rel);
    let mut found = Vec::new();
    for root in ["crate::", "super::", "std::"] {
        let mut from = 0;
        while let Some(n) = code[from..].find(root) {
            let at = from + n;
            from = at + root.len();
            let prev = code[..at].chars().next_back();
            if prev.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let line = code[..at].matches('\n').count() + 1;
            for path in use_tree(&code, at) {
                let full = match path.first().map(String::as_str) {
                    Some("super") => {
                        let ups = path.iter().take_while(|s| *s == "super").count();
                        if ups > module.len() {
                            continue;
                        }
                        let mut full = vec!["crate".to_string()];
                        full.extend(module[..module.len() - ups].iter().cloned());
                        full.extend(path[ups..].iter().cloned());
                        full
                    }
                    _ => path,
                };
                found.push((line, full.join("::")));
            }
        }
    }
    found
}

/// Whether `path` (`crate::a::b`, `std::fs`) is, or is inside, `module`
/// (`a`, `a::b`, `std::fs`).
fn within(path: &str, module: &str) -> bool {
    let module = if module.starts_with("std::") {
        module.to_string()
    } else {
        format!("crate::{module}")
    };
    path == module || path.starts_with(&format!("{module}::"))
}

/// The imports in `src` (the file `rel` under `src/`) that `rule` forbids,
/// as `rel:line: path`.
fn violations(rule: &Rule, rel: &str, src: &str) -> Vec<String> {
    paths_named(rel, src)
        .into_iter()
        .filter(|(_, p)| {
            rule.forbidden.iter().any(|f| within(p, f))
                && !rule.allowed.iter().any(|a| within(p, a))
        })
        .map(|(line, p)| format!("{rel}:{line}: {} imports {p}", rule.stage))
        .collect()
}

/// Every `.rs` file under `dir`, as its path under `src/`.
fn sources(src: &Path, dir: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(src, &p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel = p.strip_prefix(src).unwrap_or(&p);
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

#[test]
fn no_stage_imports_one_it_may_not() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    for rule in RULES {
        let mut files = Vec::new();
        sources(&src, &src.join(rule.stage), &mut files);
        if src.join(format!("{}.rs", rule.stage)).is_file() {
            files.push(format!("{}.rs", rule.stage));
        }
        assert!(!files.is_empty(), "no source for stage {}", rule.stage);
        for rel in files {
            let text = std::fs::read_to_string(src.join(&rel)).expect("a source file");
            all.extend(violations(rule, &rel, &text));
        }
    }
    assert!(
        all.is_empty(),
        "stages import what ARCHITECTURE.md says they may not:\n{}",
        all.join("\n")
    );
}

#[test]
fn every_stage_of_the_architecture_has_a_rule() {
    let arch = include_str!("../ARCHITECTURE.md");
    for line in arch.lines().filter(|l| l.contains("| `src/")) {
        let stage = line.split('|').nth(1).unwrap_or("").trim();
        assert!(
            RULES.iter().any(|r| r.stage == stage),
            "ARCHITECTURE.md's stage `{stage}` has no rule in tests/layers.rs"
        );
    }
}

/// The checker itself catches each form of a forbidden import, and lets
/// the allowed ones through.
#[test]
fn the_checker_catches_a_forbidden_import() {
    let render = RULES.iter().find(|r| r.stage == "render").expect("render");
    let text = r#"
        //! Mentions crate::load in a comment: not an import.
        use crate::load::trf;
        use crate::{model, check::inputs};
        use crate::syntax::ast::Direction;
        use super::super::super::load::csv;
        fn f() -> String {
            let _ = crate::syntax::parse::parse_text;
            let s = "crate::load::x in a string";
            s.into()
        }
    "#;
    let found = violations(render, "render/html/page.rs", text);
    assert_eq!(
        found,
        [
            "render/html/page.rs:3: render imports crate::load::trf",
            "render/html/page.rs:4: render imports crate::check::inputs",
            "render/html/page.rs:8: render imports crate::syntax::parse::parse_text",
            "render/html/page.rs:6: render imports crate::load::csv",
        ]
    );
    let check = RULES.iter().find(|r| r.stage == "check").expect("check");
    let fs = violations(check, "check/mod.rs", "use std::{fs, io};\nuse super::x;");
    assert_eq!(fs, ["check/mod.rs:1: check imports std::fs"]);
    // A `super::` within the stage's own folder is no escape.
    assert!(violations(render, "render/html/page.rs", "use super::super::Meta;").is_empty());
}
