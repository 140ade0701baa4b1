//! Who acts for a seat (issue 11): the seat's token, as in every game, or, in a game between
//! accounts, the session of the account that holds the seat. A session of another account acts
//! for nothing. `POST /api/games/{id}/seat` gives a seat holder's session a fresh token for its
//! seat (the page keeps it like any seat token).

use crate::services::error::ServiceError;
use crate::services::games::view::{GameView, SeatGrant};
use crate::services::games::{GameSlot, LiveGame, Shared};
use emergo_core::Color;
use emergo_platform::domain::model::{hash_secret, new_token};

/// The credentials of a request that acts for a seat: a token, or else the session's account.
pub struct Actor {
    token: Option<String>,
    account: Option<i64>,
}

impl Actor {
    /// Acts with `token` when one is given, else as the session's `account`.
    pub fn new(token: Option<&str>, account: Option<i64>) -> Actor {
        let token = token.filter(|t| !t.is_empty()).map(str::to_string);
        let account = if token.is_some() { None } else { account };
        Actor { token, account }
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

impl Shared {
    /// `POST /api/games/{id}/seat`: a new token for the seat `account` holds in the game in
    /// `slot` (the old one stops working); 403 `bad_token` when it holds none.
    pub async fn claim_seat(
        &self,
        slot: &GameSlot,
        account: i64,
    ) -> Result<SeatGrant, ServiceError> {
        let mut live = slot.state.lock().await;
        let color = live.meta.players.seat_of(account).ok_or_else(|| {
            ServiceError::BadToken("the account logged in holds no seat in this game".to_string())
        })?;
        let token = new_token();
        let token_hash = hash_secret(&token);
        self.store
            .set_seat_token(slot.id(), color, &token_hash, account)
            .await?;
        live.meta.seats[color].token_hash = Some(token_hash);
        live.version += 1;
        Ok(SeatGrant {
            game: GameView::of(&live),
            seat: color.name(),
            token,
            invite: None,
        })
    }
}
