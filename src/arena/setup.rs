//! The settings every game of a match or tournament shares, one type for the command line and
//! the tournament file, checked once: board size, komi, handicap, clock, scoring, referee, the
//! longest game, the openings (read from SGF files) and the time an engine without a clock may
//! take for a move.

use super::referee::{GameSetup, Scoring};
use super::timespec;
use crate::sgf;
use crate::user_files;
use clap::Args;
use engine_core::{fixed_handicap, is_valid_komi, Color, Geometry, Move, MAX_KOMI};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The seconds `--move-timeout` may be: long enough for any engine to start answering, and
/// short of forever (a silent engine must lose some day).
const MOVE_TIMEOUT_SECONDS: std::ops::RangeInclusive<f64> = 1.0..=1.0e7;

const DEFAULT_SIZE: usize = 19;
const DEFAULT_KOMI: f64 = 7.5;
const NO_CLOCK: &str = "none";
const DEFAULT_MOVE_TIMEOUT: f64 = 300.0;

/// The game settings as the user gives them, one type for both: flattened into `tengen match`'s
/// options and into the tournament file's keys (the names are the same, `--max-moves` being
/// `max_moves`), and recorded in journal headers. [`GameSettings::check`] turns them into the
/// [`GameSetup`] the referee plays by.
#[derive(Args, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GameSettings {
    /// Board size, 2 to 25.
    #[arg(long, default_value_t = DEFAULT_SIZE)]
    pub size: usize,
    /// Points added to White's count (area scoring).
    #[arg(long, default_value_t = DEFAULT_KOMI, allow_negative_numbers = true)]
    pub komi: f64,
    /// Fixed handicap stones for Black (0 = none).
    #[arg(long, default_value_t = 0)]
    pub handicap: usize,
    /// Clock: none, 10m (absolute), 10m+30sx3 (byo-yomi), 5m+5m/25 (Canadian),
    /// 5m+5m/25+carry (unused period time carried over).
    #[arg(long, default_value = NO_CLOCK)]
    pub time: String,
    /// How games that end with two passes are counted.
    #[arg(long, value_enum, default_value_t = Scoring::default())]
    pub scoring: Scoring,
    /// Referee engine for `--scoring referee` and disputes under `agree`, e.g.
    /// "gnugo --mode gtp --chinese-rules".
    #[arg(long)]
    pub referee: Option<String>,
    /// Adjudicate by the count after this many moves (default 3 x size x size).
    #[arg(long)]
    pub max_moves: Option<usize>,
    /// Start the games from the main line of this SGF file (moves only), or from the SGF files
    /// of this directory in name order: one per game, or one per pair of games (one with each
    /// colour) with --alternate.
    #[arg(long)]
    pub opening: Option<PathBuf>,
    /// Seconds a genmove may take when no clock runs before the engine is declared silent.
    #[arg(long, default_value_t = DEFAULT_MOVE_TIMEOUT)]
    pub move_timeout: f64,
}

impl Default for GameSettings {
    fn default() -> Self {
        GameSettings {
            size: DEFAULT_SIZE,
            komi: DEFAULT_KOMI,
            handicap: 0,
            time: NO_CLOCK.into(),
            scoring: Scoring::default(),
            referee: None,
            max_moves: None,
            opening: None,
            move_timeout: DEFAULT_MOVE_TIMEOUT,
        }
    }
}

impl GameSettings {
    /// The longest game: `max_moves`, or 3 x size x size.
    pub fn move_limit(&self) -> usize {
        self.max_moves.unwrap_or(3 * self.size * self.size)
    }

    /// Checks size, komi, handicap, clock and scoring, and reads the openings: the settings
    /// shared by every game of a match or tournament.
    pub fn check(&self) -> Result<GameSetup, String> {
        let GameSettings {
            size,
            komi,
            handicap,
            ref time,
            scoring,
            ref referee,
            max_moves,
            ref opening,
            move_timeout,
        } = *self;
        let geometry =
            Geometry::new(size).ok_or_else(|| format!("board size {size} is not in 2..=25"))?;
        if !is_valid_komi(komi) {
            return Err(format!(
                "komi {komi} is out of range (at most {MAX_KOMI} either way)"
            ));
        }
        if handicap == 1 || (handicap > 1 && fixed_handicap(geometry, handicap).is_none()) {
            return Err(format!(
                "no fixed handicap of {handicap} stones on {size}x{size}"
            ));
        }
        if scoring == Scoring::Referee && referee.is_none() {
            return Err("--scoring referee needs --referee CMD".into());
        }
        if max_moves == Some(0) {
            return Err("--max-moves must be at least 1".into());
        }
        if !(MOVE_TIMEOUT_SECONDS.contains(&move_timeout)) {
            return Err(format!(
                "--move-timeout must be between {} and {} seconds",
                MOVE_TIMEOUT_SECONDS.start(),
                MOVE_TIMEOUT_SECONDS.end()
            ));
        }
        let openings = match opening {
            None => Vec::new(),
            Some(path) => read_openings(path, size, handicap)?,
        };
        Ok(GameSetup {
            size,
            komi,
            handicap,
            time: timespec::parse(time)?,
            scoring,
            referee: referee.clone(),
            max_moves: self.move_limit(),
            openings,
            move_timeout: Duration::from_secs_f64(move_timeout),
        })
    }
}

/// The openings at `path`: one SGF file, or every `.sgf` file of a directory in name order.
fn read_openings(
    path: &Path,
    size: usize,
    handicap: usize,
) -> Result<Vec<Vec<(Color, Move)>>, String> {
    if !path.is_dir() {
        return Ok(vec![read_opening(path, size, handicap)?]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(|e| format!("cannot read openings {}: {e}", path.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no .sgf opening in {}", path.display()));
    }
    files
        .iter()
        .map(|file| read_opening(file, size, handicap))
        .collect()
}

/// The moves of an opening SGF, checked to be legal from the game's start.
fn read_opening(path: &Path, size: usize, handicap: usize) -> Result<Vec<(Color, Move)>, String> {
    let text = user_files::read_small_text(path)
        .map_err(|e| format!("cannot read opening {}: {e}", path.display()))?;
    let record = sgf::read(&text).map_err(|e| format!("opening {}: {e}", path.display()))?;
    if record.size != size {
        return Err(format!(
            "opening {} is for {}x{}, the match is {size}x{size}",
            path.display(),
            record.size,
            record.size
        ));
    }
    if !record.setup.is_empty() {
        return Err(format!(
            "opening {} has setup stones (AB/AW); only moves are supported (use --handicap)",
            path.display()
        ));
    }
    let mut game = engine_core::Game::new(size, engine_core::Rules::CHINESE, 0.0)
        .map_err(|e| e.to_string())?;
    if handicap > 0 {
        game.place_fixed_handicap(handicap)
            .map_err(|e| e.to_string())?;
    }
    for (i, &(c, m)) in record.moves.iter().enumerate() {
        game.play(c, m)
            .map_err(|e| format!("opening {} move {}: {e}", path.display(), i + 1))?;
    }
    if game.is_over() {
        return Err(format!("opening {} ends the game", path.display()));
    }
    Ok(record.moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_checked() {
        let check = |size, komi, handicap, time: &str, scoring| {
            GameSettings {
                size,
                komi,
                handicap,
                time: time.into(),
                scoring,
                ..GameSettings::default()
            }
            .check()
        };
        assert!(check(9, 7.5, 0, "none", Scoring::Agree).is_ok());
        assert!(check(9, 0.5, 4, "5m+30sx3", Scoring::TrompTaylor).is_ok());
        assert!(check(1, 7.5, 0, "none", Scoring::Agree).is_err());
        assert!(check(26, 7.5, 0, "none", Scoring::Agree).is_err());
        assert!(check(9, f64::NAN, 0, "none", Scoring::Agree).is_err());
        assert!(check(9, 7.5, 1, "none", Scoring::Agree).is_err());
        assert!(check(7, 7.5, 5, "none", Scoring::Agree).is_err());
        assert!(check(9, 7.5, 0, "forever", Scoring::Agree).is_err());
        assert!(check(9, 7.5, 0, "none", Scoring::Referee).is_err());
        assert_eq!(
            check(9, 7.5, 0, "none", Scoring::Agree).unwrap().max_moves,
            243
        );
    }

    /// The command line's defaults and the tournament file's are the same values.
    #[test]
    fn command_line_and_file_defaults_agree() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            game: GameSettings,
        }
        let from_cli = Cli::parse_from(["tengen"]).game;
        let from_file: GameSettings = toml::from_str("").unwrap();
        assert_eq!(from_cli, GameSettings::default());
        assert_eq!(from_file, GameSettings::default());
    }
}
