//! Live games: an in-memory cache of `emergo_core::Game`s rebuilt from the database on demand,
//! each behind its own lock (one request at a time changes a game) with a broadcast channel
//! that carries every new state to the game's WebSockets; every change to a game goes through
//! [`Shared::apply`] (store, apply, publish); and the engine's replies.

pub mod actions;
pub mod chat;
pub mod create;
pub mod flag;
pub mod import;
pub mod jobs;
pub mod ratings;
pub mod rematch;
pub mod seats;
pub mod takeback;
pub mod view;
pub mod watching;

use crate::services::error::ServiceError;
use crate::services::games::flag::FlagTimers;
use crate::services::games::view::GameView;
use crate::services::permits::Permits;
use axum::body::Bytes;
use axum::extract::ws::Utf8Bytes;
use emergo_core::{AnyGame, AnyMove, Color, EndReason, Outcome, Status};
use emergo_engine::Level;
use emergo_platform::domain::clock::Clock;
use emergo_platform::domain::ending;
use emergo_platform::domain::limits::Limits;
use emergo_platform::domain::model::{now_text, GameMeta, Rematch};
use emergo_platform::store::{ClockColumns, MoveWrite, Store, StoreError};
use emergo_worker::pool::{self, Client, EnginePool};
use futures_util::future::BoxFuture;
use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, Ipv4Addr};
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, watch};

/// A change to a game: what [`Shared::apply`] stores, applies and publishes.
#[derive(Clone, Debug)]
pub enum Change {
    /// A move by the side to move (a person's or the engine's).
    Move(AnyMove),
    /// Back to the position before ply `to` (a takeback).
    Takeback { to: usize },
    /// An ending the players declared (resignation, agreement; in a timed game before each
    /// side has moved, an abort).
    Finish(Status),
    /// Who offers a draw now.
    DrawOffer(Option<Color>),
    /// Who asks for a takeback now, and who was refused since the last move (games between
    /// people, src/services/games/takeback.rs).
    TakebackOffer(emergo_platform::domain::model::Takeback),
    /// A person takes the seat of `color` (a timed game's clock starts once both are taken).
    Seat { color: Color, token_hash: String },
    /// Who offers a rematch of the finished game: `from` now (as this instance knows it), `to`
    /// after.
    RematchOffer {
        from: Option<Color>,
        to: Option<Color>,
    },
    /// `offer`'s rematch offer was accepted: the new game `game` is stored.
    Rematched { offer: Color, game: String },
    /// The side to move ran out of time (its flag fell): it loses, or the game is aborted
    /// ([`ending::time_ending`]).
    Flag,
    /// `color` goes berserk in an arena game (issue 23, src/services/tournaments.rs): half its
    /// time left, taken before its first move.
    Berserk(Color),
}

impl Change {
    /// Who makes the change to `live`'s game, when one side does: a move is its mover's; a
    /// resignation the loser's; an agreement the side's that accepted the other's offer; a flag
    /// nobody's.
    fn actor(&self, live: &LiveGame) -> Option<Color> {
        match self {
            Change::Move(_) => Some(live.game.turn()),
            Change::Finish(Status::Finished {
                outcome: Outcome::Win(winner),
                reason: EndReason::Resignation,
            }) => Some(winner.other()),
            Change::Finish(Status::Finished {
                reason: EndReason::Agreement,
                ..
            }) => live.meta.draw_offer.map(Color::other),
            _ => None,
        }
    }
}

/// A change stored and published: the game after it, who made it, whether the game was over
/// before it.
pub struct GameChanged<'a> {
    pub live: &'a LiveGame,
    pub acted: Option<Color>,
    pub was_over: bool,
}

/// What another service does when a game changed: the game service tells its listeners after
/// every stored change, in order, under the game's lock (a listener keeps it short). The
/// composition root registers them, so that the game service knows none of them.
pub trait GameListener: Send + Sync {
    fn changed<'a>(&'a self, change: &'a GameChanged<'a>) -> BoxFuture<'a, ()>;
}

/// The client an engine job is counted for when nobody in particular asked (a restart).
pub const NOBODY: Client = IpAddr::V4(Ipv4Addr::UNSPECIFIED);

/// A game in memory.
#[derive(Clone)]
pub struct LiveGame {
    pub meta: GameMeta,
    pub game: AnyGame,
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
    /// [`emergo_platform::store::Store`]).
    pub version: i64,
    /// Where the time comes from, for the clock figures of its views.
    pub time: Clock,
    /// The players' ratings the game page shows (issue 18; read from the database, not stored
    /// with the game).
    pub ratings: crate::services::games::ratings::GameRatings,
}

impl LiveGame {
    pub fn new(meta: GameMeta, game: AnyGame) -> LiveGame {
        LiveGame {
            meta,
            game,
            engine_thinking: false,
            generation: 0,
            cancel: Arc::new(AtomicBool::new(false)),
            engine_client: NOBODY,
            version: 0,
            time: Clock::system(),
            ratings: Default::default(),
        }
    }

    /// Whether the game's clock runs (a timed game, started and not over).
    pub fn clock_running(&self) -> bool {
        !self.game.is_over() && self.meta.clock.is_some_and(|c| c.running())
    }

    /// The seat a timed game waits for before anyone may move: its clock starts when both seats
    /// are taken, and no move is played before that. The one rule for the API's refusal and
    /// the view's `waiting_for`.
    pub fn waiting_for(&self) -> Option<Color> {
        if self.game.is_over() || self.meta.clock.is_none_or(|c| c.running()) {
            return None;
        }
        let empty = Color::ALL
            .into_iter()
            .find(|&c| !self.meta.seats[c].joined());
        Some(empty.unwrap_or_else(|| self.game.turn().other()))
    }

    /// When the flag of the side to move falls (the last millisecond a move is accepted), while
    /// its clock runs.
    pub fn flag_at(&self) -> Option<i64> {
        if self.game.is_over() {
            return None;
        }
        self.meta.clock?.flag_at(self.game.turn())
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
        self.meta.engine_to_move(&self.game)
    }
}

/// One game's lock and channel.
pub struct GameSlot {
    id: String,
    /// The per-game lock: held across the database write of every change.
    pub state: tokio::sync::Mutex<LiveGame>,
    /// Every new state, as a delta: the WebSocket message of the view paged from the first ply
    /// the change touched (docs/api.md, "Deltas"), one shared text for every watcher.
    pub updates: broadcast::Sender<Arc<Published>>,
    /// A hint is being computed (one at a time per game, so that hints cannot crowd the
    /// engine's workers).
    pub hinting: AtomicBool,
    /// The chat's messages (src/services/games/chat.rs), one shared text each, for the game's WebSockets.
    pub chat: broadcast::Sender<Arc<crate::services::games::chat::ChatPush>>,
    /// The latest delta published, and the few before it (for a WebSocket that fell behind).
    published: Mutex<Recent>,
    /// The whole view's JSON text at a version, built when first asked for (never while the
    /// clock runs: its figures go down) and dropped by the next change or to make room.
    whole: Mutex<Option<(u64, Bytes)>>,
    /// Held while the whole view's text is built (one build at a time).
    building: tokio::sync::Mutex<()>,
    /// The version of the latest state (read without the game's lock).
    version: AtomicI64,
    /// The game's clock runs: its figures go down, so a view is made when asked for.
    clock_running: AtomicBool,
    /// What the game in memory costs, estimated ([`estimate_bytes`]), without the whole
    /// view's text.
    game_bytes: AtomicUsize,
    last_used: Mutex<Instant>,
    /// Its spectators on this instance (issue 18).
    pub watchers: Arc<crate::services::games::watching::Watchers>,
    /// Its players connected to this instance (issue 24).
    pub presence: Arc<crate::services::games::watching::Presence>,
}

/// A published state: its delta's WebSocket message, and where it stands.
pub struct Published {
    /// Counts the states this instance published for the game (a WebSocket skips those it
    /// has sent, or that its first state already holds).
    pub seq: u64,
    /// The lists of the message start at this ply (everything before it is unchanged).
    pub from: usize,
    /// The game's ply after the change.
    pub ply: usize,
    /// `{"type": "state", "game": <the view paged from `from`>}`.
    pub text: Utf8Bytes,
}

/// The latest published states, newest last.
struct Recent(VecDeque<Arc<Published>>);

/// Published states kept for a WebSocket that fell behind.
const RECENT: usize = 32;

impl Recent {
    fn latest(&self) -> Option<&Arc<Published>> {
        self.0.back()
    }

    /// The lowest ply touched by the states after `seq`, when they are all still kept.
    fn touched_since(&self, seq: u64) -> Option<usize> {
        let oldest = self.0.front()?.seq;
        if oldest > seq + 1 {
            return None;
        }
        self.0.iter().filter(|p| p.seq > seq).map(|p| p.from).min()
    }
}

/// Whether a request holds the game or a WebSocket watches it (the cache's own reference
/// aside).
fn in_use(slot: &Arc<GameSlot>) -> bool {
    Arc::strong_count(slot) > 1 || slot.updates.receiver_count() > 0
}

/// How often [`Shared::act`] decides again after losing a race to another instance.
const MAX_TRIES: usize = 5;

/// Views of more plies than this are built off the game's lock ([`Shared::view_text`]).
pub const SMALL_VIEW: usize = 64;

/// Big views built at once.
const VIEWS_AT_ONCE: usize = 2;

/// What a view's JSON text takes per ply, about (its move, position and board).
const VIEW_BYTES_PER_PLY: usize = 1400;

/// KiB of big answers' texts that are not shared (views paged from a ply, views of a game whose
/// clock runs) that may wait to be written out at once; more wait for room.
const ANSWER_KIB: usize = 64 << 10;

/// An answer's text and its room in the answers' budget, given back when the text is dropped.
struct Counted {
    text: Vec<u8>,
    _room: tokio::sync::OwnedSemaphorePermit,
}

impl AsRef<[u8]> for Counted {
    fn as_ref(&self) -> &[u8] {
        &self.text
    }
}

/// States a slow WebSocket may fall behind before it is sent one catching-up state.
const UPDATES_BUFFERED: usize = 8;

/// What a game in memory costs, estimated: its positions and moves (with the position
/// history R10.3 keeps), and its metadata.
pub fn estimate_bytes(live: &LiveGame) -> usize {
    // The largest board's position (the hexagon's 55 cell numbers).
    const POSITION: usize = {
        let (a, b) = (
            std::mem::size_of::<emergo_core::Position>(),
            std::mem::size_of::<emergo_core::position::Position<emergo_core::HexEmergo>>(),
        );
        if a > b {
            a
        } else {
            b
        }
    };
    const PER_PLY: usize = POSITION
        + std::mem::size_of::<AnyMove>()
        // The repetition history: a key in a list and a count in a map.
        + 48;
    const FIXED: usize = 4096;
    let tags: usize = live
        .meta
        .tags
        .iter()
        .map(|(k, v)| k.len() + v.len() + 48)
        .sum();
    FIXED + tags + (live.game.ply() + 1) * PER_PLY
}

impl GameSlot {
    fn new(live: LiveGame) -> GameSlot {
        let ply = live.game.ply();
        let first = Published {
            seq: 0,
            from: ply,
            ply,
            text: delta_message(&live, ply),
        };
        let version = AtomicI64::new(live.version);
        let clock_running = AtomicBool::new(live.clock_running());
        let game_bytes = AtomicUsize::new(estimate_bytes(&live) + first.text.len());
        GameSlot {
            id: live.meta.id.clone(),
            version,
            clock_running,
            game_bytes,
            state: tokio::sync::Mutex::new(live),
            updates: broadcast::channel(UPDATES_BUFFERED).0,
            chat: broadcast::channel(crate::services::games::chat::PUSHES_BUFFERED).0,
            hinting: AtomicBool::new(false),
            published: Mutex::new(Recent(VecDeque::from([Arc::new(first)]))),
            whole: Mutex::new(None),
            building: tokio::sync::Mutex::new(()),
            last_used: Mutex::new(Instant::now()),
            watchers: Default::default(),
            presence: Default::default(),
        }
    }

    /// The game's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The latest delta published (no lock on the game).
    pub fn latest(&self) -> Option<Arc<Published>> {
        self.recent().latest().cloned()
    }

    /// The lowest ply the states published after `seq` touched (`None` when some of them are
    /// no longer kept).
    pub fn touched_since(&self, seq: u64) -> Option<usize> {
        self.recent().touched_since(seq)
    }

    fn recent(&self) -> std::sync::MutexGuard<'_, Recent> {
        self.published.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn whole_text(&self) -> std::sync::MutexGuard<'_, Option<(u64, Bytes)>> {
        self.whole.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The sequence number of the latest published state.
    pub fn seq(&self) -> u64 {
        self.latest().map_or(0, |p| p.seq)
    }

    /// The whole view's text, when it is kept for the latest state.
    pub fn cached_whole(&self) -> Option<Bytes> {
        let seq = self.seq();
        match &*self.whole_text() {
            Some((s, text)) if *s == seq && !self.clock_running() => Some(text.clone()),
            _ => None,
        }
    }

    /// Keeps the whole view's text of the state published as `seq` (unless the game changed
    /// since, or its clock runs).
    pub(crate) fn keep_whole(&self, seq: u64, text: Bytes) {
        if seq == self.seq() && !self.clock_running() {
            *self.whole_text() = Some((seq, text));
        }
    }

    /// Drops the whole view's text (to make room); what it weighed.
    fn drop_whole(&self) -> usize {
        self.whole_text().take().map_or(0, |(_, text)| text.len())
    }

    /// What the game costs in memory, estimated: the game, its latest delta, and the whole
    /// view's text when it is kept.
    pub fn bytes(&self) -> usize {
        let whole = self.whole_text().as_ref().map_or(0, |(_, t)| t.len());
        self.game_bytes.load(Ordering::SeqCst) + whole
    }

    /// Whether the game's clock runs (its figures go down).
    pub fn clock_running(&self) -> bool {
        self.clock_running.load(Ordering::SeqCst)
    }

    fn touch(&self) {
        if let Ok(mut t) = self.last_used.lock() {
            *t = Instant::now();
        }
    }

    fn idle_for(&self) -> Duration {
        self.last_used
            .lock()
            .map_or(Duration::ZERO, |t| t.elapsed())
    }

    /// Sends the new state to every WebSocket of the game, as a delta from the lowest ply the
    /// change touched (the lower of the ply before and after it). Called with the lock held, so
    /// that the states go out in the order they were made.
    pub fn publish(&self, live: &LiveGame) {
        self.publish_from(live, usize::MAX);
    }

    /// [`GameSlot::publish`] for a change that touched the game from ply `from` on, or lower
    /// (a game re-read after another instance changed it).
    pub fn publish_from(&self, live: &LiveGame, from: usize) {
        let before = self.latest().map_or(0, |p| p.ply);
        let from = from.min(before).min(live.game.ply());
        self.clock_running
            .store(live.clock_running(), Ordering::SeqCst);
        self.version.store(live.version, Ordering::SeqCst);
        *self.whole_text() = None;
        let published = {
            let mut recent = self.recent();
            let seq = recent.latest().map_or(0, |p| p.seq + 1);
            let published = Arc::new(Published {
                seq,
                from,
                ply: live.game.ply(),
                text: delta_message(live, from),
            });
            if recent.0.len() >= RECENT {
                recent.0.pop_front();
            }
            recent.0.push_back(published.clone());
            published
        };
        self.game_bytes.store(
            estimate_bytes(live) + published.text.len(),
            Ordering::SeqCst,
        );
        let _ = self.updates.send(published);
    }
}

/// What comes before the game in a state message.
pub const STATE_PREFIX: &str = r#"{"type":"state","game":"#;

/// The WebSocket message of the view paged from ply `from`:
/// `{"type": "state", "game": GameView}` (docs/api.md).
pub fn delta_message(live: &LiveGame, from: usize) -> Utf8Bytes {
    state_text(&GameView::paged(live, from))
}

/// The WebSocket message of a view.
pub fn state_text(view: &GameView) -> Utf8Bytes {
    let game = serde_json::to_string(view).unwrap_or_else(|_| "null".into());
    Utf8Bytes::from(format!("{STATE_PREFIX}{game}}}"))
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
    /// Big views being built now (off the games' locks, on blocking threads).
    views: tokio::sync::Semaphore,
    /// Room for big answers' texts that are not shared, in KiB ([`ANSWER_KIB`]).
    answers: Arc<tokio::sync::Semaphore>,
    /// Turns true when the server shuts down; WebSockets close then.
    pub shutdown: watch::Receiver<bool>,
    /// With PostgreSQL, the engine's replies and hints are jobs in the database (`jobs`).
    pub(crate) jobs: std::sync::OnceLock<Arc<crate::services::games::jobs::JobQueue>>,
    /// Where the clocks' time comes from.
    pub clock: Clock,
    /// This instance's timers of flag falls.
    pub flags: FlagTimers,
    /// Who hears of every stored change (the notifications; wired by the composition root).
    listeners: Vec<Arc<dyn GameListener>>,
    /// The watch page's latest list (issue 18).
    pub watch_list: crate::services::games::watching::WatchList,
    /// The chat's rate limits (src/services/games/chat.rs).
    pub chat: crate::services::games::chat::Chat,
}

pub type AppState = Arc<Shared>;

impl Shared {
    /// Stores a new game, drawing another id in the unlikely case that its id is taken.
    pub async fn insert_with_fresh_id(
        &self,
        meta: &mut GameMeta,
        game: &AnyGame,
    ) -> Result<(), ServiceError> {
        for _ in 0..5 {
            match self.store.insert_game(meta, game).await {
                Ok(()) => return Ok(()),
                Err(StoreError::Conflict(_)) => {
                    meta.id = emergo_platform::domain::model::new_game_id()
                }
                Err(err) => return Err(err.into()),
            }
        }
        Err(ServiceError::internal("no free game id found"))
    }

    pub fn new(
        store: Store,
        pool: EnginePool,
        limits: Limits,
        shutdown: watch::Receiver<bool>,
        clock: Clock,
        listeners: Vec<Arc<dyn GameListener>>,
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
            views: tokio::sync::Semaphore::new(VIEWS_AT_ONCE),
            answers: Arc::new(tokio::sync::Semaphore::new(ANSWER_KIB)),
            games: Mutex::new(HashMap::new()),
            shutdown,
            jobs: std::sync::OnceLock::new(),
            clock,
            flags: FlagTimers::default(),
            listeners,
            watch_list: Default::default(),
            chat: crate::services::games::chat::Chat::default(),
        }
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<GameSlot>>> {
        // A panic elsewhere while holding this lock leaves the map itself intact.
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The game `id`, from the cache or else from the database; `not_found` when unknown.
    pub async fn slot(self: &Arc<Self>, id: &str) -> Result<Arc<GameSlot>, ServiceError> {
        if id.len() > 64 {
            return Err(ServiceError::game_not_found(id));
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
            .map_err(ServiceError::internal)?
            .ok_or_else(|| ServiceError::game_not_found(id))?;
        let ratings = crate::services::games::ratings::load(&self.store, &stored.meta)
            .await
            .unwrap_or_else(|err| {
                tracing::warn!(game = %id, "cannot read the players' ratings: {err}");
                Default::default()
            });
        let (slot, inserted) = {
            let mut games = self.games();
            match games.get(id) {
                // Someone else loaded it meanwhile: theirs is the one.
                Some(slot) => (slot.clone(), false),
                None => {
                    let mut live = LiveGame::new(stored.meta, stored.game);
                    live.version = stored.version;
                    live.time = self.clock.clone();
                    live.ratings = ratings;
                    let slot = Arc::new(GameSlot::new(live));
                    games.insert(id.to_string(), slot.clone());
                    (slot, true)
                }
            }
        };
        if inserted {
            self.make_room();
            // A change stored by another instance between the load and the insert had its
            // wake-up find no cached game: the version read now (after the insert) sees it.
            self.make_current(&slot).await?;
            // After a restart, an engine whose reply was not stored yet thinks again.
            let mut live = slot.state.lock().await;
            self.schedule_flag(&live);
            if live.engine_to_move() && !live.engine_thinking {
                self.schedule_engine(&slot, &mut live);
                slot.publish(&live);
            }
        }
        Ok(slot)
    }

    /// The game `id` when it is in memory (nothing is read from the database).
    pub fn cached_slot(&self, id: &str) -> Option<Arc<GameSlot>> {
        self.games().get(id).cloned()
    }

    /// Puts a new game into the cache.
    pub fn insert(self: &Arc<Self>, mut live: LiveGame) -> Arc<GameSlot> {
        live.time = self.clock.clone();
        let id = live.meta.id.clone();
        self.schedule_flag(&live);
        let accounts = live.meta.players.white.is_some() || live.meta.players.black.is_some();
        let slot = Arc::new(GameSlot::new(live));
        self.games().insert(id, slot.clone());
        self.make_room();
        if accounts {
            // The players' ratings come in a second state.
            crate::services::games::ratings::refresh_later(self, &slot, false);
        }
        slot
    }

    /// Has this instance look at the game when its running clock's flag falls.
    pub fn schedule_flag(&self, live: &LiveGame) {
        if let Some(at) = live.flag_at() {
            self.flags.schedule(at + 1, &live.meta.id);
        }
    }

    /// Drops from memory the games nobody has used for `idle` and nobody holds or watches;
    /// they come back from the database when asked for.
    pub fn evict_idle(&self, idle: Duration) -> usize {
        let mut games = self.games();
        let before = games.len();
        games.retain(|_, slot| in_use(slot) || slot.idle_for() < idle);
        before - games.len()
    }

    /// Beyond [`Limits::cache_bytes`] (the games' estimated [`GameSlot::bytes`]), drops what
    /// was least recently used: a kept whole view's text, and the games nobody holds or
    /// watches (they come back from the database when asked for).
    pub fn make_room(&self) {
        let budget = self.limits.cache_bytes;
        let mut games = self.games();
        let mut total: usize = games.values().map(|slot| slot.bytes()).sum();
        if total <= budget {
            return;
        }
        let mut by_age: Vec<(Duration, String)> = games
            .iter()
            .map(|(id, slot)| (slot.idle_for(), id.clone()))
            .collect();
        // The longest idle first.
        by_age.sort_by_key(|entry| std::cmp::Reverse(entry.0));
        let mut dropped = 0;
        for (_, id) in by_age {
            if total <= budget {
                break;
            }
            let Some(slot) = games.get(&id) else { continue };
            if in_use(slot) {
                total = total.saturating_sub(slot.drop_whole());
            } else {
                total = total.saturating_sub(slot.bytes());
                games.remove(&id);
                dropped += 1;
            }
        }
        tracing::debug!("{dropped} games dropped from memory to make room ({total} bytes kept)");
    }

    /// The JSON text of the game's view paged from ply `from` (0: the whole view). A view of
    /// more than [`SMALL_VIEW`] plies is built from a copy of the game taken under its lock,
    /// after it, on a blocking thread, a few at a time; the whole view's text is kept for the
    /// next reader until the game changes (within the cache's budget).
    pub async fn view_text(
        &self,
        slot: &Arc<GameSlot>,
        from: usize,
    ) -> Result<Bytes, ServiceError> {
        if from == 0 {
            if let Some(text) = slot.cached_whole() {
                return Ok(text);
            }
        }
        let plies = {
            let live = slot.state.lock().await;
            let from = from.min(live.game.ply());
            let plies = live.game.ply() - from;
            if plies <= SMALL_VIEW {
                let text = serde_json::to_vec(&GameView::paged(&live, from))
                    .map_err(ServiceError::internal)?;
                return Ok(Bytes::from(text));
            }
            plies
        };
        // One build of a game's whole view at a time: the readers that wait take its text.
        let _one = match from {
            0 => Some(slot.building.lock().await),
            _ => None,
        };
        if from == 0 {
            if let Some(text) = slot.cached_whole() {
                return Ok(text);
            }
        }
        // A text that is not shared counts in the answers' budget for as long as it lives
        // (until it is written out, or its connection is closed).
        let counted = match from == 0 && !slot.clock_running() {
            true => None,
            false => {
                let kib = (plies.saturating_mul(VIEW_BYTES_PER_PLY) >> 10).clamp(1, ANSWER_KIB);
                let permits = self
                    .answers
                    .clone()
                    .acquire_many_owned(kib as u32)
                    .await
                    .map_err(ServiceError::internal)?;
                Some(permits)
            }
        };
        let _turn = self.views.acquire().await.map_err(ServiceError::internal)?;
        let (copy, seq, from) = {
            let live = slot.state.lock().await;
            let from = from.min(live.game.ply());
            (live.clone(), slot.seq(), from)
        };
        let text =
            tokio::task::spawn_blocking(move || serde_json::to_vec(&GameView::paged(&copy, from)))
                .await
                .map_err(ServiceError::internal)?
                .map_err(ServiceError::internal)?;
        let text = match counted {
            None => Bytes::from(text),
            Some(room) => Bytes::from_owner(Counted { text, _room: room }),
        };
        if from == 0 {
            slot.keep_whole(seq, text.clone());
            self.make_room();
        }
        Ok(text)
    }

    /// What the games in memory cost, estimated, in bytes.
    pub fn cached_bytes(&self) -> usize {
        self.games().values().map(|slot| slot.bytes()).sum()
    }

    /// The number of games in memory.
    pub fn cached(&self) -> usize {
        self.games().len()
    }

    /// When other instances share the database, checks that the cached game is the stored one
    /// (one read of its version) and re-reads it when it is not, so that no request is answered
    /// from a game another instance has changed since. A database that cannot be reached is
    /// `database_unavailable`.
    async fn make_current(self: &Arc<Self>, slot: &Arc<GameSlot>) -> Result<(), ServiceError> {
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
    /// requests exactly one changes the game when only one can. A timed game whose flag has
    /// fallen ends on time first (a move that comes too late finds the game over): the clock
    /// is read with the same version `decide` sees. Returns the game's lock.
    pub async fn act<'a, F>(
        self: &Arc<Self>,
        slot: &'a Arc<GameSlot>,
        client: Client,
        mut decide: F,
    ) -> Result<tokio::sync::MutexGuard<'a, LiveGame>, ServiceError>
    where
        F: FnMut(&LiveGame) -> Result<Option<Change>, ServiceError>,
    {
        let mut live = slot.state.lock().await;
        for _ in 0..MAX_TRIES {
            let flag_fell = live.flag_at().is_some_and(|at| self.clock.now_ms() > at);
            let decided = if flag_fell {
                Ok(Some(Change::Flag))
            } else {
                decide(&live)
            };
            match decided {
                Ok(Some(change)) => {
                    if self.try_apply(slot, &mut live, change, client).await? && !flag_fell {
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
        Err(ServiceError::Busy {
            cap: "game_changes",
            message: "the game keeps changing under this request; try again".to_string(),
        })
    }

    /// Whether `live` is the stored game (always, when no other instance shares the database).
    async fn is_current(&self, live: &LiveGame) -> Result<bool, ServiceError> {
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
    ) -> Result<(), ServiceError> {
        let ply = live.game.ply();
        let late = match &change {
            Change::Move(_) => None,
            Change::Finish(_) => Some(ServiceError::GameOver(
                "the game is over already".to_string(),
            )),
            Change::Seat { .. } => Some(ServiceError::SeatTaken(
                "both seats of this game are taken".to_string(),
            )),
            Change::Takeback { .. } | Change::DrawOffer(_) | Change::TakebackOffer(_) => Some(
                ServiceError::NotAllowed("the game changed meanwhile; look again".to_string()),
            ),
            Change::RematchOffer { .. } | Change::Rematched { .. } => {
                Some(ServiceError::NotAllowed(
                    "the rematch offer changed meanwhile; look at the game again".to_string(),
                ))
            }
            Change::Flag => Some(ServiceError::GameOver(
                "the game changed meanwhile".to_string(),
            )),
            Change::Berserk(_) => Some(ServiceError::NotAllowed(
                "the game changed meanwhile, or you went berserk already".to_string(),
            )),
        };
        if self.try_apply(slot, live, change, client).await? {
            return Ok(());
        }
        Err(late.unwrap_or(ServiceError::StalePly {
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
    ) -> Result<bool, ServiceError> {
        let now = now_text();
        let now_ms = self.clock.now_ms();
        let id = live.meta.id.clone();
        let version = live.version;
        let turn = live.game.turn();
        let (acted, was_over) = (change.actor(live), live.game.is_over());
        let stored = match change {
            Change::Move(mv) => {
                let ply = live.game.ply();
                let mut clock = live.meta.clock;
                if let Some(clock) = clock.as_mut() {
                    // Refused when the flag fell since `act` looked: the timer ends the game.
                    clock.after_move(turn, now_ms).map_err(|flagged| {
                        ServiceError::GameOver(format!("the game is lost on time: {flagged}"))
                    })?;
                }
                live.game
                    .play(mv)
                    .map_err(|e| ServiceError::IllegalMove(e.to_string()))?;
                let status = live.game.status();
                if let Some(clock) = clock.as_mut().filter(|_| status != Status::Ongoing) {
                    // The game ended on this move: the clock stops.
                    clock.turn_started = None;
                }
                let text = mv.to_string();
                let write = MoveWrite {
                    version,
                    ply,
                    text: &text,
                    status,
                    clock: ClockColumns::of(clock.as_ref(), live.game.turn()),
                    now: &now,
                };
                let stored = self.store.append_move(&id, &write).await;
                if stored.is_ok() {
                    live.meta.draw_offer = None;
                    live.meta.takeback = Default::default();
                    live.meta.clock = clock;
                    metrics::counter!(emergo_platform::domain::metrics::MOVES_ACCEPTED)
                        .increment(1);
                } else {
                    live.game.undo();
                }
                stored
            }
            Change::Takeback { to } => {
                let mut clock = live.meta.clock;
                if let Some(clock) = clock.as_mut().filter(|c| c.running()) {
                    // The side to move is charged its time so far; the turn of the side to
                    // move after the takeback starts now.
                    clock.stop(turn, now_ms);
                    clock.start(now_ms);
                }
                let after = live.game.turn_at(to).unwrap_or(turn);
                let columns = ClockColumns::of(clock.as_ref(), after);
                let stored = self.store.truncate(&id, version, to, columns, &now).await;
                if stored.is_ok() {
                    while live.game.ply() > to {
                        live.game.undo();
                    }
                    live.cancel_engine();
                    self.cancel_jobs(&id).await;
                    live.meta.draw_offer = None;
                    live.meta.takeback = Default::default();
                    live.meta.clock = clock;
                }
                stored
            }
            Change::Finish(status) => {
                let mut clock = live.meta.clock;
                let status = match clock.as_mut() {
                    Some(clock) => {
                        clock.stop(turn, now_ms);
                        let rated = live.meta.players.rated.is_some();
                        ending::declared_ending(&live.game, status, rated)
                    }
                    None => status,
                };
                self.end(live, status, clock, &now).await?
            }
            Change::Flag => {
                let mut clock = live
                    .meta
                    .clock
                    .filter(|c| c.flagged(turn, now_ms) && !live.game.is_over())
                    .ok_or_else(|| ServiceError::NotAllowed("no flag has fallen".to_string()))?;
                let flag_at = clock.flag_at(turn).unwrap_or(now_ms);
                clock.left[turn] = 0;
                clock.turn_started = None;
                let status = ending::time_ending(&live.game, turn);
                let stored = self.end(live, status, Some(clock), &now).await?;
                if stored.is_ok() {
                    self.flags.record(now_ms - (flag_at + 1));
                }
                stored
            }
            Change::Berserk(color) => {
                let mut clock = live.meta.clock;
                if let Some(clock) = clock.as_mut() {
                    clock.left[color] /= 2;
                }
                let columns = ClockColumns::of(clock.as_ref(), turn);
                let stored = self.store.berserk(&id, version, color, columns, &now).await;
                if stored.is_ok() {
                    live.meta.clock = clock;
                    if let Some(mark) = live.meta.tournament.as_mut() {
                        mark.berserk[color] = true;
                    }
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
            Change::TakebackOffer(takeback) => {
                let stored = self
                    .store
                    .set_takeback(&id, version, takeback.offer, takeback.declined, &now)
                    .await;
                if stored.is_ok() {
                    live.meta.takeback = takeback;
                }
                stored
            }
            Change::Seat { color, token_hash } => {
                let mut seats = live.meta.seats.clone();
                seats[color].token_hash = Some(token_hash.clone());
                let mut clock = live.meta.clock;
                if let Some(clock) = clock.as_mut() {
                    let seated = seats.white.joined() && seats.black.joined();
                    if seated && !clock.running() && !live.game.is_over() {
                        // Both seats taken: the game starts, and the clock of the side to move.
                        clock.start(now_ms);
                    }
                }
                let columns = ClockColumns::of(clock.as_ref(), turn);
                let stored = self
                    .store
                    .take_seat(&id, version, color, &token_hash, columns, &now)
                    .await;
                if stored.is_ok() {
                    live.meta.seats = seats;
                    live.meta.clock = clock;
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
        self.schedule_flag(live);
        slot.publish(live);
        // A rated game that just ended: its ratings, once (then shown with their change).
        crate::services::games::ratings::settle_later(self, slot, &live.meta, &live.game);
        // Whoever listens hears of it (a correspondence game's players, of its turns and its
        // end: issue 18).
        let changed = GameChanged {
            live,
            acted,
            was_over,
        };
        for listener in &self.listeners {
            listener.changed(&changed).await;
        }
        Ok(true)
    }

    /// Stores the ending `status` of `live`'s game with its clock stopped at `clock`, and on
    /// success declares it in memory (the engine stops, the draw offer goes).
    async fn end(
        &self,
        live: &mut LiveGame,
        status: Status,
        clock: Option<emergo_platform::domain::clock::GameClock>,
        now: &str,
    ) -> Result<Result<(), StoreError>, ServiceError> {
        let Status::Finished { outcome, reason } = status else {
            return Err(ServiceError::internal("a finish without an ending"));
        };
        let id = live.meta.id.clone();
        let turn = live.game.turn();
        let columns = ClockColumns::of(clock.as_ref(), turn);
        let stored = self
            .store
            .finish(&id, live.version, status, columns, now)
            .await;
        if stored.is_ok() {
            live.game
                .declare(outcome, reason)
                .map_err(ServiceError::internal)?;
            live.meta.clock = clock;
            live.cancel_engine();
            self.cancel_jobs(&id).await;
            live.meta.draw_offer = None;
            live.meta.takeback.offer = None;
        }
        Ok(stored)
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
    pub(crate) async fn reload_and_publish(
        self: &Arc<Self>,
        slot: &Arc<GameSlot>,
        live: &mut LiveGame,
    ) {
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
        // The plies both games share are unchanged: the delta starts after them.
        let shared = live
            .game
            .move_texts()
            .iter()
            .zip(stored.game.move_texts())
            .take_while(|(a, b)| *a == b)
            .count();
        live.meta = stored.meta;
        live.game = stored.game;
        live.version = stored.version;
        live.cancel_engine();
        self.schedule_flag(live);
        if self.jobs().is_some() {
            // The engine's reply is a job row whichever instance stored the move: this one
            // shows the engine thinking too, and asks for the same reply (which adds nothing
            // when it is queued already, and queues it if the other instance could not).
            self.schedule_engine(slot, live);
        }
        slot.publish_from(live, shared);
        if live.meta.players.rated.is_some() && live.game.is_over() && !live.ratings.settled() {
            // Settled by the instance that ended it: its change comes once stored.
            crate::services::games::ratings::refresh_later(self, slot, true);
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
                        pool::choose_move(&game, level, cancel)
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
