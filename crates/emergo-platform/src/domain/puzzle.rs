//! Puzzles (issue 21): the records `emergo puzzles generate` writes, one JSON object a line,
//! and the set shipped with the server (`data/puzzles.jsonl`), loaded into an empty database at
//! first start. Every record is checked through the core: its position is a position and its
//! line is legal from it.

use serde::{Deserialize, Serialize};

/// The shipped set.
const SHIPPED: &str = include_str!("../../data/puzzles.jsonl");

/// The most moves a puzzle's line may have.
pub const MAX_LINE: usize = 64;

/// The most themes a puzzle may carry, and the longest theme.
pub const MAX_THEMES: usize = 16;
pub const MAX_THEME_LEN: usize = 24;

/// Other replies of the opponent at one ply of the line, as good as the line's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Alternative {
    pub ply: usize,
    pub moves: Vec<String>,
}

/// One puzzle record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleRecord {
    pub id: String,
    pub variant: String,
    /// The position the solver faces (N2).
    pub position: String,
    /// The solution: the solver's moves and the replies alternating, the solver's first.
    pub line: Vec<String>,
    pub rating: u32,
    pub themes: Vec<String>,
    #[serde(default)]
    pub alternatives: Vec<Alternative>,
}

/// Why a record was refused.
#[derive(Clone, Debug, thiserror::Error)]
pub enum PuzzleError {
    #[error("line {line}: {message}")]
    Bad { line: usize, message: String },
}

impl PuzzleRecord {
    /// Checks the record through the core: an id of 1..=16 letters and digits, the square
    /// board, a position, a legal line of at most [`MAX_LINE`] moves ending with the solver's,
    /// legal alternatives, a rating and themes within bounds.
    pub fn check(&self) -> Result<(), String> {
        if self.id.is_empty()
            || self.id.len() > 16
            || !self.id.bytes().all(|b| b.is_ascii_alphanumeric())
        {
            return Err(format!(
                "id '{}' is not 1 to 16 letters and digits",
                self.id
            ));
        }
        let kind: emergo_core::VariantKind = self
            .variant
            .parse()
            .map_err(|_| format!("variant '{}': emergo, 7x7 or hex", self.variant))?;
        if self.line.is_empty() || self.line.len() > MAX_LINE || self.line.len().is_multiple_of(2) {
            return Err(format!(
                "a line of {} moves (1 to {MAX_LINE}, the solver's last)",
                self.line.len()
            ));
        }
        if !(100..=4000).contains(&self.rating) {
            return Err(format!("rating {}", self.rating));
        }
        if self.themes.len() > MAX_THEMES
            || self.themes.iter().any(|t| {
                t.is_empty()
                    || t.len() > MAX_THEME_LEN
                    || !t.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            })
        {
            return Err("themes: at most 16 words of letters, digits and _".to_string());
        }
        emergo_core::with_variant!(kind, V => self.check_line::<V>())?;
        if self.alternatives.iter().any(|a| a.ply >= self.line.len()) {
            return Err("an alternative past the line".to_string());
        }
        Ok(())
    }

    /// The position and every move of the line and its alternatives, read on the board `V`.
    fn check_line<V: emergo_core::Variant>(&self) -> Result<(), String> {
        let mut pos: emergo_core::position::Position<V> = self
            .position
            .parse()
            .map_err(|e| format!("position ({} board): {e}", V::KIND))?;
        for (ply, text) in self.line.iter().enumerate() {
            for alt in self.alternatives.iter().filter(|a| a.ply == ply) {
                for m in &alt.moves {
                    pos.parse_move(m)
                        .map_err(|e| format!("alternative {m} at ply {ply}: {e}"))?;
                }
            }
            let mv = pos
                .parse_move(text)
                .map_err(|e| format!("move {} ({text}): {e}", ply + 1))?;
            pos.play_unchecked(mv);
        }
        Ok(())
    }
}

/// Reads puzzle records, one JSON object a line (blank lines skipped), each checked.
pub fn parse_lines(text: &str) -> Result<Vec<PuzzleRecord>, PuzzleError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = |message: String| PuzzleError::Bad {
            line: i + 1,
            message,
        };
        let record: PuzzleRecord = serde_json::from_str(line).map_err(|e| bad(e.to_string()))?;
        record.check().map_err(bad)?;
        out.push(record);
    }
    Ok(out)
}

/// The shipped set (`data/puzzles.jsonl`), read and checked through the core once per process
/// (every server of a test process starts with it).
pub fn shipped() -> Result<&'static [PuzzleRecord], PuzzleError> {
    static SET: std::sync::OnceLock<Result<Vec<PuzzleRecord>, PuzzleError>> =
        std::sync::OnceLock::new();
    SET.get_or_init(|| parse_lines(SHIPPED))
        .as_deref()
        .map_err(Clone::clone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_puzzles_are_legal_and_named_once() {
        let set = shipped().expect("the shipped set reads");
        assert!(!set.is_empty());
        let ids: std::collections::HashSet<&str> = set.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids.len(), set.len(), "every id once");
    }

    #[test]
    fn a_line_with_an_illegal_move_is_refused() {
        let good = r#"{"id":"a1","variant":"emergo","position":"W:0:0:e5=W,f5=B","line":["e5xg5"],"rating":900,"themes":["one_move"]}"#;
        assert_eq!(parse_lines(good).expect("legal").len(), 1);
        let bad = good.replace("e5xg5", "e5-e6");
        let err = parse_lines(&bad).expect_err("a step where the capture is compulsory");
        assert!(err.to_string().contains("line 1"), "{err}");
        // A record is read on its board: a 7x7 position (8 men a side) is no 9x9 one.
        let seven = r#"{"id":"s1","variant":"7x7","position":"W:0:0:c3=W,d3=B","line":["c3xe3"],"rating":900,"themes":["one_move"]}"#;
        assert_eq!(parse_lines(seven).expect("a 7x7 record").len(), 1);
        let wrong_board = r#"{"id":"s2","variant":"7x7","position":"W:12:12","line":["d3"],"rating":900,"themes":["one_move"]}"#;
        let err = parse_lines(wrong_board).expect_err("12 men on the 7x7 board");
        assert!(err.to_string().contains("7x7 board"), "{err}");
        let chess = seven.replace(r#""7x7""#, r#""chess""#);
        assert!(parse_lines(&chess).is_err());
        let even = good.replace(r#"["e5xg5"]"#, r#"["e5xg5","a1"]"#);
        assert!(
            parse_lines(&even).is_err(),
            "the line ends with the solver's move"
        );
    }
}
