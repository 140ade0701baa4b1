//! A game: its start, its moves, undo, repetition and result (R10).

use crate::color::Color;
use crate::moves::Move;
use crate::position::{PlayError, Position};
use crate::refusal::MoveError;
use crate::repetition::Repetitions;
use crate::variant::{Emergo, Variant};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// How a finished game came out.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This side won.
    Win(Color),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The PGN-style result token: `1-0`, `0-1`, `1/2-1/2`.
    pub fn token(self) -> &'static str {
        match self {
            Outcome::Win(Color::White) => "1-0",
            Outcome::Win(Color::Black) => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }
}

/// The result token, as [`Outcome::token`].
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// Text that is not a result token (`1-0`, `0-1`, `1/2-1/2`), or a reason no ending has.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EndTextError {
    /// Not `1-0`, `0-1` or `1/2-1/2`.
    #[error("unknown result `{0}` (expected 1-0, 0-1 or 1/2-1/2)")]
    Outcome(String),
    /// Not one of the names of [`EndReason`].
    #[error("unknown end reason `{0}`")]
    Reason(String),
}

/// Reads a result token: `1-0`, `0-1` or `1/2-1/2`.
impl FromStr for Outcome {
    type Err = EndTextError;

    fn from_str(token: &str) -> Result<Outcome, EndTextError> {
        [
            Outcome::Win(Color::White),
            Outcome::Win(Color::Black),
            Outcome::Draw,
        ]
        .into_iter()
        .find(|o| o.token() == token)
        .ok_or_else(|| EndTextError::Outcome(token.to_string()))
    }
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// R10.1: the side to move owns no column and has no men in hand.
    NoPieces,
    /// R10.2: the side to move has no legal move.
    Blocked,
    /// R10.3: the same position for the third time.
    Repetition,
    /// R10.4: a side resigned.
    Resignation,
    /// R10.4: the players agreed to a draw.
    Agreement,
    /// Not a rule: a player of a timed game ran out of time (a server's clock decides it).
    Time,
    /// Not a rule: a timed game ended before each side had moved once, and does not count.
    Aborted,
    /// Not a rule: a player of a tournament game did not make its first move in the time
    /// allowed (a server decides it); the other wins.
    Absent,
}

impl EndReason {
    /// A short lower-case name, as used in the `Termination` tag of records.
    pub fn name(self) -> &'static str {
        match self {
            EndReason::NoPieces => "no pieces",
            EndReason::Blocked => "blocked",
            EndReason::Repetition => "threefold repetition",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Time => "time",
            EndReason::Aborted => "aborted",
            EndReason::Absent => "absent",
        }
    }

    /// Every reason.
    pub const ALL: [EndReason; 8] = [
        EndReason::NoPieces,
        EndReason::Blocked,
        EndReason::Repetition,
        EndReason::Resignation,
        EndReason::Agreement,
        EndReason::Time,
        EndReason::Aborted,
        EndReason::Absent,
    ];

    /// Whether players (or their clocks) declare this ending, rather than the position.
    pub fn is_declared(self) -> bool {
        matches!(
            self,
            EndReason::Resignation
                | EndReason::Agreement
                | EndReason::Time
                | EndReason::Aborted
                | EndReason::Absent
        )
    }
}

/// Reads a reason's [`EndReason::name`].
impl FromStr for EndReason {
    type Err = EndTextError;

    fn from_str(name: &str) -> Result<EndReason, EndTextError> {
        EndReason::ALL
            .into_iter()
            .find(|r| r.name() == name)
            .ok_or_else(|| EndTextError::Reason(name.to_string()))
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The state of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move has a move to make.
    Ongoing,
    /// The game is over.
    Finished {
        /// Who won, or a draw.
        outcome: Outcome,
        /// Why it ended.
        reason: EndReason,
    },
}

/// Why a game refused an action.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameError<V: Variant = Emergo> {
    /// The game has ended; nothing more can be played or declared.
    #[error("the game is over ({0:?})")]
    Over(Status),
    /// Move text that names no legal move.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A move that is not legal in the current position (boxed: it holds the position).
    #[error(transparent)]
    Illegal(Box<PlayError<V>>),
    /// An ending that players cannot declare (only resignation and agreement, R10.4, and the
    /// endings of a clock: time, abort).
    #[error("{} ending in {} is not one players declare (R10.4: resignation wins, agreement draws; a clock's time wins or draws, an abort draws)", .reason.name(), .outcome.token())]
    NotDeclarable {
        /// The outcome asked for.
        outcome: Outcome,
        /// The reason asked for.
        reason: EndReason,
    },
}

impl<V: Variant> From<PlayError<V>> for GameError<V> {
    fn from(e: PlayError<V>) -> GameError<V> {
        GameError::Illegal(Box::new(e))
    }
}

/// A game from some start: its positions and moves, with repetition detection (R10.3) and
/// game-level endings (R10.4).
#[derive(Clone, Debug)]
pub struct Game<V: Variant = Emergo> {
    /// `positions[i]` stands before `moves[i]`; the last one is the current position.
    positions: Vec<Position<V>>,
    moves: Vec<Move<V>>,
    /// Every position counted for R10.3, in step with `positions`.
    history: Repetitions,
    /// A resignation or agreed draw, which no position shows.
    declared: Option<(Outcome, EndReason)>,
}

impl<V: Variant> Default for Game<V> {
    fn default() -> Self {
        Game::new(Position::start())
    }
}

impl<V: Variant> Game<V> {
    /// A new game from `start`.
    pub fn new(start: Position<V>) -> Game<V> {
        Game {
            positions: vec![start],
            moves: Vec::new(),
            history: Repetitions::of([&start]),
            declared: None,
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position<V> {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position<V> {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move<V>] {
        &self.moves
    }

    /// Every position of the game, the start first and the current last.
    pub fn positions(&self) -> &[Position<V>] {
        &self.positions
    }

    /// The number of moves played.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// How often the current position has occurred in this game, itself included (R10.3).
    /// O(1): the game keeps its positions counted in a [`Repetitions`].
    pub fn repetitions(&self) -> usize {
        self.history.current_count() as usize
    }

    /// The game's positions counted for R10.3.
    pub fn history(&self) -> &Repetitions {
        &self.history
    }

    /// The game's status: ongoing, or finished with its outcome and reason (R10). Costs one
    /// look at the current position, whatever the game's length.
    pub fn status(&self) -> Status {
        if let Some((outcome, reason)) = self.declared {
            return Status::Finished { outcome, reason };
        }
        let pos = self.position();
        if pos.is_lost() {
            return Status::Finished {
                outcome: Outcome::Win(pos.turn().other()),
                reason: EndReason::NoPieces,
            };
        }
        if self.repetitions() >= 3 {
            return Status::Finished {
                outcome: Outcome::Draw,
                reason: EndReason::Repetition,
            };
        }
        if pos.has_no_moves() {
            return Status::Finished {
                outcome: Outcome::Draw,
                reason: EndReason::Blocked,
            };
        }
        Status::Ongoing
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.status() != Status::Ongoing
    }

    /// Plays a legal move; refuses an illegal one or any move after the end, changing nothing.
    pub fn play(&mut self, mv: Move<V>) -> Result<(), GameError<V>> {
        let status = self.status();
        if status != Status::Ongoing {
            return Err(GameError::Over(status));
        }
        let next = self.position().play(mv)?;
        self.history.push(&next);
        self.positions.push(next);
        self.moves.push(mv);
        Ok(())
    }

    /// Plays a move given in notation (N1).
    pub fn play_text(&mut self, text: &str) -> Result<Move<V>, GameError<V>> {
        let status = self.status();
        if status != Status::Ongoing {
            return Err(GameError::Over(status));
        }
        let mv = self.position().parse_move(text)?;
        self.play(mv)?;
        Ok(mv)
    }

    /// Takes back the last move (and any declared ending); `None` at the start.
    pub fn undo(&mut self) -> Option<Move<V>> {
        self.declared = None;
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.history.pop();
        Some(mv)
    }

    /// R10.4: `color` resigns.
    pub fn resign(&mut self, color: Color) -> Result<(), GameError<V>> {
        self.declare(Outcome::Win(color.other()), EndReason::Resignation)
    }

    /// R10.4: the players agree to a draw.
    pub fn agree_draw(&mut self) -> Result<(), GameError<V>> {
        self.declare(Outcome::Draw, EndReason::Agreement)
    }

    /// Ends an ongoing game by resignation (a win) or agreement (a draw), or as a clock says:
    /// on time (a win, or a draw when the winner could not win), aborted (counted as a draw by
    /// nobody), or a win over a tournament player who was absent. The endings the rules decide (R10.1-R10.3) come from the position, never from a
    /// declaration.
    pub fn declare(&mut self, outcome: Outcome, reason: EndReason) -> Result<(), GameError<V>> {
        let declarable = matches!(
            (outcome, reason),
            (Outcome::Win(_), EndReason::Resignation)
                | (Outcome::Draw, EndReason::Agreement)
                | (_, EndReason::Time)
                | (Outcome::Draw, EndReason::Aborted)
                | (Outcome::Win(_), EndReason::Absent)
        );
        if !declarable {
            return Err(GameError::NotDeclarable { outcome, reason });
        }
        let status = self.status();
        if status != Status::Ongoing {
            return Err(GameError::Over(status));
        }
        self.declared = Some((outcome, reason));
        Ok(())
    }
}
