//! How a timed game ends when the clock decides (issue 11; docs/api.md, "Time controls"): a
//! flag fall loses, or aborts a game in which a side has not moved yet; a declared ending that
//! early aborts too; and which endings count for ratings.

use emergo_core::{AnyGame, Color, EndReason, Outcome, Status};

/// How `flagger`'s running out of time ends `game`: before each side has moved once the game
/// is aborted; else the other side wins on time, or draws on time when it has nothing to win
/// with. In Emergo that never happens: the side that did not flag has just moved, and a move
/// leaves the mover owning a column (docs/api.md, "Time controls").
pub fn time_ending(game: &AnyGame, flagger: Color) -> Status {
    let (outcome, reason) = if abortable(game) {
        (Outcome::Draw, EndReason::Aborted)
    } else if game.has_material(flagger.other()) {
        (Outcome::Win(flagger.other()), EndReason::Time)
    } else {
        (Outcome::Draw, EndReason::Time)
    };
    Status::Finished { outcome, reason }
}

/// Whether a game may still be aborted: before each side has moved once. The one rule of the
/// Abort button (`POST /api/games/{id}/abort`, the view's `can_abort`), of a flag fall that
/// early and of an early declared ending.
pub fn abortable(game: &AnyGame) -> bool {
    game.ply() < 2
}

/// Moves each side makes in a rated game before a resignation or an agreed draw counts
/// (issue 17 item 5: a rated game resigned at once is a rating farm's).
pub const RATED_MOVES_EACH: usize = 5;

/// How a declared ending of a timed game counts: a resignation or a draw agreed before each
/// side has moved once (in a rated game: [`RATED_MOVES_EACH`] times) aborts the game instead.
/// A tournament's "absent" ending stands: it is made for a game nobody moved in.
pub fn declared_ending(game: &AnyGame, status: Status, rated: bool) -> Status {
    let early = match rated {
        true => game.ply() < 2 * RATED_MOVES_EACH,
        false => abortable(game),
    };
    match status {
        Status::Finished {
            reason: EndReason::Absent,
            ..
        } => status,
        Status::Finished { .. } if early => Status::Finished {
            outcome: Outcome::Draw,
            reason: EndReason::Aborted,
        },
        other => other,
    }
}

/// Whether a finished game counts for ratings: every ending but an abort and an absence (a
/// game nobody played; else two accounts could farm rating points by one never moving), and an
/// ongoing game does not count yet.
pub fn is_rated(status: Status) -> bool {
    matches!(status, Status::Finished { reason, .. }
        if reason != EndReason::Aborted && reason != EndReason::Absent)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &[&str]) -> AnyGame {
        let mut game = AnyGame::default();
        for mv in moves {
            game.play_text(mv).expect("legal");
        }
        game
    }

    #[test]
    fn a_flag_before_each_side_has_moved_aborts_and_after_loses() {
        let aborted = Status::Finished {
            outcome: Outcome::Draw,
            reason: EndReason::Aborted,
        };
        assert!(abortable(&game(&[])) && abortable(&game(&["d3"])));
        assert!(!abortable(&game(&["d3", "f8"])));
        assert_eq!(time_ending(&game(&[]), Color::White), aborted);
        assert_eq!(time_ending(&game(&["d3"]), Color::Black), aborted);
        assert!(!is_rated(aborted));
        let lost = time_ending(&game(&["d3", "f8"]), Color::White);
        assert_eq!(
            lost,
            Status::Finished {
                outcome: Outcome::Win(Color::Black),
                reason: EndReason::Time
            }
        );
        assert!(is_rated(lost));
        assert!(!is_rated(Status::Ongoing));
        let resigned = Status::Finished {
            outcome: Outcome::Win(Color::Black),
            reason: EndReason::Resignation,
        };
        assert_eq!(declared_ending(&game(&["d3"]), resigned, false), aborted);
        assert_eq!(
            declared_ending(&game(&["d3", "f8"]), resigned, false),
            resigned
        );
        assert_eq!(
            declared_ending(&game(&["d3", "f8"]), resigned, true),
            aborted
        );
    }

    #[test]
    fn an_absent_players_loss_stands_before_any_move_and_is_unrated() {
        let absent = Status::Finished {
            outcome: Outcome::Win(Color::Black),
            reason: EndReason::Absent,
        };
        assert_eq!(declared_ending(&game(&[]), absent, true), absent);
        assert_eq!(declared_ending(&game(&["d3"]), absent, false), absent);
        assert!(!is_rated(absent));
    }
}
