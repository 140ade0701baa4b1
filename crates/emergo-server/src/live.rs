//! Live games: an in-memory cache of `emergo_core::Game`s rebuilt from the database on demand,
//! each behind its own lock (one request at a time changes a game) with a broadcast channel
//! that carries every new state to the game's WebSockets; every change to a game goes through
//! [`Shared::apply`] (store, apply, publish); and the engine's replies.

use crate::edge::Permits;
use crate::engine::{self, Client, EnginePool};
use crate::error::ApiError;
use crate::limits::Limits;
use crate::model::{now_text, GameMeta, Mode, Rematch, SeatKind};
use crate::store::{Store, StoreError};
use crate::view::GameView;
use emergo_core::{Color, Game, Move, Status};
use emergo_engine::Level;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, watch};

/// A change to a game: what [`Shared::apply`] stores, applies and publishes.
#[derive(Clone, Debug)]
pub enum Change {
    /// A move by the side to move (a person's or the engine's).
    Move(Move),
    /// Back to the position before ply `to` (a takeback).
    Takeback { to: usize },
    /// An ending the players declared (resignation, agreement).
    Finish(Status),
    /// Who offers a draw now.
    DrawOffer(Option<Color>),
    /// A person takes the seat of `color`.
    Seat { color: Color, token_hash: String },
    /// Who offers a rematch of the finished game: `from` now (as this instance knows it), `to`
    /// after.
    RematchOffer {
        from: Option<Color>,
        to: Option<Color>,
    },
    /// `offer`'s rematch offer was accepted: the new game `game` is stored.
    Rematched { offer: Color, game: String },
}

/// The client an engine job is counted for when nobody in particular asked (a restart).
const NOBODY: Client = IpAddr::V4(Ipv4Addr::UNSPECIFIED);

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
    /// Who the engine's next reply is for (the engine's time is shared between clients).
    pub engine_client: Client,
}

impl LiveGame {
    pub fn new(meta: GameMeta, game: Game) -> LiveGame {
        LiveGame {
            meta,
            game,
            engine_thinking: false,
            generation: 0,
            cancel: Arc::new(AtomicBool::new(false)),
            engine_client: NOBODY,
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
            && self.meta.seats[self.game.position().turn()].kind == SeatKind::Engine
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
    /// The latest state message, shared by every WebSocket: a new WebSocket gets it without
    /// taking the game's lock or serialising anything.
    latest: Mutex<Arc<str>>,
    last_used: Mutex<Instant>,
}

/// States a slow WebSocket may fall behind before it is sent only the latest one.
const UPDATES_BUFFERED: usize = 8;

impl GameSlot {
    fn new(live: LiveGame) -> GameSlot {
        let latest = state_message(&live);
        GameSlot {
            state: tokio::sync::Mutex::new(live),
            updates: broadcast::channel(UPDATES_BUFFERED).0,
            hinting: AtomicBool::new(false),
            latest: Mutex::new(latest),
            last_used: Mutex::new(Instant::now()),
        }
    }

    /// The latest state message (no lock on the game).
    pub fn latest(&self) -> Arc<str> {
        self.latest
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn touch(&self) {
        if let Ok(mut t) = self.last_used.lock() {
            *t = Instant::now();
        }
    }

    /// Sends the state to every WebSocket of the game. Called with the lock held, so that the
    /// states go out in the order they were made.
    pub fn publish(&self, live: &LiveGame) {
        let message = state_message(live);
        *self.latest.lock().unwrap_or_else(|e| e.into_inner()) = message.clone();
        let _ = self.updates.send(message);
    }
}

/// What comes before the game in a state message.
pub const STATE_PREFIX: &str = r#"{"type":"state","game":"#;

/// The WebSocket message for a state: `{"type": "state", "game": GameView}`.
pub fn state_message(live: &LiveGame) -> Arc<str> {
    let game = serde_json::to_string(&GameView::of(live)).unwrap_or_else(|_| "null".into());
    Arc::from(format!("{STATE_PREFIX}{game}}}"))
}

/// Everything the handlers share.
pub struct Shared {
    pub store: Store,
    pub pool: EnginePool,
    pub limits: Limits,
    games: Mutex<HashMap<String, Arc<GameSlot>>>,
    /// Imports being read and replayed now.
    pub imports: tokio::sync::Semaphore,
    /// Open WebSockets.
    pub websockets: Arc<Permits>,
    /// Turns true when the server shuts down; WebSockets close then.
    pub shutdown: watch::Receiver<bool>,
    /// With PostgreSQL, the engine's replies and hints are jobs in the database (src/jobs.rs).
    pub(crate) jobs: std::sync::OnceLock<Arc<crate::jobs::JobQueue>>,
    /// Game reviews running now.
    pub reviews: crate::review::Reviews,
}

pub type AppState = Arc<Shared>;

impl Shared {
    pub fn new(
        store: Store,
        pool: EnginePool,
        limits: Limits,
        shutdown: watch::Receiver<bool>,
    ) -> Shared {
        Shared {
            store,
            pool,
            imports: tokio::sync::Semaphore::new(limits.imports_at_once.max(1)),
            websockets: Permits::new(
                "websockets",
                limits.websockets,
                limits.websockets_per_client,
            ),
            limits,
            games: Mutex::new(HashMap::new()),
            shutdown,
            jobs: std::sync::OnceLock::new(),
            reviews: crate::review::Reviews::default(),
        }
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<GameSlot>>> {
        // A panic elsewhere while holding this lock leaves the map itself intact.
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The game `id`, from the cache or else from the database; `not_found` when unknown.
    pub async fn slot(self: &Arc<Self>, id: &str) -> Result<Arc<GameSlot>, ApiError> {
        if id.len() > 64 {
            return Err(ApiError::game_not_found(id));
        }
        let cached = self.games().get(id).cloned();
        if let Some(slot) = cached {
            slot.touch();
            // An engine whose reply could not be stored tries again (never waits on the lock:
            // whoever holds it is already working on the game).
            if let Ok(mut live) = slot.state.try_lock() {
                if live.engine_to_move() && !live.engine_thinking {
                    self.schedule_engine(&slot, &mut live);
                    slot.publish(&live);
                }
            }
            return Ok(slot);
        }
        let stored = self
            .store
            .load(id)
            .await
            .map_err(ApiError::internal)?
            .ok_or_else(|| ApiError::game_not_found(id))?;
        self.make_room();
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
                slot.publish(&live);
            }
        }
        Ok(slot)
    }

    /// Puts a new game into the cache.
    pub fn insert(&self, live: LiveGame) -> Arc<GameSlot> {
        self.make_room();
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

    /// Beyond [`Limits::cached_games`], drops the games nobody holds or watches.
    fn make_room(&self) {
        if self.games().len() >= self.limits.cached_games {
            let dropped = self.evict_idle(Duration::ZERO);
            tracing::debug!("{dropped} games dropped from memory to make room");
        }
    }

    /// The number of games in memory.
    pub fn cached(&self) -> usize {
        self.games().len()
    }

    /// The one door for every change to a game: stores it (the change is acknowledged only once
    /// it is on disk), applies it in memory, stamps the time, publishes the new state to the
    /// game's WebSockets and, if the engine is to move then, starts its reply (counted for
    /// `client`). On any error the game is unchanged. A lost race is `stale_ply` for a move,
    /// `seat_taken` for a seat.
    pub async fn apply(
        self: &Arc<Self>,
        slot: &Arc<GameSlot>,
        live: &mut LiveGame,
        change: Change,
        client: Client,
    ) -> Result<(), ApiError> {
        let now = now_text();
        let id = live.meta.id.clone();
        match change {
            Change::Move(mv) => {
                let ply = live.game.ply();
                live.game
                    .play(mv)
                    .map_err(|e| ApiError::IllegalMove(e.to_string()))?;
                let status = live.game.status();
                let stored = self
                    .store
                    .append_move(&id, ply, &mv.to_string(), status, &now)
                    .await;
                if let Err(err) = stored {
                    live.game.undo();
                    return Err(match err {
                        StoreError::Conflict(_) => {
                            // Another instance played this ply first: the cache takes the
                            // stored game, so the answer names the ply that is current now.
                            self.reload_and_publish(slot, live).await;
                            ApiError::StalePly {
                                current: live.game.ply().max(ply + 1),
                                given: ply as i64,
                            }
                        }
                        other => other.into(),
                    });
                }
                live.meta.draw_offer = None;
            }
            Change::Takeback { to } => {
                self.store.truncate(&id, to, &now).await?;
                while live.game.ply() > to {
                    live.game.undo();
                }
                live.cancel_engine();
                self.cancel_jobs(&id).await;
                live.meta.draw_offer = None;
            }
            Change::Finish(status) => {
                let Status::Finished { outcome, reason } = status else {
                    return Err(ApiError::internal("a finish without an ending"));
                };
                if let Err(err) = self.store.finish(&id, status, &now).await {
                    return Err(match err {
                        StoreError::Conflict(_) => {
                            // Another instance ended it first.
                            self.reload_and_publish(slot, live).await;
                            ApiError::GameOver("the game is over already".to_string())
                        }
                        other => other.into(),
                    });
                }
                live.game
                    .declare(outcome, reason)
                    .map_err(ApiError::internal)?;
                live.cancel_engine();
                self.cancel_jobs(&id).await;
                live.meta.draw_offer = None;
            }
            Change::DrawOffer(offer) => {
                self.store.set_draw_offer(&id, offer, &now).await?;
                live.meta.draw_offer = offer;
            }
            Change::Seat { color, token_hash } => {
                match self.store.take_seat(&id, color, &token_hash, &now).await {
                    Ok(()) => {}
                    Err(StoreError::Conflict(_)) => {
                        return Err(ApiError::SeatTaken(
                            "both seats of this game are taken".to_string(),
                        ))
                    }
                    Err(err) => return Err(err.into()),
                }
                live.meta.seats[color].token_hash = Some(token_hash);
            }
            Change::RematchOffer { from, to } => {
                let stored = self.store.set_rematch_offer(&id, from, to, &now).await;
                self.rematch_stored(slot, live, stored).await?;
                live.meta.rematch.offer = to;
            }
            Change::Rematched { offer, game } => {
                let stored = self.store.set_rematch_game(&id, offer, &game, &now).await;
                self.rematch_stored(slot, live, stored).await?;
                live.meta.rematch = Rematch {
                    offer: Some(offer),
                    game: Some(game),
                };
            }
        }
        live.meta.updated_at = now;
        live.engine_client = client;
        self.schedule_engine(slot, live);
        slot.publish(live);
        Ok(())
    }

    /// A rematch write that lost its race to another instance: the cache takes the stored game
    /// and the request is refused, to be looked at again.
    async fn rematch_stored(
        &self,
        slot: &GameSlot,
        live: &mut LiveGame,
        stored: Result<(), StoreError>,
    ) -> Result<(), ApiError> {
        match stored {
            Ok(()) => Ok(()),
            Err(StoreError::Conflict(_)) => {
                self.reload_and_publish(slot, live).await;
                Err(ApiError::NotAllowed(
                    "the rematch offer changed meanwhile; look at the game again".to_string(),
                ))
            }
            Err(err) => Err(err.into()),
        }
    }

    /// Re-reads a cached game that another instance changed (a wake-up) and publishes it when
    /// it differs from the cached state. A game not in memory is left alone: it is read from the
    /// database when asked for.
    pub async fn refresh(self: &Arc<Self>, id: &str) {
        let cached = self.games().get(id).cloned();
        if let Some(slot) = cached {
            let mut live = slot.state.lock().await;
            self.reload_and_publish(&slot, &mut live).await;
        }
    }

    /// Re-reads every cached game (after wake-ups may have been lost).
    pub async fn refresh_all(self: &Arc<Self>) {
        let ids: Vec<String> = self.games().keys().cloned().collect();
        for id in ids {
            self.refresh(&id).await;
        }
    }

    /// Takes the stored state of `live`'s game when it differs from the cached one (another
    /// instance changed it) and publishes it. An engine reply running here for the old state
    /// is dropped.
    pub(crate) async fn reload_and_publish(&self, slot: &GameSlot, live: &mut LiveGame) {
        let stored = match self.store.load(&live.meta.id).await {
            Ok(Some(stored)) => stored,
            Ok(None) => return,
            Err(err) => {
                tracing::warn!(game = %live.meta.id, "cannot re-read the game: {err}");
                return;
            }
        };
        let same = stored.meta.updated_at == live.meta.updated_at
            && stored.game.moves() == live.game.moves()
            && stored.game.status() == live.game.status()
            && stored.meta.draw_offer == live.meta.draw_offer
            && stored.meta.seats == live.meta.seats
            && stored.meta.rematch == live.meta.rematch;
        if same {
            return;
        }
        live.meta = stored.meta;
        live.game = stored.game;
        live.cancel_engine();
        slot.publish(live);
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
        if let Some(jobs) = self.jobs() {
            // A worker anywhere searches and applies it; the move comes back as a wake-up.
            let (id, ply) = (live.meta.id.clone(), live.game.ply());
            self.queue_reply(jobs, slot, id, ply, live.engine_client, generation);
            return;
        }
        let cancel = live.cancel.clone();
        let game = live.game.clone();
        let level = live.meta.level.unwrap_or(Level::MIN);
        let client = live.engine_client;
        let shared = self.clone();
        let slot = slot.clone();
        tokio::spawn(async move {
            let chosen = shared
                .pool
                .run(client, cancel.clone(), move || {
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
                    if let Err(err) = shared
                        .apply(&slot, &mut live, Change::Move(mv), client)
                        .await
                    {
                        tracing::error!(game = %live.meta.id, "engine move {mv} not stored: {err}");
                        slot.publish(&live);
                    }
                }
                Ok(None) => slot.publish(&live),
                Err(err) => {
                    // Busy: the reply is tried again when the game is next asked for.
                    tracing::warn!(game = %live.meta.id, "engine: {err}");
                    slot.publish(&live);
                }
            }
        });
    }
}
