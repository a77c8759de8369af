//! How an agent's part in an episode ended: data, never an error.
//!
//! Every variant has a fixed lower-case label used in CSV files and on the
//! terminal. Anything but [`Outcome::Normal`] means the agent misbehaved and
//! lost the episode because of it (in a two-player game its opponent wins).

use std::fmt;

/// The outcome of one agent in one episode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// Played the game to its end under the rules (overruns of the soft budget
    /// are counted separately, they do not change the outcome).
    Normal,
    /// Exceeded the hard time limit of an act or of init (in-process agents
    /// that never return are disqualified the same way; their thread is
    /// abandoned).
    Disqualified,
    /// An external agent did not answer before the hard limit and was killed.
    Timeout,
    /// Panicked (in-process) or exited / was killed by a signal (external).
    Crash,
    /// Answered with an action the rules do not allow in that state.
    IllegalMove,
    /// Answered with something that is not a well-formed action message.
    BadOutput,
    /// Wrote more output than allowed (line length or total).
    OutputLimit,
    /// Exceeded its memory limit.
    MemoryLimit,
    /// Could not be started.
    SpawnFailed,
    /// An act past the soft budget under `on_overrun = "loss"`: lost on time.
    TimeForfeit,
    /// Not played: the agent's games before it ended in timeouts too many
    /// times in a row (`forfeit_after_timeouts`), so its remaining games
    /// are lost without being played (see [`crate::play::forfeit`]).
    Forfeited,
}

impl Outcome {
    /// Every outcome, for tables and tests.
    pub const ALL: [Outcome; 11] = [
        Outcome::Normal,
        Outcome::Disqualified,
        Outcome::Timeout,
        Outcome::Crash,
        Outcome::IllegalMove,
        Outcome::BadOutput,
        Outcome::OutputLimit,
        Outcome::MemoryLimit,
        Outcome::SpawnFailed,
        Outcome::TimeForfeit,
        Outcome::Forfeited,
    ];

    /// The label used in CSV files.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Normal => "normal",
            Outcome::Disqualified => "disqualified",
            Outcome::Timeout => "timeout",
            Outcome::Crash => "crash",
            Outcome::IllegalMove => "illegal-move",
            Outcome::BadOutput => "bad-output",
            Outcome::OutputLimit => "output-limit",
            Outcome::MemoryLimit => "memory-limit",
            Outcome::SpawnFailed => "spawn-failed",
            Outcome::TimeForfeit => "time-forfeit",
            Outcome::Forfeited => "forfeited",
        }
    }

    /// Whether this outcome is a failure of the agent.
    pub fn is_failure(self) -> bool {
        self != Outcome::Normal
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Outcome {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Outcome::ALL
            .iter()
            .copied()
            .find(|o| o.as_str() == s)
            .ok_or_else(|| format!("unknown outcome `{s}`"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_unique_and_round_trip() {
        let labels: Vec<&str> = Outcome::ALL.iter().map(|o| o.as_str()).collect();
        assert_eq!(
            labels.join(" "),
            "normal disqualified timeout crash illegal-move bad-output output-limit memory-limit spawn-failed time-forfeit forfeited"
        );
        for o in Outcome::ALL {
            assert_eq!(o.as_str().parse::<Outcome>().unwrap(), o);
        }
    }
}

/// Serde as the label (`normal`, `crash` ...), for [`Outcome`] fields.
pub mod label {
    use super::Outcome;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Write the label.
    pub fn serialize<S: Serializer>(o: &Outcome, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(o.as_str())
    }

    /// Read a label.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Outcome, D::Error> {
        let text = String::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Serde as the label (`win`, `loss`, `draw`, `none`), for
/// [`games::PlayerResult`] fields.
pub mod result_label {
    use games::PlayerResult;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Write the label.
    pub fn serialize<S: Serializer>(r: &PlayerResult, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(r.as_str())
    }

    /// Read a label.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PlayerResult, D::Error> {
        let text = String::deserialize(d)?;
        [
            PlayerResult::Win,
            PlayerResult::Loss,
            PlayerResult::Draw,
            PlayerResult::Ongoing,
        ]
        .into_iter()
        .find(|r| r.as_str() == text)
        .ok_or_else(|| serde::de::Error::custom(format!("`{text}` is not win, loss, draw or none")))
    }
}
