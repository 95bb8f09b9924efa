//! The engine session: the game, the clocks and the player behind one GTP conversation, and
//! the read–execute–answer loop; each command runs the handler the command table names.

use super::commands::table;
use super::gogui::LiveGfx;
use super::gui_quirks::Quirks;
use crate::clock::{Clock, TimeSystem};
use crate::player::Player;
use crate::search::SearchConfig;
use engine_core::{Game, Rules};
use gtp::response::{failure, send, success};
use gtp::{Command, GtpError, Input, InputReader, StopOn};
use std::io::{self, Write};

/// Board size before the first `boardsize`.
const DEFAULT_SIZE: usize = 19;

/// What a handler did.
pub(super) enum Outcome {
    /// Answer with this result.
    Reply(Result<String, GtpError>),
    /// The handler wrote its whole response itself (analysis streams).
    Streamed,
    /// Answer `=` and end the session.
    Quit,
}

impl From<Result<String, GtpError>> for Outcome {
    fn from(result: Result<String, GtpError>) -> Outcome {
        Outcome::Reply(result)
    }
}

/// One GTP conversation, reading from `input` and answering on `out`.
pub struct Session<W: Write + Send> {
    pub(super) game: Game,
    /// Per colour, indexed by [`Color::index`](engine_core::Color::index).
    pub(super) clocks: [Clock; 2],
    pub(super) player: Box<dyn Player>,
    pub(super) config: SearchConfig,
    pub(super) input: InputReader,
    pub(super) out: W,
    /// What `genmove` draws for GoGui while it thinks, if anything.
    pub(super) live_gfx: Option<LiveGfx>,
    /// The GUI whose departures from GTP the answers follow (`--gui`).
    pub(super) quirks: Quirks,
}

impl<W: Write + Send> Session<W> {
    /// A session on an empty 19x19 board with no time limit.
    pub fn new(
        player: Box<dyn Player>,
        config: SearchConfig,
        rules: Rules,
        komi: f64,
        input: InputReader,
        out: W,
    ) -> Session<W> {
        let game = Game::new(DEFAULT_SIZE, rules, komi).expect("19x19 is a valid size");
        let clock = Clock::new(TimeSystem::Unlimited);
        Session {
            game,
            clocks: [clock; 2],
            player,
            config,
            input,
            out,
            live_gfx: None,
            quirks: Quirks::default(),
        }
    }

    /// The same session, answering as `quirks` says.
    pub fn with_quirks(self, quirks: Quirks) -> Session<W> {
        Session { quirks, ..self }
    }

    /// Answers commands until `quit` or the end of the input. Fails only when the output
    /// cannot be written.
    pub fn run(&mut self) -> io::Result<()> {
        loop {
            // Pondering starts only when the controller has nothing more queued.
            if self.config.ponder && !self.game.is_over() && !self.input.has_pending() {
                self.ponder();
            }
            match self.input.next_input() {
                Input::Eof => return Ok(()),
                // Nothing is running: an interrupt or a blank line has nothing to stop.
                Input::Interrupt | Input::Blank => {}
                Input::Invalid { id, error } => send(&mut self.out, &failure(id, error.message()))?,
                Input::Command(command) => {
                    let id = self.quirks.answer_id(&command);
                    let outcome = match self.quirks.answer_instead(&command) {
                        Some(text) => Outcome::Reply(Ok(text)),
                        None => self.execute(&command),
                    };
                    match outcome {
                        Outcome::Reply(Ok(text)) => {
                            self.quirks.note_answer(&command, &text);
                            send(&mut self.out, &success(id, &text))?
                        }
                        Outcome::Reply(Err(e)) => {
                            log::debug!("{} failed: {e}", command.name);
                            send(&mut self.out, &failure(id, e.message()))?
                        }
                        Outcome::Streamed => {}
                        Outcome::Quit => {
                            send(&mut self.out, &success(command.id, ""))?;
                            return Ok(());
                        }
                    }
                }
            }
        }
    }

    /// Thinks on the opponent's time until the controller speaks.
    fn ponder(&mut self) {
        let Session {
            game,
            player,
            input,
            ..
        } = self;
        if input
            .run_interruptible(None, StopOn::AnyInput, false, |stop| {
                player.ponder(game, stop)
            })
            .is_err()
        {
            log::error!("the player panicked while pondering");
        }
    }

    /// Runs one command.
    pub(super) fn execute(&mut self, command: &Command) -> Outcome {
        match table().into_iter().find(|spec| spec.name == command.name) {
            Some(spec) => (spec.run)(self, command),
            None => Outcome::Reply(Err(GtpError::unknown_command())),
        }
    }
}
