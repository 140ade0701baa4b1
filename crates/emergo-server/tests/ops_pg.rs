//! Every test of ops.rs again on PostgreSQL, where `/metrics` also shows the engine job
//! table's figures.

#[path = "ops.rs"]
mod ops;
