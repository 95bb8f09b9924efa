//! Monte Carlo tree search: the player behind `genmove`, analysis and dead-stone estimation.
//!
//! [`MctsPlayer`] keeps one [`Tree`] between moves (reused when the game continues from the
//! position it was built for), plans each move's budget with [`Budget`], runs a
//! [`Simulation`] on `threads` threads, and turns the result into a move, a pass or a
//! resignation.

mod analysis;
mod config;
mod ladder;
pub mod move_features;
pub mod move_model;
mod nakade;
mod patterns;
mod policy;
mod priors;
pub mod settings;
mod simulation;
mod time_manager;
mod tree;

pub use config::SearchConfig;
pub use policy::Policy;
pub use time_manager::Budget;

use crate::player::{
    Analysis, AnalysisRequest, Decision, FinalStatus, MoveRequest, MoveRestrictions, Player,
    Reporter,
};
use engine_core::{Color, Game, Move, Point};
use simulation::Simulation;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::{Duration, Instant};
use tree::{NodeId, Tree};

/// Searches in a row below the resign threshold before resigning.
const RESIGN_STREAK: u32 = 3;
/// Playouts below which a search says too little to resign on.
const RESIGN_MIN_VISITS: u32 = 500;
/// How often the monitoring thread looks at the clock and the stop flag.
const TICK: Duration = Duration::from_millis(5);

/// The tree-search player.
pub struct MctsPlayer {
    config: SearchConfig,
    tree: Tree,
    /// What the tree's root stands for: setup, moves and the player to move.
    root: Option<RootKey>,
    low_streak: u32,
    searches: u64,
    /// The configured seed, or one drawn when the player was made.
    seed: u64,
}

#[derive(Clone, Debug, PartialEq)]
struct RootKey {
    size: usize,
    setup: Vec<(Color, Point)>,
    moves: Vec<(Color, Move)>,
    to_move: Color,
    /// The tree's statistics were gathered within these; other restrictions start afresh.
    restrictions: MoveRestrictions,
}

/// How a search ended, for the move decision.
struct Outcome {
    analysis: Analysis,
    /// Black's expected margin from ownership-judged dead stones, komi included.
    dead: Vec<Point>,
}

impl MctsPlayer {
    pub fn new(config: SearchConfig) -> MctsPlayer {
        let tree = Tree::with_memory(config.max_memory_mb.max(1) << 20);
        MctsPlayer {
            seed: config.seed_or_fresh(),
            config,
            tree,
            root: None,
            low_streak: 0,
            searches: 0,
        }
    }

    /// Points the tree at `game` with `to_move` to play: reuses the subtree when the game went
    /// on from the last root under the same restrictions, starts afresh otherwise, and expands
    /// the root with the moves that are legal under superko.
    fn prepare(&mut self, game: &Game, to_move: Color, restrictions: &MoveRestrictions) {
        let key = RootKey {
            size: game.size(),
            setup: game.setup().to_vec(),
            moves: game.moves().to_vec(),
            to_move,
            restrictions: restrictions.clone(),
        };
        let new_game = self.root.as_ref().is_none_or(|old| {
            old.size != key.size || old.setup != key.setup || key.moves.len() < old.moves.len()
        });
        if new_game {
            self.low_streak = 0;
        }
        let reused = self
            .root
            .as_ref()
            .and_then(|old| self.descend_to(old, &key));
        match reused {
            Some(node) if self.tree.used() < self.tree.capacity() / 2 => self.tree.promote(node),
            _ => self.tree.reset(),
        }
        if !self.tree.node(Tree::ROOT).is_expanded() {
            let mut children = Vec::new();
            priors::children(
                game.board(),
                to_move,
                last_two(game),
                |p| game.check(to_move, Move::Play(p)).is_ok(),
                &mut children,
            );
            self.tree.expand(Tree::ROOT, &children);
        }
        self.root = Some(key);
    }

    /// The node of `new` inside the tree built for `old`, if the game continued from there.
    fn descend_to(&self, old: &RootKey, new: &RootKey) -> Option<NodeId> {
        if old.size != new.size
            || old.setup != new.setup
            || old.restrictions != new.restrictions
            || !new.moves.starts_with(&old.moves)
        {
            return None;
        }
        let mut node = Tree::ROOT;
        let mut to_move = old.to_move;
        for &(color, mv) in &new.moves[old.moves.len()..] {
            if color != to_move {
                return None;
            }
            node = self
                .tree
                .node(node)
                .children()
                .find(|&id| self.tree.node(id).mv() == mv)?;
            to_move = to_move.opponent();
        }
        (to_move == new.to_move).then_some(node)
    }

    /// Runs one search on `game` for `to_move` within `budget`, stopping early on `stop`.
    fn search(
        &mut self,
        game: &Game,
        to_move: Color,
        budget: Budget,
        restrictions: &MoveRestrictions,
        stop: &AtomicBool,
        report: Option<&mut Reporter<'_>>,
    ) -> Outcome {
        self.prepare(game, to_move, restrictions);
        self.searches += 1;
        let compensation = game.score(&[]).compensation;
        let last = last_two(game);
        let mut sim = Simulation::new(
            &self.tree,
            *game.board(),
            to_move,
            game.komi() + compensation,
            last,
        );
        sim.params.policy = self.config.policy;
        sim.params.score_weight = self.config.score_weight;
        sim.params.exploration = self.config.exploration;
        if let Some(equiv) = self.config.rave_equiv {
            sim.params.rave_equiv = equiv;
        }
        sim.restrictions = restrictions.clone();
        sim.max_playouts = budget.playouts;
        let threads = self.config.threads.max(1);
        let seed = self
            .seed
            .wrapping_add(self.searches.wrapping_mul(0x9E37_79B9));
        let sim = &sim;
        let start = Instant::now();
        std::thread::scope(|scope| {
            for t in 0..threads {
                scope.spawn(move || sim.work(seed.wrapping_add(t as u64 * 7919)));
            }
            monitor(sim, game, budget, stop, report);
        });
        let analysis = analysis::snapshot(sim, game);
        let seconds = start.elapsed().as_secs_f64();
        let playouts = sim.playouts.load(Relaxed);
        log::info!(
            "search: {playouts} playouts in {seconds:.2} s ({:.0}/s, {threads} threads), tree {} nodes, best {}",
            playouts as f64 / seconds.max(1e-9),
            self.tree.used(),
            analysis.candidates.first().map_or("none".to_string(), |c| format!(
                "{} {:.1}%",
                game.geometry().move_text(c.mv),
                100.0 * c.winrate
            ))
        );
        let dead = dead_stones(game, &analysis.ownership);
        Outcome { analysis, dead }
    }

    /// The move to play after a search, with the pass and resignation rules applied.
    fn decide(&mut self, game: &Game, color: Color, cleanup: bool, outcome: &Outcome) -> Decision {
        let candidates = &outcome.analysis.candidates;
        let Some(best) = candidates.first() else {
            return Decision::Play(Move::Pass);
        };
        let searched = outcome.analysis.playouts >= RESIGN_MIN_VISITS as u64;
        if self.config.resign_threshold > 0.0 && searched {
            if best.winrate < self.config.resign_threshold {
                self.low_streak += 1;
                if self.low_streak >= RESIGN_STREAK {
                    return Decision::Resign;
                }
            } else {
                self.low_streak = 0;
            }
        }
        let score = game.score(&outcome.dead);
        let winning_now = score.winner() == Some(color);
        let opponent_passed = game.last_move() == Some((color.opponent(), Move::Pass));
        let dead_enemies = outcome
            .dead
            .iter()
            .any(|&p| game.board().color_at(p) == Some(color.opponent()));
        let first_move = |allow_pass: bool| {
            candidates
                .iter()
                .find(|c| allow_pass || c.mv != Move::Pass)
                .map_or(Move::Pass, |c| c.mv)
        };
        let mv = if cleanup && dead_enemies {
            first_move(false) // capture the dead stones before the game ends
        } else if opponent_passed && winning_now {
            Move::Pass // the game ends with our win on the board
        } else if best.mv == Move::Pass && opponent_passed && !winning_now {
            first_move(false) // passing now would end the game in a loss
        } else {
            best.mv
        };
        Decision::Play(mv)
    }
}

impl Player for MctsPlayer {
    fn genmove(
        &mut self,
        request: &MoveRequest<'_>,
        report: Option<&mut Reporter<'_>>,
    ) -> Decision {
        let game = request.game;
        if game.legal_points(request.color).is_empty() {
            return Decision::Play(Move::Pass);
        }
        let budget = Budget::plan(&self.config, request.clock, game);
        let outcome = self.search(
            game,
            request.color,
            budget,
            &MoveRestrictions::NONE,
            request.stop,
            report,
        );
        self.decide(game, request.color, request.cleanup, &outcome)
    }

    fn analyze(&mut self, request: &AnalysisRequest<'_>, report: &mut Reporter<'_>) {
        self.search(
            request.game,
            request.color,
            Budget::UNLIMITED,
            request.restrictions,
            request.stop,
            Some(report),
        );
    }

    fn final_status(&mut self, game: &Game) -> FinalStatus {
        let budget = Budget {
            playouts: Some(40 * game.geometry().area() as u64),
            soft: None,
            hard: Some(Duration::from_secs(3)),
        };
        let outcome = self.search(
            game,
            game.to_move(),
            budget,
            &MoveRestrictions::NONE,
            &AtomicBool::new(false),
            None,
        );
        let seki = engine_core::seki_stones(game.board(), &outcome.dead);
        FinalStatus {
            dead: outcome.dead,
            seki,
        }
    }

    fn ponders(&self) -> bool {
        self.config.ponder
    }

    fn analysis_time(&self) -> Duration {
        self.config
            .time_per_move
            .unwrap_or(self.config.default_time_per_move)
    }

    fn describe_settings(&self) -> String {
        settings::describe(&self.config)
    }

    fn change_setting(&mut self, key: &str, value: &str) -> Result<(), String> {
        // The tree keeps its memory bound: `max_memory_mb` is not a runtime setting.
        settings::set(&mut self.config, key, value)
    }

    fn ponder(&mut self, game: &Game, stop: &AtomicBool) {
        let none = &MoveRestrictions::NONE;
        self.search(game, game.to_move(), Budget::UNLIMITED, none, stop, None);
    }
}

/// Watches a running search from the calling thread: the stop flag, the time budget, early
/// stopping, and periodic reports. Returns when the search is halted.
fn monitor(
    sim: &Simulation<'_>,
    game: &Game,
    budget: Budget,
    stop: &AtomicBool,
    mut report: Option<&mut Reporter<'_>>,
) {
    let start = Instant::now();
    let mut next_report = report.as_ref().map(|r| start + r.interval);
    while !sim.halt.load(Relaxed) {
        let wake = next_report.map_or(TICK, |t| {
            t.saturating_duration_since(Instant::now()).min(TICK)
        });
        std::thread::sleep(wake);
        let elapsed = start.elapsed();
        if stop.load(Relaxed) || budget.hard.is_some_and(|hard| elapsed >= hard) {
            sim.halt.store(true, Relaxed);
        } else if let Some(soft) = budget.soft {
            let (best, second) = top_two_visits(sim.tree);
            let close = second as f64 > 0.7 * best as f64;
            let hard = budget.hard.unwrap_or(soft);
            if elapsed >= soft && !(close && hard > soft) {
                sim.halt.store(true, Relaxed);
            }
            // Stop early when the runner-up could not catch up in the time that is left.
            let done = sim.playouts.load(Relaxed);
            if done > 1000 && elapsed > Duration::ZERO {
                let rate = done as f64 / elapsed.as_secs_f64();
                let left = rate * hard.saturating_sub(elapsed).as_secs_f64();
                if (best - second) as f64 > left {
                    sim.halt.store(true, Relaxed);
                }
            }
        }
        if let (Some(r), Some(due)) = (report.as_deref_mut(), next_report) {
            if Instant::now() >= due {
                (r.callback)(&analysis::snapshot(sim, game));
                next_report = Some(due + r.interval);
            }
        }
    }
    // A last report with the final numbers, so a view stopped early still shows the search.
    if let Some(r) = report {
        (r.callback)(&analysis::snapshot(sim, game));
    }
}

/// Visits of the two most visited root children.
fn top_two_visits(tree: &Tree) -> (u32, u32) {
    let mut top = (0, 0);
    for id in tree.node(Tree::ROOT).children() {
        let v = tree.node(id).visits();
        if v > top.0 {
            top = (v, top.0);
        } else if v > top.1 {
            top.1 = v;
        }
    }
    top
}

/// Mean ownership, for the chain's own colour, below which the playouts call a chain dead.
const DEAD: f32 = -0.2;
/// The same for a chain beside a liberty neither side can fill: in a seki the playouts capture
/// whichever side moves first there, so they may lean one way without either chain being dead.
const DEAD_IN_SEKI: f32 = -0.6;

/// Stones whose chain the playouts mostly gave to the opponent.
fn dead_stones(game: &Game, ownership: &[f32]) -> Vec<Point> {
    let board = game.board();
    let g = game.geometry();
    let owner: std::collections::HashMap<Point, f32> =
        g.points().zip(ownership.iter().copied()).collect();
    let seki = engine_core::seki_stones(board, &[]);
    g.points()
        .filter(|&p| match board.color_at(p) {
            None => false,
            Some(color) => {
                let sign = if color == Color::Black { 1.0 } else { -1.0 };
                let stones: Vec<Point> = board.chain_stones(p).collect();
                let mean = stones.iter().map(|s| owner[s]).sum::<f32>() / stones.len() as f32;
                let limit = if seki.contains(&p) {
                    DEAD_IN_SEKI
                } else {
                    DEAD
                };
                sign * mean < limit
            }
        })
        .collect()
}

fn point_of(m: Move) -> Option<Point> {
    match m {
        Move::Play(p) => Some(p),
        Move::Pass => None,
    }
}

/// The last two moves of the game, latest first.
fn last_two(game: &Game) -> [Option<Point>; 2] {
    let mut moves = game.moves().iter().rev().map(|&(_, m)| point_of(m));
    [moves.next().flatten(), moves.next().flatten()]
}

#[cfg(test)]
mod tests;
