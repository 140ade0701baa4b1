//! Tuning the evaluation weights on self-play games (the Texel method).
//!
//! Every quiet position of the games (no capture for the side to move, so the static evaluation
//! is what the search would see) becomes a sample: its [`features`] and the game's result for the
//! side to move. The evaluation, squashed by a logistic curve, predicts that result; tuning first
//! fits the curve's scale to the current weights, then moves the weights down the gradient of the
//! mean squared error. The evaluation is linear in its weights, so this is a logistic regression.
//!
//! White wins more often than Black (the first move is worth something), and in the entering
//! phase the side to move's hand count follows the colour, so the fit also learns one number
//! for "White is to move" that the evaluation does not use: without it, that edge would be
//! credited to the hand and shadowpiece weights.

use emergo_core::game::Game;
use emergo_core::{Color, Outcome, Status, Variant};
use emergo_engine::eval::{features, Weights};

/// Number of weights.
const N: usize = Weights::NAMES.len();

/// A position's evaluation terms and the result its side to move went on to get.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub(crate) features: [i32; N],
    pub(crate) white_to_move: bool,
    /// 1 for a win of the side to move, 0.5 for a draw, 0 for a loss.
    pub(crate) result: f64,
}

/// The samples of a finished game: its quiet positions, labelled with the outcome. A game still
/// going has none. On any board; the weights fitted are that board's.
pub fn samples<V: Variant>(game: &Game<V>) -> Vec<Sample> {
    let Status::Finished { outcome, .. } = game.status() else {
        return Vec::new();
    };
    let score = |turn: Color| match outcome {
        Outcome::Draw => 0.5,
        Outcome::Win(c) if c == turn => 1.0,
        Outcome::Win(_) => 0.0,
    };
    game.positions()
        .iter()
        .filter(|pos| !pos.can_capture(pos.turn()) && !pos.has_no_moves())
        .map(|pos| Sample {
            features: features(pos),
            white_to_move: pos.turn() == Color::White,
            result: score(pos.turn()),
        })
        .collect()
}

/// The dot product of weights (the first N of `weights`) and terms.
fn eval(weights: &[f64], f: &[i32; N]) -> f64 {
    weights.iter().zip(f).map(|(w, &x)| w * f64::from(x)).sum()
}

/// +1 when White is to move, -1 when Black is: the colour term's feature.
fn colour(s: &Sample) -> f64 {
    if s.white_to_move {
        1.0
    } else {
        -1.0
    }
}

fn sigmoid(scale: f64, centimen: f64) -> f64 {
    1.0 / (1.0 + (-scale * centimen / 100.0).exp())
}

/// The mean squared error of the predictions of `weights` with curve scale `scale`.
/// `white` is the colour term in centimen (see the module's text).
pub fn mean_error(samples: &[Sample], weights: &Weights, white: f64, scale: f64) -> f64 {
    let w = as_f64(weights);
    mean_error_f64(samples, &w, white, scale)
}

fn mean_error_f64(samples: &[Sample], w: &[f64; N], white: f64, scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| (sigmoid(scale, eval(w, &s.features) + white * colour(s)) - s.result).powi(2))
        .sum();
    total / samples.len().max(1) as f64
}

/// The prediction in centimen of weights-and-colour-term `w` for `s`.
fn predicted(w: &[f64; N + 1], s: &Sample) -> f64 {
    eval(&w[..N], &s.features) + w[N] * colour(s)
}

fn as_f64(weights: &Weights) -> [f64; N] {
    weights.to_array().map(f64::from)
}

/// The curve scale that fits `weights` (with no colour term) best: a golden-section search
/// over 0.001..1000.
pub fn fit_scale(samples: &[Sample], weights: &Weights) -> f64 {
    let w = as_f64(weights);
    minimise_scale(0.001, 1000.0, 60, |scale| {
        mean_error_f64(samples, &w, 0.0, scale)
    })
}

/// The scale in `lo..hi` at which `error` is least: a golden-section search over the scale's
/// logarithm, `steps` steps (the error of a logistic fit has one minimum in the scale).
pub(crate) fn minimise_scale(lo: f64, hi: f64, steps: usize, error: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (lo.ln(), hi.ln());
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..steps {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if error(a.exp()) < error(b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// What [`fit`] found.
#[derive(Clone, Debug)]
pub struct Fit {
    pub weights: Weights,
    /// The colour term, in centimen: what being White is worth, as the games tell it.
    pub white: f64,
    pub scale: f64,
    pub error_before: f64,
    pub error_after: f64,
}

/// Fits the weights to the samples by `iterations` steps of Adam on the mean squared error plus
/// `l2` times the squared distance from `start` in men (sum of ((w - start) / 100)^2), starting
/// from `start`, leaving the weights named in `fixed` (and `man`, which sets the scale: a man is
/// 100) as they are. The result is rounded to whole centimen.
///
/// Some terms are tied to others in every position (a side's men on top, in hand and imprisoned
/// add up to 12; `height` is men on top less columns), so the error alone leaves directions free
/// along which the weights wander without changing any prediction: the `l2` term, or fixing one
/// weight of each tie, picks the fit nearest the start.
pub fn fit(samples: &[Sample], start: &Weights, fixed: &[&str], iterations: usize, l2: f64) -> Fit {
    let scale = fit_scale(samples, start);
    let error_before = mean_error(samples, start, 0.0, scale);
    // The weights, then the colour term, as one vector; the colour term is always free.
    let origin = as_f64(start);
    let mut w = [0f64; N + 1];
    w[..N].copy_from_slice(&origin);
    let mut free = [true; N + 1];
    for (f, name) in free.iter_mut().zip(Weights::NAMES) {
        *f = name != "man" && !fixed.contains(&name);
    }
    let (mut m, mut v) = ([0f64; N + 1], [0f64; N + 1]);
    let (rate, beta1, beta2) = (0.5, 0.9, 0.999);
    for t in 1..=iterations {
        let mut grad = [0f64; N + 1];
        for s in samples {
            let p = sigmoid(scale, predicted(&w, s));
            let common = (p - s.result) * p * (1.0 - p) * scale / 100.0;
            for (g, &x) in grad.iter_mut().zip(&s.features) {
                *g += common * f64::from(x);
            }
            grad[N] += common * colour(s);
        }
        for i in (0..=N).filter(|&i| free[i]) {
            let mut g = 2.0 * grad[i] / samples.len().max(1) as f64;
            if i < N {
                g += 2.0 * l2 * (w[i] - origin[i]) / 10_000.0;
            }
            m[i] = beta1 * m[i] + (1.0 - beta1) * g;
            v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
            let m_hat = m[i] / (1.0 - beta1.powi(t as i32));
            let v_hat = v[i] / (1.0 - beta2.powi(t as i32));
            w[i] -= rate * m_hat / (v_hat.sqrt() + 1e-12);
        }
    }
    let mut rounded = [0i32; N];
    for (r, x) in rounded.iter_mut().zip(&w) {
        *r = x.round() as i32;
    }
    let weights = Weights::from_array(rounded);
    let white = w[N];
    let error_after = mean_error(samples, &weights, white, scale);
    Fit {
        weights,
        white,
        scale,
        error_before,
        error_after,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use emergo_core::playout::SplitMix;
    use emergo_core::Game;

    /// Positions of random games labelled by a known evaluation: the result it expects.
    fn labelled_by(weights: &Weights, count: usize) -> Vec<Sample> {
        let mut out = Vec::new();
        let mut game_seed = 0;
        while out.len() < count {
            let mut rng = SplitMix::new(game_seed);
            game_seed += 1;
            let mut pos = emergo_core::Position::start();
            loop {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let f = features(&pos);
                out.push(Sample {
                    features: f,
                    white_to_move: pos.turn() == Color::White,
                    result: sigmoid(1.0, eval(&as_f64(weights), &f)),
                });
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        out
    }

    #[test]
    fn a_finished_game_gives_its_quiet_positions_labelled_for_the_side_to_move() {
        let mut game = Game::default();
        for mv in ["d3", "e1", "f2"] {
            game.play_text(mv).unwrap();
        }
        assert!(samples(&game).is_empty(), "an ongoing game teaches nothing");
        game.resign(Color::Black).unwrap();
        let s = samples(&game);
        assert_eq!(s.len(), 4, "four positions, no capture in any");
        let results: Vec<f64> = s.iter().map(|s| s.result).collect();
        assert_eq!(results, [1.0, 0.0, 1.0, 0.0], "White to move, Black, ...");
    }

    #[test]
    fn fitting_moves_a_wrong_weight_towards_the_one_that_made_the_labels() {
        let truth = Weights {
            hand: 60,
            ..Weights::default()
        };
        let samples = labelled_by(&truth, 3000);
        let start = Weights::default();
        let fit = fit(&samples, &start, &[], 200, 0.0);
        assert!(fit.error_after < fit.error_before, "{fit:?}");
        assert!(
            (fit.weights.hand - truth.hand).abs() < (start.hand - truth.hand).abs(),
            "{fit:?}"
        );
        assert_eq!(fit.weights.man, 100, "man stays fixed");
    }

    #[test]
    fn fixed_weights_stay_as_they_are() {
        let samples = labelled_by(&Weights::default(), 500);
        let start = Weights {
            tempo: 50,
            ..Weights::default()
        };
        let fit = fit(&samples, &start, &["tempo", "edge"], 20, 0.0);
        assert_eq!((fit.weights.tempo, fit.weights.edge), (50, start.edge));
    }
}
