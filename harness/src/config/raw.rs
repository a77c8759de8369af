//! The config file as written: serde structs that refuse unknown keys,
//! durations in human form, and where in the text an error is.

use crate::error::HarnessError;
use serde::de::{self, Deserializer};
use serde::Deserialize;
use std::path::Path;
use std::time::Duration;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawConfig {
    pub(super) name: Option<String>,
    pub(super) game: toml::Spanned<String>,
    pub(super) format: Option<toml::Spanned<String>>,
    pub(super) gauntlet_seeds: Option<toml::Spanned<i64>>,
    pub(super) sprt: Option<toml::Spanned<crate::stats::SprtConfig>>,
    pub(super) pairs: Option<bool>,
    pub(super) openings: Option<toml::Spanned<String>>,
    pub(super) order: Option<toml::Spanned<String>>,
    pub(super) levels: Option<Vec<LevelEntry>>,
    pub(super) repetitions: Option<i64>,
    pub(super) seed: Option<u64>,
    pub(super) concurrency: Option<i64>,
    pub(super) max_steps: Option<i64>,
    pub(super) time: Option<RawTime>,
    pub(super) sandbox: Option<String>,
    pub(super) replays: Option<bool>,
    pub(super) agents: Vec<RawAgent>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum LevelEntry {
    Name(String),
    Index(i64),
}

#[derive(Debug, Default, Deserialize, Clone)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTime {
    #[serde(default, deserialize_with = "opt_duration")]
    pub(super) act: Option<Duration>,
    #[serde(default, deserialize_with = "opt_duration")]
    pub(super) act_hard: Option<Duration>,
    #[serde(default, deserialize_with = "opt_duration")]
    pub(super) init: Option<Duration>,
    #[serde(default, deserialize_with = "opt_duration")]
    pub(super) init_hard: Option<Duration>,
    pub(super) clock: Option<String>,
    pub(super) on_overrun: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawAgent {
    pub(super) agent: Option<toml::Spanned<String>>,
    pub(super) command: Option<Vec<String>>,
    pub(super) protocol: Option<toml::Spanned<String>>,
    pub(super) workdir: Option<String>,
    pub(super) sandbox: Option<String>,
    pub(super) memory_mb: Option<u64>,
    pub(super) cpu_seconds: Option<u64>,
    pub(super) max_processes: Option<u64>,
    pub(super) max_file_mb: Option<u64>,
    pub(super) max_line_kb: Option<u64>,
    pub(super) max_output_kb: Option<u64>,
    pub(super) max_stderr_kb: Option<u64>,
    #[serde(default, deserialize_with = "opt_duration")]
    pub(super) grace: Option<Duration>,
    pub(super) options: Option<toml::Spanned<toml::Table>>,
    pub(super) fen_letters: Option<toml::Spanned<String>>,
    pub(super) movetime_margin: Option<toml::Spanned<toml::Value>>,
    pub(super) botzone_mode: Option<String>,
    pub(super) env: Option<toml::Table>,
    pub(super) name: Option<String>,
    pub(super) params: Option<toml::Table>,
    pub(super) time: Option<RawTime>,
}

/// A duration given as a string (`"40ms"`, `"1.5s"`) or as a number of milliseconds.
pub(super) fn opt_duration<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Duration>, D::Error> {
    struct V;
    impl<'de> de::Visitor<'de> for V {
        type Value = Option<Duration>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a duration such as \"40ms\" or \"1s\", or a number of milliseconds")
        }
        fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
            // A bare number means milliseconds, as an integer does.
            if let Ok(v) = s.trim().parse::<u64>() {
                return Ok(Some(Duration::from_millis(v)));
            }
            crate::timing::parse_duration(s)
                .map(Some)
                .map_err(E::custom)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            if v < 0 {
                Err(E::custom(format!(
                    "{v} ms is negative; expected a duration of 0 ms or more"
                )))
            } else {
                Ok(Some(Duration::from_millis(v as u64)))
            }
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(Duration::from_millis(v)))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            if v < 0.0 || !v.is_finite() {
                Err(E::custom(format!(
                    "{v} ms is not a duration of 0 ms or more"
                )))
            } else {
                Ok(Some(Duration::from_secs_f64(v / 1000.0)))
            }
        }
    }
    d.deserialize_any(V)
}

pub(super) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}

pub(super) fn cfg_err(path: &Path, msg: impl std::fmt::Display) -> HarnessError {
    HarnessError::Config(format!("{}: {msg}", path.display()))
}

/// A config's text and where it came from, for errors that name a line.
pub(super) struct Source<'a> {
    pub(super) text: &'a str,
    pub(super) path: &'a Path,
    pub(super) base_dir: &'a Path,
}

impl Source<'_> {
    /// An error at byte `offset` of the text: `file:line:column: msg`.
    pub(super) fn err_at(&self, offset: usize, msg: impl std::fmt::Display) -> HarnessError {
        let (l, c) = line_col(self.text, offset);
        HarnessError::Config(format!("{}:{l}:{c}: {msg}", self.path.display()))
    }
}
