//! A game's review: start one, show it (docs/api.md).

use crate::http::extract::GameId;
use crate::services::error::ServiceError;
use crate::services::games::AppState;
use crate::services::study::review::{
    done, launch, reviewable, stored, waiting, ReviewAnswer, Reviews, MAX_REVIEW_PLIES,
};
use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use emergo_platform::domain::limits::ClientAddr;
use std::sync::Arc;

/// `GET /api/games/{id}/review`.
pub async fn show(
    State(state): State<AppState>,
    State(reviews): State<Arc<Reviews>>,
    GameId(id): GameId,
) -> Result<Json<ReviewAnswer>, ServiceError> {
    let game = reviewable(&state, &id).await?;
    if let Some(place) = reviews.place(&id) {
        return Ok(Json(waiting(&place)));
    }
    match stored(&state, &id, &game).await? {
        Some(review) => Ok(Json(done(review))),
        // An expected state, not an error (issue 18 item 12): `"none"`, and POST starts one.
        None => Ok(Json(ReviewAnswer {
            status: "none",
            progress: 0.0,
            place: None,
            review: None,
        })),
    }
}

/// `POST /api/games/{id}/review`: 202 and the review's progress (or its place in the queue);
/// 200 with the review when it is done already.
pub async fn start(
    State(state): State<AppState>,
    State(reviews): State<Arc<Reviews>>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    GameId(id): GameId,
) -> Result<(StatusCode, Json<ReviewAnswer>), ServiceError> {
    let game = reviewable(&state, &id).await?;
    if game.ply() > MAX_REVIEW_PLIES {
        return Err(ServiceError::TooLarge {
            cap: "review_plies",
            message: format!("a review takes games of at most {MAX_REVIEW_PLIES} plies"),
        });
    }
    if let Some(place) = reviews.place(&id) {
        return Ok((StatusCode::ACCEPTED, Json(waiting(&place))));
    }
    if let Some(review) = stored(&state, &id, &game).await? {
        return Ok((StatusCode::OK, Json(done(review))));
    }
    let (place, begin) = reviews.ask(&id, client, &game)?;
    for next in begin {
        launch(state.clone(), reviews.clone(), next);
    }
    Ok((StatusCode::ACCEPTED, Json(waiting(&place))))
}
