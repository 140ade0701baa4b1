//! Why move text names no legal move: the rule it breaks, in words a player understands.
//!
//! The move generator alone decides what is legal; this module only explains a refusal after
//! the generator found no match, from the same building blocks (the phase of R5, the first-move
//! ban of R9.3, the entry condition of R9.4).

use crate::board::{Square, SquareName};
use crate::movegen::attackable;
use crate::moves::Move;
use crate::notation::{MoveText, MoveTextError};
use crate::position::Position;
use crate::variant::Variant;
use crate::{Color, Phase};
use std::fmt;
use thiserror::Error;

/// Why text could not be played in a position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not move text (N1).
    #[error("cannot read move '{text}': {source}")]
    Syntax {
        /// The text given.
        text: String,
        /// What is wrong with it.
        #[source]
        source: MoveTextError,
    },
    /// The text reads as a move, but no legal move has its squares. (A [`Move`] that is not
    /// legal is a [`crate::PlayError`].)
    #[error("{text} is not a legal move here: {reason}")]
    NoLegalMatch {
        /// The text given.
        text: String,
        /// The rule it breaks.
        reason: Refusal,
    },
}

impl<V: Variant> Position<V> {
    /// Turns move text into the legal move it names (N1), or says why it cannot.
    pub fn parse_move(&self, text: &str) -> Result<Move<V>, MoveError> {
        let parsed: MoveText<V> = text.parse().map_err(|source| MoveError::Syntax {
            text: text.to_string(),
            source,
        })?;
        match self.find_legal_move(|m| parsed.matches(m)) {
            Some(mv) => Ok(mv),
            None => Err(MoveError::NoLegalMatch {
                text: text.to_string(),
                reason: self.refusal_of_unmatched(&parsed),
            }),
        }
    }
}

/// The rule that move text breaks in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// R5.1: a capture is available, so the mover must capture.
    CaptureCompulsory,
    /// R7.3: the capture takes fewer men than the greatest capture available.
    MajorityRule {
        /// How many men every legal capture takes.
        men: usize,
    },
    /// R6, R7: no column of the mover can make these jumps.
    NoSuchCapture,
    /// R5.2: the mover has men in hand, so it must enter.
    MustEnter,
    /// R5.3: the mover has no men in hand left to enter.
    NoMenInHand,
    /// R5: nothing can be captured here.
    NoCaptureAvailable,
    /// R9.3: White's very first move may not be on the centre (`e5`; `d4` on the 7×7 board and
    /// the hexagon).
    FirstEntryOnCentre {
        /// The centre's name.
        centre: SquareName,
    },
    /// R9.1, R8: the square is not empty.
    SquareTaken,
    /// R9.4: the entered column could be captured at once.
    EntryCapturable,
    /// R8: the mover owns no column on the starting square.
    NotYourColumn,
    /// R8: a step goes to an adjacent square.
    NotAdjacent,
}

impl Refusal {
    /// A stable name for programs (an API's error field, a page's translation key).
    pub fn name(self) -> &'static str {
        match self {
            Refusal::CaptureCompulsory => "capture_compulsory",
            Refusal::MajorityRule { .. } => "majority_rule",
            Refusal::NoSuchCapture => "no_such_capture",
            Refusal::MustEnter => "must_enter",
            Refusal::NoMenInHand => "no_men_in_hand",
            Refusal::NoCaptureAvailable => "no_capture_available",
            Refusal::FirstEntryOnCentre { .. } => "first_entry_on_centre",
            Refusal::SquareTaken => "square_taken",
            Refusal::EntryCapturable => "entry_capturable",
            Refusal::NotYourColumn => "not_your_column",
            Refusal::NotAdjacent => "not_adjacent",
        }
    }

    /// The rule broken, as RULES.md numbers it (`R9.3`; `R6, R7` where two say it together).
    pub fn rule(self) -> &'static str {
        match self {
            Refusal::CaptureCompulsory => "R5.1",
            Refusal::MajorityRule { .. } => "R7.3",
            Refusal::NoSuchCapture => "R6, R7",
            Refusal::MustEnter => "R5.2",
            Refusal::NoMenInHand => "R5.3",
            Refusal::NoCaptureAvailable => "R5",
            Refusal::FirstEntryOnCentre { .. } => "R9.3",
            Refusal::SquareTaken => "R8, R9.1",
            Refusal::EntryCapturable => "R9.4",
            Refusal::NotYourColumn | Refusal::NotAdjacent => "R8",
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::CaptureCompulsory => f.write_str("a capture is available, and capturing is compulsory (R5.1)"),
            Refusal::MajorityRule { men } => write!(
                f,
                "the majority rule: a capture must take the most men possible, here {men} (R7.3)"
            ),
            Refusal::NoSuchCapture => f.write_str("no column can make those jumps (R6, R7)"),
            Refusal::MustEnter => f.write_str("with men in hand, a man must be entered (R5.2)"),
            Refusal::NoMenInHand => f.write_str("there are no men in hand left to enter (R5.3)"),
            Refusal::NoCaptureAvailable => f.write_str("there is nothing to capture (R5)"),
            Refusal::FirstEntryOnCentre { centre } => write!(
                f,
                "White's first man may not be entered on the centre, {centre} (R9.3)"
            ),
            Refusal::SquareTaken => f.write_str("that square is not empty (R8, R9.1)"),
            Refusal::EntryCapturable => f.write_str(
                "a man entered there could be captured at once, and entering into a capture is not allowed (R9.4)",
            ),
            Refusal::NotYourColumn => f.write_str("there is no column of yours on that square (R8)"),
            Refusal::NotAdjacent => f.write_str("a step goes to an adjacent square (R8)"),
        }
    }
}

/// Whether `b` is a jump away from `a`: two squares along one line (the designers write a jump
/// `e5-e7`, as a step).
fn a_jump_apart<V: Variant>(a: Square<V>, b: Square<V>) -> bool {
    V::DIRECTIONS
        .into_iter()
        .any(|d| a.neighbour(d).and_then(|n| n.neighbour(d)) == Some(b))
}

impl<V: Variant> Position<V> {
    /// Why `text` names no legal move here, or `None` when it does name one.
    pub fn refusal(&self, text: &MoveText<V>) -> Option<Refusal> {
        if self.find_legal_move(|m| text.matches(m)).is_some() {
            return None;
        }
        Some(self.refusal_of_unmatched(text))
    }

    /// The rule broken by `text`, which the caller already found to match no legal move.
    pub(crate) fn refusal_of_unmatched(&self, text: &MoveText<V>) -> Refusal {
        let squares = text.squares();
        let me: Color = self.turn();
        // Two squares a jump apart read as a capture (the designers' `e5-e7`); two that are
        // neither adjacent nor a jump apart are a step that goes too far (R8).
        let capture_text = text.says_capture()
            || squares.len() > 2
            || (squares.len() == 2 && a_jump_apart(squares[0], squares[1]));
        match self.phase() {
            Phase::Capture => {
                let most = self
                    .legal_moves()
                    .first()
                    .map(|m| m.captures())
                    .unwrap_or(0);
                if !capture_text {
                    Refusal::CaptureCompulsory
                } else if squares.len() - 1 < most {
                    Refusal::MajorityRule { men: most }
                } else {
                    Refusal::NoSuchCapture
                }
            }
            Phase::Enter if squares.len() == 1 => {
                let sq = squares[0];
                if !self.empty().contains(sq) {
                    Refusal::SquareTaken
                } else if sq == Square::CENTRE && self.is_first_move() {
                    Refusal::FirstEntryOnCentre {
                        centre: sq.square_name(),
                    }
                } else {
                    // An empty square that R9.3 allows is refused only by the entry condition.
                    debug_assert!(
                        !attackable(sq.bit(), self.owned(me.other()), self.empty()).is_empty()
                    );
                    Refusal::EntryCapturable
                }
            }
            Phase::Enter if capture_text => Refusal::NoCaptureAvailable,
            Phase::Enter => Refusal::MustEnter,
            Phase::Step if squares.len() == 1 => Refusal::NoMenInHand,
            Phase::Step if capture_text => Refusal::NoCaptureAvailable,
            Phase::Step => {
                let (from, to) = (squares[0], squares[1]);
                if !self.owned(me).contains(from) {
                    Refusal::NotYourColumn
                } else if !self.empty().contains(to) {
                    Refusal::SquareTaken
                } else {
                    Refusal::NotAdjacent
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(position: &str, text: &str) -> Option<Refusal> {
        let pos: crate::Position = position.parse().unwrap();
        pos.refusal(&text.parse().unwrap())
    }

    #[test]
    fn r9_3_white_may_not_open_on_e5() {
        assert_eq!(
            why("W:12:12", "e5"),
            Some(Refusal::FirstEntryOnCentre {
                centre: SquareName(*b"e5")
            })
        );
        assert_eq!(why("W:12:12", "d3"), None);
    }

    #[test]
    fn r9_4_an_entry_into_a_capture_is_refused_with_its_reason() {
        // A Black man on e5; White entering on e4 could be jumped to e3.
        assert_eq!(why("W:11:11:e5=B", "e4"), Some(Refusal::EntryCapturable));
        assert_eq!(why("W:11:11:e5=B", "e5"), Some(Refusal::SquareTaken));
    }

    #[test]
    fn r5_the_phase_decides_the_kind_of_move() {
        assert_eq!(why("W:11:11:e5=B", "e5-e6"), Some(Refusal::MustEnter));
        assert_eq!(why("W:0:0:e5=W,a5=B", "c5"), Some(Refusal::NoMenInHand));
        assert_eq!(
            why("W:0:0:e5=W,a5=B", "e5xe7"),
            Some(Refusal::NoCaptureAvailable)
        );
        assert_eq!(
            why("W:0:0:e5=W,a5=B", "a5-b5"),
            Some(Refusal::NotYourColumn)
        );
        assert_eq!(
            why("W:0:0:e5=W,a5=B", "e5-e7"),
            Some(Refusal::NoCaptureAvailable)
        );
    }

    /// R8: a step to a square neither adjacent nor a jump away is refused as a step, not as a
    /// capture that is not there.
    #[test]
    fn r8_a_step_too_far_is_refused_as_not_adjacent() {
        assert_eq!(why("W:0:0:e5=W,a5=B", "e5-c3"), Some(Refusal::NotAdjacent));
        assert_eq!(why("W:0:0:e5=W,a5=B", "e5-e8"), Some(Refusal::NotAdjacent));
        assert_eq!(why("W:0:0:e5=W,a5=B", "e5-e4"), None);
    }

    #[test]
    fn r7_3_the_majority_rule_is_named_with_the_size_it_asks_for() {
        // The worked example after f4-e4: Black must take two men with h4xf4xd4.
        let pos = "B:0:0:c5=B,d6=B,e4=WWWW,e5=B,g4=W,h4=BB";
        assert_eq!(why(pos, "h4xf4xd4"), None);
        assert_eq!(why(pos, "e5xe3"), Some(Refusal::MajorityRule { men: 2 }));
        assert_eq!(why(pos, "c5-b5"), Some(Refusal::CaptureCompulsory));
    }
}
