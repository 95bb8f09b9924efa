//! Free handicap placement for `place_free_handicap`: the standard points where the
//! specification gives them, otherwise the largest standard placement spread further by
//! farthest-point insertion (the edge counts as a stone two lines away, so stones stay off the
//! first lines while there is room).

use engine_core::{fixed_handicap, Geometry, Point};

/// Where to put `stones` handicap stones: `stones` points, at most all but one of the board.
pub fn free_placement(g: Geometry, stones: usize) -> Vec<Point> {
    if let Some(points) = fixed_handicap(g, stones) {
        return points;
    }
    let target = stones.min(g.area() - 1);
    let mut placed = (2..=9)
        .rev()
        .filter(|&n| n <= target)
        .find_map(|n| fixed_handicap(g, n))
        .unwrap_or_default();
    while placed.len() < target {
        let best = g
            .points()
            .filter(|p| !placed.contains(p))
            .max_by_key(|&p| (room(g, p, &placed), std::cmp::Reverse(p)))
            .expect("the board has an empty point left");
        placed.push(best);
    }
    placed
}

/// Squared distance from `p` to the nearest placed stone or to the virtual stones beyond the
/// edge.
fn room(g: Geometry, p: Point, placed: &[Point]) -> usize {
    let (col, row) = g.coords(p);
    let edge = col.min(row).min(g.size() - 1 - col).min(g.size() - 1 - row);
    let from_edge = (2 * (edge + 1)).pow(2);
    placed
        .iter()
        .map(|&q| {
            let (c, r) = g.coords(q);
            c.abs_diff(col).pow(2) + r.abs_diff(row).pow(2)
        })
        .fold(from_edge, usize::min)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_where_possible_spread_elsewhere() {
        let g = Geometry::new(19).unwrap();
        assert_eq!(free_placement(g, 4), fixed_handicap(g, 4).unwrap());
        for (size, most) in [(2, 10), (3, 12), (5, 30), (9, 90), (19, 40)] {
            let g = Geometry::new(size).unwrap();
            for n in 2..=most {
                let points = free_placement(g, n);
                assert_eq!(points.len(), n.min(g.area() - 1), "{size} {n}");
                let mut unique = points.clone();
                unique.sort();
                unique.dedup();
                assert_eq!(unique.len(), points.len());
            }
        }
        let g = Geometry::new(19).unwrap();
        let twelve = free_placement(g, 12);
        assert!(twelve.iter().all(|&p| {
            let (c, r) = g.coords(p);
            (2..=16).contains(&c) && (2..=16).contains(&r)
        }));
    }
}
