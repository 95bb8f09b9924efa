//! Why a move or a setup was refused.

use std::fmt;

/// Every reason a move can be illegal. GTP answers all of them with `illegal move`; the
/// referee of the match runner records the precise one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The vertex is outside the board.
    OffBoard,
    /// A stone already stands there.
    Occupied,
    /// The stone would have no liberty and captures nothing.
    Suicide,
    /// Immediate recapture of a single-stone ko.
    Ko,
    /// The move recreates an earlier whole-board position (positional or situational).
    Superko,
    /// The game has ended by resignation.
    GameOver,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::OffBoard => "off board",
            MoveError::Occupied => "point occupied",
            MoveError::Suicide => "suicide",
            MoveError::Ko => "ko recapture",
            MoveError::Superko => "superko: position repeats",
            MoveError::GameOver => "game is over",
        })
    }
}

impl std::error::Error for MoveError {}

/// Why a handicap placement or board size was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// Board size outside 2..=25.
    UnacceptableSize,
    /// Handicap stones go on an empty board only.
    BoardNotEmpty,
    /// Fixed handicap: the number of stones has no standard placement on this size.
    InvalidHandicap,
    /// Free handicap: repeated, off-board or too many vertices.
    BadVertexList,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SetupError::UnacceptableSize => "unacceptable size",
            SetupError::BoardNotEmpty => "board not empty",
            SetupError::InvalidHandicap => "invalid number of stones",
            SetupError::BadVertexList => "bad vertex list",
        })
    }
}

impl std::error::Error for SetupError {}
