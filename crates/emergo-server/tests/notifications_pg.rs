//! Every test of notifications.rs again, on PostgreSQL (see api_pg.rs); with two instances, the
//! fan-out of notifications between them.

#[path = "notifications.rs"]
mod notifications;
