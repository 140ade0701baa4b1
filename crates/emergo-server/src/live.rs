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
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
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
    /// The stored game's version this state is (every change bumps it; see
    /// [`crate::store::GameStore`]).
    pub version: i64,
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
            version: 0,
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
    id: String,
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
    /// The version of the latest state (read without the game's lock).
    version: AtomicI64,
    last_used: Mutex<Instant>,
}

/// How often [`Shared::act`] decides again after losing a race to another instance.
const MAX_TRIES: usize = 5;

/// States a slow WebSocket may fall behind before it is sent only the latest one.
const UPDATES_BUFFERED: usize = 8;

impl GameSlot {
    fn new(live: LiveGame) -> GameSlot {
        let latest = state_message(&live);
        let version = AtomicI64::new(live.version);
        GameSlot {
            id: live.meta.id.clone(),
            version,
            state: tokio::sync::Mutex::new(live),
            updates: broadcast::channel(UPDATES_BUFFERED).0,
            hinting: AtomicBool::new(false),
            latest: Mutex::new(latest),
            last_used: Mutex::new(Instant::now()),
        }
    }

    /// The game's id.
    pub fn id(&self) -> &str {
        &self.id
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
        self.version.store(live.version, Ordering::SeqCst);
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
    /// The analysis board's running analyses, one per client.
    pub analyses: crate::analysis::Analyses,
    /// Accounts: login limits, the cookie's flags, the lobby's channel.
    pub accounts: crate::accounts::Accounts,
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
            accounts: crate::accounts::Accounts::new(&limits),
            limits,
            games: Mutex::new(HashMap::new()),
            shutdown,
            jobs: std::sync::OnceLock::new(),
            reviews: crate::review::Reviews::default(),
            analyses: crate::analysis::Analyses::default(),
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
            self.make_current(&slot).await?;
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
                    let mut live = LiveGame::new(stored.meta, stored.game);
                    live.version = stored.version;
                    let slot = Arc::new(GameSlot::new(live));
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

    /// When other instances share the database, checks that the cached game is the stored one
    /// (one read of its version) and re-reads it when it is not, so that no request is answered
    /// from a game another instance has changed since. A database that cannot be reached is
    /// `database_unavailable`.
    async fn make_current(&self, slot: &GameSlot) -> Result<(), ApiError> {
        if !self.store.is_shared() {
            return Ok(());
        }
        let Some(stored) = self.store.version(slot.id()).await? else {
            return Ok(());
        };
        if stored != slot.version.load(Ordering::SeqCst) {
            let mut live = slot.state.lock().await;
            self.reload_and_publish(slot, &mut live).await;
        }
        Ok(())
    }

    /// Decides and makes one change to a game under its lock: `decide` looks at the game and
    /// says what to change (or `None`: nothing to change, or refuses with the request's error);
    /// the change is stored, applied and published (see [`Shared::apply`]). When another
    /// instance changed the game since it was read (the store's compare-and-set says so, or a
    /// refusal was decided on an old state), the game is re-read and `decide` looks again: the
    /// request is answered as if it had come after the other one, so that of two racing
    /// requests exactly one changes the game when only one can. Returns the game's lock.
    pub async fn act<'a, F>(
        self: &Arc<Self>,
        slot: &'a Arc<GameSlot>,
        client: Client,
        mut decide: F,
    ) -> Result<tokio::sync::MutexGuard<'a, LiveGame>, ApiError>
    where
        F: FnMut(&LiveGame) -> Result<Option<Change>, ApiError>,
    {
        let mut live = slot.state.lock().await;
        for _ in 0..MAX_TRIES {
            match decide(&live) {
                Ok(Some(change)) => {
                    if self.try_apply(slot, &mut live, change, client).await? {
                        return Ok(live);
                    }
                }
                refusal => {
                    if self.is_current(&live).await? {
                        return refusal.map(|_| live);
                    }
                    self.reload_and_publish(slot, &mut live).await;
                }
            }
        }
        Err(ApiError::Busy {
            cap: "game_changes",
            message: "the game keeps changing under this request; try again".to_string(),
        })
    }

    /// Whether `live` is the stored game (always, when no other instance shares the database).
    async fn is_current(&self, live: &LiveGame) -> Result<bool, ApiError> {
        if !self.store.is_shared() {
            return Ok(true);
        }
        let stored = self.store.version(&live.meta.id).await?;
        Ok(stored.is_none_or(|v| v == live.version))
    }

    /// The one door for every change to a game: stores it (the change is acknowledged only once
    /// it is on disk), applies it in memory, stamps the time, publishes the new state to the
    /// game's WebSockets and, if the engine is to move then, starts its reply (counted for
    /// `client`). On any error the game is unchanged. When another instance changed the game
    /// first, the game is re-read and the answer is that of a late request: `stale_ply` for a
    /// move, `game_over` for an ending, `seat_taken` for a seat, `not_allowed` otherwise
    /// (handlers use [`Shared::act`], which decides again instead).
    pub async fn apply(
        self: &Arc<Self>,
        slot: &Arc<GameSlot>,
        live: &mut LiveGame,
        change: Change,
        client: Client,
    ) -> Result<(), ApiError> {
        let ply = live.game.ply();
        let late = match &change {
            Change::Move(_) => None,
            Change::Finish(_) => Some(ApiError::GameOver("the game is over already".to_string())),
            Change::Seat { .. } => Some(ApiError::SeatTaken(
                "both seats of this game are taken".to_string(),
            )),
            Change::Takeback { .. } | Change::DrawOffer(_) => Some(ApiError::NotAllowed(
                "the game changed meanwhile; look again".to_string(),
            )),
            Change::RematchOffer { .. } | Change::Rematched { .. } => Some(ApiError::NotAllowed(
                "the rematch offer changed meanwhile; look at the game again".to_string(),
            )),
        };
        if self.try_apply(slot, live, change, client).await? {
            return Ok(());
        }
        Err(late.unwrap_or(ApiError::StalePly {
            current: live.game.ply(),
            given: ply as i64,
        }))
    }

    /// [`Shared::apply`], telling a lost race apart: `Ok(false)` when the store refused the
    /// change because the game changed meanwhile (`live` is then the stored game, re-read).
    async fn try_apply(
        self: &Arc<Self>,
        slot: &Arc<GameSlot>,
        live: &mut LiveGame,
        change: Change,
        client: Client,
    ) -> Result<bool, ApiError> {
        let now = now_text();
        let id = live.meta.id.clone();
        let version = live.version;
        let stored = match change {
            Change::Move(mv) => {
                let ply = live.game.ply();
                live.game
                    .play(mv)
                    .map_err(|e| ApiError::IllegalMove(e.to_string()))?;
                let status = live.game.status();
                let stored = self
                    .store
                    .append_move(&id, version, ply, &mv.to_string(), status, &now)
                    .await;
                if stored.is_ok() {
                    live.meta.draw_offer = None;
                    metrics::counter!(crate::ops::MOVES_ACCEPTED).increment(1);
                } else {
                    live.game.undo();
                }
                stored
            }
            Change::Takeback { to } => {
                let stored = self.store.truncate(&id, version, to, &now).await;
                if stored.is_ok() {
                    while live.game.ply() > to {
                        live.game.undo();
                    }
                    live.cancel_engine();
                    self.cancel_jobs(&id).await;
                    live.meta.draw_offer = None;
                }
                stored
            }
            Change::Finish(status) => {
                let Status::Finished { outcome, reason } = status else {
                    return Err(ApiError::internal("a finish without an ending"));
                };
                let stored = self.store.finish(&id, version, status, &now).await;
                if stored.is_ok() {
                    live.game
                        .declare(outcome, reason)
                        .map_err(ApiError::internal)?;
                    live.cancel_engine();
                    self.cancel_jobs(&id).await;
                    live.meta.draw_offer = None;
                }
                stored
            }
            Change::DrawOffer(offer) => {
                let stored = self.store.set_draw_offer(&id, version, offer, &now).await;
                if stored.is_ok() {
                    live.meta.draw_offer = offer;
                }
                stored
            }
            Change::Seat { color, token_hash } => {
                let stored = self
                    .store
                    .take_seat(&id, version, color, &token_hash, &now)
                    .await;
                if stored.is_ok() {
                    live.meta.seats[color].token_hash = Some(token_hash);
                }
                stored
            }
            Change::RematchOffer { from, to } => {
                let stored = self.store.set_rematch_offer(&id, from, to, &now).await;
                if stored.is_ok() {
                    live.meta.rematch.offer = to;
                }
                stored
            }
            Change::Rematched { offer, game } => {
                let stored = self.store.set_rematch_game(&id, offer, &game, &now).await;
                if stored.is_ok() {
                    live.meta.rematch = Rematch {
                        offer: Some(offer),
                        game: Some(game),
                    };
                }
                stored
            }
        };
        match stored {
            Ok(()) => {}
            Err(StoreError::Conflict(_)) => {
                // Another instance changed the game first: the cache takes the stored game.
                self.reload_and_publish(slot, live).await;
                return Ok(false);
            }
            Err(err) => return Err(err.into()),
        }
        live.version += 1;
        live.meta.updated_at = now;
        live.engine_client = client;
        self.schedule_engine(slot, live);
        slot.publish(live);
        // A rated game that just ended: its ratings, once.
        crate::players::settle_later(self, &live.meta, &live.game);
        Ok(true)
    }

    /// Re-reads a cached game that another instance changed (a wake-up naming its new
    /// `version`, when known) and publishes it when it differs from the cached state. A game
    /// not in memory is left alone: it is read from the database when asked for.
    pub async fn refresh(self: &Arc<Self>, id: &str, version: Option<i64>) {
        let cached = self.games().get(id).cloned();
        if let Some(slot) = cached {
            if version.is_some_and(|v| v <= slot.version.load(Ordering::SeqCst)) {
                return;
            }
            let mut live = slot.state.lock().await;
            self.reload_and_publish(&slot, &mut live).await;
        }
    }

    /// Re-reads every cached game (after wake-ups may have been lost).
    pub async fn refresh_all(self: &Arc<Self>) {
        let ids: Vec<String> = self.games().keys().cloned().collect();
        for id in ids {
            self.refresh(&id, None).await;
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
        if stored.version == live.version {
            return;
        }
        live.meta = stored.meta;
        live.game = stored.game;
        live.version = stored.version;
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
