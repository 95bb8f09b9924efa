//! One refereed game between two GTP engines.
//!
//! The referee keeps the authoritative [`Game`]: every `genmove` answer is checked against the
//! rules before it is passed on, clocks are kept here (the engines are only told), and every
//! failure of an engine (illegal move, crash, silence, garbage, time) loses the game with the
//! reason recorded.

use crate::arena::timespec;
use crate::clock::{Clock, TimeSystem};
use clap::ValueEnum;
use engine_core::{Color, Game, Move, Point, Rules};
use gtp::controller::{ControllerError, Engine};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Timeout of commands other than `genmove` (the first one includes the engine's start-up).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(60);
/// Extra time an engine gets over its clock before it is declared silent.
const CLOCK_GRACE: Duration = Duration::from_secs(5);
/// How long a referee may take for `final_score` / `final_status_list`.
const SCORING_TIMEOUT: Duration = Duration::from_secs(180);

/// How a game that ended with two passes is counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scoring {
    /// Area count of the board as it stands: every stone alive.
    TrompTaylor,
    /// Remove the stones both engines list as dead (`final_status_list dead`); if they
    /// disagree, the referee's list, or Tromp-Taylor without a referee.
    #[default]
    Agree,
    /// The referee engine's `final_score`.
    Referee,
}

/// Everything about a game that does not depend on who plays it.
#[derive(Clone, Debug)]
pub struct GameSetup {
    pub size: usize,
    pub komi: f64,
    pub handicap: usize,
    /// Both engines' clock, unless the match gives one of them its own.
    pub time: TimeSystem,
    pub scoring: Scoring,
    /// Command line of the referee engine (GNU Go: `gnugo --mode gtp --chinese-rules`).
    pub referee: Option<String>,
    /// Moves after which the game is adjudicated by the count.
    pub max_moves: usize,
    /// Openings the games start from (moves played before the engines take over), taken in
    /// turn; none: every game starts from the empty board.
    pub openings: Vec<Vec<(Color, Move)>>,
    /// Timeout of a `genmove` without a clock.
    pub move_timeout: Duration,
}

impl GameSetup {
    /// The opening of the `n`th game pair (0 based): the openings in turn, so that each one is
    /// played once with each colour when colours alternate.
    pub fn opening(&self, n: usize) -> &[(Color, Move)] {
        match self.openings.len() {
            0 => &[],
            count => &self.openings[n % count],
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    Resign,
    Score,
    /// The game reached `--max-moves` and was counted.
    MaxMoves,
    Time,
    Illegal,
    Crash,
    /// No answer without a clock running (`--move-timeout`), or to a setup command.
    Silent,
    Malformed,
    /// The engine refused a legal move or a setup command.
    Refused,
}

impl EndReason {
    pub fn name(self) -> &'static str {
        match self {
            EndReason::Resign => "resign",
            EndReason::Score => "score",
            EndReason::MaxMoves => "max-moves",
            EndReason::Time => "time",
            EndReason::Illegal => "illegal",
            EndReason::Crash => "crash",
            EndReason::Silent => "silent",
            EndReason::Malformed => "malformed",
            EndReason::Refused => "refused",
        }
    }
}

/// The outcome of one game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outcome {
    /// `B`, `W`, or `None` for a draw.
    pub winner: Option<char>,
    /// SGF `RE`: `B+3.5`, `W+R`, `B+T`, `W+F`, `0`.
    pub result: String,
    pub reason: EndReason,
    /// Human-readable explanation (illegal move, crash message, how the score was decided).
    pub detail: String,
    pub black_name: String,
    pub white_name: String,
    /// Moves in GTP notation, opening included.
    pub moves: Vec<String>,
    /// Milliseconds each engine move took, in move order (opening moves excluded).
    pub move_ms: Vec<u64>,
    /// Colour of the first engine move (`B` or `W`), so `move_ms` can be attributed.
    pub first_mover: char,
}

/// A finished game: the outcome and the refereed record (for the SGF).
pub struct Played {
    pub outcome: Outcome,
    pub game: Game,
    /// Comment for the last node (scoring method, adjudication, forfeit reason).
    pub comment: String,
    /// Moves of the opening: `outcome.move_ms[i]` is the time of game move `opening + i`.
    pub opening: usize,
}

/// The game was interrupted (Ctrl-C); nothing is recorded.
#[derive(Debug)]
pub struct Interrupted;

/// An engine's failure: which colour loses, why.
struct Forfeit {
    loser: Color,
    reason: EndReason,
    detail: String,
}

fn forfeit(loser: Color, error: ControllerError, what: &str) -> Forfeit {
    let reason = match error {
        ControllerError::Timeout(_) => EndReason::Silent,
        ControllerError::Malformed(_) | ControllerError::WrongId { .. } => EndReason::Malformed,
        _ => EndReason::Crash,
    };
    Forfeit {
        loser,
        reason,
        detail: format!("{loser} {what}: {error}"),
    }
}

/// One side: its engine and what we know of it.
struct Side {
    engine: Engine,
    name: String,
    clock: Clock,
    commands: Vec<String>,
}

impl Side {
    fn start(command: &str, color: Color, cancel: &Arc<AtomicBool>) -> Result<Side, Forfeit> {
        let label = format!("{color}");
        let mut engine = Engine::spawn(command, &label).map_err(|e| Forfeit {
            loser: color,
            reason: EndReason::Crash,
            detail: format!("{color} engine could not start: {e}"),
        })?;
        engine.set_cancel(Arc::clone(cancel));
        let name = match engine.ask("name", COMMAND_TIMEOUT) {
            Ok(Ok(name)) if !name.is_empty() => name,
            Ok(_) => command.to_string(),
            Err(e) => return Err(forfeit(color, e, "failed at `name`")),
        };
        let name = match engine.ask("version", COMMAND_TIMEOUT) {
            Ok(Ok(v)) => match short_version(&v) {
                Some(v) => format!("{name} {v}"),
                None => name,
            },
            Ok(Err(_)) => name,
            Err(e) => return Err(forfeit(color, e, "failed at `version`")),
        };
        let commands = match engine.ask("list_commands", COMMAND_TIMEOUT) {
            Ok(Ok(list)) => list.lines().map(|l| l.trim().to_string()).collect(),
            Ok(Err(_)) => Vec::new(),
            Err(e) => return Err(forfeit(color, e, "failed at `list_commands`")),
        };
        Ok(Side {
            engine,
            name,
            clock: Clock::new(TimeSystem::Unlimited),
            commands,
        })
    }

    fn knows(&self, command: &str) -> bool {
        self.commands.iter().any(|c| c == command)
    }

    /// A command that must succeed.
    fn require(&mut self, color: Color, command: &str) -> Result<String, Forfeit> {
        match self.engine.ask(command, COMMAND_TIMEOUT) {
            Ok(Ok(text)) => Ok(text),
            Ok(Err(why)) => Err(Forfeit {
                loser: color,
                reason: EndReason::Refused,
                detail: format!("{color} refused `{command}`: {why}"),
            }),
            Err(e) => Err(forfeit(color, e, &format!("failed at `{command}`"))),
        }
    }

    /// A command the engine may refuse; only a broken engine is an error.
    fn offer(&mut self, color: Color, command: &str) -> Result<bool, Forfeit> {
        match self.engine.ask(command, COMMAND_TIMEOUT) {
            Ok(answer) => Ok(answer.is_ok()),
            Err(e) => Err(forfeit(color, e, &format!("failed at `{command}`"))),
        }
    }
}

/// The useful part of a `version` answer: Pachi appends a chat blurb after a colon.
fn short_version(version: &str) -> Option<&str> {
    let v = version.lines().next()?.split(':').next()?.trim();
    let v = if v.chars().count() > 30 {
        v.split_whitespace().next()?
    } else {
        v
    };
    (!v.is_empty()).then_some(v)
}

/// Plays one game from `opening`. `black` and `white` are engine command lines, `clocks`
/// Black's and White's time systems. Returns `Err(Interrupted)` when `cancel` was set before
/// the game ended.
pub fn play_game(
    setup: &GameSetup,
    opening: &[(Color, Move)],
    black: &str,
    white: &str,
    clocks: [TimeSystem; 2],
    cancel: &Arc<AtomicBool>,
) -> Result<Played, Interrupted> {
    let mut game = Game::new(setup.size, Rules::CHINESE, setup.komi)
        .expect("the board size was checked by GameSettings::check");
    let mut record = Record {
        names: [black.to_string(), white.to_string()],
        move_ms: Vec::new(),
        first_mover: Color::Black,
    };
    let engines = [black, white];
    let result = run(
        setup,
        opening,
        engines,
        clocks,
        cancel,
        &mut game,
        &mut record,
    );
    if cancel.load(Ordering::SeqCst) {
        return Err(Interrupted);
    }
    let geometry = game.geometry();
    let end = match result {
        Ok(end) => end,
        Err(f) => {
            let winner = f.loser.opponent();
            let code = if f.reason == EndReason::Time {
                'T'
            } else {
                'F'
            };
            End {
                winner: Some(winner),
                result: format!("{}+{code}", winner.letter()),
                reason: f.reason,
                detail: f.detail,
            }
        }
    };
    let detail = end.detail;
    let outcome = Outcome {
        winner: end.winner.map(Color::letter),
        result: end.result,
        reason: end.reason,
        detail: detail.clone(),
        black_name: record.names[0].clone(),
        white_name: record.names[1].clone(),
        moves: game
            .moves()
            .iter()
            .map(|&(_, m)| geometry.move_text(m))
            .collect(),
        move_ms: record.move_ms,
        first_mover: record.first_mover.letter(),
    };
    Ok(Played {
        outcome,
        game,
        comment: detail,
        opening: opening.len(),
    })
}

struct Record {
    names: [String; 2],
    move_ms: Vec<u64>,
    first_mover: Color,
}

/// How a game that no engine forfeited ended.
struct End {
    winner: Option<Color>,
    /// SGF `RE`.
    result: String,
    reason: EndReason,
    detail: String,
}

/// Starts both engines, sets up the game (board, komi, clocks, handicap, opening) and plays
/// it to its end.
fn run(
    setup: &GameSetup,
    opening: &[(Color, Move)],
    [black, white]: [&str; 2],
    clocks: [TimeSystem; 2],
    cancel: &Arc<AtomicBool>,
    game: &mut Game,
    record: &mut Record,
) -> Result<End, Forfeit> {
    let b = Side::start(black, Color::Black, cancel)?;
    record.names[0] = b.name.clone();
    let w = Side::start(white, Color::White, cancel)?;
    record.names[1] = w.name.clone();
    let mut sides = [b, w];
    for color in Color::BOTH {
        prepare(
            setup,
            color,
            clocks[color.index()],
            &mut sides[color.index()],
        )?;
    }
    if setup.handicap > 0 {
        place_handicap(setup.handicap, game, &mut sides)?;
    }
    replay_opening(opening, game, &mut sides)?;
    record.first_mover = game.to_move();
    loop {
        if cancel.load(Ordering::SeqCst) {
            return Err(Forfeit {
                loser: game.to_move(),
                reason: EndReason::Silent,
                detail: "interrupted".into(),
            });
        }
        if let Some(end) = scored_end(setup, game, &mut sides) {
            return Ok(end);
        }
        if let Some(end) = play_one_move(setup, game, &mut sides, record)? {
            return Ok(end);
        }
    }
}

/// Board size, a clear board, komi and its clock for one engine.
fn prepare(
    setup: &GameSetup,
    color: Color,
    time: TimeSystem,
    side: &mut Side,
) -> Result<(), Forfeit> {
    side.require(color, &format!("boardsize {}", setup.size))?;
    side.require(color, "clear_board")?;
    side.require(color, &format!("komi {}", setup.komi))?;
    side.clock = Clock::new(time);
    if let Some(command) = timespec::gtp_commands(time, side.knows("kgs-time_settings")) {
        side.offer(color, &command)?;
    }
    Ok(())
}

/// Places the fixed handicap: each engine's own `fixed_handicap` when it puts the stones on
/// the standard points, `set_free_handicap` with them otherwise.
fn place_handicap(stones: usize, game: &mut Game, sides: &mut [Side; 2]) -> Result<(), Forfeit> {
    let geometry = game.geometry();
    let placed = game.place_fixed_handicap(stones).map_err(|e| Forfeit {
        loser: Color::Black,
        reason: EndReason::Refused,
        detail: format!("handicap {stones}: {e}"),
    })?;
    let mut wanted: Vec<String> = placed.iter().map(|&p| geometry.vertex(p)).collect();
    wanted.sort();
    for color in Color::BOTH {
        let side = &mut sides[color.index()];
        let fixed = side
            .engine
            .ask(&format!("fixed_handicap {stones}"), COMMAND_TIMEOUT);
        let standard = match fixed {
            Ok(Ok(answer)) => {
                let mut got: Vec<String> = answer
                    .split_whitespace()
                    .map(str::to_ascii_uppercase)
                    .collect();
                got.sort();
                got == wanted
            }
            Ok(Err(_)) => false,
            Err(e) => return Err(forfeit(color, e, "failed at `fixed_handicap`")),
        };
        if !standard {
            // Different or no standard placement: start over and set ours explicitly.
            side.require(color, "clear_board")?;
            side.require(color, &format!("set_free_handicap {}", wanted.join(" ")))?;
        }
    }
    Ok(())
}

/// Plays the opening's moves on the game and on both engines.
fn replay_opening(
    opening: &[(Color, Move)],
    game: &mut Game,
    sides: &mut [Side; 2],
) -> Result<(), Forfeit> {
    let geometry = game.geometry();
    for &(color, mv) in opening {
        if game.play(color, mv).is_err() {
            return Err(Forfeit {
                loser: color,
                reason: EndReason::Illegal,
                detail: format!("opening move {color} {} is illegal", geometry.move_text(mv)),
            });
        }
        let text = geometry.move_text(mv);
        for c in Color::BOTH {
            sides[c.index()].require(c, &format!("play {} {text}", color.letter()))?;
        }
    }
    Ok(())
}

/// The count after two passes, or the adjudication after the longest game allowed.
fn scored_end(setup: &GameSetup, game: &Game, sides: &mut [Side; 2]) -> Option<End> {
    if game.consecutive_passes() >= 2 {
        let (winner, result, detail) = score(setup, game, sides);
        return Some(End {
            winner,
            result,
            reason: EndReason::Score,
            detail,
        });
    }
    if game.moves().len() >= setup.max_moves {
        let (winner, result, detail) = score(setup, game, sides);
        return Some(End {
            winner,
            result,
            reason: EndReason::MaxMoves,
            detail: format!("adjudicated after {} moves; {detail}", setup.max_moves),
        });
    }
    None
}

/// Asks the player to move for a move (on its clock), checks it, plays it and tells the
/// opponent; `Some` when the player resigned.
fn play_one_move(
    setup: &GameSetup,
    game: &mut Game,
    sides: &mut [Side; 2],
    record: &mut Record,
) -> Result<Option<End>, Forfeit> {
    let geometry = game.geometry();
    let color = game.to_move();
    let text = ask_move(setup, color, &mut sides[color.index()], record)?;
    if text.eq_ignore_ascii_case("resign") {
        game.resign(color);
        let winner = color.opponent();
        return Ok(Some(End {
            winner: Some(winner),
            result: format!("{}+R", winner.letter()),
            reason: EndReason::Resign,
            detail: format!("{color} resigned"),
        }));
    }
    let mv = geometry.parse_move(&text).map_err(|e| Forfeit {
        loser: color,
        reason: EndReason::Malformed,
        detail: format!("{color} answered genmove with {text:?}: {e}"),
    })?;
    if let Err(e) = game.play(color, mv) {
        return Err(Forfeit {
            loser: color,
            reason: EndReason::Illegal,
            detail: format!(
                "{color} played an illegal move {}: {e}",
                geometry.move_text(mv)
            ),
        });
    }
    let text = geometry.move_text(mv);
    let other = color.opponent();
    sides[other.index()]
        .require(other, &format!("play {} {text}", color.letter()))
        .map_err(|mut f| {
            if f.reason == EndReason::Refused {
                f.detail = format!("{other} refused the legal move {color} {text}");
            }
            f
        })?;
    Ok(None)
}

/// `genmove` for `color`, with `time_left` first and the clock charged after when the game
/// has one; the answer's text (a vertex, `pass` or `resign`).
fn ask_move(
    setup: &GameSetup,
    color: Color,
    side: &mut Side,
    record: &mut Record,
) -> Result<String, Forfeit> {
    let clocked = !side.clock.is_unlimited();
    let timeout = if clocked {
        let (seconds, stones) = side.clock.time_left_args();
        side.offer(
            color,
            &format!("time_left {} {seconds} {stones}", color.letter()),
        )?;
        available(&side.clock) + CLOCK_GRACE
    } else {
        setup.move_timeout
    };
    let started = Instant::now();
    let answer = side
        .engine
        .command(&format!("genmove {}", color.letter()), timeout);
    let used = started.elapsed();
    record.move_ms.push(used.as_millis() as u64);
    let out_of_time = |what: String| Forfeit {
        loser: color,
        reason: EndReason::Time,
        detail: format!("{color} ran out of time ({what})"),
    };
    let answer = match answer {
        Ok(a) => a,
        Err(ControllerError::Timeout(_)) if clocked => {
            return Err(out_of_time(format!(
                "no move after {:.1} s",
                used.as_secs_f64()
            )))
        }
        Err(e) => return Err(forfeit(color, e, "failed at `genmove`")),
    };
    if clocked && !side.clock.spend(used) {
        return Err(out_of_time(format!(
            "{:.1} s for the last move",
            used.as_secs_f64()
        )));
    }
    answer.ok().map_err(|why| Forfeit {
        loser: color,
        reason: EndReason::Refused,
        detail: format!("{color} refused to move: {why}"),
    })
}

/// Time the mover may still use for this move before losing.
fn available(clock: &Clock) -> Duration {
    match clock.system() {
        TimeSystem::Unlimited => Duration::MAX,
        TimeSystem::Absolute { .. } => clock.main_left(),
        TimeSystem::ByoYomi { period, .. } => {
            clock.main_left() + period * clock.periods_left().max(1)
        }
        TimeSystem::Canadian { .. } => clock.main_left() + clock.period_left(),
    }
}

/// Counts a finished game per `setup.scoring`: winner, `RE` text, and how it was decided.
fn score(setup: &GameSetup, game: &Game, sides: &mut [Side; 2]) -> (Option<Color>, String, String) {
    let count = |dead: &[Point], how: String| {
        let s = game.score(dead);
        (
            s.winner(),
            s.to_string(),
            format!("{how}; {}", s.chinese_count()),
        )
    };
    match setup.scoring {
        Scoring::TrompTaylor => count(&[], "Tromp-Taylor count".into()),
        Scoring::Agree => {
            let lists: Vec<Option<Vec<Point>>> = Color::BOTH
                .iter()
                .map(|&c| dead_list(&mut sides[c.index()].engine, game))
                .collect();
            match (&lists[0], &lists[1]) {
                (Some(b), Some(w)) if b == w => count(
                    b,
                    format!("dead stones agreed by both engines ({} stones)", b.len()),
                ),
                _ => match referee_dead(setup, game) {
                    Ok(dead) => count(
                        &dead,
                        format!(
                            "engines disagreed on dead stones; referee's list ({} stones)",
                            dead.len()
                        ),
                    ),
                    Err(why) => count(
                        &[],
                        format!("engines disagreed on dead stones ({why}); Tromp-Taylor count"),
                    ),
                },
            }
        }
        Scoring::Referee => match referee_score(setup, game) {
            Ok((winner, result)) => {
                let ours = game.score(&[]);
                (
                    winner,
                    result.clone(),
                    format!("referee final_score {result} (Tromp-Taylor count would be {ours})"),
                )
            }
            Err(why) => count(&[], format!("referee failed ({why}); Tromp-Taylor count")),
        },
    }
}

/// An engine's `final_status_list dead`, as sorted stone points; `None` if it gave none usable.
fn dead_list(engine: &mut Engine, game: &Game) -> Option<Vec<Point>> {
    let answer = engine
        .ask("final_status_list dead", SCORING_TIMEOUT)
        .ok()?
        .ok()?;
    parse_dead(&answer, game)
}

/// Parses a vertex list into the stones of the chains it names (engines list one stone per
/// chain or every stone; both mean the same). Empty points are ignored. `None` for an
/// unreadable list.
pub fn parse_dead(answer: &str, game: &Game) -> Option<Vec<Point>> {
    let geometry = game.geometry();
    let board = game.board();
    let mut dead = Vec::new();
    for word in answer.split_whitespace() {
        match geometry.parse_move(word).ok()? {
            Move::Play(p) if board.color_at(p).is_some() => dead.extend(board.chain_stones(p)),
            _ => {}
        }
    }
    dead.sort();
    dead.dedup();
    Some(dead)
}

/// A fresh referee process with the game replayed (a fresh process, `clear_board` and `komi`
/// every time: GNU Go caches scores across `clear_board` and komi changes, docs/RULES.md §5).
fn referee_with_game(setup: &GameSetup, game: &Game) -> Result<Engine, String> {
    let command = setup
        .referee
        .as_deref()
        .ok_or_else(|| "no referee configured".to_string())?;
    let mut referee = Engine::spawn(command, "referee").map_err(|e| e.to_string())?;
    let geometry = game.geometry();
    let ask = |referee: &mut Engine, command: String| -> Result<String, String> {
        referee
            .ask(&command, COMMAND_TIMEOUT)
            .map_err(|e| format!("referee failed at `{command}`: {e}"))?
            .map_err(|why| format!("referee refused `{command}`: {why}"))
    };
    ask(&mut referee, format!("boardsize {}", game.size()))?;
    ask(&mut referee, "clear_board".into())?;
    ask(&mut referee, format!("komi {}", game.komi()))?;
    if !game.setup().is_empty() {
        let stones: Vec<String> = game
            .setup()
            .iter()
            .map(|&(_, p)| geometry.vertex(p))
            .collect();
        ask(
            &mut referee,
            format!("set_free_handicap {}", stones.join(" ")),
        )?;
    }
    for &(c, m) in game.moves() {
        ask(
            &mut referee,
            format!("play {} {}", c.letter(), geometry.move_text(m)),
        )?;
    }
    Ok(referee)
}

fn referee_dead(setup: &GameSetup, game: &Game) -> Result<Vec<Point>, String> {
    let mut referee = referee_with_game(setup, game)?;
    let answer = referee
        .ask("final_status_list dead", SCORING_TIMEOUT)
        .map_err(|e| e.to_string())?
        .map_err(|why| format!("referee refused final_status_list: {why}"))?;
    parse_dead(&answer, game).ok_or_else(|| format!("referee's dead list {answer:?} is unreadable"))
}

fn referee_score(setup: &GameSetup, game: &Game) -> Result<(Option<Color>, String), String> {
    let mut referee = referee_with_game(setup, game)?;
    let answer = referee
        .ask("final_score", SCORING_TIMEOUT)
        .map_err(|e| e.to_string())?
        .map_err(|why| format!("referee refused final_score: {why}"))?;
    parse_result(&answer).ok_or_else(|| format!("referee's score {answer:?} is unreadable"))
}

/// Reads a GTP score (`B+9.0`, `W+0.5`, `0`) into the winner and the standard `RE` form.
pub fn parse_result(text: &str) -> Option<(Option<Color>, String)> {
    let text = text.trim();
    if text == "0" || text.eq_ignore_ascii_case("draw") || text.eq_ignore_ascii_case("jigo") {
        return Some((None, "0".into()));
    }
    let (who, margin) = text.split_once('+')?;
    let winner: Color = who.parse().ok()?;
    let margin: f64 = margin.parse().ok()?;
    if !margin.is_finite() || margin < 0.0 {
        return None;
    }
    if margin == 0.0 {
        return Some((None, "0".into()));
    }
    Some((Some(winner), format!("{}+{margin}", winner.letter())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_shortened() {
        assert_eq!(short_version("3.8"), Some("3.8"));
        assert_eq!(
            short_version("11.99 (Genjo-devel): If you believe you have won but I am still playing, please help"),
            Some("11.99 (Genjo-devel)")
        );
        assert_eq!(
            short_version(&format!("{} x", "9".repeat(40))),
            Some("9".repeat(40).as_str())
        );
        assert_eq!(short_version(""), None);
    }

    #[test]
    fn reads_scores() {
        assert_eq!(
            parse_result("B+9.0"),
            Some((Some(Color::Black), "B+9".into()))
        );
        assert_eq!(
            parse_result("W+0.5"),
            Some((Some(Color::White), "W+0.5".into()))
        );
        assert_eq!(parse_result("0"), Some((None, "0".into())));
        assert_eq!(parse_result("B+x"), None);
        assert_eq!(parse_result("nonsense"), None);
    }

    #[test]
    fn reads_dead_lists() {
        let mut game = Game::new(9, Rules::CHINESE, 7.5).unwrap();
        let g = game.geometry();
        let point = |v: &str| match g.parse_move(v).unwrap() {
            Move::Play(p) => p,
            Move::Pass => unreachable!(),
        };
        game.play(Color::Black, Move::Play(point("C3"))).unwrap();
        game.play(Color::White, Move::Play(point("G7"))).unwrap();
        game.play(Color::Black, Move::Play(point("C4"))).unwrap();
        let mut chain = vec![point("C3"), point("C4")];
        chain.sort();
        // One stone names its chain; empty points are ignored; case does not matter; lines and
        // spaces both separate.
        assert_eq!(parse_dead("c3\nD4 ", &game), Some(chain.clone()));
        assert_eq!(parse_dead("C4 C3", &game), Some(chain));
        assert_eq!(parse_dead("", &game), Some(vec![]));
        assert_eq!(parse_dead("C3 Z99", &game), None);
    }
}
