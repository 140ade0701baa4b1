//! Movetext as a tree: reading a line of moves with its comments and nested variations, and
//! writing it back.

use super::{
    after_move_number, comment_text, is_move_number, result_of_token, Parser, RecordError,
    RecordLimit, RecordMove,
};
use crate::color::Color;
use crate::game::{Game, Outcome};
use crate::moves::Move;
use crate::notation::MoveTextError;
use crate::position::Position;
use crate::refusal::MoveError;
use crate::variant::Variant;

/// Variations nest at most this deep whatever the limits say: the reader is recursive.
pub(super) const MAX_NESTING: usize = 200;

/// A line read: its moves, the comment before its first move (main line only), and how it ended.
pub(super) type Line<'a, V> = (Vec<RecordMove<V>>, Option<String>, Ending<'a>);

/// How a line of movetext ended.
pub(super) enum Ending<'a> {
    /// The main line's result token, where it stands.
    Result {
        result: Option<Outcome>,
        token: &'a str,
        line: usize,
        column: usize,
    },
    /// The end of the text with no result token: an unfinished game, or one whose result the
    /// `Result` tag gives.
    End,
    /// A variation's `)`.
    Close,
}

impl<'a> Parser<'a> {
    /// Reads a line of moves played on from `game`: the main line at `depth` 0 (up to its result
    /// token), or a variation nested `depth` deep whose `(` stands at `open` (up to its `)`).
    /// Returns the moves, the comment before the first move (main line only), and the ending.
    pub(super) fn line<V: Variant>(
        &mut self,
        game: &mut Game<V>,
        depth: usize,
        open: (usize, usize),
    ) -> Result<Line<'a, V>, RecordError> {
        let mut moves: Vec<RecordMove<V>> = Vec::new();
        let mut opening_comment = None;
        loop {
            self.skip_space();
            let (line, column) = (self.line, self.column);
            match self.peek() {
                None if depth == 0 => return Ok((moves, opening_comment, Ending::End)),
                None => {
                    return Err(self.error(open.0, open.1, "a variation is not closed with ')'"))
                }
                Some('{') => {
                    let comment = self.comment()?;
                    let slot = match moves.last_mut() {
                        Some(m) => &mut m.comment,
                        None if depth == 0 => &mut opening_comment,
                        None => {
                            return Err(self.error(
                                line,
                                column,
                                "a comment before a variation's first move",
                            ))
                        }
                    };
                    if slot.is_some() {
                        return Err(self.error(line, column, "two comments on one move"));
                    }
                    *slot = Some(comment);
                }
                Some('[') => {
                    return Err(self.error(line, column, "a tag after the movetext has begun"))
                }
                Some('(') => {
                    let Some(last) = moves.last_mut() else {
                        return Err(self.error(line, column, "a variation before any move"));
                    };
                    let cap = self.limits.variation_depth.min(MAX_NESTING);
                    if depth + 1 > cap {
                        return Err(self.over(line, column, RecordLimit::VariationDepth, cap));
                    }
                    self.bump();
                    let mut before = game.clone();
                    before.undo();
                    let (variation, _, _) = self.line(&mut before, depth + 1, (line, column))?;
                    if variation.is_empty() {
                        return Err(self.error(line, column, "an empty variation"));
                    }
                    last.variations.push(variation);
                }
                Some(')') if depth == 0 => {
                    return Err(self.error(line, column, "')' closes no variation"))
                }
                Some(')') => {
                    self.bump();
                    return Ok((moves, None, Ending::Close));
                }
                Some(_) => {
                    let token = self.token();
                    if let Some(result) = result_of_token(token) {
                        if depth > 0 {
                            return Err(self.error(
                                line,
                                column,
                                format!("result {token} inside a variation"),
                            ));
                        }
                        let ending = Ending::Result {
                            result,
                            token,
                            line,
                            column,
                        };
                        return Ok((moves, opening_comment, ending));
                    }
                    if is_move_number(token) {
                        continue;
                    }
                    // A move written against its number, `1.d3` or `1...a5`: the move after it.
                    let (token, column) = match after_move_number(token) {
                        Some(rest) => (rest, column + (token.len() - rest.len())),
                        None => (token, column),
                    };
                    if depth == 0 && moves.len() == self.limits.plies {
                        return Err(self.over(line, column, RecordLimit::Plies, self.limits.plies));
                    }
                    if depth > 0 {
                        let cap = self.limits.variation_moves;
                        if self.variation_moves == cap {
                            return Err(self.over(line, column, RecordLimit::VariationMoves, cap));
                        }
                        self.variation_moves += 1;
                    }
                    moves.push(RecordMove::new(self.play(game, token, line, column)?));
                }
            }
        }
    }

    /// Plays the move `token` in `game`, or says for a person what is wrong with it: its move
    /// number, the word, why, and a few of the legal moves.
    fn play<V: Variant>(
        &self,
        game: &mut Game<V>,
        token: &str,
        line: usize,
        column: usize,
    ) -> Result<Move<V>, RecordError> {
        let position = *game.position();
        let at = move_label(game.ply(), game.start().turn(), token);
        if game.is_over() {
            return Err(self.error(line, column, format!("{at} comes after the game has ended")));
        }
        let mv = position.parse_move(token).map_err(|e| {
            let refusal = match &e {
                MoveError::NoLegalMatch { reason, .. } => Some(*reason),
                MoveError::Syntax { .. } => None,
            };
            let why = match e {
                MoveError::Syntax {
                    source: MoveTextError::BadSquare { text, names, .. },
                    ..
                } => format!("'{text}' is not a square (squares are {names})"),
                MoveError::Syntax { source, .. } => format!("this is not a move: {source}"),
                MoveError::NoLegalMatch { reason, .. } => {
                    format!("this is not a legal move here: {reason}")
                }
            };
            let legal = some_legal_moves(&position);
            RecordError {
                refusal,
                ..self.error(line, column, format!("{at}: {why}; {legal}"))
            }
        })?;
        game.play(mv)
            .map_err(|e| self.error(line, column, format!("{at}: {e}")))?;
        Ok(mv)
    }
}

/// How many legal moves an error names.
const LEGAL_SHOWN: usize = 6;

/// `move 3... 'zz'`: the move number as the movetext writes it, and the word read, quoted.
fn move_label(ply: usize, first: Color, token: &str) -> String {
    let black_first = usize::from(first == Color::Black);
    let number = (ply + black_first) / 2 + 1;
    let dots = if (ply + black_first).is_multiple_of(2) {
        "."
    } else {
        "..."
    };
    let shown: String = token.chars().take(40).collect();
    format!("move {number}{dots} '{shown}'")
}

/// A few of the legal moves, for a person: `the legal moves here are d3, d4, ... (40 in all)`.
fn some_legal_moves<V: Variant>(position: &Position<V>) -> String {
    let mut legal: Vec<String> = position.legal_moves().iter().map(Move::to_string).collect();
    legal.sort();
    match legal.len() {
        0 => "there is no legal move here".to_string(),
        n if n <= LEGAL_SHOWN => format!("the legal moves here are {}", legal.join(", ")),
        n => format!(
            "the legal moves here include {}, ... ({n} in all)",
            legal[..LEGAL_SHOWN].join(", ")
        ),
    }
}

/// Appends the tokens of `moves` to `tokens`, the first move played by `turn` in move `number`:
/// move numbers, moves, comments in braces, variations in parentheses.
pub(super) fn write_line<V: Variant>(
    tokens: &mut Vec<String>,
    moves: &[RecordMove<V>],
    mut turn: Color,
    mut number: usize,
) {
    let mut need_number = true;
    for m in moves {
        match turn {
            Color::White => tokens.push(format!("{number}.")),
            Color::Black if need_number => tokens.push(format!("{number}...")),
            Color::Black => {}
        }
        tokens.push(m.mv.to_string());
        need_number = false;
        if let Some(c) = &m.comment {
            tokens.push(comment_text(c));
            need_number = true;
        }
        for variation in m.variations.iter().filter(|v| !v.is_empty()) {
            let first = tokens.len();
            write_line(tokens, variation, turn, number);
            tokens[first].insert(0, '(');
            if let Some(last) = tokens.last_mut() {
                last.push(')');
            }
            need_number = true;
        }
        if turn == Color::Black {
            number += 1;
        }
        turn = turn.other();
    }
}
