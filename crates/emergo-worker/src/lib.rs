//! The engine's work for the site, below HTTP:
//!
//! - [`pool`]: a bounded, fair pool of search threads that every engine reply, hint and
//!   analysis runs on (never on the async runtime), with a time per move by level;
//! - [`worker`]: job workers over the PostgreSQL job table, run by `emergo worker` on any
//!   machine and by each `emergo serve` instance unless it is started with `--engine-threads 0`.
//!
//! Built on emergo-platform (the domain and the store); nothing here knows HTTP.

pub mod pool;
pub mod worker;
