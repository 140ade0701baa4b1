//! Every test of study_api.rs again, on PostgreSQL (see api_pg.rs).

#[path = "study_api.rs"]
mod study_api;
