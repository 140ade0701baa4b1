//! emergo-cli's integration tests, one test binary (`cargo test --workspace --test cli`): the
//! built `emergo` driven as scripts, people and other programs drive it.
//!
//! `cluster` (real `emergo serve` and `emergo worker` processes over PostgreSQL) runs only with
//! `EMERGO_TEST_BACKEND=postgres` under scripts/pg-test-cluster.sh:
//!
//! ```text
//! scripts/pg-test-cluster.sh env EMERGO_TEST_BACKEND=postgres cargo test --workspace --test cli cluster
//! ```

mod common;

mod book;
mod bot;
mod cli_rules;
mod cluster;
mod engine_variants;
mod explorer;
mod match_play;
mod serve_kill;
mod ugi;
mod variants;
