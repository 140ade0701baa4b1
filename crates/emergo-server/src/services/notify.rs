//! Notifications (issue 18): a correspondence move made it the account's turn, a challenge came,
//! a game started (a seek of the account taken, a challenge of it accepted), a correspondence
//! game ended. Each is stored for its account (the newest [`PER_ACCOUNT`] are kept), so that a
//! player who was away reads them (`GET /api/notifications`), and pushed to the account's open
//! lobby WebSockets on every instance: this instance's through [`Hub`], the others' through
//! PostgreSQL's `NOTIFY` on [`NOTES_CHANNEL`] (src/services/fanout.rs listens to it).
//!
//! The game service does not know this one: [`Notify`] listens to its changes
//! ([`GameListener`], wired by the composition root).
//!
//! Everything is bounded: an account keeps [`PER_ACCOUNT`] notifications; an account's channel
//! buffers [`SOCKET_BUFFER`] events per socket (a socket that falls further behind is told to
//! read the list again); a fan-out payload is at most [`PAYLOAD_MAX`] bytes (a bigger one says
//! only "read the list again").

use crate::services::error::ServiceError;
use crate::services::games::{GameChanged, GameListener};
use emergo_core::{Color, EndReason, Outcome, Status};
use emergo_platform::domain::model::now_text;
use emergo_platform::domain::time_control::TimeControl;
use emergo_platform::store::notifications::{NewNote, NoteRow, ReadWhich};
use emergo_platform::store::Store;
use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

/// Notifications an account keeps (the oldest go first).
pub const PER_ACCOUNT: i64 = 50;

/// Events an account's channel buffers for each of its sockets.
pub const SOCKET_BUFFER: usize = 16;

/// The PostgreSQL channel of the notifications' fan-out: `<instance> <account> <event>`, the
/// event a notification's JSON or `changed`.
pub const NOTES_CHANNEL: &str = "emergo_notes";

/// The largest fan-out payload sent (PostgreSQL's own limit is 8000 bytes).
pub const PAYLOAD_MAX: usize = 1000;

/// Ids one `POST /api/notifications/read` may name.
pub const READ_IDS_MAX: usize = 100;

/// A notification as the API and the WebSockets show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteView {
    pub id: i64,
    /// `turn`, `challenge`, `started` or `ended`.
    pub kind: String,
    pub game: Option<String>,
    pub seek: Option<String>,
    /// The other player.
    pub from: Option<String>,
    /// The other player is a bot account (issue 24); absent otherwise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_bot: bool,
    pub time: Option<String>,
    /// For `ended`: `win`, `loss` or `draw`, for this account.
    pub outcome: Option<String>,
    pub reason: Option<String>,
    pub at: String,
    pub read: bool,
}

impl NoteView {
    pub fn of(row: NoteRow) -> NoteView {
        NoteView {
            id: row.id,
            kind: row.kind,
            game: row.game_id,
            seek: row.seek_id,
            from: row.other,
            from_bot: row.other_bot,
            time: row.time_control,
            outcome: row.outcome,
            reason: row.reason,
            at: row.created_at,
            read: row.read_at.is_some(),
        }
    }
}

/// What an account's sockets are told.
#[derive(Clone, Debug)]
pub enum Event {
    /// A new notification.
    New(Arc<NoteView>),
    /// Notifications were read (or events were lost): read the list again.
    Changed,
}

/// A WebSocket message of the notifications (the lobby's socket, src/http/lobby_ws.rs).
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub(crate) enum NoteMessage {
    /// `{"type": "notification", "notification": {...}}`: a new notification.
    Notification { notification: NoteView },
    /// `{"type": "turn", "game"}`: it is the account's turn in a correspondence game.
    Turn { game: Option<String> },
    /// `{"type": "notifications"}`: read the list again.
    Notifications,
}

impl Event {
    /// The WebSocket messages of the event: `{"type": "notification", "notification": ...}`
    /// (and, for a turn, the lobby's `{"type": "turn", "game"}`), or `{"type": "notifications"}`.
    pub(crate) fn messages(&self) -> Vec<NoteMessage> {
        match self {
            Event::New(note) => {
                let mut out = vec![NoteMessage::Notification {
                    notification: NoteView::clone(note),
                }];
                if note.kind == "turn" {
                    out.push(NoteMessage::Turn {
                        game: note.game.clone(),
                    });
                }
                out
            }
            Event::Changed => vec![NoteMessage::Notifications],
        }
    }

    /// The fan-out payload of the event for `account`, from `instance`: at most
    /// [`PAYLOAD_MAX`] bytes (a notification too big for it goes as `changed`).
    fn payload(&self, instance: &str, account: i64) -> String {
        let changed = format!("{instance} {account} changed");
        match self {
            Event::New(note) => {
                let text = format!(
                    "{instance} {account} {}",
                    serde_json::to_string(&**note).unwrap_or_default()
                );
                if text.len() <= PAYLOAD_MAX {
                    text
                } else {
                    changed
                }
            }
            Event::Changed => changed,
        }
    }
}

/// A fan-out payload read: who sent it, for which account, what.
pub fn parse_payload(payload: &str) -> Option<(&str, i64, Event)> {
    let mut parts = payload.splitn(3, ' ');
    let from = parts.next()?;
    let account = parts.next()?.parse().ok()?;
    let event = match parts.next()? {
        "changed" => Event::Changed,
        text => Event::New(Arc::new(serde_json::from_str(text).ok()?)),
    };
    Some((from, account, event))
}

/// The notifications service: the store they are kept in, and this instance's channels, one
/// per account with an open socket here. Cloned, it is the same service.
#[derive(Clone)]
pub struct Notify {
    store: Store,
    hub: Arc<Hub>,
}

#[derive(Default)]
struct Hub {
    channels: Mutex<HashMap<i64, broadcast::Sender<Event>>>,
}

/// A socket's subscription to its account's channel; the channel goes with its last one.
pub struct Subscription {
    hub: Arc<Hub>,
    account: i64,
    pub events: broadcast::Receiver<Event>,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut channels = self.hub.lock();
        if let Some(sender) = channels.get(&self.account) {
            // This subscription's receiver is the last one.
            if sender.receiver_count() <= 1 {
                channels.remove(&self.account);
            }
        }
    }
}

impl Hub {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<i64, broadcast::Sender<Event>>> {
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Notify {
    pub fn new(store: Store) -> Notify {
        Notify {
            store,
            hub: Arc::default(),
        }
    }

    /// Subscribes a socket of `account` to its events.
    pub fn subscribe(&self, account: i64) -> Subscription {
        let events = self
            .hub
            .lock()
            .entry(account)
            .or_insert_with(|| broadcast::channel(SOCKET_BUFFER).0)
            .subscribe();
        Subscription {
            hub: self.hub.clone(),
            account,
            events,
        }
    }

    /// Tells `account`'s sockets on this instance.
    pub fn deliver(&self, account: i64, event: Event) {
        if let Some(sender) = self.hub.lock().get(&account) {
            let _ = sender.send(event);
        }
    }

    /// Tells every socket here to read its list again (fan-out events may have been lost).
    pub fn all_changed(&self) {
        for sender in self.hub.lock().values() {
            let _ = sender.send(Event::Changed);
        }
    }

    /// Accounts with a socket here.
    pub fn accounts(&self) -> usize {
        self.hub.lock().len()
    }

    /// Tells `account`'s sockets here and, with PostgreSQL, on the other instances.
    async fn announce(&self, account: i64, event: Event) {
        if let Store::Postgres(pg) = &self.store {
            let payload = event.payload(pg.instance(), account);
            if let Err(err) = pg.announce(NOTES_CHANNEL, &payload).await {
                tracing::warn!("notifications: cannot tell the other instances: {err}");
            }
        }
        self.deliver(account, event);
    }

    /// Stores a notification and tells its account's sockets. A failure is logged: the change
    /// it is about stands.
    pub async fn notify(&self, note: NewNote<'_>) {
        match self.store.insert_note(&note, PER_ACCOUNT).await {
            Ok(row) => {
                let account = row.account_id;
                self.announce(account, Event::New(Arc::new(NoteView::of(row))))
                    .await;
            }
            Err(err) => tracing::warn!("cannot store a notification: {err}"),
        }
    }

    /// Marks notifications of `account` read and tells its sockets (when some were unread).
    pub async fn mark_read(&self, account: i64, which: ReadWhich<'_>) -> Result<u64, ServiceError> {
        let done = self.store.read_notes(account, which, &now_text()).await?;
        if done > 0 {
            self.announce(account, Event::Changed).await;
        }
        Ok(done)
    }

    /// The notifications of `account`, newest first (at most [`PER_ACCOUNT`]: all it keeps).
    pub async fn list(&self, account: i64) -> Result<Vec<NoteView>, ServiceError> {
        let rows = self.store.notes_of(account, PER_ACCOUNT as u32).await?;
        Ok(rows.into_iter().map(NoteView::of).collect())
    }

    /// How many notifications of `account` are unread.
    pub async fn unread(&self, account: i64) -> Result<usize, ServiceError> {
        let rows = self.store.notes_of(account, PER_ACCOUNT as u32).await?;
        Ok(rows.iter().filter(|n| n.read_at.is_none()).count())
    }
}

impl GameListener for Notify {
    fn changed<'a>(&'a self, change: &'a GameChanged<'a>) -> BoxFuture<'a, ()> {
        Box::pin(game_changed(self, change))
    }
}

/// After a change to a correspondence game between accounts: the player to move is told it is
/// their turn (and the mover's notifications of the game are read); when the game ended, each
/// player who did not end it is told.
async fn game_changed(notes: &Notify, change: &GameChanged<'_>) {
    let (live, before) = (change.live, change);
    let Some(control) = live.meta.clock.map(|c| c.control) else {
        return;
    };
    if !matches!(control, TimeControl::Correspondence { .. }) {
        return;
    }
    let players = &live.meta.players;
    let (Some(_), Some(_)) = (&players.white, &players.black) else {
        return;
    };
    let time = control.to_string();
    let game = live.meta.id.as_str();
    let now = now_text();
    let name_of = |c: Color| players.of(c).and_then(|p| p.name.clone());
    if let Status::Finished { outcome, reason } = live.game.status() {
        if before.was_over {
            return;
        }
        for color in Color::ALL {
            let Some(player) = players.of(color) else {
                continue;
            };
            if before.acted == Some(color) {
                continue;
            }
            let result = match outcome {
                _ if reason == EndReason::Aborted => "draw",
                Outcome::Draw => "draw",
                Outcome::Win(w) if w == color => "win",
                Outcome::Win(_) => "loss",
            };
            let other = name_of(color.other());
            notes
                .notify(NewNote {
                    account_id: player.id,
                    kind: "ended",
                    game_id: Some(game),
                    seek_id: None,
                    other: other.as_deref(),
                    time_control: Some(&time),
                    outcome: Some(result),
                    reason: Some(reason.name()),
                    created_at: &now,
                })
                .await;
        }
        return;
    }
    let (Some(mover), true) = (before.acted, !before.was_over) else {
        return;
    };
    let next = mover.other();
    if live.game.turn() != next {
        return;
    }
    if let Some(player) = players.of(mover) {
        if let Err(err) = notes.mark_read(player.id, ReadWhich::Game(game)).await {
            tracing::warn!("cannot mark notifications read: {err}");
        }
    }
    if let Some(player) = players.of(next) {
        let other = name_of(mover);
        notes
            .notify(NewNote {
                account_id: player.id,
                kind: "turn",
                game_id: Some(game),
                seek_id: None,
                other: other.as_deref(),
                time_control: Some(&time),
                outcome: None,
                reason: None,
                created_at: &now,
            })
            .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The biggest notification there is (a 20-character name, a long game id, every field)
    /// fits in a fan-out payload whole.
    #[test]
    fn the_biggest_notification_fits_a_payload() {
        let note = NoteView {
            id: i64::MAX,
            kind: "challenge".into(),
            game: Some("g".repeat(64)),
            seek: Some("s".repeat(64)),
            from: Some("n".repeat(20)),
            from_bot: true,
            time: Some("180+180".into()),
            outcome: Some("loss".into()),
            reason: Some("resignation".into()),
            at: "2026-12-01T13:00:00.000000000Z".into(),
            read: false,
        };
        let event = Event::New(Arc::new(note.clone()));
        let payload = event.payload("0123456789abcdef", i64::MAX);
        assert!(payload.len() <= PAYLOAD_MAX, "{}", payload.len());
        let (from, account, back) = parse_payload(&payload).expect("it reads back");
        assert_eq!((from, account), ("0123456789abcdef", i64::MAX));
        assert!(matches!(back, Event::New(n) if *n == note));
    }

    /// A notification too big for a payload goes as "read the list again".
    #[test]
    fn a_payload_never_exceeds_its_bound() {
        let note = NoteView {
            id: 1,
            kind: "turn".into(),
            game: Some("x".repeat(5000)),
            seek: None,
            from: None,
            from_bot: false,
            time: None,
            outcome: None,
            reason: None,
            at: String::new(),
            read: false,
        };
        let payload = Event::New(Arc::new(note)).payload("i", 7);
        assert_eq!(payload, "i 7 changed");
        assert!(matches!(
            parse_payload(&payload),
            Some(("i", 7, Event::Changed))
        ));
        assert!(parse_payload("i x changed").is_none());
        assert!(parse_payload("i 7 {broken").is_none());
    }
}
