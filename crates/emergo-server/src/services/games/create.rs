//! A new game against the engine or between people (`POST /api/games`): the checks of its
//! level, clock and start position, the seats, the stored game, its first engine move. The HTTP
//! layer reads the request and shows the grant.

use super::view::{GameView, SeatGrant};
use super::{Client, LiveGame, Shared};
use crate::services::error::{echo, ServiceError};
use emergo_core::{AnyGame, ByColor, Color};
use emergo_engine::Level;
use emergo_platform::domain::clock::GameClock;
use emergo_platform::domain::model::{
    hash_secret, new_game_id, new_invite, new_token, now_text, random_bit, GameMeta, Mode, Seat,
    SeatKind,
};
use emergo_platform::domain::time_control::TimeControl;
use serde::Deserialize;
use std::sync::Arc;

/// Who the creator plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Opponent {
    Engine,
    Human,
}

/// The seat the creator takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

impl ColorChoice {
    fn color(self) -> Color {
        match self {
            ColorChoice::White => Color::White,
            ColorChoice::Black => Color::Black,
            ColorChoice::Random if random_bit() => Color::White,
            ColorChoice::Random => Color::Black,
        }
    }
}

/// What a new game is asked to be, as the request says it.
pub struct NewGame<'a> {
    pub opponent: Opponent,
    pub color: ColorChoice,
    pub level: Option<i64>,
    /// A start position in N2; none for the standard start.
    pub position: Option<&'a str>,
    /// A time control for a game between people: `"3+2"`, `"corr:3"`; none for untimed.
    pub time: Option<&'a str>,
    /// The board: `emergo`, `7x7` or `hex`; none for `emergo`.
    pub variant: Option<&'a str>,
}

impl Shared {
    /// Makes the game `new` asks for, the creator (on `client`) in the seat it chose: the
    /// grant of that seat (and, between people, the invitation for the other). 400
    /// `bad_request` for a level, clock or position that does not fit; 503 `engine_busy` when
    /// the engine would move first and has no room for `client`. Nothing is stored then.
    pub async fn create(
        self: &Arc<Self>,
        client: Client,
        new: NewGame<'_>,
    ) -> Result<SeatGrant, ServiceError> {
        let mode = match new.opponent {
            Opponent::Engine => Mode::Engine,
            Opponent::Human => Mode::Human,
        };
        let color = new.color.color();
        let level = match (mode, new.level) {
            (Mode::Engine, Some(l)) => Some(Level::try_from(l).map_err(|_| {
                ServiceError::BadRequest(format!("level must be from 1 to 10, not {l}"))
            })?),
            (Mode::Engine, None) => {
                return Err(ServiceError::BadRequest(
                    "a game against the engine needs a level from 1 to 10".to_string(),
                ))
            }
            (_, Some(l)) => {
                return Err(ServiceError::BadRequest(format!(
                    "a game between people has no level (the request says {l})"
                )))
            }
            (_, None) => None,
        };
        let clock = match (new.time, mode) {
            (None, _) => None,
            (Some(text), Mode::Human) => Some(GameClock::new(
                text.parse::<TimeControl>()
                    .map_err(|e| ServiceError::BadRequest(format!("time {}: {e}", echo(text))))?,
            )),
            (Some(_), _) => {
                return Err(ServiceError::BadRequest(
                    "a game against the engine has no clock".to_string(),
                ))
            }
        };
        let variant = crate::services::study::position::variant_of(new.variant)?;
        let game = match new.position {
            None => AnyGame::start(variant),
            Some(text) => AnyGame::from_position_text(variant, text).map_err(|e| {
                ServiceError::BadRequest(format!("position {} ({variant}): {e}", echo(text)))
            })?,
        };
        if game.is_over() {
            return Err(ServiceError::BadRequest(
                "no game can start from that position: it is already decided".to_string(),
            ));
        }
        let other_kind = match mode {
            Mode::Engine => SeatKind::Engine,
            _ => SeatKind::Human,
        };
        if other_kind == SeatKind::Engine && game.turn() != color {
            self.engine_room(client)?;
        }
        let token = new_token();
        let mut seats = ByColor::splat(Seat {
            kind: other_kind,
            token_hash: None,
        });
        seats[color] = Seat {
            kind: SeatKind::Human,
            token_hash: Some(hash_secret(&token)),
        };
        let invite = (mode == Mode::Human).then(new_invite);
        let mut meta = GameMeta::new(new_game_id(), mode, seats, now_text());
        meta.level = level;
        meta.invite_hash = invite.as_deref().map(hash_secret);
        meta.clock = clock;
        meta.variant = variant;
        self.insert_with_fresh_id(&mut meta, &game).await?;
        let mut live = LiveGame::new(meta, game);
        live.engine_client = client;
        let slot = self.insert(live);
        let mut live = slot.state.lock().await;
        self.schedule_engine(&slot, &mut live);
        slot.publish(&live);
        Ok(SeatGrant {
            game: GameView::of(&live),
            seat: color.name(),
            token,
            invite,
        })
    }
}
