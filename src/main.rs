//! The `tengen` command line: `tengen` (or `tengen gtp`) speaks GTP on stdin/stdout; other
//! subcommands run matches, tournaments and benchmarks.

#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "tengen",
    version,
    about = "tengen (天元): a Monte Carlo Go engine speaking GTP",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    /// Options of plain `tengen`, which means `tengen gtp`.
    #[command(flatten)]
    gtp: tengen::cli::GtpArgs,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Speak GTP on stdin/stdout (the default).
    Gtp(Box<tengen::cli::GtpArgs>),
    /// Measure light-playout speed per board size.
    Bench(tengen::bench::BenchArgs),
    /// Play a refereed match between two GTP engines (or merge shard journals).
    Match(Box<tengen::match_runner::MatchArgs>),
    /// Run a tournament between GTP engines described by a TOML file.
    Tournament(tengen::tournament::TournamentArgs),
    /// Learn the move model's weights from game records (for developers).
    TrainPatterns(tengen::train_patterns::TrainArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => tengen::cli::run(cli.gtp),
        Some(Command::Gtp(args)) => tengen::cli::run(*args),
        Some(Command::Bench(args)) => {
            tengen::bench::run(&args);
            ExitCode::SUCCESS
        }
        Some(Command::Match(args)) => tengen::match_runner::main(*args),
        Some(Command::Tournament(args)) => tengen::tournament::main(args),
        Some(Command::TrainPatterns(args)) => tengen::train_patterns::run(&args),
    }
}
