//! Rows as every backend reads them (the same columns and types in SQLite and PostgreSQL), and
//! their conversion into games and list lines: the one place that knows what a column means.

use super::{ClockColumns, StoreError, StoredGame, SummaryRow};
use crate::domain::clock::GameClock;
use crate::domain::model::{GameMeta, Mode, PlayerRef, Rematch, Seat, SeatKind};
use crate::domain::time_control::TimeControl;
use emergo_core::{AnyGame, ByColor, EndReason, Outcome, Status, VariantKind};
use emergo_engine::Level;

/// The columns of `games` that [`GAME_COLUMNS`] selects.
#[derive(sqlx::FromRow)]
pub(super) struct GameRow {
    id: String,
    mode: String,
    level: Option<i64>,
    white_kind: String,
    black_kind: String,
    white_token: Option<String>,
    black_token: Option<String>,
    invite: Option<String>,
    start: String,
    tags: String,
    result: Option<String>,
    reason: Option<String>,
    draw_offer: Option<String>,
    rematch_offer: Option<String>,
    rematch_game: Option<String>,
    takeback_offer: Option<String>,
    takeback_declined: Option<String>,
    created_at: String,
    updated_at: String,
    version: i64,
    white_account: Option<i64>,
    black_account: Option<i64>,
    white_name: Option<String>,
    black_name: Option<String>,
    white_bot: bool,
    black_bot: bool,
    rated: Option<String>,
    time_control: Option<String>,
    white_ms: Option<i64>,
    black_ms: Option<i64>,
    turn_started_ms: Option<i64>,
    variant: String,
    tournament_id: Option<String>,
    tournament_arena: bool,
    white_berserk: bool,
    black_berserk: bool,
}

pub(super) const GAME_COLUMNS: &str = concat!(
    "id, mode, level, white_kind, black_kind, white_token, black_token, invite, start, tags, \
    result, reason, draw_offer, rematch_offer, rematch_game, takeback_offer, takeback_declined, \
    created_at, updated_at, version, white_account, black_account, ",
    seat_accounts!("games"),
    ", rated, time_control, white_ms, black_ms, turn_started_ms, variant, \
    (SELECT t.tournament_id FROM tournament_games t WHERE t.game_id = games.id) AS tournament_id, \
    COALESCE((SELECT u.format = 'arena' FROM tournament_games t \
        JOIN tournaments u ON u.id = t.tournament_id WHERE t.game_id = games.id), FALSE) \
        AS tournament_arena, \
    COALESCE((SELECT t.white_berserk FROM tournament_games t WHERE t.game_id = games.id), FALSE) \
        AS white_berserk, \
    COALESCE((SELECT t.black_berserk FROM tournament_games t WHERE t.game_id = games.id), FALSE) \
        AS black_berserk"
);

/// The columns of `games` that [`SUMMARY_COLUMNS`] selects.
#[derive(sqlx::FromRow)]
pub(super) struct SummaryDbRow {
    id: String,
    mode: String,
    level: Option<i64>,
    white_kind: String,
    black_kind: String,
    white_token: Option<String>,
    black_token: Option<String>,
    ply: i64,
    result: Option<String>,
    reason: Option<String>,
    created_at: String,
    updated_at: String,
    white_account: Option<i64>,
    black_account: Option<i64>,
    white_name: Option<String>,
    black_name: Option<String>,
    white_bot: bool,
    black_bot: bool,
    rated: Option<String>,
    variant: String,
}

pub(super) const SUMMARY_COLUMNS: &str = concat!(
    "id, mode, level, white_kind, black_kind, white_token, black_token, ply, result, reason, \
    created_at, updated_at, white_account, black_account, ",
    seat_accounts!("games"),
    ", rated, variant"
);

/// A stored move: `(ply, move text)`.
pub(super) type MoveRow = (i64, String);

fn corrupt(id: String) -> impl Fn(String) -> StoreError {
    move |message| StoreError::Corrupt {
        id: id.clone(),
        message,
    }
}

fn mode(text: &str) -> Result<Mode, String> {
    Mode::from_name(text).ok_or_else(|| format!("mode {text}"))
}

/// The board of a stored game (`VariantKind`'s short name).
fn variant(text: &str) -> Result<VariantKind, String> {
    text.parse::<VariantKind>()
        .map_err(|_| format!("variant {text}"))
}

fn level(level: Option<i64>) -> Option<Level> {
    level.and_then(|l| Level::try_from(l).ok())
}

fn seat(kind: &str, token_hash: Option<String>) -> Result<Seat, String> {
    let kind = SeatKind::from_name(kind).ok_or_else(|| format!("seat kind {kind}"))?;
    Ok(Seat { kind, token_hash })
}

/// [`stored_game`] on a blocking thread: a replay costs time in proportion to the game's length
/// (linear, and bounded by the plies cap), and CPU work never runs on the async runtime.
pub(super) async fn stored_game_off_runtime(
    row: GameRow,
    moves: Vec<MoveRow>,
) -> Result<StoredGame, StoreError> {
    let id = row.id.clone();
    tokio::task::spawn_blocking(move || stored_game(row, moves))
        .await
        .map_err(|e| StoreError::Corrupt {
            id,
            message: format!("the replay stopped: {e}"),
        })?
}

/// The game of `row`, replayed from `moves` (in ply order), with its declared ending.
pub(super) fn stored_game(row: GameRow, moves: Vec<MoveRow>) -> Result<StoredGame, StoreError> {
    let corrupt = corrupt(row.id.clone());
    let seats = ByColor::new(
        seat(&row.white_kind, row.white_token).map_err(&corrupt)?,
        seat(&row.black_kind, row.black_token).map_err(&corrupt)?,
    );
    let tags: Vec<(String, String)> = serde_json::from_str(&row.tags).unwrap_or_default();
    let version = row.version;
    let clock = match row.time_control.as_deref() {
        None => None,
        Some(text) => {
            let control: TimeControl = text
                .parse()
                .map_err(|e| corrupt(format!("time control {text}: {e}")))?;
            let mut clock = GameClock::new(control);
            clock.left.white = row.white_ms.unwrap_or(clock.left.white);
            clock.left.black = row.black_ms.unwrap_or(clock.left.black);
            clock.turn_started = row.turn_started_ms;
            Some(clock)
        }
    };
    let meta = GameMeta {
        id: row.id,
        mode: mode(&row.mode).map_err(&corrupt)?,
        level: level(row.level),
        seats,
        invite_hash: row.invite,
        tags,
        draw_offer: row.draw_offer.as_deref().and_then(|c| c.parse().ok()),
        takeback: crate::domain::model::Takeback {
            offer: row.takeback_offer.as_deref().and_then(|c| c.parse().ok()),
            declined: row
                .takeback_declined
                .as_deref()
                .and_then(|c| c.parse().ok()),
        },
        rematch: Rematch {
            offer: row.rematch_offer.as_deref().and_then(|c| c.parse().ok()),
            game: row.rematch_game,
        },
        players: crate::domain::model::Players {
            white: row.white_account.map(|id| PlayerRef {
                id,
                name: row.white_name,
                bot: row.white_bot,
            }),
            black: row.black_account.map(|id| PlayerRef {
                id,
                name: row.black_name,
                bot: row.black_bot,
            }),
            rated: row.rated.as_deref().and_then(|c| c.parse().ok()),
        },
        clock,
        variant: variant(&row.variant).map_err(&corrupt)?,
        tournament: row
            .tournament_id
            .map(|id| crate::domain::model::TournamentMark {
                id,
                arena: row.tournament_arena,
                berserk: ByColor {
                    white: row.white_berserk,
                    black: row.black_berserk,
                },
            }),
        created_at: row.created_at,
        updated_at: row.updated_at,
    };
    // The moves are replayed on the game's own board.
    let mut game = AnyGame::from_position_text(meta.variant, &row.start)
        .map_err(|e| corrupt(format!("start position ({} board): {e}", meta.variant)))?;
    for (i, (ply, text)) in moves.iter().enumerate() {
        if *ply != i as i64 {
            return Err(corrupt(format!("ply {i} is missing")));
        }
        game.play_text(text)
            .map_err(|e| corrupt(format!("ply {ply} ({text}): {e}")))?;
    }
    if let (Some(result), Some(reason)) = (row.result, row.reason) {
        let outcome = result.parse::<Outcome>();
        let reason = reason.parse::<EndReason>();
        if let (Ok(outcome), Ok(reason)) = (outcome, reason) {
            if game.status() == Status::Ongoing {
                game.declare(outcome, reason)
                    .map_err(|e| corrupt(format!("result: {e}")))?;
            }
        }
    }
    Ok(StoredGame {
        meta,
        game,
        version,
    })
}

/// A line of the list of games.
pub(super) fn summary(row: SummaryDbRow) -> Result<SummaryRow, StoreError> {
    let corrupt = corrupt(row.id.clone());
    let seats = ByColor::new(
        seat(&row.white_kind, row.white_token).map_err(&corrupt)?,
        seat(&row.black_kind, row.black_token).map_err(&corrupt)?,
    );
    Ok(SummaryRow {
        players: crate::domain::model::Players {
            white: row.white_account.map(|id| PlayerRef {
                id,
                name: row.white_name,
                bot: row.white_bot,
            }),
            black: row.black_account.map(|id| PlayerRef {
                id,
                name: row.black_name,
                bot: row.black_bot,
            }),
            rated: row.rated.as_deref().and_then(|c| c.parse().ok()),
        },
        mode: mode(&row.mode).map_err(&corrupt)?,
        level: level(row.level),
        seats,
        ply: row.ply,
        result: row.result,
        reason: row.reason,
        variant: row
            .variant
            .parse()
            .map_err(|_| format!("variant {}", row.variant))
            .map_err(&corrupt)?,
        created_at: row.created_at,
        updated_at: row.updated_at,
        id: row.id,
    })
}

/// The tags column's text.
pub(super) fn tags_text(meta: &GameMeta) -> String {
    serde_json::to_string(&meta.tags).unwrap_or_else(|_| "[]".to_string())
}

/// A new game's time control and clock columns.
pub(super) fn clock_insert(meta: &GameMeta, game: &AnyGame) -> (Option<String>, ClockColumns) {
    let control = meta.clock.map(|c| c.control.to_string());
    (control, ClockColumns::of(meta.clock.as_ref(), game.turn()))
}
