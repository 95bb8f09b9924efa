//! Seki at the end of a game: living chains of both colours that share liberties neither side
//! can fill without putting its own chain in atari. Those liberties count for nobody (see
//! [`Score`](crate::Score)); the chains around them are neither dead nor plainly alive.

use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::color::Color;
use crate::geometry::Point;

/// The stones in seki once the `dead` stones are off the board: the chains next to an empty
/// point that touches both colours and that neither colour can fill, because the fill would be
/// suicide or a self-atari. (A fill that captures is never a self-atari, so a point next to a
/// chain in atari is no seki liberty; nor is plain dame that either side could fill safely.)
pub fn seki_stones(board: &Board, dead: &[Point]) -> Vec<Point> {
    let mut b = *board;
    for &p in dead {
        b.remove_chain_at(p);
    }
    let g = b.geometry();
    let mut seki = Bitboard::EMPTY;
    for &q in b.empty_points() {
        let touches = |c| g.neighbors(q).iter().any(|&n| b.color_at(n) == Some(c));
        if !Color::BOTH.into_iter().all(touches) {
            continue;
        }
        let fillable = Color::BOTH
            .into_iter()
            .any(|c| b.is_legal(c, q) && !b.is_self_atari(c, q));
        if fillable {
            continue;
        }
        for n in g.neighbors(q) {
            if b.color_at(n).is_some() {
                for s in b.chain_stones(n) {
                    seki.set(g.bit(s));
                }
            }
        }
    }
    seki.iter().map(|bit| g.point_of_bit(bit)).collect()
}
