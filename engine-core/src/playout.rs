//! Light playouts: uniformly random legal moves that do not fill the mover's own eyes, to the end
//! of the game, scored by area.

use crate::board::Board;
use crate::color::Color;
use crate::geometry::Point;
use rand::RngCore;

/// Outcome of one playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutResult {
    /// Black's area minus White's (komi not applied).
    pub score: i32,
    /// Stones played (passes not counted).
    pub moves: u32,
}

/// A uniform index in `0..n` from one 32-bit draw (Lemire's multiply-shift).
#[inline]
pub(crate) fn below(rng: &mut impl RngCore, n: usize) -> usize {
    ((rng.next_u32() as u64 * n as u64) >> 32) as usize
}

/// A random legal move for `c` that does not fill one of its eyes, or `None` (pass) when there is
/// none. Scans the empty list from a random start, as libego and Pachi do; the board remembers
/// the points it rejects (see [`Board::is_playout_candidate_remembered`]).
#[inline]
pub fn random_light_move(board: &mut Board, c: Color, rng: &mut impl RngCore) -> Option<Point> {
    let len = board.empty_points().len();
    if len == 0 {
        return None;
    }
    // An index loop: a chained iterator over the two halves costs a branch per element.
    let start = below(rng, len);
    let mut i = start;
    loop {
        let p = board.empty_points()[i];
        if board.is_playout_candidate_remembered(c, p) {
            return Some(p);
        }
        i += 1;
        if i == len {
            i = 0;
        }
        if i == start {
            return None;
        }
    }
}

/// Plays light random moves from `to_move` on until both sides pass in turn or `max_moves`
/// stones have been played, and scores the final position.
pub fn light_playout(
    board: &mut Board,
    mut to_move: Color,
    rng: &mut impl RngCore,
    max_moves: u32,
) -> PlayoutResult {
    let mut moves = 0;
    let mut passes = 0;
    while passes < 2 && moves < max_moves {
        match random_light_move(board, to_move, rng) {
            Some(p) => {
                board.play(to_move, p);
                moves += 1;
                passes = 0;
            }
            None => passes += 1,
        }
        to_move = to_move.opponent();
    }
    PlayoutResult {
        score: board.playout_score(),
        moves,
    }
}
