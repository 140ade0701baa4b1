//! Round robin: everyone meets everyone once (in a mini-match, twice with the colours swapped),
//! by Berger tables for 3 to 16 players; with an odd number, each round one player sits out.
//! A player who withdraws: when it played fewer than half of its games, its results are
//! removed (as if it never took part); otherwise its remaining games are lost by forfeit.

use super::{Pairing, PlayerId};

/// The fewest and most players a round robin takes.
pub const MIN_PLAYERS: usize = 3;
pub const MAX_PLAYERS: usize = 16;

/// One round of a Berger table: its pairings, and who sits out (an odd number of players).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub pairings: Vec<Pairing>,
    pub sits_out: Option<PlayerId>,
}

/// The Berger table of `players` (in their seeding order): `n - 1` rounds for an even `n`, `n`
/// for an odd one. Every pair meets once, and each player's Whites and Blacks differ by at most
/// one. `None` for fewer than [`MIN_PLAYERS`] or more than [`MAX_PLAYERS`].
pub fn berger(players: &[PlayerId]) -> Option<Vec<Round>> {
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players.len()) {
        return None;
    }
    // An odd field gets a dummy: whoever meets it sits out.
    let mut seats: Vec<Option<PlayerId>> = players.iter().copied().map(Some).collect();
    if seats.len() % 2 == 1 {
        seats.push(None);
    }
    let n = seats.len();
    let fixed = n - 1;
    let turning = n - 1;
    let mut rounds = Vec::with_capacity(n - 1);
    for r in 0..turning {
        let mut pairings = Vec::with_capacity(n / 2);
        let mut sits_out = None;
        let mut meet = |white: usize, black: usize| match (seats[white], seats[black]) {
            (Some(w), Some(b)) => pairings.push(Pairing { white: w, black: b }),
            (Some(p), None) | (None, Some(p)) => sits_out = Some(p),
            (None, None) => {}
        };
        // The fixed seat meets the player at seat r, with White on even rounds.
        if r % 2 == 0 {
            meet(fixed, r);
        } else {
            meet(r, fixed);
        }
        for i in 1..n / 2 {
            let white = (r + i) % turning;
            let black = (r + turning - i) % turning;
            meet(white, black);
        }
        rounds.push(Round { pairings, sits_out });
    }
    Some(rounds)
}

/// What a withdrawal does to the withdrawn player's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Withdrawal {
    /// Fewer than half played: every result of the player is removed.
    ResultsRemoved,
    /// Half or more played: the games it has not played are lost by forfeit.
    RestForfeited,
}

/// The rule for a player who withdraws having played `played` of its `total` games.
pub fn withdrawal(played: usize, total: usize) -> Withdrawal {
    if 2 * played < total {
        Withdrawal::ResultsRemoved
    } else {
        Withdrawal::RestForfeited
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashMap, HashSet};

    #[test]
    fn berger_tables_for_3_to_16_players_meet_every_pair_once_with_colours_balanced() {
        for n in MIN_PLAYERS..=MAX_PLAYERS {
            let players: Vec<PlayerId> = (1..=n as i64).collect();
            let rounds = berger(&players).expect("a table");
            assert_eq!(rounds.len(), if n % 2 == 0 { n - 1 } else { n }, "n = {n}");
            let mut met = HashSet::new();
            let mut balance: HashMap<PlayerId, i32> = HashMap::new();
            let mut out = HashMap::new();
            for round in &rounds {
                let mut seen = HashSet::new();
                for p in &round.pairings {
                    assert!(
                        seen.insert(p.white) && seen.insert(p.black),
                        "n = {n}: twice in a round"
                    );
                    let key = (p.white.min(p.black), p.white.max(p.black));
                    assert!(met.insert(key), "n = {n}: {key:?} meet twice");
                    *balance.entry(p.white).or_default() += 1;
                    *balance.entry(p.black).or_default() -= 1;
                }
                if let Some(p) = round.sits_out {
                    assert!(seen.insert(p));
                    *out.entry(p).or_insert(0) += 1;
                }
                assert_eq!(seen.len(), n, "n = {n}: everyone plays or sits out");
            }
            assert_eq!(met.len(), n * (n - 1) / 2, "n = {n}: every pair meets");
            for p in &players {
                let b = balance.get(p).copied().unwrap_or(0);
                assert!(
                    b.abs() <= 1,
                    "n = {n}: player {p} has Whites - Blacks = {b}"
                );
            }
            if n % 2 == 1 {
                assert!(out.values().all(|&k| k == 1), "n = {n}: each sits out once");
            }
        }
        assert_eq!(berger(&[1, 2]), None);
        assert_eq!(berger(&(1..=17).collect::<Vec<_>>()), None);
    }

    #[test]
    fn round_robin_a_withdrawal_before_half_removes_the_results_after_it_forfeits_the_rest() {
        assert_eq!(withdrawal(2, 7), Withdrawal::ResultsRemoved);
        assert_eq!(withdrawal(3, 7), Withdrawal::ResultsRemoved);
        assert_eq!(withdrawal(4, 7), Withdrawal::RestForfeited);
        assert_eq!(withdrawal(3, 6), Withdrawal::RestForfeited);
    }
}
