//! The arguments of `go` (times in milliseconds). Nothing here refuses a search: a token that
//! cannot be used is reported in a note and ignored, so that every `go` ends in `bestmove`.

use crate::player::{Clock, Limits};
use std::time::Duration;

/// The keys `go` knows, each with whether it takes a value.
const KEYS: [(&str, bool); 15] = [
    ("p1time", true),
    ("p2time", true),
    ("wtime", true),
    ("btime", true),
    ("p1inc", true),
    ("p2inc", true),
    ("winc", true),
    ("binc", true),
    ("movestogo", true),
    ("movetime", true),
    ("depth", true),
    ("nodes", true),
    ("mate", true),
    ("infinite", false),
    ("ponder", false),
];

/// What a `go` line asks for, and a note for each token it ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub limits: Limits,
    pub notes: Vec<String>,
}

/// Reads the arguments of `go`.
pub fn parse_go(args: &[&str]) -> Go {
    let mut go = Go::default();
    let mut clock = Clock::default();
    let mut has_clock = false;
    let mut mate = None;
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        i += 1;
        let Some(&(_, takes_value)) = KEYS.iter().find(|(k, _)| *k == key) else {
            if key == "searchmoves" {
                let start = i;
                while i < args.len() && !KEYS.iter().any(|(k, _)| *k == args[i]) {
                    i += 1;
                }
                go.notes.push(format!(
                    "'searchmoves {}' is not supported; all moves are searched",
                    args[start..i].join(" ")
                ));
                continue;
            }
            // An unknown key's number is taken as its value and ignored with it.
            let value = args.get(i).filter(|v| v.parse::<u64>().is_ok());
            let text = match value {
                Some(v) => {
                    i += 1;
                    format!("{key} {v}")
                }
                None => key.to_string(),
            };
            go.notes
                .push(format!("unknown 'go' parameter '{text}' ignored"));
            continue;
        };
        if !takes_value {
            match key {
                "infinite" => go.limits.infinite = true,
                _ => go
                    .notes
                    .push("'ponder' is not supported; searching as a plain 'go'".to_string()),
            }
            continue;
        }
        let number = match args.get(i) {
            Some(v) if !KEYS.iter().any(|(k, _)| k == v) => {
                i += 1;
                v.parse::<u64>().map_err(|_| *v)
            }
            _ => {
                go.notes.push(format!("'{key}' needs a value; ignored"));
                continue;
            }
        };
        let number = match number {
            Ok(n) => n,
            Err(v) => {
                go.notes
                    .push(format!("'{key}' needs a whole number, got '{v}'; ignored"));
                continue;
            }
        };
        let ms = Duration::from_millis(number);
        let count = u32::try_from(number).unwrap_or(u32::MAX);
        match key {
            "p1time" | "wtime" => (clock.time.white, has_clock) = (ms, true),
            "p2time" | "btime" => (clock.time.black, has_clock) = (ms, true),
            "p1inc" | "winc" => clock.inc.white = ms,
            "p2inc" | "binc" => clock.inc.black = ms,
            "movestogo" if count == 0 => go
                .notes
                .push("'movestogo' must be at least 1; ignored".to_string()),
            "movestogo" => clock.moves_to_go = Some(count),
            "movetime" => go.limits.movetime = Some(ms),
            "depth" | "mate" if count == 0 => go
                .notes
                .push(format!("'{key}' must be at least 1; ignored")),
            "depth" => go.limits.depth = Some(count),
            "mate" => mate = Some(count),
            _ => go.limits.nodes = Some(number.max(1)),
        }
    }
    if has_clock {
        go.limits.clock = Some(clock);
    } else if clock.moves_to_go.is_some() {
        go.notes
            .push("'movestogo' without 'p1time'/'p2time' ignored".to_string());
    }
    if let Some(moves) = mate {
        // A win in N moves is found by a full-width search of 2N-1 plies.
        let plies = moves.saturating_mul(2) - 1;
        match go.limits.depth {
            Some(_) => go
                .notes
                .push(format!("'mate {moves}' ignored: 'depth' is given")),
            None => {
                go.limits.depth = Some(plies);
                go.notes
                    .push(format!("'mate {moves}' is searched as 'depth {plies}'"));
            }
        }
    }
    go
}

#[cfg(test)]
mod tests {
    use super::*;
    use emergo_core::ByColor;

    fn go(line: &str) -> Go {
        parse_go(&line.split_whitespace().collect::<Vec<_>>())
    }

    #[test]
    fn clocks_increments_and_movestogo_are_read() {
        let g = go("p1time 1000 p2time 900 p1inc 10 binc 20 movestogo 20");
        assert!(g.notes.is_empty(), "{:?}", g.notes);
        let clock = g.limits.clock.unwrap();
        assert_eq!(
            clock.time,
            ByColor::new(1000, 900).map(Duration::from_millis)
        );
        assert_eq!(clock.inc, ByColor::new(10, 20).map(Duration::from_millis));
        assert_eq!(clock.moves_to_go, Some(20));
    }

    #[test]
    fn unknown_and_bad_tokens_are_noted_and_the_rest_is_kept() {
        let g = go("wibble 5 depth x movetime 100 frob nodes");
        assert_eq!(g.limits.movetime, Some(Duration::from_millis(100)));
        assert_eq!(g.limits.depth, None);
        assert_eq!(
            g.notes,
            [
                "unknown 'go' parameter 'wibble 5' ignored",
                "'depth' needs a whole number, got 'x'; ignored",
                "unknown 'go' parameter 'frob' ignored",
                "'nodes' needs a value; ignored",
            ]
        );
        let g = go("depth movetime 50");
        assert_eq!(g.limits.movetime, Some(Duration::from_millis(50)));
        assert_eq!(g.notes, ["'depth' needs a value; ignored"]);
    }

    #[test]
    fn ponder_searchmoves_and_mate_are_noted() {
        let g = go("ponder searchmoves d3 e4 movetime 10");
        assert_eq!(g.limits.movetime, Some(Duration::from_millis(10)));
        assert_eq!(g.notes.len(), 2);
        assert!(g.notes[1].contains("'searchmoves d3 e4'"));
        let g = go("mate 3");
        assert_eq!(g.limits.depth, Some(5));
        assert_eq!(g.notes, ["'mate 3' is searched as 'depth 5'"]);
        assert_eq!(go("mate 0").limits.depth, None);
        assert_eq!(go("movestogo 5").limits.clock, None);
    }
}
