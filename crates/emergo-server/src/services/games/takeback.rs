//! Takeback requests and the Abort button in games between people (issue 18; docs/api.md,
//! "Takebacks between people" and "Abort").
//!
//! A takeback is asked for, then accepted or declined by the other side, as a draw offer is:
//! stored (`takeback_offer`), versioned, pushed over the WebSocket, and withdrawn by the next
//! move. Accepted, it takes back the asker's last move, and the other side's reply when it has
//! replied since (as lichess): the asker is to move again. One request stands at a time, and a
//! side whose request was declined asks again only after the next move. Rated games have no
//! takebacks: a rated game counts as it was played (lichess lets players choose; we keep ratings
//! free of negotiated positions).
//!
//! A game between people may be aborted before each side has moved ([`ending::abortable`], the
//! rule of an early flag fall and of an early resignation too): it ends "aborted", unrated.

use crate::services::error::ServiceError;
use crate::services::games::{Change, LiveGame};
use emergo_core::{Color, EndReason, Outcome, Status};
use emergo_platform::domain::ending;
use emergo_platform::domain::model::{GameMeta, Mode, Takeback};
use serde::Deserialize;

/// What a player does about a takeback.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Offer,
    Accept,
    Decline,
    /// The asker withdraws its request.
    Cancel,
}

/// Whether takebacks may be asked for in this game: between people, not rated.
pub fn allowed(meta: &GameMeta) -> bool {
    meta.mode == Mode::Human && meta.players.rated.is_none()
}

/// Whether the game may be aborted now (the view's `can_abort`).
pub fn can_abort(live: &LiveGame) -> bool {
    live.meta.mode == Mode::Human && !live.game.is_over() && ending::abortable(&live.game)
}

/// The ply to go back to so that `color` is to move again before its last move: its last
/// move, and the other side's reply when there is one.
fn before_last_move_of(live: &LiveGame, color: Color) -> Option<usize> {
    live.game.last_move_of(color)
}

/// What `color`'s `action` changes in a game between people (`None`: nothing to change), or why
/// it is refused.
pub fn decide(
    live: &LiveGame,
    color: Color,
    action: Action,
) -> Result<Option<Change>, ServiceError> {
    if live.meta.players.rated.is_some() {
        return Err(ServiceError::NotAllowed(
            "a rated game has no takebacks: it counts as it is played".to_string(),
        ));
    }
    if let Status::Finished { outcome, reason } = live.game.status() {
        return Err(ServiceError::GameOver(format!(
            "the game is over: {} ({reason})",
            outcome.token()
        )));
    }
    let current = live.meta.takeback;
    let asked_by_other = current.offer == Some(color.other());
    let change = match action {
        // Asking back when the other side asks agrees to its request.
        Action::Offer | Action::Accept if asked_by_other => {
            let to = before_last_move_of(live, color.other()).ok_or_else(|| {
                ServiceError::NotAllowed("there is no move to take back".to_string())
            })?;
            Change::Takeback { to }
        }
        Action::Offer if current.offer == Some(color) => return Ok(None),
        Action::Offer => {
            if !live.meta.seats[color.other()].joined() {
                return Err(ServiceError::NotAllowed(
                    "nobody took the other seat of this game yet".to_string(),
                ));
            }
            if before_last_move_of(live, color).is_none() {
                return Err(ServiceError::NotAllowed(
                    "there is no move of yours to take back".to_string(),
                ));
            }
            if current.declined == Some(color) {
                return Err(ServiceError::NotAllowed(
                    "your last takeback request was declined: ask again after the next move"
                        .to_string(),
                ));
            }
            Change::TakebackOffer(Takeback {
                offer: Some(color),
                declined: current.declined,
            })
        }
        Action::Accept => {
            return Err(ServiceError::NotAllowed(
                "there is no takeback request to accept".to_string(),
            ))
        }
        Action::Decline if asked_by_other => Change::TakebackOffer(Takeback {
            offer: None,
            declined: Some(color.other()),
        }),
        Action::Decline => {
            return Err(ServiceError::NotAllowed(
                "there is no takeback request to decline".to_string(),
            ))
        }
        Action::Cancel if current.offer == Some(color) => Change::TakebackOffer(Takeback {
            offer: None,
            declined: current.declined,
        }),
        Action::Cancel => return Ok(None),
    };
    Ok(Some(change))
}

/// The abort of `live` by a seat holder, or why not.
pub fn abort(live: &LiveGame) -> Result<Change, ServiceError> {
    if live.meta.mode != Mode::Human {
        return Err(ServiceError::NotAllowed(
            "abort is for games between people; against the engine, resign or start a new game"
                .to_string(),
        ));
    }
    if let Status::Finished { outcome, reason } = live.game.status() {
        return Err(ServiceError::GameOver(format!(
            "the game is over: {} ({reason})",
            outcome.token()
        )));
    }
    if !ending::abortable(&live.game) {
        return Err(ServiceError::NotAllowed(
            "a game can be aborted only before each side has moved; resign or offer a draw"
                .to_string(),
        ));
    }
    Ok(Change::Finish(Status::Finished {
        outcome: Outcome::Draw,
        reason: EndReason::Aborted,
    }))
}
