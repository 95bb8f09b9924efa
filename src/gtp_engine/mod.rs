//! The GTP engine: `tengen gtp` (or plain `tengen`) reads GTP commands on stdin and answers on
//! stdout, driving a [`Player`](crate::player::Player) on a game of its own. Stdout carries only
//! GTP, flushed after every response and every streamed line; logs go to stderr.
//!
//! The command line that builds the player is `crate::cli`; this front end knows the player
//! only through the `Player` trait. One concept per file: `session` (state, loop, the command
//! table), one file per command group (`setup`, `moves`, `time`, `scoring`, `rules`,
//! `handicap`, `showboard`, `analysis` for streaming analysis, `gogui` for GoGui's analyze
//! menu, `board_queries` and `hints` for GNU Go's queries and `top_moves`), `format`
//! (analysis output) and `gui_quirks` (`--gui`: answers for GUIs that depart from GTP).

mod analysis;
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

pub use gui_quirks::{Gui, Quirks};
pub use session::names as command_names;
pub use session::Session;

use crate::player::Player;
use engine_core::Rules;
use gtp::InputReader;
use std::process::ExitCode;

/// Runs a GTP session on stdin/stdout with `player`, the rules and komi until the controller
/// changes them, and a GUI's quirks; exits 0 on `quit` or end of input.
pub fn run(player: Box<dyn Player>, rules: Rules, komi: f64, gui: Option<Gui>) -> ExitCode {
    let mut session = Session::new(player, rules, komi, InputReader::stdin(), std::io::stdout())
        .with_quirks(Quirks::of(gui));
    match session.run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            log::error!("cannot write to the controller: {e}");
            ExitCode::FAILURE
        }
    }
}
