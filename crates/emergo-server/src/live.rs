//! Live games: an in-memory cache of `emergo_core::Game`s rebuilt from the database on demand,
//! each behind its own lock (one request at a time changes a game) with a broadcast channel
//! that carries every new state to the game's WebSockets; and the engine's replies.

use crate::engine::{self, EnginePool};
use crate::error::ApiError;
use crate::model::{now_text, GameMeta, Mode, SeatKind};
use crate::store::{Store, StoreError};
use crate::view::GameView;
use emergo_core::{Game, Move};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, watch};

/// A game in memory.
pub struct LiveGame {
    pub meta: GameMeta,
    pub game: Game,
    /// The engine is computing its reply.
    pub engine_thinking: bool,
    /// Bumped by every change that makes a running engine job's answer obsolete (takeback,
    /// resignation), so that the answer is dropped.
    pub generation: u64,
    /// Set to drop the running engine job before it starts searching.
    cancel: Arc<AtomicBool>,
}

impl LiveGame {
    pub fn new(meta: GameMeta, game: Game) -> LiveGame {
        LiveGame {
            meta,
            game,
            engine_thinking: false,
            generation: 0,
            cancel: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Makes a running or queued engine job's answer obsolete (takeback, resignation): a queued
    /// job is skipped, and a finished one's move is dropped.
    pub fn cancel_engine(&mut self) {
        self.generation += 1;
        self.engine_thinking = false;
        self.cancel.store(true, Ordering::SeqCst);
    }

    /// Whether the engine is to move now.
    pub fn engine_to_move(&self) -> bool {
        self.meta.mode == Mode::Engine
            && !self.game.is_over()
            && self.meta.seats[self.game.position().turn().index()].kind == SeatKind::Engine
    }
}

/// One game's lock and channel.
pub struct GameSlot {
    /// The per-game lock: held across the database write of every change.
    pub state: tokio::sync::Mutex<LiveGame>,
    /// Every new state, as the JSON text of a WebSocket message.
    pub updates: broadcast::Sender<Arc<str>>,
    /// A hint is being computed (one at a time per game, so that hints cannot crowd the
    /// engine's workers).
    pub hinting: AtomicBool,
    last_used: Mutex<Instant>,
}

impl GameSlot {
    fn new(live: LiveGame) -> GameSlot {
        GameSlot {
            state: tokio::sync::Mutex::new(live),
            updates: broadcast::channel(64).0,
            hinting: AtomicBool::new(false),
            last_used: Mutex::new(Instant::now()),
        }
    }

    fn touch(&self) {
        if let Ok(mut t) = self.last_used.lock() {
            *t = Instant::now();
        }
    }

    /// Sends the state to every WebSocket of the game. Called with the lock held, so that the
    /// states go out in the order they were made.
    pub fn publish(&self, live: &LiveGame) {
        let _ = self.updates.send(state_message(live));
    }
}

/// The WebSocket message for a state: `{"type": "state", "game": GameView}`.
pub fn state_message(live: &LiveGame) -> Arc<str> {
    let message = serde_json::json!({"type": "state", "game": GameView::of(live)});
    Arc::from(message.to_string())
}

/// Everything the handlers share.
pub struct Shared {
    pub store: Store,
    pub pool: EnginePool,
    games: Mutex<HashMap<String, Arc<GameSlot>>>,
    /// Turns true when the server shuts down; WebSockets close then.
    pub shutdown: watch::Receiver<bool>,
}

pub type AppState = Arc<Shared>;

impl Shared {
    pub fn new(store: Store, pool: EnginePool, shutdown: watch::Receiver<bool>) -> Shared {
        Shared {
            store,
            pool,
            games: Mutex::new(HashMap::new()),
            shutdown,
        }
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<GameSlot>>> {
        // A panic elsewhere while holding this lock leaves the map itself intact.
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The game `id`, from the cache or else from the database; `not_found` when unknown.
    pub async fn slot(self: &Arc<Self>, id: &str) -> Result<Arc<GameSlot>, ApiError> {
        let cached = self.games().get(id).cloned();
        if let Some(slot) = cached {
            slot.touch();
            // An engine whose reply could not be stored tries again (never waits on the lock:
            // whoever holds it is already working on the game).
            if let Ok(mut live) = slot.state.try_lock() {
                if live.engine_to_move() && !live.engine_thinking {
                    self.schedule_engine(&slot, &mut live);
                }
            }
            return Ok(slot);
        }
        if id.len() > 64 {
            return Err(ApiError::game_not_found(id));
        }
        let stored = self
            .store
            .load(id)
            .await
            .map_err(ApiError::internal)?
            .ok_or_else(|| ApiError::game_not_found(id))?;
        let (slot, inserted) = {
            let mut games = self.games();
            match games.get(id) {
                // Someone else loaded it meanwhile: theirs is the one.
                Some(slot) => (slot.clone(), false),
                None => {
                    let slot = Arc::new(GameSlot::new(LiveGame::new(stored.meta, stored.game)));
                    games.insert(id.to_string(), slot.clone());
                    (slot, true)
                }
            }
        };
        if inserted {
            // After a restart, an engine whose reply was not stored yet thinks again.
            let mut live = slot.state.lock().await;
            if live.engine_to_move() && !live.engine_thinking {
                self.schedule_engine(&slot, &mut live);
            }
        }
        Ok(slot)
    }

    /// Puts a new game into the cache.
    pub fn insert(&self, live: LiveGame) -> Arc<GameSlot> {
        let id = live.meta.id.clone();
        let slot = Arc::new(GameSlot::new(live));
        self.games().insert(id, slot.clone());
        slot
    }

    /// Drops from memory the games nobody has used for `idle` and nobody holds or watches;
    /// they come back from the database when asked for.
    pub fn evict_idle(&self, idle: Duration) -> usize {
        let mut games = self.games();
        let before = games.len();
        games.retain(|_, slot| {
            let in_use = Arc::strong_count(slot) > 1 || slot.updates.receiver_count() > 0;
            let recent = slot.last_used.lock().map_or(true, |t| t.elapsed() < idle);
            in_use || recent
        });
        before - games.len()
    }

    /// The number of games in memory.
    pub fn cached(&self) -> usize {
        self.games().len()
    }

    /// Plays `mv` in the live game: stored first, then applied in memory. A lost race for the
    /// ply is `stale_ply`; on any error the game is unchanged.
    pub async fn commit_move(&self, live: &mut LiveGame, mv: Move) -> Result<(), ApiError> {
        let ply = live.game.ply();
        live.game
            .play(mv)
            .map_err(|e| ApiError::IllegalMove(e.to_string()))?;
        let now = now_text();
        let status = live.game.status();
        let stored = self
            .store
            .append_move(&live.meta.id, ply, &mv.to_string(), status, &now)
            .await;
        match stored {
            Ok(()) => {
                live.meta.updated_at = now;
                live.meta.draw_offer = None;
                Ok(())
            }
            Err(err) => {
                live.game.undo();
                Err(match err {
                    StoreError::Conflict(_) => ApiError::StalePly {
                        current: ply + 1,
                        given: ply as i64,
                    },
                    other => ApiError::internal(other),
                })
            }
        }
    }

    /// If the engine is to move, starts its reply on the pool; the reply is stored, applied and
    /// published when it comes, unless the game changed meanwhile.
    pub fn schedule_engine(self: &Arc<Self>, slot: &Arc<GameSlot>, live: &mut LiveGame) {
        if !live.engine_to_move() {
            return;
        }
        live.cancel_engine();
        live.cancel = Arc::new(AtomicBool::new(false));
        live.engine_thinking = true;
        let generation = live.generation;
        let cancel = live.cancel.clone();
        let game = live.game.clone();
        let level = live.meta.level.unwrap_or(1);
        let shared = self.clone();
        let slot = slot.clone();
        tokio::spawn(async move {
            let chosen = shared
                .pool
                .run(move || {
                    if cancel.load(Ordering::SeqCst) {
                        None
                    } else {
                        engine::choose_move(&game, level, cancel)
                    }
                })
                .await;
            let mut live = slot.state.lock().await;
            if live.generation != generation {
                return;
            }
            live.engine_thinking = false;
            match chosen {
                Ok(Some(mv)) => {
                    if let Err(err) = shared.commit_move(&mut live, mv).await {
                        tracing::error!(game = %live.meta.id, "engine move {mv} not stored: {err}");
                    }
                }
                Ok(None) => {}
                Err(err) => tracing::error!(game = %live.meta.id, "engine: {err}"),
            }
            slot.publish(&live);
        });
    }
}
