//! `GET /api/games/{id}/ws`: the game's state at once and after every change. The client sends
//! nothing; a client that reconnects simply gets the current state.
//!
//! A WebSocket costs little: the state messages are shared (one `Arc<str>` per state for every
//! watcher, the first one taken without the game's lock), and the socket's buffers are small.

use crate::edge::{ClientAddr, Permit};
use crate::error::ApiError;
use crate::live::{AppState, GameSlot};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
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
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let slot = state.slot(&id).await?;
    let upgrade = upgrade.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let permit = state.websockets.acquire(Some(client))?;
    let shutdown = state.shutdown.clone();
    Ok(upgrade
        .max_message_size(MAX_INCOMING)
        .max_frame_size(MAX_INCOMING)
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .on_upgrade(move |socket| follow(socket, slot, shutdown, permit)))
}

async fn send(socket: &mut WebSocket, text: Arc<str>) -> bool {
    socket.send(Message::Text((&*text).into())).await.is_ok()
}

/// Sends the state now and after every change until the client leaves or the server stops.
async fn follow(
    mut socket: WebSocket,
    slot: Arc<GameSlot>,
    mut shutdown: watch::Receiver<bool>,
    _permit: Permit,
) {
    let _open = OpenSocket::count();
    // Subscribe before reading the state, so that no change falls in between.
    let mut updates = slot.updates.subscribe();
    if !send(&mut socket, slot.latest()).await {
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
