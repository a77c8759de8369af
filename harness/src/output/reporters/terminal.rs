//! The reporters that talk to the terminal: the progress bar (with the
//! SPRT's LLR when there is one) and the summary printed at the end (tables,
//! ratings, SPRT verdict, load warning).

use super::{Event, Reporter};
use crate::error::HarnessError;
use crate::output::rows;
use crate::tty::ProgressMode;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The run's progress in episodes (see [`crate::tty`]: a bar with ETA on an
/// interactive terminal, lines elsewhere), with the SPRT's LLR when there
/// is one.
pub struct Progress {
    mode: ProgressMode,
    count: Option<Arc<crate::tty::Progress>>,
    ticker: Option<crate::tty::Ticker>,
    sprt: Option<crate::output::reporters::tally::SprtTally>,
}

impl Progress {
    /// Progress shown as `mode` says.
    pub fn new(mode: ProgressMode) -> Progress {
        Progress {
            mode,
            count: None,
            ticker: None,
            sprt: None,
        }
    }
}

impl Reporter for Progress {
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError> {
        match event {
            Event::RunPlanned { cfg, episodes, .. } => {
                let count = Arc::new(crate::tty::Progress::new(
                    self.mode,
                    episodes.len(),
                    "episodes played",
                ));
                count.set_message(format!("{} ({})", cfg.name, cfg.game));
                self.ticker = count.ticking();
                self.count = Some(count);
                self.sprt = cfg
                    .sprt
                    .as_ref()
                    .map(|sp| crate::output::reporters::tally::tally_of(cfg, sp));
            }
            Event::EpisodeFinished { rows, .. } => {
                if let Some(c) = &self.count {
                    if let Some(t) = self.sprt.as_mut() {
                        t.add(rows);
                        let st = t.status();
                        c.set_message(format!(
                            "LLR {:.2} ({:.2}, {:.2})",
                            st.llr, st.lower, st.upper
                        ));
                    }
                    c.one_done();
                }
            }
            Event::RunFinished { .. } => {
                self.ticker = None;
                if let Some(c) = self.count.take() {
                    c.finish();
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// The summary (and cross-table) printed when the run finishes.
pub struct TerminalSummary<'w> {
    out: &'w mut dyn Write,
    dir: PathBuf,
    headline: bool,
}

impl<'w> TerminalSummary<'w> {
    /// Prints to `out`, naming `dir` as where the tables are.
    pub fn new(out: &'w mut dyn Write, dir: &Path) -> Self {
        TerminalSummary {
            out,
            dir: dir.to_path_buf(),
            headline: true,
        }
    }

    /// Without its first line (`NAME on GAME: N episodes -> DIR`), for a
    /// caller that says it its own way (`arena summarize`).
    pub fn tables_only(mut self) -> Self {
        self.headline = false;
        self
    }
}

impl Reporter for TerminalSummary<'_> {
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError> {
        let Event::RunFinished {
            cfg,
            rows,
            summary,
            crosstable,
            players,
            ..
        } = event
        else {
            return Ok(());
        };
        let io = |e| HarnessError::io("<stdout>", e);
        if self.headline {
            writeln!(
                self.out,
                "{} on {}: {} episodes -> {}",
                cfg.name,
                cfg.game,
                rows.len() / (*players).max(1),
                self.dir.display()
            )
            .map_err(io)?;
        }
        write!(self.out, "{}", rows::summary_table(summary, false)).map_err(io)?;
        if !crosstable.is_empty() {
            writeln!(self.out).map_err(io)?;
            write!(self.out, "{}", rows::crosstable_table(crosstable)).map_err(io)?;
            let labels: Vec<String> = cfg.agents.iter().map(|a| a.label.clone()).collect();
            let opts = crate::output::reporters::ratings::RatingsOptions::default();
            if let Ok(r) = crate::output::reporters::ratings::ratings_rows(&labels, rows, &opts) {
                if !r.is_empty() {
                    writeln!(self.out).map_err(io)?;
                    write!(
                        self.out,
                        "{}",
                        crate::output::reporters::ratings::ratings_table(&r)
                    )
                    .map_err(io)?;
                }
            }
        }
        for r in summary
            .iter()
            .filter(|r| r.level == "all" && r.episodes > 0)
        {
            let failed =
                r.disqualifications + r.crashes + r.illegal_moves + r.bad_output + r.other_failures;
            if failed == r.episodes {
                writeln!(
                    self.out,
                    "\nwarning: {} failed every one of its {} games (see the detail column of \
                     episodes.csv and logs/)",
                    r.agent, r.episodes
                )
                .map_err(io)?;
            }
        }
        let starved: u64 = rows.iter().map(|r| r.starved as u64).sum();
        if starved > 0 {
            writeln!(
                self.out,
                "\nwarning: {starved} act(s) past the soft budget were not charged because the time \
                 was not the agent's (the machine's load kept the agent waiting for a CPU, or a \
                 virtual machine's host took it: steal); wall-clock times in these tables may \
                 be skewed by load (clock = \"cpu\" is not)"
            )
            .map_err(io)?;
        }
        if let Some(t) = crate::output::reporters::tally::tally_of_rows(cfg, rows) {
            writeln!(self.out).map_err(io)?;
            writeln!(self.out, "{}", t.line()).map_err(io)?;
        }
        Ok(())
    }
}
