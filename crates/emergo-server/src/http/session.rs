//! Sessions: the `emergo_session` cookie (`HttpOnly`, `SameSite=Lax`, `Secure` when the
//! server's public URL is https) carries a random token; the database keeps its SHA-256 hash
//! in `sessions`, so that logging out (or deleting the account, or changing the password)
//! ends a session on every instance at once. A request's session is looked up only when a
//! handler needs it.
//!
//! Instead of the cookie, a request may carry a personal API token (issue 24) as
//! `Authorization: Bearer emt_…`: it logs its account in for the endpoints its scopes cover
//! ([`needs`], one table for every endpoint family) and is refused elsewhere (403 `bad_scope`).

use crate::http::error::ApiError;
use crate::services::accounts::sessions::Session;
use crate::services::accounts::tokens::{Needs, TokenSession};
use crate::services::accounts::Accounts;
use crate::services::error::ServiceError;
use crate::services::games::seats::Actor;
use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, Method};
use emergo_platform::domain::token::{Scope, Scopes};
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
/// A request's bearer API token, when it carries one, takes the cookie's place.
#[derive(Clone, Debug, Default)]
pub struct SessionCookie(pub Option<String>, Vec<String>, Option<Bearer>);

/// A request's `Authorization: Bearer` token and what its endpoint needs of it.
#[derive(Clone, Debug)]
pub struct Bearer {
    pub token: String,
    pub needs: Needs,
}

/// The longest `Authorization` header looked at.
const MAX_AUTHORIZATION: usize = 128;

/// The bearer token of `headers`, if any (`Authorization: Bearer <token>`).
pub fn bearer_token(headers: &HeaderMap) -> Option<String> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    if value.len() > MAX_AUTHORIZATION {
        return Some(String::new());
    }
    let (scheme, token) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim().to_string())
}

/// What an API token needs to act on the endpoint `path` with `method` (docs/api.md, "API
/// tokens"): the one table of the scopes of every endpoint family. An endpoint not named here
/// is read with `read` and changed from a session only.
pub fn needs(method: &Method, path: &str) -> Needs {
    let any = |scopes: &[Scope]| Needs::AnyOf(Scopes::of(scopes));
    let read = method == Method::GET || method == Method::HEAD;
    let segments: Vec<&str> = path.trim_end_matches('/').split('/').skip(1).collect();
    match segments.as_slice() {
        ["api", "tokens", ..] | ["api", "session"] | ["api", "accounts"] => Needs::SessionOnly,
        ["api", "me", "password"] => Needs::SessionOnly,
        ["api", "me"] if !read => Needs::SessionOnly,
        ["api", "bot", ..] => any(&[Scope::BotPlay]),
        ["api", "stream", "event"] => any(&[Scope::Read, Scope::BotPlay, Scope::BoardPlay]),
        ["api", "challenge", ..] => any(&[Scope::ChallengeWrite]),
        ["api", "seeks", ..] if !read => any(&[Scope::ChallengeWrite]),
        ["api", "seeks", ..] => any(&[Scope::Read, Scope::ChallengeWrite, Scope::BotPlay]),
        ["api", "games", _, "ws"] => any(&[Scope::Read, Scope::BoardPlay, Scope::BotPlay]),
        ["api", "games", _, _] if !read => any(&[Scope::BoardPlay, Scope::BotPlay]),
        ["api", "notifications", "read"] => any(&[Scope::Read]),
        _ if read => any(&[Scope::Read]),
        _ => Needs::SessionOnly,
    }
}

impl SessionCookie {
    /// The tokens of the `emergo_session` cookies among `headers`, empty ones left out (and
    /// no bearer token: see [`SessionCookie::from_parts`]).
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
        SessionCookie(first, tokens.collect(), None)
    }

    /// The request's credentials: its bearer token with what its endpoint needs, else its
    /// session cookies.
    pub fn from_parts(parts: &Parts) -> SessionCookie {
        let mut credentials = SessionCookie::from_headers(&parts.headers);
        credentials.2 = bearer_token(&parts.headers).map(|token| Bearer {
            token,
            needs: needs(&parts.method, parts.uri.path()),
        });
        credentials
    }

    /// Whether the request carries credentials of either kind.
    pub fn is_some(&self) -> bool {
        self.0.is_some() || self.2.is_some()
    }

    /// The request's bearer token, if it has one.
    pub fn bearer(&self) -> Option<&Bearer> {
        self.2.as_ref()
    }

    /// Every token, the first first.
    pub fn tokens(&self) -> impl Iterator<Item = &str> {
        self.0.iter().chain(&self.1).map(String::as_str)
    }

    /// The account the bearer token logs in (within its scopes: else an error), or else the
    /// first of the cookies whose session is alive.
    pub async fn account(&self, accounts: &Accounts) -> Result<Option<Session>, ServiceError> {
        match &self.2 {
            Some(bearer) => Ok(Some(self.token_session(accounts, bearer).await?.into())),
            None => accounts.session(self.tokens()).await,
        }
    }

    async fn token_session(
        &self,
        accounts: &Accounts,
        bearer: &Bearer,
    ) -> Result<TokenSession, ServiceError> {
        accounts.token_session(&bearer.token, bearer.needs).await
    }
}

impl<S: Send + Sync> FromRequestParts<S> for SessionCookie {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        Ok(SessionCookie::from_parts(parts))
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
        let cookie = SessionCookie::from_parts(parts);
        match cookie.account(&Arc::<Accounts>::from_ref(state)).await? {
            Some(session) => Ok(SignedIn(session)),
            None => Err(ApiError::Service(ServiceError::Unauthorized(
                "this needs an account's session (or an API token): log in first".to_string(),
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
