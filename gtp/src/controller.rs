//! The controller side of GTP: start another engine, send it commands and read its answers.
//!
//! The engine runs as a child process in its own process group (so a Ctrl-C meant for the
//! controller does not reach it). A reader thread turns its stdout into lines on a bounded
//! channel, so every command can wait with a timeout; another thread drains stderr into a small
//! ring buffer (and the `debug` log) so a chatty engine never blocks on a full pipe. Dropping an
//! [`Engine`] sends `quit`, waits briefly and kills the process.

use std::collections::VecDeque;
use std::io::{self, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Lines of stderr kept for error messages.
const STDERR_LINES: usize = 40;
/// Longest stdout or stderr line kept; the rest of a longer line is dropped.
const MAX_LINE: usize = 1 << 16;
/// Stdout lines buffered before the reader thread stops reading (and the engine blocks).
const CHANNEL_LINES: usize = 4096;
/// How long `quit` may take on drop before the process is killed.
const QUIT_GRACE: Duration = Duration::from_millis(1000);
/// Largest command id before the count starts again at 1 (a GTP int is at most 2^31 - 1).
const MAX_ID: u32 = i32::MAX as u32;
/// How often a waiting command looks at the cancel flag.
const CANCEL_POLL: Duration = Duration::from_millis(100);

/// Why a command did not produce a GTP answer.
#[derive(Debug, thiserror::Error)]
pub enum ControllerError {
    /// The command line is empty or has an unterminated quote.
    #[error("bad engine command line: {0}")]
    CommandLine(String),
    /// The program could not be started.
    #[error("cannot start {program}: {error}")]
    Spawn { program: String, error: io::Error },
    /// No complete answer within the timeout.
    #[error("no answer within {:.1} s", .0.as_secs_f64())]
    Timeout(Duration),
    /// The controller's cancel flag was set while waiting.
    #[error("cancelled")]
    Cancelled,
    /// The engine exited or closed its pipes.
    #[error("engine died ({status}){}", last_stderr_line(stderr))]
    Died { status: String, stderr: String },
    /// The answer is not GTP: it does not start with `=` or `?`.
    #[error("malformed GTP answer: {0:?}")]
    Malformed(String),
    /// The answer carries another id than the command: the engine wrote a response too many
    /// or too few, and its answers no longer match the commands.
    #[error(
        "answer {answer:?} does not carry the command's id {sent}: the engine wrote an answer \
         too many or too few"
    )]
    WrongId { sent: u32, answer: String },
}

/// `; last stderr line: …` for a dead engine's message, or nothing.
fn last_stderr_line(stderr: &str) -> String {
    stderr
        .lines()
        .last()
        .map(|line| format!("; last stderr line: {line}"))
        .unwrap_or_default()
}

/// A GTP answer: success (`=`) or failure (`?`) with its text (id and framing removed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Response {
    /// The id echoed after `=` or `?`, if any.
    pub id: Option<u32>,
    pub success: bool,
    pub text: String,
}

impl Response {
    /// The text of a success, or the failure text as an error.
    pub fn ok(self) -> Result<String, String> {
        if self.success {
            Ok(self.text)
        } else {
            Err(self.text)
        }
    }
}

/// Splits a command line into words as a POSIX shell does (quotes and backslashes; no
/// expansion), or says why it cannot.
pub fn split_command_line(line: &str) -> Result<Vec<String>, String> {
    shlex::split(line).ok_or_else(|| "unterminated quote or trailing backslash".to_string())
}

/// Parses one complete answer (lines without their terminating empty line). Leading empty
/// lines are skipped; the first line must start with `=` or `?`, optionally followed by a
/// numeric id.
pub fn parse_response(lines: &[String]) -> Result<Response, ControllerError> {
    let mut lines = lines.iter().skip_while(|l| l.trim().is_empty());
    let first = lines
        .next()
        .ok_or_else(|| ControllerError::Malformed(String::new()))?;
    let success = match first.chars().next() {
        Some('=') => true,
        Some('?') => false,
        _ => return Err(ControllerError::Malformed(first.clone())),
    };
    let rest = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
    let id = first[1..first.len() - rest.len()].parse().ok();
    let mut text = rest.trim().to_string();
    for line in lines {
        text.push('\n');
        text.push_str(line.trim_end());
    }
    Ok(Response {
        id,
        success,
        text: text.trim().to_string(),
    })
}

/// A running GTP engine.
pub struct Engine {
    label: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The thread draining stderr: it ends when the engine's stderr closes.
    stderr_reader: thread::JoinHandle<()>,
    /// Set once the engine failed; later commands fail at once with the same kind of error.
    broken: bool,
    /// When set, a waiting command gives up with [`ControllerError::Cancelled`].
    cancel: Option<Arc<AtomicBool>>,
    /// The id of the next command: every command carries one and its answer must echo it.
    next_id: u32,
}

impl Engine {
    /// Starts `command_line` (split like a shell does). `label` names the engine in logs.
    pub fn spawn(command_line: &str, label: &str) -> Result<Engine, ControllerError> {
        let words = split_command_line(command_line).map_err(ControllerError::CommandLine)?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| ControllerError::CommandLine("empty command".into()))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
            .map_err(|error| ControllerError::Spawn {
                program: program.clone(),
                error,
            })?;
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr_pipe = child.stderr.take().expect("stderr is piped");
        let (tx, rx) = mpsc::sync_channel(CHANNEL_LINES);
        let out_label = label.to_string();
        thread::Builder::new()
            .name(format!("gtp-out-{label}"))
            .spawn(move || {
                for_each_line(stdout, |line| {
                    log::trace!("[{out_label}] > {line}");
                    tx.send(line).is_ok()
                })
            })
            .map_err(|error| ControllerError::Spawn {
                program: program.clone(),
                error,
            })?;
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        let err_label = label.to_string();
        let stderr_reader = thread::Builder::new()
            .name(format!("gtp-err-{label}"))
            .spawn(move || {
                for_each_line(stderr_pipe, |line| {
                    log::debug!("[{err_label}] stderr: {line}");
                    let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                    if tail.len() == STDERR_LINES {
                        tail.pop_front();
                    }
                    tail.push_back(line);
                    true
                });
            })
            .map_err(|error| ControllerError::Spawn {
                program: program.clone(),
                error,
            })?;
        Ok(Engine {
            label: label.to_string(),
            stdin: child.stdin.take(),
            child,
            lines: rx,
            stderr,
            stderr_reader,
            broken: false,
            cancel: None,
            next_id: 1,
        })
    }

    /// Makes waiting commands give up soon after `flag` is set (for Ctrl-C).
    pub fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = Some(flag);
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    /// The last lines the engine wrote to stderr.
    pub fn stderr_tail(&self) -> String {
        let tail = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        tail.iter().cloned().collect::<Vec<_>>().join("\n")
    }

    /// Sends one command and waits up to `timeout` for its answer. After any error the engine
    /// is considered broken and every later command fails.
    pub fn command(
        &mut self,
        command: &str,
        timeout: Duration,
    ) -> Result<Response, ControllerError> {
        if self.broken {
            return Err(self.died());
        }
        let result = self.exchange(command, timeout);
        if result.is_err() {
            self.broken = true;
        }
        result
    }

    /// Sends a command that must succeed within `timeout`: a `?` answer becomes `Err(text)`
    /// inside `Ok`.
    pub fn ask(
        &mut self,
        command: &str,
        timeout: Duration,
    ) -> Result<Result<String, String>, ControllerError> {
        self.command(command, timeout).map(Response::ok)
    }

    fn exchange(&mut self, command: &str, timeout: Duration) -> Result<Response, ControllerError> {
        let id = self.next_id;
        self.next_id = self.next_id % MAX_ID + 1;
        let command = format!("{id} {command}");
        log::trace!("[{}] < {command}", self.label);
        let now = Instant::now();
        let deadline = now
            .checked_add(timeout)
            .unwrap_or(now + Duration::from_secs(365 * 86400));
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(format!("{command}\n").as_bytes())
                .and_then(|()| stdin.flush()),
            None => Err(io::ErrorKind::BrokenPipe.into()),
        };
        if written.is_err() {
            return Err(self.died());
        }
        let mut lines: Vec<String> = Vec::new();
        loop {
            if self
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::SeqCst))
            {
                return Err(ControllerError::Cancelled);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let wait = if self.cancel.is_some() {
                left.min(CANCEL_POLL)
            } else {
                left
            };
            match self.lines.recv_timeout(wait) {
                Ok(line) => {
                    if line.trim().is_empty() {
                        if lines.is_empty() {
                            continue;
                        }
                        let response = parse_response(&lines)?;
                        if response.id != Some(id) {
                            return Err(ControllerError::WrongId {
                                sent: id,
                                answer: lines.join("\n"),
                            });
                        }
                        return Ok(response);
                    }
                    if lines.is_empty() && !line.starts_with(['=', '?']) {
                        return Err(ControllerError::Malformed(line));
                    }
                    lines.push(line);
                }
                Err(RecvTimeoutError::Timeout) if Instant::now() >= deadline => {
                    return Err(ControllerError::Timeout(timeout))
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(self.died()),
            }
        }
    }

    /// The error for an engine that is gone: its exit status if it has exited.
    fn died(&mut self) -> ControllerError {
        // Give the stderr thread a moment to collect the last words of a crashing engine.
        let deadline = Instant::now() + Duration::from_millis(200);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break status.to_string(),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                Ok(None) => break "closed its output".to_string(),
                Err(e) => break e.to_string(),
            }
        };
        // Once the process is gone its stderr closes: let the reader take the last lines in.
        while !self.stderr_reader.is_finished()
            && Instant::now() < deadline + Duration::from_millis(300)
        {
            thread::sleep(Duration::from_millis(5));
        }
        ControllerError::Died {
            status,
            stderr: self.stderr_tail(),
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            if !self.broken {
                let _ = stdin.write_all(b"quit\n").and_then(|()| stdin.flush());
            }
            // Closing stdin tells engines that ignore `quit` to stop too.
        }
        let deadline = Instant::now()
            + if self.broken {
                Duration::ZERO
            } else {
                QUIT_GRACE
            };
        loop {
            match self.child.try_wait() {
                Ok(Some(_)) => return,
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                _ => break,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Calls `f` with each line of `r` (lossy UTF-8, `\r` and other control characters except tab
/// removed, lines cut at [`MAX_LINE`]) until `f` returns false or the stream ends.
fn for_each_line(r: impl Read, mut f: impl FnMut(String) -> bool) {
    let mut reader = BufReader::new(r);
    let mut line: Vec<u8> = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        for &b in &buf[..n] {
            if b == b'\n' {
                let text = String::from_utf8_lossy(&line)
                    .chars()
                    .filter(|&c| c == '\t' || !c.is_control())
                    .collect();
                line.clear();
                if !f(text) {
                    return;
                }
            } else if line.len() < MAX_LINE {
                line.push(b);
            }
        }
    }
    if !line.is_empty() {
        f(String::from_utf8_lossy(&line).into_owned());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            split_command_line(r#"gnugo --mode gtp  --level 10"#).unwrap(),
            ["gnugo", "--mode", "gtp", "--level", "10"]
        );
        assert_eq!(
            split_command_line(r#"a 'b c' "d \"e\" $f" g\ h ''"#).unwrap(),
            ["a", "b c", "d \"e\" $f", "g h", ""]
        );
        assert!(split_command_line("a 'b").is_err());
        assert!(split_command_line("a \"b").is_err());
        assert!(split_command_line("   ").unwrap().is_empty());
    }

    fn lines(text: &[&str]) -> Vec<String> {
        text.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_answers_with_and_without_ids() {
        let r = parse_response(&lines(&["= C3"])).unwrap();
        assert_eq!((r.id, r.success, r.text.as_str()), (None, true, "C3"));
        let r = parse_response(&lines(&["=12 pass"])).unwrap();
        assert_eq!((r.id, r.success, r.text.as_str()), (Some(12), true, "pass"));
        let r = parse_response(&lines(&["?3 illegal move"])).unwrap();
        assert_eq!(
            (r.id, r.success, r.text.as_str()),
            (Some(3), false, "illegal move")
        );
        let r = parse_response(&lines(&["=", "A1 B2", "C3 "])).unwrap();
        assert_eq!(r.text, "A1 B2\nC3");
        let r = parse_response(&lines(&["="])).unwrap();
        assert_eq!((r.success, r.text.as_str()), (true, ""));
        assert!(matches!(
            parse_response(&lines(&["hello"])),
            Err(ControllerError::Malformed(_))
        ));
    }

    #[test]
    fn drives_a_shell_engine_and_detects_failures() {
        // A tiny GTP engine: answers `name`, echoes garbage for `bad`, answers `twice` twice,
        // sleeps on `slow`, exits on `die`, quits on `quit`.
        let script = r#"while read -r id cmd rest; do
            case "$cmd" in
              name) printf '=%s fake\n\n' "$id" ;;
              bad) printf 'nonsense\n\n' ;;
              twice) printf '=%s\n\n=%s\n\n' "$id" "$id" ;;
              slow) sleep 5 ;;
              die) echo 'fatal: out of cheese' >&2; exit 3 ;;
              quit) printf '=%s\n\n' "$id"; exit 0 ;;
              *) printf '?%s unknown command\n\n' "$id" ;;
            esac
          done"#;
        let cmd = format!("bash -c '{}'", script.replace('\'', r"'\''"));
        let t = Duration::from_secs(5);
        let mut e = Engine::spawn(&cmd, "fake").unwrap();
        assert_eq!(e.ask("name", t).unwrap(), Ok("fake".to_string()));
        assert_eq!(e.ask("foo", t).unwrap(), Err("unknown command".to_string()));
        assert!(matches!(
            e.command("bad", t),
            Err(ControllerError::Malformed(_))
        ));
        // Broken from now on.
        assert!(e.command("name", t).is_err());

        // An answer too many puts every later answer out of step: the ids tell.
        let mut e = Engine::spawn(&cmd, "fake").unwrap();
        assert_eq!(e.ask("twice", t).unwrap(), Ok(String::new()));
        match e.command("name", t) {
            Err(ControllerError::WrongId { sent, answer }) => {
                assert_eq!((sent, answer.as_str()), (2, "=1"))
            }
            other => panic!("expected a wrong id, got {other:?}"),
        }

        let mut e = Engine::spawn(&cmd, "fake").unwrap();
        let started = Instant::now();
        assert!(matches!(
            e.command("slow", Duration::from_millis(300)),
            Err(ControllerError::Timeout(_))
        ));
        assert!(started.elapsed() < Duration::from_secs(2));
        drop(e);

        let mut e = Engine::spawn(&cmd, "fake").unwrap();
        match e.command("die", t) {
            Err(ControllerError::Died { stderr, .. }) => assert!(stderr.contains("out of cheese")),
            other => panic!("expected death, got {other:?}"),
        }
        assert!(matches!(
            Engine::spawn("/nonexistent/engine", "x"),
            Err(ControllerError::Spawn { .. })
        ));
        assert!(matches!(
            Engine::spawn("  ", "x"),
            Err(ControllerError::CommandLine(_))
        ));
    }
}
