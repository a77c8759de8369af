//! How progress is shown on stderr: [`ProgressMode`], decided by the pure
//! [`ProgressMode::pick`] from what the caller found out about stderr, CI
//! and `--quiet`, and [`Progress`], the count of work done shown that way.
//! Used by `arena run`, `arena grade`, `arena check` and per-game
//! subcommands with a long loop (`arena solve sokoban`).
//!
//! On an interactive terminal the count is a bar with ETA; elsewhere (a
//! log, a pipe, a Slurm job's output, CI) it is a line at every tenth of
//! the work and at least every [`LINE_EVERY`] while work is running
//! ("12/40 games played, 3.1 s"), so that a long run is never silent.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest silence of [`ProgressMode::Lines`] while work is running
/// (with a ticker: [`Progress::tick`]).
pub const LINE_EVERY: Duration = Duration::from_secs(5);

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgressMode {
    /// A bar with ETA on stderr (an interactive terminal).
    Bar,
    /// Lines on stderr (not a terminal: a log, a pipe, CI).
    Lines,
    /// Nothing while running (`--quiet`, or a library caller).
    Silent,
}

impl ProgressMode {
    /// A bar on an interactive stderr outside CI, lines otherwise, nothing
    /// when asked to be quiet. A pure function so that every case is tested.
    pub fn pick(stderr_is_terminal: bool, is_ci: bool, quiet: bool) -> ProgressMode {
        match (quiet, stderr_is_terminal && !is_ci) {
            (true, _) => ProgressMode::Silent,
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

/// Work done out of the work planned (`total` of a `unit`: "games played",
/// "episodes", "levels"), shown as the mode says, with a message in front
/// (the run's name, an SPRT's LLR).
pub struct Progress {
    mode: ProgressMode,
    total: usize,
    unit: &'static str,
    done: AtomicUsize,
    start: Instant,
    bar: Option<indicatif::ProgressBar>,
    message: Mutex<String>,
    /// When the last line was printed, and the tenth it reported.
    last: Mutex<(Instant, usize)>,
}

impl Progress {
    /// Progress over `total` of `unit`, starting now.
    pub fn new(mode: ProgressMode, total: usize, unit: &'static str) -> Progress {
        let bar = (mode == ProgressMode::Bar).then(|| {
            let b = indicatif::ProgressBar::new(total as u64);
            let template =
                format!("{{spinner}} {{msg}} [{{bar:30}}] {{pos}}/{{len}} {unit}, {{elapsed}} elapsed, ETA {{eta}}");
            b.set_style(
                indicatif::ProgressStyle::with_template(&template)
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
                    .progress_chars("=> "),
            );
            b.enable_steady_tick(Duration::from_secs(1));
            b
        });
        let now = Instant::now();
        Progress {
            mode,
            total,
            unit,
            done: AtomicUsize::new(0),
            start: now,
            bar,
            message: Mutex::new(String::new()),
            last: Mutex::new((now, 0)),
        }
    }

    /// The message in front of the count (the bar's, and each line's).
    pub fn set_message(&self, message: String) {
        if let Some(b) = &self.bar {
            b.set_message(message.clone());
        }
        if let Ok(mut m) = self.message.lock() {
            *m = message;
        }
    }

    /// Work done so far.
    pub fn done(&self) -> usize {
        self.done.load(Ordering::SeqCst)
    }

    /// One more piece done (or found done by an earlier run): under
    /// [`ProgressMode::Lines`] a line when it starts a new tenth of the
    /// total or none was printed for [`LINE_EVERY`].
    pub fn one_done(&self) {
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

    /// Called about every second while work runs: a line when there was
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

    /// "12/40 games played, 3.1 s", after the message if there is one.
    pub fn line(&self, done: usize) -> String {
        let count = format!(
            "{done}/{} {}, {:.1} s",
            self.total,
            self.unit,
            self.start.elapsed().as_secs_f64()
        );
        match self.message.lock().map(|m| m.clone()).unwrap_or_default() {
            m if m.is_empty() => count,
            m => format!("{m}: {count}"),
        }
    }

    /// A line of output above the bar (on stderr; the bar stays below).
    pub fn println(&self, line: String) {
        match &self.bar {
            Some(b) => b.println(line),
            None => eprintln!("{line}"),
        }
    }

    /// Remove the bar.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }

    /// Whether lines are printed (the caller runs a ticker calling
    /// [`Progress::tick`], or [`Progress::ticking`]).
    pub fn wants_ticks(&self) -> bool {
        self.mode == ProgressMode::Lines
    }

    /// A thread calling [`Progress::tick`] every second until the returned
    /// [`Ticker`] is dropped; `None` when the mode prints no lines.
    pub fn ticking(self: &Arc<Self>) -> Option<Ticker> {
        if !self.wants_ticks() {
            return None;
        }
        let (stop, ticks) = mpsc::channel::<()>();
        let progress = Arc::clone(self);
        let thread = std::thread::Builder::new()
            .name("progress".into())
            .spawn(move || {
                while ticks.recv_timeout(Duration::from_secs(1))
                    == Err(mpsc::RecvTimeoutError::Timeout)
                {
                    progress.tick();
                }
            })
            .ok()?;
        Some(Ticker {
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

/// The ticker thread of [`Progress::ticking`]; dropping it stops the thread.
pub struct Ticker {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Drop for Ticker {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
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
        assert_eq!(ProgressMode::pick(true, false, true), ProgressMode::Silent);
        assert_eq!(ProgressMode::pick(false, true, true), ProgressMode::Silent);
    }

    #[test]
    fn work_is_counted_and_said_after_the_message() {
        let p = Progress::new(ProgressMode::Silent, 40, "games played");
        for _ in 0..12 {
            p.one_done();
        }
        assert_eq!(p.done(), 12);
        let line = p.line(p.done());
        assert!(line.starts_with("12/40 games played, "), "{line}");
        assert!(line.ends_with(" s"), "{line}");
        p.set_message("demo (bait)".into());
        let line = p.line(p.done());
        assert!(
            line.starts_with("demo (bait): 12/40 games played, "),
            "{line}"
        );
    }

    #[test]
    fn a_ticker_only_where_lines_are_printed_and_it_stops_when_dropped() {
        let silent = Arc::new(Progress::new(ProgressMode::Silent, 3, "episodes"));
        assert!(silent.ticking().is_none());
        let lines = Arc::new(Progress::new(ProgressMode::Lines, 3, "episodes"));
        let ticker = lines.ticking().expect("a ticker for lines");
        assert_eq!(
            Arc::strong_count(&lines),
            2,
            "the thread holds the progress"
        );
        drop(ticker);
        assert_eq!(Arc::strong_count(&lines), 1, "the thread ended");
    }
}
