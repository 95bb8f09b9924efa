//! Standings and tie-breaks per the rules' 第27条 (docs/RULES.md §4): game points win 2 / draw 1 /
//! loss 0; round robin ranks by points, then 胜者小分 (the points of the opponents one beat plus
//! half of those one drew with), then a shared place; Swiss by 总得分 (points + opponents'
//! points ÷ (top points ÷ 2) − rounds) then 胜者小分, or by points, then 对手分 (SOS), then
//! 胜者小分.

use serde::Serialize;

/// Game points of a win (第27条): a draw scores [`DRAW`], a loss nothing; a bye counts as a
/// win where byes score.
pub const WIN: u32 = 2;
/// Game points of a draw.
pub const DRAW: u32 = 1;

/// The game points `player` earns from a game won by `winner` (`None`: a draw).
pub fn game_points(winner: Option<usize>, player: usize) -> u32 {
    match winner {
        None => DRAW,
        Some(w) if w == player => WIN,
        Some(_) => 0,
    }
}

/// One game for the standings: engine indices, and the winner (`None`: a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub black: usize,
    pub white: usize,
    pub winner: Option<usize>,
}

/// How places are decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ranking {
    /// Points, 胜者小分, shared.
    RoundRobin,
    /// 总得分, 胜者小分, shared.
    SwissTotal,
    /// Points, SOS (对手分), 胜者小分, shared.
    SwissSos,
}

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    pub player: usize,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub byes: u32,
    /// Game points: 2 a win (a bye counts as one when byes score), 1 a draw.
    pub points: u32,
    /// 对手分: the sum of the points of every opponent met (once per pairing).
    pub sos: u32,
    /// 胜者小分: points of the opponents beaten, plus half of those drawn with (per game).
    pub sb: f64,
    /// 总得分 (Swiss method A).
    pub total: f64,
    /// 1-based place; equal for players who share it.
    pub place: usize,
    pub shared: bool,
    /// Withdrawn from the event (an engine that crashed).
    pub withdrawn: bool,
    /// Round robin: withdrawn before playing half its games, so its results are cancelled.
    pub cancelled: bool,
}

/// 总得分 = points + sos ÷ (top ÷ 2) − rounds (the middle term is 0 while nobody has points).
pub fn total_score(points: u32, sos: u32, top: u32, rounds: usize) -> f64 {
    let middle = if top == 0 {
        0.0
    } else {
        sos as f64 / (top as f64 / 2.0)
    };
    points as f64 + middle - rounds as f64
}

/// Computes the standings of `n` players from their games, the pairings that were played
/// (for SOS, once each), the byes, and how many points a bye is worth; ranked by `ranking`.
/// Returns the lines in place order.
pub fn standings(
    n: usize,
    games: &[GameResult],
    pairings: &[(usize, usize)],
    byes: &[usize],
    bye_points: u32,
    rounds: usize,
    ranking: Ranking,
) -> Vec<Standing> {
    let mut lines: Vec<Standing> = (0..n)
        .map(|player| Standing {
            player,
            games: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            byes: 0,
            points: 0,
            sos: 0,
            sb: 0.0,
            total: 0.0,
            place: 0,
            shared: false,
            withdrawn: false,
            cancelled: false,
        })
        .collect();
    for g in games {
        for p in [g.black, g.white] {
            let line = &mut lines[p];
            line.games += 1;
            line.points += game_points(g.winner, p);
            match g.winner {
                None => line.draws += 1,
                Some(w) if w == p => line.wins += 1,
                Some(_) => line.losses += 1,
            }
        }
    }
    for &p in byes {
        lines[p].byes += 1;
        lines[p].points += bye_points;
    }
    let points: Vec<u32> = lines.iter().map(|l| l.points).collect();
    for &(a, b) in pairings {
        lines[a].sos += points[b];
        lines[b].sos += points[a];
    }
    for g in games {
        match g.winner {
            None => {
                lines[g.black].sb += points[g.white] as f64 / 2.0;
                lines[g.white].sb += points[g.black] as f64 / 2.0;
            }
            Some(w) => {
                let loser = if w == g.black { g.white } else { g.black };
                lines[w].sb += points[loser] as f64;
            }
        }
    }
    let top = points.iter().copied().max().unwrap_or(0);
    for line in &mut lines {
        line.total = total_score(line.points, line.sos, top, rounds);
    }
    let key = |l: &Standing| -> Vec<f64> {
        match ranking {
            Ranking::RoundRobin => vec![l.points as f64, l.sb],
            Ranking::SwissTotal => vec![l.total, l.sb],
            Ranking::SwissSos => vec![l.points as f64, l.sos as f64, l.sb],
        }
    };
    rank(&mut lines, key);
    lines
}

/// Sorts `lines` by `key` (greater is better, compared lexicographically; near-equal floats are
/// equal) and assigns places, shared by equal keys. Ties keep the player order.
pub fn rank(lines: &mut [Standing], key: impl Fn(&Standing) -> Vec<f64>) {
    let cmp = |a: &[f64], b: &[f64]| -> std::cmp::Ordering {
        for (x, y) in a.iter().zip(b) {
            if (x - y).abs() > 1e-9 {
                return y.partial_cmp(x).unwrap_or(std::cmp::Ordering::Equal);
            }
        }
        std::cmp::Ordering::Equal
    };
    lines.sort_by(|a, b| cmp(&key(a), &key(b)).then(a.player.cmp(&b.player)));
    let keys: Vec<Vec<f64>> = lines.iter().map(&key).collect();
    for i in 0..lines.len() {
        let first = (0..=i)
            .find(|&j| cmp(&keys[j], &keys[i]).is_eq())
            .unwrap_or(i);
        lines[i].place = first + 1;
        let shared_with_next = i + 1 < lines.len() && cmp(&keys[i + 1], &keys[i]).is_eq();
        lines[i].shared = first != i || shared_with_next;
    }
}

/// The place as printed: `3`, or `3=` when shared.
pub fn place_text(s: &Standing) -> String {
    if s.shared {
        format!("{}=", s.place)
    } else {
        s.place.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(black: usize, white: usize, winner: Option<usize>) -> GameResult {
        GameResult {
            black,
            white,
            winner,
        }
    }

    fn pairs(games: &[GameResult]) -> Vec<(usize, usize)> {
        games.iter().map(|g| (g.black, g.white)).collect()
    }

    fn by_player(lines: &[Standing]) -> Vec<Standing> {
        let mut v = lines.to_vec();
        v.sort_by_key(|l| l.player);
        v
    }

    #[test]
    fn round_robin_points_and_winners_small_score() {
        // A=0 beats B and C and draws D; B beats C and D; C beats D.
        // Points: A 2+2+1 = 5, B 4, C 2, D 1.
        // 胜者小分: A = B 4 + C 2 + D 1/2 = 6.5; B = C 2 + D 1 = 3; C = D 1; D = A 5/2 = 2.5.
        let games = [
            g(0, 1, Some(0)),
            g(2, 0, Some(0)),
            g(0, 3, None),
            g(1, 2, Some(1)),
            g(3, 1, Some(1)),
            g(2, 3, Some(2)),
        ];
        let lines = standings(4, &games, &pairs(&games), &[], 0, 3, Ranking::RoundRobin);
        let p = by_player(&lines);
        assert_eq!(p.iter().map(|l| l.points).collect::<Vec<_>>(), [5, 4, 2, 1]);
        assert_eq!(
            p.iter().map(|l| l.sb).collect::<Vec<_>>(),
            [6.5, 3.0, 1.0, 2.5]
        );
        assert_eq!(
            lines.iter().map(|l| l.player).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        assert!(lines.iter().all(|l| !l.shared));
    }

    #[test]
    fn winners_small_score_breaks_equal_points() {
        // A beats B and C, D beats A; B beats C and D; C beats D.
        // Points A 4, B 4, C 2, D 2. 胜者小分: A = B 4 + C 2 = 6 > B = C 2 + D 2 = 4;
        // D = A 4 > C = D 2. Places A, B, D, C.
        let games = [
            g(0, 1, Some(0)),
            g(0, 2, Some(0)),
            g(3, 0, Some(3)),
            g(1, 2, Some(1)),
            g(1, 3, Some(1)),
            g(2, 3, Some(2)),
        ];
        let lines = standings(4, &games, &pairs(&games), &[], 0, 3, Ranking::RoundRobin);
        assert_eq!(
            lines.iter().map(|l| l.player).collect::<Vec<_>>(),
            [0, 1, 3, 2]
        );
        assert_eq!(
            lines.iter().map(|l| l.place).collect::<Vec<_>>(),
            [1, 2, 3, 4]
        );
    }

    #[test]
    fn a_cycle_shares_first_place() {
        // A beats B, B beats C, C beats A: 2 points and 胜者小分 2 each.
        let games = [g(0, 1, Some(0)), g(1, 2, Some(1)), g(2, 0, Some(2))];
        let lines = standings(3, &games, &pairs(&games), &[], 0, 2, Ranking::RoundRobin);
        assert!(lines
            .iter()
            .all(|l| l.place == 1 && l.shared && l.sb == 2.0));
        assert_eq!(place_text(&lines[0]), "1=");
    }

    #[test]
    fn swiss_total_score_and_sos() {
        // 总得分 worked example: 4 points, opponents' points 8, top score 6, 3 rounds:
        // 4 + 8 / (6 / 2) - 3 = 3 2/3.
        assert!((total_score(4, 8, 6, 3) - (4.0 + 8.0 / 3.0 - 3.0)).abs() < 1e-12);
        assert_eq!(total_score(0, 0, 0, 2), -2.0);
        // 5 players, 2 rounds. Round 1: 0 beats 1, 2 beats 3, 4 bye (2 points).
        // Round 2: 0 beats 2, 4 beats 1, 3 bye.
        // Points: 0:4, 1:0, 2:2, 3:2, 4:4. SOS: 0 = 1's 0 + 2's 2 = 2; 4 = 1's 0 = 0;
        // 2 = 3's 2 + 0's 4 = 6; 3 = 2's 2 = 2; 1 = 0's 4 + 4's 4 = 8.
        let games = [
            g(0, 1, Some(0)),
            g(2, 3, Some(2)),
            g(0, 2, Some(0)),
            g(4, 1, Some(4)),
        ];
        let lines = standings(5, &games, &pairs(&games), &[4, 3], 2, 2, Ranking::SwissSos);
        let p = by_player(&lines);
        assert_eq!(
            p.iter().map(|l| l.points).collect::<Vec<_>>(),
            [4, 0, 2, 2, 4]
        );
        assert_eq!(p.iter().map(|l| l.sos).collect::<Vec<_>>(), [2, 8, 6, 2, 0]);
        // By points then SOS: 0 (4, 2), 4 (4, 0), 2 (2, 6), 3 (2, 2), 1.
        assert_eq!(
            lines.iter().map(|l| l.player).collect::<Vec<_>>(),
            [0, 4, 2, 3, 1]
        );
        // 总得分 with top 4: 0 = 4 + 2/2 - 2 = 3; 4 = 4 + 0 - 2 = 2; 2 = 2 + 6/2 - 2 = 3;
        // 3 = 2 + 1 - 2 = 1; 1 = 0 + 4 - 2 = 2. Ties on 总得分 go to 胜者小分:
        // 0 beat 1 (0) and 2 (2): 2; 2 beat 3 (2): 2 -> shared first; 4 beat 1: 0; 1: 0.
        let lines = standings(
            5,
            &games,
            &pairs(&games),
            &[4, 3],
            2,
            2,
            Ranking::SwissTotal,
        );
        let p = by_player(&lines);
        assert_eq!(
            p.iter().map(|l| l.total).collect::<Vec<_>>(),
            [3.0, 2.0, 3.0, 1.0, 2.0]
        );
        let places: Vec<(usize, String)> =
            lines.iter().map(|l| (l.player, place_text(l))).collect();
        assert_eq!(
            places,
            [
                (0, "1=".to_string()),
                (2, "1=".to_string()),
                (1, "3=".to_string()),
                (4, "3=".to_string()),
                (3, "5".to_string())
            ]
        );
    }
}
