//! The board editor's one question to the server: is this set-up a position, and what is it?
//! `GET /api/position?position=<N2>&variant=<emergo|7x7|hex>` answers with the position as
//! drawn, or with the core's own error (N2 syntax, R2's men a side, R3's columns), so the page
//! knows no rule.

use crate::http::error::ApiError;
use crate::services::error::ServiceError;
use crate::services::games::view::BoardView;
use crate::services::study::position::variant_of;
use axum::extract::Query;
use axum::Json;
use emergo_core::game::Game;
use emergo_core::position::Position;
use emergo_core::{with_variant, Status, Variant, VariantKind};
use serde::{Deserialize, Serialize};

/// Position text longer than this is not a position (41 squares of 24 men each is far less).
pub const MAX_POSITION_TEXT: usize = 1200;

#[derive(Deserialize)]
pub struct PositionQuery {
    position: Option<String>,
    /// `emergo` (absent), `7x7` or `hex`.
    variant: Option<String>,
}

/// A valid position, as the editor shows it.
#[derive(Debug, Serialize)]
pub struct PositionView {
    /// The board: `emergo`, `7x7` or `hex`.
    pub variant: &'static str,
    /// The position text in its one written form (N2: squares in order of their names).
    pub position: String,
    pub board: BoardView,
    /// `ongoing`, or `finished` when the side to move has already lost (R10): no game can
    /// start from it.
    pub status: &'static str,
    pub result: Option<&'static str>,
    pub reason: Option<&'static str>,
    pub legal_moves: Vec<String>,
}

/// Reads `text` as a position of the board `kind`: the view, or 400 `bad_request` with the
/// core's error.
pub fn check_on(kind: VariantKind, text: &str) -> Result<PositionView, ServiceError> {
    with_variant!(kind, V => check_in::<V>(text))
}

fn check_in<V: Variant>(text: &str) -> Result<PositionView, ServiceError> {
    if text.len() > MAX_POSITION_TEXT {
        return Err(ServiceError::BadRequest(format!(
            "position text may have at most {MAX_POSITION_TEXT} bytes"
        )));
    }
    let pos: Position<V> = text
        .trim()
        .parse()
        .map_err(
            |e: emergo_core::PositionTextError| ServiceError::Explained {
                message: e.to_string(),
                fields: problem(&e),
            },
        )?;
    let game = Game::new(pos);
    let (status, result, reason) = match game.status() {
        Status::Ongoing => ("ongoing", None, None),
        Status::Finished { outcome, reason } => {
            ("finished", Some(outcome.token()), Some(reason.name()))
        }
    };
    let mut legal_moves: Vec<String> = if status == "ongoing" {
        pos.legal_moves().iter().map(|m| m.to_string()).collect()
    } else {
        Vec::new()
    };
    legal_moves.sort();
    Ok(PositionView {
        variant: V::KIND.name(),
        position: pos.to_string(),
        board: BoardView::of(&pos),
        status,
        result,
        reason,
        legal_moves,
    })
}

/// What is wrong with position text, as fields for a page to phrase (docs/api.md): `problem`
/// (the kind), `column`, and what the kind names (`text`, `square`, `color`, `count`).
#[derive(Debug, Serialize)]
struct Problem<'a> {
    #[serde(flatten)]
    kind: ProblemKind<'a>,
    /// 1-based character column where the problem starts.
    column: usize,
}

/// The kind of a problem (`"problem"`) and what it names.
#[derive(Debug, Serialize)]
#[serde(tag = "problem", rename_all = "snake_case")]
enum ProblemKind<'a> {
    Empty,
    BadSide { text: &'a str },
    Missing { color: &'static str },
    BadCount { text: &'a str },
    UnknownSquare { text: &'a str },
    BadEntry { text: &'a str },
    DuplicateSquare { square: String },
    EmptyStack { square: String },
    BadStackLetter { text: String },
    MoreThanTwoLayers { square: String },
    Trailing { text: &'a str },
    TooManyMen { color: &'static str, count: u32 },
    EmptyColumn { square: String },
}

impl<'a> ProblemKind<'a> {
    fn of(kind: &'a emergo_core::notation::PositionTextErrorKind) -> ProblemKind<'a> {
        use emergo_core::notation::PositionTextErrorKind as K;
        use emergo_core::PositionError;
        match kind {
            K::Empty => ProblemKind::Empty,
            K::BadSide(text) => ProblemKind::BadSide { text },
            K::Missing(what) => ProblemKind::Missing {
                color: if what.starts_with("White") {
                    "white"
                } else {
                    "black"
                },
            },
            K::BadCount(text) => ProblemKind::BadCount { text },
            K::UnknownSquare(text) => ProblemKind::UnknownSquare { text },
            K::BadEntry(text) => ProblemKind::BadEntry { text },
            K::DuplicateSquare(sq) => ProblemKind::DuplicateSquare {
                square: sq.to_string(),
            },
            K::EmptyStack(sq) => ProblemKind::EmptyStack {
                square: sq.to_string(),
            },
            K::BadStackLetter(c) => ProblemKind::BadStackLetter {
                text: c.to_string(),
            },
            K::MoreThanTwoLayers(sq) => ProblemKind::MoreThanTwoLayers {
                square: sq.to_string(),
            },
            K::Trailing(text) => ProblemKind::Trailing { text },
            K::Impossible(PositionError::TooManyMen { color, count, .. }) => {
                ProblemKind::TooManyMen {
                    color: color.name(),
                    count: *count,
                }
            }
            K::Impossible(PositionError::EmptyColumn { square }) => ProblemKind::EmptyColumn {
                square: square.to_string(),
            },
        }
    }
}

/// The fields of `e`'s problem, for the error's body.
fn problem(e: &emergo_core::PositionTextError) -> serde_json::Map<String, serde_json::Value> {
    let problem = Problem {
        kind: ProblemKind::of(&e.kind),
        column: e.column,
    };
    match serde_json::to_value(problem) {
        Ok(serde_json::Value::Object(fields)) => fields,
        _ => serde_json::Map::new(),
    }
}

/// `GET /api/position?position=<N2>`.
pub async fn position(
    query: Result<Query<PositionQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<PositionView>, ApiError> {
    let Query(query) = query?;
    let kind = variant_of(query.variant.as_deref())?;
    let text = query.position.ok_or_else(|| {
        ServiceError::BadRequest("the query needs position=<position text>".to_string())
    })?;
    Ok(check_on(kind, &text).map(Json)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> Result<PositionView, ServiceError> {
        check_on(VariantKind::Emergo, text)
    }

    #[test]
    fn r1_a_position_is_read_on_the_board_the_query_names() {
        // RULES-hex.md N2: the hex cell a1 exists there, not on the square boards.
        let view = check_on(VariantKind::HexEmergo, "B:11:12:a1=W").expect("a hex position");
        assert_eq!(view.variant, "hex");
        assert_eq!(
            view.legal_moves.len(),
            37 - 1 - 3,
            "R9.4: not on the corner's 3 neighbours (RULES-hex.md: 33 entries)"
        );
        assert!(check("B:11:12:a1=W").is_err(), "no a1 on the 9×9 board");
        // RULES-7x7.md R2: 8 men a side.
        let err = check_on(VariantKind::Emergo7x7, "W:9:8").expect_err("9 men");
        assert!(
            err.to_string()
                .contains("white has 9 men (board and hand); at most 8"),
            "{err}"
        );
        let view = check_on(VariantKind::Emergo7x7, "W:8:8").expect("the 7×7 start");
        assert_eq!((view.variant, view.legal_moves.len()), ("7x7", 24));
    }

    #[test]
    fn r2_thirteen_men_of_a_colour_is_explained_by_the_core() {
        let err = check("W:12:0:c4=WB").expect_err("13 White men");
        assert!(
            err.to_string()
                .contains("white has 13 men (board and hand); at most 12"),
            "{err}"
        );
    }

    #[test]
    fn r3_a_column_of_three_over_two_is_a_position_written_canonically() {
        let view = check("B:9:9:e5=B,c4=WWWBB").expect("a position");
        assert_eq!(view.position, "B:9:9:c4=WWWBB,e5=B");
        let col = &view.board.columns["c4"];
        assert_eq!((col.owner, col.men, col.prisoners), ("white", 3, 2));
        assert_eq!(view.status, "ongoing");
        assert!(!view.legal_moves.is_empty());
    }

    #[test]
    fn r2_too_many_men_is_told_in_fields_a_page_can_phrase() {
        // Issue 18 item 10: the page said the core's English sentence, in French too.
        let err = check("W:12:0:c4=WB").expect_err("13 White men");
        let ServiceError::Explained { fields, .. } = err else {
            panic!("the problem in fields: {err}");
        };
        assert_eq!(fields["problem"], "too_many_men");
        assert_eq!(fields["color"], "white");
        assert_eq!(fields["count"], 13);
        let ServiceError::Explained { fields, .. } = check("W:13:0").expect_err("13 in hand")
        else {
            panic!("the problem in fields");
        };
        assert_eq!(
            (fields["problem"].as_str(), fields["text"].as_str()),
            (Some("bad_count"), Some("13"))
        );
    }

    #[test]
    fn n2_syntax_errors_say_where() {
        let err = check("W:12:12:z9=W").expect_err("no square z9");
        assert!(err.to_string().contains("'z9' is not a square"), "{err}");
        let err = check("W:12:12:c4=WBW").expect_err("three layers");
        assert!(err.to_string().contains("more than two layers"), "{err}");
    }
}
