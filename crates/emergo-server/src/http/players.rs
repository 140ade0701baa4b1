//! Handlers of players' pages and the leaderboard (docs/api.md).

use crate::http::error::ApiError;
use crate::services::accounts::players::{Leaderboard, PlayerPage};
use crate::services::accounts::Accounts;
use crate::services::error::ServiceError;
use axum::extract::{Path, Query, State};
use axum::Json;
use serde::Deserialize;
use std::sync::Arc;

/// `GET /api/players/{name}`.
pub async fn player(
    State(accounts): State<Arc<Accounts>>,
    Path(name): Path<String>,
) -> Result<Json<PlayerPage>, ServiceError> {
    Ok(Json(accounts.player_page(&name).await?))
}

#[derive(Deserialize)]
pub struct LeaderboardQuery {
    category: Option<String>,
    variant: Option<String>,
}

/// `GET /api/leaderboard?category=blitz&variant=hex`: the best 100 of the board's pool with an
/// RD (grown since their last game) under 110.
pub async fn leaderboard(
    State(accounts): State<Arc<Accounts>>,
    query: Result<Query<LeaderboardQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Leaderboard>, ApiError> {
    let Query(query) = query?;
    Ok(Json(
        accounts
            .leaderboard(query.category.as_deref(), query.variant.as_deref())
            .await?,
    ))
}
