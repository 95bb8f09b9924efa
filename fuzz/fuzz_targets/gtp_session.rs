//! The GTP engine fed arbitrary command streams: it never panics, answers every command line
//! exactly once (a block starting with `=` or `?`, ended by one empty line), and a command it
//! answers with `?` changes nothing. The state is read through GTP itself: the target sends a
//! set of queries before the stream and after each of its lines, and a failed command must
//! leave their answers as they were. Lines that would write files or end the session are left
//! out of the stream.
#![no_main]

use engine_core::Rules;
use gtp::preprocess::{preprocess, Line};
use gtp::{Command, InputReader};
use libfuzzer_sys::fuzz_target;
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};
use tengen::gtp_engine::Session;
use tengen::player::RandomPlayer;

/// Queries whose answers make up the observable state: the game record (size, komi, setup,
/// moves, the position they lead to) and the rules in force.
const STATE: &[&str] = &["printsgf", "tengen-rules"];

/// Most fuzzed lines a run sends.
const MOST_LINES: usize = 32;

/// The session's output, shared with the test.
#[derive(Clone, Default)]
struct Output(Arc<Mutex<Vec<u8>>>);

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Whether a line must stay out of the stream, and whether it is a command (one answer).
fn classify(line: &[u8]) -> (bool, bool) {
    match preprocess(line) {
        Line::Command(text) => match Command::parse(&text) {
            Ok(c) => (
                c.name == "quit" || (c.name == "printsgf" && !c.args.is_empty()),
                true,
            ),
            Err(_) => (false, true),
        },
        Line::Interrupt | Line::Empty => (false, false),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Vec::new();
    let state: String = STATE.iter().map(|q| format!("{q}\n")).collect();
    input.extend_from_slice(state.as_bytes());
    let mut commands = Vec::new();
    for line in data.split(|&b| b == b'\n').take(MOST_LINES) {
        let (excluded, command) = classify(line);
        if excluded {
            continue;
        }
        input.extend_from_slice(line);
        input.push(b'\n');
        input.extend_from_slice(state.as_bytes());
        commands.push(command);
    }
    let out = Output::default();
    let mut session = Session::new(
        Box::new(RandomPlayer::new(1)),
        Rules::CHINESE,
        7.5,
        InputReader::spawn(Cursor::new(input)),
        out.clone(),
    );
    session.run().expect("writing to memory cannot fail");
    let text = String::from_utf8_lossy(&out.0.lock().unwrap()).into_owned();
    let answers: Vec<&str> = text.split_terminator("\n\n").collect();
    assert!(
        answers
            .iter()
            .all(|a| a.starts_with('=') || a.starts_with('?')),
        "a block that is no answer in {text:?}"
    );
    let expected = STATE.len() * (commands.len() + 1) + commands.iter().filter(|&&c| c).count();
    assert_eq!(answers.len(), expected, "one answer per command: {text:?}");
    // Walk the answers: a state block, then each line's answer (if any) and a state block.
    let mut at = STATE.len();
    let mut before = &answers[..STATE.len()];
    for command in commands {
        let answer = command.then(|| answers[at]);
        at += usize::from(command);
        let after = &answers[at..at + STATE.len()];
        if answer.is_some_and(|a| a.starts_with('?')) {
            assert_eq!(before, after, "{answer:?} changed the state");
        }
        before = after;
        at += STATE.len();
    }
});
