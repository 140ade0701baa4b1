//! Positions on any of the three boards for the pages that study them (the analysis board, the
//! editor): the board a request names, a position and its moves as drawn, and each board's
//! cells with the place a drawing gives them (docs/api.md, "Positions"). Every rule is the
//! core's; this module only turns its answers into the views' JSON.

use crate::services::error::ServiceError;
use emergo_core::board::Square;
use emergo_core::position::Position;
use emergo_core::{Variant, VariantError, VariantKind};
use serde::Serialize;

/// The board a request names by its short name (`emergo`, `7x7`, `hex`; absent: `emergo`), or
/// 400 `bad_request` naming the three.
pub fn variant_of(text: Option<&str>) -> Result<VariantKind, ServiceError> {
    let Some(text) = text else {
        return Ok(VariantKind::Emergo);
    };
    VariantKind::ALL
        .into_iter()
        .find(|v| v.name() == text)
        .ok_or_else(|| {
            let shown: String = text.chars().take(40).collect();
            ServiceError::BadRequest(VariantError(shown).to_string())
        })
}

/// One cell of a board and where a drawing puts its centre.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct CellView {
    pub name: String,
    /// Column, from the left: on the square boards the checkerboard's file (1..width); on the
    /// hexagon in half cells (1..13), so that a row's cells are 2 apart and the next row is
    /// shifted by 1.
    pub x: u8,
    /// Row, from the bottom: the checkerboard's rank, or the hexagon's row (its number).
    pub y: u8,
}

/// A board as a page needs it to draw positions: its cells, their names and places.
#[derive(Debug, Serialize)]
pub struct VariantView {
    /// The short name (`emergo`, `7x7`, `hex`).
    pub variant: &'static str,
    /// The record tag's value (`Emergo`, `Emergo 7x7`, `HexEmergo`).
    pub name: &'static str,
    /// `square` (a checkerboard's dark squares) or `hex` (a hexagon of hexagonal cells).
    pub shape: &'static str,
    /// Men per side (R2).
    pub men: u8,
    /// The start position (N2).
    pub start: String,
    /// The centre (R9.3).
    pub centre: String,
    /// The drawing's extent: `x` runs over 1..=width, `y` over 1..=height.
    pub width: u8,
    pub height: u8,
    /// The cells in byte order of their names (as N2 lists them).
    pub cells: Vec<CellView>,
}

/// Where a drawing puts `sq` (R1 of each rules page): the checkerboard's file and rank; on the
/// hexagon, row `N` from the bottom with the letters running from right to left, each row
/// shifted half a cell from the next (RULES-hex.md R1, "Drawing").
fn place<V: Variant>(sq: Square<V>) -> (u8, u8) {
    if V::KIND == VariantKind::HexEmergo {
        let (l, n) = sq.letter_number();
        // x = N − 2L + 9: g4 (L 6) at 1, a4 at 13; d1 at 4, a1 at 10; d7 at 10, g7 at 4.
        (n + 9 - 2 * l, n)
    } else {
        sq.xy()
    }
}

fn variant_view<V: Variant>() -> VariantView {
    let mut cells: Vec<(String, (u8, u8))> = Square::<V>::all()
        .map(|sq| (sq.to_string(), place(sq)))
        .collect();
    cells.sort();
    let width = cells.iter().map(|(_, (x, _))| *x).max().unwrap_or(0);
    let height = cells.iter().map(|(_, (_, y))| *y).max().unwrap_or(0);
    VariantView {
        variant: V::KIND.name(),
        name: V::KIND.tag(),
        shape: if V::KIND == VariantKind::HexEmergo {
            "hex"
        } else {
            "square"
        },
        men: V::KIND.men(),
        start: Position::<V>::start().to_string(),
        centre: Square::<V>::CENTRE.to_string(),
        width,
        height,
        cells: cells
            .into_iter()
            .map(|(name, (x, y))| CellView { name, x, y })
            .collect(),
    }
}

/// Every board, the square 9×9 first.
pub fn variants() -> Vec<VariantView> {
    VariantKind::ALL
        .into_iter()
        .map(|kind| emergo_core::with_variant!(kind, V => variant_view::<V>()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell<'a>(v: &'a VariantView, name: &str) -> &'a CellView {
        v.cells.iter().find(|c| c.name == name).expect("a cell")
    }

    #[test]
    fn r1_each_board_lists_its_cells_where_its_rules_page_draws_them() {
        let all = variants();
        let [sq9, sq7, hex] = &all[..] else {
            panic!("three boards");
        };
        assert_eq!(
            (sq9.cells.len(), sq7.cells.len(), hex.cells.len()),
            (41, 25, 37)
        );
        // RULES.md R1: e1 bottom-left, a5 top-left, e9 top-right, i5 bottom-right.
        assert_eq!((cell(sq9, "e1").x, cell(sq9, "e1").y), (1, 1));
        assert_eq!((cell(sq9, "a5").x, cell(sq9, "a5").y), (1, 9));
        assert_eq!((cell(sq9, "i5").x, cell(sq9, "i5").y), (9, 1));
        // RULES-7x7.md R1: d1 bottom-left, a4 top-left, d7 top-right, g4 bottom-right.
        assert_eq!((cell(sq7, "d1").x, cell(sq7, "d1").y), (1, 1));
        assert_eq!((cell(sq7, "a4").x, cell(sq7, "a4").y), (1, 7));
        assert_eq!((cell(sq7, "d7").x, cell(sq7, "d7").y), (7, 7));
        assert_eq!((cell(sq7, "g4").x, cell(sq7, "g4").y), (7, 1));
        // RULES-hex.md R1: row 4 reads g4 … a4 from left to right, row 1 d1 c1 b1 a1, row 7
        // at the top; d4 in the middle.
        let row = |n: u8| {
            let mut r: Vec<&CellView> = hex.cells.iter().filter(|c| c.y == n).collect();
            r.sort_by_key(|c| c.x);
            r.iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(row(4), "g4 f4 e4 d4 c4 b4 a4");
        assert_eq!(row(1), "d1 c1 b1 a1");
        assert_eq!(row(7), "g7 f7 e7 d7");
        assert_eq!((hex.width, hex.height), (13, 7));
        assert_eq!((cell(hex, "d4").x, cell(hex, "d4").y), (7, 4));
        assert_eq!((hex.centre.as_str(), sq7.centre.as_str()), ("d4", "d4"));
        assert_eq!(
            (sq9.start.as_str(), sq7.start.as_str(), hex.start.as_str()),
            ("W:12:12", "W:8:8", "W:12:12")
        );
        // A letter line runs from lower left to upper right: a1 a2 a3 a4.
        let a: Vec<(u8, u8)> = ["a1", "a2", "a3", "a4"]
            .iter()
            .map(|n| (cell(hex, n).x, cell(hex, n).y))
            .collect();
        assert_eq!(a, [(10, 1), (11, 2), (12, 3), (13, 4)]);
    }

    #[test]
    fn an_unknown_variant_is_refused_naming_the_three() {
        assert_eq!(variant_of(None).ok(), Some(VariantKind::Emergo));
        assert_eq!(variant_of(Some("hex")).ok(), Some(VariantKind::HexEmergo));
        assert_eq!(variant_of(Some("7x7")).ok(), Some(VariantKind::Emergo7x7));
        let err = variant_of(Some("square")).expect_err("no such board");
        assert!(
            err.to_string().contains("expected emergo, 7x7 or hex"),
            "{err}"
        );
    }
}
