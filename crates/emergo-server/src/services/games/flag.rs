//! Flag falls, with nobody connected (the ending a clock gives is
//! [`emergo_platform::domain::ending::time_ending`]); what makes it happen on time without any request:
//! - per instance, a timer for every timed game it holds in memory (scheduled after every
//!   change, [`FlagTimers::schedule`]), which ends the game the moment its flag falls;
//! - a periodic sweep of the store for flags falling soon ([`SWEEP_EVERY`]), which schedules
//!   them here too: games no instance holds, games of an instance that stopped, games of the
//!   time before a restart.
//!
//! Both end the game through [`Shared::act`](crate::services::games::Shared::act), which lets a fallen
//! flag fall before anything else: several instances may try to end the same game, and the
//! store's compare-and-set on the game's version lets exactly one succeed.

use crate::services::games::{AppState, NOBODY};
use std::collections::BTreeSet;
use std::sync::Mutex;
use std::time::Duration;
use tokio::sync::{mpsc, watch};

/// How often the store is asked for flags falling soon.
pub const SWEEP_EVERY: Duration = Duration::from_secs(1);

/// How far ahead the sweep looks (more than one sweep period, so that no flag falls between two
/// sweeps unseen).
const SWEEP_AHEAD_MS: i64 = 3_000;

/// The most flags one sweep schedules (the next sweep takes the rest).
const SWEEP_BATCH: u32 = 2_000;

/// How many lateness figures are kept for [`FlagTimers::lateness`].
const LATENESS_KEPT: usize = 100_000;

/// This instance's flag timers: `(when, game id)` to look at.
pub struct FlagTimers {
    tx: mpsc::UnboundedSender<(i64, String)>,
    rx: Mutex<Option<mpsc::UnboundedReceiver<(i64, String)>>>,
    /// How late each flag fall was stored, in ms after the flag fell.
    lateness: Mutex<Vec<i64>>,
}

impl Default for FlagTimers {
    fn default() -> FlagTimers {
        let (tx, rx) = mpsc::unbounded_channel();
        FlagTimers {
            tx,
            rx: Mutex::new(Some(rx)),
            lateness: Mutex::new(Vec::new()),
        }
    }
}

impl FlagTimers {
    /// Looks at game `id` when the clock shows `at_ms`.
    pub fn schedule(&self, at_ms: i64, id: &str) {
        let _ = self.tx.send((at_ms, id.to_string()));
    }

    /// How late the flag falls seen by this instance were stored (ms after the flag fell, in
    /// the order they fell), for the load test.
    pub fn lateness(&self) -> Vec<i64> {
        self.lateness
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Keeps how late a flag fall was stored (ms after the flag fell).
    pub(crate) fn record(&self, late_ms: i64) {
        let mut kept = self.lateness.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() < LATENESS_KEPT {
            kept.push(late_ms);
        }
    }
}

/// Starts this instance's timers and its sweep; both end when `stop` turns true.
pub fn spawn(state: AppState, stop: watch::Receiver<bool>) {
    let rx = state
        .flags
        .rx
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take();
    if let Some(rx) = rx {
        tokio::spawn(timers(state.clone(), rx, stop.clone()));
    }
    tokio::spawn(sweep(state, stop));
}

async fn timers(
    state: AppState,
    mut rx: mpsc::UnboundedReceiver<(i64, String)>,
    mut stop: watch::Receiver<bool>,
) {
    let mut due: BTreeSet<(i64, String)> = BTreeSet::new();
    let clock = state.clock.clone();
    loop {
        let next = due.first().map(|(at, _)| *at);
        let wake = async {
            match next {
                Some(at) => clock.sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            entry = rx.recv() => match entry {
                Some(entry) => {
                    due.insert(entry);
                }
                None => break,
            },
            _ = wake => {
                let now = clock.now_ms();
                while due.first().is_some_and(|(at, _)| *at <= now) {
                    if let Some((_, id)) = due.pop_first() {
                        tokio::spawn(look_at(state.clone(), id));
                    }
                }
            }
            _ = stop.wait_for(|s| *s) => break,
        }
    }
}

/// Ends game `id` on time if its flag has fallen; else looks again when it will.
async fn look_at(state: AppState, id: String) {
    let slot = match state.slot(&id).await {
        Ok(slot) => slot,
        Err(err) => {
            tracing::debug!(game = %id, "flag: cannot read the game: {err}");
            return;
        }
    };
    let flag_at = slot.state.lock().await.flag_at();
    let Some(flag_at) = flag_at else {
        return;
    };
    if state.clock.now_ms() <= flag_at {
        state.flags.schedule(flag_at + 1, &id);
        return;
    }
    // `act` lets the fallen flag fall (or finds that a move or another instance came first).
    let acted = state.act(&slot, NOBODY, |_| Ok(None)).await.map(drop);
    if let Err(err) = acted {
        tracing::debug!(game = %id, "flag: {err}");
    }
}

async fn sweep(state: AppState, mut stop: watch::Receiver<bool>) {
    let mut tick = tokio::time::interval(SWEEP_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stop.wait_for(|s| *s) => break,
        }
        let by = state.clock.now_ms() + SWEEP_AHEAD_MS;
        match state.store.due_flags(by, SWEEP_BATCH).await {
            Ok(due) => {
                for (id, at) in due {
                    state.flags.schedule(at + 1, &id);
                }
            }
            Err(err) => tracing::warn!("flag sweep: {err}"),
        }
    }
}
