//! Bradley–Terry ratings of any number of agents at once, in Elo units
//! (`R = 400·log10 γ`): the posterior mode under a weak prior of virtual
//! draws, fitted by Hunter's MM algorithm (as OpenSpiel's
//! `evaluation/elo.cc`), draws counting as half a win each, with 95 %
//! intervals from the posterior's curvature (Laplace approximation). The
//! formulas are in `docs/statistics.md`.
//!
//! # The prior: virtual draws
//!
//! [`BtOptions::prior`] adds `v` drawn games (default [`DEFAULT_PRIOR`] =
//! 2) to every pair of agents that met, as BayesElo's `prior` does, before
//! the fit. It pulls ratings toward each other by about as much as `v`
//! extra games would, and makes every rating of agents that met finite: an
//! agent that lost all its games is rated below the others, not `−∞`.
//!
//! # Which agents are rated
//!
//! The fit is finite only when the "took points from" graph (an edge
//! `i → j` when `i` scored against `j`, virtual draws included) is
//! strongly connected (Hunter 2004, assumption 1). With a prior every pair
//! that met has such edges both ways, so this holds within each connected
//! group of the schedule; with `prior = 0` (the plain maximum likelihood)
//! it may not, and the ratings are the limit of the likelihood's supremum:
//!
//! - the *reference group* is the strongly connected group of the anchor
//!   agent ([`Anchor::Agent`]; an anchor without games leaves every rating
//!   `None`), or for [`Anchor::Mean`] the largest group (ties: the most
//!   central one, with the numbers of agents above and below it closest;
//!   then the one holding the lowest agent index);
//! - agents of the reference group get finite ratings, fit on the games
//!   among themselves and anchored (the group's mean, or the anchor, is 0);
//! - (`prior = 0` only) an agent from which a chain of "took points from"
//!   reaches the group (it dominates it) is rated `+∞`, one reached from
//!   the group `−∞`, without an interval;
//! - an agent with no games, or never compared with the group at all, has
//!   no rating (`None`).

use crate::stats::elo::Z95;

/// Elo per natural-log unit of γ: `400/ln 10`.
const ELO_PER_LN: f64 = 400.0 / std::f64::consts::LN_10;

/// A unit of results between two agents: one game, or one game pair
/// (`games` = 2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Encounter {
    /// Index of the first agent.
    pub a: usize,
    /// Index of the second agent.
    pub b: usize,
    /// Points of `a` (win 1, draw ½), between 0 and `games`.
    pub points_a: f64,
    /// Games in the unit.
    pub games: u32,
}

/// What the ratings are relative to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Anchor {
    /// The mean rating of the reference group is 0.
    #[default]
    Mean,
    /// This agent's rating is 0.
    Agent(usize),
}

/// How to fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BtOptions {
    /// What the ratings are relative to.
    pub anchor: Anchor,
    /// Virtual draws added to every pair of agents that met (0: the plain
    /// maximum likelihood, with `±∞` under separation).
    pub prior: f64,
    /// Most MM iterations per fit.
    pub max_iterations: usize,
    /// Convergence: largest rating change in one iteration, in Elo.
    pub tolerance: f64,
}

/// Virtual draws per pair of agents that met, by default.
pub const DEFAULT_PRIOR: f64 = 2.0;

impl Default for BtOptions {
    /// Mean anchor, [`DEFAULT_PRIOR`] virtual draws, 100 000 iterations,
    /// tolerance 1e-6 Elo.
    fn default() -> Self {
        BtOptions {
            anchor: Anchor::Mean,
            prior: DEFAULT_PRIOR,
            max_iterations: 100_000,
            tolerance: 1e-6,
        }
    }
}

/// Bad input to [`bradley_terry`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BtError {
    /// An encounter names an agent index out of range.
    #[error("encounter {index}: agent index out of range (there are {agents} agents)")]
    AgentOutOfRange {
        /// Position of the encounter in the input.
        index: usize,
        /// Number of agents.
        agents: usize,
    },
    /// An encounter of an agent with itself.
    #[error("encounter {0}: an agent cannot play itself")]
    SelfPlay(usize),
    /// Points outside `[0, games]` or not finite.
    #[error("encounter {0}: points must be between 0 and the number of games")]
    BadPoints(usize),
    /// A prior that is negative or not finite.
    #[error("the prior must be a number of virtual draws, 0 or more, got {0}")]
    BadPrior(f64),
    /// The anchor agent does not exist.
    #[error("anchor agent {anchor} out of range (there are {agents} agents)")]
    AnchorOutOfRange {
        /// The anchor index.
        anchor: usize,
        /// Number of agents.
        agents: usize,
    },
}

/// One agent's rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BtRating {
    /// Rating in Elo relative to the anchor; `±∞` (only without a prior)
    /// for an agent that dominates or is dominated by the reference group;
    /// `None` when not identifiable (see the module doc).
    pub rating: Option<f64>,
    /// The 95 % interval `rating ± 1.96·SE`, `SE` from the posterior's
    /// curvature (see [`bradley_terry`]); `None` for the anchor agent (0 by
    /// definition), an infinite rating or none.
    pub interval: Option<(f64, f64)>,
    /// Points scored (wins + draws/2), virtual draws not counted.
    pub points: f64,
    /// Games played, virtual draws not counted.
    pub games: u64,
}

/// The fit.
#[derive(Clone, Debug, PartialEq)]
pub struct BtFit {
    /// One rating per agent, by index.
    pub ratings: Vec<BtRating>,
    /// Whether the fit converged within the iteration limit.
    pub converged: bool,
}

/// Points (`s[i][j]`: points of `i` against `j`) and games.
struct Tables {
    s: Vec<Vec<f64>>,
    n: Vec<Vec<f64>>,
}

/// The tables of `encounters`, with `prior` virtual draws added to every
/// pair of agents that met.
fn tables(agents: usize, encounters: &[Encounter], prior: f64) -> Tables {
    let mut s = vec![vec![0.0; agents]; agents];
    let mut n = vec![vec![0.0; agents]; agents];
    for e in encounters {
        let g = f64::from(e.games);
        s[e.a][e.b] += e.points_a;
        s[e.b][e.a] += g - e.points_a;
        n[e.a][e.b] += g;
        n[e.b][e.a] += g;
    }
    if prior > 0.0 {
        for i in 0..agents {
            for j in 0..agents {
                if n[i][j] > 0.0 {
                    s[i][j] += prior / 2.0;
                    n[i][j] += prior;
                }
            }
        }
    }
    Tables { s, n }
}

/// `reach[i][j]`: a chain of "took points from" leads from `i` to `j`.
fn reachability(t: &Tables) -> Vec<Vec<bool>> {
    let k = t.s.len();
    let mut r: Vec<Vec<bool>> = (0..k)
        .map(|i| (0..k).map(|j| i == j || t.s[i][j] > 0.0).collect())
        .collect();
    for m in 0..k {
        let via = r[m].clone();
        for row in r.iter_mut().filter(|row| row[m]) {
            for (x, &v) in row.iter_mut().zip(&via) {
                *x |= v;
            }
        }
    }
    r
}

/// MM fit of the agents in `group` on the games among them; ratings in
/// Elo with mean 0 over the group, by agent index (others 0), and whether
/// it converged.
fn mm_fit(t: &Tables, group: &[usize], opts: &BtOptions) -> (Vec<f64>, bool) {
    let k = t.s.len();
    let mut log_gamma = vec![0.0f64; k];
    if group.len() < 2 {
        return (log_gamma, true);
    }
    let wins: Vec<f64> = (0..k)
        .map(|i| group.iter().map(|&j| t.s[i][j]).sum())
        .collect();
    let mut converged = false;
    for _ in 0..opts.max_iterations {
        let mut next = log_gamma.clone();
        for &i in group {
            let gi = log_gamma[i].exp();
            let denom: f64 = group
                .iter()
                .filter(|&&j| j != i && t.n[i][j] > 0.0)
                .map(|&j| t.n[i][j] / (gi + log_gamma[j].exp()))
                .sum();
            if wins[i] > 0.0 && denom > 0.0 {
                next[i] = (wins[i] / denom).ln();
            }
        }
        let mean = group.iter().map(|&i| next[i]).sum::<f64>() / group.len() as f64;
        let mut change = 0.0f64;
        for &i in group {
            next[i] -= mean;
            change = change.max((next[i] - log_gamma[i]).abs());
        }
        log_gamma = next;
        if !change.is_finite() {
            break;
        }
        if change * 400.0 / std::f64::consts::LN_10 < opts.tolerance {
            converged = true;
            break;
        }
    }
    let ratings = log_gamma
        .iter()
        .map(|g| g * 400.0 / std::f64::consts::LN_10)
        .collect();
    (ratings, converged)
}

/// The fit of the reference group: its agents, their ratings (Elo, by
/// agent index, anchored) and whether the fit converged.
struct GroupFit {
    group: Vec<usize>,
    fit: Vec<f64>,
    converged: bool,
}

/// The ratings (no intervals), and the reference group's fit (`None`
/// when there is no reference group).
fn point_fit(t: &Tables, opts: &BtOptions) -> (Vec<Option<f64>>, Option<GroupFit>) {
    let agents = t.s.len();
    let active: Vec<bool> = (0..agents)
        .map(|i| t.n[i].iter().any(|&g| g > 0.0))
        .collect();
    let reach = reachability(t);
    let group_of = |i: usize| -> Vec<usize> {
        (0..agents)
            .filter(|&j| active[j] && reach[i][j] && reach[j][i])
            .collect()
    };
    let reference: Vec<usize> = match opts.anchor {
        Anchor::Agent(a) if active.get(a).copied().unwrap_or(false) => group_of(a),
        Anchor::Agent(_) => Vec::new(),
        Anchor::Mean => {
            // The largest group; among equally large ones the most central:
            // agents above it and below it closest in number.
            let imbalance = |g: &[usize]| {
                let r = g[0];
                let above = (0..agents)
                    .filter(|&j| active[j] && reach[j][r] && !reach[r][j])
                    .count();
                let below = (0..agents)
                    .filter(|&j| active[j] && reach[r][j] && !reach[j][r])
                    .count();
                above.abs_diff(below)
            };
            let mut best: Vec<usize> = Vec::new();
            for i in (0..agents).filter(|&i| active[i]) {
                let g = group_of(i);
                if g[0] != i {
                    continue; // each group once, from its lowest index
                }
                if g.len() > best.len()
                    || (g.len() == best.len() && imbalance(&g) < imbalance(&best))
                {
                    best = g;
                }
            }
            best
        }
    };
    let Some(&r) = reference.first() else {
        return (vec![None; agents], None);
    };
    let (mut fit, converged) = mm_fit(t, &reference, opts);
    if let Anchor::Agent(a) = opts.anchor {
        let offset = fit[a];
        for x in &mut fit {
            *x -= offset;
        }
    }
    let ratings = (0..agents)
        .map(|i| {
            if !active[i] {
                None
            } else if reference.contains(&i) {
                Some(fit[i])
            } else if reach[i][r] {
                Some(f64::INFINITY)
            } else if reach[r][i] {
                Some(f64::NEG_INFINITY)
            } else {
                None
            }
        })
        .collect();
    let group = GroupFit {
        group: reference,
        fit,
        converged,
    };
    (ratings, Some(group))
}

/// The inverse of the square matrix `m` by Gauss–Jordan elimination with
/// partial pivoting; `None` when it is singular.
fn invert(mut m: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let k = m.len();
    let mut inv: Vec<Vec<f64>> = (0..k)
        .map(|i| (0..k).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for c in 0..k {
        let p = (c..k).max_by(|&a, &b| m[a][c].abs().total_cmp(&m[b][c].abs()))?;
        if m[p][c].abs() < 1e-300 {
            return None;
        }
        m.swap(c, p);
        inv.swap(c, p);
        let d = m[c][c];
        for j in 0..k {
            m[c][j] /= d;
            inv[c][j] /= d;
        }
        for r in (0..k).filter(|&r| r != c) {
            let f = m[r][c];
            if f != 0.0 {
                for j in 0..k {
                    m[r][j] -= f * m[c][j];
                    inv[r][j] -= f * inv[c][j];
                }
            }
        }
    }
    Some(inv)
}

/// Standard errors (Elo) of the reference group's ratings, by agent index
/// (`None` outside the group and for the anchor agent): the square roots
/// of the diagonal of the inverse of the negative Hessian of the log
/// posterior in `θ = ln γ`, `H_ii = Σ_j N_ij p_ij p_ji`, `H_ij = −N_ij p_ij
/// p_ji` (`p_ij = γ_i/(γ_i + γ_j)`, `N_ij` games with the virtual draws),
/// under the anchor's constraint: for the mean anchor `(H + 11ᵀ/k)⁻¹ −
/// 11ᵀ/k` (the pseudo-inverse of `H`), for an agent anchor the inverse of
/// `H` without the anchor's row and column.
fn standard_errors(t: &Tables, g: &GroupFit, anchor: Anchor) -> Vec<Option<f64>> {
    let agents = t.s.len();
    let mut out = vec![None; agents];
    let free: Vec<usize> = match anchor {
        Anchor::Agent(a) => g.group.iter().copied().filter(|&i| i != a).collect(),
        Anchor::Mean => g.group.clone(),
    };
    let k = free.len();
    if g.group.len() < 2 || k == 0 {
        return out;
    }
    let theta = |i: usize| g.fit[i] / ELO_PER_LN;
    let w = |i: usize, j: usize| {
        let p = 1.0 / (1.0 + (theta(j) - theta(i)).exp());
        t.n[i][j] * p * (1.0 - p)
    };
    let diag = |i: usize| -> f64 { g.group.iter().filter(|&&j| j != i).map(|&j| w(i, j)).sum() };
    let shift = match anchor {
        Anchor::Mean => 1.0 / k as f64,
        Anchor::Agent(_) => 0.0,
    };
    let h: Vec<Vec<f64>> = free
        .iter()
        .map(|&i| {
            free.iter()
                .map(|&j| if i == j { diag(i) } else { -w(i, j) } + shift)
                .collect()
        })
        .collect();
    let Some(c) = invert(h) else {
        return out;
    };
    for (x, &i) in free.iter().enumerate() {
        let var = c[x][x] - shift;
        if var.is_finite() && var > 0.0 {
            out[i] = Some(var.sqrt() * ELO_PER_LN);
        }
    }
    out
}

fn check(agents: usize, encounters: &[Encounter], opts: &BtOptions) -> Result<(), BtError> {
    for (index, e) in encounters.iter().enumerate() {
        if e.a >= agents || e.b >= agents {
            return Err(BtError::AgentOutOfRange { index, agents });
        }
        if e.a == e.b {
            return Err(BtError::SelfPlay(index));
        }
        if !(e.points_a.is_finite() && e.points_a >= 0.0 && e.points_a <= f64::from(e.games)) {
            return Err(BtError::BadPoints(index));
        }
    }
    if !(opts.prior.is_finite() && opts.prior >= 0.0) {
        return Err(BtError::BadPrior(opts.prior));
    }
    if let Anchor::Agent(anchor) = opts.anchor {
        if anchor >= agents {
            return Err(BtError::AnchorOutOfRange { anchor, agents });
        }
    }
    Ok(())
}

/// Bradley–Terry ratings of `agents` agents (indices `0..agents`) from
/// `encounters`, with `opts.prior` virtual draws per pair of agents that
/// met, and 95 % intervals `rating ± 1.96·SE` (Laplace approximation of
/// the posterior; `SE` as in `docs/statistics.md`). Encounters with
/// `games = 0` are ignored.
///
/// No encounters: every rating `None`. See the module doc for agents that
/// won or lost everything.
pub fn bradley_terry(
    agents: usize,
    encounters: &[Encounter],
    opts: &BtOptions,
) -> Result<BtFit, BtError> {
    check(agents, encounters, opts)?;
    let encounters: Vec<Encounter> = encounters.iter().copied().filter(|e| e.games > 0).collect();
    let t = tables(agents, &encounters, opts.prior);
    let (point, group) = point_fit(&t, opts);
    let se = group
        .as_ref()
        .map(|g| standard_errors(&t, g, opts.anchor))
        .unwrap_or_else(|| vec![None; agents]);
    let real = tables(agents, &encounters, 0.0);
    let ratings = (0..agents)
        .map(|i| BtRating {
            rating: point[i],
            interval: match (point[i], se[i]) {
                (Some(x), Some(e)) if x.is_finite() => Some((x - Z95 * e, x + Z95 * e)),
                _ => None,
            },
            points: real.s[i].iter().sum(),
            games: real.n[i].iter().sum::<f64>() as u64,
        })
        .collect();
    Ok(BtFit {
        ratings,
        converged: group.is_none_or(|g| g.converged),
    })
}

#[cfg(test)]
mod tests;
