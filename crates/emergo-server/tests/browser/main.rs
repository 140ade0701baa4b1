//! The browser tests, one test binary (`cargo test --workspace --test browser`): the page in
//! headless Chromium through chromedriver, the server in-process on SQLite. The rig (`rig`)
//! starts them; [`rig::ONE_AT_A_TIME`] runs one test's browsers at a time. What a person sees is
//! checked: computed styles, positions, screenshot pixels.

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
