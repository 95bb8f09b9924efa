//! GoGui's analyze menu: `gogui-analyze_commands` lists the views, and the `tengen-*`
//! commands behind them each run one analysis of the configured thinking time (interruptible
//! with `# interrupt`) and show its last snapshot: ownership (`dboard`), candidates with win
//! rates (`gfx`), the principal variation (`gfx` `VAR`) and a text summary (`string`).

use super::format;
use super::session::Session;
use crate::player::{Analysis, Reporter};
use engine_core::Color;
use gtp::args::{color, expect_between, expect_count};
use gtp::{GtpError, StopOn};
use std::io::Write;
use std::time::{Duration, Instant};

/// The entries of GoGui's analyze menu (`type/label/command`).
const ANALYZE_COMMANDS: &[&str] = &[
    "dboard/Ownership/tengen-ownership %m",
    "gfx/Win rates/tengen-winrates %m",
    "gfx/Principal variation/tengen-pv %m",
    "string/Analysis summary/tengen-summary %m",
    "plist/Dead stones/final_status_list dead",
    "string/Final score/final_score",
    "string/Rules/tengen-rules",
];

/// Reports per analysis, so the last snapshot is close to the end.
const REPORTS_PER_ANALYSIS: u32 = 10;

impl<W: Write + Send> Session<W> {
    pub(super) fn gogui_analyze_commands(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 0)?;
        Ok(ANALYZE_COMMANDS.join("\n"))
    }

    pub(super) fn gogui_ownership(&mut self, args: &[String]) -> Result<String, GtpError> {
        let (_, analysis) = self.snapshot(args)?;
        Ok(format::gogui_ownership(self.game.geometry(), &analysis))
    }

    pub(super) fn gogui_winrates(&mut self, args: &[String]) -> Result<String, GtpError> {
        let (c, analysis) = self.snapshot(args)?;
        Ok(format::gogui_winrates(self.game.geometry(), &analysis, c))
    }

    pub(super) fn gogui_pv(&mut self, args: &[String]) -> Result<String, GtpError> {
        let (c, analysis) = self.snapshot(args)?;
        Ok(format::gogui_pv(self.game.geometry(), &analysis, c))
    }

    pub(super) fn gogui_summary(&mut self, args: &[String]) -> Result<String, GtpError> {
        let (c, analysis) = self.snapshot(args)?;
        Ok(format::summary(self.game.geometry(), &analysis, c))
    }

    /// Analyses for `[color]` (default: the player to move) for the configured thinking time,
    /// or until input arrives, and returns the last snapshot.
    fn snapshot(&mut self, args: &[String]) -> Result<(Color, Analysis), GtpError> {
        expect_between(args, 0..=1)?;
        let c = match args.first() {
            Some(text) => color(text)?,
            None => self.game.to_move(),
        };
        let think = self
            .config
            .time_per_move
            .unwrap_or(self.config.default_time_per_move);
        let interval = (think / REPORTS_PER_ANALYSIS).max(Duration::from_millis(10));
        let deadline = Instant::now() + think;
        let Session {
            game,
            player,
            input,
            ..
        } = self;
        let mut last = Analysis::default();
        let result = input.run_interruptible(Some(deadline), StopOn::AnyInput, false, |stop| {
            let mut callback = |analysis: &Analysis| last = analysis.clone();
            let mut reporter = Reporter {
                interval,
                callback: &mut callback,
            };
            player.analyze(game, c, stop, &mut reporter);
        });
        if result.is_err() {
            log::error!("the player panicked during analysis");
        }
        Ok((c, last))
    }
}
