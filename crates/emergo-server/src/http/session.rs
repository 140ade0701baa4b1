//! Sessions: the `emergo_session` cookie (`HttpOnly`, `SameSite=Lax`, `Secure` when the
//! server's public URL is https) carries a random token; the database keeps its SHA-256 hash
//! in `sessions`, so that logging out (or deleting the account, or changing the password)
//! ends a session on every instance at once. A request's session is looked up only when a
//! handler needs it.

use crate::http::error::ApiError;
use crate::services::accounts::sessions::Session;
use crate::services::accounts::Accounts;
use crate::services::error::ServiceError;
use crate::services::games::seats::Actor;
use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue};
use std::sync::Arc;

/// The cookie's name.
pub const COOKIE: &str = "emergo_session";

/// How long a session cookie lasts in the browser: 30 days.
const MAX_AGE_SECS: u64 = 30 * 24 * 3600;

/// The longest cookie value looked at (a session token is 32 characters).
const MAX_TOKEN: usize = 64;

/// The most `emergo_session` cookies of one request looked up.
const MAX_TOKENS: usize = 4;

/// The session token a request's `Cookie` header carries, if any (not checked yet): the first
/// non-empty `emergo_session` cookie, and the others after it (a browser may send two, one
/// of them empty or stale: issue 17, item 11).
#[derive(Clone, Debug, Default)]
pub struct SessionCookie(pub Option<String>, Vec<String>);

impl SessionCookie {
    /// The tokens of the `emergo_session` cookies among `headers`, empty ones left out.
    pub fn from_headers(headers: &HeaderMap) -> SessionCookie {
        let mut tokens = headers
            .get_all(header::COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(';'))
            .filter_map(|pair| pair.trim().split_once('='))
            .filter(|(name, _)| *name == COOKIE)
            .map(|(_, value)| value.trim().to_string())
            .filter(|t| !t.is_empty() && t.len() <= MAX_TOKEN)
            .take(MAX_TOKENS);
        let first = tokens.next();
        SessionCookie(first, tokens.collect())
    }

    /// Every token, the first first.
    pub fn tokens(&self) -> impl Iterator<Item = &str> {
        self.0.iter().chain(&self.1).map(String::as_str)
    }

    /// The account the first of the cookies whose session is alive logs in.
    pub async fn account(&self, accounts: &Accounts) -> Result<Option<Session>, ServiceError> {
        accounts.session(self.tokens()).await
    }
}

impl<S: Send + Sync> FromRequestParts<S> for SessionCookie {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        Ok(SessionCookie::from_headers(&parts.headers))
    }
}

/// A request that needs a session: 401 `unauthorized` without one.
pub struct SignedIn(pub Session);

impl<S: Send + Sync> FromRequestParts<S> for SignedIn
where
    Arc<Accounts>: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let cookie = SessionCookie::from_headers(&parts.headers);
        match cookie.account(&Arc::<Accounts>::from_ref(state)).await? {
            Some(session) => Ok(SignedIn(session)),
            None => Err(ApiError::Service(ServiceError::Unauthorized(
                "this needs an account's session: log in first".to_string(),
            ))),
        }
    }
}

/// Who acts for a seat in a request: its `token` when one is given, else the account of the
/// request's session (read only then: one database read, before the game's lock is taken).
pub async fn actor(
    accounts: &Accounts,
    token: Option<&str>,
    cookie: &SessionCookie,
) -> Result<Actor, ServiceError> {
    let account = match token.filter(|t| !t.is_empty()) {
        Some(_) => None,
        None => cookie.account(accounts).await?.map(|s| s.account.id),
    };
    Ok(Actor::new(token, account))
}

/// The `Set-Cookie` value that starts a session with `token`.
pub fn set_cookie(token: &str, secure: bool) -> HeaderValue {
    cookie_value(token, MAX_AGE_SECS, secure)
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn clear_cookie(secure: bool) -> HeaderValue {
    cookie_value("", 0, secure)
}

fn cookie_value(token: &str, max_age: u64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let text =
        format!("{COOKIE}={token}; Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax{secure}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_session_token_is_found_among_other_cookies() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("theme=dark; emergo_session=abc123; lang=fr"),
        );
        assert_eq!(
            SessionCookie::from_headers(&headers).0.as_deref(),
            Some("abc123")
        );
        assert_eq!(SessionCookie::from_headers(&HeaderMap::new()).0, None);
        // An empty one first does not hide the next.
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("emergo_session=; emergo_session=def456"),
        );
        assert_eq!(
            SessionCookie::from_headers(&headers).0.as_deref(),
            Some("def456")
        );
    }

    #[test]
    fn the_cookie_is_http_only_lax_and_secure_over_https() {
        let plain = set_cookie("t", false);
        let text = plain.to_str().expect("ASCII");
        assert!(text.contains("HttpOnly") && text.contains("SameSite=Lax"));
        assert!(!text.contains("Secure"));
        assert!(set_cookie("t", true)
            .to_str()
            .expect("ASCII")
            .ends_with("; Secure"));
        assert!(clear_cookie(false)
            .to_str()
            .expect("ASCII")
            .contains("Max-Age=0"));
    }
}
