//! Tournaments (issue 23, docs/api.md "Tournaments"): made by a signed-in player, joined and
//! left by players, started at their time (or by their creator), then run by [`Tournaments::tick`]
//! on every instance: a round robin by its Berger table, a Swiss round by round by the Dutch
//! order, an arena by pairing its waiting players again and again until its time is up. The
//! formats' rules are the domain's (`emergo_platform::domain::tournament`); this service stores
//! their decisions and makes their games.
//!
//! A round's games are stored with the tournament's move to that round in one guarded write
//! (`Store::advance_tournament`): of several instances looking at once, one pairs, and the
//! others find the round moved. A game is an ordinary game between the two accounts, timed and
//! rated as the tournament says; a player who makes no first move in [`ABSENT_MS`] loses it
//! as "absent" (in correspondence, its clock's days a move are the set time: a loss on time
//! before the first move is an absence), and is withdrawn when absent
//! [`ABSENCES_TO_WITHDRAW`] times. A mini-match's
//! second game is made when its first ends (`Store::add_round_games`).

use crate::services::error::{echo, ServiceError};
use crate::services::games::seats::Actor;
use crate::services::games::{AppState, Change, GameSlot, LiveGame, NOBODY};
use crate::services::notify::Notify;
use emergo_core::{AnyGame, ByColor, Color, EndReason, Status, VariantKind};
use emergo_platform::domain::clock::GameClock;
use emergo_platform::domain::model::{
    hash_secret, new_game_id, new_token, now_text, random_text, unix_now, unix_of, GameMeta, Mode,
    PlayerRef, Players, Seat, SeatKind, TournamentMark,
};
use emergo_platform::domain::rating::START_RATING;
use emergo_platform::domain::time_control::{rating_pool, TimeControl};
use emergo_platform::domain::tournament::{arena, round_robin, swiss, Outcome, Pairing, PlayerId};
use emergo_platform::store::notifications::NewNote;
use emergo_platform::store::tournaments::{
    EntrantRow, NewTournament, RoundGame, TournamentGameRow, TournamentRow,
};
use emergo_platform::store::{Store, StoreError};
use emergo_worker::pool::Client;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;

/// A player's rating in the tournament's pool, the start rating without one.
fn rating_of(e: &EntrantRow) -> i32 {
    e.rating.unwrap_or(START_RATING).round() as i32
}

/// The rating pool of the tournament's games (its board and time category).
fn pool_of(t: &TournamentRow) -> String {
    let variant = t.variant.parse::<VariantKind>().unwrap_or_default();
    match t.time_control.parse::<TimeControl>() {
        Ok(tc) => rating_pool(variant, tc.category()),
        Err(_) => String::new(),
    }
}

/// Unfinished tournaments one account may have made.
pub const TOURNAMENTS_PER_CREATOR: i64 = 3;
/// The most players a tournament takes (a round robin: 16).
pub const MAX_PLAYERS: i64 = 500;
/// Swiss rounds at most.
pub const MAX_ROUNDS: i64 = 20;
/// An arena's length, in minutes.
pub const ARENA_MINUTES: std::ops::RangeInclusive<i64> = 5..=720;
/// Tournaments a list shows of each status.
pub const LISTED: u32 = 50;
/// A Swiss's rounds when its creator names none.
pub const DEFAULT_ROUNDS: i64 = 5;

/// Tournaments one look of the ticker runs at most.
const PER_TICK: u32 = 200;

/// The time a player of a real-time tournament game has for its first move (from its turn's
/// start); past it, the game is lost as "absent".
pub const ABSENT_MS: i64 = 30_000;

/// A player absent this many times is withdrawn from the tournament.
pub const ABSENCES_TO_WITHDRAW: usize = 2;

/// What a creator asks for.
pub struct TournamentRequest<'a> {
    pub name: &'a str,
    pub format: &'a str,
    pub time: &'a str,
    pub rated: bool,
    pub variant: Option<&'a str>,
    pub rounds: Option<i64>,
    pub minutes: Option<i64>,
    pub games_per_pairing: Option<i64>,
    pub max_players: Option<i64>,
    /// Unix seconds; none: in five minutes.
    pub starts_at: Option<i64>,
    pub password: Option<&'a str>,
}

/// How often a watched tournament's view is made again: once per tournament and instance,
/// whatever the number of its sockets.
pub const FEED_EVERY: std::time::Duration = std::time::Duration::from_secs(1);

/// Tournaments one instance follows for sockets at once.
pub const FEEDS_MAX: usize = 1_000;

/// The latest view of a watched tournament, as its socket's message text.
pub type Feed = tokio::sync::watch::Receiver<Option<Arc<str>>>;

/// The tournaments service.
pub struct Tournaments {
    store: Store,
    /// The tournaments followed for sockets on this instance, each fed by one task.
    feeds: std::sync::Mutex<HashMap<String, Feed>>,
}

/// The message of a tournament's socket: `{"type": "tournament", "tournament": {...}}`.
#[derive(Serialize)]
struct FeedMessage<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    tournament: &'a TournamentView,
}

/// A tournament in a list.
#[derive(Debug, Serialize)]
pub struct TournamentLine {
    id: String,
    name: String,
    format: String,
    status: String,
    time: String,
    variant: String,
    rated: bool,
    players: i64,
    max_players: i64,
    starts_at: String,
    private: bool,
}

/// `GET /api/tournaments`.
#[derive(Debug, Serialize)]
pub struct TournamentList {
    upcoming: Vec<TournamentLine>,
    running: Vec<TournamentLine>,
    finished: Vec<TournamentLine>,
}

/// A player's line of the standings.
#[derive(Debug, Serialize, PartialEq)]
pub struct Standing {
    /// Its account (not shown: players are shown by name).
    #[serde(skip)]
    pub account: i64,
    pub rank: usize,
    pub name: Option<String>,
    pub score: u32,
    /// Swiss: Buchholz; round robin: Sonneborn–Berger; arena: the games played.
    pub tiebreak: u32,
    pub games: usize,
    pub withdrawn: bool,
    /// Arena: paused (not paired until it joins again).
    pub paused: bool,
    /// Arena: on a streak (its next points doubled).
    pub on_fire: bool,
}

/// A game of the tournament.
#[derive(Debug, Serialize)]
pub struct TournamentGame {
    id: String,
    round: i64,
    white: Option<String>,
    black: Option<String>,
    result: Option<String>,
    /// An arena's: whether White, Black went berserk (absent when not).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    white_berserk: bool,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    black_berserk: bool,
}

/// `GET /api/tournaments/{id}`.
#[derive(Debug, Serialize)]
pub struct TournamentView {
    id: String,
    name: String,
    format: String,
    status: String,
    round: i64,
    /// Rounds in all (Swiss, round robin); none for an arena.
    rounds: Option<i64>,
    minutes: Option<i64>,
    time: String,
    variant: String,
    rated: bool,
    games_per_pairing: i64,
    max_players: i64,
    creator: Option<String>,
    starts_at: String,
    /// An arena's end.
    ends_at: Option<String>,
    private: bool,
    /// Whether it takes entries now (before its start; an arena while it runs; a Swiss before
    /// its last round).
    open: bool,
    standings: Vec<Standing>,
    /// The newest [`VIEW_GAMES`] games, oldest first (`GET …/games` has the rest).
    games: Vec<TournamentGame>,
    /// How many games it has in all.
    games_total: usize,
}

/// `GET /api/tournaments/{id}/games`.
#[derive(Debug, Serialize)]
pub struct TournamentGames {
    games: Vec<TournamentGame>,
    /// How many games matched (the list holds the newest [`LISTED_GAMES`]).
    total: usize,
}

/// The games a tournament's view carries (and its socket sends at each change).
pub const VIEW_GAMES: usize = 100;
/// The games `GET /api/tournaments/{id}/games` lists at most.
pub const LISTED_GAMES: usize = 1000;

/// The newest `most` of `games` as the API shows them, oldest first.
fn game_lines(
    games: &[TournamentGameRow],
    names: &HashMap<i64, Option<String>>,
    most: usize,
) -> Vec<TournamentGame> {
    games[games.len().saturating_sub(most)..]
        .iter()
        .map(|g| TournamentGame {
            id: g.game_id.clone(),
            round: g.round,
            white: names.get(&g.white_id).cloned().flatten(),
            black: names.get(&g.black_id).cloned().flatten(),
            result: emergo_platform::store::shown_result(g.result.clone(), g.reason.as_deref()),
            white_berserk: g.white_berserk,
            black_berserk: g.black_berserk,
        })
        .collect()
}

/// Whether `t` takes entries now: `Some(false)` before its start, `Some(true)` as a late entry
/// (an arena while it runs; a Swiss before its last round, with a bye of half a win for each
/// round missed), `None` otherwise (a round robin's table is fixed at the start).
fn entry(t: &TournamentRow) -> Option<bool> {
    match (t.status.as_str(), t.format.as_str()) {
        ("created", _) => Some(false),
        ("started", "arena") => Some(true),
        ("started", "swiss") if t.round < t.rounds.unwrap_or(DEFAULT_ROUNDS) => Some(true),
        _ => None,
    }
}

fn bad(message: impl Into<String>) -> ServiceError {
    ServiceError::BadRequest(message.into())
}

fn rfc3339(secs: i64) -> String {
    emergo_platform::domain::model::format_unix_time(secs)
}

impl Tournaments {
    pub fn new(store: Store) -> Tournaments {
        Tournaments {
            store,
            feeds: std::sync::Mutex::default(),
        }
    }

    /// The live view of tournament `id` for a socket: the view now, and again whenever it
    /// changes. One task per tournament makes it every [`FEED_EVERY`] while anyone follows it
    /// on this instance (a change made on another instance shows within that time); it ends
    /// once nobody does. Busy beyond [`FEEDS_MAX`] tournaments.
    pub fn follow(self: &Arc<Self>, id: &str) -> Result<Feed, ServiceError> {
        let mut feeds = self.feeds.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(feed) = feeds.get(id) {
            return Ok(feed.clone());
        }
        if feeds.len() >= FEEDS_MAX {
            return Err(ServiceError::Busy {
                cap: "tournament feeds",
                message: "too many tournaments are followed on this instance; try again soon"
                    .to_string(),
            });
        }
        let (tx, rx) = tokio::sync::watch::channel(None);
        feeds.insert(id.to_string(), rx.clone());
        let me = self.clone();
        let id = id.to_string();
        tokio::spawn(async move {
            loop {
                if let Ok(view) = me.show(&id).await {
                    let message = FeedMessage {
                        kind: "tournament",
                        tournament: &view,
                    };
                    if let Ok(text) = serde_json::to_string(&message) {
                        tx.send_if_modified(|now| {
                            let changed = now.as_deref() != Some(text.as_str());
                            if changed {
                                *now = Some(text.into());
                            }
                            changed
                        });
                    }
                }
                tokio::time::sleep(FEED_EVERY).await;
                // Under the lock a new follower clones the map's receiver: none is missed.
                let mut feeds = me.feeds.lock().unwrap_or_else(|e| e.into_inner());
                if tx.receiver_count() <= 1 {
                    feeds.remove(&id);
                    return;
                }
            }
        });
        Ok(rx)
    }

    /// `POST /api/tournaments` by `creator` (who is not joined by it).
    pub async fn create(
        &self,
        creator: i64,
        request: TournamentRequest<'_>,
    ) -> Result<TournamentView, ServiceError> {
        let name = request.name.trim();
        let chars = name.chars().count();
        if !(3..=40).contains(&chars) || name.chars().any(char::is_control) {
            return Err(bad("a tournament's name is one line of 3 to 40 characters"));
        }
        let format = match request.format {
            "arena" => "arena",
            "swiss" => "swiss",
            "roundrobin" => "roundrobin",
            other => {
                return Err(bad(format!(
                    "{} is not a format: arena, swiss or roundrobin",
                    echo(other)
                )))
            }
        };
        let tc = request
            .time
            .parse::<TimeControl>()
            .map_err(|e| bad(format!("time {}: {e}", echo(request.time))))?;
        if format == "arena" && matches!(tc, TimeControl::Correspondence { .. }) {
            return Err(bad(
                "an arena is played in real time, not by correspondence",
            ));
        }
        let variant = crate::services::study::position::variant_of(request.variant)?;
        let rounds = match format {
            "swiss" => {
                let rounds = request.rounds.unwrap_or(DEFAULT_ROUNDS);
                if !(1..=MAX_ROUNDS).contains(&rounds) {
                    return Err(bad(format!("a Swiss has 1 to {MAX_ROUNDS} rounds")));
                }
                Some(rounds)
            }
            _ if request.rounds.is_some() => {
                return Err(bad(
                    "rounds are a Swiss's (a round robin has one per opponent)",
                ))
            }
            _ => None,
        };
        let minutes = match format {
            "arena" => {
                let minutes = request.minutes.unwrap_or(60);
                if !ARENA_MINUTES.contains(&minutes) {
                    return Err(bad(format!(
                        "an arena lasts {} to {} minutes",
                        ARENA_MINUTES.start(),
                        ARENA_MINUTES.end()
                    )));
                }
                Some(minutes)
            }
            _ if request.minutes.is_some() => return Err(bad("minutes are an arena's")),
            _ => None,
        };
        // Emergo is fair over both colours: a Swiss or round-robin pairing is a mini-match.
        let games_per_pairing = match (format, request.games_per_pairing) {
            ("arena", None | Some(1)) => 1,
            ("arena", Some(_)) => return Err(bad("an arena pairs for one game at a time")),
            (_, None) => 2,
            (_, Some(n @ (1 | 2))) => n,
            (_, Some(_)) => return Err(bad("a pairing is 1 game or 2 (colours swapped)")),
        };
        let cap = if format == "roundrobin" {
            round_robin::MAX_PLAYERS as i64
        } else {
            MAX_PLAYERS
        };
        let max_players = request.max_players.unwrap_or(cap);
        if !(2..=cap).contains(&max_players) {
            return Err(bad(format!("this format takes 2 to {cap} players")));
        }
        let now = unix_now();
        let starts_at = request.starts_at.unwrap_or(now + 300);
        if starts_at < now - 60 || starts_at > now + 90 * 86_400 {
            return Err(bad("a tournament starts within the next 90 days"));
        }
        let password_hash = match request.password.map(str::trim).filter(|p| !p.is_empty()) {
            Some(p) if p.len() > 64 => return Err(bad("a password is at most 64 bytes")),
            Some(p) => Some(hash_secret(p)),
            None => None,
        };
        let new = NewTournament {
            id: random_text(8),
            name: name.to_string(),
            format,
            time_control: tc.to_string(),
            variant: variant.name(),
            rated: request.rated,
            rounds,
            minutes,
            games_per_pairing,
            max_players,
            password_hash,
            creator_id: creator,
            starts_at,
            created_at: now_text(),
        };
        if !self
            .store
            .insert_tournament(&new, TOURNAMENTS_PER_CREATOR)
            .await?
        {
            return Err(ServiceError::NotAllowed(format!(
                "this account has {TOURNAMENTS_PER_CREATOR} tournaments that have not finished, \
                 the most it may make"
            )));
        }
        self.show(&new.id).await
    }

    /// The tournament `id` (404 `not_found` when there is none).
    pub async fn find(&self, id: &str) -> Result<TournamentRow, ServiceError> {
        let found = if id.len() <= 64 {
            self.store.tournament(id).await?
        } else {
            None
        };
        found.ok_or_else(|| ServiceError::NotFound(format!("there is no tournament {}", echo(id))))
    }

    /// `POST /api/tournaments/{id}/join`.
    pub async fn join(
        &self,
        account: i64,
        id: &str,
        password: Option<&str>,
    ) -> Result<TournamentView, ServiceError> {
        let t = self.find(id).await?;
        if let Some(hash) = &t.password_hash {
            // A player coming back (from a pause, or to the list before the start) was let in.
            let known = self
                .store
                .entrants(id, &pool_of(&t))
                .await?
                .iter()
                .any(|e| e.account_id == account);
            if !known && password.map(|p| hash_secret(p.trim())).as_ref() != Some(hash) {
                return Err(ServiceError::BadToken(
                    "this tournament is private: its password is wrong or missing".to_string(),
                ));
            }
        }
        let Some(late) = entry(&t) else {
            return Err(ServiceError::NotAllowed(
                "this tournament has started: it takes no more players".to_string(),
            ));
        };
        // Tournaments rank people (as the leaderboard does); bots meet them in games.
        if self.store.is_bot(account).await? {
            return Err(ServiceError::NotAllowed(
                "a bot account does not play in tournaments".to_string(),
            ));
        }
        if !self
            .store
            .join_tournament(id, account, &now_text(), late)
            .await?
        {
            let entrants = self.store.entrants(id, &pool_of(&t)).await?;
            match entrants.iter().find(|e| e.account_id == account) {
                Some(e) if e.withdrawn_at.is_none() => {
                    return Err(ServiceError::NotAllowed(
                        "already in this tournament".to_string(),
                    ))
                }
                Some(_) => {
                    return Err(ServiceError::NotAllowed(
                        "you withdrew from this tournament: once it has started, that is for \
                         good (an arena's Pause keeps you in)"
                            .to_string(),
                    ))
                }
                None => {}
            }
            return Err(ServiceError::NotAllowed(format!(
                "this tournament is full ({} players) or has started",
                t.max_players
            )));
        }
        if late && t.format == "swiss" {
            // The rounds paired by now (read after the join: a round paired meanwhile counts).
            let now = self.find(id).await?;
            let played = self.store.tournament_games(id).await?;
            let missed: Vec<i64> = (1..=now.round)
                .filter(|&r| {
                    !played
                        .iter()
                        .any(|g| g.round == r && (g.white_id == account || g.black_id == account))
                })
                .collect();
            let half_win = i64::from(swiss::BYE_POINTS) / 2 * t.games_per_pairing;
            self.store.add_byes(id, account, &missed, half_win).await?;
        }
        self.show(id).await
    }

    /// `POST /api/tournaments/{id}/withdraw`: no more games (a round robin's rule decides what
    /// becomes of those played).
    pub async fn withdraw(&self, account: i64, id: &str) -> Result<TournamentView, ServiceError> {
        let t = self.find(id).await?;
        if t.status == "finished" {
            return Err(ServiceError::NotAllowed(
                "this tournament is over".to_string(),
            ));
        }
        if !self
            .store
            .withdraw_from_tournament(id, account, &now_text())
            .await?
        {
            return Err(ServiceError::NotAllowed(
                "not in this tournament".to_string(),
            ));
        }
        self.show(id).await
    }

    /// `POST /api/tournaments/{id}/pause`: an arena player under way is paired no more, and
    /// keeps its score; `join` brings it back.
    pub async fn pause(&self, account: i64, id: &str) -> Result<TournamentView, ServiceError> {
        let t = self.find(id).await?;
        if t.format != "arena" || t.status != "started" {
            return Err(ServiceError::NotAllowed(
                "only an arena under way takes a pause (elsewhere, withdraw)".to_string(),
            ));
        }
        if !self
            .store
            .pause_in_tournament(id, account, &now_text())
            .await?
        {
            return Err(ServiceError::NotAllowed(
                "not playing in this tournament (not in it, withdrawn or paused already)"
                    .to_string(),
            ));
        }
        self.show(id).await
    }

    /// `POST /api/tournaments/{id}/start`: its creator starts it now.
    pub async fn start(&self, account: i64, id: &str) -> Result<TournamentView, ServiceError> {
        let t = self.find(id).await?;
        if t.creator_id != account {
            return Err(ServiceError::NotAllowed(
                "only the tournament's creator starts it early".to_string(),
            ));
        }
        if !self
            .store
            .start_tournament_now(id, account, unix_now())
            .await?
        {
            return Err(ServiceError::NotAllowed(
                "this tournament has started".to_string(),
            ));
        }
        self.show(id).await
    }

    /// `GET /api/tournaments`.
    pub async fn list(&self) -> Result<TournamentList, ServiceError> {
        let line = |t: TournamentRow| TournamentLine {
            id: t.id,
            name: t.name,
            format: t.format,
            status: t.status,
            time: t.time_control,
            variant: t.variant,
            rated: t.rated,
            players: t.players,
            max_players: t.max_players,
            starts_at: rfc3339(t.starts_at),
            private: t.password_hash.is_some(),
        };
        let mut lists = Vec::new();
        for status in ["created", "started", "finished"] {
            let rows = self.store.tournaments(status, LISTED).await?;
            lists.push(rows.into_iter().map(line).collect::<Vec<_>>());
        }
        let finished = lists.pop().unwrap_or_default();
        let running = lists.pop().unwrap_or_default();
        let upcoming = lists.pop().unwrap_or_default();
        Ok(TournamentList {
            upcoming,
            running,
            finished,
        })
    }

    /// `GET /api/tournaments/{id}`.
    pub async fn show(&self, id: &str) -> Result<TournamentView, ServiceError> {
        let t = self.find(id).await?;
        let entrants = self.store.entrants(id, &pool_of(&t)).await?;
        let games = self.store.tournament_games(id).await?;
        let byes = self.store.tournament_byes(id).await?;
        let names: HashMap<i64, Option<String>> = entrants
            .iter()
            .map(|e| (e.account_id, e.name.clone()))
            .collect();
        let byes: Vec<(i64, i64)> = byes.iter().map(|b| (b.account_id, b.points)).collect();
        let standings = standings(&t, &entrants, &games, &byes);
        let rounds = match t.format.as_str() {
            "swiss" => t.rounds,
            "roundrobin" if t.status != "created" => {
                let n = entrants.len() as i64;
                Some(if n % 2 == 0 { n - 1 } else { n })
            }
            _ => None,
        };
        let ends_at = t
            .minutes
            .zip(t.started_at)
            .map(|(m, s)| rfc3339(s + 60 * m));
        Ok(TournamentView {
            open: entry(&t).is_some(),
            id: t.id,
            name: t.name,
            format: t.format,
            status: t.status,
            round: t.round,
            rounds,
            minutes: t.minutes,
            time: t.time_control,
            variant: t.variant,
            rated: t.rated,
            games_per_pairing: t.games_per_pairing,
            max_players: t.max_players,
            creator: t.creator,
            starts_at: rfc3339(t.starts_at),
            ends_at,
            private: t.password_hash.is_some(),
            standings,
            games_total: games.len(),
            games: game_lines(&games, &names, VIEW_GAMES),
        })
    }

    /// `GET /api/tournaments/{id}/games?player=&round=`: the games of one player, of one
    /// round, or of both (the newest [`LISTED_GAMES`]).
    pub async fn games(
        &self,
        id: &str,
        player: Option<&str>,
        round: Option<i64>,
    ) -> Result<TournamentGames, ServiceError> {
        let t = self.find(id).await?;
        let entrants = self.store.entrants(id, &pool_of(&t)).await?;
        let account = match player {
            None => None,
            Some(name) => Some(
                entrants
                    .iter()
                    .find(|e| {
                        e.name
                            .as_deref()
                            .is_some_and(|n| n.eq_ignore_ascii_case(name.trim()))
                    })
                    .map(|e| e.account_id)
                    .ok_or_else(|| {
                        ServiceError::NotFound(format!("{} plays in no game here", echo(name)))
                    })?,
            ),
        };
        let games: Vec<TournamentGameRow> = self
            .store
            .tournament_games(id)
            .await?
            .into_iter()
            .filter(|g| account.is_none_or(|a| g.white_id == a || g.black_id == a))
            .filter(|g| round.is_none_or(|r| g.round == r))
            .collect();
        let names: HashMap<i64, Option<String>> = entrants
            .iter()
            .map(|e| (e.account_id, e.name.clone()))
            .collect();
        Ok(TournamentGames {
            total: games.len(),
            games: game_lines(&games, &names, LISTED_GAMES),
        })
    }

    /// One look at every tournament that may have something to do: starts those due, pairs
    /// the next round of those whose round is over (or an arena's waiting players), ends those
    /// done. Every instance runs it; the guarded writes let one of them act.
    pub async fn tick(&self, games: &AppState, notes: &Notify) {
        let now = unix_now();
        let due = match self.store.due_tournaments(now, PER_TICK).await {
            Ok(due) => due,
            Err(err) => {
                tracing::warn!("tournaments: {err}");
                return;
            }
        };
        for t in due {
            if let Err(err) = self.step(games, notes, &t, now).await {
                match err {
                    ServiceError::Internal(_) | ServiceError::DatabaseUnavailable(_) => {
                        tracing::warn!(tournament = %t.id, "tournament: {err}")
                    }
                    _ => tracing::debug!(tournament = %t.id, "tournament: {err}"),
                }
            }
        }
    }

    async fn step(
        &self,
        games: &AppState,
        notes: &Notify,
        t: &TournamentRow,
        now: i64,
    ) -> Result<(), ServiceError> {
        let entrants = self.store.entrants(&t.id, &pool_of(t)).await?;
        let active: Vec<&EntrantRow> = entrants.iter().filter(|e| e.active()).collect();
        let played = self.store.tournament_games(&t.id).await?;
        let ongoing = |g: &&TournamentGameRow| g.result.is_none();
        if t.status == "started" {
            // Absences first: a player absent twice is withdrawn, an absent player's game is
            // lost; the next look pairs with what they changed.
            if self.withdraw_absent(t, &active, &played).await?
                || forfeit_absent(games, &played).await
            {
                return Ok(());
            }
        }
        if t.status == "created" {
            let fewest = if t.format == "roundrobin" {
                round_robin::MIN_PLAYERS
            } else {
                2
            };
            if active.len() < fewest {
                // Nobody to play: it ends as it is.
                self.store
                    .finish_tournament(&t.id, t.round, &now_text())
                    .await?;
                return Ok(());
            }
        }
        match t.format.as_str() {
            "arena" => {
                let ends = t.started_at.unwrap_or(now) + 60 * t.minutes.unwrap_or(60);
                if t.status == "started" && now >= ends {
                    self.store
                        .finish_tournament(&t.id, t.round, &now_text())
                        .await?;
                    return Ok(());
                }
                let busy: Vec<i64> = played
                    .iter()
                    .filter(ongoing)
                    .flat_map(|g| [g.white_id, g.black_id])
                    .collect();
                let byes = Vec::new();
                let score: HashMap<i64, u32> = standings(t, &entrants, &played, &byes)
                    .iter()
                    .map(|s| (s.account, s.score))
                    .collect();
                let waiting: Vec<arena::Waiting> = active
                    .iter()
                    .filter(|e| !busy.contains(&e.account_id))
                    .map(|e| {
                        let mine: Vec<&TournamentGameRow> = played
                            .iter()
                            .filter(|g| g.white_id == e.account_id || g.black_id == e.account_id)
                            .collect();
                        let last = mine.last().map(|g| {
                            if g.white_id == e.account_id {
                                g.black_id
                            } else {
                                g.white_id
                            }
                        });
                        let balance = mine
                            .iter()
                            .map(|g| if g.white_id == e.account_id { 1 } else { -1 })
                            .sum();
                        // Waiting since its last game ended, or since it joined (or came back).
                        let since = mine
                            .last()
                            .map(|g| g.updated_at.as_str())
                            .into_iter()
                            .chain([e.joined_at.as_str()])
                            .filter_map(unix_of)
                            .max()
                            .unwrap_or(now);
                        arena::Waiting {
                            id: e.account_id,
                            score: score.get(&e.account_id).copied().unwrap_or(0),
                            rating: rating_of(e),
                            last_opponent: last,
                            colour_balance: balance,
                            since,
                        }
                    })
                    .collect();
                let playing = active
                    .iter()
                    .filter(|e| busy.contains(&e.account_id))
                    .count();
                let pairs = arena::pair(&waiting, playing, now);
                if pairs.is_empty() && t.status == "started" {
                    return Ok(());
                }
                self.play_round(games, notes, t, &entrants, &pairs, &[], now)
                    .await
            }
            format => {
                let this_round: Vec<&TournamentGameRow> =
                    played.iter().filter(|g| g.round == t.round).collect();
                // A mini-match's second game, colours swapped, as soon as its first has ended.
                if t.games_per_pairing == 2 {
                    let seconds = second_games(&this_round, &entrants);
                    if !seconds.is_empty() {
                        let made = self.make_games(games, t, &entrants, &seconds)?;
                        let rows = round_games(&made);
                        return match self.store.add_round_games(&t.id, t.round, &rows).await {
                            Ok(()) => {
                                self.open_games(games, notes, t, &entrants, made).await;
                                Ok(())
                            }
                            Err(StoreError::Conflict(_)) => Ok(()),
                            Err(err) => Err(err.into()),
                        };
                    }
                }
                if this_round.iter().any(|g| g.result.is_none()) {
                    return Ok(()); // the round goes on
                }
                let (pairs, byes) = match format {
                    "roundrobin" => {
                        let seeded: Vec<PlayerId> = entrants.iter().map(|e| e.account_id).collect();
                        let table = round_robin::berger(&seeded).ok_or_else(|| {
                            ServiceError::internal("a round robin of an unpaired size")
                        })?;
                        if t.round as usize >= table.len() {
                            self.store
                                .finish_tournament(&t.id, t.round, &now_text())
                                .await?;
                            return Ok(());
                        }
                        let round = &table[t.round as usize];
                        let out: Vec<i64> = entrants
                            .iter()
                            .filter(|e| e.withdrawn_at.is_some())
                            .map(|e| e.account_id)
                            .collect();
                        // A withdrawn player's game is not played: its opponent wins it by
                        // forfeit (when the withdrawn one's results stand).
                        let mut pairs = Vec::new();
                        let mut byes = Vec::new();
                        for p in &round.pairings {
                            match (out.contains(&p.white), out.contains(&p.black)) {
                                (false, false) => pairs.push(*p),
                                (true, false) => byes.push((p.black, 2 * t.games_per_pairing)),
                                (false, true) => byes.push((p.white, 2 * t.games_per_pairing)),
                                (true, true) => {}
                            }
                        }
                        (pairs, byes)
                    }
                    _ => {
                        let rounds = t.rounds.unwrap_or(DEFAULT_ROUNDS);
                        if t.round >= rounds {
                            self.store
                                .finish_tournament(&t.id, t.round, &now_text())
                                .await?;
                            return Ok(());
                        }
                        let stored_byes = self.store.tournament_byes(&t.id).await?;
                        let players = swiss_players(&active, &played, &stored_byes);
                        let next = swiss::pair(&players);
                        let byes = next
                            .bye
                            .map(|p| vec![(p, i64::from(swiss::BYE_POINTS) * t.games_per_pairing)])
                            .unwrap_or_default();
                        (next.pairings, byes)
                    }
                };
                self.play_round(games, notes, t, &entrants, &pairs, &byes, now)
                    .await
            }
        }
    }

    /// Stores the next round (the first game of each pairing, its byes) and opens its games;
    /// `Conflict` (another instance paired it first) is no error.
    #[allow(clippy::too_many_arguments)]
    async fn play_round(
        &self,
        games: &AppState,
        notes: &Notify,
        t: &TournamentRow,
        entrants: &[EntrantRow],
        pairs: &[Pairing],
        byes: &[(i64, i64)],
        now: i64,
    ) -> Result<(), ServiceError> {
        let made = self.make_games(games, t, entrants, pairs)?;
        let rows = round_games(&made);
        match self
            .store
            .advance_tournament(&t.id, t.round, now, &rows, byes)
            .await
        {
            Ok(()) => {}
            Err(StoreError::Conflict(_)) => return Ok(()),
            Err(err) => return Err(err.into()),
        }
        self.open_games(games, notes, t, entrants, made).await;
        Ok(())
    }

    /// `POST /api/games/{id}/berserk`: `actor`'s side of an arena game under way gives up half
    /// its time left, before its first move, for a point more on a win of at least
    /// [`arena::BERSERK_MIN_PLIES`] plies (docs/api.md "Tournaments").
    pub async fn berserk<'a>(
        &self,
        games: &AppState,
        slot: &'a Arc<GameSlot>,
        client: Client,
        actor: &Actor,
    ) -> Result<tokio::sync::MutexGuard<'a, LiveGame>, ServiceError> {
        let not_allowed = |why: &str| ServiceError::NotAllowed(why.to_string());
        let tournament = slot
            .state
            .lock()
            .await
            .meta
            .tournament
            .clone()
            .ok_or_else(|| not_allowed("berserk is for arena tournament games"))?;
        let t = self.find(&tournament.id).await?;
        if t.format != "arena" || t.status != "started" {
            return Err(not_allowed(
                "berserk is for the games of an arena under way",
            ));
        }
        games
            .act_as(slot, client, actor, |live, color| {
                let mark = live.meta.tournament.as_ref().unwrap_or(&tournament);
                match mark.berserk_refusal(&live.game, color) {
                    Some("the game is over") => {
                        Err(ServiceError::GameOver("the game is over".to_string()))
                    }
                    Some(why) => Err(not_allowed(why)),
                    None => Ok(Some(Change::Berserk(color))),
                }
            })
            .await
    }

    /// Withdraws the active players absent [`ABSENCES_TO_WITHDRAW`] times: whether any was.
    async fn withdraw_absent(
        &self,
        t: &TournamentRow,
        active: &[&EntrantRow],
        played: &[TournamentGameRow],
    ) -> Result<bool, ServiceError> {
        let mut any = false;
        for e in active {
            let absences = played
                .iter()
                .filter(|g| absence(g))
                .filter(|g| match white_outcome(g) {
                    Some(Outcome::Win) => g.black_id == e.account_id,
                    Some(Outcome::Loss) => g.white_id == e.account_id,
                    _ => false,
                })
                .count();
            if absences >= ABSENCES_TO_WITHDRAW {
                any |= self
                    .store
                    .withdraw_from_tournament(&t.id, e.account_id, &now_text())
                    .await?;
            }
        }
        Ok(any)
    }

    /// A new game for each pairing, its clock started.
    fn make_games(
        &self,
        games: &AppState,
        t: &TournamentRow,
        entrants: &[EntrantRow],
        pairs: &[Pairing],
    ) -> Result<Vec<MadeGame>, ServiceError> {
        let tc = t
            .time_control
            .parse::<TimeControl>()
            .map_err(|e| ServiceError::internal(format!("tournament {}: {e}", t.id)))?;
        let variant = t
            .variant
            .parse::<VariantKind>()
            .map_err(|e| ServiceError::internal(format!("tournament {}: {e}", t.id)))?;
        let seat = |id: i64| PlayerRef {
            id,
            name: name_in(entrants, id),
            // Bot accounts do not join tournaments.
            bot: false,
        };
        let mut made = Vec::with_capacity(pairs.len());
        for p in pairs {
            let mut meta = GameMeta::new(
                new_game_id(),
                Mode::Human,
                ByColor::splat(Seat {
                    kind: SeatKind::Human,
                    // The players act by their sessions (or API tokens).
                    token_hash: Some(hash_secret(&new_token())),
                }),
                now_text(),
            );
            meta.players = Players {
                white: Some(seat(p.white)),
                black: Some(seat(p.black)),
                rated: t.rated.then(|| tc.category()),
            };
            let mut clock = GameClock::new(tc);
            clock.start(games.clock.now_ms());
            meta.clock = Some(clock);
            meta.variant = variant;
            meta.tournament = Some(TournamentMark {
                id: t.id.clone(),
                arena: t.format == "arena",
                berserk: ByColor::default(),
            });
            made.push((meta, AnyGame::start(variant), *p));
        }
        Ok(made)
    }

    /// Opens stored games: each is live, and each player hears of it on any page (and is
    /// taken to it).
    async fn open_games(
        &self,
        games: &AppState,
        notes: &Notify,
        t: &TournamentRow,
        entrants: &[EntrantRow],
        made: Vec<MadeGame>,
    ) {
        for (meta, game, p) in made {
            let id = meta.id.clone();
            games.insert(LiveGame::new(meta, game));
            for (me, them) in [(p.white, p.black), (p.black, p.white)] {
                notes
                    .notify(NewNote {
                        account_id: me,
                        kind: "started",
                        game_id: Some(&id),
                        seek_id: None,
                        other: name_in(entrants, them).as_deref(),
                        time_control: Some(&t.time_control),
                        outcome: None,
                        reason: None,
                        created_at: &now_text(),
                    })
                    .await;
            }
        }
    }
}

/// Ends as "absent" the games whose side to move has not made its first move within
/// [`ABSENT_MS`]: whether any ended. (Every instance may try; the game's compare-and-set lets
/// one end it.)
async fn forfeit_absent(games: &AppState, played: &[TournamentGameRow]) -> bool {
    let mut ended = false;
    for g in played.iter().filter(|g| g.result.is_none() && g.ply < 2) {
        let Ok(slot) = games.slot(&g.game_id).await else {
            continue;
        };
        let now = games.clock.now_ms();
        let acted = games
            .act(&slot, NOBODY, |live| {
                Ok(absent_side(live, now).map(|absent| {
                    Change::Finish(Status::Finished {
                        outcome: emergo_core::Outcome::Win(absent.other()),
                        reason: EndReason::Absent,
                    })
                }))
            })
            .await;
        if let Ok(live) = acted {
            ended |= matches!(
                live.game.status(),
                Status::Finished {
                    reason: EndReason::Absent,
                    ..
                }
            );
        }
    }
    ended
}

/// Whether a game was lost by an absence: as `absent` (a real-time game's first move not made
/// within [`ABSENT_MS`]), or on time before the loser's first move (a correspondence game's
/// set time is its clock's days a move).
fn absence(g: &TournamentGameRow) -> bool {
    let reason = g.reason.as_deref();
    reason == Some(EndReason::Absent.name())
        || (reason == Some(EndReason::Time.name()) && g.ply < 2)
}

/// The side of a real-time game that has let [`ABSENT_MS`] pass without its first move.
fn absent_side(live: &LiveGame, now_ms: i64) -> Option<Color> {
    let clock = live.meta.clock?;
    if live.game.is_over() || live.game.ply() >= 2 || clock.control.per_move().is_some() {
        return None;
    }
    let started = clock.turn_started?;
    (now_ms - started > ABSENT_MS).then(|| live.game.turn())
}

/// A game made for a pairing, before it is stored.
type MadeGame = (GameMeta, AnyGame, Pairing);

/// The store's rows of made games.
fn round_games(made: &[MadeGame]) -> Vec<RoundGame<'_>> {
    made.iter()
        .map(|(meta, game, p)| RoundGame {
            meta,
            game,
            white_id: p.white,
            black_id: p.black,
        })
        .collect()
}

/// An entrant's name (`None` once the account is deleted).
fn name_in(entrants: &[EntrantRow], id: i64) -> Option<String> {
    entrants
        .iter()
        .find(|e| e.account_id == id)
        .and_then(|e| e.name.clone())
}

/// The second games of a round's mini-matches: for each pairing with one game played, the
/// same two with colours swapped; none for a pairing with a withdrawn player.
fn second_games(round: &[&TournamentGameRow], entrants: &[EntrantRow]) -> Vec<Pairing> {
    let withdrawn = |id: i64| {
        entrants
            .iter()
            .any(|e| e.account_id == id && e.withdrawn_at.is_some())
    };
    round
        .iter()
        .filter(|g| g.result.is_some())
        .filter(|g| {
            !round
                .iter()
                .any(|h| h.white_id == g.black_id && h.black_id == g.white_id)
        })
        .filter(|g| !withdrawn(g.white_id) && !withdrawn(g.black_id))
        .map(|g| Pairing {
            white: g.black_id,
            black: g.white_id,
        })
        .collect()
}

/// A stored game's outcome for White (`None` while it goes on, or aborted).
fn white_outcome(g: &TournamentGameRow) -> Option<Outcome> {
    if g.reason.as_deref() == Some("aborted") {
        return None;
    }
    match g.result.as_deref()? {
        "1-0" => Some(Outcome::Win),
        "0-1" => Some(Outcome::Loss),
        _ => Some(Outcome::Draw),
    }
}

/// Each active player as the Swiss pairing sees it.
fn swiss_players(
    active: &[&EntrantRow],
    played: &[TournamentGameRow],
    byes: &[emergo_platform::store::tournaments::ByeRow],
) -> Vec<swiss::SwissPlayer> {
    active
        .iter()
        .map(|e| {
            let me = e.account_id;
            let mut player = swiss::SwissPlayer {
                id: me,
                rating: rating_of(e),
                score: 0,
                opponents: Vec::new(),
                colours: Vec::new(),
                had_bye: byes.iter().any(|b| b.account_id == me),
            };
            player.score = byes
                .iter()
                .filter(|b| b.account_id == me)
                .map(|b| b.points as u32)
                .sum();
            // In a mini-match the first game's colour is the pairing's.
            let mut seen_rounds = Vec::new();
            for g in played
                .iter()
                .filter(|g| g.white_id == me || g.black_id == me)
            {
                let white = g.white_id == me;
                let them = if white { g.black_id } else { g.white_id };
                if let Some(o) = white_outcome(g) {
                    player.score += if white { o } else { o.other() }.points();
                }
                if !seen_rounds.contains(&g.round) {
                    seen_rounds.push(g.round);
                    player.colours.push(white);
                    player.opponents.push(them);
                }
            }
            player
        })
        .collect()
}

/// The standings: points (byes and forfeits included), then the format's tie-break, then the
/// seed. A round robin's player who withdrew before playing half its games counts for nobody.
fn standings(
    t: &TournamentRow,
    entrants: &[EntrantRow],
    games: &[TournamentGameRow],
    byes: &[(i64, i64)],
) -> Vec<Standing> {
    let n = entrants.len();
    let per_player = if n.is_multiple_of(2) {
        n.saturating_sub(1)
    } else {
        n
    } * t.games_per_pairing as usize;
    let removed: Vec<i64> = if t.format == "roundrobin" {
        entrants
            .iter()
            .filter(|e| e.withdrawn_at.is_some())
            .filter(|e| {
                let played = games
                    .iter()
                    .filter(|g| {
                        g.result.is_some()
                            && (g.white_id == e.account_id || g.black_id == e.account_id)
                    })
                    .count();
                round_robin::withdrawal(played, per_player)
                    == round_robin::Withdrawal::ResultsRemoved
            })
            .map(|e| e.account_id)
            .collect()
    } else {
        Vec::new()
    };
    let counted: Vec<&TournamentGameRow> = games
        .iter()
        .filter(|g| !removed.contains(&g.white_id) && !removed.contains(&g.black_id))
        .collect();
    let mut score: HashMap<i64, u32> = HashMap::new();
    let mut played: Vec<swiss::Played> = Vec::new();
    let mut arena_games: HashMap<i64, Vec<arena::ArenaGame>> = HashMap::new();
    for g in &counted {
        let Some(o) = white_outcome(g) else { continue };
        for (me, them, mine, berserk) in [
            (g.white_id, g.black_id, o, g.white_berserk),
            (g.black_id, g.white_id, o.other(), g.black_berserk),
        ] {
            played.push(swiss::Played {
                player: me,
                opponent: them,
                outcome: mine,
            });
            arena_games.entry(me).or_default().push(arena::ArenaGame {
                outcome: mine,
                plies: g.ply as u32,
                berserk,
            });
            *score.entry(me).or_default() += mine.points();
        }
    }
    let mut fire: HashMap<i64, bool> = HashMap::new();
    if t.format == "arena" {
        score.clear();
        for (me, list) in &arena_games {
            let s = arena::score(list);
            score.insert(*me, s.total);
            fire.insert(*me, s.on_fire);
        }
    }
    for (account, points) in byes {
        *score.entry(*account).or_default() += *points as u32;
    }
    let tb = swiss::tie_breaks(&played, &score);
    let mut lines: Vec<(u32, u32, i64, Standing)> = entrants
        .iter()
        .filter(|e| !removed.contains(&e.account_id))
        .map(|e| {
            let me = e.account_id;
            let s = score.get(&me).copied().unwrap_or(0);
            let (buchholz, sb) = tb.get(&me).copied().unwrap_or((0, 0));
            let games_played = played.iter().filter(|p| p.player == me).count();
            let tiebreak = match t.format.as_str() {
                "swiss" => buchholz,
                "roundrobin" => sb,
                _ => games_played as u32,
            };
            let second = if t.format == "swiss" { sb } else { 0 };
            (
                s,
                tiebreak * 100_000 + second,
                e.seed,
                Standing {
                    account: me,
                    rank: 0,
                    name: e.name.clone(),
                    score: s,
                    tiebreak,
                    games: games_played,
                    withdrawn: e.withdrawn_at.is_some(),
                    paused: e.withdrawn_at.is_none() && e.paused_at.is_some(),
                    on_fire: fire.get(&me).copied().unwrap_or(false),
                },
            )
        })
        .collect();
    lines.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(&b.2)));
    lines
        .into_iter()
        .enumerate()
        .map(|(i, (_, _, _, mut s))| {
            s.rank = i + 1;
            s
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ended(reason: &str, ply: i64) -> TournamentGameRow {
        TournamentGameRow {
            game_id: "g".to_string(),
            round: 1,
            white_id: 1,
            black_id: 2,
            result: Some("0-1".to_string()),
            reason: Some(reason.to_string()),
            ply,
            white_berserk: false,
            black_berserk: false,
            updated_at: String::new(),
        }
    }

    #[test]
    fn an_absence_is_a_loss_as_absent_or_on_time_before_the_losers_first_move() {
        assert!(absence(&ended("absent", 0)));
        // A correspondence game's clock ran out before White's (ply 0) or Black's (ply 1)
        // first move.
        assert!(absence(&ended("time", 0)));
        assert!(absence(&ended("time", 1)));
        // On time after moving, or resigned at once: present, and beaten.
        assert!(!absence(&ended("time", 2)));
        assert!(!absence(&ended("resignation", 0)));
    }
}
