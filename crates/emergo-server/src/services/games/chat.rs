//! The chat of games between people (issue 18; docs/api.md, "Chat"), as lichess has it: two
//! rooms a game.
//!
//! - `players`: the two seat holders, and nobody else (it is private: spectators neither read
//!   nor write it). An anonymous seat holder chats through its seat token.
//! - `spectators`: everyone may read it; signed-in spectators write in it. While the game goes
//!   on the players do not write there, and their page does not show it (watchers' talk can
//!   hold hints; as on lichess, it is not secret: anyone may read it). Once the game is over the
//!   players may write there too.
//!
//! A message is at most [`MAX_CHARS`] characters, not empty, control characters stripped; an
//! author (a seat, or an account) writes at most [`AUTHOR_BURST`] messages at once, then one
//! every [`AUTHOR_EVERY`], and an address [`CLIENT_BURST`], then one every [`CLIENT_EVERY`]
//! (429 `rate_limited`, `Retry-After`); a game keeps at most [`MAX_PER_GAME`] messages. Each
//! message is stored, then sent over the game's WebSockets (one shared text; the players' room
//! only to sockets that proved a seat, see src/http/ws.rs); a socket gets the last [`HISTORY`] of each
//! room it may read when it opens (or proves its seat). With PostgreSQL, a message stored by one
//! instance reaches the WebSockets of the others through a wake-up (src/services/fanout.rs).
//!
//! A message of the other side (or of another spectator) can be reported: the report is a row of
//! `chat_reports` (who, what, when, from where), read with SQL (docs/api.md, "Chat").

use crate::services::error::{echo, ServiceError};
use crate::services::games::{GameSlot, Shared};
use axum::extract::ws::Utf8Bytes;
use emergo_core::Color;
use emergo_platform::domain::model::{now_text, Mode};
use emergo_platform::store::chat::{ChatRow, NewChat, NewReport};
use emergo_platform::store::StoreError;
use governor::{DefaultKeyedRateLimiter, Quota};
use serde::{Deserialize, Serialize};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

/// The most characters a message has.
pub const MAX_CHARS: usize = 140;
/// Messages of a room a WebSocket gets when it opens.
pub const HISTORY: u32 = 50;
/// Messages a game keeps (both rooms).
pub const MAX_PER_GAME: i64 = 500;
/// Messages one author (a seat, an account) writes at once, and how often one more.
pub const AUTHOR_BURST: u32 = 5;
pub const AUTHOR_EVERY: Duration = Duration::from_secs(2);
/// Messages and reports from one address at once, and how often one more.
pub const CLIENT_BURST: u32 = 10;
pub const CLIENT_EVERY: Duration = Duration::from_secs(1);
/// Chat messages a slow WebSocket may fall behind (it misses the older ones).
pub const PUSHES_BUFFERED: usize = 16;
/// Keys the rate limiters hold before the stale ones are dropped.
pub const MAX_KEYS: usize = 10_000;

/// A game's chat room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Room {
    Players,
    Spectators,
}

impl Room {
    pub fn name(self) -> &'static str {
        match self {
            Room::Players => "players",
            Room::Spectators => "spectators",
        }
    }
}

/// A message for the game's WebSockets: `{"type": "chat", "room", "messages": [...]}`.
pub struct ChatPush {
    pub room: Room,
    pub text: Utf8Bytes,
}

/// A message as the API shows it.
#[derive(Clone, Debug, Serialize)]
pub struct MessageView {
    pub id: i64,
    pub room: String,
    /// The author's seat (a player's message), else `null`.
    pub seat: Option<String>,
    /// The author's account name; `null` for an anonymous seat (shown by its colour).
    pub author: Option<String>,
    pub text: String,
    pub at: String,
}

impl MessageView {
    pub fn of(row: ChatRow) -> MessageView {
        MessageView {
            id: row.id,
            room: row.room,
            seat: row.seat,
            author: row.author,
            text: row.body,
            at: row.created_at,
        }
    }
}

/// The WebSocket message `{"type": "chat", "room", "history", "messages": [...]}`.
#[derive(Serialize)]
#[serde(tag = "type", rename = "chat")]
struct ChatMessage {
    room: Room,
    history: bool,
    messages: Vec<MessageView>,
}

/// The WebSocket message of `messages` of `room`: a new one, or (`history`) the last ones a
/// socket gets when it opens or proves its seat.
pub fn push_text(room: Room, messages: Vec<ChatRow>, history: bool) -> Utf8Bytes {
    let message = ChatMessage {
        room,
        history,
        messages: messages.into_iter().map(MessageView::of).collect(),
    };
    Utf8Bytes::from(serde_json::to_string(&message).unwrap_or_default())
}

/// Sends a stored message to the game's WebSockets (of this instance).
pub fn publish(slot: &GameSlot, row: ChatRow) {
    let room = match row.room.as_str() {
        "players" => Room::Players,
        _ => Room::Spectators,
    };
    let text = push_text(room, vec![row], false);
    let _ = slot.chat.send(Arc::new(ChatPush { room, text }));
}

/// The chat's rate limits.
pub struct Chat {
    pub by_author: DefaultKeyedRateLimiter<String>,
    pub by_client: DefaultKeyedRateLimiter<IpAddr>,
}

pub fn quota(burst: u32, every: Duration) -> Quota {
    let burst = NonZeroU32::new(burst.max(1)).unwrap_or(NonZeroU32::MIN);
    Quota::with_period(every.max(Duration::from_nanos(1)))
        .unwrap_or_else(|| Quota::per_second(burst))
        .allow_burst(burst)
}

impl Default for Chat {
    fn default() -> Chat {
        Chat {
            by_author: DefaultKeyedRateLimiter::keyed(quota(AUTHOR_BURST, AUTHOR_EVERY)),
            by_client: DefaultKeyedRateLimiter::keyed(quota(CLIENT_BURST, CLIENT_EVERY)),
        }
    }
}

fn limited(wait: governor::NotUntil<governor::clock::QuantaInstant>, who: &str) -> ServiceError {
    ServiceError::rate_limited_until("chat_rate", &format!("{who} too fast"), &wait)
}

impl Chat {
    pub fn admit_client(&self, client: IpAddr) -> Result<(), ServiceError> {
        if self.by_client.len() > MAX_KEYS {
            self.by_client.retain_recent();
        }
        self.by_client
            .check_key(&client)
            .map_err(|w| limited(w, "this address writes"))
    }

    pub fn admit_author(&self, author: &str) -> Result<(), ServiceError> {
        if self.by_author.len() > MAX_KEYS {
            self.by_author.retain_recent();
        }
        self.by_author
            .check_key(&author.to_string())
            .map_err(|w| limited(w, "you write"))
    }
}

/// Whether a character is left out of a message: control characters (a line break becomes a
/// space) and the invisible marks that turn text around or hide it.
pub fn stripped(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2069}' | '\u{feff}')
}

/// The text as stored: control characters stripped (line breaks and tabs become spaces),
/// trimmed; refused when empty or longer than [`MAX_CHARS`].
pub fn clean(text: &str) -> Result<String, ServiceError> {
    let cleaned: String = text
        .chars()
        .filter_map(|c| match c {
            '\n' | '\r' | '\t' => Some(' '),
            c if stripped(c) => None,
            c => Some(c),
        })
        .collect();
    let cleaned = cleaned.trim();
    if cleaned.is_empty() {
        return Err(ServiceError::BadRequest(
            "a message needs some text (it was empty, or only spaces)".to_string(),
        ));
    }
    let chars = cleaned.chars().count();
    if chars > MAX_CHARS {
        return Err(ServiceError::BadRequest(format!(
            "a message has at most {MAX_CHARS} characters; this one has {chars}"
        )));
    }
    Ok(cleaned.to_string())
}

/// Who writes or reports: a seat (by its token, or by the session of the account that holds
/// it) or a signed-in spectator.
pub struct Speaker {
    pub seat: Option<Color>,
    pub account: Option<(i64, String)>,
}

impl Speaker {
    /// The key of the author's rate limit and of its reports.
    pub fn key(&self, game: &str) -> String {
        match (&self.account, self.seat) {
            (Some((id, _)), _) => format!("account:{id}"),
            (None, Some(seat)) => format!("seat:{game}:{}", seat.name()),
            (None, None) => "nobody".to_string(),
        }
    }

    /// The reporter's name in `chat_reports`: `seat:white`, `account:12`.
    pub fn reporter(&self) -> String {
        match (&self.account, self.seat) {
            (Some((id, _)), _) => format!("account:{id}"),
            (None, Some(seat)) => format!("seat:{}", seat.name()),
            (None, None) => "nobody".to_string(),
        }
    }
}

/// Who acts in a chat request: a seat's token (when one is given), else the session's account
/// (its id and name), else nobody.
pub struct ChatActor<'a> {
    pub token: Option<&'a str>,
    pub account: Option<(i64, String)>,
}

impl Shared {
    /// `POST /api/games/{id}/chat`: `who` writes `text` in `room` of the game in `slot`, from
    /// `client`: the message as stored (and pushed to the room's sockets).
    pub async fn say(
        &self,
        slot: &GameSlot,
        client: IpAddr,
        who: ChatActor<'_>,
        room: Room,
        text: &str,
    ) -> Result<MessageView, ServiceError> {
        let (who, over) = speaker(slot, who.token, who.account).await?;
        match (room, who.seat) {
            (Room::Players, None) => {
                return Err(ServiceError::BadToken(
                    "the players' room is for the two players (with a seat's token or session); \
                     spectators write in the spectators' room"
                        .to_string(),
                ))
            }
            (Room::Spectators, Some(_)) if !over => {
                return Err(ServiceError::NotAllowed(
                    "the players write in the spectators' room once the game is over".to_string(),
                ))
            }
            (Room::Spectators, None) if who.account.is_none() => {
                return Err(ServiceError::Unauthorized(
                    "sign in to write in the spectators' room".to_string(),
                ))
            }
            _ => {}
        }
        let text = clean(text)?;
        self.chat.admit_client(client)?;
        self.chat.admit_author(&who.key(slot.id()))?;
        let now = now_text();
        let client_text = client.to_string();
        let message = NewChat {
            game_id: slot.id(),
            room: room.name(),
            seat: who.seat.map(Color::name),
            account_id: who.account.as_ref().map(|(id, _)| *id),
            author: who.account.as_ref().map(|(_, name)| name.as_str()),
            body: &text,
            client: &client_text,
            now: &now,
        };
        let row = match self.store.insert_chat(&message, MAX_PER_GAME).await {
            Ok(row) => row,
            Err(StoreError::Conflict(_)) => {
                return Err(ServiceError::NotAllowed(format!(
                    "this game's chat is full: it keeps at most {MAX_PER_GAME} messages"
                )))
            }
            Err(err) => return Err(err.into()),
        };
        publish(slot, row.clone());
        Ok(MessageView::of(row))
    }

    /// `POST /api/games/{id}/chat/{message}/report`: `who` reports the message `message` of
    /// the other side (or of another spectator); its id (the same when reported before).
    pub async fn report(
        &self,
        slot: &GameSlot,
        client: IpAddr,
        who: ChatActor<'_>,
        message: &str,
    ) -> Result<i64, ServiceError> {
        let (who, over) = speaker(slot, who.token, who.account).await?;
        if who.seat.is_none() && who.account.is_none() {
            return Err(ServiceError::Unauthorized(
                "sign in (or hold a seat) to report a message".to_string(),
            ));
        }
        let missing =
            || ServiceError::NotFound(format!("there is no message {} here", echo(message)));
        let message_id: i64 = message.parse().map_err(|_| missing())?;
        let row = self
            .store
            .chat_message(slot.id(), message_id)
            .await?
            .ok_or_else(missing)?;
        let own = match row.room.as_str() {
            "players" => {
                if who.seat.is_none() {
                    return Err(missing());
                }
                row.seat.as_deref() == who.seat.map(Color::name)
            }
            _ => {
                if who.seat.is_some() && !over {
                    return Err(missing());
                }
                let mine =
                    row.account_id.is_some() && row.account_id == who.account.as_ref().map(|a| a.0);
                mine || (row.account_id.is_none()
                    && row.seat.as_deref() == who.seat.map(Color::name))
            }
        };
        if own {
            return Err(ServiceError::NotAllowed(
                "that message is yours: report the other side's".to_string(),
            ));
        }
        self.chat.admit_client(client)?;
        let client_text = client.to_string();
        let now = now_text();
        let reporter = who.reporter();
        let report = NewReport {
            message: &row,
            reporter: &reporter,
            account_id: who.account.as_ref().map(|(id, _)| *id),
            client: &client_text,
            now: &now,
        };
        let new = self.store.report_chat(&report).await?;
        if new {
            tracing::info!(game = %row.game_id, message = row.id, %reporter, "chat message reported");
        }
        Ok(row.id)
    }
}

/// Reads who speaks: the token's seat (403 `bad_token` when it holds none), else the session's
/// account and the seat it holds, if any. Also returns whether the game is over.
async fn speaker(
    slot: &GameSlot,
    token: Option<&str>,
    session: Option<(i64, String)>,
) -> Result<(Speaker, bool), ServiceError> {
    let token = token.filter(|t| !t.is_empty());
    let live = slot.state.lock().await;
    if live.meta.mode != Mode::Human {
        return Err(ServiceError::NotAllowed(
            "chat is for games between people".to_string(),
        ));
    }
    let over = live.game.is_over();
    if let Some(token) = token {
        let seat = live.meta.seat_of(token).ok_or_else(|| {
            ServiceError::BadToken("this token holds no seat in this game".to_string())
        })?;
        let account = live
            .meta
            .players
            .of(seat)
            .and_then(|p| Some((p.id, p.name.clone()?)));
        return Ok((
            Speaker {
                seat: Some(seat),
                account,
            },
            over,
        ));
    }
    let speaker = match session {
        Some((id, name)) => Speaker {
            seat: live.meta.players.seat_of(id),
            account: Some((id, name)),
        },
        None => Speaker {
            seat: None,
            account: None,
        },
    };
    Ok((speaker, over))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_is_cleaned_and_refused_when_empty_or_long() {
        assert_eq!(clean("  good\tgame\n ").expect("kept"), "good game");
        assert_eq!(clean("a\u{7}b\u{202e}c\u{200b}").expect("kept"), "abc");
        assert!(clean(" \n\t\u{200b} ").is_err());
        assert!(clean(&"é".repeat(MAX_CHARS)).is_ok());
        assert!(clean(&"é".repeat(MAX_CHARS + 1)).is_err());
    }
}
