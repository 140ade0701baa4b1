//! Why a service said no: one typed error for the services (games, accounts, lobby, study,
//! engine), each variant a refusal of docs/api.md without its HTTP status: the HTTP layer
//! (`http::error`) gives every variant its status and JSON body in one place. A service that
//! returns one has changed nothing.

use emergo_platform::store::StoreError;
use std::time::Duration;

/// The longest part of a request an error message quotes.
pub const MAX_ECHO: usize = 40;

/// Why a service refused.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
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
    #[error("internal error: {0}")]
    Internal(String),
    /// Accounts (issue 11): no session, or a session that ended.
    #[error("{0}")]
    Unauthorized(String),
    /// An API token used beyond its scopes (issue 24), or where no token may act.
    #[error("{0}")]
    BadScope(String),
    /// A login with a wrong name or password.
    #[error("{0}")]
    BadCredentials(String),
    /// A new account's name is taken (regardless of case).
    #[error("{0}")]
    NameTaken(String),
    /// A seek was taken, withdrawn or expired before this acceptance.
    #[error("{0}")]
    SeekTaken(String),
    /// A new password that is weak; `reason` says how (`short`, `blank`, `repetitive`,
    /// `name`, `common`).
    #[error("{message}")]
    WeakPassword {
        reason: &'static str,
        message: String,
    },
}

impl ServiceError {
    pub fn game_not_found(id: &str) -> ServiceError {
        ServiceError::NotFound(format!("there is no game {}", echo(id)))
    }

    pub fn internal(err: impl std::fmt::Display) -> ServiceError {
        ServiceError::Internal(err.to_string())
    }

    /// Limit `cap` said no to what `what` says ("too many login attempts for this name"):
    /// 429 with `Retry-After`, the message ending "try again in N s" (N rounded up, at least 1).
    pub fn rate_limited(cap: &'static str, what: &str, wait: Duration) -> ServiceError {
        let secs = (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1);
        ServiceError::RateLimited {
            cap,
            message: format!("{what}; try again in {secs} s"),
            retry_after: wait,
        }
    }

    /// [`ServiceError::rate_limited`] for a `governor` limiter's refusal.
    pub fn rate_limited_until(
        cap: &'static str,
        what: &str,
        wait: &governor::NotUntil<governor::clock::QuantaInstant>,
    ) -> ServiceError {
        use governor::clock::Clock;
        let wait = wait.wait_time_from(governor::clock::DefaultClock::default().now());
        ServiceError::rate_limited(cap, what, wait)
    }

    /// The limit that said no, if one did.
    pub fn cap(&self) -> Option<&'static str> {
        match self {
            ServiceError::TooLarge { cap, .. }
            | ServiceError::RateLimited { cap, .. }
            | ServiceError::Busy { cap, .. } => Some(cap),
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

impl From<StoreError> for ServiceError {
    fn from(err: StoreError) -> ServiceError {
        match err {
            StoreError::Db(err) => err.into(),
            other => ServiceError::internal(other),
        }
    }
}

impl From<sqlx::Error> for ServiceError {
    fn from(err: sqlx::Error) -> ServiceError {
        if unavailable(&err) {
            ServiceError::DatabaseUnavailable(format!(
                "the database cannot be reached now; try again in a moment ({err})"
            ))
        } else {
            ServiceError::internal(format!("database: {err}"))
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
