//! The API's errors: each a status and a JSON body `{"error": code, "message": text}`
//! (docs/api.md). A handler that returns one has changed nothing.

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;

/// Why a request was refused.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    BadToken(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    NotYourTurn(String),
    #[error("the game is at ply {current}, not {given}: the position has changed")]
    StalePly { current: usize, given: i64 },
    #[error("{0}")]
    GameOver(String),
    #[error("{0}")]
    SeatTaken(String),
    #[error("{0}")]
    NotAllowed(String),
    #[error("{0}")]
    IllegalMove(String),
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// The status and the stable `error` code.
    pub fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "bad_request"),
            ApiError::BadToken(_) => (StatusCode::FORBIDDEN, "bad_token"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::NotYourTurn(_) => (StatusCode::CONFLICT, "not_your_turn"),
            ApiError::StalePly { .. } => (StatusCode::CONFLICT, "stale_ply"),
            ApiError::GameOver(_) => (StatusCode::CONFLICT, "game_over"),
            ApiError::SeatTaken(_) => (StatusCode::CONFLICT, "seat_taken"),
            ApiError::NotAllowed(_) => (StatusCode::CONFLICT, "not_allowed"),
            ApiError::IllegalMove(_) => (StatusCode::UNPROCESSABLE_ENTITY, "illegal_move"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        }
    }

    pub fn game_not_found(id: &str) -> ApiError {
        ApiError::NotFound(format!("there is no game '{id}'"))
    }

    pub fn internal(err: impl std::fmt::Display) -> ApiError {
        ApiError::Internal(err.to_string())
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(err: sqlx::Error) -> ApiError {
        ApiError::internal(format!("database: {err}"))
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        ApiError::BadRequest(rejection.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> ApiError {
        ApiError::BadRequest(rejection.body_text())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        if status.is_server_error() {
            tracing::error!("{self}");
        }
        let message = match &self {
            ApiError::Internal(_) => "internal error; the server's log says more".to_string(),
            other => other.to_string(),
        };
        let body = serde_json::json!({"error": code, "message": message});
        (status, Json(body)).into_response()
    }
}
