//! The players' ratings on the game page (issue 18): each account's rating in the game's
//! category as the game began, a provisional mark (lichess's "?") while its RD is high, and
//! once a rated game is settled the change it made (+12 / −12).
//!
//! A game in memory keeps them ([`crate::services::games::LiveGame::ratings`]): read when the game is
//! read from the database, after a new game is made, and again once its settlement is stored
//! (the settlement runs after the ending is published, so the change comes in a second state).

use crate::services::error::ServiceError;
use crate::services::games::{AppState, GameSlot};
use emergo_core::{AnyGame, Color, Outcome, Status, VariantKind};
use emergo_platform::domain::model::{now_text, GameMeta};
use emergo_platform::domain::model::{unix_now, unix_of};
use emergo_platform::domain::rating::LEADERBOARD_RD;
use emergo_platform::domain::rating::{Rating, Score, START_RATING, START_RD};
use emergo_platform::domain::time_control::{rating_pool, Category};
use emergo_platform::store::accounts::{RatingRow, Recent, Settled};
use emergo_platform::store::{Store, StoreError};
use serde::Serialize;
use std::sync::Arc;
use std::time::Duration;

/// One seat's rating as the game page shows it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SeatRating {
    /// The rating the player began the game with (rounded).
    pub rating: i64,
    /// Its deviation then (rounded).
    pub rd: i64,
    /// The deviation is at or over 110 (the leaderboard's bar): shown with a "?".
    pub provisional: bool,
    /// What the settled rated game changed (rounded ratings after minus before); `None` while
    /// it is played, for a casual game, and for one that did not count (aborted, over the
    /// day's limits).
    pub change: Option<i64>,
}

/// Both seats' ratings (`None` for a seat without an account).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameRatings {
    pub white: Option<SeatRating>,
    pub black: Option<SeatRating>,
}

impl GameRatings {
    pub fn of(&self, color: Color) -> Option<&SeatRating> {
        match color {
            Color::White => self.white.as_ref(),
            Color::Black => self.black.as_ref(),
        }
    }

    /// Whether a change is known for every seat with an account.
    pub fn settled(&self) -> bool {
        [&self.white, &self.black]
            .iter()
            .all(|r| r.as_ref().is_none_or(|r| r.change.is_some()))
    }
}

/// The category whose ratings a game shows: a rated game's, else its time control's.
pub fn category_of(meta: &GameMeta) -> Option<Category> {
    meta.players
        .rated
        .or_else(|| meta.clock.map(|c| c.control.category()))
}

/// The game's ratings from the database: a settled rated game's history rows, else each
/// account's rating now (RD grown since its last game). At most three reads.
pub async fn load(store: &Store, meta: &GameMeta) -> Result<GameRatings, StoreError> {
    let mut ratings = GameRatings::default();
    if meta.players.white.is_none() && meta.players.black.is_none() {
        return Ok(ratings);
    }
    let Some(category) = category_of(meta) else {
        return Ok(ratings);
    };
    let pool = rating_pool(meta.variant, category);
    let settled = match meta.players.rated {
        Some(_) => store.game_ratings(&meta.id).await?,
        None => Vec::new(),
    };
    let now = unix_now();
    for color in Color::ALL {
        let Some(player) = meta.players.of(color) else {
            continue;
        };
        let seat = match settled.iter().find(|row| row.account_id == player.id) {
            Some(row) => {
                let before = row.rating_before.unwrap_or(START_RATING);
                let rd = row.rd_before.unwrap_or(START_RD);
                SeatRating {
                    rating: before.round() as i64,
                    rd: rd.round() as i64,
                    provisional: rd >= LEADERBOARD_RD,
                    change: Some(row.rating.round() as i64 - before.round() as i64),
                }
            }
            None => {
                let rows = store.ratings_of(player.id).await?;
                let (rating, rd) = rows
                    .iter()
                    .find(|row| row.category == pool)
                    .map(|row| row.rating_at(now))
                    .map_or((START_RATING, START_RD), |r| (r.rating, r.rd));
                SeatRating {
                    rating: rating.round() as i64,
                    rd: rd.round() as i64,
                    provisional: rd >= LEADERBOARD_RD,
                    change: None,
                }
            }
        };
        match color {
            Color::White => ratings.white = Some(seat),
            Color::Black => ratings.black = Some(seat),
        }
    }
    Ok(ratings)
}

/// Tries while a finished rated game's settlement is not stored yet (it may be under way on
/// another instance), a quarter of a second apart.
const SETTLED_TRIES: usize = 20;

/// Reads the game's ratings again in the background and publishes them when they changed.
/// With `until_settled`, a finished rated game is read again (a bounded number of times)
/// until its settlement is stored.
pub fn refresh_later(state: &AppState, slot: &Arc<GameSlot>, until_settled: bool) {
    let (state, slot) = (Arc::clone(state), Arc::clone(slot));
    tokio::spawn(async move {
        for _ in 0..SETTLED_TRIES {
            let meta = slot.state.lock().await.meta.clone();
            if meta.players.white.is_none() && meta.players.black.is_none() {
                return;
            }
            let ratings = match load(&state.store, &meta).await {
                Ok(ratings) => ratings,
                Err(err) => {
                    tracing::warn!(game = %meta.id, "cannot read the players' ratings: {err}");
                    return;
                }
            };
            let done = !until_settled || meta.players.rated.is_none() || ratings.settled();
            {
                let mut live = slot.state.lock().await;
                if live.ratings != ratings && live.meta.id == meta.id {
                    live.ratings = ratings;
                    slot.publish(&live);
                }
            }
            if done {
                return;
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    });
}

/// Settles a finished rated game's ratings, once (a second call changes nothing). Games
/// without both accounts or unrated do nothing.
pub async fn settle_game(
    state: &AppState,
    meta: &GameMeta,
    game: &AnyGame,
) -> Result<(), ServiceError> {
    let (Some(category), Some(white), Some(black)) = (
        meta.players.rated,
        meta.players.white.as_ref(),
        meta.players.black.as_ref(),
    ) else {
        return Ok(());
    };
    let Status::Finished { outcome, .. } = game.status() else {
        return Ok(());
    };
    let white_score = match outcome {
        Outcome::Win(Color::White) => Score::Win,
        Outcome::Win(Color::Black) => Score::Loss,
        Outcome::Draw => Score::Draw,
    };
    // An aborted game, or one over the day's limits, is settled without a change.
    let status = game.status();
    let now = now_text();
    let at = unix_of(&now).unwrap_or_else(unix_now);
    let since = emergo_platform::domain::model::format_unix_time(at - 86_400);
    let stamp = now.clone();
    let settle = Box::new(move |w: &RatingRow, b: &RatingRow, recent: Recent| {
        if !counts_for_ratings(status, recent) {
            return None;
        }
        let (wr, br) = (w.rating_at(at), b.rating_at(at));
        let row = |before: &RatingRow, start: Rating, after: Rating| Settled {
            after: RatingRow {
                account_id: before.account_id,
                category: before.category.clone(),
                rating: after.rating,
                rd: after.rd,
                volatility: after.volatility,
                games: before.games + 1,
                updated_at: stamp.clone(),
            },
            rating_before: start.rating,
            rd_before: start.rd,
        };
        Some((
            row(w, wr, wr.after_game(&br, white_score)),
            row(b, br, br.after_game(&wr, white_score.flipped())),
        ))
    });
    state
        .store
        .settle(
            &meta.id,
            &rating_pool(meta.variant, category),
            (white.id, black.id),
            &now,
            &since,
            settle,
        )
        .await?;
    Ok(())
}

/// Settles in the background the game a change just finished (the game's lock is not held
/// while the ratings are written).
pub fn settle_later(
    state: &AppState,
    slot: &Arc<crate::services::games::GameSlot>,
    meta: &GameMeta,
    game: &AnyGame,
) {
    if meta.players.rated.is_none() || game.status() == Status::Ongoing {
        return;
    }
    let (state, slot) = (Arc::clone(state), Arc::clone(slot));
    let (meta, game) = (meta.clone(), game.clone());
    tokio::spawn(async move {
        match settle_game(&state, &meta, &game).await {
            // The game page shows the change (issue 18).
            Ok(()) => crate::services::games::ratings::refresh_later(&state, &slot, false),
            Err(err) => tracing::warn!(game = %meta.id, "ratings not settled yet: {err}"),
        }
    });
}

/// Settles the finished rated games that are not settled yet (after a restart, or when a
/// settlement failed): the sweeper calls it every minute.
pub async fn settle_pending(state: &AppState) {
    let ids = match state.store.unsettled(100).await {
        Ok(ids) => ids,
        Err(err) => {
            tracing::warn!("cannot list unsettled games: {err}");
            return;
        }
    };
    for id in ids {
        if let Ok(Some(stored)) = state.store.load(&id).await {
            if let Err(err) = settle_game(state, &stored.meta, &stored.game).await {
                tracing::warn!(game = %id, "ratings not settled: {err}");
            }
        }
    }
}

/// An account's rating in `category` on `variant`'s board as game `game` began: the rating it
/// had before that game's settlement (the one after its previous rated game of the pool), or
/// its rating now while the game is not settled; 1500 before its first game.
pub async fn rating_before(
    state: &AppState,
    account_id: i64,
    (variant, category): (VariantKind, Category),
    game: &str,
) -> Result<f64, ServiceError> {
    let pool = rating_pool(variant, category);
    let history = state.store.history_of(account_id, 1000).await?;
    let rows: Vec<_> = history.iter().filter(|row| row.category == pool).collect();
    let upto = rows
        .iter()
        .position(|row| row.game_id == game)
        .unwrap_or(rows.len());
    Ok(upto
        .checked_sub(1)
        .map_or(emergo_platform::domain::rating::START_RATING, |i| {
            rows[i].rating
        }))
}

/// Rated games between the same two accounts that count in 24 hours; later ones are settled
/// without a change (docs/api.md "Ratings").
pub const PAIR_GAMES_A_DAY: i64 = 3;

/// Rated games whose two players came from one address that count in 24 hours, for that
/// address (whichever accounts play); later ones are settled without a change.
pub const SHARED_ADDRESS_GAMES_A_DAY: i64 = 3;

/// Whether a finished rated game changes the ratings: it was not aborted (a resignation or an
/// agreed draw before each side made [`emergo_platform::domain::ending::RATED_MOVES_EACH`] moves aborts it), and
/// the games that counted in the last 24 hours leave room for it.
pub fn counts_for_ratings(status: Status, recent: Recent) -> bool {
    emergo_platform::domain::ending::is_rated(status)
        && recent.pair < PAIR_GAMES_A_DAY
        && recent
            .shared_client
            .is_none_or(|n| n < SHARED_ADDRESS_GAMES_A_DAY)
}

#[cfg(test)]
mod tests {
    use emergo_platform::domain::rating::LEADERBOARD_RD;
    use emergo_platform::domain::rating::{Rating, Score};

    /// Rated games (alternately won and lost) a new player needs before its RD is under the
    /// leaderboard's bar, against `opponent` (given the player's rating, its opponent's now).
    fn games_to_settle(mut opponent: impl FnMut(&Rating) -> Rating) -> usize {
        let mut me = Rating::new();
        for n in 1..100 {
            let them = opponent(&me);
            let score = if n % 2 == 0 { Score::Win } else { Score::Loss };
            me = me.after_game(&them, score);
            if me.rd < LEADERBOARD_RD {
                return n;
            }
        }
        100
    }

    /// The leaderboard's empty words (assets/i18n): "after about 10 rated games … against
    /// players with settled ratings, about 13 when both are new".
    #[test]
    fn the_leaderboards_words_hold_10_games_against_settled_players_13_between_new_ones() {
        let settled = Rating {
            rating: 1500.0,
            rd: 60.0,
            volatility: 0.06,
        };
        assert_eq!(games_to_settle(|_| settled), 10);
        // Two new players who play each other: the opponent's RD falls as fast.
        assert_eq!(games_to_settle(|me| *me), 13);
    }
}
