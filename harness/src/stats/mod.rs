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
//!   GSPRT, logistic or normalized Elo), and its config section.
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
