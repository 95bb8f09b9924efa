//! `tengen match`: refereed games between two GTP engines, with clocks, scoring, SGF records, a
//! results table with confidence intervals, an optional SPRT stop, a resumable journal, parallel
//! games and shards.
//!
//! Engine slot 0 is `--black`, slot 1 is `--white`; with `--alternate` they swap colours every
//! other game. Colours are recorded per game, so statistics by engine and by colour are exact
//! whatever the order games finish in.

pub mod sprt;
pub mod stats;

use crate::arena::journal::{self, Journal};
use crate::arena::referee::{self, GameSetup, Outcome};
use crate::arena::setup::GameSettings;
use crate::arena::shard::{Shard, ShardSpec};
use crate::arena::timespec;
use crate::arena::{init_logging, interrupt_flag, pool, preflight, write_sgf};
use crate::clock::TimeSystem;
use crate::user_files;
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use sprt::{Sprt, SprtReport, Verdict};
use stats::Summary;
use std::collections::{btree_map::Entry, BTreeMap, VecDeque};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// `tengen match`.
#[derive(Args, Debug)]
#[command(subcommand_negates_reqs = true, args_conflicts_with_subcommands = true)]
pub struct MatchArgs {
    #[command(subcommand)]
    pub command: Option<MatchCommand>,
    /// Command line of engine 1 (Black in the first game), split like a shell does.
    #[arg(long, required = true)]
    pub black: Option<String>,
    /// Command line of engine 2 (White in the first game).
    #[arg(long, required = true)]
    pub white: Option<String>,
    /// Number of games.
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Swap colours every other game.
    #[arg(long)]
    pub alternate: bool,
    #[command(flatten)]
    pub game: GameSettings,
    /// Engine 1's own clock instead of --time, in the same notation (`none`: no clock, for an
    /// engine that plays weaker when it is told one, as GNU Go does).
    #[arg(long, value_name = "TIME")]
    pub black_time: Option<String>,
    /// Engine 2's own clock instead of --time.
    #[arg(long, value_name = "TIME")]
    pub white_time: Option<String>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub parallel: usize,
    /// Directory for one SGF file per game.
    #[arg(long)]
    pub sgf_dir: Option<PathBuf>,
    /// Write the summary and every game as JSON to this file.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Play only the games i with i mod N = I - 1 (I/N, 1-based); `auto` (or `auto/N`) takes
    /// I and N from the batch system running this process (Slurm job arrays, Kubernetes
    /// Indexed Jobs, GNU parallel).
    #[arg(long)]
    pub shard: Option<ShardSpec>,
    /// Journal of finished games, for resuming (default: journal.jsonl in --sgf-dir, else
    /// tengen-match.jsonl; a shard adds .shard-I-of-N).
    #[arg(long)]
    pub journal: Option<PathBuf>,
    /// Stop once a sequential probability ratio test decides between engine 1 being ELO0 or
    /// ELO1 Elo stronger than engine 2, at error rates ALPHA and BETA (0.05 each by default):
    /// ELO0,ELO1[,ALPHA,BETA]. --games is then the most games played.
    #[arg(long, allow_hyphen_values = true)]
    pub sprt: Option<Sprt>,
}

#[derive(Subcommand, Debug)]
pub enum MatchCommand {
    /// Combine the journals of a sharded match: which shards are missing or unfinished, the
    /// results table, and optionally the combined JSON and journal.
    Merge(MergeArgs),
    /// A sharded match's progress while it runs: each shard's games and the table so far.
    Status(JournalsArgs),
}

/// The journals of a sharded match.
#[derive(Args, Debug)]
pub struct JournalsArgs {
    /// Journals written by `tengen match --shard I/N`, or directories holding them (every
    /// `journal*.jsonl` and `tengen-match*.jsonl` in it).
    #[arg(required = true)]
    pub journals: Vec<PathBuf>,
    /// The match's --games, to tell how many games each shard still has to play [default:
    /// the highest game number found].
    #[arg(long)]
    pub games: Option<usize>,
}

#[derive(Args, Debug)]
pub struct MergeArgs {
    #[command(flatten)]
    pub journals: JournalsArgs,
    /// Write the combined summary and games as JSON.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Write the combined journal (it resumes like any other).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// What identifies a match: a journal is resumed only by the same match (the number of games
/// may grow).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchKey {
    pub engines: [String; 2],
    pub alternate: bool,
    /// The game settings with `max_moves` made explicit, so that a journal written with the
    /// default resumes under the same number given.
    #[serde(flatten)]
    pub game: GameSettings,
    /// Each engine's own clock, where it has one (absent from journals of matches without).
    #[serde(default, skip_serializing_if = "no_own_time")]
    pub own_time: [Option<String>; 2],
    pub shard: Option<Shard>,
}

fn no_own_time(own_time: &[Option<String>; 2]) -> bool {
    own_time.iter().all(Option::is_none)
}

/// One finished game as journals keep it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Game number within the match (0-based).
    pub game: usize,
    /// Engine slot playing Black / White in this game.
    pub black_engine: usize,
    pub white_engine: usize,
    #[serde(flatten)]
    pub outcome: Outcome,
    /// The SGF file written for the game.
    pub sgf: Option<PathBuf>,
}

/// Entry point of `tengen match`.
pub fn main(args: MatchArgs) -> ExitCode {
    init_logging();
    let result = match &args.command {
        Some(MatchCommand::Merge(merge_args)) => merge(merge_args),
        Some(MatchCommand::Status(journals)) => combine(journals)
            .and_then(|(key, games)| report(&key.engines, &games, None, None))
            .map(|()| ExitCode::SUCCESS),
        None => run(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tengen match: {e}");
            ExitCode::FAILURE
        }
    }
}

fn default_journal(args: &MatchArgs, shard: Option<Shard>) -> PathBuf {
    let base = match &args.sgf_dir {
        Some(dir) => dir.join("journal"),
        None => PathBuf::from("tengen-match"),
    };
    let name = match shard {
        Some(s) => format!("{}.shard-{}-of-{}.jsonl", base.display(), s.index, s.count),
        None => format!("{}.jsonl", base.display()),
    };
    PathBuf::from(name)
}

/// The name of an engine before it answered `name`: its program's file name.
fn short_name(command: &str) -> String {
    gtp::controller::split_command_line(command)
        .ok()
        .and_then(|w| w.first().cloned())
        .map(|p| {
            Path::new(&p)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or(p)
        })
        .unwrap_or_else(|| command.to_string())
}

/// Engine names for the table: what the engines said in their games, else the program names;
/// made distinct when both are the same.
fn engine_names(engines: &[String; 2], games: &[GameRecord]) -> [String; 2] {
    let mut names = [0, 1].map(|slot| {
        games
            .iter()
            .find_map(|g| {
                if g.black_engine == slot {
                    Some(g.outcome.black_name.clone())
                } else if g.white_engine == slot {
                    Some(g.outcome.white_name.clone())
                } else {
                    None
                }
            })
            .unwrap_or_else(|| short_name(&engines[slot]))
    });
    if names[0] == names[1] {
        names[0].push_str(" #1");
        names[1].push_str(" #2");
    }
    names
}

fn run(args: &MatchArgs) -> Result<ExitCode, String> {
    let (engines, shard) = checked_arguments(args)?;
    let setup = args.game.check()?;
    let clocks = engine_clocks(args, &setup)?;
    check_engines_and_outputs(args, &engines)?;
    let key = MatchKey {
        engines: engines.clone(),
        alternate: args.alternate,
        game: GameSettings {
            max_moves: Some(args.game.move_limit()),
            ..args.game.clone()
        },
        own_time: [args.black_time.clone(), args.white_time.clone()],
        shard,
    };
    let journal_path = args
        .journal
        .clone()
        .unwrap_or_else(|| default_journal(args, shard));
    let (journal, done): (Journal, Vec<GameRecord>) = Journal::open(&journal_path, &key)?;
    let shard = shard.unwrap_or(Shard { index: 1, count: 1 });
    let (tally, finished) = resume(args, done);
    let pending: VecDeque<usize> = (0..args.games)
        .filter(|&i| shard.contains(i) && !finished.contains_key(&i))
        .collect();
    let wanted = (0..args.games).filter(|&i| shard.contains(i)).count();
    if !finished.is_empty() {
        log::info!(
            "resuming from {}: {} games done, {} to play",
            journal_path.display(),
            finished.len(),
            pending.len()
        );
    }
    let names = engine_names(&engines, &[]);
    let progress = progress_bar(wanted as u64, finished.len() as u64);
    progress.set_message(tally.message(&names));
    let games = Games {
        args,
        setup: &setup,
        engines: &engines,
        clocks,
        names,
        journal: &journal,
        cancel: interrupt_flag(),
        decided: AtomicBool::new(tally.decision.is_some()),
        tally: Mutex::new(tally),
        progress,
        results: Mutex::new(Vec::new()),
        errors: Mutex::new(Vec::new()),
    };
    let stopped = || games.cancel.load(Ordering::SeqCst) || games.decided.load(Ordering::SeqCst);
    pool::work_through(pending, args.parallel, stopped, |i| games.play(i));
    games.progress.finish_and_clear();
    conclude(games, finished, wanted)
}

/// Prints the table, writes the JSON file and says how the match stands; the exit code is 130
/// when games are left to play, 1 after SGF or journal failures.
fn conclude(
    games: Games<'_>,
    mut finished: BTreeMap<usize, GameRecord>,
    wanted: usize,
) -> Result<ExitCode, String> {
    let (args, engines, journal) = (games.args, games.engines, games.journal);
    let decided = games.decided.load(Ordering::SeqCst);
    let tally = games.tally.into_inner().unwrap_or_else(|e| e.into_inner());
    for g in games
        .results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
    {
        finished.insert(g.game, g);
    }
    let errors = games.errors.into_inner().unwrap_or_else(|e| e.into_inner());
    for e in &errors {
        eprintln!("tengen match: {e}");
    }
    let games: Vec<GameRecord> = finished.into_values().collect();
    let sprt = args.sprt.map(|s| {
        s.report(tally.points[0], tally.points[1])
            .decided(tally.decision)
    });
    report(engines, &games, sprt.as_ref(), args.json.as_deref())?;
    let left = wanted.saturating_sub(games.len());
    if left > 0 && decided {
        eprintln!(
            "tengen match: the SPRT has decided; {} games played",
            games.len()
        );
    } else if left > 0 {
        eprintln!(
            "tengen match: stopped with {left} games left; run the same command again to continue ({})",
            journal.path().display()
        );
        return Ok(ExitCode::from(130));
    }
    Ok(if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The two engine command lines and the shard, after the checks that need no engine.
fn checked_arguments(args: &MatchArgs) -> Result<([String; 2], Option<Shard>), String> {
    let (Some(black), Some(white)) = (args.black.clone(), args.white.clone()) else {
        return Err("--black and --white are required".into());
    };
    for command in [&black, &white] {
        match gtp::controller::split_command_line(command) {
            Ok(words) if !words.is_empty() => {}
            Ok(_) => return Err("an engine command line is empty".into()),
            Err(e) => return Err(format!("engine command {command:?}: {e}")),
        }
    }
    if args.parallel == 0 {
        return Err("--parallel must be at least 1".into());
    }
    let shard = args.shard.map(ShardSpec::resolve).transpose()?;
    if args.sprt.is_some() && shard.is_some() {
        return Err("--sprt needs every game's result: it cannot run in shards".into());
    }
    Ok(([black, white], shard))
}

/// Each engine's clock, by slot: its own (`--black-time`, `--white-time`) or the match's.
fn engine_clocks(args: &MatchArgs, setup: &GameSetup) -> Result<[TimeSystem; 2], String> {
    let own = |option: &str, time: &Option<String>| match time {
        None => Ok(setup.time),
        Some(spec) => timespec::parse(spec).map_err(|e| format!("{option}: {e}")),
    };
    Ok([
        own("--black-time", &args.black_time)?,
        own("--white-time", &args.white_time)?,
    ])
}

/// Refuses engines (and a referee) that do not start, and outputs that cannot be written,
/// before the first game: a typo must not forfeit every game, a referee must not quietly
/// become Tromp-Taylor counting, and hours of games must not end in an unwritable file.
fn check_engines_and_outputs(args: &MatchArgs, engines: &[String; 2]) -> Result<(), String> {
    for (option, command) in ["--black", "--white"].iter().zip(engines) {
        preflight(command).map_err(|e| format!("the {option} engine does not work: {e}"))?;
    }
    if let Some(referee) = &args.game.referee {
        preflight(referee).map_err(|e| format!("the --referee engine does not work: {e}"))?;
    }
    if let Some(json) = &args.json {
        user_files::check_writable(json)?;
    }
    if let Some(dir) = &args.sgf_dir {
        user_files::check_writable(&dir.join("game-0001.sgf"))?;
    }
    Ok(())
}

/// The journal's games that count (a journal of a longer run resumed with a smaller --games
/// counts only the games asked for), tallied in the order they finished, so that the SPRT
/// stops where it stopped before.
fn resume(args: &MatchArgs, done: Vec<GameRecord>) -> (Tally, BTreeMap<usize, GameRecord>) {
    let mut tally = Tally::default();
    let mut finished = BTreeMap::new();
    for g in done.into_iter().filter(|g| g.game < args.games) {
        if let Entry::Vacant(slot) = finished.entry(g.game) {
            tally.add(&g);
            tally.decide(args.sprt);
            slot.insert(g);
        }
    }
    (tally, finished)
}

/// The games of a match under way, shared by the pool's workers.
struct Games<'a> {
    args: &'a MatchArgs,
    setup: &'a GameSetup,
    engines: &'a [String; 2],
    /// Each engine's clock, by slot.
    clocks: [TimeSystem; 2],
    names: [String; 2],
    journal: &'a Journal,
    cancel: Arc<AtomicBool>,
    /// Set once the SPRT has decided: the match then starts no more games.
    decided: AtomicBool,
    tally: Mutex<Tally>,
    progress: ProgressBar,
    results: Mutex<Vec<GameRecord>>,
    /// SGF and journal failures.
    errors: Mutex<Vec<String>>,
}

impl Games<'_> {
    /// Plays game `i` (0-based), writes its SGF, journals and tallies it.
    fn play(&self, i: usize) -> ControlFlow<()> {
        let args = self.args;
        let black_engine = if args.alternate && i % 2 == 1 { 1 } else { 0 };
        let white_engine = 1 - black_engine;
        let pair = if args.alternate { i / 2 } else { i };
        let Ok(played) = referee::play_game(
            self.setup,
            self.setup.opening(pair),
            &self.engines[black_engine],
            &self.engines[white_engine],
            [self.clocks[black_engine], self.clocks[white_engine]],
            &self.cancel,
        ) else {
            return ControlFlow::Break(());
        };
        let sgf = args.sgf_dir.as_deref().and_then(|dir| {
            let comment = format!(
                "tengen match, game {} of {}: {} ({}) vs {} ({})",
                i + 1,
                args.games,
                played.outcome.black_name,
                self.engines[black_engine],
                played.outcome.white_name,
                self.engines[white_engine]
            );
            write_sgf(dir, &format!("game-{:04}.sgf", i + 1), &played, &comment)
                .map_err(|e| self.fail(e))
                .ok()
        });
        let record = GameRecord {
            game: i,
            black_engine,
            white_engine,
            outcome: played.outcome,
            sgf,
        };
        log::info!(
            "game {}: {} (B) vs {} (W): {} ({}: {})",
            i + 1,
            record.outcome.black_name,
            record.outcome.white_name,
            record.outcome.result,
            record.outcome.reason.name(),
            record.outcome.detail
        );
        if let Err(e) = self.journal.append(&record) {
            self.fail(e);
            self.cancel.store(true, Ordering::SeqCst);
        }
        {
            let mut tally = self.tally.lock().unwrap_or_else(|e| e.into_inner());
            tally.add(&record);
            self.progress.set_message(tally.message(&self.names));
            if tally.decide(args.sprt) {
                self.decided.store(true, Ordering::SeqCst);
            }
        }
        self.progress.inc(1);
        self.results
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(record);
        ControlFlow::Continue(())
    }

    fn fail(&self, error: String) {
        self.errors
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(error);
    }
}

/// Prints the results table (and the SPRT's state) and writes the JSON file.
fn report(
    engines: &[String; 2],
    games: &[GameRecord],
    sprt: Option<&SprtReport>,
    json: Option<&Path>,
) -> Result<(), String> {
    let names = engine_names(engines, games);
    let summary = Summary::new(games, names);
    print!("{}", summary.table());
    if let Some(sprt) = sprt {
        print!("{}", sprt.line());
    }
    if let Some(path) = json {
        #[derive(Serialize)]
        struct Export<'a> {
            engines: &'a [String; 2],
            summary: &'a Summary,
            #[serde(skip_serializing_if = "Option::is_none")]
            sprt: Option<&'a SprtReport>,
            games: &'a [GameRecord],
        }
        let text = serde_json::to_string_pretty(&Export {
            engines,
            summary: &summary,
            sprt,
            games,
        })
        .map_err(|e| e.to_string())?;
        user_files::write_atomically(path, text.as_bytes())?;
    }
    Ok(())
}

/// Live score for the progress bar and the SPRT.
#[derive(Default)]
struct Tally {
    points: [f64; 2],
    games: u32,
    /// The SPRT's verdict and the games it had taken when the results first crossed a bound.
    /// Games running at that moment still finish and count, and may carry the ratio back
    /// inside the bounds: the test stopped at the crossing all the same.
    decision: Option<(Verdict, u32)>,
}

impl Tally {
    fn add(&mut self, g: &GameRecord) {
        self.games += 1;
        match g.outcome.winner {
            Some('B') => self.points[g.black_engine.min(1)] += 1.0,
            Some('W') => self.points[g.white_engine.min(1)] += 1.0,
            _ => {
                self.points[0] += 0.5;
                self.points[1] += 0.5;
            }
        }
    }

    /// Whether `sprt` (if any) has decided, now or after fewer games.
    fn decide(&mut self, sprt: Option<Sprt>) -> bool {
        if self.decision.is_none() {
            let verdict = sprt.and_then(|s| s.report(self.points[0], self.points[1]).verdict);
            self.decision = verdict.map(|v| (v, self.games));
        }
        self.decision.is_some()
    }

    fn message(&self, names: &[String; 2]) -> String {
        format!(
            "{} {} - {} {}",
            names[0], self.points[0], self.points[1], names[1]
        )
    }
}

fn progress_bar(len: u64, done: u64) -> ProgressBar {
    let bar = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise} < {eta}]",
    ) {
        bar.set_style(style);
    }
    bar.set_position(done);
    bar
}

fn merge(args: &MergeArgs) -> Result<ExitCode, String> {
    if let Some(json) = &args.json {
        user_files::check_writable(json)?;
    }
    let (key, games) = combine(&args.journals)?;
    if let Some(out) = &args.out {
        if out.exists() {
            return Err(format!(
                "{} exists; choose a new file for --out",
                out.display()
            ));
        }
        let (journal, _): (Journal, Vec<GameRecord>) = Journal::open(out, &key)?;
        for g in &games {
            journal.append(g)?;
        }
    }
    report(&key.engines, &games, None, args.json.as_deref())?;
    Ok(ExitCode::SUCCESS)
}

/// Reads the journals of one sharded match, prints each shard's progress (and the shards
/// that have no journal yet), and returns the match and its games, each once.
fn combine(args: &JournalsArgs) -> Result<(MatchKey, Vec<GameRecord>), String> {
    let paths = journal_files(&args.journals)?;
    let mut key: Option<MatchKey> = None;
    let mut games: BTreeMap<usize, GameRecord> = BTreeMap::new();
    let mut shards: Vec<(Shard, usize, &Path)> = Vec::new();
    for path in &paths {
        let (k, records): (MatchKey, Vec<GameRecord>) = journal::read(path)?;
        let unsharded = MatchKey {
            shard: None,
            ..k.clone()
        };
        match &key {
            None => key = Some(unsharded),
            Some(first) if *first != unsharded => {
                return Err(format!(
                    "{} is from a different match than {}",
                    path.display(),
                    paths[0].display()
                ))
            }
            Some(_) => {}
        }
        let shard = k.shard.unwrap_or(Shard { index: 1, count: 1 });
        shards.push((shard, records.len(), path));
        for g in records {
            if let Some(old) = games.get(&g.game) {
                if old.outcome.result != g.outcome.result {
                    log::warn!(
                        "game {} appears twice with different results ({} and {}); keeping the first",
                        g.game + 1,
                        old.outcome.result,
                        g.outcome.result
                    );
                }
                continue;
            }
            games.insert(g.game, g);
        }
    }
    let key = key.ok_or_else(|| "no journals found".to_string())?;
    let planned = args
        .games
        .unwrap_or_else(|| games.keys().next_back().map_or(0, |&g| g + 1));
    print!("{}", shard_progress(&shards, planned, args.games.is_none()));
    Ok((key, games.into_values().collect()))
}

/// The journals among `paths`: files as given; in a directory, its match journals.
fn journal_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if !path.is_dir() {
            files.push(path.clone());
            continue;
        }
        let found = journal::journals_in(path, &["journal", "tengen-match"])?;
        if found.is_empty() {
            return Err(format!("no journal in {}", path.display()));
        }
        files.extend(found);
    }
    Ok(files)
}

/// One line per shard (games played of its share of `planned`), and the shards missing.
fn shard_progress(shards: &[(Shard, usize, &Path)], planned: usize, guessed: bool) -> String {
    let count = shards.iter().map(|(s, _, _)| s.count).max().unwrap_or(1);
    let mut text = String::new();
    let mut unfinished = 0;
    for index in 1..=count {
        let shard = Shard { index, count };
        let share = (0..planned).filter(|&i| shard.contains(i)).count();
        match shards.iter().find(|(s, _, _)| *s == shard) {
            Some((_, done, path)) => {
                let state = if *done >= share { "done" } else { "unfinished" };
                unfinished += usize::from(*done < share);
                text.push_str(&format!(
                    "shard {shard}: {done} of {share} games, {state} ({})\n",
                    path.display()
                ));
            }
            None => {
                unfinished += 1;
                text.push_str(&format!("shard {shard}: missing (no journal)\n"));
            }
        }
    }
    let planned_text = if guessed {
        format!("{planned} games as far as the journals tell (give --games for the plan)")
    } else {
        format!("{planned} games")
    };
    text.push_str(&format!(
        "{} of {count} shards still to finish; {planned_text}\n",
        unfinished
    ));
    text
}
