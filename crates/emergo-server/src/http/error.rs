//! The API's errors: each a status and a JSON body `{"error": code, "message": text}`
//! (docs/api.md), with `"cap"` naming the limit when a limit said no. A handler that returns one
//! has changed nothing.

use crate::store::StoreError;
use axum::extract::rejection::{BytesRejection, JsonRejection, PathRejection, QueryRejection};
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use std::time::Duration;

/// The longest message an error carries: an error never echoes more than a short part of what
/// it was sent.
pub const MAX_MESSAGE: usize = 600;

/// The longest part of a request an error message quotes.
pub const MAX_ECHO: usize = 40;

/// Why a request was refused.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    /// A game record refused (400 `bad_request`): the core's error, whose place and broken rule
    /// the answer gives as fields of their own.
    #[error("{0}")]
    BadRecord(emergo_core::RecordError),
    /// A bad request whose answer says what is wrong in fields of its own as well (400
    /// `bad_request`), for a page to phrase it.
    #[error("{message}")]
    Explained {
        message: String,
        fields: serde_json::Map<String, serde_json::Value>,
    },
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
    /// Over one of the server's caps (413): the cap's name and what was over it.
    #[error("{message}")]
    TooLarge { cap: &'static str, message: String },
    #[error("the request's path and query are longer than {0} bytes")]
    UriTooLong(usize),
    /// A method the path does not answer; `allow` lists those it does.
    #[error("this endpoint does not answer that method")]
    MethodNotAllowed { allow: Option<HeaderValue> },
    #[error("{0}")]
    BadOrigin(String),
    #[error("{0}")]
    BadHost(String),
    /// Too many requests of a kind from one client: try again after `retry_after`.
    #[error("{message}")]
    RateLimited {
        cap: &'static str,
        message: String,
        retry_after: Duration,
    },
    /// The engine's queue (or this client's share of it) is full.
    #[error("{0}")]
    EngineBusy(String),
    /// Too many connections or WebSockets (all, or from this client).
    #[error("{message}")]
    Busy { cap: &'static str, message: String },
    /// The database cannot be reached now (down, restarting, or no connection free in time).
    #[error("{0}")]
    DatabaseUnavailable(String),
    /// The request took longer than the server's request timeout (its body never came).
    #[error("the request took more than {} s", .0.as_secs())]
    Timeout(Duration),
    #[error("internal error: {0}")]
    Internal(String),
    /// Accounts (issue 11): no session, or a session that ended.
    #[error("{0}")]
    Unauthorized(String),
    /// A login with a wrong name or password.
    #[error("{0}")]
    BadCredentials(String),
    /// A new account's name is taken (regardless of case).
    #[error("{0}")]
    NameTaken(String),
    /// A seek was taken, withdrawn or expired before this acceptance.
    #[error("{0}")]
    SeekTaken(String),
    /// A JSON endpoint sent a body that does not say it is JSON (`Content-Type`).
    #[error("{0}")]
    UnsupportedMediaType(String),
    /// A new password that is weak; `reason` says how (`short`, `blank`, `repetitive`,
    /// `name`, `common`).
    #[error("{message}")]
    WeakPassword {
        reason: &'static str,
        message: String,
    },
}

impl ApiError {
    /// The status and the stable `error` code.
    pub fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::BadRequest(_) | ApiError::BadRecord(_) | ApiError::Explained { .. } => {
                (StatusCode::BAD_REQUEST, "bad_request")
            }
            ApiError::BadToken(_) => (StatusCode::FORBIDDEN, "bad_token"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
            ApiError::NotYourTurn(_) => (StatusCode::CONFLICT, "not_your_turn"),
            ApiError::StalePly { .. } => (StatusCode::CONFLICT, "stale_ply"),
            ApiError::GameOver(_) => (StatusCode::CONFLICT, "game_over"),
            ApiError::SeatTaken(_) => (StatusCode::CONFLICT, "seat_taken"),
            ApiError::NotAllowed(_) => (StatusCode::CONFLICT, "not_allowed"),
            ApiError::IllegalMove(_) => (StatusCode::UNPROCESSABLE_ENTITY, "illegal_move"),
            ApiError::TooLarge { .. } => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
            ApiError::UriTooLong(_) => (StatusCode::URI_TOO_LONG, "uri_too_long"),
            ApiError::MethodNotAllowed { .. } => {
                (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed")
            }
            ApiError::BadOrigin(_) => (StatusCode::FORBIDDEN, "bad_origin"),
            ApiError::BadHost(_) => (StatusCode::BAD_REQUEST, "bad_host"),
            ApiError::RateLimited { .. } => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
            ApiError::EngineBusy(_) => (StatusCode::SERVICE_UNAVAILABLE, "engine_busy"),
            ApiError::Busy { .. } => (StatusCode::SERVICE_UNAVAILABLE, "busy"),
            ApiError::DatabaseUnavailable(_) => {
                (StatusCode::SERVICE_UNAVAILABLE, "database_unavailable")
            }
            ApiError::Timeout(_) => (StatusCode::REQUEST_TIMEOUT, "timeout"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
            ApiError::Unauthorized(_) => (StatusCode::UNAUTHORIZED, "unauthorized"),
            ApiError::BadCredentials(_) => (StatusCode::UNAUTHORIZED, "bad_credentials"),
            ApiError::NameTaken(_) => (StatusCode::CONFLICT, "name_taken"),
            ApiError::SeekTaken(_) => (StatusCode::CONFLICT, "seek_taken"),
            ApiError::UnsupportedMediaType(_) => {
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
            }
            ApiError::WeakPassword { .. } => (StatusCode::BAD_REQUEST, "weak_password"),
        }
    }

    pub fn game_not_found(id: &str) -> ApiError {
        ApiError::NotFound(format!("there is no game {}", echo(id)))
    }

    pub fn internal(err: impl std::fmt::Display) -> ApiError {
        ApiError::Internal(err.to_string())
    }

    /// The limit that said no, if one did.
    pub fn cap(&self) -> Option<&'static str> {
        match self {
            ApiError::TooLarge { cap, .. }
            | ApiError::RateLimited { cap, .. }
            | ApiError::Busy { cap, .. } => Some(cap),
            ApiError::UriTooLong(_) => Some("uri_bytes"),
            ApiError::Timeout(_) => Some("request_timeout"),
            _ => None,
        }
    }
}

/// `text` quoted for an error message, cut to its first [`MAX_ECHO`] bytes (on a character
/// boundary) with `…` when longer.
pub fn echo(text: &str) -> String {
    let cut = shorten(text, MAX_ECHO);
    if cut.len() < text.len() {
        format!("{:?}… ({} bytes)", cut, text.len())
    } else {
        format!("{cut:?}")
    }
}

/// The longest prefix of `text` of at most `max` bytes that ends on a character boundary.
pub fn shorten(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> ApiError {
        match err {
            StoreError::Db(err) => err.into(),
            other => ApiError::internal(other),
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(err: sqlx::Error) -> ApiError {
        if unavailable(&err) {
            ApiError::DatabaseUnavailable(format!(
                "the database cannot be reached now; try again in a moment ({err})"
            ))
        } else {
            ApiError::internal(format!("database: {err}"))
        }
    }
}

/// Whether `err` says the database cannot be reached (rather than that a query is wrong): no
/// connection in time, a lost or refused connection, or a server shutting down or starting
/// (PostgreSQL's classes 08 and 57P).
pub fn unavailable(err: &sqlx::Error) -> bool {
    match err {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(db) => db
            .code()
            .is_some_and(|code| code.starts_with("08") || code.starts_with("57P")),
        _ => false,
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

impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> ApiError {
        ApiError::BadRequest(format!(
            "the path cannot be read: {}",
            rejection.body_text()
        ))
    }
}

impl From<BytesRejection> for ApiError {
    fn from(rejection: BytesRejection) -> ApiError {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge {
                cap: "body_size",
                message: "the request body is larger than this endpoint takes".to_string(),
            }
        } else {
            ApiError::BadRequest(format!(
                "the request body cannot be read: {}",
                rejection.body_text()
            ))
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        if status.is_server_error()
            && !matches!(
                self,
                ApiError::EngineBusy(_) | ApiError::Busy { .. } | ApiError::DatabaseUnavailable(_)
            )
        {
            tracing::error!("{self}");
        }
        let message = match &self {
            ApiError::Internal(_) => "internal error; the server's log says more".to_string(),
            other => {
                let text = other.to_string();
                let cut = shorten(&text, MAX_MESSAGE);
                if cut.len() < text.len() {
                    format!("{cut}…")
                } else {
                    text
                }
            }
        };
        let mut body = serde_json::json!({"error": code, "message": message});
        if let Some(cap) = self.cap() {
            body["cap"] = cap.into();
        }
        if let ApiError::RateLimited { retry_after, .. } = &self {
            // The wait in milliseconds too (`Retry-After` has whole seconds).
            body["retry_after_ms"] = (retry_after.as_millis() as u64).into();
        }
        if let ApiError::WeakPassword { reason, .. } = &self {
            body["reason"] = (*reason).into();
        }
        if let ApiError::Explained { fields, .. } = &self {
            for (k, v) in fields {
                body[k] = v.clone();
            }
        }
        if let ApiError::BadRecord(e) = &self {
            if let Some((line, column)) = e.line_column() {
                body["line"] = line.into();
                body["column"] = column.into();
            }
            if let Some(refusal) = e.refusal {
                body["refusal"] = refusal.name().into();
                body["rule"] = refusal.rule().into();
            }
        }
        let mut response = (status, Json(body)).into_response();
        let headers = response.headers_mut();
        match &self {
            ApiError::MethodNotAllowed { allow: Some(allow) } => {
                headers.insert(header::ALLOW, allow.clone());
            }
            ApiError::RateLimited { retry_after, .. } => {
                let secs = retry_after.as_secs() + u64::from(retry_after.subsec_nanos() > 0);
                headers.insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
            }
            ApiError::EngineBusy(_) | ApiError::Busy { .. } | ApiError::DatabaseUnavailable(_) => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(1u64));
            }
            // The body over the cap is left unread, so the server closes the connection after
            // this answer: say so, or a client reuses the connection and its next request fails.
            ApiError::TooLarge { .. } => {
                headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            _ => {}
        }
        response
    }
}

/// The error code of a refusal that axum made in plain text (an extractor's rejection).
fn code_of(status: StatusCode) -> &'static str {
    match status {
        StatusCode::NOT_FOUND => "not_found",
        StatusCode::METHOD_NOT_ALLOWED => "method_not_allowed",
        StatusCode::REQUEST_TIMEOUT => "timeout",
        StatusCode::PAYLOAD_TOO_LARGE => "too_large",
        StatusCode::URI_TOO_LONG => "uri_too_long",
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "unsupported_media_type",
        s if s.is_server_error() => "internal",
        _ => "bad_request",
    }
}

/// A middleware: an error answered in plain text (a rejection of axum's own extractors, such as
/// a path that is not UTF-8 once decoded) gets the documented JSON body, with its text as the
/// message (issue 17, item 11).
pub async fn json_errors(req: Request, next: Next) -> Response {
    let response = next.run(req).await;
    let status = response.status();
    let plain = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/plain"));
    if !(status.is_client_error() || status.is_server_error()) || !plain {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let cut = shorten(text.trim(), MAX_MESSAGE);
    let body = serde_json::json!({"error": code_of(status), "message": cut}).to_string();
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, axum::body::Body::from(body))
}
