//! The API's errors: each a status and a JSON body `{"error": code, "message": text}`
//! (docs/api.md), with `"cap"` naming the limit when a limit said no. A handler that returns one
//! has changed nothing.

pub use crate::services::error::{echo, shorten, ServiceError};
use axum::extract::rejection::{BytesRejection, JsonRejection, PathRejection, QueryRejection};
use axum::extract::Request;
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use emergo_platform::store::StoreError;
use std::time::Duration;

/// The longest message an error carries: an error never echoes more than a short part of what
/// it was sent.
pub const MAX_MESSAGE: usize = 600;

/// Why a request was refused: a service's refusal, or one of the edge's own.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error(transparent)]
    Service(#[from] ServiceError),
    #[error("the request's path and query are longer than {0} bytes")]
    UriTooLong(usize),
    /// A method the path does not answer; `allow` lists those it does.
    #[error("this endpoint does not answer that method")]
    MethodNotAllowed { allow: Option<HeaderValue> },
    #[error("{0}")]
    BadOrigin(String),
    #[error("{0}")]
    BadHost(String),
    /// The request took longer than the server's request timeout (its body never came).
    #[error("the request took more than {} s", .0.as_secs())]
    Timeout(Duration),
    /// A JSON endpoint sent a body that does not say it is JSON (`Content-Type`).
    #[error("{0}")]
    UnsupportedMediaType(String),
}

impl ApiError {
    /// The status and the stable `error` code: every answer's, in this one place.
    pub fn status_and_code(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::Service(refusal) => service_status(refusal),
            ApiError::UriTooLong(_) => (StatusCode::URI_TOO_LONG, "uri_too_long"),
            ApiError::MethodNotAllowed { .. } => {
                (StatusCode::METHOD_NOT_ALLOWED, "method_not_allowed")
            }
            ApiError::BadOrigin(_) => (StatusCode::FORBIDDEN, "bad_origin"),
            ApiError::BadHost(_) => (StatusCode::BAD_REQUEST, "bad_host"),
            ApiError::Timeout(_) => (StatusCode::REQUEST_TIMEOUT, "timeout"),
            ApiError::UnsupportedMediaType(_) => {
                (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type")
            }
        }
    }

    /// The limit that said no, if one did.
    pub fn cap(&self) -> Option<&'static str> {
        match self {
            ApiError::Service(refusal) => refusal.cap(),
            ApiError::UriTooLong(_) => Some("uri_bytes"),
            ApiError::Timeout(_) => Some("request_timeout"),
            _ => None,
        }
    }
}

/// A service's refusal as an HTTP status and code (docs/api.md).
fn service_status(refusal: &ServiceError) -> (StatusCode, &'static str) {
    match refusal {
        ServiceError::BadRequest(_)
        | ServiceError::BadRecord(_)
        | ServiceError::Explained { .. } => (StatusCode::BAD_REQUEST, "bad_request"),
        ServiceError::BadToken(_) => (StatusCode::FORBIDDEN, "bad_token"),
        ServiceError::NotFound(_) => (StatusCode::NOT_FOUND, "not_found"),
        ServiceError::NotYourTurn(_) => (StatusCode::CONFLICT, "not_your_turn"),
        ServiceError::StalePly { .. } => (StatusCode::CONFLICT, "stale_ply"),
        ServiceError::GameOver(_) => (StatusCode::CONFLICT, "game_over"),
        ServiceError::SeatTaken(_) => (StatusCode::CONFLICT, "seat_taken"),
        ServiceError::NotAllowed(_) => (StatusCode::CONFLICT, "not_allowed"),
        ServiceError::IllegalMove(_) => (StatusCode::UNPROCESSABLE_ENTITY, "illegal_move"),
        ServiceError::TooLarge { .. } => (StatusCode::PAYLOAD_TOO_LARGE, "too_large"),
        ServiceError::RateLimited { .. } => (StatusCode::TOO_MANY_REQUESTS, "rate_limited"),
        ServiceError::EngineBusy(_) => (StatusCode::SERVICE_UNAVAILABLE, "engine_busy"),
        ServiceError::Busy { .. } => (StatusCode::SERVICE_UNAVAILABLE, "busy"),
        ServiceError::DatabaseUnavailable(_) => {
            (StatusCode::SERVICE_UNAVAILABLE, "database_unavailable")
        }
        ServiceError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        ServiceError::Unauthorized(_) => (StatusCode::UNAUTHORIZED, "unauthorized"),
        ServiceError::BadScope(_) => (StatusCode::FORBIDDEN, "bad_scope"),
        ServiceError::BadCredentials(_) => (StatusCode::UNAUTHORIZED, "bad_credentials"),
        ServiceError::NameTaken(_) => (StatusCode::CONFLICT, "name_taken"),
        ServiceError::SeekTaken(_) => (StatusCode::CONFLICT, "seek_taken"),
        ServiceError::WeakPassword { .. } => (StatusCode::BAD_REQUEST, "weak_password"),
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> ApiError {
        ApiError::Service(err.into())
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(err: sqlx::Error) -> ApiError {
        ApiError::Service(err.into())
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        ApiError::Service(ServiceError::BadRequest(rejection.body_text()))
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> ApiError {
        ApiError::Service(ServiceError::BadRequest(rejection.body_text()))
    }
}

impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> ApiError {
        ApiError::Service(ServiceError::BadRequest(format!(
            "the path cannot be read: {}",
            rejection.body_text()
        )))
    }
}

impl From<BytesRejection> for ApiError {
    fn from(rejection: BytesRejection) -> ApiError {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::Service(ServiceError::TooLarge {
                cap: "body_size",
                message: "the request body is larger than this endpoint takes".to_string(),
            })
        } else {
            ApiError::Service(ServiceError::BadRequest(format!(
                "the request body cannot be read: {}",
                rejection.body_text()
            )))
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, code) = self.status_and_code();
        if status.is_server_error()
            && !matches!(
                self,
                ApiError::Service(
                    ServiceError::EngineBusy(_)
                        | ServiceError::Busy { .. }
                        | ServiceError::DatabaseUnavailable(_)
                )
            )
        {
            tracing::error!("{self}");
        }
        let message = match &self {
            ApiError::Service(ServiceError::Internal(_)) => {
                "internal error; the server's log says more".to_string()
            }
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
        if let ApiError::Service(ServiceError::RateLimited { retry_after, .. }) = &self {
            // The wait in milliseconds too (`Retry-After` has whole seconds).
            body["retry_after_ms"] = (retry_after.as_millis() as u64).into();
        }
        if let ApiError::Service(ServiceError::WeakPassword { reason, .. }) = &self {
            body["reason"] = (*reason).into();
        }
        if let ApiError::Service(ServiceError::Explained { fields, .. }) = &self {
            for (k, v) in fields {
                body[k] = v.clone();
            }
        }
        if let ApiError::Service(ServiceError::BadRecord(e)) = &self {
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
            ApiError::Service(ServiceError::RateLimited { retry_after, .. }) => {
                let secs = retry_after.as_secs() + u64::from(retry_after.subsec_nanos() > 0);
                headers.insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
            }
            ApiError::Service(
                ServiceError::EngineBusy(_)
                | ServiceError::Busy { .. }
                | ServiceError::DatabaseUnavailable(_),
            ) => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(1u64));
            }
            // The body over the cap is left unread, so the server closes the connection after
            // this answer: say so, or a client reuses the connection and its next request fails.
            ApiError::Service(ServiceError::TooLarge { .. }) => {
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

/// A service's refusal answered as it is (a handler that returns the service's error).
impl IntoResponse for ServiceError {
    fn into_response(self) -> Response {
        ApiError::Service(self).into_response()
    }
}
