//! Bot accounts and the API's streams (issue 24, docs/bots.md): an account that never played
//! becomes a bot for good; an account's event stream is told of its games and challenges
//! (everything current again on every connection, then what changes); a token's streams are
//! counted (at most [`STREAMS_PER_TOKEN`]) and end when it is revoked.
//!
//! The event stream is made from the store, not from events alone: each turn it reads the
//! account's current games and challenges and says what differs from what it said before
//! ([`Said`]). A notification of the account (a challenge came, a seek was taken) makes it look
//! at once; otherwise it looks every [`EVENT_TICK`]. So a stream on any instance, reconnected at
//! any time, says the same, and nothing it says depends on an event it might have missed.

use crate::services::error::ServiceError;
use crate::services::lobby::SeekView;
use emergo_platform::store::accounts::{AccountRow, PlayerGameRow, SeekRow};
use emergo_platform::store::Store;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::broadcast;

/// Streams one token may hold open at once (its event stream and its games').
pub const STREAMS_PER_TOKEN: usize = 64;

/// How often an event stream reads the account's games and challenges when nothing told it to.
pub const EVENT_TICK: Duration = Duration::from_secs(2);

/// A stream writes a keep-alive line (an empty one) when it has said nothing for this long.
pub const KEEP_ALIVE: Duration = Duration::from_secs(6);

/// How often a stream asks the store whether its token still lives (a revocation on another
/// instance; one here ends it at once).
pub const TOKEN_CHECK: Duration = Duration::from_secs(10);

/// Games an event stream follows at most (the newest).
pub const EVENT_GAMES: u32 = 100;

/// Declined challenges whose reason is kept for the challenger's stream.
const DECLINES_KEPT: usize = 10_000;

/// Why a challenge was declined (lichess's reasons).
pub const DECLINE_REASONS: [&str; 9] = [
    "generic",
    "later",
    "too_fast",
    "too_slow",
    "time_control",
    "rated",
    "casual",
    "variant",
    "no_bot",
];

/// The bot accounts' service: the streams' counts and the revocations they listen for.
pub struct Bots {
    store: Store,
    open: Mutex<HashMap<String, usize>>,
    revoked: broadcast::Sender<Arc<str>>,
    declined: Mutex<VecDeque<(String, &'static str)>>,
}

/// An open stream, counted for its token until dropped.
pub struct StreamPermit {
    bots: Arc<Bots>,
    token_hash: String,
}

impl Drop for StreamPermit {
    fn drop(&mut self) {
        let mut open = self.bots.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.token_hash) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.token_hash);
            }
        }
    }
}

impl Bots {
    pub fn new(store: Store) -> Arc<Bots> {
        Arc::new(Bots {
            store,
            open: Mutex::default(),
            revoked: broadcast::channel(64).0,
            declined: Mutex::default(),
        })
    }

    /// `POST /api/bot/account/upgrade`: `account` becomes a bot, if it never played.
    pub async fn upgrade(&self, account: &AccountRow) -> Result<(), ServiceError> {
        if account.bot {
            return Ok(());
        }
        if self.store.make_bot(account.id).await? {
            Ok(())
        } else {
            Err(ServiceError::NotAllowed(
                "only an account that has never played a game can become a bot account".to_string(),
            ))
        }
    }

    /// A stream for the token with this hash, unless it has [`STREAMS_PER_TOKEN`] open.
    pub fn open_stream(self: &Arc<Self>, token_hash: &str) -> Result<StreamPermit, ServiceError> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(token_hash.to_string()).or_insert(0);
        if *n >= STREAMS_PER_TOKEN {
            return Err(ServiceError::Busy {
                cap: "streams_per_token",
                message: format!(
                    "this token has {STREAMS_PER_TOKEN} streams open, the most it may: close one"
                ),
            });
        }
        *n += 1;
        Ok(StreamPermit {
            bots: self.clone(),
            token_hash: token_hash.to_string(),
        })
    }

    /// Streams open for the token with this hash.
    pub fn streams_of(&self, token_hash: &str) -> usize {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.get(token_hash).copied().unwrap_or(0)
    }

    /// Tells the streams of a token that it was revoked.
    pub fn revoked(&self, token_hash: &str) {
        let _ = self.revoked.send(Arc::from(token_hash));
    }

    /// The revocations, for a stream to end on its token's.
    pub fn revocations(&self) -> broadcast::Receiver<Arc<str>> {
        self.revoked.subscribe()
    }

    /// Whether the token with this hash still lives.
    pub async fn token_live(&self, token_hash: &str) -> Result<bool, ServiceError> {
        Ok(self.store.api_token_live(token_hash).await?)
    }

    /// Keeps the reason a challenge was declined, for its challenger's stream.
    pub fn declined(&self, seek: &str, reason: &'static str) {
        let mut kept = self.declined.lock().unwrap_or_else(|e| e.into_inner());
        if kept.len() >= DECLINES_KEPT {
            kept.pop_front();
        }
        kept.push_back((seek.to_string(), reason));
    }

    fn decline_reason(&self, seek: &str) -> Option<&'static str> {
        let kept = self.declined.lock().unwrap_or_else(|e| e.into_inner());
        kept.iter()
            .rev()
            .find(|(id, _)| id == seek)
            .map(|(_, r)| *r)
    }

    /// What `account`'s event stream sees now: its newest games and its open challenges.
    pub async fn current(&self, account: i64, now: i64) -> Result<Current, ServiceError> {
        let games = self.store.games_of(account, false, EVENT_GAMES).await?;
        let challenges = self
            .store
            .seeks_of(now, account, crate::services::lobby::LISTED_CHALLENGES)
            .await?
            .into_iter()
            .filter(|s| s.opponent_id.is_some())
            .collect();
        Ok(Current { games, challenges })
    }
}

/// What an event stream read: the account's newest games, its open challenges (to it and
/// from it).
pub struct Current {
    pub games: Vec<PlayerGameRow>,
    pub challenges: Vec<SeekRow>,
}

/// A line of the event stream (docs/bots.md).
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum EventLine {
    /// A game of the account is on (sent for each on connecting).
    GameStart { game: GameRef },
    /// A game of the account ended.
    GameFinish { game: GameRef },
    /// A challenge to the account, or from it.
    Challenge { challenge: SeekView },
    /// A challenge went without a game: withdrawn, expired.
    ChallengeCanceled { challenge: ChallengeRef },
    /// A challenge from the account was declined, and why.
    ChallengeDeclined { challenge: ChallengeRef },
}

/// A game as the event stream names it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct GameRef {
    pub id: String,
    /// The account's colour in it.
    pub color: &'static str,
    pub opponent: Option<String>,
    pub time: Option<String>,
    pub rated: bool,
    /// `white`, `black` or `draw` once it ended.
    pub result: Option<String>,
    pub reason: Option<String>,
}

/// A challenge as the event stream names it when it goes.
#[derive(Debug, Serialize)]
pub struct ChallengeRef {
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
}

/// What an event stream has said: the games it said are on, the challenges it told of.
#[derive(Default)]
pub struct Said {
    games: BTreeMap<String, ()>,
    challenges: BTreeMap<String, i64>,
}

impl Said {
    /// The challenges of `current` not told of yet (their views are made for [`Said::update`]).
    pub fn unseen(&self, current: &Current) -> Vec<SeekRow> {
        current
            .challenges
            .iter()
            .filter(|c| !self.challenges.contains_key(&c.id))
            .cloned()
            .collect()
    }

    /// The lines that bring the stream from what it said to `current`, for `account` (an
    /// accepted challenge goes silently: its game's start says it).
    pub fn update(
        &mut self,
        bots: &Bots,
        account: i64,
        current: &Current,
        mut views: Vec<SeekView>,
    ) -> Vec<EventLine> {
        let mut lines = Vec::new();
        for row in current.games.iter().rev() {
            let game = game_ref(row, account);
            let said = self.games.contains_key(&row.id);
            match (row.result.is_some(), said) {
                (false, false) => {
                    self.games.insert(row.id.clone(), ());
                    lines.push(EventLine::GameStart { game });
                }
                (true, true) => {
                    self.games.remove(&row.id);
                    lines.push(EventLine::GameFinish { game });
                }
                _ => {}
            }
        }
        // A game said to be on that is no longer among the newest: it went (a deleted game).
        let listed: Vec<&str> = current.games.iter().map(|g| g.id.as_str()).collect();
        self.games.retain(|id, ()| listed.contains(&id.as_str()));
        for row in &current.challenges {
            if !self.challenges.contains_key(&row.id) {
                let Some(at) = views.iter().position(|v| v.id() == row.id) else {
                    continue;
                };
                self.challenges.insert(row.id.clone(), row.account_id);
                lines.push(EventLine::Challenge {
                    challenge: views.swap_remove(at),
                });
            }
        }
        let open: Vec<&str> = current.challenges.iter().map(|c| c.id.as_str()).collect();
        let gone: Vec<(String, i64)> = self
            .challenges
            .iter()
            .filter(|(id, _)| !open.contains(&id.as_str()))
            .map(|(id, owner)| (id.clone(), *owner))
            .collect();
        for (id, owner) in gone {
            self.challenges.remove(&id);
            let accepted = current
                .games
                .iter()
                .any(|g| g.white_account == Some(owner) || g.black_account == Some(owner))
                && bots.decline_reason(&id).is_none();
            match bots.decline_reason(&id) {
                Some(reason) if owner == account => lines.push(EventLine::ChallengeDeclined {
                    challenge: ChallengeRef {
                        id,
                        reason: Some(reason),
                    },
                }),
                _ if accepted => {}
                _ => lines.push(EventLine::ChallengeCanceled {
                    challenge: ChallengeRef { id, reason: None },
                }),
            }
        }
        lines
    }
}

fn game_ref(row: &PlayerGameRow, account: i64) -> GameRef {
    let white = row.white_account == Some(account);
    GameRef {
        id: row.id.clone(),
        color: if white { "white" } else { "black" },
        opponent: if white {
            row.black_name.clone()
        } else {
            row.white_name.clone()
        },
        time: row.time_control.clone(),
        rated: row.rated.is_some(),
        result: row.result.clone(),
        reason: row.reason.clone(),
    }
}
