//! The search settings a GUI may show and change between moves, as GoGui's `param` view
//! shows them (`tengen-param`): one `[type] key value` line per setting, and a new value for
//! one of them by key (the command line's flags set the starting values). Values are read as
//! GTP reads numbers.

use super::config::{SearchConfig, MAX_RAVE_EQUIV, MAX_TIME_PER_MOVE};
use super::policy::Policy;
use gtp::args::{float, int_in};
use std::time::Duration;

/// Most threads a search may be given here (the command line allows as many).
const MAX_THREADS: u32 = 256;
/// Longest time a move may be given, in seconds.
const MAX_SECONDS: f64 = MAX_TIME_PER_MOVE.as_secs() as f64;

/// The settings as GoGui `param` lines; 0 stands for "not set" in `playouts`,
/// `time_per_move` and `rave_equiv`.
pub fn describe(c: &SearchConfig) -> String {
    let policy = match c.policy {
        Policy::Heavy => "heavy",
        Policy::Light => "light",
    };
    [
        format!("[string] threads {}", c.threads),
        format!("[string] playouts {}", c.playouts.unwrap_or(0)),
        format!(
            "[string] time_per_move {}",
            c.time_per_move.map_or(0.0, |t| t.as_secs_f64())
        ),
        format!(
            "[string] default_time {}",
            c.default_time_per_move.as_secs_f64()
        ),
        format!("[string] resign_threshold {}", c.resign_threshold),
        format!("[bool] ponder {}", u8::from(c.ponder)),
        format!("[list/heavy/light] playout {policy}"),
        format!("[string] rave_equiv {}", c.rave_equiv.unwrap_or(0.0)),
    ]
    .join("\n")
}

/// Sets `key` to the text `value`, or says why not (GTP's standard texts where they apply).
pub fn set(c: &mut SearchConfig, key: &str, value: &str) -> Result<(), String> {
    let syntax = |e: gtp::GtpError| e.message().to_string();
    match key {
        "threads" => c.threads = int_in(value, 1..=MAX_THREADS).map_err(syntax)? as usize,
        "playouts" => {
            c.playouts = Some(u64::from(
                int_in(value, 0..=gtp::args::MAX_INT).map_err(syntax)?,
            ))
        }
        "time_per_move" => c.time_per_move = Some(seconds(value, 0.0)?),
        "default_time" => c.default_time_per_move = seconds(value, 0.001)?,
        "resign_threshold" => {
            c.resign_threshold = Some(float(value).map_err(syntax)?)
                .filter(|t| (0.0..1.0).contains(t))
                .ok_or("resign_threshold must be in [0, 1)")?
        }
        "ponder" => {
            c.ponder = match value {
                "1" | "true" => true,
                "0" | "false" => false,
                _ => return Err("syntax error".into()),
            }
        }
        "playout" => {
            c.policy = match value {
                "heavy" => Policy::Heavy,
                "light" => Policy::Light,
                _ => return Err("syntax error".into()),
            }
        }
        "rave_equiv" => {
            let playouts = Some(float(value).map_err(syntax)?)
                .filter(|v| (0.0..=MAX_RAVE_EQUIV).contains(v))
                .ok_or_else(|| format!("rave_equiv must be in 0..={MAX_RAVE_EQUIV}"))?;
            c.rave_equiv = Some(playouts);
        }
        _ => return Err(format!("unknown setting {key}")),
    }
    // 0 means "not set": the clock, the default time or the search's default decides.
    c.playouts = c.playouts.filter(|&n| n > 0);
    c.rave_equiv = c.rave_equiv.filter(|&v| v > 0.0);
    c.time_per_move = c.time_per_move.filter(|t| !t.is_zero());
    Ok(())
}

/// A number of seconds in `min..=MAX_SECONDS` (0 allowed when `min` is 0).
fn seconds(value: &str, min: f64) -> Result<Duration, String> {
    Some(float(value).map_err(|e| e.message().to_string())?)
        .filter(|s| (min..=MAX_SECONDS).contains(s))
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("seconds must be in {min}..={MAX_SECONDS}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_described_setting_can_be_set_back() {
        let mut c = SearchConfig::default();
        for line in describe(&c.clone()).lines() {
            let mut words = line.split(' ').skip(1);
            let (key, value) = (words.next().unwrap(), words.next().unwrap());
            set(&mut c, key, value).unwrap_or_else(|e| panic!("{line}: {e}"));
        }
        assert_eq!(c, SearchConfig::default());
    }

    #[test]
    fn values_are_checked() {
        let mut c = SearchConfig::default();
        set(&mut c, "playouts", "5000").unwrap();
        set(&mut c, "time_per_move", "1.5").unwrap();
        set(&mut c, "playout", "light").unwrap();
        set(&mut c, "ponder", "1").unwrap();
        set(&mut c, "rave_equiv", "1500").unwrap();
        assert_eq!(c.rave_equiv, Some(1500.0));
        assert_eq!(c.playouts, Some(5000));
        assert_eq!(c.time_per_move, Some(Duration::from_millis(1500)));
        assert_eq!((c.policy, c.ponder), (Policy::Light, true));
        set(&mut c, "playouts", "0").unwrap();
        set(&mut c, "time_per_move", "0").unwrap();
        set(&mut c, "rave_equiv", "0").unwrap();
        assert_eq!(
            (c.playouts, c.time_per_move, c.rave_equiv),
            (None, None, None)
        );
        let before = c.clone();
        for (key, value) in [
            ("threads", "0"),
            ("threads", "x"),
            ("playouts", "-1"),
            ("time_per_move", "-1"),
            ("default_time", "0"),
            ("default_time", "inf"),
            ("resign_threshold", "1"),
            ("ponder", "yes"),
            ("playout", "medium"),
            ("rave_equiv", "-1"),
            ("rave_equiv", "nan"),
            ("komi", "7"),
        ] {
            assert!(set(&mut c.clone(), key, value).is_err(), "{key} {value}");
        }
        assert_eq!(c, before);
    }
}
