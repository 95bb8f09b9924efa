//! GTP transcripts run through the real binary over pipes (`--player random --seed 1`, unless
//! a transcript names its player).
//!
//! Each `tests/gtp/NAME.gtp` file is a conversation: lines starting with `>` are sent (the rest
//! of the line after `> `, then LF; `>>` sends without the LF, for input that ends mid-line),
//! with the escapes `\r`, `\t`, `\0`, `\\` and `\xHH`; lines starting with `#` are notes; every
//! other line, empty lines included, is expected output, in order, where `*` matches any text
//! within a line. The whole input is written at once (as Sabaki pipelines), stdin is closed,
//! and the engine must exit 0 with exactly the expected output. A few cases that need
//! generated input (huge lines, thousands of commands) are plain tests below.

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// Generous bound for one whole transcript.
const TIMEOUT: Duration = Duration::from_secs(60);

/// Runs the engine on `input` with extra `args`; returns stdout and whether it exited 0.
fn run_engine(args: &[&str], input: Vec<u8>) -> (String, bool) {
    let player: &[&str] = if args.contains(&"--player") {
        &[]
    } else {
        &["--player", "random"]
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["gtp", "--seed", "1"])
        .args(player)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("cannot start tengen");
    let mut stdin = child.stdin.take().unwrap();
    let writer = thread::spawn(move || {
        // The engine may quit before reading everything: a broken pipe is fine.
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let mut out = Vec::new();
        let _ = stdout.read_to_end(&mut out);
        let _ = sender.send(out);
    });
    let out = match receiver.recv_timeout(TIMEOUT) {
        Ok(out) => out,
        Err(_) => {
            let _ = child.kill();
            panic!("tengen did not finish within {TIMEOUT:?}");
        }
    };
    writer.join().unwrap();
    let status = child.wait().unwrap();
    (
        String::from_utf8(out).expect("stdout is UTF-8"),
        status.success(),
    )
}

/// Decodes the escapes of a `>` line.
fn unescape(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' || i + 1 == bytes.len() {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        match bytes[i + 1] {
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'0' => out.push(0),
            b'\\' => out.push(b'\\'),
            b'x' => {
                let hex = std::str::from_utf8(&bytes[i + 2..i + 4]).unwrap();
                out.push(u8::from_str_radix(hex, 16).unwrap());
                i += 2;
            }
            other => panic!("unknown escape \\{}", other as char),
        }
        i += 2;
    }
    out
}

/// Whether `line` matches `pattern`, where `*` stands for any text.
fn glob(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split('*');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.len() >= part.len() && rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Runs `tests/gtp/NAME.gtp` (see the module documentation).
fn transcript(name: &str, args: &[&str]) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/gtp/{name}.gtp"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut input = Vec::new();
    let mut expected = Vec::new();
    for line in text.lines() {
        if let Some(raw) = line.strip_prefix(">>") {
            input.extend(unescape(raw.strip_prefix(' ').unwrap_or(raw)));
        } else if let Some(raw) = line.strip_prefix('>') {
            input.extend(unescape(raw.strip_prefix(' ').unwrap_or(raw)));
            input.push(b'\n');
        } else if !line.starts_with('#') {
            expected.push(line);
        }
    }
    let (out, ok) = run_engine(args, input);
    let actual: Vec<&str> = out.split('\n').collect();
    // The output ends with "\n": the last split piece is empty, not a line.
    let actual = &actual[..actual.len() - 1];
    for (i, (want, got)) in expected.iter().zip(actual).enumerate() {
        assert!(
            glob(want, got),
            "{name}: output line {} is {got:?}, expected {want:?}\nwhole output:\n{out}",
            i + 1
        );
    }
    assert_eq!(
        actual.len(),
        expected.len(),
        "{name}: wrong number of output lines\nwhole output:\n{out}"
    );
    assert!(ok, "{name}: tengen did not exit with status 0");
}

#[test]
fn glob_matches_within_lines() {
    assert!(glob("= *", "= D4"));
    assert!(glob("= *", "= "));
    assert!(!glob("= *", "? illegal move"));
    assert!(glob("a*c*e", "abcde"));
    assert!(!glob("a*c", "abcd"));
    assert!(glob("exact", "exact"));
    assert!(!glob("exact", "exactly"));
}

#[test]
fn framing_and_preprocessing() {
    transcript("framing", &[]);
}

#[test]
fn board_setup_and_handicap() {
    transcript("setup", &[]);
}

#[test]
fn moves_and_undo() {
    transcript("moves", &[]);
}

#[test]
fn time_commands() {
    transcript("time", &[]);
}

#[test]
fn scoring_and_showboard() {
    transcript("scoring", &[]);
}

#[test]
fn rules_commands() {
    transcript("rules", &[]);
}

#[test]
fn analysis_commands() {
    transcript("analysis", &[]);
}

#[test]
fn gnugo_board_queries() {
    transcript("board_queries", &[]);
}

#[test]
fn search_settings() {
    transcript("settings", &["--player", "mcts", "--threads", "1"]);
}

#[test]
fn sgf_files() {
    transcript("sgf", &[]);
}

#[test]
fn quit_and_end_of_input() {
    transcript("quit", &[]);
    transcript("eof", &[]);
}

#[test]
fn command_line_options_are_applied() {
    transcript(
        "options",
        &[
            "--komi",
            "0.5",
            "--rules",
            "tromp-taylor",
            "--superko",
            "situational",
        ],
    );
}

#[test]
fn very_long_lines_are_refused_and_skipped() {
    let mut input = b"1 name ".to_vec();
    input.resize(3 << 20, b'x');
    input.extend_from_slice(b"\n2 komi 1");
    input.resize(input.len() + (2 << 20), b'0');
    input.extend_from_slice(b"\n# ");
    input.resize(input.len() + (2 << 20), b'#');
    input.extend_from_slice(b"\n3 name\n");
    // A long line whose kept part is blank gets its answer too.
    input.resize(input.len() + (1 << 20) + 100_000, b' ');
    input.extend_from_slice(b"\n4 name\n");
    let (out, ok) = run_engine(&[], input);
    assert_eq!(
        out,
        "?1 syntax error\n\n?2 syntax error\n\n=3 tengen\n\n? syntax error\n\n=4 tengen\n\n"
    );
    assert!(ok);
}

#[test]
fn a_memory_bound_past_the_machine_is_clamped_not_fatal() {
    let (out, ok) = run_engine(
        &["--max-memory", "4294967295"],
        b"name\nboardsize 9\nreg_genmove b\n".to_vec(),
    );
    assert!(ok);
    assert!(out.starts_with("= tengen\n\n=\n\n= "), "{out}");
}

#[test]
fn loadsgf_refuses_devices_and_fifos_at_once() {
    let fifo = std::env::temp_dir().join(format!("tengen-loadsgf-fifo-{}", std::process::id()));
    let made = Command::new("mkfifo").arg(&fifo).status();
    let mut input = String::from("loadsgf /dev/zero\nloadsgf /dev/urandom\nloadsgf /\n");
    if made.is_ok_and(|s| s.success()) {
        input.push_str(&format!("loadsgf {}\n", fifo.display()));
    }
    input.push_str("name\n");
    let (out, ok) = run_engine(&[], input.into_bytes());
    let _ = std::fs::remove_file(&fifo);
    assert!(ok);
    let answers: Vec<&str> = out.split_terminator("\n\n").collect();
    assert!(answers[..answers.len() - 1]
        .iter()
        .all(|a| *a == "? cannot load file"));
    assert_eq!(answers.last(), Some(&"= tengen"));
}

#[test]
fn thousands_of_pipelined_commands_are_answered_in_order() {
    let mut input = String::from("boardsize 9\n");
    let mut expected = String::from("=\n\n");
    for i in 0..3000 {
        input.push_str(&format!("{i} play b pass\n"));
        expected.push_str(&format!("={i}\n\n"));
    }
    let (out, ok) = run_engine(&[], input.into_bytes());
    assert_eq!(out, expected);
    assert!(ok);
}

#[test]
fn bad_command_lines_never_crash_the_engine() {
    let mut input = Vec::new();
    for line in [
        &b"play"[..],
        b"play b",
        b"play b d4 d5",
        b"boardsize 19 19",
        b"\xff\xfe\xfd",
        b"genmove \xc3\x28",
        b"komi 1e400",
        b"komi 1e308",
        b"komi -10001",
        b"fixed_handicap 4294967296",
        b"set_free_handicap",
        b"time_left b -5 0",
        b"loadsgf /nonexistent/file.sgf 3",
        b"lz-analyze b 50 avoid b d4",
        b"kata-analyze 99999999999",
        b"final_status_list",
        b"\x00\x01\x02",
        b"=",
        b"?",
        b"# interrupt",
    ] {
        input.extend_from_slice(line);
        input.push(b'\n');
    }
    input.extend_from_slice(b"name\n");
    let (out, ok) = run_engine(&[], input);
    assert!(ok);
    let responses: Vec<&str> = out.split_terminator("\n\n").collect();
    assert_eq!(responses.len(), 19, "{out}");
    assert!(responses[..18].iter().all(|r| r.starts_with('?')), "{out}");
    assert_eq!(responses[18], "= tengen");
}

#[test]
fn bad_flags_fail_before_any_gtp() {
    let output = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["gtp", "--threads", "0"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("error"));
    let plain = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["--komi", "x"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!plain.status.success());
}

#[test]
fn random_command_lines_never_crash_and_get_one_response_each() {
    // Every command but those that end the session or write files, and a few unknown ones.
    let mut names: Vec<&str> = tengen::gtp_engine::command_names()
        .into_iter()
        .filter(|name| !["quit", "printsgf"].contains(name))
        .collect();
    names.extend(["frobnicate", "PLAY", "="]);
    let args = [
        "b",
        "w",
        "BLACK",
        "x",
        "A1",
        "t19",
        "Z25",
        "pass",
        "I5",
        "E5",
        "C3",
        "-1",
        "0",
        "1",
        "2",
        "5",
        "9",
        "19",
        "25",
        "2147483647",
        "99999999999",
        "1.5",
        "-7.5",
        "nan",
        "true",
        "dead",
        "alive",
        "seki",
        "chinese",
        "tromp-taylor",
        "situational",
        "interval",
        "ownership",
        "minmoves",
        "maxmoves",
        "none",
        "absolute",
        "byoyomi",
        "canadian",
        "winrates",
        "off",
        "\u{e9}",
    ];
    // A fixed linear congruential generator: the same lines on every run.
    let mut state: u64 = 0x5EED;
    let mut next = |n: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize % n
    };
    let mut input = String::new();
    let lines = 2000;
    for i in 0..lines {
        if next(4) == 0 {
            input.push_str(&format!("{i} "));
        }
        input.push_str(names[next(names.len())]);
        for _ in 0..next(5) {
            input.push(' ');
            input.push_str(args[next(args.len())]);
        }
        input.push('\n');
    }
    let (out, ok) = run_engine(&[], input.into_bytes());
    assert!(ok, "tengen failed");
    assert_eq!(out.matches("\n\n").count(), lines, "{out}");
    assert!(out
        .split_terminator("\n\n")
        .all(|r| r.starts_with('=') || r.starts_with('?')));
}
