//! The engine session: the game, the clocks and the player behind one GTP conversation, the
//! read–execute–answer loop, and the one table of GTP commands: each name with its handler and
//! its entries in GoGui's analyze menu. Dispatch, `list_commands`, `known_command` and
//! `gogui-analyze_commands` all read the table, in its order (the views GoGui's menu shows
//! first come first); a name is in the table exactly when the engine knows it.

use super::format::Dialect;
use super::gui_quirks::Quirks;
use crate::clock::{Clock, TimeSystem};
use crate::player::Player;
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

/// What live graphics draw during `genmove` (`None` in the session: nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LiveGfx {
    /// Candidates with their share of the playouts and win rates (as `tengen-winrates`).
    WinRates,
    /// The principal variation (as `tengen-pv`).
    Variation,
}

/// One GTP conversation, reading from `input` and answering on `out`.
pub struct Session<W: Write + Send> {
    pub(super) game: Game,
    /// Per colour, indexed by [`Color::index`](engine_core::Color::index).
    pub(super) clocks: [Clock; 2],
    pub(super) player: Box<dyn Player>,
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
            if self.player.ponders() && !self.game.is_over() && !self.input.has_pending() {
                self.ponder();
            }
            match self.input.next_input() {
                Input::Eof => return Ok(()),
                // Nothing is running: an interrupt or a blank line has nothing to stop.
                Input::Interrupt | Input::Blank => {}
                Input::Invalid { id, error } => send(&mut self.out, &failure(id, error.message()))?,
                Input::Command(command) => {
                    let id = self.quirks.answer_id(&command);
                    std::thread::sleep(self.quirks.delay_before(&command));
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

    /// `tengen-param [key value]`: the player's settings, or a new value for one of them.
    fn settings(&mut self, args: &[String]) -> Result<String, GtpError> {
        match args {
            [] => Ok(self.player.describe_settings()),
            [key, value] => self
                .player
                .change_setting(key, value)
                .map(|()| String::new())
                .map_err(GtpError::new),
            _ => Err(GtpError::syntax()),
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

/// Runs one command on a session.
pub(super) type Handler<W> = fn(&mut Session<W>, &Command) -> Outcome;

/// One entry of GoGui's analyze menu, `kind/label/command args`: its kind, label and arguments.
pub(super) type MenuEntry = (&'static str, &'static str, &'static str);

/// One command the engine knows.
pub(super) struct Spec<W: Write + Send> {
    pub name: &'static str,
    pub run: Handler<W>,
    pub menu: &'static [MenuEntry],
}

impl<W: Write + Send> Spec<W> {
    /// The same command, listed in GoGui's analyze menu.
    fn in_menu(self, menu: &'static [MenuEntry]) -> Spec<W> {
        Spec { menu, ..self }
    }
}

fn command<W: Write + Send>(name: &'static str, run: Handler<W>) -> Spec<W> {
    Spec {
        name,
        run,
        menu: &[],
    }
}

/// Every command, in the order `list_commands` gives them.
pub(super) fn table<W: Write + Send>() -> Vec<Spec<W>> {
    [
        protocol_commands(),
        game_commands(),
        analysis_commands(),
        gogui_commands(),
        query_commands(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The protocol itself: identification, the command list, quitting.
fn protocol_commands<W: Write + Send>() -> Vec<Spec<W>> {
    vec![
        command("protocol_version", |_, c| {
            expect_count(&c.args, 0).map(|()| "2".to_string()).into()
        }),
        command("name", |_, c| {
            expect_count(&c.args, 0)
                .map(|()| "tengen".to_string())
                .into()
        }),
        command("version", |s, c| {
            expect_count(&c.args, 0)
                .map(|()| {
                    let own = env!("CARGO_PKG_VERSION");
                    s.quirks.version().unwrap_or(own).to_string()
                })
                .into()
        }),
        command("known_command", |_, c| {
            expect_count(&c.args, 1)
                .map(|()| names().contains(&c.args[0].as_str()).to_string())
                .into()
        }),
        command("list_commands", |_, c| {
            expect_count(&c.args, 0).map(|()| names().join("\n")).into()
        }),
        command("quit", |_, _| Outcome::Quit),
    ]
}

/// The game: board, moves, handicap, clock, rules and SGF records.
fn game_commands<W: Write + Send>() -> Vec<Spec<W>> {
    vec![
        command("boardsize", |s, c| s.boardsize(&c.args).into()),
        command("clear_board", |s, c| s.clear_board(&c.args).into()),
        command("komi", |s, c| s.komi(&c.args).into()),
        command("play", |s, c| s.play(&c.args).into()),
        command("gogui-play_sequence", |s, c| {
            s.play_sequence(&c.args).into()
        }),
        command("genmove", |s, c| s.genmove(&c.args, false).into()),
        command("undo", |s, c| s.undo(&c.args, false).into()),
        command("gg-undo", |s, c| s.undo(&c.args, true).into()),
        command("showboard", |s, c| s.showboard(&c.args).into()),
        command("fixed_handicap", |s, c| s.fixed_handicap(&c.args).into()),
        command("place_free_handicap", |s, c| {
            s.place_free_handicap(&c.args).into()
        }),
        command("set_free_handicap", |s, c| {
            s.set_free_handicap(&c.args).into()
        }),
        command("gogui-setup", |s, c| s.gogui_setup(&c.args).into()),
        command("gogui-setup_player", |s, c| {
            s.gogui_setup_player(&c.args).into()
        }),
        command("time_settings", |s, c| s.time_settings(&c.args).into()),
        command("time_left", |s, c| s.time_left(&c.args).into()),
        command("cputime", |s, c| s.cputime(&c.args).into()),
        command("kgs-time_settings", |s, c| {
            s.kgs_time_settings(&c.args).into()
        }),
        command("kgs-genmove_cleanup", |s, c| {
            s.genmove(&c.args, true).into()
        }),
        command("kgs-rules", |s, c| s.kgs_rules(&c.args).into()),
        command("reg_genmove", |s, c| s.reg_genmove(&c.args).into()),
        command("loadsgf", |s, c| s.loadsgf(&c.args).into()),
        command("printsgf", |s, c| s.printsgf(&c.args).into()),
    ]
}

/// Analysis as Lizzie, Sabaki and KataGo clients ask for it.
fn analysis_commands<W: Write + Send>() -> Vec<Spec<W>> {
    vec![
        command("lz-analyze", |s, c| s.analyze(c.id, &c.args, Dialect::Lz)),
        command("kata-analyze", |s, c| {
            s.analyze(c.id, &c.args, Dialect::Kata)
        }),
        command("lz-genmove_analyze", |s, c| {
            s.genmove_analyze(c.id, &c.args, Dialect::Lz)
        }),
        command("kata-genmove_analyze", |s, c| {
            s.genmove_analyze(c.id, &c.args, Dialect::Kata)
        }),
    ]
}

/// GoGui: its menu of analysis commands and the ones listed in it.
fn gogui_commands<W: Write + Send>() -> Vec<Spec<W>> {
    vec![
        command("gogui-analyze_commands", |s, c| {
            s.gogui_analyze_commands(&c.args).into()
        }),
        command("gogui-interrupt", |_, c| {
            expect_count(&c.args, 0).map(|()| String::new()).into()
        }),
        command("tengen-ownership", |s, c| s.gogui_ownership(&c.args).into()).in_menu(&[(
            "dboard",
            "Ownership",
            "%m",
        )]),
        command("tengen-winrates", |s, c| s.gogui_winrates(&c.args).into()).in_menu(&[(
            "gfx",
            "Win rates",
            "%m",
        )]),
        command("tengen-pv", |s, c| s.gogui_pv(&c.args).into()).in_menu(&[(
            "gfx",
            "Principal variation",
            "%m",
        )]),
        command("tengen-summary", |s, c| s.gogui_summary(&c.args).into()).in_menu(&[(
            "string",
            "Analysis summary",
            "%m",
        )]),
        command("final_status_list", |s, c| {
            s.final_status_list(&c.args).into()
        })
        .in_menu(&[("plist", "Dead stones", "dead")]),
        command("final_score", |s, c| s.final_score(&c.args).into()).in_menu(&[(
            "string",
            "Final score",
            "",
        )]),
        command("tengen-rules", |s, c| s.tengen_rules(&c.args).into())
            .in_menu(&[("string", "Rules", "")]),
        command("tengen-live_gfx", |s, c| s.set_live_gfx(&c.args).into()).in_menu(&[
            ("none", "Live graphics: win rates", "winrates"),
            ("none", "Live graphics: variation", "pv"),
            ("none", "Live graphics: off", "off"),
        ]),
        command("tengen-param", |s, c| s.settings(&c.args).into()).in_menu(&[(
            "param",
            "Search settings",
            "",
        )]),
    ]
}

/// GNU Go's queries about the position, for tools written against it.
fn query_commands<W: Write + Send>() -> Vec<Spec<W>> {
    vec![
        command("list_stones", |s, c| s.list_stones(&c.args).into()),
        command("captures", |s, c| s.captures(&c.args).into()),
        command("move_history", |s, c| s.move_history(&c.args).into()),
        command("all_legal", |s, c| s.all_legal(&c.args).into()),
        command("is_legal", |s, c| s.is_legal(&c.args).into()),
        command("color", |s, c| s.color(&c.args).into()),
        command("findlib", |s, c| s.findlib(&c.args).into()),
        command("countlib", |s, c| s.countlib(&c.args).into()),
        command("query_boardsize", |s, c| s.query_boardsize(&c.args).into()),
        command("get_komi", |s, c| s.get_komi(&c.args).into()),
        command("get_handicap", |s, c| s.get_handicap(&c.args).into()),
        command("estimate_score", |s, c| s.estimate_score(&c.args).into()),
        command("top_moves", |s, c| s.top_moves(&c.args).into()),
        command("top_moves_black", |s, c| {
            s.top_moves_of(&c.args, "black").into()
        }),
        command("top_moves_white", |s, c| {
            s.top_moves_of(&c.args, "white").into()
        }),
    ]
}

/// The names of every command the engine knows, in the table's order.
pub fn names() -> Vec<&'static str> {
    table::<io::Sink>().iter().map(|spec| spec.name).collect()
}

/// GoGui's analyze menu, one `kind/label/command args` line per entry.
pub(super) fn analyze_menu() -> String {
    table::<io::Sink>()
        .iter()
        .flat_map(|spec| {
            spec.menu.iter().map(move |(kind, label, args)| {
                let command = format!("{} {args}", spec.name);
                format!("{kind}/{label}/{}", command.trim_end())
            })
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_are_distinct_and_menu_entries_name_table_commands() {
        let names = names();
        assert_eq!(names.iter().collect::<HashSet<_>>().len(), names.len());
        for line in analyze_menu().lines() {
            let command = line
                .splitn(3, '/')
                .nth(2)
                .unwrap()
                .split(' ')
                .next()
                .unwrap();
            assert!(names.contains(&command), "{line}");
        }
    }
}
