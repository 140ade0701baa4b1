//! The platform's own types and rules, beside the game's (emergo-core): clocks and time
//! controls, ratings, endings, what a stored game is made of, the server's limits. No I/O:
//! nothing here knows a database, a socket or HTTP.

pub mod clock;
pub mod course;
pub mod ending;
pub mod explorer;
pub mod limits;
pub mod metrics;
pub mod model;
pub mod puzzle;
pub mod rating;
pub mod time_control;
pub mod token;
pub mod tournament;
