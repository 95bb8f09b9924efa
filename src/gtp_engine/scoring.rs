//! The end of the game: `final_score` (`B+3.5`, `W+0.5`, `0`) and `final_status_list
//! alive|dead|seki` (one chain per line), both from the player's judgement of dead stones and
//! the area count of the rules in force.

use super::session::Session;
use engine_core::Point;
use gtp::args::expect_count;
use gtp::GtpError;
use std::collections::BTreeSet;
use std::io::Write;

impl<W: Write + Send> Session<W> {
    pub(super) fn final_score(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 0)?;
        let status = self.player.final_status(&self.game);
        Ok(self.game.score(&status.dead).to_string())
    }

    pub(super) fn final_status_list(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 1)?;
        let wanted = args[0].to_ascii_lowercase();
        if !["alive", "dead", "seki"].contains(&wanted.as_str()) {
            return Err(GtpError::syntax());
        }
        let status = self.player.final_status(&self.game);
        let dead = self.chains_through(&status.dead);
        let seki = self.chains_through(&status.seki);
        let board = self.game.board();
        let stones: BTreeSet<Point> = self
            .game
            .geometry()
            .points()
            .filter(|&p| board.color_at(p).is_some())
            .collect();
        let listed: BTreeSet<Point> = match wanted.as_str() {
            "dead" => dead,
            "seki" => seki.difference(&dead).copied().collect(),
            _ => stones
                .iter()
                .copied()
                .filter(|p| !dead.contains(p) && !seki.contains(p))
                .collect(),
        };
        Ok(self.chain_lines(&listed))
    }

    /// Every stone of the chains through `points` (empty points ignored).
    fn chains_through(&self, points: &[Point]) -> BTreeSet<Point> {
        let board = self.game.board();
        points
            .iter()
            .filter(|&&p| board.is_on_board(p) && board.color_at(p).is_some())
            .flat_map(|&p| board.chain_stones(p).collect::<Vec<_>>())
            .collect()
    }

    /// The stones in `points`, one chain per line.
    fn chain_lines(&self, points: &BTreeSet<Point>) -> String {
        let board = self.game.board();
        let mut seen = BTreeSet::new();
        let mut lines = Vec::new();
        for &p in points {
            if seen.insert(board.chain_head(p)) {
                let mut chain: Vec<Point> = board
                    .chain_stones(p)
                    .filter(|q| points.contains(q))
                    .collect();
                chain.sort();
                lines.push(self.vertex_list(&chain));
            }
        }
        lines.join("\n")
    }
}
