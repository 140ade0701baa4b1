//! The opening explorer (issue 22; docs/api.md, "Opening explorer"): what people and the engine
//! played from a position of the opening, keyed by the board and the position (transpositions
//! merge; the three boards are kept apart, as lichess keeps its variants).
//!
//! Kept up to date as games finish: the explorer listens to the games, and indexes a game once
//! it is over, in a transaction of its own (store/explorer.rs; exactly once per game, whichever
//! instances try); the account sweeper catches up on the finished games not indexed yet (after
//! a restart, an import, or a failed attempt). A query reads the totals the upserts made: never
//! a rebuild in the request path.

use crate::services::error::{echo, ServiceError};
use crate::services::games::{ratings, GameChanged, GameListener};
use emergo_core::position::Position;
use emergo_core::{any_game, AnyGame, Variant, VariantKind};
use emergo_platform::domain::explorer::{
    position_key, rows_of, Band, ExplorerRow, GameFacts, Source, Speed, Tally, EXPLORER_PLIES,
};
use emergo_platform::domain::model::{now_text, GameMeta, Mode, SeatKind};
use emergo_platform::store::explorer::{ExplorerFilter, PositionStats, RecentGame, RecentOf};
use emergo_platform::store::Store;
use futures_util::future::BoxFuture;
use serde::Serialize;

/// The games an answer lists at most.
pub const TOP_GAMES: u32 = 8;

/// The longest filter text read (`source=…&speed=…&ratings=…`, each).
pub const MAX_FILTER_TEXT: usize = 200;

/// The finished games the catch-up indexes per round of the sweeper.
pub const CATCH_UP_GAMES: u32 = 200;

/// The explorer: the store it reads and writes.
#[derive(Clone)]
pub struct Explorer {
    store: Store,
}

/// What a query asks (each text as the request gave it; `None`: absent).
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub struct ExplorerQuery {
    /// The board (`emergo`, `7x7`, `hex`; `emergo` when absent).
    pub variant: Option<String>,
    pub position: Option<String>,
    /// The ply the page is at, when it knows it: from [`EXPLORER_PLIES`] on the answer says the
    /// explorer does not index that far.
    pub ply: Option<String>,
    pub source: Option<String>,
    pub speed: Option<String>,
    pub ratings: Option<String>,
}

/// What indexing a file of records did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordsReport {
    /// Records counted now.
    pub indexed: usize,
    /// Records counted before (the same game in this file or an earlier one).
    pub known: usize,
    /// Records without a result (or aborted): not counted.
    pub unfinished: usize,
    /// Records that cannot be read: their first line and why.
    pub unreadable: Vec<(usize, String)>,
}

/// A move's counts.
#[derive(Serialize)]
pub struct ExplorerMove {
    /// N1 text.
    #[serde(rename = "move")]
    pub mv: String,
    pub white: i64,
    pub draws: i64,
    pub black: i64,
    /// The average of the games' average ratings (games without one left out); null if none.
    pub average_rating: Option<i64>,
}

/// A side of a listed game: the account's name, or the engine and its level (both null: a
/// guest, a deleted account, an imported record).
#[derive(Serialize)]
pub struct ExplorerPlayer {
    pub name: Option<String>,
    /// A bot account (issue 24); absent for a person.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
    pub engine: bool,
    pub level: Option<i64>,
}

/// A game through the position.
#[derive(Serialize)]
pub struct ExplorerGame {
    pub id: String,
    pub white: ExplorerPlayer,
    pub black: ExplorerPlayer,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: Option<String>,
    /// The average of both players' ratings as it began; null when not both had one.
    pub rating: Option<i64>,
    /// When it finished (RFC 3339).
    pub at: String,
}

/// A move of the engine's opening book (the one shipped for the board) in the position.
#[derive(Serialize)]
pub struct ExplorerBookMove {
    #[serde(rename = "move")]
    pub mv: String,
    /// The book's score of the move, in centimen for the side to move (a search's score).
    pub score: i32,
}

/// `GET /api/explorer`'s answer.
#[derive(Serialize)]
pub struct ExplorerView {
    /// The board (`emergo`, `7x7`, `hex`).
    pub variant: &'static str,
    /// The position asked for, as N2 writes it.
    pub position: String,
    /// The games through it under the filters, by result.
    pub white: i64,
    pub draws: i64,
    pub black: i64,
    pub average_rating: Option<i64>,
    /// Every move played from it, the most played first.
    pub moves: Vec<ExplorerMove>,
    /// The latest stored games through it (at most [`TOP_GAMES`]), newest first.
    pub games: Vec<ExplorerGame>,
    /// The engine's book moves of the position, the best first (none when it is not in the
    /// book): docs/engine.md, "Opening book".
    pub book: Vec<ExplorerBookMove>,
    /// The plies indexed (60): positions after them are in no game of the explorer.
    pub indexed_plies: usize,
    /// The `ply` asked for is past what is indexed: an empty answer means "not indexed", not
    /// "no game".
    pub past_indexed_plies: bool,
}

impl Explorer {
    pub fn new(store: Store) -> Explorer {
        Explorer { store }
    }

    /// Indexes finished game `meta`/`game` with its players' ratings as it began, once: `true`
    /// when this call counted it (`false`: indexed already, or not finished). An aborted
    /// game is marked indexed with no rows.
    pub async fn index_game(
        &self,
        meta: &GameMeta,
        game: &AnyGame,
        ratings: [Option<i64>; 2],
    ) -> Result<bool, ServiceError> {
        if !game.is_over() {
            return Ok(false);
        }
        // Every board's game, on its board (the rows carry it).
        let (rows, rating) = any_game!(game, game => match GameFacts::of(meta, game, ratings) {
            Some(facts) => (rows_of(game, &facts), facts.rating),
            None => (Vec::new(), None),
        });
        let recent = RecentOf {
            game_id: &meta.id,
            at: &meta.updated_at,
            rating,
        };
        Ok(self
            .store
            .explorer_index_game(recent, &rows, &now_text())
            .await?)
    }

    /// Indexes stored game `id` (read from the database with its players' ratings), once. A
    /// game that cannot be read is marked with no rows (said in the log), so that the catch-up
    /// does not try it again and again.
    pub async fn index_stored(&self, id: &str) -> Result<bool, ServiceError> {
        let stored = match self.store.load(id).await {
            Ok(Some(stored)) => stored,
            Ok(None) => return Ok(false),
            Err(err @ emergo_platform::store::StoreError::Corrupt { .. }) => {
                tracing::warn!(game = %id, "left out of the explorer: {err}");
                let now = now_text();
                let recent = RecentOf {
                    game_id: id,
                    at: &now,
                    rating: None,
                };
                self.store.explorer_index_game(recent, &[], &now).await?;
                return Ok(false);
            }
            Err(err) => return Err(err.into()),
        };
        let seats = ratings::load(&self.store, &stored.meta).await?;
        let rating = |c| seats.of(c).map(|r| r.rating);
        let ratings = [
            rating(emergo_core::Color::White),
            rating(emergo_core::Color::Black),
        ];
        self.index_game(&stored.meta, &stored.game, ratings).await
    }

    /// Indexes up to `limit` finished games not indexed yet; how many this call counted.
    pub async fn catch_up(&self, limit: u32) -> Result<usize, ServiceError> {
        let mut counted = 0;
        for id in self.store.explorer_pending(limit).await? {
            match self.index_stored(&id).await {
                Ok(true) => counted += 1,
                Ok(false) => {}
                Err(err) => tracing::warn!(game = %id, "not indexed for the explorer: {err}"),
            }
        }
        Ok(counted)
    }

    /// Forgets every statistic (the first step of `emergo explorer rebuild`).
    pub async fn reset(&self) -> Result<(), ServiceError> {
        Ok(self.store.explorer_reset().await?)
    }

    /// How many finished games are not indexed yet.
    pub async fn pending(&self) -> Result<u64, ServiceError> {
        Ok(self.store.explorer_pending_count().await?)
    }

    /// Indexes the records of `text` (one or more game records, as `emergo match --pgn`
    /// writes them), each on the board its `[Variant]` tag names (the 9×9 board without one),
    /// each once whichever file it comes from: a record is known by its board, start, moves and
    /// result.
    pub async fn import_records(&self, text: &str) -> Result<RecordsReport, ServiceError> {
        let mut report = RecordsReport::default();
        for (line, record) in emergo_core::record::split_records(text) {
            let game = match AnyGame::from_record(record) {
                Ok(game) => game,
                Err(err) => {
                    report.unreadable.push((line, err.to_string()));
                    continue;
                }
            };
            let Some((key, rows)) = any_game!(&game, game => record_rows(game)) else {
                report.unfinished += 1;
                continue;
            };
            if self
                .store
                .explorer_index_record(&key, &rows, &now_text())
                .await?
            {
                report.indexed += 1;
            } else {
                report.known += 1;
            }
        }
        Ok(report)
    }

    /// The explorer's answer to `query` (400 for a missing or bad position, an unknown board
    /// or a bad filter).
    pub async fn position(&self, query: &ExplorerQuery) -> Result<ExplorerView, ServiceError> {
        let text = query.position.as_deref().ok_or_else(|| {
            ServiceError::BadRequest("position (N2 text, e.g. W:12:12) is required".to_string())
        })?;
        let game = crate::services::study::analysis::parse_game(text, query.variant.as_deref())?;
        let past = match query.ply.as_deref() {
            None => false,
            Some(ply) => ply
                .parse::<u64>()
                .map_err(|_| {
                    ServiceError::BadRequest(format!(
                        "ply {}: a whole number from 0 is expected",
                        echo(ply)
                    ))
                })
                .map(|ply| ply >= EXPLORER_PLIES as u64)?,
        };
        let filter = ExplorerFilter {
            sources: names(
                "source",
                query.source.as_deref(),
                Source::from_name,
                Source::names,
            )?,
            speeds: names(
                "speed",
                query.speed.as_deref(),
                Speed::from_name,
                Speed::names,
            )?,
            bands: names(
                "ratings",
                query.ratings.as_deref(),
                Band::from_name,
                Band::names,
            )?,
        };
        let (hash, shown, book) = any_game!(&game, g => {
            let position = g.position();
            (position_key(position.hash()), position.to_string(), book_moves(position))
        });
        let stats = self
            .store
            .explorer_position(game.kind(), hash, &filter, TOP_GAMES)
            .await?;
        Ok(view(game.kind(), shown, book, stats, past))
    }
}

/// The key a record read from a file is known by, and the rows it adds; `None` when it has no
/// result. The key of a 9×9 record is the one it had before the other boards were indexed (so
/// that a file imported then is known now); another board's names its board too.
fn record_rows<V: Variant>(
    game: &emergo_core::game::Game<V>,
) -> Option<(String, Vec<ExplorerRow>)> {
    let facts = GameFacts::of_record(game)?;
    let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
    let board = match V::KIND {
        VariantKind::Emergo => String::new(),
        other => format!("{other} "),
    };
    let key = format!(
        "record:{}",
        emergo_platform::domain::model::hash_secret(&format!(
            "{board}{} {} {}",
            game.start(),
            moves.join(" "),
            facts.outcome
        ))
    );
    Some((key, rows_of(game, &facts)))
}

/// The moves of the engine's opening book shipped for `position`'s board, the best first.
fn book_moves<V: Variant>(position: &Position<V>) -> Vec<ExplorerBookMove> {
    emergo_engine::book::Book::<V>::shipped()
        .probe(position)
        .iter()
        .map(|m| ExplorerBookMove {
            mv: m.mv.to_string(),
            score: m.score,
        })
        .collect()
}

/// The values a comma-separated filter names (none: every value), each once; 400 for an
/// unknown one, naming the known ones.
fn names<T: PartialEq + Copy>(
    param: &str,
    text: Option<&str>,
    parse: fn(&str) -> Option<T>,
    known: fn() -> String,
) -> Result<Vec<T>, ServiceError> {
    let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
        return Ok(Vec::new());
    };
    if text.len() > MAX_FILTER_TEXT {
        return Err(ServiceError::TooLarge {
            cap: "explorer_filter",
            message: format!("{param}: at most {MAX_FILTER_TEXT} bytes"),
        });
    }
    let mut values = Vec::new();
    for name in text.split(',').map(str::trim) {
        let value = parse(name).ok_or_else(|| {
            ServiceError::BadRequest(format!(
                "{param} {}: unknown (one of {}, comma-separated)",
                echo(name),
                known()
            ))
        })?;
        if !values.contains(&value) {
            values.push(value);
        }
    }
    Ok(values)
}

fn view(
    variant: VariantKind,
    position: String,
    book: Vec<ExplorerBookMove>,
    stats: PositionStats,
    past: bool,
) -> ExplorerView {
    let PositionStats {
        total,
        moves,
        games,
    } = stats;
    ExplorerView {
        variant: variant.name(),
        position,
        white: total.white,
        draws: total.draws,
        black: total.black,
        average_rating: total.average_rating(),
        moves: moves
            .into_iter()
            .map(|(mv, t): (String, Tally)| ExplorerMove {
                mv,
                white: t.white,
                draws: t.draws,
                black: t.black,
                average_rating: t.average_rating(),
            })
            .collect(),
        games: games.into_iter().map(game_view).collect(),
        book,
        indexed_plies: EXPLORER_PLIES,
        past_indexed_plies: past,
    }
}

fn game_view(game: RecentGame) -> ExplorerGame {
    let player = |name: Option<String>, bot: bool, kind: &str| {
        let engine = SeatKind::from_name(kind) == Some(SeatKind::Engine);
        ExplorerPlayer {
            name,
            bot,
            engine,
            level: game.level.filter(|_| engine),
        }
    };
    ExplorerGame {
        white: player(game.white_name.clone(), game.white_bot, &game.white_kind),
        black: player(game.black_name.clone(), game.black_bot, &game.black_kind),
        id: game.game_id,
        result: game.result,
        rating: game.rating,
        at: game.at,
    }
}

/// A game that a change finished is indexed in the background (the game's lock is not held
/// while the rows are written), with its players' ratings as the game page shows them.
impl GameListener for Explorer {
    fn changed<'a>(&'a self, change: &'a GameChanged<'a>) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let live = change.live;
            if change.was_over || !live.game.is_over() || live.meta.mode == Mode::Imported {
                return;
            }
            let rating = |c| live.ratings.of(c).map(|r| r.rating);
            let ratings = [
                rating(emergo_core::Color::White),
                rating(emergo_core::Color::Black),
            ];
            let (explorer, meta, game) = (self.clone(), live.meta.clone(), live.game.clone());
            tokio::spawn(async move {
                if let Err(err) = explorer.index_game(&meta, &game, ratings).await {
                    tracing::warn!(game = %meta.id, "not indexed for the explorer yet: {err}");
                }
            });
        })
    }
}
