//! Input preprocessing as GTP v2 section 3.1 prescribes for engines: remove control characters
//! except HT and LF (so CR LF line ends work), cut `#` comments, turn HT into a space, and
//! ignore lines that are then empty. The comment `# interrupt` is GoGui's interrupt request.

/// What one input line amounts to after preprocessing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A command line, trimmed, with single spaces not guaranteed between tokens.
    Command(String),
    /// The comment `# interrupt` (GoGui, gogui-twogtp): stop the running command, no response.
    Interrupt,
    /// Nothing left: no response.
    Empty,
}

/// Preprocesses one raw input line (without its terminating LF). Bytes that are not UTF-8 are
/// replaced, never rejected.
pub fn preprocess(raw: &[u8]) -> Line {
    let kept: Vec<u8> = raw
        .iter()
        .copied()
        .filter(|&b| b == b'\t' || (b >= 0x20 && b != 0x7f))
        .collect();
    let text = String::from_utf8_lossy(&kept);
    let (before, comment) = match text.split_once('#') {
        Some((before, comment)) => (before, Some(comment)),
        None => (text.as_ref(), None),
    };
    let command = before.replace('\t', " ");
    let command = command.trim_matches(' ');
    if !command.is_empty() {
        return Line::Command(command.to_string());
    }
    match comment {
        Some(c) if c.replace('\t', " ").trim_matches(' ') == "interrupt" => Line::Interrupt,
        _ => Line::Empty,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(s: &str) -> Line {
        Line::Command(s.to_string())
    }

    #[test]
    fn control_characters_comments_and_tabs() {
        assert_eq!(preprocess(b"name\r"), command("name"));
        assert_eq!(preprocess(b"\tplay\tb\td4  "), command("play b d4"));
        assert_eq!(preprocess(b"na\x01m\x7fe"), command("name"));
        assert_eq!(preprocess(b"komi 6.5 # set komi"), command("komi 6.5"));
        assert_eq!(preprocess(b"# just a comment"), Line::Empty);
        assert_eq!(preprocess(b"   \t \r"), Line::Empty);
        assert_eq!(preprocess(b""), Line::Empty);
    }

    #[test]
    fn interrupt_comment() {
        assert_eq!(preprocess(b"# interrupt"), Line::Interrupt);
        assert_eq!(preprocess(b"  #interrupt \r"), Line::Interrupt);
        assert_eq!(preprocess(b"# interrupted"), Line::Empty);
        assert_eq!(preprocess(b"name # interrupt"), command("name"));
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(preprocess(b"n\xffame"), command("n\u{fffd}ame"));
    }
}
