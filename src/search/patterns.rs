//! 3x3 shape knowledge: the hane, cut and edge patterns of MoGo as michi lists them, matched in
//! all eight orientations and both colour assignments through a 65,536-bit table (8 KiB, small
//! enough to stay in the level-1 cache during playouts) indexed by
//! [`Board::neighborhood`](engine_core::Board::neighborhood).

/// Patterns as three rows (top first) around the empty centre. `X`/`O`: stones of the two
/// colours (either assignment), `x`: not `X` (empty or `O`), `o`: not `O`, `.`: empty,
/// `#`: off board, `?`: anything.
const PATTERNS: [[&str; 3]; 13] = [
    ["XOX", "...", "???"], // hane: enclosing hane
    ["XO.", "...", "?.?"], // hane: non-cutting hane
    ["XO?", "X..", "x.?"], // hane: magari
    [".O.", "X..", "..."], // katatsuke or diagonal attachment
    ["XO?", "O.o", "?o?"], // cut: unprotected cut
    ["XO?", "O.X", "???"], // cut: peeped cut
    ["?X?", "O.O", "ooo"], // cut: de
    ["OX?", "o.O", "???"], // cut: keima
    ["X.?", "O.?", "##?"], // edge: chase
    ["OX?", "X.O", "###"], // edge: block side cut
    ["?X?", "x.O", "###"], // edge: block side connection
    ["?XO", "x.x", "###"], // edge: sagari
    ["?OX", "X.O", "###"], // edge: cut
];

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const EDGE: u8 = 3;

/// (column, row) offsets of the eight neighbourhood cells, in the bit order of the code.
pub(super) const OFFSETS: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// Whether a 3x3 neighbourhood code matches one of the patterns.
#[inline]
pub fn matches(code: u16) -> bool {
    (TABLE[code as usize >> 6] >> (code & 63)) & 1 != 0
}

/// One bit per neighbourhood code.
type Table = [u64; (1 << 16) / 64];

/// Built at compile time: a plain static load in the playouts' hot path.
static TABLE: Table = build();

/// Allowed cell values for a pattern character, given which colour `X` stands for.
const fn allowed(ch: u8, x: u8) -> &'static [u8] {
    let o = 3 - x;
    match (ch, x == BLACK) {
        (b'X', true) | (b'O', false) => &[BLACK],
        (b'X', false) | (b'O', true) => &[WHITE],
        (b'x', _) if o == WHITE => &[EMPTY, WHITE],
        (b'x', _) => &[EMPTY, BLACK],
        (b'o', _) if x == BLACK => &[EMPTY, BLACK],
        (b'o', _) => &[EMPTY, WHITE],
        (b'.', _) => &[EMPTY],
        (b'#', _) => &[EDGE],
        _ => &[EMPTY, BLACK, WHITE, EDGE],
    }
}

/// The (column, row) offset `(x, y)` under the `k`-th of the eight symmetries of the square.
pub(super) const fn symmetry(k: usize, x: i32, y: i32) -> (i32, i32) {
    match k {
        0 => (x, y),
        1 => (-x, y),
        2 => (x, -y),
        3 => (-x, -y),
        4 => (y, x),
        5 => (-y, x),
        6 => (y, -x),
        _ => (-y, -x),
    }
}

/// The code cell of a (column, row) offset.
pub(super) const fn slot_of(x: i32, y: i32) -> usize {
    let mut slot = 0;
    while OFFSETS[slot].0 != x || OFFSETS[slot].1 != y {
        slot += 1;
    }
    slot
}

// Const evaluation allows no iterators: plain index loops.
const fn build() -> Table {
    let mut table = [0; (1 << 16) / 64];
    let mut pattern = 0;
    while pattern < PATTERNS.len() {
        let mut k = 0;
        while k < 8 {
            let mut x_colour = BLACK;
            while x_colour <= WHITE {
                // The allowed values of each code cell under this orientation and colouring.
                let mut cells: [&[u8]; 8] = [&[]; 8];
                let mut row = 0;
                while row < 3 {
                    let line = PATTERNS[pattern][row].as_bytes();
                    let mut col = 0;
                    while col < 3 {
                        let (dx, dy) = (col as i32 - 1, 1 - row as i32);
                        if dx != 0 || dy != 0 {
                            let (x, y) = symmetry(k, dx, dy);
                            cells[slot_of(x, y)] = allowed(line[col], x_colour);
                        }
                        col += 1;
                    }
                    row += 1;
                }
                mark_all(&cells, 0, 0, &mut table);
                x_colour += 1;
            }
            k += 1;
        }
        pattern += 1;
    }
    table
}

/// Sets every code that picks one allowed value per cell.
const fn mark_all(cells: &[&[u8]; 8], slot: usize, code: u16, table: &mut Table) {
    if slot == 8 {
        table[code as usize >> 6] |= 1 << (code & 63);
        return;
    }
    let mut i = 0;
    while i < cells[slot].len() {
        mark_all(
            cells,
            slot + 1,
            code | (cells[slot][i] as u16) << (2 * slot),
            table,
        );
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::{Color, Game, Rules};

    fn code_at(diagram: &str, vertex: &str) -> u16 {
        let rows: Vec<&str> = diagram.split_whitespace().collect();
        let mut game = Game::new(rows.len(), Rules::CHINESE, 7.5).unwrap();
        let g = game.geometry();
        for (i, row) in rows.iter().enumerate() {
            for (col, ch) in row.chars().enumerate() {
                let p = g.point(col, rows.len() - 1 - i).unwrap();
                let c = match ch {
                    'X' => Color::Black,
                    'O' => Color::White,
                    _ => continue,
                };
                game.add_setup_stones(c, &[p]).unwrap();
            }
        }
        let engine_core::Move::Play(p) = g.parse_move(vertex).unwrap() else {
            panic!("not a point")
        };
        game.board().neighborhood(p)
    }

    #[test]
    fn hane_matches_in_every_orientation_and_colour() {
        // Enclosing hane above the centre C3 of a 5x5 board, then rotated, then recoloured.
        assert!(matches(code_at("..... .XOX. ..... ..... .....", "C3")));
        assert!(matches(code_at("..... .X... .O... .X... .....", "C3")));
        assert!(matches(code_at("..... .OXO. ..... ..... .....", "C3")));
    }

    #[test]
    fn empty_surroundings_match_nothing() {
        assert!(!matches(0));
        assert!(!matches(code_at("..... ..... ..X.. ..... .....", "C2")));
    }

    #[test]
    fn edge_patterns_need_the_edge() {
        // Block side cut on the first line: O X above, X . O on the edge row.
        let on_edge = code_at("..... ..... ..... OX... X.O..", "B1");
        assert!(matches(on_edge));
    }
}
