//! The services: what the platform does, each behind a type of its own (games,
//! accounts, lobby, study, notifications; the engine's pool is the emergo-worker crate). A service returns its own errors; the HTTP layer
//! maps them to answers.

pub mod accounts;
pub mod bots;
pub mod error;
pub mod explorer;
pub mod fanout;
pub mod games;
pub mod learn;
pub mod lobby;
pub mod notify;
pub mod permits;
pub mod puzzles;
pub mod study;
pub mod tournaments;

use std::sync::Arc;

/// Every service side by side: what the composition root (`Server::start`) builds and hands
/// to the HTTP layer. The services do not hold each other through it: each is given what it
/// uses when it is built or called.
#[derive(Clone)]
pub struct Services {
    /// The games: the live cache, acting on a game, its engine jobs, flags, chat, spectators.
    pub games: games::AppState,
    /// Accounts: login limits, the cookie's flags, the password hashing.
    pub accounts: Arc<accounts::Accounts>,
    /// Seeks and challenges: the rate of new ones, the lobby sockets' channel.
    pub lobby: Arc<lobby::Lobby>,
    /// Notifications: stored, and pushed to the accounts' sockets here and elsewhere.
    pub notify: notify::Notify,
    /// Game reviews running now and queued.
    pub reviews: Arc<study::review::Reviews>,
    /// The analysis board's running analyses, one per client.
    pub analyses: Arc<study::analysis::Analyses>,
    /// The opening explorer: its statistics, kept as games finish.
    pub explorer: explorer::Explorer,
    /// The rules course (checked against the core when the server starts) and the players'
    /// progress in it.
    pub learn: Arc<learn::Learn>,
    /// Puzzles: the set, the next one for a caller, rated attempts.
    pub puzzles: Arc<puzzles::Puzzles>,
    /// Bot accounts: the API's streams and their tokens' revocations.
    pub bots: Arc<bots::Bots>,
    /// Tournaments: made, joined, and run round by round (`tick`).
    pub tournaments: Arc<tournaments::Tournaments>,
}
