//! The fast board against a plain flood-fill reference: after every move of thousands of random
//! sequences (legal and illegal attempts mixed, all sizes), chains, liberty counts, atari points,
//! the empty list, bitboards, the hash, the ko point and the legality of every point must equal
//! what the reference recomputes from scratch. Half the moves come from the light playout, whose
//! choices must be legal and no eye, and which passes only when no such move exists.

mod common;

use common::Reference;
use engine_core::{
    random_light_move, stone_key, Board, Color, Geometry, Point, MAX_SIZE, MIN_SIZE,
};
use proptest::prelude::*;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Compares every derived fact of `board` with the reference grid.
fn assert_consistent(board: &Board, reference: &Reference, ko: Option<Point>) {
    let g = board.geometry();
    let mut hash = 0;
    let mut empties = 0;
    for p in g.points() {
        let i = reference.index(g, p);
        assert_eq!(
            board.color_at(p),
            reference.grid[i],
            "colour at {}",
            g.vertex(p)
        );
        let bit = g.bit(p);
        for c in Color::BOTH {
            assert_eq!(board.stones(c).contains(bit), reference.grid[i] == Some(c));
        }
        assert_eq!(
            board.in_atari(p),
            reference.grid[i].is_some() && reference.chain(i).1.len() == 1
        );
        assert_eq!(
            board.neighborhood(p),
            reference_neighborhood(board, reference, p)
        );
        let around = board.neighborhoods_around(p);
        for (q, code) in board.neighborhood_points(p).into_iter().zip(around) {
            if board.is_on_board(q) {
                assert_eq!(code, reference_neighborhood(board, reference, q));
            }
        }
        match reference.grid[i] {
            None => {
                empties += 1;
                assert!(board.is_empty(p));
                assert!(board.empty_points().contains(&p));
            }
            Some(c) => {
                hash ^= stone_key(c, p);
                let (stones, libs) = reference.chain(i);
                assert_eq!(board.chain_size(p) as usize, stones.len());
                assert_eq!(
                    board.chain_liberties(p) as usize,
                    libs.len(),
                    "liberties of {}",
                    g.vertex(p)
                );
                let expected_atari = (libs.len() == 1).then(|| libs[0]);
                let atari = board.atari_point(p).map(|q| reference.index(g, q));
                assert_eq!(atari, expected_atari);
                let liberty_set = board.chain_liberty_set(p);
                assert_eq!(liberty_set.count() as usize, libs.len());
                for q in g.points() {
                    let same_chain = stones.contains(&reference.index(g, q));
                    let same_head =
                        board.color_at(q).is_some() && board.chain_head(q) == board.chain_head(p);
                    assert_eq!(same_chain, same_head);
                }
                let walked: Vec<usize> = board
                    .chain_stones(p)
                    .map(|s| reference.index(g, s))
                    .collect();
                assert_eq!(walked.len(), stones.len());
                assert!(walked.iter().all(|s| stones.contains(s)));
            }
        }
    }
    assert_eq!(board.empty_points().len(), empties);
    assert_eq!(board.hash(), hash);
    assert_eq!(board.ko_point(), ko);
    // The remembered rejections of earlier scans must still hold: a copy answers the same.
    let mut remembered = *board;
    for c in Color::BOTH {
        for p in g.points() {
            let i = reference.index(g, p);
            if reference.grid[i].is_none() {
                assert_eq!(
                    remembered.is_playout_candidate_remembered(c, p),
                    board.is_playout_candidate(c, p),
                    "remembered {c} {}",
                    g.vertex(p)
                );
            }
            let legal = reference.grid[i].is_none() && Some(p) != ko && !reference.is_suicide(c, i);
            assert_eq!(board.is_legal(c, p), legal, "{c} {}", g.vertex(p));
            if legal {
                assert_eq!(board.is_playout_candidate(c, p), !board.is_eye(c, p));
                let mut after = reference.clone();
                let captured = after.play(c, i);
                let (stones, libs) = after.chain(i);
                assert_eq!(board.captures_at(c, p), captured > 0);
                let self_atari = captured == 0 && stones.len() >= 2 && libs.len() == 1;
                assert_eq!(
                    board.is_self_atari(c, p),
                    self_atari,
                    "self-atari {c} {}",
                    g.vertex(p)
                );
            } else if reference.grid[i].is_none() {
                assert!(!board.is_playout_candidate(c, p));
            }
        }
    }
}

/// The 3x3 code of `p` from the reference grid: two bits per neighbour (0 empty, 1 black,
/// 2 white, 3 off board), bottom row first, left to right.
fn reference_neighborhood(board: &Board, reference: &Reference, p: Point) -> u16 {
    let g = board.geometry();
    let (x, y) = g.coords(p);
    let around = (-1..=1i64)
        .flat_map(|dy| (-1..=1i64).map(move |dx| (dx, dy)))
        .filter(|&offset| offset != (0, 0));
    around.enumerate().fold(0, |code, (k, (dx, dy))| {
        let value = match g.point((x as i64 + dx) as usize, (y as i64 + dy) as usize) {
            None => 3,
            Some(q) => match reference.grid[reference.index(g, q)] {
                None => 0,
                Some(Color::Black) => 1,
                Some(Color::White) => 2,
            },
        };
        code | value << (2 * k)
    })
}

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
        let captured = reference.play(to_move, i);
        let before: Vec<Option<Color>> = reference.grid.clone();
        board.play(to_move, p);
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
