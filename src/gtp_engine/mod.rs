//! The GTP engine: `tengen gtp` (or plain `tengen`) reads GTP commands on stdin and answers on
//! stdout, driving a [`Player`](crate::player::Player) on a game of its own. Stdout carries only
//! GTP, flushed after every response and every streamed line; logs go to stderr.
//!
//! One concept per file: [`args`] (command line), `session` (state, loop, the command table),
//! `board_queries` (GNU Go's `list_stones`, `captures`, …), `hints` (GNU Go's `top_moves`), `moves`, `setup`, `rules`, `handicap`, `time`,
//! `scoring`, `showboard`, `analysis` (streaming analysis), `format` (analysis output),
//! `gogui` (GoGui's analyze menu), `gui_quirks` (`--gui`: answers for GUIs that depart from GTP).

mod analysis;
mod args;
mod board_queries;
mod format;
mod gogui;
mod gui_quirks;
mod handicap;
mod hints;
mod moves;
mod rules;
mod scoring;
mod session;
mod setup;
mod showboard;
#[cfg(test)]
mod tests;
mod time;

pub use args::{build_player, init_logging, GtpArgs, LogLevel, PlayerKind, RuleSet, Superko};
pub use gui_quirks::{Gui, Quirks};
pub use session::names as command_names;
pub use session::Session;

use gtp::InputReader;
use std::process::ExitCode;

/// Runs a GTP session on stdin/stdout with these options; exits 0 on `quit` or end of input.
pub fn run(args: GtpArgs) -> ExitCode {
    let config = args.search_config();
    let player = build_player(args.player, &config);
    let mut session = Session::new(
        player,
        args.game_rules(),
        args.komi,
        InputReader::stdin(),
        std::io::stdout(),
    )
    .with_quirks(Quirks::of(args.gui));
    match session.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            log::error!("cannot write to the controller: {e}");
            ExitCode::FAILURE
        }
    }
}
