//! The server's edge: who the client is (its address, or the one a trusted proxy forwards),
//! which hosts and origins are the server's own, the security headers of every response, the
//! per-client rate limit on new games, and counted permits for connections and WebSockets.

use crate::http::error::{echo, ApiError};
use crate::services::error::ServiceError;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
pub use emergo_platform::domain::limits::ClientAddr;

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tower_governor::governor::GovernorConfigBuilder;
use tower_governor::key_extractor::KeyExtractor;
use tower_governor::{GovernorError, GovernorLayer};

/// The address of the connection's peer, put on every request by the accept loop.
#[derive(Clone, Copy, Debug)]
pub struct PeerAddr(pub SocketAddr);

/// What the edge knows of the server's own names.
#[derive(Clone, Debug, Default)]
pub struct EdgeConfig {
    /// The address the server listens on.
    pub listen: Option<SocketAddr>,
    /// Other host names the server answers to (`--allow-host`, the host of `--public-url`).
    pub hosts: Vec<String>,
    /// Origins besides the server's own (`--public-url`, `--allow-origin`), e.g.
    /// `https://emergo.example`.
    pub origins: Vec<String>,
    /// A reverse proxy whose forwarded client address is believed (`--trusted-proxy`).
    pub trusted_proxy: Option<IpAddr>,
    /// Bytes of a path and query.
    pub uri_bytes: usize,
    /// Time a request (its body included) may take.
    pub request_timeout: Duration,
}

/// An IPv4 address written as IPv6 (`::ffff:a.b.c.d`) is the IPv4 client it stands for.
pub fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// The client address of a request from `peer`: the peer, or the last address of the
/// `X-Forwarded-For` header (the one the proxy added) when the peer is the trusted proxy.
pub fn client_of(peer: IpAddr, headers: &HeaderMap, trusted: Option<IpAddr>) -> IpAddr {
    let peer = canonical(peer);
    if Some(peer) != trusted {
        return peer;
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|a| a.trim().parse::<IpAddr>().ok())
        .next_back()
        .map_or(peer, canonical)
}

/// The host part of a `Host` header or of an origin's authority, without the port, in lower case.
fn host_name(authority: &str) -> String {
    let authority = authority.trim();
    let host = if let Some(rest) = authority.strip_prefix('[') {
        rest.split(']').next().unwrap_or(rest)
    } else {
        authority.rsplit_once(':').map_or(authority, |(h, _)| h)
    };
    host.to_ascii_lowercase()
}

impl EdgeConfig {
    /// Whether `host` (a `Host` header) names this server: its listening address (any address
    /// literal when it listens on every interface), `localhost` when that address is a loopback
    /// one, or a configured name.
    pub fn host_allowed(&self, host: &str) -> bool {
        let name = host_name(host);
        if self.hosts.iter().any(|h| host_name(h) == name) {
            return true;
        }
        let Some(listen) = self.listen else {
            return true;
        };
        let ip = listen.ip();
        if let Ok(given) = name.parse::<IpAddr>() {
            return ip.is_unspecified() || canonical(given) == canonical(ip);
        }
        name == "localhost" && (ip.is_loopback() || ip.is_unspecified())
    }

    /// Whether `origin` is the server's own for a request with `host` that came over `scheme`
    /// (`http`, or `https` as a trusted proxy forwards it): the same scheme and authority, or a
    /// configured origin.
    pub fn origin_allowed(&self, origin: &str, host: Option<&str>, scheme: &str) -> bool {
        let origin = origin.trim_end_matches('/');
        if self
            .origins
            .iter()
            .any(|o| o.trim_end_matches('/').eq_ignore_ascii_case(origin))
        {
            return true;
        }
        let authority = origin
            .split_once("://")
            .filter(|(given, _)| given.eq_ignore_ascii_case(scheme))
            .map(|(_, authority)| authority);
        match (authority, host) {
            (Some(authority), Some(host)) => authority.eq_ignore_ascii_case(host.trim()),
            _ => false,
        }
    }
}

/// The first middleware: names the client, then refuses a too-long URI (414), an unknown
/// `Host` (400 `bad_host`) and a state change or WebSocket upgrade from a foreign `Origin`
/// (403 `bad_origin`); a request that takes longer than the request timeout is answered 408.
pub async fn client_and_guard(
    State(edge): State<Arc<EdgeConfig>>,
    mut req: Request,
    next: Next,
) -> Response {
    let peer = req
        .extensions()
        .get::<PeerAddr>()
        .map_or(IpAddr::from([127, 0, 0, 1]), |p| p.0.ip());
    let client = client_of(peer, req.headers(), edge.trusted_proxy);
    req.extensions_mut().insert(ClientAddr(client));
    let via_proxy = edge.trusted_proxy == Some(canonical(peer));
    if let Err(err) = check(&edge, &req, via_proxy) {
        return err.into_response();
    }
    match tokio::time::timeout(edge.request_timeout, next.run(req)).await {
        Ok(response) => response,
        Err(_) => ApiError::Timeout(edge.request_timeout).into_response(),
    }
}

/// The scheme a request came over: `http`, or `https` when the trusted proxy says so
/// (`X-Forwarded-Proto`).
fn scheme_of(req: &Request, via_proxy: bool) -> &'static str {
    let forwarded = req
        .headers()
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok());
    match forwarded {
        Some(proto) if via_proxy && proto.trim().eq_ignore_ascii_case("https") => "https",
        _ => "http",
    }
}

fn check(edge: &EdgeConfig, req: &Request, via_proxy: bool) -> Result<(), ApiError> {
    let uri_len = req.uri().path_and_query().map_or(0, |p| p.as_str().len());
    if uri_len > edge.uri_bytes {
        return Err(ApiError::UriTooLong(edge.uri_bytes));
    }
    let host = req
        .headers()
        .get(header::HOST)
        .map(|h| h.to_str().unwrap_or("\u{fffd}"));
    if let Some(host) = host {
        if !edge.host_allowed(host) {
            return Err(ApiError::BadHost(format!(
                "this server does not answer to the host {}",
                echo(host)
            )));
        }
    }
    let changes = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    let upgrade = req.headers().contains_key(header::UPGRADE);
    if changes || upgrade {
        if let Some(origin) = req.headers().get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("\u{fffd}");
            if !edge.origin_allowed(origin, host, scheme_of(req, via_proxy)) {
                return Err(ApiError::BadOrigin(format!(
                    "a page from {} may not change games here",
                    echo(origin)
                )));
            }
        }
    }
    Ok(())
}

/// The page's Content-Security-Policy: scripts, styles and images from the server only, no
/// inline script, WebSockets to the server, no framing.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
    style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; \
    base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The security headers set on every response.
pub fn security_headers() -> [(HeaderName, HeaderValue); 4] {
    [
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ),
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ),
    ]
}

/// The rate limiter's key: the request's [`ClientAddr`].
#[derive(Clone, Copy, Debug)]
pub struct ClientKey;

impl KeyExtractor for ClientKey {
    type Key = IpAddr;

    fn extract<T>(&self, req: &axum::http::Request<T>) -> Result<IpAddr, GovernorError> {
        req.extensions()
            .get::<ClientAddr>()
            .map(|c| c.0)
            .ok_or(GovernorError::UnableToExtractKey)
    }
}

/// The limiter of new games (creation and import share it): `burst` at once from one client,
/// then one more every `every`; over it, 429 `rate_limited` with `Retry-After`.
pub type GamesLimit = GovernorLayer<
    ClientKey,
    governor::middleware::NoOpMiddleware<governor::clock::QuantaInstant>,
    axum::body::Body,
>;

pub fn games_limit(burst: u32, every: Duration) -> Option<GamesLimit> {
    let config = GovernorConfigBuilder::default()
        .key_extractor(ClientKey)
        .period(every.max(Duration::from_nanos(1)))
        .burst_size(burst.max(1))
        .finish()?;
    let config = Arc::new(config);
    let limiter = config.limiter().clone();
    // Clients not seen for a while are forgotten.
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            limiter.retain_recent();
            if Arc::strong_count(&limiter) == 1 {
                break;
            }
        }
    });
    Some(GovernorLayer::new(config).error_handler(|err| {
        match err {
            GovernorError::TooManyRequests { wait_time, .. } => ServiceError::rate_limited(
                "games_rate",
                "too many new games from this address",
                Duration::from_secs(wait_time),
            )
            .into_response(),
            other => ServiceError::internal(other).into_response(),
        }
        .into_response()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(listen: &str) -> EdgeConfig {
        EdgeConfig {
            listen: Some(listen.parse().expect("addr")),
            ..EdgeConfig::default()
        }
    }

    #[test]
    fn the_listening_address_and_localhost_are_own_hosts() {
        let e = edge("127.0.0.1:8080");
        assert!(e.host_allowed("127.0.0.1:8080"));
        assert!(e.host_allowed("localhost:8080"));
        assert!(e.host_allowed("LOCALHOST"));
        assert!(!e.host_allowed("evil.example:8080"));
        assert!(!e.host_allowed("10.0.0.1:8080"));
        let any = edge("0.0.0.0:80");
        assert!(any.host_allowed("192.168.1.5"));
        assert!(!any.host_allowed("evil.example"));
        let public = EdgeConfig {
            hosts: vec!["emergo.example".into()],
            ..edge("10.0.0.2:80")
        };
        assert!(public.host_allowed("emergo.example"));
        assert!(!public.host_allowed("localhost"));
    }

    #[test]
    fn an_origin_is_own_when_it_names_the_host_or_is_configured() {
        let e = EdgeConfig {
            origins: vec!["https://emergo.example".into()],
            ..edge("127.0.0.1:8080")
        };
        let own = Some("127.0.0.1:8080");
        assert!(e.origin_allowed("http://127.0.0.1:8080", own, "http"));
        assert!(e.origin_allowed("https://emergo.example", Some("10.0.0.1"), "http"));
        assert!(!e.origin_allowed("http://evil.example", own, "http"));
        assert!(!e.origin_allowed("null", own, "http"));
        // The scheme counts (issue 17, item 11).
        assert!(!e.origin_allowed("https://127.0.0.1:8080", own, "http"));
        assert!(e.origin_allowed("https://127.0.0.1:8080", own, "https"));
        assert!(!e.origin_allowed("ftp://127.0.0.1:8080", own, "http"));
    }

    #[test]
    fn a_forwarded_address_is_believed_only_from_the_trusted_proxy() {
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            HeaderValue::from_static("1.2.3.4, 5.6.7.8"),
        );
        let proxy: IpAddr = "127.0.0.1".parse().expect("ip");
        let other: IpAddr = "127.0.0.9".parse().expect("ip");
        let forwarded: IpAddr = "5.6.7.8".parse().expect("ip");
        assert_eq!(client_of(proxy, &headers, Some(proxy)), forwarded);
        assert_eq!(client_of(other, &headers, Some(proxy)), other);
        assert_eq!(client_of(proxy, &headers, None), proxy);
    }
}
