//! Prior knowledge for a new node's children, as virtual playouts. Every move starts even.
//! Hand-set bonuses (michi's values) encourage captures, ataris that catch a chain, atari
//! escapes, the vital point of a small eye space and moves near the last move, and discourage
//! self-atari and first/second-line moves in empty areas. Running out a chain the ladder reader
//! sees caught is no child at all: the playouts do not play ladders out, so by them the chain
//! escapes, and the AMAF values outweighed any prior (the search ran a ladder out for twenty
//! stones against Pachi). Nor, from 13x13 up, is a first- or second-line move in an empty
//! area: the playouts rate it about as well as a corner move and the search opened 19x19 games
//! on the second line. On top, the learned move model ([`MoveModel`]) adds virtual wins in
//! proportion to the square root of the move's probability among the legal moves, so that the
//! moves a strong player would consider are searched first. Passing is unattractive until the
//! board is settled.

use super::move_features::{
    self, Features, ATARI, ATARI_CAUGHT, CAPTURE, EMPTY_AREA, EMPTY_FIRST_LINE, EMPTY_SECOND_LINE,
    EMPTY_THIRD_LINE_FROM, EMPTY_THIRD_LINE_TO, ESCAPE, ESCAPE_CAUGHT, SELF_ATARI,
};
use super::move_model::MoveModel;
use super::tree::NewChild;
use super::{ladder, nakade};
use engine_core::{Board, Color, Move, Point, MAX_CELLS};

const EVEN: u32 = 10;
const CAPTURE_ONE: u32 = 15;
const CAPTURE_MANY: u32 = 30;
const ESCAPE_BONUS: u32 = 15;
const SELF_ATARI_PENALTY: u32 = 10;
const NAKADE: u32 = 20;
/// Bonus by Chebyshev distance 1, 2, 3 to the last move.
const NEAR_LAST: [u32; 3] = [24, 22, 8];
const EMPTY_AREA_BONUS: u32 = 10;
/// Virtual wins of a move the model gives probability 1 (a quarter of it at 1/16). 160 won
/// 17 of 17 19x19 games against the hand-set priors alone at 1,000 playouts a move; 80 won 19
/// of 24 (BENCHMARKS.md).
const MODEL_WINS: f32 = 160.0;
const PASS_VISITS: u32 = 10;
/// The smallest board on which first- and second-line moves in an empty area are no children.
const LOW_MOVES_PRUNED_FROM: usize = 13;

/// Appends the children of a position: every legal move of `c` that does not fill its own eye
/// (accepted by `legal`, which adds superko at the root) nor runs out a chain caught in a
/// ladder nor, on a large board, is low in an empty area; then a pass. `last` are the last two
/// moves, latest first.
pub fn children(
    board: &Board,
    c: Color,
    last: [Option<Point>; 2],
    legal: impl Fn(Point) -> bool,
    out: &mut Vec<NewChild>,
) {
    out.clear();
    let model = MoveModel::learned();
    let prune_low = board.geometry().size() >= LOW_MOVES_PRUNED_FROM;
    let mut gammas = [0f32; MAX_CELLS];
    let mut total = 0.0;
    for &p in board.empty_points() {
        if board.is_eye(c, p) || !board.is_legal(c, p) || !legal(p) {
            continue;
        }
        let features = move_features::of(board, c, p, last);
        let low = matches!(features.0[EMPTY_AREA], EMPTY_FIRST_LINE | EMPTY_SECOND_LINE);
        if features.0[ESCAPE] == ESCAPE_CAUGHT || (low && prune_low) {
            continue;
        }
        let (visits, wins) = hand_prior(board, c, p, &features, last[0]);
        gammas[out.len()] = model.gamma(&features);
        total += gammas[out.len()];
        out.push(NewChild {
            mv: Move::Play(p),
            prior_visits: visits,
            prior_wins: 2 * wins,
        });
    }
    for (child, gamma) in out.iter_mut().zip(gammas) {
        let model_wins = (MODEL_WINS * (gamma / total).sqrt()).round() as u32;
        child.prior_visits += model_wins;
        child.prior_wins += 2 * model_wins;
    }
    // Passing wins only when nothing useful is left: a weak prior, stronger on a full board.
    let settled = out.len() * 4 < board.geometry().area();
    out.push(NewChild {
        mv: Move::Pass,
        prior_visits: PASS_VISITS,
        prior_wins: if settled { PASS_VISITS } else { 2 },
    });
}

/// The hand-set virtual (playouts, wins) for `c` playing `p` with these features.
fn hand_prior(board: &Board, c: Color, p: Point, f: &Features, last: Option<Point>) -> (u32, u32) {
    let (mut visits, mut wins) = (EVEN, EVEN / 2);
    let mut add = |v: u32, w: u32| {
        visits += v;
        wins += w;
    };
    // Taking one stone, or catching one in an atari it cannot escape, is worth less than more.
    // An atari the chain escapes from earns nothing here (the model weighs it).
    let taken = match (f.0[CAPTURE], f.0[ATARI]) {
        (0, ATARI_CAUGHT) => ladder::atari_catches(board, c, p),
        (size, _) => size,
    };
    match taken {
        0 => {}
        1 => add(CAPTURE_ONE, CAPTURE_ONE),
        _ => add(CAPTURE_MANY, CAPTURE_MANY),
    }
    match (f.0[SELF_ATARI], f.0[ESCAPE]) {
        (1, _) => add(SELF_ATARI_PENALTY, 0),
        (_, 1 | 3) => add(ESCAPE_BONUS, ESCAPE_BONUS),
        _ => {}
    }
    if nakade::vital_point(board, p) == Some(p) {
        add(NAKADE, NAKADE);
    }
    if let Some(l) = last {
        let g = board.geometry();
        let ((px, py), (lx, ly)) = (g.coords(p), g.coords(l));
        let distance = px.abs_diff(lx).max(py.abs_diff(ly));
        if (1..=3).contains(&distance) {
            let bonus = NEAR_LAST[distance - 1];
            add(bonus, bonus);
        }
    }
    // The first and second lines of an empty area are too low (on a large board they are no
    // children at all), the third is right.
    match f.0[EMPTY_AREA] {
        EMPTY_FIRST_LINE | EMPTY_SECOND_LINE => add(EMPTY_AREA_BONUS, 0),
        EMPTY_THIRD_LINE_FROM..=EMPTY_THIRD_LINE_TO => add(EMPTY_AREA_BONUS, EMPTY_AREA_BONUS),
        _ => {}
    }
    (visits, wins)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::Geometry;

    /// The lines (0 the first) of the moves among the children of `board` for Black.
    fn lines_of_children(board: &Board) -> Vec<usize> {
        let mut out = Vec::new();
        children(board, Color::Black, [None; 2], |_| true, &mut out);
        let g = board.geometry();
        let line = |p: Point| {
            let (x, y) = g.coords(p);
            x.min(y).min(g.size() - 1 - x).min(g.size() - 1 - y)
        };
        out.iter()
            .filter_map(|child| match child.mv {
                Move::Play(p) => Some(line(p)),
                Move::Pass => None,
            })
            .collect()
    }

    #[test]
    fn an_atari_earns_a_bonus_only_when_it_catches_the_chain() {
        let g = Geometry::new(9).unwrap();
        let at = |v: &str| match g.parse_move(v).unwrap() {
            Move::Play(p) => p,
            Move::Pass => unreachable!(),
        };
        let prior = |board: &Board, v: &str| {
            let f = move_features::of(board, Color::Black, at(v), [None; 2]);
            hand_prior(board, Color::Black, at(v), &f, None)
        };
        // White E5 between Black D5 and F5: E6 ataris it, and it runs out on E4.
        let mut open = Board::new(g);
        open.play(Color::White, at("E5"));
        open.play(Color::Black, at("D5"));
        open.play(Color::Black, at("F5"));
        assert_eq!(prior(&open, "E6"), (EVEN, EVEN / 2));
        // White E1 on the edge beside Black D1: E2 ataris it, and the edge ladder catches it.
        let mut edge = Board::new(g);
        edge.play(Color::White, at("E1"));
        edge.play(Color::Black, at("D1"));
        assert_eq!(
            prior(&edge, "E2"),
            (EVEN + CAPTURE_ONE, EVEN / 2 + CAPTURE_ONE)
        );
    }

    #[test]
    fn large_boards_open_on_the_third_line_or_higher() {
        let empty = Board::new(Geometry::new(19).unwrap());
        let lines = lines_of_children(&empty);
        assert_eq!(lines.len(), 15 * 15);
        assert!(lines.iter().all(|&line| line >= 2));
    }

    #[test]
    fn low_moves_stay_children_near_stones_and_on_small_boards() {
        let g = Geometry::new(19).unwrap();
        let mut board = Board::new(g);
        board.play(Color::White, g.point(3, 3).unwrap());
        // The eight low points within Manhattan distance 3 of the stone: (3, 0), (2, 1) and so on.
        let low_near = lines_of_children(&board)
            .iter()
            .filter(|&&l| l <= 1)
            .count();
        assert_eq!(low_near, 8);
        let small = Board::new(Geometry::new(9).unwrap());
        assert_eq!(lines_of_children(&small).len(), 81);
    }
}
