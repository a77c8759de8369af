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
    pub(super) forfeit_after_timeouts: Option<i64>,
    pub(super) time: Option<RawTime>,
    pub(super) sandbox: Option<String>,
    pub(super) replays: Option<bool>,
    #[serde(default)]
    pub(super) agents: Vec<RawAgent>,
    /// Only in assignments (`arena grade`): read by [`crate::grade`].
    pub(super) grading: Option<toml::Spanned<toml::Value>>,
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
    #[serde(default, deserialize_with = "opt_duration")]
    pub(super) counted_step: Option<Duration>,
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
    pub(super) search: Option<toml::Spanned<toml::Table>>,
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
            match s.trim().parse::<u64>() {
                Ok(v) => self.visit_u64(v),
                Err(_) => super::duration::parse_duration(s)
                    .map(Some)
                    .map_err(E::custom),
            }
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            if v < 0 {
                Err(E::custom(format!(
                    "{v} ms is negative; expected a duration of 0 ms or more"
                )))
            } else {
                self.visit_u64(v as u64)
            }
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            super::duration::at_most_max(Duration::from_millis(v), &format!("{v} ms"))
                .map(Some)
                .map_err(E::custom)
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
            super::duration::millis(v).map(Some).map_err(E::custom)
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
    /// The text parsed with positions, to find keys for errors.
    pub(super) doc: Option<toml_edit::ImDocument<&'a str>>,
}

impl Source<'_> {
    /// An error about `key` (a path as messages write it, `agents[1].memory_mb`):
    /// `file:line:column: msg` at its value (or the nearest part of the path
    /// written in the file), `file: msg` for a key the file does not set.
    pub(super) fn err_key(&self, key: &str, msg: impl std::fmt::Display) -> HarnessError {
        match self.doc.as_ref().and_then(|d| locate(d.as_table(), key)) {
            Some(at) => self.err_at(at, msg),
            None => cfg_err(self.path, msg),
        }
    }

    /// An error at byte `offset` of the text: `file:line:column: msg`.
    pub(super) fn err_at(&self, offset: usize, msg: impl std::fmt::Display) -> HarnessError {
        let (l, c) = line_col(self.text, offset);
        HarnessError::Config(format!("{}:{l}:{c}: {msg}", self.path.display()))
    }
}

/// One step of a key path: a table key or an array index.
#[derive(Debug, PartialEq)]
enum Step<'k> {
    Key(&'k str),
    Index(usize),
}

/// `agents[1].time.act` → `agents`, `1`, `time`, `act`.
fn key_path(key: &str) -> Vec<Step<'_>> {
    let mut out = Vec::new();
    for part in key.split('.') {
        let (name, mut rest) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if !name.is_empty() {
            out.push(Step::Key(name));
        }
        while let Some(close) = rest.find(']') {
            if let Ok(i) = rest[1..close].parse() {
                out.push(Step::Index(i));
            }
            rest = &rest[close + 1..];
        }
    }
    out
}

/// Where in `doc` the value at `key` (a path as error messages write it,
/// `agents[1].memory_mb`) is: the byte offset of the value (or of the
/// table's header), else of the deepest part of the path that exists.
pub(super) fn locate(doc: &toml_edit::Table, key: &str) -> Option<usize> {
    use toml_edit::{Item, Value};
    #[derive(Clone, Copy)]
    enum Node<'a> {
        Table(&'a toml_edit::Table),
        Inline(&'a toml_edit::InlineTable),
        Tables(&'a toml_edit::ArrayOfTables),
        Array(&'a toml_edit::Array),
        Leaf,
    }
    fn of_item(item: &Item) -> (Node<'_>, Option<usize>) {
        match item {
            Item::Table(t) => (Node::Table(t), t.span().map(|r| r.start)),
            Item::ArrayOfTables(a) => (Node::Tables(a), a.span().map(|r| r.start)),
            Item::Value(v) => of_value(v),
            Item::None => (Node::Leaf, None),
        }
    }
    fn of_value(v: &Value) -> (Node<'_>, Option<usize>) {
        let at = v.span().map(|r| r.start);
        match v {
            Value::InlineTable(t) => (Node::Inline(t), at),
            Value::Array(a) => (Node::Array(a), at),
            _ => (Node::Leaf, at),
        }
    }
    let mut node = Node::Table(doc);
    let mut at = None;
    for step in key_path(key) {
        let next = match (node, step) {
            (Node::Table(t), Step::Key(k)) => t.get_key_value(k).map(|(key, item)| {
                let (n, v) = of_item(item);
                (n, v.or(key.span().map(|r| r.start)))
            }),
            (Node::Inline(t), Step::Key(k)) => t.get_key_value(k).map(|(key, item)| {
                let (n, v) = of_item(item);
                (n, v.or(key.span().map(|r| r.start)))
            }),
            (Node::Tables(a), Step::Index(i)) => a
                .get(i)
                .map(|t| (Node::Table(t), t.span().map(|r| r.start))),
            (Node::Array(a), Step::Index(i)) => a.get(i).map(of_value),
            _ => None,
        };
        let Some((n, here)) = next else { break };
        at = here.or(at);
        node = n;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_located_at_their_values_or_headers() {
        let text = "game = \"bait\"\nlevels = [0, \"9\"]\n[time]\nact = 5\n\
                    [[agents]]\nagent = \"a\"\n\n[[agents]]\nname = \"b\"\noptions = { Hash = 16 }\n";
        let doc = toml_edit::ImDocument::parse(text).unwrap();
        let at = |k: &str| locate(doc.as_table(), k).map(|o| line_col(text, o));
        assert_eq!(at("game"), Some((1, 8)));
        assert_eq!(at("levels[1]"), Some((2, 14)));
        assert_eq!(at("time.act"), Some((4, 7)));
        assert_eq!(at("time"), Some((3, 1)));
        assert_eq!(at("agents[0].agent"), Some((6, 9)));
        assert_eq!(at("agents[1]"), Some((8, 1)));
        assert_eq!(at("agents[1].options.Hash"), Some((10, 20)));
        // The deepest part that exists.
        assert_eq!(at("agents[1].memory_mb"), Some((8, 1)));
        assert_eq!(at("seed"), None);
    }
}
