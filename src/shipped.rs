//! The rulesets shipped inside the binary (every file under `rulesets/`:
//! `.tb` files named without the extension, the data files of tables with
//! it), and the resolver that finds imports and tables among them.

use crate::check::Resolve;
use crate::diag::Source;

include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

/// The text of a shipped ruleset or library by name (`cards/swiss`).
pub fn get(name: &str) -> Option<&'static str> {
    let name = name.strip_suffix(".tb").unwrap_or(name);
    SHIPPED.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
}

/// A shipped ruleset or library as a source to check (named as given,
/// without `.tb`).
pub fn source(name: &str) -> Option<Source> {
    get(name).map(|text| Source::new(name.to_string(), text))
}

/// A shipped data file (a table's rows) as a source, by name with its
/// extension (`fide/rating-difference.txt`).
pub fn data(name: &str) -> Option<Source> {
    SHIPPED_DATA
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(n, text)| Source::new(n.to_string(), *text))
}

/// Resolves imports and tables' data files among the shipped files only:
/// a name relative to the importing file's folder first (`lib` from
/// `fide/swiss`), then the name as given. Reads no files; text from memory
/// may import shipped libraries through it.
pub struct Shipped;

impl Resolve for Shipped {
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String> {
        let find = |n: &str| source(n).or_else(|| data(n));
        if let Some((dir, _)) = from.name.rsplit_once('/') {
            if let Some(s) = find(&format!("{dir}/{name}")) {
                return Ok(s);
            }
        }
        find(name).ok_or_else(|| format!("no shipped ruleset or library named `{name}`"))
    }
}

/// Shipped files whose name ends in `/{leaf}` (`lib` → `fide/lib`,
/// `us-chess/lib`, ...): what a relative import copied out of `rulesets/`
/// most likely meant.
pub fn ending_in(leaf: &str) -> Vec<&'static str> {
    SHIPPED
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| name.rsplit('/').next() == Some(leaf) && name.contains('/'))
        .collect()
}

/// Names of the shipped libraries that declare how a list of codes ranks
/// (a `codes "..."` line): what `--library` may name.
pub fn code_libraries() -> Vec<&'static str> {
    SHIPPED
        .iter()
        // A line that starts `codes "`, found by a substring search (every
        // `--tiebreaks` run asks this of every shipped file).
        .filter(|(_, text)| text.starts_with("codes \"") || text.contains("\ncodes \""))
        .map(|(name, _)| *name)
        .collect()
}

/// Names of the shipped libraries (files without `standings`), in order.
pub fn libraries() -> Vec<&'static str> {
    SHIPPED
        .iter()
        .filter(|(name, text)| {
            name.contains('/')
                && !text
                    .lines()
                    .any(|l| l.trim_start().starts_with("standings "))
        })
        .map(|(name, _)| *name)
        .collect()
}

/// Names of shipped rulesets that rank an event (libraries excluded), with
/// the `title` and `source` lines of each.
pub fn list() -> Vec<(&'static str, String, String)> {
    let mut out = Vec::new();
    for (name, text) in SHIPPED {
        if !text
            .lines()
            .any(|l| l.trim_start().starts_with("standings "))
        {
            continue;
        }
        let header = |kw: &str| {
            text.lines()
                .find_map(|l| {
                    l.trim_start()
                        .strip_prefix(kw)
                        .map(|r| r.trim().trim_matches('"').to_string())
                })
                .unwrap_or_default()
        };
        out.push((*name, header("title "), header("source ")));
    }
    out
}
