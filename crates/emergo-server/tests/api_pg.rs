//! Every test of api.rs again, on PostgreSQL: each in a new database on the server that
//! `EMERGO_TEST_PG_URL` names (scripts/test.sh starts a private one through
//! scripts/pg-test-cluster.sh). Without it, they run on SQLite.

#[path = "api.rs"]
mod api;
