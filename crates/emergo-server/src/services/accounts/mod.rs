//! Accounts (issue 11, docs/api.md "Accounts, seeks, ratings"): sign-up, log in and out,
//! `GET /api/me`, password change, deletion. Names are 3–20 letters, digits, `_` or `-`,
//! unique regardless of case; passwords at least 8 characters and not weak ([`check_password`]),
//! stored as argon2id hashes computed on blocking threads in a fixed set of reused buffers
//! ([`Hashing`]), logins before sign-ups. Failed logins are limited per name and address, and per
//! name from every address but those that logged in to it before; every attempt per address.

pub mod players;
pub mod sessions;
pub mod tokens;

use crate::services::error::ServiceError;
use argon2::password_hash::{Output, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use emergo_platform::domain::limits::Limits;
use emergo_platform::domain::model::random_text;
use emergo_platform::store::accounts::AccountRow;
use emergo_platform::store::Store;
use governor::{clock::Clock, DefaultKeyedRateLimiter, Quota};
use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// Password hashes computed at once, each in one of as many reused buffers of about 19 MiB
/// (argon2id's memory: allocated once, so the allocator does not keep a copy per thread).
pub const HASHES_AT_ONCE: usize = 4;

/// Of those, how many may be sign-ups: the others are kept for logins, which go first.
pub const SIGNUPS_AT_ONCE: usize = 2;

/// Sign-ups waiting for their hash, server-wide; beyond, 503 `busy` (cap `signups`).
pub const SIGNUPS_WAITING: usize = 32;

/// The name limit from every address is this many times the limit per name and address.
pub const NAME_LIMIT_FACTOR: u32 = 10;

/// How long a successful login lets its address past the name's limit from every address.
pub const KNOWN_FOR: Duration = Duration::from_secs(30 * 24 * 3600);

/// Keys a limiter of failed attempts (or the known addresses) holds at most.
pub const MAX_KEYS: usize = 100_000;

/// The longest password accepted, in bytes (the hash's work does not depend on it, but a
/// request body should not be hashed whole).
pub const MAX_PASSWORD: usize = 256;

/// What the accounts share: the cookie's `Secure` flag, the login limiters and the hashing.
pub struct Accounts {
    pub secure: AtomicBool,
    /// Failed logins for one name from one address.
    pub by_name_client: Tries<(String, IpAddr)>,
    /// Failed logins for one name from every address (those in `known` pass it).
    pub by_name: Tries<String>,
    /// Addresses that logged in to a name, and when.
    pub known: Mutex<HashMap<(String, IpAddr), Instant>>,
    /// Wrong current passwords of one account (password change, deletion): their own limit.
    pub by_account: Tries<i64>,
    /// Every login and sign-up attempt from one address.
    pub by_client: DefaultKeyedRateLimiter<IpAddr>,
    pub hashing: Hashing,
    /// The accounts, sessions and ratings.
    store: Store,
}

pub fn quota(burst: u32, every: Duration) -> Quota {
    let burst = NonZeroU32::new(burst.max(1)).unwrap_or(NonZeroU32::MIN);
    Quota::with_period(every.max(Duration::from_nanos(1)))
        .unwrap_or_else(|| Quota::per_second(burst))
        .allow_burst(burst)
}

/// A limit on failed attempts per key: `burst` at once, then one more every `every`; an attempt
/// that succeeds is given back (a token bucket kept as the time it is full again).
pub struct Tries<K> {
    pub burst: u32,
    pub every: Duration,
    pub full_at: Mutex<HashMap<K, Instant>>,
}

impl<K: Hash + Eq + Clone> Tries<K> {
    pub fn new(burst: u32, every: Duration) -> Tries<K> {
        Tries {
            burst: burst.max(1),
            every,
            full_at: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one attempt for `key`, or says how long to wait for one.
    pub fn take(&self, key: &K) -> Result<(), Duration> {
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
    pub fn give_back(&self, key: &K) {
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
    pub fn forget_idle(&self) {
        let now = Instant::now();
        let mut map = self.full_at.lock().unwrap_or_else(|e| e.into_inner());
        map.retain(|_, full| *full > now);
    }
}

/// Who a login attempt is: the address, the name's key, and whether the address may pass the
/// name's limit from every address (it logged in to it before, or holds its session).
pub struct Attempt {
    pub client: IpAddr,
    pub key: String,
    pub known: bool,
}

impl Accounts {
    pub fn new(limits: &Limits, store: Store) -> Accounts {
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
            store,
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
    pub fn attempt_from(&self, client: IpAddr) -> Result<(), ServiceError> {
        let clock = governor::clock::DefaultClock::default();
        if let Err(wait) = self.by_client.check_key(&client) {
            let wait = wait.wait_time_from(clock.now());
            return Err(limited("logins_per_client", "from this address", wait));
        }
        Ok(())
    }

    /// One login attempt for a name: 429 beyond the limit per name and address, or beyond the
    /// name's limit from every address unless the attempt is `known`.
    pub fn attempt_login(&self, attempt: &Attempt) -> Result<(), ServiceError> {
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
    pub fn logged_in(&self, attempt: &Attempt) {
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

    pub fn is_known(&self, key: &str, client: IpAddr) -> bool {
        self.known
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&(key.to_string(), client))
            .is_some_and(|at| at.elapsed() < KNOWN_FOR)
    }

    /// Checks the current password of a signed-in account (password change, deletion) under
    /// the account's own limit, not the login limits; `work` runs when it matches.
    pub async fn confirm<T: Send + 'static>(
        &self,
        account: &AccountRow,
        password: String,
        work: impl FnOnce(&mut [Block]) -> Result<T, ServiceError> + Send + 'static,
    ) -> Result<T, ServiceError> {
        if let Err(wait) = self.by_account.take(&account.id) {
            return Err(ServiceError::rate_limited(
                "password_tries",
                "too many wrong passwords for this account",
                wait,
            ));
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
pub enum Job {
    Login,
    SignUp,
}

/// argon2id on blocking threads, [`HASHES_AT_ONCE`] at a time, each in one of as many memory
/// buffers made on first use and reused ever after.
pub struct Hashing {
    pub permits: Semaphore,
    pub signups: Semaphore,
    pub signups_waiting: AtomicUsize,
    pub buffers: Mutex<Vec<Vec<Block>>>,
}

/// Counts a waiting sign-up until dropped.
pub struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Hashing {
    pub fn new() -> Hashing {
        Hashing {
            permits: Semaphore::new(HASHES_AT_ONCE),
            signups: Semaphore::new(SIGNUPS_AT_ONCE),
            signups_waiting: AtomicUsize::new(0),
            buffers: Mutex::new(Vec::new()),
        }
    }

    /// Runs `work` with a buffer of argon2 memory on a blocking thread.
    pub async fn run<T: Send + 'static>(
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
    ServiceError::rate_limited(cap, &format!("too many login attempts {whose}"), wait)
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
pub const COMMON_PASSWORDS: &str = include_str!("../../../data/common-passwords.txt");

/// The common passwords in lower case (compared regardless of case).
pub fn common_passwords() -> &'static HashSet<String> {
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

    pub fn message(self) -> &'static str {
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
pub fn check_password(name: &str, password: &str) -> Result<(), ServiceError> {
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
pub fn argon2id() -> Argon2<'static> {
    Argon2::new(Algorithm::Argon2id, Version::V0x13, Params::default())
}

/// The argon2id hash of `password` (PHC string, as argon2's `PasswordHasher` writes it), with a
/// fresh random salt, computed in `memory`.
pub fn hash_password(password: &str, memory: &mut [Block]) -> Result<String, ServiceError> {
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
pub fn password_matches(password: &str, stored: &str, memory: &mut [Block]) -> bool {
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
pub fn dummy_hash(memory: &mut [Block]) -> String {
    static HASH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HASH.get_or_init(|| hash_password(&random_text(16), memory).unwrap_or_default())
        .clone()
}

pub fn name_taken(name: &str) -> ServiceError {
    ServiceError::NameTaken(format!(
        "the name {} is taken (names are compared regardless of case)",
        crate::services::error::echo(name)
    ))
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
