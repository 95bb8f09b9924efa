//! Match statistics: Wilson score intervals, Elo differences, and the results table.

use crate::arena::repeats::{repeat_warning, repeated_games};
use crate::match_runner::GameRecord;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval of `successes` out of `n` (draws may count as halves).
pub fn wilson(successes: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = successes / n;
    let z2 = z * z;
    let centre = p + z2 / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let denominator = 1.0 + z2 / n;
    // Exact at the ends: rounding would otherwise leave a no-win record a tiny positive lower
    // bound, and a finite Elo bound of thousands.
    let low = if successes <= 0.0 {
        0.0
    } else {
        ((centre - spread) / denominator).max(0.0)
    };
    let high = if successes >= n {
        1.0
    } else {
        ((centre + spread) / denominator).min(1.0)
    };
    (low, high)
}

/// The Elo difference that predicts a score fraction `p` (±infinity at 0 and 1).
pub fn elo(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

fn elo_text(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // `+ 0.0` turns -0 into 0.
        format!("{:+.0}", x.round() + 0.0)
    }
}

/// One engine's side of a two-engine match.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct EngineStats {
    pub name: String,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// (wins + draws / 2) / games.
    pub score: f64,
    pub score_low: f64,
    pub score_high: f64,
    /// Elo difference against the other engine, with its 95% interval (null when infinite).
    pub elo: Option<f64>,
    pub elo_low: Option<f64>,
    pub elo_high: Option<f64>,
    pub black_games: u32,
    pub black_wins: u32,
    pub white_games: u32,
    pub white_wins: u32,
    /// How this engine's wins came about, by reason.
    pub wins_by: BTreeMap<String, u32>,
    /// How this engine's losses came about, by reason.
    pub losses_by: BTreeMap<String, u32>,
    pub moves: u64,
    pub move_ms: u64,
    /// Average seconds per move.
    pub seconds_per_move: f64,
}

/// The summary of a two-engine match.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Summary {
    pub games: u32,
    pub engines: [EngineStats; 2],
    pub black_wins: u32,
    pub white_wins: u32,
    pub draws: u32,
    /// Games that repeat an earlier one move for move with the same colours (as
    /// gogui-twogtp counts them): deterministic engines replay their games, and such repeats
    /// are not independent samples.
    pub duplicates: u32,
}

fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

impl EngineStats {
    /// Counts one game this engine played as `colour` (0 Black, 1 White), won by the colour
    /// `winner` (none: a draw) for `reason`.
    fn count_game(&mut self, colour: usize, winner: Option<usize>, reason: &str) {
        self.games += 1;
        if colour == 0 {
            self.black_games += 1;
        } else {
            self.white_games += 1;
        }
        match winner {
            None => self.draws += 1,
            Some(w) if w == colour => {
                self.wins += 1;
                *self.wins_by.entry(reason.to_string()).or_default() += 1;
                if colour == 0 {
                    self.black_wins += 1;
                } else {
                    self.white_wins += 1;
                }
            }
            Some(_) => {
                self.losses += 1;
                *self.losses_by.entry(reason.to_string()).or_default() += 1;
            }
        }
    }

    /// The score, its interval and the Elo figures, and the average time a move, from the
    /// counts.
    fn finish(&mut self) {
        if self.games > 0 {
            let points = self.wins as f64 + self.draws as f64 / 2.0;
            self.score = points / self.games as f64;
            let (lo, hi) = wilson(points, self.games as f64, Z95);
            self.score_low = lo;
            self.score_high = hi;
            self.elo = finite(elo(self.score));
            self.elo_low = finite(elo(lo));
            self.elo_high = finite(elo(hi));
        }
        if self.moves > 0 {
            self.seconds_per_move = self.move_ms as f64 / 1000.0 / self.moves as f64;
        }
    }

    /// This engine's row of the results table, the name padded to `width`.
    fn table_row(&self, width: usize) -> String {
        let (score, elo_all) = if self.games == 0 {
            (format!("{:>8}  {:<15}", "-", "-"), "-".to_string())
        } else {
            (
                format!(
                    "{:>7.1}%  [{:>5.1}%, {:>5.1}%]",
                    100.0 * self.score,
                    100.0 * self.score_low,
                    100.0 * self.score_high
                ),
                format!(
                    "{} [{}, {}]",
                    elo_text(elo(self.score)),
                    elo_text(elo(self.score_low)),
                    elo_text(elo(self.score_high))
                ),
            )
        };
        format!(
            "{:<width$}  {:>5} {:>5} {:>6}  {score}  {:<20}  {:<11}  {:<11}  {:>8.2}\n",
            self.name,
            self.wins,
            self.draws,
            self.losses,
            elo_all,
            format!("{}/{}", self.black_wins, self.black_games),
            format!("{}/{}", self.white_wins, self.white_games),
            self.seconds_per_move,
        )
    }

    /// How this engine's wins and losses came about.
    fn reasons_line(&self) -> String {
        let list = |m: &BTreeMap<String, u32>| {
            if m.is_empty() {
                "-".to_string()
            } else {
                m.iter()
                    .map(|(k, v)| format!("{k} {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        format!(
            "{}: wins by {}; losses by {}\n",
            self.name,
            list(&self.wins_by),
            list(&self.losses_by)
        )
    }
}

impl Summary {
    /// Summarises `games` between engine slots 0 and 1 called `names`.
    pub fn new(games: &[GameRecord], names: [String; 2]) -> Summary {
        let mut engines: [EngineStats; 2] = names.map(|name| EngineStats {
            name,
            ..EngineStats::default()
        });
        let (mut black_wins, mut white_wins, mut draws) = (0, 0, 0);
        let duplicates = repeated_games(
            games
                .iter()
                .map(|g| (g.black_engine, g.white_engine, &g.outcome)),
        );
        for g in games {
            let slots = [g.black_engine, g.white_engine];
            let winner = match g.outcome.winner {
                Some('B') => Some(0),
                Some('W') => Some(1),
                _ => None,
            };
            match winner {
                Some(0) => black_wins += 1,
                Some(_) => white_wins += 1,
                None => draws += 1,
            }
            for (colour, &slot) in slots.iter().enumerate() {
                if let Some(e) = engines.get_mut(slot) {
                    e.count_game(colour, winner, g.outcome.reason.name());
                }
            }
            // Move times: engine moves alternate starting with `first_mover`.
            let first = if g.outcome.first_mover == 'W' { 1 } else { 0 };
            for (i, &ms) in g.outcome.move_ms.iter().enumerate() {
                if let Some(e) = engines.get_mut(slots[(first + i) % 2]) {
                    e.moves += 1;
                    e.move_ms += ms;
                }
            }
        }
        engines.iter_mut().for_each(EngineStats::finish);
        Summary {
            games: games.len() as u32,
            engines,
            black_wins,
            white_wins,
            draws,
            duplicates,
        }
    }

    /// The results table printed on stdout.
    pub fn table(&self) -> String {
        let mut t = String::new();
        let [a, b] = &self.engines;
        let _ = writeln!(t, "{} vs {}: {} games", a.name, b.name, self.games);
        let width = self
            .engines
            .iter()
            .map(|e| e.name.chars().count())
            .max()
            .unwrap_or(0)
            .max(6);
        let _ = writeln!(
            t,
            "{:<width$}  {:>5} {:>5} {:>6}  {:>8}  {:<15}  {:<20}  {:<11}  {:<11}  {:>8}",
            "engine",
            "wins",
            "draws",
            "losses",
            "win rate",
            "95% CI",
            "Elo (95% CI)",
            "as black",
            "as white",
            "s/move"
        );
        t.extend(self.engines.iter().map(|e| e.table_row(width)));
        let _ = writeln!(
            t,
            "Black won {}, White won {}, draws {}",
            self.black_wins, self.white_wins, self.draws
        );
        t.extend(self.engines.iter().map(EngineStats::reasons_line));
        t.extend(repeat_warning(
            self.duplicates,
            self.games as usize,
            "the intervals above are too narrow; vary the engines (a random seed) or the \
             openings (--opening)",
        ));
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::referee::Outcome;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-4
    }

    #[test]
    fn wilson_matches_worked_examples() {
        // 36 of 40 (peers.md: 90%, 95% CI 77–96%).
        let (lo, hi) = wilson(36.0, 40.0, Z95);
        assert!(close(lo, 0.7695), "{lo}");
        assert!(close(hi, 0.9604), "{hi}");
        // 50 of 100: symmetric around one half.
        let (lo, hi) = wilson(50.0, 100.0, Z95);
        assert!(close(lo, 0.4038) && close(hi, 0.5962), "{lo} {hi}");
        // 0 of 10 still has a positive upper bound; 10 of 10 a lower bound below 1.
        let (lo, hi) = wilson(0.0, 10.0, Z95);
        assert!(close(lo, 0.0) && close(hi, 0.2775), "{lo} {hi}");
        let (lo, hi) = wilson(10.0, 10.0, Z95);
        assert!(close(lo, 0.7225) && close(hi, 1.0), "{lo} {hi}");
    }

    #[test]
    fn no_wins_and_all_wins_reach_the_ends_exactly() {
        for n in [1.0, 12.0, 100.0] {
            assert_eq!(wilson(0.0, n, Z95).0, 0.0);
            assert_eq!(wilson(n, n, Z95).1, 1.0);
            assert_eq!(elo(wilson(0.0, n, Z95).0), f64::NEG_INFINITY);
        }
    }

    #[test]
    fn elo_of_score_fractions() {
        assert_eq!(elo(0.5), 0.0);
        assert!(close(elo(0.75), 190.848_501_887_864_9));
        assert!(close(elo(0.25), -190.848_501_887_864_9));
        assert!(close(elo(0.9), 381.697_003_775_729_8));
        assert_eq!(elo(1.0), f64::INFINITY);
        assert_eq!(elo(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_text(elo(1.0)), "+inf");
        assert_eq!(elo_text(elo(0.75)), "+191");
    }

    fn game(i: usize, black_engine: usize, moves: &[&str]) -> GameRecord {
        GameRecord {
            game: i,
            black_engine,
            white_engine: 1 - black_engine,
            outcome: Outcome {
                winner: Some('B'),
                result: "B+R".into(),
                reason: crate::arena::referee::EndReason::Resign,
                detail: String::new(),
                black_name: String::new(),
                white_name: String::new(),
                moves: moves.iter().map(|m| m.to_string()).collect(),
                move_ms: vec![1; moves.len()],
                first_mover: 'B',
            },
            sgf: None,
        }
    }

    #[test]
    fn repeated_games_are_counted_and_flagged() {
        let games = [
            game(0, 0, &["C3", "D4"]),
            game(1, 1, &["C3", "D4"]), // same moves, other colours: a different game
            game(2, 0, &["C3", "D4"]), // a repeat of game 0
            game(3, 0, &["C3", "E5"]),
            game(4, 1, &["C3", "D4"]), // a repeat of game 1
            game(5, 0, &[]),           // forfeits before the first move: not replays
            game(6, 0, &[]),
        ];
        let summary = Summary::new(&games, ["a".into(), "b".into()]);
        assert_eq!(summary.duplicates, 2);
        assert!(summary
            .table()
            .contains("2 of 7 games repeat an earlier game"));
        let distinct = Summary::new(&games[..2], ["a".into(), "b".into()]);
        assert_eq!(distinct.duplicates, 0);
        assert!(!distinct.table().contains("repeat"));
    }
}
