//! Puzzles (issue 21, docs/api.md "Puzzles"): the shipped set loaded into an empty database,
//! the next puzzle for a caller, one puzzle, and a rated attempt (Glicko-2 for the account and
//! the puzzle, `domain::rating`: an attempt is one rated game between them, a replay counts for
//! nothing, an anonymous attempt changes nothing); votes that retire bad puzzles, the daily
//! puzzle, runs of rising ratings for streak and storm, storm records, and the dashboard.

use crate::services::accounts::quota;
use crate::services::error::{echo, ServiceError};
use emergo_platform::domain::limits::Limits;
use emergo_platform::domain::model::now_text;
use emergo_platform::domain::puzzle::{self, PuzzleRecord};
use emergo_platform::domain::rating::{Rating, Score, START_RD, START_VOLATILITY};
use emergo_platform::store::puzzles::{
    AttemptStored, NewAttempt, PuzzleQuery, PuzzleRow, StormRun, RETIRED_AT,
};
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

/// How often an attempt is computed again when another attempt moved a rating first.
const ATTEMPT_TRIES: usize = 8;

/// The ratings a daily puzzle is chosen between (then among all, once those are used).
const DAILY_RATINGS: (f64, f64) = (1200.0, 2000.0);

/// The ratings a run (streak, storm) climbs from and to.
const RUN_RATINGS: (f64, f64) = (800.0, 2400.0);

/// The puzzles of a run: by default, and at the most.
const RUN_PUZZLES: (u32, u32) = (40, 60);

/// The attempts the dashboard reads (its themes are over these) and the recent ones it lists.
const DASHBOARD_ATTEMPTS: u32 = 1000;
const DASHBOARD_RECENT: usize = 20;

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
        votes_up: 0,
        votes_down: 0,
    }
}

/// `POST /api/puzzles/{id}/vote`'s answer: the puzzle's counts after the vote.
#[derive(Debug, Serialize)]
pub struct VoteView {
    pub up: i64,
    pub down: i64,
    /// Down votes lead by [`RETIRED_AT`] or more: no longer handed out.
    pub retired: bool,
}

/// `GET /api/puzzles/daily`: the day (UTC) and its puzzle.
#[derive(Debug, Serialize)]
pub struct DailyView {
    pub day: String,
    pub puzzle: PuzzleView,
}

/// `GET /api/puzzles/run`: puzzles of rising rating, for a streak or a storm.
#[derive(Debug, Serialize)]
pub struct RunView {
    pub puzzles: Vec<PuzzleView>,
}

/// A storm run as the page reports it (`POST /api/puzzles/storm`).
#[derive(Clone, Copy, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StormReport {
    /// Puzzles solved.
    pub score: u32,
    /// Moves played, right and wrong.
    pub moves: u32,
    /// Wrong moves.
    pub errors: u32,
    pub best_combo: u32,
    /// How long the run lasted.
    pub seconds: u32,
}

/// The account's storm record.
#[derive(Debug, Serialize)]
pub struct StormView {
    pub best: i64,
    pub best_at: String,
    pub runs: i64,
}

/// `GET /api/puzzles/dashboard`: the account's puzzle rating, attempts and storm record.
#[derive(Debug, Serialize)]
pub struct DashboardView {
    /// `null` before a first rated attempt.
    pub rating: Option<PlayerRatingView>,
    /// Over the last [`DASHBOARD_ATTEMPTS`] rated attempts.
    pub attempts: usize,
    pub wins: usize,
    /// Each theme of those attempts' puzzles, the most tried first.
    pub themes: Vec<ThemeView>,
    /// The newest attempts, the newest first.
    pub recent: Vec<RecentAttemptView>,
    /// `null` before a first run.
    pub storm: Option<StormView>,
}

#[derive(Debug, Serialize)]
pub struct ThemeView {
    pub theme: String,
    pub attempts: usize,
    pub wins: usize,
}

#[derive(Debug, Serialize)]
pub struct RecentAttemptView {
    pub id: String,
    pub win: bool,
    /// The account's puzzle rating after the attempt.
    pub rating_after: i64,
    /// The puzzle's rating now.
    pub puzzle_rating: i64,
    pub at: String,
}

/// A stable hash of a text (FNV-1a): the same day chooses the same puzzle on every instance.
fn stable_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The indices of a run of `count` puzzles out of `ratings` (sorted by rating): for each of
/// `count` targets climbing evenly over [`RUN_RATINGS`], one of the three unused puzzles nearest
/// it (chosen by `seed`), so that the run gets harder and two runs differ. Each target is found
/// by a binary search and its neighbours read outwards from there.
fn choose_run(ratings: &[f64], count: usize, mut seed: u64) -> Vec<usize> {
    let mut used = vec![false; ratings.len()];
    let mut run = Vec::with_capacity(count.min(ratings.len()));
    let (low, high) = RUN_RATINGS;
    for i in 0..count.min(ratings.len()) {
        let target = low + (high - low) * i as f64 / (count.max(2) - 1) as f64;
        // The three nearest unused, the nearer first (the lower on a tie).
        let at = ratings.partition_point(|&r| r < target);
        let (mut left, mut right) = (at, at);
        let mut near = Vec::with_capacity(3);
        while near.len() < 3 {
            while left > 0 && used[left - 1] {
                left -= 1;
            }
            while right < ratings.len() && used[right] {
                right += 1;
            }
            let below = (left > 0).then(|| target - ratings[left - 1]);
            let above = (right < ratings.len()).then(|| ratings[right] - target);
            let take_below = match (below, above) {
                (None, None) => break,
                (Some(b), Some(a)) => b <= a,
                (b, _) => b.is_some(),
            };
            if take_below {
                left -= 1;
                near.push(left);
            } else {
                near.push(right);
                right += 1;
            }
        }
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let Some(&pick) = near.get((seed >> 33) as usize % near.len().max(1)) else {
            break;
        };
        used[pick] = true;
        run.push(pick);
    }
    // In rising order: the nearest of three may be a little below the one before.
    run.sort_by(|&a, &b| ratings[a].total_cmp(&ratings[b]));
    run
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

    /// Adds the shipped puzzles the database lacks (all of them at first start; a new release's
    /// new ones later; a stored puzzle keeps its rating and votes); how many were added.
    pub async fn load_shipped(&self) -> anyhow::Result<u64> {
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
        let mut row = row;
        for tried in 0..ATTEMPT_TRIES {
            if tried > 0 {
                row = self.find(id).await?;
            }
            let stored = self.store.puzzle_rating(account_id).await?;
            let player = stored.as_ref().map_or_else(Rating::new, |r| r.glicko());
            let puzzle = row.glicko();
            let score = if win { Score::Win } else { Score::Loss };
            let (player_after, puzzle_after) = rate(player, puzzle, score);
            let outcome = self
                .store
                .record_attempt(&NewAttempt {
                    account_id,
                    puzzle_id: id,
                    win,
                    player: player_after,
                    puzzle: puzzle_after,
                    player_attempts: stored.as_ref().map_or(0, |r| r.attempts),
                    puzzle_attempts: row.attempts,
                    at: &now_text(),
                })
                .await?;
            let (p, q) = match outcome {
                AttemptStored::Rated => (player_after, puzzle_after),
                AttemptStored::Tried => (player, puzzle),
                // Another attempt moved a rating in between: read both again.
                AttemptStored::Stale => continue,
            };
            return Ok(AttemptView {
                puzzle: PuzzleRatingView {
                    rating: q.rating.round() as i64,
                },
                player: Some(PlayerRatingView {
                    rating: p.rating.round() as i64,
                    rd: p.rd.round() as i64,
                }),
            });
        }
        Err(ServiceError::DatabaseUnavailable(
            "this puzzle's rating is being changed by many attempts at once; try again".into(),
        ))
    }

    fn signed_in(caller: Caller) -> Result<i64, ServiceError> {
        caller
            .account
            .ok_or_else(|| ServiceError::Unauthorized("sign in first".into()))
    }

    /// The account's vote on a puzzle it has tried (a second vote replaces the first).
    pub async fn vote(&self, caller: Caller, id: &str, up: bool) -> Result<VoteView, ServiceError> {
        self.check_rate(caller.client)?;
        let account_id = Self::signed_in(caller)?;
        self.find(id).await?;
        if !self
            .store
            .vote_puzzle(account_id, id, up, &now_text())
            .await?
        {
            return Err(ServiceError::NotAllowed(
                "only a puzzle you have tried can have your vote".into(),
            ));
        }
        let row = self.find(id).await?;
        Ok(VoteView {
            up: row.votes_up,
            down: row.votes_down,
            retired: row.votes_down - row.votes_up >= RETIRED_AT,
        })
    }

    /// The puzzle of the day (UTC), chosen by the first request of the day: one of the puzzles
    /// rated within [`DAILY_RATINGS`] that never was the daily puzzle, by the day's hash.
    pub async fn daily(&self) -> Result<DailyView, ServiceError> {
        let day = now_text().get(..10).unwrap_or_default().to_string();
        if let Some(row) = self.store.daily_puzzle(&day).await? {
            return Ok(DailyView {
                day,
                puzzle: view(&row),
            });
        }
        let (low, high) = DAILY_RATINGS;
        let mut candidates = self.store.daily_candidates("emergo", low, high).await?;
        if candidates.is_empty() {
            candidates = self
                .store
                .daily_candidates("emergo", f64::MIN, f64::MAX)
                .await?;
        }
        let pick = stable_hash(&day) as usize % candidates.len().max(1);
        let Some(id) = candidates.get(pick) else {
            return Err(ServiceError::NotFound("no puzzle for today".into()));
        };
        self.store.choose_daily(&day, id).await?;
        // Another instance may have chosen first: its choice stands.
        let row = self
            .store
            .daily_puzzle(&day)
            .await?
            .ok_or_else(|| ServiceError::internal("the daily puzzle was not kept"))?;
        Ok(DailyView {
            day,
            puzzle: view(&row),
        })
    }

    /// `count` puzzles of `variant` of rising rating (a streak's or a storm's).
    pub async fn run(
        &self,
        caller: Caller,
        variant: Option<&str>,
        count: Option<u32>,
    ) -> Result<RunView, ServiceError> {
        self.check_rate(caller.client)?;
        let variant = variant.unwrap_or("emergo");
        word("variant", variant)?;
        let (default, most) = RUN_PUZZLES;
        let count = count.unwrap_or(default);
        if !(1..=most).contains(&count) {
            return Err(ServiceError::BadRequest(format!(
                "count must be 1 to {most}, not {count}"
            )));
        }
        let all = self.store.puzzle_ratings_of(variant).await?;
        let ratings: Vec<f64> = all.iter().map(|(_, r)| *r).collect();
        let seed = self.picks.fetch_add(0x9E37_79B9, Ordering::Relaxed)
            ^ std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
        let ids: Vec<String> = choose_run(&ratings, count as usize, seed)
            .into_iter()
            .map(|i| all[i].0.clone())
            .collect();
        let mut rows = self.store.puzzles_by_id(&ids).await?;
        rows.sort_by(|a, b| a.rating.total_cmp(&b.rating));
        Ok(RunView {
            puzzles: rows.iter().map(view).collect(),
        })
    }

    /// Stores a storm run of a signed-in account; its record after it.
    pub async fn storm(
        &self,
        caller: Caller,
        report: StormReport,
    ) -> Result<StormView, ServiceError> {
        self.check_rate(caller.client)?;
        let account_id = Self::signed_in(caller)?;
        // What a run of at most an hour can hold: a puzzle has a move at least.
        let fits = report.seconds <= 3600
            && report.moves <= 10_000
            && report.score <= report.moves
            && report.errors <= report.moves
            && report.best_combo <= report.moves;
        if !fits {
            return Err(ServiceError::BadRequest(
                "a storm run of at most 3600 seconds, whose score, errors and best combo are each at most its moves".into(),
            ));
        }
        self.store
            .record_storm(
                account_id,
                &StormRun {
                    at: now_text(),
                    score: report.score.into(),
                    moves: report.moves.into(),
                    errors: report.errors.into(),
                    best_combo: report.best_combo.into(),
                    seconds: report.seconds.into(),
                },
            )
            .await?;
        self.storm_view(account_id)
            .await?
            .ok_or_else(|| ServiceError::internal("the storm run was not kept"))
    }

    async fn storm_view(&self, account_id: i64) -> Result<Option<StormView>, ServiceError> {
        let (best, runs) = self.store.storm_record(account_id).await?;
        Ok(best.map(|b| StormView {
            best: b.score,
            best_at: b.at,
            runs,
        }))
    }

    /// The signed-in account's dashboard.
    pub async fn dashboard(&self, caller: Caller) -> Result<DashboardView, ServiceError> {
        let account_id = Self::signed_in(caller)?;
        let rating = self.store.puzzle_rating(account_id).await?;
        let attempts = self
            .store
            .attempts_of(account_id, DASHBOARD_ATTEMPTS)
            .await?;
        let mut themes: Vec<ThemeView> = Vec::new();
        for a in &attempts {
            for theme in a.themes.split_whitespace() {
                let i = match themes.iter().position(|t| t.theme == theme) {
                    Some(i) => i,
                    None => {
                        themes.push(ThemeView {
                            theme: theme.to_string(),
                            attempts: 0,
                            wins: 0,
                        });
                        themes.len() - 1
                    }
                };
                themes[i].attempts += 1;
                themes[i].wins += usize::from(a.win);
            }
        }
        themes.sort_by(|a, b| b.attempts.cmp(&a.attempts).then(a.theme.cmp(&b.theme)));
        Ok(DashboardView {
            rating: rating.map(|r| PlayerRatingView {
                rating: r.rating.round() as i64,
                rd: r.rd.round() as i64,
            }),
            attempts: attempts.len(),
            wins: attempts.iter().filter(|a| a.win).count(),
            themes,
            recent: attempts
                .iter()
                .take(DASHBOARD_RECENT)
                .map(|a| RecentAttemptView {
                    id: a.puzzle_id.clone(),
                    win: a.win,
                    rating_after: a.rating_after.round() as i64,
                    puzzle_rating: a.puzzle_rating.round() as i64,
                    at: a.at.clone(),
                })
                .collect(),
            storm: self.storm_view(account_id).await?,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_takes_each_puzzle_once_near_its_climbing_target() {
        let ratings: Vec<f64> = (0..40).map(|i| 700.0 + 50.0 * f64::from(i)).collect();
        for seed in 0..20 {
            let run = choose_run(&ratings, 10, seed);
            assert_eq!(run.len(), 10);
            let mut once = run.clone();
            once.dedup();
            assert_eq!(once.len(), 10, "{run:?}");
            assert!(run.windows(2).all(|w| ratings[w[0]] <= ratings[w[1]]));
            // Target k is 800 + k × 1600/9, and each pick is one of the three nearest it.
            for (k, &i) in run.iter().enumerate() {
                let target = 800.0 + 1600.0 * k as f64 / 9.0;
                assert!(
                    (ratings[i] - target).abs() <= 150.0,
                    "{k}: {} vs {target}",
                    ratings[i]
                );
            }
        }
        // Fewer puzzles than asked: each once.
        assert_eq!(choose_run(&ratings[..4], 10, 3).len(), 4);
        assert!(choose_run(&[], 10, 3).is_empty());
    }
}
