//! Reading an imported game record: UTF-8, the caps of [`RecordLimits`], the replay. Plain
//! synchronous work, linear in the record's size: the server runs it on a blocking thread
//! (never on the async runtime), and the fuzz target `import` calls it directly.

use crate::services::error::ServiceError;
use crate::services::games::{GameSlot, LiveGame, Shared};
use axum::body::Bytes;
use emergo_core::{ByColor, Game, GameRecord, RecordLimits, RecordMove, Status};
use emergo_platform::domain::model::{new_game_id, now_text, GameMeta, Mode, Seat};
use std::sync::Arc;

/// Reads `body` as a record within `caps` and replays it: the record and its game, or the
/// documented error (400 `bad_request`; 413 `too_large` naming the cap that was exceeded).
pub fn read_record(body: &[u8], caps: RecordLimits) -> Result<(GameRecord, Game), ServiceError> {
    let text = std::str::from_utf8(body)
        .map_err(|_| ServiceError::BadRequest("the game record is not UTF-8 text".to_string()))?;
    let record = GameRecord::parse_within(text, caps).map_err(|e| match e.limit {
        Some(limit) => ServiceError::TooLarge {
            cap: limit.name(),
            message: e.to_string(),
        },
        None => ServiceError::BadRecord(e),
    })?;
    let game = record.to_game().map_err(ServiceError::BadRecord)?;
    Ok((record, game))
}

/// The metadata of an imported game: nobody holds a seat; the record's tags are kept for its
/// export.
pub fn imported_meta(record: GameRecord) -> GameMeta {
    let seats = ByColor::splat(Seat::vacant());
    let mut meta = GameMeta::new(new_game_id(), Mode::Imported, seats, now_text());
    meta.tags = record.tags;
    meta
}

/// The export of an imported game from the record text it was read from, so that its
/// variations and comments survive: the record's main line, the moves played since appended,
/// the game's result. `None` when the text is not this game's record any more (the export then
/// comes from the replay).
pub fn export_imported(text: &str, game: &Game, caps: RecordLimits) -> Option<String> {
    let mut record = GameRecord::parse_within(text, caps).ok()?;
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
        let (record, game) = {
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
        let mut meta = imported_meta(record);
        self.insert_with_fresh_id(&mut meta, &game).await?;
        if let Ok(text) = std::str::from_utf8(&body) {
            self.store.put_record(&meta.id, text).await?;
        }
        Ok(self.insert(LiveGame::new(meta, game)))
    }
}
