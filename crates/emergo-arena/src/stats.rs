//! Match statistics: Elo difference with its 95% error margin, and the sequential probability
//! ratio test (SPRT) that decides between two Elo hypotheses as games come in.
//!
//! The formulas are those of cutechess-cli (Elo and margin; the BayesElo SPRT) and of fishtest
//! (the generalised SPRT with the logistic Elo model, by maximum likelihood), so results can be compared with theirs.

use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The 97.5% quantile of the standard normal law (two-sided 95%).
const Z_95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses from one engine's point of view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Wdl {
    pub(crate) fn new(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw 1/2.
    pub(crate) fn points(&self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The mean score per game in [0, 1]; 0.5 when no game was played.
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => self.points() / f64::from(n),
        }
    }

    /// The variance of one game's score around the mean.
    fn variance(&self) -> f64 {
        let n = f64::from(self.games());
        if n == 0.0 {
            return 0.0;
        }
        let mu = self.score();
        (f64::from(self.wins) * (1.0 - mu).powi(2)
            + f64::from(self.draws) * (0.5 - mu).powi(2)
            + f64::from(self.losses) * mu.powi(2))
            / n
    }

    /// The Elo difference this score shows, with its 95% error margin.
    pub fn elo(&self) -> EloEstimate {
        let n = f64::from(self.games());
        if n == 0.0 {
            return EloEstimate {
                diff: 0.0,
                margin: f64::INFINITY,
            };
        }
        let mu = self.score();
        let stdev = self.variance().sqrt() / n.sqrt();
        let low = elo_of_score(mu - Z_95 * stdev);
        let high = elo_of_score(mu + Z_95 * stdev);
        let diff = elo_of_score(mu);
        EloEstimate {
            diff,
            // A score of 100% or 0% has no finite Elo and no finite margin.
            margin: if diff.is_finite() {
                (high - low) / 2.0
            } else {
                f64::INFINITY
            },
        }
    }
}

/// The logistic Elo difference that gives an expected score `s` (±infinity at 1 and 0).
pub(crate) fn elo_of_score(s: f64) -> f64 {
    if s >= 1.0 {
        f64::INFINITY
    } else if s <= 0.0 {
        f64::NEG_INFINITY
    } else {
        // `+ 0.0` turns the -0.0 of an even score into 0.0.
        -400.0 * (1.0 / s - 1.0).log10() + 0.0
    }
}

/// The expected score of a side `elo` points stronger (logistic model).
pub(crate) fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference and the half-width of its 95% confidence interval. Either may be infinite
/// (a score of 100% or 0% has no finite Elo).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct EloEstimate {
    pub(crate) diff: f64,
    pub(crate) margin: f64,
}

impl fmt::Display for EloEstimate {
    /// `+147.2 +/- 66.0`, `+inf +/- nan` style.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let num = |x: f64, signed: bool| {
            if x.is_nan() {
                "nan".to_string()
            } else if x.is_infinite() {
                if x > 0.0 { "+inf" } else { "-inf" }.to_string()
            } else if signed {
                format!("{x:+.1}")
            } else {
                format!("{x:.1}")
            }
        };
        let margin = num(self.margin, false).trim_start_matches('+').to_string();
        write!(f, "{} +/- {}", num(self.diff, true), margin)
    }
}

/// How the SPRT computes its log-likelihood ratio.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub(crate) enum SprtModel {
    /// The generalised SPRT with the logistic Elo model (fishtest): works with any counts.
    #[default]
    Logistic,
    /// The trinomial BayesElo model (cutechess-cli): needs at least one win, draw and loss.
    BayesElo,
}

/// The parameters of an SPRT: H0 says the Elo difference is `elo0`, H1 says `elo1`; `alpha`
/// and `beta` are the error rates of accepting H1 and H0 wrongly.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sprt {
    pub(crate) elo0: f64,
    pub(crate) elo1: f64,
    pub(crate) alpha: f64,
    pub(crate) beta: f64,
    pub(crate) model: SprtModel,
}

impl Default for Sprt {
    fn default() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
            model: SprtModel::Logistic,
        }
    }
}

/// What an SPRT says so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Not enough evidence yet.
    Continue,
    /// H0 accepted: the difference is (at most) elo0.
    H0,
    /// H1 accepted: the difference is (at least) elo1.
    H1,
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Verdict::Continue => "continue",
            Verdict::H0 => "H0",
            Verdict::H1 => "H1",
        })
    }
}

/// The state of an SPRT: the ratio, its bounds and the verdict.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct SprtStatus {
    pub(crate) llr: f64,
    pub(crate) lower: f64,
    pub(crate) upper: f64,
    pub(crate) verdict: Verdict,
}

/// A bad `--sprt` text.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SprtError {
    #[error("SPRT parameter '{0}' is not key=value")]
    NotKeyValue(String),
    #[error("unknown SPRT parameter '{0}' (known: elo0, elo1, alpha, beta, model)")]
    UnknownKey(String),
    #[error("SPRT parameter {key}: '{value}' is not a number")]
    BadNumber { key: String, value: String },
    #[error("SPRT model '{0}' is unknown (logistic or bayeselo)")]
    BadModel(String),
    #[error("SPRT needs 0 < alpha < 1, 0 < beta < 1 and elo0 < elo1")]
    OutOfRange,
}

impl FromStr for Sprt {
    type Err = SprtError;

    /// Reads `elo0=0,elo1=10,alpha=0.05,beta=0.05[,model=logistic|bayeselo]`; missing keys keep
    /// the defaults shown.
    fn from_str(text: &str) -> Result<Sprt, SprtError> {
        let mut sprt = Sprt::default();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(part.to_string()))?;
            let number =
                || {
                    value.parse::<f64>().ok().filter(|x| x.is_finite()).ok_or(
                        SprtError::BadNumber {
                            key: key.to_string(),
                            value: value.to_string(),
                        },
                    )
                };
            match key {
                "elo0" => sprt.elo0 = number()?,
                "elo1" => sprt.elo1 = number()?,
                "alpha" => sprt.alpha = number()?,
                "beta" => sprt.beta = number()?,
                "model" => {
                    sprt.model = match value {
                        "logistic" | "gsprt" => SprtModel::Logistic,
                        "bayeselo" | "trinomial" => SprtModel::BayesElo,
                        _ => return Err(SprtError::BadModel(value.to_string())),
                    }
                }
                _ => return Err(SprtError::UnknownKey(key.to_string())),
            }
        }
        let unit = |x: f64| x > 0.0 && x < 1.0;
        if !unit(sprt.alpha) || !unit(sprt.beta) || sprt.elo0 >= sprt.elo1 {
            return Err(SprtError::OutOfRange);
        }
        Ok(sprt)
    }
}

impl Sprt {
    /// The lower and upper bounds of the log-likelihood ratio (Wald).
    pub(crate) fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these results.
    pub(crate) fn llr(&self, wdl: &Wdl) -> f64 {
        match self.model {
            SprtModel::Logistic => llr_logistic(wdl, self.elo0, self.elo1),
            SprtModel::BayesElo => llr_bayeselo(wdl, self.elo0, self.elo1),
        }
    }

    /// The test's state for these results.
    pub(crate) fn status(&self, wdl: &Wdl) -> SprtStatus {
        let (lower, upper) = self.bounds();
        let llr = self.llr(wdl);
        let verdict = if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        };
        SprtStatus {
            llr,
            lower,
            upper,
            verdict,
        }
    }
}

/// fishtest's generalised SPRT in the logistic model: the log-likelihood ratio of the trinomial
/// laws closest to the sample (maximum likelihood) whose mean scores are those of `elo0` and
/// `elo1`. Counts of zero are regularised to 1e-3 as fishtest does, so one-sided results decide
/// too, but only after enough games.
fn llr_logistic(wdl: &Wdl, elo0: f64, elo1: f64) -> f64 {
    let n = f64::from(wdl.games());
    if n == 0.0 {
        return 0.0;
    }
    let reg = |c: u32| if c == 0 { 1e-3 } else { f64::from(c) };
    let counts = [reg(wdl.losses), reg(wdl.draws), reg(wdl.wins)];
    let total: f64 = counts.iter().sum();
    let p = counts.map(|c| c / total);
    const X: [f64; 3] = [0.0, 0.5, 1.0];
    // The law with mean s nearest the sample is p_i / (1 + lambda (x_i - s)), where lambda
    // solves sum p_i (x_i - s) / (1 + lambda (x_i - s)) = 0, a decreasing function of lambda
    // on (-1 / (1 - s), 1 / s).
    let lambda = |s: f64| {
        let f = |l: f64| -> f64 {
            p.iter()
                .zip(X)
                .map(|(pi, xi)| pi * (xi - s) / (1.0 + l * (xi - s)))
                .sum()
        };
        let (lo, hi) = (-1.0 / (1.0 - s), 1.0 / s);
        let (mut a, mut b) = (lo + 1e-12 * (hi - lo), hi - 1e-12 * (hi - lo));
        for _ in 0..200 {
            let m = (a + b) / 2.0;
            if f(m) > 0.0 {
                a = m;
            } else {
                b = m;
            }
        }
        (a + b) / 2.0
    };
    let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
    let (l0, l1) = (lambda(s0), lambda(s1));
    n * p
        .iter()
        .zip(X)
        .map(|(pi, xi)| pi * ((1.0 + l0 * (xi - s0)) / (1.0 + l1 * (xi - s1))).ln())
        .sum::<f64>()
}

/// cutechess-cli's SPRT with the BayesElo model: the draw Elo is estimated from the sample,
/// the hypotheses are turned into win/draw/loss laws, and the ratio is their log-likelihood.
/// Zero until there is at least one win, one draw and one loss.
fn llr_bayeselo(wdl: &Wdl, elo0: f64, elo1: f64) -> f64 {
    if wdl.wins == 0 || wdl.draws == 0 || wdl.losses == 0 {
        return 0.0;
    }
    let n = f64::from(wdl.games());
    let (w, d, l) = (
        f64::from(wdl.wins),
        f64::from(wdl.draws),
        f64::from(wdl.losses),
    );
    let (p_win, p_loss) = (w / n, l / n);
    let draw_elo = 200.0 * ((1.0 - p_loss) / p_loss * (1.0 - p_win) / p_win).log10();
    let x = 10f64.powf(-draw_elo / 400.0);
    let scale = 4.0 * x / ((1.0 + x) * (1.0 + x));
    let laws = |bayes_elo: f64| {
        let win = 1.0 / (1.0 + 10f64.powf((draw_elo - bayes_elo) / 400.0));
        let loss = 1.0 / (1.0 + 10f64.powf((draw_elo + bayes_elo) / 400.0));
        (win, 1.0 - win - loss, loss)
    };
    let (w0, d0, l0) = laws(elo0 / scale);
    let (w1, d1, l1) = laws(elo1 / scale);
    w * (w1 / w0).ln() + d * (d1 / d0).ln() + l * (l1 / l0).ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_of_score(0.5), 0.0, 1e-12));
        assert!(close(elo_of_score(0.75), 190.848_501_887_865, 1e-9));
        assert!(close(elo_of_score(0.25), -190.848_501_887_865, 1e-9));
        assert!(close(score_of_elo(400.0), 10.0 / 11.0, 1e-12));
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
        assert_eq!(elo_of_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn elo_margin_matches_cutechess_formula() {
        // Reference values computed independently (cutechess-cli's EloCalculator formula).
        let e = Wdl::new(60, 20, 20).elo();
        assert!(close(e.diff, 147.190_714_117_837_8, 1e-9));
        assert!(close(e.margin, 66.013_381_220_385_28, 1e-9));
        assert!(close(
            Wdl::new(10, 80, 10).elo().margin,
            30.531_864_321_710_68,
            1e-9
        ));
        assert!(close(
            Wdl::new(30, 40, 30).elo().margin,
            53.157_979_780_053_25,
            1e-9
        ));
        assert_eq!(Wdl::new(30, 40, 30).elo().to_string(), "+0.0 +/- 53.2");
    }

    #[test]
    fn elo_of_a_whitewash_is_infinite_and_printable() {
        let e = Wdl::new(20, 0, 0).elo();
        assert_eq!(e.diff, f64::INFINITY);
        assert_eq!(e.to_string(), "+inf +/- inf");
        assert_eq!(Wdl::new(0, 0, 3).elo().to_string(), "-inf +/- inf");
    }

    #[test]
    fn sprt_bounds_for_five_percent_errors() {
        let (lo, hi) = Sprt::default().bounds();
        assert!(close(lo, -2.944_438_979_166_44, 1e-12));
        assert!(close(hi, 2.944_438_979_166_44, 1e-12));
    }

    #[test]
    fn sprt_llr_matches_reference_values_in_both_models() {
        let bayes = Sprt {
            model: SprtModel::BayesElo,
            ..Sprt::default()
        };
        let logistic = Sprt::default();
        let cases = [
            (
                Wdl::new(120, 100, 80),
                0.0,
                10.0,
                1.557_309_637_581_21,
                1.542_611_241_794_92,
            ),
            (
                Wdl::new(1000, 1000, 1000),
                0.0,
                10.0,
                -1.863_731_434_066_30,
                -1.863_498_504_634_54,
            ),
            (
                Wdl::new(520, 1000, 480),
                0.0,
                5.0,
                0.737_520_049_718_16,
                0.737_231_967_728_76,
            ),
        ];
        for (wdl, elo0, elo1, want_bayes, want_logistic) in cases {
            let b = Sprt {
                elo0,
                elo1,
                ..bayes
            };
            let l = Sprt {
                elo0,
                elo1,
                ..logistic
            };
            assert!(
                close(b.llr(&wdl), want_bayes, 1e-9),
                "{wdl:?} bayes {}",
                b.llr(&wdl)
            );
            assert!(
                close(l.llr(&wdl), want_logistic, 1e-9),
                "{wdl:?} logistic {}",
                l.llr(&wdl)
            );
        }
    }

    #[test]
    fn sprt_verdicts() {
        let sprt = Sprt::default();
        assert_eq!(sprt.status(&Wdl::new(600, 200, 200)).verdict, Verdict::H1);
        assert_eq!(sprt.status(&Wdl::new(200, 200, 600)).verdict, Verdict::H0);
        assert_eq!(
            sprt.status(&Wdl::new(10, 10, 10)).verdict,
            Verdict::Continue
        );
        // One won game proves nothing; a long one-sided run decides in the logistic model, never
        // in the BayesElo one (it needs a win, a draw and a loss).
        assert_eq!(sprt.status(&Wdl::new(1, 0, 0)).verdict, Verdict::Continue);
        assert!(close(
            sprt.llr(&Wdl::new(50, 0, 0)),
            1.418_350_438_995_49,
            1e-9
        ));
        assert_eq!(sprt.status(&Wdl::new(200, 0, 0)).verdict, Verdict::H1);
        assert_eq!(sprt.status(&Wdl::new(0, 0, 200)).verdict, Verdict::H0);
        let bayes = Sprt {
            model: SprtModel::BayesElo,
            ..sprt
        };
        assert_eq!(
            bayes.status(&Wdl::new(200, 0, 0)).verdict,
            Verdict::Continue
        );
    }

    #[test]
    fn sprt_text_parses_and_rejects() {
        let s: Sprt = "elo0=0,elo1=10,alpha=0.05,beta=0.1,model=bayeselo"
            .parse()
            .unwrap();
        assert_eq!(s.beta, 0.1);
        assert_eq!(s.model, SprtModel::BayesElo);
        assert_eq!("elo1=5".parse::<Sprt>().unwrap().elo1, 5.0);
        assert!(matches!(
            "elo2=1".parse::<Sprt>(),
            Err(SprtError::UnknownKey(_))
        ));
        assert!(matches!(
            "alpha=x".parse::<Sprt>(),
            Err(SprtError::BadNumber { .. })
        ));
        assert!(matches!(
            "elo0=10,elo1=0".parse::<Sprt>(),
            Err(SprtError::OutOfRange)
        ));
        assert!(matches!(
            "alpha=1.5".parse::<Sprt>(),
            Err(SprtError::OutOfRange)
        ));
    }
}
