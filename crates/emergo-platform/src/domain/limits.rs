//! Every bound the server sets on what a stranger can make it do, with its default. Each has an
//! `emergo serve` option (docs/web.md, "Limits").

use emergo_core::RecordLimits;
use std::net::IpAddr;
use std::time::Duration;

/// The server's limits.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Bytes of a JSON request body.
    pub body_bytes: usize,
    /// Bytes of an imported game record.
    pub record_bytes: usize,
    /// Tags, tag length, comment length and moves of an imported record.
    pub record: RecordLimits,
    /// Bytes of a request's path and query.
    pub uri_bytes: usize,
    /// Games a client may create or import in a burst, and how often one more is allowed.
    pub games_burst: u32,
    pub games_every: Duration,
    /// Time a connection has to send a request's headers (also how long an idle kept-alive
    /// connection stays open).
    pub header_timeout: Duration,
    /// Time a new connection has to send its first byte (issue 17, item 6).
    pub first_byte_timeout: Duration,
    /// Time a request (its body included) may take before it is answered 408.
    pub request_timeout: Duration,
    /// Open connections, all together and from one client address.
    pub connections: usize,
    pub connections_per_client: usize,
    /// The last connections under the cap, kept for clients with fewer than
    /// `FEW_CONNECTIONS` (emergo-server's `http::net`) open.
    pub connections_reserve: usize,
    /// Open WebSockets, all together and from one client address.
    pub websockets: usize,
    pub websockets_per_client: usize,
    /// Engine jobs (moves and hints) waiting or running, all together and from one client.
    pub engine_queue: usize,
    pub engine_per_client: usize,
    /// Imports being read and replayed at once.
    pub imports_at_once: usize,
    /// Bytes of the games kept in memory (estimated: their positions, moves and kept view
    /// texts); beyond it the least recently used go first (those nobody watches).
    pub cache_bytes: usize,
    /// Time a write to a client may stall (the client reads nothing) before its connection
    /// or WebSocket is closed.
    pub write_timeout: Duration,
    /// Login attempts for one account name in a burst, and how often one more is allowed.
    pub logins_per_name_burst: u32,
    pub logins_per_name_every: Duration,
    /// Login and sign-up attempts from one client address in a burst, and how often one more.
    pub logins_per_client_burst: u32,
    pub logins_per_client_every: Duration,
    /// Seeks and challenges one account may make in a burst, and how often one more.
    pub seeks_burst: u32,
    pub seeks_every: Duration,
    /// Puzzle requests (`next`, attempts) one client address may make in a burst, and how often
    /// one more.
    pub puzzles_burst: u32,
    pub puzzles_every: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            body_bytes: 16 * 1024,
            record_bytes: 256 * 1024,
            record: RecordLimits {
                tags: 64,
                tag_length: 1024,
                comment_length: 4096,
                plies: 5000,
                variation_depth: 16,
                variation_moves: 5000,
            },
            uri_bytes: 2048,
            games_burst: 20,
            games_every: Duration::from_secs(3),
            header_timeout: Duration::from_secs(10),
            first_byte_timeout: Duration::from_secs(3),
            request_timeout: Duration::from_secs(30),
            connections: 1000,
            connections_per_client: 64,
            connections_reserve: 250,
            websockets: 2000,
            websockets_per_client: 32,
            engine_queue: 256,
            engine_per_client: 8,
            imports_at_once: 2,
            cache_bytes: 64 << 20,
            write_timeout: Duration::from_secs(10),
            logins_per_name_burst: 5,
            logins_per_name_every: Duration::from_secs(20),
            logins_per_client_burst: 20,
            logins_per_client_every: Duration::from_secs(3),
            seeks_burst: 10,
            seeks_every: Duration::from_secs(6),
            puzzles_burst: 60,
            puzzles_every: Duration::from_millis(500),
        }
    }
}

impl Limits {
    /// Limits that a test's many quick requests from one address do not reach.
    pub fn relaxed() -> Limits {
        Limits {
            games_burst: 10_000,
            games_every: Duration::from_millis(1),
            connections_per_client: 1000,
            connections_reserve: 0,
            websockets_per_client: 1000,
            engine_per_client: 256,
            logins_per_client_burst: 10_000,
            logins_per_client_every: Duration::from_millis(1),
            seeks_burst: 10_000,
            seeks_every: Duration::from_millis(1),
            puzzles_burst: 10_000,
            puzzles_every: Duration::from_millis(1),
            ..Limits::default()
        }
    }
}

/// The client a request counts for: the peer's address, or, when the peer is the trusted
/// proxy, the address the proxy forwards. Put on every request by the edge (`http::edge::client_and_guard`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientAddr(pub IpAddr);
