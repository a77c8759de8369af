//! Progress of `arena grade` and `arena check`, counted in games: a bar on
//! an interactive terminal, otherwise a line on stderr at every tenth of
//! the games and at least every [`LINE_EVERY`] while games are running
//! ("12/40 games played, 3.1 s"), so that a long grading is never silent.

use crate::error::HarnessError;
use crate::output::reporters::{Event, Reporter};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The longest silence of [`ProgressMode::Lines`] while games are running.
pub const LINE_EVERY: Duration = Duration::from_secs(5);

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// Nothing (`--quiet`).
    Off,
    /// A bar with ETA on stderr (an interactive terminal).
    Bar,
    /// Lines on stderr (not a terminal: a log, a pipe, CI).
    Lines,
}

impl ProgressMode {
    /// A bar on an interactive stderr outside CI, lines otherwise, nothing
    /// when asked to be quiet. A pure function so that every case is tested.
    pub fn pick(stderr_is_terminal: bool, is_ci: bool, quiet: bool) -> ProgressMode {
        match (quiet, stderr_is_terminal && !is_ci) {
            (true, _) => ProgressMode::Off,
            (false, true) => ProgressMode::Bar,
            (false, false) => ProgressMode::Lines,
        }
    }

    /// [`ProgressMode::pick`] for this process's stderr and environment.
    pub fn for_stderr(quiet: bool) -> ProgressMode {
        ProgressMode::pick(
            std::io::IsTerminal::is_terminal(&std::io::stderr()),
            std::env::var_os("CI").is_some(),
            quiet,
        )
    }
}

/// Games played out of those planned, shown as the mode says.
pub struct Progress {
    mode: ProgressMode,
    total: usize,
    done: AtomicUsize,
    start: Instant,
    bar: Option<indicatif::ProgressBar>,
    /// When the last line was printed, and the tenth it reported.
    last: Mutex<(Instant, usize)>,
}

impl Progress {
    /// Progress over `total` games, starting now.
    pub fn new(mode: ProgressMode, total: usize) -> Progress {
        let bar = (mode == ProgressMode::Bar).then(|| {
            let b = indicatif::ProgressBar::new(total as u64);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} games played, {elapsed} (ETA {eta})",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            b.enable_steady_tick(Duration::from_secs(1));
            b
        });
        let now = Instant::now();
        Progress {
            mode,
            total,
            done: AtomicUsize::new(0),
            start: now,
            bar,
            last: Mutex::new((now, 0)),
        }
    }

    /// Games played so far.
    pub fn done(&self) -> usize {
        self.done.load(Ordering::SeqCst)
    }

    /// One more game played (or found finished by an earlier grading).
    pub fn game_done(&self) {
        let done = self.done.fetch_add(1, Ordering::SeqCst) + 1;
        if let Some(b) = &self.bar {
            b.set_position(done as u64);
        }
        if self.mode == ProgressMode::Lines {
            let tenth = done * 10 / self.total.max(1);
            if let Ok(mut last) = self.last.lock() {
                if tenth > last.1 || last.0.elapsed() >= LINE_EVERY {
                    *last = (Instant::now(), tenth);
                    eprintln!("{}", self.line(done));
                }
            }
        }
    }

    /// Called about every second while games run: a line when there was
    /// none for [`LINE_EVERY`].
    pub fn tick(&self) {
        if self.mode != ProgressMode::Lines {
            return;
        }
        let done = self.done();
        if let Ok(mut last) = self.last.lock() {
            if last.0.elapsed() >= LINE_EVERY {
                last.0 = Instant::now();
                eprintln!("{}", self.line(done));
            }
        }
    }

    /// "12/40 games played, 3.1 s".
    pub fn line(&self, done: usize) -> String {
        format!(
            "{done}/{} games played, {:.1} s",
            self.total,
            self.start.elapsed().as_secs_f64()
        )
    }

    /// Remove the bar.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }

    /// Whether lines are printed (the caller runs a ticker calling [`Progress::tick`]).
    pub fn wants_ticks(&self) -> bool {
        self.mode == ProgressMode::Lines
    }
}

/// A run's reporter that counts its finished games into a [`Progress`].
pub struct GameCounter<'a>(pub &'a Progress);

impl Reporter for GameCounter<'_> {
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError> {
        if let Event::EpisodeFinished { .. } = event {
            self.0.game_done();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bar_on_a_terminal_lines_elsewhere_nothing_when_quiet() {
        assert_eq!(ProgressMode::pick(true, false, false), ProgressMode::Bar);
        assert_eq!(ProgressMode::pick(true, true, false), ProgressMode::Lines);
        assert_eq!(ProgressMode::pick(false, false, false), ProgressMode::Lines);
        assert_eq!(ProgressMode::pick(true, false, true), ProgressMode::Off);
        assert_eq!(ProgressMode::pick(false, true, true), ProgressMode::Off);
    }

    #[test]
    fn games_are_counted_and_said() {
        let p = Progress::new(ProgressMode::Off, 40);
        for _ in 0..12 {
            p.game_done();
        }
        assert_eq!(p.done(), 12);
        let line = p.line(p.done());
        assert!(line.starts_with("12/40 games played, "), "{line}");
        assert!(line.ends_with(" s"), "{line}");
    }
}
