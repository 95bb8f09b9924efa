//! How long to think about one move: a fixed playout budget, a fixed time, or a share of the
//! clock (absolute, byo-yomi, Canadian) with a lag margin; the search may stop before the soft
//! limit when no other move can catch up, and may run on to the hard limit when the top two
//! moves are close.

use super::config::{SearchConfig, MAX_TIME_PER_MOVE};
use crate::clock::{Clock, TimeSystem};
use engine_core::Game;
use std::time::Duration;

/// Limits for one search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Stop after this many playouts (deterministic with one thread).
    pub playouts: Option<u64>,
    /// Time after which the search stops unless the best moves are close.
    pub soft: Option<Duration>,
    /// Time the search never exceeds.
    pub hard: Option<Duration>,
}

/// Smallest thinking time we plan, so that even a nearly empty clock gets a sensible move.
const MIN_THINK: Duration = Duration::from_millis(20);

impl Budget {
    /// A search that runs until it is stopped from outside (analysis, pondering).
    pub const UNLIMITED: Budget = Budget {
        playouts: None,
        soft: None,
        hard: None,
    };

    fn time(soft: Duration, hard: Duration) -> Budget {
        let hard = hard.min(MAX_TIME_PER_MOVE);
        let soft = soft.max(MIN_THINK).min(hard.max(MIN_THINK));
        Budget {
            playouts: None,
            soft: Some(soft),
            hard: Some(hard.max(soft)),
        }
    }

    /// Plans one move of `game` under `config` and the mover's `clock`.
    pub fn plan(config: &SearchConfig, clock: &Clock, game: &Game) -> Budget {
        if let Some(playouts) = config.playouts {
            return Budget {
                playouts: Some(playouts),
                ..Budget::UNLIMITED
            };
        }
        let lag = config.lag_margin;
        let clock_limit = Budget::from_clock(clock, game, lag);
        match (config.time_per_move, clock_limit) {
            (Some(fixed), Some(limit)) => {
                let hard = limit.hard.unwrap_or(fixed).min(fixed);
                Budget::time(hard, hard)
            }
            (Some(fixed), None) => Budget::time(fixed, fixed),
            (None, Some(limit)) => limit,
            (None, None) => {
                Budget::time(config.default_time_per_move, config.default_time_per_move)
            }
        }
    }

    /// The clock's share for this move, or `None` when the clock sets no limit.
    fn from_clock(clock: &Clock, game: &Game, lag: Duration) -> Option<Budget> {
        // Our own moves still to come: about a third of the empty points, at least a dozen.
        let empty = game.board().empty_points().len() as u32;
        let moves_left = (empty / 3).max(12);
        // Less in the opening: the first moves of a game matter less than the middle game.
        let played = game.moves().len() as f64;
        let area = game.geometry().area() as f64;
        let opening = if played < area / 10.0 { 0.6 } else { 1.0 };
        let main = clock.main_left().saturating_sub(lag);
        let share = main / moves_left;
        match clock.system() {
            TimeSystem::Unlimited => None,
            TimeSystem::Absolute { .. } => Some(Budget::time(
                share.mul_f64(opening),
                (share * 3).min(main / 4),
            )),
            TimeSystem::ByoYomi { period, .. } => {
                let per_period = period.saturating_sub(lag);
                if clock.in_overtime() || main.is_zero() {
                    Some(Budget::time(per_period.mul_f64(0.7), per_period))
                } else {
                    let soft = (share + per_period.mul_f64(0.5)).mul_f64(opening);
                    Some(Budget::time(soft, (soft * 2).min(main + per_period)))
                }
            }
            TimeSystem::Canadian { period, stones, .. } => {
                if clock.in_overtime() || main.is_zero() {
                    let per_stone =
                        clock.period_left().saturating_sub(lag) / clock.stones_left().max(1);
                    Some(Budget::time(per_stone.mul_f64(0.8), per_stone))
                } else {
                    let overtime = period.saturating_sub(lag) / stones.max(1);
                    let soft = (share + overtime.mul_f64(0.5)).mul_f64(opening);
                    Some(Budget::time(soft, (soft * 2).min(main + overtime)))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::Rules;

    fn game() -> Game {
        Game::new(9, Rules::CHINESE, 7.5).unwrap()
    }

    fn config() -> SearchConfig {
        SearchConfig {
            lag_margin: Duration::from_millis(200),
            ..SearchConfig::default()
        }
    }

    #[test]
    fn playouts_win_over_time() {
        let c = SearchConfig {
            playouts: Some(500),
            ..config()
        };
        let b = Budget::plan(&c, &Clock::new(TimeSystem::Unlimited), &game());
        assert_eq!(b.playouts, Some(500));
        assert_eq!(b.hard, None);
    }

    #[test]
    fn no_clock_uses_the_default_time() {
        let b = Budget::plan(&config(), &Clock::new(TimeSystem::Unlimited), &game());
        assert_eq!(b.soft, Some(config().default_time_per_move));
    }

    #[test]
    fn sudden_death_keeps_time_for_the_rest_of_the_game() {
        let clock = Clock::new(TimeSystem::Absolute {
            main: Duration::from_secs(60),
        });
        let b = Budget::plan(&config(), &clock, &game());
        let hard = b.hard.unwrap();
        assert!(hard <= Duration::from_secs(15), "{hard:?}");
        assert!(b.soft.unwrap() >= Duration::from_millis(500));
    }

    #[test]
    fn byo_yomi_overtime_stays_inside_the_period() {
        let mut clock = Clock::new(TimeSystem::ByoYomi {
            main: Duration::ZERO,
            period: Duration::from_secs(10),
            periods: 3,
        });
        clock.set_time_left(10.0, 3);
        let b = Budget::plan(&config(), &clock, &game());
        assert!(b.hard.unwrap() < Duration::from_secs(10));
    }

    #[test]
    fn canadian_overtime_divides_the_period_by_the_stones_left() {
        let mut clock = Clock::new(TimeSystem::from_gtp(0, 60, 10));
        clock.set_time_left(30.0, 5);
        let b = Budget::plan(&config(), &clock, &game());
        assert!(b.hard.unwrap() <= Duration::from_secs(6));
    }

    #[test]
    fn a_fixed_time_never_exceeds_the_clock() {
        let c = SearchConfig {
            time_per_move: Some(Duration::from_secs(30)),
            ..config()
        };
        let clock = Clock::new(TimeSystem::Absolute {
            main: Duration::from_secs(20),
        });
        let b = Budget::plan(&c, &clock, &game());
        assert!(b.hard.unwrap() <= Duration::from_secs(5));
    }

    #[test]
    fn no_clock_makes_a_move_think_past_the_cap() {
        let mut clock = Clock::new(TimeSystem::ByoYomi {
            main: Duration::ZERO,
            period: Duration::from_secs(1_000_000_000),
            periods: 1,
        });
        clock.set_time_left(1.0e9, 1);
        for clock in [clock, Clock::new(TimeSystem::from_gtp(2_147_483_647, 0, 0))] {
            let b = Budget::plan(&config(), &clock, &game());
            assert_eq!(b.hard, Some(MAX_TIME_PER_MOVE));
            assert!(b.soft.unwrap() <= MAX_TIME_PER_MOVE);
        }
    }
}
