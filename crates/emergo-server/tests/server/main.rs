//! The server's integration tests, one test binary (`cargo test --workspace --test server`):
//! each module a part of the API or the server, all on the harness of `common` (a
//! [`common::TestServer`] that owns its temporary database, signed-in clients, fixtures).
//!
//! The backend is `EMERGO_TEST_BACKEND`: `sqlite` (the default) or `postgres`, each test in a
//! new database on the PostgreSQL server `EMERGO_TEST_PG_URL` names (scripts/pg-test-cluster.sh
//! starts a private one). scripts/test.sh runs this binary once per backend:
//!
//! ```text
//! cargo test --workspace --test server
//! scripts/pg-test-cluster.sh env EMERGO_TEST_BACKEND=postgres cargo test --workspace --test server
//! ```
//!
//! Tests that mean something on one backend only return at once on the other, and say so
//! (`skip_unless`): several instances over one database and the job table (`instances`, `jobs`,
//! and the cross-instance tests of `notifications` and `social`) run on PostgreSQL; the edge
//! (`abuse`), the proxy configuration (`deploy`) and the SQLite file names of `store` on SQLite.

mod common;

mod abuse;
mod accounts;
mod analysis;
mod api;
mod bots;
mod clocks;
mod copy;
mod deploy;
mod explorer;
mod instances;
mod jobs;
mod learn;
mod newplayer_api;
mod notifications;
mod ops;
mod people_api;
mod puzzles;
mod rematch;
mod social;
mod store;
mod study_api;
mod tournaments;
mod variants;
mod views;
