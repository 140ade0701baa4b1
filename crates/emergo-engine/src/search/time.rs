//! Time management: turns [`Limits`] into a soft limit (do not start another iteration), a hard
//! limit (abort the search), a node limit and a depth limit.

use crate::player::Limits;
use emergo_core::Color;
use std::time::{Duration, Instant};

/// The deepest iteration the search will start.
pub const MAX_DEPTH: u32 = 100;

/// Time kept back on a clock for the time the answer takes to travel, at least.
const CLOCK_RESERVE: Duration = Duration::from_millis(30);
/// Time kept back from a fixed time per move, at least.
const MOVETIME_RESERVE: Duration = Duration::from_millis(2);
/// Moves the time left is spread over when the caller does not say (`movestogo`).
const DEFAULT_MOVES_TO_GO: u32 = 25;

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
    /// The budget for `turn` to move under `limits`, starting now. `limits.overhead` is kept
    /// back from every time limit (at least 2 ms from a movetime, 30 ms from a clock).
    pub fn new(limits: &Limits, turn: Color) -> TimeControl {
        let start = Instant::now();
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let max_nodes = limits.nodes;
        let (soft, hard) = if limits.infinite {
            (None, None)
        } else if let Some(movetime) = limits.movetime {
            let hard = movetime
                .saturating_sub(limits.overhead.max(MOVETIME_RESERVE))
                .max(Duration::from_millis(1));
            (Some(hard.mul_f64(0.55)), Some(hard))
        } else if let Some(clock) = limits.clock {
            let left = clock.time[turn];
            let inc = clock.inc[turn];
            let usable = left
                .saturating_sub(limits.overhead.max(CLOCK_RESERVE))
                .max(Duration::from_millis(1));
            let moves = clock.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).max(1);
            let budget = (usable / moves + inc * 3 / 4).min(usable);
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
    use emergo_core::ByColor;

    #[test]
    fn a_clock_budget_stays_within_the_time_left() {
        let limits = Limits {
            clock: Some(Clock {
                time: ByColor::new(Duration::from_millis(1000), Duration::from_millis(50)),
                inc: ByColor::new(Duration::from_millis(100), Duration::ZERO),
                moves_to_go: None,
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

    fn clock(left_ms: u64, inc_ms: u64, moves_to_go: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                time: ByColor::splat(Duration::from_millis(left_ms)),
                inc: ByColor::splat(Duration::from_millis(inc_ms)),
                moves_to_go,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn movestogo_spreads_the_time_left_over_the_moves_with_the_increment() {
        let ms = Duration::from_millis;
        // 20 moves in 2,030 ms: (2030 - 30) / 20 = 100 ms a move, plus 3/4 of the increment.
        let tc = TimeControl::new(&clock(2030, 40, Some(20)), Color::White);
        assert_eq!(tc.soft, Some(ms(130).mul_f64(0.6)));
        assert_eq!(tc.hard, Some(ms(390)));
        // The last move before the control may use all the time left but the reserve.
        let tc = TimeControl::new(&clock(1030, 0, Some(1)), Color::Black);
        assert_eq!(tc.hard, Some(ms(1000)));
        // Without movestogo the time left is spread over 25 moves.
        let tc = TimeControl::new(&clock(2530, 0, None), Color::White);
        assert_eq!(tc.soft, Some(ms(100).mul_f64(0.6)));
    }

    #[test]
    fn the_overhead_is_kept_back_from_a_movetime_and_a_clock() {
        let ms = Duration::from_millis;
        let mut limits = Limits::movetime(ms(100));
        assert_eq!(TimeControl::new(&limits, Color::White).hard, Some(ms(98)));
        limits.overhead = ms(30);
        assert_eq!(TimeControl::new(&limits, Color::White).hard, Some(ms(70)));
        limits.overhead = ms(500);
        assert_eq!(TimeControl::new(&limits, Color::White).hard, Some(ms(1)));
        let mut limits = clock(1100, 0, Some(1));
        limits.overhead = ms(100);
        assert_eq!(TimeControl::new(&limits, Color::White).hard, Some(ms(1000)));
    }
}
