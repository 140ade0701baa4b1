//! The accept loop: every connection is counted (all together and by client address) and served
//! by hyper's HTTP/1 connection with a header-read timeout, which also closes a kept-alive
//! connection that stays idle that long. A connection over a cap is answered 503 `busy` and
//! closed.
//!
//! Idle sockets cannot fill the server (issue 17, item 6): a new connection that sends nothing
//! within the first-byte timeout is closed; the last connections under the cap are kept for
//! clients with few open ([`Permits::with_reserve`]); and a `GET /healthz` over the cap is still
//! answered, on a small allowance of its own.
//!
//! hyper answers a request it cannot parse (a head too large, a URI too long, a malformed
//! request line) with an empty body; [`JsonParseErrors`] gives those answers the documented
//! JSON body (issue 17, item 11).

use crate::http::edge::{canonical, PeerAddr};
use crate::services::error::ServiceError;
use crate::services::permits::{Permit, Permits};
use axum::body::Body;
use axum::response::IntoResponse;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

/// How the accept loop treats connections.
#[derive(Clone)]
pub struct Accept {
    pub connections: Arc<Permits>,
    /// Connections over the cap that ask for `/healthz` (and are answered that alone).
    pub health: Arc<Permits>,
    pub header_timeout: Duration,
    /// Time a new connection has to send its first byte.
    pub first_byte_timeout: Duration,
    /// Time a write may stall (the client reads nothing) before the connection is closed.
    pub write_timeout: Duration,
    /// Connections from this address (a reverse proxy) count in the total only.
    pub trusted_proxy: Option<IpAddr>,
}

/// A client with fewer connections open than this may take one of the reserve
/// ([`emergo_platform::domain::limits::Limits::connections_reserve`]): a browser opens up to six to a server, and
/// a WebSocket or two.
pub const FEW_CONNECTIONS: usize = 8;

/// Connections over the cap that may be reading their request to see whether it is a
/// `/healthz`, all together and from one client.
pub const HEALTH_CONNECTIONS: usize = 16;
pub const HEALTH_CONNECTIONS_PER_CLIENT: usize = 2;
/// The system's send buffer of a connection (it doubles it for its own bookkeeping).
const SEND_BUFFER: usize = 256 * 1024;

/// Time given to running requests when the server stops.
const DRAIN: Duration = Duration::from_secs(10);

/// Time a connection over the cap has to show that it asks for `/healthz`.
const HEALTH_PEEK: Duration = Duration::from_secs(1);

/// Serves `app` on `listener` until `stop` turns true, then lets open requests finish (for up
/// to 10 s).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    accept: Accept,
    mut stop: watch::Receiver<bool>,
) -> io::Result<()> {
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stop.wait_for(|s| *s) => break,
        };
        let (stream, peer) = match accepted {
            Ok(pair) => pair,
            Err(err) => {
                // Out of file descriptors and the like: wait a little rather than spin.
                tracing::warn!("accept: {err}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let ip = canonical(peer.ip());
        let client = (Some(ip) != accept.trusted_proxy).then_some(ip);
        let connection = Connection {
            peer,
            app: app.clone(),
            header_timeout: accept.header_timeout,
            write_timeout: accept.write_timeout,
            stop: stop.clone(),
        };
        match accept.connections.acquire(client) {
            Ok(permit) => {
                let first_byte = accept.first_byte_timeout;
                tokio::spawn(async move {
                    // A connection that says nothing is closed soon, not at the header timeout.
                    if sends_within(&stream, first_byte).await {
                        connection.serve(stream, permit, true).await;
                    }
                });
            }
            Err(err) => match accept.health.acquire(client) {
                Ok(permit) => {
                    tokio::spawn(health_or_refuse(stream, err, connection, permit));
                }
                Err(_) => {
                    tokio::spawn(refuse(stream, err));
                }
            },
        }
    }
    // Let the connections still open finish their requests.
    let started = tokio::time::Instant::now();
    while accept.connections.open() > 0 && started.elapsed() < DRAIN {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
}

/// Whether `stream` has a first byte to read within `wait` (not at its end).
async fn sends_within(stream: &TcpStream, wait: Duration) -> bool {
    let mut byte = [0u8; 1];
    matches!(
        tokio::time::timeout(wait, stream.peek(&mut byte)).await,
        Ok(Ok(n)) if n > 0
    )
}

/// What serving one connection needs.
struct Connection {
    peer: SocketAddr,
    app: Router,
    header_timeout: Duration,
    write_timeout: Duration,
    stop: watch::Receiver<bool>,
}

impl Connection {
    /// Serves the connection's requests (one only unless `keep_alive`) while `permit` is held.
    async fn serve(self, stream: TcpStream, permit: Permit, keep_alive: bool) {
        let _permit = permit;
        let Connection {
            peer,
            app,
            header_timeout,
            write_timeout,
            mut stop,
        } = self;
        let _ = stream.set_nodelay(true);
        // What the system holds for a client that reads slowly, bounded (it would grow to
        // megabytes per connection).
        let _ = socket2::SockRef::from(&stream).set_send_buffer_size(SEND_BUFFER);
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(PeerAddr(peer));
            app.clone().oneshot(req.map(Body::new))
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout)
            .keep_alive(keep_alive);
        let conn = builder
            .serve_connection(
                TokioIo::new(JsonParseErrors::new(write_timed(stream, write_timeout))),
                service,
            )
            .with_upgrades();
        tokio::pin!(conn);
        let stopping = async move {
            let _ = stop.wait_for(|s| *s).await;
        };
        tokio::select! {
            _ = conn.as_mut() => {}
            _ = stopping => {
                conn.as_mut().graceful_shutdown();
                let _ = tokio::time::timeout(DRAIN, conn).await;
            }
        }
    }
}

/// A connection over a cap: served if it asks for `/healthz` (that request alone), else
/// answered `err` and closed.
async fn health_or_refuse(
    stream: TcpStream,
    err: ServiceError,
    connection: Connection,
    permit: Permit,
) {
    if asks_for_health(&stream).await {
        connection.serve(stream, permit, false).await;
    } else {
        drop(permit);
        refuse(stream, err).await;
    }
}

/// Whether the request waiting on `stream` (looked at, not read) is `GET` or `HEAD /healthz`.
async fn asks_for_health(stream: &TcpStream) -> bool {
    const WANTED: [&[u8]; 2] = [b"GET /healthz", b"HEAD /healthz"];
    let mut head = [0u8; 16];
    let look = async {
        loop {
            let n = stream.peek(&mut head).await.unwrap_or(0);
            let seen = &head[..n];
            let fits = |w: &[u8]| {
                let k = seen.len().min(w.len());
                seen[..k] == w[..k]
            };
            if n == 0 || !WANTED.iter().any(|w| fits(w)) {
                return false;
            }
            if let Some(w) = WANTED
                .iter()
                .find(|w| seen.len() > w.len() && seen.starts_with(w))
            {
                return matches!(seen[w.len()], b' ' | b'?');
            }
            if n == head.len() {
                return false;
            }
            // More of the request line is on its way.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    };
    tokio::time::timeout(HEALTH_PEEK, look)
        .await
        .unwrap_or(false)
}

/// The stream, whose writes fail once one has waited `timeout` for a client that reads
/// nothing (an answer or a WebSocket's messages then stop holding memory).
fn write_timed(
    stream: TcpStream,
    timeout: Duration,
) -> std::pin::Pin<Box<tokio_io_timeout::TimeoutStream<TcpStream>>> {
    let mut stream = tokio_io_timeout::TimeoutStream::new(stream);
    stream.set_write_timeout(Some(timeout));
    Box::pin(stream)
}

/// Answers a connection over a cap with 503 `busy` and closes it, without reading its request.
async fn refuse(mut stream: TcpStream, err: ServiceError) {
    let response = err.into_response();
    let status = response.status();
    let body = axum::body::to_bytes(response.into_body(), 4096)
        .await
        .unwrap_or_default();
    let head = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/json\r\nretry-after: 1\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len()
    );
    let write = async {
        stream.write_all(head.as_bytes()).await?;
        stream.write_all(&body).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(1), write).await;
}

/// The connection as hyper sees it, except that hyper's own answer to a request it could not
/// parse (400, 414 or 431 with `content-length: 0`, after which it closes the connection) goes
/// out with the documented JSON body instead.
struct JsonParseErrors<S> {
    inner: S,
    state: Replacing,
}

enum Replacing {
    /// No answer of hyper's to replace seen yet.
    Watching,
    /// The JSON answer being written, how much of it is written, and the length of hyper's
    /// answer it stands for.
    Writing(Vec<u8>, usize, usize),
    /// Written: what follows (nothing, as hyper closes the connection) goes as it is.
    Done,
}

impl<S> JsonParseErrors<S> {
    fn new(inner: S) -> JsonParseErrors<S> {
        JsonParseErrors {
            inner,
            state: Replacing::Watching,
        }
    }
}

/// The JSON answer that replaces hyper's empty answer `head`, if it is one.
fn json_parse_error(head: &[u8]) -> Option<Vec<u8>> {
    let status = head.strip_prefix(b"HTTP/1.1 ")?.get(..3)?;
    let (code, message) = match status {
        b"400" => (
            "bad_request",
            "the request cannot be read as HTTP/1.1 (its request line or a header is malformed)",
        ),
        b"414" => (
            "uri_too_long",
            "the request's path and query are far too long",
        ),
        b"431" => (
            "headers_too_large",
            "the request's headers are too large or too many",
        ),
        _ => return None,
    };
    let text = std::str::from_utf8(head).ok()?;
    let (fields, rest) = text.split_once("\r\n\r\n")?;
    let empty = fields
        .lines()
        .any(|l| l.eq_ignore_ascii_case("content-length: 0"));
    if !empty || !rest.is_empty() {
        return None;
    }
    let status_line = fields.lines().next()?;
    let body = serde_json::json!({"error": code, "message": message}).to_string();
    let mut answer = format!(
        "{status_line}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         x-content-type-options: nosniff\r\nconnection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    answer.extend_from_slice(body.as_bytes());
    Some(answer)
}

impl<S: AsyncRead + Unpin> AsyncRead for JsonParseErrors<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for JsonParseErrors<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if matches!(this.state, Replacing::Watching) && buf.starts_with(b"HTTP/1.1 4") {
            if let Some(answer) = json_parse_error(buf) {
                this.state = Replacing::Writing(answer, 0, buf.len());
            }
        }
        if let Replacing::Writing(answer, written, stands_for) = &mut this.state {
            while *written < answer.len() {
                let n = match Pin::new(&mut this.inner).poll_write(cx, &answer[*written..]) {
                    Poll::Ready(Ok(n)) => n,
                    other => return other,
                };
                if n == 0 {
                    return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
                }
                *written += n;
            }
            let stands_for = *stands_for;
            this.state = Replacing::Done;
            return Poll::Ready(Ok(stands_for));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        // hyper's empty answer is one buffer: the head.
        let first = bufs.iter().find(|b| !b.is_empty());
        let replace = matches!(self.state, Replacing::Watching)
            && first.is_some_and(|b| b.starts_with(b"HTTP/1.1 4"))
            && bufs.iter().filter(|b| !b.is_empty()).count() == 1;
        match first {
            Some(head)
                if replace || !matches!(self.state, Replacing::Watching | Replacing::Done) =>
            {
                self.poll_write(cx, head)
            }
            _ => Pin::new(&mut self.inner).poll_write_vectored(cx, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Sends one WebSocket message: false when the client is gone, or has read nothing for `wait`
/// (every socket of the server writes through this, so none waits on a client for ever).
pub async fn ws_send_within(
    socket: &mut axum::extract::ws::WebSocket,
    message: axum::extract::ws::Message,
    wait: Duration,
) -> bool {
    matches!(
        tokio::time::timeout(wait, socket.send(message)).await,
        Ok(Ok(()))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypers_empty_parse_error_answers_become_json_and_others_are_left() {
        let head = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\ndate: Tue, 01 Dec 2026 10:00:00 GMT\r\n\r\n";
        let answer = String::from_utf8(json_parse_error(head).expect("replaced")).expect("text");
        assert!(answer.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        let body = answer.split_once("\r\n\r\n").expect("a body").1;
        let value: serde_json::Value = serde_json::from_str(body).expect("JSON");
        assert_eq!(value["error"], "headers_too_large");
        assert!(answer.contains(&format!("content-length: {}\r\n", body.len())));
        // The server's own answers have bodies: left alone.
        let own = b"HTTP/1.1 404 Not Found\r\ncontent-length: 50\r\n\r\n";
        assert!(json_parse_error(own).is_none());
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        assert!(json_parse_error(ok).is_none());
    }
}
