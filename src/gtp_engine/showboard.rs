//! `showboard`: a diagram for humans (never parsed by controllers), with coordinates, captures,
//! komi, the player to move and the last move. It starts on the line after `=`.

use super::session::Session;
use engine_core::Color;
use gtp::args::expect_count;
use gtp::GtpError;
use std::fmt::Write as _;
use std::io::Write;

const COLUMNS: &str = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

impl<W: Write + Send> Session<W> {
    pub(super) fn showboard(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 0)?;
        let (game, g) = (&self.game, self.game.geometry());
        let board = game.board();
        let letters: String = COLUMNS[..g.size()]
            .chars()
            .map(|c| format!(" {c}"))
            .collect();
        let mut text = format!("\n   {letters}\n");
        for row in (0..g.size()).rev() {
            let _ = write!(text, "{:>2} ", row + 1);
            for col in 0..g.size() {
                let p = g.point(col, row).expect("on the board");
                let last = game
                    .last_move()
                    .is_some_and(|(_, m)| m == engine_core::Move::Play(p));
                let stone = match board.color_at(p) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                let _ = write!(text, "{}{stone}", if last { '(' } else { ' ' });
            }
            let _ = writeln!(text, " {}", row + 1);
        }
        let _ = writeln!(text, "   {letters}");
        let _ = writeln!(
            text,
            "captured by Black (X): {}, by White (O): {}",
            board.captures(Color::Black),
            board.captures(Color::White)
        );
        let _ = write!(
            text,
            "komi {}, {} to move, move {}",
            game.komi(),
            game.to_move(),
            game.moves().len() + 1
        );
        if let Some((c, m)) = game.last_move() {
            let _ = write!(text, ", last {} {}", c, g.move_text(m));
        }
        Ok(text)
    }
}
