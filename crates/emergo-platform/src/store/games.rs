//! The games' part of the database: games, their moves, reviews and imported records. Each
//! method is written once for both backends (see the module text of store/mod.rs).

use super::rows::{self, GameRow, MoveRow, SummaryDbRow, GAME_COLUMNS, SUMMARY_COLUMNS};
use super::{
    conflict_on_unique, status_columns, Args, Backend, ClockColumns, Conn, MoveWrite, SeatWrite,
    StatusFilter, Store, StoreError, StoredGame, SummaryRow,
};
use crate::domain::model::GameMeta;
use emergo_core::{AnyGame, Color, Status};
use sqlx::query::Query;

/// The games' methods (see the module text of store/mod.rs for the version each write names).
impl Store {
    /// Stores a new game with its moves (none, or those of an imported record); `Conflict` when
    /// the id is taken.
    pub async fn insert_game(&self, meta: &GameMeta, game: &AnyGame) -> Result<(), StoreError> {
        on_backend!(self, b => b.insert_game(meta, game).await)
    }

    /// Stores the move played at `mv.ply`, the game's new status and its clock; `Conflict`
    /// when the game changed since `mv.version`, is over, or is not at that ply.
    pub async fn append_move(&self, id: &str, mv: &MoveWrite<'_>) -> Result<(), StoreError> {
        on_backend!(self, b => b.append_move(id, mv).await)
    }

    /// Takes back every move from `ply` on (a takeback); the game is ongoing after, with its
    /// clock at `clock` (a game between people's takeback restarts the side to move's turn), and
    /// no takeback request stands.
    pub async fn truncate(
        &self,
        id: &str,
        version: i64,
        ply: usize,
        clock: ClockColumns,
        now: &str,
    ) -> Result<(), StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            let done = sqlx::query(
                "UPDATE games SET ply = $1, result = NULL, reason = NULL, draw_offer = NULL,
                    takeback_offer = NULL, takeback_declined = NULL, updated_at = $2,
                    version = version + 1, white_ms = $5, black_ms = $6, turn_started_ms = $7,
                    flag_at_ms = $8
                 WHERE id = $3 AND version = $4 AND ply >= $1",
            )
            .bind(ply as i64)
            .bind(now)
            .bind(id)
            .bind(version)
            .bind(clock.white_ms)
            .bind(clock.black_ms)
            .bind(clock.turn_started_ms)
            .bind(clock.flag_at_ms)
            .execute(&mut *tx)
            .await?;
            changed(done.rows_affected(), "the game changed meanwhile")?;
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
                .bind(id)
                .bind(ply as i64)
                .execute(&mut *tx)
                .await?;
            b.game_changed(&mut tx, id).await?;
            tx.commit().await?;
        });
        Ok(())
    }

    /// Gives the free seat of `color` its token's hash and sets the clock (a timed game's
    /// clock starts when both seats are taken); `Conflict` if it was taken meanwhile.
    pub async fn take_seat(
        &self,
        id: &str,
        version: i64,
        color: Color,
        token_hash: &str,
        clock: ClockColumns,
        now: &str,
    ) -> Result<(), StoreError> {
        let seat = SeatWrite {
            id: id.to_string(),
            version,
            color,
            token_hash: token_hash.to_string(),
            clock,
            now: now.to_string(),
        };
        on_backend!(self, b => b.take_seat(seat).await)
    }

    /// Ends a game by resignation, agreement or its clock (time, abort), stopping its clock at
    /// `clock`; `Conflict` if it had ended or changed since `version`.
    pub async fn finish(
        &self,
        id: &str,
        version: i64,
        status: Status,
        clock: ClockColumns,
        now: &str,
    ) -> Result<(), StoreError> {
        let (result, reason) = status_columns(status);
        on_backend!(self, b => {
            let update = sqlx::query(
                "UPDATE games SET result = $1, reason = $2, draw_offer = NULL,
                    takeback_offer = NULL, updated_at = $3,
                    version = version + 1, white_ms = $6, black_ms = $7, turn_started_ms = NULL,
                    flag_at_ms = NULL
                 WHERE id = $4 AND version = $5 AND result IS NULL",
            )
            .bind(result)
            .bind(reason)
            .bind(now)
            .bind(id)
            .bind(version)
            .bind(clock.white_ms)
            .bind(clock.black_ms);
            b.update_game(update, id, "the game changed meanwhile").await
        })
    }

    /// The ongoing games whose flag falls by `by_ms`, soonest first: `(id, flag_at_ms)` (the
    /// sweep of src/services/games/flag.rs).
    pub async fn due_flags(
        &self,
        by_ms: i64,
        limit: u32,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let sql = "SELECT id, flag_at_ms FROM games
             WHERE flag_at_ms IS NOT NULL AND result IS NULL AND flag_at_ms <= $1
             ORDER BY flag_at_ms LIMIT $2";
        Ok(on_backend!(self, b => {
            sqlx::query_as(sql)
                .bind(by_ms)
                .bind(i64::from(limit))
                .fetch_all(b.pool())
                .await?
        }))
    }

    /// Records who offers a draw now (an ongoing game only).
    pub async fn set_draw_offer(
        &self,
        id: &str,
        version: i64,
        offer: Option<Color>,
        now: &str,
    ) -> Result<(), StoreError> {
        on_backend!(self, b => {
            let update = sqlx::query(
                "UPDATE games SET draw_offer = $1, updated_at = $2, version = version + 1
                 WHERE id = $3 AND version = $4 AND result IS NULL",
            )
            .bind(offer.map(Color::name))
            .bind(now)
            .bind(id)
            .bind(version);
            b.update_game(update, id, "the game changed meanwhile").await
        })
    }

    /// Records who asks for a takeback now, and who was refused since the last move (an
    /// ongoing game only).
    pub async fn set_takeback(
        &self,
        id: &str,
        version: i64,
        offer: Option<Color>,
        declined: Option<Color>,
        now: &str,
    ) -> Result<(), StoreError> {
        on_backend!(self, b => {
            let update = sqlx::query(
                "UPDATE games SET takeback_offer = $1, takeback_declined = $5, updated_at = $2,
                    version = version + 1
                 WHERE id = $3 AND version = $4 AND result IS NULL",
            )
            .bind(offer.map(Color::name))
            .bind(now)
            .bind(id)
            .bind(version)
            .bind(declined.map(Color::name));
            b.update_game(update, id, "the game changed meanwhile").await
        })
    }

    /// The game's version now; `None` for an unknown id (one cheap read: is a cached game
    /// still current?).
    pub async fn version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        let found: Option<(i64,)> = on_backend!(self, b => {
            sqlx::query_as("SELECT version FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(b.pool())
                .await?
        });
        Ok(found.map(|(v,)| v))
    }

    /// Up to `limit` games in the order they were made, after the one numbered `after` (0: from
    /// the first): `(number, id)` (`emergo db copy`).
    pub async fn game_ids(&self, after: i64, limit: u32) -> Result<Vec<(i64, String)>, StoreError> {
        let sql = "SELECT seq, id FROM games WHERE seq > $1 ORDER BY seq LIMIT $2";
        Ok(on_backend!(self, b => {
            sqlx::query_as(sql)
                .bind(after)
                .bind(i64::from(limit))
                .fetch_all(b.pool())
                .await?
        }))
    }

    /// Reads a game and replays its moves; `None` for an unknown id. The game and its moves are
    /// read in one snapshot: a move committed in between cannot make them disagree.
    pub async fn load(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let game_sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        let moves_sql = "SELECT ply, move FROM moves WHERE game_id = $1 ORDER BY ply";
        let found: Option<(GameRow, Vec<MoveRow>)> = on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            b.read_snapshot(&mut tx).await?;
            let row: Option<GameRow> = sqlx::query_as(&game_sql)
                .bind(id)
                .fetch_optional(&mut *tx)
                .await?;
            let found = match row {
                None => None,
                Some(row) => {
                    let moves: Vec<MoveRow> = sqlx::query_as(moves_sql)
                        .bind(id)
                        .fetch_all(&mut *tx)
                        .await?;
                    Some((row, moves))
                }
            };
            tx.commit().await?;
            found
        });
        match found {
            None => Ok(None),
            Some((row, moves)) => rows::stored_game_off_runtime(row, moves).await.map(Some),
        }
    }

    /// The newest games first.
    pub async fn list(
        &self,
        filter: StatusFilter,
        limit: u32,
    ) -> Result<Vec<SummaryRow>, StoreError> {
        let sql = format!(
            "SELECT {SUMMARY_COLUMNS} FROM games {} ORDER BY seq DESC LIMIT $1",
            filter.condition()
        );
        let found: Vec<SummaryDbRow> = on_backend!(self, b => {
            sqlx::query_as(&sql)
                .bind(i64::from(limit))
                .fetch_all(b.pool())
                .await?
        });
        found.into_iter().map(rows::summary).collect()
    }

    /// The moves stored for a game, in order (for tests and checks).
    pub async fn moves(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let sql = "SELECT move FROM moves WHERE game_id = $1 ORDER BY ply";
        let found: Vec<(String,)> = on_backend!(self, b => {
            sqlx::query_as(sql).bind(id).fetch_all(b.pool()).await?
        });
        Ok(found.into_iter().map(|(m,)| m).collect())
    }

    // Rematches between the seat holders of a finished game (src/services/games/rematch.rs).

    /// Sets who offers a rematch to `to`, if the offer is `from` now and no rematch has been
    /// made; `Conflict` otherwise (another instance changed it first).
    pub async fn set_rematch_offer(
        &self,
        id: &str,
        from: Option<Color>,
        to: Option<Color>,
        now: &str,
    ) -> Result<(), StoreError> {
        on_backend!(self, b => {
            let update = sqlx::query(
                "UPDATE games SET rematch_offer = $1, updated_at = $2, version = version + 1
                 WHERE id = $3 AND rematch_game IS NULL
                    AND rematch_offer IS NOT DISTINCT FROM $4",
            )
            .bind(to.map(Color::name))
            .bind(now)
            .bind(id)
            .bind(from.map(Color::name));
            b.update_game(update, id, "rematch offer changed").await
        })
    }

    /// Records that game `id`'s rematch is the stored game `rematch`, if `offer`'s offer stands
    /// and no rematch has been made; `Conflict` otherwise (exactly one acceptance wins).
    pub async fn set_rematch_game(
        &self,
        id: &str,
        offer: Color,
        rematch: &str,
        now: &str,
    ) -> Result<(), StoreError> {
        on_backend!(self, b => {
            let update = sqlx::query(
                "UPDATE games SET rematch_game = $1, updated_at = $2, version = version + 1
                 WHERE id = $3 AND rematch_game IS NULL AND rematch_offer = $4",
            )
            .bind(rematch)
            .bind(now)
            .bind(id)
            .bind(offer.name());
            b.update_game(update, id, "rematch made already").await
        })
    }

    /// Deletes a game and its moves (a rematch made for an acceptance that lost its race).
    pub async fn delete_game(&self, id: &str) -> Result<(), StoreError> {
        on_backend!(self, b => {
            sqlx::query("DELETE FROM games WHERE id = $1")
                .bind(id)
                .execute(b.pool())
                .await?;
        });
        Ok(())
    }
}

/// Studying games (issue 12): reviews and imported records.
impl Store {
    /// Keeps a game's review (JSON) with the moves it is of, replacing any earlier one.
    pub async fn put_review(
        &self,
        id: &str,
        moves: &str,
        review: &str,
        now: &str,
    ) -> Result<(), StoreError> {
        let sql = "INSERT INTO reviews (game_id, moves, review, created_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (game_id) DO UPDATE SET moves = excluded.moves,
                 review = excluded.review, created_at = excluded.created_at";
        on_backend!(self, b => {
            sqlx::query(sql)
                .bind(id)
                .bind(moves)
                .bind(review)
                .bind(now)
                .execute(b.pool())
                .await?;
        });
        Ok(())
    }

    /// The stored review of a game: the moves it is of and its JSON.
    pub async fn review(&self, id: &str) -> Result<Option<(String, String)>, StoreError> {
        let sql = "SELECT moves, review FROM reviews WHERE game_id = $1";
        Ok(on_backend!(self, b => {
            sqlx::query_as(sql).bind(id).fetch_optional(b.pool()).await?
        }))
    }

    /// Keeps an imported game's record text (its variations and comments) for its export.
    pub async fn put_record(&self, id: &str, record: &str) -> Result<(), StoreError> {
        let sql = "INSERT INTO records (game_id, record) VALUES ($1, $2)
             ON CONFLICT (game_id) DO UPDATE SET record = excluded.record";
        on_backend!(self, b => {
            sqlx::query(sql)
                .bind(id)
                .bind(record)
                .execute(b.pool())
                .await?;
        });
        Ok(())
    }

    /// The record text an imported game was read from.
    pub async fn record(&self, id: &str) -> Result<Option<String>, StoreError> {
        let sql = "SELECT record FROM records WHERE game_id = $1";
        let found: Option<(String,)> = on_backend!(self, b => {
            sqlx::query_as(sql).bind(id).fetch_optional(b.pool()).await?
        });
        Ok(found.map(|(r,)| r))
    }
}

/// A guarded update's verdict: it changed the one row, or it lost the race `what`.
pub(super) fn changed(rows: u64, what: &'static str) -> Result<(), StoreError> {
    if rows == 1 {
        Ok(())
    } else {
        Err(StoreError::Conflict(what))
    }
}

for_each_backend! {
    /// Runs `update`, a guarded update of game `id`'s row, in a transaction of its own that
    /// wakes the other instances; `Conflict(what)` when it changed no row (the game changed
    /// meanwhile).
    pub(super) async fn update_game<'q>(
        &self,
        update: Query<'q, <Self as Backend>::Db, Args<'q, Self>>,
        id: &str,
        what: &'static str,
    ) -> Result<(), StoreError> {
        let mut tx = self.pool().begin().await?;
        let done = update.execute(&mut *tx).await?;
        changed(done.rows_affected(), what)?;
        self.game_changed(&mut tx, id).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Stores a new game with its moves within the transaction `tx` (a game alone, or a seek's
    /// game with the seek's acceptance).
    pub(super) async fn insert_game_in(
        &self,
        tx: &mut Conn<Self>,
        meta: &GameMeta,
        game: &AnyGame,
    ) -> Result<(), StoreError> {
        let (result, reason) = status_columns(game.status());
        let (control, clock) = rows::clock_insert(meta, game);
        sqlx::query(
            "INSERT INTO games (id, mode, level, white_kind, black_kind, white_token,
                black_token, invite, start, tags, ply, result, reason, draw_offer, created_at,
                updated_at, white_account, black_account, rated,
                time_control, white_ms, black_ms, turn_started_ms, flag_at_ms, variant)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
                $17, $18, $19, $20, $21, $22, $23, $24, $25)",
        )
        .bind(&meta.id)
        .bind(meta.mode.name())
        .bind(meta.level.map(|l| i64::from(l.get())))
        .bind(meta.seats.white.kind.name())
        .bind(meta.seats.black.kind.name())
        .bind(&meta.seats.white.token_hash)
        .bind(&meta.seats.black.token_hash)
        .bind(&meta.invite_hash)
        .bind(game.start_text())
        .bind(rows::tags_text(meta))
        .bind(game.ply() as i64)
        .bind(result)
        .bind(reason)
        .bind(meta.draw_offer.map(Color::name))
        .bind(&meta.created_at)
        .bind(&meta.updated_at)
        .bind(meta.players.white.as_ref().map(|p| p.id))
        .bind(meta.players.black.as_ref().map(|p| p.id))
        .bind(meta.players.rated.map(|c| c.name()))
        .bind(control)
        .bind(clock.white_ms)
        .bind(clock.black_ms)
        .bind(clock.turn_started_ms)
        .bind(clock.flag_at_ms)
        .bind(game.kind().name())
        .execute(&mut *tx)
        .await
        .map_err(conflict_on_unique("game id taken"))?;
        self.insert_moves(tx, &meta.id, game).await?;
        Ok(())
    }

    /// Takes a seat within the transaction `tx`: the seat's token hash and the clock, guarded
    /// by the version and the seat being free; `Conflict` as [`Store::take_seat`] says.
    pub(super) async fn take_seat_in(tx: &mut Conn<Self>, seat: &SeatWrite) -> Result<(), StoreError> {
        // The column name comes from a fixed pair, never from the request.
        let column = match seat.color {
            Color::White => "white_token",
            Color::Black => "black_token",
        };
        let sql = format!(
            "UPDATE games SET {column} = $1, updated_at = $2, version = version + 1,
                white_ms = $5, black_ms = $6, turn_started_ms = $7, flag_at_ms = $8
             WHERE id = $3 AND version = $4 AND {column} IS NULL"
        );
        let done = sqlx::query(&sql)
            .bind(&seat.token_hash)
            .bind(&seat.now)
            .bind(&seat.id)
            .bind(seat.version)
            .bind(seat.clock.white_ms)
            .bind(seat.clock.black_ms)
            .bind(seat.clock.turn_started_ms)
            .bind(seat.clock.flag_at_ms)
            .execute(&mut *tx)
            .await?;
        changed(done.rows_affected(), "the game changed meanwhile")?;
        Ok(())
    }

    /// One move within the transaction `tx`: the guarded update of the game's row, then the
    /// move's row; `Conflict` as [`Store::append_move`] says.
    pub(super) async fn write_move_in(
        tx: &mut Conn<Self>,
        id: &str,
        mv: &MoveWrite<'_>,
    ) -> Result<(), StoreError> {
        let (result, reason) = status_columns(mv.status);
        let c = mv.clock;
        // The guarded update first: it locks the game's row, so that a second instance's
        // submission for the same ply waits here and then finds the game moved on.
        let done = sqlx::query(
            "UPDATE games SET ply = $1 + 1, result = $2, reason = $3, draw_offer = NULL,
                takeback_offer = NULL, takeback_declined = NULL, updated_at = $4,
                version = version + 1, white_ms = $7, black_ms = $8,
                turn_started_ms = $9, flag_at_ms = $10
             WHERE id = $5 AND ply = $1 AND version = $6 AND result IS NULL",
        )
        .bind(mv.ply as i64)
        .bind(result)
        .bind(reason)
        .bind(mv.now)
        .bind(id)
        .bind(mv.version)
        .bind(c.white_ms)
        .bind(c.black_ms)
        .bind(c.turn_started_ms)
        .bind(c.flag_at_ms)
        .execute(&mut *tx)
        .await?;
        changed(done.rows_affected(), "the game changed meanwhile")?;
        sqlx::query("INSERT INTO moves (game_id, ply, move) VALUES ($1, $2, $3)")
            .bind(id)
            .bind(mv.ply as i64)
            .bind(mv.text)
            .execute(&mut *tx)
            .await
            .map_err(conflict_on_unique("ply already played"))?;
        Ok(())
    }
}
