//! Games that repeat an earlier one move for move: deterministic engines replay the same game,
//! which then counts as many times as it is played. Both runners warn about them.

use super::referee::Outcome;
use std::collections::HashSet;

/// How many games repeat an earlier one move for move between the same engines in the same
/// colours, given each game as (black engine, white engine, outcome). Games that ended before
/// any engine moved (a forfeit at the start) are not counted: they share an empty record
/// without being replays.
pub fn repeated_games<'a>(games: impl IntoIterator<Item = (usize, usize, &'a Outcome)>) -> u32 {
    let mut seen = HashSet::new();
    games
        .into_iter()
        .filter(|(_, _, outcome)| !outcome.move_ms.is_empty())
        .filter(|&(black, white, outcome)| !seen.insert((black, white, &outcome.moves)))
        .count() as u32
}

/// The warning printed under a results table when some games repeat earlier ones; `remedy`
/// says how to vary the games.
pub fn repeat_warning(repeated: u32, games: usize, remedy: &str) -> Option<String> {
    (repeated > 0).then(|| {
        format!(
            "Warning: {repeated} of {games} games repeat an earlier game move for move, so the \
             games are not independent samples; {remedy}\n"
        )
    })
}
