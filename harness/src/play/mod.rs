//! Playing: from a plan of episodes to finished episode records, under the
//! time rules. `schedule` turns a config into episodes; `runner` plays them
//! (a pool of worker threads, one episode at a time per worker) and reports
//! [`runner::RunnerEvent`]s, which its thread takes in batches (`batched`,
//! also the replay writer's); `episode` plays one episode; `player` is the
//! harness side of an agent (`Contestant`: built-in agents in process, on a
//! worker thread of their own, or on the episode's thread with `direct`,
//! whose deadlines the run's `watchdog` enforces); the time rules are
//! `judge` (the limits and the verdict of one answer, a pure function) and
//! `timing` (the clocks, run delay, steal: what the judge is given;
//! `sched_file` reads a thread's `schedstat` cheaply);
//! `outcome` names how an agent's part ended; `forfeit` is the rule of
//! `forfeit_after_timeouts`. Nothing here writes a file or prints.

pub mod batched;
pub mod direct;
pub mod episode;
pub mod factory;
pub mod forfeit;
pub mod game;
pub mod judge;
pub mod outcome;
pub mod player;
pub mod record;
pub mod runner;
pub mod sched_file;
pub mod schedule;
pub mod timing;
pub mod watchdog;
