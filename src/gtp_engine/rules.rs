//! Rule commands: `kgs-rules <name>` (kgsGtp) and `tengen-rules [rule set] [superko]`, which
//! also reports the rules in force.

use super::session::Session;
use engine_core::{KoRule, Rules};
use gtp::args::expect_count;
use gtp::GtpError;
use std::io::Write;

/// The rule set's name as `tengen-rules` gives it.
fn rules_name(rules: Rules) -> &'static str {
    if rules.suicide_allowed {
        "tromp-taylor"
    } else {
        "chinese"
    }
}

/// The rule set's name for SGF `RU`.
pub fn sgf_rules_name(rules: Rules) -> &'static str {
    if rules.suicide_allowed {
        "Tromp-Taylor"
    } else {
        "Chinese"
    }
}

fn ko_name(ko: KoRule) -> &'static str {
    match ko {
        KoRule::Positional => "positional",
        KoRule::Situational => "situational",
    }
}

/// A rule set by name, keeping the repetition rule of `current`.
fn rule_set(name: &str, current: Rules) -> Option<Rules> {
    let mut rules = match name.to_ascii_lowercase().as_str() {
        "chinese" => Rules::CHINESE,
        "tromp-taylor" | "tromp_taylor" => Rules::TROMP_TAYLOR,
        _ => return None,
    };
    rules.ko = current.ko;
    Some(rules)
}

impl<W: Write + Send> Session<W> {
    pub(super) fn kgs_rules(&mut self, args: &[String]) -> Result<String, GtpError> {
        expect_count(args, 1)?;
        let rules = rule_set(&args[0], self.game.rules())
            .ok_or_else(|| GtpError::new("unsupported rules"))?;
        self.game.set_rules(rules);
        Ok(String::new())
    }

    /// Without arguments: the rules in force (`chinese positional`). Arguments, in any order:
    /// a rule set (`chinese`, `tromp-taylor`) and a superko rule (`positional`,
    /// `situational`).
    pub(super) fn tengen_rules(&mut self, args: &[String]) -> Result<String, GtpError> {
        let mut rules = self.game.rules();
        for arg in args {
            match arg.to_ascii_lowercase().as_str() {
                "positional" => rules.ko = KoRule::Positional,
                "situational" => rules.ko = KoRule::Situational,
                name => {
                    rules =
                        rule_set(name, rules).ok_or_else(|| GtpError::new("unsupported rules"))?
                }
            }
        }
        if !args.is_empty() {
            self.game.set_rules(rules);
        }
        Ok(format!("{} {}", rules_name(rules), ko_name(rules.ko)))
    }
}
