//! `emergo show [--variant V] [--position <POS>]`: the board drawn the way the designers draw it.

use super::{position_or_start, VariantArg};
use emergo_core::board::Square;
use emergo_core::game::Game;
use emergo_core::position::Position;
use emergo_core::{with_variant, Color, Phase, Status, Variant, VariantKind};
use std::fmt::Write as _;

#[derive(clap::Args)]
pub struct Args {
    /// Position text (N2); the start by default.
    #[arg(long)]
    position: Option<String>,
    #[command(flatten)]
    variant: VariantArg,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    with_variant!(args.variant.variant, V => {
        let pos = position_or_start::<V>(args.position.as_deref())?;
        out!("{}", draw(&pos))?;
    });
    Ok(())
}

/// Width of one checkerboard cell in characters.
const CELL: usize = 6;

/// What a cell shows: its name when empty, else its owner and height, then `/` and its
/// prisoners when it holds any (`W3/5`: three White men over five Black), centred in `CELL`.
fn label<V: Variant>(pos: &Position<V>, sq: Square<V>) -> String {
    match pos.column(sq) {
        None => format!("{:^CELL$}", sq.to_string()),
        Some(col) => {
            let mut label = format!("{}{}", col.owner.letter(), col.men);
            if col.prisoners > 0 {
                let _ = write!(label, "/{}", col.prisoners);
            }
            format!("{label:^CELL$}")
        }
    }
}

/// Draws `pos` the designers' way, then says what the position is. The square boards as a
/// checkerboard (9×9: e1 bottom-left, a5 top-left, e9 top-right, i5 bottom-right, R1; 7×7: d1,
/// a4, d7, g4), light squares shaded; the hexagon row by row, row 7 at the top and row 1 at the
/// bottom, the letters of a row running from right to left (RULES-hex.md R1). Below: the men in
/// hand, a pending shadowpiece, the side to move, the phase (`Phase: capture`, `Phase: enter` or
/// `Phase: step`, R5, then an explanation).
pub fn draw<V: Variant>(pos: &Position<V>) -> String {
    let mut out = String::new();
    if V::KIND == VariantKind::HexEmergo {
        draw_hexagon(pos, &mut out);
    } else {
        draw_checkerboard(pos, &mut out);
    }
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
            let _ = writeln!(out, "{} to move", pos.turn().title());
        }
        Status::Finished { outcome, reason } => {
            let _ = writeln!(
                out,
                "{} to move; game over: {} ({reason})",
                pos.turn().title(),
                outcome.token()
            );
        }
    }
    let phase = pos.phase();
    let _ = writeln!(out, "Phase: {phase} ({})", explain(phase));
    let _ = writeln!(out, "Position: {pos}");
    out
}

/// The square boards: ranks from the top, files from the left, light squares shaded.
fn draw_checkerboard<V: Variant>(pos: &Position<V>, out: &mut String) {
    let width = Square::<V>::all().map(|s| s.xy().0).max().unwrap_or(9);
    let name = |x: u8, y: u8| Square::<V>::from_xy(x, y).map_or(String::new(), |s| s.to_string());
    let (last_letter, mid) = ((b'a' + width - 1) as char, width.div_ceil(2));
    // Letters run along the lines going down-right; numbers along the lines going up-right.
    let _ = writeln!(
        out,
        "   letters a-{last_letter}: {} (top-left) to {} (bottom-right); numbers 1-{width}: {} (bottom-left) to {} (top-right)",
        name(1, width),
        name(width, 1),
        name(1, 1),
        name(width, width),
    );
    debug_assert_eq!(name(mid, mid), Square::<V>::CENTRE.to_string());
    let rule = format!("   +{}+\n", "-".repeat(width as usize * CELL));
    out.push_str(&rule);
    for y in (1..=width).rev() {
        out.push_str("   |");
        for x in 1..=width {
            let cell = match Square::<V>::from_xy(x, y) {
                None => ":".repeat(CELL),
                Some(sq) => label(pos, sq),
            };
            out.push_str(&cell);
        }
        out.push_str("|\n");
    }
    out.push_str(&rule);
}

/// The hexagon: row 7 at the top, each row's cells from its highest letter on the left to its
/// lowest on the right, each row shifted half a cell from the next, so that a cell's six
/// neighbours stand around it.
fn draw_hexagon<V: Variant>(pos: &Position<V>, out: &mut String) {
    let _ = writeln!(
        out,
        "   rows 1-7 from the bottom; in a row the letters run from right to left (row 4: g4 ... a4)"
    );
    for n in (1..=7u8).rev() {
        let cells: Vec<Square<V>> = (0..7u8)
            .rev()
            .filter_map(|l| Square::from_letter_number(l, n))
            .collect();
        let indent = " ".repeat(3 + (7 - cells.len()) * CELL / 2);
        let row: String = cells.iter().map(|&sq| label(pos, sq)).collect();
        let _ = writeln!(out, "{indent}{}", row.trim_end());
    }
}

/// Why the side to move is in `phase` (R5), for people.
fn explain(phase: Phase) -> &'static str {
    match phase {
        Phase::Capture => {
            "R5.1: a capture is possible, so one of the greatest captures is compulsory"
        }
        Phase::Enter => "R5.2: no capture; men in hand are entered before any step",
        Phase::Step => "R5.3: no capture and no men in hand; a column steps",
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
        assert!(text.contains("Black to move\n"));
        assert!(text.contains("\nPhase: enter ("));
        let rank1 = rank(1);
        assert!(rank1[4..].starts_with("  e1  "));
    }

    /// The phase line of `draw`, e.g. `capture` from `Phase: capture (R5.1: ...)`.
    fn phase_line(text: &str) -> Phase {
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix("Phase: "))
            .expect("a Phase line");
        let word = line.split_whitespace().next().expect("a word");
        word.parse().expect("a phase word")
    }

    #[test]
    fn r5_show_names_the_phase_of_position_phase_on_every_test_position() {
        let data = include_str!("../../../emergo-core/tests/data/positions.tsv");
        let mut n = 0;
        for line in data.lines() {
            let text = line.split('\t').next().expect("a field");
            let pos: Position = text.parse().expect("position text");
            assert_eq!(phase_line(&draw(&pos)), pos.phase(), "{text}");
            n += 1;
        }
        assert_eq!(n, 23_379);
    }
}
