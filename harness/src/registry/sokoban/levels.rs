//! Sokoban level specs: `microban:N`, `FILE`, `FILE:N` (see the parent
//! module's docs), resolved to levels for games, `solve` and `bench`.

use crate::error::HarnessError;
use games::sokoban::{parse_collection, parse_levels, Entry, Level, LevelError, MICROBAN};
use std::path::Path;
use std::sync::OnceLock;

/// Microban, parsed once.
pub(super) fn microban() -> &'static [Level] {
    static LEVELS: OnceLock<Vec<Level>> = OnceLock::new();
    LEVELS.get_or_init(|| parse_levels(MICROBAN).expect("the shipped Microban parses"))
}

pub(super) fn level_error(path: &str, e: LevelError) -> HarnessError {
    HarnessError::Level {
        path: path.to_string(),
        source: e.into(),
    }
}

/// Every level of a file, with its notes.
pub(super) fn read_entries(path: &str) -> Result<Vec<Entry>, HarnessError> {
    let text = crate::error::read_text(Path::new(path))?;
    parse_collection(&text).map_err(|e| level_error(path, e))
}

/// A level and the name it goes by in messages and tables.
#[derive(Clone, Debug)]
pub struct NamedLevel {
    /// `microban:12`, `FILE:3`, or `FILE` for a file's only level.
    pub label: String,
    /// The level.
    pub level: Level,
}

/// Resolve a level spec to levels: `microban:N` and `FILE:N` give one
/// level; `FILE` gives the first level of the file, or every level when
/// `all` is set; `microban` (only with `all`) gives the whole set.
pub fn resolve(spec: &str, all: bool) -> Result<Vec<NamedLevel>, HarnessError> {
    let named = |label: String, level: &Level| NamedLevel {
        label,
        level: level.clone(),
    };
    if let Some(n) = spec.strip_prefix("microban:") {
        let set = microban();
        return match n
            .parse::<usize>()
            .ok()
            .filter(|&i| (1..=set.len()).contains(&i))
        {
            Some(i) => Ok(vec![named(spec.to_string(), &set[i - 1])]),
            None => Err(HarnessError::BadLevel(format!(
                "sokoban level `{spec}`: Microban has levels microban:1 to microban:{}",
                set.len()
            ))),
        };
    }
    if spec == "microban" && all && !Path::new(spec).exists() {
        return Ok(microban()
            .iter()
            .map(|l| named(format!("microban:{}", l.index + 1), l))
            .collect());
    }
    if Path::new(spec).is_file() {
        let entries = read_entries(spec)?;
        let many = entries.len() > 1;
        let take = if all { entries.len() } else { 1 };
        return Ok(entries
            .into_iter()
            .take(take)
            .map(|e| NamedLevel {
                label: if many {
                    format!("{spec}:{}", e.level.index)
                } else {
                    spec.to_string()
                },
                level: e.level,
            })
            .collect());
    }
    if let Some((file, n)) = spec.rsplit_once(':') {
        if let (Ok(i), true) = (n.parse::<usize>(), Path::new(file).is_file()) {
            let entries = read_entries(file)?;
            let count = entries.len();
            return match entries.into_iter().nth(i) {
                Some(e) => Ok(vec![NamedLevel {
                    label: spec.to_string(),
                    level: e.level,
                }]),
                None => Err(HarnessError::BadLevel(format!(
                    "sokoban level `{spec}`: {file} has {count} level(s), numbered from 0"
                ))),
            };
        }
    }
    Err(HarnessError::BadLevel(format!(
        "sokoban level `{spec}` is neither a Microban level (microban:1 to microban:{}) nor a readable FILE or FILE:N (N from 0)",
        microban().len()
    )))
}

