//! The lobby's WebSocket (`GET /api/lobby/ws`): the seeks list's changes, the account's seeks
//! taken (on this instance or another), and its notifications.

use crate::services::games::AppState;
use crate::services::lobby::{Lobby, LobbyEvent, LOBBY_TICK};
use crate::services::notify::{self, NoteMessage, Subscription};
use crate::services::permits::Permit;
use axum::extract::ws::{Message, WebSocket};
use emergo_platform::domain::model::unix_now;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast;

/// Ticks between two pings (a keep-alive for proxies, and a check that the client reads).
pub const PING_TICKS: u32 = 6;

/// Seeks taken that a socket remembers having told (they come by two ways).
pub const TOLD_MAX: usize = 64;

/// A message of the lobby's socket: the lobby's own, or the notifications'.
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Outgoing {
    Lobby(LobbyMessage),
    Note(NoteMessage),
}

/// The lobby's own messages.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum LobbyMessage {
    /// `{"type": "seeks"}`: read the list of seeks again.
    Seeks,
    /// `{"type": "taken", "seek", "game"}`: a seek of the account was taken.
    Taken { seek: String, game: String },
}

impl Outgoing {
    fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

impl Follower {
    /// Sends a message; false when the client is gone or read nothing for the write timeout.
    pub async fn send(&mut self, message: Message) -> bool {
        crate::http::net::ws_send_within(&mut self.socket, message, self.write_timeout).await
    }

    fn taken(&mut self, seek: String, game: String) -> Option<Outgoing> {
        if self.told.contains(&seek) {
            return None;
        }
        if self.told.len() >= TOLD_MAX {
            self.told.remove(0);
        }
        self.told.push(seek.clone());
        Some(Outgoing::Lobby(LobbyMessage::Taken { seek, game }))
    }

    pub async fn follow(mut self, mut notes: Option<Subscription>, _permit: Permit) {
        let mut events = self.service.events.subscribe();
        let mut shutdown = self.state.shutdown.clone();
        let mut tick = tokio::time::interval(LOBBY_TICK);
        let mut ticks: u32 = 0;
        let opened = unix_now() - 1;
        if self.lobby
            && !self
                .send(Message::Text(
                    Outgoing::Lobby(LobbyMessage::Seeks).text().into(),
                ))
                .await
        {
            return;
        }
        loop {
            let mut out: Vec<Outgoing> = Vec::new();
            tokio::select! {
                event = events.recv() => match event {
                    Ok(LobbyEvent::SeeksChanged) | Err(broadcast::error::RecvError::Lagged(_)) => {
                        if self.lobby {
                            out.push(Outgoing::Lobby(LobbyMessage::Seeks));
                        }
                    }
                    Ok(LobbyEvent::Taken { account: owner, seek, game }) => {
                        if self.lobby && Some(owner) == self.account {
                            out.extend(self.taken(seek, game));
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                note = async {
                    match notes.as_mut() {
                        Some(n) => n.events.recv().await,
                        None => std::future::pending().await,
                    }
                } => match note {
                    Ok(event) => out.extend(event.messages().into_iter().map(Outgoing::Note)),
                    // Fell behind: one message says it all.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        out.extend(notify::Event::Changed.messages().into_iter().map(Outgoing::Note));
                    }
                    Err(broadcast::error::RecvError::Closed) => notes = None,
                },
                _ = tick.tick() => {
                    ticks = ticks.wrapping_add(1);
                    if ticks.is_multiple_of(PING_TICKS) && !self.send(Message::Ping(Default::default())).await {
                        break;
                    }
                    // Another instance may have taken a seek: ask the database.
                    if let (Some(id), true) = (self.account, self.lobby) {
                        self.service.owner_is_around(id).await;
                        if let Ok(taken) = self.service.taken_since(id, opened).await {
                            let fresh = taken.into_iter().find(|(seek, _)| !self.told.contains(seek));
                            if let Some((seek, game)) = fresh {
                                out.extend(self.taken(seek, game));
                            }
                        }
                    }
                }
                incoming = self.socket.recv() => match incoming {
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                    Some(Ok(Message::Text(text))) => {
                        if let Ok(switch) = serde_json::from_str::<LobbySwitch>(text.as_str()) {
                            if switch.lobby && !self.lobby {
                                out.push(Outgoing::Lobby(LobbyMessage::Seeks));
                                if let Some(id) = self.account {
                                    self.service.owner_is_around(id).await;
                                }
                            }
                            self.lobby = switch.lobby;
                        }
                    }
                    Some(Ok(_)) => {}
                },
                _ = shutdown.changed() => {
                    let _ = self.send(Message::Close(None)).await;
                    break;
                }
            }
            for message in out {
                if !self.send(Message::Text(message.text().into())).await {
                    return;
                }
            }
        }
    }
}

/// What a client may send: whether it shows the lobby now.
#[derive(Deserialize)]
pub struct LobbySwitch {
    pub lobby: bool,
}

pub struct Follower {
    pub socket: WebSocket,
    pub state: AppState,
    pub service: Arc<Lobby>,
    pub write_timeout: Duration,
    pub account: Option<i64>,
    /// The client shows the lobby: it hears of seeks and keeps the account's alive.
    pub lobby: bool,
    pub told: Vec<String>,
}
