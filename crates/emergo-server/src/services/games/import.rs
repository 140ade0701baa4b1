//! Reading an imported game record: UTF-8, the caps of [`RecordLimits`], the replay. Plain
//! synchronous work, linear in the record's size: the server runs it on a blocking thread
//! (never on the async runtime), and the fuzz target `import` calls it directly.

use crate::services::error::ServiceError;
use crate::services::games::{GameSlot, LiveGame, Shared};
use axum::body::Bytes;
use emergo_core::game::Game;
use emergo_core::record::{GameRecord, RecordMove};
use emergo_core::{
    any_game, record_variant, with_variant, AnyGame, ByColor, IntoAny, RecordError, RecordLimits,
    Status, Variant,
};
use emergo_platform::domain::model::{new_game_id, now_text, GameMeta, Mode, Seat};
use std::sync::Arc;

/// A record's tags, in order.
pub type Tags = Vec<(String, String)>;

fn record_refusal(e: RecordError) -> ServiceError {
    match e.limit {
        Some(limit) => ServiceError::TooLarge {
            cap: limit.name(),
            message: e.to_string(),
        },
        None => ServiceError::BadRecord(e),
    }
}

/// Reads `body` as a record within `caps` and replays it on the board its `[Variant]` tag
/// names (absent: the 9x9 board): the record's tags and its game, or the documented error (400
/// `bad_request`; 413 `too_large` naming the cap that was exceeded).
pub fn read_record(body: &[u8], caps: RecordLimits) -> Result<(Tags, AnyGame), ServiceError> {
    let text = std::str::from_utf8(body)
        .map_err(|_| ServiceError::BadRequest("the game record is not UTF-8 text".to_string()))?;
    let kind = record_variant(text).map_err(record_refusal)?;
    with_variant!(kind, V => {
        let record = GameRecord::<V>::parse_within(text, caps).map_err(record_refusal)?;
        let game = record.to_game().map_err(ServiceError::BadRecord)?;
        Ok((record.tags, game.into_any()))
    })
}

/// The metadata of an imported game of `game`'s board: nobody holds a seat; the record's tags
/// are kept for its export.
pub fn imported_meta(tags: Tags, game: &AnyGame) -> GameMeta {
    let seats = ByColor::splat(Seat::vacant());
    let mut meta = GameMeta::new(new_game_id(), Mode::Imported, seats, now_text());
    meta.tags = tags;
    meta.variant = game.kind();
    meta
}

/// The export of an imported game from the record text it was read from, so that its
/// variations and comments survive: the record's main line, the moves played since appended,
/// the game's result. `None` when the text is not this game's record any more (the export then
/// comes from the replay).
pub fn export_imported(text: &str, game: &AnyGame, caps: RecordLimits) -> Option<String> {
    any_game!(game, g => export_on(text, g, caps))
}

fn export_on<V: Variant>(text: &str, game: &Game<V>, caps: RecordLimits) -> Option<String> {
    let mut record = GameRecord::<V>::parse_within(text, caps).ok()?;
    let played = game.moves();
    let kept = record.moves.len();
    if kept > played.len() || record.moves.iter().zip(played).any(|(r, &m)| r.mv != m) {
        return None;
    }
    record
        .moves
        .extend(played[kept..].iter().map(|&mv| RecordMove::new(mv)));
    if let Status::Finished { outcome, .. } = game.status() {
        record.result = Some(outcome);
    }
    Some(record.to_string())
}

impl Shared {
    /// `POST /api/games/import`: the game of the record `body` (read and replayed within the
    /// caps on a blocking thread, a few at a time), stored with the record's text for its
    /// export.
    pub async fn import(self: &Arc<Self>, body: Bytes) -> Result<Arc<GameSlot>, ServiceError> {
        let (tags, game) = {
            let _turn = self
                .imports
                .acquire()
                .await
                .map_err(ServiceError::internal)?;
            let caps = self.limits.record;
            let text = body.clone();
            tokio::task::spawn_blocking(move || read_record(&text, caps))
                .await
                .map_err(ServiceError::internal)??
        };
        let mut meta = imported_meta(tags, &game);
        self.insert_with_fresh_id(&mut meta, &game).await?;
        if let Ok(text) = std::str::from_utf8(&body) {
            self.store.put_record(&meta.id, text).await?;
        }
        Ok(self.insert(LiveGame::new(meta, game)))
    }
}
