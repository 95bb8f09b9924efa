//! Setting up a game: `boardsize`, `clear_board`, `komi`, the three handicap commands, GoGui's
//! `gogui-setup`/`gogui-setup_player`, and `loadsgf`/`printsgf`. Every failure leaves the game
//! as it was.

use super::handicap::free_placement;
use super::rules::sgf_rules_name;
use super::session::Session;
use crate::sgf::{self, GameInfo};
use crate::user_files;
use engine_core::{is_valid_komi, Game, Point, MAX_SIZE, MIN_SIZE};
use gtp::args::{color, expect_between, expect_count, float, int, int_in, vertex};
use gtp::GtpError;
use std::io::Write;
use std::path::Path;

impl<W: Write + Send> Session<W> {
    pub(super) fn boardsize(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 1)?;
        let size = int(&args[0])? as usize;
        // Checked here too: `Geometry::new` must never see a size that overflows a `u8`.
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(GtpError::unacceptable_size());
        }
        self.game = Game::new(size, self.game.rules(), self.game.komi())
            .map_err(|_| GtpError::unacceptable_size())?;
        Ok(String::new())
    }

    pub(super) fn clear_board(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 0)?;
        self.game.clear();
        Ok(String::new())
    }

    pub(super) fn komi(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 1)?;
        let komi = float(&args[0])?;
        if !is_valid_komi(komi) {
            return Err(GtpError::syntax());
        }
        self.game.set_komi(komi);
        Ok(String::new())
    }

    pub(super) fn fixed_handicap(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 1)?;
        let stones = int(&args[0])? as usize;
        let points = self
            .game
            .place_fixed_handicap(stones)
            .map_err(|e| GtpError::new(e.to_string()))?;
        Ok(self.vertex_list(&points))
    }

    pub(super) fn place_free_handicap(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 1)?;
        let stones = int(&args[0])? as usize;
        if stones < 2 {
            return Err(GtpError::invalid_number_of_stones());
        }
        let points = free_placement(self.game.geometry(), stones);
        self.game
            .place_handicap(&points)
            .map_err(|e| GtpError::new(e.to_string()))?;
        Ok(self.vertex_list(&points))
    }

    pub(super) fn set_free_handicap(&mut self, args: &[String]) -> Result<String, GtpError> {
        let g = self.game.geometry();
        let points = args
            .iter()
            .map(|v| {
                vertex(g, v).map_err(|e| {
                    if v.eq_ignore_ascii_case("pass") {
                        GtpError::bad_vertex_list()
                    } else {
                        e
                    }
                })
            })
            .collect::<Result<Vec<Point>, GtpError>>()?;
        self.game
            .place_handicap(&points)
            .map_err(|e| GtpError::new(e.to_string()))?;
        Ok(String::new())
    }

    /// `gogui-setup <color> <vertex> ...`: GoGui's setup stones (SGF `AB`/`AW`) before the first
    /// move. All or nothing.
    pub(super) fn gogui_setup(&mut self, args: &[String]) -> Result<String, GtpError> {
        if !args.len().is_multiple_of(2) {
            return Err(GtpError::syntax());
        }
        let g = self.game.geometry();
        let mut game = self.game.clone();
        for pair in args.chunks(2) {
            let (c, p) = (color(&pair[0])?, vertex(g, &pair[1])?);
            game.add_setup_stones(c, &[p])
                .map_err(|e| GtpError::new(e.to_string()))?;
        }
        self.game = game;
        Ok(String::new())
    }

    /// `gogui-setup_player <color>`: who moves first after the setup stones.
    pub(super) fn gogui_setup_player(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 1)?;
        let c = color(&args[0])?;
        self.game
            .set_first_to_move(c)
            .map_err(|e| GtpError::new(e.to_string()))?;
        Ok(String::new())
    }

    /// `loadsgf file [move_number]`: the position before that move (1 = the start).
    pub(super) fn loadsgf(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_between(args, 1..=2)?;
        let before = match args.get(1) {
            Some(n) => Some(int_in(n, 1..=gtp::args::MAX_INT)? as usize - 1),
            None => None,
        };
        let text = user_files::read_small_text(Path::new(&args[0])).map_err(|e| {
            log::warn!("loadsgf {}: {e}", args[0]);
            GtpError::cannot_load_file()
        })?;
        let game = sgf::read(&text)
            .and_then(|record| record.to_game(self.game.rules(), self.game.komi(), before))
            .map_err(|e| {
                log::warn!("loadsgf {}: {e}", args[0]);
                GtpError::cannot_load_file()
            })?;
        self.game = game;
        Ok(String::new())
    }

    /// `printsgf [file]`: the game as SGF, or written to `file`.
    pub(super) fn printsgf(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_between(args, 0..=1)?;
        let info = GameInfo {
            black: String::new(),
            white: String::new(),
            date: Some(sgf::today()),
            rules: Some(sgf_rules_name(self.game.rules()).to_string()),
            ..GameInfo::default()
        };
        let text = sgf::write(&self.game, &info);
        match args.first() {
            None => Ok(text),
            Some(file) => user_files::write_atomically(Path::new(file), text.as_bytes())
                .map(|()| String::new())
                .map_err(|e| {
                    log::warn!("printsgf: {e}");
                    GtpError::new("cannot write file")
                }),
        }
    }

    /// Vertices separated by spaces.
    pub(super) fn vertex_list(&self, points: &[Point]) -> String {
        let g = self.game.geometry();
        points
            .iter()
            .map(|&p| g.vertex(p))
            .collect::<Vec<_>>()
            .join(" ")
    }
}
