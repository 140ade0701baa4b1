//! Accounts (issue 11, docs/api.md "Accounts, seeks, ratings"): sign-up, log in and out,
//! `GET /api/me`, password change, deletion. Names are 3–20 letters, digits, `_` or `-`,
//! unique regardless of case; passwords at least 8 characters and not weak ([`check_password`]),
//! stored as argon2id hashes computed on blocking threads in a fixed set of reused buffers
//! ([`Hashing`]), logins before sign-ups. Failed logins are limited per name and address, and per
//! name from every address but those that logged in to it before; every attempt per address.

pub mod players;
pub mod ratings;

use crate::domain::limits::ClientAddr;
use crate::domain::limits::Limits;
use crate::domain::model::{hash_secret, now_text, random_text};
use crate::http::router::Body;
use crate::http::session::{clear_cookie, set_cookie, SessionCookie, SignedIn};
use crate::services::accounts::players::ratings_json;
use crate::services::error::ServiceError;
use crate::services::games::AppState;
use crate::services::lobby::LobbyEvent;
use crate::store::accounts::AccountRow;
use crate::store::StoreError;
use argon2::password_hash::{Output, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use governor::{clock::Clock, DefaultKeyedRateLimiter, Quota};
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tokio::sync::{broadcast, Semaphore};

/// Password hashes computed at once, each in one of as many reused buffers of about 19 MiB
/// (argon2id's memory: allocated once, so the allocator does not keep a copy per thread).
const HASHES_AT_ONCE: usize = 4;

/// Of those, how many may be sign-ups: the others are kept for logins, which go first.
const SIGNUPS_AT_ONCE: usize = 2;

/// Sign-ups waiting for their hash, server-wide; beyond, 503 `busy` (cap `signups`).
const SIGNUPS_WAITING: usize = 32;

/// The name limit from every address is this many times the limit per name and address.
const NAME_LIMIT_FACTOR: u32 = 10;

/// How long a successful login lets its address past the name's limit from every address.
const KNOWN_FOR: Duration = Duration::from_secs(30 * 24 * 3600);

/// Keys a limiter of failed attempts (or the known addresses) holds at most.
const MAX_KEYS: usize = 100_000;

/// The longest password accepted, in bytes (the hash's work does not depend on it, but a
/// request body should not be hashed whole).
const MAX_PASSWORD: usize = 256;

/// What the accounts share: the cookie's `Secure` flag, the login limiters, the hashing and the
/// lobby's channel.
pub struct Accounts {
    secure: AtomicBool,
    /// Failed logins for one name from one address.
    by_name_client: Tries<(String, IpAddr)>,
    /// Failed logins for one name from every address (those in `known` pass it).
    by_name: Tries<String>,
    /// Addresses that logged in to a name, and when.
    known: Mutex<HashMap<(String, IpAddr), Instant>>,
    /// Wrong current passwords of one account (password change, deletion): their own limit.
    by_account: Tries<i64>,
    /// Every login and sign-up attempt from one address.
    by_client: DefaultKeyedRateLimiter<IpAddr>,
    hashing: Hashing,
    /// Seeks and challenges made by one account.
    pub seeks_rate: DefaultKeyedRateLimiter<i64>,
    /// Lobby events (seeks changed, a seek was taken) for the lobby WebSockets.
    pub lobby: broadcast::Sender<LobbyEvent>,
}

fn quota(burst: u32, every: Duration) -> Quota {
    let burst = NonZeroU32::new(burst.max(1)).unwrap_or(NonZeroU32::MIN);
    Quota::with_period(every.max(Duration::from_nanos(1)))
        .unwrap_or_else(|| Quota::per_second(burst))
        .allow_burst(burst)
}

/// A limit on failed attempts per key: `burst` at once, then one more every `every`; an attempt
/// that succeeds is given back (a token bucket kept as the time it is full again).
struct Tries<K> {
    burst: u32,
    every: Duration,
    full_at: Mutex<HashMap<K, Instant>>,
}

impl<K: Hash + Eq + Clone> Tries<K> {
    fn new(burst: u32, every: Duration) -> Tries<K> {
        Tries {
            burst: burst.max(1),
            every,
            full_at: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one attempt for `key`, or says how long to wait for one.
    fn take(&self, key: &K) -> Result<(), Duration> {
        let now = Instant::now();
        let mut map = self.full_at.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= MAX_KEYS && !map.contains_key(key) {
            map.retain(|_, full| *full > now);
            if map.len() >= MAX_KEYS {
                return Err(self.every);
            }
        }
        let full = map.get(key).copied().filter(|f| *f > now).unwrap_or(now);
        let used = full - now;
        let room = self.every * (self.burst - 1);
        if used > room {
            return Err(used - room);
        }
        map.insert(key.clone(), full + self.every);
        Ok(())
    }

    /// Gives back the attempt `take` took for `key` (it succeeded).
    fn give_back(&self, key: &K) {
        let now = Instant::now();
        let mut map = self.full_at.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(full) = map.get_mut(key) {
            *full = full.checked_sub(self.every).unwrap_or(now);
            if *full <= now {
                map.remove(key);
            }
        }
    }

    /// Forgets keys whose attempts are all back.
    fn forget_idle(&self) {
        let now = Instant::now();
        let mut map = self.full_at.lock().unwrap_or_else(|e| e.into_inner());
        map.retain(|_, full| *full > now);
    }
}

/// Who a login attempt is: the address, the name's key, and whether the address may pass the
/// name's limit from every address (it logged in to it before, or holds its session).
struct Attempt {
    client: IpAddr,
    key: String,
    known: bool,
}

impl Accounts {
    pub fn new(limits: &Limits) -> Accounts {
        let (burst, every) = (limits.logins_per_name_burst, limits.logins_per_name_every);
        Accounts {
            secure: AtomicBool::new(false),
            by_name_client: Tries::new(burst, every),
            by_name: Tries::new(
                burst.saturating_mul(NAME_LIMIT_FACTOR),
                every / NAME_LIMIT_FACTOR,
            ),
            known: Mutex::new(HashMap::new()),
            by_account: Tries::new(burst, every),
            by_client: DefaultKeyedRateLimiter::keyed(quota(
                limits.logins_per_client_burst,
                limits.logins_per_client_every,
            )),
            hashing: Hashing::new(),
            seeks_rate: DefaultKeyedRateLimiter::keyed(quota(
                limits.seeks_burst,
                limits.seeks_every,
            )),
            lobby: broadcast::channel(64).0,
        }
    }

    /// Cookies get `Secure` (the server is reached over https).
    pub fn set_secure(&self, secure: bool) {
        self.secure.store(secure, Ordering::Relaxed);
    }

    pub fn secure(&self) -> bool {
        self.secure.load(Ordering::Relaxed)
    }

    /// Forgets limiter keys not seen for a while.
    pub fn forget_idle(&self) {
        self.by_client.retain_recent();
        self.seeks_rate.retain_recent();
        self.by_name_client.forget_idle();
        self.by_name.forget_idle();
        self.by_account.forget_idle();
        let now = Instant::now();
        self.known
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|_, at| now.duration_since(*at) < KNOWN_FOR);
    }

    /// One login or sign-up attempt from `client`: 429 `rate_limited` beyond its limit.
    fn attempt_from(&self, client: IpAddr) -> Result<(), ServiceError> {
        let clock = governor::clock::DefaultClock::default();
        if let Err(wait) = self.by_client.check_key(&client) {
            let wait = wait.wait_time_from(clock.now());
            return Err(limited("logins_per_client", "from this address", wait));
        }
        Ok(())
    }

    /// One login attempt for a name: 429 beyond the limit per name and address, or beyond the
    /// name's limit from every address unless the attempt is `known`.
    fn attempt_login(&self, attempt: &Attempt) -> Result<(), ServiceError> {
        self.attempt_from(attempt.client)?;
        let pair = (attempt.key.clone(), attempt.client);
        if let Err(wait) = self.by_name_client.take(&pair) {
            return Err(limited("logins_per_name", "for this name", wait));
        }
        if !attempt.known {
            if let Err(wait) = self.by_name.take(&attempt.key) {
                self.by_name_client.give_back(&pair);
                return Err(limited("logins_per_name", "for this name", wait));
            }
        }
        Ok(())
    }

    /// A login succeeded: its attempts are given back, and its address is known to the name.
    fn logged_in(&self, attempt: &Attempt) {
        let pair = (attempt.key.clone(), attempt.client);
        self.by_name_client.give_back(&pair);
        if !attempt.known {
            self.by_name.give_back(&attempt.key);
        }
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        if known.len() >= MAX_KEYS {
            let now = Instant::now();
            known.retain(|_, at| now.duration_since(*at) < KNOWN_FOR);
        }
        if known.len() < MAX_KEYS || known.contains_key(&pair) {
            known.insert(pair, Instant::now());
        }
    }

    fn is_known(&self, key: &str, client: IpAddr) -> bool {
        self.known
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&(key.to_string(), client))
            .is_some_and(|at| at.elapsed() < KNOWN_FOR)
    }

    /// Checks the current password of a signed-in account (password change, deletion) under
    /// the account's own limit, not the login limits; `work` runs when it matches.
    async fn confirm<T: Send + 'static>(
        &self,
        account: &AccountRow,
        password: String,
        work: impl FnOnce(&mut [Block]) -> Result<T, ServiceError> + Send + 'static,
    ) -> Result<T, ServiceError> {
        if let Err(wait) = self.by_account.take(&account.id) {
            return Err(ServiceError::RateLimited {
                cap: "password_tries",
                message: format!(
                    "too many wrong passwords for this account; try again in {} s",
                    wait.as_secs().max(1)
                ),
                retry_after: wait,
            });
        }
        let stored = account.password_hash.clone();
        let result = self
            .hashing
            .run(Job::Login, move |memory| {
                if password_matches(&password, &stored, memory) {
                    work(memory).map(Some)
                } else {
                    Ok(None)
                }
            })
            .await??;
        match result {
            Some(done) => {
                self.by_account.give_back(&account.id);
                Ok(done)
            }
            None => Err(ServiceError::BadCredentials(
                "the current password is wrong".to_string(),
            )),
        }
    }
}

/// What a hash is for: logins take any free buffer; sign-ups at most [`SIGNUPS_AT_ONCE`], at
/// most [`SIGNUPS_WAITING`] waiting.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Job {
    Login,
    SignUp,
}

/// argon2id on blocking threads, [`HASHES_AT_ONCE`] at a time, each in one of as many memory
/// buffers made on first use and reused ever after.
struct Hashing {
    permits: Semaphore,
    signups: Semaphore,
    signups_waiting: AtomicUsize,
    buffers: Mutex<Vec<Vec<Block>>>,
}

/// Counts a waiting sign-up until dropped.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Hashing {
    fn new() -> Hashing {
        Hashing {
            permits: Semaphore::new(HASHES_AT_ONCE),
            signups: Semaphore::new(SIGNUPS_AT_ONCE),
            signups_waiting: AtomicUsize::new(0),
            buffers: Mutex::new(Vec::new()),
        }
    }

    /// Runs `work` with a buffer of argon2 memory on a blocking thread.
    async fn run<T: Send + 'static>(
        &self,
        job: Job,
        work: impl FnOnce(&mut [Block]) -> T + Send + 'static,
    ) -> Result<T, ServiceError> {
        let _signup = if job == Job::SignUp {
            if self.signups_waiting.fetch_add(1, Ordering::SeqCst) >= SIGNUPS_WAITING {
                self.signups_waiting.fetch_sub(1, Ordering::SeqCst);
                return Err(ServiceError::Busy {
                    cap: "signups",
                    message: "too many sign-ups at once on this server; try again in a moment"
                        .to_string(),
                });
            }
            let waiting = Waiting(&self.signups_waiting);
            let permit = self
                .signups
                .acquire()
                .await
                .map_err(ServiceError::internal)?;
            Some((waiting, permit))
        } else {
            None
        };
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(ServiceError::internal)?;
        let buffer = self.buffers.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut buffer =
            buffer.unwrap_or_else(|| vec![Block::default(); Params::default().block_count()]);
        let (result, buffer) = tokio::task::spawn_blocking(move || {
            let result = work(&mut buffer);
            (result, buffer)
        })
        .await
        .map_err(ServiceError::internal)?;
        self.buffers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(buffer);
        Ok(result)
    }
}

fn limited(cap: &'static str, whose: &str, wait: Duration) -> ServiceError {
    ServiceError::RateLimited {
        cap,
        message: format!(
            "too many login attempts {whose}; try again in {} s",
            wait.as_secs().max(1)
        ),
        retry_after: wait,
    }
}

/// A name's key: its lower-case form (names are unique regardless of case).
pub fn name_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// 3 to 20 characters, each a letter, a digit, `_` or `-`.
pub fn check_name(name: &str) -> Result<(), ServiceError> {
    let ok = (3..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if ok {
        Ok(())
    } else {
        Err(ServiceError::BadRequest(
            "a name has 3 to 20 characters, each a letter, a digit, _ or -".to_string(),
        ))
    }
}

/// The commonest passwords, one a line: John the Ripper's `password.lst` (3,546 entries,
/// compiled by Solar Designer of the Openwall Project, 1996–2011, "assumed to be in the public
/// domain"), as Debian's `john-data` package ships it in /usr/share/john/password.lst.
const COMMON_PASSWORDS: &str = include_str!("../../../data/common-passwords.txt");

/// The common passwords in lower case (compared regardless of case).
fn common_passwords() -> &'static HashSet<String> {
    static SET: std::sync::OnceLock<HashSet<String>> = std::sync::OnceLock::new();
    SET.get_or_init(|| {
        COMMON_PASSWORDS
            .lines()
            .filter(|l| !l.starts_with("#!comment:"))
            .map(str::to_lowercase)
            .collect()
    })
}

/// Why a password is refused (the `reason` of a `weak_password` error, which the page words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Weakness {
    /// Fewer than 8 characters.
    Short,
    /// Only spaces and control characters.
    Blank,
    /// Fewer than 4 different characters.
    Repetitive,
    /// The name, or the name with a few characters around it, or reversed.
    Name,
    /// Among the commonest passwords.
    Common,
}

impl Weakness {
    pub fn code(self) -> &'static str {
        match self {
            Weakness::Short => "short",
            Weakness::Blank => "blank",
            Weakness::Repetitive => "repetitive",
            Weakness::Name => "name",
            Weakness::Common => "common",
        }
    }

    fn message(self) -> &'static str {
        match self {
            Weakness::Short => "a password has at least 8 characters",
            Weakness::Blank => "a password cannot be only spaces or control characters",
            Weakness::Repetitive => "a password has at least 4 different characters",
            Weakness::Name => {
                "a password cannot be the name, nor the name with a few characters added"
            }
            Weakness::Common => "this password is among the commonest passwords; choose another",
        }
    }
}

/// Whether `password` is weak for an account named `name`: short, blank, repetitive, built on
/// the name (the name or its reverse with fewer than 4 other characters), or one of the
/// commonest passwords (regardless of case).
pub fn weakness(name: &str, password: &str) -> Option<Weakness> {
    if password.chars().count() < 8 {
        return Some(Weakness::Short);
    }
    if password
        .chars()
        .all(|c| c.is_whitespace() || c.is_control())
    {
        return Some(Weakness::Blank);
    }
    if password.chars().collect::<HashSet<char>>().len() < 4 {
        return Some(Weakness::Repetitive);
    }
    let lower = password.to_lowercase();
    let name = name.to_lowercase();
    let reversed: String = name.chars().rev().collect();
    let on_name = [name.as_str(), reversed.as_str()].iter().any(|n| {
        !n.is_empty() && lower.contains(n) && lower.chars().count() - n.chars().count() < 4
    });
    if on_name {
        return Some(Weakness::Name);
    }
    if common_passwords().contains(&lower) {
        return Some(Weakness::Common);
    }
    None
}

/// A new password for `name`: 400 `weak_password` (with its `reason`) when weak, 400 when too
/// long to be hashed whole.
fn check_password(name: &str, password: &str) -> Result<(), ServiceError> {
    if password.len() > MAX_PASSWORD {
        return Err(ServiceError::BadRequest(format!(
            "a password has at most {MAX_PASSWORD} bytes"
        )));
    }
    match weakness(name, password) {
        Some(weak) => Err(ServiceError::WeakPassword {
            reason: weak.code(),
            message: weak.message().to_string(),
        }),
        None => Ok(()),
    }
}

/// The argon2id of the server's hashes (argon2's defaults: 19 MiB, 2 passes, 1 lane).
fn argon2id() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::default())
}

/// The argon2id hash of `password` (PHC string, as argon2's `PasswordHasher` writes it), with a
/// fresh random salt, computed in `memory`.
fn hash_password(password: &str, memory: &mut [Block]) -> Result<String, ServiceError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(ServiceError::internal)?;
    let salt = SaltString::encode_b64(&bytes).map_err(ServiceError::internal)?;
    let mut out = [0u8; Params::DEFAULT_OUTPUT_LEN];
    argon2id()
        .hash_password_into_with_memory(password.as_bytes(), &bytes, &mut out, memory)
        .map_err(ServiceError::internal)?;
    let params = Params::default();
    let hash = Output::new(&out).map_err(ServiceError::internal)?;
    Ok(format!(
        "$argon2id$v=19$m={},t={},p={}${}${hash}",
        params.m_cost(),
        params.t_cost(),
        params.p_cost(),
        salt.as_str()
    ))
}

/// Whether `password` matches the stored hash, computed in `memory` (an unreadable hash, or
/// one that needs more memory than a buffer holds, matches nothing).
fn password_matches(password: &str, stored: &str, memory: &mut [Block]) -> bool {
    let Ok(hash) = PasswordHash::new(stored) else {
        return false;
    };
    let (Some(expected), Some(salt)) = (hash.hash, hash.salt) else {
        return false;
    };
    let (Ok(algorithm), Ok(params)) =
        (Algorithm::try_from(hash.algorithm), Params::try_from(&hash))
    else {
        return false;
    };
    let version = hash
        .version
        .map_or(Ok(Version::V0x13), Version::try_from)
        .unwrap_or(Version::V0x13);
    let mut salt_bytes = [0u8; 64];
    let Ok(salt) = salt.decode_b64(&mut salt_bytes) else {
        return false;
    };
    let mut out = vec![0u8; expected.len()];
    let ok = Argon2::new(algorithm, version, params)
        .hash_password_into_with_memory(password.as_bytes(), salt, &mut out, memory)
        .is_ok();
    ok && Output::new(&out).is_ok_and(|got| got == expected)
}

/// A hash nothing matches, verified for unknown names so that they take as long as known ones
/// (made on a blocking thread, by the first login that needs it).
fn dummy_hash(memory: &mut [Block]) -> String {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| hash_password(&random_text(16), memory).unwrap_or_default())
        .clone()
}

#[derive(Deserialize)]
pub struct Credentials {
    name: String,
    password: String,
}

/// The answer of sign-up, login and `GET /api/me`: the name, when the account was made and its
/// ratings.
async fn me_json(
    state: &AppState,
    account: &AccountRow,
) -> Result<serde_json::Value, ServiceError> {
    let ratings = state.store.ratings_of(account.id).await?;
    Ok(serde_json::json!({
        "name": account.name,
        "created_at": account.created_at,
        "ratings": ratings_json(&ratings),
    }))
}

/// Starts a session for `account`: the answer with its cookie.
async fn start_session(
    state: &AppState,
    account: &AccountRow,
    status: StatusCode,
) -> Result<Response, ServiceError> {
    let token = random_text(32);
    state
        .store
        .insert_session(&hash_secret(&token), account.id, &now_text())
        .await?;
    let body = me_json(state, account).await?;
    let cookie = set_cookie(&token, state.accounts.secure());
    Ok((status, [(header::SET_COOKIE, cookie)], Json(body)).into_response())
}

/// `POST /api/accounts`.
pub async fn sign_up(
    State(state): State<AppState>,
    Extension(client): Extension<ClientAddr>,
    Body(body): Body<Credentials>,
) -> Result<Response, ServiceError> {
    check_name(&body.name)?;
    check_password(&body.name, &body.password)?;
    state.accounts.attempt_from(client.0)?;
    let key = name_key(&body.name);
    if state.store.account_by_key(&key).await?.is_some() {
        return Err(name_taken(&body.name));
    }
    let password = body.password;
    let hash = state
        .accounts
        .hashing
        .run(Job::SignUp, move |memory| hash_password(&password, memory))
        .await??;
    let now = now_text();
    let id = match state
        .store
        .create_account(&body.name, &key, &hash, &now)
        .await
    {
        Ok(id) => id,
        Err(StoreError::Conflict(_)) => return Err(name_taken(&body.name)),
        Err(err) => return Err(err.into()),
    };
    let account = AccountRow {
        id,
        name: body.name,
        password_hash: hash,
        created_at: now,
    };
    state.accounts.logged_in(&Attempt {
        client: client.0,
        key,
        known: true,
    });
    start_session(&state, &account, StatusCode::CREATED).await
}

fn name_taken(name: &str) -> ServiceError {
    ServiceError::NameTaken(format!(
        "the name {} is taken (names are compared regardless of case)",
        crate::http::error::echo(name)
    ))
}

/// `POST /api/session`: log in. A client holding a session of the account, or whose address
/// logged in to it before, is not held back by other addresses' failed tries on the name.
pub async fn log_in(
    State(state): State<AppState>,
    Extension(client): Extension<ClientAddr>,
    cookie: SessionCookie,
    Body(body): Body<Credentials>,
) -> Result<Response, ServiceError> {
    let key = name_key(&body.name);
    let mut known = state.accounts.is_known(&key, client.0);
    if !known && cookie.0.is_some() {
        known = cookie
            .account(&state)
            .await?
            .is_some_and(|s| name_key(&s.account.name) == key);
    }
    let attempt = Attempt {
        client: client.0,
        key,
        known,
    };
    state.accounts.attempt_login(&attempt)?;
    let account = if body.name.len() <= 20 {
        state.store.account_by_key(&attempt.key).await?
    } else {
        None
    };
    let stored = account.as_ref().map(|a| a.password_hash.clone());
    let password = body.password;
    let matches = password.len() <= MAX_PASSWORD
        && state
            .accounts
            .hashing
            .run(Job::Login, move |memory| {
                let stored = stored.unwrap_or_else(|| dummy_hash(memory));
                password_matches(&password, &stored, memory)
            })
            .await?;
    match account {
        Some(account) if matches => {
            state.accounts.logged_in(&attempt);
            start_session(&state, &account, StatusCode::OK).await
        }
        _ => Err(ServiceError::BadCredentials(
            "no account has this name and password".to_string(),
        )),
    }
}

/// `DELETE /api/session`: log out (the session ends on the server too).
pub async fn log_out(
    State(state): State<AppState>,
    cookie: SessionCookie,
) -> Result<Response, ServiceError> {
    if let Some(token) = &cookie.0 {
        state.store.delete_session(&hash_secret(token)).await?;
    }
    let cookie = clear_cookie(state.accounts.secure());
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response())
}

/// `GET /api/me`: who is logged in, or `null` for nobody (an expected answer, not an error).
/// Also keeps the account's real-time seeks alive.
pub async fn me(
    State(state): State<AppState>,
    cookie: SessionCookie,
) -> Result<Json<serde_json::Value>, ServiceError> {
    let Some(session) = cookie.account(&state).await? else {
        return Ok(Json(serde_json::Value::Null));
    };
    crate::services::lobby::owner_is_around(&state, session.account.id).await;
    Ok(Json(me_json(&state, &session.account).await?))
}

#[derive(Deserialize)]
pub struct NewPassword {
    password: String,
    new_password: String,
}

/// `POST /api/me/password`: the current password and the new one; the other sessions end.
/// Wrong current passwords count against the account's own limit, not the login limits.
pub async fn change_password(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Body(body): Body<NewPassword>,
) -> Result<StatusCode, ServiceError> {
    let account = session.account;
    check_password(&account.name, &body.new_password)?;
    let new = body.new_password;
    let hash = state
        .accounts
        .confirm(&account, body.password, move |memory| {
            hash_password(&new, memory)
        })
        .await?;
    state
        .store
        .set_password(account.id, &hash, &session.token_hash)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
pub struct Confirm {
    password: String,
}

/// `DELETE /api/me` with the password: the account goes, its games stay. Wrong passwords
/// count against the account's own limit, not the login limits.
pub async fn delete_account(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    Body(body): Body<Confirm>,
) -> Result<Response, ServiceError> {
    let account = session.account;
    state
        .accounts
        .confirm(&account, body.password, |_| Ok(()))
        .await
        .map_err(|err| match err {
            ServiceError::BadCredentials(_) => {
                ServiceError::BadCredentials("the password is wrong".to_string())
            }
            other => other,
        })?;
    state.store.delete_account(account.id, &now_text()).await?;
    let _ = state.accounts.lobby.send(LobbyEvent::SeeksChanged);
    let cookie = clear_cookie(state.accounts.secure());
    Ok((StatusCode::NO_CONTENT, [(header::SET_COOKIE, cookie)]).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_have_3_to_20_safe_characters() {
        for good in ["abc", "Alice_1", "a-b-c", "x".repeat(20).as_str()] {
            assert!(check_name(good).is_ok(), "{good}");
        }
        for bad in [
            "ab",
            "",
            "x".repeat(21).as_str(),
            "a b c",
            "名前です",
            "a.b.c",
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
        assert_eq!(name_key("AlIcE"), "alice");
    }

    fn memory() -> Vec<Block> {
        vec![Block::default(); Params::default().block_count()]
    }

    #[test]
    fn passwords_are_argon2id_hashes_that_verify_with_argon2s_own_verifier() {
        use argon2::password_hash::{PasswordHasher, PasswordVerifier};
        let memory = &mut memory();
        let hash = hash_password("correct horse", memory).expect("hash");
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(password_matches("correct horse", &hash, memory));
        assert!(!password_matches("wrong horse", &hash, memory));
        assert!(!password_matches("correct horse", "not a hash", memory));
        assert_ne!(
            hash,
            hash_password("correct horse", memory).expect("hash"),
            "salted"
        );
        // The same PHC strings as argon2's own hasher: each verifies the other's.
        let parsed = PasswordHash::new(&hash).expect("PHC");
        assert!(Argon2::default()
            .verify_password(b"correct horse", &parsed)
            .is_ok());
        let salt = SaltString::encode_b64(b"0123456789abcdef").expect("salt");
        let theirs = Argon2::default()
            .hash_password(b"correct horse", &salt)
            .expect("hash")
            .to_string();
        assert!(password_matches("correct horse", &theirs, memory));
        assert!(!password_matches("correct horsf", &theirs, memory));
    }

    /// Issue 17 item 10.
    #[test]
    fn weak_passwords_are_refused_with_their_reason() {
        let weak = |name: &str, password: &str| weakness(name, password).map(Weakness::code);
        assert_eq!(weak("alice", "1234567"), Some("short"));
        assert_eq!(weak("alice", "        "), Some("blank"));
        assert_eq!(weak("alice", "\0\0\0\0\0\0\0\0"), Some("blank"));
        assert_eq!(weak("alice", " \t\n\r \u{1}\u{7f} "), Some("blank"));
        assert_eq!(weak("alice", "abababab"), Some("repetitive"));
        assert_eq!(weak("mallory", "malloryxx"), Some("name"));
        assert_eq!(weak("mallory", "MALLORY1"), Some("name"));
        assert_eq!(weak("mallory", "yrollam12"), Some("name"));
        assert_eq!(weak("Bob_the_builder", "bob_the_builder"), Some("name"));
        assert_eq!(weak("alice", "12345678"), Some("common"));
        assert_eq!(weak("alice", "Password1"), Some("common"));
        assert_eq!(weak("alice", "baseball"), Some("common"));
        assert!(
            common_passwords().len() > 3000,
            "{}",
            common_passwords().len()
        );
        for good in [
            "correct horse",
            "password-of-test",
            "mallory and a long phrase",
            "très bien joué",
        ] {
            assert_eq!(weak("mallory", good), None, "{good}");
        }
        assert!(check_password("alice", &"x".repeat(300)).is_err());
    }

    /// Issue 17 item 7: while sign-ups hold their share of the hashing, a login runs at once;
    /// sign-ups beyond the waiting cap are refused; the memory buffers are made once.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn logins_go_before_sign_ups_and_the_buffers_are_made_once() {
        use std::sync::atomic::AtomicBool;
        use std::sync::Arc;
        let hashing = Arc::new(Hashing::new());
        let go = Arc::new(AtomicBool::new(false));
        let running = Arc::new(AtomicUsize::new(0));
        let signups: Vec<_> = (0..SIGNUPS_WAITING + 8)
            .map(|_| {
                let (hashing, go, running) = (hashing.clone(), go.clone(), running.clone());
                tokio::spawn(async move {
                    hashing
                        .run(Job::SignUp, move |_| {
                            running.fetch_add(1, Ordering::SeqCst);
                            while !go.load(Ordering::SeqCst) {
                                std::thread::sleep(Duration::from_millis(1));
                            }
                        })
                        .await
                })
            })
            .collect();
        while running.load(Ordering::SeqCst) < SIGNUPS_AT_ONCE {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        let login = tokio::time::timeout(
            Duration::from_secs(10),
            hashing.run(Job::Login, |memory| memory.len()),
        )
        .await
        .expect("the login runs while the sign-ups wait")
        .expect("hashed");
        assert_eq!(login, Params::default().block_count());
        assert_eq!(running.load(Ordering::SeqCst), SIGNUPS_AT_ONCE);
        go.store(true, Ordering::SeqCst);
        let mut busy = 0;
        for task in signups {
            match task.await.expect("joined") {
                Ok(()) => {}
                Err(ServiceError::Busy { cap: "signups", .. }) => busy += 1,
                Err(other) => panic!("{other}"),
            }
        }
        assert_eq!(busy, 8, "beyond {SIGNUPS_WAITING} sign-ups at once");
        let buffers = hashing.buffers.lock().expect("buffers").len();
        assert!(buffers <= HASHES_AT_ONCE, "{buffers} buffers");
    }

    #[test]
    fn failed_tries_are_limited_and_a_success_is_given_back() {
        let tries: Tries<&str> = Tries::new(3, Duration::from_secs(60));
        for _ in 0..3 {
            assert!(tries.take(&"a").is_ok());
        }
        let wait = tries.take(&"a").expect_err("over the burst");
        assert!(
            wait > Duration::from_secs(50) && wait <= Duration::from_secs(60),
            "{wait:?}"
        );
        assert!(tries.take(&"b").is_ok(), "another key");
        tries.give_back(&"a");
        assert!(tries.take(&"a").is_ok(), "a success gives its try back");
        assert!(tries.take(&"a").is_err());
    }
}
