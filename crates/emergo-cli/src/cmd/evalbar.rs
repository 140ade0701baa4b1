//! The evaluation for people in a terminal: a bar (White's share on the left) and the top lines,
//! scores from White's side (`+` is good for White), as on the web's analysis board.

use emergo_core::moves::Move;
use emergo_core::{Color, Variant};
use emergo_engine::search::{mate_in, Line};

/// Characters of the bar between its two labels.
pub const BAR_WIDTH: usize = 24;

/// A score for the side to move turned to White's side.
pub fn for_white(score: i32, turn: Color) -> i32 {
    match turn {
        Color::White => score,
        Color::Black => -score,
    }
}

/// A score from White's side in words: `+1.25` (in men) or `White wins in 3`.
pub fn white_score_text(white: i32) -> String {
    match mate_in(white) {
        Some(m) if m > 0 => format!("White wins in {m}"),
        Some(m) => format!("Black wins in {}", -m),
        None => format!("{:+.2}", f64::from(white) / 100.0),
    }
}

/// White's share of the bar, 0.0..=1.0: a won position fills it; otherwise a logistic curve
/// that gives a man's advantage (100) about 60% and four men about 84%.
pub fn white_share(white: i32) -> f64 {
    match mate_in(white) {
        Some(m) if m > 0 => 1.0,
        Some(_) => 0.0,
        None => 1.0 / (1.0 + (-f64::from(white) / 250.0).exp()),
    }
}

/// `White ████████████░░░░░░░░░░░░ Black  +0.35`: White's part in full blocks.
pub fn bar(white: i32) -> String {
    let filled = (white_share(white) * BAR_WIDTH as f64).round() as usize;
    let filled = filled.min(BAR_WIDTH);
    format!(
        "White {}{} Black  {}",
        "█".repeat(filled),
        "░".repeat(BAR_WIDTH - filled),
        white_score_text(white)
    )
}

/// The top lines, one a row: `1. +0.35  d3 f6 c4`, scores from White's side; at most `moves`
/// moves of each line.
pub fn lines_text<V: Variant>(lines: &[Line<V>], turn: Color, moves: usize) -> Vec<String> {
    lines
        .iter()
        .enumerate()
        .map(|(k, l)| {
            let pv: Vec<String> = l.pv.iter().take(moves).map(Move::to_string).collect();
            format!(
                "{}. {:>8}  {}",
                k + 1,
                white_score_text(for_white(l.score, turn)),
                pv.join(" ")
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use emergo_core::Position;
    use emergo_engine::search::MATE;

    #[test]
    fn the_bar_is_even_at_zero_full_for_a_won_game_and_leans_with_the_score() {
        let even = bar(0);
        assert_eq!(even.matches('█').count(), BAR_WIDTH / 2);
        assert!(even.ends_with("+0.00"));
        assert_eq!(bar(MATE - 5).matches('█').count(), BAR_WIDTH);
        assert!(bar(MATE - 5).ends_with("White wins in 3"));
        assert_eq!(bar(-(MATE - 2)).matches('█').count(), 0);
        let ahead = bar(150).matches('█').count();
        assert!(ahead > BAR_WIDTH / 2 && ahead < BAR_WIDTH, "{ahead}");
        assert_eq!(bar(-150).matches('█').count(), BAR_WIDTH - ahead);
    }

    #[test]
    fn lines_are_numbered_with_white_side_scores() {
        let moves = Position::start().legal_moves();
        let lines = vec![
            Line {
                score: 40,
                pv: vec![moves[0], moves[1]],
            },
            Line {
                score: -10,
                pv: vec![moves[2]],
            },
        ];
        let text = lines_text(&lines, Color::Black, 1);
        assert_eq!(text[0], format!("1.    -0.40  {}", moves[0]));
        assert_eq!(text[1], format!("2.    +0.10  {}", moves[2]));
    }
}
