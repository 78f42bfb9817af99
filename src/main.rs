//! The `tb` command line: the clap model of its arguments and the dispatch
//! to each command (`src/cli/<command>.rs`); it sets the exit code.

use clap::{Parser, Subcommand, ValueEnum};
use std::io::IsTerminal;
use std::process::ExitCode;
use tb::codes;
use tb::diag::Diag;
use tb::render::Format;

// The allocator and its settings, shared with the benchmarks.
mod alloc;
// The commands, and what the library leaves to its caller (reading files,
// printing). Its output macros (`out!`, `outln!`) are used here too.
#[macro_use]
mod cli;
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    Eval(EvalArgs),
    /// Show, step by step, how ties were broken (all ties, or those of the given ids).
    #[command(
        after_help = "Example:\n  tb explain cards/swiss examples/cards-swiss.toml --ids fay,gus"
    )]
    Explain(ExplainArgs),
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

// `tb eval`'s arguments (the variant's comment is its `--help`).
#[derive(clap::Args)]
struct EvalArgs {
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
}

// `tb explain`'s arguments (the variant's comment is its `--help`).
#[derive(clap::Args)]
struct ExplainArgs {
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
            cli::diagnostics::report(&d, style, color);
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

/// Each command to its module in `src/cli/`.
fn run(cmd: Cmd, style: DiagStyle) -> Result<ExitCode, Diag> {
    match cmd {
        Cmd::Eval(a) => cli::eval::run(&a, style),
        Cmd::Explain(a) => cli::explain::run(&a, style),
        Cmd::Check {
            rulesets,
            verbose,
            paths,
        } => cli::check::run(&rulesets, verbose, &paths),
        Cmd::Verify { rules } => cli::verify::run(&rules, style),
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
        Cmd::List { all } => cli::list::run(all),
        Cmd::Show { name } => {
            out!("{}", cli::doc::show(&name)?);
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Doc {
            ruleset,
            format,
            paths,
        } => {
            let rs = cli::rules::load_ruleset(&ruleset, &[], &paths)?;
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
