//! `GET /api/games/{id}/ws`: the game's state at once and after every change. The client sends
//! nothing; a client that reconnects simply gets the current state, paged from the ply it
//! names (`?from=<ply>`) so that a long game is not sent whole again.
//!
//! A WebSocket costs little: the state messages are shared (one `Arc<str>` per state for every
//! watcher, the first one taken without the game's lock), and the socket's buffers are small.

use crate::edge::{ClientAddr, Permit};
use crate::error::ApiError;
use crate::live::{AppState, GameSlot, STATE_PREFIX};
use crate::routes::ViewQuery;
use crate::view::GameView;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::Extension;
use std::sync::Arc;
use tokio::sync::{broadcast, watch};

/// The biggest message a client may send (it sends nothing).
const MAX_INCOMING: usize = 4096;

/// The socket's read buffer (the default is 128 KiB).
const READ_BUFFER: usize = 4096;

/// The socket's write buffer: a message is written out at once (the default gathers 128 KiB).
const WRITE_BUFFER: usize = 0;

pub async fn handler(
    State(state): State<AppState>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    Path(id): Path<String>,
    query: Result<Query<ViewQuery>, QueryRejection>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query?;
    let from = query.from.unwrap_or(0);
    let slot = state.slot(&id).await?;
    let upgrade = upgrade.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let permit = state.websockets.acquire(Some(client))?;
    let shutdown = state.shutdown.clone();
    Ok(upgrade
        .max_message_size(MAX_INCOMING)
        .max_frame_size(MAX_INCOMING)
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .on_upgrade(move |socket| follow(socket, slot, from, shutdown, permit)))
}

async fn send(socket: &mut WebSocket, text: Arc<str>) -> bool {
    socket.send(Message::Text((&*text).into())).await.is_ok()
}

/// The first state for a client that holds the game up to ply `from` (a page catching up after
/// a lost connection): the view paged from there, built under the game's lock (only the newest
/// plies) and serialised after it; from 0, the shared latest state.
async fn first_state(slot: &GameSlot, from: usize) -> Arc<str> {
    if from == 0 {
        return slot.current().await;
    }
    let view = GameView::paged(&*slot.state.lock().await, from);
    let game = serde_json::to_string(&view).unwrap_or_else(|_| "null".into());
    Arc::from(format!("{STATE_PREFIX}{game}}}"))
}

/// Sends the state now and after every change until the client leaves or the server stops.
async fn follow(
    mut socket: WebSocket,
    slot: Arc<GameSlot>,
    from: usize,
    mut shutdown: watch::Receiver<bool>,
    _permit: Permit,
) {
    let _open = OpenSocket::count();
    // Subscribe before reading the state, so that no change falls in between.
    let mut updates = slot.updates.subscribe();
    let first = first_state(&slot, from).await;
    if !send(&mut socket, first).await {
        return;
    }
    loop {
        tokio::select! {
            update = updates.recv() => {
                let text = match update {
                    Ok(text) => text,
                    // Too slow to read every state: the latest one says it all.
                    Err(broadcast::error::RecvError::Lagged(_)) => slot.latest(),
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if !send(&mut socket, text).await {
                    break;
                }
            }
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
            _ = shutdown.changed() => {
                let _ = socket.send(Message::Close(None)).await;
                break;
            }
        }
    }
}

/// Counts an open WebSocket in the metrics while it lives.
struct OpenSocket;

impl OpenSocket {
    fn count() -> OpenSocket {
        metrics::gauge!(crate::ops::WEBSOCKETS_OPEN).increment(1.0);
        OpenSocket
    }
}

impl Drop for OpenSocket {
    fn drop(&mut self) {
        metrics::gauge!(crate::ops::WEBSOCKETS_OPEN).decrement(1.0);
    }
}
