//! The HTTP layer: the router and its extractors, the documented JSON errors, the handlers per
//! area, the WebSockets, the typed response views, and the edge (limits, origins, proxies, the
//! accept loop). It speaks to the services, never to the store behind them.

pub mod accounts;
pub mod analysis;
pub mod assets;
pub mod bot;
pub mod edge;
pub mod editor;
pub mod error;
pub mod explorer;
pub mod extract;
pub mod games;
pub mod learn;
pub mod lobby;
pub mod lobby_ws;
pub mod net;
pub mod notify;
pub mod ops;
pub mod players;
pub mod position;
pub mod puzzles;
pub mod review;
pub mod router;
pub mod session;
pub mod state;
pub mod tournaments;
pub mod ws;
