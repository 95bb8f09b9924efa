//! Analysis output formats, as pure functions of an [`Analysis`] snapshot:
//!
//! * `lz-analyze` lines: `info move D4 visits 10 winrate 5213 prior 1234 lcb 5000 order 0 pv D4
//!   Q16 info move …`, win rate, prior and lcb in integer ten-thousandths;
//! * `kata-analyze` lines: the same keys as floats in [0, 1] plus `scoreLead` (and its older
//!   name `scoreMean`); with `pvVisits true` each PV followed by `pvVisits` (the visits of each
//!   of its positions), with `rootInfo true` a `rootInfo` entry for the position itself, and
//!   with `ownership true` a trailing `ownership` block (top row first, from the analysed
//!   player's side, as KataGo writes them);
//! * GoGui views: ownership `dboard`, win-rate `gfx`, principal variation `gfx`, text summary.
//!
//! Passes never appear as `move`, and a principal variation stops before its first pass
//! (Sabaki reads the PV as the trailing run of vertices).

use crate::player::{Analysis, Candidate};
use engine_core::{Color, Geometry, Move};
use std::fmt::Write;

/// Which analysis dialect to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Leela Zero: integers in ten-thousandths.
    Lz,
    /// KataGo: floats, `scoreLead`, optional ownership.
    Kata,
}

/// Which candidates to show and what to add.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    /// Show at least this many candidates, visited or not.
    pub min_moves: usize,
    /// Show at most this many.
    pub max_moves: usize,
    /// Append the ownership block (KataGo only).
    pub ownership: bool,
    /// Follow each PV with the visits of its positions (KataGo only).
    pub pv_visits: bool,
    /// Append the position's own visits, win rate and score (KataGo only).
    pub root_info: bool,
}

/// The candidates worth showing: real moves, visited ones (or the first `min_moves`), at most
/// `max_moves`.
fn shown<'a>(analysis: &'a Analysis, selection: &Selection) -> Vec<&'a Candidate> {
    analysis
        .candidates
        .iter()
        .filter(|c| c.mv != Move::Pass)
        .enumerate()
        .filter(|(i, c)| c.visits > 0 || *i < selection.min_moves)
        .map(|(_, c)| c)
        .take(selection.max_moves)
        .collect()
}

/// The principal variation up to its first pass, at least the candidate's move, with the
/// visits of each of its positions.
fn pv_text(g: Geometry, candidate: &Candidate) -> (String, String) {
    let shown = candidate
        .pv
        .iter()
        .take_while(|&&m| m != Move::Pass)
        .count();
    if shown == 0 {
        return (g.move_text(candidate.mv), candidate.visits.to_string());
    }
    let moves: Vec<String> = candidate.pv[..shown]
        .iter()
        .map(|&m| g.move_text(m))
        .collect();
    let visits: Vec<String> = candidate
        .pv_visits
        .iter()
        .take(shown)
        .map(u64::to_string)
        .collect();
    (moves.join(" "), visits.join(" "))
}

fn ten_thousandths(x: f64) -> i64 {
    (x * 10_000.0).round() as i64
}

/// One analysis line for `color` to move, or `None` when there is nothing to show.
pub fn info_line(
    g: Geometry,
    analysis: &Analysis,
    color: Color,
    dialect: Dialect,
    selection: &Selection,
) -> Option<String> {
    let candidates = shown(analysis, selection);
    if candidates.is_empty() {
        return None;
    }
    let mut line = String::new();
    for (order, c) in candidates.iter().enumerate() {
        if order > 0 {
            line.push(' ');
        }
        let mv = g.move_text(c.mv);
        let winrate = c.winrate.clamp(0.0, 1.0);
        let prior = c.prior.clamp(0.0, 1.0);
        let (pv, pv_visits) = pv_text(g, c);
        let _ = match dialect {
            Dialect::Lz => write!(
                line,
                "info move {mv} visits {} winrate {} prior {} lcb {} order {order} pv {pv}",
                c.visits,
                ten_thousandths(winrate),
                ten_thousandths(prior),
                ten_thousandths(c.lcb),
            ),
            Dialect::Kata => write!(
                line,
                "info move {mv} visits {} winrate {winrate:.6} scoreMean {lead:.6} \
                 scoreLead {lead:.6} prior {prior:.6} lcb {:.6} order {order} pv {pv}",
                c.visits,
                c.lcb,
                lead = c.score_lead,
            ),
        };
        if dialect == Dialect::Kata && selection.pv_visits {
            let _ = write!(line, " pvVisits {pv_visits}");
        }
    }
    if dialect == Dialect::Kata && selection.root_info {
        let _ = write!(
            line,
            " rootInfo visits {} winrate {:.6} scoreMean {lead:.6} scoreLead {lead:.6}",
            analysis.playouts,
            analysis.winrate.clamp(0.0, 1.0),
            lead = analysis.score_lead,
        );
    }
    if dialect == Dialect::Kata && selection.ownership {
        line.push_str(" ownership");
        let sign = if color == Color::Black { 1.0 } else { -1.0 };
        for value in ownership_rows(g, analysis).into_iter().flatten() {
            // `+ 0.0` turns -0 into 0.
            let _ = write!(line, " {:.6}", sign * value + 0.0);
        }
    }
    Some(line)
}

/// Ownership by rows, top row first, +1 = Black; zeros when the player gave none.
pub fn ownership_rows(g: Geometry, analysis: &Analysis) -> Vec<Vec<f64>> {
    let n = g.size();
    let mut rows = vec![vec![0.0; n]; n];
    if analysis.ownership.len() == g.area() {
        for (p, &value) in g.points().zip(&analysis.ownership) {
            let (col, row) = g.coords(p);
            rows[n - 1 - row][col] = f64::from(value).clamp(-1.0, 1.0);
        }
    }
    rows
}

/// GoGui `dboard`: one line per row, top row first, +1 = Black.
pub fn gogui_ownership(g: Geometry, analysis: &Analysis) -> String {
    ownership_rows(g, analysis)
        .iter()
        .map(|row| {
            row.iter()
                .map(|v| format!("{v:.2}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// GoGui `gfx` of the candidates: each shaded by its share of the visits (Black positive) and
/// labelled with its win rate in percent; a `TEXT` status line.
pub fn gogui_winrates(g: Geometry, analysis: &Analysis, color: Color) -> String {
    let candidates = shown(analysis, &Selection::ALL);
    let total: u64 = candidates.iter().map(|c| c.visits).sum();
    let sign = if color == Color::Black { 1.0 } else { -1.0 };
    let mut lines = Vec::new();
    if total > 0 {
        let influence: Vec<String> = candidates
            .iter()
            .map(|c| {
                let share = c.visits as f64 / total as f64;
                format!("{} {:.2}", g.move_text(c.mv), sign * share)
            })
            .collect();
        lines.push(format!("INFLUENCE {}", influence.join(" ")));
    }
    if !candidates.is_empty() {
        let labels: Vec<String> = candidates
            .iter()
            .map(|c| {
                format!(
                    "{} {:.0}",
                    g.move_text(c.mv),
                    100.0 * c.winrate.clamp(0.0, 1.0)
                )
            })
            .collect();
        lines.push(format!("LABEL {}", labels.join(" ")));
    }
    lines.push(format!("TEXT {}", status(analysis, color)));
    lines.join("\n")
}

/// GoGui `gfx` of the best candidate's principal variation: `VAR b D4 w Q16 …`.
pub fn gogui_pv(g: Geometry, analysis: &Analysis, color: Color) -> String {
    let Some(best) = shown(analysis, &Selection::ALL).first().copied() else {
        return format!("TEXT {}", status(analysis, color));
    };
    let mut var = String::from("VAR");
    let mut mover = color;
    for m in pv_text(g, best).0.split(' ') {
        let letter = if mover == Color::Black { 'b' } else { 'w' };
        let _ = write!(var, " {letter} {m}");
        mover = mover.opponent();
    }
    format!("{var}\nTEXT {}", status(analysis, color))
}

/// Plain-text summary: a status line, then one line per candidate.
pub fn summary(g: Geometry, analysis: &Analysis, color: Color) -> String {
    let mut text = status(analysis, color);
    for c in shown(analysis, &Selection::ALL) {
        let _ = write!(
            text,
            "\n{} visits {} winrate {:.1}% lcb {:.1}% score {:+.1} pv {}",
            g.move_text(c.mv),
            c.visits,
            100.0 * c.winrate.clamp(0.0, 1.0),
            100.0 * c.lcb,
            c.score_lead,
            pv_text(g, c).0
        );
    }
    text
}

fn status(analysis: &Analysis, color: Color) -> String {
    let best = shown(analysis, &Selection::ALL).first().map_or_else(
        || "no candidates".to_string(),
        |c| format!("win rate {:.1}%", 100.0 * c.winrate.clamp(0.0, 1.0)),
    );
    format!("{color} to move, {} playouts, {best}", analysis.playouts)
}

impl Selection {
    /// Every visited real move, no ownership.
    pub const ALL: Selection = Selection {
        min_moves: 0,
        max_moves: usize::MAX,
        ownership: false,
        pv_visits: false,
        root_info: false,
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g() -> Geometry {
        Geometry::new(3).unwrap()
    }

    fn mv(text: &str) -> Move {
        g().parse_move(text).unwrap()
    }

    fn candidate(m: &str, visits: u64, winrate: f64, pv: &[&str]) -> Candidate {
        Candidate {
            mv: mv(m),
            visits,
            winrate,
            prior: 0.25,
            lcb: 0.45,
            score_lead: 1.5,
            pv: pv.iter().map(|t| mv(t)).collect(),
            pv_visits: (0..pv.len() as u64).map(|i| visits >> i).collect(),
        }
    }

    fn analysis() -> Analysis {
        Analysis {
            candidates: vec![
                candidate("B2", 30, 0.52134, &["B2", "A1", "pass", "C3"]),
                candidate("pass", 20, 0.5, &["pass"]),
                candidate("C3", 10, 0.4, &[]),
                candidate("A3", 0, 0.3, &["A3"]),
            ],
            ownership: vec![1.0, 0.5, 0.0, 0.0, 0.0, 0.0, -0.25, -0.5, -1.0],
            playouts: 60,
            winrate: 0.48,
            score_lead: -0.5,
        }
    }

    #[test]
    fn lz_lines() {
        let line = info_line(g(), &analysis(), Color::Black, Dialect::Lz, &Selection::ALL);
        assert_eq!(
            line.unwrap(),
            "info move B2 visits 30 winrate 5213 prior 2500 lcb 4500 order 0 pv B2 A1 \
             info move C3 visits 10 winrate 4000 prior 2500 lcb 4500 order 1 pv C3"
        );
    }

    #[test]
    fn kata_lines_with_ownership_from_the_movers_side() {
        let selection = Selection {
            min_moves: 3,
            max_moves: 3,
            ownership: true,
            ..Selection::ALL
        };
        let line = info_line(g(), &analysis(), Color::White, Dialect::Kata, &selection).unwrap();
        assert!(line.starts_with(
            "info move B2 visits 30 winrate 0.521340 scoreMean 1.500000 scoreLead 1.500000 \
             prior 0.250000 lcb 0.450000 order 0 pv B2 A1 info move C3"
        ));
        assert!(line.contains("info move A3 visits 0 winrate 0.300000"));
        assert!(line.ends_with(
            " ownership 0.250000 0.500000 1.000000 0.000000 0.000000 0.000000 \
             -1.000000 -0.500000 0.000000"
        ));
        assert!(!line.contains("pvVisits") && !line.contains("rootInfo"));
    }

    #[test]
    fn kata_pv_visits_and_root_info() {
        let selection = Selection {
            pv_visits: true,
            root_info: true,
            ..Selection::ALL
        };
        let line = info_line(g(), &analysis(), Color::Black, Dialect::Kata, &selection).unwrap();
        // The PV stops at its pass, and its visits with it; a candidate without a PV shows
        // its own move and visits.
        assert!(
            line.contains("order 0 pv B2 A1 pvVisits 30 15 info move C3"),
            "{line}"
        );
        assert!(
            line.contains("order 1 pv C3 pvVisits 10 rootInfo"),
            "{line}"
        );
        assert!(line.ends_with(
            " rootInfo visits 60 winrate 0.480000 scoreMean -0.500000 scoreLead -0.500000"
        ));
        let lz = info_line(g(), &analysis(), Color::Black, Dialect::Lz, &selection).unwrap();
        assert!(!lz.contains("pvVisits") && !lz.contains("rootInfo"));
    }

    #[test]
    fn nothing_to_show() {
        let empty = Analysis::default();
        assert_eq!(
            info_line(g(), &empty, Color::Black, Dialect::Lz, &Selection::ALL),
            None
        );
        assert_eq!(
            gogui_ownership(g(), &empty),
            "0.00 0.00 0.00\n0.00 0.00 0.00\n0.00 0.00 0.00"
        );
        assert_eq!(
            gogui_pv(g(), &empty, Color::Black),
            "TEXT black to move, 0 playouts, no candidates"
        );
    }

    #[test]
    fn gogui_views() {
        let a = analysis();
        assert_eq!(
            gogui_ownership(g(), &a),
            "-0.25 -0.50 -1.00\n0.00 0.00 0.00\n1.00 0.50 0.00"
        );
        assert_eq!(
            gogui_winrates(g(), &a, Color::White),
            "INFLUENCE B2 -0.75 C3 -0.25\nLABEL B2 52 C3 40\n\
             TEXT white to move, 60 playouts, win rate 52.1%"
        );
        assert!(gogui_pv(g(), &a, Color::White).starts_with("VAR w B2 b A1\nTEXT"));
        let text = summary(g(), &a, Color::Black);
        assert_eq!(text.lines().count(), 3);
        assert!(text.contains("\nB2 visits 30 winrate 52.1% lcb 45.0% score +1.5 pv B2 A1"));
    }
}
