//! Glicko-2 ratings, as Mark Glickman's paper "Example of the Glicko-2 system" defines them.
//!
//! Each rated game is its own rating period ([`Rating::after_game`]). New players start at
//! 1500, RD 350, volatility 0.06; the system constant τ is 0.75; the RD never falls below
//! [`RD_FLOOR`]. Between games the RD grows again with inactivity ([`Rating::after_idle`]):
//! the paper's step for a period without games, φ' = √(φ² + σ²), applied for
//! [`PERIODS_PER_DAY`] periods a day of inactivity (fractions included), and never above the
//! starting RD.

use std::fmt;

/// The Glicko-2 scale factor between the Glicko scale (1500 ± RD) and the internal one.
const SCALE: f64 = 173.7178;
/// Rating of a new player.
pub const START_RATING: f64 = 1500.0;
/// RD of a new player, and the most an idle player's RD grows back to.
pub const START_RD: f64 = 350.0;
/// Volatility of a new player.
pub const START_VOLATILITY: f64 = 0.06;
/// The system constant τ, which limits how fast the volatility changes.
pub const TAU: f64 = 0.75;
/// The lowest RD a player can have.
pub const RD_FLOOR: f64 = 45.0;
/// How many rating periods a day of inactivity counts for when the RD grows back
/// (about one period every 4.7 days, the value lichess uses).
pub const PERIODS_PER_DAY: f64 = 0.21436;
/// Convergence tolerance of the volatility iteration (the paper's ε).
const EPSILON: f64 = 0.000_001;

/// A player's Glicko-2 rating on the Glicko scale.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (1500 for a new player).
    pub rating: f64,
    /// The rating deviation.
    pub rd: f64,
    /// The volatility σ.
    pub volatility: f64,
}

/// A game's result from the rated player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// The player won.
    Win,
    /// A draw.
    Draw,
    /// The player lost.
    Loss,
}

impl Score {
    fn value(self) -> f64 {
        match self {
            Score::Win => 1.0,
            Score::Draw => 0.5,
            Score::Loss => 0.0,
        }
    }

    /// The same game seen from the other side.
    pub fn flipped(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::new()
    }
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.0} (RD {:.0})", self.rating, self.rd)
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// A new player: 1500, RD 350, volatility 0.06.
    pub fn new() -> Rating {
        Rating {
            rating: START_RATING,
            rd: START_RD,
            volatility: START_VOLATILITY,
        }
    }

    fn mu(&self) -> f64 {
        (self.rating - START_RATING) / SCALE
    }

    fn phi(&self) -> f64 {
        self.rd / SCALE
    }

    /// The rating after one game against `opponent` (its own rating period).
    pub fn after_game(&self, opponent: &Rating, score: Score) -> Rating {
        self.after_period(&[(*opponent, score)])
    }

    /// The rating after a rating period with these games (the paper's steps 2 to 8). With no
    /// games, only the RD grows (step 6).
    pub fn after_period(&self, games: &[(Rating, Score)]) -> Rating {
        let (mu, phi, sigma) = (self.mu(), self.phi(), self.volatility);
        if games.is_empty() {
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return Rating {
                rd: (phi_star * SCALE).clamp(RD_FLOOR, START_RD.max(self.rd)),
                ..*self
            };
        }
        // Step 3 and 4: the estimated variance v and the improvement Δ.
        let mut inverse_v = 0.0;
        let mut sum = 0.0;
        for (opponent, score) in games {
            let (mu_j, phi_j) = (opponent.mu(), opponent.phi());
            let e = expected(mu, mu_j, phi_j);
            inverse_v += g(phi_j) * g(phi_j) * e * (1.0 - e);
            sum += g(phi_j) * (score.value() - e);
        }
        let v = 1.0 / inverse_v;
        let delta = v * sum;
        // Step 5: the new volatility.
        let sigma = new_volatility(phi, sigma, v, delta);
        // Steps 6 and 7: the new RD and rating.
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu = mu + phi * phi * sum;
        Rating {
            rating: SCALE * mu + START_RATING,
            rd: (SCALE * phi).max(RD_FLOOR),
            volatility: sigma,
        }
    }

    /// The rating after `days` of inactivity: the RD grows by the paper's step for a period
    /// without games, [`PERIODS_PER_DAY`] periods a day, up to the starting RD.
    pub fn after_idle(&self, days: f64) -> Rating {
        if days.is_nan() || days <= 0.0 {
            return *self;
        }
        let periods = days * PERIODS_PER_DAY;
        let (phi, sigma) = (self.phi(), self.volatility);
        let phi = (phi * phi + periods * sigma * sigma).sqrt();
        Rating {
            rd: (SCALE * phi).min(START_RD.max(self.rd)),
            ..*self
        }
    }
}

/// Step 5 of the paper: the Illinois algorithm for the new volatility.
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut f_a, mut f_b) = (f(big_a), f(big_b));
    // The iteration converges in a handful of steps; the bound only guards against NaN input.
    for _ in 0..100 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
    }
    (big_a / 2.0).exp()
}

/// The leaderboard shows players whose RD is under this.
pub const LEADERBOARD_RD: f64 = 110.0;

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn glickmans_worked_example() {
        let player = Rating {
            rating: 1500.0,
            rd: 200.0,
            volatility: 0.06,
        };
        let games = [
            (
                Rating {
                    rating: 1400.0,
                    rd: 30.0,
                    volatility: 0.06,
                },
                Score::Win,
            ),
            (
                Rating {
                    rating: 1550.0,
                    rd: 100.0,
                    volatility: 0.06,
                },
                Score::Loss,
            ),
            (
                Rating {
                    rating: 1700.0,
                    rd: 300.0,
                    volatility: 0.06,
                },
                Score::Loss,
            ),
        ];
        let after = player.after_period(&games);
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.rd, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.00001), "{after:?}");
    }

    #[test]
    fn a_first_game_between_new_players() {
        let (a, b) = (Rating::new(), Rating::new());
        let winner = a.after_game(&b, Score::Win);
        let loser = b.after_game(&a, Score::Loss);
        assert_eq!((winner.rating.round(), winner.rd.round()), (1662.0, 290.0));
        assert_eq!((loser.rating.round(), loser.rd.round()), (1338.0, 290.0));
    }

    #[test]
    fn a_draw_between_equals_changes_no_rating() {
        let after = Rating::new().after_game(&Rating::new(), Score::Draw);
        assert!(close(after.rating, 1500.0, 1e-9));
        assert!(after.rd < START_RD);
    }

    #[test]
    fn the_rd_never_falls_below_the_floor() {
        // A settled, steady player whose next game would take the RD to 44.7.
        let steady = Rating {
            rating: 1500.0,
            rd: 45.0,
            volatility: 0.01,
        };
        let opponent = Rating {
            rating: 1500.0,
            rd: 45.0,
            volatility: 0.01,
        };
        let after = steady.after_game(&opponent, Score::Draw);
        assert_eq!(after.rd, RD_FLOOR);
    }

    #[test]
    fn the_rd_grows_with_inactivity_up_to_the_start() {
        let settled = Rating {
            rating: 1800.0,
            rd: 60.0,
            volatility: 0.06,
        };
        let month = settled.after_idle(30.0);
        let year = settled.after_idle(365.0);
        let century = settled.after_idle(36_500.0);
        assert!(
            settled.rd < month.rd && month.rd < year.rd,
            "{month:?} {year:?}"
        );
        assert_eq!(century.rd, START_RD);
        assert_eq!(month.rating, 1800.0);
        assert_eq!(settled.after_idle(0.0), settled);
    }
}
