//! Handlers of the puzzles (docs/api.md "Puzzles"): the service (`services::puzzles`) does the
//! work; this layer reads requests and writes answers.

use crate::http::error::ApiError;
use crate::http::extract::Body;
use crate::http::session::SessionCookie;
use crate::services::accounts::Accounts;
use crate::services::error::ServiceError;
use crate::services::puzzles::{
    AttemptView, Caller, DailyView, DashboardView, PuzzleView, Puzzles, RunView, StormReport,
    StormView, VoteView,
};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::{Extension, Json};
use emergo_platform::domain::limits::ClientAddr;
use serde::Deserialize;
use std::sync::Arc;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NextQuery {
    theme: Option<String>,
    variant: Option<String>,
}

async fn caller(
    accounts: &Accounts,
    cookie: &SessionCookie,
    client: std::net::IpAddr,
) -> Result<Caller, ServiceError> {
    Ok(Caller {
        account: cookie.account(accounts).await?.map(|s| s.account.id),
        client,
    })
}

/// `GET /api/puzzles/next?theme=&variant=`.
pub async fn next(
    State(accounts): State<Arc<Accounts>>,
    State(puzzles): State<Arc<Puzzles>>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    cookie: SessionCookie,
    query: Result<Query<NextQuery>, QueryRejection>,
) -> Result<Json<PuzzleView>, ApiError> {
    let Query(query) = query?;
    let caller = caller(&accounts, &cookie, client).await?;
    Ok(Json(
        puzzles
            .next(caller, query.theme.as_deref(), query.variant.as_deref())
            .await?,
    ))
}

/// `GET /api/puzzles/{id}`.
pub async fn show(
    State(puzzles): State<Arc<Puzzles>>,
    Path(id): Path<String>,
) -> Result<Json<PuzzleView>, ServiceError> {
    Ok(Json(puzzles.get(&id).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttemptBody {
    win: bool,
}

/// `POST /api/puzzles/{id}/attempt` `{"win": bool}`.
pub async fn attempt(
    State(accounts): State<Arc<Accounts>>,
    State(puzzles): State<Arc<Puzzles>>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    cookie: SessionCookie,
    Path(id): Path<String>,
    Body(body): Body<AttemptBody>,
) -> Result<Json<AttemptView>, ServiceError> {
    let caller = caller(&accounts, &cookie, client).await?;
    Ok(Json(puzzles.attempt(caller, &id, body.win).await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VoteBody {
    up: bool,
}

/// `POST /api/puzzles/{id}/vote` `{"up": bool}`.
pub async fn vote(
    State(accounts): State<Arc<Accounts>>,
    State(puzzles): State<Arc<Puzzles>>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    cookie: SessionCookie,
    Path(id): Path<String>,
    Body(body): Body<VoteBody>,
) -> Result<Json<VoteView>, ServiceError> {
    let caller = caller(&accounts, &cookie, client).await?;
    Ok(Json(puzzles.vote(caller, &id, body.up).await?))
}

/// `GET /api/puzzles/daily`.
pub async fn daily(State(puzzles): State<Arc<Puzzles>>) -> Result<Json<DailyView>, ServiceError> {
    Ok(Json(puzzles.daily().await?))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunQuery {
    variant: Option<String>,
    count: Option<u32>,
}

/// `GET /api/puzzles/run?variant=&count=`.
pub async fn run(
    State(accounts): State<Arc<Accounts>>,
    State(puzzles): State<Arc<Puzzles>>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    cookie: SessionCookie,
    query: Result<Query<RunQuery>, QueryRejection>,
) -> Result<Json<RunView>, ApiError> {
    let Query(query) = query?;
    let caller = caller(&accounts, &cookie, client).await?;
    Ok(Json(
        puzzles
            .run(caller, query.variant.as_deref(), query.count)
            .await?,
    ))
}

/// `POST /api/puzzles/storm` `{"score", "moves", "errors", "best_combo", "seconds"}`.
pub async fn storm(
    State(accounts): State<Arc<Accounts>>,
    State(puzzles): State<Arc<Puzzles>>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    cookie: SessionCookie,
    Body(report): Body<StormReport>,
) -> Result<Json<StormView>, ServiceError> {
    let caller = caller(&accounts, &cookie, client).await?;
    Ok(Json(puzzles.storm(caller, report).await?))
}

/// `GET /api/puzzles/dashboard`.
pub async fn dashboard(
    State(accounts): State<Arc<Accounts>>,
    State(puzzles): State<Arc<Puzzles>>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    cookie: SessionCookie,
) -> Result<Json<DashboardView>, ServiceError> {
    let caller = caller(&accounts, &cookie, client).await?;
    Ok(Json(puzzles.dashboard(caller).await?))
}
