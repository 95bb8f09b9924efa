//! Moves: `play` (and GoGui's `gogui-play_sequence`), `genmove` (and `kgs-genmove_cleanup`,
//! `reg_genmove`), `undo` (and GoGui's `gg-undo`). Thinking runs on its own thread so that
//! `# interrupt` or any new command stops it with the best move so
//! far; the time it took is charged to the engine's own clock.

use super::session::Session;
use crate::player::{Analysis, Decision, MoveRequest, Reporter};
use engine_core::{Color, Move};
use gtp::args::{color, expect_between, expect_count, int, move_on};
use gtp::{GtpError, StopOn};
use std::io::Write;
use std::time::{Duration, Instant};

/// Where `think` sends the player's snapshots: a writer of analysis lines to the output.
pub(super) type AnalysisSink<'a, W> = &'a mut (dyn FnMut(&Analysis, &mut W) + Send);

impl<W: Write + Send> Session<W> {
    pub(super) fn play(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 2)?;
        self.play_pair(&args[0], &args[1])?;
        Ok(String::new())
    }

    /// `gogui-play_sequence <color> <move> ...`: GoGui's fast replay. All or nothing: on a
    /// bad or illegal move the game is left as it was.
    pub(super) fn play_sequence(&mut self, args: &[String]) -> Result<String, GtpError> {
        if !args.len().is_multiple_of(2) {
            return Err(GtpError::syntax());
        }
        let before = self.game.clone();
        for pair in args.chunks(2) {
            if let Err(e) = self.play_pair(&pair[0], &pair[1]) {
                self.game = before;
                return Err(e);
            }
        }
        Ok(String::new())
    }

    fn play_pair(&mut self, color_text: &str, move_text: &str) -> Result<(), GtpError> {
        let c = color(color_text)?;
        let m = move_on(self.game.geometry(), move_text)?;
        self.game.play(c, m).map_err(|e| {
            log::debug!("play {color_text} {move_text}: {e}");
            GtpError::illegal_move()
        })
    }

    /// `genmove` (or `kgs-genmove_cleanup` with `cleanup`): chooses, plays and answers.
    pub(super) fn genmove(&mut self, args: &[String], cleanup: bool) -> Result<String, GtpError> {
        expect_count(args, 1)?;
        let c = color(&args[0])?;
        let decision = self.think_live(c, cleanup);
        Ok(self.commit(c, decision))
    }

    /// `reg_genmove`: chooses and answers without playing.
    pub(super) fn reg_genmove(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 1)?;
        let c = color(&args[0])?;
        let decision = self.think_live(c, false);
        Ok(self.decision_text(decision))
    }

    /// `undo`, and GoGui's `gg-undo [n]` (`multiple`) that takes back n moves at once. `undo`
    /// ignores any argument and takes back one move, as GNU Go does: qGo sends `undo 0` and
    /// then expects exactly that.
    pub(super) fn undo(&mut self, args: &[String], multiple: bool) -> Result<String, GtpError> {
        let n = if multiple {
            expect_between(args, 0..=1)?;
            args.first().map_or(Ok(1), |a| int(a))?
        } else {
            1
        };
        if self.game.undo_moves(n as usize) {
            Ok(String::new())
        } else {
            Err(GtpError::cannot_undo())
        }
    }

    /// Asks the player for a move for `c`, interruptible by input; with `report`, the player's
    /// snapshots go to that callback every `interval`.
    pub(super) fn think(
        &mut self,
        c: Color,
        cleanup: bool,
        report: Option<(Duration, AnalysisSink<'_, W>)>,
    ) -> Decision {
        let start = Instant::now();
        let Session {
            game,
            clocks,
            player,
            input,
            out,
            ..
        } = self;
        let clock = &clocks[c.index()];
        let result = input.run_interruptible(None, StopOn::Interrupt, false, |stop| {
            let request = MoveRequest {
                game,
                color: c,
                clock,
                cleanup,
                stop,
            };
            match report {
                None => player.genmove(&request, None),
                Some((interval, write)) => {
                    let mut callback = |analysis: &Analysis| write(analysis, out);
                    let mut reporter = Reporter {
                        interval,
                        callback: &mut callback,
                    };
                    player.genmove(&request, Some(&mut reporter))
                }
            }
        });
        self.clocks[c.index()].spend(start.elapsed());
        result.unwrap_or_else(|_| {
            log::error!("the player panicked in genmove: passing");
            Decision::Play(Move::Pass)
        })
    }

    /// Plays the decision into the game (a resignation is only answered: controllers decide
    /// what happens next) and returns its GTP text.
    pub(super) fn commit(&mut self, c: Color, decision: Decision) -> String {
        let decision = match decision {
            Decision::Play(m) => match self.game.play(c, m) {
                Ok(()) => decision,
                Err(e) => {
                    let text = self.game.geometry().move_text(m);
                    log::error!("the player chose the illegal move {text} ({e}): passing");
                    let _ = self.game.play(c, Move::Pass);
                    Decision::Play(Move::Pass)
                }
            },
            Decision::Resign => decision,
        };
        self.decision_text(decision)
    }

    pub(super) fn decision_text(&self, decision: Decision) -> String {
        match decision {
            Decision::Play(Move::Pass) => self.quirks.pass_text().to_string(),
            Decision::Play(m) => self.game.geometry().move_text(m),
            Decision::Resign => "resign".to_string(),
        }
    }
}
