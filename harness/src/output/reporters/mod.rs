//! Events and reporters: the run loop ([`crate::run`]) turns what the
//! runner does into [`Event`]s, and every output of a run is a
//! [`Reporter`] that listens to them. New outputs (ratings, replays, HTML)
//! are new reporters; the runner does not change.
//!
//! The reporters of `arena run`, in the order they are told each event:
//! - [`crate::output::journal::JournalWriter`] and [`crate::output::meta::MetaWriter`]
//!   first, so an episode is in the journal (on disk) before any table
//!   shows it (see [`crate::run::run_with`]);
//! - [`ConfigCopy`]: `config.toml`, the config next to the results;
//! - [`EpisodesCsv`]: `episodes.csv`, a row per (episode, seat), appended
//!   as episodes finish (a batch's rows at once, at [`Event::CaughtUp`],
//!   after the journal has written them), so nothing finished is lost;
//! - [`MovesJsonl`]: `moves.jsonl`, the actions of every episode;
//! - [`SummaryCsv`] and [`CrosstableCsv`]: the tables, at the end;
//! - [`Progress`]: the progress bar with ETA on an interactive terminal;
//! - [`TerminalSummary`]: the summary printed at the end (with
//!   [`Progress`], in `terminal.rs`);
//! - `ratings.csv`, `replays.jsonl.gz` and `report.html` (last) by their
//!   own modules ([`ratings::RatingsCsv`], [`crate::output::replay::Replays`],
//!   [`crate::output::html::HtmlReport`]).
//!
//! Each reporter that writes files names them ([`Reporter::files`]);
//! `arena summarize` and `arena merge` tell a journal to the same table
//! reporters ([`crate::output::files::table_reporters`]).

use crate::config::RunConfig;
use crate::error::HarnessError;
use crate::output::batch_file::BatchFile;
pub mod ratings;
pub mod tally;
mod terminal;

pub use terminal::{Progress, TerminalSummary};

use crate::output::rows::{self, CrossRow, EpisodeRow, SummaryRow};
use crate::play::runner::EpisodeRecord;
use crate::play::schedule::Episode;
use std::path::{Path, PathBuf};

/// What happens in a run, in order: planned, then episodes starting and
/// finishing (interleaved with concurrency), possibly cancelled, finished.
#[derive(Debug)]
pub enum Event<'a> {
    /// The plan is made; nothing has been played.
    RunPlanned {
        /// The config.
        cfg: &'a RunConfig,
        /// Every planned episode.
        episodes: &'a [Episode],
        /// Seats of the game.
        players: usize,
    },
    /// An episode started.
    EpisodeStarted {
        /// The episode.
        episode: &'a Episode,
    },
    /// An episode finished.
    EpisodeFinished {
        /// What happened.
        record: &'a EpisodeRecord,
        /// Its rows of `episodes.csv`.
        rows: &'a [EpisodeRow],
        /// Whether it finished in an earlier part of a resumed run (read
        /// back from the journal, not played now).
        resumed: bool,
    },
    /// An episode hit an infrastructure error (e.g. no process could be
    /// started for lack of resources) and is being played again; the
    /// failed try counts in no table.
    EpisodeReplayed {
        /// The episode.
        episode: &'a Episode,
        /// What happened.
        why: &'a str,
    },
    /// A batch of events is over (the runner has no other event waiting,
    /// or the batch is long: [`crate::play::runner::RunnerEvent::CaughtUp`]):
    /// a reporter that buffers what it writes writes it now. Told after
    /// each batch, after the episodes of a resumed run's earlier parts,
    /// and never between an episode's [`Event::EpisodeFinished`] to one
    /// reporter and to the next.
    CaughtUp,
    /// The run was stopped before its end (Ctrl-C, a write error):
    /// episodes still running finish, no new one starts.
    Cancelled,
    /// The run is over (complete or not).
    RunFinished {
        /// The config.
        cfg: &'a RunConfig,
        /// Every episode row, by episode and seat.
        rows: &'a [EpisodeRow],
        /// The summary rows.
        summary: &'a [SummaryRow],
        /// The cross-table (two-player games; empty otherwise).
        crosstable: &'a [CrossRow],
        /// Number of planned episodes.
        planned: usize,
        /// Seats of the game.
        players: usize,
        /// Whether every planned episode was played.
        complete: bool,
    },
}

/// One output of a run.
pub trait Reporter {
    /// React to `event`. An error stops the run (the run's other reporters
    /// still see [`Event::Cancelled`] and [`Event::RunFinished`]).
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError>;

    /// The files this reporter writes into the results folder (names in
    /// it, not paths); what `arena run --restart` clears is the union over
    /// a run's reporters (see [`crate::output::resume::run_files`]).
    fn files(&self) -> &'static [&'static str] {
        &[]
    }
}

/// `config.toml`: a copy of the config next to the results.
pub struct ConfigCopy {
    dir: PathBuf,
}

impl ConfigCopy {
    /// Its file name.
    pub const FILE: &'static str = "config.toml";

    /// Copies into `dir`.
    pub fn new(dir: &Path) -> Self {
        ConfigCopy {
            dir: dir.to_path_buf(),
        }
    }
}

impl Reporter for ConfigCopy {
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError> {
        if let Event::RunPlanned { cfg, .. } = event {
            let to = self.dir.join(Self::FILE);
            std::fs::copy(&cfg.source, &to).map_err(|e| HarnessError::io(&to, e))?;
        }
        Ok(())
    }

    fn files(&self) -> &'static [&'static str] {
        &[Self::FILE]
    }
}

/// `episodes.csv`, created when the run is planned; the rows of a batch of
/// episodes are written at once, at [`Event::CaughtUp`] or the run's end
/// (after the journal has written the batch's lines).
pub struct EpisodesCsv {
    path: PathBuf,
    out: Option<BatchFile>,
    /// Whether the header is written.
    headed: bool,
}

impl EpisodesCsv {
    /// Its file name.
    pub const FILE: &'static str = "episodes.csv";

    /// Writes `dir/episodes.csv`.
    pub fn new(dir: &Path) -> Self {
        EpisodesCsv {
            path: dir.join(Self::FILE),
            out: None,
            headed: false,
        }
    }
}

impl Reporter for EpisodesCsv {
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError> {
        match event {
            Event::RunPlanned { .. } => {
                self.out = Some(BatchFile::create(&self.path)?);
                self.headed = false;
            }
            Event::EpisodeFinished { rows, .. } => {
                if let Some(out) = self.out.as_mut() {
                    let csv_err = |source| HarnessError::Csv {
                        path: self.path.clone(),
                        source,
                    };
                    let mut w = csv::WriterBuilder::new()
                        .has_headers(!self.headed)
                        .buffer_capacity(ROW_BUFFER)
                        .from_writer(out.pending());
                    for r in *rows {
                        w.serialize(r).map_err(csv_err)?;
                        self.headed = true;
                    }
                    // Into the pending bytes, which cannot fail.
                    w.flush().map_err(|e| HarnessError::io(&self.path, e))?;
                }
            }
            Event::CaughtUp | Event::Cancelled | Event::RunFinished { .. } => {
                if let Some(out) = self.out.as_mut() {
                    out.write_out()?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn files(&self) -> &'static [&'static str] {
        &[Self::FILE]
    }
}

/// The buffer of the CSV writer an episode's rows go through on their way
/// to the pending bytes (an episode's rows are a few hundred bytes).
const ROW_BUFFER: usize = 1024;

/// `moves.jsonl`: one JSON object per finished episode with its actions,
/// those of a batch of episodes written at once (as `episodes.csv`).
pub struct MovesJsonl {
    path: PathBuf,
    out: Option<BatchFile>,
}

impl MovesJsonl {
    /// Its file name.
    pub const FILE: &'static str = "moves.jsonl";

    /// Writes `dir/moves.jsonl`.
    pub fn new(dir: &Path) -> Self {
        MovesJsonl {
            path: dir.join(Self::FILE),
            out: None,
        }
    }
}

impl Reporter for MovesJsonl {
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError> {
        match event {
            Event::RunPlanned { .. } => {
                self.out = Some(BatchFile::create(&self.path)?);
            }
            Event::EpisodeFinished { record, rows, .. } => {
                if let Some(out) = self.out.as_mut() {
                    let pending = out.pending();
                    // Writing to a Vec cannot fail; the line always serializes.
                    let _ = serde_json::to_writer(&mut *pending, &moves_line(record, rows));
                    pending.push(b'\n');
                }
            }
            Event::CaughtUp | Event::Cancelled | Event::RunFinished { .. } => {
                if let Some(out) = self.out.as_mut() {
                    out.write_out()?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn files(&self) -> &'static [&'static str] {
        &[Self::FILE]
    }
}

/// The `moves.jsonl` line of an episode.
fn moves_line<'a>(record: &'a EpisodeRecord, rows: &'a [EpisodeRow]) -> MovesLine<'a> {
    MovesLine {
        episode: record.episode.index,
        level: &record.episode.level,
        repetition: record.episode.repetition,
        seed: record.episode.seed,
        seats: Seats(rows),
        moves: &record.moves,
    }
}

/// A `moves.jsonl` line, borrowing the episode's record and rows.
#[derive(serde::Serialize)]
struct MovesLine<'a> {
    episode: usize,
    level: &'a str,
    repetition: u32,
    seed: u64,
    seats: Seats<'a>,
    moves: &'a [String],
}

/// The rows' agent labels, as a JSON array.
struct Seats<'a>(&'a [EpisodeRow]);

impl serde::Serialize for Seats<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|r| r.agent.as_str()))
    }
}

/// `summary.csv`, written when the run finishes.
pub struct SummaryCsv {
    path: PathBuf,
}

impl SummaryCsv {
    /// Its file name.
    pub const FILE: &'static str = "summary.csv";

    /// Writes `dir/summary.csv`.
    pub fn new(dir: &Path) -> Self {
        SummaryCsv {
            path: dir.join(Self::FILE),
        }
    }
}

impl Reporter for SummaryCsv {
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError> {
        if let Event::RunFinished { summary, .. } = event {
            rows::write_csv(&self.path, summary)?;
        }
        Ok(())
    }

    fn files(&self) -> &'static [&'static str] {
        &[Self::FILE]
    }
}

/// `crosstable.csv` (two-player games), written when the run finishes.
pub struct CrosstableCsv {
    path: PathBuf,
}

impl CrosstableCsv {
    /// Its file name.
    pub const FILE: &'static str = "crosstable.csv";

    /// Writes `dir/crosstable.csv`.
    pub fn new(dir: &Path) -> Self {
        CrosstableCsv {
            path: dir.join(Self::FILE),
        }
    }
}

impl Reporter for CrosstableCsv {
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError> {
        if let Event::RunFinished {
            crosstable,
            players,
            ..
        } = event
        {
            if *players > 1 {
                rows::write_csv(&self.path, crosstable)?;
            }
        }
        Ok(())
    }

    fn files(&self) -> &'static [&'static str] {
        &[Self::FILE]
    }
}
