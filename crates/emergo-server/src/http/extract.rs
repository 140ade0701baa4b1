//! The extractors of the API's requests, whose rejections are the documented JSON errors: a
//! JSON body ([`Body`]), a game's id in the path ([`GameId`]), the view's paging ([`ViewQuery`]).

use crate::http::error::{echo, ApiError};
use crate::services::error::ServiceError;
use axum::body::Bytes;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;
use serde::Deserialize;

/// A JSON request body of type `T`: said to be JSON (`Content-Type: application/json`, else
/// 415 `unsupported_media_type`), read within the body limit (413 `too_large` over it), then
/// parsed (400 `bad_request` saying what is wrong, quoting little of it).
pub struct Body<T>(pub T);

/// Whether a `Content-Type` says JSON: `application/json`, with parameters or not.
fn is_json(content_type: Option<&header::HeaderValue>) -> bool {
    content_type
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let content_type = req.headers().get(header::CONTENT_TYPE);
        if !is_json(content_type) {
            let given = content_type.map_or("none".to_string(), |v| {
                echo(v.to_str().unwrap_or("\u{fffd}"))
            });
            return Err(ApiError::UnsupportedMediaType(format!(
                "this endpoint takes a JSON body with Content-Type: application/json (the \
                 request's Content-Type: {given})"
            )));
        }
        let bytes = Bytes::from_request(req, state).await?;
        serde_json::from_slice(&bytes).map(Body).map_err(|e| {
            ServiceError::BadRequest(format!("the request body is not what was expected: {e}"))
                .into()
        })
    }
}

/// The `{id}` of a game's path: UTF-8 (else 400), at most 64 bytes (else 404).
pub struct GameId(pub String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let axum::extract::Path(id) =
            axum::extract::Path::<String>::from_request_parts(parts, state).await?;
        if id.len() > 64 {
            return Err(ServiceError::game_not_found(&id).into());
        }
        Ok(GameId(id))
    }
}

/// `?from=<ply>`: the view paged from that ply (docs/api.md).
#[derive(Deserialize)]
pub struct ViewQuery {
    pub from: Option<usize>,
}
