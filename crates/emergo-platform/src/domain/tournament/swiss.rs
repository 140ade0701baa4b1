//! Swiss: a fixed number of rounds, each pairing players of equal (or near) scores who have
//! not met, by the Dutch system's criteria: within a score group the top half meets the bottom
//! half (S1 against S2), a player left over floats down to the next group, nobody meets the same
//! opponent twice, colours are balanced (no player gets the same colour three times in a row,
//! nor more than two more of one colour than the other, when it can be avoided), and with an odd
//! number of players the lowest-ranked player who has not had a bye gets one (2 points, as a
//! win). A late entrant starts with a bye of a draw's points (1) for the rounds it missed.
//!
//! The search is a backtracking over the players in rank order with the candidates in the Dutch
//! order, those whose colours fit first; its work is bounded ([`SEARCH_STEPS`]), and when no
//! pairing meets every criterion the colour criteria are dropped first, then the rematch one (a
//! last resort in a tiny field).
//!
//! Tie-breaks, in order: Buchholz (the sum of the opponents' scores), then Sonneborn–Berger
//! (the sum, over games, of the opponent's score times the share of the game's points won:
//! all of it for a win, half for a draw), then rating.

use super::{Outcome, Pairing, PlayerId};
use std::collections::{HashMap, HashSet};

/// Steps the pairing search may take with every criterion before it drops the colour ones
/// (which then only order the candidates), and steps it may take after that before it drops
/// the rematch one.
pub const SEARCH_STEPS: [usize; 2] = [20_000, 200_000];

/// Points of a bye: a win's.
pub const BYE_POINTS: u32 = 2;

/// Points of a late entrant's bye for each round it missed: a draw's.
pub const LATE_BYE_POINTS: u32 = 1;

/// A player as the pairing of the next round sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissPlayer {
    pub id: PlayerId,
    pub rating: i32,
    /// Points so far (byes included).
    pub score: u32,
    /// Everyone it has met.
    pub opponents: Vec<PlayerId>,
    /// The colour it had in each game so far, oldest first (`true`: White).
    pub colours: Vec<bool>,
    /// Whether it has had a (full-point) bye.
    pub had_bye: bool,
}

impl SwissPlayer {
    fn balance(&self) -> i32 {
        self.colours.iter().map(|&w| if w { 1 } else { -1 }).sum()
    }

    /// The colour it must have (`Some(true)`: White), if the Dutch absolute preference says
    /// so: two more of one colour, or the same colour twice in a row.
    fn must(&self) -> Option<bool> {
        let b = self.balance();
        let last_two = match self.colours.as_slice() {
            [.., a, b] if a == b => Some(!*a),
            _ => None,
        };
        if b >= 2 {
            Some(false)
        } else if b <= -2 {
            Some(true)
        } else {
            last_two
        }
    }
}

/// A round's pairings and its bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissRound {
    pub pairings: Vec<Pairing>,
    pub bye: Option<PlayerId>,
}

/// Whether a pairing of two players breaks a criterion, at a level of strictness.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Strictness {
    /// No rematch, and colours each player can have.
    All,
    /// No rematch.
    NoRematch,
    /// Anything.
    Any,
}

/// The pairings of the next round of `players` (every player still in the event).
pub fn pair(players: &[SwissPlayer]) -> SwissRound {
    let mut ranked: Vec<&SwissPlayer> = players.iter().collect();
    ranked.sort_by_key(|p| {
        (
            std::cmp::Reverse(p.score),
            std::cmp::Reverse(p.rating),
            p.id,
        )
    });
    let mut bye = None;
    if ranked.len() % 2 == 1 {
        // The lowest-ranked without a bye (everyone had one: the lowest).
        let at = ranked
            .iter()
            .rposition(|p| !p.had_bye)
            .unwrap_or(ranked.len() - 1);
        bye = Some(ranked.remove(at).id);
    }
    for (strictness, budget) in [
        (Strictness::All, SEARCH_STEPS[0]),
        (Strictness::NoRematch, SEARCH_STEPS[1]),
        (Strictness::Any, usize::MAX),
    ] {
        let mut search = Search {
            ranked: &ranked,
            met: ranked
                .iter()
                .map(|p| (p.id, p.opponents.iter().copied().collect()))
                .collect(),
            used: vec![false; ranked.len()],
            pairs: Vec::with_capacity(ranked.len() / 2),
            steps: 0,
            budget,
            strictness,
        };
        if search.run() {
            let pairings = search
                .pairs
                .iter()
                .map(|&(a, b)| colours(ranked[a], ranked[b]))
                .collect();
            return SwissRound { pairings, bye };
        }
    }
    // Unreachable: at `Any` the players are paired in order.
    SwissRound {
        pairings: Vec::new(),
        bye,
    }
}

struct Search<'a> {
    ranked: &'a [&'a SwissPlayer],
    met: HashMap<PlayerId, HashSet<PlayerId>>,
    used: Vec<bool>,
    pairs: Vec<(usize, usize)>,
    steps: usize,
    budget: usize,
    strictness: Strictness,
}

impl Search<'_> {
    fn allowed(&self, a: usize, b: usize) -> bool {
        let (pa, pb) = (self.ranked[a], self.ranked[b]);
        if self.strictness <= Strictness::NoRematch
            && self.met.get(&pa.id).is_some_and(|m| m.contains(&pb.id))
        {
            return false;
        }
        self.strictness != Strictness::All || colours_fit(pa, pb)
    }

    /// The candidates for the highest unpaired player `a`, in the Dutch order: its own score
    /// group's player at the same place in the other half first (S1 against S2), then the rest
    /// of the group, then the groups below, nearest first.
    fn candidates(&self, a: usize) -> Vec<usize> {
        let score = self.ranked[a].score;
        let free: Vec<usize> = (a + 1..self.ranked.len())
            .filter(|&i| !self.used[i])
            .collect();
        let group: Vec<usize> = free
            .iter()
            .copied()
            .filter(|&i| self.ranked[i].score == score)
            .collect();
        // a's place among the unpaired of its group (it is the highest), and the group's size
        // with a: the ideal opponent sits half the group below.
        let half = group.len().div_ceil(2);
        let ideal = half.saturating_sub(1);
        let mut ordered: Vec<usize> = Vec::with_capacity(free.len());
        let mut in_group: Vec<(usize, usize)> = group
            .iter()
            .enumerate()
            .map(|(k, &i)| (k.abs_diff(ideal), i))
            .collect();
        in_group.sort();
        ordered.extend(in_group.into_iter().map(|(_, i)| i));
        ordered.extend(
            free.iter()
                .copied()
                .filter(|&i| self.ranked[i].score != score),
        );
        ordered
    }

    fn run(&mut self) -> bool {
        let Some(a) = self.used.iter().position(|u| !u) else {
            return true;
        };
        self.steps += 1;
        if self.steps > self.budget {
            return false;
        }
        self.used[a] = true;
        for b in self.candidates(a) {
            if !self.allowed(a, b) {
                continue;
            }
            self.used[b] = true;
            self.pairs.push((a, b));
            if self.run() {
                return true;
            }
            self.pairs.pop();
            self.used[b] = false;
            if self.steps > self.budget {
                break;
            }
        }
        self.used[a] = false;
        false
    }
}

/// Whether two players can meet with each getting a colour it may have: not both bound to the
/// same one.
fn colours_fit(a: &SwissPlayer, b: &SwissPlayer) -> bool {
    !matches!((a.must(), b.must()), (Some(x), Some(y)) if x == y)
}

/// The colours of a pairing: an absolute preference first, then the player with fewer Whites
/// gets White, then the one who had Black last, then the higher-ranked `a`.
fn colours(a: &SwissPlayer, b: &SwissPlayer) -> Pairing {
    let a_white = match (a.must(), b.must()) {
        (Some(x), _) => x,
        (None, Some(y)) => !y,
        (None, None) => match a.balance().cmp(&b.balance()) {
            std::cmp::Ordering::Less => true,
            std::cmp::Ordering::Greater => false,
            std::cmp::Ordering::Equal => match (a.colours.last(), b.colours.last()) {
                (Some(false), Some(true)) => true,
                (Some(true), Some(false)) => false,
                _ => true,
            },
        },
    };
    if a_white {
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

/// One game of the event for the tie-breaks: `player`'s opponent and result.
#[derive(Clone, Copy, Debug)]
pub struct Played {
    pub player: PlayerId,
    pub opponent: PlayerId,
    pub outcome: Outcome,
}

/// Each player's (Buchholz, Sonneborn–Berger), from the games and the final scores. Byes count
/// in neither.
pub fn tie_breaks(
    games: &[Played],
    scores: &HashMap<PlayerId, u32>,
) -> HashMap<PlayerId, (u32, u32)> {
    let mut out: HashMap<PlayerId, (u32, u32)> = HashMap::new();
    for game in games {
        let theirs = scores.get(&game.opponent).copied().unwrap_or(0);
        let entry = out.entry(game.player).or_default();
        entry.0 += theirs;
        // Points are whole (win 2, draw 1): SB counts the opponent's score times the points
        // won, so a draw counts half of a win.
        entry.1 += theirs * game.outcome.points();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(id: PlayerId, rating: i32) -> SwissPlayer {
        SwissPlayer {
            id,
            rating,
            score: 0,
            opponents: Vec::new(),
            colours: Vec::new(),
            had_bye: false,
        }
    }

    /// The result of a game by a rule that is not random but not monotone either.
    fn result(round: usize, white: PlayerId, black: PlayerId) -> Outcome {
        match (round as i64 * 7 + white * 3 + black) % 5 {
            0 | 1 => Outcome::Win,
            2 => Outcome::Draw,
            _ => Outcome::Loss,
        }
    }

    #[test]
    fn swiss_five_rounds_of_nine_players_no_rematch_colours_balanced_one_bye_each_round_to_different_players(
    ) {
        let mut players: Vec<SwissPlayer> =
            (1..=9).map(|i| player(i, 2000 - 50 * i as i32)).collect();
        let mut byes = Vec::new();
        for round in 0..5 {
            let next = pair(&players);
            assert_eq!(next.pairings.len(), 4, "round {round}: {next:?}");
            let bye = next.bye.expect("an odd field has a bye");
            assert!(
                !byes.contains(&bye),
                "round {round}: a second bye for {bye}"
            );
            byes.push(bye);
            let mut seen = HashSet::new();
            for p in &next.pairings {
                assert!(seen.insert(p.white) && seen.insert(p.black));
                let white = players.iter().find(|x| x.id == p.white).expect("white");
                assert!(
                    !white.opponents.contains(&p.black),
                    "round {round}: {p:?} again"
                );
            }
            assert!(seen.insert(bye) && seen.len() == 9);
            for p in &next.pairings {
                let outcome = result(round, p.white, p.black);
                for (me, them, colour, o) in [
                    (p.white, p.black, true, outcome),
                    (p.black, p.white, false, outcome.other()),
                ] {
                    let x = players.iter_mut().find(|x| x.id == me).expect("player");
                    x.opponents.push(them);
                    x.colours.push(colour);
                    x.score += o.points();
                }
            }
            let x = players.iter_mut().find(|x| x.id == bye).expect("bye");
            x.score += BYE_POINTS;
            x.had_bye = true;
        }
        for p in &players {
            let b = p.balance();
            assert!(b.abs() <= 2, "player {}: colours {:?}", p.id, p.colours);
            let three = p.colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]);
            assert!(
                !three,
                "player {}: one colour three times running {:?}",
                p.id, p.colours
            );
        }
    }

    #[test]
    fn swiss_the_first_round_pairs_the_top_half_against_the_bottom_half() {
        let players: Vec<SwissPlayer> = (1..=8).map(|i| player(i, 2000 - 10 * i as i32)).collect();
        let round = pair(&players);
        let pairs: Vec<(PlayerId, PlayerId)> = round
            .pairings
            .iter()
            .map(|p| (p.white.min(p.black), p.white.max(p.black)))
            .collect();
        assert_eq!(pairs, vec![(1, 5), (2, 6), (3, 7), (4, 8)]);
        assert_eq!(round.bye, None);
    }

    #[test]
    fn swiss_tie_breaks_are_buchholz_then_sonneborn_berger() {
        use Outcome::{Draw, Loss, Win};
        // 1 beat 2 and drew 3; 2 beat 3; scores 1: 3, 2: 2, 3: 1.
        let games = [
            Played {
                player: 1,
                opponent: 2,
                outcome: Win,
            },
            Played {
                player: 2,
                opponent: 1,
                outcome: Loss,
            },
            Played {
                player: 1,
                opponent: 3,
                outcome: Draw,
            },
            Played {
                player: 3,
                opponent: 1,
                outcome: Draw,
            },
            Played {
                player: 2,
                opponent: 3,
                outcome: Win,
            },
            Played {
                player: 3,
                opponent: 2,
                outcome: Loss,
            },
        ];
        let scores = HashMap::from([(1, 3), (2, 2), (3, 1)]);
        let tb = tie_breaks(&games, &scores);
        assert_eq!(tb[&1], (3, 2 * 2 + 1));
        assert_eq!(tb[&2], (4, 2));
        assert_eq!(tb[&3], (5, 3));
    }
}
