//! Area scoring (Chinese rules): stones plus empty regions bordered by one colour only.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use std::fmt;

/// The count of a finished position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Score {
    /// Black stones plus empty points reached by Black only.
    pub black_area: u32,
    /// White stones plus empty points reached by White only.
    pub white_area: u32,
    /// Empty points touching both colours, or none (dame, seki liberties).
    pub dame: u32,
    /// Points given to White for moving second.
    pub komi: f64,
    /// Points given to White for Black's handicap stones (Chinese compensation).
    pub compensation: f64,
}

impl Score {
    /// Counts `board` as it stands (remove dead stones first).
    pub fn count(board: &Board, komi: f64, compensation: f64) -> Score {
        let [black, white] = Score::areas(board);
        let total = board.geometry().area() as u32;
        Score {
            black_area: black.count(),
            white_area: white.count(),
            dame: total - black.count() - white.count(),
            komi,
            compensation,
        }
    }

    /// Each colour's area as a set: its stones and the empty regions bordered by it alone.
    pub fn areas(board: &Board) -> [Bitboard; 2] {
        let stride = board.geometry().stride();
        let mask = board.on_board();
        let black = board.stones(Color::Black);
        let white = board.stones(Color::White);
        let mut areas = [*black, *white];
        let mut unvisited = board.empty_set();
        while let Some(bit) = unvisited.first() {
            let mut seed = Bitboard::EMPTY;
            seed.set(bit);
            let region = Bitboard::flood(&seed, &unvisited, stride);
            unvisited = unvisited.and_not(&region);
            let border = region.dilate(stride, mask);
            let touches_black = !border.and(black).is_empty();
            let touches_white = !border.and(white).is_empty();
            match (touches_black, touches_white) {
                (true, false) => areas[0] = areas[0].or(&region),
                (false, true) => areas[1] = areas[1].or(&region),
                _ => {}
            }
        }
        areas
    }

    /// Black's margin in points: positive when Black wins.
    pub fn margin(&self) -> f64 {
        self.black_area as f64 - self.white_area as f64 - self.komi - self.compensation
    }

    /// The winner, or `None` for a draw (jigo).
    pub fn winner(&self) -> Option<Color> {
        let m = self.margin();
        if m > 0.0 {
            Some(Color::Black)
        } else if m < 0.0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Black's count in the Chinese manner: Black's area plus half the dame.
    pub fn black_count(&self) -> f64 {
        self.black_area as f64 + self.dame as f64 / 2.0
    }

    /// Stones Black needs to win: half the board plus half of White's points of komi and
    /// compensation ("贴3¾子" for komi 7.5).
    pub fn black_needs(&self) -> f64 {
        let board = (self.black_area + self.white_area + self.dame) as f64;
        board / 2.0 + (self.komi + self.compensation) / 2.0
    }

    /// The result in the Chinese count, e.g. `Black 185 stones, needs 184¼: Black wins by ¾ stone`.
    pub fn chinese_count(&self) -> String {
        let stones = self.black_count() - self.black_needs();
        let verdict = match self.winner() {
            None => "draw".to_string(),
            Some(c) => {
                let who = if c == Color::Black { "Black" } else { "White" };
                format!("{who} wins by {} stone", quarters(stones.abs()))
            }
        };
        format!(
            "Black {} stones, needs {}: {verdict}",
            quarters(self.black_count()),
            quarters(self.black_needs())
        )
    }
}

/// A multiple of ¼ written with vulgar fractions: `184¼`, `¾`, `3`.
fn quarters(x: f64) -> String {
    let q = (x * 4.0).round() as i64;
    let (whole, frac) = (q / 4, q % 4);
    let frac = ["", "¼", "½", "¾"][frac as usize];
    if whole == 0 && !frac.is_empty() {
        frac.to_string()
    } else {
        format!("{whole}{frac}")
    }
}

impl fmt::Display for Score {
    /// The GTP form: `B+3.5`, `W+0.5`, or `0` for a draw.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let m = self.margin();
        match self.winner() {
            None => f.write_str("0"),
            Some(c) => write!(f, "{}+{}", c.letter(), m.abs()),
        }
    }
}
