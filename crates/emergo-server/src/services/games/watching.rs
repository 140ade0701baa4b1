//! Watching (issue 18): the spectators of a game (its WebSockets that are not its players',
//! counted once per account, or per address for those not signed in), and `GET /api/watch`,
//! the games being played now, the highest rated first.
//!
//! The count is this instance's: with several instances each counts the watchers it serves.

use crate::services::error::ServiceError;
use crate::services::games::AppState;
use emergo_platform::domain::model::unix_now;
use emergo_platform::domain::rating::START_RATING;
use emergo_platform::domain::time_control::{Category, TimeControl};
use emergo_platform::store::accounts::RatingRow;
use serde::Serialize;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// Who watches: an account, or an address for a watcher not signed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WatcherKey {
    Account(i64),
    Address(IpAddr),
}

/// A game's watchers on this instance: how many sockets each has open, and the count of
/// distinct watchers for the sockets to send.
pub struct Watchers {
    open: Mutex<HashMap<WatcherKey, u32>>,
    count: watch::Sender<usize>,
}

impl Default for Watchers {
    fn default() -> Watchers {
        Watchers {
            open: Mutex::new(HashMap::new()),
            count: watch::channel(0).0,
        }
    }
}

impl Watchers {
    fn open(&self) -> std::sync::MutexGuard<'_, HashMap<WatcherKey, u32>> {
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts a socket of `key` until the guard is dropped.
    pub fn watch(self: &Arc<Self>, key: WatcherKey) -> WatchGuard {
        let mut open = self.open();
        *open.entry(key).or_insert(0) += 1;
        let n = open.len();
        self.count
            .send_if_modified(|c| std::mem::replace(c, n) != n);
        WatchGuard {
            watchers: Arc::clone(self),
            key,
        }
    }

    fn unwatch(&self, key: WatcherKey) {
        let mut open = self.open();
        if let Some(sockets) = open.get_mut(&key) {
            *sockets -= 1;
            if *sockets == 0 {
                open.remove(&key);
            }
        }
        let n = open.len();
        self.count
            .send_if_modified(|c| std::mem::replace(c, n) != n);
    }

    /// Distinct watchers now.
    pub fn count(&self) -> usize {
        *self.count.borrow()
    }

    /// The count, as it changes.
    pub fn subscribe(&self) -> watch::Receiver<usize> {
        self.count.subscribe()
    }
}

/// One socket counted among a game's watchers while it lives.
pub struct WatchGuard {
    watchers: Arc<Watchers>,
    key: WatcherKey,
}

impl Drop for WatchGuard {
    fn drop(&mut self) {
        self.watchers.unwatch(self.key);
    }
}

/// A socket sends the watchers' count at most this often.
pub const COUNT_EVERY: Duration = Duration::from_secs(2);

/// The WebSocket message of a count.
pub fn count_message(count: usize) -> String {
    // Written by hand so that `type` comes first, as in every other message.
    format!(r#"{{"type":"watchers","count":{count}}}"#)
}

/// Games changed this recently are "being played now".
const PLAYED_WITHIN_SECS: i64 = 3600;

/// Games read for the list, the latest changed first; the list shows the best rated of them.
const READ_GAMES: u32 = 100;

/// Games the list shows.
const LISTED: usize = 30;

/// The list is made again at most this often (every reader in between gets the same).
pub const LIST_EVERY: Duration = Duration::from_secs(2);

/// The latest list made, with when.
#[derive(Default)]
pub struct WatchList(pub Mutex<Option<(Instant, WatchListView)>>);

/// `GET /api/watch`: the games being played now, the highest rated first.
#[derive(Clone, Debug, Serialize)]
pub struct WatchListView {
    games: Vec<WatchedGame>,
}

/// A game of the watch list.
#[derive(Clone, Debug, Serialize)]
pub struct WatchedGame {
    id: String,
    /// The board: `emergo`, `7x7` or `hex`.
    variant: &'static str,
    white: WatchedPlayer,
    black: WatchedPlayer,
    /// The category of a rated game; `null` for a casual one.
    rated: Option<String>,
    /// The category the ratings shown are of (a casual game's from its time control).
    category: Option<&'static str>,
    time_control: Option<String>,
    ply: i64,
    /// The watchers on this instance.
    watchers: usize,
    created_at: String,
    updated_at: String,
}

/// A player of a watched game: the name (`null` once the account is deleted), the rating in
/// the game's category (whole), whether it is provisional.
#[derive(Clone, Debug, Serialize)]
pub struct WatchedPlayer {
    name: Option<String>,
    deleted: bool,
    /// A bot account (issue 24); absent for a person.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    bot: bool,
    rating: i64,
    provisional: bool,
}

pub async fn make_list(state: &AppState) -> Result<WatchListView, ServiceError> {
    let now = unix_now();
    let since = emergo_platform::domain::model::format_unix_time(now - PLAYED_WITHIN_SECS);
    let rows = state.store.watch_games(&since, READ_GAMES).await?;
    let mut ratings: HashMap<i64, Vec<RatingRow>> = HashMap::new();
    let mut lines = Vec::with_capacity(rows.len());
    for row in rows {
        let control = row
            .time_control
            .as_deref()
            .and_then(|t| t.parse::<TimeControl>().ok());
        let category = row
            .rated
            .as_deref()
            .and_then(|c| c.parse::<Category>().ok())
            .or_else(|| control.map(|c| c.category()));
        // The players' ratings in the pool of the game's board.
        let variant = row
            .variant
            .parse::<emergo_core::VariantKind>()
            .unwrap_or(emergo_core::VariantKind::Emergo);
        let pool = category.map(|c| emergo_platform::domain::time_control::rating_pool(variant, c));
        for account in [row.white_account, row.black_account] {
            if let std::collections::hash_map::Entry::Vacant(e) = ratings.entry(account) {
                e.insert(state.store.ratings_of(account).await?);
            }
        }
        let side = |account: i64, name: Option<String>, bot: bool| {
            let (rating, rd) = pool
                .as_deref()
                .and_then(|pool| {
                    ratings
                        .get(&account)
                        .and_then(|rows| rows.iter().find(|r| r.category == pool))
                })
                .map(|r| r.rating_at(now))
                .map_or(
                    (START_RATING, emergo_platform::domain::rating::START_RD),
                    |r| (r.rating, r.rd),
                );
            (name, bot, rating, rd)
        };
        let white = side(row.white_account, row.white_name.clone(), row.white_bot);
        let black = side(row.black_account, row.black_name.clone(), row.black_bot);
        let mean = (white.2 + black.2) / 2.0;
        let player = |(name, bot, rating, rd): (Option<String>, bool, f64, f64)| WatchedPlayer {
            deleted: name.is_none(),
            name,
            bot,
            rating: rating.round() as i64,
            provisional: rd >= emergo_platform::domain::rating::LEADERBOARD_RD,
        };
        let watchers = state.cached_slot(&row.id).map_or(0, |s| s.watchers.count());
        lines.push((
            mean,
            WatchedGame {
                id: row.id,
                variant: variant.name(),
                white: player(white),
                black: player(black),
                rated: row.rated,
                category: category.map(Category::name),
                time_control: row.time_control,
                ply: row.ply,
                watchers,
                created_at: row.created_at,
                updated_at: row.updated_at,
            },
        ));
    }
    lines.sort_by(|a, b| b.0.total_cmp(&a.0));
    lines.truncate(LISTED);
    let games = lines.into_iter().map(|(_, line)| line).collect();
    Ok(WatchListView { games })
}

/// Which seats have their player connected on this instance (issue 24: a bot's game stream
/// says when its opponent is gone): a game WebSocket of the seat's account, a bot's game
/// stream. Counted per seat; a guard counts until dropped.
pub struct Presence(tokio::sync::watch::Sender<[usize; 2]>);

impl Default for Presence {
    fn default() -> Presence {
        Presence(tokio::sync::watch::channel([0, 0]).0)
    }
}

/// One connection of a seat's player; counted until dropped.
pub struct PresenceGuard {
    presence: Arc<Presence>,
    seat: usize,
}

impl Presence {
    /// Counts a connection of `color`'s player.
    pub fn enter(self: &Arc<Self>, color: emergo_core::Color) -> PresenceGuard {
        let seat = color.index();
        self.0.send_modify(|counts| counts[seat] += 1);
        PresenceGuard {
            presence: self.clone(),
            seat,
        }
    }

    /// The counts, told of each change.
    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<[usize; 2]> {
        self.0.subscribe()
    }
}

impl Drop for PresenceGuard {
    fn drop(&mut self) {
        let seat = self.seat;
        self.presence
            .0
            .send_modify(|counts| counts[seat] = counts[seat].saturating_sub(1));
    }
}
