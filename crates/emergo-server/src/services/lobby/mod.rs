//! Seeks and challenges (issue 11): `POST/GET /api/seeks`, `GET/DELETE /api/seeks/{id}`,
//! `POST /api/seeks/{id}/accept`, and the lobby's WebSocket `GET /api/lobby/ws`.
//!
//! A seek is an account's wish for a game (a time control, rated or not, a colour); a challenge
//! is a seek only one named account may accept. Accepting stores the seek's game and marks the
//! seek taken in one transaction whose guarded update lets exactly one acceptance through. A
//! real-time seek lives while its owner is around: each request of the owner to the lobby's
//! endpoints (`GET /api/me`, `GET /api/seeks`, ...) and each minute of an open lobby WebSocket
//! pushes its end to 60 s later; a correspondence seek lives a week.
//!
//! An account has at most [`SEEKS_PER_ACCOUNT`] open seeks and [`CHALLENGES_PER_ACCOUNT`] open
//! challenges, and makes them at the rate `Limits::seeks_burst` / `seeks_every` allow. The list
//! shows the newest public seeks, always the viewer's own, and apart from them the challenges to
//! or from the viewer (issue 17 item 3: one account's flood of seeks hid everyone else's).

pub mod seeks;

use crate::services::accounts::quota;
use crate::services::error::{echo, ServiceError};
use emergo_platform::domain::limits::Limits;
use emergo_platform::domain::model::unix_now;
use emergo_platform::domain::rating::LEADERBOARD_RD;
use emergo_platform::domain::time_control::TimeControl;
use emergo_platform::store::accounts::{RatingRow, SeekRow};
use emergo_platform::store::Store;
use governor::DefaultKeyedRateLimiter;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use tokio::sync::broadcast;

/// A real-time seek lives this long after its owner was last around.
pub const SEEK_GRACE_SECS: i64 = 60;

/// A correspondence seek lives this long after it was made.
pub const CORRESPONDENCE_SEEK_SECS: i64 = 7 * 86_400;

/// Open public seeks one account may have.
pub const SEEKS_PER_ACCOUNT: i64 = 5;

/// Open challenges one account may have sent.
pub const CHALLENGES_PER_ACCOUNT: i64 = 10;

/// Games between two bot accounts one bot may begin in a day (issue 24): bots meet people
/// too.
pub const BOT_GAMES_PER_DAY: i64 = 100;

/// Public seeks a list shows at most (the newest), besides the viewer's own.
pub const LISTED_SEEKS: u32 = 200;

/// Challenges to or from the viewer a list shows at most (the newest).
pub const LISTED_CHALLENGES: u32 = 200;

/// How often an open lobby WebSocket keeps its account's seeks alive and looks for seeks taken
/// on another instance.
pub const LOBBY_TICK: Duration = Duration::from_secs(5);

/// What the lobby WebSockets are told.
#[derive(Clone, Debug)]
pub enum LobbyEvent {
    /// A seek came or went: the lobby reads the list again.
    SeeksChanged,
    /// The seek `seek` of `account` was taken: its game is `game`.
    Taken {
        account: i64,
        seek: String,
        game: String,
    },
}

/// The lobby's own state: how fast each account makes seeks, and the channel of the lobby
/// WebSockets.
pub struct Lobby {
    /// Seeks and challenges made by one account.
    pub seeks_rate: DefaultKeyedRateLimiter<i64>,
    /// Lobby events (seeks changed, a seek was taken) for the lobby WebSockets.
    pub events: broadcast::Sender<LobbyEvent>,
    /// The seeks, and the ratings their views show.
    store: Store,
}

impl Lobby {
    pub fn new(limits: &Limits, store: Store) -> Lobby {
        Lobby {
            seeks_rate: DefaultKeyedRateLimiter::keyed(quota(
                limits.seeks_burst,
                limits.seeks_every,
            )),
            events: broadcast::channel(64).0,
            store,
        }
    }

    /// Tells the lobby WebSockets to read the list again.
    pub fn changed(&self) {
        let _ = self.events.send(LobbyEvent::SeeksChanged);
    }

    /// Forgets limiter keys not seen for a while.
    pub fn forget_idle(&self) {
        self.seeks_rate.retain_recent();
    }
}

/// The colour a seek's owner asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeekColor {
    White,
    Black,
    Random,
}

impl SeekColor {
    pub fn name(self) -> &'static str {
        match self {
            SeekColor::White => "white",
            SeekColor::Black => "black",
            SeekColor::Random => "random",
        }
    }
}

pub fn time_control(text: &str) -> Result<TimeControl, ServiceError> {
    text.parse::<TimeControl>()
        .map_err(|e| ServiceError::BadRequest(format!("time {}: {e}", echo(text))))
}

/// A seek (or a challenge) as the API shows it, with its owner's current rating in the seek's
/// category.
#[derive(Clone, Debug, Serialize)]
pub struct SeekView {
    id: String,
    /// The board of the game it makes: `emergo`, `7x7` or `hex`.
    variant: &'static str,
    owner: String,
    /// Whether the owner is a bot account (issue 24).
    owner_bot: bool,
    /// Whether bot accounts may take this seek (a challenge names its opponent instead).
    allow_bots: bool,
    /// Rounded to a whole number (written as a float, `1500.0`).
    rating: f64,
    provisional: bool,
    /// The time control, `"3+2"`, `"corr:3"`.
    time: String,
    category: Option<&'static str>,
    rated: bool,
    /// `white`, `black` or `random`: the owner's.
    color: String,
    /// The challenged account's name; `null` for a public seek.
    opponent: Option<String>,
    /// Whether the challenged account is a bot account.
    opponent_bot: bool,
    /// The game, once taken.
    game: Option<String>,
    created_at: String,
}

impl SeekView {
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The view of `row`, its owner's rating read from `ratings`.
    pub fn with(row: &SeekRow, ratings: &[RatingRow]) -> SeekView {
        let tc = row.time_control.parse::<TimeControl>().ok();
        let category = tc.map(TimeControl::category);
        let variant = row
            .variant
            .parse::<emergo_core::VariantKind>()
            .unwrap_or(emergo_core::VariantKind::Emergo);
        let now = unix_now();
        // The owner's rating in the pool of the seek's board and category.
        let rating = category
            .map(|c| emergo_platform::domain::time_control::rating_pool(variant, c))
            .and_then(|pool| ratings.iter().find(|r| r.category == pool))
            .map(|r| r.rating_at(now))
            .unwrap_or_default();
        SeekView {
            id: row.id.clone(),
            variant: variant.name(),
            owner: row.owner.clone(),
            owner_bot: row.owner_bot,
            allow_bots: row.allow_bots,
            rating: rating.rating.round(),
            provisional: rating.rd >= LEADERBOARD_RD,
            time: row.time_control.clone(),
            category: category.map(|c| c.name()),
            rated: row.rated,
            color: row.color.clone(),
            opponent: row.opponent.clone(),
            opponent_bot: row.opponent_bot,
            game: row.game_id.clone(),
            created_at: row.created_at.clone(),
        }
    }
}

impl Lobby {
    /// Keeps the account's real-time seeks alive for [`SEEK_GRACE_SECS`] more.
    pub async fn owner_is_around(&self, account_id: i64) {
        let until = unix_now() + SEEK_GRACE_SECS;
        if let Err(err) = self.store.touch_seeks(account_id, until).await {
            tracing::warn!("cannot keep seeks alive: {err}");
        }
    }

    /// Deletes expired seeks; the sweeper calls it.
    pub async fn sweep(&self) {
        match self.store.sweep_seeks(unix_now()).await {
            Ok(0) => {}
            Ok(_) => self.changed(),
            Err(err) => tracing::warn!("cannot sweep seeks: {err}"),
        }
    }

    /// A seek as the API shows it, with its owner's current rating in the seek's category.
    async fn seek_view(&self, row: &SeekRow) -> SeekView {
        let ratings = self
            .store
            .ratings_of(row.account_id)
            .await
            .unwrap_or_default();
        SeekView::with(row, &ratings)
    }

    /// Seeks as the API shows them, each owner's ratings read once.
    pub async fn seek_views(&self, rows: &[SeekRow]) -> Vec<SeekView> {
        let mut ratings: std::collections::HashMap<i64, Vec<RatingRow>> = Default::default();
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            if let std::collections::hash_map::Entry::Vacant(slot) = ratings.entry(row.account_id) {
                let read = self.store.ratings_of(row.account_id).await;
                slot.insert(read.unwrap_or_default());
            }
            let theirs = ratings.get(&row.account_id).map_or(&[][..], Vec::as_slice);
            out.push(SeekView::with(row, theirs));
        }
        out
    }

    /// The seek `id` (404 `not_found` for none).
    pub async fn find(&self, id: &str) -> Result<SeekRow, ServiceError> {
        let found = if id.len() <= 64 {
            self.store.seek(id).await?
        } else {
            None
        };
        found.ok_or_else(|| ServiceError::NotFound(format!("there is no seek {}", echo(id))))
    }
}
