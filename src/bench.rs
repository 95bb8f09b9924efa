//! `tengen bench`: light-playout speed per board size, for one thread and for all threads.
//!
//! Each thread copies an empty board and runs light playouts (uniform random non-eye moves to
//! the end, area-scored) until the time is up. Figures: playouts per second, moves per playout
//! and nanoseconds per move (wall time per thread divided by moves played on that thread).
//! With `--search`, the full search instead (heavy playouts, tree, RAVE) from the empty board,
//! as `genmove` runs it: playouts per second inside the search.

use crate::player::{Analysis, AnalysisRequest, MoveRestrictions, Player, Reporter};
use crate::search::{MctsPlayer, SearchConfig};
use clap::Args;
use engine_core::{light_playout, Board, Color, Game, Rules};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Options of `tengen bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Board sizes to measure (repeatable).
    #[arg(long = "size", value_parser = clap::value_parser!(u8).range(2..=25), default_values_t = [9u8, 13, 19])]
    pub sizes: Vec<u8>,
    /// Threads; by default one thread and then all cores.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Seconds per measurement.
    #[arg(long, default_value_t = 3.0, value_parser = parse_seconds)]
    pub seconds: f64,
    /// Run exactly this many playouts per measurement instead of a fixed time (repeatable work,
    /// e.g. for instruction counts under callgrind).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "search")]
    pub playouts: Option<u64>,
    /// Measure the full search (heavy playouts and tree) instead of light playouts.
    #[arg(long)]
    pub search: bool,
    /// One JSON object per measurement instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err("must be a number of seconds in (0, 3600]".to_string()),
    }
}

/// One measurement.
#[derive(Debug, Serialize)]
pub struct Measurement {
    pub size: usize,
    pub threads: usize,
    pub playouts: u64,
    pub seconds: f64,
    pub playouts_per_sec: f64,
    pub moves_per_playout: f64,
    pub ns_per_move: f64,
}

/// One measurement of the full search.
#[derive(Debug, Serialize)]
pub struct SearchMeasurement {
    pub mode: &'static str,
    pub size: usize,
    pub threads: usize,
    pub playouts: u64,
    pub seconds: f64,
    pub playouts_per_sec: f64,
}

/// Searches the empty board for Black with `threads` threads for `seconds`, as analysis does
/// (no early stop), and counts the playouts.
pub fn measure_search(size: usize, threads: usize, seconds: f64, seed: u64) -> SearchMeasurement {
    let game = Game::new(size, Rules::CHINESE, 7.5).expect("size validated by the caller");
    let mut player = MctsPlayer::new(SearchConfig {
        threads,
        seed: Some(seed),
        ..SearchConfig::default()
    });
    let stop = AtomicBool::new(false);
    let mut playouts = 0;
    let start = Instant::now();
    std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(Duration::from_secs_f64(seconds));
            stop.store(true, Ordering::SeqCst);
        });
        let mut last = |analysis: &Analysis| playouts = analysis.playouts;
        // One report at the end: the monitor always sends a last one when the search halts.
        let mut reporter = Reporter {
            interval: Duration::from_secs(24 * 3600),
            callback: &mut last,
        };
        let request = AnalysisRequest {
            game: &game,
            color: Color::Black,
            restrictions: &MoveRestrictions::NONE,
            stop: &stop,
        };
        player.analyze(&request, &mut reporter);
    });
    let seconds = start.elapsed().as_secs_f64();
    SearchMeasurement {
        mode: "search",
        size,
        threads,
        playouts,
        seconds,
        playouts_per_sec: playouts as f64 / seconds,
    }
}

/// How long a measurement runs.
#[derive(Clone, Copy, Debug)]
pub enum Amount {
    Time(Duration),
    Playouts(u64),
}

/// Runs light playouts on `threads` threads for the given time or number of playouts.
pub fn measure(size: usize, threads: usize, amount: Amount, seed: u64) -> Measurement {
    let empty = Board::with_size(size).expect("size validated by the caller");
    let max_moves = 3 * (size * size) as u32;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let start = Instant::now();
    let per_thread: Vec<(u64, u64)> = pool.broadcast(|ctx| {
        let mut rng = SmallRng::seed_from_u64(seed.wrapping_add(ctx.index() as u64 * 7919));
        let (mut playouts, mut moves) = (0u64, 0u64);
        let share = match amount {
            Amount::Playouts(n) => {
                n / threads as u64 + u64::from((ctx.index() as u64) < n % threads as u64)
            }
            Amount::Time(_) => u64::MAX,
        };
        let mut board = empty;
        loop {
            let more = match amount {
                Amount::Playouts(_) => playouts < share,
                Amount::Time(limit) => start.elapsed() < limit,
            };
            if !more {
                break;
            }
            for _ in 0..16.min(share - playouts) {
                board.copy_from(&empty);
                let result = light_playout(&mut board, Color::Black, &mut rng, max_moves);
                playouts += 1;
                moves += result.moves as u64;
            }
        }
        (playouts, moves)
    });
    let seconds = start.elapsed().as_secs_f64();
    let playouts: u64 = per_thread.iter().map(|t| t.0).sum();
    let moves: u64 = per_thread.iter().map(|t| t.1).sum();
    Measurement {
        size,
        threads,
        playouts,
        seconds,
        playouts_per_sec: playouts as f64 / seconds,
        moves_per_playout: moves as f64 / playouts as f64,
        ns_per_move: seconds * threads as f64 * 1e9 / moves as f64,
    }
}

/// Runs `tengen bench` and prints the figures on stdout.
pub fn run(args: &BenchArgs) {
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let thread_counts: Vec<usize> = match args.threads {
        Some(t) => vec![t as usize],
        None if all > 1 => vec![1, all],
        None => vec![1],
    };
    if args.search {
        return run_search(args, &thread_counts);
    }
    let amount = match args.playouts {
        Some(n) => Amount::Playouts(n),
        None => Amount::Time(Duration::from_secs_f64(args.seconds)),
    };
    if !args.json {
        match amount {
            Amount::Playouts(n) => println!("light playouts, {n} per measurement"),
            Amount::Time(_) => println!("light playouts, {:.1} s per measurement", args.seconds),
        }
        println!(
            "{:>5} {:>7} {:>10} {:>13} {:>12} {:>9}",
            "size", "threads", "playouts", "playouts/s", "moves/playout", "ns/move"
        );
    }
    print_measurements(
        args,
        &thread_counts,
        |size, threads| measure(size, threads, amount, args.seed),
        |m| {
            format!(
                "{:>5} {:>7} {:>10} {:>13.0} {:>12.1} {:>9.1}",
                format!("{0}x{0}", m.size),
                m.threads,
                m.playouts,
                m.playouts_per_sec,
                m.moves_per_playout,
                m.ns_per_move
            )
        },
    );
}

/// `tengen bench --search`.
fn run_search(args: &BenchArgs, thread_counts: &[usize]) {
    if !args.json {
        println!(
            "full search from the empty board, {:.1} s per measurement",
            args.seconds
        );
        println!(
            "{:>5} {:>7} {:>10} {:>13}",
            "size", "threads", "playouts", "playouts/s"
        );
    }
    print_measurements(
        args,
        thread_counts,
        |size, threads| measure_search(size, threads, args.seconds, args.seed),
        |m| {
            format!(
                "{:>5} {:>7} {:>10} {:>13.0}",
                format!("{0}x{0}", m.size),
                m.threads,
                m.playouts,
                m.playouts_per_sec
            )
        },
    );
}

/// Measures every size with every thread count and prints each result as one JSON object or
/// as a table row.
fn print_measurements<M: Serialize>(
    args: &BenchArgs,
    thread_counts: &[usize],
    measure: impl Fn(usize, usize) -> M,
    row: impl Fn(&M) -> String,
) {
    for &size in &args.sizes {
        for &threads in thread_counts {
            let m = measure(size as usize, threads);
            if args.json {
                println!(
                    "{}",
                    serde_json::to_string(&m).expect("plain data serialises")
                );
            } else {
                println!("{}", row(&m));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn light_playouts_do_exactly_the_work_asked() {
        let m = measure(9, 2, Amount::Playouts(101), 3);
        assert_eq!((m.size, m.threads, m.playouts), (9, 2, 101));
        // A 9x9 light playout fills most of the board and ends in two passes.
        assert!((40.0..243.0).contains(&m.moves_per_playout), "{m:?}");
    }

    #[test]
    fn the_search_is_timed_and_counted() {
        let m = measure_search(7, 1, 0.2, 3);
        assert!(m.seconds >= 0.2, "{m:?}");
        assert!(m.playouts > 0 && m.playouts_per_sec > 0.0, "{m:?}");
    }
}
