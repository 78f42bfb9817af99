//! `tb fmt`: the files and folders named, each `.tb` file formatted by
//! [`tb::format`] and replaced by its formatted text (whole, through a
//! temporary file: [`crate::cli::write`]), or (`--check`) compared with it;
//! `-` is standard input to standard output.

use crate::cli::{files, write};
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tb::codes;
use tb::diag::{Diag, Source};
use tb::syntax::parse::MAX_FILE_BYTES;

/// Exit code: `--check` found a file that is not formatted (as `tb verify`
/// exits when it finds differences).
const EXIT_DIFFERS: u8 = 4;

/// Run `tb fmt` over `paths`. Returns what goes to standard output (the
/// files rewritten, or `--check`'s report, or the formatted standard
/// input) together with the outcome, so that the files already rewritten
/// are listed even when a later one cannot be formatted.
pub fn run(paths: &[String], check: bool) -> (String, Result<ExitCode, Diag>) {
    let mut out = String::new();
    if paths.iter().any(|p| p == "-") {
        if paths.len() > 1 {
            let d = Diag::error(
                codes::CLI_USAGE,
                "`-` (standard input) was given with other paths",
            )
            .with_help("format standard input alone: `tb fmt - < file.tb`");
            return (out, Err(d));
        }
        let result = stdin(check, &mut out);
        return (out, result);
    }
    let files = match collect(paths) {
        Ok(f) => f,
        Err(d) => return (out, Err(d)),
    };
    let mut failed = Vec::new();
    let mut differ = 0;
    for path in &files {
        match one(path, check, &mut out) {
            Ok(true) => differ += 1,
            Ok(false) => {}
            Err(d) => failed.push(d),
        }
    }
    if check && differ > 0 {
        let s = if files.len() == 1 { "" } else { "s" };
        out.push_str(&format!(
            "not formatted: {differ} of {} file{s} (`tb fmt PATH` rewrites them)\n",
            files.len()
        ));
    }
    let n = failed.len();
    let result = match n {
        0 if check && differ > 0 => Ok(ExitCode::from(EXIT_DIFFERS)),
        0 => Ok(ExitCode::SUCCESS),
        _ => Err(Diag::many(
            codes::CHECK_ERRORS,
            format!("{n} files cannot be formatted; each error follows"),
            failed,
        )),
    };
    (out, result)
}

/// Format one file: rewrite it (listing it in `out`) or, with `check`,
/// report its first difference. True when the file was not formatted.
/// The file keeps its byte-order mark and its line ends; it is replaced
/// whole ([`crate::cli::write`]), and not at all if it changed on disk
/// while it was formatted.
fn one(path: &Path, check: bool, out: &mut String) -> Result<bool, Diag> {
    let io = |e: String| Diag::error(codes::CHECK_IO, e);
    let name = path.display().to_string();
    // What the file is before it is read: a change after this is seen.
    let before = write::seen(path).map_err(|e| io(format!("cannot read {name}: {e}")))?;
    let raw = files::read_text(path).map_err(io)?;
    let bom = raw.starts_with(files::BOM);
    let src = Source::new(name, files::without_bom(raw));
    let formatted = tb::format::format_file(&src)?;
    let Some(diff) = tb::format::first_difference(&formatted, &src.text) else {
        return Ok(false);
    };
    if check {
        out.push_str(&format!(
            "{}:{}: not formatted\n  expected: {}\n  found:    {}\n",
            src.name, diff.line, diff.expected, diff.found
        ));
        return Ok(true);
    }
    let bytes = if bom {
        format!("{}{formatted}", files::BOM)
    } else {
        formatted
    };
    write::replace(path, before.as_ref(), bytes.as_bytes()).map_err(|e| match e {
        write::WriteError::Changed => Diag::error(
            codes::CLI_FILE_CHANGED,
            format!(
                "{} changed on disk while it was formatted: left as it is",
                src.name
            ),
        )
        .with_help("run `tb fmt` again on the file as it is now"),
        write::WriteError::Io(e) => Diag::error(
            codes::CHECK_IO,
            format!("cannot write {}: {e} (the file is as it was)", src.name),
        ),
    })?;
    out.push_str(&format!("{}\n", src.name));
    Ok(true)
}

/// `tb fmt -`: standard input formatted to standard output; with `check`,
/// its first difference instead.
fn stdin(check: bool, out: &mut String) -> Result<ExitCode, Diag> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_FILE_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Diag::error(codes::CHECK_IO, format!("cannot read standard input: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|_| {
        Diag::error(
            codes::CHECK_IO,
            "cannot read standard input: it is not UTF-8 text",
        )
    })?;
    // A byte-order mark and the line ends are kept, as in a file.
    let bom = text.starts_with(files::BOM);
    let src = Source::new("<stdin>", files::without_bom(text));
    let formatted = tb::format::format_file(&src)?;
    if !check {
        if bom {
            out.push(files::BOM);
        }
        out.push_str(&formatted);
        return Ok(ExitCode::SUCCESS);
    }
    Ok(match tb::format::first_difference(&formatted, &src.text) {
        None => ExitCode::SUCCESS,
        Some(diff) => {
            out.push_str(&format!(
                "<stdin>:{}: not formatted\n  expected: {}\n  found:    {}\n",
                diff.line, diff.expected, diff.found
            ));
            ExitCode::from(EXIT_DIFFERS)
        }
    })
}

/// The files the paths name: a file as given, a folder's `.tb` files at
/// any depth (in name order). In a folder, symbolic links are not
/// followed, to files or to folders: `tb fmt FOLDER` rewrites the files in
/// the folder, never one a link points to elsewhere.
fn collect(paths: &[String]) -> Result<Vec<PathBuf>, Diag> {
    let mut files = Vec::new();
    for p in paths {
        let path = Path::new(p);
        if path.is_dir() {
            folder(path, &mut files)
                .map_err(|e| Diag::error(codes::CHECK_IO, format!("cannot read {p}: {e}")))?;
        } else if path.is_file() {
            files.push(path.to_path_buf());
        } else {
            let with_tb = format!("{p}.tb");
            let hint = if Path::new(&with_tb).is_file() {
                format!("did you mean `{with_tb}`? ")
            } else {
                String::new()
            };
            // Something is there (a named pipe, a device): it is not a
            // file `fmt` can rewrite, and "no such file" would mislead.
            let what = if path.symlink_metadata().is_ok() {
                "not a regular file or a folder"
            } else {
                "no such file or folder"
            };
            return Err(Diag::error(codes::CLI_USAGE, format!("{p}: {what}"))
                .with_help(format!(
                    "{hint}tb fmt rewrites files on disk: give .tb files or folders (`-` for standard input)"
                )));
        }
    }
    Ok(files)
}

/// The `.tb` files under `dir`, in name order.
fn folder(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        let kind = e.file_type()?;
        if kind.is_dir() {
            folder(&path, files)?;
        } else if kind.is_file() && path.extension().is_some_and(|x| x == "tb") {
            files.push(path);
        }
    }
    Ok(())
}
