//! Every test of accounts.rs again, on PostgreSQL (see api_pg.rs).

#[path = "accounts.rs"]
mod accounts;
