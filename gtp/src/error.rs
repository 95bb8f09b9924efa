//! GTP failure messages: the standard texts of the GTP v2 specification, so that controllers
//! (GoGui, Sabaki, twogtp) see the words they expect after `?`.

/// The message of a `?` response.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GtpError(String);

impl GtpError {
    /// A failure with a message of the caller's choice (use the constructors below when the
    /// specification has a standard text).
    pub fn new(message: impl Into<String>) -> GtpError {
        GtpError(message.into())
    }

    pub fn message(&self) -> &str {
        &self.0
    }

    pub fn unknown_command() -> GtpError {
        GtpError::new("unknown command")
    }

    /// Wrong number of arguments, or an argument of the wrong type.
    pub fn syntax() -> GtpError {
        GtpError::new("syntax error")
    }

    pub fn illegal_move() -> GtpError {
        GtpError::new("illegal move")
    }

    pub fn unacceptable_size() -> GtpError {
        GtpError::new("unacceptable size")
    }

    pub fn cannot_undo() -> GtpError {
        GtpError::new("cannot undo")
    }

    pub fn invalid_vertex() -> GtpError {
        GtpError::new("invalid vertex")
    }

    pub fn invalid_color() -> GtpError {
        GtpError::new("invalid color")
    }

    pub fn board_not_empty() -> GtpError {
        GtpError::new("board not empty")
    }

    pub fn bad_vertex_list() -> GtpError {
        GtpError::new("bad vertex list")
    }

    pub fn invalid_number_of_stones() -> GtpError {
        GtpError::new("invalid number of stones")
    }

    pub fn cannot_load_file() -> GtpError {
        GtpError::new("cannot load file")
    }

    pub fn cannot_score() -> GtpError {
        GtpError::new("cannot score")
    }
}
