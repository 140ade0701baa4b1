//! Every test of social.rs again, on PostgreSQL (a new database per test on the server that
//! `EMERGO_TEST_PG_URL` names; without it, on SQLite).

#[path = "social.rs"]
mod social;
