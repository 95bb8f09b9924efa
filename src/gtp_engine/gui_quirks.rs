//! `--gui NAME`: answers shaped for a GUI that departs from GTP where the specification's
//! answer would freeze or confuse it. Each quirk was read in the GUI's own source and is tested
//! against the real GUI (`tests/gui/`); without `--gui` tengen answers by the specification.
//!
//! * Lizzie 0.7.4 reads the `version` answer as Leela Zero's and wants its second number to
//!   be at least 15, or it shows a dialog from a thread holding the lock its painter needs: the
//!   window freezes. tengen then answers the Leela Zero analysis protocol version it speaks,
//!   as KataGo's `-override-version` does for the same reason. Lizzie reads that answer on a
//!   thread that may run before its engine object is published (a static field set once the
//!   engine has started): an answer within milliseconds meets a null there, the reader thread
//!   dies, and Lizzie stays "loading" for good. Leela Zero answers seconds later, after loading
//!   its network; tengen waits [`LIZZIE_VERSION_DELAY`] before this answer. Lizzie also places an
//!   engine's pass by sending it back (`play W pass` right after `genmove W` answered `pass`)
//!   and, in a game against the engine, then asks for a move for the other side whose answer
//!   it never reads (its `isThinking` flag is cleared just after): tengen accepts the echo
//!   without playing it and answers that `genmove` with `pass` without playing it, so that
//!   both boards still hold the same game.
//! * qGo 2.1 numbers its commands only for an engine whose path ends in "gnugo", yet matches
//!   every `genmove` answer against its counter, which starts at 1000: a `genmove` sent
//!   without an id is answered with id 1000.
//! * Kigo 22.12 takes only an upper-case `PASS` (GNU Go's spelling) as a pass.

use clap::ValueEnum;
use engine_core::Color;
use gtp::Command;

/// A GUI whose quirks the answers follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Gui {
    Lizzie,
    Qgo,
    Kigo,
}

/// The Leela Zero protocol version whose `lz-analyze` tengen speaks (Lizzie needs 0.15 or later).
const LEELA_ZERO_PROTOCOL: &str = "0.17";

/// How long tengen waits before answering Lizzie's `version`.
pub const LIZZIE_VERSION_DELAY: std::time::Duration = std::time::Duration::from_millis(1500);

/// The id qGo's command counter starts at, and stays at for engines it does not number.
const QGO_GENMOVE_ID: u32 = 1000;

/// The quirks a session follows: those of one GUI, or none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Quirks {
    pub gui: Option<Gui>,
    /// Where Lizzie is in placing the engine's pass.
    lizzie_pass: LizziePass,
}

/// Lizzie's way of placing an engine's pass, step by step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum LizziePass {
    #[default]
    Idle,
    /// tengen answered `genmove` for this colour with `pass`: Lizzie sends it back next.
    Answered(Color),
    /// The echo came: a `genmove` Lizzie will not read may follow.
    Echoed,
}

impl Quirks {
    /// The quirks of `gui`.
    pub fn of(gui: Option<Gui>) -> Quirks {
        Quirks {
            gui,
            lizzie_pass: LizziePass::Idle,
        }
    }

    /// The answer that replaces running `command`, where the GUI's quirk needs one.
    pub fn answer_instead(&mut self, command: &Command) -> Option<String> {
        let step = std::mem::take(&mut self.lizzie_pass);
        match (step, command.name.as_str(), command.args.as_slice()) {
            (LizziePass::Answered(c), "play", [color, vertex])
                if color.parse() == Ok(c) && vertex.eq_ignore_ascii_case("pass") =>
            {
                self.lizzie_pass = LizziePass::Echoed;
                Some(String::new())
            }
            (LizziePass::Echoed, "genmove", [_]) => Some("pass".to_string()),
            _ => None,
        }
    }

    /// Notes the answer `text` to `command`, which ran.
    pub fn note_answer(&mut self, command: &Command, text: &str) {
        if self.gui == Some(Gui::Lizzie) && command.name == "genmove" && text == "pass" {
            if let Some(Ok(c)) = command.args.first().map(|a| a.parse::<Color>()) {
                self.lizzie_pass = LizziePass::Answered(c);
            }
        }
    }

    /// How long to wait before answering `command`.
    pub fn delay_before(self, command: &Command) -> std::time::Duration {
        if self.gui == Some(Gui::Lizzie) && command.name == "version" {
            LIZZIE_VERSION_DELAY
        } else {
            std::time::Duration::ZERO
        }
    }

    /// The `version` answer, if the GUI needs another than tengen's own.
    pub fn version(self) -> Option<&'static str> {
        (self.gui == Some(Gui::Lizzie)).then_some(LEELA_ZERO_PROTOCOL)
    }

    /// The id `command`'s answer carries.
    pub fn answer_id(self, command: &Command) -> Option<u32> {
        match command.id {
            None if self.gui == Some(Gui::Qgo) && command.name == "genmove" => Some(QGO_GENMOVE_ID),
            id => id,
        }
    }

    /// How a pass is written in a `genmove` answer.
    pub fn pass_text(self) -> &'static str {
        if self.gui == Some(Gui::Kigo) {
            "PASS"
        } else {
            "pass"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &str) -> Command {
        Command::parse(line).unwrap()
    }

    #[test]
    fn quirks_apply_only_to_their_gui() {
        let [none, lizzie, qgo, kigo] =
            [None, Some(Gui::Lizzie), Some(Gui::Qgo), Some(Gui::Kigo)].map(Quirks::of);
        assert_eq!(lizzie.version(), Some("0.17"));
        assert_eq!(none.version(), None);
        assert_eq!(qgo.version(), None);
        let genmove = command("genmove w");
        assert_eq!(qgo.answer_id(&genmove), Some(1000));
        assert_eq!(qgo.answer_id(&command("7 genmove w")), Some(7));
        assert_eq!(qgo.answer_id(&command("play w C3")), None);
        assert_eq!(none.answer_id(&genmove), None);
        assert_eq!(
            lizzie.delay_before(&command("2 version")),
            LIZZIE_VERSION_DELAY
        );
        assert!(lizzie.delay_before(&command("name")).is_zero());
        assert!(qgo.delay_before(&command("version")).is_zero());
        assert_eq!(kigo.pass_text(), "PASS");
        assert_eq!(lizzie.pass_text(), "pass");
    }

    #[test]
    fn lizzie_s_echo_of_a_pass_and_the_move_it_never_reads_change_nothing() {
        let mut lizzie = Quirks::of(Some(Gui::Lizzie));
        let genmove = command("12 genmove W");
        assert_eq!(lizzie.answer_instead(&genmove), None);
        lizzie.note_answer(&genmove, "pass");
        assert_eq!(
            lizzie.answer_instead(&command("13 play W pass")),
            Some(String::new())
        );
        assert_eq!(
            lizzie.answer_instead(&command("14 genmove B")),
            Some("pass".into())
        );
        // Afterwards, and for any other sequence, commands run as usual.
        assert_eq!(lizzie.answer_instead(&command("15 genmove B")), None);
        lizzie.note_answer(&genmove, "pass");
        assert_eq!(lizzie.answer_instead(&command("play B pass")), None);
        assert_eq!(lizzie.answer_instead(&command("genmove B")), None);
        let mut plain = Quirks::of(None);
        plain.note_answer(&genmove, "pass");
        assert_eq!(plain.answer_instead(&command("play W pass")), None);
    }
}
