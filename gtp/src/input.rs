//! The input side of an engine session: a thread reads the controller's stream line by line
//! (bytes, so any encoding and CR LF survive), preprocesses each line and sends the commands
//! through a channel. The session can therefore run a long command (genmove, analysis,
//! pondering) on another thread and stop it the moment a new line arrives, as GoGui's
//! `# interrupt` and Sabaki's analysis protocol expect.

use crate::command::Command;
use crate::error::GtpError;
use crate::preprocess::{preprocess, Line};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, ErrorKind, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

/// Longest line kept; the rest of a longer line is skipped and the line is answered with
/// `syntax error`.
pub const MAX_LINE: usize = 1 << 20;

/// Most bytes of an input line the debug log shows.
const LOGGED_BYTES: usize = 400;

/// How often a waiting session looks at a finished job or a deadline.
const POLL: Duration = Duration::from_millis(5);

/// One event from the controller.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Command(Command),
    /// A line that cannot be a command: answer `?` with the id, if one was read.
    Invalid {
        id: Option<u32>,
        error: GtpError,
    },
    /// GoGui's `# interrupt`: stops the running command, has no response of its own.
    Interrupt,
    /// A line with nothing to run (empty, blank or only a comment): no response, but it stops
    /// an analysis, as Leela Zero and KataGo do and tools rely on.
    Blank,
    /// End of the input stream (or a read error): the session ends.
    Eof,
}

/// Which waiting events stop a running job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopOn {
    /// Any event: analysis and pondering end the moment the controller speaks.
    AnyInput,
    /// Only GoGui's `# interrupt`: choosing a move is not cut short by commands a controller
    /// sends ahead of the answer (GTP runs commands in order), nor by `quit` or the end of a
    /// script piped in: a batch `genmove` thinks its full budget, then the session ends.
    Interrupt,
}

impl StopOn {
    fn stops(self, input: &Input) -> bool {
        match self {
            StopOn::AnyInput => true,
            StopOn::Interrupt => *input == Input::Interrupt,
        }
    }
}

/// Commands read on a background thread, with a queue of those seen while a job ran.
pub struct InputReader {
    receiver: Receiver<Input>,
    queued: VecDeque<Input>,
}

impl InputReader {
    /// Reads standard input.
    pub fn stdin() -> InputReader {
        InputReader::spawn(std::io::stdin())
    }

    /// Reads `source` on its own thread until end of stream.
    pub fn spawn<R: Read + Send + 'static>(source: R) -> InputReader {
        let (sender, receiver) = mpsc::channel();
        thread::Builder::new()
            .name("gtp-input".into())
            .spawn(move || read_lines(BufReader::new(source), &sender))
            .expect("cannot start the input thread");
        InputReader {
            receiver,
            queued: VecDeque::new(),
        }
    }

    /// The next event, waiting for it.
    pub fn next_input(&mut self) -> Input {
        self.queued
            .pop_front()
            .unwrap_or_else(|| self.receiver.recv().unwrap_or(Input::Eof))
    }

    /// Whether an event is waiting (without blocking).
    pub fn has_pending(&mut self) -> bool {
        while let Ok(input) = self.receiver.try_recv() {
            self.queued.push_back(input);
        }
        !self.queued.is_empty()
    }

    /// Runs `job` on its own thread while watching the input. The stop flag handed to the job is
    /// set as soon as an event that `stop_on` accepts is waiting (one already queued counts, and
    /// so does the end of the input), or `deadline` passes.
    /// With `hold_open` the call returns only once an event has arrived, even if the job ended
    /// earlier (analysis stays open until the controller speaks). Events are kept in order for
    /// [`next_input`](Self::next_input). Returns the job's result, or its panic.
    pub fn run_interruptible<T: Send>(
        &mut self,
        deadline: Option<Instant>,
        stop_on: StopOn,
        hold_open: bool,
        job: impl FnOnce(&AtomicBool) -> T + Send,
    ) -> thread::Result<T> {
        let stop = AtomicBool::new(self.queued.iter().any(|input| stop_on.stops(input)));
        thread::scope(|scope| {
            let handle = scope.spawn(|| job(&stop));
            let mut connected = true;
            loop {
                if handle.is_finished() && (stop.load(Ordering::SeqCst) || !hold_open) {
                    break;
                }
                if connected {
                    match self.receiver.recv_timeout(POLL) {
                        Ok(input) => {
                            if stop_on.stops(&input) {
                                stop.store(true, Ordering::SeqCst);
                            }
                            self.queued.push_back(input);
                        }
                        // The reader is gone (its `Eof` came before): nothing more will arrive.
                        Err(RecvTimeoutError::Disconnected) => {
                            connected = false;
                            if stop_on.stops(&Input::Eof) {
                                stop.store(true, Ordering::SeqCst);
                            }
                        }
                        Err(RecvTimeoutError::Timeout) => {}
                    }
                } else {
                    thread::sleep(POLL);
                }
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    stop.store(true, Ordering::SeqCst);
                }
            }
            handle.join()
        })
    }
}

/// The reader thread: one event per meaningful line, then `Eof`.
fn read_lines(mut reader: impl BufRead, sender: &Sender<Input>) {
    loop {
        let (line, too_long, more) = match read_line(&mut reader) {
            Ok(read) => read,
            Err(e) => {
                log::warn!("reading the controller's input failed: {e}");
                (Vec::new(), false, false)
            }
        };
        if log::log_enabled!(target: "gtp", log::Level::Debug) && (more || !line.is_empty()) {
            let shown = String::from_utf8_lossy(&line[..line.len().min(LOGGED_BYTES)]);
            log::debug!(target: "gtp", "< {}", shown.trim_end_matches('\r'));
        }
        // A line cut at the cap is refused unless it is a comment, so that a controller waiting
        // for the answer to a huge line gets one, even when its kept part is blank.
        let event = match (preprocess(&line), too_long) {
            (Line::Command(text), true) => Input::Invalid {
                id: Command::parse(&text).map_or_else(|(id, _)| id, |command| command.id),
                error: GtpError::syntax(),
            },
            (_, true) if line.contains(&b'#') => Input::Blank,
            (_, true) => Input::Invalid {
                id: None,
                error: GtpError::syntax(),
            },
            (Line::Empty, false) => Input::Blank,
            (Line::Interrupt, false) => Input::Interrupt,
            (Line::Command(text), false) => match Command::parse(&text) {
                Ok(command) => Input::Command(command),
                Err((id, error)) => Input::Invalid { id, error },
            },
        };
        // The end of the stream without a last line break is no line of its own.
        let trailing_nothing = !more && line.is_empty();
        if !trailing_nothing && sender.send(event).is_err() {
            return;
        }
        if !more {
            let _ = sender.send(Input::Eof);
            return;
        }
    }
}

/// Reads one line without its LF, keeping at most [`MAX_LINE`] bytes. Returns the line,
/// whether it was cut, and whether the stream continues after it.
fn read_line(reader: &mut impl BufRead) -> std::io::Result<(Vec<u8>, bool, bool)> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok((line, too_long, false));
        }
        let (chunk, used, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        let room = MAX_LINE - line.len();
        too_long |= chunk.len() > room;
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        reader.consume(used);
        if done {
            return Ok((line, too_long, true));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn events(bytes: Vec<u8>) -> Vec<Input> {
        let mut input = InputReader::spawn(Cursor::new(bytes));
        let mut all = Vec::new();
        loop {
            let event = input.next_input();
            all.push(event.clone());
            if event == Input::Eof {
                return all;
            }
        }
    }

    fn name(id: Option<u32>, name: &str) -> Input {
        Input::Command(Command {
            id,
            name: name.into(),
            args: Vec::new(),
        })
    }

    #[test]
    fn lines_comments_interrupts_and_eof() {
        let got = events(b"1 name\r\n\n# hi\n# interrupt\n  \tversion".to_vec());
        assert_eq!(
            got,
            [
                name(Some(1), "name"),
                Input::Blank,
                Input::Blank,
                Input::Interrupt,
                name(None, "version"),
                Input::Eof
            ]
        );
    }

    #[test]
    fn an_over_long_blank_line_still_gets_its_answer() {
        for filler in [b' ', 0u8] {
            let mut bytes = vec![filler; MAX_LINE + 100_000];
            bytes.extend_from_slice(b"\nname\n");
            assert_eq!(
                events(bytes),
                [
                    Input::Invalid {
                        id: None,
                        error: GtpError::syntax()
                    },
                    name(None, "name"),
                    Input::Eof
                ]
            );
        }
    }

    #[test]
    fn choosing_a_move_is_stopped_by_an_interrupt_only() {
        let mut input = InputReader::spawn(Cursor::new(b"\nquit\n".to_vec()));
        let deadline = Instant::now() + Duration::from_millis(100);
        let stopped_early = input
            .run_interruptible(Some(deadline), StopOn::Interrupt, false, |stop| {
                while !stop.load(Ordering::SeqCst) {
                    thread::sleep(Duration::from_millis(1));
                }
                Instant::now() < deadline
            })
            .unwrap();
        assert!(
            !stopped_early,
            "a blank line, quit or the end of input cut the move short"
        );
        assert_eq!(input.next_input(), Input::Blank);
        assert_eq!(input.next_input(), name(None, "quit"));
        assert_eq!(input.next_input(), Input::Eof);
    }

    #[test]
    fn a_blank_line_stops_an_analysis() {
        let (keep_open, reader) = pipe();
        let mut input = InputReader::spawn(reader);
        keep_open.send(b'\n').unwrap();
        input
            .run_interruptible(None, StopOn::AnyInput, true, |stop| {
                while !stop.load(Ordering::SeqCst) {
                    thread::sleep(Duration::from_millis(1));
                }
            })
            .unwrap();
        assert_eq!(input.next_input(), Input::Blank);
    }

    #[test]
    fn long_lines_are_refused_and_skipped() {
        let mut bytes = b"7 name ".to_vec();
        bytes.resize(MAX_LINE * 3, b'x');
        bytes.extend_from_slice(b"\nversion\n");
        let got = events(bytes);
        assert_eq!(
            got,
            [
                Input::Invalid {
                    id: Some(7),
                    error: GtpError::syntax()
                },
                name(None, "version"),
                Input::Eof
            ]
        );
    }

    #[test]
    fn a_waiting_event_stops_a_job_and_is_kept() {
        let mut input = InputReader::spawn(Cursor::new(b"name\n".to_vec()));
        let waited = input
            .run_interruptible(None, StopOn::AnyInput, true, |stop| {
                while !stop.load(Ordering::SeqCst) {
                    thread::sleep(Duration::from_millis(1));
                }
                42
            })
            .unwrap();
        assert_eq!(waited, 42);
        assert!(input.has_pending());
        assert_eq!(input.next_input(), name(None, "name"));
        assert_eq!(input.next_input(), Input::Eof);
        assert_eq!(input.next_input(), Input::Eof);
    }

    #[test]
    fn deadline_stops_a_job() {
        let (_keep_open, reader) = pipe();
        let mut input = InputReader::spawn(reader);
        let deadline = Instant::now() + Duration::from_millis(20);
        let result = input.run_interruptible(Some(deadline), StopOn::AnyInput, false, |stop| {
            while !stop.load(Ordering::SeqCst) {
                thread::sleep(Duration::from_millis(1));
            }
        });
        assert!(result.is_ok());
    }

    /// A reader that blocks until its sender is dropped.
    fn pipe() -> (Sender<u8>, impl Read + Send) {
        struct Blocking(Receiver<u8>);
        impl Read for Blocking {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                match self.0.recv() {
                    Ok(b) if !buf.is_empty() => {
                        buf[0] = b;
                        Ok(1)
                    }
                    _ => Ok(0),
                }
            }
        }
        let (sender, receiver) = mpsc::channel();
        (sender, Blocking(receiver))
    }
}
