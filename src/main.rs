//! The `tengen` command line: `tengen` (or `tengen gtp`) speaks GTP on stdin/stdout; other
//! subcommands run matches, tournaments and benchmarks.

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "tengen",
    version,
    about = "tengen (天元): a Monte Carlo Go engine speaking GTP"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Play a refereed match between two GTP engines (or merge shard journals).
    Match(Box<tengen::match_runner::MatchArgs>),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        None => ExitCode::SUCCESS,
        Some(Command::Match(args)) => tengen::match_runner::main(*args),
    }
}
