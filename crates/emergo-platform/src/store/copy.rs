//! `emergo db copy --from URL --to URL`: every game of one database into another (SQLite into
//! PostgreSQL when a site outgrows one machine, or back), through the stores' own contract: each
//! game is read and replayed from the source (a game that does not replay is reported, not
//! copied) and written to the target with its metadata, moves and ending in one transaction, in
//! the source's order (the list of games keeps its order). A game whose id the target has
//! already is left alone, so that an interrupted copy can simply be run again.
//!
//! What it copies: the `games` and `moves` tables (every column but the internal sequence
//! number and version), and what a game keeps beside them (rematch, imported record text,
//! review); the accounts with their sessions, ratings and seeks before the games (which name
//! their players' accounts by id), and the rated games' settlements and rating history after
//! them, row by row as they are stored (store/table_copy.rs), a row whose key the target has
//! already left alone. The engine jobs are not copied (docs/deploy.md).

use crate::store::table_copy::{Table, AFTER_GAMES, BEFORE_GAMES};
use crate::store::{Store, StoreError, StoredGame};

/// Games read from the source per round trip.
const PAGE: u32 = 200;

/// What a copy did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CopyReport {
    /// Games written to the target.
    pub copied: usize,
    /// Games the target had already (same id): left alone.
    pub skipped: usize,
    /// Games of the source that cannot be read (ids and why): not copied.
    pub unreadable: Vec<(String, String)>,
    /// Moves written to the target.
    pub moves: usize,
    /// Rows of the account tables written to the target, by table (the rows it had already
    /// are not counted).
    pub rows: Vec<(&'static str, u64)>,
}

/// Why a copy stopped.
#[derive(Debug, thiserror::Error)]
pub enum CopyError {
    #[error("the source and the target are the same database")]
    SameDatabase,
    #[error("cannot open {which} database: {source}")]
    Open {
        which: &'static str,
        source: sqlx::Error,
    },
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("cannot start the async runtime: {0}")]
    Runtime(std::io::Error),
}

/// Copies every game of `from` into `to`; `progress` is told the number of games done so far
/// after each page.
pub async fn copy_games(
    from: &Store,
    to: &Store,
    mut progress: impl FnMut(usize),
) -> Result<CopyReport, CopyError> {
    let mut report = CopyReport::default();
    for table in BEFORE_GAMES {
        report
            .rows
            .push((table.name, copy_table(from, to, table).await?));
    }
    let mut after = 0i64;
    loop {
        let page = from.game_ids(after, PAGE).await?;
        let Some(&(last, _)) = page.last() else {
            break;
        };
        after = last;
        for (_, id) in page {
            let stored = match from.load(&id).await {
                Ok(Some(stored)) => stored,
                Ok(None) => continue,
                Err(StoreError::Corrupt { id, message }) => {
                    report.unreadable.push((id, message));
                    continue;
                }
                Err(err) => return Err(err.into()),
            };
            match to.insert_game(&stored.meta, &stored.game).await {
                Ok(()) => {}
                Err(StoreError::Conflict(_)) => {
                    report.skipped += 1;
                    continue;
                }
                Err(err) => return Err(err.into()),
            }
            copy_extras(from, to, &stored).await?;
            report.copied += 1;
            report.moves += stored.game.ply();
        }
        progress(report.copied + report.skipped + report.unreadable.len());
    }
    for table in AFTER_GAMES {
        report
            .rows
            .push((table.name, copy_table(from, to, table).await?));
    }
    Ok(report)
}

/// Copies every row of `table`; returns how many the target did not have.
async fn copy_table(from: &Store, to: &Store, table: &Table) -> Result<u64, StoreError> {
    let mut written = 0;
    let mut offset = 0i64;
    loop {
        let rows = from.table_rows(table, offset, i64::from(PAGE)).await?;
        if rows.is_empty() {
            return Ok(written);
        }
        offset += rows.len() as i64;
        written += to.put_table_rows(table, &rows).await?;
    }
}

/// What a game keeps beside its row and moves: a rematch offer and game (written with the
/// game's own time), the record text it was imported from, its review.
async fn copy_extras(from: &Store, to: &Store, stored: &StoredGame) -> Result<(), StoreError> {
    let meta = &stored.meta;
    let id = meta.id.as_str();
    if let Some(offer) = meta.rematch.offer {
        to.set_rematch_offer(id, None, Some(offer), &meta.updated_at)
            .await?;
        if let Some(game) = &meta.rematch.game {
            to.set_rematch_game(id, offer, game, &meta.updated_at)
                .await?;
        }
    }
    if let Some(record) = from.record(id).await? {
        to.put_record(id, &record).await?;
    }
    if let Some((moves, review)) = from.review(id).await? {
        to.put_review(id, &moves, &review, &meta.updated_at).await?;
    }
    Ok(())
}

/// Opens both databases (applying the migrations to the target) and copies; for the command
/// line.
pub async fn copy_databases(
    from_url: &str,
    to_url: &str,
    progress: impl FnMut(usize),
) -> Result<CopyReport, CopyError> {
    if from_url == to_url {
        return Err(CopyError::SameDatabase);
    }
    let from = Store::open(from_url)
        .await
        .map_err(|source| CopyError::Open {
            which: "the source",
            source,
        })?;
    let to = Store::open(to_url)
        .await
        .map_err(|source| CopyError::Open {
            which: "the target",
            source,
        })?;
    let report = copy_games(&from, &to, progress).await;
    from.close().await;
    to.close().await;
    report
}

/// [`copy_databases`] on a runtime of its own (for the command line).
pub fn copy_blocking(
    from_url: &str,
    to_url: &str,
    progress: impl FnMut(usize),
) -> Result<CopyReport, CopyError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(CopyError::Runtime)?
        .block_on(copy_databases(from_url, to_url, progress))
}
