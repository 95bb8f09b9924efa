//! 3x3 shape knowledge: the hane, cut and edge patterns of MoGo as michi lists them, matched in
//! all eight orientations and both colour assignments through a 65,536-entry table indexed by
//! [`Board::neighborhood`](engine_core::Board::neighborhood).

use std::sync::OnceLock;

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
const OFFSETS: [(i32, i32); 8] = [
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
    table()[code as usize]
}

fn table() -> &'static [bool; 1 << 16] {
    static TABLE: OnceLock<Box<[bool; 1 << 16]>> = OnceLock::new();
    TABLE.get_or_init(build)
}

/// Allowed cell values for a pattern character, given which colour `X` stands for.
fn allowed(ch: u8, x: u8) -> &'static [u8] {
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

/// A map of (column, row) offsets: one of the eight symmetries of the square.
type Symmetry = fn(i32, i32) -> (i32, i32);

fn build() -> Box<[bool; 1 << 16]> {
    let mut table = Box::new([false; 1 << 16]);
    let symmetries: [Symmetry; 8] = [
        |x, y| (x, y),
        |x, y| (-x, y),
        |x, y| (x, -y),
        |x, y| (-x, -y),
        |x, y| (y, x),
        |x, y| (-y, x),
        |x, y| (y, -x),
        |x, y| (-y, -x),
    ];
    for pattern in PATTERNS {
        for transform in symmetries {
            for x_colour in [BLACK, WHITE] {
                // The allowed values of each code cell under this orientation and colouring.
                let mut cells: [&[u8]; 8] = [&[]; 8];
                for (row, line) in pattern.iter().enumerate() {
                    for (col, &ch) in line.as_bytes().iter().enumerate() {
                        let (dx, dy) = (col as i32 - 1, 1 - row as i32);
                        if (dx, dy) == (0, 0) {
                            continue;
                        }
                        let target = transform(dx, dy);
                        let slot = OFFSETS.iter().position(|&o| o == target).unwrap();
                        cells[slot] = allowed(ch, x_colour);
                    }
                }
                mark_all(&cells, 0, 0, &mut table);
            }
        }
    }
    table
}

/// Sets every code that picks one allowed value per cell.
fn mark_all(cells: &[&[u8]; 8], slot: usize, code: u16, table: &mut [bool; 1 << 16]) {
    if slot == 8 {
        table[code as usize] = true;
        return;
    }
    for &value in cells[slot] {
        mark_all(cells, slot + 1, code | (value as u16) << (2 * slot), table);
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
