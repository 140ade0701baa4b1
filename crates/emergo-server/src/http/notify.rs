//! Handlers of notifications (docs/api.md).

use crate::http::extract::Body;
use crate::http::session::SignedIn;
use crate::services::error::ServiceError;
use crate::services::notify::{NoteView, Notify, READ_IDS_MAX};
use axum::extract::State;
use axum::Json;
use emergo_platform::store::notifications::ReadWhich;
use serde::{Deserialize, Serialize};

/// The answer of `GET /api/notifications`.
#[derive(Debug, Serialize)]
pub struct NoteList {
    notifications: Vec<NoteView>,
    unread: usize,
}

/// The answer of `POST /api/notifications/read`: how many were marked read, how many are
/// still unread.
#[derive(Debug, Serialize)]
pub struct ReadCounts {
    read: u64,
    unread: usize,
}

/// `GET /api/notifications`: the session's notifications, newest first, and how many are
/// unread.
pub async fn list(
    State(notes): State<Notify>,
    SignedIn(session): SignedIn,
) -> Result<Json<NoteList>, ServiceError> {
    let notes = notes.list(session.account.id).await?;
    let unread = notes.iter().filter(|n| !n.read).count();
    Ok(Json(NoteList {
        notifications: notes,
        unread,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadBody {
    #[serde(default)]
    all: bool,
    ids: Option<Vec<i64>>,
}

/// `POST /api/notifications/read`: `{"all": true}` or `{"ids": [...]}` marks them read;
/// answers how many were unread and how many are still.
pub async fn read(
    State(notes): State<Notify>,
    SignedIn(session): SignedIn,
    Body(body): Body<ReadBody>,
) -> Result<Json<ReadCounts>, ServiceError> {
    let account = session.account.id;
    let which = match (&body.ids, body.all) {
        (None, true) => ReadWhich::All,
        (Some(ids), false) if !ids.is_empty() && ids.len() <= READ_IDS_MAX => ReadWhich::Ids(ids),
        (Some(ids), false) if ids.len() > READ_IDS_MAX => {
            return Err(ServiceError::BadRequest(format!(
                "ids names {} notifications; at most {READ_IDS_MAX} at once",
                ids.len()
            )))
        }
        _ => {
            return Err(ServiceError::BadRequest(
                "say which notifications: {\"all\": true} or {\"ids\": [1, 2]}".to_string(),
            ))
        }
    };
    let read = notes.mark_read(account, which).await?;
    let unread = notes.unread(account).await?;
    Ok(Json(ReadCounts { read, unread }))
}
