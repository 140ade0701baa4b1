//! Handlers of players' pages and the leaderboard (docs/api.md).

use crate::http::error::ApiError;
use crate::services::accounts::name_key;
use crate::services::accounts::players::{
    best_view, game_lines, performance_view, ratings_view, stats_view, BestLine, GameLine,
    PerformanceLine, RatingView, StatsLine, PERFORMANCE_READ,
};
use crate::services::error::{echo, ServiceError};
use crate::services::games::AppState;
use axum::extract::{Path, Query, State};
use axum::Json;
use emergo_platform::domain::model::unix_now;
use emergo_platform::domain::rating::Rating;
use emergo_platform::domain::rating::LEADERBOARD_RD;
use emergo_platform::domain::time_control::Category;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A player's page (`GET /api/players/{name}`).
#[derive(Debug, Serialize)]
pub struct PlayerPage {
    name: String,
    created_at: String,
    ratings: BTreeMap<String, RatingView>,
    /// Per category, the rating after each rated game, oldest first.
    history: BTreeMap<String, Vec<HistoryPoint>>,
    stats: BTreeMap<&'static str, StatsLine>,
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

/// `GET /api/leaderboard`: the category and its best players.
#[derive(Debug, Serialize)]
pub struct Leaderboard {
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

/// `GET /api/players/{name}`.
pub async fn player(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<PlayerPage>, ServiceError> {
    let not_found = || ServiceError::NotFound(format!("there is no player {}", echo(&name)));
    if name.len() > 20 {
        return Err(not_found());
    }
    let account = state
        .store
        .account_by_key(&name_key(&name))
        .await?
        .ok_or_else(not_found)?;
    let ratings = state.store.ratings_of(account.id).await?;
    let history = state.store.history_of(account.id, 1000).await?;
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
    let games = game_lines(&state.store, account.id, false, 100).await?;
    let counts = state.store.result_counts(account.id).await?;
    let rated = state
        .store
        .rated_results(account.id, PERFORMANCE_READ)
        .await?;
    let playing = games.iter().filter(|g| g.ongoing()).cloned().collect();
    Ok(Json(PlayerPage {
        name: account.name,
        created_at: account.created_at,
        ratings: ratings_view(&ratings),
        history: history_view,
        stats: stats_view(&counts),
        best: best_view(&history),
        performance: performance_view(&rated),
        playing,
        games,
    }))
}

#[derive(Deserialize)]
pub struct LeaderboardQuery {
    category: Option<String>,
}

/// `GET /api/leaderboard?category=blitz`: the best 100 with an RD (grown since their last game)
/// under 110.
pub async fn leaderboard(
    State(state): State<AppState>,
    query: Result<Query<LeaderboardQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Leaderboard>, ApiError> {
    let Query(query) = query?;
    let text = query.category.unwrap_or_else(|| "blitz".to_string());
    let category: Category = text
        .parse()
        .map_err(|e| ServiceError::BadRequest(format!("category {}: {e}", echo(&text))))?;
    let rows = state
        .store
        .leaderboard(category.name(), LEADERBOARD_RD, 500)
        .await?;
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
    Ok(Json(Leaderboard {
        category: category.name(),
        players,
    }))
}
