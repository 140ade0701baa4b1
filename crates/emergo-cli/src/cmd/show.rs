//! `emergo show [--position <POS>]`: the board drawn the way the designers draw it.

use super::parse_position;
use emergo_core::{Color, Game, Position, Square, Status};
use std::fmt::Write as _;

#[derive(clap::Args)]
pub struct Args {
    /// Position text (N2); the start by default.
    #[arg(long, default_value = "W:12:12")]
    position: String,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let pos = parse_position(&args.position)?;
    print!("{}", draw(&pos));
    Ok(())
}

/// Width of one checkerboard cell in characters.
const CELL: usize = 6;

/// Draws `pos` as a 9×9 checkerboard (e1 bottom-left, a5 top-left, e9 top-right, i5
/// bottom-right, R1). An empty dark square shows its name; a column shows its owner and height,
/// then `/` and its prisoners when it holds any (`W3/5`: three White men over five Black). Light
/// squares are shaded. Below: the men in hand, a pending shadowpiece, the side to move.
pub fn draw(pos: &Position) -> String {
    let mut out = String::new();
    let rule = format!("   +{}+\n", "-".repeat(9 * CELL));
    // Letters a–i run along the lines going down-right; numbers along the lines going up-right.
    let _ = writeln!(
        out,
        "   letters a-i: a5 (top-left) to i5 (bottom-right); numbers 1-9: e1 (bottom-left) to e9 (top-right)"
    );
    out.push_str(&rule);
    for y in (1..=9u8).rev() {
        out.push_str("   |");
        for x in 1..=9u8 {
            let cell = match Square::from_xy(x, y) {
                None => ":".repeat(CELL),
                Some(sq) => match pos.column(sq) {
                    None => format!("{:^CELL$}", sq.to_string()),
                    Some(col) => {
                        let mut label = format!("{}{}", col.owner.letter(), col.men);
                        if col.prisoners > 0 {
                            let _ = write!(label, "/{}", col.prisoners);
                        }
                        format!("{label:^CELL$}")
                    }
                },
            };
            out.push_str(&cell);
        }
        out.push_str("|\n");
    }
    out.push_str(&rule);
    let _ = writeln!(
        out,
        "In hand: White {}, Black {}",
        pos.hand(Color::White),
        pos.hand(Color::Black)
    );
    if pos.shadowpiece_pending() {
        let side = if pos.hand(Color::White) > 0 {
            Color::White
        } else {
            Color::Black
        };
        let _ = writeln!(
            out,
            "Shadowpiece pending: {side} enters its {} men as one column (R9.2)",
            pos.hand(side)
        );
    }
    match Game::new(*pos).status() {
        Status::Ongoing => {
            let phase = if pos.can_capture(pos.turn()) {
                "must capture"
            } else if pos.hand(pos.turn()) > 0 {
                "entering"
            } else {
                "moving"
            };
            let _ = writeln!(out, "{} to move ({phase})", capitalised(pos.turn()));
        }
        Status::Finished { outcome, reason } => {
            let _ = writeln!(
                out,
                "{} to move; game over: {} ({reason})",
                capitalised(pos.turn()),
                outcome.token()
            );
        }
    }
    let _ = writeln!(out, "Position: {pos}");
    out
}

fn capitalised(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draw_shows_columns_with_height_and_prisoners_where_r1_puts_them() {
        let pos: Position = "B:4:6:c4=WWWBBBBB,e5=B".parse().unwrap();
        let text = draw(&pos);
        let lines: Vec<&str> = text.lines().collect();
        // R1: c4 is file 2, rank 6; e5 is file 5, rank 5.
        // Line 0 is the legend, line 1 the top edge, then ranks 9 down to 1.
        let rank = |y: usize| lines[1 + 10 - y];
        let rank6 = rank(6);
        assert_eq!(&rank6[4 + CELL..4 + 2 * CELL], " W3/5 ");
        let rank5 = rank(5);
        assert_eq!(&rank5[4 + 4 * CELL..4 + 5 * CELL], "  B1  ");
        assert!(text.contains("In hand: White 4, Black 6"));
        assert!(text.contains("Black to move (entering)"));
        let rank1 = rank(1);
        assert!(rank1[4..].starts_with("  e1  "));
    }
}
