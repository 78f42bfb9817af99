//! `tbgen`: realistic synthetic Swiss events from a fixed seed, for benchmarks and tests.
//!
//! ```text
//! tbgen chess-swiss --players 9999 --rounds 15 --seed 1 > chess.trf
//! tbgen chess-swiss --players 100000 --rounds 15 --seed 1 --format json > chess.json
//! tbgen cards-swiss --players 1000 --rounds 9 --seed 1 --format toml > cards.toml
//! tbgen bridge-swiss-teams --teams 200 --rounds 10 --seed 1 > teams.json
//! ```
//!
//! The generator itself is the library module `tb_gen`.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::Write;
use std::process::ExitCode;
use tb_gen::{generate, Config, Sport};

/// Generate a synthetic Swiss event (the same seed gives the same file).
#[derive(Parser)]
#[command(name = "tbgen", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Individual chess Swiss: TRF16 (default, at most 9,999 players) or native JSON/TOML.
    ChessSwiss(Opts),
    /// Card-game Swiss with best-of-three matches: native JSON (default) or TOML.
    CardsSwiss(Opts),
    /// Bridge Swiss teams scored in IMPs and VPs: native JSON (default) or TOML.
    BridgeSwissTeams(Opts),
}

#[derive(Args)]
struct Opts {
    /// Number of participants (players or teams).
    #[arg(long, visible_alias = "teams", default_value_t = 100)]
    players: usize,
    /// Number of rounds.
    #[arg(long, default_value_t = 9)]
    rounds: u32,
    /// Seed of the generator.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Output format (chess: trf by default; others: json).
    #[arg(long, value_enum)]
    format: Option<Fmt>,
    /// Write to this file instead of standard output.
    #[arg(long, short)]
    output: Option<String>,
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum Fmt {
    /// FIDE TRF16 (chess only).
    Trf,
    /// Native JSON.
    Json,
    /// Native TOML.
    Toml,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let (sport, o) = match cli.cmd {
        Cmd::ChessSwiss(o) => (Sport::Chess, o),
        Cmd::CardsSwiss(o) => (Sport::Cards, o),
        Cmd::BridgeSwissTeams(o) => (Sport::Bridge, o),
    };
    if o.players < 2 || o.players > 1_000_000 {
        eprintln!("tbgen: --players must be between 2 and 1,000,000");
        return ExitCode::from(2);
    }
    if o.rounds < 1 || o.rounds > 999 {
        eprintln!("tbgen: --rounds must be between 1 and 999");
        return ExitCode::from(2);
    }
    let fmt = o.format.unwrap_or(if sport == Sport::Chess {
        Fmt::Trf
    } else {
        Fmt::Json
    });
    let ev = generate(&Config {
        sport,
        players: o.players,
        rounds: o.rounds,
        seed: o.seed,
    });
    let text = match fmt {
        Fmt::Trf => match ev.to_trf() {
            Ok(t) => t,
            Err(e) => {
                eprintln!("tbgen: {e}");
                return ExitCode::from(2);
            }
        },
        Fmt::Json => ev.to_json(),
        Fmt::Toml => ev.to_toml(),
    };
    let written = match &o.output {
        Some(path) => std::fs::write(path, text.as_bytes()),
        None => std::io::stdout().lock().write_all(text.as_bytes()),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tbgen: cannot write: {e}");
            ExitCode::from(1)
        }
    }
}
