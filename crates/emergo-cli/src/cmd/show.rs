//! `emergo show [--position <POS>]`: the board drawn the way the designers draw it.

use super::parse_position;
use emergo_core::{Color, Game, Phase, Position, Square, Status};
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
/// squares are shaded. Below: the men in hand, a pending shadowpiece, the side to move, the
/// phase (`Phase: capture`, `Phase: enter` or `Phase: step`, R5, then an explanation).
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
