//! `POST /api/games/{id}/rematch`: a rematch between the two seat holders of a finished game
//! between people. One offers; the other is told over the game's WebSocket (`rematch_offer` in
//! the view) and accepts or declines. Accepting makes the new game, colours swapped, from the
//! same start, with the acceptor seated (its token is in its answer); the offerer, told by the
//! WebSocket (`rematch_game`), takes its seat with `join` and gets its own token. Each proves
//! its seat with the old game's token or, in a game between accounts, with its session.
//!
//! The state lives in the store (`rematch_offer`, `rematch_game`, each write guarded), so that
//! two instances never make two rematches of one game; the wake-up goes through the fanout like
//! every other change.

use crate::services::error::ServiceError;
use crate::services::games::seats::Actor;
use crate::services::games::view::{GameView, SeatGrant};
use crate::services::games::{AppState, Change, GameSlot, LiveGame};
use emergo_core::{ByColor, Color};
use emergo_platform::domain::limits::ClientAddr;
use emergo_platform::domain::model::{
    hash_secret, new_game_id, new_token, now_text, GameMeta, Mode, Seat,
};
use serde::Deserialize;
use std::sync::Arc;

/// What a seat holder does about a rematch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Action {
    Offer,
    Accept,
    Decline,
    Join,
}

/// What a rematch action did: the old game's view (an offer made or withdrawn, a decline), the
/// new game made with the acceptor seated, or the offerer seated in it.
pub enum RematchAnswer {
    View(Box<GameView>),
    Made(Box<SeatGrant>),
    Joined(Box<SeatGrant>),
}

/// `actor` does `action` about the rematch of game `slot`: the one place its rules are.
pub async fn act(
    state: &AppState,
    client: ClientAddr,
    slot: &Arc<GameSlot>,
    actor: &Actor,
    action: Action,
) -> Result<RematchAnswer, ServiceError> {
    let mut live = slot.state.lock().await;
    let color = rematch_seat(&live, actor)?;
    let current = live.meta.rematch.clone();
    if let Some(game) = current.game {
        return match action {
            Action::Join => {
                drop(live);
                join(state, client, &game, color.other()).await
            }
            _ => Err(ServiceError::NotAllowed(format!(
                "the rematch has been made already: game {game}"
            ))),
        };
    }
    let offered_to_me = current.offer == Some(color.other());
    let to = match action {
        // Offering back to a standing offer accepts it.
        Action::Offer | Action::Accept if offered_to_me => {
            return make(state, client, slot, &mut live, color).await;
        }
        Action::Offer => Some(color),
        Action::Decline if offered_to_me => None,
        Action::Accept | Action::Decline => {
            return Err(ServiceError::NotAllowed(
                "there is no rematch offer from the other side".to_string(),
            ))
        }
        Action::Join => {
            return Err(ServiceError::NotAllowed(
                "no rematch has been made yet".to_string(),
            ))
        }
    };
    if to != current.offer {
        let change = Change::RematchOffer {
            from: current.offer,
            to,
        };
        state.apply(slot, &mut live, change, client.0).await?;
    }
    Ok(RematchAnswer::View(Box::new(GameView::of(&live))))
}

/// The seat holder's colour, once the game is one whose rematch may be offered.
fn rematch_seat(live: &LiveGame, actor: &Actor) -> Result<Color, ServiceError> {
    let color = actor.seat(live)?;
    if live.meta.mode != Mode::Human {
        return Err(ServiceError::NotAllowed(
            "a rematch offer is for games between people; against the engine, start a new game"
                .to_string(),
        ));
    }
    if !live.game.is_over() {
        return Err(ServiceError::NotAllowed(
            "a rematch is offered once the game is over".to_string(),
        ));
    }
    if !live.meta.seats[color.other()].joined() {
        return Err(ServiceError::NotAllowed(
            "nobody took the other seat of this game".to_string(),
        ));
    }
    Ok(color)
}

/// Makes the rematch `acceptor` accepted: the new game (colours swapped, the same start) with
/// the acceptor seated, stored, then marked on the old game (the guarded write: of two
/// acceptances on two instances one wins, and the loser's new game is deleted).
async fn make(
    state: &AppState,
    client: ClientAddr,
    slot: &Arc<GameSlot>,
    live: &mut LiveGame,
    acceptor: Color,
) -> Result<RematchAnswer, ServiceError> {
    let seat = acceptor.other();
    let token = new_token();
    let mut seats = ByColor::splat(Seat::vacant());
    seats[seat].token_hash = Some(hash_secret(&token));
    let mut meta = GameMeta::new(new_game_id(), Mode::Human, seats, now_text());
    // Between accounts: the same accounts, colours swapped, rated as the first game was.
    meta.players = emergo_platform::domain::model::Players {
        white: live.meta.players.black.clone(),
        black: live.meta.players.white.clone(),
        rated: live.meta.players.rated,
    };
    // The same time control; the clock starts when the offerer takes its seat.
    meta.clock = live
        .meta
        .clock
        .map(|c| emergo_platform::domain::clock::GameClock::new(c.control));
    // The same board and start.
    let game = live.game.restarted();
    meta.variant = live.meta.variant;
    state.insert_with_fresh_id(&mut meta, &game).await?;
    if meta.players.rated.is_some() {
        // Both players on one address: the rematch counts within that address's limit too.
        let stored = state
            .store
            .carry_shared_client(&live.meta.id, &meta.id, &meta.created_at)
            .await;
        if let Err(err) = stored {
            tracing::warn!(game = %meta.id, "the rematch's shared address is not kept: {err}");
        }
    }
    let change = Change::Rematched {
        offer: acceptor.other(),
        game: meta.id.clone(),
    };
    if let Err(err) = state.apply(slot, live, change, client.0).await {
        if let Err(cleanup) = state.store.delete_game(&meta.id).await {
            tracing::warn!(game = %meta.id, "an unused rematch stays stored: {cleanup}");
        }
        return Err(err);
    }
    let new_slot = state.insert(LiveGame::new(meta, game));
    let new = new_slot.state.lock().await;
    let grant = SeatGrant {
        game: GameView::of(&new),
        seat: seat.name(),
        token,
        invite: None,
    };
    Ok(RematchAnswer::Made(Box::new(grant)))
}

/// The offerer takes its seat (`seat`) in the rematch `game`, once.
async fn join(
    state: &AppState,
    client: ClientAddr,
    game: &str,
    seat: Color,
) -> Result<RematchAnswer, ServiceError> {
    let slot = state.slot(game).await?;
    let mut live = slot.state.lock().await;
    if live.meta.seats[seat].token_hash.is_some() {
        return Err(ServiceError::SeatTaken(
            "your seat in the rematch is taken already".to_string(),
        ));
    }
    let token = new_token();
    let change = Change::Seat {
        color: seat,
        token_hash: hash_secret(&token),
    };
    state.apply(&slot, &mut live, change, client.0).await?;
    let grant = SeatGrant {
        game: GameView::of(&live),
        seat: seat.name(),
        token,
        invite: None,
    };
    Ok(RematchAnswer::Joined(Box::new(grant)))
}
