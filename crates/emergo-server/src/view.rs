//! The JSON objects of docs/api.md: `GameView`, `SeatGrant`, `GameSummary`.

use crate::live::LiveGame;
use crate::model::{color_name, Seat};
use crate::store::{status_columns, SummaryRow};
use emergo_core::{Color, Move, Status};
use serde::Serialize;

#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SeatView {
    pub kind: &'static str,
    pub joined: bool,
}

impl SeatView {
    pub fn of(seat: &Seat) -> SeatView {
        SeatView {
            kind: seat.kind.name(),
            joined: seat.joined(),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Hand {
    pub white: u8,
    pub black: u8,
}

/// Everything a page needs to draw a game.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    pub id: String,
    pub mode: &'static str,
    pub level: Option<u8>,
    pub white: SeatView,
    pub black: SeatView,
    pub start: String,
    pub moves: Vec<String>,
    pub ply: usize,
    pub position: String,
    pub turn: &'static str,
    pub phase: &'static str,
    pub hand: Hand,
    pub shadowpiece: bool,
    pub legal_moves: Vec<String>,
    pub status: &'static str,
    pub result: Option<&'static str>,
    pub reason: Option<&'static str>,
    pub draw_offer: Option<&'static str>,
    pub engine_thinking: bool,
    pub created_at: String,
    pub updated_at: String,
}

impl GameView {
    pub fn of(live: &LiveGame) -> GameView {
        let game = &live.game;
        let pos = game.position();
        let status = game.status();
        let (result, reason) = status_columns(status);
        let legal_moves = if status == Status::Ongoing {
            let mut moves: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
            moves.sort();
            moves
        } else {
            Vec::new()
        };
        let turn = pos.turn();
        GameView {
            id: live.meta.id.clone(),
            mode: live.meta.mode.name(),
            level: live.meta.level,
            white: SeatView::of(&live.meta.seats[Color::White.index()]),
            black: SeatView::of(&live.meta.seats[Color::Black.index()]),
            start: game.start().to_string(),
            moves: game.moves().iter().map(Move::to_string).collect(),
            ply: game.ply(),
            position: pos.to_string(),
            turn: color_name(turn),
            phase: pos.phase().name(),
            hand: Hand {
                white: pos.hand(Color::White),
                black: pos.hand(Color::Black),
            },
            shadowpiece: pos.shadowpiece_pending(),
            legal_moves,
            status: if status == Status::Ongoing {
                "ongoing"
            } else {
                "finished"
            },
            result,
            reason,
            draw_offer: live.meta.draw_offer.map(color_name),
            engine_thinking: live.engine_thinking,
            created_at: live.meta.created_at.clone(),
            updated_at: live.meta.updated_at.clone(),
        }
    }
}

/// A seat given to its holder: the only time the token is shown.
#[derive(Clone, Debug, Serialize)]
pub struct SeatGrant {
    pub game: GameView,
    pub seat: &'static str,
    pub token: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// A line of the list of games.
#[derive(Clone, Debug, Serialize)]
pub struct GameSummary {
    pub id: String,
    pub mode: &'static str,
    pub level: Option<u8>,
    pub white: SeatView,
    pub black: SeatView,
    pub ply: i64,
    pub status: &'static str,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

impl GameSummary {
    pub fn of(row: SummaryRow) -> GameSummary {
        GameSummary {
            mode: row.mode.name(),
            level: row.level,
            white: SeatView::of(&row.seats[0]),
            black: SeatView::of(&row.seats[1]),
            ply: row.ply,
            status: if row.result.is_some() {
                "finished"
            } else {
                "ongoing"
            },
            result: row.result,
            reason: row.reason,
            created_at: row.created_at,
            updated_at: row.updated_at,
            id: row.id,
        }
    }
}
