//! Prior knowledge for a new node's children, as virtual playouts (michi's values): every move
//! starts even; captures, ataris that catch a chain, atari escapes, the vital point of a small
//! eye space, shape patterns and moves near the last two moves are encouraged; self-atari,
//! escapes into a ladder and first/second-line moves in empty areas discouraged; passing is
//! unattractive until the board is settled.

use super::tree::NewChild;
use super::{ladder, nakade, patterns};
use engine_core::{Board, Color, Move, Point};

const EVEN: u32 = 10;
const CAPTURE_ONE: u32 = 15;
const CAPTURE_MANY: u32 = 30;
const ESCAPE: u32 = 15;
const SELF_ATARI: u32 = 10;
const PATTERN: u32 = 10;
const NAKADE: u32 = 20;
/// Bonus by Chebyshev distance 1, 2, 3 to the last move.
const NEAR_LAST: [u32; 3] = [24, 22, 8];
const EMPTY_AREA: u32 = 10;
const PASS_VISITS: u32 = 10;

/// Appends the children of a position: every legal move of `c` that does not fill its own eye
/// (accepted by `legal`, which adds superko at the root), then a pass.
pub fn children(
    board: &Board,
    c: Color,
    last: Option<Point>,
    legal: impl Fn(Point) -> bool,
    out: &mut Vec<NewChild>,
) {
    out.clear();
    for &p in board.empty_points() {
        if board.is_eye(c, p) || !board.is_legal(c, p) || !legal(p) {
            continue;
        }
        let (visits, wins) = prior(board, c, p, last);
        out.push(NewChild {
            mv: Move::Play(p),
            prior_visits: visits,
            prior_wins: 2 * wins,
        });
    }
    // Passing wins only when nothing useful is left: a weak prior, stronger on a full board.
    let settled = out.len() * 4 < board.geometry().area();
    out.push(NewChild {
        mv: Move::Pass,
        prior_visits: PASS_VISITS,
        prior_wins: if settled { PASS_VISITS } else { 2 },
    });
}

/// Virtual (playouts, wins) for `c` playing `p`.
fn prior(board: &Board, c: Color, p: Point, last: Option<Point>) -> (u32, u32) {
    let (mut visits, mut wins) = (EVEN, EVEN / 2);
    let mut add = |v: u32, w: u32| {
        visits += v;
        wins += w;
    };
    let g = board.geometry();
    let mut captured = 0;
    let mut escapes = false;
    for n in g.neighbors(p) {
        if board.atari_point(n).is_none() {
            continue;
        }
        match board.color_at(n) {
            Some(owner) if owner != c => captured += board.chain_size(n),
            Some(_) => escapes = true,
            None => {}
        }
    }
    // An atari whose chain cannot get out is as good as a capture.
    if captured == 0 {
        captured = ladder::atari_catches(board, c, p);
    }
    if captured == 1 {
        add(CAPTURE_ONE, CAPTURE_ONE);
    } else if captured > 1 {
        add(CAPTURE_MANY, CAPTURE_MANY);
    }
    let self_atari = board.is_self_atari(c, p);
    if self_atari || (escapes && ladder::extension_is_caught(board, c, p)) {
        add(SELF_ATARI, 0);
    } else if escapes {
        add(ESCAPE, ESCAPE);
    }
    if patterns::matches(board.neighborhood(p)) {
        add(PATTERN, PATTERN);
    }
    if nakade::vital_point(board, p) == Some(p) {
        add(NAKADE, NAKADE);
    }
    if let Some(l) = last {
        let ((px, py), (lx, ly)) = (g.coords(p), g.coords(l));
        let distance = px.abs_diff(lx).max(py.abs_diff(ly));
        if (1..=3).contains(&distance) {
            let bonus = NEAR_LAST[distance - 1];
            add(bonus, bonus);
        }
    }
    if let Some(line) = empty_area_line(board, p) {
        match line {
            0 | 1 => add(EMPTY_AREA, 0),
            2 => add(EMPTY_AREA, EMPTY_AREA),
            _ => {}
        }
    }
    (visits, wins)
}

/// The line (0 = edge) of `p` when no stone stands within Manhattan distance 3; `None` otherwise.
fn empty_area_line(board: &Board, p: Point) -> Option<usize> {
    let g = board.geometry();
    let (x, y) = g.coords(p);
    let size = g.size() as i64;
    for dy in -3i64..=3 {
        for dx in -3i64..=3 {
            if dx.abs() + dy.abs() > 3 {
                continue;
            }
            let (qx, qy) = (x as i64 + dx, y as i64 + dy);
            if (0..size).contains(&qx) && (0..size).contains(&qy) {
                let q = g.point(qx as usize, qy as usize).expect("inside the board");
                if board.color_at(q).is_some() {
                    return None;
                }
            }
        }
    }
    let size = g.size();
    Some(x.min(y).min(size - 1 - x).min(size - 1 - y))
}
