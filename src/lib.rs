//! The tengen player and tools: Monte Carlo tree search, time control, the GTP engine session,
//! the match and tournament runner and the benchmark. `main.rs` only parses the command line.
//!
//! Unsafe code is denied but for three calls, each allowed where it stands with its reason: the
//! search tree's zeroed arena and the machine's memory size (`search/tree.rs`), and the
//! process's CPU time for `cputime` (`gtp_engine/time.rs`).

#![deny(unsafe_code)]

pub mod arena;
pub mod bench;
pub mod cli;
pub mod clock;
pub mod gtp_engine;
pub mod match_runner;
pub mod player;
pub mod search;
pub mod sgf;
pub mod tournament;
pub mod train_patterns;
pub mod user_files;
