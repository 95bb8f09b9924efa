//! Monte Carlo tree search: the player behind `genmove`, analysis and dead-stone estimation.

mod config;

pub use config::SearchConfig;
