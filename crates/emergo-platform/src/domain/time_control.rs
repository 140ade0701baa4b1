//! Time controls: real time `"B+I"` (B minutes, fractions allowed, at least 0.25; I seconds of
//! increment) and correspondence `"corr:N"` (N days per move, 1 to 14), and the rating
//! category each one counts in.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// The shortest base time: a quarter of a minute.
pub const MIN_BASE_MS: u64 = 15_000;
/// The longest base time accepted: three hours.
pub const MAX_BASE_MS: u64 = 180 * 60_000;
/// The longest increment accepted: three minutes.
pub const MAX_INCREMENT_S: u64 = 180;
/// Days per move of a correspondence game.
pub const CORRESPONDENCE_DAYS: std::ops::RangeInclusive<u8> = 1..=14;

/// How long a game may last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// A clock per player: a base time and an increment added after each move.
    RealTime {
        /// The starting time of each clock, in milliseconds.
        base_ms: u64,
        /// Added to the mover's clock after each move, in milliseconds.
        increment_ms: u64,
    },
    /// A fixed number of days for every move.
    Correspondence {
        /// Days per move.
        days: u8,
    },
}

/// The rating categories: one rating each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Category {
    /// Estimated duration under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// Days per move.
    Correspondence,
}

impl Category {
    /// Every category, in order.
    pub const ALL: [Category; 4] = [
        Category::Blitz,
        Category::Rapid,
        Category::Classical,
        Category::Correspondence,
    ];

    /// The category's name in the API: `blitz`, `rapid`, `classical`, `correspondence`.
    pub fn name(self) -> &'static str {
        match self {
            Category::Blitz => "blitz",
            Category::Rapid => "rapid",
            Category::Classical => "classical",
            Category::Correspondence => "correspondence",
        }
    }
}

/// The rating pool of a board and a time category (issue 20: a separate Glicko-2 pool per
/// board and category): the key of the `category` column of `ratings` and `rating_history`.
/// On Emergo's 9x9 board it is the category's name (`blitz`), so every rating stored before
/// the boards were told apart is the 9x9 board's; on another board the board's short name, a
/// colon and the category (`hex:blitz`, `7x7:correspondence`).
pub fn rating_pool(variant: emergo_core::VariantKind, category: Category) -> String {
    match variant {
        emergo_core::VariantKind::Emergo => category.name().to_string(),
        other => format!("{}:{}", other.name(), category.name()),
    }
}

/// The board and category of a pool key [`rating_pool`] wrote, or `None`.
pub fn pool_parts(key: &str) -> Option<(emergo_core::VariantKind, Category)> {
    let (variant, category) = match key.split_once(':') {
        None => (emergo_core::VariantKind::Emergo, key),
        Some((variant, category)) => (variant.parse().ok()?, category),
    };
    if variant == emergo_core::VariantKind::Emergo && key.contains(':') {
        return None;
    }
    Some((variant, category.parse().ok()?))
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown category name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rating category (blitz, rapid, classical or correspondence)")]
pub struct CategoryError;

impl FromStr for Category {
    type Err = CategoryError;

    fn from_str(text: &str) -> Result<Category, CategoryError> {
        Category::ALL
            .into_iter()
            .find(|c| c.name() == text)
            .ok_or(CategoryError)
    }
}

/// Why a time control's text was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Neither `B+I` nor `corr:N`.
    #[error(
        "a time control is \"B+I\" (minutes + seconds, e.g. \"3+2\") or \"corr:N\" (days per move)"
    )]
    Form,
    /// B or I is not a number.
    #[error("{0:?} is not a number")]
    Number(String),
    /// B is out of range.
    #[error("the base time must be from 0.25 to 180 minutes")]
    Base,
    /// I is out of range.
    #[error("the increment must be from 0 to 180 seconds")]
    Increment,
    /// N is out of range.
    #[error("a correspondence game has 1 to 14 days per move")]
    Days,
}

/// Parses a decimal number of at most 3 fraction digits into thousandths, so that minutes
/// become whole milliseconds without floating point.
fn thousandths(text: &str) -> Result<u64, TimeControlError> {
    let bad = || TimeControlError::Number(text.chars().take(16).collect());
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| !s.is_empty() && s.len() <= 6 && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !(fraction.is_empty() || (fraction.len() <= 3 && digits(fraction))) {
        return Err(bad());
    }
    let whole: u64 = whole.parse().map_err(|_| bad())?;
    let mut frac: u64 = if fraction.is_empty() {
        0
    } else {
        fraction.parse().map_err(|_| bad())?
    };
    for _ in fraction.len()..3 {
        frac *= 10;
    }
    Ok(whole * 1000 + frac)
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        if let Some(days) = text.strip_prefix("corr:") {
            if days.is_empty() || days.len() > 2 || !days.bytes().all(|b| b.is_ascii_digit()) {
                return Err(TimeControlError::Days);
            }
            let days: u8 = days.parse().map_err(|_| TimeControlError::Days)?;
            if !CORRESPONDENCE_DAYS.contains(&days) {
                return Err(TimeControlError::Days);
            }
            return Ok(TimeControl::Correspondence { days });
        }
        let (base, increment) = text.split_once('+').ok_or(TimeControlError::Form)?;
        // Minutes in thousandths are milliseconds divided by 60.
        let base_ms = thousandths(base)? * 60;
        if !(MIN_BASE_MS..=MAX_BASE_MS).contains(&base_ms) {
            return Err(TimeControlError::Base);
        }
        if increment.is_empty()
            || increment.len() > 3
            || !increment.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(TimeControlError::Increment);
        }
        let increment_s: u64 = increment.parse().map_err(|_| TimeControlError::Increment)?;
        if increment_s > MAX_INCREMENT_S {
            return Err(TimeControlError::Increment);
        }
        Ok(TimeControl::RealTime {
            base_ms,
            increment_ms: increment_s * 1000,
        })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::RealTime {
                base_ms,
                increment_ms,
            } => {
                let minutes = base_ms as f64 / 60_000.0;
                write!(f, "{minutes}+{}", increment_ms / 1000)
            }
            TimeControl::Correspondence { days } => write!(f, "corr:{days}"),
        }
    }
}

impl TimeControl {
    /// The control as a record's `TimeControl` tag, in PGN's own forms: `180+2` (seconds and
    /// increment) for real time, `1/259200` (one move in three days) for correspondence.
    pub fn pgn_tag(self) -> String {
        match self {
            TimeControl::RealTime {
                base_ms,
                increment_ms,
            } => format!("{}+{}", base_ms / 1000, increment_ms / 1000),
            TimeControl::Correspondence { days } => format!("1/{}", u64::from(days) * 86_400),
        }
    }

    /// The rating category: a real-time game's estimated duration is B×60 + 60×I seconds
    /// (blitz under 8 minutes, rapid under 25, classical from 25 on).
    pub fn category(self) -> Category {
        match self {
            TimeControl::Correspondence { .. } => Category::Correspondence,
            TimeControl::RealTime {
                base_ms,
                increment_ms,
            } => {
                let estimate_s = base_ms / 1000 + 60 * (increment_ms / 1000);
                if estimate_s < 8 * 60 {
                    Category::Blitz
                } else if estimate_s < 25 * 60 {
                    Category::Rapid
                } else {
                    Category::Classical
                }
            }
        }
    }

    /// The time allowed per move of a correspondence game.
    pub fn per_move(self) -> Option<Duration> {
        match self {
            TimeControl::Correspondence { days } => {
                Some(Duration::from_secs(u64::from(days) * 86_400))
            }
            TimeControl::RealTime { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_board_has_its_own_rating_pool_and_the_9x9_keeps_the_old_keys() {
        use emergo_core::VariantKind;
        assert_eq!(rating_pool(VariantKind::Emergo, Category::Blitz), "blitz");
        assert_eq!(
            rating_pool(VariantKind::HexEmergo, Category::Blitz),
            "hex:blitz"
        );
        assert_eq!(
            rating_pool(VariantKind::Emergo7x7, Category::Rapid),
            "7x7:rapid"
        );
        for variant in VariantKind::ALL {
            for category in Category::ALL {
                let key = rating_pool(variant, category);
                assert_eq!(pool_parts(&key), Some((variant, category)), "{key}");
            }
        }
        assert_eq!(pool_parts("emergo:blitz"), None);
        assert_eq!(pool_parts("hex:bullet"), None);
        assert_eq!(pool_parts("go:blitz"), None);
    }

    fn tc(text: &str) -> TimeControl {
        text.parse().unwrap()
    }

    #[test]
    fn real_time_controls_parse_with_fractions_of_a_minute() {
        assert_eq!(
            tc("0.25+0"),
            TimeControl::RealTime {
                base_ms: 15_000,
                increment_ms: 0
            }
        );
        assert_eq!(
            tc("3+2"),
            TimeControl::RealTime {
                base_ms: 180_000,
                increment_ms: 2_000
            }
        );
        assert_eq!(
            tc("1.5+0"),
            TimeControl::RealTime {
                base_ms: 90_000,
                increment_ms: 0
            }
        );
        assert_eq!(tc("0.5+0").to_string(), "0.5+0");
        assert_eq!(tc("15+10").to_string(), "15+10");
    }

    #[test]
    fn correspondence_has_one_to_fourteen_days() {
        assert_eq!(tc("corr:3"), TimeControl::Correspondence { days: 3 });
        assert_eq!(tc("corr:14").to_string(), "corr:14");
        assert_eq!("corr:0".parse::<TimeControl>(), Err(TimeControlError::Days));
        assert_eq!(
            "corr:15".parse::<TimeControl>(),
            Err(TimeControlError::Days)
        );
        assert_eq!("corr:".parse::<TimeControl>(), Err(TimeControlError::Days));
    }

    #[test]
    fn bad_time_controls_say_what_is_wrong() {
        let err = |t: &str| t.parse::<TimeControl>().unwrap_err();
        assert_eq!(err("0.2+0"), TimeControlError::Base);
        assert_eq!(err("181+0"), TimeControlError::Base);
        assert_eq!(err("3+181"), TimeControlError::Increment);
        assert_eq!(err("3+-1"), TimeControlError::Increment);
        assert_eq!(err("3"), TimeControlError::Form);
        assert_eq!(err("x+2"), TimeControlError::Number("x".into()));
        assert_eq!(err("1.2345+0"), TimeControlError::Number("1.2345".into()));
        assert_eq!(err(""), TimeControlError::Form);
    }

    #[test]
    fn categories_follow_the_estimated_duration() {
        assert_eq!(tc("0.5+0").category(), Category::Blitz);
        assert_eq!(tc("3+2").category(), Category::Blitz); // 300 s
        assert_eq!(tc("5+3").category(), Category::Rapid); // 480 s: not under 8 minutes
        assert_eq!(tc("10+5").category(), Category::Rapid); // 900 s
        assert_eq!(tc("15+10").category(), Category::Classical); // 1500 s
        assert_eq!(tc("corr:1").category(), Category::Correspondence);
        assert_eq!("rapid".parse::<Category>(), Ok(Category::Rapid));
        assert!("bullet".parse::<Category>().is_err());
    }
}
