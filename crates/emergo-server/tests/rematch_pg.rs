//! Every test of rematch.rs again, on PostgreSQL (a new database per test on the server that
//! `EMERGO_TEST_PG_URL` names; without it, on SQLite): there the two instances of the race share
//! their changes through the fanout.

#[path = "rematch.rs"]
mod rematch;
