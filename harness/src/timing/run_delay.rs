//! Run delay: the time a thread was *runnable but not running*, waiting for
//! a CPU, which Linux keeps per thread (the second number of
//! `/proc/<pid>/task/<tid>/schedstat`, nanoseconds).
//!
//! Under the wall clock, an act past its budget is forgiven the time the
//! machine's load took from it (see `runner::judge`). The harness's
//! latency probe ([`super::starvation`]) says *that* the machine was
//! loaded, not whether the load fell on the agent: an agent that sleeps or
//! blocks is not slowed by load, yet the probe is late all the same. The
//! run delay of the agent's threads (and of the supervisor thread that
//! reads its answer) says how much of the load fell on this act; the judge
//! forgives at most that.

use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

/// The run delay in a `schedstat` text (`run_ns wait_ns slices`): its
/// second number.
pub(crate) fn parse(schedstat: &str) -> Option<Duration> {
    let ns: u64 = schedstat.split_ascii_whitespace().nth(1)?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

fn read(path: &str) -> Option<Duration> {
    parse(&std::fs::read_to_string(path).ok()?)
}

/// The calling thread's run delay so far (`None` where the kernel does not
/// keep it).
pub fn of_this_thread() -> Option<Duration> {
    read("/proc/thread-self/schedstat")
}

/// The run delay so far of every thread of process `root` and of its
/// descendants alive now (found through each thread's `children` list; a
/// process that already exited no longer counts). `None` when nothing can
/// be read, or no `children` list (a kernel without them would hide the
/// descendants, where a sandboxed agent computes).
pub fn of_tree(root: i32) -> Option<Duration> {
    if root <= 0 {
        return None;
    }
    let mut total = Duration::ZERO;
    let (mut any, mut lists) = (false, false);
    let mut todo = vec![root];
    let mut seen = 0usize;
    // A fork bomb's tree is not walked to its end: a few hundred
    // processes are read at most.
    while let Some(pid) = todo.pop() {
        seen += 1;
        if seen > 512 {
            break;
        }
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for t in tasks.filter_map(|e| e.ok()) {
            let dir = t.path();
            if let Some(d) = std::fs::read_to_string(dir.join("schedstat"))
                .ok()
                .and_then(|s| parse(&s))
            {
                total += d;
                any = true;
            }
            if let Ok(kids) = std::fs::read_to_string(dir.join("children")) {
                lists = true;
                todo.extend(
                    kids.split_ascii_whitespace()
                        .filter_map(|k| k.parse::<i32>().ok()),
                );
            }
        }
    }
    (any && lists).then_some(total)
}

/// The thread id of the supervisor of external agents (the thread that
/// reads their output), once it has started.
static SUPERVISOR: AtomicI32 = AtomicI32::new(0);

/// Note the calling thread as the supervisor (called as it starts).
pub fn note_supervisor_thread() {
    SUPERVISOR.store(
        rustix::thread::gettid().as_raw_nonzero().get(),
        Ordering::Relaxed,
    );
}

/// The supervisor thread's run delay so far (zero before it started).
pub fn of_supervisor() -> Duration {
    match SUPERVISOR.load(Ordering::Relaxed) {
        0 => Duration::ZERO,
        tid => read(&format!("/proc/self/task/{tid}/schedstat")).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::{Command, Stdio};
    use std::time::Instant;

    #[test]
    fn the_second_number_of_schedstat_is_the_run_delay() {
        assert_eq!(
            parse("963620624 1034418584 259\n"),
            Some(Duration::from_nanos(1_034_418_584))
        );
        assert_eq!(parse("12"), None);
        assert_eq!(parse(""), None);
    }

    /// A tree of processes: two busy loops pinned to one CPU (each waits
    /// for the other), under a shell, under a shell; and a sleeping tree.
    /// Each in a process group of its own, killed at the end.
    #[test]
    fn a_tree_that_competes_for_a_cpu_is_delayed_and_a_sleeping_one_is_not() {
        use rustix::process::{kill_process_group, Pid, Signal};
        use std::os::unix::process::CommandExt;
        let busy = "while :; do :; done";
        let inner = format!("taskset -c 0 sh -c '{busy}' & taskset -c 0 sh -c '{busy}' & wait");
        let start = |script: &str| {
            Command::new("sh")
                .args(["-c", script])
                .stdout(Stdio::null())
                .process_group(0)
                .spawn()
                .expect("sh starts")
        };
        let mut spin = start(&format!("sh -c \"{inner}\"; :"));
        let mut nap = start("sh -c 'sleep 5'; :");
        let t0 = Instant::now();
        std::thread::sleep(Duration::from_millis(100));
        let (spin0, nap0) = (of_tree(spin.id() as i32), of_tree(nap.id() as i32));
        std::thread::sleep(Duration::from_millis(600));
        let (spin1, nap1) = (of_tree(spin.id() as i32), of_tree(nap.id() as i32));
        let window = t0.elapsed();
        for child in [&mut spin, &mut nap] {
            if let Some(pg) = Pid::from_raw(child.id() as i32) {
                let _ = kill_process_group(pg, Signal::Kill);
            }
            let _ = child.wait();
        }
        let spun = spin1.unwrap().saturating_sub(spin0.unwrap());
        let napped = nap1.unwrap().saturating_sub(nap0.unwrap());
        // Two loops sharing one CPU for 600 ms: each waits about half of
        // it, 600 ms between them (less whatever else ran on that CPU).
        assert!(
            spun >= Duration::from_millis(200) && spun <= 2 * window,
            "busy tree delayed {spun:?}"
        );
        assert!(
            napped < Duration::from_millis(50),
            "sleeping tree delayed {napped:?}"
        );
    }
}
