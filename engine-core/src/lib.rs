//! The rules of Go for tengen, in two layers (as Fuego and KataGo split them):
//!
//! * [`Board`]: a fast, `Copy` board for playouts. Chains, exact liberty counts and the sum of
//!   liberty positions (so the last liberty of a chain in atari is known in O(1)) are updated
//!   incrementally; stones are mirrored in [`Bitboard`]s for region work (scoring). Simple ko only.
//!   Nothing in it allocates.
//! * [`Game`]: the game record on top of a board: move history, superko, passes, resignation,
//!   handicap, undo, komi and area scoring under the configured [`Rules`].
//!
//! Points are mailbox indices with a one-point guard frame ([`Point`]); [`Geometry`] converts
//! them to and from GTP vertices such as `D4`.

#![forbid(unsafe_code)]

mod bitboard;
mod board;
mod color;
mod error;
mod game;
mod geometry;
mod handicap;
mod playout;
mod rules;
mod score;
mod seki;
mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use color::Color;
pub use error::{MoveError, SetupError};
pub use game::{is_valid_komi, Game, MAX_KOMI};
pub use geometry::{Geometry, Move, Point, VertexError, MAX_CELLS, MAX_SIZE, MIN_SIZE};
pub use handicap::fixed_handicap;
pub use playout::{light_playout, random_light_move, PlayoutResult};
pub use rules::{KoRule, Rules};
pub use score::Score;
pub use seki::seki_stones;
pub use zobrist::stone_key;
