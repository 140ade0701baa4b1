//! Time management: turns [`Limits`] into a soft limit (do not start another iteration), a hard
//! limit (abort the search), a node limit and a depth limit.

use crate::player::Limits;
use emergo_core::Color;
use std::time::{Duration, Instant};

/// The deepest iteration the search will start.
pub const MAX_DEPTH: u32 = 100;

/// Time kept back on a clock for the time the answer takes to travel.
const CLOCK_RESERVE: Duration = Duration::from_millis(30);

/// The budget of one search.
#[derive(Clone, Debug)]
pub struct TimeControl {
    pub start: Instant,
    /// After an iteration ends past this time, no new one starts.
    pub soft: Option<Duration>,
    /// The search aborts at this time.
    pub hard: Option<Duration>,
    pub max_nodes: Option<u64>,
    pub max_depth: u32,
    /// Search until stopped.
    pub infinite: bool,
}

impl TimeControl {
    /// The budget for `turn` to move under `limits`, starting now.
    pub fn new(limits: &Limits, turn: Color) -> TimeControl {
        let start = Instant::now();
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let max_nodes = limits.nodes;
        let (soft, hard) = if limits.infinite {
            (None, None)
        } else if let Some(movetime) = limits.movetime {
            let hard = movetime
                .saturating_sub(Duration::from_millis(2))
                .max(Duration::from_millis(1));
            (Some(hard.mul_f64(0.55)), Some(hard))
        } else if let Some(clock) = limits.clock {
            let left = clock.time[turn.index()];
            let inc = clock.inc[turn.index()];
            let usable = left
                .saturating_sub(CLOCK_RESERVE)
                .max(Duration::from_millis(1));
            let budget = (left / 25 + inc * 3 / 4).min(usable);
            let hard = (budget * 3)
                .min(usable.mul_f64(0.4).max(budget))
                .min(usable);
            (Some(budget.mul_f64(0.6)), Some(hard))
        } else {
            (None, None)
        };
        TimeControl {
            start,
            soft,
            hard,
            max_nodes,
            max_depth,
            infinite: limits.infinite,
        }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the hard limit has passed.
    pub fn out_of_time(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }

    /// Whether another iteration may start.
    pub fn may_start_iteration(&self) -> bool {
        !matches!(self.soft, Some(s) if self.elapsed() >= s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::Clock;

    #[test]
    fn a_clock_budget_stays_within_the_time_left() {
        let limits = Limits {
            clock: Some(Clock {
                time: [Duration::from_millis(1000), Duration::from_millis(50)],
                inc: [Duration::from_millis(100), Duration::ZERO],
            }),
            ..Limits::default()
        };
        let white = TimeControl::new(&limits, Color::White);
        let black = TimeControl::new(&limits, Color::Black);
        assert!(white.hard.unwrap() < Duration::from_millis(1000));
        assert!(white.soft.unwrap() <= white.hard.unwrap());
        assert!(black.hard.unwrap() <= Duration::from_millis(20));
    }

    #[test]
    fn infinite_and_depth_set_no_time_limit() {
        let tc = TimeControl::new(&Limits::depth(5), Color::White);
        assert_eq!((tc.soft, tc.hard, tc.max_depth), (None, None, 5));
        let tc = TimeControl::new(
            &Limits {
                infinite: true,
                movetime: Some(Duration::from_millis(5)),
                ..Limits::default()
            },
            Color::Black,
        );
        assert!(tc.hard.is_none() && tc.infinite);
    }
}
