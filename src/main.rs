//! The `tb` command line: a thin layer over the library; it only parses arguments, renders and sets exit codes.

use clap::{Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use tb::codes;
use tb::diag::{Diag, Source};
use tb::num::Num;
use tb::render::{Format, Meta};

// The allocator and its settings, shared with the benchmarks.
mod alloc;
// Reading ruleset files from disk (the library's checker reads none).
mod cli;
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Print to standard output. A closed pipe (`tb eval ... | head`) ends the
/// program quietly instead of panicking; another write error is reported.
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout().lock(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            eprintln!("tb: cannot write the output: {e}");
            std::process::exit(1);
        }
    }};
}

/// [`out!`] with a line break.
macro_rules! outln {
    ($($arg:tt)*) => {{
        out!($($arg)*);
        out!("\n");
    }};
}

/// Exit code: the command line asks for something that cannot be done
/// (clap's own errors exit 2 as well).
const EXIT_USAGE: u8 = 2;
/// Exit code: a ruleset or data file could not be used (or, with
/// `--strict`, gave a warning).
const EXIT_INPUT: u8 = 3;
/// Exit code: `tb verify` found differences.
const EXIT_VERIFY: u8 = 4;

/// tb: ranks tied competitors the way a federation's regulation says.
#[derive(Parser)]
#[command(name = "tb", version, about, long_about = None)]
struct Cli {
    /// How to print diagnostics.
    #[arg(long, global = true, value_enum, default_value_t = DiagStyle::Auto)]
    diagnostics: DiagStyle,
    /// Colour in diagnostics.
    #[arg(long, global = true, value_enum, default_value_t = Color::Auto)]
    color: Color,
    #[command(subcommand)]
    cmd: Cmd,
}

/// Where the ranking rules come from: a ruleset, FIDE descriptors, or the
/// tie-breaks a TRF-26 file carries (shared by eval, explain and verify).
#[derive(clap::Args)]
struct RulesArgs {
    /// A shipped ruleset (`tb list`) or a .tb file, then the event (.toml,
    /// .json, .trf). Leave the ruleset out with --tiebreaks, or for a TRF-26
    /// file whose records 202/212 list its tie-breaks.
    #[arg(value_name = "[RULESET] DATA", num_args = 1..=2, required = true)]
    files: Vec<String>,
    /// A list of tie-break codes, e.g. "PTS,BH/C1,BH,SB" (FIDE's MTB26
    /// descriptors by default): ranked by the codes --library declares;
    /// labels are the codes exactly as given.
    #[arg(long, value_name = "LIST")]
    tiebreaks: Option<String>,
    /// The library whose codes --tiebreaks (or a TRF-26 file's records
    /// 202/212) uses: a shipped library (`tb list --all`) or a .tb file.
    /// Default: the shipped one for the event's sport (chess: fide/codes,
    /// fide/team-codes for a team event; cards: cards/lib).
    #[arg(long, value_name = "LIBRARY")]
    library: Option<String>,
    /// The edition of the regulations, among those the ruleset declares
    /// (FIDE: 2024, 2026). Without it: the ruleset's own, else the one in
    /// force on the event's start date.
    #[arg(long, value_name = "YEAR")]
    edition: Option<String>,
    /// Treat the event as a Swiss or a round robin, whatever the data says.
    #[arg(long, value_enum)]
    system: Option<SystemArg>,
    /// Set a ruleset parameter: `--param floor=0.33` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// Threads used to load and evaluate (default: one per core, at most
    /// 8). The standings never depend on it.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
    /// Treat every warning (about the data, or a ruleset of another sport)
    /// as an error: print them as errors and exit 3 without standings.
    #[arg(long)]
    strict: bool,
    /// The standings as they stood after round N: later rounds' results
    /// (and byes entered for them) are left out. Without it: after the last
    /// round with results.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    after_round: Option<u32>,
    #[command(flatten)]
    paths: PathArgs,
}

/// Where the files a ruleset imports or reads as tables may lie (every
/// command that reads rulesets).
#[derive(clap::Args, Clone, Default)]
struct PathArgs {
    /// Also let rulesets import files (and read tables) in DIR and below
    /// (repeatable). Without it, a ruleset reads only files in its own
    /// folder and below: no absolute path, no `..` out of it, no symbolic
    /// link out of it.
    #[arg(long = "allow-path", value_name = "DIR")]
    allow_path: Vec<String>,
}

impl PathArgs {
    /// The resolver that reads imports and tables from disk.
    fn resolver(&self) -> Result<cli::files::DiskResolver, Diag> {
        cli::files::DiskResolver::allowing(&self.allow_path)
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum SystemArg {
    /// Swiss system.
    Swiss,
    /// All-play-all.
    RoundRobin,
}

#[derive(Clone, Copy, ValueEnum)]
enum DiagStyle {
    /// Graphical when a terminal, plain otherwise.
    Auto,
    /// Graphical, with the source excerpt.
    Fancy,
    /// One problem per line (screen readers, logs).
    Plain,
    /// JSON objects.
    Json,
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum Color {
    /// When printing to a terminal and NO_COLOR is unset.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

#[derive(Subcommand)]
enum Cmd {
    /// Rank an event: print the standings and what decided each tie.
    #[command(
        after_help = "Examples:\n  tb eval fide/swiss examples/chess-swiss.toml\n  tb eval --tiebreaks PTS,BH/C1,BH,SB event.trf --format html > standings.html\n  tb eval fide/swiss event.trf --write-trf ranked.trf\n  tb eval fide/swiss event.trf --after-round 7\n  tb eval fide/swiss event.trf --progress"
    )]
    Eval {
        #[command(flatten)]
        rules: RulesArgs,
        /// Output format.
        #[arg(long, short, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Seed for drawing of lots (without it, lots are reported unresolved).
        #[arg(long)]
        seed: Option<u64>,
        /// Also write the input TRF file with the computed ranks in its rank
        /// column (every other byte as it was), for the rating report.
        #[arg(long, value_name = "OUT.trf")]
        write_trf: Option<String>,
        /// Instead of the standings: each participant's place after every
        /// round, computed with the same ruleset (a column per round).
        #[arg(long, conflicts_with_all = ["write_trf", "categories"])]
        progress: bool,
        /// A prize-list category, printed after the standings:
        /// `NAME=CONDITION` or a condition alone, over each participant's
        /// data (`rating`, `rated`, `sex`, `born`, `federation`,
        /// `me.title`, data values `me.club`). Its members keep their
        /// overall order; `rerank` after the condition ranks them among
        /// themselves. Repeatable.
        #[arg(long = "category", value_name = "[NAME=]CONDITION")]
        categories: Vec<String>,
    },
    /// Show, step by step, how ties were broken (all ties, or those of the given ids).
    #[command(
        after_help = "Example:\n  tb explain cards/swiss examples/cards-swiss.toml --ids fay,gus"
    )]
    Explain {
        #[command(flatten)]
        rules: RulesArgs,
        /// Participant ids to follow (default: every tie).
        #[arg(long, value_delimiter = ',')]
        ids: Vec<String>,
        /// Seed for drawing of lots.
        #[arg(long)]
        seed: Option<u64>,
        /// Also show each value's parts: every opponent, round or game it
        /// counts, with where the number comes from and what a cut removed.
        #[arg(long)]
        detail: bool,
        /// `text` for people, `json` for programs (docs/explain.md).
        #[arg(long, value_enum, default_value_t)]
        format: tb::render::ExplainFormat,
    },
    /// Check rulesets and report every error at once.
    #[command(after_help = "Example:\n  tb check --verbose fide/swiss my-club.tb")]
    Check {
        /// Shipped names or paths.
        #[arg(required = true)]
        rulesets: Vec<String>,
        /// Also list each procedure's steps: label, direction (higher or
        /// lower is better), hand-off and article.
        #[arg(long, short)]
        verbose: bool,
        #[command(flatten)]
        paths: PathArgs,
    },
    /// Compare the computed ranking with the one recorded in the data.
    ///
    /// Each difference is followed by its cause: the step at which the
    /// computed order and the recorded one part, with both participants'
    /// values there.
    #[command(after_help = "Example:\n  tb verify fide/swiss tournament.trf")]
    Verify {
        /// The ruleset (optional, as for `eval`) and the event, whose rank
        /// column / places are compared.
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// Run ruleset tests: `*.test.toml` files (folders are searched), each
    /// naming a ruleset, an event and the standings expected; differences
    /// are printed as `verify` prints them (exit 4).
    #[command(after_help = "Example:\n  tb test rulesets/")]
    Test {
        /// Test files, or folders to search for `*.test.toml` files.
        #[arg(required = true, value_name = "PATH")]
        paths: Vec<String>,
        #[command(flatten)]
        allow: PathArgs,
    },
    /// Format .tb files the one canonical way, in place (lists the files
    /// changed).
    #[command(after_help = "Examples:\n  tb fmt my-club.tb\n  tb fmt --check rulesets/")]
    Fmt {
        /// Files, or folders (every .tb file in them); `-` formats standard
        /// input to standard output.
        #[arg(required = true)]
        paths: Vec<String>,
        /// Write nothing: show each file's first difference from its
        /// formatted text, and exit 4 if any file is not formatted.
        #[arg(long)]
        check: bool,
    },
    /// List the shipped rulesets and the documents they implement.
    #[command(after_help = "Example:\n  tb list --all")]
    List {
        /// Also the libraries rulesets import, with how many metrics and
        /// short codes each defines.
        #[arg(long)]
        all: bool,
    },
    // --- `show`, `doc`, `completions`, `man` (issue #17; bodies in src/cli/).
    /// Print a shipped ruleset or library (`tb list --all` names them).
    ///
    /// Its text as shipped: to read it, or to start a ruleset of your own
    /// from it.
    #[command(after_help = "Examples:\n  tb show fide/swiss\n  tb show fide/lib > fide-lib.tb")]
    Show {
        /// A shipped name (`fide/swiss`, `fide/lib`), or a shipped table's
        /// data file (`fide/rating-difference.txt`).
        name: String,
    },
    /// Write a ruleset out as a readable regulation (Markdown or HTML).
    ///
    /// Its procedures in order, each step with its label, documentation,
    /// direction and article, then the definitions the steps use with
    /// theirs: what a federation publishes next to its .tb file.
    #[command(
        after_help = "Examples:\n  tb doc fide/swiss\n  tb doc my-club.tb --format html > my-club.html"
    )]
    Doc {
        /// A shipped ruleset or library, or a .tb file.
        ruleset: String,
        /// Output format.
        #[arg(long, short, value_enum, default_value_t = cli::doc::DocFormat::Markdown)]
        format: cli::doc::DocFormat,
        #[command(flatten)]
        paths: PathArgs,
    },
    /// Print a shell completion script.
    ///
    /// Generated from the command line's own definition, as `--help` is.
    #[command(
        after_help = "Examples:\n  tb completions bash > /etc/bash_completion.d/tb\n  tb completions zsh > ~/.zfunc/_tb"
    )]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff: `tb man | man -l -`).
    #[command(after_help = "Example:\n  tb man > /usr/local/share/man/man1/tb.1")]
    Man,
}

fn main() -> ExitCode {
    alloc::keep_freed_pages();
    let cli = Cli::parse();
    let style = match cli.diagnostics {
        DiagStyle::Auto if std::io::stderr().is_terminal() => DiagStyle::Fancy,
        DiagStyle::Auto => DiagStyle::Plain,
        s => s,
    };
    let color = match cli.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    match run(cli.cmd, style) {
        Ok(code) => code,
        Err(d) => {
            report(&d, style, color);
            ExitCode::from(exit_code(&d))
        }
    }
}

/// A mistake on the command line exits 2, as clap's own errors do; anything
/// else that stops the run, 3.
fn exit_code(d: &Diag) -> u8 {
    let usage = |d: &Diag| {
        USAGE.contains(&d.code)
            // `--param nope=1`: the checker's code, but no file to point at:
            // the name came from the command line.
            || (d.code == codes::CHECK_UNKNOWN_PARAM && d.source.is_none())
    };
    if usage(d) || (!d.related.is_empty() && d.related.iter().all(usage)) {
        EXIT_USAGE
    } else {
        EXIT_INPUT
    }
}

/// The codes of a command line that asks for what cannot be done.
const USAGE: &[&str] = &[
    codes::CLI_USAGE,
    codes::CLI_BAD_PARAM,
    codes::CLI_NO_RULESET,
    codes::CLI_UNKNOWN_ID,
    codes::CLI_WRITE_TRF,
];

/// The summary of warnings that `--strict` turned into errors.
const STRICT: &str = codes::CLI_STRICT;

/// The event's warnings: with `--strict`, an error (each warning becomes an
/// error with its own code); without, printed to stderr and the run goes on
/// (`--diagnostics json`: one JSON object per line, as errors are).
fn warnings(list: &[tb::model::Warning], strict: bool, style: DiagStyle) -> Result<(), Diag> {
    let help = "--strict makes every warning an error; correct the data (or the ruleset), or leave out --strict";
    if strict && !list.is_empty() {
        let n = list.len();
        let all = list
            .iter()
            .map(|w| Diag::error(w.code, w.message.clone()).with_help(help))
            .collect();
        return Err(Diag::many(
            STRICT,
            format!(
                "{n} warning{} and --strict: no standings",
                if n == 1 { "" } else { "s" }
            ),
            all,
        ));
    }
    for w in list {
        let d = Diag::warning(w.code, w.message.clone());
        match style {
            DiagStyle::Json => eprintln!(
                "{}",
                serde_json::to_string(&d.to_json()).unwrap_or_default()
            ),
            _ => eprint!("{}", d.plain()),
        }
    }
    Ok(())
}

fn report(d: &Diag, style: DiagStyle, color: bool) {
    let mut err = std::io::stderr();
    let text = match style {
        DiagStyle::Json => serde_json::to_string(&d.to_json()).unwrap_or_default() + "\n",
        DiagStyle::Plain | DiagStyle::Auto => d.plain(),
        DiagStyle::Fancy => {
            let theme = if color {
                miette::GraphicalTheme::unicode()
            } else {
                miette::GraphicalTheme::unicode_nocolor()
            };
            let handler = miette::GraphicalReportHandler::new_themed(theme).with_width(100);
            let mut s = String::new();
            match handler.render_report(&mut s, &d.for_terminal()) {
                Ok(()) => s,
                Err(_) => d.plain(),
            }
        }
    };
    let _ = err.write_all(text.as_bytes());
}

fn parse_params(raw: &[String]) -> Result<Vec<(String, Num)>, Diag> {
    raw.iter()
        .map(|p| {
            let (k, v) = p.split_once('=').ok_or_else(|| {
                Diag::error(
                    codes::CLI_BAD_PARAM,
                    format!("--param {p}: expected NAME=VALUE"),
                )
                .with_help("e.g. --param floor=0.33")
            })?;
            let n = Num::parse(v).ok_or_else(|| {
                Diag::error(
                    codes::CLI_BAD_PARAM,
                    format!("--param {p}: `{v}` is not a number"),
                )
                .with_help("write a decimal such as 0.5 or a fraction such as 1/3")
            })?;
            Ok((k.trim().to_string(), n))
        })
        .collect()
}

/// The shipped library whose codes a list uses when `--library` is not
/// given: the one that declares codes for the event's sport (its `sport`
/// line), for a team event the one whose name says `team`, for an
/// individual event one whose name does not. None found, or several: an
/// error that names them.
fn default_library(event: &tb::model::Event) -> Result<String, Diag> {
    let sport = match event.sport {
        tb::model::Sport::Chess => "chess",
        tb::model::Sport::Cards => "cards",
        tb::model::Sport::Bridge => "bridge",
        tb::model::Sport::Other => "other",
    };
    let team = event.kind == tb::model::Kind::Team;
    let line = format!("sport \"{sport}\"");
    let mut fits: Vec<&str> = tb::shipped::code_libraries()
        .into_iter()
        .filter(|n| {
            // The substring search first: most libraries name no such sport.
            tb::shipped::get(n)
                .is_some_and(|t| t.contains(line.as_str()) && t.lines().any(|l| l.trim() == line))
        })
        .filter(|n| n.contains("team") == team)
        .collect();
    // Several for one sport: the one whose `codes` line says `default`.
    let marked = |n: &&str| {
        tb::shipped::get(n).is_some_and(|t| {
            t.lines()
                .filter_map(|l| l.strip_prefix("codes \""))
                .filter_map(|l| l.split_once('"'))
                .any(|(_, rest)| rest.trim_start().starts_with("default"))
        })
    };
    if fits.len() > 1 && fits.iter().filter(|n| marked(n)).count() == 1 {
        fits.retain(marked);
    }
    match fits.as_slice() {
        [one] => Ok(one.to_string()),
        _ => {
            let all = tb::shipped::code_libraries().join(", ");
            let why = if fits.is_empty() {
                format!("no shipped library declares codes for {sport}")
            } else {
                format!(
                    "several shipped libraries declare codes for {sport}: {}",
                    fits.join(", ")
                )
            };
            Err(
                Diag::error(codes::CLI_USAGE, format!("--tiebreaks: {why}")).with_help(format!(
                    "name the library with --library (shipped: {all}; or the path of a .tb file)"
                )),
            )
        }
    }
}

/// `--library NAME`: a file (`.tb` may be left out) or a shipped library.
fn library_exists(name: &str) -> Result<(), Diag> {
    let mut p = std::path::PathBuf::from(name);
    if p.extension().is_none() {
        p.set_extension("tb");
    }
    if p.is_file() || tb::shipped::get(name).is_some() {
        return Ok(());
    }
    let known = tb::shipped::code_libraries();
    let near = known
        .iter()
        .min_by_key(|k| (tb::text::edit_distance(name, k), **k))
        .filter(|k| tb::text::edit_distance(name, k) <= 3)
        .map_or(String::new(), |k| format!("did you mean `{k}`? "));
    Err(Diag::error(
        codes::CLI_USAGE,
        format!("--library {name}: no such file, and no shipped library of that name"),
    )
    .with_help(format!(
        "{near}the shipped libraries with codes are: {}; or give the path of a .tb file",
        known.join(", ")
    )))
}

fn load_ruleset(
    name: &str,
    params: &[String],
    paths: &PathArgs,
) -> Result<tb::plan::Ruleset, Diag> {
    let overrides = parse_params(params)?;
    let resolver = paths.resolver()?;
    let root = cli::files::load_root(name)?;
    tb::check::check(root, &resolver, &overrides)
}

/// Largest data file read.
const MAX_DATA_BYTES: u64 = 200 * 1024 * 1024;

/// Load the event in file `path`, with at most `threads` threads (default:
/// one per core).
fn load_data(path: &str, threads: Option<usize>) -> Result<tb::model::Event, Diag> {
    let bytes = read_data(path)?;
    load_bytes(path, bytes, threads)
}

/// The bytes of the data file `path` (`-`: standard input), read once and
/// never more than one byte past [`MAX_DATA_BYTES`]: a device such as
/// /dev/zero reports no size and never ends.
fn read_data(path: &str) -> Result<Vec<u8>, Diag> {
    use std::io::Read as _;
    let shown = if path == "-" { "<stdin>" } else { path };
    let too_large = || {
        Diag::error(
            codes::LOAD_TOO_LARGE,
            format!("{shown} is larger than 200 MB"),
        )
    };
    let mut bytes = Vec::new();
    if path == "-" {
        // Standard input: the format is told by the text (`Format::detect`).
        std::io::stdin()
            .take(MAX_DATA_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| Diag::error(codes::LOAD_IO, format!("cannot read standard input: {e}")))?;
    } else {
        let meta = std::fs::metadata(path).map_err(|e| {
            Diag::error(codes::LOAD_IO, format!("cannot read {path}: {e}"))
                .with_help("give the path of a .toml, .json or .trf file")
        })?;
        if meta.len() > MAX_DATA_BYTES {
            return Err(too_large());
        }
        std::fs::File::open(path)
            .and_then(|f| f.take(MAX_DATA_BYTES + 1).read_to_end(&mut bytes))
            .map_err(|e| Diag::error(codes::LOAD_IO, format!("cannot read {path}: {e}")))?;
    }
    if bytes.len() as u64 > MAX_DATA_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
}

/// Load the event in `bytes`, read from `path` (`-`: standard input).
fn load_bytes(
    path: &str,
    bytes: Vec<u8>,
    threads: Option<usize>,
) -> Result<tb::model::Event, Diag> {
    let path = if path == "-" { "<stdin>" } else { path };
    // TRF and CSV files are often Windows-1252, USEBIO ones declare theirs.
    let tb::load::decode::Decoded { text, read_as } = tb::load::decode::decode(bytes);
    let source = Source::new(path.to_string(), text);
    let mut ev = tb::load::load_with(&source, threads.unwrap_or_else(tb::par::default_threads))?;
    read_as.tell(&mut ev);
    Ok(ev)
}

/// A ruleset and an event, ready to rank.
struct Prepared {
    rs: tb::plan::Ruleset,
    event: tb::model::Event,
    meta: Meta,
    data: String,
    /// `--threads`.
    threads: Option<usize>,
    /// `--strict`.
    strict: bool,
}

impl Prepared {
    /// Rank the event; a place an undefined value decided is a warning
    /// (an error with `--strict`).
    /// `notes`: the output prints the undefined values' reasons (every
    /// format but CSV); without, only the reasons of places are traced.
    fn rank(
        &self,
        seed: Option<u64>,
        style: DiagStyle,
        notes: bool,
    ) -> Result<tb::rank::Standings, Diag> {
        let mut st = tb::rank::rank(
            &self.event,
            &self.rs,
            &tb::rank::Options {
                lots_seed: seed,
                threads: self.threads,
                only_deciding_reasons: !notes,
                ..Default::default()
            },
        )?;
        // Columns the ruleset prints as places in the tied group.
        tb::rank::places::apply(&mut st, &self.rs);
        warnings(&undefined_warnings(&st, &self.event), self.strict, style)?;
        Ok(st)
    }
}

/// A place decided by an undefined value is never silent: a warning names
/// the participant, the criterion and why the value is missing.
fn undefined_warnings(
    st: &tb::rank::Standings,
    event: &tb::model::Event,
) -> Vec<tb::model::Warning> {
    st.undefined
        .iter()
        .filter(|u| u.decided)
        .map(|u| {
            let p = &event.participants[u.pid];
            let why = u.reason.as_deref().unwrap_or("the reason was not traced");
            tb::model::Warning::new(
                codes::RANK_UNDEFINED_VALUE,
                format!(
                    "{} ({}) was placed after those tied with it by {}, whose value for it is undefined: {why}",
                    p.name, p.id, u.criterion
                ),
            )
        })
        .collect()
}

/// The data checked against the ruleset that will rank it: the values it
/// reads (`tb::check::inputs`) and its sport; warnings go on the event.
fn check_against(event: &mut tb::model::Event, rs: &tb::plan::Ruleset) -> Result<(), Diag> {
    tb::check::inputs::check_event(event, rs)?;
    let mismatch = tb::check::sport_mismatch(rs, event);
    event.warnings.extend(mismatch);
    Ok(())
}

/// Load the event and the rules the arguments name (see [`RulesArgs`]).
fn prepare(a: &RulesArgs) -> Result<Prepared, Diag> {
    prepare_event(a, None)
}

/// [`prepare`], with the event already loaded when `loaded` holds one (a
/// ruleset test's inline event; `a`'s data file then only names it).
fn prepare_event(a: &RulesArgs, loaded: Option<tb::model::Event>) -> Result<Prepared, Diag> {
    prepare_with(a, loaded, None)
}

/// [`prepare_event`]; `bytes`, when there are some, are the data file's,
/// already read (`--write-trf` copies them, and reads the file once).
fn prepare_with(
    a: &RulesArgs,
    loaded: Option<tb::model::Event>,
    bytes: Option<Vec<u8>>,
) -> Result<Prepared, Diag> {
    let (ruleset, data) = match a.files.as_slice() {
        [r, d] => (Some(r.clone()), d.clone()),
        [d] => (None, d.clone()),
        _ => unreachable!("clap takes one or two files"),
    };
    if ruleset.is_some() && a.tiebreaks.is_some() {
        return Err(Diag::error(
            codes::CLI_USAGE,
            format!(
                "both a ruleset ({}) and --tiebreaks were given",
                ruleset.unwrap_or_default()
            ),
        )
        .with_help("give either a ruleset or --tiebreaks"));
    }
    if let (Some(r), Some(_)) = (&ruleset, &a.library) {
        return Err(Diag::error(
            codes::CLI_USAGE,
            format!("--library was given with a ruleset ({r})"),
        )
        .with_help("a ruleset imports its own libraries; --library names the codes of --tiebreaks (or of a TRF-26 file's records 202/212)"));
    }
    if loaded.is_none() {
        if let Some(r) = &ruleset {
            cli::roles::swapped(r, &data)?;
        }
        cli::roles::missing_data(&a.files)?;
    }
    let threads = a.threads.map(usize::from);
    let mut event = match (loaded, bytes) {
        (Some(event), _) => event,
        (None, Some(bytes)) => load_bytes(&data, bytes, threads)?,
        (None, None) => load_data(&data, threads)?,
    };
    if let Some(n) = a.after_round {
        event.after_round(n).map_err(|why| {
            Diag::error(codes::CLI_USAGE, format!("--after-round {n}: {why}"))
                .with_help("give a round that has results; `tb eval` without --after-round ranks after the last one")
        })?;
    }
    // What the loader left out (rounds not yet played) comes first.
    let mut notes = event.notes.clone();
    if let Some(sys) = a.system {
        let (system, name) = match sys {
            SystemArg::Swiss => (tb::model::System::Swiss, "a Swiss"),
            SystemArg::RoundRobin => (tb::model::System::RoundRobin, "a round robin"),
        };
        if event.system != system {
            notes.push(format!("treated as {name} (--system)"));
        }
        event.system = system;
    }
    let explicit = a.edition.as_deref().map(str::trim);
    let overrides = parse_params(&a.params)?;
    let (mut rs, shown) = match (ruleset, &a.tiebreaks) {
        (Some(name), _) => (load_ruleset(&name, &a.params, &a.paths)?, name),
        (None, _) => {
            let (src, shown) = match &a.tiebreaks {
                Some(list) => (
                    Source::new("--tiebreaks", list.clone()),
                    format!("--tiebreaks {list}"),
                ),
                None if !event.tiebreaks.is_empty() => {
                    let list = event.tiebreaks.join(",");
                    (
                        Source::new(format!("{data} (records 202/212)"), list.clone()),
                        format!("{data} records 202/212: {list}"),
                    )
                }
                None => {
                    return Err(Diag::error(
                        codes::CLI_NO_RULESET,
                        format!("no ruleset for {data}"),
                    )
                    .with_help("give a ruleset (`tb list`), --tiebreaks \"PTS,BH/C1,BH,SB\", or a TRF-26 file with its tie-breaks in records 202/212"))
                }
            };
            let library = match &a.library {
                Some(l) => {
                    library_exists(l)?;
                    l.clone()
                }
                None => default_library(&event)?,
            };
            let resolver = a.paths.resolver()?;
            let rs = tb::check::check_list(src, &library, None, &resolver, &overrides)?;
            (rs, shown)
        }
    };
    // A ruleset that declares its regulation's editions takes `--edition`,
    // else its own `edition`, else the one in force on the event's start date.
    if let Some(eds) = rs.editions.clone() {
        let i = rs.params.iter().position(|p| p.name == eds.param);
        let set_by_user = overrides.iter().any(|(k, _)| k == &eds.param);
        let (year, why) = match (explicit, &rs.edition) {
            (Some(e), own) => {
                let Some(&(y, _)) = eds.list.iter().find(|(y, _)| y.to_string() == e) else {
                    let known: Vec<String> = eds.list.iter().map(|(y, _)| y.to_string()).collect();
                    return Err(Diag::error(
                        codes::CLI_USAGE,
                        format!("--edition {e}: not an edition of {shown}"),
                    )
                    .with_help(format!(
                        "its editions ({}) are {}",
                        eds.label,
                        known.join(", ")
                    )));
                };
                match own {
                    Some(own) if own != e => (
                        Some(y),
                        format!("--edition, instead of the ruleset's {own}"),
                    ),
                    _ => (Some(y), "--edition".to_string()),
                }
            }
            (None, Some(_)) => (None, String::new()),
            (None, None) if set_by_user => (None, String::new()),
            (None, None) => {
                let (y, why) = eds.for_date(event.start_date.as_deref());
                (Some(y), why)
            }
        };
        if let (Some(y), Some(i)) = (year, i) {
            rs.params[i].value = Num::int(i64::from(y));
            notes.push(format!("{} {y} ({why})", eds.label));
            if let Some(list) = &rs.list {
                rs.edition = Some(y.to_string());
                rs.source_doc = list.source.as_ref().map(|s| format!("{s}, {y} edition"));
            }
        }
    } else if explicit.is_some() {
        return Err(Diag::error(
            codes::CLI_USAGE,
            format!("--edition: {shown} declares no editions"),
        )
        .with_help("--edition chooses among the editions a ruleset's library declares (`editions ...`), e.g. the FIDE rulesets' 2024 and 2026"));
    }
    if let Some(list) = &rs.list {
        let current: Option<u32> = rs.edition.as_deref().and_then(|e| e.parse().ok());
        let cite = list
            .newer_cite
            .as_ref()
            .map_or(String::new(), |c| format!(" ({c})"));
        for (item, y) in &list.since {
            if let Some(cur) = current.filter(|c| c < y) {
                notes.push(format!(
                    "{item} is defined by the {y} edition; under the {cur} edition it is used as a self-defined tie-break{cite}"
                ));
            }
        }
        if let Some((name, what, cite)) = &list.primary_added {
            let cite = cite.as_ref().map_or(String::new(), |c| format!(" ({c})"));
            notes.push(format!(
                "the list has no {name}: participants are ranked on {what} first{cite}"
            ));
        }
    }
    check_against(&mut event, &rs)?;
    Ok(Prepared {
        rs,
        event,
        meta: Meta {
            ruleset: shown,
            notes,
        },
        data,
        threads: a.threads.map(usize::from),
        strict: a.strict,
    })
}

fn run(cmd: Cmd, style: DiagStyle) -> Result<ExitCode, Diag> {
    match cmd {
        Cmd::Eval {
            rules,
            format,
            seed,
            write_trf,
            progress,
            categories,
        } => {
            // The input of `--write-trf` is read once: its bytes are loaded
            // and then copied.
            let trf_in = match (&write_trf, rules.files.last()) {
                (Some(out), Some(data)) => Some(cli::trf_out::accepts(data, out, read_data)?),
                _ => None,
            };
            let mut p = prepare_with(&rules, None, trf_in.as_ref().map(|t| t.0.clone()))?;
            cli::category::add(&mut p, &categories)?;
            warnings(&p.event.warnings, p.strict, style)?;
            let st = p.rank(seed, style, format != Format::Csv)?;
            if progress {
                let opts = tb::rank::Options {
                    lots_seed: seed,
                    threads: p.threads,
                    only_deciding_reasons: true,
                    ..Default::default()
                };
                let table = tb::rank::progress::by_round(&p.event, &p.rs, &opts, st)?;
                out!(
                    "{}",
                    tb::render::progress(&table, &p.event, &p.rs, &p.meta, format)
                );
                return Ok(ExitCode::SUCCESS);
            }
            let lists = cli::category::lists(&p, &st, seed, style)?;
            if let (Some(out), Some((bytes, before))) = (&write_trf, &trf_in) {
                let note =
                    cli::trf_out::write(&p.data, bytes, out, before.as_ref(), &p.event, &st)?;
                // Standard error carries only JSON objects with `--diagnostics json`.
                if !matches!(style, DiagStyle::Json) {
                    eprintln!("{}", tb::escape::visible(&note));
                }
            }
            let text = tb::render::render(&st, &p.event, &p.rs, &p.meta, format);
            out!(
                "{}",
                tb::render::with_categories(text, &lists, &st, &p.event, format)
            );
            // The process ends here: the event and the standings are left
            // for the kernel to take back whole rather than freed piece by
            // piece (a fiftieth of a small event's run).
            std::mem::forget(st);
            std::mem::forget(p);
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Explain {
            rules,
            ids,
            seed,
            detail,
            format,
        } => {
            let p = prepare(&rules)?;
            let (event, data) = (&p.event, &p.data);
            let mut pids = Vec::new();
            for id in &ids {
                pids.push(event.find(id).ok_or_else(|| {
                    Diag::error(
                        codes::CLI_UNKNOWN_ID,
                        format!("--ids: no participant `{id}` in {data}"),
                    )
                    .with_help("use the ids shown by `tb eval`")
                })?);
            }
            warnings(&p.event.warnings, p.strict, style)?;
            let st = p.rank(seed, style, true)?;
            let mut opts = tb::render::ExplainOptions {
                ids: pids,
                details: None,
            };
            if detail {
                // The parts of the values shown, walked again by the
                // reference evaluator (`tb::eval::detail`).
                let mut ev = tb::eval::Evaluator::new(event, &p.rs)?;
                ev.columnar = false;
                opts.details = Some(Box::new(move |proc_id, k, group: &[usize]| {
                    ev.step_details(proc_id, k, group)
                }));
            }
            out!(
                "{}",
                tb::render::explain(&st, event, &p.rs, &mut opts, format)
            );
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Check {
            rulesets,
            verbose,
            paths,
        } => {
            let mut failed = None;
            for r in &rulesets {
                match load_ruleset(r, &[], &paths) {
                    Ok(rs) => {
                        let codes = match rs.codes.len() {
                            0 => String::new(),
                            n => format!(", {n} codes"),
                        };
                        outln!(
                            "{r}: ok ({} metrics, {} procedures{codes}{})",
                            rs.metrics.len(),
                            rs.procs.len(),
                            if rs.standings.is_some() {
                                ""
                            } else {
                                ", library"
                            }
                        );
                        if verbose {
                            out!("{}", tb::render::procedures(&rs));
                            if !rs.codes.is_empty() {
                                outln!("Short codes (`--tiebreaks`, `codes \"...\"`):");
                                for (code, doc) in &rs.codes {
                                    outln!("  {code:<8} {doc}");
                                }
                            }
                        }
                    }
                    Err(d) => failed = Some(d),
                }
            }
            match failed {
                Some(d) => Err(d),
                None => Ok(ExitCode::SUCCESS),
            }
        }
        Cmd::Verify { rules } => {
            let after = rules.after_round;
            let p = prepare(&rules)?;
            warnings(&p.event.warnings, p.strict, style)?;
            let (event, data) = (&p.event, &p.data);
            let st = p.rank(None, style, true)?;
            // Each difference with its cause (src/cli/verify.rs).
            let recorded = |pid: usize| event.participants[pid].recorded_rank.map(|r| r as usize);
            let (compared, list) = cli::verify::differences(event, &st, &recorded);
            for d in &list {
                // Names from the data, for a terminal.
                outln!("{}", tb::escape::visible(&d.line));
                if let Some(c) = &d.cause {
                    outln!("  {}", tb::escape::visible(c));
                }
            }
            let diffs = list.len();
            if compared == 0 {
                let help = match after {
                    // The file's ranks are those after its last round.
                    Some(n) => format!("the ranks a file records are those after its last round with results; leave out --after-round {n} to compare them"),
                    None => "TRF files carry a rank column; native files a `rank` per participant".to_string(),
                };
                return Err(Diag::error(
                    codes::VERIFY_NO_RANKS,
                    format!("{data} records no ranks to compare"),
                )
                .with_help(help));
            }
            outln!("{compared} compared, {diffs} differ");
            Ok(if diffs == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(EXIT_VERIFY)
            })
        }
        Cmd::Test { paths, allow } => {
            let (report, result) = cli::test::run(&paths, &allow);
            out!("{}", tb::escape::visible(&report));
            result
        }
        Cmd::Fmt { paths, check } => {
            let (text, result) = cli::fmt::run(&paths, check);
            out!("{text}");
            result
        }
        Cmd::List { all } => {
            for (name, title, source) in tb::shipped::list() {
                outln!("{name:<24} {title}");
                if !source.is_empty() {
                    outln!("{:<24} source: {source}", "");
                }
            }
            if all {
                outln!("");
                outln!("Libraries (`import \"NAME\"` from any file; `tb show NAME` prints one, `tb doc NAME` documents its definitions):");
                for name in tb::shipped::libraries() {
                    let Some(src) = tb::shipped::source(name) else {
                        continue;
                    };
                    let rs = tb::check::check(src, &tb::shipped::Shipped, &[])?;
                    let codes = match rs.codes.len() {
                        0 => String::new(),
                        n => format!(", {n} codes"),
                    };
                    outln!(
                        "{name:<24} {} ({} metrics{codes})",
                        rs.title.as_deref().unwrap_or(""),
                        rs.metrics.len()
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Show { name } => {
            out!("{}", cli::doc::show(&name)?);
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Doc {
            ruleset,
            format,
            paths,
        } => {
            let rs = load_ruleset(&ruleset, &[], &paths)?;
            outln!(
                "{}",
                tb::escape::visible(&cli::doc::render(&ruleset, &rs, format))
            );
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Completions { shell } => {
            out!(
                "{}",
                cli::manual::completions(shell, <Cli as clap::CommandFactory>::command())
            );
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Man => {
            out!(
                "{}",
                cli::manual::man(<Cli as clap::CommandFactory>::command())
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}
