//! Every test of store.rs again, on PostgreSQL (see api_pg.rs).

#[path = "store.rs"]
mod store;
