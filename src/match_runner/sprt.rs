//! The sequential probability ratio test (SPRT) of `tengen match --sprt`: the match stops as
//! soon as its results decide, at the chosen error rates, between "engine 1 is `elo0` Elo
//! stronger than engine 2" (H0) and "`elo1` stronger" (H1), as engine testers do in chess
//! (fishtest, cutechess-cli's `-sprt`). A Go game with a half-point komi has no draw, so each
//! game is a Bernoulli trial and the likelihood ratio is exact; a jigo counts half a win and
//! half a loss.

use serde::Serialize;
use std::str::FromStr;

/// The hypotheses (Elo differences of engine 1 over engine 2) and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Which hypothesis the results accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Verdict {
    H0,
    H1,
}

/// The test's state, for the results table and the JSON file.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SprtReport {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    /// Log-likelihood ratio of H1 against H0.
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    /// `None` while the test runs.
    pub verdict: Option<Verdict>,
    /// Games played when the verdict was reached (fewer than the results hold when games
    /// were still running then).
    pub decided_after: Option<u32>,
}

/// Largest Elo difference accepted as a hypothesis.
const MAX_ELO: f64 = 2000.0;

impl FromStr for Sprt {
    type Err = String;

    /// `ELO0,ELO1` or `ELO0,ELO1,ALPHA,BETA` (error rates 0.05 by default).
    fn from_str(text: &str) -> Result<Sprt, String> {
        let numbers = text
            .split(',')
            .map(|s| s.trim().parse::<f64>().ok().filter(|x| x.is_finite()))
            .collect::<Option<Vec<f64>>>()
            .ok_or_else(|| format!("--sprt {text}: expected ELO0,ELO1[,ALPHA,BETA]"))?;
        let sprt = match numbers[..] {
            [elo0, elo1] => Sprt {
                elo0,
                elo1,
                alpha: 0.05,
                beta: 0.05,
            },
            [elo0, elo1, alpha, beta] => Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            },
            _ => return Err(format!("--sprt {text}: expected ELO0,ELO1[,ALPHA,BETA]")),
        };
        if !(sprt.elo0 < sprt.elo1 && sprt.elo0 > -MAX_ELO && sprt.elo1 < MAX_ELO) {
            return Err(format!(
                "--sprt {text}: ELO0 must be below ELO1, both within ±{MAX_ELO}"
            ));
        }
        if !(sprt.alpha > 0.0 && sprt.alpha < 0.5 && sprt.beta > 0.0 && sprt.beta < 0.5) {
            return Err(format!("--sprt {text}: ALPHA and BETA must be in (0, 0.5)"));
        }
        Ok(sprt)
    }
}

/// Expected score of the stronger side at an Elo difference `elo`.
fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Sprt {
    /// The log-likelihood ratio of H1 against H0 after engine 1 scored `points` and engine 2
    /// `against` (wins count 1, draws 1/2 each).
    pub fn llr(&self, points: f64, against: f64) -> f64 {
        let (p0, p1) = (expected_score(self.elo0), expected_score(self.elo1));
        points * (p1 / p0).ln() + against * ((1.0 - p1) / (1.0 - p0)).ln()
    }

    /// Wald's bounds: H0 is accepted at or below the first, H1 at or above the second.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The test after these results.
    pub fn report(&self, points: f64, against: f64) -> SprtReport {
        let llr = self.llr(points, against);
        let (lower, upper) = self.bounds();
        let verdict = if llr >= upper {
            Some(Verdict::H1)
        } else if llr <= lower {
            Some(Verdict::H0)
        } else {
            None
        };
        SprtReport {
            elo0: self.elo0,
            elo1: self.elo1,
            alpha: self.alpha,
            beta: self.beta,
            llr,
            lower,
            upper,
            verdict,
            decided_after: None,
        }
    }
}

impl SprtReport {
    /// The report with the verdict reached earlier in the match, if any, which stands even
    /// when the games that were still running have since moved the ratio.
    pub fn decided(self, decision: Option<(Verdict, u32)>) -> SprtReport {
        match decision {
            Some((verdict, games)) => SprtReport {
                verdict: Some(verdict),
                decided_after: Some(games),
                ..self
            },
            None => self,
        }
    }

    /// One line for the results table.
    pub fn line(&self) -> String {
        let (h0, h1) = (format!("{:+}", self.elo0), format!("{:+}", self.elo1));
        let mut state = match self.verdict {
            None => "undecided".to_string(),
            Some(Verdict::H0) => format!("H0 accepted (engine 1 is nearer {h0} Elo than {h1})"),
            Some(Verdict::H1) => format!("H1 accepted (engine 1 is nearer {h1} Elo than {h0})"),
        };
        if let Some(games) = self.decided_after {
            state += &format!(" after {games} games");
        }
        format!(
            "SPRT elo0 {:+} elo1 {:+} alpha {} beta {}: LLR {:.2} in [{:.2}, {:.2}]: {state}\n",
            self.elo0, self.elo1, self.alpha, self.beta, self.llr, self.lower, self.upper
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hypotheses_and_error_rates() {
        let s: Sprt = "0,50".parse().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 50.0, 0.05, 0.05));
        let s: Sprt = "-10, 20, 0.1, 0.2".parse().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-10.0, 20.0, 0.1, 0.2));
        for bad in [
            "",
            "50",
            "50,0",
            "0,50,0.05",
            "0,50,0.5,0.05",
            "0,50,0,0.1",
            "x,5",
            "0,inf",
        ] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }

    #[test]
    fn likelihood_ratio_and_verdicts() {
        let s: Sprt = "0,100".parse().unwrap();
        // p0 = 0.5, p1 = 0.640065: a win adds ln(1.280130), a loss ln(0.719870).
        assert!((s.llr(1.0, 0.0) - 0.246962).abs() < 1e-5);
        assert!((s.llr(0.0, 1.0) + 0.328684).abs() < 1e-5);
        let (lower, upper) = s.bounds();
        assert!((upper - 19f64.ln()).abs() < 1e-12 && (lower + 19f64.ln()).abs() < 1e-12);
        assert_eq!(s.report(20.0, 5.0).verdict, Some(Verdict::H1));
        assert_eq!(s.report(10.0, 10.0).verdict, None);
        assert_eq!(s.report(3.0, 12.0).verdict, Some(Verdict::H0));
        assert!(s.report(3.0, 12.0).line().contains("H0 accepted"));
    }

    #[test]
    fn an_earlier_verdict_stands_when_running_games_move_the_ratio_back() {
        let s: Sprt = "0,100".parse().unwrap();
        // H0 was accepted after 15 games (3 wins); two games running at the time were wins.
        let report = s.report(5.0, 12.0).decided(Some((Verdict::H0, 15)));
        assert!(report.llr > report.lower);
        assert_eq!(report.verdict, Some(Verdict::H0));
        assert!(report
            .line()
            .contains("H0 accepted (engine 1 is nearer +0 Elo than +100) after 15 games"));
        assert_eq!(s.report(5.0, 12.0).decided(None).verdict, None);
    }
}
