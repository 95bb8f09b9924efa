//! `tengen bench`: light-playout speed per board size, for one thread and for all threads.
//!
//! Each thread copies an empty board and runs light playouts (uniform random non-eye moves to
//! the end, area-scored) until the time is up. Figures: playouts per second, moves per playout
//! and nanoseconds per move (wall time per thread divided by moves played on that thread).

use clap::Args;
use engine_core::{light_playout, Board, Color};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde::Serialize;
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
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub playouts: Option<u64>,
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
    for &size in &args.sizes {
        for &threads in &thread_counts {
            let m = measure(size as usize, threads, amount, args.seed);
            if args.json {
                println!(
                    "{}",
                    serde_json::to_string(&m).expect("plain data serialises")
                );
            } else {
                println!(
                    "{:>5} {:>7} {:>10} {:>13.0} {:>12.1} {:>9.1}",
                    format!("{0}x{0}", m.size),
                    m.threads,
                    m.playouts,
                    m.playouts_per_sec,
                    m.moves_per_playout,
                    m.ns_per_move
                );
            }
        }
    }
}
