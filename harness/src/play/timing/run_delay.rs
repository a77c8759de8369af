//! Run delay: the time a thread was *runnable but not running*, waiting for
//! a CPU, which Linux keeps per thread (the second number of
//! `/proc/<pid>/task/<tid>/schedstat`, nanoseconds).
//!
//! Under the wall clock, an act past its budget is forgiven the time the
//! machine's load took from it (see [`crate::play::judge::excused`]). The harness's
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

/// Whether a thread, by its `stat` text, runs at the normal priority: the
/// normal scheduling policy and a nice value of at most 0. A thread that
/// lowered its own priority (nice above 0, or the batch or idle policy)
/// waits for a CPU whenever anything else runs, whatever it does; its
/// waits are not the machine's load on the agent's work, and would let a
/// sleeping agent earn forgiveness with an idle helper that costs it
/// almost no CPU time.
pub(crate) fn at_normal_priority(stat: &str) -> bool {
    // The fields after the command name (which may hold spaces and
    // parentheses): state is the 3rd field, nice the 19th, policy the 41st.
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return false;
    };
    let fields: Vec<&str> = rest.split_ascii_whitespace().collect();
    let field = |n: usize| fields.get(n - 3).and_then(|v| v.parse::<i64>().ok());
    matches!((field(19), field(41)), (Some(nice), Some(0)) if nice <= 0)
}

/// Whether a thread, by its `stat` text, is running or ready to run
/// (state `R`), not sleeping, blocked or stopped.
pub(crate) fn is_runnable(stat: &str) -> bool {
    stat.rsplit_once(')')
        .and_then(|(_, rest)| rest.split_ascii_whitespace().next())
        == Some("R")
}

/// What the scheduler says of a process tree now (see [`of_tree_now`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeSched {
    /// The run delay so far of its threads at the normal priority.
    pub waited: Duration,
    /// Whether any of its threads is running or ready to run.
    pub runnable: bool,
}

/// The run delay so far of every thread of process `root` and of its
/// descendants alive now (found through each thread's `children` list; a
/// process that already exited no longer counts), of the threads at the
/// normal priority (`at_normal_priority`). `None` when nothing can be
/// read, or no `children` list (a kernel without them would hide the
/// descendants, where a sandboxed agent computes).
pub fn of_tree(root: i32) -> Option<Duration> {
    of_tree_now(root).map(|t| t.waited)
}

/// [`of_tree`]'s run delay, and whether any thread of the tree is
/// runnable now (at any priority), from the same reads.
pub fn of_tree_now(root: i32) -> Option<TreeSched> {
    if root <= 0 {
        return None;
    }
    let mut total = Duration::ZERO;
    let (mut any, mut lists, mut runnable) = (false, false, false);
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
            let stat = std::fs::read_to_string(dir.join("stat")).unwrap_or_default();
            let normal = at_normal_priority(&stat);
            runnable |= is_runnable(&stat);
            if let Some(d) = std::fs::read_to_string(dir.join("schedstat"))
                .ok()
                .and_then(|s| parse(&s))
            {
                total += if normal { d } else { Duration::ZERO };
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
    (any && lists).then_some(TreeSched {
        waited: total,
        runnable,
    })
}

/// The CPU pressure stall time of a cgroup so far: the `total` of the
/// `some` line of its `cpu.pressure` (microseconds), the wall time during
/// which at least one of its tasks was ready to run but waiting for a CPU.
/// Unlike the run delay of a process tree read through `/proc`
/// ([`of_tree_now`]), it keeps the waits of processes that already exited
/// (a wrapper script's short-lived children) and counts a wait still in
/// progress. `None` without pressure accounting (a kernel without PSI, or
/// `psi=0`).
pub fn of_cgroup(dir: &std::path::Path) -> Option<Duration> {
    parse_pressure(&std::fs::read_to_string(dir.join("cpu.pressure")).ok()?)
}

/// The `total=` of the `some` line of a pressure text.
pub(crate) fn parse_pressure(text: &str) -> Option<Duration> {
    let some = text.lines().find(|l| l.starts_with("some "))?;
    let us: u64 = some
        .split_ascii_whitespace()
        .find_map(|f| f.strip_prefix("total="))?
        .parse()
        .ok()?;
    Some(Duration::from_micros(us))
}

/// A thread of this process, by its thread id, as the scheduler has it
/// now: its CPU time so far (the first number of its `schedstat`), its run
/// delay so far, and whether it is runnable. `None` when it cannot be
/// read (the thread ended, or no `schedstat`).
pub fn of_own_thread(tid: i32) -> Option<(Duration, TreeSched)> {
    let dir = format!("/proc/self/task/{tid}");
    let sched = std::fs::read_to_string(format!("{dir}/schedstat")).ok()?;
    let ran: u64 = sched.split_ascii_whitespace().next()?.parse().ok()?;
    let waited = parse(&sched)?;
    let stat = std::fs::read_to_string(format!("{dir}/stat")).unwrap_or_default();
    Some((
        Duration::from_nanos(ran),
        TreeSched {
            waited,
            runnable: is_runnable(&stat),
        },
    ))
}

/// The calling thread's id.
pub fn this_thread_id() -> i32 {
    rustix::thread::gettid().as_raw_nonzero().get()
}

/// The thread id of the supervisor of external agents (the thread that
/// reads their output), once it has started.
static SUPERVISOR: AtomicI32 = AtomicI32::new(0);

/// Note the calling thread as the supervisor (called as it starts).
pub fn note_supervisor_thread() {
    SUPERVISOR.store(this_thread_id(), Ordering::Relaxed);
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
    fn only_threads_at_the_normal_priority_count() {
        let stat = |nice: i32, policy: u32| {
            let mut f: Vec<String> = (3..=52).map(|_| "0".to_string()).collect();
            f[0] = "R".into();
            f[19 - 3] = nice.to_string();
            f[41 - 3] = policy.to_string();
            format!("4242 (a (b) c) {}", f.join(" "))
        };
        assert!(at_normal_priority(&stat(0, 0)));
        assert!(at_normal_priority(&stat(-5, 0)));
        assert!(!at_normal_priority(&stat(19, 0)), "nice 19");
        assert!(!at_normal_priority(&stat(0, 3)), "SCHED_BATCH");
        assert!(!at_normal_priority(&stat(0, 5)), "SCHED_IDLE");
        assert!(!at_normal_priority("4242 (x) R 1 2"), "cut short");
        let own = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
        assert!(at_normal_priority(&own), "{own}");
    }

    #[test]
    fn the_total_of_the_some_line_is_the_cpu_pressure_stall() {
        let text = "some avg10=0.00 avg60=11.73 avg300=20.10 total=14858681\n\
                    full avg10=0.00 avg60=0.00 avg300=0.00 total=7\n";
        assert_eq!(
            parse_pressure(text),
            Some(Duration::from_micros(14_858_681))
        );
        assert_eq!(parse_pressure("full avg10=0.00 total=7\n"), None);
        assert_eq!(parse_pressure("some avg10=0.00\n"), None);
        assert_eq!(parse_pressure(""), None);
    }

    #[test]
    fn the_second_number_of_schedstat_is_the_run_delay() {
        assert_eq!(
            parse("963620624 1034418584 259\n"),
            Some(Duration::from_nanos(1_034_418_584))
        );
        assert_eq!(parse("12"), None);
        assert_eq!(parse(""), None);
    }

    /// `root` and its descendants alive now (through `children` lists).
    fn tree_of(root: i32) -> Vec<i32> {
        let (mut all, mut todo) = (Vec::new(), vec![root]);
        while let Some(pid) = todo.pop() {
            all.push(pid);
            let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
                continue;
            };
            for t in tasks.filter_map(|e| e.ok()) {
                if let Ok(kids) = std::fs::read_to_string(t.path().join("children")) {
                    todo.extend(
                        kids.split_ascii_whitespace()
                            .filter_map(|k| k.parse::<i32>().ok()),
                    );
                }
            }
        }
        all
    }

    /// Trees of processes (killed at the end, process by process): two
    /// busy loops pinned to one CPU under a shell under a shell (each waits
    /// for the other); two more on that CPU at nice 19 (they wait for
    /// everything else there, but lowered their own priority); and a
    /// sleeping tree. They stay in the test's process group: a child of
    /// this process in a group of its own would be taken for an agent's
    /// orphan, and killed, by any test in this binary that stops an agent.
    #[test]
    fn a_tree_that_competes_for_a_cpu_is_delayed_and_a_sleeping_one_is_not() {
        use rustix::process::{kill_process, Pid, Signal};
        let busy = "while :; do :; done";
        let pair = |wrap: &str| format!("{wrap} sh -c '{busy}' & {wrap} sh -c '{busy}' & wait");
        let start = |script: &str| {
            Command::new("sh")
                .args(["-c", script])
                .stdout(Stdio::null())
                .spawn()
                .expect("sh starts")
        };
        let mut trees = [
            start(&format!("sh -c \"{}\"; :", pair("taskset -c 0"))),
            start(&format!("sh -c \"{}\"; :", pair("taskset -c 0 nice -n 19"))),
            start("sh -c 'sleep 5'; :"),
        ];
        let read =
            |trees: &[std::process::Child; 3]| trees.each_ref().map(|c| of_tree(c.id() as i32));
        let t0 = Instant::now();
        std::thread::sleep(Duration::from_millis(100));
        let before = read(&trees);
        std::thread::sleep(Duration::from_millis(600));
        let after = read(&trees);
        let window = t0.elapsed();
        for child in &mut trees {
            // The busy loops do not fork: the tree read once is all of it.
            for pid in tree_of(child.id() as i32) {
                if let Some(p) = Pid::from_raw(pid) {
                    let _ = kill_process(p, Signal::Kill);
                }
            }
            let _ = child.wait();
        }
        let [spun, niced, napped] = [0, 1, 2].map(|i| {
            let (a, b) = (
                before[i].unwrap_or_else(|| panic!("tree {i} before")),
                after[i].unwrap_or_else(|| panic!("tree {i} after")),
            );
            b.saturating_sub(a)
        });
        // Two loops sharing one CPU for 600 ms: each waits about half of
        // it, 600 ms between them (less whatever else ran on that CPU).
        assert!(
            spun >= Duration::from_millis(200) && spun <= 2 * window,
            "busy tree delayed {spun:?}"
        );
        assert!(
            niced < Duration::from_millis(50),
            "niced tree counted {niced:?}"
        );
        assert!(
            napped < Duration::from_millis(50),
            "sleeping tree delayed {napped:?}"
        );
    }
}
