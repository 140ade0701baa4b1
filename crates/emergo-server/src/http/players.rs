//! Handlers of players' pages and the leaderboard (docs/api.md).

use crate::http::error::ApiError;
use crate::services::accounts::name_key;
use crate::services::accounts::players::{
    best_json, games_json, performance_json, ratings_json, stats_json, PERFORMANCE_READ,
};
use crate::services::error::{echo, ServiceError};
use crate::services::games::AppState;
use axum::extract::{Path, Query, State};
use axum::Json;
use emergo_platform::domain::model::unix_now;
use emergo_platform::domain::rating::Rating;
use emergo_platform::domain::rating::LEADERBOARD_RD;
use emergo_platform::domain::time_control::Category;
use serde::Deserialize;
use serde_json::{json, Map, Value};

/// `GET /api/players/{name}`.
pub async fn player(
    State(state): State<AppState>,
    Path(name): Path<String>,
) -> Result<Json<Value>, ServiceError> {
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
    let mut by_category = Map::new();
    for h in &history {
        let points = by_category
            .entry(h.category.clone())
            .or_insert_with(|| Value::Array(Vec::new()));
        if let Value::Array(points) = points {
            points.push(json!({
                "game": h.game_id,
                "at": h.at,
                "rating": (h.rating * 100.0).round() / 100.0,
                "rd": (h.rd * 100.0).round() / 100.0,
            }));
        }
    }
    let games = games_json(&state.store, account.id, false, 100).await?;
    let counts = state.store.result_counts(account.id).await?;
    let rated = state
        .store
        .rated_results(account.id, PERFORMANCE_READ)
        .await?;
    let playing: Vec<&Value> = games.iter().filter(|g| g["status"] == "ongoing").collect();
    Ok(Json(json!({
        "name": account.name,
        "created_at": account.created_at,
        "ratings": ratings_json(&ratings),
        "history": by_category,
        "stats": stats_json(&counts),
        "best": best_json(&history),
        "performance": performance_json(&rated),
        "playing": playing,
        "games": games,
    })))
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
) -> Result<Json<Value>, ApiError> {
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
    let players: Vec<Value> = lines
        .into_iter()
        .enumerate()
        .map(|(i, (name, r, games))| {
            json!({
                "rank": i + 1,
                "name": name,
                "rating": (r.rating * 100.0).round() / 100.0,
                "rd": (r.rd * 100.0).round() / 100.0,
                "games": games,
            })
        })
        .collect();
    Ok(Json(
        json!({"category": category.name(), "players": players}),
    ))
}
