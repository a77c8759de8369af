//! Elo from one pair of agents: the trinomial model (W/D/L of single
//! games) and the pentanomial model (game pairs: the same start played
//! twice with the seats swapped).
//!
//! The formulas are the ones of fastchess (`elo_wdl.cpp`,
//! `elo_pentanomial.cpp`), which for the trinomial Elo interval are also
//! cutechess's (`elo.cpp`); see `shared/research/harness-anchors.md` §5:
//!
//! - score `s = Σ p_k x_k`, variance `σ² = Σ p_k (x_k − s)²` over the
//!   outcomes `x_k` with frequencies `p_k` (per game, or per pair);
//! - `SE = σ/√N`, the 95 % score interval `s ± 1.96·SE`;
//! - `Elo(s) = −400·log10(1/s − 1)`, the Elo interval is the image of the
//!   score interval, the `±` error its half width;
//! - nElo `= (s − ½)/σ_game · 800/ln 10` with `σ_game = σ` per game, or
//!   `√2·σ` for a pair;
//! - LOS `= Φ((s − ½)/SE)`.
//!
//! Degenerate inputs give documented values, never a panic or a NaN in a
//! field that is not documented to hold one: see [`EloEstimate`].

use statrs::distribution::{ContinuousCDF, Normal};

/// The two-sided 95 % quantile of the standard normal law, `Φ⁻¹(0.975)`.
pub const Z95: f64 = 1.959_963_984_540_054;

/// `800 / ln 10`: nElo per unit of `(s − ½)/σ` (fishtest's
/// `nelo_divided_by_nt`).
pub const NELO_PER_T: f64 = 347.435_585_522_601_46;

/// The result of one game for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// A win (1 point).
    Win,
    /// A draw (½ point).
    Draw,
    /// A loss (0 points).
    Loss,
}

impl GameResult {
    /// Points of the result: 1, ½ or 0.
    pub fn points(self) -> f64 {
        match self {
            GameResult::Win => 1.0,
            GameResult::Draw => 0.5,
            GameResult::Loss => 0.0,
        }
    }

    /// The result for the other side.
    pub fn reversed(self) -> GameResult {
        match self {
            GameResult::Win => GameResult::Loss,
            GameResult::Draw => GameResult::Draw,
            GameResult::Loss => GameResult::Win,
        }
    }

    /// Parses the `result` column of `episodes.csv` (`win`, `draw`,
    /// `loss`); anything else (`none`: the game did not end) is `None`.
    pub fn from_label(label: &str) -> Option<GameResult> {
        match label {
            "win" => Some(GameResult::Win),
            "draw" => Some(GameResult::Draw),
            "loss" => Some(GameResult::Loss),
            _ => None,
        }
    }
}

/// Wins, draws and losses of one agent against another.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Counts from wins, draws, losses.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Adds one game.
    pub fn add(&mut self, result: GameResult) {
        match result {
            GameResult::Win => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::Loss => self.losses += 1,
        }
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// `(W + D/2)/N`; `None` without games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n as f64)
    }

    /// `D/N`; `None` without games.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }

    /// The same games seen from the opponent.
    pub fn reversed(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }
}

/// Pentanomial counts of game pairs, from the first agent's side, in
/// fishtest's order `[LL, LD, DD+WL, WD, WW]`: index `k` holds the pairs
/// in which the agent scored `k/2` points out of 2 (the order of the two
/// games within a pair does not matter).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// `[LL, LD, DD+WL, WD, WW]`.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Counts in the order `[LL, LD, DD+WL, WD, WW]`.
    pub fn new(counts: [u64; 5]) -> Self {
        Pentanomial { counts }
    }

    /// Adds the pair of results `first` and `second` (both from the
    /// agent's side).
    pub fn add_pair(&mut self, first: GameResult, second: GameResult) {
        let half_points = |r: GameResult| match r {
            GameResult::Win => 2,
            GameResult::Draw => 1,
            GameResult::Loss => 0,
        };
        self.counts[half_points(first) + half_points(second)] += 1;
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The same pairs seen from the opponent.
    pub fn reversed(&self) -> Pentanomial {
        let mut c = self.counts;
        c.reverse();
        Pentanomial { counts: c }
    }

    /// Mean score per game; `None` without pairs.
    pub fn score(&self) -> Option<f64> {
        distribution(&self.counts).map(|(s, _, _)| s)
    }
}

/// An Elo estimate with its 95 % interval (trinomial or pentanomial).
///
/// Degenerate inputs (the normal approximation has no spread):
/// - score 1 (every game won): `elo = +∞`, `elo_lo = elo_hi = +∞`,
///   `elo_error = +∞`, `nelo = +∞`, `los = 1`; score 0 mirrors it;
/// - an interval end past score 0 or 1 is clamped there, so `elo_lo` may be
///   `−∞` or `elo_hi` `+∞`; `elo_error` is then `+∞`;
/// - every game (or pair) with the same outcome at score ½ (all draws):
///   `elo = 0 ± 0`, `nelo = 0`, `los = ½`.
///
/// `nelo_error` depends only on the sample size
/// (`1.96·(800/ln 10)/√games`), as in fastchess.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Games (trinomial) or game pairs (pentanomial) the estimate is from.
    pub samples: u64,
    /// Mean score per game, in `[0, 1]`.
    pub score: f64,
    /// Variance of one sample (a game, or a pair's mean score).
    pub variance: f64,
    /// Elo difference.
    pub elo: f64,
    /// Lower end of the 95 % Elo interval.
    pub elo_lo: f64,
    /// Upper end of the 95 % Elo interval.
    pub elo_hi: f64,
    /// Half width of the 95 % Elo interval (the `±`).
    pub elo_error: f64,
    /// Normalized Elo difference.
    pub nelo: f64,
    /// Half width of the 95 % nElo interval.
    pub nelo_error: f64,
    /// Likelihood of superiority, in `[0, 1]`.
    pub los: f64,
}

/// `−400·log10(1/s − 1)`: the logistic Elo difference of a mean score;
/// `−∞` at 0, `+∞` at 1, NaN outside `[0, 1]` or for NaN.
pub fn score_to_elo(s: f64) -> f64 {
    if !(0.0..=1.0).contains(&s) {
        return f64::NAN;
    }
    if s == 0.0 {
        return f64::NEG_INFINITY;
    }
    if s == 1.0 {
        return f64::INFINITY;
    }
    -400.0 * (1.0 / s - 1.0).log10()
}

/// `1/(1 + 10^(−elo/400))`: the expected score of a logistic Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// `Φ(x)`, the standard normal distribution function (`Φ(±∞)` = 1 or 0).
pub fn phi(x: f64) -> f64 {
    Normal::standard().cdf(x)
}

/// The mean score, the variance and the number of samples of the
/// outcomes `k/(len−1)` counted in `counts` (3 for W/D/L as `[L, D, W]`,
/// 5 for pairs); `None` without samples.
fn distribution(counts: &[u64]) -> Option<(f64, f64, u64)> {
    let n: u64 = counts.iter().sum();
    if n == 0 || counts.len() < 2 {
        return None;
    }
    let step = 1.0 / (counts.len() - 1) as f64;
    let nf = n as f64;
    let s: f64 = counts
        .iter()
        .enumerate()
        .map(|(k, &c)| c as f64 / nf * k as f64 * step)
        .sum();
    let var: f64 = counts
        .iter()
        .enumerate()
        .map(|(k, &c)| c as f64 / nf * (k as f64 * step - s).powi(2))
        .sum();
    Some((s.clamp(0.0, 1.0), var.max(0.0), n))
}

/// The estimate from a score, a per-sample variance, the sample count and
/// the per-game standard deviation factor (1 for games, √2 for pairs).
fn estimate(s: f64, var: f64, n: u64, games_per_sample: f64) -> EloEstimate {
    let se = (var / n as f64).sqrt();
    let lo_s = (s - Z95 * se).clamp(0.0, 1.0);
    let hi_s = (s + Z95 * se).clamp(0.0, 1.0);
    let elo_lo = score_to_elo(lo_s);
    let elo_hi = score_to_elo(hi_s);
    let elo_error = if elo_lo.is_finite() && elo_hi.is_finite() {
        (elo_hi - elo_lo) / 2.0
    } else {
        f64::INFINITY
    };
    let sd_game = (games_per_sample * var).sqrt();
    let excess = s - 0.5;
    let ratio = |num: f64, den: f64| {
        if den > 0.0 {
            num / den
        } else if num == 0.0 {
            0.0
        } else {
            num.signum() * f64::INFINITY
        }
    };
    let nelo = ratio(excess, sd_game) * NELO_PER_T;
    let nelo_error = Z95 * NELO_PER_T / (games_per_sample * n as f64).sqrt();
    let los = if se > 0.0 {
        phi(excess / se)
    } else if excess == 0.0 {
        0.5
    } else if excess > 0.0 {
        1.0
    } else {
        0.0
    };
    EloEstimate {
        samples: n,
        score: s,
        variance: var,
        elo: score_to_elo(s),
        elo_lo,
        elo_hi,
        elo_error,
        nelo,
        nelo_error,
        los,
    }
}

/// Elo ± 95 % interval, nElo and LOS from W/D/L (trinomial model, per
/// game); `None` without games. See [`EloEstimate`] for degenerate inputs.
pub fn trinomial(wdl: Wdl) -> Option<EloEstimate> {
    let (s, var, n) = distribution(&[wdl.losses, wdl.draws, wdl.wins])?;
    Some(estimate(s, var, n, 1.0))
}

/// Elo ± 95 % interval, nElo and LOS from pentanomial counts (per game
/// pair, fastchess's `EloPentanomial`); `None` without pairs. See
/// [`EloEstimate`] for degenerate inputs.
pub fn pentanomial(p: Pentanomial) -> Option<EloEstimate> {
    let (s, var, n) = distribution(&p.counts)?;
    Some(estimate(s, var, n, 2.0))
}

/// cutechess's LOS from wins and losses only (draws ignored):
/// `½·(1 + erf((W − L)/√(2(W + L))))`; ½ when `W + L = 0`.
pub fn los_wins_losses(wins: u64, losses: u64) -> f64 {
    let decisive = (wins + losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    0.5 * (1.0
        + statrs::function::erf::erf((wins as f64 - losses as f64) / (2.0 * decisive).sqrt()))
}

#[cfg(test)]
mod tests;
