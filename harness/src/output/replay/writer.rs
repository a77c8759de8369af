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
/// `replays = false`). The lines are made (the re-play, the JSON) by a
/// thread of its own (`replays`, which takes the records in batches while
/// they come fast: [`Batched`]), and the members are deflated and written
/// by another (`replays-gzip`), so that the run's main thread, which runs
/// every reporter, only hands each record over; both are drained, and the
/// first error reported, at the end of the run. Without threads to spare,
/// the work is done here. Given a [`SharedIndex`], it also collects what
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

/// The packing thread writes the members it deflated when nothing else is
/// waiting after the replay thread asked for it (its own queue was empty),
/// or once they are this many bytes.
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
        thread: JoinHandle<Done>,
        failed: Arc<AtomicBool>,
    },
}

/// Writes the records' replays to the file, in gzip members of one or
/// more lines ([`MEMBER_MAX`]): makes their JSON lines, and hands each
/// member closed to its [`Sink`].
struct Members {
    sink: Sink,
    cfg: RunConfig,
    game: &'static dyn GameEntry,
    texts: HashMap<String, Option<String>>,
    /// The JSON lines of the open member.
    json: Vec<u8>,
    /// What the index needs of them (when there is an index).
    heads: Option<Vec<ReplayMeta>>,
}

/// Where closed members go: compressed and written here, or by a thread
/// of their own (`replays-gzip`), so that making the lines (the re-play,
/// the views) and deflating them run side by side.
enum Sink {
    Here(Packer),
    Thread {
        tx: mpsc::SyncSender<Packing>,
        /// Taken when it is joined.
        thread: Option<JoinHandle<Done>>,
    },
}

/// What the packing thread is handed: a member's lines and what the index
/// needs of them, or the word to write what it has.
enum Packing {
    Member(Vec<u8>, Vec<ReplayMeta>),
    Flush,
}

/// Compresses members, collects their index and writes them.
struct Packer {
    out: BatchFile,
    index: Option<Index>,
}

impl Packer {
    fn pack(&mut self, json: &[u8], heads: Vec<ReplayMeta>) {
        let gz = gzip_bytes(json);
        self.out.pending().extend_from_slice(&gz);
        if let Some(index) = self.index.as_mut() {
            index.push_member(heads, &gz);
        }
    }
}

/// How many closed members may wait for the packing thread (each at most
/// about [`MEMBER_MAX`] of JSON).
const PACK_QUEUE: usize = 16;

impl Sink {
    /// Pack on a thread of its own where one can be started.
    fn start(packer: Packer) -> Sink {
        let (tx, rx) = mpsc::sync_channel::<Packing>(PACK_QUEUE);
        let spawned = spawn_with("replays-gzip", packer, move |mut p| {
            let mut pending_flush = false;
            loop {
                let msg = match rx.try_recv() {
                    Ok(m) => m,
                    Err(mpsc::TryRecvError::Empty) => {
                        if pending_flush {
                            p.out.write_out()?;
                            pending_flush = false;
                        }
                        match rx.recv() {
                            Ok(m) => m,
                            Err(_) => break,
                        }
                    }
                    Err(mpsc::TryRecvError::Disconnected) => break,
                };
                match msg {
                    Packing::Member(json, heads) => {
                        p.pack(&json, heads);
                        if p.out.pending().len() >= PENDING_MAX {
                            p.out.write_out()?;
                        }
                    }
                    Packing::Flush => pending_flush = true,
                }
            }
            p.out.write_out()?;
            Ok(p.index)
        });
        match spawned {
            Ok(thread) => Sink::Thread {
                tx,
                thread: Some(thread),
            },
            Err(p) => Sink::Here(p),
        }
    }

    fn member(&mut self, json: Vec<u8>, heads: Vec<ReplayMeta>) -> Result<(), HarnessError> {
        match self {
            Sink::Here(p) => {
                p.pack(&json, heads);
                Ok(())
            }
            Sink::Thread { tx, thread } => {
                if tx.send(Packing::Member(json, heads)).is_ok() {
                    return Ok(());
                }
                // The thread stopped: its error.
                Err(join(thread.take(), PACKING).err().unwrap_or_else(|| {
                    HarnessError::CheckFailed("the thread compressing the replays stopped".into())
                }))
            }
        }
    }

    fn flush(&mut self) -> Result<(), HarnessError> {
        match self {
            Sink::Here(p) => p.out.write_out().map(drop),
            Sink::Thread { tx, .. } => {
                let _ = tx.send(Packing::Flush);
                Ok(())
            }
        }
    }

    fn finish(self) -> Result<Option<Index>, HarnessError> {
        match self {
            Sink::Here(mut p) => {
                p.out.write_out()?;
                Ok(p.index)
            }
            Sink::Thread { tx, thread } => {
                drop(tx);
                join(thread, PACKING)
            }
        }
    }
}

/// What the replays' threads end with: the index of the members written,
/// or the first error.
type Done = Result<Option<Index>, HarnessError>;

/// The thread that makes the lines, and the one that deflates them, as
/// their panics name them.
const MAKING: &str = "writing";
const PACKING: &str = "compressing";

/// Run `work(value)` on a new thread named `name`; `value` back when no
/// thread can be started.
fn spawn_with<T: Send + 'static>(
    name: &str,
    value: T,
    work: impl FnOnce(T) -> Done + Send + 'static,
) -> Result<JoinHandle<Done>, T> {
    // Shared, so that the value comes back if the thread cannot start.
    let cell = Arc::new(Mutex::new(Some(value)));
    let theirs = Arc::clone(&cell);
    let spawned = std::thread::Builder::new()
        .name(name.into())
        .spawn(move || match theirs.lock().map(|mut v| v.take()) {
            Ok(Some(v)) => work(v),
            _ => Ok(None),
        });
    spawned.map_err(|_| {
        let mut cell = cell.lock().unwrap_or_else(|p| p.into_inner());
        cell.take()
            .expect("the value of a thread that did not start")
    })
}

/// What the thread (the one `doing` the replays) ended with; nothing when
/// it was joined before.
fn join(thread: Option<JoinHandle<Done>>, doing: &str) -> Done {
    match thread {
        Some(t) => t.join().unwrap_or_else(|_| {
            Err(HarnessError::CheckFailed(format!(
                "the thread {doing} the replays panicked"
            )))
        }),
        None => Ok(None),
    }
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
        if let Some(heads) = self.heads.as_mut() {
            heads.push(ReplayMeta::from(head));
        }
        if self.json.len() >= MEMBER_MAX {
            self.close()?;
        }
        Ok(())
    }

    /// Hand the open member to the sink.
    fn close(&mut self) -> Result<(), HarnessError> {
        if self.json.is_empty() {
            return Ok(());
        }
        let json = std::mem::replace(
            &mut self.json,
            Vec::with_capacity(MEMBER_MAX + MEMBER_MAX / 4),
        );
        let heads = self.heads.as_mut().map(std::mem::take).unwrap_or_default();
        self.sink.member(json, heads)
    }

    /// Close the open member and write the members made.
    fn flush(&mut self) -> Result<(), HarnessError> {
        self.close()?;
        self.sink.flush()
    }

    /// Make `record`'s member and write it.
    fn write(&mut self, record: &EpisodeRecord) -> Result<(), HarnessError> {
        self.make(record)?;
        self.flush()
    }

    /// Write what is left; the index.
    fn finish(mut self) -> Result<Option<Index>, HarnessError> {
        self.close()?;
        self.sink.finish()
    }
}

impl Writer {
    /// Start writing into `members`' file, on a thread of its own where
    /// one can be started.
    fn start(members: Members) -> Writer {
        let (tx, rx) = mpsc::sync_channel::<EpisodeRecord>(QUEUE);
        let failed = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&failed);
        let spawned = spawn_with("replays", members, move |mut members| {
            // The members of a batch are written at once.
            let mut rx = Batched::new(rx);
            while let Ok(record) = rx.recv(None) {
                let mut made = members.make(&record);
                if made.is_ok() && rx.drained() {
                    made = members.flush();
                }
                if let Err(e) = made {
                    flag.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
            members.finish()
        });
        match spawned {
            Ok(thread) => Writer::Thread { tx, thread, failed },
            Err(m) => Writer::Here(Box::new(m)),
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
            Writer::Here(m) => m.finish(),
            Writer::Thread { tx, thread, .. } => {
                drop(tx);
                join(Some(thread), MAKING)
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
                let index = self.index.as_ref().map(SharedIndex::start);
                self.writer = Some(Writer::start(Members {
                    heads: index.is_some().then(Vec::new),
                    sink: Sink::start(Packer {
                        out: BatchFile::create(&self.path)?,
                        index,
                    }),
                    cfg: (*cfg).clone(),
                    game: crate::registry::find(cfg.game)?,
                    texts: HashMap::new(),
                    json: Vec::new(),
                }));
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
            sink: Sink::Here(Packer {
                out: BatchFile::create(&dir.path().join(FILE_NAME)).unwrap(),
                index: Some(Index::new(usize::MAX)),
            }),
            game: crate::registry::find(cfg.game).unwrap(),
            cfg,
            texts: HashMap::new(),
            json: Vec::new(),
            heads: Some(Vec::new()),
        };
        let n = 80;
        for i in 0..n {
            let (_, rec) = connect4_record(i as u64 * 13 + 1, i);
            m.make(&rec).unwrap();
        }
        m.flush().unwrap();
        let index = m.finish().unwrap().unwrap();
        let gz = std::fs::read(dir.path().join(FILE_NAME)).unwrap();
        let texts = members(&gz);
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

    #[test]
    fn members_deflated_on_their_own_thread_are_the_ones_deflated_here() {
        let (cfg, _) = connect4_record(0, 0);
        let mut files = Vec::new();
        let mut indexes = Vec::new();
        for threaded in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let packer = Packer {
                out: BatchFile::create(&dir.path().join(FILE_NAME)).unwrap(),
                index: Some(Index::new(usize::MAX)),
            };
            let sink = if threaded {
                Sink::start(packer)
            } else {
                Sink::Here(packer)
            };
            assert_eq!(matches!(sink, Sink::Thread { .. }), threaded);
            let mut m = Members {
                sink,
                game: crate::registry::find(cfg.game).unwrap(),
                cfg: cfg.clone(),
                texts: HashMap::new(),
                json: Vec::new(),
                heads: Some(Vec::new()),
            };
            // More members than the packing thread's queue holds.
            for i in 0..(PACK_QUEUE + 4) * 30 {
                let (_, rec) = connect4_record(i as u64 * 7 + 3, i);
                m.make(&rec).unwrap();
            }
            let index = m.finish().unwrap().unwrap();
            files.push(std::fs::read(dir.path().join(FILE_NAME)).unwrap());
            indexes.push((index.blobs, index.places, index.bytes));
        }
        assert!(members(&files[0]).len() > PACK_QUEUE);
        assert!(files[0] == files[1], "the files differ");
        assert!(indexes[0] == indexes[1], "the indexes differ");
    }

    #[test]
    fn a_write_error_of_the_packing_thread_is_what_the_replays_report() {
        let full = Path::new("/dev/full");
        if !full.exists() {
            assert!(std::env::var_os("CI").is_none(), "no /dev/full under CI");
            return;
        }
        let (cfg, _) = connect4_record(0, 0);
        let mut m = Members {
            sink: Sink::start(Packer {
                out: BatchFile::create(full).unwrap(),
                index: None,
            }),
            game: crate::registry::find(cfg.game).unwrap(),
            cfg,
            texts: HashMap::new(),
            json: Vec::new(),
            heads: None,
        };
        assert!(matches!(m.sink, Sink::Thread { .. }));
        let (_, rec) = connect4_record(1, 0);
        m.make(&rec).unwrap();
        // The write fails on the packing thread, which stops; the next
        // member handed over brings its error back.
        m.flush().unwrap();
        let err = (1..100_000)
            .find_map(|i| m.make(&connect4_record(i as u64, i).1).err())
            .expect("the packing thread's error");
        assert!(err.to_string().contains("/dev/full"), "{err}");
        assert!(
            !err.to_string().contains("stopped"),
            "not the thread's own error: {err}"
        );
    }
}
