//! Handlers of the puzzles (docs/api.md "Puzzles"): the service (`services::puzzles`) does the
//! work; this layer reads requests and writes answers.

use crate::http::error::ApiError;
use crate::http::extract::Body;
use crate::http::session::SessionCookie;
use crate::services::accounts::Accounts;
use crate::services::error::ServiceError;
use crate::services::puzzles::{AttemptView, Caller, PuzzleView, Puzzles};
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
