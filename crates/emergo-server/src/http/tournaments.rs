//! The tournaments' handlers (issue 23, docs/api.md "Tournaments").

use crate::http::error::ApiError;
use crate::http::extract::Body;
use crate::http::session::SignedIn;
use crate::services::tournaments::{
    TournamentList, TournamentRequest, TournamentView, Tournaments,
};
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize)]
pub struct CreateBody {
    name: String,
    format: String,
    time: String,
    #[serde(default)]
    rated: bool,
    variant: Option<String>,
    rounds: Option<i64>,
    minutes: Option<i64>,
    games_per_pairing: Option<i64>,
    max_players: Option<i64>,
    /// RFC 3339.
    starts_at: Option<String>,
    password: Option<String>,
}

/// `POST /api/tournaments`.
pub async fn create(
    State(tournaments): State<Arc<Tournaments>>,
    SignedIn(session): SignedIn,
    Body(body): Body<CreateBody>,
) -> Result<(StatusCode, Json<TournamentView>), ApiError> {
    let starts_at = match body.starts_at.as_deref() {
        None => None,
        Some(text) => Some(
            emergo_platform::domain::model::unix_of(text).ok_or_else(|| {
                crate::services::error::ServiceError::BadRequest(format!(
                    "starts_at {} is not an RFC 3339 time",
                    crate::services::error::echo(text)
                ))
            })?,
        ),
    };
    let request = TournamentRequest {
        name: &body.name,
        format: &body.format,
        time: &body.time,
        rated: body.rated,
        variant: body.variant.as_deref(),
        rounds: body.rounds,
        minutes: body.minutes,
        games_per_pairing: body.games_per_pairing,
        max_players: body.max_players,
        starts_at,
        password: body.password.as_deref(),
    };
    let view = tournaments.create(session.account.id, request).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// `GET /api/tournaments`.
pub async fn list(
    State(tournaments): State<Arc<Tournaments>>,
) -> Result<Json<TournamentList>, ApiError> {
    Ok(Json(tournaments.list().await?))
}

/// `GET /api/tournaments/{id}`.
pub async fn show(
    State(tournaments): State<Arc<Tournaments>>,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(tournaments.show(&id).await?))
}

#[derive(Deserialize, Default)]
pub struct JoinBody {
    password: Option<String>,
}

/// `POST /api/tournaments/{id}/join` (`{"password"}` for a private one).
pub async fn join(
    State(tournaments): State<Arc<Tournaments>>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
    Body(body): Body<JoinBody>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(
        tournaments
            .join(session.account.id, &id, body.password.as_deref())
            .await?,
    ))
}

/// `POST /api/tournaments/{id}/withdraw`.
pub async fn withdraw(
    State(tournaments): State<Arc<Tournaments>>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(tournaments.withdraw(session.account.id, &id).await?))
}

/// `POST /api/tournaments/{id}/start`: the creator starts it now.
pub async fn start(
    State(tournaments): State<Arc<Tournaments>>,
    SignedIn(session): SignedIn,
    Path(id): Path<String>,
) -> Result<Json<TournamentView>, ApiError> {
    Ok(Json(tournaments.start(session.account.id, &id).await?))
}
