//! The services: what the platform does, each behind a type of its own (games, engine,
//! accounts, lobby, study, notifications). A service returns its own errors; the HTTP layer
//! maps them to answers.

pub mod accounts;
pub mod engine;
pub mod error;
pub mod games;
pub mod lobby;
pub mod notify;
pub mod permits;
pub mod signal;
pub mod study;
