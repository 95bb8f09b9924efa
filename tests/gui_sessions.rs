//! The binary driven the way real clients drive it, one command at a time or pipelined, over
//! pipes: Sabaki (start-up burst, pipelined sync batches, `kata-analyze`/`lz-analyze` stopped
//! by an interrupting `protocol_version`, `kata-genmove_analyze` moves, handicap, quit) and
//! GoGui (analyze menu entries run and checked by type, `# interrupt` during a long genmove,
//! scoring). The random player reports no analysis, so analysis lines are checked for
//! structure whenever they appear; the formats themselves are unit-tested with a fake player
//! in `src/gtp_engine/tests.rs`. Timeouts are generous: nothing here depends on speed.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(30);

/// A running engine with its stdout (and, if asked for, its stderr) split into lines on
/// reader threads.
struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    errors: Option<Receiver<String>>,
}

/// Sends the lines of `stream` to a channel from a thread of their own.
fn line_channel(stream: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (sender, lines) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stream).lines() {
            let Ok(line) = line else { return };
            if sender.send(line).is_err() {
                return;
            }
        }
    });
    lines
}

impl Engine {
    /// The random player (no analysis lines) with `args`.
    fn start(args: &[&str]) -> Engine {
        let mut all = vec!["--player", "random", "--seed", "1"];
        all.extend_from_slice(args);
        Engine::start_with(&all)
    }

    fn start_with(args: &[&str]) -> Engine {
        Engine::spawn(args, false)
    }

    fn spawn(args: &[&str], capture_stderr: bool) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if capture_stderr {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .spawn()
            .expect("cannot start tengen");
        let lines = line_channel(child.stdout.take().unwrap());
        let errors = child.stderr.take().map(line_channel);
        Engine {
            stdin: child.stdin.take(),
            child,
            lines,
            errors,
        }
    }

    /// The next stderr line (only for an engine started with `capture_stderr`).
    fn error_line(&self) -> String {
        let errors = self.errors.as_ref().expect("stderr is captured");
        errors.recv_timeout(TIMEOUT).expect("no stderr from tengen")
    }

    fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    fn line(&self) -> String {
        let line = self
            .lines
            .recv_timeout(TIMEOUT)
            .expect("no output from tengen");
        assert!(!line.contains('\r'), "CR on stdout: {line:?}");
        line
    }

    /// One whole response: its lines up to the empty line.
    fn response(&self) -> Vec<String> {
        let first = self.line();
        assert!(
            first.starts_with('=') || first.starts_with('?'),
            "not a response: {first:?}"
        );
        let mut lines = vec![first];
        loop {
            let line = self.line();
            if line.is_empty() {
                return lines;
            }
            lines.push(line);
        }
    }

    /// Sends `command` and returns its successful result (lines joined with `\n`).
    fn ok(&mut self, command: &str) -> String {
        self.send(&format!("{command}\n"));
        self.expect_ok(command)
    }

    fn expect_ok(&self, command: &str) -> String {
        let lines = self.response();
        assert!(lines[0].starts_with('='), "{command}: {lines:?}");
        let first = lines[0].trim_start_matches('=').trim_start();
        let mut text = first.to_string();
        for line in &lines[1..] {
            text.push('\n');
            text.push_str(line);
        }
        text
    }

    /// Reads lines for `period`: all must be analysis lines of `dialect`. Returns how many.
    fn info_lines_for(&self, period: Duration, dialect: Dialect) -> usize {
        let end = Instant::now() + period;
        let mut count = 0;
        while let Some(left) = end.checked_duration_since(Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    check_info_line(&line, dialect);
                    count += 1;
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => panic!("tengen died during analysis"),
            }
        }
        count
    }

    /// Reads an open analysis response to its end: info lines, then the empty line.
    fn close_analysis(&self, dialect: Dialect) {
        loop {
            let line = self.line();
            if line.is_empty() {
                return;
            }
            check_info_line(&line, dialect);
        }
    }

    /// Closes stdin and waits for the exit.
    fn finish(mut self) -> ExitStatus {
        drop(self.stdin.take());
        self.exits_within(TIMEOUT)
    }

    /// Waits for the exit (after `quit` or the end of input), within `limit`.
    fn exits_within(&mut self, limit: Duration) -> ExitStatus {
        let end = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > end {
                let _ = self.child.kill();
                panic!("tengen did not exit within {limit:?}");
            }
            thread::sleep(Duration::from_millis(10));
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Dialect {
    Lz,
    Kata,
}

fn is_vertex(token: &str) -> bool {
    let mut chars = token.chars();
    let letter = chars
        .next()
        .is_some_and(|c| c.is_ascii_uppercase() && c != 'I');
    let digits: String = chars.collect();
    letter && !digits.is_empty() && digits.parse::<u32>().is_ok_and(|n| (1..=25).contains(&n))
}

/// Checks an analysis line as Sabaki parses it: `info` segments of key/value pairs with
/// `move`, `visits`, `winrate` (ten-thousandths for lz, [0, 1] for kata), `pv` last and made of
/// vertices, never a pass as `move`.
fn check_info_line(line: &str, dialect: Dialect) {
    let body = line
        .strip_prefix("info ")
        .unwrap_or_else(|| panic!("not an info line: {line:?}"));
    for segment in body.split(" info ") {
        let (pairs, pv) = segment
            .split_once(" pv ")
            .unwrap_or_else(|| panic!("no pv: {line:?}"));
        let pv = pv.split(" ownership ").next().unwrap();
        assert!(pv.split(' ').all(is_vertex), "bad pv: {line:?}");
        let tokens: Vec<&str> = pairs.split(' ').collect();
        assert_eq!(tokens.len() % 2, 0, "unpaired keys: {line:?}");
        let value = |key: &str| {
            tokens
                .chunks(2)
                .find(|kv| kv[0] == key)
                .map(|kv| kv[1])
                .unwrap_or_else(|| panic!("no {key}: {line:?}"))
        };
        assert!(is_vertex(value("move")), "bad move: {line:?}");
        assert!(value("visits").parse::<u64>().is_ok(), "{line:?}");
        let winrate = value("winrate");
        match dialect {
            Dialect::Lz => assert!(
                winrate.parse::<u32>().is_ok_and(|w| w <= 10_000),
                "lz winrate: {line:?}"
            ),
            Dialect::Kata => assert!(
                winrate
                    .parse::<f64>()
                    .is_ok_and(|w| (0.0..=1.0).contains(&w)),
                "kata winrate: {line:?}"
            ),
        }
    }
}

#[test]
fn info_line_checks_can_fail() {
    let good = "info move D4 visits 3 winrate 5000 prior 10 lcb -20 order 0 pv D4 Q16";
    check_info_line(good, Dialect::Lz);
    for bad in [
        "info move pass visits 3 winrate 5000 order 0 pv D4",
        "info move D4 visits 3 winrate 0.5 order 0 pv D4",
        "info move D4 visits 3 winrate 5000 order 0 pv D4 pass",
        "move D4 visits 3 winrate 5000 pv D4",
    ] {
        assert!(
            std::panic::catch_unwind(|| check_info_line(bad, Dialect::Lz)).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn sabaki_session() {
    let mut engine = Engine::start(&[]);
    sabaki_start_up(&mut engine);
    sabaki_sync_and_analysis(&mut engine);
    sabaki_move_request(&mut engine);

    // Handicap as Sabaki sends it for AB stones on an empty board.
    engine.send("clear_board\nset_free_handicap D16 D4 Q16 Q4\ngenmove W\n");
    engine.expect_ok("clear_board");
    engine.expect_ok("set_free_handicap");
    let reply = engine.expect_ok("genmove W");
    assert!(is_vertex(&reply) || reply == "pass" || reply == "resign");

    // Detach: quit is answered and the process exits well within Sabaki's 3 s.
    engine.send("quit\n");
    assert_eq!(engine.expect_ok("quit"), "");
    assert!(engine.exits_within(Duration::from_secs(3)).success());
}

/// Sabaki's start-up burst, written before any answer is read, and the analysis commands it
/// picks from the list.
fn sabaki_start_up(engine: &mut Engine) {
    engine.send("name\nversion\nprotocol_version\nlist_commands\n");
    assert_eq!(engine.expect_ok("name"), "tengen");
    assert!(!engine.expect_ok("version").is_empty());
    assert_eq!(engine.expect_ok("protocol_version"), "2");
    let list = engine.expect_ok("list_commands");
    let commands: Vec<&str> = list.split('\n').collect();
    assert!(commands.iter().all(|c| !c.is_empty() && c.trim() == *c));
    let first_of = |names: &[&'static str]| names.iter().copied().find(|n| commands.contains(n));
    assert_eq!(
        first_of(&["analyze", "kata-analyze", "lz-analyze"]),
        Some("kata-analyze")
    );
    assert_eq!(
        first_of(&[
            "genmove_analyze",
            "kata-genmove_analyze",
            "lz-genmove_analyze"
        ]),
        Some("kata-genmove_analyze")
    );
    for needed in [
        "undo",
        "set_free_handicap",
        "lz-analyze",
        "komi",
        "boardsize",
    ] {
        assert!(commands.contains(&needed), "{needed} not listed");
    }
}

/// Sync (one pipelined batch), analysis in both dialects, navigation by undo.
fn sabaki_sync_and_analysis(engine: &mut Engine) {
    // Sync: one pipelined batch, every command succeeds.
    let sync = [
        "komi 6.5",
        "boardsize 19",
        "clear_board",
        "play B Q16",
        "play W D4",
        "play B Q3",
        "play W D16",
        "play B pass",
        "play W C3",
    ];
    engine.send(&sync.map(|c| format!("{c}\n")).concat());
    for command in sync {
        assert_eq!(engine.expect_ok(command), "");
    }

    // Analysis in both dialects, stopped by the protocol_version Sabaki sends to abort.
    for (command, dialect) in [
        ("kata-analyze B 50", Dialect::Kata),
        ("lz-analyze B 50", Dialect::Lz),
    ] {
        engine.send(&format!("{command}\n"));
        assert_eq!(engine.line(), "=");
        engine.info_lines_for(Duration::from_millis(300), dialect);
        engine.send("protocol_version\n");
        engine.close_analysis(dialect);
        assert_eq!(engine.expect_ok("protocol_version"), "2");
    }

    // Navigation by undo, pipelined with the new moves.
    engine.send("undo\nundo\nplay B C16\nplay W pass\n");
    for command in ["undo", "undo", "play", "play"] {
        assert_eq!(engine.expect_ok(command), "");
    }
}

/// A move request: analysis lines, then "play <move>", then the empty line.
fn sabaki_move_request(engine: &mut Engine) {
    engine.send("kata-genmove_analyze W 50\n");
    assert_eq!(engine.line(), "=");
    let played = loop {
        let line = engine.line();
        match line.strip_prefix("play ") {
            Some(mv) => break mv.to_string(),
            None => check_info_line(&line, Dialect::Kata),
        }
    };
    assert!(
        is_vertex(&played) || played == "pass" || played == "resign",
        "{played}"
    );
    assert_eq!(engine.line(), "");
    if is_vertex(&played) {
        // The engine played it: the point is taken now.
        engine.send(&format!("play B {played}\n"));
        assert_eq!(engine.response(), ["? illegal move"]);
    }
}

#[test]
fn quit_during_analysis_exits_promptly() {
    let mut engine = Engine::start(&[]);
    engine.send("kata-analyze B 10\n");
    assert_eq!(engine.line(), "=");
    engine.send("quit\n");
    engine.close_analysis(Dialect::Kata);
    assert_eq!(engine.expect_ok("quit"), "");
    assert!(engine.exits_within(Duration::from_secs(3)).success());
}

#[test]
fn end_of_input_ends_the_session() {
    let mut engine = Engine::start(&[]);
    assert_eq!(engine.ok("name"), "tengen");
    engine.send("lz-analyze B 10\n");
    assert_eq!(engine.line(), "=");
    assert!(engine.finish().success());
}

/// The search player, one thread, 9x9: analysis lines appear and follow the formats, and a
/// genmove with a minute to think answers soon after GoGui's interrupt.
#[test]
fn search_player_streams_analysis_and_obeys_interrupts() {
    let mut engine = Engine::start_with(&[
        "--player",
        "mcts",
        "--threads",
        "1",
        "--time-per-move",
        "60",
        "--seed",
        "1",
    ]);
    for command in ["boardsize 9", "clear_board", "komi 7", "play B E5"] {
        assert_eq!(engine.ok(command), "");
    }
    for (command, dialect) in [
        ("lz-analyze W 20", Dialect::Lz),
        ("kata-analyze W 20 ownership true", Dialect::Kata),
    ] {
        engine.send(&format!("{command}\n"));
        assert_eq!(engine.line(), "=");
        // Reports every 0.2 s: a few seconds must show some, whatever the machine's load.
        let mut seen = 0;
        let give_up = Instant::now() + TIMEOUT;
        while seen < 2 && Instant::now() < give_up {
            seen += engine.info_lines_for(Duration::from_millis(200), dialect);
        }
        assert!(seen >= 2, "{command}: no analysis lines");
        engine.send("protocol_version\n");
        engine.close_analysis(dialect);
        assert_eq!(engine.expect_ok("protocol_version"), "2");
    }
    // A bare empty line stops an analysis too (as Leela Zero and KataGo do), with stdin open.
    engine.send("lz-analyze W 20\n");
    assert_eq!(engine.line(), "=");
    thread::sleep(Duration::from_millis(300));
    engine.send("\n");
    engine.close_analysis(Dialect::Lz);
    assert_eq!(engine.ok("name"), "tengen");
    let map = engine.ok("gogui-analyze_commands");
    assert!(map.contains("tengen-ownership"));

    engine.send("genmove w\n");
    thread::sleep(Duration::from_millis(500));
    let asked = Instant::now();
    engine.send("# interrupt\n");
    let mv = engine.expect_ok("genmove w");
    assert!(
        asked.elapsed() < Duration::from_secs(20),
        "genmove ignored the interrupt"
    );
    assert!(is_vertex(&mv) || mv == "pass" || mv == "resign", "{mv}");
    assert_eq!(engine.ok("name"), "tengen");
    engine.send("quit\n");
    engine.expect_ok("quit");
    assert!(engine.exits_within(Duration::from_secs(3)).success());
}

/// Whether every line of `text` is a GoGui gfx command.
fn is_gfx(text: &str) -> bool {
    text.split('\n').all(|line| {
        let word = line.split_whitespace().next().unwrap_or("");
        [
            "BLACK",
            "WHITE",
            "CIRCLE",
            "MARK",
            "SQUARE",
            "TRIANGLE",
            "COLOR",
            "INFLUENCE",
            "LABEL",
            "VAR",
            "TEXT",
            "CLEAR",
        ]
        .contains(&word)
    })
}

/// Checks a GoGui analyze response by the entry's type.
fn check_gogui_response(kind: &str, text: &str, size: usize) {
    match kind {
        "dboard" => {
            let rows: Vec<&str> = text.split('\n').collect();
            assert_eq!(rows.len(), size, "{text}");
            for row in rows {
                let values: Vec<f64> = row.split_whitespace().map(|v| v.parse().unwrap()).collect();
                assert_eq!(values.len(), size, "{text}");
                assert!(values.iter().all(|v| (-1.0..=1.0).contains(v)), "{text}");
            }
        }
        "gfx" => assert!(is_gfx(text), "gfx {text:?}"),
        "plist" => assert!(text.split_whitespace().all(is_vertex), "{text}"),
        "none" => assert_eq!(text, ""),
        "param" => {
            // The random player has no settings: an empty view.
            for line in text.lines() {
                let words: Vec<&str> = line.split(' ').collect();
                assert_eq!(words.len(), 3, "[type] key value: {line}");
                let kind = words[0];
                let known = ["[bool]", "[string]"].contains(&kind) || kind.starts_with("[list/");
                assert!(known && kind.ends_with(']'), "{line}");
            }
        }
        "string" => {}
        other => panic!("unexpected analyze type {other}"),
    }
}

#[test]
fn gogui_session() {
    // A long thinking time: only the interrupt can make genmove answer quickly.
    let mut engine = Engine::start(&["--time-per-move", "30"]);
    assert_eq!(engine.ok("protocol_version"), "2");
    assert_eq!(engine.ok("name"), "tengen");
    engine.ok("version");
    let list = engine.ok("list_commands");
    let commands: Vec<&str> = list.split('\n').collect();
    for needed in [
        "gogui-interrupt",
        "gogui-analyze_commands",
        "final_status_list",
    ] {
        assert!(commands.contains(&needed), "{needed} not listed");
    }

    for command in [
        "boardsize 9",
        "clear_board",
        "komi 7.5",
        "time_settings 0 1 0",
        "play B E5",
        "play W C3",
    ] {
        assert_eq!(engine.ok(command), "");
    }

    // The analyze menu: 3..5 fields, unique labels, listed commands, answers of the right type.
    let menu = engine.ok("gogui-analyze_commands");
    let mut labels = Vec::new();
    for entry in menu.split('\n') {
        let fields: Vec<&str> = entry.split('/').collect();
        assert!((3..=5).contains(&fields.len()), "{entry}");
        let (kind, label, command) = (fields[0], fields[1], fields[2]);
        assert!(!labels.contains(&label), "duplicate label {label}");
        labels.push(label);
        let name = command.split_whitespace().next().unwrap();
        assert!(commands.contains(&name), "{name} not listed");
        let text = engine.ok(&command.replace("%m", "b").replace("%c", "b"));
        check_gogui_response(kind, &text, 9);
    }

    // Interrupt during genmove: the move comes, the comment gets no response of its own.
    engine.send("genmove b\n");
    thread::sleep(Duration::from_millis(100));
    engine.send("# interrupt\n");
    let mv = engine.expect_ok("genmove b");
    assert!(is_vertex(&mv) || mv == "pass" || mv == "resign", "{mv}");
    assert_eq!(engine.ok("name"), "tengen");

    // Scoring after two passes.
    engine.ok("play w pass");
    engine.ok("play b pass");
    let dead = engine.ok("final_status_list dead");
    assert!(dead.split_whitespace().all(is_vertex), "{dead}");
    let score = engine.ok("final_score");
    assert!(
        score == "0" || score.starts_with("B+") || score.starts_with("W+"),
        "{score}"
    );
    engine.send("quit\n");
    engine.expect_ok("quit");
    assert!(engine.exits_within(Duration::from_secs(3)).success());
}

#[test]
fn live_graphics_reach_stderr_while_genmove_thinks() {
    let mut engine = Engine::spawn(
        &[
            "--player",
            "mcts",
            "--threads",
            "1",
            "--time-per-move",
            "2",
            "--seed",
            "1",
        ],
        true,
    );
    for command in ["boardsize 9", "clear_board", "tengen-live_gfx winrates"] {
        assert_eq!(engine.ok(command), "");
    }
    engine.send("genmove b\n");
    // Drawings every 0.3 s: blocks of gfx lines opened by "gogui-gfx:" and closed by an
    // empty line, then one CLEAR before the answer.
    let mut drawings = 0;
    loop {
        let line = engine.error_line();
        if line == "gogui-gfx: CLEAR" {
            break;
        }
        if line != "gogui-gfx:" {
            continue; // a log line
        }
        let mut block = Vec::new();
        loop {
            let line = engine.error_line();
            if line.is_empty() {
                break;
            }
            block.push(line);
        }
        let block = block.join("\n");
        assert!(is_gfx(&block), "{block:?}");
        assert!(block.contains("LABEL "), "{block:?}");
        drawings += 1;
    }
    assert!(drawings >= 1, "no drawing while thinking");
    let mv = engine.expect_ok("genmove b");
    assert!(is_vertex(&mv) || mv == "pass", "{mv}");
    assert_eq!(engine.ok("tengen-live_gfx off"), "");
    engine.send("quit\n");
    engine.expect_ok("quit");
    assert!(engine.exits_within(Duration::from_secs(3)).success());
}
