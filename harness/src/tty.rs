//! How progress is shown on the terminal: [`ProgressMode`], decided by the
//! pure [`progress_mode`] from what the caller found out about stderr, CI
//! and `--quiet`. Used by `arena run` and by per-game subcommands with a
//! long loop (`arena solve sokoban`).

/// How progress is shown on the terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// An indicatif bar with ETA on stderr.
    Bar,
    /// Nothing while running.
    Silent,
}

/// Decide how to show progress: a bar only on an interactive stderr, outside
/// CI, and unless asked to be quiet. A pure function so that every case is tested.
pub fn progress_mode(stderr_is_terminal: bool, is_ci: bool, quiet: bool) -> ProgressMode {
    if stderr_is_terminal && !is_ci && !quiet {
        ProgressMode::Bar
    } else {
        ProgressMode::Silent
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_bar_only_on_an_interactive_terminal_outside_ci() {
        assert_eq!(progress_mode(true, false, false), ProgressMode::Bar);
        assert_eq!(progress_mode(true, true, false), ProgressMode::Silent);
        assert_eq!(progress_mode(false, false, false), ProgressMode::Silent);
        assert_eq!(progress_mode(true, false, true), ProgressMode::Silent);
        assert_eq!(progress_mode(false, true, true), ProgressMode::Silent);
    }
}
