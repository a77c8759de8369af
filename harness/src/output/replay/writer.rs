//! The replay reporter ([`Replays`]): `replays.jsonl.gz` written by a
//! thread of its own.

use super::index::{Index, ReplayMeta, SharedIndex};
use super::{gzip_bytes, write_json, FILE_NAME};
use crate::config::RunConfig;
use crate::error::HarnessError;
use crate::output::batch_file::BatchFile;
use crate::output::reporters::{Event, Reporter};
use crate::play::batched::Batched;
use crate::play::runner::EpisodeRecord;
use crate::registry::GameEntry;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;

/// The replay reporter: `replays.jsonl.gz`, a line per finished episode,
/// in finishing order, in gzip members of one or more lines (off with
/// `replays = false`). The members
/// are built (the re-play, the JSON, the deflate) and written by a thread
/// of its own (which takes them in batches while they come fast:
/// [`Batched`]), so that the run's main thread, which runs every reporter,
/// only hands each record over; the thread is drained, and its first
/// error reported, at the end of the run. Without a thread to spare, the
/// members are written here. Given a [`SharedIndex`], it also collects what
/// the report embeds of each replay as it is written, and leaves it there
/// when every replay of the run was written.
pub struct Replays {
    path: PathBuf,
    writer: Option<Writer>,
    index: Option<SharedIndex>,
}

/// How many finished episodes may wait for the replay thread before the
/// main thread waits for it.
const QUEUE: usize = 256;

/// The replay thread writes the members it made when nothing else is
/// waiting, or once they are this many bytes.
const PENDING_MAX: usize = 1 << 20;

/// A gzip member holds the replays made since the last one was closed, up
/// to about this many bytes of JSON: a member is closed when it reaches
/// it, and before its bytes are written. (Replays made in one batch share
/// a member: deflate finds what one episode's line repeats of the last,
/// such as its seats, in its 32 KiB window, and a member's header and code
/// tables are paid once.)
const MEMBER_MAX: usize = 128 << 10;

/// Where the replays of a run go: a thread of its own, or this thread.
enum Writer {
    Here(Box<Members>),
    Thread {
        tx: mpsc::SyncSender<EpisodeRecord>,
        thread: JoinHandle<Result<Option<Index>, HarnessError>>,
        failed: Arc<AtomicBool>,
    },
}

/// Writes the records' replays to the file, in gzip members of one or
/// more lines ([`MEMBER_MAX`]).
struct Members {
    out: BatchFile,
    cfg: RunConfig,
    game: &'static dyn GameEntry,
    texts: HashMap<String, Option<String>>,
    /// The JSON lines of the open member.
    json: Vec<u8>,
    /// What the index needs of them.
    heads: Vec<ReplayMeta>,
    index: Option<Index>,
}

impl Members {
    /// Add `record`'s replay to the open member (closed when full);
    /// [`Members::flush`] writes it.
    fn make(&mut self, record: &EpisodeRecord) -> Result<(), HarnessError> {
        let spec = &record.episode.level;
        if !self.texts.contains_key(spec) {
            let p = Path::new(spec);
            let text = p
                .is_file()
                .then(|| std::fs::read_to_string(p).ok())
                .flatten();
            self.texts.insert(spec.clone(), text);
        }
        let text = self.texts.get(spec).cloned().flatten();
        let head = write_json(self.game, &self.cfg, record, text, &mut self.json)?;
        if self.index.is_some() {
            self.heads.push(ReplayMeta::from(head));
        }
        if self.json.len() >= MEMBER_MAX {
            self.close();
        }
        Ok(())
    }

    /// Compress the open member into the bytes to write.
    fn close(&mut self) {
        if self.json.is_empty() {
            return;
        }
        let gz = gzip_bytes(&self.json);
        self.out.pending().extend_from_slice(&gz);
        if let Some(index) = self.index.as_mut() {
            index.push_member(std::mem::take(&mut self.heads), &gz);
        }
        self.json.clear();
    }

    /// Close the open member and write the members made (one `write`).
    fn flush(&mut self) -> Result<(), HarnessError> {
        self.close();
        self.out.write_out().map(drop)
    }

    /// Make `record`'s member and write it.
    fn write(&mut self, record: &EpisodeRecord) -> Result<(), HarnessError> {
        self.make(record)?;
        self.flush()
    }
}

impl Writer {
    /// Start writing into `members`' file, on a thread of its own where
    /// one can be started.
    fn start(members: Members) -> Result<Writer, HarnessError> {
        let (tx, rx) = mpsc::sync_channel::<EpisodeRecord>(QUEUE);
        let failed = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&failed);
        let path = members.out.path().to_path_buf();
        // Shared, so that the members come back if the thread cannot start.
        let cell = Arc::new(Mutex::new(Some(members)));
        let theirs = Arc::clone(&cell);
        let spawned = std::thread::Builder::new()
            .name("replays".into())
            .spawn(move || {
                let taken = theirs.lock().map(|mut m| m.take()).unwrap_or(None);
                let Some(mut members) = taken else {
                    return Ok(None);
                };
                // The members of a batch are written at once.
                let mut rx = Batched::new(rx);
                while let Ok(record) = rx.recv(None) {
                    let mut made = members.make(&record);
                    if made.is_ok() && (members.out.pending().len() >= PENDING_MAX || rx.drained())
                    {
                        made = members.flush();
                    }
                    if let Err(e) = made {
                        flag.store(true, Ordering::Relaxed);
                        return Err(e);
                    }
                }
                members.flush()?;
                Ok(members.index)
            });
        match spawned {
            Ok(thread) => Ok(Writer::Thread { tx, thread, failed }),
            Err(e) => match cell.lock().map(|mut m| m.take()).unwrap_or(None) {
                Some(m) => Ok(Writer::Here(Box::new(m))),
                None => Err(HarnessError::io(&path, e)),
            },
        }
    }

    /// Write `record`'s member, or hand it to the thread: `false` when the
    /// thread has stopped (on an error, which [`Writer::finish`] returns).
    fn write(&mut self, record: &EpisodeRecord) -> Result<bool, HarnessError> {
        match self {
            Writer::Here(m) => m.write(record).map(|()| true),
            Writer::Thread { tx, failed, .. } => {
                Ok(!failed.load(Ordering::Relaxed) && tx.send(record.clone()).is_ok())
            }
        }
    }

    /// Wait until every member handed over is written; the index of the
    /// members written, or the thread's error.
    fn finish(self) -> Result<Option<Index>, HarnessError> {
        match self {
            Writer::Here(m) => Ok(m.index),
            Writer::Thread { tx, thread, .. } => {
                drop(tx);
                thread.join().unwrap_or_else(|_| {
                    Err(HarnessError::CheckFailed(
                        "the thread writing the replays panicked".into(),
                    ))
                })
            }
        }
    }
}

impl Replays {
    /// Writes `dir/replays.jsonl.gz`.
    pub fn new(dir: &Path) -> Self {
        Replays {
            path: dir.join(FILE_NAME),
            writer: None,
            index: None,
        }
    }

    /// Also collect the replays' [`Index`] into `index` as they are written.
    pub fn collecting(mut self, index: SharedIndex) -> Self {
        self.index = Some(index);
        self
    }

    /// Wait for the replays handed over to be written; the first error.
    /// Their index goes to the shared slot when all were written.
    fn finish(&mut self) -> Result<(), HarnessError> {
        let Some(writer) = self.writer.take() else {
            return Ok(());
        };
        let index = writer.finish()?;
        if let Some(shared) = &self.index {
            shared.put(index);
        }
        Ok(())
    }
}

impl Drop for Replays {
    fn drop(&mut self) {
        // A run that ended early still writes what it handed over.
        let _ = self.finish();
    }
}

impl Reporter for Replays {
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError> {
        match event {
            Event::RunPlanned { cfg, .. } => {
                self.finish()?;
                if let Some(shared) = &self.index {
                    shared.put(None);
                }
                if !cfg.replays {
                    return Ok(());
                }
                self.writer = Some(Writer::start(Members {
                    out: BatchFile::create(&self.path)?,
                    cfg: (*cfg).clone(),
                    game: crate::registry::find(cfg.game)?,
                    texts: HashMap::new(),
                    json: Vec::new(),
                    heads: Vec::new(),
                    index: self.index.as_ref().map(SharedIndex::start),
                })?);
            }
            Event::EpisodeFinished { record, .. } => {
                if let Some(w) = self.writer.as_mut() {
                    if !w.write(record)? {
                        return self.finish();
                    }
                }
            }
            Event::RunFinished { .. } => self.finish()?,
            _ => {}
        }
        Ok(())
    }

    fn files(&self) -> &'static [&'static str] {
        &[FILE_NAME]
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::connect4_record;
    use super::*;

    #[test]
    fn the_replays_thread_writes_every_finished_episode_in_the_order_handed_over() {
        let dir = std::env::temp_dir().join(format!("arena-replays-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (cfg, _) = connect4_record(0, 0);
        let game = crate::registry::find(cfg.game).unwrap();
        let mut r = Replays::new(&dir);
        r.report(&Event::RunPlanned {
            cfg: &cfg,
            episodes: &[],
            players: 2,
        })
        .unwrap();
        assert!(matches!(r.writer, Some(Writer::Thread { .. })));
        // More than the queue holds, finishing out of plan order.
        let order: Vec<usize> = (0..QUEUE + 40).map(|i| (i * 7) % (QUEUE + 40)).collect();
        let mut expected = Vec::new();
        for &i in &order {
            let (_, rec) = connect4_record(i as u64 * 31 + 5, i);
            write_json(game, &cfg, &rec, None, &mut expected).unwrap();
            r.report(&Event::EpisodeFinished {
                record: &rec,
                rows: &[],
                resumed: false,
            })
            .unwrap();
        }
        r.report(&Event::RunFinished {
            cfg: &cfg,
            rows: &[],
            summary: &[],
            crosstable: &[],
            planned: order.len(),
            players: 2,
            complete: true,
        })
        .unwrap();
        // Read right after the end of the run: drained, every line there,
        // and no member much past MEMBER_MAX.
        let gz = std::fs::read(dir.join(FILE_NAME)).unwrap();
        let mut text = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::MultiGzDecoder::new(&gz[..]), &mut text)
            .unwrap();
        assert_eq!(
            String::from_utf8(text).unwrap(),
            String::from_utf8(expected).unwrap()
        );
        for member in members(&gz) {
            let last = member[..member.len() - 1]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            assert!(member.ends_with(b"\n") && last < MEMBER_MAX, "{last}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The text of each gzip member of `gz`.
    fn members(gz: &[u8]) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let mut rest = gz;
        while !rest.is_empty() {
            let mut dec = flate2::bufread::GzDecoder::new(rest);
            let mut text = Vec::new();
            std::io::Read::read_to_end(&mut dec, &mut text).unwrap();
            rest = dec.into_inner();
            out.push(text);
        }
        out
    }

    #[test]
    fn replays_made_together_share_members_and_the_index_says_where_each_is() {
        let dir = tempfile::tempdir().unwrap();
        let (cfg, _) = connect4_record(0, 0);
        let mut m = Members {
            out: BatchFile::create(&dir.path().join(FILE_NAME)).unwrap(),
            game: crate::registry::find(cfg.game).unwrap(),
            cfg,
            texts: HashMap::new(),
            json: Vec::new(),
            heads: Vec::new(),
            index: Some(Index::new(usize::MAX)),
        };
        let n = 80;
        for i in 0..n {
            let (_, rec) = connect4_record(i as u64 * 13 + 1, i);
            m.make(&rec).unwrap();
        }
        m.flush().unwrap();
        let gz = std::fs::read(dir.path().join(FILE_NAME)).unwrap();
        let texts = members(&gz);
        let index = m.index.take().unwrap();
        // Fewer members than replays, each one's blob in the index.
        assert!(
            texts.len() > 1 && texts.len() < n,
            "{} members",
            texts.len()
        );
        assert_eq!(index.blobs.len(), texts.len());
        assert_eq!((index.metas.len(), index.places.len()), (n, n));
        for (meta, &(b, line)) in index.metas.iter().zip(&index.places) {
            let text = String::from_utf8(texts[b].clone()).unwrap();
            let l = text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .nth(line)
                .unwrap();
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert_eq!(v["episode"], meta.episode);
        }
        let episodes: Vec<usize> = index.metas.iter().map(|m| m.episode).collect();
        assert_eq!(episodes, (0..n).collect::<Vec<_>>());
    }
}
