//! Every test of copy.rs again, with PostgreSQL as the database in the middle.

#[path = "copy.rs"]
mod copy;
