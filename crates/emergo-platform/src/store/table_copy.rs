//! The account tables copied row by row from one database into another (`emergo db copy`,
//! copy.rs): every column as it is stored, ids included (the games name their players'
//! accounts by id), a row the target has already (same key) left alone, so that a copy can be run
//! again. The games themselves go through the stores' contract instead (they are replayed).

use super::{Backend, Store, StoreError};
use sqlx::Row;

/// A column's type, the same on both backends (SQLite's INTEGER 0/1 is a boolean here).
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Int,
    Real,
    Text,
    Bool,
}

/// A table copied as it is.
pub struct Table {
    pub name: &'static str,
    pub columns: &'static [(&'static str, Kind)],
    /// Its primary key, for a stable order.
    pub key: &'static str,
    /// Whether its id is generated (written as given all the same).
    pub identity: bool,
}

use Kind::{Bool, Int, Real, Text};

pub const ACCOUNTS: Table = Table {
    name: "accounts",
    columns: &[
        ("id", Int),
        ("name", Text),
        ("name_key", Text),
        ("password_hash", Text),
        ("created_at", Text),
        ("deleted_at", Text),
        ("bot", Bool),
    ],
    key: "id",
    identity: true,
};

/// The personal API tokens (issue 24): copied so that no bot needs a new token after the move.
pub const API_TOKENS: Table = Table {
    name: "api_tokens",
    columns: &[
        ("id", Int),
        ("account_id", Int),
        ("token_hash", Text),
        ("scopes", Text),
        ("description", Text),
        ("created_at", Text),
        ("revoked_at", Text),
    ],
    key: "id",
    identity: true,
};

/// Sessions: copied so that nobody has to log in again after the move.
pub const SESSIONS: Table = Table {
    name: "sessions",
    columns: &[
        ("token_hash", Text),
        ("account_id", Int),
        ("created_at", Text),
    ],
    key: "token_hash",
    identity: false,
};

pub const RATINGS: Table = Table {
    name: "ratings",
    columns: &[
        ("account_id", Int),
        ("category", Text),
        ("rating", Real),
        ("rd", Real),
        ("volatility", Real),
        ("games", Int),
        ("updated_at", Text),
    ],
    key: "account_id, category",
    identity: false,
};

pub const SEEKS: Table = Table {
    name: "seeks",
    columns: &[
        ("id", Text),
        ("account_id", Int),
        ("time_control", Text),
        ("rated", Bool),
        ("color", Text),
        ("opponent_id", Int),
        ("game_id", Text),
        ("created_at", Text),
        ("expires_at", Int),
        ("accepted_at", Int),
        ("client", Text),
        ("variant", Text),
        ("allow_bots", Bool),
    ],
    key: "id",
    identity: false,
};

/// Which rated games were settled (after the games: it names them).
pub const RATED_GAMES: Table = Table {
    name: "rated_games",
    columns: &[("game_id", Text), ("settled_at", Text)],
    key: "game_id",
    identity: false,
};

/// The ratings after each rated game (after the games: it names them).
pub const RATING_HISTORY: Table = Table {
    name: "rating_history",
    columns: &[
        ("game_id", Text),
        ("account_id", Int),
        ("category", Text),
        ("rating", Real),
        ("rd", Real),
        ("at", Text),
        ("rating_before", Real),
        ("rd_before", Real),
    ],
    key: "game_id, account_id",
    identity: false,
};

/// The rated games whose players shared an address (after the games: it names them).
pub const SHARED_CLIENT_GAMES: Table = Table {
    name: "shared_client_games",
    columns: &[("game_id", Text), ("client", Text), ("created_at", Text)],
    key: "game_id",
    identity: false,
};

/// The accounts' notifications (issue 18; after the games: they name them).
pub const NOTIFICATIONS: Table = Table {
    name: "notifications",
    columns: &[
        ("id", Int),
        ("account_id", Int),
        ("kind", Text),
        ("game_id", Text),
        ("seek_id", Text),
        ("other", Text),
        ("time_control", Text),
        ("outcome", Text),
        ("reason", Text),
        ("created_at", Text),
        ("read_at", Text),
    ],
    key: "id",
    identity: true,
};

/// The chat's messages (issue 18; after the games: they name them).
pub const CHAT_MESSAGES: Table = Table {
    name: "chat_messages",
    columns: &[
        ("id", Int),
        ("game_id", Text),
        ("room", Text),
        ("seat", Text),
        ("account_id", Int),
        ("author", Text),
        ("body", Text),
        ("client", Text),
        ("created_at", Text),
    ],
    key: "id",
    identity: true,
};

/// The reports of chat messages (after the messages).
pub const CHAT_REPORTS: Table = Table {
    name: "chat_reports",
    columns: &[
        ("id", Int),
        ("message_id", Int),
        ("game_id", Text),
        ("reporter", Text),
        ("account_id", Int),
        ("body", Text),
        ("client", Text),
        ("created_at", Text),
    ],
    key: "id",
    identity: true,
};

/// The puzzles (issue 21; a target that loaded the shipped set already keeps its rows).
pub const PUZZLES: Table = Table {
    name: "puzzles",
    columns: &[
        ("id", Text),
        ("variant", Text),
        ("position", Text),
        ("line", Text),
        ("themes", Text),
        ("alternatives", Text),
        ("rating", Real),
        ("rd", Real),
        ("volatility", Real),
        ("attempts", Int),
        ("votes_up", Int),
        ("votes_down", Int),
    ],
    key: "id",
    identity: false,
};

/// The accounts' votes on puzzles (migration 0140).
pub const PUZZLE_VOTES: Table = Table {
    name: "puzzle_votes",
    columns: &[
        ("account_id", Int),
        ("puzzle_id", Text),
        ("up", Bool),
        ("at", Text),
    ],
    key: "account_id, puzzle_id",
    identity: false,
};

/// The daily puzzles, one a day.
pub const PUZZLE_DAILY: Table = Table {
    name: "puzzle_daily",
    columns: &[("day", Text), ("puzzle_id", Text)],
    key: "day",
    identity: false,
};

/// The accounts' storm runs.
pub const STORM_RUNS: Table = Table {
    name: "storm_runs",
    columns: &[
        ("id", Int),
        ("account_id", Int),
        ("at", Text),
        ("score", Int),
        ("moves", Int),
        ("errors", Int),
        ("best_combo", Int),
        ("seconds", Int),
    ],
    key: "id",
    identity: true,
};

/// The accounts' rated puzzle attempts (after the puzzles).
pub const PUZZLE_ATTEMPTS: Table = Table {
    name: "puzzle_attempts",
    columns: &[
        ("account_id", Int),
        ("puzzle_id", Text),
        ("win", Bool),
        ("rating_after", Real),
        ("at", Text),
    ],
    key: "account_id, puzzle_id",
    identity: false,
};

/// The accounts' puzzle ratings.
pub const PUZZLE_RATINGS: Table = Table {
    name: "puzzle_ratings",
    columns: &[
        ("account_id", Int),
        ("rating", Real),
        ("rd", Real),
        ("volatility", Real),
        ("attempts", Int),
        ("updated_at", Text),
    ],
    key: "account_id",
    identity: false,
};

/// The rules course's progress (issue 21).
pub const LEARN_PROGRESS: Table = Table {
    name: "learn_progress",
    columns: &[
        ("account_id", Int),
        ("lesson", Text),
        ("exercise", Int),
        ("solved_at", Text),
    ],
    key: "account_id, lesson, exercise",
    identity: false,
};

/// The tournaments (issue 23; after the games: their pairings name them).
pub const TOURNAMENTS: Table = Table {
    name: "tournaments",
    columns: &[
        ("id", Text),
        ("name", Text),
        ("format", Text),
        ("time_control", Text),
        ("variant", Text),
        ("rated", Bool),
        ("rounds", Int),
        ("minutes", Int),
        ("games_per_pairing", Int),
        ("max_players", Int),
        ("password_hash", Text),
        ("creator_id", Int),
        ("status", Text),
        ("round", Int),
        ("starts_at", Int),
        ("started_at", Int),
        ("created_at", Text),
        ("finished_at", Text),
    ],
    key: "id",
    identity: false,
};

pub const TOURNAMENT_PLAYERS: Table = Table {
    name: "tournament_players",
    columns: &[
        ("tournament_id", Text),
        ("account_id", Int),
        ("seed", Int),
        ("joined_at", Text),
        ("withdrawn_at", Text),
        ("paused_at", Text),
    ],
    key: "tournament_id, account_id",
    identity: false,
};

pub const TOURNAMENT_GAMES: Table = Table {
    name: "tournament_games",
    columns: &[
        ("game_id", Text),
        ("tournament_id", Text),
        ("round", Int),
        ("white_id", Int),
        ("black_id", Int),
        ("white_berserk", Bool),
        ("black_berserk", Bool),
    ],
    key: "game_id",
    identity: false,
};

pub const TOURNAMENT_BYES: Table = Table {
    name: "tournament_byes",
    columns: &[
        ("tournament_id", Text),
        ("round", Int),
        ("account_id", Int),
        ("points", Int),
    ],
    key: "tournament_id, round, account_id",
    identity: false,
};

/// The tables the games name (copied before them), and those that name only accounts.
pub const BEFORE_GAMES: [&Table; 6] = [
    &ACCOUNTS,
    &SESSIONS,
    &API_TOKENS,
    &RATINGS,
    &SEEKS,
    &LEARN_PROGRESS,
];
/// The tables that name games (copied after them).
pub const AFTER_GAMES: [&Table; 16] = [
    &RATED_GAMES,
    &RATING_HISTORY,
    &SHARED_CLIENT_GAMES,
    &NOTIFICATIONS,
    &CHAT_MESSAGES,
    &CHAT_REPORTS,
    &PUZZLES,
    &PUZZLE_ATTEMPTS,
    &PUZZLE_RATINGS,
    &PUZZLE_VOTES,
    &PUZZLE_DAILY,
    &STORM_RUNS,
    &TOURNAMENTS,
    &TOURNAMENT_PLAYERS,
    &TOURNAMENT_GAMES,
    &TOURNAMENT_BYES,
];

/// One stored value.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Int(Option<i64>),
    Real(Option<f64>),
    Text(Option<String>),
    Bool(Option<bool>),
}

fn select(table: &Table, offset: i64, limit: i64) -> String {
    let columns: Vec<&str> = table.columns.iter().map(|(c, _)| *c).collect();
    format!(
        "SELECT {} FROM {} ORDER BY {} LIMIT {limit} OFFSET {offset}",
        columns.join(", "),
        table.name,
        table.key,
    )
}

/// The insert of one row of `table`, left alone when its key is there already; `overriding`
/// goes between the columns and the values (see [`Backend::identity_insert`]).
fn insert(table: &Table, overriding: &str) -> String {
    let columns: Vec<&str> = table.columns.iter().map(|(c, _)| *c).collect();
    let params: Vec<String> = (1..=columns.len()).map(|i| format!("${i}")).collect();
    let overriding = if table.identity { overriding } else { "" };
    format!(
        "INSERT INTO {} ({}){overriding} VALUES ({}) ON CONFLICT DO NOTHING",
        table.name,
        columns.join(", "),
        params.join(", ")
    )
}

macro_rules! read_cells {
    ($row:expr, $table:expr) => {{
        let mut cells = Vec::with_capacity($table.columns.len());
        for (i, (_, kind)) in $table.columns.iter().enumerate() {
            cells.push(match kind {
                Kind::Int => Cell::Int($row.try_get(i)?),
                Kind::Real => Cell::Real($row.try_get(i)?),
                Kind::Text => Cell::Text($row.try_get(i)?),
                Kind::Bool => Cell::Bool($row.try_get(i)?),
            });
        }
        cells
    }};
}

macro_rules! bind_cells {
    ($query:expr, $cells:expr) => {{
        let mut query = $query;
        for cell in $cells {
            query = match cell {
                Cell::Int(v) => query.bind(*v),
                Cell::Real(v) => query.bind(*v),
                Cell::Text(v) => query.bind(v.clone()),
                Cell::Bool(v) => query.bind(*v),
            };
        }
        query
    }};
}

impl Store {
    /// Up to `limit` rows of `table` from the `offset`th, in key order.
    pub async fn table_rows(
        &self,
        table: &Table,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<Vec<Cell>>, StoreError> {
        let sql = select(table, offset, limit);
        on_backend!(self, b => {
            let mut out = Vec::new();
            for row in sqlx::query(&sql).fetch_all(b.pool()).await? {
                out.push(read_cells!(row, table));
            }
            Ok(out)
        })
    }

    /// Writes `rows` into `table` in one transaction, leaving alone those whose key is there
    /// already; returns how many were written.
    pub async fn put_table_rows(
        &self,
        table: &Table,
        rows: &[Vec<Cell>],
    ) -> Result<u64, StoreError> {
        on_backend!(self, b => {
            let sql = insert(table, b.identity_insert());
            let mut written = 0;
            let mut tx = b.pool().begin().await?;
            for row in rows {
                let query = bind_cells!(sqlx::query(&sql), row);
                written += query.execute(&mut *tx).await?.rows_affected();
            }
            if table.identity {
                b.identities_copied(&mut tx, table.name).await?;
            }
            tx.commit().await?;
            Ok(written)
        })
    }
}
