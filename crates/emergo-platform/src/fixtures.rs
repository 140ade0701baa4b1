//! Values the tests of this crate and of the server build the same way.

use crate::domain::model::{GameMeta, Mode, Seat};
use emergo_core::ByColor;

/// An untimed game `id` between people, both seats open, made at midnight on 2026-12-01.
pub fn human_game(id: &str) -> GameMeta {
    GameMeta::new(
        id.to_string(),
        Mode::Human,
        ByColor::splat(Seat::vacant()),
        "2026-12-01T00:00:00Z".to_string(),
    )
}
