//! `tengen tournament CONFIG.toml --out DIR`: round robin (single or double), Swiss (积分编排制),
//! knockout (single, double or n-loss elimination with best-of-N matches and tie-break games)
//! and best-of-N between two engines, refereed game by game like `tengen match`.
//!
//! Each round is paired from the results of the earlier ones (deterministically, from the seed),
//! every finished game is journalled, so rerunning the same command resumes; `--shard I/N`
//! plays a slice of each round's pairings, then waits until all shards' journals (in the same
//! `--out` directory) complete the round before pairing the next one.
//!
//! ```toml
//! format = "swiss"          # swiss | round-robin | double-round-robin | knockout | best-of
//! rounds = 3                # Swiss only
//! size = 9
//! komi = 7.5
//! time = "1m+5sx3"          # as `tengen match --time`
//! games_per_pairing = 1     # knockout / best-of: N of best-of-N
//! [[engine]]
//! name = "gnugo"
//! command = "gnugo --mode gtp --level 1 --chinese-rules"
//! ```

mod event;
pub mod pairing;
pub mod standings;

use crate::arena::journal::{self, Journal};
use crate::arena::referee::{GameSetup, Outcome};
use crate::arena::repeats::{repeat_warning, repeated_games};
use crate::arena::setup::GameSettings;
use crate::arena::shard::{Shard, ShardSpec};
use crate::arena::{init_logging, interrupt_flag, preflight};
use crate::user_files;
use clap::Args;
use event::{Ending, Event, Played, Start};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use standings::{game_points, place_text, GameResult, Ranking, Standing, DRAW, WIN};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `tengen tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// The tournament file (TOML).
    pub config: PathBuf,
    /// Directory for the journal, SGF files and tournament.json.
    #[arg(long)]
    pub out: PathBuf,
    /// Play only pairings j with j mod N = I - 1 of every round (I/N, 1-based); `auto` (or
    /// `auto/N`) takes I and N from the batch system (Slurm, Kubernetes, GNU parallel).
    #[arg(long)]
    pub shard: Option<ShardSpec>,
    /// Pairings played at once (overrides `parallel` of the file).
    #[arg(long)]
    pub parallel: Option<usize>,
    /// With --shard: stop (exit code 3) instead of waiting when a round still needs other
    /// shards' games.
    #[arg(long)]
    pub no_wait: bool,
    /// Play nothing: show the tournament as far as the journals in --out go (every shard's),
    /// and which shards have written how many games.
    #[arg(long)]
    pub status: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    Swiss,
    RoundRobin,
    DoubleRoundRobin,
    Knockout,
    BestOf,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SwissRanking {
    /// 总得分, then 胜者小分.
    #[default]
    TotalScore,
    /// Points, then SOS (对手分), then 胜者小分.
    Sos,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineEntry {
    pub name: String,
    pub command: String,
}

fn one() -> usize {
    1
}
fn one_loss() -> u32 {
    1
}
fn two() -> usize {
    2
}

/// The tournament file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Config {
    pub format: Format,
    /// Swiss: number of rounds.
    #[serde(default)]
    pub rounds: Option<usize>,
    /// Size, komi, clock and the other settings of every game, as `tengen match` takes them.
    #[serde(flatten)]
    pub game: GameSettings,
    /// Games per pairing (colours alternate); for knockout and best-of, N of best-of-N.
    #[serde(default = "one")]
    pub games_per_pairing: usize,
    /// Knockout: matches lost before elimination (1 single, 2 double elimination).
    #[serde(default = "one_loss")]
    pub elimination: u32,
    /// Knockout and best-of: extra games when a match is tied, before the higher seed advances.
    #[serde(default = "two")]
    pub tiebreak_games: usize,
    /// Seed of the Swiss first round.
    #[serde(default)]
    pub seed: u64,
    #[serde(default)]
    pub swiss_ranking: SwissRanking,
    /// Pairings played at once.
    #[serde(default = "one")]
    pub parallel: usize,
    /// Engines, in seeding order (knockout brackets, shared-place order).
    #[serde(rename = "engine")]
    pub engines: Vec<EngineEntry>,
    /// Keys of the file that no setting takes, refused by [`Config::parse`] (serde cannot deny
    /// unknown fields beside a flattened struct; this map, declared last, collects them).
    #[serde(flatten, skip_serializing)]
    unknown: BTreeMap<String, toml::Value>,
}

impl Config {
    pub fn parse(text: &str) -> Result<Config, String> {
        let config: Config = toml::from_str(text).map_err(|e| one_line_toml_error(text, &e))?;
        if let Some(key) = config.unknown.keys().next() {
            return Err(format!("unknown key `{key}` in the tournament file"));
        }
        config.validate()?;
        Ok(config)
    }

    fn validate(&self) -> Result<(), String> {
        let n = self.engines.len();
        if n < 2 {
            return Err("a tournament needs at least two [[engine]] entries".into());
        }
        for (i, e) in self.engines.iter().enumerate() {
            if e.name.trim().is_empty() {
                return Err(format!("engine {} has an empty name", i + 1));
            }
            if self.engines[..i].iter().any(|o| o.name == e.name) {
                return Err(format!("engine name {:?} is used twice", e.name));
            }
            match gtp::controller::split_command_line(&e.command) {
                Ok(words) if !words.is_empty() => {}
                Ok(_) => return Err(format!("engine {:?} has an empty command", e.name)),
                Err(why) => return Err(format!("engine {:?}: {why}", e.name)),
            }
        }
        if self.games_per_pairing == 0 {
            return Err("games_per_pairing must be at least 1".into());
        }
        if self.parallel == 0 {
            return Err("parallel must be at least 1".into());
        }
        match self.format {
            Format::Swiss => {
                let most = if n.is_multiple_of(2) { n - 1 } else { n };
                match self.rounds {
                    Some(r) if (1..=most).contains(&r) => {}
                    Some(r) => {
                        return Err(format!(
                            "{r} Swiss rounds for {n} engines: at most {most} without rematches"
                        ))
                    }
                    None => return Err("a Swiss tournament needs `rounds`".into()),
                }
            }
            _ if self.rounds.is_some() => {
                return Err("`rounds` is only for the Swiss format".into());
            }
            Format::BestOf if n != 2 => {
                return Err(format!("best-of is between two engines, not {n}"));
            }
            Format::Knockout if !(1..=3).contains(&self.elimination) => {
                return Err("elimination must be 1 (single), 2 (double) or 3".into());
            }
            _ => {}
        }
        Ok(())
    }

    fn is_knockout(&self) -> bool {
        matches!(self.format, Format::Knockout | Format::BestOf)
    }

    fn elimination(&self) -> u32 {
        if self.format == Format::BestOf {
            1
        } else {
            self.elimination
        }
    }
}

/// One finished tournament game as the journal keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentGame {
    /// 1-based.
    pub round: usize,
    /// Index of the pairing within the round (0-based; "board" j + 1).
    pub pairing: usize,
    /// Index of the game within the pairing (0-based).
    pub game: usize,
    /// Engine indices.
    pub black: usize,
    pub white: usize,
    #[serde(flatten)]
    pub outcome: Outcome,
    pub sgf: Option<PathBuf>,
}

impl TournamentGame {
    fn winner(&self) -> Option<usize> {
        match self.outcome.winner {
            Some('B') => Some(self.black),
            Some('W') => Some(self.white),
            _ => None,
        }
    }
}

type GameKey = (usize, usize, usize);

/// How a pairing stands: finished (with the match winner for knockouts), or which game is next.
#[derive(Clone, Debug, PartialEq)]
enum PairingState {
    Done {
        winner: Option<usize>,
        note: Option<String>,
    },
    Next(usize),
}

/// The state of pairing `(a, …)` given its games (in order). In knockouts a match still tied
/// after the tie-break games goes to the higher seed (the engine listed first).
fn pairing_state(config: &Config, a: usize, games: &[&TournamentGame]) -> PairingState {
    let n = config.games_per_pairing;
    let played = games.len();
    if !config.is_knockout() {
        return if played >= n {
            PairingState::Done {
                winner: None,
                note: None,
            }
        } else {
            PairingState::Next(played)
        };
    }
    let mut points = [0u32; 2];
    let mut b = None;
    for g in games {
        let other = if g.black == a { g.white } else { g.black };
        b = Some(other);
        points[0] += game_points(g.winner(), a);
        points[1] += game_points(g.winner(), other);
    }
    let Some(b) = b else {
        return PairingState::Next(0);
    };
    let lead = points[0].abs_diff(points[1]);
    let leader = if points[0] > points[1] { a } else { b };
    if played < n {
        // Decided once the trailing player cannot catch up in the games left.
        if lead as usize > WIN as usize * (n - played) {
            return PairingState::Done {
                winner: Some(leader),
                note: None,
            };
        }
        return PairingState::Next(played);
    }
    if lead > 0 {
        let note = (played > n).then(|| "decided in tie-break games".to_string());
        return PairingState::Done {
            winner: Some(leader),
            note,
        };
    }
    if played < n + config.tiebreak_games {
        return PairingState::Next(played);
    }
    PairingState::Done {
        winner: Some(a.min(b)),
        note: Some("still tied after the tie-break games: the higher seed advances".into()),
    }
}

/// A round as played: its pairing and, per pairing, the state.
#[derive(Clone, Debug, Serialize)]
struct RoundReport {
    round: usize,
    bye: Option<usize>,
    pairings: Vec<PairingReport>,
}

#[derive(Clone, Debug, Serialize)]
struct PairingReport {
    /// Black in the first game.
    first: usize,
    second: usize,
    /// Game points of `first` and `second`.
    points: [u32; 2],
    /// Match winner (knockout formats).
    winner: Option<usize>,
    note: Option<String>,
    results: Vec<String>,
    complete: bool,
    /// Not played: a withdrawn engine forfeits.
    forfeit: bool,
}

pub fn main(args: TournamentArgs) -> ExitCode {
    init_logging();
    match run(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tengen tournament: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &TournamentArgs) -> Result<ExitCode, String> {
    let (config, parallel) = load_config(args)?;
    let setup = setup_of(&config, &args.config)?;
    if args.status {
        if !args.out.is_dir() {
            return Err(format!("{} holds no tournament yet", args.out.display()));
        }
        let mut games = BTreeMap::new();
        load_all_journals(&args.out, &config, &mut games)?;
        print!("{}", shard_status(&args.out)?);
        return status(&config, &games);
    }
    // A typo in a command line stops the tournament here, instead of withdrawing the engine
    // after round 1; a referee that cannot start must not quietly become Tromp-Taylor counting.
    for engine in &config.engines {
        preflight(&engine.command)
            .map_err(|e| format!("engine {:?} does not work: {e}", engine.name))?;
    }
    if let Some(referee) = &config.game.referee {
        preflight(referee).map_err(|e| format!("the referee does not work: {e}"))?;
    }
    user_files::check_writable(&args.out.join("tournament.json"))?;
    let shard = args.shard.map(ShardSpec::resolve).transpose()?;
    let journal_name = match shard {
        Some(s) => format!("journal.shard-{}-of-{}.jsonl", s.index, s.count),
        None => "journal.jsonl".to_string(),
    };
    let (journal, _): (Journal, Vec<TournamentGame>) =
        Journal::open(&args.out.join(&journal_name), &config)?;
    let mut games = BTreeMap::new();
    load_all_journals(&args.out, &config, &mut games)?;
    let event = Event::new(Start {
        config: &config,
        setup: &setup,
        out: &args.out,
        parallel,
        shard: shard.unwrap_or(Shard { index: 1, count: 1 }),
        wait_for_shards: !args.no_wait,
        journal: &journal,
        cancel: interrupt_flag(),
        games,
    });
    let (played, ending) = event.play()?;
    conclude(args, &config, &journal, played, ending)
}

/// The configuration file, and the games to play at once. The journal identifies the
/// tournament by everything but the parallelism, which is therefore kept apart.
fn load_config(args: &TournamentArgs) -> Result<(Config, usize), String> {
    let text = user_files::read_small_text(&args.config)
        .map_err(|e| format!("cannot read {}: {e}", args.config.display()))?;
    let mut config = Config::parse(&text).map_err(|e| format!("{}: {e}", args.config.display()))?;
    let parallel = args.parallel.unwrap_or(config.parallel);
    if parallel == 0 {
        return Err("--parallel must be at least 1".into());
    }
    config.parallel = 1;
    Ok((config, parallel))
}

/// The games' set-up; a relative opening path is relative to the configuration file.
fn setup_of(config: &Config, config_path: &Path) -> Result<GameSetup, String> {
    let opening = config.game.opening.as_ref().map(|p| {
        if p.is_relative() {
            config_path.parent().unwrap_or(Path::new(".")).join(p)
        } else {
            p.clone()
        }
    });
    GameSettings {
        opening,
        ..config.game.clone()
    }
    .check()
}

/// Standings, tables, repeated-game warning and tournament.json, then the exit code: 130
/// when interrupted, 3 when a round waits for other shards, 1 after SGF or journal failures.
fn conclude(
    args: &TournamentArgs,
    config: &Config,
    journal: &Journal,
    played: Played,
    ending: Ending,
) -> Result<ExitCode, String> {
    let Played {
        reports,
        eliminated_in,
        withdrawn_in,
        errors,
        games: all,
    } = played;
    let table = standings_for(config, &reports, &all, &eliminated_in, &withdrawn_in);
    print!("{}", render(config, &reports, &table, &all));
    let repeated = repeated_games(all.iter().map(|g| (g.black, g.white, &g.outcome)));
    let remedy =
        "vary the engines (a random seed) or the openings (`opening` in the configuration)";
    print!(
        "{}",
        repeat_warning(repeated, all.len(), remedy).unwrap_or_default()
    );
    write_json(
        &args.out.join("tournament.json"),
        config,
        &reports,
        &table,
        &all,
        repeated,
    )?;
    for e in &errors {
        eprintln!("tengen tournament: {e}");
    }
    match ending {
        Ending::Interrupted => {
            eprintln!(
                "tengen tournament: interrupted; run the same command again to continue ({})",
                journal.path().display()
            );
            Ok(ExitCode::from(130))
        }
        Ending::Waiting => {
            eprintln!(
                "tengen tournament: round {} waits for other shards' games; rerun when their journals in {} are complete",
                reports.len(),
                args.out.display()
            );
            Ok(ExitCode::from(3))
        }
        Ending::Finished if errors.is_empty() => Ok(ExitCode::SUCCESS),
        Ending::Finished => Ok(ExitCode::FAILURE),
    }
}

fn status(config: &Config, games: &BTreeMap<GameKey, TournamentGame>) -> Result<ExitCode, String> {
    let mut rounds: BTreeMap<usize, usize> = BTreeMap::new();
    let mut tally = vec![[0u32; 4]; config.engines.len()]; // games, wins, draws, points
    for g in games.values() {
        *rounds.entry(g.round).or_default() += 1;
        for player in [g.black, g.white] {
            let line = &mut tally[player];
            line[0] += 1;
            line[3] += game_points(g.winner(), player);
            match g.winner() {
                Some(w) if w == player => line[1] += 1,
                Some(_) => {}
                None => line[2] += 1,
            }
        }
    }
    let mut text = String::new();
    for (round, count) in &rounds {
        let _ = writeln!(text, "round {round}: {count} games played");
    }
    let _ = writeln!(
        text,
        "{:<20} {:>5} {:>4} {:>5} {:>6}",
        "engine", "games", "wins", "draws", "points"
    );
    for (entry, [played, wins, draws, points]) in config.engines.iter().zip(&tally) {
        let _ = writeln!(
            text,
            "{:<20} {played:>5} {wins:>4} {draws:>5} {points:>6}",
            entry.name
        );
    }
    print!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// One line per journal in `dir` (its shard and games), and the shards with no journal yet.
fn shard_status(dir: &Path) -> Result<String, String> {
    let mut text = String::new();
    let mut shards: Vec<Shard> = Vec::new();
    let entries = journal::journals_in(dir, &["journal"])?;
    for path in &entries {
        let name = path
            .file_name()
            .map_or(String::new(), |n| n.to_string_lossy().into());
        let played = std::fs::read_to_string(path)
            .map(|t| t.lines().filter(|l| l.starts_with("{\"game\"")).count())
            .unwrap_or(0);
        let shard = name
            .strip_prefix("journal.shard-")
            .and_then(|rest| rest.strip_suffix(".jsonl"))
            .and_then(|rest| rest.replace("-of-", "/").parse::<Shard>().ok());
        match shard {
            Some(shard) => {
                let _ = writeln!(text, "shard {shard}: {played} games ({})", path.display());
                shards.push(shard);
            }
            None => {
                let _ = writeln!(text, "{played} games ({})", path.display());
            }
        }
    }
    if let Some(count) = shards.iter().map(|s| s.count).max() {
        for index in 1..=count {
            if !shards.contains(&Shard { index, count }) {
                let _ = writeln!(text, "shard {index}/{count}: missing (no journal)");
            }
        }
    }
    Ok(text)
}

/// Reads every `journal*.jsonl` in `dir` (all shards) into `games`, checking that they belong to
/// this tournament.
fn load_all_journals(
    dir: &Path,
    config: &Config,
    games: &mut BTreeMap<GameKey, TournamentGame>,
) -> Result<(), String> {
    for path in journal::journals_in(dir, &["journal"])? {
        // Another shard may be creating its journal right now: wait for its header line.
        let complete_line = std::fs::read_to_string(&path)
            .map(|t| t.contains('\n'))
            .unwrap_or(false);
        if !complete_line {
            continue;
        }
        let (header, records): (Config, Vec<TournamentGame>) = journal::read(&path)?;
        if header != *config {
            return Err(format!(
                "{} belongs to another tournament (different engines or settings); use another --out",
                path.display()
            ));
        }
        for g in records {
            games.entry((g.round, g.pairing, g.game)).or_insert(g);
        }
    }
    Ok(())
}

fn standings_for(
    config: &Config,
    reports: &[RoundReport],
    games: &[TournamentGame],
    eliminated_in: &[Option<usize>],
    withdrawn_in: &[Option<usize>],
) -> Vec<Standing> {
    let n = config.engines.len();
    let cancelled = cancelled_results(config, reports, withdrawn_in);
    let counts = |a: usize, b: usize| !cancelled[a] && !cancelled[b];
    let results = counted_results(config, reports, games, &counts);
    let pairings: Vec<(usize, usize)> = reports
        .iter()
        .flat_map(|r| r.pairings.iter().map(|p| (p.first, p.second)))
        .filter(|&(a, b)| counts(a, b))
        .collect();
    let complete_rounds: Vec<&RoundReport> = reports
        .iter()
        .filter(|r| r.pairings.iter().all(|p| p.complete))
        .collect();
    let byes: Vec<usize> = complete_rounds.iter().filter_map(|r| r.bye).collect();
    let bye_points = if config.format == Format::Swiss {
        WIN
    } else {
        0
    };
    let ranking = match (config.format, config.swiss_ranking) {
        (Format::Swiss, SwissRanking::TotalScore) => Ranking::SwissTotal,
        (Format::Swiss, SwissRanking::Sos) => Ranking::SwissSos,
        _ => Ranking::RoundRobin,
    };
    let mut table = standings::standings(
        n,
        &results,
        &pairings,
        &byes,
        bye_points,
        complete_rounds.len(),
        ranking,
    );
    for line in &mut table {
        line.withdrawn = withdrawn_in[line.player].is_some();
        line.cancelled = cancelled[line.player];
    }
    if config.is_knockout() {
        // Still in: best; otherwise the later one was knocked out, the better.
        standings::rank(&mut table, |s| {
            vec![eliminated_in[s.player].map_or(f64::MAX, |r| r as f64)]
        });
    } else if cancelled.iter().any(|&c| c) {
        // Cancelled engines are ranked after everyone else.
        standings::rank(&mut table, |s| {
            let mut key = vec![if s.cancelled { 0.0 } else { 1.0 }];
            key.extend(match ranking {
                Ranking::RoundRobin => vec![s.points as f64, s.sb],
                Ranking::SwissTotal => vec![s.total, s.sb],
                Ranking::SwissSos => vec![s.points as f64, s.sos as f64, s.sb],
            });
            key
        });
    }
    table
}

/// Per engine, whether its results are cancelled (第28条, docs/RULES.md §4): in a round robin,
/// an engine withdrawn before playing half of its pairings has all its results cancelled;
/// otherwise its remaining pairings are forfeits. In a Swiss its played results stand.
fn cancelled_results(
    config: &Config,
    reports: &[RoundReport],
    withdrawn_in: &[Option<usize>],
) -> Vec<bool> {
    let n = config.engines.len();
    let round_robin = matches!(config.format, Format::RoundRobin | Format::DoubleRoundRobin);
    let scheduled = if config.format == Format::DoubleRoundRobin {
        2 * (n - 1)
    } else {
        n - 1
    };
    (0..n)
        .map(|p| {
            if !round_robin || withdrawn_in[p].is_none() {
                return false;
            }
            let played = reports
                .iter()
                .flat_map(|r| &r.pairings)
                .filter(|q| !q.forfeit && (q.first == p || q.second == p))
                .count();
            2 * played < scheduled
        })
        .collect()
}

/// The games that count, with each forfeited pairing as games won by the engine still in.
fn counted_results(
    config: &Config,
    reports: &[RoundReport],
    games: &[TournamentGame],
    counts: &impl Fn(usize, usize) -> bool,
) -> Vec<GameResult> {
    let mut results: Vec<GameResult> = games
        .iter()
        .filter(|g| counts(g.black, g.white))
        .map(|g| GameResult {
            black: g.black,
            white: g.white,
            winner: g.winner(),
        })
        .collect();
    for p in reports.iter().flat_map(|r| &r.pairings) {
        if let (true, Some(w)) = (p.forfeit, p.winner) {
            if counts(p.first, p.second) {
                for _ in 0..config.games_per_pairing {
                    results.push(GameResult {
                        black: p.first,
                        white: p.second,
                        winner: Some(w),
                    });
                }
            }
        }
    }
    results
}

fn render(
    config: &Config,
    reports: &[RoundReport],
    table: &[Standing],
    games: &[TournamentGame],
) -> String {
    let names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    let width = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(4)
        .max(6);
    let mut t = format!(
        "{:?} tournament, {} engines, {}x{}, komi {}\n",
        config.format,
        names.len(),
        config.game.size,
        config.game.size,
        config.game.komi
    );
    render_rounds(&mut t, config, reports, &names, width);
    render_cross_table(&mut t, games, &names, width);
    render_standings(&mut t, config, table, &names, width);
    t
}

/// Each round's boards: points, results, the match winner in knockouts, and the bye.
fn render_rounds(
    t: &mut String,
    config: &Config,
    reports: &[RoundReport],
    names: &[&str],
    width: usize,
) {
    for r in reports {
        let _ = writeln!(t, "\nRound {}", r.round);
        for (j, p) in r.pairings.iter().enumerate() {
            let winner = match (p.winner, config.is_knockout()) {
                (Some(w), true) => format!("  -> {}", names[w]),
                _ => String::new(),
            };
            let _ = writeln!(
                t,
                "  board {:>2}: {:<width$} {:>2} - {:<2} {:<width$}  [{}]{}{}{}",
                j + 1,
                names[p.first],
                p.points[0],
                p.points[1],
                names[p.second],
                p.results.join(", "),
                winner,
                p.note
                    .as_deref()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default(),
                if p.complete { "" } else { "  (unfinished)" },
            );
        }
        if let Some(b) = r.bye {
            let _ = writeln!(t, "  bye: {}", names[b]);
        }
    }
}

/// Game points each row engine scored against each column engine.
fn render_cross_table(t: &mut String, games: &[TournamentGame], names: &[&str], width: usize) {
    let n = names.len();
    let mut cross = vec![vec![None::<u32>; n]; n];
    for g in games {
        let (b, w) = (g.black, g.white);
        *cross[b][w].get_or_insert(0) += game_points(g.winner(), b);
        *cross[w][b].get_or_insert(0) += game_points(g.winner(), w);
    }
    let _ = writeln!(
        t,
        "\nCross-table (game points scored against each opponent)"
    );
    let _ = write!(t, "{:>3} {:<width$}", "", "engine");
    for j in 0..n {
        let _ = write!(t, " {:>3}", j + 1);
    }
    let _ = writeln!(t);
    for (i, row) in cross.iter().enumerate() {
        let _ = write!(t, "{:>3} {:<width$}", i + 1, names[i]);
        for (j, cell) in row.iter().enumerate() {
            let cell = if i == j {
                "x".to_string()
            } else {
                cell.map(|p| p.to_string()).unwrap_or_else(|| ".".into())
            };
            let _ = write!(t, " {cell:>3}");
        }
        let _ = writeln!(t);
    }
}

/// The standings with their tie-break columns, and what they are ranked by.
fn render_standings(
    t: &mut String,
    config: &Config,
    table: &[Standing],
    names: &[&str],
    width: usize,
) {
    let _ = writeln!(t, "\nStandings");
    let _ = writeln!(
        t,
        "{:<5} {:<width$} {:>5} {:>8} {:>6} {:>5} {:>6} {:>7}",
        "place", "engine", "games", "W-D-L", "points", "SOS", "SB", "total"
    );
    for s in table {
        let _ = writeln!(
            t,
            "{:<5} {:<width$} {:>5} {:>8} {:>6} {:>5} {:>6.1} {:>7.2}{}",
            place_text(s),
            names[s.player],
            s.games,
            format!("{}-{}-{}", s.wins, s.draws, s.losses),
            s.points,
            s.sos,
            s.sb,
            s.total,
            match (s.withdrawn, s.cancelled) {
                (true, true) => "  withdrawn, results cancelled",
                (true, false) => "  withdrawn",
                _ => "",
            }
        );
    }
    let _ = writeln!(
        t,
        "points: win {WIN}, draw {DRAW}{}; SOS (对手分): opponents' points; SB (胜者小分): points of \
         the opponents beaten + half of those drawn; total (总得分): points + SOS / (top points / 2) \
         - rounds",
        if config.format == Format::Swiss {
            format!(", bye {WIN}")
        } else {
            String::new()
        }
    );
    let _ = writeln!(
        t,
        "ranked by {}",
        match (config.format, config.swiss_ranking) {
            (Format::Swiss, SwissRanking::TotalScore) => "total, then SB",
            (Format::Swiss, SwissRanking::Sos) => "points, then SOS, then SB",
            (Format::Knockout | Format::BestOf, _) => "the round of elimination",
            _ => "points, then SB",
        }
    );
}

fn write_json(
    path: &Path,
    config: &Config,
    reports: &[RoundReport],
    table: &[Standing],
    games: &[TournamentGame],
    duplicates: u32,
) -> Result<(), String> {
    #[derive(Serialize)]
    struct Export<'a> {
        config: &'a Config,
        rounds: &'a [RoundReport],
        standings: &'a [Standing],
        games: &'a [TournamentGame],
        /// Games that repeat an earlier one move for move (see `repeated_games`).
        duplicates: u32,
    }
    let text = serde_json::to_string_pretty(&Export {
        config,
        rounds: reports,
        standings: table,
        games,
        duplicates,
    })
    .map_err(|e| e.to_string())?;
    user_files::write_atomically(path, text.as_bytes())
}

/// A TOML error as one line, `line L: what` (the crate's own text draws the line with a caret).
fn one_line_toml_error(text: &str, e: &toml::de::Error) -> String {
    match e.span() {
        Some(span) => {
            let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
            format!("line {line}: {}", e.message().trim())
        }
        None => e.message().trim().to_string(),
    }
}

fn progress_bar(round: usize, games: usize) -> ProgressBar {
    let bar = ProgressBar::new(games as u64);
    if let Ok(style) =
        ProgressStyle::with_template("round {msg} {bar:30} {pos}/{len} games [{elapsed_precise}]")
    {
        bar.set_style(style);
    }
    bar.set_message(round.to_string());
    bar
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::referee::{EndReason, Scoring};

    fn config(format: &str, extra: &str) -> Result<Config, String> {
        Config::parse(&format!(
            "format = \"{format}\"\n{extra}\n[[engine]]\nname = \"a\"\ncommand = \"x\"\n[[engine]]\nname = \"b\"\ncommand = \"y 'z w'\"\n"
        ))
    }

    #[test]
    fn config_is_checked() {
        assert!(config("round-robin", "").is_ok());
        assert!(config("swiss", "rounds = 1").is_ok());
        assert!(config("swiss", "").is_err());
        assert!(config("swiss", "rounds = 2").is_err());
        assert!(config("round-robin", "rounds = 2").is_err());
        assert!(config("best-of", "games_per_pairing = 3").is_ok());
        assert!(config("knockout", "elimination = 0").is_err());
        assert!(config("ladder", "").is_err());
        assert_eq!(
            config("round-robin", "colour = 3").unwrap_err(),
            "unknown key `colour` in the tournament file"
        );
        assert!(config("round-robin", "size = \"nine\"").is_err());
        assert!(Config::parse("format = \"swiss\"\nrounds = 1\n").is_err());
        let c = config("knockout", "time = \"1m\"\nscoring = \"tromp-taylor\"").unwrap();
        assert_eq!(c.game.scoring, Scoring::TrompTaylor);
        assert_eq!(c.game.time, "1m");
        assert_eq!(c.game.size, 19);
        assert_eq!(c.engines[1].command, "y 'z w'");
        // The journal's header reads back as the same tournament.
        let header = serde_json::to_string(&c).unwrap();
        assert_eq!(serde_json::from_str::<Config>(&header).unwrap(), c);
    }

    fn game(black: usize, white: usize, winner: Option<char>) -> TournamentGame {
        TournamentGame {
            round: 1,
            pairing: 0,
            game: 0,
            black,
            white,
            outcome: Outcome {
                winner,
                result: String::new(),
                reason: EndReason::Resign,
                detail: String::new(),
                black_name: String::new(),
                white_name: String::new(),
                moves: Vec::new(),
                move_ms: Vec::new(),
                first_mover: 'B',
            },
            sgf: None,
        }
    }

    #[test]
    fn best_of_three_stops_early_and_breaks_ties() {
        let c = config("best-of", "games_per_pairing = 3\ntiebreak_games = 1").unwrap();
        let state = |gs: &[TournamentGame]| pairing_state(&c, 0, &gs.iter().collect::<Vec<_>>());
        // Whoever had Black first, the higher seed (engine 0) wins a match tied to the end.
        let tied_to_end = [
            game(1, 0, None),
            game(0, 1, None),
            game(1, 0, None),
            game(0, 1, None),
        ];
        assert!(matches!(
            pairing_state(&c, 1, &tied_to_end.iter().collect::<Vec<_>>()),
            PairingState::Done {
                winner: Some(0),
                note: Some(_)
            }
        ));
        assert_eq!(state(&[]), PairingState::Next(0));
        // Engine 0 wins twice: decided after two games.
        let two = [game(0, 1, Some('B')), game(1, 0, Some('W'))];
        assert_eq!(
            state(&two),
            PairingState::Done {
                winner: Some(0),
                note: None
            }
        );
        // 1-1 then a draw: tied after three, one tie-break game, then the higher seed.
        let tied = [
            game(0, 1, Some('B')),
            game(1, 0, Some('B')),
            game(0, 1, None),
        ];
        assert_eq!(state(&tied), PairingState::Next(3));
        let mut more = tied.to_vec();
        more.push(game(1, 0, None));
        assert!(matches!(
            state(&more),
            PairingState::Done {
                winner: Some(0),
                note: Some(_)
            }
        ));
        more.pop();
        more.push(game(1, 0, Some('B')));
        assert!(matches!(
            state(&more),
            PairingState::Done {
                winner: Some(1),
                note: Some(_)
            }
        ));
    }
}
