//! The `tb` command line: a thin layer over the library; it only parses arguments, renders and sets exit codes.

use clap::{Parser, Subcommand, ValueEnum};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use tb::diag::{Diag, Severity, Source};
use tb::num::Num;
use tb::render::{Format, Meta};

/// Exit code: a ruleset or data file could not be used.
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
    Eval {
        /// A shipped ruleset name (`tb list`) or a path to a .tb file.
        ruleset: String,
        /// The event: native .toml/.json or FIDE .trf.
        data: String,
        /// Output format.
        #[arg(long, short, value_enum, default_value_t = Format::Table)]
        format: Format,
        /// Set a ruleset parameter: `--param floor=0.33` (repeatable).
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
        /// Seed for drawing of lots (without it, lots are reported unresolved).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Show, step by step, how ties were broken (all ties, or those of the given ids).
    Explain {
        /// A shipped ruleset name or a path.
        ruleset: String,
        /// The event.
        data: String,
        /// Participant ids to follow (default: every tie).
        #[arg(long, value_delimiter = ',')]
        ids: Vec<String>,
        /// Set a ruleset parameter.
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
        /// Seed for drawing of lots.
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Check rulesets and report every error at once.
    Check {
        /// Shipped names or paths.
        #[arg(required = true)]
        rulesets: Vec<String>,
    },
    /// Compare the computed ranking with the one recorded in the data.
    Verify {
        /// A shipped ruleset name or a path.
        ruleset: String,
        /// The event (its rank column / places are compared).
        data: String,
        /// Set a ruleset parameter.
        #[arg(long = "param", value_name = "NAME=VALUE")]
        params: Vec<String>,
    },
    /// List the shipped rulesets and the documents they implement.
    List,
}

fn main() -> ExitCode {
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
    match run(cli.cmd) {
        Ok(code) => code,
        Err(d) => {
            report(&d, style, color);
            ExitCode::from(EXIT_INPUT)
        }
    }
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
            match handler.render_report(&mut s, d) {
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
                    "tb::cli::bad_param",
                    format!("--param {p}: expected NAME=VALUE"),
                )
                .with_help("e.g. --param floor=0.33")
            })?;
            let n = Num::parse(v).ok_or_else(|| {
                Diag::error(
                    "tb::cli::bad_param",
                    format!("--param {p}: `{v}` is not a number"),
                )
                .with_help("write a decimal such as 0.5 or a fraction such as 1/3")
            })?;
            Ok((k.trim().to_string(), n))
        })
        .collect()
}

fn load_ruleset(name: &str, params: &[String]) -> Result<tb::plan::Ruleset, Diag> {
    let overrides = parse_params(params)?;
    let root = tb::check::load_root(name)?;
    tb::check::check(root, &tb::check::StdResolver, &overrides)
}

fn load_data(path: &str) -> Result<tb::model::Event, Diag> {
    let meta = std::fs::metadata(path).map_err(|e| {
        Diag::error("tb::load::io", format!("cannot read {path}: {e}"))
            .with_help("give the path of a .toml, .json or .trf file")
    })?;
    if meta.len() > 200 * 1024 * 1024 {
        return Err(Diag::error(
            "tb::load::too_large",
            format!("{path} is larger than 200 MB"),
        ));
    }
    let bytes = std::fs::read(path)
        .map_err(|e| Diag::error("tb::load::io", format!("cannot read {path}: {e}")))?;
    // TRF and USEBIO files are often Latin-1: keep every byte rather than fail.
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => e.into_bytes().iter().map(|&b| b as char).collect(),
    };
    tb::load::load(&Source::new(path.to_string(), text))
}

fn print_warnings(event: &tb::model::Event) {
    for w in &event.warnings {
        let d = Diag::warning("tb::load::warning", w.clone());
        eprint!("{}", d.plain());
    }
    let _ = Severity::Warning;
}

fn run(cmd: Cmd) -> Result<ExitCode, Diag> {
    match cmd {
        Cmd::Eval {
            ruleset,
            data,
            format,
            params,
            seed,
        } => {
            let rs = load_ruleset(&ruleset, &params)?;
            let event = load_data(&data)?;
            print_warnings(&event);
            let st = tb::rank::rank(&event, &rs, &tb::rank::Options { lots_seed: seed })?;
            let meta = Meta {
                ruleset: ruleset.clone(),
                notes: Vec::new(),
            };
            print!("{}", tb::render::render(&st, &event, &rs, &meta, format));
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Explain {
            ruleset,
            data,
            ids,
            params,
            seed,
        } => {
            let rs = load_ruleset(&ruleset, &params)?;
            let event = load_data(&data)?;
            let mut pids = Vec::new();
            for id in &ids {
                pids.push(event.find(id).ok_or_else(|| {
                    Diag::error(
                        "tb::cli::unknown_id",
                        format!("--ids: no participant `{id}` in {data}"),
                    )
                    .with_help("use the ids shown by `tb eval`")
                })?);
            }
            let st = tb::rank::rank(&event, &rs, &tb::rank::Options { lots_seed: seed })?;
            print!("{}", tb::render::explain(&st, &event, &pids));
            Ok(ExitCode::SUCCESS)
        }
        Cmd::Check { rulesets } => {
            let mut failed = None;
            for r in &rulesets {
                match load_ruleset(r, &[]) {
                    Ok(rs) => println!(
                        "{r}: ok ({} metrics, {} procedures{})",
                        rs.metrics.len(),
                        rs.procs.len(),
                        if rs.standings.is_some() {
                            ""
                        } else {
                            ", library"
                        }
                    ),
                    Err(d) => failed = Some(d),
                }
            }
            match failed {
                Some(d) => Err(d),
                None => Ok(ExitCode::SUCCESS),
            }
        }
        Cmd::Verify {
            ruleset,
            data,
            params,
        } => {
            let rs = load_ruleset(&ruleset, &params)?;
            let event = load_data(&data)?;
            let st = tb::rank::rank(&event, &rs, &tb::rank::Options::default())?;
            let mut diffs = 0;
            let mut compared = 0;
            for row in &st.rows {
                let p = &event.participants[row.pid];
                if let Some(rec) = p.recorded_rank {
                    compared += 1;
                    if rec as usize != row.rank {
                        diffs += 1;
                        println!(
                            "{} ({}): recorded rank {rec}, computed {}",
                            p.name, p.id, row.rank
                        );
                    }
                }
            }
            if compared == 0 {
                return Err(Diag::error(
                    "tb::verify::no_ranks",
                    format!("{data} records no ranks to compare"),
                )
                .with_help(
                    "TRF files carry a rank column; native files a `rank` per participant",
                ));
            }
            println!("{compared} compared, {diffs} differ");
            Ok(if diffs == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(EXIT_VERIFY)
            })
        }
        Cmd::List => {
            for (name, title, source) in tb::shipped::list() {
                println!("{name:<24} {title}");
                if !source.is_empty() {
                    println!("{:<24} source: {source}", "");
                }
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
