//! The rules for a page that knows none (docs/api.md, "Positions"): the legal moves of any
//! position with the position each leads to, a record with variations written by the core, and
//! the boards' cells for drawing them. The analysis board uses them to let a person play any
//! line, on any of the three boards (`"variant"`: `emergo`, `7x7`, `hex`).

use crate::http::extract::Body;
use crate::services::error::{echo, ServiceError};
use crate::services::games::view::{BoardView, MoveView};
use crate::services::study::position::{variant_of, variants, VariantView};
use emergo_core::game::Game;
use emergo_core::position::Position;
use emergo_core::record::{GameRecord, RecordMove};
use emergo_core::{with_variant, Status, Variant};
use serde::{Deserialize, Serialize};

/// The most moves a tree sent for a record may hold, variations included.
pub const TREE_MOVES: usize = 2000;
/// The deepest nesting of variations in it.
pub const TREE_DEPTH: usize = 16;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionBody {
    position: String,
    /// `emergo` (absent), `7x7` or `hex`.
    #[serde(default)]
    variant: Option<String>,
}

/// A legal move with the position it leads to.
#[derive(Serialize)]
pub struct LegalMove {
    #[serde(flatten)]
    pub view: MoveView,
    /// N2 text of the position after the move.
    pub after: String,
}

/// A position as the page draws it, with what may be played from it.
#[derive(Serialize)]
pub struct PositionView {
    /// The board: `emergo`, `7x7` or `hex`.
    pub variant: &'static str,
    pub position: String,
    pub board: BoardView,
    /// `ongoing`, or how the game ended here (by the position alone: R10.1, R10.2).
    pub status: &'static str,
    /// `1-0`, `0-1`, `1/2-1/2` when it ended, else null.
    pub result: Option<&'static str>,
    pub legal_moves: Vec<LegalMove>,
}

fn parse_position<V: Variant>(text: &str) -> Result<Position<V>, ServiceError> {
    text.parse::<Position<V>>()
        .map_err(|e| ServiceError::BadRequest(format!("position {}: {e}", echo(text))))
}

fn moves_of<V: Variant>(text: &str) -> Result<PositionView, ServiceError> {
    let pos = parse_position::<V>(text)?;
    let game = Game::new(pos);
    let (status, result) = match game.status() {
        Status::Ongoing => ("ongoing", None),
        Status::Finished { outcome, reason } => (reason.name(), Some(outcome.token())),
    };
    let legal_moves = if game.is_over() {
        Vec::new()
    } else {
        pos.legal_moves()
            .iter()
            .map(|m| {
                let mut after = pos;
                after.play_unchecked(*m);
                LegalMove {
                    view: MoveView::of(m),
                    after: after.to_string(),
                }
            })
            .collect()
    };
    Ok(PositionView {
        variant: V::KIND.name(),
        position: pos.to_string(),
        board: BoardView::of(&pos),
        status,
        result,
        legal_moves,
    })
}

/// `POST /api/position/moves` `{"position": "<N2>", "variant"?: "emergo" | "7x7" | "hex"}`.
pub async fn moves(
    Body(body): Body<PositionBody>,
) -> Result<axum::Json<PositionView>, ServiceError> {
    let kind = variant_of(body.variant.as_deref())?;
    let view = with_variant!(kind, V => moves_of::<V>(&body.position))?;
    Ok(axum::Json(view))
}

/// `GET /api/variants`: each board's cells with their names and drawing places.
#[derive(Serialize)]
pub struct VariantsView {
    pub variants: Vec<VariantView>,
}

/// `GET /api/variants`.
pub async fn list_variants() -> axum::Json<VariantsView> {
    axum::Json(VariantsView {
        variants: variants(),
    })
}

/// A move of a tree the page sends: the move (N1) and the variations that replace it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeMove {
    #[serde(rename = "move")]
    mv: String,
    #[serde(default)]
    comment: Option<String>,
    #[serde(default)]
    variations: Vec<Vec<TreeMove>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordBody {
    /// The position the main line starts from.
    position: String,
    /// Its board: `emergo` (absent), `7x7` or `hex`.
    #[serde(default)]
    variant: Option<String>,
    moves: Vec<TreeMove>,
}

/// Reads a line of the tree from `pos`, checking each move by the rules.
fn read_line<V: Variant>(
    pos: Position<V>,
    line: &[TreeMove],
    depth: usize,
    count: &mut usize,
) -> Result<Vec<RecordMove<V>>, ServiceError> {
    if depth > TREE_DEPTH {
        return Err(ServiceError::TooLarge {
            cap: "variation_depth",
            message: format!("variations nest at most {TREE_DEPTH} deep"),
        });
    }
    let mut pos = pos;
    let mut out = Vec::with_capacity(line.len());
    for item in line {
        *count += 1;
        if *count > TREE_MOVES {
            return Err(ServiceError::TooLarge {
                cap: "variation_moves",
                message: format!("a record holds at most {TREE_MOVES} moves here"),
            });
        }
        let mv = pos.parse_move(&item.mv).map_err(|e| {
            ServiceError::IllegalMove(format!("{} after {pos}: {e}", echo(&item.mv)))
        })?;
        let mut variations = Vec::with_capacity(item.variations.len());
        for v in &item.variations {
            variations.push(read_line(pos, v, depth + 1, count)?);
        }
        out.push(RecordMove {
            mv,
            comment: item.comment.clone().filter(|c| !c.trim().is_empty()),
            variations,
        });
        pos.play_unchecked(mv);
    }
    Ok(out)
}

/// The record (text) of a tree of moves from `position` on the board `V`; a board other than
/// the square 9×9 is named by the record's `[Variant]` tag (the core writes it).
fn record_of<V: Variant>(position: &str, tree: &[TreeMove]) -> Result<String, ServiceError> {
    let start = parse_position::<V>(position)?;
    let mut count = 0;
    let moves = read_line(start, tree, 0, &mut count)?;
    let mut game = Game::new(start);
    for m in &moves {
        game.play(m.mv)
            .map_err(|e| ServiceError::IllegalMove(e.to_string()))?;
    }
    let mut record = GameRecord::from_game(&game, &[("Event", "analysis")]);
    record.moves = moves;
    Ok(record.to_string())
}

/// `POST /api/position/record`: the record (text) of a tree of moves from a position, variations
/// written as `( ... )` after the move they replace.
pub async fn record(
    Body(body): Body<RecordBody>,
) -> Result<axum::response::Response, ServiceError> {
    use axum::response::IntoResponse;
    let kind = variant_of(body.variant.as_deref())?;
    let text = with_variant!(kind, V => record_of::<V>(&body.position, &body.moves))?;
    Ok((
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; charset=utf-8",
        )],
        text,
    )
        .into_response())
}
