//! The fast board against a plain flood-fill reference: after every move of thousands of random
//! sequences (legal and illegal attempts mixed, all sizes), chains, liberty counts, atari points,
//! the empty list, bitboards, the hash, the ko point and the legality of every point must equal
//! what the reference recomputes from scratch. Half the moves come from the light playout, whose
//! choices must be legal and no eye, and which passes only when no such move exists.

mod common;

use common::{assert_consistent, Reference};
use engine_core::{random_light_move, Board, Color, Geometry, Point, MAX_SIZE, MIN_SIZE};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Plays a random sequence on a `size` board: each step either tries a random point for the side
/// to move (often illegal) and plays it when legal, or plays a light-playout move, and sometimes
/// passes.
fn random_sequence(size: usize, steps: usize, seed: u64) {
    let g = Geometry::new(size).unwrap();
    let mut board = Board::new(g);
    let mut reference = Reference::new(size);
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut to_move = Color::Black;
    let points: Vec<Point> = g.points().collect();
    for _ in 0..steps {
        if rng.random_ratio(1, 20) {
            board.pass();
            assert_eq!(board.ko_point(), None);
            assert_eq!(board.last_capture(), None);
            to_move = to_move.opponent();
            continue;
        }
        let p = if rng.random_bool(0.5) {
            points[rng.random_range(0..points.len())]
        } else if let Some(p) = random_light_move(&mut board, to_move, &mut rng) {
            assert!(board.is_legal(to_move, p) && !board.is_eye(to_move, p));
            p
        } else {
            assert!(g
                .points()
                .all(|p| !board.is_legal(to_move, p) || board.is_eye(to_move, p)));
            continue;
        };
        if !board.is_legal(to_move, p) {
            continue; // an illegal attempt must leave everything unchanged
        }
        let i = reference.index(g, p);
        let opponent_before: Vec<bool> = (0..size * size)
            .map(|j| reference.grid[j] == Some(to_move.opponent()))
            .collect();
        let captured = reference.play(to_move, i);
        let before: Vec<Option<Color>> = reference.grid.clone();
        board.play(to_move, p);
        // The last capture: the stones taken, and a point that held one of them.
        match board.last_capture() {
            None => assert_eq!(captured, 0),
            Some((at, stones)) => {
                assert_eq!(stones as usize, captured);
                let j = reference.index(g, at);
                assert!(opponent_before[j] && reference.grid[j].is_none());
            }
        }
        let (stones, libs) = reference.chain(i);
        // A single stone that captured a single stone and has one liberty left: that is the ko.
        let ko = (captured == 1 && stones.len() == 1 && libs.len() == 1)
            .then(|| g.point(libs[0] % size, libs[0] / size).unwrap());
        assert_eq!(reference.grid, before);
        assert_consistent(&board, &reference, ko);
        to_move = to_move.opponent();
    }
}

#[test]
fn random_sequences_on_every_size_match_the_reference() {
    // The check after each move costs O(size^4): many games on small boards, one on large ones.
    for size in MIN_SIZE..=MAX_SIZE {
        let (games, steps) = match size {
            2..=9 => (40, 2 * size * size),
            10..=15 => (2, 2 * size * size),
            _ => (1, size * size),
        };
        for seed in 0..games {
            random_sequence(size, steps, seed * 31 + size as u64);
        }
    }
}

#[test]
fn a_copied_board_is_independent() {
    let g = Geometry::new(9).unwrap();
    let mut a = Board::new(g);
    a.play(Color::Black, g.point(4, 4).unwrap());
    let b = a;
    a.play(Color::White, g.point(3, 4).unwrap());
    assert_eq!(b.stone_count(), 1);
    assert_eq!(a.stone_count(), 2);
}

#[test]
fn taking_a_chain_off_forgets_the_rejections_beside_it() {
    // Black A2 and B1 make A1 an eye, no candidate for either side. Take B1 off as a dead
    // stone and put a white stone there: A1 is now a black move joining A2.
    let g = Geometry::new(5).unwrap();
    let mut board = Board::new(g);
    let [a1, a2, b1] = [(0, 0), (0, 1), (1, 0)].map(|(x, y)| g.point(x, y).unwrap());
    board.play(Color::Black, a2);
    board.play(Color::Black, b1);
    for c in Color::BOTH {
        assert!(!board.is_playout_candidate_remembered(c, a1));
    }
    board.remove_chain_at(b1);
    board.play(Color::White, b1);
    assert!(board.is_playout_candidate(Color::Black, a1));
    assert!(board.is_playout_candidate_remembered(Color::Black, a1));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn arbitrary_sequences_match_the_reference(
        size in MIN_SIZE..=9usize,
        seed in any::<u64>(),
        steps in 1usize..300,
    ) {
        random_sequence(size, steps, seed);
    }
}
