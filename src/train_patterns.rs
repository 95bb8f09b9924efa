//! `tengen train-patterns`: learns the move model's weights from game records by
//! minorization-maximization (Coulom, "Computing Elo ratings of move patterns", 2007) and
//! writes the table the search's priors read (`src/search/move_model.txt`).
//!
//! Every position of a game is a contest among the legal moves (own eyes left out, as the
//! search leaves them out) which the played move won; a move's strength is the product of its
//! features' gammas. Each step refits one feature group with the others fixed, with a virtual
//! win and loss against a gamma of 1 for every value so that rare ones stay near neutral. The
//! games after the training games are held out: the command reports how often the strongest
//! move by the model is the move played there.

use crate::search::move_features::{self, is_shape, GROUPS, GROUP_NAMES, VALUES};
use crate::search::move_model::RARE;
use crate::user_files::{check_writable, write_atomically};
use clap::Args;
use engine_core::{Board, Color, Point};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::ExitCode;

/// Game records are 19x19.
const SIZE: usize = 19;

/// A game's moves (`None`: a pass).
type Record = Vec<(Color, Option<Point>)>;

/// Options of `tengen train-patterns`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Game record files, one 19x19 game a line as `<id><TAB>;B[pd];W[pp];...` (`-` reads
    /// stdin, e.g. `unzip -p games.zip | tengen train-patterns -`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Games to learn from (the first ones).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..))]
    pub games: u32,
    /// Games after those, held out to measure the prediction rate.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..))]
    pub test_games: u32,
    /// Shapes seen fewer times than this (as legal moves) share one weight.
    #[arg(long, default_value_t = 100)]
    pub min_seen: u64,
    /// Rounds of updates of every group.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub rounds: u32,
    /// Where to write the table.
    #[arg(long)]
    pub out: PathBuf,
}

/// The legal moves of one position, merged by features, and which one was played.
struct Position {
    /// Range in the shared list of distinct moves.
    start: usize,
    len: usize,
    winner: usize,
}

/// The training positions: distinct moves (their features, or their gammas' slots once
/// [`Gammas::new`] has indexed them; and how many legal moves share them) per position.
#[derive(Default)]
struct Contests {
    moves: Vec<([u32; GROUPS], u32)>,
    positions: Vec<Position>,
}

/// A slot that is not there: the feature is absent and weighs 1.
const ABSENT: u32 = u32::MAX;

/// Gammas under training, all groups in one list.
struct Gammas {
    /// Per group, its first slot; a shape group's first slot pools its rare shapes.
    first: [usize; GROUPS + 1],
    /// Per group, the shape codes seen often enough with their slots (empty for other groups).
    dictionaries: Vec<HashMap<u32, usize>>,
    gammas: Vec<f64>,
}

pub fn run(args: &TrainArgs) -> ExitCode {
    match train(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tengen train-patterns: {e}");
            ExitCode::FAILURE
        }
    }
}

fn train(args: &TrainArgs) -> Result<(), String> {
    // Minutes of training must not end in a table that cannot be written.
    check_writable(&args.out)?;
    let (wanted, test_wanted) = (args.games as usize, args.test_games as usize);
    let games = read_games(&args.files, wanted + test_wanted)?;
    if games.len() <= wanted {
        return Err(format!(
            "{} games read: need more than the {} to train on, to test on the rest",
            games.len(),
            args.games
        ));
    }
    let (training, test) = games.split_at(wanted);
    let mut training = contests(training);
    let mut test = contests(test);
    eprintln!(
        "{} training positions ({} distinct moves), {} test positions",
        training.positions.len(),
        training.moves.len(),
        test.positions.len()
    );
    let mut gammas = Gammas::new(&training, args.min_seen);
    gammas.index(&mut training);
    gammas.index(&mut test);
    for round in 1..=args.rounds {
        for group in 0..GROUPS {
            gammas.refit(&training, group);
        }
        eprintln!(
            "round {round}: log-likelihood per position {:.4} (test {:.4})",
            gammas.log_likelihood(&training),
            gammas.log_likelihood(&test)
        );
    }
    let rate = gammas.prediction_rate(&test);
    eprintln!("prediction rate on held-out games: {:.1}%", 100.0 * rate);
    let header = format!(
        "# tengen move model, written by `tengen train-patterns --games {} --test-games {} \
         --min-seen {} --rounds {}`\n# from {} positions; the strongest move by the model is \
         the move played in {:.1}% of {} held-out positions\n",
        args.games,
        args.test_games,
        args.min_seen,
        args.rounds,
        training.positions.len(),
        100.0 * rate,
        test.positions.len()
    );
    write_atomically(&args.out, (header + &gammas.table()).as_bytes())
}

/// Up to `limit` games, each as its list of moves, from the files in order.
fn read_games(files: &[PathBuf], limit: usize) -> Result<Vec<Record>, String> {
    let mut games = Vec::new();
    for file in files {
        let reader: Box<dyn Read> = if file.as_os_str() == "-" {
            Box::new(std::io::stdin())
        } else {
            Box::new(std::fs::File::open(file).map_err(|e| format!("{}: {e}", file.display()))?)
        };
        for line in BufReader::new(reader).lines() {
            if games.len() == limit {
                return Ok(games);
            }
            let line = line.map_err(|e| format!("{}: {e}", file.display()))?;
            if let Some(moves) = parse_game(&line) {
                games.push(moves);
            }
        }
    }
    Ok(games)
}

/// The moves of one record line, up to the first malformed one; `None` for a line without any.
fn parse_game(line: &str) -> Option<Record> {
    let record = line.split_once('\t').map_or(line, |(_, record)| record);
    let geometry = Board::with_size(SIZE)?.geometry();
    let mut moves = Vec::new();
    for token in record.split(';').filter(|t| !t.is_empty()) {
        let color = match token.as_bytes().first() {
            Some(b'B') => Color::Black,
            Some(b'W') => Color::White,
            _ => break,
        };
        let Some(coords) = token[1..]
            .strip_prefix('[')
            .and_then(|t| t.strip_suffix(']'))
        else {
            break;
        };
        let point = match coords.as_bytes() {
            [] => None,
            &[col, row]
                if (b'a'..b'a' + SIZE as u8).contains(&col)
                    && (b'a'..b'a' + SIZE as u8).contains(&row) =>
            {
                // SGF counts rows from the top.
                geometry.point((col - b'a') as usize, SIZE - 1 - (row - b'a') as usize)
            }
            _ => break,
        };
        moves.push((color, point));
    }
    (!moves.is_empty()).then_some(moves)
}

/// The contests of every position of the games, in parallel over games.
fn contests(games: &[Record]) -> Contests {
    let per_game: Vec<Contests> = games.par_iter().map(|g| game_contests(g)).collect();
    let mut all = Contests::default();
    for game in per_game {
        let offset = all.moves.len();
        all.moves.extend(game.moves);
        all.positions
            .extend(game.positions.into_iter().map(|p| Position {
                start: p.start + offset,
                len: p.len,
                winner: p.winner + offset,
            }));
    }
    all
}

/// Plays a game through, stopping at an illegal move; passes are not contests.
fn game_contests(game: &[(Color, Option<Point>)]) -> Contests {
    let mut board = Board::with_size(SIZE).expect("19x19 exists");
    let mut out = Contests::default();
    let mut last = [None, None];
    let mut merged: HashMap<[u32; GROUPS], (u32, usize)> = HashMap::new();
    for &(color, point) in game {
        if let Some(played) = point {
            if !board.is_legal(color, played) {
                break;
            }
            merged.clear();
            let mut winner = None;
            for &p in board.empty_points() {
                if board.is_eye(color, p) || !board.is_legal(color, p) {
                    continue;
                }
                let features = move_features::of(&board, color, p, last).0;
                let next = merged.len();
                let entry = merged.entry(features).or_insert((0, next));
                entry.0 += 1;
                if p == played {
                    winner = Some(entry.1);
                }
            }
            if let Some(winner) = winner {
                let start = out.moves.len();
                out.moves.resize(start + merged.len(), ([0; GROUPS], 0));
                for (&features, &(count, index)) in &merged {
                    out.moves[start + index] = (features, count);
                }
                out.positions.push(Position {
                    start,
                    len: merged.len(),
                    winner: start + winner,
                });
            }
            board.play(color, played);
        } else {
            board.pass();
        }
        last = [point, last[0]];
    }
    out
}

impl Gammas {
    /// All gammas 1; shapes seen at least `min_seen` times among the legal moves get their own.
    fn new(data: &Contests, min_seen: u64) -> Gammas {
        let mut first = [0; GROUPS + 1];
        let mut dictionaries = vec![HashMap::new(); GROUPS];
        for group in 0..GROUPS {
            let size = if is_shape(group) {
                let mut seen: HashMap<u32, u64> = HashMap::new();
                for &(f, count) in &data.moves {
                    *seen.entry(f[group]).or_default() += count as u64;
                }
                let mut frequent: Vec<u32> = seen
                    .into_iter()
                    .filter(|&(_, n)| n >= min_seen)
                    .map(|(code, _)| code)
                    .collect();
                frequent.sort_unstable();
                dictionaries[group] = frequent
                    .iter()
                    .enumerate()
                    .map(|(i, &c)| (c, i + 1))
                    .collect();
                frequent.len() + 1
            } else {
                VALUES
            };
            first[group + 1] = first[group] + size;
        }
        Gammas {
            first,
            dictionaries,
            gammas: vec![1.0; first[GROUPS]],
        }
    }

    /// Turns the contests' features into slots.
    fn index(&self, data: &mut Contests) {
        data.moves
            .par_iter_mut()
            .for_each(|(f, _)| *f = self.slots(f));
    }

    /// The slots of a move's features.
    fn slots(&self, f: &[u32; GROUPS]) -> [u32; GROUPS] {
        std::array::from_fn(|group| match (is_shape(group), f[group]) {
            (true, code) => {
                (self.first[group] + self.dictionaries[group].get(&code).copied().unwrap_or(0))
                    as u32
            }
            (false, 0) => ABSENT,
            (false, value) => (self.first[group] + value as usize) as u32,
        })
    }

    fn strength(&self, slots: &[u32; GROUPS]) -> f64 {
        slots
            .iter()
            .filter(|&&s| s != ABSENT)
            .map(|&s| self.gammas[s as usize])
            .product()
    }

    /// One minorization-maximization step for `group`: gamma = wins / sum over the contests of
    /// (the move's strength without this gamma / the contest's total strength).
    fn refit(&mut self, data: &Contests, group: usize) {
        let (first, size) = (self.first[group], self.first[group + 1] - self.first[group]);
        let zeros = || (vec![0.0; size], vec![0.0; size]);
        let (wins, sums) = data
            .positions
            .par_iter()
            .fold(zeros, |(mut wins, mut sums), pos| {
                let moves = &data.moves[pos.start..pos.start + pos.len];
                let total: f64 = moves
                    .iter()
                    .map(|(f, n)| *n as f64 * self.strength(f))
                    .sum();
                for (f, n) in moves {
                    if f[group] != ABSENT {
                        let slot = f[group] as usize;
                        sums[slot - first] +=
                            *n as f64 * self.strength(f) / self.gammas[slot] / total;
                    }
                }
                let winner = data.moves[pos.winner].0[group];
                if winner != ABSENT {
                    wins[winner as usize - first] += 1.0;
                }
                (wins, sums)
            })
            .reduce(zeros, |(mut w, mut s), (w2, s2)| {
                w.iter_mut().zip(w2).for_each(|(a, b)| *a += b);
                s.iter_mut().zip(s2).for_each(|(a, b)| *a += b);
                (w, s)
            });
        for (i, gamma) in self.gammas[first..first + size].iter_mut().enumerate() {
            // The virtual win and loss against an opponent of gamma 1.
            *gamma = (wins[i] + 1.0) / (sums[i] + 2.0 / (*gamma + 1.0));
        }
    }

    /// Mean log-probability of the played move.
    fn log_likelihood(&self, data: &Contests) -> f64 {
        let sum: f64 = data
            .positions
            .par_iter()
            .map(|pos| {
                let moves = &data.moves[pos.start..pos.start + pos.len];
                let total: f64 = moves
                    .iter()
                    .map(|(f, n)| *n as f64 * self.strength(f))
                    .sum();
                (self.strength(&data.moves[pos.winner].0) / total).ln()
            })
            .sum();
        sum / data.positions.len().max(1) as f64
    }

    /// How often the strongest move is the one played (a tie of k moves counts 1/k).
    fn prediction_rate(&self, data: &Contests) -> f64 {
        let hits: f64 = data
            .positions
            .par_iter()
            .map(|pos| {
                let moves = &data.moves[pos.start..pos.start + pos.len];
                let best = moves
                    .iter()
                    .map(|(f, _)| self.strength(f))
                    .fold(0.0, f64::max);
                let winner = self.strength(&data.moves[pos.winner].0);
                if winner < best {
                    return 0.0;
                }
                let tied: u32 = moves
                    .iter()
                    .filter(|(f, _)| self.strength(f) == best)
                    .map(|(_, n)| n)
                    .sum();
                1.0 / tied as f64
            })
            .sum();
        hits / data.positions.len().max(1) as f64
    }

    /// The table in the format [`MoveModel`](crate::search::move_model::MoveModel) reads.
    fn table(&self) -> String {
        let mut out = String::new();
        for (group, name) in GROUP_NAMES.iter().enumerate() {
            let gammas = &self.gammas[self.first[group]..self.first[group + 1]];
            if is_shape(group) {
                out += &format!("{name} {RARE} {:.6}\n", gammas[0]);
                let mut codes: Vec<(&u32, &usize)> = self.dictionaries[group].iter().collect();
                codes.sort_unstable();
                for (code, &slot) in codes {
                    out += &format!("{name} {code:#x} {:.6}\n", gammas[slot]);
                }
            } else {
                // A value never seen keeps its gamma of 1, which is also what an absent line means.
                for (value, gamma) in gammas.iter().enumerate().skip(1) {
                    if *gamma != 1.0 {
                        out += &format!("{name} {value} {gamma:.6}\n");
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::move_features::CAPTURE;

    #[test]
    fn records_are_read_up_to_the_first_bad_move() {
        let moves = parse_game("g1\t;B[pd];W[];B[aa];W[zz];B[dd]").unwrap();
        let g = Board::with_size(SIZE).unwrap().geometry();
        assert_eq!(
            moves,
            vec![
                (Color::Black, g.point(15, 15)),
                (Color::White, None),
                (Color::Black, g.point(0, 18)),
            ]
        );
        assert!(parse_game("g2\t").is_none());
    }

    /// Positions where a capture is always played: its gamma rises, the others' fall, and the
    /// model then predicts every move.
    #[test]
    fn minorization_maximization_learns_what_wins() {
        let quiet = [0; GROUPS];
        let mut capture = quiet;
        capture[CAPTURE] = 1;
        let mut data = Contests::default();
        for i in 0..50 {
            let start = data.moves.len();
            data.moves.push((quiet, 10));
            data.moves.push((capture, 1));
            data.positions.push(Position {
                start,
                len: 2,
                winner: start + 1 - i % 10 / 9, // one position in ten plays a quiet move
            });
        }
        let mut gammas = Gammas::new(&data, 1);
        gammas.index(&mut data);
        let before = gammas.log_likelihood(&data);
        for _ in 0..10 {
            for group in 0..GROUPS {
                gammas.refit(&data, group);
            }
        }
        assert!(gammas.log_likelihood(&data) > before);
        let table = gammas.table();
        let learned: f64 = table
            .lines()
            .find_map(|l| l.strip_prefix("capture 1 "))
            .unwrap()
            .parse()
            .unwrap();
        // 45 wins of 1 against 10 quiet moves: about 45 * 10 / 5 = 90 against a quiet gamma of 1.
        assert!(learned > 20.0, "{table}");
        assert_eq!(gammas.prediction_rate(&data), 0.9);
    }
}
