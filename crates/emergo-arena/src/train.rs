//! Training the learned evaluation (issue 25, `emergo train`): a sparse logistic regression of
//! the pattern weights and the linear terms of `emergo_engine::pattern` on self-play positions
//! (`emergo selfplay`), fitted by Adam.
//!
//! The model is the evaluation itself: `e = linear · terms + (phase · opening + (max - phase) ·
//! end) / max` over the position's patterns, in centimen for the side to move. It predicts
//! `σ(scale · e / 100)`, and the target is a blend of the game's result and the search's score
//! through the same curve: `λ · result + (1 - λ) · σ(scale · score / 100)`. The loss is the cross
//! entropy; the linear terms start from the board's fitted weights and the patterns from zero,
//! so training begins at today's evaluation. `man` stays at 100 (it sets the scale), and a
//! decoupled weight decay pulls the pattern weights towards zero so that rare patterns stay
//! small. Every tenth game is held out.

use emergo_core::position::Position;
use emergo_core::Variant;
use emergo_engine::eval::{features, Weights};
use emergo_engine::pattern::{Net, Patterns, UNIT};
use thiserror::Error;

/// Number of linear terms.
const LINEAR: usize = Weights::NAMES.len();

/// A line of a data file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {message}")]
pub struct DataError {
    pub line: usize,
    pub message: String,
}

/// Positions read into what training needs: for each, its linear terms, its phase, its pattern
/// indices (the same number for every position of a board), its target and its result.
#[derive(Clone, Debug, Default)]
pub struct Data {
    linear: Vec<[i16; LINEAR]>,
    phase: Vec<u8>,
    /// `stride` indices a position.
    indices: Vec<u16>,
    stride: usize,
    result: Vec<f32>,
    score: Vec<i32>,
    held_out: Vec<bool>,
}

impl Data {
    /// How many positions.
    pub fn len(&self) -> usize {
        self.phase.len()
    }

    /// True when there is none.
    pub fn is_empty(&self) -> bool {
        self.phase.is_empty()
    }

    /// Reads the lines of a data file (see `crate::selfplay`) on the board `V` and adds them;
    /// a file with a bad line adds nothing. Positions of games whose number is a multiple of ten
    /// are held out.
    pub fn read<V: Variant>(&mut self, text: &str) -> Result<(), DataError> {
        let mut more = Data::default();
        more.read_into::<V>(text)?;
        if more.is_empty() {
            return Ok(());
        }
        self.stride = more.stride;
        self.linear.extend(more.linear);
        self.phase.extend(more.phase);
        self.indices.extend(more.indices);
        self.result.extend(more.result);
        self.score.extend(more.score);
        self.held_out.extend(more.held_out);
        Ok(())
    }

    fn read_into<V: Variant>(&mut self, text: &str) -> Result<(), DataError> {
        let patterns = Patterns::of::<V>();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |message: String| DataError {
                line: n + 1,
                message,
            };
            let fields: Vec<&str> = line.split('\t').collect();
            let [game, position, result, score] = fields[..] else {
                return Err(bad(format!(
                    "{} fields where 4 are needed (game, position, result, score, tab-separated)",
                    fields.len()
                )));
            };
            let game: u64 = game
                .parse()
                .map_err(|_| bad(format!("'{game}' is not a game number")))?;
            let pos: Position<V> = position
                .parse()
                .map_err(|e| bad(format!("'{position}' is not a position: {e}")))?;
            let result: f32 = match result {
                "1" => 1.0,
                "0.5" => 0.5,
                "0" => 0.0,
                other => return Err(bad(format!("'{other}' is not a result (1, 0.5 or 0)"))),
            };
            let score: i32 = score
                .parse()
                .map_err(|_| bad(format!("'{score}' is not a score in centimen")))?;
            let terms = features(&pos);
            let mut linear = [0i16; LINEAR];
            for (to, from) in linear.iter_mut().zip(terms) {
                *to = from.clamp(i16::MIN.into(), i16::MAX.into()) as i16;
            }
            let before = self.indices.len();
            let phase = patterns.features(&pos, |i| self.indices.push(i as u16));
            self.stride = self.indices.len() - before;
            self.linear.push(linear);
            self.phase.push(phase as u8);
            self.result.push(result);
            self.score.push(score);
            self.held_out.push(game.is_multiple_of(10));
        }
        Ok(())
    }
}

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub epochs: usize,
    pub batch: usize,
    /// Adam's step, in centimen, at the start; it falls linearly to a tenth of that by the
    /// last step, so that the last epochs settle instead of wandering.
    pub learning_rate: f64,
    /// The result's share of the target (the rest is the search's score).
    pub lambda: f64,
    /// Decoupled weight decay of the pattern weights, a fraction per step.
    pub decay: f64,
    /// The curve's scale: `σ(scale · centimen / 100)`.
    pub scale: f64,
    pub seed: u64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 20,
            batch: 4096,
            learning_rate: 1.0,
            lambda: 0.7,
            decay: 1e-4,
            scale: 0.34,
            seed: 1,
        }
    }
}

/// The curve scale that best predicts the results from the search's scores (mean squared
/// error, golden-section search over 0.01..10), for a data set with no scale of its own.
pub fn fit_scale(data: &Data) -> f64 {
    crate::tune::minimise_scale(0.01, 10.0, 50, |scale| {
        let total: f64 = (0..data.len())
            .map(|k| {
                let p = sigmoid(scale * f64::from(data.score[k].clamp(-3000, 3000)) / 100.0);
                (p - f64::from(data.result[k])).powi(2)
            })
            .sum();
        total / data.len().max(1) as f64
    })
}

/// The errors of a model on the training positions and the held-out ones.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Errors {
    /// Cross entropy against the blended target.
    pub loss: f64,
    /// Mean squared error against the result alone (the Texel error of `emergo tune`).
    pub result_mse: f64,
    pub held_out_loss: f64,
    pub held_out_result_mse: f64,
}

/// What training made.
#[derive(Clone, Debug)]
pub struct TrainReport {
    pub net: Net,
    pub before: Errors,
    pub after: Errors,
    pub training: usize,
    pub held_out: usize,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The model's parameters as floats: linear terms, then the opening half, then the end half.
struct Model {
    linear: [f64; LINEAR],
    table: Vec<f64>,
    half: usize,
    max_phase: f64,
}

impl Model {
    fn eval(&self, data: &Data, k: usize) -> f64 {
        let lin: f64 = self
            .linear
            .iter()
            .zip(&data.linear[k])
            .map(|(w, &x)| w * f64::from(x))
            .sum();
        let idx = &data.indices[k * data.stride..(k + 1) * data.stride];
        let (mut open, mut end) = (0.0, 0.0);
        for &i in idx {
            open += self.table[i as usize];
            end += self.table[self.half + i as usize];
        }
        let t = f64::from(data.phase[k]) / self.max_phase;
        lin + t * open + (1.0 - t) * end
    }

    fn errors(&self, data: &Data, config: &TrainConfig) -> Errors {
        let mut e = Errors::default();
        let (mut n, mut held) = (0usize, 0usize);
        for k in 0..data.len() {
            let p = sigmoid(config.scale * self.eval(data, k) / 100.0);
            let target = target(data, k, config);
            let p_safe = p.clamp(1e-9, 1.0 - 1e-9);
            let loss = -(target * p_safe.ln() + (1.0 - target) * (1.0 - p_safe).ln());
            let mse = (p - f64::from(data.result[k])).powi(2);
            if data.held_out[k] {
                e.held_out_loss += loss;
                e.held_out_result_mse += mse;
                held += 1;
            } else {
                e.loss += loss;
                e.result_mse += mse;
                n += 1;
            }
        }
        let (n, held) = (n.max(1) as f64, held.max(1) as f64);
        Errors {
            loss: e.loss / n,
            result_mse: e.result_mse / n,
            held_out_loss: e.held_out_loss / held,
            held_out_result_mse: e.held_out_result_mse / held,
        }
    }

    fn to_net<V: Variant>(&self) -> Net {
        let mut linear = [0i32; LINEAR];
        for (to, from) in linear.iter_mut().zip(self.linear) {
            *to = from.round() as i32;
        }
        let table: Vec<i16> = self
            .table
            .iter()
            .map(|w| (w * f64::from(UNIT)).round().clamp(-32767.0, 32767.0) as i16)
            .collect();
        Net::new::<V>(Weights::from_array(linear), &table)
            .expect("the model's table has the board's size by construction")
    }
}

fn target(data: &Data, k: usize, config: &TrainConfig) -> f64 {
    let from_score = sigmoid(config.scale * f64::from(data.score[k]) / 100.0);
    config.lambda * f64::from(data.result[k]) + (1.0 - config.lambda) * from_score
}

/// Adam's moments of one parameter vector.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// One step of `params` along `grad`, with `lr`, skipping the parameters `frozen` says.
    fn step(
        &mut self,
        params: &mut [f64],
        grad: &[f64],
        lr: f64,
        decay: f64,
        frozen: &dyn Fn(usize) -> bool,
    ) {
        const B1: f64 = 0.9;
        const B2: f64 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for (i, (p, &g)) in params.iter_mut().zip(grad).enumerate() {
            if frozen(i) {
                continue;
            }
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * g;
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * g * g;
            let step = lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
            *p -= step + decay * *p;
        }
    }
}

/// Trains a net for the board `V` on `data`, the linear terms starting from `start`, and calls
/// `progress` after each epoch with the epoch and the errors then.
pub fn train<V: Variant>(
    data: &Data,
    start: &Weights,
    config: &TrainConfig,
    progress: &mut dyn FnMut(usize, &Errors),
) -> TrainReport {
    let patterns = Patterns::of::<V>();
    let half = patterns.half;
    let mut model = Model {
        linear: start.to_array().map(f64::from),
        table: vec![0.0; 2 * half],
        half,
        max_phase: f64::from(Patterns::max_phase::<V>()),
    };
    let before = model.errors(data, config);
    let mut order: Vec<usize> = (0..data.len()).filter(|&k| !data.held_out[k]).collect();
    let training = order.len();
    let mut rng = emergo_core::playout::SplitMix::new(config.seed);
    let mut adam_linear = Adam::new(LINEAR);
    let mut adam_table = Adam::new(2 * half);
    let mut grad_table = vec![0.0; 2 * half];
    let man = Weights::NAMES.iter().position(|n| *n == "man").unwrap_or(0);
    let steps = (config.epochs * order.len().div_ceil(config.batch.max(1))).max(1);
    let mut step = 0;
    for epoch in 0..config.epochs {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for batch in order.chunks(config.batch.max(1)) {
            let lr = config.learning_rate * (1.0 - 0.9 * step as f64 / steps as f64);
            step += 1;
            let mut grad_linear = [0.0; LINEAR];
            grad_table.iter_mut().for_each(|g| *g = 0.0);
            let n = batch.len() as f64;
            for &k in batch {
                let p = sigmoid(config.scale * model.eval(data, k) / 100.0);
                let g = config.scale / 100.0 * (p - target(data, k, config)) / n;
                for (gl, &x) in grad_linear.iter_mut().zip(&data.linear[k]) {
                    *gl += g * f64::from(x);
                }
                let t = f64::from(data.phase[k]) / model.max_phase;
                for &i in &data.indices[k * data.stride..(k + 1) * data.stride] {
                    grad_table[i as usize] += g * t;
                    grad_table[half + i as usize] += g * (1.0 - t);
                }
            }
            adam_linear.step(&mut model.linear, &grad_linear, lr, 0.0, &|i| i == man);
            adam_table.step(&mut model.table, &grad_table, lr, config.decay, &|_| false);
        }
        progress(epoch + 1, &model.errors(data, config));
    }
    let after = model.errors(data, config);
    TrainReport {
        net: model.to_net::<V>(),
        before,
        after,
        training,
        held_out: data.len() - training,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::{selfplay, SelfplayConfig};
    use emergo_core::Emergo;
    use std::sync::Mutex;

    #[test]
    fn training_runs_end_to_end_on_a_tiny_set_and_lowers_the_error() {
        let config = SelfplayConfig::<Emergo>::new(12, 200);
        let text = Mutex::new(String::new());
        selfplay(&config, &|_| {}, &|g| {
            text.lock().unwrap().push_str(&g.lines)
        });
        let text = text.into_inner().unwrap();
        let mut data = Data::default();
        data.read::<Emergo>(&text).unwrap();
        assert!(data.len() > 300, "{} positions", data.len());
        let config = TrainConfig {
            epochs: 30,
            batch: 64,
            ..TrainConfig::default()
        };
        let report = train::<Emergo>(&data, &Weights::default(), &config, &mut |_, _| {});
        assert!(
            report.after.loss < report.before.loss,
            "{:?} -> {:?}",
            report.before,
            report.after
        );
        // The net is written and read back as the engine reads it, and evaluates as trained.
        let bytes = report.net.to_bytes();
        let net = Net::from_bytes::<Emergo>(&bytes).unwrap();
        assert_eq!(net, report.net);
        assert_eq!(net.linear().man, 100);
        assert!(net.table().iter().any(|&w| w != 0));
    }

    #[test]
    fn a_bad_line_is_refused_with_its_number_and_what_is_wrong() {
        let mut data = Data::default();
        let err = data
            .read::<Emergo>("# comment\n3\tW:12:12\t1\t20\n4\tW:12:12\t2\t0\n")
            .unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.message.contains("not a result"), "{err}");
        let err = data.read::<Emergo>("1\tW:12:12\t1\n").unwrap_err();
        assert!(err.message.contains("3 fields"), "{err}");
        let err = data.read::<Emergo>("1\tX:12:12\t1\t0\n").unwrap_err();
        assert!(err.message.contains("not a position"), "{err}");
    }
}
