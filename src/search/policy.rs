//! Playout policies. `Light`: uniform random non-eye moves (engine-core's). `Heavy`: after a
//! capture of three to five stones, the vital point of the space they leave (the nakade that
//! keeps the capturer to one eye); then michi's order of tactics around the last two moves —
//! capture a chain in atari or save one of ours, then 3x3 shape patterns, then random moves
//! that avoid bad self-atari, with fill-board tries in open areas — each rule taken with a
//! probability so that playouts stay varied. `Races`: the heavy policy that also answers a
//! move pressing one of our short chains by taking the outside liberties of the enemy chains
//! racing it (between the tactics and the patterns); an experiment, not yet shown to win games
//! (BENCHMARKS.md).

use super::nakade;
use super::patterns;
use engine_core::{random_light_move, Board, Color, Move, Point};
use rand::rngs::SmallRng;
use rand::RngCore;

/// Which playout policy the search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Policy {
    Light,
    #[default]
    Heavy,
    Races,
}

/// Probabilities (out of 256) of trying each heavy rule.
const P_NAKADE: u32 = 230; // ~0.9
const P_TACTICS: u32 = 230; // ~0.9
const P_RACE: u32 = 230; // ~0.9
const P_PATTERN: u32 = 243; // ~0.95
/// A move into self-atari is rejected with this probability, whichever rule chose it. Random
/// moves were rejected only half the time, and the playouts then let chains run themselves into
/// atari and misjudged capturing races; at 0.9 tengen won more often against Pachi at the full
/// 19x19 effort (BENCHMARKS.md, thirtieth session).
const P_REJECT_SELF_ATARI: u32 = 230;
const FILL_BOARD_TRIES: usize = 2;
const RANDOM_TRIES: usize = 4;

/// A playout's moves, kept for AMAF; allocated once per search thread.
pub type MoveLog = Vec<(Move, Color)>;

/// Plays from `board` with `to_move` to the end (two passes or `max_moves` stones), appends the
/// moves to `log`, and returns Black's area minus White's.
pub fn play_out(
    board: &mut Board,
    mut to_move: Color,
    policy: Policy,
    mut last: [Option<Point>; 2],
    rng: &mut SmallRng,
    log: &mut MoveLog,
    max_moves: usize,
) -> i32 {
    let mut passes = 0;
    let mut played = 0;
    while passes < 2 && played < max_moves {
        let choice = match policy {
            Policy::Light => random_light_move(board, to_move, rng),
            Policy::Heavy => heavy_move(board, to_move, last, false, rng),
            Policy::Races => heavy_move(board, to_move, last, true, rng),
        };
        match choice {
            Some(p) => {
                board.play(to_move, p);
                log.push((Move::Play(p), to_move));
                passes = 0;
                played += 1;
            }
            None => {
                board.pass();
                passes += 1;
            }
        }
        last = [choice, last[0]];
        to_move = to_move.opponent();
    }
    board.playout_score()
}

#[inline]
fn chance(rng: &mut SmallRng, out_of_256: u32) -> bool {
    rng.next_u32() & 255 < out_of_256
}

/// Up to 24 candidate points, without allocation.
struct Candidates {
    points: [Point; 24],
    len: usize,
}

impl Candidates {
    fn new() -> Candidates {
        Candidates {
            points: [Point(0); 24],
            len: 0,
        }
    }

    fn push(&mut self, p: Point) {
        if self.len < self.points.len() && !self.points[..self.len].contains(&p) {
            self.points[self.len] = p;
            self.len += 1;
        }
    }

    fn pick(&self, rng: &mut SmallRng) -> Option<Point> {
        (self.len > 0).then(|| self.points[(rng.next_u32() as usize) % self.len])
    }
}

/// One heavy-policy move for `c`, or `None` to pass; `races`: with the capturing-race rule.
pub fn heavy_move(
    board: &mut Board,
    c: Color,
    last: [Option<Point>; 2],
    races: bool,
    rng: &mut SmallRng,
) -> Option<Point> {
    if let Some(p) = nakade_after_capture(board, c, rng) {
        return Some(p);
    }
    // Each rule with its probability and how many of the last two moves it answers. A rule
    // left out draws no random number, so that the heavy policy's playouts stay as they were.
    let rules: [(u32, MoveGenerator, usize); 3] = [
        (P_TACTICS, tactical_moves, 2),
        (if races { P_RACE } else { 0 }, race_moves, 1),
        (P_PATTERN, pattern_moves, 2),
    ];
    for (probability, generate, recent) in rules {
        if probability == 0 || !chance(rng, probability) {
            continue;
        }
        let mut found = Candidates::new();
        for l in last.into_iter().take(recent).flatten() {
            generate(board, c, l, &mut found);
        }
        let candidate = found.pick(rng);
        if let Some(p) = accept(board, c, candidate, rng) {
            return Some(p);
        }
    }
    let empties = board.empty_points();
    for _ in 0..FILL_BOARD_TRIES {
        if empties.is_empty() {
            break;
        }
        let p = empties[(rng.next_u32() as usize) % empties.len()];
        if board.neighborhood(p) == 0 && board.is_legal(c, p) {
            return Some(p);
        }
    }
    for _ in 0..RANDOM_TRIES {
        let p = random_light_move(board, c, rng)?;
        if !rejected_as_self_atari(board, c, p, rng) {
            return Some(p);
        }
    }
    random_light_move(board, c, rng)
}

/// The vital point of the space the last move's capture left, when it took three stones or
/// more (`nakade::vital_point` reads spaces of up to five): played there, the captured side
/// keeps the capturer's group to one eye. Reading it costs nothing on the moves that capture
/// less, which are nearly all.
fn nakade_after_capture(board: &Board, c: Color, rng: &mut SmallRng) -> Option<Point> {
    let (at, stones) = board.last_capture()?;
    if stones < 3 || !chance(rng, P_NAKADE) {
        return None;
    }
    nakade::vital_point(board, at).filter(|&p| board.is_legal(c, p))
}

/// Adds the moves one heavy rule suggests for `c` around the recent move `l`.
type MoveGenerator = fn(&Board, Color, Point, &mut Candidates);

/// Empty points around `l` whose 3x3 shape matches a pattern. All eight are tested into a bit
/// mask first: whether a point is empty is a coin flip the branch predictor cannot learn.
fn pattern_moves(board: &Board, _c: Color, l: Point, found: &mut Candidates) {
    let points = board.neighborhood_points(l);
    let codes = board.neighborhoods_around(l);
    let mut matched = 0u32;
    for (k, (q, code)) in points.into_iter().zip(codes).enumerate() {
        matched |= ((board.is_empty(q) & patterns::matches(code)) as u32) << k;
    }
    while matched != 0 {
        found.push(points[matched.trailing_zeros() as usize]);
        matched &= matched - 1;
    }
}

/// A candidate that is legal, not an own eye, and (mostly) no self-atari.
fn accept(board: &Board, c: Color, candidate: Option<Point>, rng: &mut SmallRng) -> Option<Point> {
    let p = candidate?;
    (board.is_playout_candidate(c, p) && !rejected_as_self_atari(board, c, p, rng)).then_some(p)
}

/// Whether `c` playing on `p` is a self-atari this playout turns down.
fn rejected_as_self_atari(board: &Board, c: Color, p: Point, rng: &mut SmallRng) -> bool {
    board.is_self_atari(c, p) && chance(rng, P_REJECT_SELF_ATARI)
}

/// The liberties to take in capturing races the opponent's move on `l` pressed: when it
/// touches one of our chains of two stones or more with two or three liberties, the liberties
/// of each enemy chain in contact with ours (two stones or more, two liberties or more and no
/// more than ours) that are not also ours. Without the rule the playouts let the side that is
/// behind in a race live (BENCHMARKS.md).
fn race_moves(board: &Board, c: Color, l: Point, found: &mut Candidates) {
    if board.color_at(l) != Some(c.opponent()) {
        return;
    }
    let g = board.geometry();
    let mut pressed = [Point(0); 4];
    for (k, n) in g.neighbors(l).into_iter().enumerate() {
        if board.color_at(n) != Some(c) || board.chain_size(n) < 2 {
            continue;
        }
        let ours = board.chain_liberties(n);
        pressed[k] = board.chain_head(n);
        if !(2..=3).contains(&ours) || pressed[..k].contains(&pressed[k]) {
            continue;
        }
        let mut our_liberties = None;
        let mut seen = [Point(0); 8];
        let mut seen_count = 0;
        for s in board.chain_stones(n) {
            for e in g.neighbors(s) {
                if board.color_at(e) != Some(c.opponent()) {
                    continue;
                }
                let head = board.chain_head(e);
                if seen[..seen_count].contains(&head) || board.chain_size(e) < 2 {
                    continue;
                }
                if seen_count < seen.len() {
                    seen[seen_count] = head;
                    seen_count += 1;
                }
                let theirs = board.chain_liberties(e);
                if (2..=ours).contains(&theirs) {
                    let shared = our_liberties.get_or_insert_with(|| board.chain_liberty_set(n));
                    for bit in board.chain_liberty_set(e).and_not(shared).iter() {
                        found.push(g.point_of_bit(bit));
                    }
                }
            }
        }
    }
}

/// Captures of enemy chains in atari and escapes of own chains in atari, on and around `l`.
fn tactical_moves(board: &Board, c: Color, l: Point, found: &mut Candidates) {
    let mut around = [Point(0); 9];
    around[0] = l;
    around[1..].copy_from_slice(&board.neighborhood_points(l));
    // Most of the time no chain around is in atari: find out without a branch per point.
    let mut in_atari = 0u32;
    for (k, &q) in around.iter().enumerate() {
        in_atari |= (board.in_atari(q) as u32) << k;
    }
    while in_atari != 0 {
        let q = around[in_atari.trailing_zeros() as usize];
        in_atari &= in_atari - 1;
        let (Some(owner), Some(liberty)) = (board.color_at(q), board.atari_point(q)) else {
            continue;
        };
        if owner != c {
            found.push(liberty); // capture
            continue;
        }
        // Save our chain: extend (when that gives two liberties or more) or capture a neighbour.
        if !board.is_self_atari(c, liberty) && board.is_legal(c, liberty) {
            found.push(liberty);
        }
        for s in board.chain_stones(q).take(8) {
            for n in board.geometry().neighbors(s) {
                if board.color_at(n) == Some(c.opponent()) {
                    if let Some(capture) = board.atari_point(n) {
                        found.push(capture);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tests::{point, position};
    use rand::SeedableRng;

    #[test]
    fn a_capture_of_three_is_answered_on_the_vital_point() {
        // Black E6 takes White's straight three B6 C6 D6: White's answer is C6, which leaves
        // Black one eye there.
        let rows = "XXXXX.. XOOO.X. XXXXX.. ....... ....... ....... .......";
        let mut board = *position(rows, Color::Black).board();
        let e6 = point(&board, "E6");
        board.play(Color::Black, e6);
        assert_eq!(board.last_capture().map(|(_, stones)| stones), Some(3));
        let c6 = point(&board, "C6");
        let answers = (0..200)
            .filter(|&seed| {
                let mut rng = SmallRng::seed_from_u64(seed);
                let mut board = board;
                heavy_move(&mut board, Color::White, [Some(e6), None], false, &mut rng) == Some(c6)
            })
            .count();
        assert!(answers > 150, "C6 in {answers} of 200 playouts");
    }

    /// The race rule's candidates for `c` answering `l`, as sorted vertices.
    fn race_answers(board: &Board, c: Color, l: &str) -> Vec<String> {
        let mut found = Candidates::new();
        race_moves(board, c, point(board, l), &mut found);
        let mut answers: Vec<String> = found.points[..found.len]
            .iter()
            .map(|&p| board.geometry().vertex(p))
            .collect();
        answers.sort();
        answers
    }

    #[test]
    fn a_pressed_chain_takes_the_outside_liberties_of_the_chain_racing_it() {
        // White's D5 joins B4 C4 D4 D5: two liberties (D6, E5) against the three of Black's
        // B5 C5 (A5, B6, C6). Black takes White's liberties, not its own.
        let rows = "....... ....... .XXO... XOOOX.. .XXX... ....... .......";
        let mut board = *position(rows, Color::Black).board();
        assert_eq!(race_answers(&board, Color::Black, "D5"), ["D6", "E5"]);
        // Black's B3 C3 D3 has five liberties: no race there.
        assert!(race_answers(&board, Color::White, "C3").is_empty());
        // A single stone pressing B5 C5 from outside: the race is still with White's chain.
        board.play(Color::White, point(&board, "B6"));
        assert_eq!(race_answers(&board, Color::Black, "B6"), ["D6", "E5"]);
    }

    #[test]
    fn no_race_when_the_racing_chain_has_more_liberties() {
        // White's chain through D5 has four liberties (D6, E5, E4, D3) against Black's three:
        // Black is behind and the rule stays silent.
        let rows = "....... ....... .XXO... XOOO... .XX.... ....... .......";
        let board = *position(rows, Color::Black).board();
        assert!(race_answers(&board, Color::Black, "D5").is_empty());
    }
}
