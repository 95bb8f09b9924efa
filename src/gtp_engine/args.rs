//! The command line of `tengen gtp` (and of plain `tengen`): player choice, search settings,
//! rules, komi and logging, turned into a [`SearchConfig`] and a player.

use crate::player::{Player, RandomPlayer};
use crate::search::SearchConfig;
use clap::{Args, ValueEnum};
use engine_core::{KoRule, Rules};
use std::time::Duration;

/// Options of the GTP engine.
#[derive(Args, Clone, Debug)]
pub struct GtpArgs {
    /// Which player answers genmove and analysis.
    #[arg(long, value_enum, default_value_t = PlayerKind::DEFAULT)]
    pub player: PlayerKind,
    /// Search threads [default: all cores].
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub threads: Option<u16>,
    /// Fixed number of playouts per move (overrides time control).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: Option<u64>,
    /// Fixed thinking time per move, in seconds.
    #[arg(long, value_name = "SECONDS", value_parser = positive_seconds)]
    pub time_per_move: Option<Duration>,
    /// Upper bound for the search tree, in MiB.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u32).range(1..))]
    pub max_memory: Option<u32>,
    /// Rule set.
    #[arg(long, value_enum, default_value_t = RuleSet::Chinese)]
    pub rules: RuleSet,
    /// Repetition rule.
    #[arg(long, value_enum, default_value_t = Superko::Positional)]
    pub superko: Superko,
    /// Komi until the controller sends one.
    #[arg(long, default_value_t = 7.5, allow_negative_numbers = true, value_parser = finite)]
    pub komi: f64,
    /// Resign below this win rate (0 never resigns).
    #[arg(long, value_name = "WINRATE", value_parser = fraction)]
    pub resign_threshold: Option<f64>,
    /// Think on the opponent's time.
    #[arg(long)]
    pub ponder: bool,
    /// Random seed (with one thread the engine is then deterministic).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Log level on stderr [default: warn, or RUST_LOG].
    #[arg(long, value_enum)]
    pub log_level: Option<LogLevel>,
}

/// The players `--player` can choose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PlayerKind {
    /// Monte Carlo tree search.
    Mcts,
    /// Uniformly random legal moves (tests).
    Random,
}

impl PlayerKind {
    /// The player used without `--player`. Switch to `Mcts` once the search player exists.
    pub const DEFAULT: PlayerKind = PlayerKind::Random;
}

/// `--rules`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RuleSet {
    Chinese,
    TrompTaylor,
}

/// `--superko`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Superko {
    Positional,
    Situational,
}

/// `--log-level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LogLevel {
    Off,
    Error,
    Warn,
    Info,
    Debug,
    Trace,
}

impl GtpArgs {
    /// The search settings these options describe.
    pub fn search_config(&self) -> SearchConfig {
        let mut config = SearchConfig::default();
        if let Some(threads) = self.threads {
            config.threads = threads.into();
        }
        config.playouts = self.playouts;
        config.time_per_move = self.time_per_move;
        if let Some(mib) = self.max_memory {
            config.max_memory_mb = mib as usize;
        }
        if let Some(threshold) = self.resign_threshold {
            config.resign_threshold = threshold;
        }
        config.ponder = self.ponder;
        if let Some(seed) = self.seed {
            config.seed = seed;
        }
        config
    }

    /// The rules these options describe.
    pub fn game_rules(&self) -> Rules {
        let mut rules = match self.rules {
            RuleSet::Chinese => Rules::CHINESE,
            RuleSet::TrompTaylor => Rules::TROMP_TAYLOR,
        };
        rules.ko = match self.superko {
            Superko::Positional => KoRule::Positional,
            Superko::Situational => KoRule::Situational,
        };
        rules
    }
}

/// The one place where a player kind becomes a player.
pub fn build_player(kind: PlayerKind, config: &SearchConfig) -> Box<dyn Player> {
    match kind {
        PlayerKind::Random => Box::new(RandomPlayer::new(config.seed)),
        PlayerKind::Mcts => {
            log::warn!("the MCTS player is not available yet: using the random player");
            Box::new(RandomPlayer::new(config.seed))
        }
    }
}

/// Logging to stderr: `--log-level` if given, else `RUST_LOG`, else warnings only.
pub fn init_logging(level: Option<LogLevel>) {
    let mut builder =
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"));
    if let Some(level) = level {
        builder.filter_level(match level {
            LogLevel::Off => log::LevelFilter::Off,
            LogLevel::Error => log::LevelFilter::Error,
            LogLevel::Warn => log::LevelFilter::Warn,
            LogLevel::Info => log::LevelFilter::Info,
            LogLevel::Debug => log::LevelFilter::Debug,
            LogLevel::Trace => log::LevelFilter::Trace,
        });
    }
    builder.target(env_logger::Target::Stderr).init();
}

fn positive_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text.parse().map_err(|_| format!("not a number: {text}"))?;
    if seconds.is_finite() && seconds > 0.0 && seconds < 1.0e9 {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(format!("expected a positive number of seconds, got {text}"))
    }
}

fn finite(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("not a finite number: {text}"))
}

fn fraction(text: &str) -> Result<f64, String> {
    finite(text)?;
    text.parse::<f64>()
        .ok()
        .filter(|v| (0.0..1.0).contains(v))
        .ok_or_else(|| format!("expected a number in [0, 1), got {text}"))
}
