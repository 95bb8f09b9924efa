//! Argument parsing for command handlers: counts, ints with range checks, floats, colours,
//! vertices and moves (through [`engine_core::Geometry`]), booleans. Every failure is a
//! [`GtpError`] with the specification's text, never a panic.

use crate::error::GtpError;
use engine_core::{Color, Geometry, Move, Point};
use std::ops::RangeInclusive;

/// Largest GTP `int`.
pub const MAX_INT: u32 = i32::MAX as u32;

/// Exactly `n` arguments, or `syntax error`.
pub fn expect_count(args: &[String], n: usize) -> Result<(), GtpError> {
    expect_between(args, n..=n)
}

/// Between `range` arguments, or `syntax error`.
pub fn expect_between(args: &[String], range: RangeInclusive<usize>) -> Result<(), GtpError> {
    if range.contains(&args.len()) {
        Ok(())
    } else {
        Err(GtpError::syntax())
    }
}

/// A GTP `int` (digits only, 0..2^31-1): negative, huge or malformed values are a
/// `syntax error`.
pub fn int(text: &str) -> Result<u32, GtpError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(GtpError::syntax());
    }
    text.parse::<u32>()
        .ok()
        .filter(|&v| v <= MAX_INT)
        .ok_or_else(GtpError::syntax)
}

/// An `int` inside `range`; outside it is a `syntax error` too.
pub fn int_in(text: &str, range: RangeInclusive<u32>) -> Result<u32, GtpError> {
    int(text).and_then(|v| {
        if range.contains(&v) {
            Ok(v)
        } else {
            Err(GtpError::syntax())
        }
    })
}

/// A finite `float` (`6.5`, `-3`, `1e2`); `nan` and infinities are a `syntax error`.
pub fn float(text: &str) -> Result<f64, GtpError> {
    text.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(GtpError::syntax)
}

/// `b`, `w`, `black`, `white` in any case.
pub fn color(text: &str) -> Result<Color, GtpError> {
    text.parse::<Color>()
        .map_err(|()| GtpError::invalid_color())
}

/// A vertex or `pass`, case-insensitive, on this board.
pub fn move_on(geometry: Geometry, text: &str) -> Result<Move, GtpError> {
    geometry
        .parse_move(text)
        .map_err(|_| GtpError::invalid_vertex())
}

/// A vertex on this board; `pass` is refused.
pub fn vertex(geometry: Geometry, text: &str) -> Result<Point, GtpError> {
    match move_on(geometry, text)? {
        Move::Play(p) => Ok(p),
        Move::Pass => Err(GtpError::invalid_vertex()),
    }
}

/// `true` or `false`.
pub fn boolean(text: &str) -> Result<bool, GtpError> {
    match text {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(GtpError::syntax()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ints() {
        assert_eq!(int("19"), Ok(19));
        assert_eq!(int("2147483647"), Ok(2147483647));
        for bad in [
            "",
            "-1",
            "+1",
            "2147483648",
            "99999999999999999999999",
            "1.5",
            "x",
        ] {
            assert_eq!(int(bad), Err(GtpError::syntax()), "{bad}");
        }
        assert_eq!(int_in("5", 1..=4), Err(GtpError::syntax()));
        assert_eq!(int_in("4", 1..=4), Ok(4));
    }

    #[test]
    fn floats_colors_vertices() {
        assert_eq!(float("-3.5"), Ok(-3.5));
        assert_eq!(float("150"), Ok(150.0));
        for bad in ["nan", "inf", "-infinity", "1e999", "", "6,5"] {
            assert!(float(bad).is_err(), "{bad}");
        }
        assert_eq!(color("WHITE"), Ok(Color::White));
        assert_eq!(color("x"), Err(GtpError::invalid_color()));
        let g = Geometry::new(9).unwrap();
        assert_eq!(move_on(g, "PASS"), Ok(Move::Pass));
        assert_eq!(vertex(g, "pass"), Err(GtpError::invalid_vertex()));
        assert_eq!(vertex(g, "j9"), Ok(g.point(8, 8).unwrap()));
        assert_eq!(vertex(g, "K9"), Err(GtpError::invalid_vertex()));
        assert_eq!(boolean("true"), Ok(true));
        assert_eq!(boolean("yes"), Err(GtpError::syntax()));
        assert_eq!(expect_count(&["a".to_string()], 2), Err(GtpError::syntax()));
    }
}
