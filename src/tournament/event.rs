//! Playing a tournament round by round: pair the round from the history, play this shard's
//! unfinished pairings on the worker pool (each game refereed, written as SGF and journalled),
//! wait for the other shards' games when the round is shared, report it, and fold it into the
//! history the next round is paired from.

use super::pairing::{self, History, Round};
use super::standings::{game_points, WIN};
use super::{
    load_all_journals, pairing_state, progress_bar, Config, Format, GameKey, PairingReport,
    PairingState, RoundReport, TournamentGame,
};
use crate::arena::journal::Journal;
use crate::arena::referee::{self, EndReason, GameSetup};
use crate::arena::shard::Shard;
use crate::arena::{pool, write_sgf};
use indicatif::ProgressBar;
use std::collections::{BTreeMap, VecDeque};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// How the rounds ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every round is played (or the format has no further round).
    Finished,
    /// Ctrl-C, or a journal that could not be written.
    Interrupted,
    /// A round lacks other shards' games and the shard does not wait for them.
    Waiting,
}

/// For each pairing of a round: `None` when it is played, `Some(winner)` when a withdrawn
/// engine forfeits it (`Some(None)`: both are withdrawn).
type Forfeits = Vec<Option<Option<usize>>>;

/// A tournament under way.
pub struct Event<'a> {
    config: &'a Config,
    setup: &'a GameSetup,
    out: &'a Path,
    sgf_dir: PathBuf,
    parallel: usize,
    shard: Shard,
    /// Whether a shard waits for the others' games of a round it has finished.
    wait_for_shards: bool,
    journal: &'a Journal,
    cancel: Arc<AtomicBool>,
    /// Every shard's games so far, by (round, pairing, game).
    games: Mutex<BTreeMap<GameKey, TournamentGame>>,
    history: History,
    reports: Vec<RoundReport>,
    eliminated_in: Vec<Option<usize>>,
    withdrawn_in: Vec<Option<usize>>,
    errors: Vec<String>,
}

/// What the rounds leave for the standings and the report.
pub struct Played {
    pub reports: Vec<RoundReport>,
    /// Per engine: the round it was knocked out in, and the round it was withdrawn in.
    pub eliminated_in: Vec<Option<usize>>,
    pub withdrawn_in: Vec<Option<usize>>,
    /// SGF and journal failures.
    pub errors: Vec<String>,
    /// Every game played, in (round, pairing, game) order.
    pub games: Vec<TournamentGame>,
}

/// Everything an [`Event`] starts from.
pub struct Start<'a> {
    pub config: &'a Config,
    pub setup: &'a GameSetup,
    pub out: &'a Path,
    pub parallel: usize,
    pub shard: Shard,
    pub wait_for_shards: bool,
    pub journal: &'a Journal,
    pub cancel: Arc<AtomicBool>,
    pub games: BTreeMap<GameKey, TournamentGame>,
}

impl<'a> Event<'a> {
    pub fn new(start: Start<'a>) -> Event<'a> {
        let n = start.config.engines.len();
        Event {
            config: start.config,
            setup: start.setup,
            out: start.out,
            sgf_dir: start.out.join("sgf"),
            parallel: start.parallel,
            shard: start.shard,
            wait_for_shards: start.wait_for_shards,
            journal: start.journal,
            cancel: start.cancel,
            games: Mutex::new(start.games),
            history: History::new(n),
            reports: Vec::new(),
            eliminated_in: vec![None; n],
            withdrawn_in: vec![None; n],
            errors: Vec::new(),
        }
    }

    fn interrupted(&self) -> bool {
        self.cancel.load(Ordering::SeqCst)
    }

    fn games(&self) -> MutexGuard<'_, BTreeMap<GameKey, TournamentGame>> {
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Plays round after round until the format has no next round, or the rounds stop.
    pub fn play(mut self) -> Result<(Played, Ending), String> {
        let ending = self.play_rounds()?;
        self.finish_withdrawals();
        let played = Played {
            games: self
                .games
                .into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .into_values()
                .collect(),
            reports: self.reports,
            eliminated_in: self.eliminated_in,
            withdrawn_in: self.withdrawn_in,
            errors: self.errors,
        };
        Ok((played, ending))
    }

    fn play_rounds(&mut self) -> Result<Ending, String> {
        let n = self.config.engines.len();
        let fixed_rounds = match self.config.format {
            Format::RoundRobin => pairing::round_robin(n),
            Format::DoubleRoundRobin => pairing::double_round_robin(n),
            _ => Vec::new(),
        };
        for r in 1.. {
            let Some(round) = self.pair(r, &fixed_rounds) else {
                break;
            };
            let forfeits = self.forfeits(&round);
            let mut waited = false;
            let report = loop {
                self.play_pending(r, &round, &forfeits);
                if self.interrupted() {
                    return Ok(Ending::Interrupted);
                }
                // Other shards' games of this round may have landed meanwhile.
                load_all_journals(self.out, self.config, &mut self.games())?;
                let report = self.report(r, &round, &forfeits);
                if report.pairings.iter().all(|p| p.complete) {
                    break report;
                }
                if self.shard.count == 1 || !self.wait_for_shards {
                    self.reports.push(report);
                    return Ok(Ending::Waiting);
                }
                if !waited {
                    eprintln!(
                        "tengen tournament: round {r} waits for other shards' games in {} \
                         (Ctrl-C stops; rerunning resumes)",
                        self.out.display()
                    );
                    waited = true;
                }
                self.pause();
            };
            self.reports.push(report);
            self.fold(r, &round);
        }
        Ok(Ending::Finished)
    }

    /// Round `r`'s pairings, or `None` when the format has no such round.
    fn pair(&self, r: usize, fixed_rounds: &[Round]) -> Option<Round> {
        let n = self.config.engines.len();
        match self.config.format {
            Format::RoundRobin | Format::DoubleRoundRobin => fixed_rounds.get(r - 1).cloned(),
            Format::Swiss => (r <= self.config.rounds.unwrap_or(0))
                .then(|| pairing::swiss_round(n, r, self.config.seed, &self.history)),
            Format::Knockout | Format::BestOf => {
                let seeds: Vec<usize> = (0..n).collect();
                pairing::knockout_round(&seeds, self.config.elimination(), &self.history)
            }
        }
    }

    /// A round robin pairing with a withdrawn engine is a forfeit (the rules' withdrawal
    /// clause, summarised in `standings.rs`); Swiss and knockout rounds never pair withdrawn
    /// engines.
    fn forfeits(&self, round: &Round) -> Forfeits {
        let withdrawn = &self.history.withdrawn;
        round
            .pairs
            .iter()
            .map(|&(a, b)| match (withdrawn[a], withdrawn[b]) {
                (false, false) => None,
                (true, false) => Some(Some(b)),
                (false, true) => Some(Some(a)),
                (true, true) => Some(None),
            })
            .collect()
    }

    /// How pairing `j` of round `r` stands given the games so far.
    fn state(
        &self,
        r: usize,
        j: usize,
        round: &Round,
        forfeits: &Forfeits,
        games: &BTreeMap<GameKey, TournamentGame>,
    ) -> PairingState {
        if let Some(winner) = forfeits[j] {
            return PairingState::Done {
                winner,
                note: Some("forfeit: withdrawn engine".into()),
            };
        }
        let played: Vec<&TournamentGame> = games_of(games, r, j).collect();
        pairing_state(self.config, round.pairs[j].0, &played)
    }

    /// Plays this shard's unfinished pairings of round `r` on the worker pool.
    fn play_pending(&mut self, r: usize, round: &Round, forfeits: &Forfeits) {
        let pending: VecDeque<usize> = {
            let games = self.games();
            (0..round.pairs.len())
                .filter(|&j| {
                    self.shard.contains(j)
                        && matches!(
                            self.state(r, j, round, forfeits, &games),
                            PairingState::Next(_)
                        )
                })
                .collect()
        };
        if pending.is_empty() {
            return;
        }
        log::info!("round {r}: {} pairings to play", pending.len());
        let bar = progress_bar(r, pending.len() * self.config.games_per_pairing);
        let failures = Mutex::new(Vec::new());
        let this = &*self;
        pool::work_through(
            pending,
            self.parallel,
            || this.interrupted(),
            |j| this.play_pairing(r, j, round, forfeits, &bar, &failures),
        );
        bar.finish_and_clear();
        self.errors
            .extend(failures.into_inner().unwrap_or_else(|e| e.into_inner()));
    }

    /// Plays pairing `j`'s games until it is decided; breaks when the tournament stops.
    fn play_pairing(
        &self,
        r: usize,
        j: usize,
        round: &Round,
        forfeits: &Forfeits,
        bar: &ProgressBar,
        failures: &Mutex<Vec<String>>,
    ) -> ControlFlow<()> {
        let (a, b) = round.pairs[j];
        let fail = |e: String| failures.lock().unwrap_or_else(|p| p.into_inner()).push(e);
        loop {
            let next = self.state(r, j, round, forfeits, &self.games());
            let PairingState::Next(k) = next else {
                return ControlFlow::Continue(());
            };
            let (black, white) = if k % 2 == 0 { (a, b) } else { (b, a) };
            // Each pairing's games in twos (one per colour) over the openings, starting
            // further along on every board and round.
            let opening = self.setup.opening(k / 2 + j + r);
            let engines = &self.config.engines;
            let Ok(played) = referee::play_game(
                self.setup,
                opening,
                &engines[black].command,
                &engines[white].command,
                [self.setup.time; 2],
                &self.cancel,
            ) else {
                return ControlFlow::Break(());
            };
            let (board, game) = (j + 1, k + 1);
            let name = format!("round{r:02}-board{board}-game{game}.sgf");
            let comment = format!(
                "tengen tournament, round {r}, board {board}, game {game}: {} vs {}",
                engines[black].name, engines[white].name
            );
            let sgf = write_sgf(&self.sgf_dir, &name, &played, &comment)
                .map_err(fail)
                .ok();
            let record = TournamentGame {
                round: r,
                pairing: j,
                game: k,
                black,
                white,
                outcome: played.outcome,
                sgf,
            };
            log::info!(
                "round {r} board {board} game {game}: {} (B) vs {} (W): {} ({})",
                engines[black].name,
                engines[white].name,
                record.outcome.result,
                record.outcome.detail
            );
            if let Err(e) = self.journal.append(&record) {
                fail(e);
                self.cancel.store(true, Ordering::SeqCst);
                return ControlFlow::Break(());
            }
            self.games().insert((r, j, k), record);
            bar.inc(1);
        }
    }

    /// Round `r` as it stands: points, results and state of every pairing.
    fn report(&self, r: usize, round: &Round, forfeits: &Forfeits) -> RoundReport {
        let games = self.games();
        let pairings = round
            .pairs
            .iter()
            .enumerate()
            .map(|(j, &(a, b))| {
                let mut points = [0u32; 2];
                if let Some(Some(w)) = forfeits[j] {
                    points[usize::from(w == b)] = WIN;
                }
                for game in games_of(&games, r, j) {
                    points[0] += game_points(game.winner(), a);
                    points[1] += game_points(game.winner(), b);
                }
                let (winner, note, complete) = match self.state(r, j, round, forfeits, &games) {
                    PairingState::Done { winner, note } => (winner, note, true),
                    PairingState::Next(_) => (None, None, false),
                };
                let forfeit = forfeits[j].is_some();
                PairingReport {
                    first: a,
                    second: b,
                    points,
                    winner,
                    note,
                    results: if forfeit {
                        vec!["forfeit".into()]
                    } else {
                        games_of(&games, r, j)
                            .map(|g| g.outcome.result.clone())
                            .collect()
                    },
                    complete,
                    forfeit,
                }
            })
            .collect();
        RoundReport {
            round: r,
            bye: round.bye,
            pairings,
        }
    }

    /// A second's pause while other shards play, cut short by Ctrl-C.
    fn pause(&self) {
        for _ in 0..10 {
            if self.interrupted() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Folds round `r` (its report is the last one) into the history the next pairing is made
    /// from: colours, points, losses, eliminations, withdrawals and the bye.
    fn fold(&mut self, r: usize, round: &Round) {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let report = self.reports.last().expect("the round was reported");
        for (j, &(a, b)) in round.pairs.iter().enumerate() {
            self.history.add_pairing(a, b);
            for game in games_of(&games, r, j) {
                if game.outcome.reason == EndReason::Crash {
                    if let Some(w) = game.winner() {
                        let loser = if w == game.black {
                            game.white
                        } else {
                            game.black
                        };
                        withdraw(
                            &mut self.history,
                            &mut self.withdrawn_in,
                            self.config,
                            loser,
                            r,
                        );
                    }
                }
                self.history.add_colours(game.black, game.white);
                for player in [game.black, game.white] {
                    self.history.points[player] += game_points(game.winner(), player);
                }
            }
            if let Some(w) = report.pairings[j].winner {
                let loser = if w == a { b } else { a };
                self.history.losses[loser] += 1;
                if self.history.losses[loser] >= self.config.elimination() {
                    self.eliminated_in[loser] = Some(r);
                }
            }
        }
        if let Some(p) = round.bye {
            self.history.had_bye[p] = true;
            if self.config.format == Format::Swiss {
                self.history.points[p] += WIN;
            }
        }
    }

    /// In a knockout a withdrawn engine is out from the round it withdrew in.
    fn finish_withdrawals(&mut self) {
        if !self.config.is_knockout() {
            return;
        }
        for (eliminated, withdrawn) in self.eliminated_in.iter_mut().zip(&self.withdrawn_in) {
            if eliminated.is_none() {
                *eliminated = *withdrawn;
            }
        }
    }
}

/// An engine that crashed is withdrawn from the tournament (the rules' withdrawal clause).
fn withdraw(
    history: &mut History,
    withdrawn_in: &mut [Option<usize>],
    config: &Config,
    loser: usize,
    r: usize,
) {
    if !history.withdrawn[loser] {
        log::warn!(
            "{} crashed in round {r}: withdrawn from the tournament",
            config.engines[loser].name
        );
        history.withdrawn[loser] = true;
        withdrawn_in[loser] = Some(r);
    }
}

/// The games of pairing `j` of round `r`, in order.
fn games_of(
    games: &BTreeMap<GameKey, TournamentGame>,
    r: usize,
    j: usize,
) -> impl Iterator<Item = &TournamentGame> {
    games.range((r, j, 0)..(r, j + 1, 0)).map(|(_, g)| g)
}
