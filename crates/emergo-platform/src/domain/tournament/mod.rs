//! Tournaments (issue 23): the rules of each format as pure functions, no I/O: arena scoring
//! and pairing ([`arena`]), Swiss pairings by score groups and their tie-breaks ([`swiss`]),
//! round-robin Berger tables and the withdrawal rule ([`round_robin`]), and the mini-match (a
//! pairing of two games with the colours swapped, the default for Emergo, where White wins about
//! three games in four between equal players).
//!
//! Points are whole numbers: a win 2, a draw 1, a loss 0 (so a mini-match scores 0 to 4).

pub mod arena;
pub mod round_robin;
pub mod swiss;

/// A player of a tournament, by its account id.
pub type PlayerId = i64;

/// One game's result for one of its players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Outcome {
    /// Its points: 2, 1 or 0.
    pub fn points(self) -> u32 {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }

    /// The same game seen by the other player.
    pub fn other(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

/// A pairing of two players: `white` has White in its first (or only) game; in a mini-match the
/// second game swaps the colours.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub white: PlayerId,
    pub black: PlayerId,
}

/// A pairing's score for its `white` player: the sum of its games' points (a mini-match of two
/// games scores 0 to 4, one game 0 to 2). Games not played yet count nothing.
pub fn pairing_points(results_for_white: &[Outcome]) -> (u32, u32) {
    results_for_white
        .iter()
        .fold((0, 0), |(w, b), r| (w + r.points(), b + r.other().points()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mini_match_scores_the_sum_of_its_two_games() {
        // White of the first game wins it, then loses the second with Black: 2 - 2.
        assert_eq!(pairing_points(&[Outcome::Win, Outcome::Loss]), (2, 2));
        assert_eq!(pairing_points(&[Outcome::Win, Outcome::Draw]), (3, 1));
        assert_eq!(pairing_points(&[Outcome::Win, Outcome::Win]), (4, 0));
        assert_eq!(pairing_points(&[Outcome::Draw]), (1, 1));
        assert_eq!(pairing_points(&[]), (0, 0));
    }
}

/// The figures of issue 23: how long pairing takes for an arena of 1,000 waiting players and a
/// Swiss of 500 (its sixth round). `cargo test --release -p emergo-platform tournament_pairing_time
/// -- --ignored --nocapture`.
#[cfg(test)]
mod figures {
    use super::*;
    use std::time::Instant;

    #[test]
    #[ignore = "a measurement, not a check"]
    fn tournament_pairing_time() {
        let waiting: Vec<arena::Waiting> = (0..1000)
            .map(|i| arena::Waiting {
                id: i,
                score: (i * 7919 % 40) as u32,
                rating: 1200 + (i * 37 % 900) as i32,
                last_opponent: Some((i + 1) % 1000),
                colour_balance: (i % 3) as i32 - 1,
                since: 0,
            })
            .collect();
        let start = Instant::now();
        let mut pairs = 0;
        for _ in 0..100 {
            pairs = arena::pair(&waiting, 100, 60).len();
        }
        let arena_us = start.elapsed().as_secs_f64() * 1e6 / 100.0;
        let mut players: Vec<swiss::SwissPlayer> = (0..500)
            .map(|i| swiss::SwissPlayer {
                id: i,
                rating: 2400 - (i * 3) as i32,
                score: 0,
                opponents: Vec::new(),
                colours: Vec::new(),
                had_bye: false,
            })
            .collect();
        let mut rounds = Vec::new();
        for round in 0..6 {
            let start = Instant::now();
            let next = swiss::pair(&players);
            rounds.push(format!("{:.1}", start.elapsed().as_secs_f64() * 1e3));
            for p in &next.pairings {
                let white_wins = (p.white * 31 + p.black * 17 + round) % 3 != 0;
                for (me, them, colour, won) in [
                    (p.white, p.black, true, white_wins),
                    (p.black, p.white, false, !white_wins),
                ] {
                    let x = &mut players[me as usize];
                    x.opponents.push(them);
                    x.colours.push(colour);
                    x.score += if won { 2 } else { 0 };
                }
            }
        }
        println!(
            "arena: {pairs} pairs of 1,000 waiting players in {arena_us:.0} µs; \
             swiss: rounds 1 to 6 of 500 players paired in {} ms",
            rounds.join(", ")
        );
    }
}
