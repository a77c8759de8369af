//! Supervision of agent processes, whatever protocol they speak:
//! `process` (one process: its group, readers, limits, how it ends),
//! `procfs` (reading a process tree's CPU time and run delay), `containment`
//! (process trees, cgroups, the watchdog), `uids` (leased unprivileged
//! uids), `sandbox` (`rlimit` and `bwrap` command lines and environment),
//! `canary` (a trivial program run in an agent's sandbox first) and
//! `early_stop` (waiting for an answer in slices, stopping early under the
//! CPU clock).

pub mod canary;
pub mod containment;
pub mod early_stop;
pub mod process;
pub mod procfs;
pub mod sandbox;
pub mod uids;
