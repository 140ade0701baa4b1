//! Server-owned clocks: where the time comes from ([`Now`]: the system's, or a manual one for
//! tests), and a timed game's clock ([`GameClock`]): what is left to each side, when the side to
//! move's turn began, when its flag falls.
//!
//! The rules of the clock (docs/api.md, "Time controls"):
//! - The clock starts when the game starts: when both seats are taken (at once for a game made
//!   with both seats). White's turn is timed from then.
//! - A move is timed from the moment the server stored and sent the previous move (or started
//!   the game). Of each move's time, the first [`LAG_ALLOWANCE_MS`] are not charged: they cover
//!   the network both ways. So a flag falls [`LAG_ALLOWANCE_MS`] after the mover's clock shows 0,
//!   and a move that arrives by then is accepted, charged the mover's whole time (0 left), and
//!   the increment is added.
//! - Correspondence: each move has N days from the previous one; the `deadline` passing loses.

use crate::domain::time_control::TimeControl;
use emergo_core::{ByColor, Color};
use std::fmt;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::sync::watch;

/// The part of each move's time that is not charged to the mover (network both ways).
pub const LAG_ALLOWANCE_MS: i64 = 500;

/// Milliseconds in a day.
const DAY_MS: i64 = 86_400_000;

/// Where the time comes from: milliseconds since 1970.
pub trait Now: Send + Sync + 'static {
    /// The time now, in milliseconds since 1970 (UTC).
    fn now_ms(&self) -> i64;

    /// A receiver that changes whenever the time jumps (a manual clock moved); `None` for a
    /// clock that only flows.
    fn jumps(&self) -> Option<watch::Receiver<i64>> {
        None
    }
}

/// The operating system's clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Now for SystemClock {
    fn now_ms(&self) -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64)
    }
}

/// A clock that stands still until moved: tests pass a correspondence deadline without
/// waiting a day.
pub struct ManualClock {
    now: AtomicI64,
    moved: watch::Sender<i64>,
}

impl ManualClock {
    /// A manual clock showing `now_ms`.
    pub fn new(now_ms: i64) -> Arc<ManualClock> {
        Arc::new(ManualClock {
            now: AtomicI64::new(now_ms),
            moved: watch::channel(now_ms).0,
        })
    }

    /// A manual clock showing the system's time now.
    pub fn at_system_time() -> Arc<ManualClock> {
        ManualClock::new(SystemClock.now_ms())
    }

    /// Moves the clock forward by `ms` (timers waiting for the new time wake up).
    pub fn advance(&self, ms: i64) {
        let now = self.now.fetch_add(ms, Ordering::SeqCst) + ms;
        self.moved.send_replace(now);
    }
}

impl Now for ManualClock {
    fn now_ms(&self) -> i64 {
        self.now.load(Ordering::SeqCst)
    }

    fn jumps(&self) -> Option<watch::Receiver<i64>> {
        Some(self.moved.subscribe())
    }
}

/// The server's time source, cheap to clone.
#[derive(Clone)]
pub struct Clock(Arc<dyn Now>);

impl Clock {
    /// The operating system's clock.
    pub fn system() -> Clock {
        Clock(Arc::new(SystemClock))
    }

    /// The time now in milliseconds since 1970.
    pub fn now_ms(&self) -> i64 {
        self.0.now_ms()
    }

    /// Waits until the clock shows `at_ms` (at once if it does already).
    pub async fn sleep_until(&self, at_ms: i64) {
        let mut jumps = self.0.jumps();
        loop {
            let now = self.now_ms();
            if now >= at_ms {
                return;
            }
            let wait = std::time::Duration::from_millis((at_ms - now) as u64);
            match jumps.as_mut() {
                Some(rx) => {
                    tokio::select! {
                        _ = tokio::time::sleep(wait) => {}
                        changed = rx.changed() => {
                            if changed.is_err() {
                                jumps = None;
                            }
                        }
                    }
                }
                None => tokio::time::sleep(wait).await,
            }
        }
    }
}

impl Default for Clock {
    fn default() -> Clock {
        Clock::system()
    }
}

impl<T: Now> From<Arc<T>> for Clock {
    fn from(source: Arc<T>) -> Clock {
        Clock(source)
    }
}

impl fmt::Debug for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Clock({} ms)", self.now_ms())
    }
}

/// A timed game's clock, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameClock {
    pub control: TimeControl,
    /// Each side's time left when its current (or last) turn began, in milliseconds (real
    /// time; 0 in correspondence).
    pub left: ByColor<i64>,
    /// When the turn of the side to move began (ms since 1970); `None` until the game starts,
    /// and once it has ended.
    pub turn_started: Option<i64>,
}

/// A move's clock arithmetic went wrong: the flag fell before the move came.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the time ran out {late_ms} ms before the move came")]
pub struct Flagged {
    pub late_ms: i64,
}

impl GameClock {
    /// A clock for `control`, not started.
    pub fn new(control: TimeControl) -> GameClock {
        let base = match control {
            TimeControl::RealTime { base_ms, .. } => base_ms as i64,
            TimeControl::Correspondence { .. } => 0,
        };
        GameClock {
            control,
            left: ByColor::splat(base),
            turn_started: None,
        }
    }

    /// Whether the clock runs (the game has started and not ended).
    pub fn running(&self) -> bool {
        self.turn_started.is_some()
    }

    /// Starts the clock of the side to move at `now` (the game starts).
    pub fn start(&mut self, now: i64) {
        self.turn_started = Some(now);
    }

    /// Stops the clock at `now` with `turn` to move: its time used so far is charged.
    pub fn stop(&mut self, turn: Color, now: i64) {
        if let Some(started) = self.turn_started {
            if matches!(self.control, TimeControl::RealTime { .. }) {
                self.left[turn] = (self.left[turn] - charged(now - started)).max(0);
            }
        }
        self.turn_started = None;
    }

    /// When the flag of `turn` (the side to move) falls: the last millisecond at which its move
    /// is still accepted. `None` while the clock does not run.
    pub fn flag_at(&self, turn: Color) -> Option<i64> {
        let started = self.turn_started?;
        Some(match self.control {
            TimeControl::RealTime { .. } => started + self.left[turn] + LAG_ALLOWANCE_MS,
            TimeControl::Correspondence { days } => started + i64::from(days) * DAY_MS,
        })
    }

    /// Whether `turn`'s flag has fallen at `now`.
    pub fn flagged(&self, turn: Color, now: i64) -> bool {
        self.flag_at(turn).is_some_and(|at| now > at)
    }

    /// `mover` moved at `now`: its time is charged and its increment added, and the other
    /// side's turn begins. Refused when the flag fell first.
    pub fn after_move(&mut self, mover: Color, now: i64) -> Result<(), Flagged> {
        let Some(started) = self.turn_started else {
            return Ok(());
        };
        if let Some(at) = self.flag_at(mover) {
            if now > at {
                return Err(Flagged { late_ms: now - at });
            }
        }
        if let TimeControl::RealTime { increment_ms, .. } = self.control {
            let left = (self.left[mover] - charged(now - started)).max(0);
            self.left[mover] = left + increment_ms as i64;
        }
        self.turn_started = Some(now);
        Ok(())
    }

    /// What each clock shows at `now` with `turn` to move (the side to move's time goes down
    /// once the lag allowance is spent; never below 0).
    pub fn shown(&self, turn: Color, now: i64) -> ByColor<i64> {
        let mut left = self.left;
        if let Some(started) = self.turn_started {
            left[turn] = (left[turn] - charged(now - started)).max(0);
        }
        left
    }
}

/// The part of `elapsed` ms charged to the mover.
fn charged(elapsed: i64) -> i64 {
    (elapsed - LAG_ALLOWANCE_MS).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blitz(text: &str) -> GameClock {
        GameClock::new(text.parse().expect("a time control"))
    }

    #[test]
    fn a_clock_waits_for_the_game_to_start() {
        let clock = blitz("0.25+0");
        assert!(!clock.running());
        assert_eq!(clock.flag_at(Color::White), None);
        assert_eq!(clock.shown(Color::White, 1_000_000), ByColor::splat(15_000));
    }

    #[test]
    fn a_move_at_the_last_millisecond_is_accepted_and_one_later_is_not() {
        let mut clock = blitz("0.25+2");
        clock.start(1000);
        let last = 1000 + 15_000 + LAG_ALLOWANCE_MS;
        assert_eq!(clock.flag_at(Color::White), Some(last));
        assert!(!clock.flagged(Color::White, last));
        assert!(clock.flagged(Color::White, last + 1));
        let mut late = clock;
        assert_eq!(
            late.after_move(Color::White, last + 1),
            Err(Flagged { late_ms: 1 })
        );
        clock.after_move(Color::White, last).expect("in time");
        // Charged the whole time, then the increment.
        assert_eq!(clock.left[Color::White], 2000);
        assert_eq!(clock.turn_started, Some(last));
        assert_eq!(clock.flag_at(Color::Black), Some(last + 15_000 + 500));
    }

    #[test]
    fn the_increment_and_the_lag_allowance_are_applied() {
        let mut clock = blitz("3+2");
        clock.start(0);
        // 300 ms: within the allowance, nothing charged.
        clock.after_move(Color::White, 300).unwrap();
        assert_eq!(clock.left[Color::White], 182_000);
        // 10.5 s: 10 s charged.
        clock.after_move(Color::Black, 300 + 10_500).unwrap();
        assert_eq!(clock.left[Color::Black], 172_000);
        assert_eq!(
            clock.shown(Color::White, 10_800 + 1_500),
            ByColor::new(181_000, 172_000)
        );
        clock.stop(Color::White, 10_800 + 1_500);
        assert!(!clock.running());
        assert_eq!(clock.left[Color::White], 181_000);
    }

    #[test]
    fn correspondence_gives_days_per_move() {
        let mut clock = blitz("corr:3");
        clock.start(0);
        assert_eq!(clock.flag_at(Color::White), Some(3 * DAY_MS));
        clock.after_move(Color::White, DAY_MS).unwrap();
        assert_eq!(clock.flag_at(Color::Black), Some(4 * DAY_MS));
        assert!(clock.flagged(Color::Black, 4 * DAY_MS + 1));
    }

    #[tokio::test]
    async fn a_manual_clock_wakes_its_sleepers_when_moved() {
        let manual = ManualClock::new(0);
        let clock = Clock::from(manual.clone());
        let sleeper = tokio::spawn({
            let clock = clock.clone();
            async move { clock.sleep_until(DAY_MS).await }
        });
        tokio::task::yield_now().await;
        manual.advance(DAY_MS);
        tokio::time::timeout(std::time::Duration::from_secs(5), sleeper)
            .await
            .expect("woken")
            .expect("no panic");
        assert_eq!(clock.now_ms(), DAY_MS);
    }
}
