//! [`GameView`]: a game's name and its state as JSON, the part of a game
//! that protocols need (kept apart from [`crate::registry::ArenaGame`] so that
//! the protocol layer does not depend on the registry).

/// A game's name and JSON view.
pub trait GameView: games::Game {
    /// The game's name in configs, on the command line and in CSV files.
    const NAME: &'static str;

    /// This state's game name: [`GameView::NAME`], except for a family of
    /// games (one type, many names such as `gvgai:aliens`).
    fn game_name(&self) -> &str {
        Self::NAME
    }

    /// The state as JSON, as seen by `seat` (used by traces and by the
    /// line-JSON protocol of external agents).
    fn state_json(&self, seat: usize) -> serde_json::Value;
}
