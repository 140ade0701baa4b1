//! `GET /api/games/{id}/ws`: the game's state at once, then a delta after every change (the
//! view paged from the first ply the change touched, docs/api.md), and the count of its
//! spectators (issue 18, `{"type": "watchers"}`). A client that reconnects names the ply it
//! holds (`?from=<ply>`) and gets the state paged from there.
//!
//! In a game between people the socket also carries the chat (src/services/games/chat.rs): the spectators'
//! room's last messages after the first state, then each new one. A seat holder that sends
//! `{"type": "seat", "token": "<its seat token>"}` is no longer counted as a spectator (a
//! player of an anonymous game) and gets the players' room too (its last messages at once).
//! Nothing else the client sends is read.
//!
//! A WebSocket costs little and never much: every message is small (the first state pages at
//! most [`FIRST_PLIES`] plies; a reader of a longer game reads the rest over HTTP), one text
//! shared by every watcher (no copy per socket), and a socket whose client reads nothing is
//! closed once a write has waited [`Limits::write_timeout`](crate::Limits).

use crate::http::error::ApiError;
use crate::http::extract::ViewQuery;
use crate::http::session::SessionCookie;
use crate::services::accounts::Accounts;
use crate::services::error::ServiceError;
use crate::services::games::chat::{self, ChatPush, Room};
use crate::services::games::watching::{count_message, WatchGuard, WatcherKey, COUNT_EVERY};
use crate::services::games::{delta_message, AppState, GameSlot, Published};
use crate::services::permits::Permit;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::Extension;
use emergo_platform::domain::limits::ClientAddr;
use emergo_platform::domain::model::Mode;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, watch};

/// The most plies the first state of a WebSocket (or a catching-up one) pages: a client that
/// holds less of the game reads the rest with `GET /api/games/{id}?from=<ply>`.
pub const FIRST_PLIES: usize = 64;

/// The biggest message a client may send (it sends nothing).
const MAX_INCOMING: usize = 4096;

/// The socket's read buffer (the default is 128 KiB).
const READ_BUFFER: usize = 4096;

/// The socket's write buffer: a message is written out at once (the default gathers 128 KiB).
const WRITE_BUFFER: usize = 0;

pub async fn handler(
    State(state): State<AppState>,
    State(accounts): State<Arc<Accounts>>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    Path(id): Path<String>,
    cookie: SessionCookie,
    query: Result<Query<ViewQuery>, QueryRejection>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query?;
    let from = query.from.unwrap_or(0);
    let slot = state.slot(&id).await?;
    let upgrade = upgrade.map_err(|e| ServiceError::BadRequest(e.body_text()))?;
    let permit = state.websockets.acquire(Some(client))?;
    // A spectator: an account that plays here is not one; an anonymous player says so with
    // its seat's token (`{"type": "seat", "token": …}`).
    let account = match cookie.is_some() {
        true => cookie.account(&accounts).await?.map(|s| s.account.id),
        false => None,
    };
    let seat = match account {
        Some(id) => slot.state.lock().await.meta.players.seat_of(id),
        None => None,
    };
    let plays = seat.is_some();
    // A player's socket says the player is here (a bot's game stream tells the opponent).
    let present = seat.map(|color| slot.presence.enter(color));
    let guard = (!plays).then(|| {
        slot.watchers.watch(match account {
            Some(id) => WatcherKey::Account(id),
            None => WatcherKey::Address(client),
        })
    });
    let shutdown = state.shutdown.clone();
    let write_timeout = state.limits.write_timeout;
    let human = slot.state.lock().await.meta.mode == Mode::Human;
    Ok(upgrade
        .max_message_size(MAX_INCOMING)
        .max_frame_size(MAX_INCOMING)
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .on_upgrade(move |socket| {
            let watcher = Watcher {
                socket,
                slot,
                write_timeout,
                seq: 0,
                held: from,
                guard,
                _present: present,
                seat_tries: 0,
                chat: human.then_some(ChatSeat {
                    state: state.clone(),
                    seat: None,
                }),
            };
            watcher.follow(shutdown, permit)
        }))
}

/// One WebSocket and what its client holds.
struct Watcher {
    socket: WebSocket,
    slot: Arc<GameSlot>,
    write_timeout: Duration,
    /// The last state sent (its [`Published::seq`]).
    seq: u64,
    /// The ply up to which the client holds the game's lists as they stand.
    held: usize,
    /// Counts the socket among the game's spectators (`None`: a player's).
    guard: Option<WatchGuard>,
    /// Counts it as its seat's player's connection (a player's).
    _present: Option<crate::services::games::watching::PresenceGuard>,
    /// Seat messages read (a few at most are looked at).
    seat_tries: u8,
    /// The chat, in a game between people.
    chat: Option<ChatSeat>,
}

/// What a socket knows for the chat: the seat its client proved, if any.
struct ChatSeat {
    state: AppState,
    seat: Option<emergo_core::Color>,
}

/// Seat messages a socket may send before the rest are ignored.
const SEAT_TRIES: u8 = 4;

#[derive(serde::Deserialize)]
struct SeatMessage {
    #[serde(rename = "type")]
    kind: String,
    token: String,
}

impl Watcher {
    /// Sends a text; false when the client is gone or has read nothing for the write timeout.
    async fn send(&mut self, text: Utf8Bytes) -> bool {
        crate::http::net::ws_send_within(&mut self.socket, Message::Text(text), self.write_timeout)
            .await
    }

    /// A state for the client from ply `from`, made under the game's lock: the view paged
    /// from there, or from [`FIRST_PLIES`] before the end when that is later.
    async fn state_from(&mut self, from: usize) -> Utf8Bytes {
        let live = self.slot.state.lock().await;
        let ply = live.game.ply();
        let from = from.min(ply).max(ply.saturating_sub(FIRST_PLIES));
        self.seq = self.slot.seq();
        self.held = ply;
        delta_message(&live, from)
    }

    /// The next state to send, from what was published (`None`: nothing new for this client).
    async fn next(
        &mut self,
        update: Result<Arc<Published>, broadcast::error::RecvError>,
    ) -> Option<Utf8Bytes> {
        match update {
            Ok(published) if published.seq <= self.seq => None,
            Ok(published) if published.seq == self.seq + 1 && published.from <= self.held => {
                self.seq = published.seq;
                self.held = published.ply;
                Some(published.text.clone())
            }
            // A state was missed (too slow to read them all): one state from the lowest ply
            // the missed ones touched says it all.
            Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {
                let from = self
                    .slot
                    .touched_since(self.seq)
                    .unwrap_or(0)
                    .min(self.held);
                Some(self.state_from(from).await)
            }
            Err(broadcast::error::RecvError::Closed) => None,
        }
    }

    /// The last messages of `room`, as one chat message (`None`: none, or not readable).
    async fn history(&mut self, room: Room) -> Option<Utf8Bytes> {
        let chat = self.chat.as_ref()?;
        let rows = chat
            .state
            .store
            .chat_history(self.slot.id(), room.name(), chat::HISTORY)
            .await
            .map_err(|err| tracing::warn!(game = %self.slot.id(), "chat history: {err}"))
            .ok()?;
        (!rows.is_empty()).then(|| chat::push_text(room, rows, true))
    }

    /// A chat message for this client, if it may read its room.
    fn chat_for(&self, push: &ChatPush) -> Option<Utf8Bytes> {
        let chat = self.chat.as_ref()?;
        match push.room {
            Room::Players if chat.seat.is_none() => None,
            _ => Some(push.text.clone()),
        }
    }

    /// A message from the client: a seat proved by its token makes the socket a player's (not
    /// counted as a spectator) and opens the players' room (its history is sent at once);
    /// anything else is ignored. False when the client is gone.
    async fn read(&mut self, text: &str) -> bool {
        let proved = self.chat.as_ref().is_some_and(|c| c.seat.is_some())
            || (self.chat.is_none() && self.guard.is_none());
        if proved || self.seat_tries >= SEAT_TRIES {
            return true;
        }
        self.seat_tries += 1;
        let Ok(message) = serde_json::from_str::<SeatMessage>(text) else {
            return true;
        };
        if message.kind != "seat" {
            return true;
        }
        let seat = self.slot.state.lock().await.meta.seat_of(&message.token);
        let Some(seat) = seat else { return true };
        self.guard = None;
        let Some(chat) = self.chat.as_mut() else {
            return true;
        };
        chat.seat = Some(seat);
        match self.history(Room::Players).await {
            Some(text) => self.send(text).await,
            None => true,
        }
    }

    /// Sends the state now and after every change until the client leaves or the server stops.
    async fn follow(mut self, mut shutdown: watch::Receiver<bool>, _permit: Permit) {
        let _open = OpenSocket::count();
        // Subscribe before reading the state, so that no change falls in between.
        let mut updates = self.slot.updates.subscribe();
        let mut chats = self.slot.chat.subscribe();
        let first = self.state_from(self.held).await;
        if !self.send(first).await {
            return;
        }
        if let Some(text) = self.history(Room::Spectators).await {
            if !self.send(text).await {
                return;
            }
        }
        let mut counts = self.slot.watchers.subscribe();
        // The count goes out now, then at most every COUNT_EVERY while it changes.
        let mut count_due = true;
        let mut count_at = tokio::time::Instant::now();
        loop {
            tokio::select! {
                changed = counts.changed(), if !count_due => {
                    if changed.is_err() {
                        break;
                    }
                    count_due = true;
                }
                _ = tokio::time::sleep_until(count_at), if count_due => {
                    count_due = false;
                    count_at = tokio::time::Instant::now() + COUNT_EVERY;
                    let n = *counts.borrow_and_update();
                    if !self.send(Utf8Bytes::from(count_message(n))).await {
                        break;
                    }
                }
                update = updates.recv() => {
                    if matches!(update, Err(broadcast::error::RecvError::Closed)) {
                        break;
                    }
                    let Some(text) = self.next(update).await else { continue };
                    if !self.send(text).await {
                        break;
                    }
                }
                push = chats.recv(), if self.chat.is_some() => match push {
                    Ok(push) => {
                        let Some(text) = self.chat_for(&push) else { continue };
                        if !self.send(text).await {
                            break;
                        }
                    }
                    // Too slow to read them all: the older ones are missed.
                    Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                incoming = self.socket.recv() => match incoming {
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                    Some(Ok(Message::Text(text))) => {
                        if !self.read(text.as_str()).await {
                            break;
                        }
                    }
                    Some(Ok(_)) => {}
                },
                _ = shutdown.changed() => {
                    let _ = tokio::time::timeout(self.write_timeout, self.socket.send(Message::Close(None))).await;
                    break;
                }
            }
        }
    }
}

/// Counts an open WebSocket in the metrics while it lives.
struct OpenSocket;

impl OpenSocket {
    fn count() -> OpenSocket {
        metrics::gauge!(emergo_platform::domain::metrics::WEBSOCKETS_OPEN).increment(1.0);
        OpenSocket
    }
}

impl Drop for OpenSocket {
    fn drop(&mut self) {
        metrics::gauge!(emergo_platform::domain::metrics::WEBSOCKETS_OPEN).decrement(1.0);
    }
}
