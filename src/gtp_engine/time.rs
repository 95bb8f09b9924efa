//! Time commands: `time_settings` (Canadian byo-yomi, `0 1 0` = no limit as GoGui sends it),
//! `time_left`, and kgsGtp's `kgs-time_settings none|absolute|byoyomi|canadian`. They set the
//! clocks the player budgets from; they never fail on legal values, whatever the order.
//! `cputime` answers the processor time the engine has used (gogui-twogtp's statistics).

use super::session::Session;
use crate::clock::{Clock, TimeSystem};
use gtp::args::{color, expect_count, float, int};
use gtp::GtpError;
use std::io::Write;
use std::time::Duration;

impl<W: Write + Send> Session<W> {
    pub(super) fn time_settings(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 3)?;
        let (main, byo, stones) = (int(&args[0])?, int(&args[1])?, int(&args[2])?);
        self.set_time_system(TimeSystem::from_gtp(main.into(), byo.into(), stones.into()));
        Ok(String::new())
    }

    pub(super) fn time_left(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 3)?;
        let c = color(&args[0])?;
        let seconds = float(&args[1])?;
        if seconds < 0.0 {
            return Err(GtpError::syntax());
        }
        let stones = int(&args[2])?;
        self.clocks[c.index()].set_time_left(seconds, stones);
        Ok(String::new())
    }

    pub(super) fn kgs_time_settings(&mut self, args: &[String]) -> Result<String, GtpError> {
        let kind = args.first().ok_or_else(GtpError::syntax)?;
        let numbers = args[1..]
            .iter()
            .map(|a| int(a).map(u64::from))
            .collect::<Result<Vec<u64>, GtpError>>()?;
        let secs = Duration::from_secs;
        let system = match (kind.as_str(), numbers.as_slice()) {
            ("none", []) => TimeSystem::Unlimited,
            ("absolute", &[main]) => TimeSystem::Absolute { main: secs(main) },
            ("byoyomi", &[main, period, periods]) if period > 0 && periods > 0 => {
                TimeSystem::ByoYomi {
                    main: secs(main),
                    period: secs(period),
                    periods: periods as u32,
                }
            }
            ("byoyomi", &[main, _, _]) => TimeSystem::Absolute { main: secs(main) },
            ("canadian", &[main, period, stones]) => TimeSystem::from_gtp(main, period, stones),
            _ => return Err(GtpError::syntax()),
        };
        self.set_time_system(system);
        Ok(String::new())
    }

    /// `cputime`: seconds of processor time used by the whole process, search threads included.
    pub(super) fn cputime(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 0)?;
        process_cpu_time()
            .map(|t| format!("{:.3}", t.as_secs_f64()))
            .ok_or_else(|| GtpError::new("cputime is not available on this platform"))
    }

    fn set_time_system(&mut self, system: TimeSystem) {
        self.clocks = [Clock::new(system); 2];
    }
}

/// Processor time of the whole process so far.
#[cfg(unix)]
#[allow(unsafe_code)] // std has no process CPU clock
fn process_cpu_time() -> Option<Duration> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes into it.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    (status == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
}

#[cfg(not(unix))]
fn process_cpu_time() -> Option<Duration> {
    None
}

#[cfg(all(test, unix))]
mod tests {
    use super::process_cpu_time;
    use std::time::{Duration, Instant};

    #[test]
    fn processor_time_grows_with_work() {
        let before = process_cpu_time().expect("the clock is readable");
        let start = Instant::now();
        let mut spin = 0u64;
        while start.elapsed() < Duration::from_millis(50) {
            spin = std::hint::black_box(spin.wrapping_add(1));
        }
        let after = process_cpu_time().expect("the clock is readable");
        assert!(after > before, "{before:?} then {after:?}");
    }
}
