//! Why a move or a setup was refused.

use thiserror::Error;

/// Every reason a move can be illegal. GTP answers all of them with `illegal move`; the
/// referee of the match runner records the precise one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The vertex is outside the board.
    #[error("off board")]
    OffBoard,
    /// A stone already stands there.
    #[error("point occupied")]
    Occupied,
    /// The stone would have no liberty and captures nothing.
    #[error("suicide")]
    Suicide,
    /// Immediate recapture of a single-stone ko.
    #[error("ko recapture")]
    Ko,
    /// The move recreates an earlier whole-board position (positional or situational).
    #[error("superko: position repeats")]
    Superko,
    /// The game has ended by resignation.
    #[error("game is over")]
    GameOver,
}

/// Why a handicap placement or board size was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    /// Board size outside 2..=25.
    #[error("unacceptable size")]
    UnacceptableSize,
    /// Handicap stones go on an empty board only.
    #[error("board not empty")]
    BoardNotEmpty,
    /// Fixed handicap: the number of stones has no standard placement on this size.
    #[error("invalid number of stones")]
    InvalidHandicap,
    /// Free handicap: repeated, off-board or too many vertices.
    #[error("bad vertex list")]
    BadVertexList,
}
