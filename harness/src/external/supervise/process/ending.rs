//! How an agent process ends: [`AgentProcess::finish`] and
//! [`AgentProcess::stop`] (the group killed, the process reaped, the
//! survivors of its tree killed and counted), and the description of an
//! end that was not asked for ([`AgentProcess::exit_failure`], with the
//! memory-limit heuristic).

use super::{containment, group_members, AgentProcess};
use crate::external::runtime;
use crate::play::outcome::Outcome;
use crate::play::player::Failure;
use rustix::process::{kill_process_group, Signal};
use std::io::Write;
use std::time::{Duration, Instant};

impl AgentProcess {
    /// Describe how the agent ended, with the memory-limit heuristic:
    /// under a sandbox with resource limits, an abnormal end whose stderr
    /// tail shows an allocation failure (`MemoryError`, `std::bad_alloc`,
    /// `Cannot allocate memory`, `out of memory`, `OutOfMemoryError`,
    /// `memory allocation of`) is [`Outcome::MemoryLimit`]; anything else is
    /// [`Outcome::Crash`].
    pub(super) fn exit_failure(&self, what: &str) -> Failure {
        use std::os::unix::process::ExitStatusExt;
        let how = match self.status {
            Some(st) => match (st.code(), st.signal()) {
                (Some(c), _) => format!("exited with status {c}"),
                (None, Some(s)) => format!("was killed by signal {} ({s})", signal_name(s)),
                _ => format!("ended ({st})"),
            },
            None => format!("{what} (exit status unknown)"),
        };
        let tail = self.stderr_tail();
        let last_line = tail
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim();
        let last = if last_line.is_empty() {
            String::new()
        } else {
            let s: String = last_line.chars().take(200).collect();
            format!("; stderr: {s}")
        };
        const OOM: [&str; 6] = [
            "MemoryError",
            "std::bad_alloc",
            "Cannot allocate memory",
            "out of memory",
            "OutOfMemoryError",
            "memory allocation of",
        ];
        let abnormal = self.status.map(|s| !s.success()).unwrap_or(true);
        if self.sandboxed && abnormal && OOM.iter().any(|m| tail.contains(m)) {
            return Failure {
                outcome: Outcome::MemoryLimit,
                detail: format!(
                    "{how} after failing to allocate memory (limit {} MiB){last}",
                    self.limits.memory_mb
                ),
            };
        }
        if tail.contains("bwrap: execvp") {
            return Failure {
                outcome: Outcome::SpawnFailed,
                detail: format!("the sandbox could not start the program{last}"),
            };
        }
        Failure {
            outcome: Outcome::Crash,
            detail: format!("the agent {how}{last}"),
        }
    }

    /// Give the agent up to `wait` to exit by itself (after its stdin was
    /// closed), then [`stop`](Self::stop) it.
    pub fn finish(&mut self, wait: Duration) {
        self.close_stdin();
        if self.status.is_none() && !self.stopped {
            let rt = runtime();
            let child = &mut self.child;
            if let Ok(Ok(st)) =
                rt.block_on(async { tokio::time::timeout(wait, child.wait()).await })
            {
                self.status = Some(st);
            }
        }
        self.stop();
    }

    /// Stop the whole process group: SIGTERM, up to the grace period for
    /// it to go, SIGKILL; reap the process; wait briefly for the stderr
    /// logger; then kill and count any survivor, and give the logger up to
    /// 2 s more if it had not finished. Idempotent.
    pub fn stop(&mut self) {
        if self.stopped {
            return;
        }
        self.stopped = true;
        self.stdin = None;
        let rt = runtime();
        if let Some(pg) = self.pgid {
            let _ = kill_process_group(pg, Signal::Term);
            let until = Instant::now() + self.limits.grace;
            // Wait for the leader, then for the rest of the group, within the grace.
            if self.status.is_none() {
                let child = &mut self.child;
                if let Ok(Ok(st)) =
                    rt.block_on(async { tokio::time::timeout_at(until.into(), child.wait()).await })
                {
                    self.status = Some(st);
                }
            }
            while Instant::now() < until && !group_members(pg.as_raw_nonzero().get()).is_empty() {
                std::thread::sleep(Duration::from_millis(2));
            }
            let _ = kill_process_group(pg, Signal::Kill);
        } else {
            let _ = rt.block_on(async { self.child.start_kill() });
        }
        if self.status.is_none() {
            let child = &mut self.child;
            if let Ok(Ok(st)) = rt.block_on(async {
                tokio::time::timeout(Duration::from_secs(5), child.wait()).await
            }) {
                self.status = Some(st);
            }
        }
        // The stderr logger ends at end of file, once every process that
        // holds the pipe is gone: give it 200 ms, and if a survivor (or a
        // busy machine) kept it from finishing, up to 2 s more once the
        // survivors are killed, so that the last lines an agent wrote
        // before it crashed are in its failure detail whatever the load.
        let mut logger = self.stderr_task.take();
        if let Some(task) = logger.as_mut() {
            let waited =
                rt.block_on(async { tokio::time::timeout(Duration::from_millis(200), task).await });
            if waited.is_ok() {
                logger = None;
            }
        }
        self.leaked = self.kill_survivors();
        if let Some(task) = logger {
            let _ = rt.block_on(async { tokio::time::timeout(Duration::from_secs(2), task).await });
        }
        if self.leaked > 0 {
            let msg = format!(
                "[arena] {} process(es) of this agent survived the group kill and were killed",
                self.leaked
            );
            if let Some(p) = &self.log {
                if let Ok(mut f) = std::fs::OpenOptions::new().append(true).open(p) {
                    let _ = writeln!(f, "\n{msg}");
                }
            }
            eprintln!("warning: {msg}");
        }
    }

    /// Kill what is left of the agent (its tree, see
    /// [`containment::kill_tree`]) and return how many processes were
    /// found alive. Members of the group that were SIGKILLed by
    /// [`stop`](Self::stop) are first given up to 100 ms to die, so only
    /// real survivors count.
    fn kill_survivors(&self) -> usize {
        let pg = self.pgid.map(|p| p.as_raw_nonzero().get());
        if let Some(g) = pg {
            let until = Instant::now() + Duration::from_millis(100);
            while Instant::now() < until && !group_members(g).is_empty() {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        containment::kill_tree(self.registered).len()
    }
}

impl Drop for AgentProcess {
    fn drop(&mut self) {
        self.stop();
    }
}

fn signal_name(s: i32) -> &'static str {
    match s {
        1 => "SIGHUP",
        2 => "SIGINT",
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        24 => "SIGXCPU",
        25 => "SIGXFSZ",
        _ => "signal",
    }
}
