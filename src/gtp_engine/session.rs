//! The engine session: the game, the clocks and the player behind one GTP conversation, the
//! read–execute–answer loop, and the dispatch of every command name to its handler.

use super::commands::COMMANDS;
use super::gogui::LiveGfx;
use super::gui_quirks::Quirks;
use crate::clock::{Clock, TimeSystem};
use crate::player::Player;
use crate::search::SearchConfig;
use engine_core::{Game, Rules};
use gtp::args::expect_count;
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
        let args = command.args.as_slice();
        let id = command.id;
        match command.name.as_str() {
            "protocol_version" => expect_count(args, 0).map(|()| "2".to_string()).into(),
            "name" => expect_count(args, 0).map(|()| "tengen".to_string()).into(),
            "version" => expect_count(args, 0)
                .map(|()| {
                    let own = env!("CARGO_PKG_VERSION");
                    self.quirks.version().unwrap_or(own).to_string()
                })
                .into(),
            "known_command" => expect_count(args, 1)
                .map(|()| COMMANDS.contains(&args[0].as_str()).to_string())
                .into(),
            "list_commands" => expect_count(args, 0).map(|()| COMMANDS.join("\n")).into(),
            "quit" => Outcome::Quit,
            "boardsize" => self.boardsize(args).into(),
            "clear_board" => self.clear_board(args).into(),
            "komi" => self.komi(args).into(),
            "play" => self.play(args).into(),
            "gogui-play_sequence" => self.play_sequence(args).into(),
            "genmove" => self.genmove(args, false).into(),
            "kgs-genmove_cleanup" => self.genmove(args, true).into(),
            "reg_genmove" => self.reg_genmove(args).into(),
            "undo" => self.undo(args, false).into(),
            "gg-undo" => self.undo(args, true).into(),
            "showboard" => self.showboard(args).into(),
            "fixed_handicap" => self.fixed_handicap(args).into(),
            "place_free_handicap" => self.place_free_handicap(args).into(),
            "set_free_handicap" => self.set_free_handicap(args).into(),
            "gogui-setup" => self.gogui_setup(args).into(),
            "gogui-setup_player" => self.gogui_setup_player(args).into(),
            "loadsgf" => self.loadsgf(args).into(),
            "printsgf" => self.printsgf(args).into(),
            "kgs-rules" => self.kgs_rules(args).into(),
            "tengen-rules" => self.tengen_rules(args).into(),
            "final_score" => self.final_score(args).into(),
            "final_status_list" => self.final_status_list(args).into(),
            "time_settings" => self.time_settings(args).into(),
            "time_left" => self.time_left(args).into(),
            "cputime" => self.cputime(args).into(),
            "kgs-time_settings" => self.kgs_time_settings(args).into(),
            "lz-analyze" => self.analyze(id, args, super::format::Dialect::Lz),
            "kata-analyze" => self.analyze(id, args, super::format::Dialect::Kata),
            "lz-genmove_analyze" => self.genmove_analyze(id, args, super::format::Dialect::Lz),
            "kata-genmove_analyze" => self.genmove_analyze(id, args, super::format::Dialect::Kata),
            "gogui-analyze_commands" => self.gogui_analyze_commands(args).into(),
            "gogui-interrupt" => expect_count(args, 0).map(|()| String::new()).into(),
            "tengen-ownership" => self.gogui_ownership(args).into(),
            "tengen-winrates" => self.gogui_winrates(args).into(),
            "tengen-pv" => self.gogui_pv(args).into(),
            "tengen-summary" => self.gogui_summary(args).into(),
            "tengen-live_gfx" => self.set_live_gfx(args).into(),
            "tengen-param" => self.param(args).into(),
            "list_stones" => self.list_stones(args).into(),
            "captures" => self.captures(args).into(),
            "move_history" => self.move_history(args).into(),
            "all_legal" => self.all_legal(args).into(),
            "is_legal" => self.is_legal(args).into(),
            "color" => self.color(args).into(),
            "findlib" => self.findlib(args).into(),
            "countlib" => self.countlib(args).into(),
            "query_boardsize" => self.query_boardsize(args).into(),
            "get_komi" => self.get_komi(args).into(),
            "get_handicap" => self.get_handicap(args).into(),
            "estimate_score" => self.estimate_score(args).into(),
            "top_moves" => self.top_moves(args).into(),
            "top_moves_black" => self.top_moves_of(args, "black").into(),
            "top_moves_white" => self.top_moves_of(args, "white").into(),
            _ => Outcome::Reply(Err(GtpError::unknown_command())),
        }
    }
}
