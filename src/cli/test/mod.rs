//! `tb test PATH...`: runs ruleset tests. A test file (`*.test.toml`,
//! read by `file`) names a ruleset, an event and the standings expected;
//! each case is ranked as `tb eval` ranks it and compared, and the
//! differences are printed as `tb verify` prints them.
//!
//! In: paths (files, or folders searched for `*.test.toml`). Out: the
//! report for standard output, and the exit code: 0 when every case
//! passes, 4 when one fails; a test file, ruleset or event that cannot be
//! used is a diagnostic (the others still run), exit 3.

mod file;

use crate::cli::prepare::prepare_event;
use crate::{PathArgs, RulesArgs, SystemArg, EXIT_VERIFY};
use file::{At, Case, EventRef, Expect, Expected};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tb::codes;
use tb::diag::{Diag, Source};
use tb::eval::Value;
use tb::model::Event;
use tb::rank::Standings;

/// What ruleset tests are called: the suffix keeps them apart from events
/// (`*.toml`) in the same folder, and says what they are.
pub const SUFFIX: &str = ".test.toml";

/// Run the tests under `paths`: the report, and the exit code or the
/// diagnostics of what could not be run.
pub fn run(paths: &[String], allow: &PathArgs) -> (String, Result<ExitCode, Diag>) {
    let mut out = String::new();
    let files = match test_files(paths) {
        Ok(f) => f,
        Err(d) => return (out, Err(d)),
    };
    let (mut passed, mut failed, mut broken) = (0, 0, Vec::new());
    for path in &files {
        let name = path.display().to_string();
        let _ = writeln!(out, "{name}");
        let source = match crate::cli::files::read_file(path) {
            Ok(s) => s,
            Err(e) => {
                let _ = writeln!(out, "  ERROR {e}");
                broken.push(Diag::error(codes::TEST_NO_TESTS, e));
                continue;
            }
        };
        let cases = match file::read(&source) {
            Ok(c) => c,
            Err(d) => {
                let _ = writeln!(out, "  ERROR {} (the test file: see below)", d.message);
                broken.push(d);
                continue;
            }
        };
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        for case in &cases {
            match run_case(&source, dir, case, allow) {
                Ok((compared, diffs)) if diffs.is_empty() => {
                    passed += 1;
                    let _ = writeln!(out, "  ok    {} ({compared} compared)", case.name);
                }
                Ok((compared, diffs)) => {
                    failed += 1;
                    let _ = writeln!(out, "  FAIL  {}", case.name);
                    for d in &diffs {
                        // A rank's cause on the next line, as `verify` prints it.
                        let _ = writeln!(out, "        {}", d.replace('\n', "\n          "));
                    }
                    let _ = writeln!(out, "        {compared} compared, {} differ", diffs.len());
                }
                Err(d) => {
                    let _ = writeln!(out, "  ERROR {}: {} (see below)", case.name, d.message);
                    broken.push(d);
                }
            }
        }
    }
    let cases = passed + failed + broken.len();
    let plural = if cases == 1 { "" } else { "s" };
    let _ = write!(
        out,
        "{cases} case{plural}: {passed} passed, {failed} failed"
    );
    let _ = match broken.len() {
        0 => writeln!(out),
        n => writeln!(out, ", {n} could not be run"),
    };
    if !broken.is_empty() {
        let n = broken.len();
        return (
            out,
            Err(Diag::many(
                codes::TEST_ERRORS,
                format!("{n} test cases or files could not be run"),
                broken,
            )),
        );
    }
    let code = if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_VERIFY)
    };
    (out, Ok(code))
}

/// The test files `paths` name: files as given, folders searched (in
/// sorted order) for `*.test.toml`.
fn test_files(paths: &[String]) -> Result<Vec<PathBuf>, Diag> {
    let mut out = Vec::new();
    for p in paths {
        let path = Path::new(p);
        if path.is_file() {
            out.push(path.to_path_buf());
        } else if path.is_dir() {
            let before = out.len();
            walk(path, &mut out);
            if out.len() == before {
                return Err(Diag::error(
                    codes::TEST_NO_TESTS,
                    format!("no test files (`*{SUFFIX}`) under {p}"),
                )
                .with_help(
                    "a ruleset test is a file named NAME.test.toml (README, Ruleset tests)",
                ));
            }
        } else {
            return Err(
                Diag::error(codes::TEST_NO_TESTS, format!("no file or folder {p}"))
                    .with_help("give test files (NAME.test.toml) or folders holding them"),
            );
        }
    }
    Ok(out)
}

/// The test files under `dir`, in name order. Symbolic links are not
/// followed (a link to a folder above would loop forever), neither to
/// folders nor to files: the tests run are those in the folder.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<(PathBuf, std::fs::FileType)> = entries
        .flatten()
        .filter_map(|e| Some((e.path(), e.file_type().ok()?)))
        .collect();
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    for (p, kind) in entries {
        if kind.is_dir() {
            walk(&p, out);
        } else if kind.is_file() && p.to_string_lossy().ends_with(SUFFIX) {
            out.push(p);
        }
    }
}

/// The nearest of `known` to `name` (case aside), if near enough for a
/// did-you-mean.
fn nearest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    known
        .into_iter()
        .map(|k| (tb::text::edit_distance(&lower, &k.to_lowercase()), k))
        .filter(|(d, k)| *d <= (k.chars().count() / 3).max(2))
        .min()
        .map(|(_, k)| k)
}

/// A file the test names, relative to the test file; an error pointing at
/// the name when there is none.
fn beside(source: &Source, dir: &Path, name: &At<String>, what: &str) -> Result<String, Diag> {
    let p = dir.join(&name.v);
    if p.is_file() {
        return Ok(p.display().to_string());
    }
    let shipped = name.v.trim_end_matches(".tb");
    let help = if what == "ruleset" && tb::shipped::get(shipped).is_some() {
        format!("did you mean the shipped ruleset `{shipped}` (write it without `.tb`)?")
    } else {
        format!(
            "paths are relative to the test file's folder, {}",
            dir.display()
        )
    };
    Err(Diag::error(
        codes::TEST_MISSING_FILE,
        format!("no {what} file {}", p.display()),
    )
    .at(source, name.span, "not found")
    .with_help(help))
}

/// Run one case: how many expectations were compared, and the differences.
fn run_case(
    source: &Source,
    dir: &Path,
    case: &Case,
    allow: &PathArgs,
) -> Result<(usize, Vec<String>), Diag> {
    let s = &case.settings;
    let mut files = Vec::new();
    if let Some(r) = &s.ruleset {
        if r.v.ends_with(".tb") {
            files.push(beside(source, dir, r, "ruleset")?);
        } else if tb::shipped::get(&r.v).is_some() {
            files.push(r.v.clone());
        } else {
            let names = tb::shipped::list();
            let near = nearest(&r.v, names.iter().map(|(n, ..)| *n))
                .map_or(String::new(), |n| format!("did you mean `{n}`? "));
            return Err(Diag::error(
                codes::TEST_MISSING_FILE,
                format!("no shipped ruleset `{}`", r.v),
            )
            .at(source, r.span, "not shipped")
            .with_help(format!(
                "{near}`tb list` names the shipped rulesets; a ruleset file is named by its path ending in `.tb`, relative to the test file"
            )));
        }
    }
    let (event, loaded) = match &s.event {
        Some(EventRef::Path(p)) => (beside(source, dir, p, "event")?, None),
        Some(EventRef::Inline(path)) => {
            let steps: Vec<&str> = path.iter().map(String::as_str).collect();
            let ev = tb::load::native::load_toml_table(source, &steps)?;
            (format!("{} [{}]", source.name, path.join(".")), Some(ev))
        }
        None => unreachable!("file::read refuses a case without an event"),
    };
    files.push(event);
    let args = RulesArgs {
        files,
        tiebreaks: s.tiebreaks.as_ref().map(|t| t.v.clone()),
        library: s.library.as_ref().map(|t| t.v.clone()),
        edition: s.edition.as_ref().map(|t| t.v.clone()),
        system: s.system.as_ref().map(|t| match t.v.as_str() {
            "swiss" => SystemArg::Swiss,
            _ => SystemArg::RoundRobin,
        }),
        params: s.params.iter().map(|p| p.v.clone()).collect(),
        threads: None,
        strict: false,
        after_round: None,
        paths: allow.clone(),
    };
    let p = prepare_event(&args, loaded).map_err(|d| in_case(d, source, case))?;
    let mut st = tb::rank::rank(&p.event, &p.rs, &tb::rank::Options::default())?;
    tb::rank::places::apply(&mut st, &p.rs);
    // The ranks the case expects, for the cause of a difference (the step
    // that parts the expected order from the computed one).
    let expected: std::collections::HashMap<usize, usize> = case
        .expect
        .iter()
        .filter_map(|e| {
            Some((
                participant(source, &e.who, &p.event).ok()?,
                e.rank.as_ref()?.v,
            ))
        })
        .collect();
    let expected = |pid: usize| expected.get(&pid).copied();
    let mut compared = 0;
    let mut diffs = Vec::new();
    for e in &case.expect {
        compared += compare(source, e, &p.event, &p.rs, &st, &expected, &mut diffs)?;
    }
    Ok((compared, diffs))
}

/// A problem `tb eval` would report on its command line (a bad edition,
/// parameter, ...), told of the case whose settings caused it.
fn in_case(d: Diag, source: &Source, case: &Case) -> Diag {
    if d.source.is_some() {
        return d;
    }
    let mut out = Diag::error(codes::TEST_INVALID, d.message).at(
        source,
        case.span,
        "in this case's settings",
    );
    out.help = d.help;
    out
}

/// Compare one participant's expectations with the standings: the number
/// compared; each difference is pushed to `diffs`.
fn compare(
    source: &Source,
    e: &Expect,
    event: &Event,
    rs: &tb::plan::Ruleset,
    st: &Standings,
    expected: &dyn Fn(usize) -> Option<usize>,
    diffs: &mut Vec<String>,
) -> Result<usize, Diag> {
    let pid = participant(source, &e.who, event)?;
    let p = &event.participants[pid];
    let who = format!("{} ({})", p.name, p.id);
    let Some(i) = st.rows.iter().position(|r| r.pid == pid) else {
        diffs.push(format!("{who}: not in the standings"));
        return Ok(1);
    };
    let row = &st.rows[i];
    let mut compared = 0;
    if let Some(rank) = &e.rank {
        compared += 1;
        if rank.v != row.rank {
            let cause = crate::cli::verify::causes::cause(event, st, pid, rank.v, expected)
                .map_or(String::new(), |c| format!("\n  {c}"));
            diffs.push(format!(
                "{who}: expected rank {}, computed {}{cause}",
                rank.v, row.rank
            ));
        }
    }
    if let Some(want) = &e.decided {
        compared += 1;
        let shared = st.rows.iter().filter(|r| r.rank == row.rank).count() > 1;
        let (label, full) = match (&row.unresolved, &row.decided_by) {
            (Some(_), _) => ("unresolved".to_string(), None),
            _ if shared => ("shared".to_string(), None),
            (None, Some(d)) => (
                d.criterion.clone(),
                d.cite.as_ref().map(|c| format!("{} ({c})", d.criterion)),
            ),
            (None, None) => ("nothing".to_string(), None),
        };
        if want.v != label && Some(&want.v) != full.as_ref() {
            let shown = full.unwrap_or(label);
            diffs.push(format!(
                "{who}: expected decided by {}, computed {shown}",
                want.v
            ));
        }
    }
    for (name, want) in &e.values {
        compared += 1;
        let got = value(source, name, event, rs, st, i)?;
        let same = match (&want.v, &got) {
            (Expected::Num(n), Value::Num(m)) => n == m,
            (Expected::Undefined, Value::Undef) => true,
            _ => false,
        };
        if !same {
            let want = match &want.v {
                Expected::Num(n) => n.to_string(),
                Expected::Undefined => "undefined".to_string(),
            };
            diffs.push(format!(
                "{who}: {} expected {want}, computed {}",
                name.v,
                shown(&got)
            ));
        }
    }
    Ok(compared)
}

/// A participant by id, else by name (when one has it); an error with
/// did-you-mean otherwise.
fn participant(source: &Source, who: &At<String>, event: &Event) -> Result<usize, Diag> {
    if let Some(pid) = event.find(&who.v) {
        return Ok(pid);
    }
    let named: Vec<usize> = (0..event.participants.len())
        .filter(|&i| event.participants[i].name == who.v)
        .collect();
    if let [one] = named.as_slice() {
        return Ok(*one);
    }
    let known = event
        .participants
        .iter()
        .flat_map(|p| [p.id.as_str(), p.name.as_str()]);
    let near = nearest(&who.v, known).map_or(String::new(), |n| format!("did you mean `{n}`? "));
    let why = if named.len() > 1 {
        format!("{} participants are named `{}`", named.len(), who.v)
    } else {
        format!("no participant `{}` in the event", who.v)
    };
    Err(Diag::error(codes::TEST_UNKNOWN_PARTICIPANT, why)
        .at(source, who.span, "not a participant")
        .with_help(format!(
            "{near}name a participant by its id (or by its name when no other has it)"
        )))
}

/// The value of a step (its column label) or a metric (its name) for the
/// participant in row `i`.
fn value(
    source: &Source,
    name: &At<String>,
    event: &Event,
    rs: &tb::plan::Ruleset,
    st: &Standings,
    i: usize,
) -> Result<Value, Diag> {
    if let Some(c) = st.columns.iter().position(|c| c.label == name.v) {
        return Ok(st.rows[i].values[c].clone());
    }
    let id = &event.participants[st.rows[i].pid].id;
    if rs.metrics.iter().any(|m| m.name == name.v) {
        return tb::eval::metric_value(event, rs, &name.v, id).map_err(|d| {
            Diag::error(d.code, d.message)
                .at(source, name.span, "this metric")
                .with_help("name a step by its label, or a metric that takes no arguments")
        });
    }
    let known = st
        .columns
        .iter()
        .map(|c| c.label.as_str())
        .chain(rs.metrics.iter().map(|m| m.name.as_ref()));
    let near = nearest(&name.v, known).map_or(String::new(), |n| format!("did you mean `{n}`? "));
    let labels: Vec<&str> = st.columns.iter().map(|c| c.label.as_str()).collect();
    Err(Diag::error(
        codes::TEST_UNKNOWN_VALUE,
        format!("`{}` is neither a step nor a metric of the ruleset", name.v),
    )
    .at(source, name.span, "no such step or metric")
    .with_help(format!(
        "{near}the steps are: {}; or name a metric of the ruleset",
        labels.join(", ")
    )))
}

/// A computed value, exactly (with four places when that is a fraction).
fn shown(v: &Value) -> String {
    match v {
        Value::Undef => "undefined".to_string(),
        Value::Num(n) => match n.to_exact_decimal() {
            Some(d) => d,
            None => format!("{n} ({})", n.to_fixed(4)),
        },
        other => other.display(None).unwrap_or_default(),
    }
}
