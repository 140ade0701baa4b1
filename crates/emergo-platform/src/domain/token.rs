//! Personal API tokens (issue 24): what a token may do. A token carries a set of [`Scope`]s; the
//! HTTP layer asks every request for the scope its endpoint needs, and a token without it is
//! refused (403 `bad_scope`). The token itself is a random secret shown once; the store keeps
//! its SHA-256 hash.

use std::fmt;

/// What a token may be used for (docs/api.md, "API tokens").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// Reading what the account sees: its account, notifications, the event stream.
    Read,
    /// Playing a game as a person through the API: moves, resign, draw, takeback, chat.
    BoardPlay,
    /// Playing as a bot account: the bot endpoints and their game streams (and the games'
    /// ordinary endpoints).
    BotPlay,
    /// Seeks and challenges: making, withdrawing, accepting, declining them.
    ChallengeWrite,
}

/// Every scope, in the order the API lists them.
pub const ALL_SCOPES: [Scope; 4] = [
    Scope::Read,
    Scope::BoardPlay,
    Scope::BotPlay,
    Scope::ChallengeWrite,
];

impl Scope {
    /// Its name in the API: `read`, `board:play`, `bot:play`, `challenge:write`.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Read => "read",
            Scope::BoardPlay => "board:play",
            Scope::BotPlay => "bot:play",
            Scope::ChallengeWrite => "challenge:write",
        }
    }

    /// The scope named `name` (`None` for any other text).
    pub fn parse(name: &str) -> Option<Scope> {
        ALL_SCOPES.into_iter().find(|s| s.name() == name)
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of scopes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Scopes(u8);

impl Scopes {
    /// The empty set.
    pub const NONE: Scopes = Scopes(0);

    pub fn of(scopes: &[Scope]) -> Scopes {
        Scopes(scopes.iter().fold(0, |bits, s| bits | s.bit()))
    }

    pub fn contains(self, scope: Scope) -> bool {
        self.0 & scope.bit() != 0
    }

    /// Whether it holds at least one of `any`.
    pub fn any_of(self, any: Scopes) -> bool {
        self.0 & any.0 != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = Scope> {
        ALL_SCOPES.into_iter().filter(move |s| self.contains(*s))
    }

    /// The names, space-separated (as stored).
    pub fn text(self) -> String {
        self.iter().map(Scope::name).collect::<Vec<_>>().join(" ")
    }

    /// The set a stored text names (names it does not know are left out).
    pub fn from_text(text: &str) -> Scopes {
        Scopes::of(
            &text
                .split_ascii_whitespace()
                .filter_map(Scope::parse)
                .collect::<Vec<_>>(),
        )
    }

    /// The set `names` asks for: each a scope's name, at least one; an unknown name is an
    /// error that names it.
    pub fn parse_list<S: AsRef<str>>(names: &[S]) -> Result<Scopes, String> {
        let mut out = Scopes::NONE;
        for name in names {
            let name = name.as_ref();
            match Scope::parse(name) {
                Some(scope) => out.0 |= scope.bit(),
                None => {
                    let known: Vec<_> = ALL_SCOPES.iter().map(|s| s.name()).collect();
                    return Err(format!(
                        "{:?} is not a scope; the scopes are {}",
                        name.get(..40).unwrap_or(name),
                        known.join(", ")
                    ));
                }
            }
        }
        if out.is_empty() {
            return Err("a token needs at least one scope".to_string());
        }
        Ok(out)
    }
}

/// What every API token begins with, so that a leaked one is recognised (by a secret scanner,
/// by a person) and never taken for a session or a seat token.
pub const TOKEN_PREFIX: &str = "emt_";

/// A new API token: the prefix and 40 random characters (about 238 bits).
pub fn new_api_token() -> String {
    format!("{TOKEN_PREFIX}{}", super::model::random_text(40))
}

/// The longest token text looked at (longer ones are refused unread).
pub const MAX_TOKEN_TEXT: usize = 64;

/// The longest description of a token, in characters.
pub const MAX_DESCRIPTION: usize = 100;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_round_trip_through_their_stored_text() {
        let set = Scopes::of(&[Scope::BotPlay, Scope::Read]);
        assert_eq!(set.text(), "read bot:play");
        assert_eq!(Scopes::from_text(&set.text()), set);
        assert!(set.contains(Scope::BotPlay) && !set.contains(Scope::ChallengeWrite));
    }

    #[test]
    fn an_unknown_or_empty_scope_list_is_refused_by_name() {
        let err = Scopes::parse_list(&["read", "admin"]).unwrap_err();
        assert!(err.contains("\"admin\" is not a scope"), "{err}");
        assert!(Scopes::parse_list::<&str>(&[]).is_err());
        assert_eq!(
            Scopes::parse_list(&["challenge:write", "board:play"]),
            Ok(Scopes::of(&[Scope::ChallengeWrite, Scope::BoardPlay]))
        );
    }

    #[test]
    fn a_new_token_carries_the_prefix() {
        let token = new_api_token();
        assert!(token.starts_with(TOKEN_PREFIX) && token.len() == 44);
        assert!(token.len() <= MAX_TOKEN_TEXT);
        assert_ne!(token, new_api_token());
    }
}
