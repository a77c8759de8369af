//! What a finished episode leaves: [`EpisodeRecord`] and its seats'
//! [`SeatRecord`]s (the journal's lines, the tables' rows).

use crate::play::outcome::Outcome;
use crate::play::schedule::Episode;
use games::PlayerResult;
use serde::{Deserialize, Serialize};

/// What happened to one seat in an episode (serialized in the run's
/// journal, see [`crate::output::journal`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatRecord {
    /// Index of the agent in the config.
    pub agent: usize,
    /// Win / loss / draw.
    #[serde(with = "crate::play::outcome::result_label")]
    pub result: PlayerResult,
    /// Normal, or how the agent misbehaved.
    #[serde(with = "crate::play::outcome::label")]
    pub outcome: Outcome,
    /// Details of a failure (empty when normal).
    pub detail: String,
    /// The seat's score at the end.
    pub score: f64,
    /// Time of every act, in ms, on the judging clock.
    pub act_ms: Vec<f64>,
    /// Time of init, in ms.
    pub init_ms: f64,
    /// CPU time of the agent's thread over init and all acts, in ms (where measured).
    pub cpu_ms: f64,
    /// Acts past the soft budget but within the hard limit.
    pub overruns: u32,
    /// Whether init was past its soft budget (within its hard limit).
    #[serde(default)]
    pub init_overrun: bool,
    /// Acts past the soft budget that were not charged, because the time
    /// was not the agent's: the machine's load kept it waiting for a CPU
    /// (wall clock) or the host of a virtual machine took it (see
    /// [`crate::play::judge::excused`]).
    #[serde(default)]
    pub starved: u32,
    /// The ticks whose act overran the soft budget (the fallback was played).
    #[serde(default)]
    pub overrun_ticks: Vec<u32>,
    /// Nodes expanded, if the agent reports them.
    pub expanded: Option<u64>,
    /// Processes of the agent found alive after the game and killed
    /// (external agents whose process tree left something behind).
    pub leaked: u32,
}

impl SeatRecord {
    /// The record of agent `agent` before it played (ongoing, normal,
    /// nothing measured).
    pub fn new(agent: usize) -> SeatRecord {
        SeatRecord {
            agent,
            result: PlayerResult::Ongoing,
            outcome: Outcome::Normal,
            detail: String::new(),
            score: 0.0,
            act_ms: Vec::new(),
            init_ms: 0.0,
            cpu_ms: 0.0,
            overruns: 0,
            init_overrun: false,
            starved: 0,
            overrun_ticks: Vec::new(),
            expanded: None,
            leaked: 0,
        }
    }

    /// Init plus all acts, in ms.
    pub fn total_ms(&self) -> f64 {
        self.init_ms + self.act_ms.iter().sum::<f64>()
    }
}

/// A finished episode.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EpisodeRecord {
    /// What was played.
    pub episode: Episode,
    /// Ticks played.
    pub steps: u32,
    /// One record per seat.
    pub seats: Vec<SeatRecord>,
    /// The actions played, one entry per tick (simultaneous moves joined by `/`).
    pub moves: Vec<String>,
    /// The machine that played it (host name; set by the run loop, empty
    /// in journals of older versions), so that timing can be split by machine.
    #[serde(default)]
    pub host: String,
    /// That machine's CPU model.
    #[serde(default)]
    pub cpu_model: String,
}
