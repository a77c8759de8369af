//! Progress of `arena grade` and `arena check`, counted in games (see
//! [`crate::tty`]: a bar on an interactive terminal, lines elsewhere).

pub use crate::tty::{Progress, ProgressMode};

use crate::error::HarnessError;
use crate::output::reporters::{Event, Reporter};

/// The unit `arena grade` counts its progress in.
pub const GAMES: &str = "games played";

/// A run's reporter that counts its finished games into a [`Progress`].
pub struct GameCounter<'a>(pub &'a Progress);

impl Reporter for GameCounter<'_> {
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError> {
        if let Event::EpisodeFinished { .. } = event {
            self.0.one_done();
        }
        Ok(())
    }
}
