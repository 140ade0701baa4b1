//! The browser tests, one test binary (`cargo test --workspace --test browser`): the page in
//! headless Chromium through chromedriver, the server in-process on SQLite. The rig (`rig`)
//! starts them; each [`rig::Rig`] holds one of the browser seats (`EMERGO_BROWSERS`, default
//! one) from its start to its end. What a person sees is checked: computed styles, positions,
//! screenshot pixels.

mod rig;

mod accounts;
mod analysis;
mod explorer;
mod game;
mod learn;
mod newplayer;
mod notify;
mod page;
mod people;
mod puzzles;
mod social;
mod study;
mod tournaments;
mod variants;
