//! Test helpers: ASCII diagrams, a plain flood-fill reference of the rules, and the check of
//! a fast board against it (also used by the board fuzz target, `fuzz/`).

#![allow(dead_code)] // each test binary uses its own subset

use engine_core::{stone_key, Board, Color, Game, Geometry, Move, Point, Rules};

/// A game set up from a diagram: rows top to bottom, `X` black, `O` white, `.` empty; spaces
/// ignored. The diagram's stones are setup stones; `to_move` moves first.
pub fn game_from(diagram: &str, rules: Rules, to_move: Color) -> Game {
    let rows: Vec<Vec<char>> = diagram
        .lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect();
    let size = rows.len();
    let mut game = Game::new(size, rules, 7.5).unwrap();
    let g = game.geometry();
    for c in Color::BOTH {
        let letter = if c == Color::Black { 'X' } else { 'O' };
        let points: Vec<Point> = rows
            .iter()
            .enumerate()
            .flat_map(|(i, row)| {
                assert_eq!(row.len(), size, "diagram must be square");
                row.iter()
                    .enumerate()
                    .filter(move |(_, &ch)| ch == letter)
                    .map(move |(col, _)| g.point(col, size - 1 - i).unwrap())
            })
            .collect();
        game.add_setup_stones(c, &points).unwrap();
    }
    game.set_first_to_move(to_move).unwrap();
    game
}

/// Parses a vertex such as `C2` on the game's board.
pub fn at(game: &Game, vertex: &str) -> Move {
    game.geometry().parse_move(vertex).unwrap()
}

/// Plays a space-separated list of vertices, colours alternating from the side to move;
/// panics with the move number if one is refused.
pub fn play_all(game: &mut Game, moves: &str) {
    for (i, v) in moves.split_whitespace().enumerate() {
        let c = game.to_move();
        let m = at(game, v);
        game.play(c, m)
            .unwrap_or_else(|e| panic!("move {} ({c} {v}) refused: {e}", i + 1));
    }
}

/// The board as a diagram (top row first), for comparisons.
pub fn diagram(game: &Game) -> String {
    let b = game.board();
    let g = b.geometry();
    (0..g.size())
        .rev()
        .map(|row| {
            (0..g.size())
                .map(|col| match b.color_at(g.point(col, row).unwrap()) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The plain reference: a grid of colours with flood-fill chains and liberties.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Reference {
    pub size: usize,
    pub grid: Vec<Option<Color>>,
}

impl Reference {
    pub fn new(size: usize) -> Reference {
        Reference {
            size,
            grid: vec![None; size * size],
        }
    }

    pub fn neighbors(&self, i: usize) -> Vec<usize> {
        let (x, y) = (i % self.size, i / self.size);
        let mut n = Vec::new();
        if x > 0 {
            n.push(i - 1);
        }
        if x + 1 < self.size {
            n.push(i + 1);
        }
        if y > 0 {
            n.push(i - self.size);
        }
        if y + 1 < self.size {
            n.push(i + self.size);
        }
        n
    }

    /// The chain through `i` and its liberties, by flood fill.
    pub fn chain(&self, i: usize) -> (Vec<usize>, Vec<usize>) {
        let color = self.grid[i];
        let mut stones = vec![i];
        let mut libs = Vec::new();
        let mut k = 0;
        while k < stones.len() {
            for n in self.neighbors(stones[k]) {
                if self.grid[n] == color && color.is_some() && !stones.contains(&n) {
                    stones.push(n);
                } else if self.grid[n].is_none() && !libs.contains(&n) {
                    libs.push(n);
                }
            }
            k += 1;
        }
        (stones, libs)
    }

    /// Plays `c` at `i` (must be empty): captures, then self-capture. Returns stones captured.
    pub fn play(&mut self, c: Color, i: usize) -> usize {
        self.grid[i] = Some(c);
        let mut captured = 0;
        for n in self.neighbors(i) {
            if self.grid[n] == Some(c.opponent()) {
                let (stones, libs) = self.chain(n);
                if libs.is_empty() {
                    captured += stones.len();
                    for s in stones {
                        self.grid[s] = None;
                    }
                }
            }
        }
        let (stones, libs) = self.chain(i);
        if libs.is_empty() {
            for s in stones {
                self.grid[s] = None;
            }
        }
        captured
    }

    /// Whether `c` at the empty point `i` is suicide.
    pub fn is_suicide(&self, c: Color, i: usize) -> bool {
        let mut copy = self.clone();
        copy.play(c, i);
        copy.grid[i].is_none()
    }

    pub fn index(&self, g: Geometry, p: Point) -> usize {
        let (col, row) = g.coords(p);
        row * self.size + col
    }
}

/// Compares every derived fact of `board` with the reference grid.
pub fn assert_consistent(board: &Board, reference: &Reference, ko: Option<Point>) {
    let g = board.geometry();
    let mut hash = 0;
    let mut empties = 0;
    for p in g.points() {
        assert_point_consistent(board, reference, p);
        match reference.grid[reference.index(g, p)] {
            None => {
                empties += 1;
                assert!(board.is_empty(p));
                assert!(board.empty_points().contains(&p));
            }
            Some(c) => {
                hash ^= stone_key(c, p);
                assert_chain_consistent(board, reference, p);
            }
        }
    }
    assert_eq!(board.empty_points().len(), empties);
    assert_eq!(board.hash(), hash);
    assert_eq!(board.ko_point(), ko);
    assert_moves_consistent(board, reference, ko);
}

/// The colour, bitboards, atari flag and 3x3 codes at and around `p`.
fn assert_point_consistent(board: &Board, reference: &Reference, p: Point) {
    let g = board.geometry();
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
}

/// The chain of the stone at `p`: size, liberties, atari point, membership and its walk.
fn assert_chain_consistent(board: &Board, reference: &Reference, p: Point) {
    let g = board.geometry();
    let (stones, libs) = reference.chain(reference.index(g, p));
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
        let same_head = board.color_at(q).is_some() && board.chain_head(q) == board.chain_head(p);
        assert_eq!(same_chain, same_head);
    }
    let walked: Vec<usize> = board
        .chain_stones(p)
        .map(|s| reference.index(g, s))
        .collect();
    assert_eq!(walked.len(), stones.len());
    assert!(walked.iter().all(|s| stones.contains(s)));
}

/// Every empty point for both colours: legality, the playout filters (remembered rejections
/// included: a copy answers the same), captures and self-atari.
fn assert_moves_consistent(board: &Board, reference: &Reference, ko: Option<Point>) {
    let g = board.geometry();
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
