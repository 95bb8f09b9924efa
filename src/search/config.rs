//! Settings of the tree-search player, as the command line sets them.

use super::policy::Policy;
use std::time::Duration;

/// Largest RAVE equivalence accepted (far past any useful value).
pub const MAX_RAVE_EQUIV: f64 = 1.0e9;

/// Weight of the margin term in the tree's values (see `simulation::Params::score_weight`).
pub const DEFAULT_SCORE_WEIGHT: f64 = 0.05;

/// Weight of the exploration term beside the RAVE-blended value (see
/// `simulation::Params::exploration`).
pub const DEFAULT_EXPLORATION: f64 = 0.0;

/// Longest a move is ever thought about, whatever the clock or the settings say: a clock of
/// years (`kgs-time_settings byoyomi 0 1000000000 1`) must not freeze the engine for years.
pub const MAX_TIME_PER_MOVE: Duration = Duration::from_secs(3600);

/// How the MCTS player searches and manages its time.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchConfig {
    /// Search threads sharing one tree.
    pub threads: usize,
    /// Fixed playouts per move (overrides time control when set).
    pub playouts: Option<u64>,
    /// Fixed time per move (used when no playout budget is set and no clock is running).
    pub time_per_move: Option<Duration>,
    /// Thinking time per move when the controller sets no time limit at all.
    pub default_time_per_move: Duration,
    /// Upper bound for the search tree, in MiB.
    pub max_memory_mb: usize,
    /// Resign when the win rate stays below this for several moves; 0 disables resignation.
    pub resign_threshold: f64,
    /// Think on the opponent's time.
    pub ponder: bool,
    /// Random seed; with one thread the search is then deterministic. `None` draws a fresh
    /// one when the player is made, so that repeated games between deterministic opponents
    /// differ.
    pub seed: Option<u64>,
    /// Time kept back for communication lag on every move.
    pub lag_margin: Duration,
    /// Playout policy: heavy (the default, for strength) or light (for speed comparisons).
    pub policy: Policy,
    /// RAVE equivalence: the playouts at which a node's own value and its AMAF value weigh
    /// the same. `None` keeps the search's default for the board (see
    /// `simulation::default_rave_equiv`).
    pub rave_equiv: Option<f64>,
    /// Weight of the expected margin beside the win rate when the search chooses a move, on
    /// 19x19 (0: win rate only).
    pub score_weight: f64,
    /// Weight of the exploration term that sends playouts to rarely visited moves.
    pub exploration: f64,
}

impl SearchConfig {
    /// The configured seed, or a fresh one (logged, so that a game can be replayed with
    /// `--seed`).
    pub fn seed_or_fresh(&self) -> u64 {
        self.seed.unwrap_or_else(|| {
            let seed = rand::random();
            log::info!("random seed {seed}");
            seed
        })
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            playouts: None,
            time_per_move: None,
            default_time_per_move: Duration::from_secs(3),
            max_memory_mb: 1024,
            resign_threshold: 0.1,
            ponder: false,
            seed: None,
            lag_margin: Duration::from_millis(200),
            policy: Policy::Heavy,
            rave_equiv: None,
            score_weight: DEFAULT_SCORE_WEIGHT,
            exploration: DEFAULT_EXPLORATION,
        }
    }
}
