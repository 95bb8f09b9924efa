//! Streaming analysis: `lz-analyze` and `kata-analyze` (`[color] [interval] [interval N]
//! [minmoves N] [maxmoves N] [avoid|allow color vertex,… depth]…`, kata also
//! `ownership`, `pvVisits` and `rootInfo true|false`) answer `=`, then one `info` line per report until the next input
//! line arrives, then the empty line. The `*-genmove_analyze` variants stream the same lines
//! while choosing a move, then write `play <move>` and play it; they refuse `avoid` and
//! `allow`, which restrict analysis only.

use super::format::{info_line, Dialect, Selection};
use super::session::{Outcome, Session};
use crate::player::{Analysis, AnalysisRequest, Decision, MoveRestrictions, Reporter};
use engine_core::{Color, Geometry};
use gtp::args::{boolean, color, int, int_in, MAX_INT};
use gtp::response::{send, stream_start, STREAM_END};
use gtp::{GtpError, StopOn};
use std::io::Write;
use std::time::Duration;

/// Report interval when the command gives none: one second, in centiseconds.
const DEFAULT_INTERVAL_CS: u32 = 100;

/// The options of an analysis command.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Options {
    pub color: Color,
    pub interval: Duration,
    pub selection: Selection,
    pub restrictions: MoveRestrictions,
}

/// Parses `[color] [interval] [key value…]…` for a board of geometry `g`.
pub(super) fn parse_options(
    args: &[String],
    g: Geometry,
    to_move: Color,
    dialect: Dialect,
) -> Result<Options, GtpError> {
    let mut rest = args;
    let mut options = Options {
        color: to_move,
        interval: interval(DEFAULT_INTERVAL_CS),
        selection: Selection::ALL,
        restrictions: MoveRestrictions::default(),
    };
    if let Some(c) = rest.first().and_then(|a| color(a).ok()) {
        options.color = c;
        rest = &rest[1..];
    }
    if let Some(cs) = rest.first().and_then(|a| int(a).ok()) {
        options.interval = interval(cs);
        rest = &rest[1..];
    }
    while let Some((key, tail)) = rest.split_first() {
        if let (allow @ ("avoid" | "allow"), [who, vertices, depth, ..]) = (key.as_str(), tail) {
            let moves = vertices
                .split(',')
                .map(|v| g.parse_move(v).map_err(|_| GtpError::syntax()))
                .collect::<Result<Vec<_>, _>>()?;
            let depth = int_in(depth, 1..=MAX_INT)? as usize;
            options
                .restrictions
                .add(allow == "allow", color(who)?, moves, depth);
            rest = &tail[3..];
            continue;
        }
        let value = tail.first().ok_or_else(GtpError::syntax)?;
        match key.as_str() {
            "interval" => options.interval = interval(int(value)?),
            "minmoves" => options.selection.min_moves = int(value)? as usize,
            "maxmoves" => options.selection.max_moves = int(value)? as usize,
            "ownership" if dialect == Dialect::Kata => {
                options.selection.ownership = boolean(value)?
            }
            "pvVisits" if dialect == Dialect::Kata => options.selection.pv_visits = boolean(value)?,
            "rootInfo" if dialect == Dialect::Kata => options.selection.root_info = boolean(value)?,
            _ => return Err(GtpError::syntax()),
        }
        rest = &tail[1..];
    }
    Ok(options)
}

/// A report interval from centiseconds; 0 means as often as possible (10 ms).
fn interval(centiseconds: u32) -> Duration {
    Duration::from_millis(u64::from(centiseconds.max(1)) * 10)
}

impl<W: Write + Send> Session<W> {
    /// Reads the analysis arguments and, when they are valid, opens the streamed response.
    /// `restrictable`: whether `avoid` and `allow` may be given (analysis, not genmove).
    fn open_stream(
        &mut self,
        id: Option<u32>,
        args: &[String],
        dialect: Dialect,
        restrictable: bool,
    ) -> Result<Options, GtpError> {
        let options = parse_options(args, self.game.geometry(), self.game.to_move(), dialect)?;
        if !restrictable && !options.restrictions.is_empty() {
            return Err(GtpError::new("avoid and allow apply to analysis only"));
        }
        let _ = send(&mut self.out, &stream_start(id));
        Ok(options)
    }

    /// `lz-analyze` / `kata-analyze`.
    pub(super) fn analyze(
        &mut self,
        id: Option<u32>,
        args: &[String],
        dialect: Dialect,
    ) -> Outcome {
        let options = match self.open_stream(id, args, dialect, true) {
            Ok(options) => options,
            Err(e) => return Outcome::Reply(Err(e)),
        };
        let g = self.game.geometry();
        let Session {
            game,
            player,
            input,
            out,
            ..
        } = self;
        let result = input.run_interruptible(None, StopOn::AnyInput, true, |stop| {
            let mut callback = |analysis: &Analysis| {
                write_info(out, g, analysis, dialect, &options);
            };
            let mut reporter = Reporter {
                interval: options.interval,
                callback: &mut callback,
            };
            let request = AnalysisRequest {
                game,
                color: options.color,
                restrictions: &options.restrictions,
                stop,
            };
            player.analyze(&request, &mut reporter);
        });
        if result.is_err() {
            log::error!("the player panicked during analysis");
        }
        let _ = send(&mut self.out, STREAM_END);
        Outcome::Streamed
    }

    /// `lz-genmove_analyze` / `kata-genmove_analyze`: streams while thinking, then `play <move>`.
    pub(super) fn genmove_analyze(
        &mut self,
        id: Option<u32>,
        args: &[String],
        dialect: Dialect,
    ) -> Outcome {
        let options = match self.open_stream(id, args, dialect, false) {
            Ok(options) => options,
            Err(e) => return Outcome::Reply(Err(e)),
        };
        let g = self.game.geometry();
        let mut write = |analysis: &Analysis, out: &mut W| {
            write_info(out, g, analysis, dialect, &options);
        };
        let decision: Decision =
            self.think(options.color, false, Some((options.interval, &mut write)));
        let text = self.commit(options.color, decision);
        let _ = send(&mut self.out, &format!("play {text}\n{STREAM_END}"));
        Outcome::Streamed
    }
}

/// Writes one `info` line, if there is anything to show, and flushes.
fn write_info(
    out: &mut impl Write,
    g: Geometry,
    analysis: &Analysis,
    dialect: Dialect,
    options: &Options,
) {
    if let Some(line) = info_line(g, analysis, options.color, dialect, &options.selection) {
        if let Err(e) = send(out, &format!("{line}\n")) {
            log::warn!("cannot write analysis: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        args.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn sabaki_lizzie_and_katago_forms() {
        let g = Geometry::new(9).unwrap();
        let parse = |args: &[&str], d| parse_options(&strings(args), g, Color::White, d);
        let o = parse(&["B", "50"], Dialect::Lz).unwrap();
        assert_eq!(
            (o.color, o.interval),
            (Color::Black, Duration::from_millis(500))
        );
        let o = parse(&["10"], Dialect::Lz).unwrap();
        assert_eq!(
            (o.color, o.interval),
            (Color::White, Duration::from_millis(100))
        );
        let o = parse(&[], Dialect::Lz).unwrap();
        assert_eq!(o.interval, Duration::from_secs(1));
        let o = parse(
            &[
                "w",
                "interval",
                "20",
                "minmoves",
                "3",
                "maxmoves",
                "5",
                "ownership",
                "true",
                "pvVisits",
                "true",
                "rootInfo",
                "false",
            ],
            Dialect::Kata,
        )
        .unwrap();
        assert_eq!(o.interval, Duration::from_millis(200));
        assert_eq!(
            o.selection,
            Selection {
                min_moves: 3,
                max_moves: 5,
                ownership: true,
                pv_visits: true,
                root_info: false,
            }
        );
    }

    #[test]
    fn avoid_and_allow_clauses() {
        let g = Geometry::new(9).unwrap();
        let args = [
            "b", "50", "avoid", "b", "E5,pass", "2", "allow", "W", "c3", "1",
        ];
        let o = parse_options(&strings(&args), g, Color::White, Dialect::Lz).unwrap();
        assert_eq!(o.interval, Duration::from_millis(500));
        let mv = |v: &str| g.parse_move(v).unwrap();
        let r = &o.restrictions;
        assert!(!r.permits(Color::Black, mv("E5"), 1) && !r.permits(Color::Black, mv("pass"), 0));
        assert!(r.permits(Color::Black, mv("D4"), 0) && r.permits(Color::Black, mv("E5"), 2));
        assert!(r.permits(Color::White, mv("C3"), 0) && !r.permits(Color::White, mv("D4"), 0));
    }

    #[test]
    fn bad_options() {
        for (args, d) in [
            (&["ownership", "true"][..], Dialect::Lz),
            (&["pvVisits", "true"][..], Dialect::Lz),
            (&["rootInfo", "yes"][..], Dialect::Kata),
            (&["ownershipStdev", "true"][..], Dialect::Kata),
            (&["B", "50", "interval"][..], Dialect::Lz),
            (&["B", "-5"][..], Dialect::Lz),
            (&["maxmoves", "x"][..], Dialect::Kata),
            (&["avoid", "b", "D4"][..], Dialect::Kata),
            (&["avoid", "b", "D4,Z9", "1"][..], Dialect::Kata),
            (&["allow", "x", "D4", "1"][..], Dialect::Lz),
            (&["allow", "w", "D4", "-1"][..], Dialect::Lz),
            (&["avoid", "w", "D4", "0"][..], Dialect::Lz),
            (&["B", "50", "99999999999999"][..], Dialect::Kata),
        ] {
            assert!(
                parse_options(&strings(args), Geometry::new(9).unwrap(), Color::Black, d).is_err(),
                "{args:?}"
            );
        }
    }
}
