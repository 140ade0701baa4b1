//! Game records in the PGN style: tag pairs, numbered movetext, comments in braces, a result.
//!
//! ```text
//! [Event "Casual game"]
//! [White "Alice"]
//! [Black "emergo level 5"]
//! [Result "1-0"]
//!
//! 1. d3 a5 2. f2 {a quiet move} e1 3. d6 ... 1-0
//! ```
//! A game that starts elsewhere has a `[Position "<N2 text>"]` tag, written together with
//! `[SetUp "1"]` and `[FEN "<N2 text>"]` so that other programs read it too; either tag is read
//! as the start (N2 text or `startpos`), and two tags that give different starts are an error.
//! A game that ended by a declaration (resignation, agreement, time, abort) has a
//! `[Termination "resignation"]` tag (its reason's name).
//!
//! A game on another board than the square 9×9 one has a `[Variant "HexEmergo"]` tag (or
//! `"Emergo 7x7"`; `"Emergo"`, the square board, is what a record without the tag is). A record
//! is read for one board (`GameRecord::<V>::parse`); a `[Variant]` tag that names another board
//! is refused before any move is read, with the board it names in [`RecordError::variant`], and
//! [`record_variant`] reads the tag alone, for a reader that lets the record choose its board.
//!
//! A move may be followed by a comment and by variations, PGN's RAV: `1. d3 (1. d6 e1) 1... a5`
//! gives `1. d6 e1` as another line in place of `1. d3`, read from the position before `d3`.
//! Variations nest; the main line is what replays the game.
//! A comment is any text in braces; a `}` or `\` in it is written `\}` or `\\` (PGN's comments
//! cannot hold a `}` at all), and any other backslash stands for itself.
//! Records read and write losslessly; a bad record is rejected with its line and column, its
//! message written for a person (the move's number and word, why, a few legal moves).
//!
//! A bare move list (`1. d3 a5 2. f2`, no tags, no result token) reads too: without a result
//! token the result is the `Result` tag's, and with no tag either the game is unfinished.

mod movetext;

use crate::game::{EndReason, Game, Outcome, Status};
use crate::moves::Move;
use crate::position::Position;
use crate::refusal::Refusal;
use crate::variant::{Emergo, Variant, VariantKind};
use movetext::{write_line, Ending};
use std::collections::HashSet;
use std::fmt::{self, Write as _};
use thiserror::Error;

/// One move of a record, with the comment and the variations that follow it: a tree of lines
/// whose main line is the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove<V: Variant = Emergo> {
    /// The move.
    pub mv: Move<V>,
    /// The comment written after it, without its braces.
    pub comment: Option<String>,
    /// Other lines played instead of this move, each from the position before it (each
    /// non-empty; an empty one is not written).
    pub variations: Vec<Vec<RecordMove<V>>>,
}

impl<V: Variant> RecordMove<V> {
    /// A move without comment or variations.
    pub fn new(mv: Move<V>) -> RecordMove<V> {
        RecordMove {
            mv,
            comment: None,
            variations: Vec::new(),
        }
    }
}

/// A game record: tags in their order, the start, the moves, the result token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord<V: Variant = Emergo> {
    /// Tag pairs in order, `Position`, `Variant` and `Result` included.
    pub tags: Vec<(String, String)>,
    /// A comment before the first move.
    pub opening_comment: Option<String>,
    /// The moves in order.
    pub moves: Vec<RecordMove<V>>,
    /// The result: `None` for `*` (unfinished or unknown).
    pub result: Option<Outcome>,
}

/// What is wrong with a record, and where.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("game record, {at}: {message}")]
pub struct RecordError {
    /// Where the problem is.
    pub at: RecordPlace,
    /// What is wrong.
    pub message: String,
    /// The cap of [`RecordLimits`] the record went over, when that is what is wrong.
    pub limit: Option<RecordLimit>,
    /// The rule a move of the record breaks, when that is what is wrong (so that a reader can
    /// say it in its own words and language).
    pub refusal: Option<Refusal>,
    /// The board the record's `[Variant]` tag names, when the record was read for another
    /// board (so that a reader can read it again on its own board).
    pub variant: Option<VariantKind>,
}

/// Where in a record a problem is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordPlace {
    /// In the text, at a 1-based line and column.
    Text {
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
    },
    /// Replaying the moves: the 1-based ply whose move failed.
    Ply(usize),
    /// The result, declared on a game the rules have not ended.
    Result,
}

impl fmt::Display for RecordPlace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordPlace::Text { line, column } => write!(f, "line {line}, column {column}"),
            RecordPlace::Ply(ply) => write!(f, "ply {ply}"),
            RecordPlace::Result => f.write_str("result"),
        }
    }
}

impl RecordError {
    /// Line and column, when the problem is in the text.
    pub fn line_column(&self) -> Option<(usize, usize)> {
        match self.at {
            RecordPlace::Text { line, column } => Some((line, column)),
            _ => None,
        }
    }
}

/// Caps on what a record may hold, for records from strangers (a server's import). Lengths are
/// in bytes of UTF-8 text. [`GameRecord::parse`] reads without caps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordLimits {
    /// Tag pairs.
    pub tags: usize,
    /// The length of a tag's value.
    pub tag_length: usize,
    /// The length of a comment.
    pub comment_length: usize,
    /// Moves in the main line.
    pub plies: usize,
    /// Nesting of variations: 1 allows variations of the main line only, 0 none at all.
    pub variation_depth: usize,
    /// Moves in all variations together.
    pub variation_moves: usize,
}

impl RecordLimits {
    /// No caps.
    pub const NONE: RecordLimits = RecordLimits {
        tags: usize::MAX,
        tag_length: usize::MAX,
        comment_length: usize::MAX,
        plies: usize::MAX,
        variation_depth: usize::MAX,
        variation_moves: usize::MAX,
    };
}

/// One cap of [`RecordLimits`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordLimit {
    /// [`RecordLimits::tags`].
    Tags,
    /// [`RecordLimits::tag_length`].
    TagLength,
    /// [`RecordLimits::comment_length`].
    CommentLength,
    /// [`RecordLimits::plies`].
    Plies,
    /// [`RecordLimits::variation_depth`].
    VariationDepth,
    /// [`RecordLimits::variation_moves`].
    VariationMoves,
}

impl RecordLimit {
    /// `tags`, `tag_length`, `comment_length`, `plies`, `variation_depth`, `variation_moves`:
    /// the cap's field name.
    pub fn name(self) -> &'static str {
        match self {
            RecordLimit::Tags => "tags",
            RecordLimit::TagLength => "tag_length",
            RecordLimit::CommentLength => "comment_length",
            RecordLimit::Plies => "plies",
            RecordLimit::VariationDepth => "variation_depth",
            RecordLimit::VariationMoves => "variation_moves",
        }
    }
}

impl<V: Variant> GameRecord<V> {
    /// The value of a tag.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing its value or appending it.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(k, _)| k == name) {
            Some(pair) => pair.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The start position: the `Position` or `FEN` tag (N2 text or `startpos`), or the start of
    /// the game. Both tags may be given if they agree.
    pub fn start(&self) -> Result<Position<V>, RecordError> {
        let error = |message| RecordError {
            at: RecordPlace::Text { line: 1, column: 1 },
            message,
            limit: None,
            refusal: None,
            variant: None,
        };
        if let Some(tag) = self.tag(VARIANT_TAG) {
            variant_tag::<V>(tag).map_err(|(message, variant)| RecordError {
                variant,
                ..error(message)
            })?;
        }
        let mut start: Option<(&str, &str, Position<V>)> = None;
        for name in START_TAGS {
            let Some(text) = self.tag(name) else {
                continue;
            };
            let position = start_tag(name, text).map_err(error)?;
            match start {
                Some((first, first_text, first_position)) if first_position != position => {
                    return Err(error(conflict(first, first_text, name, text)));
                }
                Some(_) => {}
                None => start = Some((name, text, position)),
            }
        }
        Ok(start.map_or_else(Position::start, |(_, _, position)| position))
    }

    /// A record of `game` with the given tags (Event, White, ...). `Variant` (on the boards other
    /// than the square 9×9 one), `Position` (with `SetUp` and `FEN`), `Result` and `Termination`
    /// are set from the game.
    pub fn from_game(game: &Game<V>, tags: &[(&str, &str)]) -> GameRecord<V> {
        let mut record = GameRecord {
            tags: tags
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            opening_comment: None,
            moves: game.moves().iter().map(|&mv| RecordMove::new(mv)).collect(),
            result: None,
        };
        if V::KIND != VariantKind::Emergo {
            record.set_tag(VARIANT_TAG, V::KIND.tag());
        }
        if *game.start() != Position::start() {
            let text = game.start().to_string();
            record.set_tag("Position", &text);
            record.set_tag("SetUp", "1");
            record.set_tag("FEN", &text);
        }
        if let Status::Finished { outcome, reason } = game.status() {
            record.result = Some(outcome);
            if reason.is_declared() {
                record.set_tag("Termination", reason.name());
            }
        }
        record.set_tag("Result", result_token(record.result));
        record
    }

    /// Replays the record into a game. A result on a game the rules have not ended is kept as
    /// the ending R10.4 gives it: a win by resignation, a draw by agreement (whatever the
    /// `Termination` tag says, since records from elsewhere name time forfeits, adjudications
    /// and the like, or nothing).
    pub fn to_game(&self) -> Result<Game<V>, RecordError> {
        let mut game = Game::new(self.start()?);
        for (i, m) in self.moves.iter().enumerate() {
            game.play(m.mv).map_err(|e| RecordError {
                at: RecordPlace::Ply(i + 1),
                message: format!("move {}: {e}", m.mv),
                limit: None,
                refusal: None,
                variant: None,
            })?;
        }
        if let Some(outcome) = self.result {
            if game.status() == Status::Ongoing {
                let reason = match outcome {
                    Outcome::Win(_) => EndReason::Resignation,
                    Outcome::Draw => EndReason::Agreement,
                };
                game.declare(outcome, reason).map_err(|e| RecordError {
                    at: RecordPlace::Result,
                    message: format!("result {outcome}: {e}"),
                    limit: None,
                    refusal: None,
                    variant: None,
                })?;
            }
        }
        Ok(game)
    }

    /// Reads a record. Moves are checked against the rules as they are read.
    pub fn parse(text: &str) -> Result<GameRecord<V>, RecordError> {
        Parser::new(text, RecordLimits::NONE).record()
    }

    /// Reads a record within `limits`; going over one is an error that names it.
    pub fn parse_within(text: &str, limits: RecordLimits) -> Result<GameRecord<V>, RecordError> {
        Parser::new(text, limits).record()
    }
}

/// The board a record is for: its `[Variant]` tag's (absent: the square 9×9 board), read from
/// the tags alone. The record is then read with `GameRecord::<V>::parse` for that board (see
/// [`with_variant!`](crate::with_variant)).
pub fn record_variant(text: &str) -> Result<VariantKind, RecordError> {
    let mut parser = Parser::new(text, RecordLimits::NONE);
    let tags = parser.tags()?;
    match tags.iter().find(|t| t.name == VARIANT_TAG) {
        None => Ok(VariantKind::Emergo),
        Some(t) => VariantKind::from_tag(&t.value)
            .ok_or_else(|| parser.error(t.line, t.column, unknown_variant(&t.value))),
    }
}

/// The tag that names the board.
const VARIANT_TAG: &str = "Variant";

fn unknown_variant(value: &str) -> String {
    format!(
        "unknown variant \"{value}\" in the Variant tag (expected Emergo, Emergo 7x7 or HexEmergo)"
    )
}

/// Checks a `[Variant]` tag's value against the board `V` being read: the message, and the
/// board it names when it names another.
fn variant_tag<V: Variant>(value: &str) -> Result<(), (String, Option<VariantKind>)> {
    match VariantKind::from_tag(value) {
        None => Err((unknown_variant(value), None)),
        Some(kind) if kind != V::KIND => Err((
            format!(
                "this record is a game of {}, not of {}: its moves are on another board",
                kind.tag(),
                V::KIND.tag()
            ),
            Some(kind),
        )),
        Some(_) => Ok(()),
    }
}

/// The tags that give a start position: ours, then the one other programs write.
const START_TAGS: [&str; 2] = ["Position", "FEN"];

/// The start position a `Position` or `FEN` tag gives: N2 text, or `startpos`.
fn start_tag<V: Variant>(name: &str, text: &str) -> Result<Position<V>, String> {
    if text.trim() == "startpos" {
        return Ok(Position::start());
    }
    text.trim().parse().map_err(|e| format!("{name} tag: {e}"))
}

fn conflict(first: &str, first_text: &str, second: &str, second_text: &str) -> String {
    format!(
        "the {first} tag \"{first_text}\" and the {second} tag \"{second_text}\" \
         give different start positions"
    )
}

/// The movetext's result token: the outcome's, or `*`.
fn result_token(result: Option<Outcome>) -> &'static str {
    result.map_or("*", Outcome::token)
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// A comment as the movetext writes it: in braces, each `\\` and `}` inside written `\\\\` and
/// `\\}`, so that no comment ends early or turns into moves (`} 2. a5 {`): a written record
/// always reads back to the same tree.
fn comment_text(comment: &str) -> String {
    let mut out = String::with_capacity(comment.len() + 2);
    out.push('{');
    for c in comment.chars() {
        if matches!(c, '\\' | '}') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('}');
    out
}

impl<V: Variant> fmt::Display for GameRecord<V> {
    /// Writes the record: tags, a blank line, movetext wrapped at 80 columns, the result.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, v) in &self.tags {
            writeln!(f, "[{k} \"{}\"]", escape(v))?;
        }
        writeln!(f)?;
        let start = self.start().unwrap_or_default();
        let mut tokens: Vec<String> = Vec::new();
        if let Some(c) = &self.opening_comment {
            tokens.push(comment_text(c));
        }
        write_line(&mut tokens, &self.moves, start.turn(), 1);
        tokens.push(result_token(self.result).to_string());
        let mut line = String::new();
        for t in tokens {
            if !line.is_empty() && line.len() + 1 + t.len() > 80 {
                writeln!(f, "{line}")?;
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&t);
        }
        writeln!(f, "{line}")
    }
}

/// A hand-written reader that knows line and column of every character.
struct Parser<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    text: &'a str,
    line: usize,
    column: usize,
    limits: RecordLimits,
    /// Moves read in variations so far.
    variation_moves: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, limits: RecordLimits) -> Parser<'a> {
        Parser {
            chars: text.char_indices().peekable(),
            text,
            line: 1,
            column: 1,
            limits,
            variation_moves: 0,
        }
    }

    fn error(&self, line: usize, column: usize, message: impl Into<String>) -> RecordError {
        RecordError {
            at: RecordPlace::Text { line, column },
            message: message.into(),
            limit: None,
            refusal: None,
            variant: None,
        }
    }

    fn over(&self, line: usize, column: usize, limit: RecordLimit, cap: usize) -> RecordError {
        let what = match limit {
            RecordLimit::Tags => "tags",
            RecordLimit::TagLength => "bytes in a tag value",
            RecordLimit::CommentLength => "bytes in a comment",
            RecordLimit::Plies => "moves",
            RecordLimit::VariationDepth => "variations nested in one another",
            RecordLimit::VariationMoves => "moves in variations",
        };
        RecordError {
            limit: Some(limit),
            ..self.error(line, column, format!("more than {cap} {what}"))
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.chars.peek().map(|&(_, c)| c)
    }

    fn bump(&mut self) -> Option<char> {
        let (_, c) = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn offset(&mut self) -> usize {
        self.chars.peek().map_or(self.text.len(), |&(i, _)| i)
    }

    /// The tag pairs at the top of a record, each with where it stands.
    fn tags(&mut self) -> Result<Vec<TagAt>, RecordError> {
        let mut tags: Vec<TagAt> = Vec::new();
        let mut names = HashSet::new();
        self.skip_space();
        while self.peek() == Some('[') {
            let (line, column) = (self.line, self.column);
            if tags.len() == self.limits.tags {
                return Err(self.over(line, column, RecordLimit::Tags, self.limits.tags));
            }
            let (name, value) = self.tag()?;
            if !names.insert(name.clone()) {
                return Err(self.error(line, column, format!("tag {name} is given twice")));
            }
            tags.push(TagAt {
                name,
                value,
                line,
                column,
            });
            self.skip_space();
        }
        Ok(tags)
    }

    fn record<V: Variant>(mut self) -> Result<GameRecord<V>, RecordError> {
        let tags = self.tags()?;
        // The board first: a start position or a move of another board would say less.
        if let Some(t) = tags.iter().find(|t| t.name == VARIANT_TAG) {
            variant_tag::<V>(&t.value).map_err(|(message, variant)| RecordError {
                variant,
                ..self.error(t.line, t.column, message)
            })?;
        }
        let mut start: Option<(&str, &str, Position<V>)> = None;
        for t in tags
            .iter()
            .filter(|t| START_TAGS.contains(&t.name.as_str()))
        {
            let position =
                start_tag(&t.name, &t.value).map_err(|e| self.error(t.line, t.column, e))?;
            match &start {
                Some((first, first_text, first_position)) if *first_position != position => {
                    let message = conflict(first, first_text, &t.name, &t.value);
                    return Err(self.error(t.line, t.column, message));
                }
                Some(_) => {}
                None => start = Some((&t.name, &t.value, position)),
            }
        }
        let tags = tags.into_iter().map(|t| (t.name, t.value)).collect();
        let mut record = GameRecord {
            tags,
            opening_comment: None,
            moves: Vec::new(),
            result: None,
        };
        let mut game = Game::new(record.start()?);
        let (moves, opening_comment, ending) = self.line(&mut game, 0, (1, 1))?;
        record.moves = moves;
        record.opening_comment = opening_comment;
        let tag = record.tag("Result");
        let declared = match ending {
            Ending::Result {
                result,
                token,
                line,
                column,
            } => {
                self.skip_space();
                if self.peek().is_some() {
                    return Err(self.error(self.line, self.column, "text after the result"));
                }
                if let Some(tag) = tag.filter(|&tag| tag != token) {
                    return Err(self.error(
                        1,
                        1,
                        format!("Result tag {tag} differs from the movetext's {token}"),
                    ));
                }
                Some((result, token.to_string(), line, column))
            }
            // No result token: the Result tag's, else an unfinished game.
            Ending::End | Ending::Close => match tag {
                Some(tag) => {
                    let result = result_of_token(tag).ok_or_else(|| {
                        self.error(
                            1,
                            1,
                            format!("Result tag {tag} is not 1-0, 0-1, 1/2-1/2 or *"),
                        )
                    })?;
                    Some((result, tag.to_string(), 1, 1))
                }
                None => None,
            },
        };
        if let Some((result, token, line, column)) = declared {
            if let (Some(token_outcome), Status::Finished { outcome, .. }) = (result, game.status())
            {
                if token_outcome != outcome {
                    return Err(self.error(
                        line,
                        column,
                        format!("result {token}, but by the rules the game ended {outcome}"),
                    ));
                }
            }
            record.result = result;
        }
        Ok(record)
    }

    fn token(&mut self) -> &'a str {
        let start = self.offset();
        while self
            .peek()
            .is_some_and(|c| !c.is_whitespace() && !matches!(c, '{' | '[' | '(' | ')'))
        {
            self.bump();
        }
        let end = self.offset();
        &self.text[start..end]
    }

    /// A comment in braces; `\}` and `\\` inside stand for `}` and `\` (see [`comment_text`]),
    /// any other backslash for itself.
    fn comment(&mut self) -> Result<String, RecordError> {
        let (line, column) = (self.line, self.column);
        self.bump();
        let start = self.offset();
        let mut text = String::new();
        loop {
            match self.bump() {
                None => return Err(self.error(line, column, "a comment is not closed with '}'")),
                Some('}') => break,
                Some('\\') => match self.peek() {
                    Some(c @ ('}' | '\\')) => {
                        self.bump();
                        text.push(c);
                    }
                    _ => text.push('\\'),
                },
                Some(c) => text.push(c),
            }
            if self.offset() - start > self.limits.comment_length {
                let cap = self.limits.comment_length;
                return Err(self.over(line, column, RecordLimit::CommentLength, cap));
            }
        }
        Ok(text)
    }

    fn tag(&mut self) -> Result<(String, String), RecordError> {
        let (line, column) = (self.line, self.column);
        self.bump();
        let start = self.offset();
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            self.bump();
        }
        let end = self.offset();
        let name = self.text[start..end].to_string();
        if name.is_empty() {
            return Err(self.error(line, column + 1, "a tag needs a name"));
        }
        while self.peek() == Some(' ') {
            self.bump();
        }
        if self.peek() != Some('"') {
            return Err(self.error(self.line, self.column, format!("tag {name}: expected '\"'")));
        }
        self.bump();
        let mut value = String::new();
        loop {
            match self.bump() {
                None | Some('\n') => {
                    return Err(self.error(
                        line,
                        column,
                        format!("tag {name}: value not closed with '\"'"),
                    ))
                }
                Some('\\') => match self.bump() {
                    Some(c @ ('\\' | '"')) => value.push(c),
                    _ => {
                        return Err(self.error(
                            self.line,
                            self.column - 1,
                            "bad escape in a tag value",
                        ))
                    }
                },
                Some('"') => break,
                Some(c) => value.push(c),
            }
            if value.len() > self.limits.tag_length {
                let cap = self.limits.tag_length;
                return Err(self.over(line, column, RecordLimit::TagLength, cap));
            }
        }
        while self.peek() == Some(' ') {
            self.bump();
        }
        if self.peek() != Some(']') {
            return Err(self.error(self.line, self.column, format!("tag {name}: expected ']'")));
        }
        self.bump();
        Ok((name, value))
    }
}

/// The move of a token that begins with a move number, `1.d3` (`d3`) or `12...a5` (`a5`); `None`
/// when the token does not start with digits and one or three dots, or has nothing after them.
fn after_move_number(token: &str) -> Option<&str> {
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    let rest = &token[digits..];
    let move_text = rest
        .strip_prefix("...")
        .or_else(|| rest.strip_prefix('.'))?;
    (!move_text.is_empty() && !move_text.starts_with('.')).then_some(move_text)
}

fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    let dots = token.len() - digits.len();
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) && (dots == 1 || dots == 3)
}

/// The result a movetext token gives: `Some(None)` for `*`, `None` if it is no result token.
fn result_of_token(token: &str) -> Option<Option<Outcome>> {
    if token == "*" {
        Some(None)
    } else {
        token.parse().ok().map(Some)
    }
}

/// Splits a file of records written one after another (as `emergo match --pgn` writes them)
/// into the text of each, with the line it starts on: a record begins at a tag line that
/// follows movetext, or at the top of the file. Read each with [`GameRecord::parse`].
pub fn split_records(text: &str) -> Vec<(usize, &str)> {
    let mut starts: Vec<(usize, usize)> = Vec::new();
    let mut in_movetext = true;
    let mut offset = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let trimmed = line.trim();
        if starts.is_empty() || (trimmed.starts_with('[') && in_movetext) {
            starts.push((i + 1, offset));
        }
        if !trimmed.is_empty() {
            in_movetext = !trimmed.starts_with('[');
        }
        offset += line.len();
    }
    let ends = starts.iter().skip(1).map(|&(_, at)| at).chain([text.len()]);
    starts
        .iter()
        .zip(ends)
        .map(|(&(line, start), end)| (line, &text[start..end]))
        .filter(|(_, record)| !record.trim().is_empty())
        .collect()
}

/// A tag pair read, with its line and column.
struct TagAt {
    name: String,
    value: String,
    line: usize,
    column: usize,
}

/// Writes a record of `game` as text (a convenience over [`GameRecord::from_game`]).
pub fn write_game<V: Variant>(game: &Game<V>, tags: &[(&str, &str)]) -> String {
    let mut out = String::new();
    let _ = write!(out, "{}", GameRecord::from_game(game, tags));
    out
}
