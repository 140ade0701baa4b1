//! The services: what the platform does, each behind a type of its own (games,
//! accounts, lobby, study, notifications; the engine's pool is the emergo-worker crate). A service returns its own errors; the HTTP layer
//! maps them to answers.

pub mod accounts;
pub mod error;
pub mod games;
pub mod lobby;
pub mod notify;
pub mod permits;
pub mod study;
