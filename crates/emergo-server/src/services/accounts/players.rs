//! The players' pages (issue 11): what `GET /api/players/{name}` and `GET /api/leaderboard`
//! show of an account (its ratings, games, results, best ratings, performance). A rated game's
//! settlement is the game service's (`services::games::ratings`).
//!
//! Each rated game is its own rating period. Between games a rating's RD grows with
//! inactivity (`Rating::after_idle`: the paper's step for a period without games, 0.21436
//! periods a day, never above 350): the stored RD is the one after the player's last game, and
//! every answer and every new game start from the RD grown since then.

use crate::services::error::ServiceError;
use emergo_core::Color;
use emergo_platform::domain::model::unix_now;
use emergo_platform::domain::rating::LEADERBOARD_RD;
use emergo_platform::domain::time_control::Category;
use emergo_platform::store::accounts::RatingRow;
use emergo_platform::store::Store;
use serde_json::{json, Map, Value};

/// `{"blitz": {"rating", "rd", "volatility", "games"}, ...}` of an account's rated categories.
pub fn ratings_json(rows: &[RatingRow]) -> Value {
    let now = unix_now();
    let mut map = Map::new();
    for row in rows {
        map.insert(row.category.clone(), rating_json(row, now));
    }
    Value::Object(map)
}

fn rating_json(row: &RatingRow, now: i64) -> Value {
    let r = row.rating_at(now);
    json!({
        "rating": (r.rating * 100.0).round() / 100.0,
        "rd": (r.rd * 100.0).round() / 100.0,
        "volatility": (r.volatility * 1e6).round() / 1e6,
        "games": row.games,
    })
}

/// The player's side of a game line: colour, opponent, result from the player's side.
fn game_line(row: &emergo_platform::store::accounts::PlayerGameRow, account_id: i64) -> Value {
    let color = if row.white_account == Some(account_id) {
        Color::White
    } else {
        Color::Black
    };
    let opponent = match color {
        Color::White => (row.black_account, &row.black_name),
        Color::Black => (row.white_account, &row.white_name),
    };
    let opponent = match opponent {
        (Some(_), Some(name)) => json!(name),
        (Some(_), None) => json!({"deleted": true}),
        (None, _) => Value::Null,
    };
    // Games between accounts start from the start position: White moves at even plies.
    let turn = if row.ply % 2 == 0 {
        Color::White
    } else {
        Color::Black
    };
    json!({
        "id": row.id,
        "color": color.name(),
        "opponent": opponent,
        "ply": row.ply,
        "status": if row.result.is_some() { "finished" } else { "ongoing" },
        "result": emergo_platform::store::shown_result(row.result.as_deref(), row.reason.as_deref()),
        "reason": row.reason,
        "rated": row.rated,
        "time_control": row.time_control,
        "your_turn": row.result.is_none() && turn == color,
        "created_at": row.created_at,
        "updated_at": row.updated_at,
    })
}

/// The games of an account as lines of a list.
pub async fn games_json(
    store: &Store,
    account_id: i64,
    ongoing_only: bool,
    limit: u32,
) -> Result<Vec<Value>, ServiceError> {
    let rows = store.games_of(account_id, ongoing_only, limit).await?;
    Ok(rows.iter().map(|r| game_line(r, account_id)).collect())
}

/// The category a finished game counts in on the player page: a rated game's, else its time
/// control's (an untimed game in none).
fn category_of_row(rated: Option<&str>, time_control: Option<&str>) -> Option<Category> {
    rated.and_then(|c| c.parse().ok()).or_else(|| {
        time_control
            .and_then(|t| {
                t.parse::<emergo_platform::domain::time_control::TimeControl>()
                    .ok()
            })
            .map(|c| c.category())
    })
}

/// `"stats"` of a player page (issue 18): per category, the finished games (rated and casual;
/// aborted ones do not count) with their wins, draws and losses, and how many were rated.
pub fn stats_json(counts: &[emergo_platform::store::accounts::ResultCountRow]) -> Value {
    let mut map = Map::new();
    for row in counts {
        if row.reason.as_deref() == Some(emergo_core::EndReason::Aborted.name()) {
            continue;
        }
        let Some(category) = category_of_row(row.rated.as_deref(), row.time_control.as_deref())
        else {
            continue;
        };
        let entry = map
            .entry(category.name())
            .or_insert_with(|| json!({"games": 0, "wins": 0, "draws": 0, "losses": 0, "rated": 0}));
        let key = match (row.result.as_deref(), row.as_white == 1) {
            (Some("1/2-1/2"), _) => "draws",
            (Some("1-0"), true) | (Some("0-1"), false) => "wins",
            _ => "losses",
        };
        for (field, n) in [("games", row.n), (key, row.n)] {
            entry[field] = json!(entry[field].as_i64().unwrap_or(0) + n);
        }
        if row.rated.is_some() {
            entry["rated"] = json!(entry["rated"].as_i64().unwrap_or(0) + row.n);
        }
    }
    Value::Object(map)
}

/// `"best"` of a player page: per category, the highest rating after a rated game, when, and
/// whether it was provisional then.
pub fn best_json(history: &[emergo_platform::store::accounts::HistoryRow]) -> Value {
    let mut best: std::collections::BTreeMap<&str, &emergo_platform::store::accounts::HistoryRow> =
        Default::default();
    for row in history {
        let entry = best.entry(row.category.as_str()).or_insert(row);
        if row.rating > entry.rating {
            *entry = row;
        }
    }
    let map: Map<String, Value> = best
        .into_iter()
        .map(|(category, row)| {
            let line = json!({
                "rating": row.rating.round() as i64,
                "at": row.at,
                "game": row.game_id,
                "provisional": row.rd >= LEADERBOARD_RD,
            });
            (category.to_string(), line)
        })
        .collect();
    Value::Object(map)
}

/// The rated games a performance is figured over, per category (the newest).
pub const PERFORMANCE_GAMES: usize = 20;

/// Rated games read for the performances (the newest, of every category).
pub const PERFORMANCE_READ: u32 = 200;

/// `"performance"` of a player page: per category, the performance rating of the last
/// [`PERFORMANCE_GAMES`] rated games that counted: the mean of the opponents' ratings as
/// each game began, plus 400 × (wins − losses) / games (the linear performance rating).
pub fn performance_json(rows: &[emergo_platform::store::accounts::RatedResultRow]) -> Value {
    let mut per: std::collections::BTreeMap<&str, (f64, i64, i64, i64, i64)> = Default::default();
    for row in rows {
        let Some(opponent) = row.opponent_before else {
            continue;
        };
        let entry = per.entry(row.category.as_str()).or_default();
        if entry.1 as usize >= PERFORMANCE_GAMES {
            continue;
        }
        entry.0 += opponent;
        entry.1 += 1;
        match (row.result.as_deref(), row.as_white == 1) {
            (Some("1/2-1/2"), _) => entry.3 += 1,
            (Some("1-0"), true) | (Some("0-1"), false) => entry.2 += 1,
            _ => entry.4 += 1,
        }
    }
    let map: Map<String, Value> = per
        .into_iter()
        .map(|(category, (sum, n, wins, draws, losses))| {
            let rating = performance(sum / n as f64, n, wins, losses);
            let line = json!({
                "rating": rating,
                "games": n,
                "wins": wins,
                "draws": draws,
                "losses": losses,
            });
            (category.to_string(), line)
        })
        .collect();
    Value::Object(map)
}

/// The linear performance rating of `games` games against opponents rated `mean` on average.
pub fn performance(mean: f64, games: i64, wins: i64, losses: i64) -> i64 {
    if games == 0 {
        return mean.round() as i64;
    }
    (mean + 400.0 * (wins - losses) as f64 / games as f64).round() as i64
}
