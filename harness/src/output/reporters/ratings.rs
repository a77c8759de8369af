//! `ratings.csv`: the statistics of a two-player run, written when it
//! finishes ([`RatingsCsv`]), and their terminal form ([`ratings_table`]).
//!
//! Rows ([`RatingRow`], column `kind`):
//! - `pair`: one per pair of agents that met (config order: `agent` is the
//!   earlier one), from `agent`'s side: W/D/L, score, draw ratio, Elo with
//!   its 95 % interval `[elo_lo, elo_hi]` and LOS (trinomial), and when
//!   games are paired the pentanomial counts with Elo, nElo (each with its
//!   `[lo, hi]`) and LOS;
//! - `bradley-terry`: one per agent when the run has 3+ agents: its
//!   Bradley–Terry rating with its 95 % interval `[rating_lo, rating_hi]`,
//!   under a prior of virtual draws, anchored to the mean (or to an agent,
//!   [`RatingsCsv::anchor`]).
//!
//! Every interval is written and printed as its two ends; the formulas are
//! in `docs/statistics.md`.
//!
//! A *pair* is two episodes with the same level and repetition and the
//! same two agents in swapped seats (what the round robin plays); episodes
//! without a partner count in W/D/L only. Results are read from each
//! agent's own rows of `episodes.csv`; a result other than win, draw or
//! loss (`none`: the game did not end) is left out.
//!
//! Infinite values (a 100 % score, or an interval end past a score of 0 or
//! 1) are written `inf` / `-inf`; values that do not apply are empty.

use crate::error::HarnessError;
use crate::output::reporters::{Event, Reporter};
use crate::output::rows::{self, EpisodeRow};
use crate::stats::bt::{self, Anchor, BtOptions, Encounter, DEFAULT_PRIOR};
use crate::stats::elo::{self, GameResult, Pentanomial, Wdl};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `kind` of a row per pair of agents.
pub const KIND_PAIR: &str = "pair";
/// `kind` of a Bradley–Terry row.
pub const KIND_BT: &str = "bradley-terry";

/// One row of `ratings.csv` (see the module doc; `None` is an empty cell).
#[derive(Debug, Serialize, Deserialize, Clone, PartialEq)]
/// A column this arena does not write is an error when read back (a
/// renamed column is never read as an empty or zero value).
#[serde(deny_unknown_fields)]
pub struct RatingRow {
    /// [`KIND_PAIR`] or [`KIND_BT`].
    pub kind: String,
    /// Agent label.
    pub agent: String,
    /// Opponent label (pair rows), empty for Bradley–Terry rows.
    pub opponent: String,
    /// Games counted (with a win, draw or loss).
    pub games: u64,
    /// Wins of `agent` (pair rows).
    pub wins: Option<u64>,
    /// Draws (pair rows).
    pub draws: Option<u64>,
    /// Losses of `agent` (pair rows).
    pub losses: Option<u64>,
    /// Points per game of `agent`.
    pub score: Option<f64>,
    /// Draws per game (pair rows).
    pub draw_ratio: Option<f64>,
    /// Elo difference `agent − opponent`, trinomial (pair rows).
    pub elo: Option<f64>,
    /// Lower end of its 95 % interval.
    pub elo_lo: Option<f64>,
    /// Upper end of its 95 % interval.
    pub elo_hi: Option<f64>,
    /// Likelihood of superiority of `agent`, trinomial, in `[0, 1]`.
    pub los: Option<f64>,
    /// Complete game pairs (pair rows; 0 when none).
    pub pairs: Option<u64>,
    /// Pairs `agent` lost twice.
    pub penta_ll: Option<u64>,
    /// Pairs with a loss and a draw.
    pub penta_ld: Option<u64>,
    /// Pairs with two draws or a win and a loss.
    pub penta_dd_wl: Option<u64>,
    /// Pairs with a win and a draw.
    pub penta_wd: Option<u64>,
    /// Pairs `agent` won twice.
    pub penta_ww: Option<u64>,
    /// Elo difference from the pairs.
    pub penta_elo: Option<f64>,
    /// Lower end of its 95 % interval.
    pub penta_elo_lo: Option<f64>,
    /// Upper end of its 95 % interval.
    pub penta_elo_hi: Option<f64>,
    /// Normalized Elo from the pairs.
    pub nelo: Option<f64>,
    /// Lower end of its 95 % interval.
    pub nelo_lo: Option<f64>,
    /// Upper end of its 95 % interval.
    pub nelo_hi: Option<f64>,
    /// Likelihood of superiority from the pairs.
    pub penta_los: Option<f64>,
    /// Bradley–Terry rating (Bradley–Terry rows); empty when not
    /// identifiable (see [`crate::stats::bt`]).
    pub rating: Option<f64>,
    /// Lower end of its 95 % interval (empty for the anchor agent).
    pub rating_lo: Option<f64>,
    /// Upper end of its 95 % interval.
    pub rating_hi: Option<f64>,
}

impl RatingRow {
    fn empty(kind: &str, agent: &str, opponent: &str, games: u64) -> Self {
        RatingRow {
            kind: kind.to_string(),
            agent: agent.to_string(),
            opponent: opponent.to_string(),
            games,
            wins: None,
            draws: None,
            losses: None,
            score: None,
            draw_ratio: None,
            elo: None,
            elo_lo: None,
            elo_hi: None,
            los: None,
            pairs: None,
            penta_ll: None,
            penta_ld: None,
            penta_dd_wl: None,
            penta_wd: None,
            penta_ww: None,
            penta_elo: None,
            penta_elo_lo: None,
            penta_elo_hi: None,
            nelo: None,
            nelo_lo: None,
            nelo_hi: None,
            penta_los: None,
            rating: None,
            rating_lo: None,
            rating_hi: None,
        }
    }
}

/// How [`ratings_rows`] rates.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingsOptions {
    /// Agent whose Bradley–Terry rating is 0; `None`: the mean is 0.
    pub anchor: Option<String>,
    /// Virtual draws per pair of agents that met, in the Bradley–Terry fit.
    pub prior: f64,
}

impl Default for RatingsOptions {
    /// Mean anchor, [`DEFAULT_PRIOR`] virtual draws.
    fn default() -> Self {
        RatingsOptions {
            anchor: None,
            prior: DEFAULT_PRIOR,
        }
    }
}

/// Rounded to 4 decimals; infinities kept.
fn r4(x: f64) -> f64 {
    if x.is_finite() {
        (x * 1e4).round() / 1e4
    } else {
        x
    }
}

/// What one pair of agents played, from the first agent's side.
struct Meeting {
    wdl: Wdl,
    penta: Pentanomial,
    /// Bradley–Terry encounters: the pairs, or the games if some are unpaired.
    encounters: Vec<Encounter>,
}

/// `(episode, result)` of an agent in seat 0 and in seat 1.
type SeatResults = [Vec<(usize, GameResult)>; 2];

/// W/D/L, pentanomial counts and encounters of `a` (index `ia`) against
/// `b` (index `ib`) from `a`'s own rows.
fn meeting(rows: &[EpisodeRow], a: &str, b: &str, ia: usize, ib: usize) -> Meeting {
    let mut wdl = Wdl::default();
    // (level, repetition) → results of `a` in seat 0 and in seat 1, by episode.
    let mut by_start: BTreeMap<(&str, u32), SeatResults> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.agent == a && r.opponent == b) {
        let Some(res) = GameResult::from_label(&r.result) else {
            continue;
        };
        wdl.add(res);
        if r.seat < 2 {
            by_start.entry((&r.level, r.repetition)).or_default()[r.seat].push((r.episode, res));
        }
    }
    let mut penta = Pentanomial::default();
    let mut pair_encounters = Vec::new();
    for [mut first, mut second] in by_start.into_values() {
        first.sort_by_key(|&(e, _)| e);
        second.sort_by_key(|&(e, _)| e);
        for (&(_, x), &(_, y)) in first.iter().zip(&second) {
            penta.add_pair(x, y);
            pair_encounters.push(Encounter {
                a: ia,
                b: ib,
                points_a: x.points() + y.points(),
                games: 2,
            });
        }
    }
    let encounters = if penta.pairs() * 2 == wdl.games() {
        pair_encounters
    } else {
        [
            (GameResult::Win, wdl.wins),
            (GameResult::Draw, wdl.draws),
            (GameResult::Loss, wdl.losses),
        ]
        .into_iter()
        .flat_map(|(res, n)| {
            (0..n).map(move |_| Encounter {
                a: ia,
                b: ib,
                points_a: res.points(),
                games: 1,
            })
        })
        .collect()
    };
    Meeting {
        wdl,
        penta,
        encounters,
    }
}

fn pair_row(a: &str, b: &str, m: &Meeting) -> RatingRow {
    let mut row = RatingRow::empty(KIND_PAIR, a, b, m.wdl.games());
    row.wins = Some(m.wdl.wins);
    row.draws = Some(m.wdl.draws);
    row.losses = Some(m.wdl.losses);
    row.score = m.wdl.score().map(r4);
    row.draw_ratio = m.wdl.draw_ratio().map(r4);
    if let Some(e) = elo::trinomial(m.wdl) {
        row.elo = Some(r4(e.elo));
        row.elo_lo = Some(r4(e.elo_lo));
        row.elo_hi = Some(r4(e.elo_hi));
        row.los = Some(r4(e.los));
    }
    row.pairs = Some(m.penta.pairs());
    if let Some(e) = elo::pentanomial(m.penta) {
        let [ll, ld, dd_wl, wd, ww] = m.penta.counts;
        row.penta_ll = Some(ll);
        row.penta_ld = Some(ld);
        row.penta_dd_wl = Some(dd_wl);
        row.penta_wd = Some(wd);
        row.penta_ww = Some(ww);
        row.penta_elo = Some(r4(e.elo));
        row.penta_elo_lo = Some(r4(e.elo_lo));
        row.penta_elo_hi = Some(r4(e.elo_hi));
        row.nelo = Some(r4(e.nelo));
        row.nelo_lo = Some(r4(e.nelo - e.nelo_error));
        row.nelo_hi = Some(r4(e.nelo + e.nelo_error));
        row.penta_los = Some(r4(e.los));
    }
    row
}

/// The rows of `ratings.csv` for a two-player run with agents `agents`
/// (labels, config order) and its episode rows: a `pair` row per pair of
/// agents that met, then with 3+ agents a `bradley-terry` row per agent.
/// Bradley–Terry encounters are a pair of agents' game pairs when all
/// their games are paired, else their single games. Errors: an anchor
/// that is not one of `agents`.
pub fn ratings_rows(
    agents: &[String],
    rows: &[EpisodeRow],
    opts: &RatingsOptions,
) -> Result<Vec<RatingRow>, HarnessError> {
    let anchor = match &opts.anchor {
        None => Anchor::Mean,
        Some(label) => match agents.iter().position(|a| a == label) {
            Some(i) => Anchor::Agent(i),
            None => {
                return Err(HarnessError::Config(format!(
                    "ratings: anchor `{label}` is not an agent of the run ({})",
                    agents.join(", ")
                )))
            }
        },
    };
    let mut out = Vec::new();
    let mut encounters = Vec::new();
    for (ia, a) in agents.iter().enumerate() {
        for (ib, b) in agents.iter().enumerate().skip(ia + 1) {
            let m = meeting(rows, a, b, ia, ib);
            if m.wdl.games() == 0 {
                continue;
            }
            out.push(pair_row(a, b, &m));
            encounters.extend(m.encounters);
        }
    }
    if agents.len() >= 3 {
        let options = BtOptions {
            anchor,
            prior: opts.prior,
            ..BtOptions::default()
        };
        let fit = bt::bradley_terry(agents.len(), &encounters, &options)
            .map_err(|e| HarnessError::Config(format!("ratings: {e}")))?;
        for (label, r) in agents.iter().zip(&fit.ratings) {
            let mut row = RatingRow::empty(KIND_BT, label, "", r.games);
            row.score = (r.games > 0).then(|| r4(r.points / r.games as f64));
            row.rating = r.rating.map(r4);
            row.rating_lo = r.interval.map(|(lo, _)| r4(lo));
            row.rating_hi = r.interval.map(|(_, hi)| r4(hi));
            out.push(row);
        }
    }
    Ok(out)
}

/// An Elo value for the terminal: `+12.3`, `+inf`, `-inf`.
pub fn show_elo(x: f64) -> String {
    if x == f64::INFINITY {
        "+inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else if (x * 10.0).round() == 0.0 {
        "+0.0".into() // not "-0.0"
    } else {
        format!("{x:+.1}")
    }
}

/// A value with its 95 % interval as written in `ratings.csv`:
/// `+12.3 [-4.0, +28.9]`; `+inf (won all)` / `-inf (lost all)` for an
/// infinite value; `-` when absent.
pub fn show_interval(value: Option<f64>, lo: Option<f64>, hi: Option<f64>) -> String {
    match (value, lo, hi) {
        (Some(v), _, _) if v == f64::INFINITY => "+inf (won all)".into(),
        (Some(v), _, _) if v == f64::NEG_INFINITY => "-inf (lost all)".into(),
        (Some(v), Some(lo), Some(hi)) => {
            format!("{} [{}, {}]", show_elo(v), show_elo(lo), show_elo(hi))
        }
        (Some(v), _, _) => show_elo(v),
        _ => "-".into(),
    }
}

fn show_pct(x: Option<f64>) -> String {
    x.map(|x| format!("{:.1}%", 100.0 * x))
        .unwrap_or_else(|| "-".into())
}

/// The rows as aligned text: the pairs, then (if any) the Bradley–Terry
/// ratings; empty string without rows. Intervals are shown as written.
pub fn ratings_table(rows: &[RatingRow]) -> String {
    let mut out = String::new();
    let header = |cols: &[&str]| cols.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let pairs: Vec<&RatingRow> = rows.iter().filter(|r| r.kind == KIND_PAIR).collect();
    if !pairs.is_empty() {
        let paired = pairs.iter().any(|r| r.pairs.unwrap_or(0) > 0);
        let mut head = vec![
            "agent",
            "opponent",
            "games",
            "W",
            "D",
            "L",
            "score",
            "Elo [95% CI]",
            "LOS",
        ];
        if paired {
            head.extend(["pairs", "nElo [95% CI]"]);
        }
        let mut lines = vec![header(&head)];
        for r in pairs {
            let n = |x: Option<u64>| x.map(|x| x.to_string()).unwrap_or_default();
            let mut line = vec![
                r.agent.clone(),
                r.opponent.clone(),
                r.games.to_string(),
                n(r.wins),
                n(r.draws),
                n(r.losses),
                r.score.map(|s| format!("{s:.3}")).unwrap_or_default(),
                show_interval(r.elo, r.elo_lo, r.elo_hi),
                show_pct(r.los),
            ];
            if paired {
                line.push(n(r.pairs));
                line.push(show_interval(r.nelo, r.nelo_lo, r.nelo_hi));
            }
            lines.push(line);
        }
        out.push_str(&rows::align(&lines));
    }
    let bt: Vec<&RatingRow> = rows.iter().filter(|r| r.kind == KIND_BT).collect();
    if !bt.is_empty() {
        if !out.is_empty() {
            out.push('\n');
        }
        let mut lines = vec![header(&[
            "agent",
            "Bradley-Terry [95% CI]",
            "games",
            "score",
        ])];
        for r in bt {
            lines.push(vec![
                r.agent.clone(),
                show_interval(r.rating, r.rating_lo, r.rating_hi),
                r.games.to_string(),
                r.score.map(|s| format!("{s:.3}")).unwrap_or_default(),
            ]);
        }
        out.push_str(&rows::align(&lines));
    }
    out
}

/// `ratings.csv`, written when a two-player run finishes (nothing for
/// one-player runs).
pub struct RatingsCsv {
    path: PathBuf,
    anchor: Option<String>,
    prior: f64,
}

impl RatingsCsv {
    /// Its file name.
    pub const FILE: &'static str = "ratings.csv";

    /// Writes `dir/ratings.csv`; Bradley–Terry anchored to the mean,
    /// [`DEFAULT_PRIOR`] virtual draws.
    pub fn new(dir: &Path) -> Self {
        RatingsCsv {
            path: dir.join(Self::FILE),
            anchor: None,
            prior: DEFAULT_PRIOR,
        }
    }

    /// Anchors the Bradley–Terry ratings to this agent (rating 0); an
    /// unknown label is an error when the run finishes.
    pub fn anchor(mut self, label: impl Into<String>) -> Self {
        self.anchor = Some(label.into());
        self
    }

    /// Virtual draws per pair of agents that met in the Bradley–Terry fit
    /// (0: the plain maximum likelihood).
    pub fn prior(mut self, prior: f64) -> Self {
        self.prior = prior;
        self
    }
}

impl Reporter for RatingsCsv {
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError> {
        let Event::RunFinished {
            cfg, rows, players, ..
        } = event
        else {
            return Ok(());
        };
        if *players != 2 {
            return Ok(());
        }
        let agents: Vec<String> = cfg.agents.iter().map(|a| a.label.clone()).collect();
        let opts = RatingsOptions {
            anchor: self.anchor.clone(),
            prior: self.prior,
        };
        let out = ratings_rows(&agents, rows, &opts)?;
        rows::write_csv(&self.path, &out)
    }

    fn files(&self) -> &'static [&'static str] {
        &[Self::FILE]
    }
}

#[cfg(test)]
mod tests;
