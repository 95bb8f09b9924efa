//! The search tree: nodes in one preallocated arena shared by all search threads.
//!
//! Statistics are atomics updated with relaxed loads and stores (benign races lose an update
//! now and then, as in Fuego's lock-free search); only the visit count, which doubles as the
//! virtual loss, uses an atomic add. A node is expanded once: the thread that wins the
//! compare-and-swap on its state reserves a contiguous block of children with an atomic bump,
//! fills them, then publishes them with a release store. When the arena is full nodes simply
//! stay leaves and the search keeps playing out.

use engine_core::{Move, Point};
use std::alloc::{alloc_zeroed, handle_alloc_error, Layout};
use std::sync::atomic::{AtomicI64, AtomicU32, AtomicU8, Ordering::*};

/// Index of a node in the arena.
pub type NodeId = u32;

const LEAF: u8 = 0;
const EXPANDING: u8 = 1;
const EXPANDED: u8 = 2;

/// One move of the tree with its statistics, from the view of the player who made the move.
/// All-zero is a valid empty node (the arena is allocated zeroed).
#[derive(Default)]
pub struct Node {
    /// The move leading here: a point index, or 0 for a pass.
    mv: AtomicU32,
    /// Playouts through this node (incremented on the way down: the virtual loss).
    visits: AtomicU32,
    /// Wins for the mover, in half points (a draw is 1).
    wins: AtomicU32,
    /// AMAF statistics: playouts in which the mover played this move first, later on.
    rave_visits: AtomicU32,
    rave_wins: AtomicU32,
    /// Sum of the final margins for the mover, in half points.
    score: AtomicI64,
    /// Prior knowledge as virtual playouts and wins (half points).
    prior_visits: AtomicU32,
    prior_wins: AtomicU32,
    first_child: AtomicU32,
    child_count: AtomicU32,
    state: AtomicU8,
}

/// A snapshot of a node's statistics.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub visits: u32,
    pub wins: f64,
    pub rave_visits: u32,
    pub rave_wins: f64,
    pub prior_visits: u32,
    pub prior_wins: f64,
    /// Mean final margin for the mover, in points.
    pub score: f64,
}

impl Node {
    pub fn mv(&self) -> Move {
        match self.mv.load(Relaxed) {
            0 => Move::Pass,
            p => Move::Play(Point(p as u16)),
        }
    }

    pub fn stats(&self) -> Stats {
        Stats {
            visits: self.visits.load(Relaxed),
            wins: self.wins.load(Relaxed) as f64 / 2.0,
            rave_visits: self.rave_visits.load(Relaxed),
            rave_wins: self.rave_wins.load(Relaxed) as f64 / 2.0,
            prior_visits: self.prior_visits.load(Relaxed),
            prior_wins: self.prior_wins.load(Relaxed) as f64 / 2.0,
            score: self.score.load(Relaxed) as f64 / 2.0 / self.visits.load(Relaxed).max(1) as f64,
        }
    }

    pub fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    /// Counts a playout on its way down (virtual loss until the result comes back).
    #[inline]
    pub fn add_visit(&self) {
        self.visits.fetch_add(1, Relaxed);
    }

    /// Adds a playout's result for the mover: the win in half points (2 win, 1 draw, 0 loss)
    /// and the final margin in half points.
    #[inline]
    pub fn add_result(&self, half_points: u32, margin: i64) {
        let w = self.wins.load(Relaxed);
        self.wins.store(w + half_points, Relaxed);
        let s = self.score.load(Relaxed);
        self.score.store(s + margin, Relaxed);
    }

    #[inline]
    pub fn add_rave(&self, half_points: u32) {
        let v = self.rave_visits.load(Relaxed);
        self.rave_visits.store(v + 1, Relaxed);
        let w = self.rave_wins.load(Relaxed);
        self.rave_wins.store(w + half_points, Relaxed);
    }

    /// Move, statistics and prior as stored, for copying a node.
    fn raw(&self) -> ([u32; 7], i64) {
        (
            self.fields().map(|a| a.load(Relaxed)),
            self.score.load(Relaxed),
        )
    }

    fn set_raw(&self, (raw, score): ([u32; 7], i64)) {
        for (field, value) in self.fields().into_iter().zip(raw) {
            field.store(value, Relaxed);
        }
        self.score.store(score, Relaxed);
    }

    fn fields(&self) -> [&AtomicU32; 7] {
        [
            &self.mv,
            &self.visits,
            &self.wins,
            &self.rave_visits,
            &self.rave_wins,
            &self.prior_visits,
            &self.prior_wins,
        ]
    }

    #[inline]
    pub fn is_expanded(&self) -> bool {
        self.state.load(Acquire) == EXPANDED
    }

    /// The children's ids, once expanded.
    #[inline]
    pub fn children(&self) -> std::ops::Range<NodeId> {
        if !self.is_expanded() {
            return 0..0;
        }
        let first = self.first_child.load(Relaxed);
        first..first + self.child_count.load(Relaxed)
    }
}

/// A child to create: its move and prior (virtual playouts, wins in half points).
#[derive(Clone, Copy, Debug)]
pub struct NewChild {
    pub mv: Move,
    pub prior_visits: u32,
    pub prior_wins: u32,
}

/// Fewest nodes an arena has, whatever the memory bound.
const MIN_NODES: usize = 4096;

/// Total physical memory, where the system says.
#[cfg(unix)]
#[allow(unsafe_code)] // libc has no safe sysconf
fn physical_memory() -> Option<usize> {
    // SAFETY: sysconf only reads system configuration.
    let (pages, page) = unsafe {
        (
            libc::sysconf(libc::_SC_PHYS_PAGES),
            libc::sysconf(libc::_SC_PAGESIZE),
        )
    };
    (pages > 0 && page > 0).then(|| (pages as usize).saturating_mul(page as usize))
}

#[cfg(not(unix))]
fn physical_memory() -> Option<usize> {
    None
}

/// The arena of nodes (see the module documentation).
pub struct Tree {
    nodes: Box<[Node]>,
    used: AtomicU32,
}

impl Tree {
    /// A tree with room for the nodes that fit in `bytes` (at least a few thousand), or in
    /// three quarters of the machine's memory if that is less, or in as much as the system
    /// grants: a bound larger than the machine is clamped with a warning, never an abort.
    #[allow(unsafe_code)] // a zeroed allocation that may fail: the arena must not abort
    pub fn with_memory(bytes: usize) -> Tree {
        let granted = bytes.min(physical_memory().map_or(usize::MAX, |m| m / 4 * 3));
        let wanted = Tree::capacity_for(granted);
        let mut capacity = wanted;
        let nodes = loop {
            let layout = Layout::array::<Node>(capacity).expect("arena size fits in memory");
            // SAFETY: `Node` holds only atomic integers, for which all-zero bytes are a valid
            // value; a non-null pointer comes from the global allocator with the layout of
            // `capacity` nodes and is owned by the returned box. Zeroed pages are committed
            // lazily by the OS.
            let ptr = unsafe { alloc_zeroed(layout) as *mut Node };
            if !ptr.is_null() {
                break unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, capacity)) };
            }
            if capacity == MIN_NODES {
                handle_alloc_error(layout);
            }
            capacity = (capacity / 2).max(MIN_NODES);
        };
        if granted < bytes || capacity < wanted {
            log::warn!(
                "the search tree gets {} MiB, not the {} MiB asked for: that is more than this \
                 machine can give",
                (capacity * size_of::<Node>()) >> 20,
                bytes >> 20
            );
        }
        Tree {
            nodes,
            used: AtomicU32::new(1),
        }
    }

    /// Nodes that fit in `bytes`, within the arena's bounds.
    fn capacity_for(bytes: usize) -> usize {
        (bytes / size_of::<Node>()).clamp(MIN_NODES, u32::MAX as usize / 2)
    }

    /// The root is always node 0 after [`reset`](Tree::reset).
    pub const ROOT: NodeId = 0;

    #[inline]
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// Nodes in use.
    pub fn used(&self) -> usize {
        self.used.load(Relaxed) as usize
    }

    pub fn capacity(&self) -> usize {
        self.nodes.len()
    }

    /// Empties the tree and clears the root (needs exclusive access: between searches).
    pub fn reset(&mut self) {
        let used = self.used();
        for node in &mut self.nodes[..used] {
            *node = Node::default();
        }
        self.used.store(1, Relaxed);
    }

    /// Makes the subtree of `id` the whole tree, copying it densely to the front of the arena
    /// (needs exclusive access: between searches).
    pub fn promote(&mut self, id: NodeId) {
        if id == Tree::ROOT {
            return;
        }
        // Breadth-first: nodes are popped in the order their new ids are handed out.
        let mut entries = Vec::new();
        let mut queue = std::collections::VecDeque::from([id]);
        let mut next_free = 1u32;
        while let Some(old) = queue.pop_front() {
            let node = self.node(old);
            let children = node.children();
            let count = children.len() as u32;
            entries.push((node.raw(), next_free, count));
            next_free += count;
            queue.extend(children);
        }
        self.reset();
        for (node, (raw, first, count)) in self.nodes.iter().zip(entries) {
            node.set_raw(raw);
            if count > 0 {
                node.first_child.store(first, Relaxed);
                node.child_count.store(count, Relaxed);
                node.state.store(EXPANDED, Relaxed);
            }
        }
        self.used.store(next_free, Relaxed);
    }

    /// Expands `id` with `children` unless another thread does or did; returns false when the
    /// arena is full (the node stays a leaf) or someone else is expanding it.
    pub fn expand(&self, id: NodeId, children: &[NewChild]) -> bool {
        let node = self.node(id);
        if node
            .state
            .compare_exchange(LEAF, EXPANDING, Acquire, Relaxed)
            .is_err()
        {
            return false;
        }
        let count = children.len() as u32;
        let first = self.used.fetch_add(count, Relaxed);
        if first as usize + count as usize > self.nodes.len() {
            self.used.fetch_sub(count, Relaxed);
            node.state.store(LEAF, Release);
            return false;
        }
        for (k, child) in children.iter().enumerate() {
            let n = &self.nodes[first as usize + k];
            n.mv.store(encode(child.mv), Relaxed);
            n.prior_visits.store(child.prior_visits, Relaxed);
            n.prior_wins.store(child.prior_wins, Relaxed);
        }
        node.first_child.store(first, Relaxed);
        node.child_count.store(count, Relaxed);
        node.state.store(EXPANDED, Release);
        true
    }
}

fn encode(m: Move) -> u32 {
    match m {
        Move::Pass => 0,
        Move::Play(p) => p.0 as u32,
    }
}
