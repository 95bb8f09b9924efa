//! Points, moves and board geometry.
//!
//! A point is a mailbox index: `(row + 1) * stride + col + 1` with `stride = size + 1`. Column 0 of
//! every row stride is a guard shared by the row's two edges, and rows 0 and `size + 1` are guard
//! rows, so the four neighbours `p ± 1`, `p ± stride` and the four diagonals of any on-board point
//! are valid indices. The same layout, shifted down by one stride, is the bit layout of
//! [`Bitboard`](crate::Bitboard).

/// Smallest board GTP may ask for.
pub const MIN_SIZE: usize = 2;
/// Largest board GTP can address (25 letters without `I`).
pub const MAX_SIZE: usize = 25;
/// Mailbox cells for the largest board, guard frame included.
pub const MAX_CELLS: usize = (MAX_SIZE + 2) * (MAX_SIZE + 1) + 2;

/// Column letters used by GTP and most GUIs: `I` is skipped.
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A board point as a mailbox index (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(transparent)]
pub struct Point(pub u16);

impl Point {
    /// Index into per-point arrays.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A move: a stone on a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Play(Point),
    Pass,
}

/// Size-dependent coordinate arithmetic: a `Copy` value every board carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    size: u8,
    stride: u8,
}

impl Geometry {
    /// The geometry of a `size` x `size` board, or `None` outside 2..=25.
    pub fn new(size: usize) -> Option<Geometry> {
        (MIN_SIZE..=MAX_SIZE).contains(&size).then(|| Geometry {
            size: size as u8,
            stride: size as u8 + 1,
        })
    }

    /// Board side length.
    #[inline]
    pub fn size(self) -> usize {
        self.size as usize
    }

    /// Distance between vertically adjacent points.
    #[inline]
    pub fn stride(self) -> usize {
        self.stride as usize
    }

    /// Number of mailbox cells used, guard frame included.
    #[inline]
    pub fn cells(self) -> usize {
        (self.size() + 2) * self.stride() + 2
    }

    /// Number of on-board points.
    #[inline]
    pub fn area(self) -> usize {
        self.size() * self.size()
    }

    /// The point at `col` (0 = A) and `row` (0 = bottom), if on the board.
    #[inline]
    pub fn point(self, col: usize, row: usize) -> Option<Point> {
        (col < self.size() && row < self.size())
            .then(|| Point(((row + 1) * self.stride() + col + 1) as u16))
    }

    /// Column and row (both from 0) of an on-board point.
    #[inline]
    pub fn coords(self, p: Point) -> (usize, usize) {
        let i = p.index();
        (i % self.stride() - 1, i / self.stride() - 1)
    }

    /// Whether a mailbox index is an on-board point.
    #[inline]
    pub fn contains(self, p: Point) -> bool {
        let i = p.index();
        let col = i % self.stride();
        let row = i / self.stride();
        col >= 1 && row >= 1 && row <= self.size()
    }

    /// All on-board points, bottom row first.
    pub fn points(self) -> impl Iterator<Item = Point> {
        let g = self;
        (0..g.size()).flat_map(move |row| (0..g.size()).map(move |col| g.point(col, row).unwrap()))
    }

    /// The four orthogonal neighbour indices (possibly guard cells).
    #[inline]
    pub fn neighbors(self, p: Point) -> [Point; 4] {
        let s = self.stride as u16;
        [
            Point(p.0 - s),
            Point(p.0 - 1),
            Point(p.0 + 1),
            Point(p.0 + s),
        ]
    }

    /// The four diagonal neighbour indices (possibly guard cells).
    #[inline]
    pub fn diagonals(self, p: Point) -> [Point; 4] {
        let s = self.stride as u16;
        [
            Point(p.0 - s - 1),
            Point(p.0 - s + 1),
            Point(p.0 + s - 1),
            Point(p.0 + s + 1),
        ]
    }

    /// Bit index of an on-board point in a [`Bitboard`](crate::Bitboard).
    #[inline]
    pub fn bit(self, p: Point) -> usize {
        p.index() - self.stride()
    }

    /// The point of a bitboard bit.
    #[inline]
    pub fn point_of_bit(self, bit: usize) -> Point {
        Point((bit + self.stride()) as u16)
    }

    /// GTP text of a point, such as `D4` or `T19`.
    pub fn vertex(self, p: Point) -> String {
        let (col, row) = self.coords(p);
        format!("{}{}", COLUMNS[col] as char, row + 1)
    }

    /// GTP text of a move (`pass` for a pass).
    pub fn move_text(self, m: Move) -> String {
        match m {
            Move::Pass => "pass".to_string(),
            Move::Play(p) => self.vertex(p),
        }
    }

    /// Parses a GTP vertex (`d4`, `Q16`, case-insensitive, no `I`) or `pass`.
    pub fn parse_move(self, text: &str) -> Result<Move, VertexError> {
        if text.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        let bytes = text.as_bytes();
        let (&letter, digits) = bytes.split_first().ok_or(VertexError::Syntax)?;
        let letter = letter.to_ascii_uppercase();
        let col = COLUMNS
            .iter()
            .position(|&c| c == letter)
            .ok_or(VertexError::Syntax)?;
        if digits.is_empty() || digits.len() > 3 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(VertexError::Syntax);
        }
        let row: usize = std::str::from_utf8(digits)
            .ok()
            .and_then(|d| d.parse().ok())
            .ok_or(VertexError::Syntax)?;
        if row == 0 {
            return Err(VertexError::Syntax);
        }
        self.point(col, row - 1)
            .map(Move::Play)
            .ok_or(VertexError::OffBoard)
    }
}

/// Why a vertex could not be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VertexError {
    /// Not a vertex at all (`Z0`, `I5`, `hello`).
    #[error("invalid vertex")]
    Syntax,
    /// A well-formed vertex beyond this board's size (`T19` on 9x9).
    #[error("vertex off board")]
    OffBoard,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_round_trip_on_every_size() {
        for size in MIN_SIZE..=MAX_SIZE {
            let g = Geometry::new(size).unwrap();
            assert!(g.cells() <= MAX_CELLS);
            for p in g.points() {
                assert!(g.contains(p));
                let text = g.vertex(p);
                assert_eq!(g.parse_move(&text), Ok(Move::Play(p)));
                assert_eq!(g.parse_move(&text.to_lowercase()), Ok(Move::Play(p)));
            }
        }
    }

    #[test]
    fn bad_vertices_are_refused() {
        let g = Geometry::new(9).unwrap();
        assert_eq!(g.parse_move("PASS"), Ok(Move::Pass));
        for bad in ["", "I5", "A0", "A", "5A", "A-1", "AA1", "A1x", "é5"] {
            assert_eq!(g.parse_move(bad), Err(VertexError::Syntax), "{bad}");
        }
        assert_eq!(g.parse_move("K1"), Err(VertexError::OffBoard));
        assert_eq!(g.parse_move("A10"), Err(VertexError::OffBoard));
        assert_eq!(g.parse_move("A99999"), Err(VertexError::Syntax));
    }

    #[test]
    fn sizes_outside_the_range_are_refused() {
        for size in [0, 1, 26, 255, 256, 2_147_483_647, usize::MAX] {
            assert_eq!(Geometry::new(size), None);
        }
    }

    #[test]
    fn guard_cells_are_not_points() {
        let g = Geometry::new(9).unwrap();
        let on_board = g.points().count();
        let all = (0..g.cells())
            .filter(|&i| g.contains(Point(i as u16)))
            .count();
        assert_eq!(on_board, 81);
        assert_eq!(all, 81);
    }
}
