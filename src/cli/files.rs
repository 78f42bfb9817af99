//! Ruleset files on disk, for the command line: the root ruleset by path
//! or shipped name, and imports next to the importing file. The library's
//! checker reads no files; it asks the resolver the caller gives it.

use std::path::Path;
use tb::check::Resolve;
use tb::codes;
use tb::diag::{Diag, Source};
use tb::syntax::parse::MAX_FILE_BYTES;

/// Resolves imports to files next to the importing file, else to shipped
/// rulesets (embedded in the binary).
pub struct DiskResolver;

impl Resolve for DiskResolver {
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String> {
        let from_path = Path::new(&from.name);
        // Text the command line wrote (`<tiebreaks>` for `--library X
        // --tiebreaks ...`) imports what the user typed: a file from the
        // current directory, else a shipped name.
        if from.name.starts_with('<') {
            let mut p = Path::new(name).to_path_buf();
            if p.extension().is_none() {
                p.set_extension("tb");
            }
            if p.is_file() {
                return read_file(&p);
            }
        }
        if !from_path.exists() {
            // A shipped file (or text not from disk): shipped names only.
            return tb::shipped::Shipped
                .resolve(name, from)
                .map_err(|_| format!("no shipped ruleset and no file named `{name}`"));
        }
        let base = from_path.parent().unwrap_or(Path::new("."));
        let mut p = base.join(name);
        if p.extension().is_none() {
            p.set_extension("tb");
        }
        if p.exists() {
            return read_file(&p);
        }
        tb::shipped::source(name).ok_or_else(|| {
            // A ruleset copied out of `rulesets/` imports its library by a
            // name relative to its old folder: name the shipped ones.
            let leaf = name.trim_end_matches(".tb");
            let mut found = tb::shipped::ending_in(leaf);
            // The federation the file names itself (its title says "FIDE") first.
            let text = from.text.to_ascii_lowercase();
            found.sort_by_key(|n| {
                let folder = n.split('/').next().unwrap_or("");
                (!text.contains(&folder.replace('-', " ")) && !text.contains(folder), *n)
            });
            match found.as_slice() {
                [] => format!("no shipped ruleset and no file named `{name}` next to the importing file"),
                [one] => format!("no file named `{name}` next to the importing file: did you mean the shipped `import \"{one}\"`?"),
                many => format!(
                    "no file named `{name}` next to the importing file; shipped libraries of that name: {} (write e.g. `import \"{}\"`)",
                    many.join(", "),
                    many[0]
                ),
            }
        })
    }
}

/// Read a ruleset file from disk (with the size limit).
pub fn read_file(p: &Path) -> Result<Source, String> {
    let meta = std::fs::metadata(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
    let too_large = || format!("{} is larger than {MAX_FILE_BYTES} bytes", p.display());
    if meta.len() as usize > MAX_FILE_BYTES {
        return Err(too_large());
    }
    // Read at most one byte past the limit: a device such as /dev/zero
    // reports no size and never ends.
    use std::io::Read as _;
    let mut bytes = Vec::new();
    std::fs::File::open(p)
        .and_then(|f| f.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut bytes))
        .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(too_large());
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        format!(
            "cannot read {}: it is not UTF-8 text (save it as UTF-8)",
            p.display()
        )
    })?;
    Ok(Source::new(p.display().to_string(), text))
}

/// Load a ruleset by path or shipped name.
pub fn load_root(name: &str) -> Result<Source, Diag> {
    let p = Path::new(name);
    if p.exists() {
        return read_file(p).map_err(|e| Diag::error(codes::CHECK_IO, e));
    }
    tb::shipped::source(name).ok_or_else(|| {
        // A misspelt shipped name (`fide/swis`): the nearest within two edits.
        let near = tb::shipped::SHIPPED
            .iter()
            .map(|&(n, _)| (tb::text::edit_distance(n, name), n))
            .filter(|(d, _)| *d <= 2)
            .min()
            .map_or(String::new(), |(_, n)| format!("did you mean `{n}`? "));
        Diag::error(
            codes::CHECK_UNKNOWN_RULESET,
            format!("no shipped ruleset and no file named `{name}`"),
        )
        .with_help(format!(
            "{near}`tb list` names the shipped rulesets; or give a path to a .tb file"
        ))
    })
}
