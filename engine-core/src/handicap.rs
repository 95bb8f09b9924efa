//! Fixed handicap placement as GTP v2 section 4.1.1 gives it.

use crate::geometry::{Geometry, Point};

/// The standard handicap points for `stones` on this board, or `None` where the spec gives no
/// placement: fewer than 2 or more than 9 stones, more than 4 on even sizes and 7x7, any on
/// boards smaller than 7x7.
pub fn fixed_handicap(geometry: Geometry, stones: usize) -> Option<Vec<Point>> {
    let size = geometry.size();
    let max = if size < 7 {
        0
    } else if size.is_multiple_of(2) || size == 7 {
        4
    } else {
        9
    };
    if !(2..=max).contains(&stones) {
        return None;
    }
    let low = if size >= 13 { 3 } else { 2 };
    let high = size - 1 - low;
    let mid = size / 2;
    let at = |col, row| geometry.point(col, row).unwrap();
    let mut points = vec![at(low, low), at(high, high)];
    if stones >= 3 {
        points.push(at(low, high));
    }
    if stones >= 4 {
        points.push(at(high, low));
    }
    if stones >= 6 {
        points.push(at(low, mid));
        points.push(at(high, mid));
    }
    if stones >= 8 {
        points.push(at(mid, low));
        points.push(at(mid, high));
    }
    if stones % 2 == 1 && stones >= 5 {
        points.push(at(mid, mid));
    }
    Some(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vertices(size: usize, n: usize) -> Option<Vec<String>> {
        let g = Geometry::new(size).unwrap();
        fixed_handicap(g, n).map(|ps| {
            let mut v: Vec<String> = ps.into_iter().map(|p| g.vertex(p)).collect();
            v.sort();
            v
        })
    }

    fn sorted(list: &str) -> Option<Vec<String>> {
        let mut v: Vec<String> = list.split_whitespace().map(String::from).collect();
        v.sort();
        Some(v)
    }

    #[test]
    fn spec_vertices_19() {
        assert_eq!(vertices(19, 2), sorted("D4 Q16"));
        assert_eq!(vertices(19, 3), sorted("D4 Q16 D16"));
        assert_eq!(vertices(19, 4), sorted("D4 Q16 D16 Q4"));
        assert_eq!(vertices(19, 5), sorted("D4 Q16 D16 Q4 K10"));
        assert_eq!(vertices(19, 6), sorted("D4 Q16 D16 Q4 D10 Q10"));
        assert_eq!(vertices(19, 7), sorted("D4 Q16 D16 Q4 D10 Q10 K10"));
        assert_eq!(vertices(19, 8), sorted("D4 Q16 D16 Q4 D10 Q10 K4 K16"));
        assert_eq!(vertices(19, 9), sorted("D4 Q16 D16 Q4 D10 Q10 K4 K16 K10"));
    }

    #[test]
    fn spec_vertices_9_and_13() {
        assert_eq!(vertices(9, 9), sorted("C3 G7 C7 G3 E5 C5 G5 E3 E7"));
        assert_eq!(vertices(13, 4), sorted("D4 K10 D10 K4"));
        assert_eq!(vertices(13, 5), sorted("D4 K10 D10 K4 G7"));
    }

    #[test]
    fn refused_where_the_spec_gives_nothing() {
        assert_eq!(vertices(19, 1), None);
        assert_eq!(vertices(19, 10), None);
        assert_eq!(vertices(8, 5), None);
        assert_eq!(vertices(7, 5), None);
        assert_eq!(vertices(6, 2), None);
        assert!(vertices(7, 4).is_some());
        assert!(vertices(25, 9).is_some());
    }
}
