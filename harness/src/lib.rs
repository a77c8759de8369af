//! The arena harness: it owns time, processes, concurrency, files and
//! reports. Game rules live in crate `games`, built-in agents in crate
//! `agents`; this crate turns a TOML config into episodes, plays them under
//! GVGAI-style time limits, and writes CSV tables.
//!
//! Agent misbehaviour (timeouts, crashes, illegal moves) is an outcome in a
//! result row, never an `Err`: errors here are harness faults and bad input.

pub mod bench_harness;
pub mod cli;
pub mod commands;
pub mod config;
pub mod digest;
pub mod entry;
pub mod error;
pub mod external;
pub mod forfeit;
#[doc(hidden)]
pub mod fuzzing;
pub mod games;
pub mod grade;
pub mod html;
pub mod identity;
pub mod journal;
pub mod merge;
pub mod meta;
pub mod outcome;
pub mod player;
pub mod replay;
pub mod report;
pub mod reporters;
pub mod resume;
pub mod run;
pub mod runner;
pub mod sched_file;
pub mod schedule;
pub mod slurm;
pub mod stats;
pub mod timing;
pub mod view;

pub use error::{exit, HarnessError};
