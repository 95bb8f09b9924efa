//! The settings every game of a match or tournament shares, checked once: board size, komi,
//! handicap, clock, scoring, referee, the longest game, the openings (read from SGF files) and
//! the time an engine without a clock may take for a move.

use super::referee::{GameSetup, Scoring};
use super::timespec;
use crate::sgf;
use crate::user_files;
use engine_core::{fixed_handicap, is_valid_komi, Color, Geometry, Move, MAX_KOMI};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The seconds `--move-timeout` may be: long enough for any engine to start answering, and
/// short of forever (a silent engine must lose some day).
const MOVE_TIMEOUT_SECONDS: std::ops::RangeInclusive<f64> = 1.0..=1.0e7;

/// The game settings as the command line or a tournament file gives them.
#[derive(Clone, Debug)]
pub struct SetupOptions<'a> {
    pub size: usize,
    pub komi: f64,
    pub handicap: usize,
    pub time: &'a str,
    pub scoring: Scoring,
    pub referee: Option<String>,
    pub max_moves: Option<usize>,
    pub opening: Option<&'a Path>,
    /// Seconds.
    pub move_timeout: f64,
}

/// Checks size, komi, handicap, clock and scoring, and reads the opening: the settings shared
/// by every game of a match or tournament.
pub fn game_setup(o: &SetupOptions<'_>) -> Result<GameSetup, String> {
    let SetupOptions {
        size,
        komi,
        handicap,
        time,
        scoring,
        ref referee,
        max_moves,
        opening,
        move_timeout,
    } = *o;
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
        max_moves: max_moves.unwrap_or(3 * size * size),
        openings,
        move_timeout: Duration::from_secs_f64(move_timeout),
    })
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
