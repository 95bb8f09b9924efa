//! The end of the game: `final_score` (`B+3.5`, `W+0.5`, `0`), `final_status_list
//! alive|dead|seki` (one chain per line) and GNU Go's `black_territory|white_territory|dame`
//! (one line), and GNU Go's `estimate_score` (`W+3.5 (upper bound: 3.5, lower: 3.5)`, bounds
//! as White's margin), all from the player's judgement of dead stones and the area count of the
//! rules in force.

use super::session::Session;
use engine_core::{Color, Point, Score};
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

    /// `estimate_score`, as GNU Go answers it (Kigo shows it at the end of a game).
    pub(super) fn estimate_score(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 0)?;
        let status = self.player.final_status(&self.game);
        let score = self.game.score(&status.dead);
        let white_margin = -score.margin();
        Ok(format!(
            "{score} (upper bound: {white_margin}, lower: {white_margin})"
        ))
    }

    pub(super) fn final_status_list(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 1)?;
        let wanted = args[0].to_ascii_lowercase();
        let territory = match wanted.as_str() {
            "black_territory" => Some(Some(Color::Black)),
            "white_territory" => Some(Some(Color::White)),
            "dame" => Some(None),
            "alive" | "dead" | "seki" => None,
            _ => return Err(GtpError::syntax()),
        };
        let status = self.player.final_status(&self.game);
        if let Some(owner) = territory {
            return Ok(self.territory(&status.dead, owner));
        }
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

    /// The points `owner` counts but holds no living stone on (its territory, dead stones'
    /// points included), or with no owner the points neither side counts, on one line.
    fn territory(&self, dead: &[Point], owner: Option<Color>) -> String {
        let mut board = *self.game.board();
        for &p in dead {
            if board.is_on_board(p) && board.color_at(p).is_some() {
                board.remove_chain_at(p);
            }
        }
        let areas = Score::areas(&board);
        let g = self.game.geometry();
        let points: Vec<Point> = (0..g.size())
            .rev()
            .flat_map(|row| (0..g.size()).filter_map(move |col| g.point(col, row)))
            .filter(|&p| {
                let bit = g.bit(p);
                match owner {
                    Some(c) => areas[c.index()].contains(bit) && board.color_at(p) != Some(c),
                    None => Color::BOTH.iter().all(|c| !areas[c.index()].contains(bit)),
                }
            })
            .collect();
        self.vertex_list(&points)
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
