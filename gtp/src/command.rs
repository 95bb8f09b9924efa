//! One parsed command line: `[id] command_name [arguments]`.

use crate::error::GtpError;

/// Largest id GTP allows (an `int` is 0..2^31-1).
const MAX_ID: u32 = i32::MAX as u32;

/// A command as the engine receives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The optional numeric id, echoed in the response (`=17 ...`).
    pub id: Option<u32>,
    /// The command name, case-sensitive as GTP says.
    pub name: String,
    pub args: Vec<String>,
}

impl Command {
    /// Parses a preprocessed, non-empty line. On failure returns the id (when one was read) and
    /// the error to answer with.
    pub fn parse(line: &str) -> Result<Command, (Option<u32>, GtpError)> {
        let mut tokens = line.split(' ').filter(|t| !t.is_empty());
        let mut first = tokens.next().ok_or((None, GtpError::syntax()))?;
        let mut id = None;
        if first.bytes().all(|b| b.is_ascii_digit()) {
            let value = first
                .parse::<u32>()
                .ok()
                .filter(|&v| v <= MAX_ID)
                .ok_or((None, GtpError::syntax()))?;
            id = Some(value);
            first = tokens.next().ok_or((id, GtpError::syntax()))?;
        }
        Ok(Command {
            id,
            name: first.to_string(),
            args: tokens.map(String::from).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_names_and_arguments() {
        let c = Command::parse("17 play  b   D4").unwrap();
        assert_eq!(c.id, Some(17));
        assert_eq!(c.name, "play");
        assert_eq!(c.args, ["b", "D4"]);
        let c = Command::parse("name").unwrap();
        assert_eq!((c.id, c.args.len()), (None, 0));
        assert_eq!(
            Command::parse("2147483647 name").unwrap().id,
            Some(2147483647)
        );
    }

    #[test]
    fn bad_ids() {
        assert_eq!(
            Command::parse("2147483648 name"),
            Err((None, GtpError::syntax()))
        );
        assert_eq!(
            Command::parse("99999999999999999999 name"),
            Err((None, GtpError::syntax()))
        );
        assert_eq!(Command::parse("5"), Err((Some(5), GtpError::syntax())));
        assert_eq!(Command::parse("-5 name").unwrap().name, "-5");
    }
}
