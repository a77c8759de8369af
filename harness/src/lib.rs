//! The arena harness: it owns time, processes, concurrency, files and
//! reports. Game rules live in crate `games`, built-in agents in crate
//! `agents`; this crate turns a TOML config into episodes, plays them under
//! GVGAI-style time limits, and writes CSV tables.
//!
//! Agent misbehaviour (timeouts, crashes, illegal moves) is an outcome in a
//! result row, never an `Err`: errors here are harness faults and bad input.
//!
//! A run from config text to tables, as `arena run` does it:
//!
//! ```
//! use harness::registry;
//! use harness::run::{run_config, ProgressMode};
//!
//! let text = r#"
//! name = "doc"
//! game = "connect4"
//! levels = ["start"]
//! repetitions = 2
//! seed = 1
//!
//! [[agents]]
//! agent = "random"
//!
//! [[agents]]
//! agent = "uct"
//! params = { iterations = 50 }
//! "#;
//! let dir = tempfile::tempdir()?;
//! // A run keeps a copy of its config beside its tables: it reads the file.
//! let path = dir.path().join("doc.toml");
//! std::fs::write(&path, text)?;
//! let cfg = registry::load_config(&path)?;
//! let out = run_config(&cfg, &dir.path().join("out"), ProgressMode::Silent)?;
//! assert!(out.complete);
//! // Two agents, one pairing, both seatings, two repetitions: four games,
//! // a row per seat.
//! assert_eq!(out.rows.len(), 8);
//! assert!(out.dir.join("episodes.csv").exists());
//! assert!(out.dir.join("report.html").exists());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod cli;
pub mod config;
pub mod digest;
pub mod error;
pub mod external;
#[doc(hidden)]
pub mod fuzzing;
pub mod grade;
pub mod names;
pub mod output;
pub mod play;
pub mod registry;
pub mod run;
pub mod slurm;
pub mod stats;
pub mod tty;
pub mod view;

pub use error::{exit, HarnessError};
