//! The supervisor of one external agent process.
//!
//! The process is started in its own process group (`process_group(0)`)
//! with its stdin, stdout and stderr piped to three tokio tasks on the
//! shared [`crate::external::runtime`]:
//! - a writer task that sends the harness's messages to stdin;
//! - a reader task that splits stdout into lines, enforcing the line-length
//!   and total-output caps (a breach ends reading: the agent is stopped);
//! - a stderr task that copies stderr into the agent's log file up to a
//!   cap, drains the rest, and keeps the last few KiB for diagnostics (the
//!   memory-limit heuristic reads them).
//!
//! [`AgentProcess::stop`] ends the whole group: SIGTERM, a grace period,
//! SIGKILL, then the process is reaped. [`AgentProcess::stop`] then kills
//! whatever is left of the agent's tree (see [`crate::external::supervise::containment`]: its
//! cgroup, its process group, its instance token, its uid, descendants and
//! orphans re-parented to arena), counts the survivors in
//! [`AgentProcess::leaked`] and reaps re-parented zombies.
//!
//! Lines the agent writes are queued for the harness in a bounded queue
//! ([`QUEUE_BYTES`]): when the harness has not taken them, the reader stops
//! reading and the agent blocks on its next write (its output is not
//! dropped: unsolicited lines are then judged by the protocol, see
//! `docs/protocol.md`).

mod ending;

pub use crate::external::supervise::procfs::{group_members, processes_with_marker};
use crate::external::supervise::sandbox;
use crate::external::{
    supervise::containment, supervise::uids, ExternalSpec, ProcessLimits, Sandbox,
};
use crate::play::outcome::Outcome;
use crate::play::player::Failure;
use rustix::process::Pid;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitStatus;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// How much of the end of stderr is kept in memory for diagnostics.
const STDERR_TAIL: usize = 4096;

/// How many bytes of complete stdout lines may wait for the harness
/// (each line counts its length plus `LINE_OVERHEAD`; a longer line than
/// this still passes, alone). Beyond it the reader stops reading until the
/// harness takes lines, and the agent blocks on its writes.
pub const QUEUE_BYTES: usize = 1 << 20;

/// What one queued line costs beyond its text (its bookkeeping).
const LINE_OVERHEAD: usize = 64;

/// How often, under bwrap, arena checks whether the agent still holds its
/// stdout (bwrap's own processes keep a copy, so the pipe never reports
/// end of file while the sandbox lives).
const STDOUT_POLL: Duration = Duration::from_millis(20);

fn line_cost(len: usize) -> u32 {
    (len + LINE_OVERHEAD).min(QUEUE_BYTES) as u32
}

/// What the stdout reader task reports.
#[derive(Debug)]
enum Event {
    /// One complete line, without its newline (a trailing `\r` removed),
    /// and when the reader task got it.
    Line(String, Instant),
    /// A line grew past the cap (KiB) without a newline.
    LineTooLong(u64),
    /// The total output passed the cap (KiB).
    OutputTooLong(u64),
    /// stdout was closed (at that time).
    Eof(Instant),
    /// Reading failed.
    Error(String),
}

/// What [`AgentProcess::next_event`] saw first.
enum Got {
    /// An event of the stdout reader (`None`: the reader is gone).
    Ev(Option<Event>),
    /// The process exited.
    Exit(std::io::Result<ExitStatus>),
}

/// The result of waiting for one line.
#[derive(Debug)]
pub enum Received {
    /// A line arrived.
    Line(String),
    /// The agent failed (exited, broke an output cap ...); it has been stopped.
    Failed(Failure),
    /// The deadline passed first (the agent is still running).
    TimedOut,
}

/// The result of waiting for output with [`AgentProcess::recv_output`]
/// (for programs whose answer ends when they exit, such as Botzone bots).
#[derive(Debug)]
pub enum Output {
    /// A line arrived.
    Line(String),
    /// The process ended and its output was drained: its exit status, where
    /// known. Nothing has been stopped yet: call [`AgentProcess::stop`] for
    /// the group kill and the leak check.
    End(Option<ExitStatus>),
    /// The agent broke an output cap or its output could not be read; it has
    /// been stopped.
    Failed(Failure),
    /// The deadline passed first (the agent is still running).
    TimedOut,
}

/// How long the output of a process that has exited is still drained (its
/// last lines may arrive just after the exit is seen).
const DRAIN_AFTER_EXIT: Duration = Duration::from_millis(50);

/// One running agent process and its supervision tasks.
pub struct AgentProcess {
    child: tokio::process::Child,
    /// The agent's entry in the registry of live agents.
    registered: u64,
    /// The machine-wide uid lease (arena as root, sandboxed).
    _uid: Option<uids::UidLease>,
    /// Byte budget of the line queue (see [`QUEUE_BYTES`]).
    queue: Arc<tokio::sync::Semaphore>,
    /// Under bwrap: the inode of the stdout pipe, and whether a process of
    /// the agent was seen holding it.
    stdout_watch: Option<(u64, bool)>,
    pgid: Option<Pid>,
    stdin: Option<mpsc::UnboundedSender<Vec<u8>>>,
    events: mpsc::UnboundedReceiver<Event>,
    stderr_task: Option<tokio::task::JoinHandle<()>>,
    stderr_tail: Arc<Mutex<Vec<u8>>>,
    log: Option<PathBuf>,
    status: Option<ExitStatus>,
    limits: ProcessLimits,
    sandboxed: bool,
    stopped: bool,
    leaked: usize,
    /// An event taken by [`unread_line`](Self::unread_line) that is not a line.
    held: Option<Event>,
    /// When the process was seen to exit (by [`recv_output`](Self::recv_output)).
    exited_at: Option<Instant>,
    /// When the reader task got the last line (or end of output) handed out.
    last_output_at: Option<Instant>,
    /// The agent's cgroup, if it has one (its CPU time is read there).
    cgroup: Option<PathBuf>,
    /// Whether the cgroup's CPU pressure could be read at the start (see
    /// [`AgentProcess::wait_sched`]): then it is always the measure of the
    /// tree's waits for a CPU under the CPU clock, so that two readings
    /// are of one measure.
    pressure: bool,
    /// The pid of the process arena started.
    root: i32,
}

fn new_token() -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "{}-{}-{nanos}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    )
}

impl AgentProcess {
    /// Start the agent of `spec`; its stderr goes to `log` (created, with
    /// its folder) when given. A failure to start is [`Outcome::SpawnFailed`].
    pub fn spawn(spec: &ExternalSpec, log: Option<PathBuf>) -> Result<Self, Failure> {
        Self::spawn_inner(spec, log, None)
    }

    /// As [`spawn`](Self::spawn), for one of several processes of the same
    /// agent in one game (Botzone's process per turn): stderr is appended to
    /// `log`, and `used` counts the bytes the log holds across all of them,
    /// so that `max_stderr_kb` caps the whole game.
    pub fn spawn_continuing_log(
        spec: &ExternalSpec,
        log: Option<PathBuf>,
        used: Arc<AtomicU64>,
    ) -> Result<Self, Failure> {
        Self::spawn_inner(spec, log, Some(used))
    }

    fn spawn_inner(
        spec: &ExternalSpec,
        log: Option<PathBuf>,
        shared_log: Option<Arc<AtomicU64>>,
    ) -> Result<Self, Failure> {
        let rt = crate::external::runtime();
        let _guard = rt.enter();
        containment::init();
        let token = new_token();
        let spawn_failed = |detail: String| Failure {
            outcome: Outcome::SpawnFailed,
            detail,
        };
        let lease = if crate::external::drops_privileges(spec.sandbox) {
            Some(uids::lease().map_err(|e| spawn_failed(e.to_string()))?)
        } else {
            None
        };
        let cgroup = containment::new_agent_cgroup();
        let place = sandbox::Placement {
            uid: lease.as_ref().map(|l| l.uid()),
            cgroup_procs: cgroup.as_ref().map(|(_, p)| p.clone()),
        };
        let mut cmd = sandbox::command(spec, &token, place);
        let (mut child, registered) = {
            // Spawn and register as one step for the orphan scans.
            let _spawning = containment::spawn_lock();
            let child = match cmd.spawn() {
                Ok(c) => c,
                Err(e) => {
                    if let Some((dir, _)) = &cgroup {
                        let _ = std::fs::remove_dir(dir);
                    }
                    return Err(spawn_failed(format!(
                        "cannot start {:?}: {e}",
                        spec.command
                    )));
                }
            };
            let pid = child.id().map(|p| p as i32).unwrap_or(0);
            let id = containment::register(
                pid,
                &token,
                lease.as_ref().map(|l| l.uid()),
                cgroup.as_ref().map(|(d, _)| d.clone()),
            );
            (child, id)
        };
        let pgid = child.id().and_then(|id| Pid::from_raw(id as i32));
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            return Err(spawn_failed("the agent's pipes could not be set up".into()));
        };
        let limits = spec.limits;
        let stdout_watch = (spec.sandbox == Sandbox::Bwrap)
            .then(|| {
                use std::os::fd::AsRawFd;
                use std::os::unix::fs::MetadataExt;
                std::fs::metadata(format!("/proc/self/fd/{}", stdout.as_raw_fd()))
                    .ok()
                    .map(|m| (m.ino(), false))
            })
            .flatten();

        // stdin writer.
        let (in_tx, mut in_rx) = mpsc::unbounded_channel::<Vec<u8>>();
        rt.spawn(async move {
            let mut stdin = stdin;
            while let Some(bytes) = in_rx.recv().await {
                if stdin.write_all(&bytes).await.is_err() || stdin.flush().await.is_err() {
                    break;
                }
            }
            // Dropping stdin closes the pipe: the agent sees end of input.
        });

        // stdout reader with caps.
        let (ev_tx, ev_rx) = mpsc::unbounded_channel::<Event>();
        let max_line = limits.max_line_kb.saturating_mul(1024);
        let max_total = limits.max_output_kb.saturating_mul(1024);
        let queue = Arc::new(tokio::sync::Semaphore::new(QUEUE_BYTES));
        let budget = Arc::clone(&queue);
        rt.spawn(async move {
            let mut reader = BufReader::with_capacity(64 * 1024, stdout);
            let mut line: Vec<u8> = Vec::new();
            let mut total: u64 = 0;
            loop {
                let buf = match reader.fill_buf().await {
                    Ok(b) => b,
                    Err(e) => {
                        let _ = ev_tx.send(Event::Error(e.to_string()));
                        return;
                    }
                };
                if buf.is_empty() {
                    let _ = ev_tx.send(Event::Eof(Instant::now()));
                    return;
                }
                let (take, complete) = match buf.iter().position(|&b| b == b'\n') {
                    Some(i) => (i + 1, true),
                    None => (buf.len(), false),
                };
                total += take as u64;
                let body = if complete { &buf[..take - 1] } else { buf };
                line.extend_from_slice(body);
                reader.consume(take);
                if line.len() as u64 > max_line {
                    let _ = ev_tx.send(Event::LineTooLong(max_line / 1024));
                    return;
                }
                if total > max_total {
                    let _ = ev_tx.send(Event::OutputTooLong(max_total / 1024));
                    return;
                }
                if complete {
                    if line.last() == Some(&b'\r') {
                        line.pop();
                    }
                    let text = String::from_utf8_lossy(&line).into_owned();
                    line.clear();
                    // Wait for room in the queue (the agent blocks meanwhile).
                    match budget.acquire_many(line_cost(text.len())).await {
                        Ok(permit) => permit.forget(),
                        Err(_) => return,
                    }
                    if ev_tx.send(Event::Line(text, Instant::now())).is_err() {
                        return;
                    }
                }
            }
        });

        // stderr logger.
        let tail = Arc::new(Mutex::new(Vec::new()));
        let max_err = limits.max_stderr_kb.saturating_mul(1024);
        let append = shared_log.is_some();
        let used = shared_log.unwrap_or_else(|| Arc::new(AtomicU64::new(0)));
        let already = used.load(Ordering::Relaxed);
        let file = match &log {
            Some(p) if already <= max_err => {
                if let Some(dir) = p.parent() {
                    let _ = std::fs::create_dir_all(dir);
                }
                if append {
                    std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(p)
                        .ok()
                } else {
                    std::fs::File::create(p).ok()
                }
            }
            _ => None,
        };
        let tail2 = Arc::clone(&tail);
        let stderr_task = rt.spawn(async move {
            let mut stderr = stderr;
            let mut file = file;
            let mut written: u64 = already;
            let mut buf = vec![0u8; 16 * 1024];
            loop {
                let n = match stderr.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                let chunk = &buf[..n];
                if let Some(f) = file.as_mut() {
                    let room = max_err.saturating_sub(written) as usize;
                    let part = &chunk[..chunk.len().min(room)];
                    let _ = f.write_all(part);
                    written += part.len() as u64;
                    if part.len() < chunk.len() {
                        let _ = writeln!(f, "\n[arena] stderr truncated at {} KiB", max_err / 1024);
                        written = u64::MAX;
                        file = None;
                    }
                    used.store(written, Ordering::Relaxed);
                }
                let mut t = tail2.lock().unwrap_or_else(|p| p.into_inner());
                t.extend_from_slice(chunk);
                if t.len() > STDERR_TAIL {
                    let cut = t.len() - STDERR_TAIL;
                    t.drain(..cut);
                }
            }
        });

        Ok(AgentProcess {
            child,
            registered,
            _uid: lease,
            queue,
            stdout_watch,
            pgid,
            stdin: Some(in_tx),
            events: ev_rx,
            stderr_task: Some(stderr_task),
            stderr_tail: tail,
            log,
            status: None,
            limits,
            sandboxed: spec.sandbox != Sandbox::None,
            stopped: false,
            leaked: 0,
            held: None,
            exited_at: None,
            last_output_at: None,
            pressure: cgroup
                .as_ref()
                .is_some_and(|(d, _)| crate::play::timing::run_delay::of_cgroup(d).is_some()),
            cgroup: cgroup.map(|(d, _)| d),
            root: pgid.map_or(0, |p| p.as_raw_nonzero().get()),
        })
    }

    /// Queue `line` (a newline is appended) for the agent's stdin. Never
    /// blocks: a writer task delivers it.
    pub fn send(&mut self, line: &str) {
        if let Some(tx) = &self.stdin {
            let mut bytes = Vec::with_capacity(line.len() + 1);
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
            let _ = tx.send(bytes);
        }
    }

    /// A complete line the agent wrote that nobody has read yet, if one has
    /// arrived (non-blocking; other events are left for [`recv_line`](Self::recv_line)).
    pub fn unread_line(&mut self) -> Option<String> {
        match self.events.try_recv() {
            Ok(Event::Line(l, at)) => {
                self.line_taken(l.len());
                self.last_output_at = Some(at);
                Some(l)
            }
            Ok(other) => {
                self.held = Some(other);
                None
            }
            Err(_) => None,
        }
    }

    /// Close the agent's stdin (after the last message).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Wait for the next stdout line until `deadline`. An exit, a broken
    /// output cap or a read error stops the agent and is returned as a
    /// [`Failure`]; a timeout leaves it running (the caller decides).
    pub fn recv_line(&mut self, deadline: Instant) -> Received {
        if self.stopped {
            return Received::Failed(Failure {
                outcome: Outcome::Crash,
                detail: "the agent was already stopped".into(),
            });
        }
        let held = self.held.take();
        match self.next_event(held, deadline) {
            None => Received::TimedOut,
            Some(Got::Ev(Some(Event::Line(l, at)))) => {
                self.last_output_at = Some(at);
                Received::Line(l)
            }
            Some(Got::Ev(Some(Event::Eof(_))) | Got::Ev(None)) => {
                // stdout closed: the process is exiting (or closed it on purpose).
                let rt = crate::external::runtime();
                let child = &mut self.child;
                if let Ok(Ok(st)) = rt.block_on(async {
                    tokio::time::timeout(Duration::from_millis(200), child.wait()).await
                }) {
                    self.status = Some(st);
                }
                let running = self.status.is_none();
                self.stop();
                if running {
                    return Received::Failed(Failure {
                        outcome: Outcome::Crash,
                        detail: "the agent closed its output while still running (stopped)".into(),
                    });
                }
                Received::Failed(self.exit_failure("closed its output"))
            }
            Some(Got::Exit(st)) => {
                self.status = st.ok();
                self.stop();
                Received::Failed(self.exit_failure("exited"))
            }
            Some(Got::Ev(Some(other))) => Received::Failed(self.event_failure(other)),
        }
    }

    /// Wait for the next stdout line until `deadline`, for programs whose
    /// answer ends when they exit. Unlike [`recv_line`](Self::recv_line), an
    /// exit is not a failure here: once the process has exited, what is left
    /// of its output is drained (for at most 50 ms after the exit was seen),
    /// then [`Output::End`] reports the exit status. stdout closed while the
    /// process runs on: its exit is awaited until `deadline`. A broken output
    /// cap or a read error stops the agent ([`Output::Failed`]).
    pub fn recv_output(&mut self, deadline: Instant) -> Output {
        if self.stopped {
            return Output::End(self.status);
        }
        let rt = crate::external::runtime();
        let held = self.held.take();
        if let Some(at) = self.exited_at {
            let until = at + DRAIN_AFTER_EXIT;
            let events = &mut self.events;
            let ev = match held {
                Some(ev) => Some(ev),
                None => rt
                    .block_on(async { tokio::time::timeout_at(until.into(), events.recv()).await })
                    .unwrap_or(None),
            };
            return match ev {
                Some(Event::Line(l, at)) => {
                    self.queue.add_permits(line_cost(l.len()) as usize);
                    self.last_output_at = Some(at);
                    Output::Line(l)
                }
                Some(Event::Eof(at)) => {
                    self.last_output_at = Some(at);
                    Output::End(self.status)
                }
                None => Output::End(self.status),
                Some(other) => Output::Failed(self.event_failure(other)),
            };
        }
        match self.next_event(held, deadline) {
            None => Output::TimedOut,
            Some(Got::Ev(Some(Event::Line(l, at)))) => {
                self.last_output_at = Some(at);
                Output::Line(l)
            }
            Some(Got::Ev(Some(Event::Eof(at)))) => {
                self.last_output_at = Some(at);
                self.await_exit(deadline)
            }
            Some(Got::Ev(None)) => self.await_exit(deadline),
            Some(Got::Ev(Some(other))) => Output::Failed(self.event_failure(other)),
            Some(Got::Exit(st)) => {
                self.status = st.ok();
                self.exited_at = Some(Instant::now());
                self.recv_output(deadline)
            }
        }
    }

    /// The next event of the stdout reader (`held`, if one was put back) or
    /// the process's exit, whichever comes first; `None` at `deadline`.
    fn next_event(&mut self, held: Option<Event>, deadline: Instant) -> Option<Got> {
        if let Some(ev) = held {
            return Some(Got::Ev(Some(ev)));
        }
        let events = &mut self.events;
        let child = &mut self.child;
        let root = child.id().map(|p| p as i32);
        let watch = &mut self.stdout_watch;
        let got = crate::external::runtime()
            .block_on(async {
                tokio::time::timeout_at(deadline.into(), async {
                    tokio::select! {
                        biased;
                        ev = events.recv() => Got::Ev(ev),
                        st = child.wait() => Got::Exit(st),
                        at = stdout_abandoned(watch, root) => Got::Ev(Some(Event::Eof(at))),
                    }
                })
                .await
            })
            .ok();
        if let Some(Got::Ev(Some(Event::Line(l, _)))) = &got {
            self.line_taken(l.len());
        }
        got
    }

    /// A line of `len` bytes taken from the queue: its bytes return to the
    /// queue's budget. Under bwrap, a process of the agent wrote it, so it
    /// held the pipe: the stdout watch need not see it holding it (an
    /// agent that closes its stdout before the watch's first look would
    /// otherwise run on unnoticed, as happened on a loaded machine).
    fn line_taken(&mut self, len: usize) {
        self.queue.add_permits(line_cost(len) as usize);
        if let Some((_, seen)) = &mut self.stdout_watch {
            *seen = true;
        }
    }

    /// stdout is closed: the answer ends when the process exits (by `deadline`).
    fn await_exit(&mut self, deadline: Instant) -> Output {
        let rt = crate::external::runtime();
        let child = &mut self.child;
        match rt.block_on(async { tokio::time::timeout_at(deadline.into(), child.wait()).await }) {
            Err(_) => Output::TimedOut,
            Ok(st) => {
                self.status = st.ok();
                self.exited_at = Some(Instant::now());
                Output::End(self.status)
            }
        }
    }

    /// Stop the agent for a failure event of the stdout reader and describe it.
    fn event_failure(&mut self, ev: Event) -> Failure {
        self.stop();
        match ev {
            Event::LineTooLong(kb) => Failure {
                outcome: Outcome::OutputLimit,
                detail: format!("an output line exceeded {kb} KiB without a newline"),
            },
            Event::OutputTooLong(kb) => Failure {
                outcome: Outcome::OutputLimit,
                detail: format!("total output exceeded {kb} KiB"),
            },
            Event::Error(e) => Failure {
                outcome: Outcome::Crash,
                detail: format!("reading the agent's output failed: {e}"),
            },
            Event::Line(..) | Event::Eof(_) => Failure {
                outcome: Outcome::Crash,
                detail: "unexpected end of output".into(),
            },
        }
    }

    /// How the process ended, as a failure (`crash`, or `memory-limit` by the
    /// heuristic of [`recv_line`](Self::recv_line)), for a process that ended
    /// when it should not have (a non-zero status, a signal). The agent is
    /// [stopped](Self::stop) first, which waits for the stderr logger, so
    /// that the last line it wrote before it crashed is in the detail
    /// whatever the load (reading the tail as soon as stdout ended raced
    /// with the logger).
    pub fn end_failure(&mut self) -> Failure {
        self.stop();
        self.exit_failure("exited")
    }

    /// When the supervisor received the last line (or the end of output)
    /// that was handed out: the moment the agent answered, independent of
    /// when the caller got round to reading it (in a simultaneous game the
    /// runner reads the seats one after the other).
    pub fn last_output_at(&self) -> Option<Instant> {
        self.last_output_at
    }

    /// CPU time used so far by the agent's whole process tree: from its
    /// cgroup (`cpu.stat`, every process it ever started, microseconds)
    /// where it has one; else the sum over its live processes of their
    /// threads' run time (`/proc/<pid>/task/<tid>/schedstat`, nanoseconds;
    /// processes that already exited are not counted). `None` when nothing
    /// can be read.
    pub fn cpu_time(&self) -> Option<Duration> {
        if let Some(dir) = &self.cgroup {
            if let Some(us) = std::fs::read_to_string(dir.join("cpu.stat"))
                .ok()
                .and_then(|t| {
                    t.lines()
                        .find_map(|l| l.strip_prefix("usage_usec "))
                        .and_then(|v| v.trim().parse::<u64>().ok())
                })
            {
                return Some(Duration::from_micros(us));
            }
        }
        if self.root <= 0 {
            return None;
        }
        let procs = containment::snapshot();
        let tree = containment::with_descendants(&procs, &[self.root]);
        let mut ns: u64 = 0;
        let mut any = false;
        for pid in tree {
            let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
                continue;
            };
            for t in tasks.filter_map(|e| e.ok()) {
                if let Some(v) = std::fs::read_to_string(t.path().join("schedstat"))
                    .ok()
                    .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
                {
                    ns += v;
                    any = true;
                }
            }
        }
        any.then(|| Duration::from_nanos(ns))
    }

    /// Run delay so far (time ready to run but waiting for a CPU, see
    /// [`crate::play::timing::run_delay`]) of the agent (as in
    /// [`AgentProcess::wait_sched`]),
    /// plus the supervisor thread's, which reads its answers: what the wall
    /// clock forgives. `None` when it cannot be read.
    pub fn run_delay(&self) -> Option<Duration> {
        use crate::play::timing::run_delay;
        let agent = match self.pressure_dir() {
            Some(dir) => run_delay::of_cgroup(dir)?,
            None => run_delay::of_tree_now(self.root)?.waited,
        };
        Some(agent + run_delay::of_supervisor())
    }

    /// The agent's cgroup, where it has one with pressure accounting.
    fn pressure_dir(&self) -> Option<&std::path::Path> {
        self.cgroup.as_deref().filter(|_| self.pressure)
    }

    /// What works on a request waited for a CPU so far, and whether the
    /// agent's tree is runnable now, read on the episode's thread: the
    /// agent's waits, the supervisor's (which reads its answers) and the
    /// calling thread's (the episode's, which writes the request and waits
    /// for the answer). The agent's waits, here and in
    /// [`AgentProcess::run_delay`], are its cgroup's CPU pressure stall
    /// time ([`run_delay::of_cgroup`](crate::play::timing::run_delay::of_cgroup))
    /// where it has one with pressure accounting: that keeps the waits of
    /// its processes that exited (a wrapper script's children) and of a
    /// wait in progress. Elsewhere they are the run delay of its live
    /// process tree. Under the CPU clock the wait for an answer does not
    /// count them (see [`crate::external::supervise::early_stop`]). `None`
    /// when the tree (or the pressure, where it is the measure) cannot be
    /// read.
    pub fn wait_sched(&self) -> Option<crate::play::timing::run_delay::TreeSched> {
        use crate::play::timing::run_delay;
        let tree = run_delay::of_tree_now(self.root)?;
        let agent = match self.pressure_dir() {
            Some(dir) => run_delay::of_cgroup(dir)?,
            None => tree.waited,
        };
        Some(run_delay::TreeSched {
            waited: agent
                + run_delay::of_supervisor()
                + run_delay::of_this_thread().unwrap_or_default(),
            ..tree
        })
    }

    /// The last few KiB of the agent's stderr (lossy UTF-8).
    pub fn stderr_tail(&self) -> String {
        let t = self.stderr_tail.lock().unwrap_or_else(|p| p.into_inner());
        String::from_utf8_lossy(&t).into_owned()
    }

    /// Processes found alive (and killed) after the agent was stopped.
    pub fn leaked(&self) -> usize {
        self.leaked
    }

    /// The stderr log file, if any.
    pub fn log_path(&self) -> Option<&PathBuf> {
        self.log.as_ref()
    }
}

/// Under bwrap, resolves (with the time) once no process of the agent but
/// bubblewrap's own holds the stdout pipe any more, after one was seen
/// holding it: the agent closed its stdout, though bwrap's copy keeps the
/// pipe from reporting end of file. Without a watch, never resolves.
async fn stdout_abandoned(watch: &mut Option<(u64, bool)>, root: Option<i32>) -> Instant {
    let (Some((ino, seen)), Some(root)) = (watch.as_mut(), root) else {
        return std::future::pending().await;
    };
    let link = format!("pipe:[{ino}]");
    loop {
        tokio::time::sleep(STDOUT_POLL).await;
        let procs = containment::snapshot();
        let tree = containment::with_descendants(&procs, &[root]);
        let holds = tree.iter().any(|&pid| {
            let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).unwrap_or_default();
            comm.trim_end() != "bwrap"
                && std::fs::read_dir(format!("/proc/{pid}/fd")).is_ok_and(|d| {
                    d.filter_map(|e| e.ok()).any(|e| {
                        std::fs::read_link(e.path()).is_ok_and(|l| l.as_os_str() == link.as_str())
                    })
                })
        });
        if holds {
            *seen = true;
        } else if *seen {
            return Instant::now();
        }
    }
}
