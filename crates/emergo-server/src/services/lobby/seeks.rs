//! What the lobby does with seeks and challenges: making one (its rate, the caps, the
//! challenged player told), listing them for a viewer, withdrawing one, and accepting one (the
//! game stored and the seek marked taken at once; the owner told). The HTTP layer reads the
//! request and shows the answer.

use super::{
    time_control, Lobby, LobbyEvent, SeekColor, SeekView, BOT_GAMES_PER_DAY,
    CHALLENGES_PER_ACCOUNT, CORRESPONDENCE_SEEK_SECS, LISTED_CHALLENGES, LISTED_SEEKS,
    SEEKS_PER_ACCOUNT, SEEK_GRACE_SECS,
};
use crate::services::accounts::name_key;
use crate::services::error::{echo, ServiceError};
use crate::services::games::view::{GameView, SeatGrant};
use crate::services::games::{AppState, LiveGame};
use crate::services::notify::Notify;
use emergo_core::{AnyGame, ByColor, Color};
use emergo_platform::domain::clock::GameClock;
use emergo_platform::domain::model::{
    hash_secret, new_game_id, new_token, now_text, random_bit, random_text, unix_now, GameMeta,
    Mode, PlayerRef, Players, Seat, SeatKind,
};
use emergo_platform::domain::time_control::TimeControl;
use emergo_platform::store::accounts::{AccountRow, NewSeek, SeekRow};
use emergo_platform::store::notifications::NewNote;
use emergo_platform::store::StoreError;
use serde::Serialize;
use std::net::IpAddr;

/// A seek as its owner asks for it.
pub struct SeekRequest<'a> {
    /// The time control's text: `"3+2"`, `"corr:3"`.
    pub time: &'a str,
    pub rated: bool,
    pub color: Option<SeekColor>,
    /// A challenge: the name of the only account that may accept.
    pub opponent: Option<&'a str>,
    /// The board: `emergo`, `7x7` or `hex`; none for `emergo`.
    pub variant: Option<&'a str>,
    /// Whether bot accounts may take a public seek (issue 24; people only by default).
    pub allow_bots: bool,
}

/// The answer of `GET /api/seeks`.
#[derive(Debug, Serialize)]
pub struct SeekList {
    seeks: Vec<SeekView>,
    challenges: Vec<SeekView>,
}

impl Lobby {
    /// `POST /api/seeks`: the seek `request` of `account`, made from `client`.
    pub async fn create(
        &self,
        notes: &Notify,
        client: IpAddr,
        account: &AccountRow,
        request: SeekRequest<'_>,
    ) -> Result<SeekView, ServiceError> {
        let tc = time_control(request.time)?;
        let variant = crate::services::study::position::variant_of(request.variant)?;
        if let Err(wait) = self.seeks_rate.check_key(&account.id) {
            return Err(ServiceError::rate_limited_until(
                "seeks_rate",
                "this account makes seeks too fast",
                &wait,
            ));
        }
        let opponent_id = match request.opponent {
            None => None,
            Some(name) => {
                let opponent = if name.len() <= 20 {
                    self.store.account_by_key(&name_key(name)).await?
                } else {
                    None
                };
                let opponent = opponent.ok_or_else(|| {
                    ServiceError::NotFound(format!("there is no player {}", echo(name)))
                })?;
                if opponent.id == account.id {
                    return Err(ServiceError::BadRequest(
                        "a challenge is to another player".to_string(),
                    ));
                }
                Some(opponent.id)
            }
        };
        let now = unix_now();
        let expires_at = match tc {
            TimeControl::RealTime { .. } => now + SEEK_GRACE_SECS,
            TimeControl::Correspondence { .. } => now + CORRESPONDENCE_SEEK_SECS,
        };
        let seek = NewSeek {
            id: random_text(10),
            account_id: account.id,
            time_control: tc.to_string(),
            rated: request.rated,
            color: request
                .color
                .unwrap_or(SeekColor::Random)
                .name()
                .to_string(),
            opponent_id,
            created_at: now_text(),
            expires_at: Some(expires_at),
            client: Some(client.to_string()),
            variant,
            allow_bots: request.allow_bots,
        };
        let (cap, what) = match opponent_id {
            None => (SEEKS_PER_ACCOUNT, "seeks"),
            Some(_) => (CHALLENGES_PER_ACCOUNT, "challenges"),
        };
        if !self.store.insert_seek(&seek, now, cap).await? {
            return Err(ServiceError::NotAllowed(format!(
                "this account has {cap} open {what} already, the most it may have: \
                 withdraw one first"
            )));
        }
        self.changed();
        if let Some(opponent) = opponent_id {
            notes
                .notify(NewNote {
                    account_id: opponent,
                    kind: "challenge",
                    game_id: None,
                    seek_id: Some(&seek.id),
                    other: Some(&account.name),
                    time_control: Some(&seek.time_control),
                    outcome: None,
                    reason: None,
                    created_at: &seek.created_at,
                })
                .await;
        }
        let row = self
            .store
            .seek(&seek.id)
            .await?
            .ok_or_else(|| ServiceError::internal("a stored seek is missing"))?;
        Ok(self.seek_view(&row).await)
    }

    /// `GET /api/seeks` for `viewer` (an account, or nobody): `"seeks"`, the newest open
    /// public seeks and the viewer's own, oldest first; `"challenges"`, the open challenges to
    /// or from the viewer, oldest first. The viewer's seeks are kept alive.
    pub async fn list(&self, viewer: Option<i64>) -> Result<SeekList, ServiceError> {
        let now = unix_now();
        let mut public = self.store.open_seeks(now, LISTED_SEEKS).await?;
        let mut challenges = Vec::new();
        if let Some(id) = viewer {
            self.owner_is_around(id).await;
            for row in self.store.seeks_of(now, id, LISTED_CHALLENGES).await? {
                if row.opponent_id.is_some() {
                    challenges.push(row);
                } else if !public.iter().any(|p| p.id == row.id) {
                    public.push(row);
                }
            }
        }
        let oldest_first = |rows: &mut Vec<SeekRow>| {
            rows.sort_by(|a, b| (&a.created_at, &a.id).cmp(&(&b.created_at, &b.id)));
        };
        oldest_first(&mut public);
        oldest_first(&mut challenges);
        Ok(SeekList {
            seeks: self.seek_views(&public).await,
            challenges: self.seek_views(&challenges).await,
        })
    }

    /// `GET /api/seeks/{id}` for `viewer`: `"game"` names the game once the seek is taken; the
    /// owner's looking keeps its seeks alive.
    pub async fn show(&self, viewer: Option<i64>, id: &str) -> Result<SeekView, ServiceError> {
        let row = self.find(id).await?;
        if viewer == Some(row.account_id) {
            self.owner_is_around(row.account_id).await;
        }
        Ok(self.seek_view(&row).await)
    }

    /// `DELETE /api/seeks/{id}`: the owner `account` withdraws it (or the challenged player
    /// declines).
    pub async fn withdraw(&self, account: i64, id: &str) -> Result<(), ServiceError> {
        let row = self.find(id).await?;
        if row.game_id.is_some() {
            return Err(ServiceError::SeekTaken(
                "this seek was taken already".to_string(),
            ));
        }
        if !self.store.delete_seek(id, account).await? {
            return Err(ServiceError::NotAllowed(
                "only the seek's owner (or the challenged player) can remove it".to_string(),
            ));
        }
        self.changed();
        Ok(())
    }

    /// `POST /api/seeks/{id}/accept` by `me` from `client`: the new game (stored with the seek
    /// marked taken, in one transaction that lets one acceptance through), with `me`'s seat.
    pub async fn accept(
        &self,
        games: &AppState,
        notes: &Notify,
        client: IpAddr,
        me: &AccountRow,
        id: &str,
    ) -> Result<SeatGrant, ServiceError> {
        let row = self.find(id).await?;
        if row.game_id.is_some() {
            return Err(ServiceError::SeekTaken(
                "this seek was taken already".to_string(),
            ));
        }
        if row.account_id == me.id {
            return Err(ServiceError::NotAllowed(
                "a seek is accepted by another player".to_string(),
            ));
        }
        if row.opponent_id.is_some_and(|o| o != me.id) {
            return Err(ServiceError::NotAllowed(
                "this challenge is to another player".to_string(),
            ));
        }
        if me.bot && row.opponent_id.is_none() && !row.allow_bots {
            return Err(ServiceError::NotAllowed(
                "this seek is for people: a bot takes a seek only when its owner allows bots"
                    .to_string(),
            ));
        }
        if me.bot && row.owner_bot {
            let since = emergo_platform::domain::model::format_unix_time(unix_now() - 86_400);
            if self.store.bot_games_since(me.id, &since).await? >= BOT_GAMES_PER_DAY {
                return Err(ServiceError::NotAllowed(format!(
                    "this bot has begun {BOT_GAMES_PER_DAY} games against bots in the last 24 \
                     hours, the most it may: it plays people meanwhile"
                )));
            }
        }
        let tc = time_control(&row.time_control)?;
        let owner_color = match row.color.as_str() {
            "white" => Color::White,
            "black" => Color::Black,
            _ if random_bit() => Color::White,
            _ => Color::Black,
        };
        let mine = owner_color.other();
        let token = new_token();
        let mut seats = ByColor::splat(Seat {
            kind: SeatKind::Human,
            // The owner acts by its session; a token for its seat comes from
            // `POST /api/games/{id}/seat`.
            token_hash: Some(hash_secret(&new_token())),
        });
        seats[mine].token_hash = Some(hash_secret(&token));
        let owner = PlayerRef {
            id: row.account_id,
            name: Some(row.owner.clone()),
            bot: row.owner_bot,
        };
        let acceptor = PlayerRef {
            id: me.id,
            name: Some(me.name.clone()),
            bot: me.bot,
        };
        let (white, black) = match owner_color {
            Color::White => (owner, acceptor),
            Color::Black => (acceptor, owner),
        };
        // Both seats are taken: the game, and White's clock, start now.
        let mut clock = GameClock::new(tc);
        clock.start(games.clock.now_ms());
        let mut meta = GameMeta::new(new_game_id(), Mode::Human, seats, now_text());
        meta.players = Players {
            white: Some(white),
            black: Some(black),
            rated: row.rated.then(|| tc.category()),
        };
        meta.clock = Some(clock);
        let variant = row
            .variant
            .parse::<emergo_core::VariantKind>()
            .map_err(|e| ServiceError::internal(format!("seek {id}: {e}")))?;
        meta.variant = variant;
        let game = AnyGame::start(variant);
        // Both players from one address: a rated game counts within that address's limit.
        let client = client.to_string();
        let shared =
            (row.rated && row.client.as_deref() == Some(client.as_str())).then_some(&*client);
        match self
            .store
            .accept_seek(id, me.id, unix_now(), &meta, &game, shared)
            .await
        {
            Ok(()) => {}
            Err(StoreError::Conflict(_)) => {
                return Err(ServiceError::SeekTaken(
                    "this seek was taken, withdrawn or has expired".to_string(),
                ))
            }
            Err(err) => return Err(err.into()),
        }
        let game_id = meta.id.clone();
        let slot = games.insert(LiveGame::new(meta, game));
        // The seek's owner hears of its game on any page (issue 18).
        notes
            .notify(NewNote {
                account_id: row.account_id,
                kind: "started",
                game_id: Some(&game_id),
                seek_id: Some(id),
                other: Some(&me.name),
                time_control: Some(&row.time_control),
                outcome: None,
                reason: None,
                created_at: &now_text(),
            })
            .await;
        let live = slot.state.lock().await;
        let _ = self.events.send(LobbyEvent::Taken {
            account: row.account_id,
            seek: id.to_string(),
            game: live.meta.id.clone(),
        });
        self.changed();
        Ok(SeatGrant {
            game: GameView::of(&live),
            seat: mine.name(),
            token,
            invite: None,
        })
    }

    /// The seeks of `account` taken since `since` (unix seconds), with their games: a lobby
    /// WebSocket asks, for the seeks another instance saw taken.
    pub async fn taken_since(
        &self,
        account: i64,
        since: i64,
    ) -> Result<Vec<(String, String)>, ServiceError> {
        Ok(self.store.taken_seeks(account, since).await?)
    }
}
