//! What each handler takes from the services (`State<AppState>`, `State<Arc<Accounts>>`, ...):
//! the router's state is every service ([`Services`]), and a handler names the ones it uses.

use crate::services::accounts::Accounts;
use crate::services::games::AppState;
use crate::services::lobby::Lobby;
use crate::services::notify::Notify;
use crate::services::study::analysis::Analyses;
use crate::services::study::review::Reviews;
use crate::services::Services;
use axum::extract::FromRef;
use std::sync::Arc;

impl FromRef<Services> for AppState {
    fn from_ref(services: &Services) -> AppState {
        services.games.clone()
    }
}

impl FromRef<Services> for Arc<Accounts> {
    fn from_ref(services: &Services) -> Arc<Accounts> {
        services.accounts.clone()
    }
}

impl FromRef<Services> for Arc<Lobby> {
    fn from_ref(services: &Services) -> Arc<Lobby> {
        services.lobby.clone()
    }
}

impl FromRef<Services> for Notify {
    fn from_ref(services: &Services) -> Notify {
        services.notify.clone()
    }
}

impl FromRef<Services> for Arc<Reviews> {
    fn from_ref(services: &Services) -> Arc<Reviews> {
        services.reviews.clone()
    }
}

impl FromRef<Services> for Arc<Analyses> {
    fn from_ref(services: &Services) -> Arc<Analyses> {
        services.analyses.clone()
    }
}

impl FromRef<Services> for crate::services::explorer::Explorer {
    fn from_ref(services: &Services) -> crate::services::explorer::Explorer {
        services.explorer.clone()
    }
}

impl FromRef<Services> for Arc<crate::services::learn::Learn> {
    fn from_ref(services: &Services) -> Arc<crate::services::learn::Learn> {
        services.learn.clone()
    }
}

impl FromRef<Services> for Arc<crate::services::puzzles::Puzzles> {
    fn from_ref(services: &Services) -> Arc<crate::services::puzzles::Puzzles> {
        services.puzzles.clone()
    }
}

impl FromRef<Services> for Arc<crate::services::tournaments::Tournaments> {
    fn from_ref(services: &Services) -> Arc<crate::services::tournaments::Tournaments> {
        services.tournaments.clone()
    }
}

impl FromRef<Services> for Arc<crate::services::bots::Bots> {
    fn from_ref(services: &Services) -> Arc<crate::services::bots::Bots> {
        services.bots.clone()
    }
}
