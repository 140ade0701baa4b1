//! Every test of clocks.rs again, on PostgreSQL (see api_pg.rs).

#[path = "clocks.rs"]
mod clocks;
