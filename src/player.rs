//! What the GTP front end asks of a player, and the simplest honest player (uniform random).

use crate::clock::Clock;
use engine_core::{Color, Game, Move, Point};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A player's answer to `genmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Move),
    Resign,
}

/// Everything a player needs to choose one move.
pub struct MoveRequest<'a> {
    pub game: &'a Game,
    pub color: Color,
    /// The mover's clock as the controller last described it.
    pub clock: &'a Clock,
    /// `kgs-genmove_cleanup`: capture dead stones before passing.
    pub cleanup: bool,
    /// Set by the front end when the controller interrupts: answer with the best move so far.
    pub stop: &'a AtomicBool,
}

/// Everything a player needs to analyse a position.
pub struct AnalysisRequest<'a> {
    pub game: &'a Game,
    /// The side whose moves are analysed (not always the side to move).
    pub color: Color,
    /// Moves the search must not explore (`avoid`/`allow`).
    pub restrictions: &'a MoveRestrictions,
    /// Set by the front end when the analysis must end.
    pub stop: &'a AtomicBool,
}

/// One root candidate of a search, as analysis output shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub mv: Move,
    pub visits: u64,
    /// Win probability for the player to move, 0..=1.
    pub winrate: f64,
    /// Prior probability the search gave the move before reading, 0..=1.
    pub prior: f64,
    /// Lower confidence bound of the win rate, clamped to 0..=1 as Leela Zero does.
    pub lcb: f64,
    /// Expected score lead of the player to move, in points.
    pub score_lead: f64,
    /// Principal variation starting with `mv`.
    pub pv: Vec<Move>,
    /// Visits of the position after each move of `pv` (as many entries as `pv`).
    pub pv_visits: Vec<u64>,
}

/// A snapshot of the search on one position.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Analysis {
    /// Root candidates, best first.
    pub candidates: Vec<Candidate>,
    /// Per on-board point in [`Geometry::points`](engine_core::Geometry::points) order: +1 owned
    /// by Black, -1 by White, from the playouts' final positions.
    pub ownership: Vec<f32>,
    /// Playouts run for this snapshot (tree reuse included).
    pub playouts: u64,
    /// Win probability of the analysed player over all the root's playouts, 0..=1.
    pub winrate: f64,
    /// Expected score lead of the analysed player over all the root's playouts, in points.
    pub score_lead: f64,
}

/// Periodic analysis callback: called about every `interval` while a search runs.
pub struct Reporter<'a> {
    pub interval: Duration,
    pub callback: &'a mut dyn FnMut(&Analysis),
}

/// The `avoid` and `allow` clauses of an analysis command (Leela Zero's and KataGo's syntax):
/// for one colour, moves the search must not explore, or the only ones it may, in its first
/// `until_depth` moves from the root (1: the root's own move only).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveRestrictions {
    clauses: Vec<Clause>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Clause {
    allow: bool,
    color: Color,
    moves: Vec<Move>,
    until_depth: usize,
}

impl MoveRestrictions {
    /// No restriction.
    pub const NONE: MoveRestrictions = MoveRestrictions {
        clauses: Vec::new(),
    };

    /// Adds an `avoid` clause (`allow` false) or an `allow` clause. Several `allow` clauses for
    /// one colour allow the union of their moves.
    pub fn add(&mut self, allow: bool, color: Color, moves: Vec<Move>, until_depth: usize) {
        self.clauses.push(Clause {
            allow,
            color,
            moves,
            until_depth,
        });
    }

    /// Whether there are no clauses (the search then skips the test).
    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }

    /// Whether the search may explore `mv` by `color` as the move `depth` plies below the root
    /// (0: a move from the root).
    pub fn permits(&self, color: Color, mv: Move, depth: usize) -> bool {
        let mut allowed = None;
        for clause in &self.clauses {
            if clause.color != color || depth >= clause.until_depth {
                continue;
            }
            let listed = clause.moves.contains(&mv);
            if clause.allow {
                allowed = Some(allowed.unwrap_or(false) | listed);
            } else if listed {
                return false;
            }
        }
        allowed.unwrap_or(true)
    }
}

/// Life and death at the end of a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FinalStatus {
    pub dead: Vec<Point>,
    pub seki: Vec<Point>,
}

/// A Go player the GTP front end can drive.
pub trait Player: Send {
    /// Chooses a move. Must return promptly once `request.stop` is set.
    fn genmove(&mut self, request: &MoveRequest<'_>, report: Option<&mut Reporter<'_>>)
        -> Decision;

    /// Analyses the position until `request.stop` is set, reporting every interval.
    fn analyze(&mut self, request: &AnalysisRequest<'_>, report: &mut Reporter<'_>);

    /// Which stones are dead or in seki in a finished game.
    fn final_status(&mut self, game: &Game) -> FinalStatus;

    /// Whether the player thinks on the opponent's time (`--ponder`).
    fn ponders(&self) -> bool {
        false
    }

    /// Thinks on the opponent's time until `stop` is set (only when it [`ponders`](Self::ponders)).
    fn ponder(&mut self, _game: &Game, _stop: &AtomicBool) {}

    /// How long a one-shot analysis (GoGui's views, hints) runs; none for a player that does
    /// not analyse.
    fn analysis_time(&self) -> Duration {
        Duration::ZERO
    }

    /// The settings a GUI may show and change between moves, as GoGui `param` lines
    /// (`[type] key value`); none by default.
    fn describe_settings(&self) -> String {
        String::new()
    }

    /// Changes one setting, or says why not.
    fn change_setting(&mut self, key: &str, _value: &str) -> Result<(), String> {
        Err(format!("unknown setting {key}"))
    }
}

/// Uniformly random legal moves that never fill the mover's own eyes; passes when nothing else is
/// left. Knows nothing of life and death: every stone is alive at the end. For tests and
/// benchmarks (`--player random`).
pub struct RandomPlayer {
    rng: SmallRng,
}

impl RandomPlayer {
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: SmallRng::seed_from_u64(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn genmove(
        &mut self,
        request: &MoveRequest<'_>,
        _report: Option<&mut Reporter<'_>>,
    ) -> Decision {
        let (game, color) = (request.game, request.color);
        let board = game.board();
        let candidates: Vec<Point> = game
            .legal_points(color)
            .into_iter()
            .filter(|&p| !board.is_eye(color, p))
            .collect();
        if candidates.is_empty() {
            return Decision::Play(Move::Pass);
        }
        let pick = self.rng.random_range(0..candidates.len());
        Decision::Play(Move::Play(candidates[pick]))
    }

    fn analyze(&mut self, _request: &AnalysisRequest<'_>, _report: &mut Reporter<'_>) {}

    fn final_status(&mut self, _game: &Game) -> FinalStatus {
        FinalStatus::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::Geometry;

    #[test]
    fn avoid_and_allow_apply_to_their_colour_down_to_their_depth() {
        let g = Geometry::new(9).unwrap();
        let mv = |v: &str| g.parse_move(v).unwrap();
        let mut r = MoveRestrictions::default();
        assert!(r.is_empty() && r.permits(Color::Black, mv("E5"), 0));
        r.add(false, Color::Black, vec![mv("E5"), mv("pass")], 2);
        r.add(true, Color::White, vec![mv("C3")], 1);
        r.add(true, Color::White, vec![mv("G7")], 1);
        assert!(!r.permits(Color::Black, mv("E5"), 0));
        assert!(!r.permits(Color::Black, mv("pass"), 1));
        assert!(r.permits(Color::Black, mv("E5"), 2));
        assert!(r.permits(Color::Black, mv("D4"), 0));
        assert!(r.permits(Color::White, mv("C3"), 0));
        assert!(r.permits(Color::White, mv("G7"), 0));
        assert!(!r.permits(Color::White, mv("E5"), 0));
        assert!(r.permits(Color::White, mv("E5"), 1));
    }
}
