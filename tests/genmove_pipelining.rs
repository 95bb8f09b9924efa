//! GTP lets a controller send commands before the previous answer arrives. A `genmove` must
//! still think its full budget when the next command is already waiting, when `quit` is
//! queued, and when a script piped in ends: only GoGui's `# interrupt` cuts it short.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};

#[test]
fn a_pipelined_command_does_not_cut_genmove_short() {
    let mut child = tengen(&["--threads", "1", "--playouts", "3000", "--seed", "3"]);
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"boardsize 9\nclear_board\ngenmove b\nname\n")
        .unwrap();
    stdin.flush().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut answers = Vec::new();
    while answers.len() < 4 {
        let mut line = String::new();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "engine closed stdout"
        );
        if line.starts_with('=') || line.starts_with('?') {
            answers.push(line.trim().to_string());
        }
    }
    assert!(answers[2].len() > 2, "genmove answered a move: {answers:?}");
    assert_eq!(answers[3], "= tengen");
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    let mut log = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    assert!(
        log.contains("search: 3000 playouts"),
        "the search ran its whole budget: {log}"
    );
}

/// tengen with `args`, logging at info level, its three streams piped.
fn tengen(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(args)
        .args(["--log-level", "info"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start tengen")
}

/// Runs a whole script piped in at once (stdin closed at its end); returns stdout and the log.
fn batch(args: &[&str], script: &str) -> (String, String) {
    let mut child = tengen(args);
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn a_script_ending_in_genmove_thinks_its_full_budget_then_exits() {
    let args = ["--threads", "1", "--playouts", "3000", "--seed", "4"];
    for script in [
        "boardsize 9\nclear_board\ngenmove b\ngenmove w\n",
        "boardsize 9\nclear_board\ngenmove b\ngenmove w\nquit\n",
        "boardsize 9\nclear_board\ngenmove b\ngenmove w",
    ] {
        let (out, log) = batch(&args, script);
        let answers: Vec<&str> = out.split_terminator("\n\n").collect();
        assert_eq!(answers.len(), script.lines().count(), "{script:?}: {out}");
        assert!(answers[2].len() > 2 && answers[3].len() > 2, "{out}");
        assert_eq!(
            log.matches("search: 3000 playouts").count(),
            2,
            "{script:?}: both moves ran their whole budget: {log}"
        );
    }
}
