//! The run's journal, `journal.jsonl`: one line per finished episode (its
//! [`EpisodeRecord`]), written to the file (one `write` per batch of
//! episodes: at each [`Event::CaughtUp`], before any table reporter writes
//! that batch's rows) as episodes finish, and `fsync`'d in groups: by a syncer thread at most
//! [`SYNC_EVERY`] after the line was written, and before the run's end is
//! reported. A run that was interrupted continues from it: every journaled
//! episode is kept exactly once, the others are played, and every table is
//! rebuilt from it (`arena summarize`). A killed process (Ctrl-C, SIGKILL)
//! loses no written line (the kernel holds it); a power cut may lose the
//! lines of the last [`SYNC_EVERY`], whose episodes are then played again
//! (never counted twice: a line is either in the file or not).
//!
//! A line is `{"v": 1, "record": {...}}`. A torn last line (the process
//! died while writing it) does not parse, or lacks its newline: it is
//! dropped, and cut off the file before anything is appended.

use crate::error::HarnessError;
use crate::output::batch_file::BatchFile;
use crate::output::reporters::{Event, Reporter};
use crate::play::runner::EpisodeRecord;
use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// How long a written journal line may wait for its `fsync` at most (the
/// syncer groups the lines written meanwhile into one).
pub const SYNC_EVERY: Duration = Duration::from_millis(100);

/// The journal's file name in a results folder.
pub const FILE: &str = "journal.jsonl";

/// The format version of a journal line.
const VERSION: u32 = 1;

#[derive(Serialize, Deserialize)]
struct Line {
    v: u32,
    record: EpisodeRecord,
}

/// A [`Line`] to write, borrowing its record (the same JSON).
#[derive(Serialize)]
struct LineRef<'a> {
    v: u32,
    record: &'a EpisodeRecord,
}

/// What [`read`] found.
#[derive(Debug, Default)]
pub struct Read {
    /// The finished episodes, in journal order.
    pub records: Vec<EpisodeRecord>,
    /// Bytes of the file up to the end of the last whole line.
    pub good_len: u64,
    /// Whether a torn last line was dropped.
    pub torn: bool,
}

/// Read the journal at `path` (no file: nothing finished). A line other
/// than the last that does not parse is an error (the file is not a journal
/// of this arena); a bad last line is a torn write and is dropped.
pub fn read(path: &Path) -> Result<Read, HarnessError> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Read::default()),
        Err(e) => return Err(HarnessError::io(path, e)),
    };
    let mut out = Read::default();
    let mut start = 0usize;
    let mut line_no = 0usize;
    while start < bytes.len() {
        line_no += 1;
        let end = bytes[start..].iter().position(|&b| b == b'\n');
        let (line, next, whole) = match end {
            Some(e) => (&bytes[start..start + e], start + e + 1, true),
            None => (&bytes[start..], bytes.len(), false),
        };
        let parsed = if whole {
            serde_json::from_slice::<Line>(line).ok()
        } else {
            None
        };
        match parsed {
            Some(l) if l.v == VERSION => {
                out.records.push(l.record);
                out.good_len = next as u64;
            }
            _ if next >= bytes.len() => {
                out.torn = true;
            }
            _ => {
                return Err(HarnessError::ResultsFolder(format!(
                    "{}:{line_no}: not a journal line of this arena (v{VERSION}); \
                     use --restart to start the run over",
                    path.display()
                )))
            }
        }
        start = next;
    }
    Ok(out)
}

/// Write a whole journal at `path` holding `records`, in that order
/// (`arena merge`), through a temporary file and a rename.
pub fn write(path: &Path, records: &[EpisodeRecord]) -> Result<(), HarnessError> {
    let tmp = path.with_extension("jsonl.tmp");
    let io = |e| HarnessError::io(&tmp, e);
    let mut out = std::io::BufWriter::new(File::create(&tmp).map_err(io)?);
    for record in records {
        let line = serde_json::to_string(&LineRef { v: VERSION, record })
            .map_err(|e| HarnessError::io(path, std::io::Error::other(e)))?;
        writeln!(out, "{line}").map_err(io)?;
    }
    let file = out.into_inner().map_err(|e| io(e.into_error()))?;
    file.sync_data().map_err(io)?;
    std::fs::rename(&tmp, path).map_err(|e| HarnessError::io(path, e))
}

/// What the writer and its syncer thread share.
#[derive(Default)]
struct SyncState {
    /// Lines written since the last `fsync`.
    dirty: bool,
    /// The writer is gone: sync what is dirty and stop.
    stop: bool,
    /// The first failed `fsync`, told at the writer's next event.
    error: Option<std::io::Error>,
}

fn lock_state(m: &Mutex<SyncState>) -> std::sync::MutexGuard<'_, SyncState> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A thread that `fsync`s the journal at most [`SYNC_EVERY`] after a line
/// was written to it, grouping the lines written meanwhile.
struct Syncer {
    shared: Arc<(Mutex<SyncState>, Condvar)>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Syncer {
    fn start(file: File) -> std::io::Result<Syncer> {
        let shared = Arc::new((Mutex::new(SyncState::default()), Condvar::new()));
        let theirs = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("journal-sync".into())
            .spawn(move || {
                let (lock, wake) = &*theirs;
                loop {
                    let mut st = lock_state(lock);
                    while !st.dirty && !st.stop {
                        st = wake.wait(st).unwrap_or_else(|p| p.into_inner());
                    }
                    let stop = st.stop;
                    st.dirty = false;
                    drop(st);
                    let synced = file.sync_data();
                    let mut st = lock_state(lock);
                    if let Err(e) = synced {
                        st.error.get_or_insert(e);
                    }
                    if stop && !st.dirty {
                        return;
                    }
                    if !stop {
                        // Lines written meanwhile wait for the next group
                        // (the end of the run does not).
                        let _ = wake.wait_timeout_while(st, SYNC_EVERY, |st| !st.stop);
                    }
                }
            })?;
        Ok(Syncer {
            shared,
            thread: Some(thread),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, SyncState> {
        lock_state(&self.shared.0)
    }

    /// A line was written: have it synced within [`SYNC_EVERY`]; the error
    /// of an earlier `fsync`, if one failed. The syncer is woken by the
    /// first line after a sync only (it waits for `dirty`; lines written
    /// while it is already set join the same group).
    fn written(&self) -> std::io::Result<()> {
        let mut st = self.state();
        if let Some(e) = st.error.take() {
            return Err(e);
        }
        let was_dirty = std::mem::replace(&mut st.dirty, true);
        drop(st);
        if !was_dirty {
            self.shared.1.notify_one();
        }
        Ok(())
    }

    /// Sync what is written and stop the thread; the error of any `fsync`.
    fn finish(&mut self) -> std::io::Result<()> {
        self.state().stop = true;
        self.shared.1.notify_one();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        match self.state().error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Drop for Syncer {
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

/// The reporter that appends each newly finished episode to the journal
/// (the lines of a batch in one `write`, at [`Event::CaughtUp`] or the
/// run's end), `fsync`'d by a background syncer within `SYNC_EVERY` and
/// before the run's end is reported.
pub struct JournalWriter {
    path: PathBuf,
    out: Option<BatchFile>,
    keep: u64,
    syncer: Option<Syncer>,
}

impl JournalWriter {
    /// Appends to `dir/journal.jsonl`, after its first `keep` bytes (the
    /// whole lines a resumed run keeps; 0 for a new run).
    pub fn new(dir: &Path, keep: u64) -> Self {
        JournalWriter {
            path: dir.join(FILE),
            out: None,
            keep,
            syncer: None,
        }
    }

    /// Write the pending lines (one `write`) and have them synced.
    fn write_pending(&mut self) -> Result<(), HarnessError> {
        let Some(out) = self.out.as_mut() else {
            return Ok(());
        };
        if out.write_out()? {
            match self.syncer.as_ref() {
                Some(s) => s.written(),
                None => out.file().sync_data(),
            }
            .map_err(|e| out.error(e))?;
        }
        Ok(())
    }
}

impl Reporter for JournalWriter {
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError> {
        match event {
            Event::RunPlanned { .. } => {
                let io = |e| HarnessError::io(&self.path, e);
                let mut f = OpenOptions::new()
                    .create(true)
                    .truncate(false)
                    .write(true)
                    .open(&self.path)
                    .map_err(io)?;
                // Drop a torn last line (or everything, for a new run);
                // lines go after the rest.
                f.set_len(self.keep).map_err(io)?;
                f.sync_data().map_err(io)?;
                use std::io::Seek;
                f.seek(std::io::SeekFrom::End(0)).map_err(io)?;
                self.syncer = Some(Syncer::start(f.try_clone().map_err(io)?).map_err(io)?);
                self.out = Some(BatchFile::new(&self.path, f));
            }
            Event::EpisodeFinished {
                record,
                resumed: false,
                ..
            } => {
                if let Some(out) = self.out.as_mut() {
                    serde_json::to_writer(out.pending(), &LineRef { v: VERSION, record })
                        .map_err(|e| out.error(std::io::Error::other(e)))?;
                    out.pending().push(b'\n');
                }
            }
            Event::CaughtUp => self.write_pending()?,
            Event::Cancelled | Event::RunFinished { .. } => {
                self.write_pending()?;
                if let Some(mut s) = self.syncer.take() {
                    s.finish().map_err(|e| HarnessError::io(&self.path, e))?;
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn files(&self) -> &'static [&'static str] {
        &[FILE]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::play::runner::SeatRecord;
    use crate::play::schedule::Episode;
    use games::PlayerResult;

    fn record(index: usize) -> EpisodeRecord {
        EpisodeRecord {
            episode: Episode {
                index,
                level: "0".into(),
                repetition: 0,
                seats: vec![0],
                seed: 7,
                pair: None,
            },
            steps: 3,
            seats: vec![SeatRecord {
                result: PlayerResult::Win,
                score: 1.0,
                act_ms: vec![0.5, 0.25],
                init_ms: 1.0,
                expanded: Some(9),
                ..SeatRecord::new(0)
            }],
            moves: vec!["UP".into(), "DOWN".into()],
            host: "node1".into(),
            cpu_model: "cpu".into(),
        }
    }

    #[test]
    fn a_torn_last_line_is_dropped_and_cut_before_appending() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = JournalWriter::new(dir.path(), 0);
        let keys_cfg = crate::registry::parse_config(
            "game = \"bait\"\n[[agents]]\nagent = \"random\"\n",
            &dir.path().join("c.toml"),
        )
        .unwrap();
        w.report(&Event::RunPlanned {
            cfg: &keys_cfg,
            episodes: &[],
            players: 1,
        })
        .unwrap();
        for i in 0..3 {
            let r = record(i);
            w.report(&Event::EpisodeFinished {
                record: &r,
                rows: &[],
                resumed: false,
            })
            .unwrap();
        }
        let path = dir.path().join(FILE);
        // A batch's lines are written when the run has caught up.
        assert_eq!(std::fs::read(&path).unwrap(), b"");
        w.report(&Event::CaughtUp).unwrap();
        let whole = std::fs::read(&path).unwrap();
        // A torn write: half of a fourth line.
        let mut torn = whole.clone();
        torn.extend_from_slice(&whole[..whole.len() / 5]);
        std::fs::write(&path, &torn).unwrap();
        let r = read(&path).unwrap();
        assert_eq!(r.records.len(), 3);
        assert!(r.torn);
        assert_eq!(r.good_len, whole.len() as u64);
        assert_eq!(r.records[2].moves, ["UP", "DOWN"]);
        assert_eq!(r.records[2].host, "node1");
        assert_eq!(r.records[1].seats[0].result, PlayerResult::Win);
        // Resuming cuts the torn tail and appends after the whole lines.
        let mut w = JournalWriter::new(dir.path(), r.good_len);
        w.report(&Event::RunPlanned {
            cfg: &keys_cfg,
            episodes: &[],
            players: 1,
        })
        .unwrap();
        let r4 = record(3);
        w.report(&Event::EpisodeFinished {
            record: &r4,
            rows: &[],
            resumed: false,
        })
        .unwrap();
        w.report(&Event::CaughtUp).unwrap();
        let r = read(&path).unwrap();
        assert!(!r.torn);
        let idx: Vec<usize> = r.records.iter().map(|x| x.episode.index).collect();
        assert_eq!(idx, [0, 1, 2, 3]);
    }

    #[test]
    fn a_bad_line_before_the_last_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        std::fs::write(&path, "garbage\n{\"v\":1}\n").unwrap();
        let e = read(&path).unwrap_err().to_string();
        assert!(e.contains("journal.jsonl:1: not a journal line"), "{e}");
    }
}
