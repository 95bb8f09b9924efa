//! The game record: a board plus everything the fast board leaves out — move history,
//! whole-board repetition (superko), passes and the end of the game, resignation, handicap,
//! undo, komi and scoring under the configured rules.

use crate::board::Board;
use crate::color::Color;
use crate::error::{MoveError, SetupError};
use crate::geometry::{Geometry, Move, Point};
use crate::handicap::fixed_handicap;
use crate::rules::{KoRule, Rules};
use crate::score::Score;
use crate::zobrist;

/// Largest komi, in absolute value, a game accepts: ten times the points of the largest board,
/// so any komi a person means fits, and a score stays a short number.
pub const MAX_KOMI: f64 = 10_000.0;

/// Whether `komi` is a komi a game accepts: finite and at most [`MAX_KOMI`] either way.
pub fn is_valid_komi(komi: f64) -> bool {
    komi.is_finite() && komi.abs() <= MAX_KOMI
}

/// A game in progress (see the module documentation).
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    rules: Rules,
    komi: f64,
    /// Stones placed before the first move (handicap or setup), not undoable.
    setup: Vec<(Color, Point)>,
    /// How many of the setup stones are handicap stones (for compensation).
    handicap: usize,
    moves: Vec<(Color, Move)>,
    /// Position keys: `keys[0]` after the setup, `keys[i + 1]` after `moves[i]`.
    keys: Vec<u64>,
    to_move: Color,
    /// Who moves first after the setup (White after handicap; SGF `PL` may say otherwise).
    first_to_move: Color,
    resigned: Option<Color>,
}

impl Game {
    /// A new game on an empty `size` x `size` board.
    pub fn new(size: usize, rules: Rules, komi: f64) -> Result<Game, SetupError> {
        let geometry = Geometry::new(size).ok_or(SetupError::UnacceptableSize)?;
        let board = Board::new(geometry);
        let mut game = Game {
            board,
            rules,
            komi,
            setup: Vec::new(),
            handicap: 0,
            moves: Vec::new(),
            keys: Vec::new(),
            to_move: Color::Black,
            first_to_move: Color::Black,
            resigned: None,
        };
        game.keys.push(game.key(&board, Color::Black));
        Ok(game)
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn geometry(&self) -> Geometry {
        self.board.geometry()
    }

    pub fn size(&self) -> usize {
        self.board.size()
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Changes the rules; the history is kept and judged by the new rules from now on.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
        self.replay();
    }

    pub fn komi(&self) -> f64 {
        self.komi
    }

    pub fn set_komi(&mut self, komi: f64) {
        self.komi = komi;
    }

    /// The player whose turn it is (the opponent of the last mover).
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Moves played so far, passes included, setup excluded.
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }

    /// Stones placed before the first move.
    pub fn setup(&self) -> &[(Color, Point)] {
        &self.setup
    }

    /// Number of handicap stones.
    pub fn handicap(&self) -> usize {
        self.handicap
    }

    /// The last move, if any.
    pub fn last_move(&self) -> Option<(Color, Move)> {
        self.moves.last().copied()
    }

    /// Passes at the end of the move list.
    pub fn consecutive_passes(&self) -> usize {
        self.moves
            .iter()
            .rev()
            .take_while(|(_, m)| *m == Move::Pass)
            .count()
    }

    /// Who resigned, if anyone did.
    pub fn resigned(&self) -> Option<Color> {
        self.resigned
    }

    /// Whether the game has ended: two passes in a row, or a resignation. Moves after two passes
    /// are still accepted (GTP controllers resume play to settle disputes).
    pub fn is_over(&self) -> bool {
        self.resigned.is_some() || self.consecutive_passes() >= 2
    }

    /// Whether `c` may play `m` now: every rule of the game, superko included.
    pub fn check(&self, c: Color, m: Move) -> Result<(), MoveError> {
        self.next_board(c, m).map(|_| ())
    }

    /// Plays `m` for `c` (either colour may move, as GTP allows), or says why not and leaves
    /// the game unchanged.
    pub fn play(&mut self, c: Color, m: Move) -> Result<(), MoveError> {
        let (board, key) = self.next_board(c, m)?;
        self.board = board;
        self.keys.push(key);
        self.moves.push((c, m));
        self.to_move = c.opponent();
        Ok(())
    }

    /// Records `c`'s resignation.
    pub fn resign(&mut self, c: Color) {
        self.resigned = Some(c);
    }

    /// Takes back the last move. Returns false when there is none (setup is not undoable).
    pub fn undo(&mut self) -> bool {
        self.undo_moves(1)
    }

    /// Takes back the last `n` moves with one replay (GoGui's `gg-undo`). Returns false and
    /// changes nothing when fewer than `n` moves were played.
    pub fn undo_moves(&mut self, n: usize) -> bool {
        if n > self.moves.len() {
            return false;
        }
        if n > 0 {
            self.moves.truncate(self.moves.len() - n);
            self.resigned = None;
            self.replay();
        }
        true
    }

    /// Empties the board and the history; size, rules and komi stay.
    pub fn clear(&mut self) {
        self.setup.clear();
        self.handicap = 0;
        self.first_to_move = Color::Black;
        self.moves.clear();
        self.resigned = None;
        self.replay();
    }

    /// Places the standard handicap stones (GTP `fixed_handicap`); White moves next.
    pub fn place_fixed_handicap(&mut self, stones: usize) -> Result<Vec<Point>, SetupError> {
        let points = fixed_handicap(self.geometry(), stones).ok_or(SetupError::InvalidHandicap)?;
        self.place_handicap(&points)?;
        Ok(points)
    }

    /// Places handicap stones where the caller chose (GTP `set_free_handicap`): at least two,
    /// distinct, on an empty board, leaving at least one empty point. White moves next.
    pub fn place_handicap(&mut self, points: &[Point]) -> Result<(), SetupError> {
        if !self.is_empty() {
            return Err(SetupError::BoardNotEmpty);
        }
        let area = self.geometry().area();
        let mut sorted = points.to_vec();
        sorted.sort();
        sorted.dedup();
        if points.len() < 2
            || sorted.len() != points.len()
            || points.len() >= area
            || !points.iter().all(|&p| self.board.is_on_board(p))
        {
            return Err(SetupError::BadVertexList);
        }
        self.setup = points.iter().map(|&p| (Color::Black, p)).collect();
        self.handicap = points.len();
        self.first_to_move = Color::White;
        self.replay();
        Ok(())
    }

    /// Adds setup stones (SGF `AB`/`AW`) before the first move. Stones on occupied points and
    /// placements that would leave a chain without liberties are refused.
    pub fn add_setup_stones(&mut self, c: Color, points: &[Point]) -> Result<(), SetupError> {
        if !self.moves.is_empty() {
            return Err(SetupError::BoardNotEmpty);
        }
        let mut board = self.board;
        for &p in points {
            if !board.is_on_board(p) || !board.is_empty(p) || board.is_suicide(c, p) {
                return Err(SetupError::BadVertexList);
            }
            let before = board.stone_count();
            board.play(c, p);
            if board.stone_count() != before + 1 {
                return Err(SetupError::BadVertexList);
            }
        }
        self.setup.extend(points.iter().map(|&p| (c, p)));
        self.replay();
        Ok(())
    }

    /// Makes `c` the first player to move after the setup (SGF `PL`). Only before the first move.
    pub fn set_first_to_move(&mut self, c: Color) -> Result<(), SetupError> {
        if !self.moves.is_empty() {
            return Err(SetupError::BoardNotEmpty);
        }
        self.first_to_move = c;
        self.replay();
        Ok(())
    }

    /// Every point `c` may legally play now (superko included; pass is always legal too).
    pub fn legal_points(&self, c: Color) -> Vec<Point> {
        self.board
            .empty_points()
            .iter()
            .copied()
            .filter(|&p| self.check(c, Move::Play(p)).is_ok())
            .collect()
    }

    /// The area count after removing the chains through `dead`.
    pub fn score(&self, dead: &[Point]) -> Score {
        let mut board = self.board;
        for &p in dead {
            board.remove_chain_at(p);
        }
        let compensation = if self.rules.handicap_compensation {
            self.handicap as f64
        } else {
            0.0
        };
        Score::count(&board, self.komi, compensation)
    }

    /// Whether no stone stands on the board and no move was played.
    fn is_empty(&self) -> bool {
        self.moves.is_empty() && self.board.stone_count() == 0
    }

    /// The board and position key after `c` plays `m`, or why it is illegal.
    fn next_board(&self, c: Color, m: Move) -> Result<(Board, u64), MoveError> {
        if self.resigned.is_some() {
            return Err(MoveError::GameOver);
        }
        let mut board = self.board;
        let p = match m {
            Move::Pass => {
                board.pass();
                return Ok((board, self.key(&board, c.opponent())));
            }
            Move::Play(p) => p,
        };
        if !board.is_on_board(p) {
            return Err(MoveError::OffBoard);
        }
        if !board.is_empty(p) {
            return Err(MoveError::Occupied);
        }
        if !self.rules.suicide_allowed && board.is_suicide(c, p) {
            return Err(MoveError::Suicide);
        }
        board.play(c, p);
        let key = self.key(&board, c.opponent());
        if self.keys.contains(&key) {
            let is_ko =
                self.board.ko_point() == Some(p) && board.stone_count() <= self.board.stone_count();
            return Err(if is_ko {
                MoveError::Ko
            } else {
                MoveError::Superko
            });
        }
        Ok((board, key))
    }

    /// The key a position is remembered by under the ko rule in force.
    fn key(&self, board: &Board, next_to_move: Color) -> u64 {
        match self.rules.ko {
            KoRule::Positional => board.hash(),
            KoRule::Situational => {
                board.hash()
                    ^ match next_to_move {
                        Color::Black => 0,
                        Color::White => zobrist::WHITE_TO_MOVE,
                    }
            }
        }
    }

    /// Rebuilds board and keys from setup and moves.
    fn replay(&mut self) {
        let mut board = Board::new(self.geometry());
        for &(c, p) in &self.setup {
            board.play(c, p);
        }
        let first = self.first_to_move;
        self.keys.clear();
        self.keys.push(self.key(&board, first));
        let mut to_move = first;
        for &(c, m) in &self.moves {
            match m {
                Move::Pass => board.pass(),
                Move::Play(p) => board.play(c, p),
            }
            to_move = c.opponent();
            self.keys.push(self.key(&board, to_move));
        }
        self.board = board;
        self.to_move = to_move;
    }
}
