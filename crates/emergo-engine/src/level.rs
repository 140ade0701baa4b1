//! The engine's strength levels for people, 1 (weakest) to 10 (full strength): the one type
//! that the engine, the CLI and the server use for a level.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;
use thiserror::Error;

/// Time per engine move at levels 1..=10, in milliseconds ([`Level::movetime`]).
const MOVETIME_MS: [u64; 10] = [100, 150, 200, 300, 400, 500, 700, 1000, 1400, 2000];

/// A strength level, 1..=10. Level 10 is the search under the given limits with no randomness;
/// lower levels cap depth and nodes and choose among near-best moves ([`LevelSettings`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// A number that is not a level.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("level must be a whole number from 1 to 10, not `{0}`")]
pub struct LevelError(pub String);

impl Level {
    /// The weakest level, 1.
    pub const MIN: Level = Level(1);
    /// Full strength, 10.
    pub const MAX: Level = Level(10);

    /// The level `n`, if it is one (1..=10).
    pub const fn new(n: u8) -> Option<Level> {
        if n >= Level::MIN.0 && n <= Level::MAX.0 {
            Some(Level(n))
        } else {
            None
        }
    }

    /// The level nearest to `n` (0 gives 1, anything above 10 gives 10).
    pub const fn clamped(n: u8) -> Level {
        if n < Level::MIN.0 {
            Level::MIN
        } else if n > Level::MAX.0 {
            Level::MAX
        } else {
            Level(n)
        }
    }

    /// The level's number, 1..=10.
    pub const fn get(self) -> u8 {
        self.0
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (Level::MIN.0..=Level::MAX.0).map(Level)
    }

    /// The time the engine may spend on a move at this level when it plays a person (the web
    /// app's games, `emergo play` unless `--movetime` says).
    pub fn movetime(self) -> Duration {
        Duration::from_millis(MOVETIME_MS[usize::from(self.0) - 1])
    }

    /// What the level allows the search. See docs/engine.md.
    pub fn settings(self) -> LevelSettings {
        let (depth, nodes, noise) = match self.0 {
            1 => (Some(1), Some(2_000), 1000),
            2 => (Some(1), Some(3_000), 300),
            3 => (Some(2), Some(5_000), 400),
            4 => (Some(2), Some(20_000), 30),
            5 => (Some(3), Some(60_000), 40),
            6 => (Some(4), Some(150_000), 10),
            7 => (Some(5), Some(400_000), 8),
            8 => (Some(6), Some(1_000_000), 4),
            9 => (Some(7), Some(2_000_000), 0),
            _ => (None, None, 0),
        };
        LevelSettings {
            depth,
            nodes,
            noise,
        }
    }
}

impl Default for Level {
    /// Full strength.
    fn default() -> Level {
        Level::MAX
    }
}

impl TryFrom<u8> for Level {
    type Error = LevelError;

    fn try_from(n: u8) -> Result<Level, LevelError> {
        Level::new(n).ok_or_else(|| LevelError(n.to_string()))
    }
}

impl TryFrom<i64> for Level {
    type Error = LevelError;

    fn try_from(n: i64) -> Result<Level, LevelError> {
        u8::try_from(n)
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| LevelError(n.to_string()))
    }
}

impl From<Level> for u8 {
    fn from(level: Level) -> u8 {
        level.0
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Reads `1` to `10`.
impl FromStr for Level {
    type Err = LevelError;

    fn from_str(s: &str) -> Result<Level, LevelError> {
        s.parse::<u8>()
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| LevelError(s.to_string()))
    }
}

/// What a level allows: the greatest depth, the greatest number of nodes, and the random spread
/// (in centimen) added to each root move's score before the best is taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelSettings {
    /// The greatest depth, if capped.
    pub depth: Option<u32>,
    /// The greatest number of nodes, if capped.
    pub nodes: Option<u64>,
    /// The random spread in centimen.
    pub noise: i32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_one_to_ten_in_text_and_numbers() {
        assert_eq!(Level::all().count(), 10);
        for level in Level::all() {
            assert_eq!(level.to_string().parse::<Level>(), Ok(level));
            assert_eq!(Level::try_from(level.get()), Ok(level));
        }
        for bad in ["0", "11", "", "x", "-1", "5.0"] {
            assert!(bad.parse::<Level>().is_err(), "{bad}");
        }
        assert!(Level::try_from(0u8).is_err());
        assert!(Level::try_from(300i64).is_err());
        assert_eq!(Level::clamped(0), Level::MIN);
        assert_eq!(Level::clamped(200), Level::MAX);
        assert_eq!(Level::MAX.settings().depth, None);
        assert_eq!(Level::MIN.settings().depth, Some(1));
    }

    #[test]
    fn time_per_move_grows_with_the_level() {
        assert_eq!(Level::MIN.movetime(), Duration::from_millis(100));
        assert_eq!(Level::MAX.movetime(), Duration::from_secs(2));
        assert!(MOVETIME_MS.windows(2).all(|w| w[0] < w[1]));
    }
}
