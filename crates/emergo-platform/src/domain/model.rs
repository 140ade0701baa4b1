//! What a stored game is made of: its mode, its seats, its metadata; random ids and secrets;
//! timestamps.

use emergo_core::{AnyGame, ByColor, Color, VariantKind};
use emergo_engine::Level;
use sha2::{Digest, Sha256};
use std::time::{SystemTime, UNIX_EPOCH};

/// Who made the game and how it is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A person against the engine.
    Engine,
    /// Two people, the second joining by invitation.
    Human,
    /// A game record brought in for replay; nobody holds a seat.
    Imported,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Engine => "engine",
            Mode::Human => "human",
            Mode::Imported => "imported",
        }
    }

    pub fn from_name(name: &str) -> Option<Mode> {
        [Mode::Engine, Mode::Human, Mode::Imported]
            .into_iter()
            .find(|m| m.name() == name)
    }
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    Human,
    Engine,
}

impl SeatKind {
    pub fn name(self) -> &'static str {
        match self {
            SeatKind::Human => "human",
            SeatKind::Engine => "engine",
        }
    }

    pub fn from_name(name: &str) -> Option<SeatKind> {
        match name {
            "human" => Some(SeatKind::Human),
            "engine" => Some(SeatKind::Engine),
            _ => None,
        }
    }
}

/// One side of a game: who plays it and, for a person, the hash of the seat's token once the
/// seat is taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub kind: SeatKind,
    pub token_hash: Option<String>,
}

impl Seat {
    /// A person's seat that nobody has taken yet.
    pub fn vacant() -> Seat {
        Seat {
            kind: SeatKind::Human,
            token_hash: None,
        }
    }

    /// Whether someone sits there: the engine always does, a person once the seat is taken.
    pub fn joined(&self) -> bool {
        self.kind == SeatKind::Engine || self.token_hash.is_some()
    }
}

/// A game's metadata, everything but its moves.
#[derive(Clone, Debug)]
pub struct GameMeta {
    pub id: String,
    pub mode: Mode,
    /// The engine's level, in engine games.
    pub level: Option<Level>,
    /// Indexed by `Color::index()`.
    pub seats: ByColor<Seat>,
    /// The hash of the invitation code, in games between people.
    pub invite_hash: Option<String>,
    /// Tag pairs written into the exported record (those of an imported record).
    pub tags: Vec<(String, String)>,
    /// Who offers a draw now.
    pub draw_offer: Option<Color>,
    /// A takeback request between people (issue 18): who asks now, who was refused.
    pub takeback: Takeback,
    /// A rematch of the finished game: offered, and made.
    pub rematch: Rematch,
    /// The accounts that hold the seats, and the rating category (games between accounts).
    pub players: Players,
    /// A timed game's clock (`None`: untimed).
    pub clock: Option<crate::domain::clock::GameClock>,
    /// The board the game is played on (Emergo's 9x9 unless made otherwise).
    pub variant: VariantKind,
    /// The tournament whose pairing this game is (issue 23), if any.
    pub tournament: Option<TournamentMark>,
    pub created_at: String,
    pub updated_at: String,
}

/// A takeback request in a game between people (docs/api.md, "Takebacks between people"): one
/// pending at a time; a side refused asks again only after the next move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Takeback {
    /// Who asks now.
    pub offer: Option<Color>,
    /// Who was refused since the last move.
    pub declined: Option<Color>,
}

/// A rematch between the seat holders of a finished game between people (src/services/games/rematch.rs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rematch {
    /// Who offers it now (it stays set once accepted: the offerer is the one who joins).
    pub offer: Option<Color>,
    /// The new game, once the other side accepted.
    pub game: Option<String>,
}

/// An account holding a seat, as a game knows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRef {
    pub id: i64,
    /// `None` once the account is deleted (shown as "deleted player").
    pub name: Option<String>,
    /// A bot account (issue 24), marked BOT wherever its name is shown.
    pub bot: bool,
}

/// The tournament a game was paired by (issue 23): its id, whether it is an arena (where a
/// player may go berserk), and who went berserk in this game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TournamentMark {
    pub id: String,
    pub arena: bool,
    pub berserk: ByColor<bool>,
}

impl TournamentMark {
    /// Why `color` may not go berserk in `game` now (`None`: it may): only in an arena, once,
    /// before its first move, while the game goes on. The berserk service and the game view's
    /// `can_berserk` both ask this.
    pub fn berserk_refusal(&self, game: &AnyGame, color: Color) -> Option<&'static str> {
        if !self.arena {
            Some("berserk is for the games of an arena")
        } else if self.berserk[color] {
            Some("you went berserk in this game already")
        } else if game.is_over() {
            Some("the game is over")
        } else if game.last_move_of(color).is_some() {
            Some("berserk is only before your first move")
        } else {
            None
        }
    }
}

/// The accounts of a game's seats (none in anonymous games) and whether the game is rated,
/// in which category.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Players {
    pub white: Option<PlayerRef>,
    pub black: Option<PlayerRef>,
    pub rated: Option<crate::domain::time_control::Category>,
}

impl Players {
    /// The account of `color`'s seat.
    pub fn of(&self, color: Color) -> Option<&PlayerRef> {
        match color {
            Color::White => self.white.as_ref(),
            Color::Black => self.black.as_ref(),
        }
    }

    /// The seat held by the account `id`.
    pub fn seat_of(&self, id: i64) -> Option<Color> {
        Color::ALL
            .into_iter()
            .find(|&c| self.of(c).is_some_and(|p| p.id == id))
    }
}

impl GameMeta {
    /// A new game `id` of `mode` with `seats`, made `now`: no level, invitation, tags, offers,
    /// accounts or clock yet (each set by the caller that has one).
    pub fn new(id: String, mode: Mode, seats: ByColor<Seat>, now: String) -> GameMeta {
        GameMeta {
            id,
            mode,
            level: None,
            seats,
            invite_hash: None,
            tags: Vec::new(),
            draw_offer: None,
            takeback: Takeback::default(),
            rematch: Rematch::default(),
            players: Players::default(),
            clock: None,
            variant: VariantKind::Emergo,
            tournament: None,
            created_at: now.clone(),
            updated_at: now,
        }
    }

    /// The seat whose token hashes to `token`'s hash.
    pub fn seat_of(&self, token: &str) -> Option<Color> {
        let hash = hash_secret(token);
        Color::ALL
            .into_iter()
            .find(|&c| self.seats[c].token_hash.as_deref() == Some(hash.as_str()))
    }

    /// Whether the engine is to move in `game`, this game's moves.
    pub fn engine_to_move(&self, game: &AnyGame) -> bool {
        self.mode == Mode::Engine
            && !game.is_over()
            && self.seats[game.turn()].kind == SeatKind::Engine
    }
}

const ALPHABET: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// `len` random characters from `[0-9A-Za-z]`, from the operating system's generator.
pub fn random_text(len: usize) -> String {
    let mut out = String::with_capacity(len);
    let mut buf = [0u8; 64];
    while out.len() < len {
        if getrandom::fill(&mut buf).is_err() {
            // No randomness from the OS: fall back on the clock and a counter, never panic.
            let nanos = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .unwrap_or_default()
                .as_nanos();
            let digest = Sha256::digest(format!("{nanos}:{}", out.len()));
            buf[..32].copy_from_slice(&digest);
            buf[32..].copy_from_slice(&digest);
        }
        for &b in &buf {
            // 248 = 4 * 62: reject the top bytes so every character is equally likely.
            if b < 248 && out.len() < len {
                out.push(ALPHABET[(b % 62) as usize] as char);
            }
        }
    }
    out
}

/// A fair coin.
pub fn random_bit() -> bool {
    // 62 characters, 31 of them with an even code: as fair as the text itself.
    random_text(1)
        .as_bytes()
        .first()
        .is_some_and(|b| b % 2 == 0)
}

/// A new game id: 8 URL-safe characters.
pub fn new_game_id() -> String {
    random_text(8)
}

/// A new seat token (about 130 bits).
pub fn new_token() -> String {
    random_text(22)
}

/// A new invitation code (about 71 bits).
pub fn new_invite() -> String {
    random_text(12)
}

/// The SHA-256 of a secret, in hex: what the database keeps instead of the secret.
pub fn hash_secret(secret: &str) -> String {
    let digest = Sha256::digest(secret.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Seconds since 1970 of an RFC 3339 time (`None` when unreadable).
pub fn unix_of(text: &str) -> Option<i64> {
    time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)
        .ok()
        .map(|t| t.unix_timestamp())
}

/// Seconds since 1970, now.
pub fn unix_now() -> i64 {
    time::OffsetDateTime::now_utc().unix_timestamp()
}

/// The time now as RFC 3339 UTC to the second, e.g. `2026-11-30T10:00:00Z`.
pub fn now_text() -> String {
    format_time(time::OffsetDateTime::now_utc())
}

/// Seconds since 1970 as RFC 3339 UTC (times out of `time`'s range: the epoch).
pub fn format_unix_time(secs: i64) -> String {
    format_time(
        time::OffsetDateTime::from_unix_timestamp(secs).unwrap_or(time::OffsetDateTime::UNIX_EPOCH),
    )
}

fn format_time(t: time::OffsetDateTime) -> String {
    const SECONDS: &[time::format_description::BorrowedFormatItem<'_>] =
        time::macros::format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z");
    t.format(SECONDS)
        .unwrap_or_else(|_| "1970-01-01T00:00:00Z".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_times_format_as_rfc3339() {
        assert_eq!(format_unix_time(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_unix_time(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(format_unix_time(1_796_032_861), "2026-11-30T10:01:01Z");
        assert_eq!(format_unix_time(4_107_542_399), "2100-02-28T23:59:59Z");
    }

    #[test]
    fn random_text_has_the_length_and_alphabet_asked_for() {
        let a = random_text(22);
        assert_eq!(a.len(), 22);
        assert!(a.bytes().all(|b| b.is_ascii_alphanumeric()));
        assert_ne!(a, random_text(22));
    }

    #[test]
    fn a_seat_is_found_by_its_token_and_by_nothing_else() {
        let mut meta = GameMeta::new(
            "x".into(),
            Mode::Human,
            ByColor::splat(Seat::vacant()),
            String::new(),
        );
        meta.seats[Color::White].token_hash = Some(hash_secret("w"));
        assert_eq!(meta.seat_of("w"), Some(Color::White));
        assert_eq!(meta.seat_of("b"), None);
        assert_eq!(meta.seat_of(""), None);
    }
}
