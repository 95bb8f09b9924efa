//! The fast playout board: stones, chains with exact liberty counts, simple ko, Zobrist hash.
//!
//! Each chain is a circular list of its stones (`next`) with every stone pointing at the chain's
//! head; the head holds the chain's size, its exact number of liberties and the sum of their
//! indices, so a chain in atari names its last liberty in O(1). A merge relabels the smaller
//! chain and splices the two lists (a new stone joining one chain takes a shortcut: its empty
//! neighbours share their other neighbours among themselves); a capture walks the captured list
//! and credits each distinct neighbouring chain once per freed point. Empty points are kept in a
//! list with an index map for O(1) random sampling; a playout's scan of that list remembers on
//! each point the colours it was no candidate for, until a move nearby could change that. Every
//! point's 3x3 neighbourhood code, which the playouts' patterns look up, is kept up to date as
//! stones come and go (eight toggles a stone) rather than read from the cells around on each
//! look-up. Everything lives in fixed arrays: the board is `Copy` and no method allocates.
//!
//! In a random playout the colours around a move are coin flips, and mispredicted branches, not
//! instructions, take most of a move's time: the hot paths gather such tests into bit masks or
//! sums and branch once on the result (see `play` and `merge`).

use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::geometry::{Geometry, Point, MAX_CELLS, MAX_SIZE};
use crate::zobrist;

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const OFF_BOARD: u8 = 3;

/// Units of the packed neighbour counts in [`Cell::neighbors`].
const EMPTY_UNIT: u8 = 1;
const BLACK_UNIT: u8 = 1 << 3;
const EDGE_UNIT: u8 = 1 << 6;

/// How a neighbour's packed counts change when a stone of colour `c` appears on an empty point
/// (wrapping: subtract it when the stone disappears).
#[inline]
fn stone_delta(c: Color) -> u8 {
    match c {
        Color::Black => BLACK_UNIT.wrapping_sub(EMPTY_UNIT),
        Color::White => 0u8.wrapping_sub(EMPTY_UNIT),
    }
}

#[inline]
fn code(c: Color) -> u8 {
    c as u8 + 1
}

/// One mailbox cell. The chain fields (`size`, `libs`, `lib_sum`) are meaningful at heads only.
#[derive(Clone, Copy, Debug, Default)]
struct Cell {
    color: u8,
    /// Neighbour counts packed as `empty | black << 3 | edge << 6` (white is the rest of 4);
    /// kept for every on-board cell, garbage on guards.
    neighbors: u8,
    /// Head of the chain this stone belongs to; 0 (a guard cell) for empty points.
    head: u16,
    /// Next stone of the same chain (circular).
    next: u16,
    /// Position in `empties` while the point is empty.
    empty_pos: u16,
    size: u16,
    libs: u16,
    /// Sum of the liberties' indices, wrapping: exact (the last liberty) whenever `libs` is 1.
    lib_sum: u16,
    /// Colours (bit `Color::index`) for which this empty point was found no playout candidate;
    /// see [`Board::is_playout_candidate_remembered`]. Zero on stones and guards.
    rejected: u8,
}

/// Cell slots: a power of two above [`MAX_CELLS`], so that masking an index proves it in bounds
/// and the compiler drops the bounds checks on the hot path (about 10% of the instructions of a
/// playout). Slots past the board stay guard cells.
const CELL_SLOTS: usize = 1024;
const _: () = assert!(MAX_CELLS <= CELL_SLOTS);

/// The mailbox, indexed modulo [`CELL_SLOTS`].
#[derive(Clone, Copy)]
struct Cells([Cell; CELL_SLOTS]);

impl std::ops::Index<usize> for Cells {
    type Output = Cell;

    #[inline(always)]
    fn index(&self, i: usize) -> &Cell {
        &self.0[i & (CELL_SLOTS - 1)]
    }
}

impl std::ops::IndexMut<usize> for Cells {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut Cell {
        &mut self.0[i & (CELL_SLOTS - 1)]
    }
}

/// The 3x3 neighbourhood code of every cell (see [`Board::neighborhood`]), indexed like
/// [`Cells`]; garbage on guards. Kept up to date by every stone placed or taken, so that the
/// playouts' pattern test reads a code where it read the eight cells around.
#[derive(Clone, Copy)]
struct Neighborhoods([u16; CELL_SLOTS]);

impl Neighborhoods {
    #[inline(always)]
    fn get(&self, i: usize) -> u16 {
        self.0[i & (CELL_SLOTS - 1)]
    }

    /// Toggles the colour code `color` of a cell in the codes of the eight points `around` it
    /// (in the order of [`Board::neighborhood_points`]): the one at offset `i` sees the cell at
    /// the opposite offset, `7 - i`.
    #[inline(always)]
    fn toggle(&mut self, around: [Point; 8], color: u8) {
        for (i, q) in around.into_iter().enumerate() {
            self.0[q.index() & (CELL_SLOTS - 1)] ^= (color as u16) << (2 * (7 - i));
        }
    }
}

/// A Go position with simple ko, for playouts and tree search (see the module docs).
#[derive(Clone, Copy)]
pub struct Board {
    geometry: Geometry,
    /// The point an immediate single-stone recapture would be played on; 0 when none.
    ko: u16,
    /// Stones the last move captured, and one point of the last chain it took (0 when none).
    last_captured: u16,
    last_captured_at: u16,
    empty_count: u16,
    hash: u64,
    captures: [u32; 2],
    stones: [Bitboard; 2],
    on_board: Bitboard,
    empties: [Point; MAX_SIZE * MAX_SIZE],
    cells: Cells,
    neighborhoods: Neighborhoods,
}

impl Board {
    /// An empty board of the given geometry.
    pub fn new(geometry: Geometry) -> Board {
        let mut board = Board {
            geometry,
            ko: 0,
            last_captured: 0,
            last_captured_at: 0,
            empty_count: 0,
            hash: 0,
            captures: [0; 2],
            stones: [Bitboard::EMPTY; 2],
            on_board: Bitboard::EMPTY,
            empties: [Point(0); MAX_SIZE * MAX_SIZE],
            cells: Cells(
                [Cell {
                    color: OFF_BOARD,
                    ..Cell::default()
                }; CELL_SLOTS],
            ),
            neighborhoods: Neighborhoods([0; CELL_SLOTS]),
        };
        for p in geometry.points() {
            board.cells[p.index()].color = EMPTY;
            board.add_empty(p);
            board.on_board.set(geometry.bit(p));
        }
        for p in geometry.points() {
            board.cells[p.index()].neighbors = geometry
                .neighbors(p)
                .iter()
                .map(|&n| {
                    if board.is_empty(n) {
                        EMPTY_UNIT
                    } else {
                        EDGE_UNIT
                    }
                })
                .sum();
        }
        for p in geometry.points() {
            let mut code = 0u16;
            for (i, q) in board.neighborhood_points(p).iter().enumerate() {
                code |= (board.cells[q.index()].color as u16) << (2 * i);
            }
            board.neighborhoods.0[p.index()] = code;
        }
        board
    }

    /// An empty board of `size` x `size`, or `None` outside 2..=25.
    pub fn with_size(size: usize) -> Option<Board> {
        Geometry::new(size).map(Board::new)
    }

    #[inline]
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.geometry.size()
    }

    /// Zobrist hash of the stones (not of the ko point or the player to move).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones captured so far by `c`.
    pub fn captures(&self, c: Color) -> u32 {
        self.captures[c.index()]
    }

    /// The point where an immediate ko recapture is forbidden, if any.
    pub fn ko_point(&self) -> Option<Point> {
        (self.ko != 0).then_some(Point(self.ko))
    }

    /// What the last move captured: a point of the last chain it took (now empty) and the
    /// number of stones it took in all; `None` after a pass or a move that took nothing.
    pub fn last_capture(&self) -> Option<(Point, u32)> {
        (self.last_captured != 0)
            .then_some((Point(self.last_captured_at), u32::from(self.last_captured)))
    }

    /// The stone on `p`, or `None` for an empty point or a guard cell.
    #[inline]
    pub fn color_at(&self, p: Point) -> Option<Color> {
        match self.cells[p.index()].color {
            BLACK => Some(Color::Black),
            WHITE => Some(Color::White),
            _ => None,
        }
    }

    /// Whether `p` is an empty on-board point.
    #[inline]
    pub fn is_empty(&self, p: Point) -> bool {
        self.cells[p.index()].color == EMPTY
    }

    /// Whether `p` is an on-board point (empty or not).
    #[inline]
    pub fn is_on_board(&self, p: Point) -> bool {
        p.index() < MAX_CELLS && self.cells[p.index()].color != OFF_BOARD
    }

    /// Number of empty orthogonal neighbours of an on-board point.
    #[inline]
    pub fn empty_neighbor_count(&self, p: Point) -> u32 {
        (self.cells[p.index()].neighbors & 7) as u32
    }

    /// The empty points, in no particular order.
    #[inline]
    pub fn empty_points(&self) -> &[Point] {
        &self.empties[..self.empty_count as usize]
    }

    /// Stones of one colour.
    #[inline]
    pub fn stones(&self, c: Color) -> &Bitboard {
        &self.stones[c.index()]
    }

    /// All on-board points.
    #[inline]
    pub fn on_board(&self) -> &Bitboard {
        &self.on_board
    }

    /// Empty on-board points as a bitboard.
    pub fn empty_set(&self) -> Bitboard {
        self.on_board
            .and_not(&self.stones[0])
            .and_not(&self.stones[1])
    }

    /// Number of stones on the board.
    pub fn stone_count(&self) -> u32 {
        self.stones[0].count() + self.stones[1].count()
    }

    /// Head of the chain through the stone on `p` (all stones of a chain share it).
    #[inline]
    pub fn chain_head(&self, p: Point) -> Point {
        Point(self.cells[p.index()].head)
    }

    /// Exact liberty count of the chain through the stone on `p`.
    #[inline]
    pub fn chain_liberties(&self, p: Point) -> u32 {
        let h = self.cells[p.index()].head as usize;
        self.cells[h].libs as u32
    }

    /// Number of stones of the chain through the stone on `p`.
    #[inline]
    pub fn chain_size(&self, p: Point) -> u32 {
        let h = self.cells[p.index()].head as usize;
        self.cells[h].size as u32
    }

    /// The only liberty of the chain through `p` when it is in atari.
    #[inline]
    pub fn atari_point(&self, p: Point) -> Option<Point> {
        let head = &self.cells[self.cells[p.index()].head as usize];
        (head.libs == 1).then_some(Point(head.lib_sum))
    }

    /// Whether `p` holds a stone whose chain is in atari; false for empty points and guard cells
    /// (their head is the guard cell 0, which never has liberties). Branch-free, so that
    /// callers can test a whole neighbourhood and branch once on the result.
    #[inline]
    pub fn in_atari(&self, p: Point) -> bool {
        self.cells[self.cells[p.index()].head as usize].libs == 1
    }

    /// The stones of the chain through the stone on `p`.
    pub fn chain_stones(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        let head = self.cells[p.index()].head;
        let mut current = Some(head);
        std::iter::from_fn(move || {
            let s = current?;
            let next = self.cells[s as usize].next;
            current = (next != head).then_some(next);
            Some(Point(s))
        })
    }

    /// The liberties of the chain through the stone on `p`, found by walking its stones.
    pub fn chain_liberty_set(&self, p: Point) -> Bitboard {
        let mut libs = Bitboard::EMPTY;
        for s in self.chain_stones(p) {
            for n in self.geometry.neighbors(s) {
                if self.is_empty(n) {
                    libs.set(self.geometry.bit(n));
                }
            }
        }
        libs
    }

    /// Whether `c` playing on the empty point `p` would leave its new chain without liberty and
    /// capture nothing.
    #[inline]
    pub fn is_suicide(&self, c: Color, p: Point) -> bool {
        let me = code(c);
        for n in self.geometry.neighbors(p) {
            let cell = &self.cells[n.index()];
            match cell.color {
                EMPTY => return false,
                OFF_BOARD => {}
                color => {
                    let libs = self.cells[cell.head as usize].libs;
                    if (color == me) == (libs > 1) {
                        return false;
                    }
                }
            }
        }
        true
    }

    /// Whether `c` may play on `p` under simple ko with suicide forbidden.
    #[inline]
    pub fn is_legal(&self, c: Color, p: Point) -> bool {
        self.is_empty(p) && p.0 != self.ko && !self.is_suicide(c, p)
    }

    /// Whether `p` is an eye of `c` that a playout must not fill: all four neighbours are `c`
    /// (or the edge), and the diagonals do not make it false (at most one enemy diagonal in the
    /// centre, none on the edge).
    #[inline]
    pub fn is_eye(&self, c: Color, p: Point) -> bool {
        let me = code(c);
        self.geometry.neighbors(p).iter().all(|n| {
            let color = self.cells[n.index()].color;
            color == me || color == OFF_BOARD
        }) && self.eye_diagonals_hold(me, p)
    }

    /// The diagonal half of the eye test: at most one enemy diagonal in the centre, none on the
    /// edge or in the corner.
    #[inline]
    fn eye_diagonals_hold(&self, me: u8, p: Point) -> bool {
        let enemy = 3 - me;
        let mut bad = 0;
        let mut edge = 0;
        for d in self.geometry.diagonals(p) {
            let color = self.cells[d.index()].color;
            bad += (color == enemy) as u32;
            edge |= (color == OFF_BOARD) as u32;
        }
        bad + edge < 2
    }

    /// `is_legal(c, p) && !is_eye(c, p)` for an empty point: the test a light playout runs on
    /// every candidate. The common case (an empty neighbour) is decided inline.
    #[inline(always)]
    pub fn is_playout_candidate(&self, c: Color, p: Point) -> bool {
        self.quick_candidate_answer(p)
            .unwrap_or_else(|| self.is_surrounded_candidate(c, p))
    }

    /// The answer of the candidate test where it needs no look at chains: no on the ko point,
    /// yes beside an empty point (a liberty, so legal; an empty neighbour, so no eye).
    #[inline(always)]
    fn quick_candidate_answer(&self, p: Point) -> Option<bool> {
        if p.0 == self.ko {
            Some(false)
        } else if self.cells[p.index()].neighbors & 7 != 0 {
            Some(true)
        } else {
            None
        }
    }

    /// [`is_playout_candidate`](Board::is_playout_candidate), remembering a rejection on the
    /// point until a move could change the answer. Late in a playout most empty points are eyes
    /// that every scan meets again; a remembered one costs a load instead of the test.
    ///
    /// A rejected point has no empty neighbour, and the answer for it changes only when a
    /// stone lands on a diagonal (a false eye), a neighbouring chain enters atari (a capture)
    /// or leaves it (a join), or a neighbour is freed. `play` and `remove_chain` clear the
    /// memory on the first three; the last cannot happen in play, as a chain beside an empty
    /// point has a liberty and is not captured, so only `remove_chain_at` must forget.
    #[inline(always)]
    pub fn is_playout_candidate_remembered(&mut self, c: Color, p: Point) -> bool {
        if let Some(answer) = self.quick_candidate_answer(p) {
            return answer;
        }
        let bit = 1 << c.index();
        if self.cells[p.index()].rejected & bit != 0 {
            return false;
        }
        let candidate = self.is_surrounded_candidate(c, p);
        if !candidate {
            self.cells[p.index()].rejected |= bit;
        }
        candidate
    }

    /// [`is_playout_candidate`](Board::is_playout_candidate) for a point without empty
    /// neighbours.
    #[inline(never)]
    fn is_surrounded_candidate(&self, c: Color, p: Point) -> bool {
        let counts = self.cells[p.index()].neighbors;
        let me = code(c);
        let (black, edge) = ((counts >> 3) & 7, counts >> 6);
        let own = if c == Color::Black {
            black
        } else {
            4 - black - edge
        };
        if own + edge == 4 && self.eye_diagonals_hold(me, p) {
            return false;
        }
        // No liberty of its own: legal only by capturing or by joining a chain with a spare one.
        let neighbors = self.geometry.neighbors(p);
        let colors = neighbors.map(|n| self.cells[n.index()].color);
        neighbors.iter().zip(colors).any(|(n, col)| {
            col != OFF_BOARD && {
                let libs = self.cells[self.cells[n.index()].head as usize].libs;
                (col == me) == (libs > 1)
            }
        })
    }

    /// Copies `other` into `self`, touching only the cells and empty-list entries its board size
    /// uses: much cheaper than a full copy for small boards.
    #[inline]
    pub fn copy_from(&mut self, other: &Board) {
        let cells = other.geometry.cells();
        let empties = other.empty_count as usize;
        self.geometry = other.geometry;
        self.ko = other.ko;
        self.last_captured = other.last_captured;
        self.last_captured_at = other.last_captured_at;
        self.empty_count = other.empty_count;
        self.hash = other.hash;
        self.captures = other.captures;
        self.stones = other.stones;
        self.on_board = other.on_board;
        self.empties[..empties].copy_from_slice(&other.empties[..empties]);
        self.cells.0[..cells].copy_from_slice(&other.cells.0[..cells]);
        self.neighborhoods.0[..cells].copy_from_slice(&other.neighborhoods.0[..cells]);
    }

    /// The 3x3 neighbourhood of `p` as 16 bits: two bits per neighbour (0 empty, 1 black,
    /// 2 white, 3 off board), in the order of [`Board::neighborhood_points`].
    #[inline]
    pub fn neighborhood(&self, p: Point) -> u16 {
        self.neighborhoods.get(p.index())
    }

    /// [`neighborhood`](Board::neighborhood) of each of the eight points around `p`, in the
    /// order of [`Board::neighborhood_points`]. Entries for guard cells are meaningless.
    #[inline]
    pub fn neighborhoods_around(&self, p: Point) -> [u16; 8] {
        self.neighborhood_points(p)
            .map(|q| self.neighborhoods.get(q.index()))
    }

    /// The eight points around `p`, row by row from the one below-left: (-1,-1) (0,-1) (1,-1)
    /// (-1,0) (1,0) (-1,1) (0,1) (1,1) as (column, row) offsets. Guard cells included.
    #[inline]
    pub fn neighborhood_points(&self, p: Point) -> [Point; 8] {
        let s = self.geometry.stride() as u16;
        let i = p.0;
        [
            Point(i - s - 1),
            Point(i - s),
            Point(i - s + 1),
            Point(i - 1),
            Point(i + 1),
            Point(i + s - 1),
            Point(i + s),
            Point(i + s + 1),
        ]
    }

    /// Whether `c` playing on the empty point `p` captures at least one enemy chain.
    #[inline]
    pub fn captures_at(&self, c: Color, p: Point) -> bool {
        let enemy = code(c.opponent());
        self.geometry.neighbors(p).iter().any(|n| {
            let cell = &self.cells[n.index()];
            cell.color == enemy && self.cells[cell.head as usize].libs == 1
        })
    }

    /// Whether `c` playing on `p` would leave a chain of two or more stones with a single
    /// liberty, capturing nothing: a bad self-atari. O(1) thanks to the liberty sums.
    pub fn is_self_atari(&self, c: Color, p: Point) -> bool {
        // Two empty neighbours are two liberties: the common case, decided from the counts.
        if self.empty_neighbor_count(p) >= 2 || self.captures_at(c, p) {
            return false;
        }
        let me = code(c);
        let mut libs = [0u16; 3];
        let mut count = 0;
        let mut add = |q: u16, libs: &mut [u16; 3]| {
            if q != p.0 && !libs[..count].contains(&q) {
                if count == 2 {
                    return true;
                }
                libs[count] = q;
                count += 1;
            }
            false
        };
        let mut joined = 0u16;
        let mut heads = [0u16; 4];
        for (k, n) in self.geometry.neighbors(p).into_iter().enumerate() {
            let cell = &self.cells[n.index()];
            if cell.color == EMPTY {
                if add(n.0, &mut libs) {
                    return false;
                }
            } else if cell.color == me && !heads[..k].contains(&cell.head) {
                heads[k] = cell.head;
                let head = &self.cells[cell.head as usize];
                joined += head.size;
                match head.libs {
                    1 => {} // its only liberty is p itself
                    2 => {
                        if add(head.lib_sum.wrapping_sub(p.0), &mut libs) {
                            return false;
                        }
                    }
                    _ => return false,
                }
            }
        }
        count <= 1 && joined >= 1
    }

    /// Plays `c` on `p`. The point must be empty (and, for a legal move, not the ko point); if the new chain ends up
    /// without liberty (suicide, which only rules that allow it let through), it is removed.
    pub fn play(&mut self, c: Color, p: Point) {
        debug_assert!(self.is_empty(p));
        let me = code(c);
        let enemy = 3 - me;
        let pi = p.index();
        self.ko = 0;
        self.remove_empty(p);
        self.stones[c.index()].set(self.geometry.bit(p));
        self.hash ^= zobrist::STONE[c.index()][pi];
        let neighbors = self.cells[pi].neighbors;
        let delta = stone_delta(c);

        // The new stone's liberties (in locals: no store to reload in the loop) and the distinct
        // neighbouring chains, with bit masks of the ones to merge and to capture: the follow-up
        // loops then branch once per chain concerned, not once per neighbour.
        let mut libs = 0u16;
        let mut lib_sum = 0u16;
        let mut heads = [0u16; 4];
        let mut distinct = 0;
        let mut joins = 0u32;
        let mut dead = 0u32;
        for n in self.geometry.neighbors(p) {
            let cell = self.cells[n.index()];
            self.cells[n.index()].neighbors = cell.neighbors.wrapping_add(delta);
            match cell.color {
                EMPTY => {
                    libs += 1;
                    lib_sum = lib_sum.wrapping_add(n.0);
                }
                OFF_BOARD => {}
                color => {
                    let h = cell.head;
                    let seen = (heads[0] == h) | (heads[1] == h) | (heads[2] == h);
                    if !seen {
                        let head = &mut self.cells[h as usize];
                        head.libs -= 1;
                        head.lib_sum = head.lib_sum.wrapping_sub(p.0);
                        let libs = head.libs;
                        // A chain now in atari can be captured on its last liberty.
                        let last = if libs == 1 { head.lib_sum } else { 0 };
                        self.cells[last as usize].rejected = 0;
                        joins |= ((color == me) as u32) << distinct;
                        dead |= (((color == enemy) & (libs == 0)) as u32) << distinct;
                        heads[distinct] = h;
                        distinct += 1;
                    }
                }
            }
        }

        let around = self.neighborhood_points(p);
        self.neighborhoods.toggle(around, me);
        self.cells[pi] = Cell {
            color: me,
            neighbors,
            head: p.0,
            next: p.0,
            empty_pos: 0,
            size: 1,
            libs,
            lib_sum,
            rejected: 0,
        };

        // A stone on a diagonal can make an eye there false.
        for d in self.geometry.diagonals(p) {
            self.cells[d.index()].rejected = 0;
        }

        let mut my_head = p.0;
        if joins != 0 {
            my_head = self.adopt(p, heads[joins.trailing_zeros() as usize]);
            joins &= joins - 1;
            while joins != 0 {
                my_head = self.merge(my_head, heads[joins.trailing_zeros() as usize]);
                joins &= joins - 1;
            }
        }

        let mut captured = 0;
        let mut captured_at = 0;
        while dead != 0 {
            let h = heads[dead.trailing_zeros() as usize];
            captured += self.cells[h as usize].size as u32;
            captured_at = h;
            self.remove_chain(h);
            dead &= dead - 1;
        }
        self.captures[c.index()] += captured;
        self.last_captured = captured as u16;
        self.last_captured_at = captured_at;

        let mine = self.cells[my_head as usize];
        if mine.libs == 0 {
            self.captures[c.opponent().index()] += mine.size as u32;
            self.remove_chain(my_head);
        } else if captured == 1 && mine.size == 1 && mine.libs == 1 {
            self.ko = captured_at;
        }
    }

    /// A pass: lifts the ko restriction.
    pub fn pass(&mut self) {
        self.ko = 0;
        self.last_captured = 0;
    }

    /// Takes the whole chain through `p` off the board (dead-stone removal before scoring).
    pub fn remove_chain_at(&mut self, p: Point) {
        if self.color_at(p).is_some() {
            let head = self.cells[p.index()].head;
            self.remove_chain(head);
            // Unlike a capture, this frees stones beside empty points, whose remembered
            // rejections then no longer hold.
            for cell in &mut self.cells.0 {
                cell.rejected = 0;
            }
        }
    }

    /// Black's area minus White's at the end of a playout: stones plus empty points whose
    /// neighbours are all of one colour. Exact when every empty region is a single point, as
    /// after a light playout; [`Score`](crate::Score) floods larger regions.
    pub fn playout_score(&self) -> i32 {
        let mut score = self.stones[0].count() as i32 - self.stones[1].count() as i32;
        for &p in self.empty_points() {
            let mut seen = 0u8;
            for n in self.geometry.neighbors(p) {
                seen |= 1 << self.cells[n.index()].color;
            }
            let stones = seen & (1 << BLACK | 1 << WHITE);
            if stones == 1 << BLACK {
                score += 1;
            } else if stones == 1 << WHITE {
                score -= 1;
            }
        }
        score
    }

    /// Adds the stone just played on `p` to `b`, a neighbouring chain of its colour, and returns
    /// `b`: [`merge`](Board::merge) for a chain of one stone, with fewer loads. An empty
    /// neighbour of `p` is a new liberty unless it touches `b`, and its neighbours other than `p`
    /// are the point beyond it and two diagonals of `p`, each diagonal shared by two of them.
    fn adopt(&mut self, p: Point, b: u16) -> u16 {
        let s = self.geometry.stride() as u16;
        let on_b = |x: u16| self.cells[x as usize].head == b;
        let [sw, se, nw, ne] = self.geometry.diagonals(p).map(|d| on_b(d.0));
        // Wrapping: beyond a guard the index may leave the frame; the mask of `Cells` keeps the
        // load in bounds, and a guard `q` is not empty, which masks the answer.
        let beyond = [
            p.0.wrapping_sub(2 * s),
            p.0.wrapping_sub(2),
            p.0 + 2,
            p.0 + 2 * s,
        ];
        // Both arrays follow `Geometry::neighbors`: below, left, right, above.
        let beside = [sw | se, sw | nw, se | ne, nw | ne];
        let mut added = 0u16;
        let mut added_sum = 0u16;
        for (k, q) in self.geometry.neighbors(p).into_iter().enumerate() {
            let new = (self.cells[q.index()].color == EMPTY) & !(beside[k] | on_b(beyond[k]));
            added += new as u16;
            added_sum = added_sum.wrapping_add(if new { q.0 } else { 0 });
        }
        self.cells[p.index()].head = b;
        self.absorb(b, p.0, added, added_sum)
    }

    /// Joins chains `a` and `b` (same colour, adjacent through the stone just played); returns
    /// the surviving head.
    fn merge(&mut self, a: u16, b: u16) -> u16 {
        // `play` passes distinct chains: it finds each neighbouring chain once.
        debug_assert_ne!(a, b);
        let (big, small) = if self.cells[a as usize].size >= self.cells[b as usize].size {
            (a, b)
        } else {
            (b, a)
        };
        // One walk over the small chain, relabelling each stone after looking at its empty
        // neighbours: a liberty is new unless it touches `big` — whose stones by then include
        // the small chain's stones already walked, so a point shared by two of them counts once.
        let mut added = 0u16;
        let mut added_sum = 0u16;
        let mut s = small;
        loop {
            for q in self.geometry.neighbors(Point(s)) {
                let new = (self.cells[q.index()].color == EMPTY) & !self.touches(q, big);
                added += new as u16;
                added_sum = added_sum.wrapping_add(if new { q.0 } else { 0 });
            }
            self.cells[s as usize].head = big;
            s = self.cells[s as usize].next;
            if s == small {
                break;
            }
        }
        self.absorb(big, small, added, added_sum)
    }

    /// The end of a merge, once the stones of `small` are relabelled to `big`: splices the two
    /// stone lists and adds to `big` the size of `small` and the `added` new liberties, whose
    /// indices sum to `added_sum`. Returns `big`.
    #[inline(always)]
    fn absorb(&mut self, big: u16, small: u16, added: u16, added_sum: u16) -> u16 {
        let big_next = self.cells[big as usize].next;
        self.cells[big as usize].next = self.cells[small as usize].next;
        self.cells[small as usize].next = big_next;
        let small_size = self.cells[small as usize].size;
        let head = &mut self.cells[big as usize];
        head.size += small_size;
        head.libs += added;
        head.lib_sum = head.lib_sum.wrapping_add(added_sum);
        big
    }

    /// Whether the cell `q` touches a stone of the chain with head `head`. Any cell, guards
    /// included (wrapping arithmetic: a guard's outer neighbours are other guards or spare
    /// slots, and callers mask the answer by `q` being empty). All four neighbours are looked at:
    /// an early exit is a branch the predictor cannot learn.
    #[inline]
    fn touches(&self, q: Point, head: u16) -> bool {
        let s = self.geometry.stride() as u16;
        [q.0.wrapping_sub(s), q.0.wrapping_sub(1), q.0 + 1, q.0 + s]
            .iter()
            .fold(false, |found, &n| {
                found | (self.cells[n as usize].head == head)
            })
    }

    /// Takes the chain with head `h` off the board, crediting a liberty to each distinct
    /// neighbouring chain of the other colour for every freed point.
    fn remove_chain(&mut self, h: u16) {
        let color = self.cells[h as usize].color;
        let other = 3 - color;
        let ci = (color - 1) as usize;
        let delta = stone_delta(if color == BLACK {
            Color::Black
        } else {
            Color::White
        });
        let mut s = h;
        loop {
            let next = self.cells[s as usize].next;
            let p = Point(s);
            self.cells[s as usize].color = EMPTY;
            self.cells[s as usize].head = 0;
            let around = self.neighborhood_points(p);
            self.neighborhoods.toggle(around, color);
            self.add_empty(p);
            self.stones[ci].clear(self.geometry.bit(p));
            self.hash ^= zobrist::STONE[ci][s as usize];
            let mut credited = [0u16; 4];
            let mut distinct = 0;
            for n in self.geometry.neighbors(p) {
                let cell = self.cells[n.index()];
                self.cells[n.index()].neighbors = cell.neighbors.wrapping_sub(delta);
                if cell.color == other && !credited[..distinct].contains(&cell.head) {
                    credited[distinct] = cell.head;
                    distinct += 1;
                    let head = &mut self.cells[cell.head as usize];
                    // A chain out of atari can be joined on its former last liberty.
                    let last = if head.libs == 1 { head.lib_sum } else { 0 };
                    head.libs += 1;
                    head.lib_sum = head.lib_sum.wrapping_add(s);
                    self.cells[last as usize].rejected = 0;
                }
            }
            s = next;
            if s == h {
                break;
            }
        }
    }

    #[inline]
    fn add_empty(&mut self, p: Point) {
        self.cells[p.index()].empty_pos = self.empty_count;
        self.empties[self.empty_count as usize] = p;
        self.empty_count += 1;
    }

    #[inline]
    fn remove_empty(&mut self, p: Point) {
        let pos = self.cells[p.index()].empty_pos;
        self.empty_count -= 1;
        let last = self.empties[self.empty_count as usize];
        self.empties[pos as usize] = last;
        self.cells[last.index()].empty_pos = pos;
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f)?;
        let g = self.geometry;
        for row in (0..g.size()).rev() {
            for col in 0..g.size() {
                let p = g.point(col, row).unwrap();
                let ch = match self.color_at(p) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
