//! Nakade: the vital point of a small eye space. An empty region of three to five points walled
//! in by one colour makes one eye or two depending on who takes the point with the most
//! neighbours inside it (the middle of a straight or bent three, the centre of a pyramid four or
//! a flower five, the inner corner of a bulky five). Square four and straight or bent four have
//! no such single point and are left alone.
//!
//! The priors use it, and the playouts right after a capture of three stones or more (the
//! space the captured stones leave is walled by the capturer alone). Reading the regions next to
//! every playout move instead cost a fifth to a third of the search speed, even when skipping
//! points with three empty neighbours, and lost 31 of 39 self-play games at equal time
//! (BENCHMARKS.md).

use engine_core::{Board, Color, Point};

/// Largest eye space read.
const MAX_AREA: usize = 5;

/// The vital point of the eye space that contains the empty point `start`, if that space has
/// three to five points, is bordered by stones of one colour only, and has a single point with
/// the most neighbours inside it.
pub fn vital_point(board: &Board, start: Point) -> Option<Point> {
    let g = board.geometry();
    let mut area = [start; MAX_AREA];
    let mut len = 1;
    let mut wall: Option<Color> = None;
    let mut next = 0;
    while next < len {
        let p = area[next];
        next += 1;
        for q in g.neighbors(p) {
            if board.is_empty(q) {
                if !area[..len].contains(&q) {
                    if len == MAX_AREA {
                        return None;
                    }
                    area[len] = q;
                    len += 1;
                }
            } else if let Some(c) = board.color_at(q) {
                if wall.is_some_and(|w| w != c) {
                    return None;
                }
                wall = Some(c);
            }
        }
    }
    if len < 3 || wall.is_none() {
        return None;
    }
    let area = &area[..len];
    let inside = |p: Point| g.neighbors(p).iter().filter(|q| area.contains(q)).count();
    let best = area.iter().map(|&p| inside(p)).max()?;
    let mut vital = area.iter().filter(|&&p| inside(p) == best);
    match (vital.next(), vital.next()) {
        (Some(&p), None) if best >= 2 => Some(p),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tests::{point, position};

    fn vital(rows: &[&str], from: &str) -> Option<String> {
        let b = *position(&rows.join(" "), Color::Black).board();
        vital_point(&b, point(&b, from)).map(|p| b.geometry().vertex(p))
    }

    #[test]
    fn straight_three_is_killed_in_the_middle() {
        let rows = [
            "OOOOO..", "O...O..", "OOOOO..", ".......", ".......", ".......", ".......",
        ];
        assert_eq!(vital(&rows, "B6").as_deref(), Some("C6"));
    }

    #[test]
    fn bent_three_in_the_corner() {
        let rows = [
            "..O....", ".OO....", "OO.....", ".......", ".......", ".......", ".......",
        ];
        // A7, B7 and A6 are empty and walled by White: the vital point is A7.
        assert_eq!(vital(&rows, "A6").as_deref(), Some("A7"));
    }

    #[test]
    fn pyramid_four_and_flower_five_have_a_centre() {
        let pyramid = [
            ".OOO...", "O...O..", "OO.OO..", ".OOO...", ".......", ".......", ".......",
        ];
        // B6 C6 D6 and C5: the centre is C6.
        assert_eq!(vital(&pyramid, "B6").as_deref(), Some("C6"));
        let flower = [
            "..O....", ".O.O...", "O...O..", ".O.O...", "..O....", ".......", ".......",
        ];
        assert_eq!(vital(&flower, "C5").as_deref(), Some("C5"));
    }

    #[test]
    fn shapes_without_a_single_vital_point_are_left_alone() {
        let straight_four = [
            "OOOOOO.", "O....O.", "OOOOOO.", ".......", ".......", ".......", ".......",
        ];
        assert_eq!(vital(&straight_four, "B6"), None);
        let square_four = [
            "OOOO...", "O..O...", "O..O...", "OOOO...", ".......", ".......", ".......",
        ];
        assert_eq!(vital(&square_four, "B6"), None);
    }

    #[test]
    fn mixed_walls_and_large_or_tiny_spaces_are_no_eye_space() {
        let mixed = [
            "OOOOX..", "O...X..", "OOOOX..", ".......", ".......", ".......", ".......",
        ];
        assert_eq!(vital(&mixed, "B6"), None);
        let open = [
            ".......", ".......", ".......", ".......", ".......", ".......", ".......",
        ];
        assert_eq!(vital(&open, "D4"), None);
        let two = [
            "OOOO...", "O..O...", "OOOO...", ".......", ".......", ".......", ".......",
        ];
        assert_eq!(vital(&two, "B6"), None);
    }
}
