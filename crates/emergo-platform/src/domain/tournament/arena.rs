//! Arena (lichess's): a fixed duration; a player who finishes a game is paired again within
//! seconds with another waiting one ([`pair`]). A win scores 2, a draw 1, a loss 0; after two wins in a row a
//! player is "on fire" and each game's points are doubled until it fails to win; a berserk
//! player (half its clock) scores one point more for a win of at least [`BERSERK_MIN_PLIES`]
//! plies; a draw before ply [`EARLY_DRAW_PLIES`] scores nothing (and ends a streak).

use super::{Outcome, Pairing, PlayerId};

/// A draw shorter than this many plies scores 0.
pub const EARLY_DRAW_PLIES: u32 = 20;

/// A berserk win of at least this many plies scores its extra point.
pub const BERSERK_MIN_PLIES: u32 = 14;

/// One finished arena game of a player, as its score needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaGame {
    pub outcome: Outcome,
    /// Plies the game lasted.
    pub plies: u32,
    /// Whether this player went berserk in it.
    pub berserk: bool,
}

/// A player's arena score: each game's points, the total, and whether it is on fire now.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArenaScore {
    pub points: Vec<u32>,
    pub total: u32,
    pub on_fire: bool,
}

/// The score of a player's games, in the order they ended.
pub fn score(games: &[ArenaGame]) -> ArenaScore {
    let mut out = ArenaScore::default();
    let mut wins_in_a_row = 0u32;
    for game in games {
        let fire = wins_in_a_row >= 2;
        let early_draw = game.outcome == Outcome::Draw && game.plies < EARLY_DRAW_PLIES;
        let base = if early_draw { 0 } else { game.outcome.points() };
        let bonus = u32::from(
            game.berserk && game.outcome == Outcome::Win && game.plies >= BERSERK_MIN_PLIES,
        );
        let points = if fire { 2 * base } else { base } + bonus;
        out.points.push(points);
        out.total += points;
        wins_in_a_row = if game.outcome == Outcome::Win {
            wins_in_a_row + 1
        } else {
            0
        };
    }
    out.on_fire = wins_in_a_row >= 2;
    out
}

/// The arena pairs its waiting players once the one who has waited longest has waited this
/// many seconds (at once when nobody is playing, so nobody else can come free): players who
/// finish at about the same time are paired by the standings together, not in the order their
/// games ended.
pub const PAIR_WAIT_SECS: i64 = 3;

/// Two players who have just met are paired again only when both have waited this many
/// seconds for someone else (at once when nobody is playing).
pub const REMATCH_WAIT_SECS: i64 = 10;

/// A player waiting for an arena game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Waiting {
    pub id: PlayerId,
    /// Its points in the arena so far.
    pub score: u32,
    pub rating: i32,
    /// Its last opponent, whom it does not meet again at once.
    pub last_opponent: Option<PlayerId>,
    /// Games it had White minus games it had Black.
    pub colour_balance: i32,
    /// When it began to wait (Unix seconds): its last game's end, or its joining.
    pub since: i64,
}

/// Pairs the waiting players at `now`, while `playing` other players are in games (and may
/// come free soon): each with its neighbour by score, then by rating; not its last opponent
/// when another is at hand, and, while someone may come free, not its last opponent before
/// both have waited [`REMATCH_WAIT_SECS`]; nobody before the longest waiting has waited
/// [`PAIR_WAIT_SECS`]. The one left over (an odd number) waits. Colours: the player who had
/// White less often gets it. Linear after the sort: O(n log n).
pub fn pair(waiting: &[Waiting], playing: usize, now: i64) -> Vec<Pairing> {
    let waited = |w: &Waiting| now - w.since;
    let longest = waiting.iter().map(waited).max().unwrap_or(0);
    if waiting.len() < 2 || (playing > 0 && longest < PAIR_WAIT_SECS) {
        return Vec::new();
    }
    let mut order: Vec<Waiting> = waiting.to_vec();
    order.sort_by_key(|w| {
        (
            std::cmp::Reverse(w.score),
            std::cmp::Reverse(w.rating),
            w.id,
        )
    });
    let mut pairs = Vec::with_capacity(order.len() / 2);
    let mut i = 0;
    while i + 1 < order.len() {
        let a = order[i];
        // The next one, unless it is a's last opponent and the one after is not.
        if met_last(&a, &order[i + 1]) && i + 2 < order.len() && !met_last(&a, &order[i + 2]) {
            order.swap(i + 1, i + 2);
        }
        let b = order[i + 1];
        if met_last(&a, &b) && playing > 0 && waited(&a).min(waited(&b)) < REMATCH_WAIT_SECS {
            // a waits for someone else to come free; b may pair with the next one.
            i += 1;
            continue;
        }
        pairs.push(colours(a, b));
        i += 2;
    }
    pairs
}

fn met_last(a: &Waiting, b: &Waiting) -> bool {
    a.last_opponent == Some(b.id) || b.last_opponent == Some(a.id)
}

fn colours(a: Waiting, b: Waiting) -> Pairing {
    if a.colour_balance <= b.colour_balance {
        Pairing {
            white: a.id,
            black: b.id,
        }
    } else {
        Pairing {
            white: b.id,
            black: a.id,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(outcome: Outcome, plies: u32, berserk: bool) -> ArenaGame {
        ArenaGame {
            outcome,
            plies,
            berserk,
        }
    }

    use Outcome::{Draw, Loss, Win};

    #[test]
    fn arena_a_streak_doubles_the_points_after_two_wins_until_a_game_is_not_won() {
        let s = score(&[
            g(Win, 40, false),
            g(Win, 40, false),
            g(Win, 40, false),
            g(Draw, 40, false),
            g(Win, 40, false),
            g(Loss, 40, false),
        ]);
        // 2, 2, then on fire: 4, a draw on fire 2 (the streak ends), 2, 0.
        assert_eq!(s.points, vec![2, 2, 4, 2, 2, 0]);
        assert_eq!(s.total, 12);
        assert!(!s.on_fire);
        assert!(score(&[g(Win, 30, false), g(Win, 30, false)]).on_fire);
    }

    #[test]
    fn arena_berserk_adds_a_point_to_a_long_enough_win_only() {
        let s = score(&[
            g(Win, 14, true),
            g(Win, 13, true),
            g(Loss, 60, true),
            g(Draw, 60, true),
        ]);
        assert_eq!(s.points, vec![3, 2, 0, 1]);
        // On fire, the base is doubled and the berserk point added: 4 + 1.
        let s = score(&[g(Win, 30, false), g(Win, 30, false), g(Win, 30, true)]);
        assert_eq!(s.points, vec![2, 2, 5]);
    }

    #[test]
    fn arena_a_draw_before_ply_20_scores_nothing_and_ends_the_streak() {
        let s = score(&[
            g(Win, 30, false),
            g(Win, 30, false),
            g(Draw, 19, false),
            g(Win, 30, false),
            g(Draw, 20, false),
        ]);
        assert_eq!(s.points, vec![2, 2, 0, 2, 1]);
    }

    fn w(id: PlayerId, score: u32, last: Option<PlayerId>, balance: i32) -> Waiting {
        Waiting {
            id,
            score,
            rating: 1500,
            last_opponent: last,
            colour_balance: balance,
            since: 0,
        }
    }

    #[test]
    fn arena_pairs_neighbours_in_the_standings_but_not_the_last_opponent_again() {
        let waiting = [
            w(1, 8, Some(2), 0),
            w(2, 6, Some(1), 0),
            w(3, 4, None, 1),
            w(4, 2, None, 0),
            w(5, 0, None, 0),
        ];
        let pairs = pair(&waiting, 0, 100);
        assert_eq!(pairs.len(), 2, "{pairs:?}");
        // 1 and 2 just met: 1 meets 3 (who had White more: Black), then 2 meets 4; 5 waits.
        assert_eq!(pairs[0], Pairing { white: 1, black: 3 });
        assert_eq!(pairs[1], Pairing { white: 2, black: 4 });
        // Two players who just met and nobody else: they meet again rather than wait.
        assert_eq!(
            pair(&[w(1, 0, Some(2), 0), w(2, 0, Some(1), 0)], 0, 100).len(),
            1
        );
    }

    #[test]
    fn arena_pairs_equal_scores_by_rating() {
        let rated = |id, rating| Waiting {
            rating,
            ..w(id, 2, None, 0)
        };
        let pairs = pair(
            &[
                rated(1, 1500),
                rated(2, 1900),
                rated(3, 1520),
                rated(4, 1880),
            ],
            0,
            100,
        );
        assert_eq!(
            pairs,
            vec![
                Pairing { white: 2, black: 4 },
                Pairing { white: 3, black: 1 }
            ]
        );
    }

    #[test]
    fn arena_waits_a_few_seconds_to_pair_better_while_others_play() {
        let since = |p: Waiting, at| Waiting { since: at, ..p };
        let two = [w(1, 2, None, 0), w(2, 0, None, 0)];
        // Others are playing: nobody is paired before the longest wait reaches 3 s.
        let fresh = two.map(|p| since(p, 99));
        assert!(pair(&fresh, 4, 100).is_empty());
        assert_eq!(pair(&fresh, 4, 99 + PAIR_WAIT_SECS).len(), 1);
        // Nobody else playing: nobody to wait for.
        assert_eq!(pair(&fresh, 0, 100).len(), 1);
        // Two who just met wait up to 10 s for someone else while others play.
        let met = [w(1, 2, Some(2), 0), w(2, 0, Some(1), 0)].map(|p| since(p, 90));
        assert!(pair(&met, 4, 95).is_empty());
        assert_eq!(pair(&met, 4, 90 + REMATCH_WAIT_SECS).len(), 1);
        assert_eq!(pair(&met, 0, 95).len(), 1);
    }
}
