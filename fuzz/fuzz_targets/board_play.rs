//! The fast board fed arbitrary move sequences: after every legal move, every derived fact
//! (chains, liberties, atari points, the empty list, bitboards, the hash, the ko point, the
//! legality of every point) must equal what the plain flood-fill reference of the engine-core
//! tests recomputes from scratch. The first byte picks the size; each later byte pair a point
//! (or a pass) for the side to move; illegal attempts must change nothing. The full check costs
//! O(size^4), so boards up to 7x7 are checked after every move, larger ones at the end.
#![no_main]

#[path = "../../engine-core/tests/common/mod.rs"]
mod common;

use common::{assert_consistent, Reference};
use engine_core::{Board, Color, Geometry, Point, MAX_SIZE, MIN_SIZE};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, moves)) = data.split_first() else {
        return;
    };
    let size = MIN_SIZE + first as usize % (MAX_SIZE - MIN_SIZE + 1);
    let g = Geometry::new(size).expect("a size in range");
    let points: Vec<Point> = g.points().collect();
    let mut board = Board::new(g);
    let mut reference = Reference::new(size);
    let mut to_move = Color::Black;
    let check_every_move = size <= 7;
    let mut ko = None;
    for pair in moves.chunks_exact(2).take(size * size) {
        let choice = u16::from_le_bytes([pair[0], pair[1]]) as usize % (points.len() + 1);
        let Some(&p) = points.get(choice) else {
            board.pass();
            ko = None;
            to_move = to_move.opponent();
            continue;
        };
        if !board.is_legal(to_move, p) {
            continue;
        }
        let i = reference.index(g, p);
        let captured = reference.play(to_move, i);
        board.play(to_move, p);
        let (stones, libs) = reference.chain(i);
        ko = (captured == 1 && stones.len() == 1 && libs.len() == 1).then(|| {
            g.point(libs[0] % size, libs[0] / size)
                .expect("on the board")
        });
        if check_every_move {
            assert_consistent(&board, &reference, ko);
        }
        to_move = to_move.opponent();
    }
    assert_consistent(&board, &reference, ko);
});
