//! Ladder reading: whether a chain in atari that runs out by extending is caught anyway by a
//! sequence of ataris. Read on copies of the board (a `Board` is a memcpy), depth first, with a
//! budget of stones after which the escape is given the benefit of the doubt.
//!
//! The priors use it (a new node's escapes into a ladder are left out of the tree, its ataris
//! that catch a chain encouraged). The playouts do not:
//! reading there cost a fifth of the search speed on 9x9 and up to two fifths on 19x19 with
//! whole-board copies, won 105 of 200 self-play games at equal time, and none of 5 against
//! Pachi at a 5-minute clock on 19x19 (no measurable gain; BENCHMARKS.md).

use engine_core::{Board, Color, Point};

/// Stones the reader may place for one question.
const BUDGET: u32 = 80;

/// Whether `c` extending on `liberty`, the last liberty of one of its chains, still loses that
/// chain to a ladder (or to an immediate capture because the extension gains nothing).
pub fn extension_is_caught(board: &Board, c: Color, liberty: Point) -> bool {
    let mut budget = BUDGET;
    !extends_out(board, c, liberty, &mut budget)
}

/// Stones of the opponent's chains that `c` playing `p` puts in atari and then catches: the
/// chain can neither capture its way out nor extend out of the ladder. 0 when `p` is no
/// such atari.
pub fn atari_catches(board: &Board, c: Color, p: Point) -> u32 {
    let defender = c.opponent();
    let targets = board
        .geometry()
        .neighbors(p)
        .into_iter()
        .filter(|&n| board.color_at(n) == Some(defender) && board.chain_liberties(n) == 2);
    if targets.clone().next().is_none() || !board.is_legal(c, p) {
        return 0;
    }
    let mut after = *board;
    after.play(c, p);
    let mut budget = BUDGET;
    let (mut heads, mut counted) = ([Point(0); 4], 0);
    let mut caught = 0;
    for n in targets {
        let head = after.chain_head(n);
        if heads[..counted].contains(&head) {
            continue;
        }
        heads[counted] = head;
        counted += 1;
        if after.chain_liberties(n) == 1 && !escapes(&after, defender, n, &mut budget) {
            caught += after.chain_size(n);
        }
    }
    caught
}

/// Whether `c` extending on `liberty` gets its chain out of atari for good.
fn extends_out(board: &Board, c: Color, liberty: Point, budget: &mut u32) -> bool {
    if !board.is_legal(c, liberty) {
        return false;
    }
    if surely_escapes(board, c, liberty) {
        return true;
    }
    let mut after = *board;
    after.play(c, liberty);
    !caught_after_move(&after, c, liberty, budget)
}

/// Whether `c` extending on `liberty` obviously gets three liberties or more (three empty
/// neighbours, or a join with a chain of four liberties or more), decided without copying the
/// board: most escapes end here.
fn surely_escapes(board: &Board, c: Color, liberty: Point) -> bool {
    board.empty_neighbor_count(liberty) >= 3
        || board
            .geometry()
            .neighbors(liberty)
            .into_iter()
            .any(|n| board.color_at(n) == Some(c) && board.chain_liberties(n) >= 4)
}

/// The defender's chain through `p` has just moved: whether the attacker, to play, catches it.
fn caught_after_move(board: &Board, c: Color, p: Point, budget: &mut u32) -> bool {
    match board.chain_liberties(p) {
        0 | 1 => return true,
        2 => {}
        _ => return false,
    }
    let attacker = c.opponent();
    let g = board.geometry();
    for bit in board.chain_liberty_set(p).iter() {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let atari = g.point_of_bit(bit);
        if !board.is_legal(attacker, atari) {
            continue;
        }
        let mut next = *board;
        next.play(attacker, atari);
        if next.chain_liberties(p) == 1 && !escapes(&next, c, p, budget) {
            return true;
        }
    }
    false
}

/// The defender's chain through `p` is in atari, defender to play: whether it gets out, by
/// capturing an attacker chain next to it (read as a sure escape) or by extending.
fn escapes(board: &Board, c: Color, p: Point, budget: &mut u32) -> bool {
    let g = board.geometry();
    let counter_capture = board.chain_stones(p).any(|s| {
        g.neighbors(s)
            .into_iter()
            .any(|n| board.color_at(n) == Some(c.opponent()) && board.atari_point(n).is_some())
    });
    if counter_capture {
        return true;
    }
    let Some(liberty) = board.atari_point(p) else {
        return true;
    };
    if *budget == 0 {
        return true;
    }
    *budget -= 1;
    extends_out(board, c, liberty, budget)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tests::{point, position};

    fn board(rows: &[&str]) -> Board {
        *position(&rows.join(" "), Color::Black).board()
    }

    /// Black D4 in atari at E4 (C4, D5, D3 and E3 are White): running to E4 leaves two
    /// liberties, and the ataris drive it to the upper right edge.
    const LADDER: [&str; 9] = [
        ".........",
        ".........",
        ".........",
        ".........",
        "...O.....",
        "..OX.....",
        "...OO....",
        ".........",
        ".........",
    ];

    #[test]
    fn a_plain_ladder_is_caught() {
        let b = board(&LADDER);
        assert_eq!(b.atari_point(point(&b, "D4")), Some(point(&b, "E4")));
        assert!(extension_is_caught(&b, Color::Black, point(&b, "E4")));
    }

    #[test]
    fn an_atari_that_starts_a_working_ladder_catches_the_chain() {
        // LADDER without White D5: Black D4 has two liberties. White's atari at D5 drives it
        // into the ladder above; the atari at E4 lets it run out to D5 with three liberties.
        let mut b = board(&LADDER);
        b.remove_chain_at(point(&b, "D5"));
        assert_eq!(b.chain_liberties(point(&b, "D4")), 2);
        assert_eq!(atari_catches(&b, Color::White, point(&b, "D5")), 1);
        assert_eq!(atari_catches(&b, Color::White, point(&b, "E4")), 0);
        assert_eq!(atari_catches(&b, Color::White, point(&b, "F6")), 0);
        // A black stone on the ladder's path breaks it.
        b.play(Color::Black, point(&b, "G8"));
        assert_eq!(atari_catches(&b, Color::White, point(&b, "D5")), 0);
    }

    #[test]
    fn a_ladder_breaker_saves_the_chain() {
        // A black stone next to the ladder's path.
        let mut b = board(&LADDER);
        b.play(Color::Black, point(&b, "G8"));
        assert!(!extension_is_caught(&b, Color::Black, point(&b, "E4")));
    }

    #[test]
    fn an_extension_to_three_liberties_escapes() {
        let b = board(&[
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "..OX.....",
            "...O.....",
            ".........",
            ".........",
        ]);
        // D4 has liberties D5 and E4: not in atari; take E4 away to put it in atari at D5.
        let mut b = b;
        b.play(Color::White, point(&b, "E4"));
        assert_eq!(b.atari_point(point(&b, "D4")), Some(point(&b, "D5")));
        assert!(!extension_is_caught(&b, Color::Black, point(&b, "D5")));
    }
}
