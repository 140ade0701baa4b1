//! Who acts for a seat (issue 11): the seat's token, as in every game, or, in a game between
//! accounts, the session of the account that holds the seat. A session of another account acts
//! for nothing. `POST /api/games/{id}/seat` gives a seat holder's session a fresh token for its
//! seat (the page keeps it like any seat token).

use crate::domain::model::{hash_secret, new_token};
use crate::http::router::GameId;
use crate::http::session::{SessionCookie, SignedIn};
use crate::services::error::ServiceError;
use crate::services::games::view::{GameView, SeatGrant};
use crate::services::games::{AppState, LiveGame};
use axum::extract::State;
use axum::Json;
use emergo_core::Color;

/// The credentials of a request that acts for a seat: a token, or else the session's account.
pub struct Actor {
    token: Option<String>,
    account: Option<i64>,
}

impl Actor {
    /// Reads the session only when no token is given (one database read, before the game's
    /// lock is taken).
    pub async fn of(
        state: &AppState,
        token: Option<&str>,
        cookie: &SessionCookie,
    ) -> Result<Actor, ServiceError> {
        let token = token.filter(|t| !t.is_empty()).map(str::to_string);
        let account = match token {
            Some(_) => None,
            None => cookie.account(state).await?.map(|s| s.account.id),
        };
        Ok(Actor { token, account })
    }

    /// The seat this actor holds in the game; 403 `bad_token` when none.
    pub fn seat(&self, live: &LiveGame) -> Result<Color, ServiceError> {
        if let Some(token) = &self.token {
            return live.meta.seat_of(token).ok_or_else(|| {
                ServiceError::BadToken("this token holds no seat in this game".to_string())
            });
        }
        match self.account {
            Some(id) => live.meta.players.seat_of(id).ok_or_else(|| {
                ServiceError::BadToken(
                    "the account logged in holds no seat in this game".to_string(),
                )
            }),
            None => Err(ServiceError::BadToken(
                "this needs the token of a seat (or the session of the account that holds it)"
                    .to_string(),
            )),
        }
    }
}

/// `POST /api/games/{id}/seat`: a new token for the seat the session's account holds (the old
/// one stops working).
pub async fn claim(
    State(state): State<AppState>,
    SignedIn(session): SignedIn,
    GameId(id): GameId,
) -> Result<Json<SeatGrant>, ServiceError> {
    let slot = state.slot(&id).await?;
    let mut live = slot.state.lock().await;
    let color = live
        .meta
        .players
        .seat_of(session.account.id)
        .ok_or_else(|| {
            ServiceError::BadToken("the account logged in holds no seat in this game".to_string())
        })?;
    let token = new_token();
    let token_hash = hash_secret(&token);
    state
        .store
        .set_seat_token(&id, color, &token_hash, session.account.id)
        .await?;
    live.meta.seats[color].token_hash = Some(token_hash);
    live.version += 1;
    Ok(Json(SeatGrant {
        game: GameView::of(&live),
        seat: color.name(),
        token,
        invite: None,
    }))
}
