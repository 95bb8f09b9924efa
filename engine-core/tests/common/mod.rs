//! Test helpers: ASCII diagrams and a plain flood-fill reference of the rules.

#![allow(dead_code)] // each test binary uses its own subset

use engine_core::{Color, Game, Geometry, Move, Point, Rules};

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
