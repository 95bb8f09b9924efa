//! GoGui's analyze menu: `gogui-analyze_commands` lists the views, and the `tengen-*`
//! commands behind them each run one analysis of the configured thinking time (interruptible
//! with `# interrupt`) and show its last snapshot: ownership (`dboard`), candidates with win
//! rates (`gfx`), the principal variation (`gfx` `VAR`) and a text summary (`string`).
//!
//! Live graphics: after `tengen-live_gfx winrates|pv`, every `genmove` draws the search on
//! GoGui's board while it runs, as `gogui-gfx:` blocks on stderr (GoGui reads them there),
//! and clears them before answering.

use super::format;
use super::session::{LiveGfx, Session};
use crate::player::{Analysis, AnalysisRequest, Decision, MoveRestrictions, Reporter};
use engine_core::Color;
use engine_core::Geometry;
use gtp::args::{color, expect_between, expect_count};
use gtp::{GtpError, StopOn};
use std::io::Write;
use std::time::{Duration, Instant};

/// How often live graphics redraw while `genmove` thinks.
const LIVE_GFX_INTERVAL: Duration = Duration::from_millis(300);

/// Reports per analysis, so the last snapshot is close to the end.
const REPORTS_PER_ANALYSIS: u32 = 10;

impl<W: Write + Send> Session<W> {
    pub(super) fn gogui_analyze_commands(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 0)?;
        Ok(super::session::analyze_menu())
    }

    /// `tengen-live_gfx winrates|pv|off`.
    pub(super) fn set_live_gfx(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 1)?;
        self.live_gfx = match args[0].to_ascii_lowercase().as_str() {
            "winrates" => Some(LiveGfx::WinRates),
            "pv" => Some(LiveGfx::Variation),
            "off" => None,
            _ => return Err(GtpError::syntax()),
        };
        Ok(String::new())
    }

    /// [`think`](Session::think) for a move, drawing the search on GoGui's board meanwhile
    /// when live graphics are on.
    pub(super) fn think_live(&mut self, c: Color, cleanup: bool) -> Decision {
        let Some(view) = self.live_gfx else {
            return self.think(c, cleanup, None);
        };
        let g = self.game.geometry();
        let mut draw = |analysis: &Analysis, _: &mut W| {
            write_gfx(&format!(
                "gogui-gfx:\n{}\n\n",
                live_gfx(view, g, analysis, c)
            ));
        };
        let decision = self.think(c, cleanup, Some((LIVE_GFX_INTERVAL, &mut draw)));
        write_gfx("gogui-gfx: CLEAR\n");
        decision
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
    pub(super) fn snapshot(&mut self, args: &[String]) -> Result<(Color, Analysis), GtpError> {
        expect_between(args, 0..=1)?;
        let c = match args.first() {
            Some(text) => color(text)?,
            None => self.game.to_move(),
        };
        let think = self.player.analysis_time();
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
            let request = AnalysisRequest {
                game,
                color: c,
                restrictions: &MoveRestrictions::NONE,
                stop,
            };
            player.analyze(&request, &mut reporter);
        });
        if result.is_err() {
            log::error!("the player panicked during analysis");
        }
        Ok((c, last))
    }
}

/// One live-graphics drawing of `analysis` for the mover `c`.
fn live_gfx(view: LiveGfx, g: Geometry, analysis: &Analysis, c: Color) -> String {
    match view {
        LiveGfx::WinRates => format::gogui_winrates(g, analysis, c),
        LiveGfx::Variation => format::gogui_pv(g, analysis, c),
    }
}

/// Writes live graphics to stderr in one piece (GoGui reads them there; stdout is GTP only).
fn write_gfx(text: &str) {
    let mut err = std::io::stderr().lock();
    // Drawings are a courtesy: a closed stderr must not stop the move.
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
}
