//! The opening explorer's handler (docs/api.md, "Opening explorer").

use crate::services::error::ServiceError;
use crate::services::explorer::{Explorer, ExplorerQuery, ExplorerView};
use axum::extract::{Query, State};
use axum::Json;

/// `GET /api/explorer?variant=<board>&position=<N2>&ply=<n>&source=…&speed=…&ratings=…`.
pub async fn position(
    State(explorer): State<Explorer>,
    Query(query): Query<ExplorerQuery>,
) -> Result<Json<ExplorerView>, ServiceError> {
    explorer.position(&query).await.map(Json)
}
