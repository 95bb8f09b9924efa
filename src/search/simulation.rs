//! One search: worker threads descend the shared tree (RAVE-blended values, priors, a bounded
//! margin term, virtual loss), expand leaves, run a playout and back the result up, with AMAF
//! updates for the siblings of every node on the path; the calling thread watches the clock
//! and the stop flag and reports analysis snapshots.

use super::config::{DEFAULT_EXPLORATION, DEFAULT_SCORE_WEIGHT};
use super::policy::{play_out, MoveLog, Policy};
use super::priors;
use super::tree::{NewChild, NodeId, Tree};
use crate::player::MoveRestrictions;
use engine_core::{Board, Color, Move, Point, MAX_CELLS};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, Ordering::*};

/// Playouts a worker counts ownership in its own workspace before adding it to the shared
/// counts: one write per cell a playout into memory both cores write costs more than the
/// playout's own board work on 19x19.
const OWNERSHIP_FLUSH: u32 = 64;

/// Search parameters that are not user settings.
#[derive(Clone, Copy, Debug)]
pub struct Params {
    /// RAVE equivalence: playouts at which tree and AMAF values weigh the same.
    pub rave_equiv: f64,
    /// Visits before a leaf is expanded.
    pub expand_after: u32,
    pub policy: Policy,
    /// Weight of the margin term on 19x19 (see [`margin_term`]): a child's value gains up to
    /// this much for a mean margin above its parent's and loses as much below. Centred on the
    /// parent so that an unvisited move stays neutral; bounded so that the win rate still
    /// decides wherever it differs.
    pub score_weight: f64,
    /// Weight `c` of the exploration term `c * sqrt(ln N / (n + 1))`, N the parent's playouts
    /// and n the child's. Without it a move whose early playouts went badly keeps the low
    /// AMAF-weighted value they gave it and is never tried again, while the search piles its
    /// playouts onto another move.
    pub exploration: f64,
}

impl Params {
    /// The defaults on a board of `area` points.
    fn for_area(area: usize) -> Self {
        Params {
            rave_equiv: default_rave_equiv(area),
            expand_after: 4,
            policy: Policy::Heavy,
            score_weight: DEFAULT_SCORE_WEIGHT,
            exploration: DEFAULT_EXPLORATION,
        }
    }
}

/// The shared state of one search from one root position.
pub struct Simulation<'a> {
    pub tree: &'a Tree,
    pub root: Board,
    pub to_move: Color,
    pub komi: f64,
    /// The last two moves before the root (for the playout policy and priors).
    pub last: [Option<Point>; 2],
    pub params: Params,
    /// Set to end the search.
    pub halt: AtomicBool,
    /// Playouts finished in this search.
    pub playouts: AtomicU64,
    /// Stop after this many playouts.
    pub max_playouts: Option<u64>,
    /// Per mailbox cell: playouts that ended with the point Black's minus those White's, over
    /// the playouts the workers have added so far (`owned`).
    pub ownership: Box<[AtomicI64]>,
    pub owned: AtomicU64,
    /// Moves the tree descent must not explore (analysis `avoid`/`allow`).
    pub restrictions: MoveRestrictions,
}

/// A worker's scratch space, allocated once per search thread.
struct Workspace {
    board: Board,
    path: Vec<NodeId>,
    moves: MoveLog,
    first_mover: Box<[u8; MAX_CELLS]>,
    children: Vec<NewChild>,
    rng: SmallRng,
    /// Ownership of the playouts not yet added to [`Simulation::ownership`], and their number.
    ownership: Box<[i64; MAX_CELLS]>,
    unflushed: u32,
}

impl<'a> Simulation<'a> {
    pub fn new(
        tree: &'a Tree,
        root: Board,
        to_move: Color,
        komi: f64,
        last: [Option<Point>; 2],
    ) -> Self {
        Simulation {
            tree,
            root,
            to_move,
            komi,
            last,
            params: Params::for_area(root.geometry().area()),
            halt: AtomicBool::new(false),
            playouts: AtomicU64::new(0),
            max_playouts: None,
            ownership: (0..MAX_CELLS).map(|_| AtomicI64::new(0)).collect(),
            owned: AtomicU64::new(0),
            restrictions: MoveRestrictions::default(),
        }
    }

    /// Runs simulations until halted or the playout budget is spent.
    pub fn work(&self, seed: u64) {
        let mut ws = Workspace {
            board: self.root,
            path: Vec::with_capacity(512),
            moves: Vec::with_capacity(4 * MAX_CELLS),
            first_mover: Box::new([0; MAX_CELLS]),
            children: Vec::with_capacity(MAX_CELLS),
            rng: SmallRng::seed_from_u64(seed),
            ownership: Box::new([0; MAX_CELLS]),
            unflushed: 0,
        };
        while !self.halt.load(Relaxed) {
            self.simulate(&mut ws);
            if ws.unflushed >= OWNERSHIP_FLUSH {
                self.flush_ownership(&mut ws);
            }
            let done = self.playouts.fetch_add(1, Relaxed) + 1;
            if self.max_playouts.is_some_and(|max| done >= max) {
                self.halt.store(true, Relaxed);
            }
        }
        self.flush_ownership(&mut ws);
    }

    fn simulate(&self, ws: &mut Workspace) {
        ws.board.copy_from(&self.root);
        ws.path.clear();
        ws.moves.clear();
        let mut node = Tree::ROOT;
        let mut color = self.to_move;
        let mut last = self.last;
        self.tree.node(node).add_visit();
        ws.path.push(node);
        loop {
            let n = self.tree.node(node);
            if !n.is_expanded() {
                if n.visits() < self.params.expand_after {
                    break;
                }
                priors::children(&ws.board, color, last, |_| true, &mut ws.children);
                self.tree.expand(node, &ws.children);
                if !n.is_expanded() {
                    break;
                }
            }
            let Some(child) = self.select(node, color, ws.path.len() - 1) else {
                break; // every move here is restricted: play out from this node
            };
            let c = self.tree.node(child);
            c.add_visit();
            let mv = c.mv();
            let point = match mv {
                Move::Play(p) => {
                    ws.board.play(color, p);
                    Some(p)
                }
                Move::Pass => {
                    ws.board.pass();
                    None
                }
            };
            ws.moves.push((mv, color));
            ws.path.push(child);
            last = [point, last[0]];
            color = color.opponent();
            node = child;
        }
        let area = ws.board.geometry().area();
        let score = play_out(
            &mut ws.board,
            color,
            self.params.policy,
            last,
            &mut ws.rng,
            &mut ws.moves,
            3 * area,
        );
        record_ownership(&ws.board, &mut ws.ownership);
        ws.unflushed += 1;
        self.back_up(ws, score);
    }

    /// The child of `node` with the best RAVE-blended value for `color`, the player to move
    /// there, `depth` plies below the root, plus the margin term; `None` when the restrictions
    /// leave no child.
    fn select(&self, node: NodeId, color: Color, depth: usize) -> Option<NodeId> {
        let mut best = None;
        let mut best_value = f64::NEG_INFINITY;
        let restricted = !self.restrictions.is_empty();
        let inverse_equiv = 1.0 / self.params.rave_equiv;
        let (score_weight, inverse_scale) =
            margin_term(self.params.score_weight, self.root.geometry().area());
        // The parent's margin is for the player who moved there: `color`'s opponent.
        let parent = self.tree.node(node);
        let reference = -parent.stats().score;
        // The largest exploration term any child can get (one with no playout of its own).
        let c = self.params.exploration;
        let max_bonus = if c > 0.0 {
            c * (parent.visits().max(1) as f64).ln().sqrt()
        } else {
            0.0
        };
        for id in parent.children() {
            if restricted
                && !self
                    .restrictions
                    .permits(color, self.tree.node(id).mv(), depth)
            {
                continue;
            }
            let s = self.tree.node(id).stats();
            let (visits, wins) = ((s.visits + s.prior_visits) as f64, s.wins + s.prior_wins);
            let (rave, rave_wins) = (s.rave_visits as f64, s.rave_wins);
            // beta * rave_wins / rave + (1 - beta) * wins / visits with the usual
            // beta = rave / (rave + visits + visits * rave / equivalence), brought over one
            // denominator: a single division a child.
            let weight = rave * inverse_equiv;
            let denominator = rave + visits * (1.0 + weight);
            let mut value = if denominator > 0.0 {
                (rave_wins + wins * (1.0 + weight)) / denominator
            } else {
                0.5
            };
            if s.visits > 0 && score_weight > 0.0 {
                let x = (s.score - reference) * inverse_scale;
                value += score_weight * x / (1.0 + x.abs());
            }
            // The square root only for children it could lift above the best so far.
            if max_bonus > 0.0 && value + max_bonus > best_value {
                value += max_bonus / (s.visits as f64 + 1.0).sqrt();
            }
            if value > best_value {
                best_value = value;
                best = Some(id);
            }
        }
        best
    }

    /// Adds a worker's ownership counts to the shared ones and clears them.
    fn flush_ownership(&self, ws: &mut Workspace) {
        for (shared, local) in self.ownership.iter().zip(ws.ownership.iter_mut()) {
            if *local != 0 {
                shared.fetch_add(std::mem::take(local), Relaxed);
            }
        }
        self.owned.fetch_add(u64::from(ws.unflushed), Relaxed);
        ws.unflushed = 0;
    }

    /// Credits the result to every node on the path and AMAF results to their children.
    fn back_up(&self, ws: &mut Workspace, score: i32) {
        let margin2 = 2 * score as i64 - (2.0 * self.komi).round() as i64;
        let black_half_points: u32 = match margin2.signum() {
            1 => 2,
            0 => 1,
            _ => 0,
        };
        let for_color = |c: Color| match c {
            Color::Black => (black_half_points, margin2),
            Color::White => (2 - black_half_points, -margin2),
        };
        ws.first_mover.fill(0);
        let mut j = ws.moves.len();
        for depth in (0..ws.path.len()).rev() {
            // Moves from this depth on: walking backwards leaves the earliest mover per point.
            while j > depth {
                j -= 1;
                if let (Move::Play(p), c) = ws.moves[j] {
                    ws.first_mover[p.index()] = c as u8 + 1;
                }
            }
            let node = self.tree.node(ws.path[depth]);
            // The root's result is for the player who moved there: the margin term's reference.
            let mover = match depth {
                0 => self.to_move.opponent(),
                _ => ws.moves[depth - 1].1,
            };
            let (half_points, margin) = for_color(mover);
            node.add_result(half_points, margin);
            let to_move = if depth % 2 == 0 {
                self.to_move
            } else {
                self.to_move.opponent()
            };
            let (half_points, _) = for_color(to_move);
            let code = to_move as u8 + 1;
            for id in node.children() {
                let child = self.tree.node(id);
                if let Move::Play(p) = child.mv() {
                    if ws.first_mover[p.index()] == code {
                        child.add_rave(half_points);
                    }
                }
            }
        }
    }
}

/// Where a board of `area` points lies between 9x9 (0) and 19x19 (1), in proportion to the
/// area beyond 9x9's: search parameters measured on the two boards are interpolated in between.
fn large_board_share(area: usize) -> f64 {
    const SMALL: f64 = 81.0;
    const LARGE: f64 = 361.0;
    ((area as f64 - SMALL) / (LARGE - SMALL)).clamp(0.0, 1.0)
}

/// The RAVE equivalence on a board of `area` points: 1,000 on 9x9 and smaller, 3,000 on 19x19
/// and larger. AMAF values credit a move wherever it came later in a playout, blind to the
/// order that tactics turn on; on 9x9, where a node near the root gets its own playouts by the
/// thousand, letting them outweigh the AMAF values after 1,000 rather than 3,000 led by seven
/// points at the headline clock against Pachi (BENCHMARKS.md, thirty-eighth session). 19x19
/// keeps the value it was tuned at until a match there says otherwise.
fn default_rave_equiv(area: usize) -> f64 {
    const SMALL_BOARD: f64 = 1000.0;
    const LARGE_BOARD: f64 = 3000.0;
    SMALL_BOARD + (LARGE_BOARD - SMALL_BOARD) * large_board_share(area)
}

/// The margin term's weight and the inverse of the margin, in points, at which it gives half
/// of it (`x / (1 + |x|)` of the margin over this scale), on a board of `area` points. The
/// weight is `weight` on 19x19 and larger, none on 9x9 and smaller, and in between by
/// [`large_board_share`]. Small boards have sharper win rates and closer games: on 9x9 the
/// term won in self-play but lost to Pachi at the headline clock (BENCHMARKS.md). The scale is
/// half the board's side: 9.5 points on 19x19.
fn margin_term(weight: f64, area: usize) -> (f64, f64) {
    (weight * large_board_share(area), 2.0 / (area as f64).sqrt())
}

/// Adds one playout's final position to `ownership`: +1 a cell for Black's stones and the
/// empty points only Black's stones touch, -1 for White's.
fn record_ownership(board: &Board, ownership: &mut [i64; MAX_CELLS]) {
    for p in board.geometry().points() {
        let owner = match board.color_at(p) {
            Some(c) => Some(c),
            None => {
                let mut seen = [false; 2];
                for n in board.geometry().neighbors(p) {
                    if let Some(c) = board.color_at(n) {
                        seen[c.index()] = true;
                    }
                }
                match seen {
                    [true, false] => Some(Color::Black),
                    [false, true] => Some(Color::White),
                    _ => None,
                }
            }
        };
        let delta = match owner {
            Some(Color::Black) => 1,
            Some(Color::White) => -1,
            None => continue,
        };
        ownership[p.index()] += delta;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two root moves that win the same playouts for Black, by 2 and by 20 points.
    const SMALL_WIN: Move = Move::Play(Point(25));
    const LARGE_WIN: Move = Move::Play(Point(30));

    /// A tree whose root has the children `moves`, without prior knowledge.
    fn tree_of(moves: &[Move]) -> Tree {
        let tree = Tree::with_memory(1 << 20);
        let children: Vec<NewChild> = moves
            .iter()
            .map(|&mv| NewChild {
                mv,
                prior_visits: 0,
                prior_wins: 0,
            })
            .collect();
        assert!(tree.expand(Tree::ROOT, &children));
        tree
    }

    /// The root move the descent picks at `score_weight`, after four playouts through each.
    fn choice(score_weight: f64) -> Move {
        let tree = tree_of(&[SMALL_WIN, LARGE_WIN]);
        let board = Board::new(engine_core::Geometry::new(19).unwrap());
        let mut sim = Simulation::new(&tree, board, Color::Black, 7.5, [None; 2]);
        sim.params.score_weight = score_weight;
        let root = tree.node(Tree::ROOT);
        for (id, margin) in tree.node(Tree::ROOT).children().zip([2, 20]) {
            for won in [true, false, true, true] {
                let (half_points, margin2) = if won { (2, 2 * margin) } else { (0, -2) };
                for node in [tree.node(id), root] {
                    node.add_visit();
                }
                tree.node(id).add_result(half_points, margin2);
                root.add_result(2 - half_points, -margin2);
            }
        }
        tree.node(sim.select(Tree::ROOT, Color::Black, 0).unwrap())
            .mv()
    }

    #[test]
    fn the_margin_term_prefers_the_larger_win_among_equal_win_rates() {
        assert_eq!(choice(0.05), LARGE_WIN);
        // Win rate only: a tie, which goes to the first child.
        assert_eq!(choice(0.0), SMALL_WIN);
    }

    #[test]
    fn exploration_tries_again_a_move_whose_first_playouts_lost() {
        // A: 10,000 playouts won a quarter of the time. B: three lost playouts, and AMAF
        // results that rate it at 20%: below A without exploration, above it with.
        let (a, b) = (Move::Play(Point(25)), Move::Play(Point(30)));
        let tree = tree_of(&[a, b]);
        let board = Board::new(engine_core::Geometry::new(9).unwrap());
        let mut ids = tree.node(Tree::ROOT).children();
        let (node_a, node_b) = (
            tree.node(ids.next().unwrap()),
            tree.node(ids.next().unwrap()),
        );
        let root = tree.node(Tree::ROOT);
        for i in 0..10_003 {
            root.add_visit();
            let (node, half_points) = match i {
                0..10_000 => (node_a, if i % 4 == 0 { 2 } else { 0 }),
                _ => (node_b, 0),
            };
            node.add_visit();
            node.add_result(half_points, 0);
        }
        for i in 0..1000 {
            node_b.add_rave(if i % 5 == 0 { 2 } else { 0 });
        }
        let mut sim = Simulation::new(&tree, board, Color::Black, 7.5, [None; 2]);
        let choice = |sim: &Simulation<'_>| {
            tree.node(sim.select(Tree::ROOT, Color::Black, 0).unwrap())
                .mv()
        };
        sim.params.exploration = 0.0;
        assert_eq!(choice(&sim), a);
        sim.params.exploration = 0.1;
        assert_eq!(choice(&sim), b);
    }

    #[test]
    fn ownership_counts_every_playout_of_every_thread() {
        // Black owns the whole board in every playout: White has no legal move and Black none
        // but filling its own eyes. 3,001 playouts are no multiple of the flush interval.
        let game = crate::search::tests::position("XXXXX X.XXX XXXXX XXX.X XXXXX", Color::White);
        let tree = Tree::with_memory(1 << 20);
        let mut sim = Simulation::new(&tree, *game.board(), Color::White, 7.5, [None; 2]);
        sim.max_playouts = Some(3001);
        std::thread::scope(|scope| {
            for seed in [1, 2] {
                let sim = &sim;
                scope.spawn(move || sim.work(seed));
            }
        });
        let playouts = sim.playouts.load(Relaxed);
        assert!(playouts >= 3001);
        assert_eq!(sim.owned.load(Relaxed), playouts);
        for p in game.geometry().points() {
            assert_eq!(sim.ownership[p.index()].load(Relaxed), playouts as i64);
        }
    }

    #[test]
    fn the_rave_equivalence_goes_from_9x9s_to_19x19s_with_the_area() {
        let equiv = |side: usize| default_rave_equiv(side * side);
        assert_eq!(equiv(7), 1000.0);
        assert_eq!(equiv(9), 1000.0);
        assert!(1000.0 < equiv(13) && equiv(13) < equiv(17) && equiv(17) < 3000.0);
        assert_eq!(equiv(19), 3000.0);
        assert_eq!(equiv(25), 3000.0);
    }

    #[test]
    fn the_margin_term_weighs_nothing_on_9x9_and_grows_with_the_area_to_19x19() {
        let weight = |side: usize| margin_term(0.05, side * side).0;
        assert_eq!(weight(7), 0.0);
        assert_eq!(weight(9), 0.0);
        assert!(0.0 < weight(13) && weight(13) < weight(17) && weight(17) < 0.05);
        assert_eq!(weight(19), 0.05);
        assert_eq!(weight(25), 0.05);
        assert_eq!(margin_term(0.05, 361).1, 2.0 / 19.0);
    }
}
