//! Response framing: `=[id] result` or `?[id] message`, then exactly one empty line. Results
//! may span several lines, but a response never contains an empty line (it would end the
//! response early for every controller), so blank lines inside a result are dropped.

use std::io::{self, Write};

/// A success response with `text` as the result (may be empty or span lines).
pub fn success(id: Option<u32>, text: &str) -> String {
    frame('=', id, text)
}

/// A failure response.
pub fn failure(id: Option<u32>, message: &str) -> String {
    frame('?', id, message)
}

/// The first line of a streamed success response (analysis): `=[id]` alone.
pub fn stream_start(id: Option<u32>) -> String {
    format!("={}\n", id_text(id))
}

/// What closes a streamed response: the empty line.
pub const STREAM_END: &str = "\n";

/// Writes `text` and flushes, so that a controller reading a pipe sees it at once.
pub fn send(out: &mut impl Write, text: &str) -> io::Result<()> {
    log::debug!(target: "gtp", "> {}", text.trim_end_matches('\n'));
    out.write_all(text.as_bytes())?;
    out.flush()
}

fn id_text(id: Option<u32>) -> String {
    id.map_or(String::new(), |i| i.to_string())
}

fn frame(status: char, id: Option<u32>, text: &str) -> String {
    let mut lines = text.split('\n').map(|l| l.trim_end_matches('\r'));
    let first = lines.next().unwrap_or("").trim_end();
    let mut out = format!("{status}{}", id_text(id));
    if !first.is_empty() {
        out.push(' ');
        out.push_str(first);
    }
    for line in lines.map(str::trim_end).filter(|l| !l.is_empty()) {
        out.push('\n');
        out.push_str(line);
    }
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framing() {
        assert_eq!(success(None, "2"), "= 2\n\n");
        assert_eq!(success(Some(17), "GNU Go"), "=17 GNU Go\n\n");
        assert_eq!(success(None, ""), "=\n\n");
        assert_eq!(success(Some(3), ""), "=3\n\n");
        assert_eq!(failure(Some(4), "illegal move"), "?4 illegal move\n\n");
    }

    #[test]
    fn multi_line_results_have_no_empty_line() {
        assert_eq!(success(None, "a\nb\n\n  \nc\n"), "= a\nb\nc\n\n");
        assert_eq!(success(None, "\n  A B\n1 . .\n"), "=\n  A B\n1 . .\n\n");
        assert_eq!(stream_start(Some(9)), "=9\n");
    }
}
