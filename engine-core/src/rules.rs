//! Rule options: which repetition rule, whether suicide is allowed, handicap compensation.

/// How whole-board repetition is forbidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KoRule {
    /// A move may not recreate any earlier board (the Chinese rules as engines apply them).
    #[default]
    Positional,
    /// A move may not recreate an earlier board with the same player to move.
    Situational,
}

/// The rule set of a game. The default is the Chinese rules: positional superko, suicide
/// illegal, area scoring, one point per handicap stone to White.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    pub ko: KoRule,
    /// Tromp-Taylor / New Zealand: multi-stone suicide is a legal move that removes the chain.
    pub suicide_allowed: bool,
    /// Chinese practice: White receives one point per handicap stone at the count.
    pub handicap_compensation: bool,
}

impl Rules {
    /// The Chinese rules (docs/RULES.md): positional superko, no suicide, handicap compensation.
    pub const CHINESE: Rules = Rules {
        ko: KoRule::Positional,
        suicide_allowed: false,
        handicap_compensation: true,
    };

    /// Tromp-Taylor: positional superko, suicide allowed, no handicap compensation.
    pub const TROMP_TAYLOR: Rules = Rules {
        ko: KoRule::Positional,
        suicide_allowed: true,
        handicap_compensation: false,
    };
}

impl Default for Rules {
    fn default() -> Self {
        Rules::CHINESE
    }
}
