//! Everything a run leaves behind, computed from the runner's events:
//! `reporters` (the event seam: every output is a `Reporter`; `files`
//! the list of those that write a run's files), `rows`
//! (the tables' row types and the tables they share: episodes, summary,
//! cross-table), `journal` (the line per finished episode that resume and
//! merge read), `meta` (`meta.json`), `identity` (what the agents are),
//! `resume` (continuing a killed run), `fingerprint` (what decides a
//! run's results, which gates resume and merge), `merge` (shards into one
//! folder),
//! `replay` (`replays.jsonl.gz`, `arena replay`), `html` (`report.html`
//! and the replay viewer) and `batch_file` (a file those reporters append
//! to a batch of episodes at a time).

pub mod batch_file;
pub mod files;
pub mod fingerprint;
pub mod html;
pub mod identity;
pub mod journal;
pub mod merge;
pub mod meta;
pub mod replay;
pub mod reporters;
pub mod resume;
pub mod rows;
