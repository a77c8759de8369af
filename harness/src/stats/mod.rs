//! The statistics of a tournament, as pure functions (the reporter that
//! writes them is [`crate::output::reporters::ratings`]).
//!
//! - [`elo`]: per pair of agents, Elo with its 95 % interval, nElo, LOS
//!   and draw ratio from W/D/L (trinomial) or from game pairs
//!   (pentanomial), with fastchess's formulas;
//! - [`bt`]: Bradley–Terry ratings of 3+ agents at once (Hunter's MM)
//!   under a prior of virtual draws, with intervals from the posterior's
//!   curvature;
//! - [`sprt`]: the sequential probability ratio test (fishtest/fastchess
//!   GSPRT, logistic or normalized Elo), and its config section;
//! - [`median`], for the benchmarks' tables.
//!
//! The formulas, units and references are in `docs/statistics.md`; where
//! each reference figure of the tests comes from is in each test.

pub mod bt;
pub mod elo;
pub mod sprt;

pub use bt::{bradley_terry, Anchor, BtError, BtFit, BtOptions, BtRating, Encounter};
pub use elo::{pentanomial, trinomial, EloEstimate, GameResult, Pentanomial, Wdl};
pub use sprt::{
    sprt_status, SprtConfig, SprtConfigError, SprtCounts, SprtDecision, SprtModel, SprtStatus,
};

/// The median of `v` (sorted in place; the mean of the middle two of an
/// even count), 0 when empty.
pub fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_median_is_the_middle_value_or_the_mean_of_the_middle_two() {
        assert_eq!(super::median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(super::median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(super::median(&mut []), 0.0);
    }
}
