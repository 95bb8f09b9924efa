//! The command line of `tengen gtp` (and of plain `tengen`): player choice, search settings,
//! rules, komi, GUI quirks and logging. Here, and only here, the concrete player is built and
//! handed to the GTP front end, which knows it only as a [`Player`].

use crate::gtp_engine::{self, Gui};
use crate::player::{Player, RandomPlayer};
use crate::search::{settings, MctsPlayer, SearchConfig};
use clap::{Args, ValueEnum};
use engine_core::{is_valid_komi, KoRule, Rules, MAX_KOMI};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Options of the GTP engine.
#[derive(Args, Clone, Debug)]
pub struct GtpArgs {
    /// Which player answers genmove and analysis.
    #[arg(long, value_enum, default_value_t = PlayerKind::DEFAULT)]
    pub player: PlayerKind,
    #[arg(long, value_name = "N", help = settings::THREADS.help, value_parser = settings::THREADS.parser())]
    pub threads: Option<String>,
    #[arg(long, value_name = "N", help = settings::PLAYOUTS.help, value_parser = settings::PLAYOUTS.parser())]
    pub playouts: Option<String>,
    #[arg(long, value_name = "SECONDS", help = settings::TIME_PER_MOVE.help, value_parser = settings::TIME_PER_MOVE.parser())]
    pub time_per_move: Option<String>,
    #[arg(long, value_name = "SECONDS", help = settings::DEFAULT_TIME.help, value_parser = settings::DEFAULT_TIME.parser())]
    pub default_time: Option<String>,
    #[arg(long, value_name = "MIB", help = settings::MAX_MEMORY.help, value_parser = settings::MAX_MEMORY.parser())]
    pub max_memory: Option<String>,
    /// Rule set.
    #[arg(long, value_enum, default_value_t = RuleSet::Chinese)]
    pub rules: RuleSet,
    /// Repetition rule.
    #[arg(long, value_enum, default_value_t = Superko::Positional)]
    pub superko: Superko,
    /// Komi until the controller sends one (at most 10000 either way).
    #[arg(long, default_value_t = 7.5, allow_negative_numbers = true, value_parser = komi)]
    pub komi: f64,
    #[arg(long, value_name = "WINRATE", help = settings::RESIGN_THRESHOLD.help, value_parser = settings::RESIGN_THRESHOLD.parser())]
    pub resign_threshold: Option<String>,
    #[arg(long, help = settings::PONDER.help)]
    pub ponder: bool,
    #[arg(long, help = settings::SEED.help, value_parser = settings::SEED.parser())]
    pub seed: Option<String>,
    #[arg(long, value_name = "POLICY", help = settings::PLAYOUT.help, value_parser = settings::PLAYOUT.parser())]
    pub playout: Option<String>,
    #[arg(long, value_name = "PLAYOUTS", help = settings::RAVE_EQUIV.help, value_parser = settings::RAVE_EQUIV.parser())]
    pub rave_equiv: Option<String>,
    #[arg(long, value_name = "WEIGHT", help = settings::SCORE_WEIGHT.help, value_parser = settings::SCORE_WEIGHT.parser())]
    pub score_weight: Option<String>,
    #[arg(long, value_name = "WEIGHT", help = settings::EXPLORATION.help, value_parser = settings::EXPLORATION.parser())]
    pub exploration: Option<String>,
    /// Answer as this GUI expects where it departs from GTP: lizzie (version check), qgo
    /// (genmove answer ids), kigo (PASS) [default: by the specification].
    #[arg(long, value_enum)]
    pub gui: Option<Gui>,
    /// Log level [default: warn, or RUST_LOG]; at debug every GTP line in and out is logged.
    #[arg(long, value_enum)]
    pub log_level: Option<LogLevel>,
    /// Append the log to this file instead of stderr (GUIs often hide an engine's stderr).
    #[arg(long, value_name = "FILE")]
    pub log_file: Option<PathBuf>,
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
    /// The player used without `--player`.
    pub const DEFAULT: PlayerKind = PlayerKind::Mcts;
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
    /// The search settings these options describe, each read through the settings table.
    pub fn search_config(&self) -> SearchConfig {
        let mut config = SearchConfig::default();
        let ponder = self.ponder.then(|| "1".to_string());
        let given = [
            (&settings::THREADS, &self.threads),
            (&settings::PLAYOUTS, &self.playouts),
            (&settings::TIME_PER_MOVE, &self.time_per_move),
            (&settings::DEFAULT_TIME, &self.default_time),
            (&settings::MAX_MEMORY, &self.max_memory),
            (&settings::RESIGN_THRESHOLD, &self.resign_threshold),
            (&settings::PONDER, &ponder),
            (&settings::SEED, &self.seed),
            (&settings::PLAYOUT, &self.playout),
            (&settings::RAVE_EQUIV, &self.rave_equiv),
            (&settings::SCORE_WEIGHT, &self.score_weight),
            (&settings::EXPLORATION, &self.exploration),
        ];
        for (setting, text) in given {
            if let Some(text) = text {
                setting
                    .apply(&mut config, text)
                    .expect("clap checked the value with the same table");
            }
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

/// `tengen gtp`: logging as asked, then a GTP session on stdin/stdout with the player these
/// options describe; exits 0 on `quit` or at the end of the input.
pub fn run(args: GtpArgs) -> ExitCode {
    if let Err(e) = init_logging(args.log_level, args.log_file.as_deref()) {
        eprintln!("tengen: {e}");
        return ExitCode::FAILURE;
    }
    let player = build_player(args.player, &args.search_config());
    gtp_engine::run(player, args.game_rules(), args.komi, args.gui)
}

/// The one place where a player kind becomes a player.
pub fn build_player(kind: PlayerKind, config: &SearchConfig) -> Box<dyn Player> {
    match kind {
        PlayerKind::Random => Box::new(RandomPlayer::new(config.seed_or_fresh())),
        PlayerKind::Mcts => Box::new(MctsPlayer::new(config.clone())),
    }
}

/// Logging to stderr or `--log-file`: `--log-level` if given, else `RUST_LOG`, else warnings
/// only. A log file that cannot be opened is a one-line error.
pub fn init_logging(level: Option<LogLevel>, file: Option<&Path>) -> Result<(), String> {
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
    let target = match file {
        None => env_logger::Target::Stderr,
        Some(path) => env_logger::Target::Pipe(Box::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("cannot open the log file {}: {e}", path.display()))?,
        )),
    };
    builder.target(target).init();
    Ok(())
}

/// A komi a game accepts (at most `MAX_KOMI` either way).
pub fn komi(text: &str) -> Result<f64, String> {
    finite(text)
        .ok()
        .filter(|&k| is_valid_komi(k))
        .ok_or_else(|| format!("expected a komi between -{MAX_KOMI} and {MAX_KOMI}, got {text}"))
}

fn finite(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("not a finite number: {text}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use std::time::Duration;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        gtp: GtpArgs,
    }

    fn parse(args: &[&str]) -> Result<GtpArgs, clap::Error> {
        Cli::try_parse_from(std::iter::once("tengen").chain(args.iter().copied())).map(|c| c.gtp)
    }

    #[test]
    fn options_fill_the_search_config_and_rules() {
        let args = parse(&[
            "--threads",
            "3",
            "--playouts",
            "5000",
            "--time-per-move",
            "1.5",
            "--max-memory",
            "256",
            "--resign-threshold",
            "0.05",
            "--ponder",
            "--seed",
            "9",
            "--komi",
            "-2.5",
            "--rules",
            "tromp-taylor",
            "--superko",
            "situational",
            "--player",
            "random",
            "--log-level",
            "debug",
            "--rave-equiv",
            "1500",
            "--playout",
            "light",
            "--default-time",
            "2",
        ])
        .unwrap();
        let config = args.search_config();
        assert_eq!(config.threads, 3);
        assert_eq!(config.playouts, Some(5000));
        assert_eq!(config.time_per_move, Some(Duration::from_millis(1500)));
        assert_eq!(config.max_memory_mb, 256);
        assert_eq!(config.resign_threshold, 0.05);
        assert!(config.ponder);
        assert_eq!(config.seed, Some(9));
        assert_eq!(config.rave_equiv, Some(1500.0));
        assert_eq!(config.policy, crate::search::Policy::Light);
        assert_eq!(config.default_time_per_move, Duration::from_secs(2));
        assert_eq!(args.komi, -2.5);
        assert_eq!(args.log_level, Some(LogLevel::Debug));
        let rules = args.game_rules();
        assert!(rules.suicide_allowed);
        assert_eq!(rules.ko, KoRule::Situational);
    }

    #[test]
    fn defaults() {
        let args = parse(&[]).unwrap();
        assert_eq!(args.player, PlayerKind::DEFAULT);
        assert_eq!(args.komi, 7.5);
        assert_eq!(args.game_rules(), Rules::CHINESE);
        assert_eq!(args.search_config(), SearchConfig::default());
    }

    #[test]
    fn bad_values_are_refused() {
        for bad in [
            &["--threads", "0"][..],
            &["--playouts", "-1"],
            &["--time-per-move=-1"],
            &["--time-per-move", "3601"],
            &["--threads", "1025"],
            &["--playout", "medium"],
            &["--time-per-move", "nan"],
            &["--resign-threshold", "1.5"],
            &["--komi", "inf"],
            &["--rules", "japanese"],
            &["--superko", "none"],
            &["--player", "gnugo"],
            &["--log-level", "loud"],
            &["--rave-equiv=-5"],
            &["--rave-equiv", "1e12"],
            &["--bogus"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
