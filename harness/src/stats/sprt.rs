//! The sequential probability ratio test of two agents: H0 `elo = elo0`
//! against H1 `elo = elo1`, stopped when the log-likelihood ratio leaves
//! `(ln(β/(1−α)), ln((1−β)/α))`.
//!
//! The LLR is the generalized one of fishtest (`LLRcalc.py`) and fastchess
//! (`sprt.cpp`): the counts (W/D/L, or pentanomial pairs) are an empirical
//! distribution `p̂` over the scores `0, ½, 1` (or `0, ¼, …, 1`), each zero
//! count replaced by 10⁻³; under each hypothesis the maximum-likelihood
//! distribution `p⁽ⁱ⁾` with the hypothesis' expected score ("logistic":
//! `s = 1/(1 + 10^(−elo/400))`; Van den Bergh's secular equation, solved
//! by bisection) or t-value ("normalized": `(μ − ½)/σ = nElo/(800/ln 10)`,
//! times √2 for pairs; a search over σ of the closest distribution with
//! mean `½ + tσ` and standard deviation σ, see `mle_t_value`) is found,
//! and `LLR = N·Σ p̂_k ln(p⁽¹⁾_k/p⁽⁰⁾_k)`.

use crate::stats::elo::{elo_to_score, Pentanomial, Wdl, NELO_PER_T};
use serde::{Deserialize, Serialize};
use std::str::FromStr;

/// How Elo is read in the hypotheses (the idiom of [`crate::names`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SprtModel {
    /// `"logistic"`: logistic Elo (expected score `1/(1+10^(−elo/400))`).
    Logistic,
    /// `"normalized"`: normalized Elo (fastchess's default).
    Normalized,
}

impl SprtModel {
    /// Every model, in the order error messages list them.
    pub const ALL: &'static [SprtModel] = &[SprtModel::Logistic, SprtModel::Normalized];

    /// The config name.
    pub fn as_str(self) -> &'static str {
        match self {
            SprtModel::Logistic => "logistic",
            SprtModel::Normalized => "normalized",
        }
    }
}

impl FromStr for SprtModel {
    type Err = crate::names::UnknownName;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::names::parse(Self::ALL, Self::as_str, s)
    }
}

/// Largest `|elo0|`, `|elo1|` accepted (beyond it the expected score is 1
/// to double precision and the test means nothing).
pub const MAX_SPRT_ELO: f64 = 1000.0;

/// The SPRT settings (a config section).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SprtConfig {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1 (greater than `elo0`).
    pub elo1: f64,
    /// Type I error (accepting H1 when H0 holds), in (0, 1); default 0.05.
    #[serde(default = "default_error")]
    pub alpha: f64,
    /// Type II error (accepting H0 when H1 holds), in (0, 1); default 0.05.
    #[serde(default = "default_error")]
    pub beta: f64,
    /// `"logistic"` or `"normalized"` (default, as fastchess).
    #[serde(default = "default_model")]
    pub model: String,
}

fn default_error() -> f64 {
    0.05
}

fn default_model() -> String {
    SprtModel::Normalized.as_str().to_string()
}

/// A bad [`SprtConfig`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtConfigError {
    /// `alpha` not strictly between 0 and 1.
    #[error("sprt: alpha must be strictly between 0 and 1, got {0}")]
    Alpha(f64),
    /// `beta` not strictly between 0 and 1.
    #[error("sprt: beta must be strictly between 0 and 1, got {0}")]
    Beta(f64),
    /// `alpha + beta` not below 1 (the bounds would not enclose 0).
    #[error("sprt: alpha + beta must be less than 1, got {0}")]
    AlphaPlusBeta(f64),
    /// `elo0` or `elo1` not finite or beyond [`MAX_SPRT_ELO`].
    #[error("sprt: elo0 and elo1 must be numbers between -{max} and {max}, got elo0 = {elo0}, elo1 = {elo1}", max = MAX_SPRT_ELO)]
    EloRange {
        /// The given elo0.
        elo0: f64,
        /// The given elo1.
        elo1: f64,
    },
    /// `elo0 >= elo1`.
    #[error("sprt: elo0 must be less than elo1, got elo0 = {elo0}, elo1 = {elo1}")]
    EloOrder {
        /// The given elo0.
        elo0: f64,
        /// The given elo1.
        elo1: f64,
    },
    /// A model name other than `logistic` and `normalized`.
    #[error("sprt: unknown model `{0}`; expected one of: {names}",
        names = SprtModel::ALL.iter().map(|m| m.as_str()).collect::<Vec<_>>().join(", "))]
    UnknownModel(String),
}

impl SprtConfig {
    /// Checks every value; the first problem found is the error.
    pub fn validate(&self) -> Result<(), SprtConfigError> {
        self.checked().map(|_| ())
    }

    /// The model, the lower and the upper bound of a valid config.
    fn checked(&self) -> Result<(SprtModel, f64, f64), SprtConfigError> {
        let open_unit = |x: f64| x > 0.0 && x < 1.0;
        if !open_unit(self.alpha) {
            return Err(SprtConfigError::Alpha(self.alpha));
        }
        if !open_unit(self.beta) {
            return Err(SprtConfigError::Beta(self.beta));
        }
        if self.alpha + self.beta >= 1.0 {
            return Err(SprtConfigError::AlphaPlusBeta(self.alpha + self.beta));
        }
        let in_range = |x: f64| x.is_finite() && x.abs() <= MAX_SPRT_ELO;
        if !in_range(self.elo0) || !in_range(self.elo1) {
            return Err(SprtConfigError::EloRange {
                elo0: self.elo0,
                elo1: self.elo1,
            });
        }
        if self.elo0 >= self.elo1 {
            return Err(SprtConfigError::EloOrder {
                elo0: self.elo0,
                elo1: self.elo1,
            });
        }
        let model = self
            .model
            .parse::<SprtModel>()
            .map_err(|e| SprtConfigError::UnknownModel(e.value))?;
        let (lower, upper) = bounds(self.alpha, self.beta);
        Ok((model, lower, upper))
    }
}

/// `(ln(β/(1−α)), ln((1−β)/α))`: the LLR below the first accepts H0, above
/// the second H1.
pub fn bounds(alpha: f64, beta: f64) -> (f64, f64) {
    ((beta / (1.0 - alpha)).ln(), ((1.0 - beta) / alpha).ln())
}

/// What the test counts: single games, or game pairs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtCounts {
    /// Wins, draws, losses of the tested agent.
    Trinomial(Wdl),
    /// Pentanomial counts of the tested agent.
    Pentanomial(Pentanomial),
}

/// The decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// The LLR reached the lower bound: H0 (`elo0`) accepted.
    AcceptH0,
    /// The LLR reached the upper bound: H1 (`elo1`) accepted.
    AcceptH1,
    /// Neither: play on.
    Continue,
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// `ln(β/(1−α))`.
    pub lower: f64,
    /// `ln((1−β)/α)`.
    pub upper: f64,
    /// The decision: H1 at `llr >= upper`, H0 at `llr <= lower`.
    pub decision: SprtDecision,
}

/// The test after `counts`: LLR, bounds and decision; cheap enough to call
/// after every pair. No games, or an LLR that [`llr`] could not compute:
/// LLR 0, continue (an uncomputed LLR never decides). Errors only for a
/// bad `cfg` (as [`SprtConfig::validate`]).
pub fn sprt_status(cfg: &SprtConfig, counts: &SprtCounts) -> Result<SprtStatus, SprtConfigError> {
    let (model, lower, upper) = cfg.checked()?;
    let llr = llr(model, cfg.elo0, cfg.elo1, counts).unwrap_or(0.0);
    let decision = if llr >= upper {
        SprtDecision::AcceptH1
    } else if llr <= lower {
        SprtDecision::AcceptH0
    } else {
        SprtDecision::Continue
    };
    Ok(SprtStatus {
        llr,
        lower,
        upper,
        decision,
    })
}

/// The generalized log-likelihood ratio of H1 `elo1` against H0 `elo0`
/// (see the module doc). No games: 0. `None` when a hypothesis' maximum-
/// likelihood distribution is not found (an expected score of 0 or 1, |elo|
/// far beyond [`MAX_SPRT_ELO`], NaN, or a search that did not converge) or
/// the LLR is not finite.
pub fn llr(model: SprtModel, elo0: f64, elo1: f64, counts: &SprtCounts) -> Option<f64> {
    let raw: Vec<u64> = match counts {
        SprtCounts::Trinomial(w) => vec![w.losses, w.draws, w.wins],
        SprtCounts::Pentanomial(p) => p.counts.to_vec(),
    };
    if raw.iter().all(|&c| c == 0) {
        return Some(0.0);
    }
    let regular: Vec<f64> = raw
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let total: f64 = regular.iter().sum();
    let p_hat: Vec<f64> = regular.iter().map(|c| c / total).collect();
    let last = (p_hat.len() - 1) as f64;
    let scores: Vec<f64> = (0..p_hat.len()).map(|k| k as f64 / last).collect();
    let (p0, p1) = match model {
        SprtModel::Logistic => (
            mle_expected(&scores, &p_hat, elo_to_score(elo0)),
            mle_expected(&scores, &p_hat, elo_to_score(elo1)),
        ),
        SprtModel::Normalized => {
            let per = match counts {
                SprtCounts::Trinomial(_) => 1.0,
                SprtCounts::Pentanomial(_) => std::f64::consts::SQRT_2,
            };
            (
                mle_t_value(&scores, &p_hat, per * elo0 / NELO_PER_T),
                mle_t_value(&scores, &p_hat, per * elo1 / NELO_PER_T),
            )
        }
    };
    let (p0, p1) = (p0?, p1?);
    let mean_log_ratio: f64 = (0..p_hat.len())
        .map(|k| p_hat[k] * (p1[k].ln() - p0[k].ln()))
        .sum();
    let llr = total * mean_log_ratio;
    llr.is_finite().then_some(llr)
}

/// The root `θ` of `Σ p_k x_k/(1 + θ x_k) = 0` on
/// `(−1/max x, −1/min x)` by bisection (the sum decreases in `θ`); `None`
/// unless `min x < 0 < max x`.
fn secular(p: &[f64], x: &[f64]) -> Option<f64> {
    let min = x.iter().copied().fold(f64::INFINITY, f64::min);
    let max = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(min < 0.0 && max > 0.0) {
        return None;
    }
    let f = |t: f64| -> f64 {
        p.iter()
            .zip(x)
            .map(|(&pk, &xk)| pk * xk / (1.0 + t * xk))
            .sum()
    };
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    for _ in 0..2000 {
        let mid = lo + (hi - lo) / 2.0;
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(lo + (hi - lo) / 2.0)
}

/// The maximum-likelihood distribution on `scores` with expected score `s`
/// given the empirical `p_hat` (Van den Bergh, "Comparing the
/// approximations for the generalized log likelihood ratio of a
/// multinomial distribution", Proposition 1.1).
fn mle_expected(scores: &[f64], p_hat: &[f64], s: f64) -> Option<Vec<f64>> {
    let x: Vec<f64> = scores.iter().map(|a| a - s).collect();
    let theta = secular(p_hat, &x)?;
    Some(
        p_hat
            .iter()
            .zip(&x)
            .map(|(p, xk)| p / (1.0 + theta * xk))
            .collect(),
    )
}

/// The maximum-likelihood distribution on `scores` (ascending) with
/// t-value `(μ − ½)/σ = t` given the empirical `p_hat` (all positive).
///
/// Every distribution with that t-value has `μ = ½ + tσ` for its σ, so the
/// search is over σ alone: for each σ, [`profile`] gives the divergence
/// `D(σ) = Σ p̂_k ln(p̂_k/p_k)` of the distribution closest to `p_hat` with
/// that mean and standard deviation, and the answer is the one of smallest
/// `D`. σ lies in `(0, 1/(2√(1+t²)))` (beyond it the variance would exceed
/// `μ(1 − μ)`, the largest of a distribution on [0, 1]); `D` is evaluated
/// on [`SIGMA_GRID`] evenly spaced points of that interval (`+∞` where no
/// distribution on `scores` has the moments; a lower bound of `D` where
/// [`profile`] could not finish, see [`Profile::AtLeast`]), and the best
/// one's neighbourhood (between its two grid neighbours or the interval's
/// ends) is narrowed by golden-section search. `None` when the best point
/// is only a bound or the result is not a distribution with the t-value
/// (both to 10⁻⁹): no distribution is returned unless it was found.
fn mle_t_value(scores: &[f64], p_hat: &[f64], t: f64) -> Option<Vec<f64>> {
    let sigma_max = 0.5 / (1.0 + t * t).sqrt();
    let divergence = |sigma: f64| -> f64 {
        match profile(scores, p_hat, 0.5 + t * sigma, sigma) {
            Profile::Found(d, _) | Profile::AtLeast(d) => d,
            Profile::Outside => f64::INFINITY,
        }
    };
    let at = |i: usize| sigma_max * i as f64 / (SIGMA_GRID + 1) as f64;
    let mut best = (0, f64::INFINITY);
    for i in 1..=SIGMA_GRID {
        let d = divergence(at(i));
        if d < best.1 {
            best = (i, d);
        }
    }
    if best.1 == f64::INFINITY {
        return None;
    }
    // Golden-section search for the smallest D on [at(i − 1), at(i + 1)].
    let (mut lo, mut hi) = (at(best.0 - 1), at(best.0 + 1));
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let (mut x1, mut x2) = (hi - r * (hi - lo), lo + r * (hi - lo));
    let (mut d1, mut d2) = (divergence(x1), divergence(x2));
    for _ in 0..200 {
        if hi - lo <= 1e-13 * sigma_max {
            break;
        }
        if d1 <= d2 {
            (hi, x2, d2) = (x2, x1, d1);
            x1 = hi - r * (hi - lo);
            d1 = divergence(x1);
        } else {
            (lo, x1, d1) = (x1, x2, d2);
            x2 = lo + r * (hi - lo);
            d2 = divergence(x2);
        }
    }
    let sigma = if d1 <= d2 { x1 } else { x2 };
    let Profile::Found(_, p) = profile(scores, p_hat, 0.5 + t * sigma, sigma) else {
        return None;
    };
    let mu: f64 = p.iter().zip(scores).map(|(pk, a)| pk * a).sum();
    let sd = p
        .iter()
        .zip(scores)
        .map(|(pk, a)| pk * (a - mu).powi(2))
        .sum::<f64>()
        .sqrt();
    let total: f64 = p.iter().sum();
    let ok = p.iter().all(|x| *x > 0.0 && x.is_finite())
        && (total - 1.0).abs() < 1e-9
        && ((mu - 0.5) / sd - t).abs() < 1e-9;
    ok.then_some(p)
}

/// What [`profile`] found for one (μ, σ).
#[derive(Debug)]
enum Profile {
    /// The closest distribution and its divergence `D` from `p̂`.
    Found(f64, Vec<f64>),
    /// No distribution on the scores has these moments with every
    /// probability positive.
    Outside,
    /// Newton's method stopped before the maximum (no progress, or its
    /// iterations ran out: near the edge of the moment space the maximum
    /// lies far out); `D` is at least this value, since every value of the
    /// dual `F` is a lower bound of its maximum.
    AtLeast(f64),
}

/// Points of σ at which [`mle_t_value`] evaluates `D` before narrowing.
const SIGMA_GRID: usize = 128;

/// The distribution on `scores` (ascending, at least 3) closest to `p_hat`
/// (all positive) with mean `mu` and standard deviation `sigma`: with
/// `x_k = (a_k − μ, (a_k − μ)² − σ²)`, `p_k = p̂_k/(1 + λ·x_k)` where `λ`
/// maximizes the concave `F(λ) = Σ p̂_k ln(1 + λ·x_k)` (the dual of the
/// problem, as in Owen's empirical likelihood), found by Newton's method
/// with backtracking from `λ = 0`; `F(λ) = Σ p̂_k ln(p̂_k/p_k)` is returned
/// with `p` (see [`Profile`] for the other answers).
fn profile(scores: &[f64], p_hat: &[f64], mu: f64, sigma: f64) -> Profile {
    let var = sigma * sigma;
    let (first, last) = (scores[0], scores[scores.len() - 1]);
    // Strictly inside the moment space: above the chords between adjacent
    // scores, below the chord between the extreme ones.
    let v_min = scores
        .windows(2)
        .find(|w| w[0] <= mu && mu <= w[1])
        .map(|w| (mu - w[0]) * (w[1] - mu));
    let inside = mu > first
        && mu < last
        && var < (mu - first) * (last - mu)
        && v_min.is_some_and(|v| var > v);
    if !inside {
        return Profile::Outside;
    }
    let x: Vec<[f64; 2]> = scores
        .iter()
        .map(|a| [a - mu, (a - mu).powi(2) - var])
        .collect();
    let f = |l: [f64; 2]| -> f64 {
        let mut sum = 0.0;
        for (q, xk) in p_hat.iter().zip(&x) {
            let d = 1.0 + l[0] * xk[0] + l[1] * xk[1];
            if d <= 0.0 {
                return f64::NEG_INFINITY;
            }
            sum += q * d.ln();
        }
        sum
    };
    // H = Σ w_k x_k x_kᵀ is nearly singular near the edge of the moment
    // space (the x_k of the likely scores are nearly parallel), so its
    // determinant and H⁻¹g are summed from the cross products
    // x_i × x_j = (u_j − u_i)(u_i u_j + σ²), u = a − μ, without cancellation
    // (det H = Σ_{i<j} w_i w_j (x_i × x_j)²).
    let n = scores.len();
    let cross = |i: usize, j: usize| {
        let (ui, uj) = (scores[i] - mu, scores[j] - mu);
        (uj - ui) * (ui * uj + var)
    };
    let mut lambda = [0.0, 0.0];
    let mut value = 0.0;
    let mut polish = 0;
    for _ in 0..200 {
        let d: Vec<f64> = x
            .iter()
            .map(|xk| 1.0 + lambda[0] * xk[0] + lambda[1] * xk[1])
            .collect();
        let c: Vec<f64> = (0..n).map(|k| p_hat[k] / d[k]).collect();
        let w: Vec<f64> = (0..n).map(|k| c[k] / d[k]).collect();
        let g = [
            (0..n).map(|k| c[k] * x[k][0]).sum::<f64>(),
            (0..n).map(|k| c[k] * x[k][1]).sum::<f64>(),
        ];
        let (mut det, mut adj) = (0.0, [0.0; 2]);
        for i in 0..n {
            for j in 0..n {
                let cij = cross(i, j);
                if i < j {
                    det += w[i] * w[j] * cij * cij;
                }
                adj[0] -= w[i] * c[j] * x[i][1] * cij;
                adj[1] += w[i] * c[j] * x[i][0] * cij;
            }
        }
        if !(det > 0.0 && det.is_finite()) {
            return Profile::AtLeast(value);
        }
        let step = [adj[0] / det, adj[1] / det];
        // Newton's decrement: F(λ*) − F(λ) is about half of it.
        let decrement = g[0] * step[0] + g[1] * step[1];
        if decrement.is_nan() {
            return Profile::AtLeast(value);
        }
        if decrement < 1e-12 {
            // Quadratic convergence: full steps, until they change
            // nothing or leave the domain.
            polish += 1;
            let next = [lambda[0] + step[0], lambda[1] + step[1]];
            let v = f(next);
            if decrement < 1e-30 || polish > 4 || v == f64::NEG_INFINITY {
                let p = (0..n).map(|k| p_hat[k] / d[k]).collect();
                return Profile::Found(value, p);
            }
            (lambda, value) = (next, v);
            continue;
        }
        let mut s = 1.0;
        loop {
            let next = [lambda[0] + s * step[0], lambda[1] + s * step[1]];
            let v = f(next);
            if v >= value + 1e-4 * s * decrement {
                if v <= value {
                    // The step no longer changes F: stalled, not converged.
                    return Profile::AtLeast(value);
                }
                (lambda, value) = (next, v);
                break;
            }
            s /= 2.0;
            if s < 1e-20 {
                return Profile::AtLeast(value);
            }
        }
    }
    Profile::AtLeast(value)
}

#[cfg(test)]
mod tests;
