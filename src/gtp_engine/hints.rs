//! GNU Go's move hints, as Kigo's Hint button and scripts written for GNU Go ask for them:
//! `top_moves [color]`, `top_moves_black`, `top_moves_white`. One search of the per-move time
//! (cut short by any input), then up to ten candidates with their win rates in percent, best
//! first: `D4 56.20 C3 51.75`.

use super::session::Session;
use gtp::args::expect_count;
use gtp::GtpError;
use std::io::Write;

/// Most candidates a hint lists, as GNU Go lists them.
const MOST: usize = 10;

impl<W: Write + Send> Session<W> {
    /// `top_moves [color]` (default: the player to move).
    pub(super) fn top_moves(&mut self, args: &[String]) -> Result<String, GtpError> {
        let (_, analysis) = self.snapshot(args)?;
        let g = self.game.geometry();
        let listed: Vec<String> = analysis
            .candidates
            .iter()
            .filter(|c| c.visits > 0 && c.mv != engine_core::Move::Pass)
            .take(MOST)
            .map(|c| format!("{} {:.2}", g.move_text(c.mv), 100.0 * c.winrate))
            .collect();
        Ok(listed.join(" "))
    }

    /// `top_moves_black` and `top_moves_white`.
    pub(super) fn top_moves_of(
        &mut self,
        args: &[String],
        color: &str,
    ) -> Result<String, GtpError> {
        expect_count(args, 0)?;
        self.top_moves(&[color.to_string()])
    }
}
