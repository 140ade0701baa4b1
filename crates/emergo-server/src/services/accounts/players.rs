//! The players' pages (issue 11): what `GET /api/players/{name}` and `GET /api/leaderboard`
//! show of an account (its ratings, games, results, best ratings, performance). A rated game's
//! settlement is the game service's (`services::games::ratings`).
//!
//! Each rated game is its own rating period. Between games a rating's RD grows with
//! inactivity (`Rating::after_idle`: the paper's step for a period without games, 0.21436
//! periods a day, never above 350): the stored RD is the one after the player's last game, and
//! every answer and every new game start from the RD grown since then.

use super::{name_key, Accounts};
use crate::services::error::{echo, ServiceError};
use emergo_core::Color;
use emergo_platform::domain::model::unix_now;
use emergo_platform::domain::rating::{Rating, LEADERBOARD_RD};
use emergo_platform::domain::time_control::Category;
use emergo_platform::store::accounts::{
    HistoryRow, PlayerGameRow, RatedResultRow, RatingRow, ResultCountRow,
};
use emergo_platform::store::Store;
use serde::Serialize;
use std::collections::BTreeMap;

/// An account's rating in one category as the pages show it (rating and RD to two places,
/// the RD grown since the last game).
#[derive(Clone, Debug, Serialize)]
pub struct RatingView {
    rating: f64,
    rd: f64,
    volatility: f64,
    games: i64,
}

/// `{"blitz": {"rating", "rd", "volatility", "games"}, ...}` of an account's rated categories,
/// in the order of their names.
pub fn ratings_view(rows: &[RatingRow]) -> BTreeMap<String, RatingView> {
    let now = unix_now();
    rows.iter()
        .map(|row| (row.category.clone(), rating_view(row, now)))
        .collect()
}

fn rating_view(row: &RatingRow, now: i64) -> RatingView {
    let r = row.rating_at(now);
    RatingView {
        rating: (r.rating * 100.0).round() / 100.0,
        rd: (r.rd * 100.0).round() / 100.0,
        volatility: (r.volatility * 1e6).round() / 1e6,
        games: row.games,
    }
}

/// A game of an account as a line of its page: its colour, the opponent, the result from its
/// side.
#[derive(Clone, Debug, Serialize)]
pub struct GameLine {
    id: String,
    color: &'static str,
    /// `null` for an anonymous opponent.
    opponent: Option<Opponent>,
    /// The opponent is a bot account (issue 24); absent otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    opponent_bot: bool,
    ply: i64,
    /// `ongoing` or `finished`.
    status: &'static str,
    /// `null` while it goes on, and for an aborted game.
    result: Option<String>,
    reason: Option<String>,
    /// The category of a rated game.
    rated: Option<String>,
    time_control: Option<String>,
    your_turn: bool,
    created_at: String,
    updated_at: String,
}

impl GameLine {
    /// Whether the game goes on.
    pub fn ongoing(&self) -> bool {
        self.status == "ongoing"
    }
}

/// The opponent of a game line: an account's name, or `{"deleted": true}`.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Opponent {
    Name(String),
    Deleted { deleted: bool },
}

/// The player's side of a game line: colour, opponent, result from the player's side.
fn game_line(row: &PlayerGameRow, account_id: i64) -> GameLine {
    let color = if row.white_account == Some(account_id) {
        Color::White
    } else {
        Color::Black
    };
    let (opponent, opponent_bot) = match color {
        Color::White => ((row.black_account, &row.black_name), row.black_bot),
        Color::Black => ((row.white_account, &row.white_name), row.white_bot),
    };
    let opponent = match opponent {
        (Some(_), Some(name)) => Some(Opponent::Name(name.clone())),
        (Some(_), None) => Some(Opponent::Deleted { deleted: true }),
        (None, _) => None,
    };
    // Games between accounts start from the start position: White moves at even plies.
    let turn = if row.ply % 2 == 0 {
        Color::White
    } else {
        Color::Black
    };
    GameLine {
        id: row.id.clone(),
        color: color.name(),
        opponent,
        opponent_bot,
        ply: row.ply,
        status: if row.result.is_some() {
            "finished"
        } else {
            "ongoing"
        },
        result: emergo_platform::store::shown_result(row.result.clone(), row.reason.as_deref()),
        reason: row.reason.clone(),
        rated: row.rated.clone(),
        time_control: row.time_control.clone(),
        your_turn: row.result.is_none() && turn == color,
        created_at: row.created_at.clone(),
        updated_at: row.updated_at.clone(),
    }
}

/// The games of an account as lines of a list.
async fn game_lines(
    store: &Store,
    account_id: i64,
    ongoing_only: bool,
    limit: u32,
) -> Result<Vec<GameLine>, ServiceError> {
    let rows = store.games_of(account_id, ongoing_only, limit).await?;
    Ok(rows.iter().map(|r| game_line(r, account_id)).collect())
}

/// The category a finished game counts in on the player page: a rated game's, else its time
/// control's (an untimed game in none).
fn category_of_row(rated: Option<&str>, time_control: Option<&str>) -> Option<Category> {
    // A rated game names its pool (`blitz`, `hex:blitz`); a casual one only its time control.
    rated
        .and_then(emergo_platform::domain::time_control::pool_parts)
        .map(|(_, category)| category)
        .or_else(|| {
            time_control
                .and_then(|t| {
                    t.parse::<emergo_platform::domain::time_control::TimeControl>()
                        .ok()
                })
                .map(|c| c.category())
        })
}

/// One category of `"stats"`: finished games, wins, draws, losses, and how many were rated.
#[derive(Clone, Debug, Default, Serialize)]
pub struct StatsLine {
    games: i64,
    wins: i64,
    draws: i64,
    losses: i64,
    rated: i64,
}

/// `"stats"` of a player page (issue 18): per board and category (the rating pool's key:
/// `blitz` on the 9×9 board, `hex:blitz` on another, issue 20), the finished games (rated and
/// casual; aborted ones do not count) with their wins, draws and losses, and how many were
/// rated.
pub fn stats_view(counts: &[ResultCountRow]) -> BTreeMap<String, StatsLine> {
    let mut map: BTreeMap<String, StatsLine> = BTreeMap::new();
    for row in counts {
        if row.reason.as_deref() == Some(emergo_core::EndReason::Aborted.name()) {
            continue;
        }
        let Some(category) = category_of_row(row.rated.as_deref(), row.time_control.as_deref())
        else {
            continue;
        };
        let variant = row
            .variant
            .parse()
            .unwrap_or(emergo_core::VariantKind::Emergo);
        let pool = emergo_platform::domain::time_control::rating_pool(variant, category);
        let entry = map.entry(pool).or_default();
        entry.games += row.n;
        match (row.result.as_deref(), row.as_white == 1) {
            (Some("1/2-1/2"), _) => entry.draws += row.n,
            (Some("1-0"), true) | (Some("0-1"), false) => entry.wins += row.n,
            _ => entry.losses += row.n,
        }
        if row.rated.is_some() {
            entry.rated += row.n;
        }
    }
    map
}

/// One category of `"best"`: the highest rating after a rated game, when, in which game, and
/// whether it was provisional then.
#[derive(Clone, Debug, Serialize)]
pub struct BestLine {
    rating: i64,
    at: String,
    game: String,
    provisional: bool,
}

/// `"best"` of a player page: per category, the highest rating after a rated game, when, and
/// whether it was provisional then.
pub fn best_view(history: &[HistoryRow]) -> BTreeMap<String, BestLine> {
    let mut best: BTreeMap<&str, &HistoryRow> = BTreeMap::new();
    for row in history {
        let entry = best.entry(row.category.as_str()).or_insert(row);
        if row.rating > entry.rating {
            *entry = row;
        }
    }
    best.into_iter()
        .map(|(category, row)| {
            let line = BestLine {
                rating: row.rating.round() as i64,
                at: row.at.clone(),
                game: row.game_id.clone(),
                provisional: row.rd >= LEADERBOARD_RD,
            };
            (category.to_string(), line)
        })
        .collect()
}

/// The rated games a performance is figured over, per category (the newest).
pub const PERFORMANCE_GAMES: usize = 20;

/// Rated games read for the performances (the newest, of every category).
pub const PERFORMANCE_READ: u32 = 200;

/// One category of `"performance"`: the performance rating, and the games it is figured over
/// with their wins, draws and losses.
#[derive(Clone, Debug, Serialize)]
pub struct PerformanceLine {
    rating: i64,
    games: i64,
    wins: i64,
    draws: i64,
    losses: i64,
}

/// `"performance"` of a player page: per category, the performance rating of the last
/// [`PERFORMANCE_GAMES`] rated games that counted: the mean of the opponents' ratings as
/// each game began, plus 400 × (wins − losses) / games (the linear performance rating).
pub fn performance_view(rows: &[RatedResultRow]) -> BTreeMap<String, PerformanceLine> {
    let mut per: BTreeMap<&str, (f64, i64, i64, i64, i64)> = BTreeMap::new();
    for row in rows {
        let Some(opponent) = row.opponent_before else {
            continue;
        };
        let entry = per.entry(row.category.as_str()).or_default();
        if entry.1 as usize >= PERFORMANCE_GAMES {
            continue;
        }
        entry.0 += opponent;
        entry.1 += 1;
        match (row.result.as_deref(), row.as_white == 1) {
            (Some("1/2-1/2"), _) => entry.3 += 1,
            (Some("1-0"), true) | (Some("0-1"), false) => entry.2 += 1,
            _ => entry.4 += 1,
        }
    }
    per.into_iter()
        .map(|(category, (sum, n, wins, draws, losses))| {
            let line = PerformanceLine {
                rating: performance(sum / n as f64, n, wins, losses),
                games: n,
                wins,
                draws,
                losses,
            };
            (category.to_string(), line)
        })
        .collect()
}

/// The linear performance rating of `games` games against opponents rated `mean` on average.
pub fn performance(mean: f64, games: i64, wins: i64, losses: i64) -> i64 {
    if games == 0 {
        return mean.round() as i64;
    }
    (mean + 400.0 * (wins - losses) as f64 / games as f64).round() as i64
}

/// A player's page (`GET /api/players/{name}`).
#[derive(Debug, Serialize)]
pub struct PlayerPage {
    name: String,
    /// A bot account (issue 24): the page marks its name BOT, and people challenge it here.
    bot: bool,
    created_at: String,
    ratings: BTreeMap<String, RatingView>,
    /// Per category, the rating after each rated game, oldest first.
    history: BTreeMap<String, Vec<HistoryPoint>>,
    stats: BTreeMap<String, StatsLine>,
    best: BTreeMap<String, BestLine>,
    performance: BTreeMap<String, PerformanceLine>,
    /// The games of `games` that go on.
    playing: Vec<GameLine>,
    games: Vec<GameLine>,
}

/// A point of a rating's history: after which game, when, the rating and RD to two places.
#[derive(Debug, Serialize)]
pub struct HistoryPoint {
    game: String,
    at: String,
    rating: f64,
    rd: f64,
}

/// `GET /api/leaderboard`: the board, the category and its best players.
#[derive(Debug, Serialize)]
pub struct Leaderboard {
    variant: &'static str,
    category: &'static str,
    players: Vec<LeaderboardLine>,
}

/// A line of the leaderboard: rank (from 1), name, rating and RD to two places, games.
#[derive(Debug, Serialize)]
pub struct LeaderboardLine {
    rank: usize,
    name: String,
    rating: f64,
    rd: f64,
    games: i64,
}

impl Accounts {
    /// The page of the player `name` (404 `not_found` for no such account).
    pub async fn player_page(&self, name: &str) -> Result<PlayerPage, ServiceError> {
        let not_found = || ServiceError::NotFound(format!("there is no player {}", echo(name)));
        if name.len() > 20 {
            return Err(not_found());
        }
        let store = &self.store;
        let account = store
            .account_by_key(&name_key(name))
            .await?
            .ok_or_else(not_found)?;
        let ratings = store.ratings_of(account.id).await?;
        let history = store.history_of(account.id, 1000).await?;
        let mut history_view: BTreeMap<String, Vec<HistoryPoint>> = BTreeMap::new();
        for h in &history {
            history_view
                .entry(h.category.clone())
                .or_default()
                .push(HistoryPoint {
                    game: h.game_id.clone(),
                    at: h.at.clone(),
                    rating: (h.rating * 100.0).round() / 100.0,
                    rd: (h.rd * 100.0).round() / 100.0,
                });
        }
        let games = game_lines(store, account.id, false, 100).await?;
        let counts = store.result_counts(account.id).await?;
        let rated = store.rated_results(account.id, PERFORMANCE_READ).await?;
        let playing = games.iter().filter(|g| g.ongoing()).cloned().collect();
        Ok(PlayerPage {
            name: account.name,
            bot: account.bot,
            created_at: account.created_at,
            ratings: ratings_view(&ratings),
            history: history_view,
            stats: stats_view(&counts),
            best: best_view(&history),
            performance: performance_view(&rated),
            playing,
            games,
        })
    }

    /// The best 100 of `category` (`blitz` when none is named) on `variant`'s board (`emergo`
    /// when none is named) with an RD (grown since their last game) under [`LEADERBOARD_RD`].
    pub async fn leaderboard(
        &self,
        category: Option<&str>,
        variant: Option<&str>,
    ) -> Result<Leaderboard, ServiceError> {
        let text = category.unwrap_or("blitz");
        let category: Category = text
            .parse()
            .map_err(|e| ServiceError::BadRequest(format!("category {}: {e}", echo(text))))?;
        let variant = crate::services::study::position::variant_of(variant)?;
        let pool = emergo_platform::domain::time_control::rating_pool(variant, category);
        let rows = self.store.leaderboard(&pool, LEADERBOARD_RD, 500).await?;
        let now = unix_now();
        let mut lines: Vec<(String, Rating, i64)> = rows
            .iter()
            .map(|(name, row)| (name.clone(), row.rating_at(now), row.games))
            .filter(|(_, r, _)| r.rd < LEADERBOARD_RD)
            .collect();
        lines.sort_by(|a, b| b.1.rating.total_cmp(&a.1.rating));
        lines.truncate(100);
        let players = lines
            .into_iter()
            .enumerate()
            .map(|(i, (name, r, games))| LeaderboardLine {
                rank: i + 1,
                name,
                rating: (r.rating * 100.0).round() / 100.0,
                rd: (r.rd * 100.0).round() / 100.0,
                games,
            })
            .collect();
        Ok(Leaderboard {
            variant: variant.name(),
            category: category.name(),
            players,
        })
    }
}
