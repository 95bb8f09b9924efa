//! placeholder
pub mod controller;
