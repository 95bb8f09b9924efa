//! Snapshots of a running search for analysis output: root candidates with win rate, lower
//! confidence bound, prior share, score lead and principal variation, plus ownership.

use super::simulation::Simulation;
use super::tree::{NodeId, Tree};
use crate::player::{Analysis, Candidate};
use engine_core::{Game, Move};
use std::sync::atomic::Ordering::Relaxed;

/// Longest principal variation reported.
const PV_LENGTH: usize = 12;

/// The current state of `sim` on `game`, best candidates first (superko-illegal and restricted
/// root moves are left out).
pub fn snapshot(sim: &Simulation<'_>, game: &Game) -> Analysis {
    let tree = sim.tree;
    let root = tree.node(Tree::ROOT);
    let children: Vec<NodeId> = root.children().collect();
    let prior_total: f64 = children
        .iter()
        .map(|&id| prior_rate(tree, id))
        .sum::<f64>()
        .max(f64::MIN_POSITIVE);
    // The position's own value pools its shown children's results (the root records none).
    let (mut visits, mut wins, mut score) = (0.0, 0.0, 0.0);
    let mut candidates: Vec<Candidate> = children
        .iter()
        .filter_map(|&id| {
            let node = tree.node(id);
            let s = node.stats();
            if s.visits == 0
                || game.check(sim.to_move, node.mv()).is_err()
                || !sim.restrictions.permits(sim.to_move, node.mv(), 0)
            {
                return None;
            }
            visits += s.visits as f64;
            wins += s.wins;
            score += s.score * s.visits as f64;
            let (pv, pv_visits) = principal_variation(sim, id, s.visits as u64);
            let n = s.visits as f64;
            let winrate = (s.wins / n).clamp(0.0, 1.0);
            let lcb = lower_confidence_bound(winrate, n);
            Some(Candidate {
                mv: node.mv(),
                visits: s.visits as u64,
                winrate,
                prior: prior_rate(tree, id) / prior_total,
                lcb,
                score_lead: s.score,
                pv,
                pv_visits,
            })
        })
        .collect();
    candidates.sort_by(|a, b| {
        b.visits
            .cmp(&a.visits)
            .then(b.winrate.total_cmp(&a.winrate))
    });
    let visits = visits.max(1.0);
    let owned = sim.owned.load(Relaxed).max(1) as f64;
    let ownership = game
        .geometry()
        .points()
        .map(|p| (sim.ownership[p.index()].load(Relaxed) as f64 / owned) as f32)
        .collect();
    Analysis {
        candidates,
        ownership,
        playouts: root.visits() as u64,
        winrate: (wins / visits).clamp(0.0, 1.0),
        score_lead: score / visits,
    }
}

/// A 95% lower bound on a win rate seen over `visits` playouts, less one playout's worth for
/// small samples. Clamped at 0 as Leela Zero does: Lizzie and other readers take it as a win rate.
fn lower_confidence_bound(winrate: f64, visits: f64) -> f64 {
    (winrate - 1.96 * (winrate * (1.0 - winrate) / visits).sqrt() - 1.0 / visits).max(0.0)
}

/// The prior win rate a child started with.
fn prior_rate(tree: &Tree, id: NodeId) -> f64 {
    let s = tree.node(id).stats();
    if s.prior_visits == 0 {
        0.0
    } else {
        s.prior_wins / s.prior_visits as f64
    }
}

/// The root child `first` followed by the most visited child at each level that the search's
/// restrictions permit (a reused tree may hold visits from before them), with the visits of
/// each (`first_visits` for `first`, as the caller read them).
fn principal_variation(
    sim: &Simulation<'_>,
    first: NodeId,
    first_visits: u64,
) -> (Vec<Move>, Vec<u64>) {
    let tree = sim.tree;
    let mut pv = vec![tree.node(first).mv()];
    let mut pv_visits = vec![first_visits];
    let mut node = first;
    let mut color = sim.to_move.opponent();
    while pv.len() < PV_LENGTH {
        let depth = pv.len();
        let Some(next) = tree
            .node(node)
            .children()
            .filter(|&id| tree.node(id).visits() > 0)
            .filter(|&id| sim.restrictions.permits(color, tree.node(id).mv(), depth))
            .max_by_key(|&id| tree.node(id).visits())
        else {
            break;
        };
        pv.push(tree.node(next).mv());
        pv_visits.push(tree.node(next).visits() as u64);
        node = next;
        color = color.opponent();
    }
    (pv, pv_visits)
}

#[cfg(test)]
mod tests {
    use super::lower_confidence_bound;

    #[test]
    fn the_lower_bound_is_a_rate_below_the_win_rate() {
        // Few visits put the raw bound far below 0; many bring it close to the win rate.
        for visits in [1.0, 2.0, 4.0, 10.0, 1e6] {
            for winrate in [0.0, 0.1, 0.5, 0.9, 1.0] {
                let lcb = lower_confidence_bound(winrate, visits);
                assert!((0.0..=winrate).contains(&lcb), "{winrate} {visits}: {lcb}");
            }
        }
        assert_eq!(lower_confidence_bound(0.5, 2.0), 0.0);
        assert!(lower_confidence_bound(0.5, 1e6) > 0.49);
    }
}
