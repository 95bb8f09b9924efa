//! GNU Go's board queries, which GUIs and scripts written for GNU Go rely on (Kigo draws its
//! board from `list_stones`; gnugo.el and many scripts read `captures`, `move_history`,
//! `findlib`): `list_stones`, `captures`, `move_history`, `all_legal`, `is_legal`, `color`,
//! `findlib`, `countlib`, `query_boardsize`, `get_komi`, `get_handicap`. Answers are shaped as
//! GNU Go 3.8 shapes them; points run from the top row down, left to right, as GNU Go lists them.

use super::session::Session;
use engine_core::{Move, Point};
use gtp::args::{color, expect_count, vertex};
use gtp::GtpError;
use std::io::Write;

impl<W: Write + Send> Session<W> {
    /// `list_stones <color>`: the points of that colour's stones.
    pub(super) fn list_stones(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 1)?;
        let c = color(&args[0])?;
        let board = self.game.board();
        Ok(self.in_gnugo_order(|p| board.color_at(p) == Some(c)))
    }

    /// `captures <color>`: how many stones that colour has captured.
    pub(super) fn captures(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 1)?;
        let c = color(&args[0])?;
        Ok(self.game.board().captures(c).to_string())
    }

    /// `move_history`: `color vertex` per move, the latest first (passes as `PASS`).
    pub(super) fn move_history(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 0)?;
        let g = self.game.geometry();
        let lines: Vec<String> = self
            .game
            .moves()
            .iter()
            .rev()
            .map(|&(c, m)| {
                let vertex = match m {
                    Move::Pass => "PASS".to_string(),
                    Move::Play(p) => g.vertex(p),
                };
                format!("{c} {vertex}")
            })
            .collect();
        Ok(lines.join("\n"))
    }

    /// `all_legal <color>`: every point that colour may play now.
    pub(super) fn all_legal(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 1)?;
        let c = color(&args[0])?;
        let game = &self.game;
        Ok(self.in_gnugo_order(|p| game.check(c, Move::Play(p)).is_ok()))
    }

    /// `is_legal <color> <vertex>`: `1` or `0`.
    pub(super) fn is_legal(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 2)?;
        let c = color(&args[0])?;
        let p = vertex(self.game.geometry(), &args[1])?;
        Ok(u8::from(self.game.check(c, Move::Play(p)).is_ok()).to_string())
    }

    /// `color <vertex>`: `black`, `white` or `empty`.
    pub(super) fn color(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 1)?;
        let p = vertex(self.game.geometry(), &args[0])?;
        Ok(self
            .game
            .board()
            .color_at(p)
            .map_or_else(|| "empty".to_string(), |c| c.to_string()))
    }

    /// `findlib <vertex>`: the liberties of the chain there.
    pub(super) fn findlib(&mut self, args: &[String]) -> Result<String, GtpError> {
        let p = self.stone_at(args)?;
        let liberties = self.game.board().chain_liberty_set(p);
        let g = self.game.geometry();
        Ok(self.in_gnugo_order(|q| liberties.contains(g.bit(q))))
    }

    /// `countlib <vertex>`: how many liberties the chain there has.
    pub(super) fn countlib(&mut self, args: &[String]) -> Result<String, GtpError> {
        let p = self.stone_at(args)?;
        Ok(self.game.board().chain_liberties(p).to_string())
    }

    pub(super) fn query_boardsize(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 0)?;
        Ok(self.game.size().to_string())
    }

    pub(super) fn get_komi(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 0)?;
        Ok(self.game.komi().to_string())
    }

    pub(super) fn get_handicap(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 0)?;
        Ok(self.game.handicap().to_string())
    }

    /// The one vertex argument, which must hold a stone (GNU Go's message otherwise).
    fn stone_at(&self, args: &[String]) -> Result<Point, GtpError> {
        expect_count(args, 1)?;
        let p = vertex(self.game.geometry(), &args[0])?;
        if self.game.board().is_empty(p) {
            return Err(GtpError::new("vertex must not be empty"));
        }
        Ok(p)
    }

    /// The points for which `keep` holds, top row first, as GNU Go lists them.
    fn in_gnugo_order(&self, keep: impl Fn(Point) -> bool) -> String {
        let g = self.game.geometry();
        let points: Vec<Point> = (0..g.size())
            .rev()
            .flat_map(|row| (0..g.size()).filter_map(move |col| g.point(col, row)))
            .filter(|&p| keep(p))
            .collect();
        self.vertex_list(&points)
    }
}
