//! Puzzles (issue 21, docs/api.md "Puzzles"): the shipped set loaded into an empty database,
//! the next puzzle for a caller, one puzzle, and a rated attempt (Glicko-2 for the account and
//! the puzzle, `domain::rating`: an attempt is one rated game between them, a replay counts for
//! nothing, an anonymous attempt changes nothing).

use crate::services::accounts::quota;
use crate::services::error::{echo, ServiceError};
use emergo_platform::domain::limits::Limits;
use emergo_platform::domain::model::now_text;
use emergo_platform::domain::puzzle::{self, PuzzleRecord};
use emergo_platform::domain::rating::{Rating, Score, START_RD, START_VOLATILITY};
use emergo_platform::store::puzzles::{NewAttempt, PuzzleQuery, PuzzleRow};
use emergo_platform::store::Store;
use governor::DefaultKeyedRateLimiter;
use serde::Serialize;
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// How many of the nearest fitting puzzles `next` picks one from at random.
const PICK_AMONG: u32 = 12;

/// The most callers whose last puzzle is remembered (then the memory starts again).
const MAX_REMEMBERED: usize = 10_000;

/// The longest theme or variant a query may name.
const MAX_WORD: usize = 24;

/// The puzzle service.
pub struct Puzzles {
    store: Store,
    /// `next` and attempts from one client address.
    rate: DefaultKeyedRateLimiter<IpAddr>,
    /// The puzzle each caller was last given (an account, or an address), so that the next
    /// `next` is another.
    last: Mutex<HashMap<String, String>>,
    picks: AtomicU64,
}

/// Who asks.
#[derive(Clone, Copy, Debug)]
pub struct Caller {
    pub account: Option<i64>,
    pub client: IpAddr,
}

impl Caller {
    fn key(&self) -> String {
        match self.account {
            Some(id) => format!("a{id}"),
            None => format!("c{}", self.client),
        }
    }
}

/// A puzzle's answer (`GET /api/puzzles/next`, `GET /api/puzzles/{id}`).
#[derive(Debug, Serialize)]
pub struct PuzzleView {
    pub id: String,
    pub variant: String,
    /// The position the solver faces (N2).
    pub position: String,
    /// The solution from it: the solver's moves and the replies alternating, the solver's
    /// first; forced plies included.
    pub line: Vec<String>,
    pub rating: i64,
    pub themes: Vec<String>,
    /// Replies of the opponent as good as the line's, by their index in the line.
    pub alternatives: Vec<puzzle::Alternative>,
}

/// `POST /api/puzzles/{id}/attempt`'s answer.
#[derive(Debug, Serialize)]
pub struct AttemptView {
    pub puzzle: PuzzleRatingView,
    /// The account's puzzle rating after the attempt; `null` when not signed in.
    pub player: Option<PlayerRatingView>,
}

#[derive(Debug, Serialize)]
pub struct PuzzleRatingView {
    pub rating: i64,
}

#[derive(Debug, Serialize)]
pub struct PlayerRatingView {
    pub rating: i64,
    pub rd: i64,
}

fn view(row: &PuzzleRow) -> PuzzleView {
    PuzzleView {
        id: row.id.clone(),
        variant: row.variant.clone(),
        position: row.position.clone(),
        line: row.line.split_whitespace().map(str::to_string).collect(),
        rating: row.rating.round() as i64,
        themes: row.themes.split_whitespace().map(str::to_string).collect(),
        alternatives: serde_json::from_str(&row.alternatives).unwrap_or_default(),
    }
}

/// A record as a row, at its starting rating.
pub fn row_of(record: &PuzzleRecord) -> PuzzleRow {
    PuzzleRow {
        id: record.id.clone(),
        variant: record.variant.clone(),
        position: record.position.clone(),
        line: record.line.join(" "),
        themes: record.themes.join(" "),
        alternatives: serde_json::to_string(&record.alternatives).unwrap_or_else(|_| "[]".into()),
        rating: f64::from(record.rating),
        rd: START_RD,
        volatility: START_VOLATILITY,
        attempts: 0,
    }
}

/// A word of a query: letters, digits and `_`, at most [`MAX_WORD`].
fn word(name: &str, value: &str) -> Result<(), ServiceError> {
    if value.is_empty()
        || value.len() > MAX_WORD
        || !value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        return Err(ServiceError::BadRequest(format!(
            "{name} '{}' is not a word of letters, digits and _",
            echo(value)
        )));
    }
    Ok(())
}

impl Puzzles {
    pub fn new(limits: &Limits, store: Store) -> Puzzles {
        Puzzles {
            store,
            rate: DefaultKeyedRateLimiter::keyed(quota(limits.puzzles_burst, limits.puzzles_every)),
            last: Mutex::new(HashMap::new()),
            picks: AtomicU64::new(0),
        }
    }

    /// Loads the shipped set when the database has no puzzle; how many were loaded.
    pub async fn load_shipped(&self) -> anyhow::Result<u64> {
        if self.store.puzzle_count().await? > 0 {
            return Ok(0);
        }
        let rows: Vec<PuzzleRow> = puzzle::shipped()?.iter().map(row_of).collect();
        Ok(self.store.insert_puzzles(&rows).await?)
    }

    fn check_rate(&self, client: IpAddr) -> Result<(), ServiceError> {
        self.rate.check_key(&client).map_err(|wait| {
            ServiceError::rate_limited_until(
                "puzzles_rate",
                "too many puzzle requests from this address",
                &wait,
            )
        })
    }

    /// Forgets limiter keys not seen for a while.
    pub fn forget_idle(&self) {
        self.rate.retain_recent();
    }

    /// A puzzle for `caller`: one of those nearest its puzzle rating (1500 anonymous), of
    /// `theme` if given, on `variant` (`emergo`), never the one it was just given, and for an
    /// account none it has tried.
    pub async fn next(
        &self,
        caller: Caller,
        theme: Option<&str>,
        variant: Option<&str>,
    ) -> Result<PuzzleView, ServiceError> {
        self.check_rate(caller.client)?;
        if let Some(t) = theme {
            word("theme", t)?;
        }
        let variant = variant.unwrap_or("emergo");
        word("variant", variant)?;
        let near = match caller.account {
            Some(id) => self
                .store
                .puzzle_rating(id)
                .await?
                .map_or(Rating::new().rating, |r| r.rating),
            None => Rating::new().rating,
        };
        let key = caller.key();
        let last = self
            .last
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .cloned();
        let rows = self
            .store
            .next_puzzles(&PuzzleQuery {
                variant,
                theme,
                account_id: caller.account,
                near,
                not: last.as_deref(),
                limit: PICK_AMONG,
            })
            .await?;
        if rows.is_empty() {
            return Err(ServiceError::NotFound(
                "no puzzle left that fits: another theme, perhaps".to_string(),
            ));
        }
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos() as u64);
        let pick =
            (nanos ^ self.picks.fetch_add(0x9E37_79B9, Ordering::Relaxed)) as usize % rows.len();
        let row = &rows[pick];
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if last.len() >= MAX_REMEMBERED {
            last.clear();
        }
        last.insert(key, row.id.clone());
        Ok(view(row))
    }

    async fn find(&self, id: &str) -> Result<PuzzleRow, ServiceError> {
        let found = if id.len() <= 16 {
            self.store.puzzle(id).await?
        } else {
            None
        };
        found.ok_or_else(|| ServiceError::NotFound(format!("no puzzle {}", echo(id))))
    }

    /// One puzzle.
    pub async fn get(&self, id: &str) -> Result<PuzzleView, ServiceError> {
        Ok(view(&self.find(id).await?))
    }

    /// An attempt: rated for an account's first try of the puzzle, nothing otherwise.
    pub async fn attempt(
        &self,
        caller: Caller,
        id: &str,
        win: bool,
    ) -> Result<AttemptView, ServiceError> {
        self.check_rate(caller.client)?;
        let row = self.find(id).await?;
        let Some(account_id) = caller.account else {
            return Ok(AttemptView {
                puzzle: PuzzleRatingView {
                    rating: row.rating.round() as i64,
                },
                player: None,
            });
        };
        let stored = self.store.puzzle_rating(account_id).await?;
        let player = stored.as_ref().map_or_else(Rating::new, |r| r.glicko());
        let puzzle = row.glicko();
        let score = if win { Score::Win } else { Score::Loss };
        let (player_after, puzzle_after) = rate(player, puzzle, score);
        let first = !self.store.tried_puzzle(account_id, id).await?
            && self
                .store
                .record_attempt(&NewAttempt {
                    account_id,
                    puzzle_id: id,
                    win,
                    player: player_after,
                    puzzle: puzzle_after,
                    at: &now_text(),
                })
                .await?;
        let (p, q) = if first {
            (player_after, puzzle_after)
        } else {
            (player, puzzle)
        };
        Ok(AttemptView {
            puzzle: PuzzleRatingView {
                rating: q.rating.round() as i64,
            },
            player: Some(PlayerRatingView {
                rating: p.rating.round() as i64,
                rd: p.rd.round() as i64,
            }),
        })
    }
}

/// One rated game between a player and a puzzle: both ratings after it (`score` is the
/// player's). The puzzle moves by the player's rating and RD: a new player's uncertain rating
/// moves it less.
pub fn rate(player: Rating, puzzle: Rating, score: Score) -> (Rating, Rating) {
    (
        player.after_game(&puzzle, score),
        puzzle.after_game(&player, score.flipped()),
    )
}
