//! The rulesets shipped inside the binary (every `.tb` file under `rulesets/`).

include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

/// The text of a shipped ruleset or library by name (`cards/swiss`).
pub fn get(name: &str) -> Option<&'static str> {
    let name = name.strip_suffix(".tb").unwrap_or(name);
    SHIPPED.iter().find(|(n, _)| *n == name).map(|(_, t)| *t)
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
