//! The tree search's settings in one table: name, kind of value with its range, default (from
//! [`SearchConfig::default`]) and help. The command line (`--threads 4`, built in `cli.rs`)
//! and GoGui's parameter view (`tengen-param threads 4`) both go through it, so they take the
//! same values and refuse the same ones with the same message.

use super::config::{SearchConfig, MAX_RAVE_EQUIV, MAX_TIME_PER_MOVE};
use super::policy::Policy;
use std::time::Duration;

/// Most search threads.
pub const MAX_THREADS: u64 = 1024;
const MAX_SECONDS: f64 = MAX_TIME_PER_MOVE.as_secs() as f64;

/// What a setting holds.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Count { min: u64, max: u64 },
    /// A number in `min..=max`, or `min..max` when `below_max`.
    Number { min: f64, max: f64, below_max: bool },
    /// `1`/`true` or `0`/`false`.
    Switch,
    /// One of these words.
    Choice(&'static [&'static str]),
}

/// A value that passed its setting's check.
#[derive(Clone, Copy, Debug)]
enum Value {
    Count(u64),
    Number(f64),
    Switch(bool),
    Choice(usize),
}

/// One search setting.
pub struct Setting {
    /// The key of `tengen-param`; the command-line flag has `-` for `_`.
    pub name: &'static str,
    pub kind: Kind,
    pub help: &'static str,
    /// Whether it may change between moves (`tengen-param`); otherwise only at start-up.
    pub live: bool,
    get: fn(&SearchConfig) -> String,
    put: fn(&mut SearchConfig, Value),
}

fn count(v: Value) -> u64 {
    match v {
        Value::Count(n) => n,
        _ => unreachable!("a count setting gets a count"),
    }
}

fn number(v: Value) -> f64 {
    match v {
        Value::Number(x) => x,
        _ => unreachable!("a number setting gets a number"),
    }
}

/// `Some(seconds)`, or `None` for 0 ("not set").
fn optional_seconds(v: Value) -> Option<Duration> {
    Some(number(v))
        .filter(|&s| s > 0.0)
        .map(Duration::from_secs_f64)
}

pub static THREADS: Setting = Setting {
    name: "threads",
    kind: Kind::Count {
        min: 1,
        max: MAX_THREADS,
    },
    help: "Search threads [default: all cores]",
    live: true,
    get: |c| c.threads.to_string(),
    put: |c, v| c.threads = count(v) as usize,
};

pub static PLAYOUTS: Setting = Setting {
    name: "playouts",
    kind: Kind::Count {
        min: 0,
        max: u64::MAX,
    },
    help: "Fixed number of playouts per move, overriding time control (0: by time) \
           [default: by time]",
    live: true,
    get: |c| c.playouts.unwrap_or(0).to_string(),
    put: |c, v| c.playouts = Some(count(v)).filter(|&n| n > 0),
};

pub static TIME_PER_MOVE: Setting = Setting {
    name: "time_per_move",
    kind: Kind::Number {
        min: 0.0,
        max: MAX_SECONDS,
        below_max: false,
    },
    help: "Fixed thinking time per move, in seconds, at most 3600 (capped by the clock when \
           the controller runs one; 0: by the clock) [default: by the clock, else 3 s a move]",
    live: true,
    get: |c| c.time_per_move.map_or(0.0, |t| t.as_secs_f64()).to_string(),
    put: |c, v| c.time_per_move = optional_seconds(v),
};

pub static DEFAULT_TIME: Setting = Setting {
    name: "default_time",
    kind: Kind::Number {
        min: 0.001,
        max: MAX_SECONDS,
        below_max: false,
    },
    help: "Seconds a move when neither a fixed time nor a clock is set [default: 3]",
    live: true,
    get: |c| c.default_time_per_move.as_secs_f64().to_string(),
    put: |c, v| c.default_time_per_move = Duration::from_secs_f64(number(v)),
};

pub static MAX_MEMORY: Setting = Setting {
    name: "max_memory",
    kind: Kind::Count {
        min: 1,
        max: u32::MAX as u64,
    },
    help: "Upper bound for the search tree, in MiB (clamped to what the machine has) \
           [default: 1024]",
    live: false,
    get: |c| c.max_memory_mb.to_string(),
    put: |c, v| c.max_memory_mb = count(v) as usize,
};

pub static RESIGN_THRESHOLD: Setting = Setting {
    name: "resign_threshold",
    kind: Kind::Number {
        min: 0.0,
        max: 1.0,
        below_max: true,
    },
    help: "Resign below this win rate (0 never resigns) [default: 0.1]",
    live: true,
    get: |c| c.resign_threshold.to_string(),
    put: |c, v| c.resign_threshold = number(v),
};

pub static PONDER: Setting = Setting {
    name: "ponder",
    kind: Kind::Switch,
    help: "Think on the opponent's time",
    live: true,
    get: |c| u8::from(c.ponder).to_string(),
    put: |c, v| c.ponder = matches!(v, Value::Switch(true)),
};

/// The playout policies, and their names in the same order.
const POLICIES: [Policy; 3] = [Policy::Heavy, Policy::Light, Policy::Races];
const POLICY_NAMES: [&str; 3] = ["heavy", "light", "races"];

pub static PLAYOUT: Setting = Setting {
    name: "playout",
    kind: Kind::Choice(&POLICY_NAMES),
    help: "Playout policy of the tree search: heavy (tactics and patterns), light (uniform \
           random) or races (heavy, also taking the outside liberties of capturing races; an \
           experiment) [default: heavy]",
    live: true,
    get: |c| {
        let i = POLICIES
            .iter()
            .position(|&p| p == c.policy)
            .expect("listed");
        POLICY_NAMES[i].to_string()
    },
    put: |c, v| {
        if let Value::Choice(i) = v {
            c.policy = POLICIES[i];
        }
    },
};

pub static SEED: Setting = Setting {
    name: "seed",
    kind: Kind::Count {
        min: 0,
        max: u64::MAX,
    },
    help: "Random seed; with it, one thread and --playouts the engine is deterministic \
           [default: a fresh seed at every start, so that games between deterministic opponents \
           do not repeat]",
    live: false,
    get: |c| c.seed.map_or(String::new(), |s| s.to_string()),
    put: |c, v| c.seed = Some(count(v)),
};

pub static RAVE_EQUIV: Setting = Setting {
    name: "rave_equiv",
    kind: Kind::Number {
        min: 0.0,
        max: MAX_RAVE_EQUIV,
        below_max: false,
    },
    help: "RAVE equivalence: playouts at which a move's own value and its AMAF value weigh the \
           same (0: the default, 1000 on 9x9 and 3000 on 19x19, by the area in between) \
           [default: 0]",
    live: true,
    get: |c| c.rave_equiv.unwrap_or(0.0).to_string(),
    put: |c, v| c.rave_equiv = Some(number(v)).filter(|&x| x > 0.0),
};

pub static SCORE_WEIGHT: Setting = Setting {
    name: "score_weight",
    kind: Kind::Number {
        min: 0.0,
        max: 1.0,
        below_max: false,
    },
    help: "Weight of the expected margin beside the win rate when choosing moves, so that a \
           won or lost game is still played for points: as given on 19x19, none on 9x9 and \
           smaller, in proportion to the area in between (0: win rate only) [default: 0.05]",
    live: true,
    get: |c| c.score_weight.to_string(),
    put: |c, v| c.score_weight = number(v),
};

pub static EXPLORATION: Setting = Setting {
    name: "exploration",
    kind: Kind::Number {
        min: 0.0,
        max: 10.0,
        below_max: false,
    },
    help: "Weight of the exploration term, c in c * sqrt(ln N / (n + 1)) added to a move's \
           value, so that moves the search has left aside are tried again (0: none) \
           [default: 0]",
    live: true,
    get: |c| c.exploration.to_string(),
    put: |c, v| c.exploration = number(v),
};

/// Every setting, in the order GoGui shows them.
pub static SETTINGS: [&Setting; 12] = [
    &THREADS,
    &PLAYOUTS,
    &TIME_PER_MOVE,
    &DEFAULT_TIME,
    &MAX_MEMORY,
    &RESIGN_THRESHOLD,
    &PONDER,
    &PLAYOUT,
    &SEED,
    &RAVE_EQUIV,
    &SCORE_WEIGHT,
    &EXPLORATION,
];

impl Setting {
    /// Checks a value's text against the setting's kind and range.
    fn parse(&self, text: &str) -> Result<Value, String> {
        let name = self.name;
        match self.kind {
            Kind::Count { min, max } => text
                .parse::<u64>()
                .ok()
                .filter(|n| (min..=max).contains(n))
                .map(Value::Count)
                .ok_or_else(|| format!("{name} must be a whole number in {min}..={max}")),
            Kind::Number {
                min,
                max,
                below_max,
            } => text
                .parse::<f64>()
                .ok()
                .filter(|x| *x >= min && (*x < max || (!below_max && *x == max)))
                .map(Value::Number)
                .ok_or_else(|| {
                    let end = if below_max { ")" } else { "]" };
                    format!("{name} must be a number in [{min}, {max}{end}")
                }),
            Kind::Switch => match text {
                "1" | "true" => Ok(Value::Switch(true)),
                "0" | "false" => Ok(Value::Switch(false)),
                _ => Err(format!("{name} must be 0 or 1")),
            },
            Kind::Choice(words) => words
                .iter()
                .position(|w| *w == text)
                .map(Value::Choice)
                .ok_or_else(|| format!("{name} must be one of {}", words.join(", "))),
        }
    }

    /// A clap value parser that accepts exactly what [`set`] accepts.
    pub fn parser(&'static self) -> impl Fn(&str) -> Result<String, String> + Clone {
        move |text| self.parse(text).map(|_| text.to_string())
    }

    /// Sets the value from its text, or says why not; `config` is unchanged on error.
    pub fn apply(&self, config: &mut SearchConfig, text: &str) -> Result<(), String> {
        let value = self.parse(text)?;
        (self.put)(config, value);
        Ok(())
    }

    /// GoGui's type of the parameter.
    fn gogui_type(&self) -> String {
        match self.kind {
            Kind::Switch => "bool".into(),
            Kind::Choice(words) => format!("list/{}", words.join("/")),
            _ => "string".into(),
        }
    }
}

/// The settings that may change between moves, as GoGui `param` lines.
pub fn describe(c: &SearchConfig) -> String {
    SETTINGS
        .iter()
        .filter(|s| s.live)
        .map(|s| format!("[{}] {} {}", s.gogui_type(), s.name, (s.get)(c)))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Sets the setting `key` between moves to the text `value`, or says why not.
pub fn set(c: &mut SearchConfig, key: &str, value: &str) -> Result<(), String> {
    match SETTINGS.iter().find(|s| s.name == key) {
        None => Err(format!("unknown setting {key}")),
        Some(s) if !s.live => Err(format!("{key} is set on the command line only")),
        Some(s) => s.apply(c, value),
    }
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
        set(&mut c, "score_weight", "0").unwrap();
        assert_eq!(c.score_weight, 0.0);
        assert_eq!(c.playouts, Some(5000));
        assert_eq!(c.time_per_move, Some(Duration::from_millis(1500)));
        assert_eq!((c.policy, c.ponder), (Policy::Light, true));
        set(&mut c, "playout", "races").unwrap();
        assert_eq!(c.policy, Policy::Races);
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
            ("threads", "1025"),
            ("playouts", "-1"),
            ("time_per_move", "-1"),
            ("time_per_move", "3601"),
            ("default_time", "0"),
            ("default_time", "inf"),
            ("resign_threshold", "1"),
            ("ponder", "yes"),
            ("playout", "medium"),
            ("rave_equiv", "-1"),
            ("rave_equiv", "nan"),
            ("score_weight", "1.5"),
            ("score_weight", "-0.1"),
            ("komi", "7"),
            ("max_memory", "64"),
            ("seed", "1"),
        ] {
            assert!(set(&mut c, key, value).is_err(), "{key} {value}");
        }
        assert_eq!(c, before);
    }

    #[test]
    fn the_parser_accepts_what_apply_accepts() {
        for setting in SETTINGS {
            for text in ["0", "1", "0.5", "3600", "heavy", "true", "-1", "x"] {
                let mut c = SearchConfig::default();
                assert_eq!(
                    setting.parser()(text).is_ok(),
                    setting.apply(&mut c, text).is_ok(),
                    "{} {text}",
                    setting.name
                );
            }
        }
    }
}
