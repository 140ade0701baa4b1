//! What a seat may do to its game, each decided under the game's lock and applied through
//! [`Shared::act`]: a move, a takeback, a resignation, an abort, a draw offer and its answer,
//! taking a seat by invitation. The HTTP layer reads the request and shows the answer; the
//! decisions (whose seat, whose turn, which refusal) are all here.

use super::seats::Actor;
use super::takeback::{self, Action};
use super::{Change, Client, GameSlot, LiveGame, Shared};
use crate::services::error::{echo, ServiceError};
use emergo_core::{AnyGame, Color, EndReason, Outcome, Status};
use emergo_platform::domain::model::{hash_secret, Mode, SeatKind};
use std::sync::Arc;
use tokio::sync::MutexGuard;

/// Move text longer than this is not a move (the longest capture path is far shorter).
pub const MAX_MOVE_TEXT: usize = 200;

/// What a move sent for a ply already passed gets, when it is the move made there by the same
/// side: 409 `stale_ply` as any other (the game's endpoint: of two submissions for one ply, one
/// is accepted), or the game as it stands (the bot API: a retry after a lost answer is harmless).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Again {
    Stale,
    Harmless,
}

/// What a player does about a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
}

/// 409 `game_over` once the game has ended.
pub fn require_ongoing(live: &LiveGame) -> Result<(), ServiceError> {
    match live.game.status() {
        Status::Ongoing => Ok(()),
        Status::Finished { outcome, reason } => Err(ServiceError::GameOver(format!(
            "the game is over: {} ({reason})",
            outcome.token()
        ))),
    }
}

/// The legal moves of `game`, sorted, for a refusal's message.
fn legal_list(game: &AnyGame) -> String {
    let mut moves: Vec<String> = game.legal_move_texts();
    moves.sort();
    moves.join(", ")
}

impl Shared {
    /// 503 `engine_busy` when the engine could not take a job from `client` now.
    pub fn engine_room(&self, client: Client) -> Result<(), ServiceError> {
        self.engine_has_room(client)
            .map_err(|e| ServiceError::EngineBusy(e.to_string()))
    }

    /// [`Shared::act`] for the seat `actor` holds: `decide` is given the game and that seat's
    /// colour (403 `bad_token` when the actor holds none).
    pub async fn act_as<'a, F>(
        self: &Arc<Self>,
        slot: &'a Arc<GameSlot>,
        client: Client,
        actor: &Actor,
        mut decide: F,
    ) -> Result<MutexGuard<'a, LiveGame>, ServiceError>
    where
        F: FnMut(&LiveGame, Color) -> Result<Option<Change>, ServiceError>,
    {
        self.act(slot, client, |live| decide(live, actor.seat(live)?))
            .await
    }

    /// The move `text` by `actor`'s side, made at ply `ply` (409 `stale_ply` when the game is
    /// elsewhere): its turn, an ongoing game whose seats are taken, a legal move.
    pub async fn play<'a>(
        self: &Arc<Self>,
        slot: &'a Arc<GameSlot>,
        client: Client,
        actor: &Actor,
        ply: i64,
        text: &str,
        again: Again,
    ) -> Result<MutexGuard<'a, LiveGame>, ServiceError> {
        self.act_as(slot, client, actor, |live, color| {
            let current = live.game.ply();
            // The same move sent again (its answer was lost): already made, nothing to do.
            if again == Again::Harmless
                && ply + 1 == current as i64
                && is_last_move_of(live, color, text)
            {
                return Ok(None);
            }
            if ply != current as i64 {
                return Err(ServiceError::StalePly {
                    current,
                    given: ply,
                });
            }
            require_ongoing(live)?;
            if let Some(seat) = live.waiting_for() {
                return Err(ServiceError::NotAllowed(format!(
                    "the clock starts when both seats are taken: wait for {} to join",
                    seat.name()
                )));
            }
            let game = &live.game;
            if game.turn() != color {
                return Err(ServiceError::NotYourTurn(format!(
                    "{} is to move, and this token holds {}'s seat",
                    game.turn().name(),
                    color.name()
                )));
            }
            let text = text.trim();
            if text.len() > MAX_MOVE_TEXT {
                return Err(ServiceError::IllegalMove(format!(
                    "{} is not a move; the legal moves are: {}",
                    echo(text),
                    legal_list(game)
                )));
            }
            let mv = game.parse_move(text).map_err(|e| {
                ServiceError::IllegalMove(format!("{e}; the legal moves are: {}", legal_list(game)))
            })?;
            if live.meta.mode == Mode::Engine {
                self.engine_room(client)?;
            }
            Ok(Some(Change::Move(mv)))
        })
        .await
    }

    /// A takeback: between people the request `action` (an offer by default; see
    /// `takeback.rs`), against the engine at once to before `actor`'s last move.
    pub async fn take_back<'a>(
        self: &Arc<Self>,
        slot: &'a Arc<GameSlot>,
        client: Client,
        actor: &Actor,
        action: Option<Action>,
    ) -> Result<MutexGuard<'a, LiveGame>, ServiceError> {
        self.act_as(slot, client, actor, |live, color| {
            if live.meta.mode == Mode::Human {
                return takeback::decide(live, color, action.unwrap_or(Action::Offer));
            }
            if live.meta.mode != Mode::Engine {
                return Err(ServiceError::NotAllowed(
                    "a takeback is for games against the engine and between people".to_string(),
                ));
            }
            if let Status::Finished {
                reason: reason @ (EndReason::Resignation | EndReason::Agreement),
                ..
            } = live.game.status()
            {
                return Err(ServiceError::GameOver(format!(
                    "the game ended by {reason}; it cannot be taken back"
                )));
            }
            let target = live.game.last_move_of(color).ok_or_else(|| {
                ServiceError::NotAllowed("there is no move of yours to take back".to_string())
            })?;
            Ok(Some(Change::Takeback { to: target }))
        })
        .await
    }

    /// `actor`'s side resigns an ongoing game.
    pub async fn resign<'a>(
        self: &Arc<Self>,
        slot: &'a Arc<GameSlot>,
        client: Client,
        actor: &Actor,
    ) -> Result<MutexGuard<'a, LiveGame>, ServiceError> {
        self.act_as(slot, client, actor, |live, color| {
            require_ongoing(live)?;
            Ok(Some(Change::Finish(Status::Finished {
                outcome: Outcome::Win(color.other()),
                reason: EndReason::Resignation,
            })))
        })
        .await
    }

    /// A game between people ends "aborted" (unrated) before each side has moved
    /// (`takeback.rs`).
    pub async fn abort<'a>(
        self: &Arc<Self>,
        slot: &'a Arc<GameSlot>,
        client: Client,
        actor: &Actor,
    ) -> Result<MutexGuard<'a, LiveGame>, ServiceError> {
        self.act_as(slot, client, actor, |live, _| {
            takeback::abort(live).map(Some)
        })
        .await
    }

    /// A draw offer, or the answer to the other side's (offering back to a standing offer
    /// agrees to it); games between people only.
    pub async fn draw<'a>(
        self: &Arc<Self>,
        slot: &'a Arc<GameSlot>,
        client: Client,
        actor: &Actor,
        action: DrawAction,
    ) -> Result<MutexGuard<'a, LiveGame>, ServiceError> {
        self.act_as(slot, client, actor, |live, color| {
            if live.meta.mode != Mode::Human {
                return Err(ServiceError::NotAllowed(
                    "draw offers are for games between people".to_string(),
                ));
            }
            require_ongoing(live)?;
            let offered_to_me = live.meta.draw_offer == Some(color.other());
            let change = match action {
                DrawAction::Offer | DrawAction::Accept if offered_to_me => {
                    Change::Finish(Status::Finished {
                        outcome: Outcome::Draw,
                        reason: EndReason::Agreement,
                    })
                }
                DrawAction::Offer => Change::DrawOffer(Some(color)),
                DrawAction::Accept => {
                    return Err(ServiceError::NotAllowed(
                        "there is no draw offer to accept".to_string(),
                    ))
                }
                DrawAction::Decline if offered_to_me => Change::DrawOffer(None),
                DrawAction::Decline => {
                    return Err(ServiceError::NotAllowed(
                        "there is no draw offer to decline".to_string(),
                    ))
                }
            };
            let unchanged =
                matches!(change, Change::DrawOffer(offer) if offer == live.meta.draw_offer);
            Ok((!unchanged).then_some(change))
        })
        .await
    }

    /// The free seat of a game between people, for the holder of its invitation `invite`: the
    /// game, and the colour whose seat `token_hash` now holds.
    pub async fn join<'a>(
        self: &Arc<Self>,
        slot: &'a Arc<GameSlot>,
        client: Client,
        invite: Option<&str>,
        token_hash: &str,
    ) -> Result<(MutexGuard<'a, LiveGame>, Color), ServiceError> {
        let mut taken = Color::White;
        let live = self
            .act(slot, client, |live| {
                let code_matches = match (&live.meta.invite_hash, invite) {
                    (Some(hash), Some(code)) => *hash == hash_secret(code),
                    _ => false,
                };
                if !code_matches {
                    return Err(ServiceError::BadToken(
                        "this invitation code does not open a seat in this game".to_string(),
                    ));
                }
                let free = Color::ALL.into_iter().find(|&c| {
                    let seat = &live.meta.seats[c];
                    seat.kind == SeatKind::Human && seat.token_hash.is_none()
                });
                let Some(color) = free else {
                    return Err(ServiceError::SeatTaken(
                        "both seats of this game are taken".to_string(),
                    ));
                };
                taken = color;
                Ok(Some(Change::Seat {
                    color,
                    token_hash: token_hash.to_string(),
                }))
            })
            .await?;
        Ok((live, taken))
    }
}

/// Whether the game's last move is `text`, made by `color` (a retried request's move).
fn is_last_move_of(live: &LiveGame, color: Color, text: &str) -> bool {
    let moves = live.game.move_texts();
    let Some(last) = moves.last() else {
        return false;
    };
    // The side that made the last move is not the one to move now (or the game is over).
    let mover_moved = live.game.turn() != color || !matches!(live.game.status(), Status::Ongoing);
    mover_moved && last.as_str() == text.trim()
}
