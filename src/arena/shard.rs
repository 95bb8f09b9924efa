//! Shards: one slice of a match's games (or of each tournament round's pairings), `I/N`, so
//! that a match can run as N processes on N machines writing into one directory. `auto` takes
//! `I` and `N` from the batch system that started the process: a Slurm job array
//! (`SLURM_ARRAY_TASK_ID` with `_MIN`, `_MAX`, `_STEP` or `_COUNT`), a Kubernetes Indexed Job
//! (`JOB_COMPLETION_INDEX`, 0-based) or GNU parallel (`PARALLEL_SEQ`, 1-based). Kubernetes and
//! GNU parallel do not tell the number of tasks: give it as `auto/N`.

use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// Shard `index` of `count` (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    /// 1-based.
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Whether game (or pairing) `i` (0-based) belongs to this shard.
    pub fn contains(&self, i: usize) -> bool {
        i % self.count == self.index - 1
    }

    /// `index` of `count`, checked.
    fn new(index: usize, count: usize) -> Result<Shard, String> {
        if index == 0 || index > count {
            return Err(format!("shard {index}/{count} is not I/N with 1 <= I <= N"));
        }
        Ok(Shard { index, count })
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("shard {s:?} is not I/N with 1 <= I <= N");
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        Shard::new(index, count).map_err(|_| bad())
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// `--shard`: a fixed `I/N`, or `auto` / `auto/N` to ask the batch system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardSpec {
    Fixed(Shard),
    Auto { count: Option<usize> },
}

impl FromStr for ShardSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<ShardSpec, String> {
        match s.trim() {
            "auto" => Ok(ShardSpec::Auto { count: None }),
            text => match text.strip_prefix("auto/") {
                Some(n) => match n.trim().parse() {
                    Ok(count) if count > 0 => Ok(ShardSpec::Auto { count: Some(count) }),
                    _ => Err(format!(
                        "shard {s:?}: auto/N needs a number of tasks N >= 1"
                    )),
                },
                None => text.parse().map(ShardSpec::Fixed),
            },
        }
    }
}

impl ShardSpec {
    /// The shard, asking the environment for `auto`.
    pub fn resolve(self) -> Result<Shard, String> {
        self.resolve_with(|name| std::env::var(name).ok())
    }

    /// The shard, reading the batch system's variables through `var`.
    pub fn resolve_with(self, var: impl Fn(&str) -> Option<String>) -> Result<Shard, String> {
        let count = match self {
            ShardSpec::Fixed(shard) => return Ok(shard),
            ShardSpec::Auto { count } => count,
        };
        let number = |name: &str| -> Result<Option<usize>, String> {
            var(name)
                .map(|v| {
                    v.trim()
                        .parse()
                        .map_err(|_| format!("--shard auto: {name}={v:?} is not a number"))
                })
                .transpose()
        };
        let needs_count = |system: &str| {
            count.ok_or_else(|| {
                format!(
                    "--shard auto: {system} does not tell the number of tasks; give --shard auto/N"
                )
            })
        };
        if let Some(id) = number("SLURM_ARRAY_TASK_ID")? {
            let min = number("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let step = number("SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
            let tasks = match (
                number("SLURM_ARRAY_TASK_COUNT")?,
                number("SLURM_ARRAY_TASK_MAX")?,
            ) {
                (Some(tasks), _) => tasks,
                (None, Some(max)) if max >= min => (max - min) / step + 1,
                _ => needs_count("this Slurm array")?,
            };
            if id < min || (id - min) % step != 0 {
                return Err(format!(
                    "--shard auto: Slurm task {id} is not in the array {min}..(step {step})"
                ));
            }
            return Shard::new((id - min) / step + 1, count.unwrap_or(tasks));
        }
        if let Some(index) = number("JOB_COMPLETION_INDEX")? {
            return Shard::new(index + 1, needs_count("a Kubernetes Indexed Job")?);
        }
        if let Some(seq) = number("PARALLEL_SEQ")? {
            return Shard::new(seq, needs_count("GNU parallel")?);
        }
        Err(
            "--shard auto: no batch system's task number found (SLURM_ARRAY_TASK_ID, \
             JOB_COMPLETION_INDEX, PARALLEL_SEQ); give --shard I/N"
                .into(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_games() {
        let shards: Vec<Shard> = (1..=3).map(|i| format!("{i}/3").parse().unwrap()).collect();
        for game in 0..20 {
            assert_eq!(shards.iter().filter(|s| s.contains(game)).count(), 1);
        }
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    fn resolve(spec: &str, vars: &[(&str, &str)]) -> Result<Shard, String> {
        spec.parse::<ShardSpec>()?.resolve_with(|name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| v.to_string())
        })
    }

    #[test]
    fn auto_reads_the_batch_systems() {
        let shard = |index, count| Ok(Shard { index, count });
        // Slurm arrays: --array=0-3, --array=1-4, --array=0-6:2, or with the count only.
        let slurm = |id, min, max, step| {
            resolve(
                "auto",
                &[
                    ("SLURM_ARRAY_TASK_ID", id),
                    ("SLURM_ARRAY_TASK_MIN", min),
                    ("SLURM_ARRAY_TASK_MAX", max),
                    ("SLURM_ARRAY_TASK_STEP", step),
                ],
            )
        };
        assert_eq!(slurm("0", "0", "3", "1"), shard(1, 4));
        assert_eq!(slurm("4", "1", "4", "1"), shard(4, 4));
        assert_eq!(slurm("4", "0", "6", "2"), shard(3, 4));
        assert!(slurm("3", "0", "6", "2").is_err());
        assert_eq!(
            resolve(
                "auto",
                &[
                    ("SLURM_ARRAY_TASK_ID", "2"),
                    ("SLURM_ARRAY_TASK_COUNT", "8")
                ]
            ),
            shard(3, 8)
        );
        // Kubernetes and GNU parallel need the count.
        assert_eq!(
            resolve("auto/5", &[("JOB_COMPLETION_INDEX", "4")]),
            shard(5, 5)
        );
        assert!(resolve("auto", &[("JOB_COMPLETION_INDEX", "0")]).is_err());
        assert!(resolve("auto/4", &[("JOB_COMPLETION_INDEX", "4")]).is_err());
        assert_eq!(resolve("auto/3", &[("PARALLEL_SEQ", "2")]), shard(2, 3));
        assert!(resolve("auto", &[("PARALLEL_SEQ", "x")]).is_err());
        // Nothing set, or a plain I/N.
        assert!(resolve("auto", &[])
            .unwrap_err()
            .contains("no batch system"));
        assert_eq!(resolve("2/7", &[("PARALLEL_SEQ", "1")]), shard(2, 7));
        assert!("auto/0".parse::<ShardSpec>().is_err());
    }
}
