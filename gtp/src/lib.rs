//! Go Text Protocol (GTP v2) for tengen.
//!
//! The engine side knows nothing of search: [`preprocess`] cleans input lines as section 3.1
//! of the specification says, [`command`] splits them into id, name and arguments, [`args`]
//! parses arguments, [`response`] frames answers, [`error`] holds the standard failure texts and
//! [`input`] reads the controller's stream on its own thread so long commands can be
//! interrupted. The controller side ([`controller`]) drives another engine.

#![forbid(unsafe_code)]

pub mod args;
pub mod command;
pub mod controller;
pub mod error;
pub mod input;
pub mod preprocess;
pub mod response;

pub use command::Command;
pub use error::GtpError;
pub use input::{Input, InputReader, StopOn};
