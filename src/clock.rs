//! Game clocks for the time systems of the Chinese rules: absolute (包干), byo-yomi with N periods
//! (读秒), and moves per period (定时限步制: Canadian, or the seed's variant that carries unused
//! time into the next period). The match runner enforces them; the player budgets from them.

use std::time::Duration;

/// A time system as GTP (`time_settings`, `kgs-time_settings`) describes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// No limit.
    Unlimited,
    /// Main time only; running out loses.
    Absolute { main: Duration },
    /// Main time, then `periods` periods of `period` each: a move within a period costs nothing,
    /// overrunning one uses it up, overrunning the last loses.
    ByoYomi {
        main: Duration,
        period: Duration,
        periods: u32,
    },
    /// Main time, then `stones` moves in each `period`. Canadian resets the period when the
    /// stones are played; with `carry_over` (the seed's 定时限步制) unused time is kept.
    Canadian {
        main: Duration,
        period: Duration,
        stones: u32,
        carry_over: bool,
    },
}

impl TimeSystem {
    /// From GTP `time_settings main byo stones` (seconds): byo 0 is absolute, stones 0 with
    /// byo > 0 is no limit (GoGui's encoding), otherwise Canadian.
    pub fn from_gtp(main: u64, byo: u64, stones: u64) -> TimeSystem {
        let main = Duration::from_secs(main);
        match (byo, stones) {
            (0, _) => TimeSystem::Absolute { main },
            (_, 0) => TimeSystem::Unlimited,
            (byo, stones) => TimeSystem::Canadian {
                main,
                period: Duration::from_secs(byo),
                stones: stones.min(u32::MAX as u64) as u32,
                carry_over: false,
            },
        }
    }
}

/// One player's clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    system: TimeSystem,
    main_left: Duration,
    /// Time left in the current period (byo-yomi or Canadian).
    period_left: Duration,
    /// Byo-yomi periods left.
    periods_left: u32,
    /// Canadian stones still to play in the current period.
    stones_left: u32,
}

impl Clock {
    pub fn new(system: TimeSystem) -> Clock {
        let (main, period, periods, stones) = match system {
            TimeSystem::Unlimited => (Duration::ZERO, Duration::ZERO, 0, 0),
            TimeSystem::Absolute { main } => (main, Duration::ZERO, 0, 0),
            TimeSystem::ByoYomi {
                main,
                period,
                periods,
            } => (main, period, periods, 0),
            TimeSystem::Canadian {
                main,
                period,
                stones,
                ..
            } => (main, period, 0, stones),
        };
        Clock {
            system,
            main_left: main,
            period_left: period,
            periods_left: periods,
            stones_left: stones,
        }
    }

    pub fn system(&self) -> TimeSystem {
        self.system
    }

    pub fn is_unlimited(&self) -> bool {
        self.system == TimeSystem::Unlimited
    }

    /// Main time still left.
    pub fn main_left(&self) -> Duration {
        self.main_left
    }

    /// Whether main time is used up and the player is in the overtime periods.
    pub fn in_overtime(&self) -> bool {
        self.main_left.is_zero()
            && matches!(
                self.system,
                TimeSystem::ByoYomi { .. } | TimeSystem::Canadian { .. }
            )
    }

    /// Time left in the current overtime period.
    pub fn period_left(&self) -> Duration {
        self.period_left
    }

    /// Byo-yomi periods left.
    pub fn periods_left(&self) -> u32 {
        self.periods_left
    }

    /// Canadian stones left to play in the current period.
    pub fn stones_left(&self) -> u32 {
        self.stones_left
    }

    /// Charges one move that took `used`. Returns false when the player ran out of time (the
    /// clock is then left at zero).
    pub fn spend(&mut self, used: Duration) -> bool {
        let from_main = used.min(self.main_left);
        self.main_left -= from_main;
        let over = used - from_main;
        match self.system {
            TimeSystem::Unlimited => true,
            TimeSystem::Absolute { .. } => over.is_zero(),
            TimeSystem::ByoYomi { period, .. } => {
                self.period_left = period;
                if over.is_zero() {
                    return true;
                }
                // Every full period the move overran is used up; the last one lost is the game.
                let used = over.as_nanos() / period.as_nanos().max(1);
                if used >= self.periods_left as u128 {
                    self.periods_left = 0;
                    return false;
                }
                self.periods_left -= used as u32;
                true
            }
            TimeSystem::Canadian {
                period,
                stones,
                carry_over,
                ..
            } => {
                if !self.in_overtime() && over.is_zero() {
                    return true;
                }
                if over > self.period_left {
                    self.period_left = Duration::ZERO;
                    return false;
                }
                self.period_left -= over;
                self.stones_left -= 1;
                if self.stones_left == 0 {
                    self.stones_left = stones;
                    self.period_left = if carry_over {
                        self.period_left + period
                    } else {
                        period
                    };
                }
                true
            }
        }
    }

    /// What GTP `time_left` carries: seconds left in the current stage, and stones (Canadian:
    /// stones left in the period; byo-yomi as KGS does it: periods left; 0 in main time).
    pub fn time_left_args(&self) -> (u64, u32) {
        if !self.in_overtime() {
            return (self.main_left.as_secs(), 0);
        }
        match self.system {
            TimeSystem::ByoYomi { .. } => (self.period_left.as_secs(), self.periods_left),
            TimeSystem::Canadian { .. } => (self.period_left.as_secs(), self.stones_left),
            _ => (0, 0),
        }
    }

    /// Adopts the controller's view from GTP `time_left seconds stones`.
    pub fn set_time_left(&mut self, seconds: f64, stones: u32) {
        let left = Duration::from_secs_f64(seconds.clamp(0.0, 1.0e9));
        match (self.system, stones) {
            (TimeSystem::Unlimited, _) => {}
            (TimeSystem::Absolute { .. }, _) | (_, 0) => self.main_left = left,
            (TimeSystem::ByoYomi { .. }, periods) => {
                self.main_left = Duration::ZERO;
                self.period_left = left;
                self.periods_left = periods;
            }
            (TimeSystem::Canadian { .. }, stones) => {
                self.main_left = Duration::ZERO;
                self.period_left = left;
                self.stones_left = stones;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn absolute_runs_out() {
        let mut c = Clock::new(TimeSystem::Absolute { main: secs(10) });
        assert!(c.spend(secs(4)));
        assert_eq!(c.time_left_args(), (6, 0));
        assert!(!c.spend(secs(7)));
    }

    #[test]
    fn byo_yomi_uses_up_periods() {
        let mut c = Clock::new(TimeSystem::ByoYomi {
            main: secs(5),
            period: secs(10),
            periods: 3,
        });
        assert!(c.spend(secs(3)));
        assert!(c.spend(secs(11))); // 2 s of main, 9 s inside the first period: free
        assert_eq!(c.periods_left(), 3);
        assert!(c.spend(secs(12))); // overran one period
        assert_eq!(c.periods_left(), 2);
        assert!(c.spend(secs(15))); // overran one more
        assert_eq!(c.periods_left(), 1);
        assert!(!c.spend(secs(10))); // the last period expired
    }

    #[test]
    fn canadian_resets_or_carries() {
        for carry in [false, true] {
            let mut c = Clock::new(TimeSystem::Canadian {
                main: secs(0),
                period: secs(30),
                stones: 2,
                carry_over: carry,
            });
            assert!(c.spend(secs(10)));
            assert_eq!(c.time_left_args(), (20, 1));
            assert!(c.spend(secs(10)));
            let expected = if carry { 40 } else { 30 };
            assert_eq!(c.time_left_args(), (expected, 2));
            assert!(!c.spend(secs(expected + 1)));
        }
    }

    #[test]
    fn gtp_encodings() {
        assert_eq!(TimeSystem::from_gtp(0, 1, 0), TimeSystem::Unlimited);
        assert_eq!(
            TimeSystem::from_gtp(60, 0, 0),
            TimeSystem::Absolute { main: secs(60) }
        );
        let mut c = Clock::new(TimeSystem::from_gtp(60, 30, 5));
        c.set_time_left(12.0, 3);
        assert!(c.in_overtime());
        assert_eq!(c.time_left_args(), (12, 3));
    }
}
