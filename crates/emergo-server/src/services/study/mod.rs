//! Study: the analysis board's engine analysis, the review of finished games, the editor's
//! and the position page's questions to the core.

pub mod analysis;
pub mod position;
pub mod review;
