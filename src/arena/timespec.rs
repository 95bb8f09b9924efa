//! The `--time SPEC` notation of the match runner and tournaments.
//!
//! * `none`: no limit;
//! * `M`: absolute time (包干), e.g. `10m`, `90s`, `1h`, `300` (seconds);
//! * `M+PxN`: byo-yomi, N periods of P after the main time, e.g. `10m+30sx3`;
//! * `M+P/S`: Canadian, S stones in every period P, e.g. `5m+5m/25`;
//! * `M+P/S+carry`: the seed's 定时限步制, unused period time is carried over.

use crate::clock::TimeSystem;
use std::time::Duration;

/// Parses a time specification (see the module documentation).
pub fn parse(spec: &str) -> Result<TimeSystem, String> {
    let spec = spec.trim();
    let bad = |why: &str| {
        format!(
            "bad time spec {spec:?}: {why} (try none, 10m, 10m+30sx3, 5m+5m/25 or 5m+5m/25+carry)"
        )
    };
    if spec.eq_ignore_ascii_case("none") {
        return Ok(TimeSystem::Unlimited);
    }
    let (spec_body, carry_over) = match spec.strip_suffix("+carry") {
        Some(body) => (body, true),
        None => (spec, false),
    };
    let (main, overtime) = match spec_body.split_once('+') {
        Some((m, o)) => (m, Some(o)),
        None => (spec_body, None),
    };
    let main = duration(main).map_err(|e| bad(&e))?;
    let Some(overtime) = overtime else {
        if carry_over {
            return Err(bad("+carry needs a Canadian overtime M+P/S"));
        }
        if main.is_zero() {
            return Err(bad("zero main time and no overtime"));
        }
        return Ok(TimeSystem::Absolute { main });
    };
    if let Some((period, stones)) = overtime.split_once('/') {
        let period = duration(period).map_err(|e| bad(&e))?;
        let stones: u32 = stones
            .parse()
            .map_err(|_| bad("stones per period must be a positive integer"))?;
        if stones == 0 || period.is_zero() {
            return Err(bad(
                "a Canadian period needs a duration and at least one stone",
            ));
        }
        return Ok(TimeSystem::Canadian {
            main,
            period,
            stones,
            carry_over,
        });
    }
    if carry_over {
        return Err(bad("+carry applies to Canadian overtime only"));
    }
    let (period, periods) = overtime
        .rsplit_once('x')
        .ok_or_else(|| bad("overtime is P/S (Canadian) or PxN (byo-yomi)"))?;
    let period = duration(period).map_err(|e| bad(&e))?;
    let periods: u32 = periods
        .parse()
        .map_err(|_| bad("the number of periods must be a positive integer"))?;
    if periods == 0 || period.is_zero() {
        return Err(bad(
            "byo-yomi needs a period duration and at least one period",
        ));
    }
    Ok(TimeSystem::ByoYomi {
        main,
        period,
        periods,
    })
}

/// `90`, `90s`, `1.5m`, `2h` as a duration.
fn duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let (number, unit) = match text.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, _)) => (&text[..i], &text[i..]),
        None => (text, "s"),
    };
    let scale = match unit {
        "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => return Err(format!("unknown time unit {unit:?}")),
    };
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?} is not a duration"))?;
    if !value.is_finite() || !(0.0..=1.0e7).contains(&value) {
        return Err(format!("{text:?} is out of range"));
    }
    Ok(Duration::from_secs_f64(value * scale))
}

/// The GTP commands announcing `system` to an engine, best first: `kgs-time_settings` (when the
/// engine lists it) describes byo-yomi exactly; plain `time_settings` is Canadian only, so
/// byo-yomi is announced as one stone per period and the carry-over variant as plain Canadian.
pub fn gtp_commands(system: TimeSystem, has_kgs: bool) -> Option<String> {
    let s = |d: Duration| d.as_secs();
    Some(match system {
        TimeSystem::Unlimited => return None,
        TimeSystem::Absolute { main } if has_kgs => {
            format!("kgs-time_settings absolute {}", s(main))
        }
        TimeSystem::Absolute { main } => format!("time_settings {} 0 0", s(main)),
        TimeSystem::ByoYomi {
            main,
            period,
            periods,
        } if has_kgs => format!(
            "kgs-time_settings byoyomi {} {} {periods}",
            s(main),
            s(period)
        ),
        TimeSystem::ByoYomi { main, period, .. } => {
            format!("time_settings {} {} 1", s(main), s(period))
        }
        TimeSystem::Canadian {
            main,
            period,
            stones,
            ..
        } => format!("time_settings {} {} {stones}", s(main), s(period)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn parses_every_system() {
        assert_eq!(parse("none").unwrap(), TimeSystem::Unlimited);
        assert_eq!(
            parse("10m").unwrap(),
            TimeSystem::Absolute { main: secs(600) }
        );
        assert_eq!(
            parse("90").unwrap(),
            TimeSystem::Absolute { main: secs(90) }
        );
        assert_eq!(
            parse("10m+30sx3").unwrap(),
            TimeSystem::ByoYomi {
                main: secs(600),
                period: secs(30),
                periods: 3
            }
        );
        assert_eq!(
            parse("0+10m/15+carry").unwrap(),
            TimeSystem::Canadian {
                main: secs(0),
                period: secs(600),
                stones: 15,
                carry_over: true
            }
        );
        assert_eq!(
            parse("5m+5m/25").unwrap(),
            TimeSystem::Canadian {
                main: secs(300),
                period: secs(300),
                stones: 25,
                carry_over: false
            }
        );
        for bad in [
            "",
            "0",
            "10q",
            "5m+30s",
            "5m+30sx0",
            "5m+0/5",
            "5m+carry",
            "-3",
            "5m+1mx2+carry",
        ] {
            assert!(parse(bad).is_err(), "{bad} should be refused");
        }
    }

    #[test]
    fn announces_to_engines() {
        let byo = parse("10m+30sx3").unwrap();
        assert_eq!(
            gtp_commands(byo, true).unwrap(),
            "kgs-time_settings byoyomi 600 30 3"
        );
        assert_eq!(gtp_commands(byo, false).unwrap(), "time_settings 600 30 1");
        assert_eq!(
            gtp_commands(parse("1m").unwrap(), false).unwrap(),
            "time_settings 60 0 0"
        );
        assert_eq!(gtp_commands(TimeSystem::Unlimited, true), None);
    }
}
