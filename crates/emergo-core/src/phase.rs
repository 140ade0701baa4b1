//! Which kind of move the side to move must make (R5), derived once from the position.

use crate::position::Position;
use crate::variant::Variant;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The kind of move the side to move must make (R5). Its words are `capture`, `enter` and `step`
/// everywhere: in `emergo show`, in the game view's `phase` field and in text parsed back.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// R5.1: the side to move can capture, so it must.
    Capture,
    /// R5.2: no capture, men in hand: it must enter.
    Enter,
    /// R5.3: no capture, no men in hand: it steps.
    Step,
}

impl Phase {
    /// All three phases, in R5's order of precedence.
    pub const ALL: [Phase; 3] = [Phase::Capture, Phase::Enter, Phase::Step];

    /// The phase's word: `capture`, `enter` or `step`.
    pub const fn name(self) -> &'static str {
        match self {
            Phase::Capture => "capture",
            Phase::Enter => "enter",
            Phase::Step => "step",
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Text that names no phase.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("unknown phase `{0}` (expected capture, enter or step)")]
pub struct PhaseError(pub String);

impl FromStr for Phase {
    type Err = PhaseError;

    fn from_str(s: &str) -> Result<Phase, PhaseError> {
        Phase::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| PhaseError(s.to_string()))
    }
}

impl<V: Variant> Position<V> {
    /// The kind of move the side to move must make (R5): capture if it can (R5.1), else enter
    /// if it has men in hand (R5.2), else step (R5.3). The move generator decides by the same
    /// test, in the same order.
    /// A position with no legal move still has a phase: the one whose moves are missing.
    #[inline]
    pub fn phase(&self) -> Phase {
        let me = self.turn();
        if self.can_capture(me) {
            Phase::Capture
        } else if self.hand(me) > 0 {
            Phase::Enter
        } else {
            Phase::Step
        }
    }
}
