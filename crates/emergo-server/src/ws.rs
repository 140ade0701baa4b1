//! `GET /api/games/{id}/ws`: the game's state at once and after every change. The client sends
//! nothing; a client that reconnects simply gets the current state.

use crate::error::ApiError;
use crate::live::{state_message, AppState, GameSlot};
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use std::sync::Arc;
use tokio::sync::{broadcast, watch};

pub async fn handler(
    State(state): State<AppState>,
    Path(id): Path<String>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let slot = state.slot(&id).await?;
    let upgrade = upgrade.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let shutdown = state.shutdown.clone();
    // The client sends nothing: anything bigger than a small frame is not ours.
    Ok(upgrade
        .max_message_size(4096)
        .max_frame_size(4096)
        .on_upgrade(move |socket| follow(socket, slot, shutdown)))
}

async fn current(slot: &GameSlot) -> Arc<str> {
    let live = slot.state.lock().await;
    state_message(&live)
}

async fn send(socket: &mut WebSocket, text: &str) -> bool {
    socket.send(Message::Text(text.into())).await.is_ok()
}

/// Sends the state now and after every change until the client leaves or the server stops.
async fn follow(mut socket: WebSocket, slot: Arc<GameSlot>, mut shutdown: watch::Receiver<bool>) {
    // Subscribe before reading the state, so that no change falls in between.
    let mut updates = slot.updates.subscribe();
    if !send(&mut socket, &current(&slot).await).await {
        return;
    }
    loop {
        tokio::select! {
            update = updates.recv() => {
                let text = match update {
                    Ok(text) => text,
                    // Too slow to read every state: the latest one says it all.
                    Err(broadcast::error::RecvError::Lagged(_)) => current(&slot).await,
                    Err(broadcast::error::RecvError::Closed) => break,
                };
                if !send(&mut socket, &text).await {
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
