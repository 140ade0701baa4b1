//! Tournaments (issue 23): each method written once for both backends (see the module text of
//! store/mod.rs). A round's games are stored with the round's move in one transaction, guarded
//! by the round it moves from: of two instances pairing a tournament, one does, and a restart
//! in the middle of a round loses nothing.

use super::games::changed;
use super::{conflict_on_unique, Store, StoreError};
use crate::domain::model::GameMeta;
use emergo_core::AnyGame;

/// A tournament as stored.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TournamentRow {
    pub id: String,
    pub name: String,
    /// `arena`, `swiss` or `roundrobin`.
    pub format: String,
    pub time_control: String,
    pub variant: String,
    pub rated: bool,
    pub rounds: Option<i64>,
    pub minutes: Option<i64>,
    pub games_per_pairing: i64,
    pub max_players: i64,
    pub password_hash: Option<String>,
    pub creator_id: i64,
    pub creator: Option<String>,
    /// `created`, `started` or `finished`.
    pub status: String,
    pub round: i64,
    /// Unix seconds.
    pub starts_at: i64,
    pub started_at: Option<i64>,
    pub created_at: String,
    pub finished_at: Option<String>,
    /// Players joined and not withdrawn.
    pub players: i64,
}

/// A player of a tournament.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct EntrantRow {
    pub account_id: i64,
    pub name: Option<String>,
    /// Its place in the joining order, from 1.
    pub seed: i64,
    /// Its rating in the tournament's pool, if it has one (arena pairing, Swiss seeding).
    pub rating: Option<f64>,
    pub joined_at: String,
    pub withdrawn_at: Option<String>,
    /// An arena player's pause: not paired until it joins again.
    pub paused_at: Option<String>,
}

impl EntrantRow {
    /// Whether it is paired: neither withdrawn nor paused.
    pub fn active(&self) -> bool {
        self.withdrawn_at.is_none() && self.paused_at.is_none()
    }
}

/// A game of a tournament, with its result as stored.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TournamentGameRow {
    pub game_id: String,
    pub round: i64,
    pub white_id: i64,
    pub black_id: i64,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub ply: i64,
    /// Whether White, Black went berserk (an arena's).
    pub white_berserk: bool,
    pub black_berserk: bool,
    /// When it was last changed: for a finished game, when it ended.
    pub updated_at: String,
}

/// A bye (or a game won by forfeit) of a round.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ByeRow {
    pub round: i64,
    pub account_id: i64,
    pub points: i64,
}

/// A new tournament.
#[derive(Clone, Debug)]
pub struct NewTournament {
    pub id: String,
    pub name: String,
    pub format: &'static str,
    pub time_control: String,
    pub variant: &'static str,
    pub rated: bool,
    pub rounds: Option<i64>,
    pub minutes: Option<i64>,
    pub games_per_pairing: i64,
    pub max_players: i64,
    pub password_hash: Option<String>,
    pub creator_id: i64,
    pub starts_at: i64,
    pub created_at: String,
}

/// A round's new game: the game and its tournament pairing.
pub struct RoundGame<'a> {
    pub meta: &'a GameMeta,
    pub game: &'a AnyGame,
    pub white_id: i64,
    pub black_id: i64,
}

const TOURNAMENT_COLUMNS: &str = "t.id, t.name, t.format, t.time_control, t.variant, t.rated, \
    t.rounds, t.minutes, t.games_per_pairing, t.max_players, t.password_hash, t.creator_id, \
    (SELECT name FROM accounts a WHERE a.id = t.creator_id AND a.deleted_at IS NULL) AS creator, \
    t.status, t.round, t.starts_at, t.started_at, t.created_at, t.finished_at, \
    (SELECT COUNT(*) FROM tournament_players p WHERE p.tournament_id = t.id \
        AND p.withdrawn_at IS NULL) AS players";

/// The columns of a [`TournamentGameRow`], from `tournament_games t JOIN games g`.
const TOURNAMENT_GAME_COLUMNS: &str = "t.game_id, t.round, t.white_id, t.black_id, g.result, \
    g.reason, g.ply, t.white_berserk, t.black_berserk, g.updated_at";

for_each_backend! {
    /// Stores game `g` of round `round` of tournament `id` (the game and its pairing row)
    /// within `tx`; `Conflict` when the round has that pairing already (another instance
    /// stored it first).
    async fn insert_round_game_in(
        &self,
        tx: &mut super::Conn<Self>,
        id: &str,
        round: i64,
        g: &RoundGame<'_>,
    ) -> Result<(), StoreError> {
        self.insert_game_in(tx, g.meta, g.game).await?;
        sqlx::query(
            "INSERT INTO tournament_games (game_id, tournament_id, round, white_id, black_id)
             VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(&g.meta.id)
        .bind(id)
        .bind(round)
        .bind(g.white_id)
        .bind(g.black_id)
        .execute(&mut *tx)
        .await
        .map_err(conflict_on_unique("tournament game stored"))?;
        Ok(())
    }
}

impl Store {
    /// Stores a tournament unless its creator has `cap` unfinished ones: whether it was stored.
    pub async fn insert_tournament(&self, t: &NewTournament, cap: i64) -> Result<bool, StoreError> {
        on_backend!(self, b => {
            let done = sqlx::query(
                "INSERT INTO tournaments (id, name, format, time_control, variant, rated, rounds,
                    minutes, games_per_pairing, max_players, password_hash, creator_id, status,
                    starts_at, created_at)
                 SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'created', $13, $14
                 WHERE (SELECT COUNT(*) FROM tournaments
                     WHERE creator_id = $15 AND status <> 'finished') < $16",
            )
            .bind(&t.id)
            .bind(&t.name)
            .bind(t.format)
            .bind(&t.time_control)
            .bind(t.variant)
            .bind(t.rated)
            .bind(t.rounds)
            .bind(t.minutes)
            .bind(t.games_per_pairing)
            .bind(t.max_players)
            .bind(&t.password_hash)
            .bind(t.creator_id)
            .bind(t.starts_at)
            .bind(&t.created_at)
            .bind(t.creator_id)
            .bind(cap)
            .execute(b.pool())
            .await
            .map_err(conflict_on_unique("tournament id taken"))?;
            Ok(done.rows_affected() == 1)
        })
    }

    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(&format!(
                "SELECT {TOURNAMENT_COLUMNS} FROM tournaments t WHERE t.id = $1"
            ))
            .bind(id)
            .fetch_optional(b.pool())
            .await?)
        })
    }

    /// Tournaments of `status`, the soonest (or, finished, the latest) first, at most `limit`.
    pub async fn tournaments(
        &self,
        status: &str,
        limit: u32,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        on_backend!(self, b => {
            let order = if status == "finished" { "DESC" } else { "ASC" };
            Ok(sqlx::query_as(&format!(
                "SELECT {TOURNAMENT_COLUMNS} FROM tournaments t WHERE t.status = $1
                 ORDER BY t.starts_at {order}, t.id LIMIT $2"
            ))
            .bind(status)
            .bind(i64::from(limit))
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// The tournaments that may have something to do at `now`: started ones, and those due to
    /// start.
    pub async fn due_tournaments(
        &self,
        now: i64,
        limit: u32,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(&format!(
                "SELECT {TOURNAMENT_COLUMNS} FROM tournaments t
                 WHERE t.status = 'started' OR (t.status = 'created' AND t.starts_at <= $1)
                 ORDER BY t.starts_at, t.id LIMIT $2"
            ))
            .bind(now)
            .bind(i64::from(limit))
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// `account_id` joins a tournament that has not started (with `late`, or has started and
    /// not finished) and is not full, joins again after withdrawing before the start, or comes
    /// back from a pause: whether it is in (and playing) now.
    pub async fn join_tournament(
        &self,
        id: &str,
        account_id: i64,
        now: &str,
        late: bool,
    ) -> Result<bool, StoreError> {
        let open = if late { "started" } else { "created" };
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            // Back from a pause (an arena under way), or back on the list before the start
            // (a withdrawal once it has started is for good).
            let back = sqlx::query(
                "UPDATE tournament_players SET paused_at = NULL
                 WHERE tournament_id = $1 AND account_id = $2 AND paused_at IS NOT NULL
                    AND withdrawn_at IS NULL
                    AND (SELECT status FROM tournaments WHERE id = $3) = 'started'",
            )
            .bind(id)
            .bind(account_id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            if back.rows_affected() == 1 {
                tx.commit().await?;
                return Ok(true);
            }
            let back = sqlx::query(
                "UPDATE tournament_players SET withdrawn_at = NULL
                 WHERE tournament_id = $1 AND account_id = $2 AND withdrawn_at IS NOT NULL
                    AND (SELECT status FROM tournaments WHERE id = $3) = 'created'
                    AND (SELECT COUNT(*) FROM tournament_players
                        WHERE tournament_id = $4 AND withdrawn_at IS NULL)
                        < (SELECT max_players FROM tournaments WHERE id = $5)",
            )
            .bind(id)
            .bind(account_id)
            .bind(id)
            .bind(id)
            .bind(id)
            .execute(&mut *tx)
            .await?;
            if back.rows_affected() == 1 {
                tx.commit().await?;
                return Ok(true);
            }
            let done = sqlx::query(
                "INSERT INTO tournament_players (tournament_id, account_id, seed, joined_at)
                 SELECT $1, $2,
                    (SELECT COUNT(*) FROM tournament_players WHERE tournament_id = $3) + 1, $4
                 WHERE (SELECT status FROM tournaments WHERE id = $5) IN ('created', $10)
                    AND (SELECT COUNT(*) FROM tournament_players
                        WHERE tournament_id = $6 AND withdrawn_at IS NULL)
                        < (SELECT max_players FROM tournaments WHERE id = $7)
                    AND NOT EXISTS (SELECT 1 FROM tournament_players
                        WHERE tournament_id = $8 AND account_id = $9)",
            )
            .bind(id)
            .bind(account_id)
            .bind(id)
            .bind(now)
            .bind(id)
            .bind(id)
            .bind(id)
            .bind(id)
            .bind(account_id)
            .bind(open)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// `account_id` pauses in arena `id` under way: whether it was playing (in, and neither
    /// withdrawn nor paused).
    pub async fn pause_in_tournament(
        &self,
        id: &str,
        account_id: i64,
        now: &str,
    ) -> Result<bool, StoreError> {
        on_backend!(self, b => {
            let done = sqlx::query(
                "UPDATE tournament_players SET paused_at = $1
                 WHERE tournament_id = $2 AND account_id = $3
                    AND withdrawn_at IS NULL AND paused_at IS NULL",
            )
            .bind(now)
            .bind(id)
            .bind(account_id)
            .execute(b.pool())
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// `account_id` withdraws: whether it was in.
    pub async fn withdraw_from_tournament(
        &self,
        id: &str,
        account_id: i64,
        now: &str,
    ) -> Result<bool, StoreError> {
        on_backend!(self, b => {
            let done = sqlx::query(
                "UPDATE tournament_players SET withdrawn_at = $1
                 WHERE tournament_id = $2 AND account_id = $3 AND withdrawn_at IS NULL",
            )
            .bind(now)
            .bind(id)
            .bind(account_id)
            .execute(b.pool())
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// The players of a tournament, in their joining order, with their ratings in `pool` (the
    /// tournament's board and category: `rating_pool`).
    pub async fn entrants(&self, id: &str, pool: &str) -> Result<Vec<EntrantRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(
                "SELECT p.account_id,
                    (SELECT name FROM accounts a WHERE a.id = p.account_id AND a.deleted_at IS NULL)
                        AS name,
                    p.seed,
                    (SELECT r.rating FROM ratings r
                        WHERE r.account_id = p.account_id AND r.category = $1) AS rating,
                    p.joined_at, p.withdrawn_at, p.paused_at
                 FROM tournament_players p WHERE p.tournament_id = $2 ORDER BY p.seed",
            )
            .bind(pool)
            .bind(id)
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// The games of a tournament, round by round.
    pub async fn tournament_games(&self, id: &str) -> Result<Vec<TournamentGameRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(
                &format!(
                    "SELECT {TOURNAMENT_GAME_COLUMNS}
                     FROM tournament_games t JOIN games g ON g.id = t.game_id
                     WHERE t.tournament_id = $1 ORDER BY t.round, g.seq"
                ),
            )
            .bind(id)
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// Byes of `account_id` in `rounds` with `points` each (a late Swiss entry's), unless it
    /// has one in that round already.
    pub async fn add_byes(
        &self,
        id: &str,
        account_id: i64,
        rounds: &[i64],
        points: i64,
    ) -> Result<(), StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            for round in rounds {
                sqlx::query(
                    "INSERT INTO tournament_byes (tournament_id, round, account_id, points)
                     VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
                )
                .bind(id)
                .bind(round)
                .bind(account_id)
                .bind(points)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    pub async fn tournament_byes(&self, id: &str) -> Result<Vec<ByeRow>, StoreError> {
        on_backend!(self, b => {
            Ok(sqlx::query_as(
                "SELECT round, account_id, points FROM tournament_byes
                 WHERE tournament_id = $1 ORDER BY round, account_id",
            )
            .bind(id)
            .fetch_all(b.pool())
            .await?)
        })
    }

    /// Moves a tournament from round `from` to the next with its games and byes, started at
    /// `now` if it was not: `Conflict` when another writer moved it first (nothing stored).
    pub async fn advance_tournament(
        &self,
        id: &str,
        from: i64,
        now: i64,
        games: &[RoundGame<'_>],
        byes: &[(i64, i64)],
    ) -> Result<(), StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            let moved = sqlx::query(
                "UPDATE tournaments SET round = round + 1, status = 'started',
                    started_at = COALESCE(started_at, $1)
                 WHERE id = $2 AND round = $3 AND status <> 'finished'",
            )
            .bind(now)
            .bind(id)
            .bind(from)
            .execute(&mut *tx)
            .await?;
            changed(moved.rows_affected(), "tournament round moved")?;
            for g in games {
                b.insert_round_game_in(&mut tx, id, from + 1, g).await?;
            }
            for (account, points) in byes {
                sqlx::query(
                    "INSERT INTO tournament_byes (tournament_id, round, account_id, points)
                     VALUES ($1, $2, $3, $4)",
                )
                .bind(id)
                .bind(from + 1)
                .bind(account)
                .bind(points)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    /// Adds games to the current round `round` of a tournament (a mini-match's second game,
    /// made when its first ends): `Conflict` when another writer stored one of them first, or
    /// the tournament has moved on (nothing stored).
    pub async fn add_round_games(
        &self,
        id: &str,
        round: i64,
        games: &[RoundGame<'_>],
    ) -> Result<(), StoreError> {
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            let current: Option<(i64,)> = sqlx::query_as(
                "SELECT round FROM tournaments WHERE id = $1 AND status = 'started'",
            )
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
            if current != Some((round,)) {
                return Err(StoreError::Conflict("tournament round moved"));
            }
            for g in games {
                // A lost race fails here, and the transaction stores nothing.
                b.insert_round_game_in(&mut tx, id, round, g).await?;
            }
            tx.commit().await?;
            Ok(())
        })
    }

    /// `color` of tournament game `id` goes berserk: its clock becomes `clock` and its mark is
    /// set, in one transaction; `Conflict` when the game changed since `version` or the side
    /// went berserk already (nothing stored).
    pub async fn berserk(
        &self,
        id: &str,
        version: i64,
        color: emergo_core::Color,
        clock: super::ClockColumns,
        now: &str,
    ) -> Result<(), StoreError> {
        let mark = match color {
            emergo_core::Color::White => "white_berserk",
            emergo_core::Color::Black => "black_berserk",
        };
        on_backend!(self, b => {
            let mut tx = b.pool().begin().await?;
            let game = sqlx::query(
                "UPDATE games SET white_ms = $1, black_ms = $2, turn_started_ms = $3,
                    flag_at_ms = $4, updated_at = $5, version = version + 1
                 WHERE id = $6 AND version = $7 AND result IS NULL",
            )
            .bind(clock.white_ms)
            .bind(clock.black_ms)
            .bind(clock.turn_started_ms)
            .bind(clock.flag_at_ms)
            .bind(now)
            .bind(id)
            .bind(version)
            .execute(&mut *tx)
            .await?;
            changed(game.rows_affected(), "the game changed meanwhile")?;
            let marked = sqlx::query(&format!(
                "UPDATE tournament_games SET {mark} = TRUE WHERE game_id = $1 AND {mark} = FALSE"
            ))
            .bind(id)
            .execute(&mut *tx)
            .await?;
            changed(marked.rows_affected(), "berserk already")?;
            tx.commit().await?;
            Ok(())
        })
    }

    /// Ends a tournament at round `round` (guarded like a round's move): whether this call
    /// ended it.
    pub async fn finish_tournament(
        &self,
        id: &str,
        round: i64,
        now: &str,
    ) -> Result<bool, StoreError> {
        on_backend!(self, b => {
            let done = sqlx::query(
                "UPDATE tournaments SET status = 'finished', finished_at = $1
                 WHERE id = $2 AND round = $3 AND status <> 'finished'",
            )
            .bind(now)
            .bind(id)
            .bind(round)
            .execute(b.pool())
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }

    /// The creator starts a tournament now (its `starts_at` brought forward): whether it had
    /// not started.
    pub async fn start_tournament_now(
        &self,
        id: &str,
        creator: i64,
        now: i64,
    ) -> Result<bool, StoreError> {
        on_backend!(self, b => {
            let done = sqlx::query(
                "UPDATE tournaments SET starts_at = $1
                 WHERE id = $2 AND creator_id = $3 AND status = 'created'",
            )
            .bind(now)
            .bind(id)
            .bind(creator)
            .execute(b.pool())
            .await?;
            Ok(done.rows_affected() == 1)
        })
    }
}
