//! Several instances over one PostgreSQL database: every write to a game sends a wake-up
//! (`NOTIFY emergo_games, '<id> <ply> <version> <instance>'`, see store/postgres.rs); this listener takes them and
//! has the cached game re-read from the database and published to this instance's WebSockets.
//! A wake-up carries no state, so a lost one loses nothing: after a lost connection (the listener
//! reconnects by itself) every cached game is re-read.
//!
//! The same listener takes the notifications' fan-out (`NOTIFY emergo_notes`, src/services/notify.rs)
//! and tells this instance's sockets of the account; after a lost connection every socket here
//! is told to read its notifications again.
//!
//! A chat message stored by another instance (`NOTIFY emergo_chat, '<id> <message> <instance>'`)
//! is read and sent to this instance's WebSockets of its game, when the game is in memory (a
//! message missed while the connection was lost is in the history a socket gets when it opens).

use crate::services::games::AppState;
use crate::services::notify::{parse_payload, Notify, NOTES_CHANNEL};
use emergo_platform::store::{PgStore, CHANNEL, CHAT_CHANNEL};
use sqlx::postgres::{PgListener, PgPool};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{watch, Semaphore};

/// How long to wait before trying again when the database cannot be reached.
const RETRY: Duration = Duration::from_secs(1);
/// Games re-read at once after wake-ups.
const REFRESHES_AT_ONCE: usize = 64;

/// Starts the listener; it ends when `stop` turns true.
pub fn spawn(state: AppState, notes: Notify, store: &PgStore, mut stop: watch::Receiver<bool>) {
    let pool = store.pool().clone();
    let instance = store.instance().to_string();
    tokio::spawn(async move {
        tokio::select! {
            _ = listen(state, notes, pool, &instance) => {}
            _ = stop.wait_for(|s| *s) => {}
        }
    });
}

async fn listen(state: AppState, notes: Notify, pool: PgPool, instance: &str) {
    let refreshing = Arc::new(Semaphore::new(REFRESHES_AT_ONCE));
    loop {
        let mut listener = match connect(&pool).await {
            Ok(listener) => listener,
            Err(err) => {
                tracing::warn!("wake-ups: cannot listen: {err}");
                tokio::time::sleep(RETRY).await;
                continue;
            }
        };
        tracing::debug!("wake-ups: listening");
        // Whatever changed while nobody listened is read now.
        state.refresh_all().await;
        notes.all_changed();
        loop {
            match listener.try_recv().await {
                Ok(Some(note)) if note.channel() == NOTES_CHANNEL => {
                    match parse_payload(note.payload()) {
                        Some((from, account, event)) if from != instance => {
                            notes.deliver(account, event);
                        }
                        Some(_) => {}
                        None => tracing::warn!("notifications: a payload not understood"),
                    }
                }
                Ok(Some(note)) => {
                    tracing::debug!("wake-up {}", note.payload());
                    let parts: Vec<&str> = note.payload().split(' ').collect();
                    if note.channel() == CHAT_CHANNEL {
                        if let [id, message, from] = parts[..] {
                            if from != instance {
                                chat_elsewhere(&state, id, message).await;
                            }
                        }
                        continue;
                    }
                    // This instance's own changes are in its memory already.
                    if let [id, _ply, version, from] = parts[..] {
                        if from != instance {
                            // Games are re-read side by side (a game waiting for its lock
                            // or a slow read holds up no other game), a bounded number at once.
                            let Ok(permit) = refreshing.clone().acquire_owned().await else {
                                break;
                            };
                            let (state, id) = (state.clone(), id.to_string());
                            let version = version.parse().ok();
                            tokio::spawn(async move {
                                state.refresh(&id, version).await;
                                drop(permit);
                            });
                        }
                    }
                }
                Ok(None) => {
                    tracing::warn!("wake-ups: the connection was lost; listening again");
                    break;
                }
                Err(err) => {
                    tracing::warn!("wake-ups: {err}; listening again");
                    break;
                }
            }
        }
    }
}

async fn connect(pool: &PgPool) -> Result<PgListener, sqlx::Error> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener
        .listen_all([CHANNEL, NOTES_CHANNEL, CHAT_CHANNEL])
        .await?;
    Ok(listener)
}

/// Sends the chat message `message` of game `id`, stored by another instance, to this
/// instance's WebSockets of the game (if it is in memory here).
async fn chat_elsewhere(state: &AppState, id: &str, message: &str) {
    let (Some(slot), Ok(message)) = (state.cached_slot(id), message.parse::<i64>()) else {
        return;
    };
    match state.store.chat_message(id, message).await {
        Ok(Some(row)) => crate::services::games::chat::publish(&slot, row),
        Ok(None) => {}
        Err(err) => tracing::warn!(game = %id, "wake-ups: chat message {message}: {err}"),
    }
}
