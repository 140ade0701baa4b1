//! Every test of people_api.rs again, on PostgreSQL (a new database per test on the server that
//! `EMERGO_TEST_PG_URL` names; without it, on SQLite).

#[path = "people_api.rs"]
mod people_api;
