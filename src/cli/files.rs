//! Ruleset files on disk, for the command line: the root ruleset by path
//! or shipped name, and imports next to the importing file. The library's
//! checker reads no files; it asks the resolver the caller gives it.
//!
//! A ruleset is text someone else may have written: what it imports and
//! the tables it reads stay in the root ruleset's folder (and the folders
//! below it, and those `--allow-path` names), only regular files are
//! opened, and a file that is neither a ruleset nor a table is refused
//! without quoting its lines (it may be a private key).

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use tb::check::{Resolve, Unresolved};
use tb::codes;
use tb::diag::{Diag, Source};
use tb::syntax::parse::MAX_FILE_BYTES;

/// A byte-order mark, which some editors put at the start of a UTF-8 file:
/// not part of the ruleset.
pub const BOM: char = '\u{feff}';

/// Resolves imports to files next to the importing file, else to shipped
/// rulesets (embedded in the binary). A file on disk must lie in the root
/// ruleset's folder, or in a folder the command line allows.
#[derive(Default)]
pub struct DiskResolver {
    /// `--allow-path` folders, canonical.
    allowed: Vec<PathBuf>,
    /// The root folder (canonical) of each file read through this
    /// resolver, by its display name: an import of an import stays in the
    /// folder of the ruleset the user named.
    roots: RefCell<HashMap<String, PathBuf>>,
}

impl DiskResolver {
    /// A resolver that also reads files under `dirs` (`--allow-path`).
    pub fn allowing(dirs: &[String]) -> Result<DiskResolver, Diag> {
        let mut allowed = Vec::new();
        for d in dirs {
            match std::fs::canonicalize(d) {
                Ok(p) if p.is_dir() => allowed.push(p),
                _ => return Err(Diag::error(
                    codes::CLI_USAGE,
                    format!("--allow-path {d}: no such folder"),
                )
                .with_help(
                    "--allow-path names a folder whose files rulesets may import or read as tables",
                )),
            }
        }
        Ok(DiskResolver {
            allowed,
            roots: RefCell::default(),
        })
    }

    /// Whether the canonical path `p` is in `root` or an allowed folder.
    fn permits(&self, root: Option<&Path>, p: &Path) -> bool {
        root.is_some_and(|r| p.starts_with(r)) || self.allowed.iter().any(|a| p.starts_with(a))
    }

    /// Read `p`, a file `name` names from `from` (whose root folder is
    /// `root`), when it lies where it may.
    fn confined(
        &self,
        name: &str,
        from: &Source,
        p: &Path,
        root: Option<PathBuf>,
    ) -> Result<Source, Unresolved> {
        let canonical = std::fs::canonicalize(p)
            .map_err(|e| Unresolved::from(format!("cannot read {}: {e}", p.display())))?;
        if !self.permits(root.as_deref(), &canonical) {
            let why = if Path::new(name).is_absolute() {
                "an absolute path".to_string()
            } else if Path::new(name)
                .components()
                .any(|c| c == Component::ParentDir)
            {
                "a path out of the ruleset's folder".to_string()
            } else {
                "a symbolic link out of the ruleset's folder".to_string()
            };
            let folder = root
                .as_deref()
                .map_or_else(|| "its folder".to_string(), |r| r.display().to_string());
            return Err(refusal(
                codes::CHECK_PATH_OUTSIDE,
                format!("`{name}` (from {}) is {why}: a ruleset reads files in its folder ({folder}) and below only", from.name),
                "move the file into the ruleset's folder, or allow its folder with `--allow-path DIR`",
            ));
        }
        let src = read_import(p)?;
        if let Some(r) = root {
            self.roots.borrow_mut().insert(src.name.clone(), r);
        }
        Ok(src)
    }
}

/// A refusal with its code and help.
fn refusal(code: &'static str, message: String, help: &str) -> Unresolved {
    Unresolved {
        code: Some(code),
        message,
        help: help.to_string(),
    }
}

impl Resolve for DiskResolver {
    fn resolve(&self, name: &str, from: &Source) -> Result<Source, String> {
        self.lookup(name, from).map_err(|u| u.message)
    }

    fn lookup(&self, name: &str, from: &Source) -> Result<Source, Unresolved> {
        let from_path = Path::new(&from.name);
        // Text the command line wrote (`<tiebreaks>` for `--library X
        // --tiebreaks ...`) imports what the user typed: a file from the
        // current directory, else a shipped name. The file's own imports
        // stay in its folder.
        if from.name.starts_with('<') {
            let mut p = Path::new(name).to_path_buf();
            if p.extension().is_none() {
                p.set_extension("tb");
            }
            if p.is_file() {
                let root = folder_of(&p);
                return self.confined(name, from, &p, root);
            }
        }
        if !from_path.exists() {
            // A shipped file (or text not from disk): shipped names only.
            return tb::shipped::Shipped
                .resolve(name, from)
                .map_err(|_| format!("no shipped ruleset and no file named `{name}`").into());
        }
        let base = from_path.parent().unwrap_or(Path::new("."));
        let root = self
            .roots
            .borrow()
            .get(&from.name)
            .cloned()
            .or_else(|| folder_of(from_path));
        let mut p = base.join(name);
        if p.extension().is_none() {
            p.set_extension("tb");
        }
        if p.exists() {
            return self.confined(name, from, &p, root);
        }
        if Path::new(name).is_absolute() {
            // Refused whether or not it exists: a ruleset does not probe
            // the disk.
            return Err(refusal(
                codes::CHECK_PATH_OUTSIDE,
                format!("`{name}` (from {}) is an absolute path: a ruleset reads files in its folder and below only", from.name),
                "write the path relative to the ruleset, or allow its folder with `--allow-path DIR`",
            ));
        }
        tb::shipped::source(name).ok_or_else(|| unknown(name, from).into())
    }
}

/// The canonical folder of file `p` (None if it cannot be resolved).
fn folder_of(p: &Path) -> Option<PathBuf> {
    let dir = match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::canonicalize(dir).ok()
}

/// The message for an import of a name that is neither a file nor shipped.
fn unknown(name: &str, from: &Source) -> String {
    // A ruleset copied out of `rulesets/` imports its library by a
    // name relative to its old folder: name the shipped ones.
    let leaf = name.trim_end_matches(".tb");
    let mut found = tb::shipped::ending_in(leaf);
    // The federation the file names itself (its title says "FIDE") first.
    let text = from.text.to_ascii_lowercase();
    found.sort_by_key(|n| {
        let folder = n.split('/').next().unwrap_or("");
        (
            !text.contains(&folder.replace('-', " ")) && !text.contains(folder),
            *n,
        )
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
}

/// A file a ruleset imports or reads as a table: a regular file (a FIFO
/// would block, a device never end), and either a ruleset (`.tb`, or text
/// that parses as one) or a table's rows. Anything else is refused by
/// name and line number only: its lines are not quoted.
fn read_import(p: &Path) -> Result<Source, Unresolved> {
    let src = read_regular(p)?;
    let is_tb = p.extension().is_some_and(|x| x == "tb");
    if is_tb || looks_like_table(&src.text) || tb::syntax::parse::parse_each(&src).is_ok() {
        return Ok(src);
    }
    Err(refusal(
        codes::CHECK_NOT_A_RULESET,
        format!(
            "{} is neither a ruleset (it does not parse) nor a table (most of its lines are not a key and a value); its lines are not shown",
            p.display()
        ),
        "import a .tb file, or name a table's data file: rows of two numbers, a key and its value",
    ))
}

/// Whether most lines of `text` (comments and blank lines aside) are
/// table rows, two exact numbers: then a diagnostic may quote its rows.
fn looks_like_table(text: &str) -> bool {
    let (mut lines, mut rows) = (0usize, 0usize);
    for line in text.lines() {
        let content = line.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        lines += 1;
        let fields: Vec<&str> = content.split_whitespace().collect();
        if let [k, v] = fields.as_slice() {
            if tb::num::Num::parse(k).is_some() && tb::num::Num::parse(v).is_some() {
                rows += 1;
            }
        }
    }
    rows > 0 && rows * 2 >= lines
}

/// [`read_file`] of a regular file only: a FIFO, a device or a folder is
/// refused, without blocking on it.
fn read_regular(p: &Path) -> Result<Source, Unresolved> {
    let not_a_file = |what: &str| {
        refusal(
            codes::CHECK_NOT_A_FILE,
            format!("{} is {what}, not a file", p.display()),
            "imports and tables name regular files",
        )
    };
    let meta = std::fs::metadata(p)
        .map_err(|e| Unresolved::from(format!("cannot read {}: {e}", p.display())))?;
    if !meta.is_file() {
        return Err(not_a_file(kind(&meta)));
    }
    // Opened without waiting (a FIFO put in the file's place since is not
    // waited on), then looked at again through the open file.
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options
        .open(p)
        .map_err(|e| Unresolved::from(format!("cannot read {}: {e}", p.display())))?;
    match file.metadata() {
        Ok(m) if m.is_file() => {}
        Ok(m) => return Err(not_a_file(kind(&m))),
        Err(e) => return Err(format!("cannot read {}: {e}", p.display()).into()),
    }
    let text = read_open(p, file)?;
    Ok(Source::new(p.display().to_string(), without_bom(text)))
}

/// `text` without a leading byte-order mark.
pub fn without_bom(text: String) -> String {
    match text.strip_prefix(BOM) {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

/// What a file that is not a regular file is, for a message.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    if meta.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        let t = meta.file_type();
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    "a special file"
}

/// Read a ruleset file from disk (with the size limit); a leading
/// byte-order mark is left out.
pub fn read_file(p: &Path) -> Result<Source, String> {
    let text = without_bom(read_text(p)?);
    Ok(Source::new(p.display().to_string(), text))
}

/// The text of file `p` as it is (a byte-order mark included), with the
/// size limit; an error when it is not UTF-8.
pub fn read_text(p: &Path) -> Result<String, String> {
    let meta = std::fs::metadata(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
    if meta.len() as usize > MAX_FILE_BYTES {
        return Err(too_large(p));
    }
    let file = std::fs::File::open(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
    read_open(p, file)
}

fn too_large(p: &Path) -> String {
    format!("{} is larger than {MAX_FILE_BYTES} bytes", p.display())
}

/// Read the open file `file` (named `p`): at most one byte past the limit,
/// since a device such as /dev/zero reports no size and never ends.
fn read_open(p: &Path, file: std::fs::File) -> Result<String, String> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read {}: {e}", p.display()))?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(too_large(p));
    }
    String::from_utf8(bytes).map_err(|_| {
        format!(
            "cannot read {}: it is not UTF-8 text (save it as UTF-8)",
            p.display()
        )
    })
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
