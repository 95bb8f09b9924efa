//! Pairings: round robin (Berger circle method), Swiss (积分编排制) and knockout rounds.
//!
//! Every function is deterministic: given the same players, seed and earlier results it
//! produces the same round, which is what makes tournaments resumable and shardable.

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::collections::HashSet;

/// One round: who plays whom (the first of a pair has Black in the pairing's first game) and
/// who sits out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    pub pairs: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// What earlier rounds tell the pairing: per player, points, colour history, byes, and the
/// pairs that already met.
#[derive(Clone, Debug, Default)]
pub struct History {
    pub points: Vec<u32>,
    /// Games with Black minus games with White.
    pub colour_balance: Vec<i32>,
    /// Whether the player's latest game was with Black.
    pub last_black: Vec<Option<bool>>,
    pub had_bye: Vec<bool>,
    /// Knockout: matches lost.
    pub losses: Vec<u32>,
    /// Withdrawn players (an engine that crashed): never paired again.
    pub withdrawn: Vec<bool>,
    met: HashSet<(usize, usize)>,
}

impl History {
    pub fn new(players: usize) -> History {
        History {
            points: vec![0; players],
            colour_balance: vec![0; players],
            last_black: vec![None; players],
            had_bye: vec![false; players],
            losses: vec![0; players],
            withdrawn: vec![false; players],
            met: HashSet::new(),
        }
    }

    pub fn met(&self, a: usize, b: usize) -> bool {
        self.met.contains(&(a.min(b), a.max(b)))
    }

    /// Records that `a` and `b` were paired.
    pub fn add_pairing(&mut self, a: usize, b: usize) {
        self.met.insert((a.min(b), a.max(b)));
    }

    /// Records one game's colours.
    pub fn add_colours(&mut self, black: usize, white: usize) {
        self.colour_balance[black] += 1;
        self.colour_balance[white] -= 1;
        self.last_black[black] = Some(true);
        self.last_black[white] = Some(false);
    }
}

/// Orders a pair so that the player who is owed Black gets it: fewer Blacks so far, then the
/// one who had White last, then the first given.
fn colours(a: usize, b: usize, h: &History) -> (usize, usize) {
    use std::cmp::Ordering::*;
    match h.colour_balance[a].cmp(&h.colour_balance[b]) {
        Less => (a, b),
        Greater => (b, a),
        Equal => match (h.last_black[a], h.last_black[b]) {
            (Some(true), Some(false)) => (b, a),
            _ => (a, b),
        },
    }
}

/// All rounds of a single round robin for `n` players (Berger circle method: one player fixed,
/// the others rotating; a bye each round when `n` is odd).
pub fn round_robin(n: usize) -> Vec<Round> {
    if n < 2 {
        return Vec::new();
    }
    // With an odd count, slot `n` is the bye.
    let m = if n.is_multiple_of(2) { n } else { n + 1 };
    // With an odd count the bye slot is the fixed player, which keeps colours exactly balanced.
    let mut ring: Vec<usize> = if n % 2 == 1 {
        std::iter::once(n).chain(0..n).collect()
    } else {
        (0..m).collect()
    };
    let mut rounds = Vec::new();
    for r in 0..m - 1 {
        let mut round = Round::default();
        for i in 0..m / 2 {
            let (mut a, mut b) = (ring[i], ring[m - 1 - i]);
            if a >= n || b >= n {
                round.bye = Some(a.min(b));
                continue;
            }
            // Berger colours: the fixed player alternates by round, the other boards by
            // position; every player ends with Blacks and Whites differing by at most one.
            if (i == 0 && r % 2 == 1) || (i > 0 && i % 2 == 1) {
                std::mem::swap(&mut a, &mut b);
            }
            round.pairs.push((a, b));
        }
        rounds.push(round);
        // Keep ring[0] fixed, rotate the rest by one.
        ring[1..].rotate_right(1);
    }
    rounds
}

/// A double round robin: the single cycle, then again with colours reversed.
pub fn double_round_robin(n: usize) -> Vec<Round> {
    let first = round_robin(n);
    let second: Vec<Round> = first
        .iter()
        .map(|r| Round {
            pairs: r.pairs.iter().map(|&(a, b)| (b, a)).collect(),
            bye: r.bye,
        })
        .collect();
    first.into_iter().chain(second).collect()
}

/// The initial order of a Swiss or knockout event: a seeded shuffle.
pub fn seeded_order(n: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.shuffle(&mut SmallRng::seed_from_u64(seed));
    order
}

/// The pairing of Swiss round `round` (1-based) for `n` players.
///
/// Round 1 pairs a seeded random order. Later rounds rank by points (ties by the seeded order),
/// give the bye (odd counts) to the lowest-ranked player who has not had one, and pair from the
/// top, each player with the highest-ranked opponent of equal or nearest score it has not met,
/// backtracking so that no pair meets twice whenever that is possible. Colours balance.
/// Withdrawn players are left out.
pub fn swiss_round(n: usize, round: usize, seed: u64, h: &History) -> Round {
    let seeded = seeded_order(n, seed);
    let mut order: Vec<usize> = seeded.into_iter().filter(|&p| !h.withdrawn[p]).collect();
    if order.len() < 2 {
        return Round::default();
    }
    if round > 1 {
        // Stable sort keeps the seeded order among equal scores.
        order.sort_by_key(|&p| std::cmp::Reverse(h.points[p]));
    }
    let mut bye = None;
    if order.len() % 2 == 1 {
        let pick = order
            .iter()
            .rposition(|&p| !h.had_bye[p])
            .unwrap_or(order.len() - 1);
        bye = Some(order.remove(pick));
    }
    let pairs = pair_without_rematches(&order, h).unwrap_or_else(|| {
        log::warn!("Swiss round {round}: every pairing repeats a game; allowing rematches");
        order.chunks(2).map(|c| (c[0], c[1])).collect()
    });
    Round {
        pairs: pairs.into_iter().map(|(a, b)| colours(a, b, h)).collect(),
        bye,
    }
}

/// Pairs `order` (best first) top-down, each with the nearest unmet player, backtracking.
fn pair_without_rematches(order: &[usize], h: &History) -> Option<Vec<(usize, usize)>> {
    let Some((&first, rest)) = order.split_first() else {
        return Some(Vec::new());
    };
    for (j, &q) in rest.iter().enumerate() {
        if h.met(first, q) {
            continue;
        }
        let remaining: Vec<usize> = rest
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != j)
            .map(|(_, &p)| p)
            .collect();
        if let Some(mut pairs) = pair_without_rematches(&remaining, h) {
            pairs.insert(0, (first, q));
            return Some(pairs);
        }
    }
    None
}

/// The next knockout round, or `None` when one player is left. Players with fewer than
/// `eliminate_after` lost matches stay in; they are grouped by losses (a lone player joins the
/// next group), each group is ordered by `seeds` and paired top against bottom (1 v n, 2 v
/// n-1); an odd group gives the top seed a bye. With `eliminate_after` 2 this is double
/// elimination: the last unbeaten player meets the best one-loss player, and a final reset
/// follows if the unbeaten one loses.
pub fn knockout_round(seeds: &[usize], eliminate_after: u32, h: &History) -> Option<Round> {
    let alive: Vec<usize> = seeds
        .iter()
        .copied()
        .filter(|&p| h.losses[p] < eliminate_after && !h.withdrawn[p])
        .collect();
    if alive.len() < 2 {
        return None;
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for losses in 0..eliminate_after {
        let group: Vec<usize> = alive
            .iter()
            .copied()
            .filter(|&p| h.losses[p] == losses)
            .collect();
        if !group.is_empty() {
            groups.push(group);
        }
    }
    // A group of one has nobody to play: merge it into the next.
    let mut merged: Vec<Vec<usize>> = Vec::new();
    let mut carry: Vec<usize> = Vec::new();
    for g in groups {
        carry.extend(g);
        if carry.len() >= 2 {
            merged.push(std::mem::take(&mut carry));
        }
    }
    if !carry.is_empty() {
        match merged.last_mut() {
            Some(last) => last.extend(carry),
            None => merged.push(carry),
        }
    }
    // The top seed of an odd group sits out; several such players are paired together.
    let mut round = Round::default();
    let mut leftovers = Vec::new();
    for mut group in merged {
        if group.len() % 2 == 1 {
            leftovers.push(group.remove(0));
        }
        let k = group.len();
        for i in 0..k / 2 {
            round.pairs.push(colours(group[i], group[k - 1 - i], h));
        }
    }
    for pair in leftovers.chunks(2) {
        match *pair {
            [a, b] => round.pairs.push(colours(a, b, h)),
            [a] => round.bye = Some(a),
            _ => {}
        }
    }
    Some(round)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::standings::WIN;

    fn key(a: usize, b: usize) -> (usize, usize) {
        (a.min(b), a.max(b))
    }

    #[test]
    fn round_robin_meets_everyone_once_with_balanced_colours() {
        for n in 2..=11 {
            let rounds = round_robin(n);
            let mut met = HashSet::new();
            let mut balance = vec![0i32; n];
            let mut byes = vec![0; n];
            for r in &rounds {
                let mut seen = HashSet::new();
                for &(b, w) in &r.pairs {
                    assert!(met.insert(key(b, w)), "n={n}: {b}-{w} twice");
                    assert!(
                        seen.insert(b) && seen.insert(w),
                        "n={n}: plays twice in a round"
                    );
                    balance[b] += 1;
                    balance[w] -= 1;
                }
                if let Some(p) = r.bye {
                    byes[p] += 1;
                    assert!(!seen.contains(&p));
                }
            }
            assert_eq!(met.len(), n * (n - 1) / 2, "n={n}");
            assert!(balance.iter().all(|b| b.abs() <= 1), "n={n}: {balance:?}");
            if n % 2 == 1 {
                assert!(byes.iter().all(|&b| b == 1), "n={n}: {byes:?}");
            }
        }
        let double = double_round_robin(4);
        assert_eq!(double.len(), 6);
        assert_eq!(
            double[0].pairs[0],
            (double[3].pairs[0].1, double[3].pairs[0].0)
        );
    }

    /// Plays a Swiss event where the lower index always wins.
    fn simulate_swiss(n: usize, rounds: usize, seed: u64) -> (Vec<Round>, History) {
        let mut h = History::new(n);
        let mut all = Vec::new();
        for r in 1..=rounds {
            let round = swiss_round(n, r, seed, &h);
            for &(b, w) in &round.pairs {
                h.add_pairing(b, w);
                h.add_colours(b, w);
                h.points[b.min(w)] += WIN;
            }
            if let Some(p) = round.bye {
                h.had_bye[p] = true;
                h.points[p] += WIN;
            }
            all.push(round);
        }
        (all, h)
    }

    #[test]
    fn swiss_never_repeats_a_pair_and_gives_each_bye_once() {
        for n in 2..=10 {
            // Up to n/2 rounds a pairing without rematches always exists (the graph of pairs
            // not yet met keeps degree >= n/2, so it has a perfect matching).
            for seed in 0..5 {
                let (rounds, h) = simulate_swiss(n, (n / 2).max(1), seed);
                let mut met = HashSet::new();
                let mut byes = vec![0; n];
                for r in &rounds {
                    for &(b, w) in &r.pairs {
                        assert!(met.insert(key(b, w)), "n={n} seed={seed}: rematch {b}-{w}");
                    }
                    assert_eq!(r.pairs.len(), n / 2);
                    assert_eq!(r.bye.is_some(), n % 2 == 1);
                    if let Some(p) = r.bye {
                        byes[p] += 1;
                    }
                }
                assert!(byes.iter().all(|&b| b <= 1), "n={n}: {byes:?}");
                assert!(
                    h.colour_balance.iter().all(|b| b.abs() <= 2),
                    "n={n}: {:?}",
                    h.colour_balance
                );
            }
        }
    }

    #[test]
    fn swiss_pairs_equal_scores() {
        // 8 players, lower index wins: after round 1 the four winners meet each other.
        let (rounds, _) = simulate_swiss(8, 2, 7);
        let winners: HashSet<usize> = rounds[0].pairs.iter().map(|&(b, w)| b.min(w)).collect();
        for &(b, w) in &rounds[1].pairs {
            assert_eq!(winners.contains(&b), winners.contains(&w), "{b}-{w}");
        }
        // Round 1 is a seeded shuffle: same seed, same pairs; another seed, other pairs.
        let h = History::new(8);
        assert_eq!(swiss_round(8, 1, 7, &h), swiss_round(8, 1, 7, &h));
        assert!((0..10).any(|s| swiss_round(8, 1, s, &h) != swiss_round(8, 1, 7, &h)));
    }

    #[test]
    fn withdrawn_players_are_not_paired() {
        let mut h = History::new(5);
        h.withdrawn[3] = true;
        for round in [1, 2] {
            let r = swiss_round(5, round, 1, &h);
            assert_eq!(r.pairs.len(), 2);
            assert!(r.bye.is_none(), "four players left: no bye");
            assert!(r.pairs.iter().all(|&(a, b)| a != 3 && b != 3));
        }
        let r = knockout_round(&[0, 1, 2, 3, 4], 1, &h).unwrap();
        assert!(r.pairs.iter().all(|&(a, b)| a != 3 && b != 3) && r.bye != Some(3));
        h.withdrawn = vec![true, true, true, true, false];
        assert!(knockout_round(&[0, 1, 2, 3, 4], 1, &h).is_none());
        assert_eq!(swiss_round(5, 2, 1, &h), Round::default());
    }

    #[test]
    fn knockout_single_and_double_elimination() {
        // 5 players, lower index wins every match.
        for eliminate_after in [1, 2] {
            let seeds: Vec<usize> = (0..5).collect();
            let mut h = History::new(5);
            let mut rounds = 0;
            while let Some(round) = knockout_round(&seeds, eliminate_after, &h) {
                rounds += 1;
                assert!(rounds < 20);
                for &(b, w) in &round.pairs {
                    assert!(h.losses[b] < eliminate_after && h.losses[w] < eliminate_after);
                    h.losses[b.max(w)] += 1;
                }
            }
            let alive: Vec<usize> = (0..5).filter(|&p| h.losses[p] < eliminate_after).collect();
            assert_eq!(alive, [0]);
            if eliminate_after == 2 {
                assert!((1..5).all(|p| h.losses[p] == 2));
            }
        }
        // Top against bottom, with the top seed's bye in an odd field.
        let h = History::new(5);
        let r = knockout_round(&[0, 1, 2, 3, 4], 1, &h).unwrap();
        assert_eq!(r.bye, Some(0));
        let pairs: Vec<(usize, usize)> = r.pairs.iter().map(|&(a, b)| key(a, b)).collect();
        assert_eq!(pairs, [(1, 4), (2, 3)]);
    }
}
