//! The accept loop: every connection is counted (all together and by client address) and served
//! by hyper's HTTP/1 connection with a header-read timeout, which also closes a kept-alive
//! connection that stays idle that long. A connection over a cap is answered 503 `busy` and
//! closed.

use crate::edge::{canonical, PeerAddr, Permits};
use crate::error::ApiError;
use axum::body::Body;
use axum::response::IntoResponse;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

/// How the accept loop treats connections.
#[derive(Clone)]
pub struct Accept {
    pub connections: Arc<Permits>,
    pub header_timeout: Duration,
    /// Time a write may stall (the client reads nothing) before the connection is closed.
    pub write_timeout: Duration,
    /// Connections from this address (a reverse proxy) count in the total only.
    pub trusted_proxy: Option<IpAddr>,
}

/// The system's send buffer of a connection (it doubles it for its own bookkeeping).
const SEND_BUFFER: usize = 256 * 1024;

/// Time given to running requests when the server stops.
const DRAIN: Duration = Duration::from_secs(10);

/// Serves `app` on `listener` until `stop` turns true, then lets open requests finish (for up
/// to 10 s).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    accept: Accept,
    mut stop: watch::Receiver<bool>,
) -> std::io::Result<()> {
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
        let permit = match accept.connections.acquire(client) {
            Ok(permit) => permit,
            Err(err) => {
                tokio::spawn(refuse(stream, err));
                continue;
            }
        };
        let app = app.clone();
        let header_timeout = accept.header_timeout;
        let write_timeout = accept.write_timeout;
        let mut stop = stop.clone();
        tokio::spawn(async move {
            let _permit = permit;
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
                .keep_alive(true);
            let conn = builder
                .serve_connection(TokioIo::new(write_timed(stream, write_timeout)), service)
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
        });
    }
    // Let the connections still open finish their requests.
    let started = tokio::time::Instant::now();
    while accept.connections.open() > 0 && started.elapsed() < DRAIN {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Ok(())
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
async fn refuse(mut stream: TcpStream, err: ApiError) {
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
