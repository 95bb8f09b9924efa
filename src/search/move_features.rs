//! What the learned move model sees of a candidate move (the features of Coulom's "Computing
//! Elo ratings of move patterns", 2007): its 3x3 shape, its larger diamond shape (radius 2,
//! with the liberties of the adjacent chains) and its wide diamond (radius 3, stones only)
//! from the mover's side, up to the eight symmetries of the square; captures, ataris, atari
//! escapes (ladders read), self-atari; the distance to the last two moves; and, in an empty
//! area, where the point lies (its line, and how far along it from the corner on the third
//! and fourth lines). The priors weigh them with [`MoveModel`](super::move_model::MoveModel);
//! `tengen train-patterns` learns the weights.

use super::{ladder, patterns};
use engine_core::{Board, Color, Point};
use std::sync::OnceLock;

/// Feature groups: a move has one value in each (0 = absent, except for the shape).
pub const GROUPS: usize = 10;
/// The group names, as the weights file writes them.
pub const GROUP_NAMES: [&str; GROUPS] = [
    "shape",
    "big_shape",
    "wide_shape",
    "capture",
    "escape",
    "atari",
    "self_atari",
    "distance_last",
    "distance_second",
    "empty_area",
];
pub const SHAPE: usize = 0;
pub const BIG_SHAPE: usize = 1;
pub const WIDE_SHAPE: usize = 2;
pub const CAPTURE: usize = 3;
pub const ESCAPE: usize = 4;
pub const ATARI: usize = 5;
pub const SELF_ATARI: usize = 6;
pub const DISTANCE_LAST: usize = 7;
pub const EMPTY_AREA: usize = 9;
/// Values of the empty-area group that the hand-set priors read: the first and second lines,
/// and the third line from the 3-3 point to the side.
pub const EMPTY_FIRST_LINE: u32 = 1;
pub const EMPTY_SECOND_LINE: u32 = 2;
pub const EMPTY_THIRD_LINE_FROM: u32 = 4;
pub const EMPTY_THIRD_LINE_TO: u32 = 7;
/// The atari group's value for an atari that the ladder reader sees catch its chain.
pub const ATARI_CAUGHT: u32 = 1;
/// The escape group's value for extending a chain in atari that the ladder reader sees caught.
pub const ESCAPE_CAUGHT: u32 = 2;
/// Whether a group's values are shape codes (any number) rather than small values.
pub const fn is_shape(group: usize) -> bool {
    group <= WIDE_SHAPE
}
/// Values a group other than the shapes can take, 0 included.
pub const VALUES: usize = 16;

/// The value of a move in each group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Features(pub [u32; GROUPS]);

/// The features of `c` playing the empty, legal point `p`; `last` are the last two moves.
pub fn of(board: &Board, c: Color, p: Point, last: [Option<Point>; 2]) -> Features {
    let (captured, own_in_atari) = captures_and_own_atari(board, c, p);
    let escape = match (own_in_atari, captured) {
        (false, _) => 0,
        (true, 1..) => 3,
        (true, 0) if ladder::extension_is_caught(board, c, p) => ESCAPE_CAUGHT,
        (true, 0) => 1,
    };
    Features([
        shape(board, c, p) as u32,
        big_shape(board, c, p),
        wide_shape(board, c, p),
        size_class(captured),
        escape,
        atari(board, c, p),
        self_atari(board, c, p, captured),
        distance(board, p, last[0]),
        distance(board, p, last[1]),
        empty_area(board, p),
    ])
}

/// Stones taken or caught: 0 none, 1 one, 2 two or three, 3 four or more.
fn size_class(stones: u32) -> u32 {
    match stones {
        0 => 0,
        1 => 1,
        2 | 3 => 2,
        _ => 3,
    }
}

/// The 3x3 neighbourhood of `p` with the mover's stones as Black, in its canonical orientation.
fn shape(board: &Board, c: Color, p: Point) -> u16 {
    canonical_shapes()[mover_neighborhood(board, c, p) as usize]
}

/// The 3x3 neighbourhood code of `p` with the mover's stones as Black.
fn mover_neighborhood(board: &Board, c: Color, p: Point) -> u16 {
    match c {
        Color::Black => board.neighborhood(p),
        Color::White => swap_colors(board.neighborhood(p)),
    }
}

/// The stones `c` playing `p` captures, and whether a chain of `c` next to `p` is in atari.
fn captures_and_own_atari(board: &Board, c: Color, p: Point) -> (u32, bool) {
    let (mut heads, mut seen) = ([Point(0); 4], 0);
    let (mut captured, mut own_in_atari) = (0, false);
    for n in board.geometry().neighbors(p) {
        match board.color_at(n) {
            Some(owner) if board.in_atari(n) => {
                if owner == c {
                    own_in_atari = true;
                } else {
                    let head = board.chain_head(n);
                    if !heads[..seen].contains(&head) {
                        heads[seen] = head;
                        seen += 1;
                        captured += board.chain_size(n);
                    }
                }
            }
            _ => {}
        }
    }
    (captured, own_in_atari)
}

/// Atari: 0 none, 1 an atari the ladder reader says catches the chain, 2 another atari.
fn atari(board: &Board, c: Color, p: Point) -> u32 {
    let gives_atari = board
        .geometry()
        .neighbors(p)
        .into_iter()
        .any(|n| board.color_at(n) == Some(c.opponent()) && board.chain_liberties(n) == 2);
    match gives_atari {
        false => 0,
        true if ladder::atari_catches(board, c, p) > 0 => ATARI_CAUGHT,
        true => 2,
    }
}

/// Self-atari: 0 none, 1 a chain of two or more stones left with one liberty, 2 a lone stone
/// with one liberty (a throw-in, or a blunder).
fn self_atari(board: &Board, c: Color, p: Point, captured: u32) -> u32 {
    if board.is_self_atari(c, p) {
        return 1;
    }
    let lone = captured == 0
        && board.empty_neighbor_count(p) == 1
        && board
            .geometry()
            .neighbors(p)
            .into_iter()
            .all(|n| board.color_at(n) != Some(c));
    if lone {
        2
    } else {
        0
    }
}

/// Coulom's distance dx + dy + max(dx, dy) to `to`, less one (1..=15); 0 when it is 17 or
/// more, or there is no such move.
fn distance(board: &Board, p: Point, to: Option<Point>) -> u32 {
    let Some(to) = to else { return 0 };
    let g = board.geometry();
    let ((px, py), (tx, ty)) = (g.coords(p), g.coords(to));
    let (dx, dy) = (px.abs_diff(tx), py.abs_diff(ty));
    match dx + dy + dx.max(dy) {
        d @ 2..=16 => d as u32 - 1,
        _ => 0,
    }
}

/// Where `p` lies when no stone stands within Manhattan distance 3 (0 otherwise): 1 and 2 the
/// first and second lines, 3 the fifth line and beyond; on the third line 4 the 3-3 point, 5
/// the 3-4, 6 the 3-5 and 7 the side; on the fourth line 8 the 4-4 point, 9 the 4-5 and 10 the
/// side. The line alone cannot tell a corner from a side, where strong players start.
fn empty_area(board: &Board, p: Point) -> u32 {
    let g = board.geometry();
    let (x, y) = g.coords(p);
    let size = g.size() as i64;
    for dy in -3i64..=3 {
        for dx in -3i64..=3 {
            if dx.abs() + dy.abs() > 3 {
                continue;
            }
            let (qx, qy) = (x as i64 + dx, y as i64 + dy);
            if (0..size).contains(&qx) && (0..size).contains(&qy) {
                let q = g.point(qx as usize, qy as usize).expect("inside the board");
                if board.color_at(q).is_some() {
                    return 0;
                }
            }
        }
    }
    let size = g.size();
    let (from_x, from_y) = (x.min(size - 1 - x), y.min(size - 1 - y));
    let (line, along) = (from_x.min(from_y), from_x.max(from_y));
    match (line, along) {
        (0, _) => EMPTY_FIRST_LINE,
        (1, _) => EMPTY_SECOND_LINE,
        (2, 2..=4) => EMPTY_THIRD_LINE_FROM + along as u32 - 2,
        (2, _) => EMPTY_THIRD_LINE_TO,
        (3, 3..=4) => 5 + along as u32,
        (3, _) => 10,
        _ => 3,
    }
}

/// The cells of the big shape as (column, row) offsets: the 3x3 neighbourhood in the order of
/// [`Board::neighborhood_points`], then the four points two lines away.
const BIG_OFFSETS: [(i32, i32); 12] = {
    let mut all = [(0, 0); 12];
    let mut i = 0;
    while i < 8 {
        all[i] = patterns::OFFSETS[i];
        i += 1;
    }
    all[8] = (0, -2);
    all[9] = (-2, 0);
    all[10] = (2, 0);
    all[11] = (0, 2);
    all
};
/// The cells next to the centre, whose chains' liberties the big shape records.
const ADJACENT: [usize; 4] = [1, 3, 4, 6];

/// The diamond of radius 2 around `p` from the mover's side, in its canonical orientation:
/// two bits a cell (empty, mover, opponent, off board), then two bits for the liberties of
/// each adjacent chain (none, 1, 2, 3 or more).
fn big_shape(board: &Board, c: Color, p: Point) -> u32 {
    let at = coords(board, p);
    // The 3x3 part is the board's kept code; its cell order is the big shape's.
    let near = mover_neighborhood(board, c, p);
    let around = board.neighborhood_points(p);
    let mut cells = [0u8; 16];
    for (i, slot) in cells.iter_mut().enumerate().take(8) {
        *slot = (near >> (2 * i) & 3) as u8;
    }
    for i in 8..12 {
        cells[i] = cell(board, c, at, BIG_OFFSETS[i]);
    }
    for (n, &i) in ADJACENT.iter().enumerate() {
        if matches!(cells[i], 1 | 2) {
            cells[12 + n] = board.chain_liberties(around[i]).min(3) as u8;
        }
    }
    static TABLE: OnceLock<Orientations<16>> = OnceLock::new();
    let table = TABLE.get_or_init(|| Orientations::new(&big_fields()));
    table.canonical(&cells) as u32
}

/// The column and row of `p`, signed for offsets.
fn coords(board: &Board, p: Point) -> (i32, i32) {
    let (x, y) = board.geometry().coords(p);
    (x as i32, y as i32)
}

/// The cell at offset `(dx, dy)` from `(x, y)`, from the mover's side: 0 empty, 1 the mover's
/// stone, 2 the opponent's, 3 off the board.
fn cell(board: &Board, c: Color, (x, y): (i32, i32), (dx, dy): (i32, i32)) -> u8 {
    let g = board.geometry();
    let size = g.size() as i32;
    let (qx, qy) = (x + dx, y + dy);
    if !(0..size).contains(&qx) || !(0..size).contains(&qy) {
        return 3;
    }
    match board.color_at(g.point(qx as usize, qy as usize).expect("inside the board")) {
        None => 0,
        Some(owner) if owner == c => 1,
        Some(_) => 2,
    }
}

/// For each symmetry, the cell of a symmetric set of `offsets` that lands in each cell.
fn permutations<const N: usize>(offsets: &[(i32, i32); N]) -> [[usize; N]; 8] {
    std::array::from_fn(|k| {
        std::array::from_fn(|i| {
            let (x, y) = offsets[i];
            let image = patterns::symmetry(k, x, y);
            offsets
                .iter()
                .position(|&o| o == image)
                .expect("the diamond is symmetric")
        })
    })
}

/// For each symmetry, the cell in which each cell of a symmetric set of `offsets` lands.
fn fields<const N: usize>(offsets: &[(i32, i32); N]) -> [[usize; N]; 8] {
    permutations(offsets).map(|from| {
        let mut to = [0; N];
        for (i, &j) in from.iter().enumerate() {
            to[j] = i;
        }
        to
    })
}

/// The big shape's fields: its twelve cells, then the liberties of the chain on each adjacent
/// cell, which move with that cell.
fn big_fields() -> [[usize; 16]; 8] {
    fields(&BIG_OFFSETS).map(|cell_to| {
        std::array::from_fn(|i| match i {
            0..12 => cell_to[i],
            _ => {
                let lands = cell_to[ADJACENT[i - 12]];
                12 + ADJACENT
                    .iter()
                    .position(|&a| a == lands)
                    .expect("adjacent stays adjacent")
            }
        })
    })
}

/// The codes of a shape under the eight symmetries, built in one pass over its cells: for each
/// cell and value, the bits it sets in every orientation's code. A cell ORs one row of eight
/// codes (eight ORs) instead of the cells being gathered eight times over.
struct Orientations<const N: usize>([[[u64; 8]; 4]; N]);

impl<const N: usize> Orientations<N> {
    /// `fields[k][i]`: the two-bit field of the `k`-th orientation's code that cell `i` fills.
    fn new(fields: &[[usize; N]; 8]) -> Self {
        Self(std::array::from_fn(|i| {
            std::array::from_fn(|v| std::array::from_fn(|k| (v as u64) << (2 * fields[k][i])))
        }))
    }

    /// The smallest of the codes of `cells` (values 0 to 3) under the eight symmetries.
    fn canonical(&self, cells: &[u8; N]) -> u64 {
        let mut codes = [0u64; 8];
        for (row, &v) in self.0.iter().zip(cells) {
            for (code, bits) in codes.iter_mut().zip(&row[v as usize & 3]) {
                *code |= bits;
            }
        }
        codes.into_iter().min().expect("8 orientations")
    }
}

/// The cells of the wide shape: every point within Manhattan distance 3 but the centre.
const WIDE_OFFSETS: [(i32, i32); 24] = {
    let mut all = [(0, 0); 24];
    let (mut i, mut dy) = (0, -3);
    while dy <= 3 {
        let mut dx = -3;
        while dx <= 3 {
            let d = if dx < 0 { -dx } else { dx } + if dy < 0 { -dy } else { dy };
            if d >= 1 && d <= 3 {
                all[i] = (dx, dy);
                i += 1;
            }
            dx += 1;
        }
        dy += 1;
    }
    all
};

/// The diamond of radius 3 around `p` from the mover's side, stones only (two bits a cell:
/// empty, mover, opponent, off board), in its canonical orientation, hashed to 32 bits.
fn wide_shape(board: &Board, c: Color, p: Point) -> u32 {
    let at = coords(board, p);
    let cells: [u8; 24] = std::array::from_fn(|i| cell(board, c, at, WIDE_OFFSETS[i]));
    static TABLE: OnceLock<Orientations<24>> = OnceLock::new();
    let canonical = TABLE
        .get_or_init(|| Orientations::new(&fields(&WIDE_OFFSETS)))
        .canonical(&cells);
    // Fibonacci hashing: some 65,000 learned shapes among 2^32 values seldom collide.
    (canonical.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as u32
}

/// Exchanges black and white in a neighbourhood code (off-board cells stay).
fn swap_colors(code: u16) -> u16 {
    let black = code & 0x5555;
    let white = code & 0xAAAA;
    let edge = black & (white >> 1);
    let black_only = black & !edge;
    let white_only = (white >> 1) & !edge;
    (edge | edge << 1) | black_only << 1 | white_only
}

/// For each code, the smallest code among its eight orientations.
fn canonical_shapes() -> &'static [u16] {
    static TABLE: OnceLock<Box<[u16]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..=u16::MAX)
            .map(|code| {
                (0..8)
                    .map(|k| transform(code, k))
                    .min()
                    .expect("8 orientations")
            })
            .collect()
    })
}

/// A neighbourhood code under the `k`-th symmetry of the square.
fn transform(code: u16, k: usize) -> u16 {
    let mut out = 0;
    for (slot, &(x, y)) in patterns::OFFSETS.iter().enumerate() {
        let cell = (code >> (2 * slot)) & 3;
        let (tx, ty) = patterns::symmetry(k, x, y);
        out |= cell << (2 * patterns::slot_of(tx, ty));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_swap_keeps_the_edge_and_is_an_involution() {
        // Cells: black, white, edge, empty in slots 0..4.
        let code = 1 | 2 << 2 | 3 << 4;
        assert_eq!(swap_colors(code), 2 | 1 << 2 | 3 << 4);
        for code in [0u16, 0x1234, 0xFFFF, 0xA5A5] {
            assert_eq!(swap_colors(swap_colors(code)), code);
        }
    }

    #[test]
    fn orientations_share_one_canonical_shape() {
        let code = 1 | 2 << 2; // black below-left, white below
        let canonical = canonical_shapes()[code as usize];
        for k in 0..8 {
            assert_eq!(canonical_shapes()[transform(code, k) as usize], canonical);
        }
        // The corner stone stays a corner stone: the other colouring is another shape.
        assert_ne!(canonical_shapes()[swap_colors(code) as usize], canonical);
    }

    #[test]
    fn features_of_a_capture_and_the_distance_to_the_last_move() {
        let mut board = Board::with_size(9).unwrap();
        let g = board.geometry();
        let at = |v: &str| match g.parse_move(v).unwrap() {
            engine_core::Move::Play(p) => p,
            engine_core::Move::Pass => unreachable!(),
        };
        // A white stone on E5 with three black neighbours: E4 captures it.
        for v in ["D5", "F5", "E6"] {
            board.play(Color::Black, at(v));
        }
        board.play(Color::White, at("E5"));
        let f = of(&board, Color::Black, at("E4"), [Some(at("E5")), None]);
        assert_eq!(f.0[CAPTURE], 1, "captures one stone");
        assert_eq!(f.0[DISTANCE_LAST], 1, "next to the last move");
        assert_eq!(f.0[DISTANCE_LAST + 1], 0, "no second-last move");
        assert_eq!(f.0[EMPTY_AREA], 0, "not an empty area");
        let far = of(&board, Color::Black, at("A1"), [Some(at("J9")), None]);
        assert_eq!(far.0[DISTANCE_LAST], 0, "too far to count");
        assert_eq!(far.0[EMPTY_AREA], 1, "first line of an empty area");
        // The same capture seen from the other corner of the board has the same big shape.
        let mut mirrored = Board::with_size(9).unwrap();
        for v in ["F5", "D5", "E4"] {
            mirrored.play(Color::Black, at(v));
        }
        mirrored.play(Color::White, at("E5"));
        assert_eq!(big_shape(&mirrored, Color::Black, at("E6")), f.0[BIG_SHAPE]);
        assert_ne!(big_shape(&mirrored, Color::White, at("E6")), f.0[BIG_SHAPE]);
        assert_eq!(
            wide_shape(&mirrored, Color::Black, at("E6")),
            f.0[WIDE_SHAPE]
        );
        assert_ne!(
            wide_shape(&mirrored, Color::White, at("E6")),
            f.0[WIDE_SHAPE]
        );
    }

    #[test]
    fn empty_areas_tell_corners_from_sides() {
        let board = Board::with_size(19).unwrap();
        let g = board.geometry();
        for (vertex, value) in [
            ("A1", 1),
            ("B5", 2),
            ("K10", 3),
            ("C3", 4),
            ("C4", 5),
            ("E3", 6),
            ("K3", 7),
            ("Q16", 8),
            ("E4", 9),
            ("D10", 10),
        ] {
            let engine_core::Move::Play(p) = g.parse_move(vertex).unwrap() else {
                unreachable!()
            };
            assert_eq!(empty_area(&board, p), value, "{vertex}");
        }
    }

    proptest::proptest! {
        /// The codes built in one pass are the smallest of the eight gathered one symmetry
        /// at a time, the liberties of the big shape moving with their cells.
        #[test]
        fn one_pass_orientations_match_the_gathered_codes(
            wide in proptest::array::uniform24(0u8..4),
            big in proptest::array::uniform16(0u8..4),
        ) {
            let wide_plain = permutations(&WIDE_OFFSETS)
                .iter()
                .map(|from| {
                    (0..24).fold(0u64, |code, i| code | (wide[from[i]] as u64) << (2 * i))
                })
                .min();
            let wide_fast = Orientations::new(&fields(&WIDE_OFFSETS)).canonical(&wide);
            proptest::prop_assert_eq!(Some(wide_fast), wide_plain);
            let mut liberties = [0u64; 12];
            for (m, &i) in ADJACENT.iter().enumerate() {
                liberties[i] = big[12 + m] as u64;
            }
            let big_plain = permutations(&BIG_OFFSETS)
                .iter()
                .map(|from| {
                    let cells = (0..12).fold(0u64, |code, i| code | (big[from[i]] as u64) << (2 * i));
                    ADJACENT.iter().enumerate().fold(cells, |code, (n, &i)| {
                        code | liberties[from[i]] << (24 + 2 * n)
                    })
                })
                .min();
            let big_fast = Orientations::new(&big_fields()).canonical(&big);
            proptest::prop_assert_eq!(Some(big_fast), big_plain);
        }

        /// Every feature but the ladder-read ones is the same for a position and its image
        /// under a symmetry of the board: the model sees shapes, not orientations.
        #[test]
        fn features_do_not_depend_on_the_orientation(
            moves in proptest::collection::vec(0usize..81, 0..60),
            k in 0usize..8,
        ) {
            let size = 9;
            let mut board = Board::with_size(size).unwrap();
            let mut image = Board::with_size(size).unwrap();
            let g = board.geometry();
            let mirror = |p: Point| {
                let (x, y) = g.coords(p);
                let h = (size as i32 - 1) / 2;
                let (tx, ty) = patterns::symmetry(k, x as i32 - h, y as i32 - h);
                g.point((tx + h) as usize, (ty + h) as usize).unwrap()
            };
            let mut color = Color::Black;
            let mut last = [None, None];
            for m in moves {
                let p = g.point(m % size, m / size).unwrap();
                if board.is_legal(color, p) {
                    board.play(color, p);
                    image.play(color, mirror(p));
                    last = [Some(p), last[0]];
                    color = color.opponent();
                }
            }
            let image_last = last.map(|l| l.map(mirror));
            for p in g.points().filter(|&p| board.is_legal(color, p)) {
                let a = of(&board, color, p, last).0;
                let b = of(&image, color, mirror(p), image_last).0;
                let groups = [
                    SHAPE, BIG_SHAPE, WIDE_SHAPE, CAPTURE, SELF_ATARI, DISTANCE_LAST,
                    DISTANCE_LAST + 1, EMPTY_AREA,
                ];
                for group in groups {
                    proptest::prop_assert_eq!(a[group], b[group], "group {} at {:?}", group, p);
                }
            }
        }
    }
}
