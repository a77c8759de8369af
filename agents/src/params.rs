//! Agent registry vocabulary: names, descriptions, parameters, errors.

use std::collections::BTreeMap;
use std::fmt;

/// A built-in agent's name, a one-line description and its parameters (for
/// `arena list`). The listed parameters are the ones its registry's `make`
/// accepts: [`check_listed`] checks given parameters against them.
#[derive(Clone, Copy, Debug)]
pub struct AgentInfo {
    /// The name used in configs and on the command line.
    pub name: &'static str,
    /// One line saying what the agent does.
    pub description: &'static str,
    /// The parameters it accepts, one entry per key.
    pub params: &'static [ParamInfo],
}

impl AgentInfo {
    /// The keys of its parameters, in listed order.
    pub fn keys(&self) -> Vec<&'static str> {
        self.params.iter().map(|p| p.key).collect()
    }

    /// The listed parameter `key`, if any.
    pub fn param(&self, key: &str) -> Option<&'static ParamInfo> {
        self.params.iter().find(|p| p.key == key)
    }

    /// Fail with [`AgentError::UnknownParam`] if `params` has a key this
    /// agent does not list.
    pub fn check(&self, params: &AgentParams) -> Result<(), AgentError> {
        params.check_keys(self.name, &self.keys())
    }
}

/// One parameter of a built-in agent: its key, its default as
/// `--param key=value` writes it (read with [`ParamValue::parse`]) and what
/// it means. Displayed as `key: meaning (default D)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamInfo {
    /// The key, as in `--param key=value` and in a config's `params`.
    pub key: &'static str,
    /// The value the agent uses when the parameter is not given, written
    /// as on the command line (`3`, `0.5`, `true`, `pushes`).
    pub default: &'static str,
    /// What it means, with any notes on special values.
    pub meaning: &'static str,
}

impl ParamInfo {
    /// Parameter `key` with default `default`, meaning `meaning`.
    pub const fn new(key: &'static str, default: &'static str, meaning: &'static str) -> Self {
        ParamInfo {
            key,
            default,
            meaning,
        }
    }

    /// The default as a value, read as `--param key=value` reads it.
    pub fn default_value(&self) -> ParamValue {
        ParamValue::parse(self.default)
    }
}

impl fmt::Display for ParamInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} (default {})",
            self.key, self.meaning, self.default
        )
    }
}

/// One parameter value from a config file or the command line.
#[derive(Clone, Debug, PartialEq)]
pub enum ParamValue {
    /// An integer.
    Int(i64),
    /// A floating-point number.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// A string.
    Str(String),
}

impl ParamValue {
    /// A value as the command line writes it (`--param key=value`): an
    /// integer, else a number, else `true` or `false`, else a string.
    pub fn parse(v: &str) -> ParamValue {
        if let Ok(i) = v.parse::<i64>() {
            ParamValue::Int(i)
        } else if let Ok(f) = v.parse::<f64>() {
            ParamValue::Float(f)
        } else if v == "true" || v == "false" {
            ParamValue::Bool(v == "true")
        } else {
            ParamValue::Str(v.to_string())
        }
    }
}

impl fmt::Display for ParamValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamValue::Int(v) => write!(f, "{v}"),
            ParamValue::Float(v) => write!(f, "{v}"),
            ParamValue::Bool(v) => write!(f, "{v}"),
            ParamValue::Str(v) => write!(f, "{v:?}"),
        }
    }
}

/// Errors building an agent from a name and parameters.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum AgentError {
    /// No agent of that name exists for the game.
    #[error("unknown agent `{name}` for {game}; valid agents: {valid}")]
    UnknownAgent {
        /// The game.
        game: &'static str,
        /// The name asked for.
        name: String,
        /// Comma-separated valid names.
        valid: String,
    },
    /// A parameter the agent does not take.
    #[error("agent `{agent}` has no parameter `{key}`; valid parameters: {valid}")]
    UnknownParam {
        /// The agent.
        agent: String,
        /// The key given.
        key: String,
        /// Comma-separated valid keys.
        valid: String,
    },
    /// A parameter of the wrong type or out of range.
    #[error("agent `{agent}` parameter `{key}`: expected {expected}, got {got}")]
    BadParam {
        /// The agent.
        agent: String,
        /// The key.
        key: String,
        /// What was expected.
        expected: String,
        /// What was given.
        got: String,
    },
}

/// Parameters of one agent: key → value, read with typed getters that record
/// which keys were used so that unknown keys can be reported.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AgentParams {
    values: BTreeMap<String, ParamValue>,
}

impl AgentParams {
    /// No parameters.
    pub fn new() -> Self {
        Self::default()
    }

    /// Set `key` to `value` (builder style).
    pub fn with(mut self, key: &str, value: ParamValue) -> Self {
        self.values.insert(key.to_string(), value);
        self
    }

    /// Set `key` to `value`.
    pub fn insert(&mut self, key: &str, value: ParamValue) {
        self.values.insert(key.to_string(), value);
    }

    /// Whether no parameter is set.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// All keys and values.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &ParamValue)> {
        self.values.iter()
    }

    /// Fail with [`AgentError::UnknownParam`] if any key is not in `allowed`.
    pub fn check_keys(&self, agent: &str, allowed: &[&str]) -> Result<(), AgentError> {
        for key in self.values.keys() {
            if !allowed.contains(&key.as_str()) {
                return Err(AgentError::UnknownParam {
                    agent: agent.to_string(),
                    key: key.clone(),
                    valid: if allowed.is_empty() {
                        "(none)".to_string()
                    } else {
                        allowed.join(", ")
                    },
                });
            }
        }
        Ok(())
    }

    fn bad(agent: &str, key: &str, expected: &str, got: &ParamValue) -> AgentError {
        AgentError::BadParam {
            agent: agent.to_string(),
            key: key.to_string(),
            expected: expected.to_string(),
            got: got.to_string(),
        }
    }

    /// A float parameter (integers are accepted), or `default`.
    pub fn f64(&self, agent: &str, key: &str, default: f64) -> Result<f64, AgentError> {
        match self.values.get(key) {
            None => Ok(default),
            Some(ParamValue::Float(v)) => Ok(*v),
            Some(ParamValue::Int(v)) => Ok(*v as f64),
            Some(other) => Err(Self::bad(agent, key, "a number", other)),
        }
    }

    /// A non-negative integer parameter, or `default`.
    pub fn u64(&self, agent: &str, key: &str, default: u64) -> Result<u64, AgentError> {
        match self.values.get(key) {
            None => Ok(default),
            Some(ParamValue::Int(v)) if *v >= 0 => Ok(*v as u64),
            Some(other) => Err(Self::bad(agent, key, "a non-negative integer", other)),
        }
    }

    /// A boolean parameter, or `default`.
    pub fn bool(&self, agent: &str, key: &str, default: bool) -> Result<bool, AgentError> {
        match self.values.get(key) {
            None => Ok(default),
            Some(ParamValue::Bool(v)) => Ok(*v),
            Some(other) => Err(Self::bad(agent, key, "true or false", other)),
        }
    }

    /// A string parameter that must be one of the words of `choices`
    /// (each with its value), or `default`; the error names the words.
    pub fn choice<T: Copy>(
        &self,
        agent: &str,
        key: &str,
        choices: &[(&str, T)],
        default: T,
    ) -> Result<T, AgentError> {
        match self.values.get(key) {
            None => Ok(default),
            Some(ParamValue::Str(v)) => choices
                .iter()
                .find(|(word, _)| word == v)
                .map(|&(_, t)| t)
                .ok_or_else(|| AgentError::BadParam {
                    agent: agent.to_string(),
                    key: key.to_string(),
                    expected: choices
                        .iter()
                        .map(|(word, _)| *word)
                        .collect::<Vec<_>>()
                        .join(" or "),
                    got: format!("{v:?}"),
                }),
            Some(other) => Err(Self::bad(agent, key, "a string", other)),
        }
    }

    /// A string parameter, or `default`.
    pub fn str(&self, agent: &str, key: &str, default: &str) -> Result<String, AgentError> {
        match self.values.get(key) {
            None => Ok(default.to_string()),
            Some(ParamValue::Str(v)) => Ok(v.clone()),
            Some(other) => Err(Self::bad(agent, key, "a string", other)),
        }
    }
}

/// Build the [`AgentError::UnknownAgent`] error for `game` from a registry.
pub fn unknown_agent(game: &'static str, name: &str, list: &[AgentInfo]) -> AgentError {
    AgentError::UnknownAgent {
        game,
        name: name.to_string(),
        valid: list.iter().map(|a| a.name).collect::<Vec<_>>().join(", "),
    }
}

/// Fail unless agent `name` is in registry `list` of `game` (else
/// [`AgentError::UnknownAgent`]) and `params` uses only keys it lists (else
/// [`AgentError::UnknownParam`]): the accepted keys are the listed ones.
pub fn check_listed(
    game: &'static str,
    list: &[AgentInfo],
    name: &str,
    params: &AgentParams,
) -> Result<(), AgentError> {
    match list.iter().find(|a| a.name == name) {
        Some(info) => info.check(params),
        None => Err(unknown_agent(game, name, list)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_are_reported_with_valid_ones() {
        let p = AgentParams::new().with("depht", ParamValue::Int(3));
        let e = p.check_keys("dls", &["depth"]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "agent `dls` has no parameter `depht`; valid parameters: depth"
        );
    }

    #[test]
    fn typed_getters_check_types() {
        let p = AgentParams::new()
            .with("k", ParamValue::Int(2))
            .with("s", ParamValue::Str("x".into()));
        assert_eq!(p.f64("a", "k", 1.0).unwrap(), 2.0);
        assert_eq!(p.u64("a", "missing", 7).unwrap(), 7);
        assert!(p.u64("a", "s", 0).is_err());
        assert!(p.bool("a", "k", false).is_err());
    }

    #[test]
    fn listed_keys_are_the_accepted_ones() {
        const LIST: &[AgentInfo] = &[AgentInfo {
            name: "dls",
            description: "",
            params: &[ParamInfo::new("depth", "15", "deepest iteration")],
        }];
        assert_eq!(
            LIST[0].params[0].to_string(),
            "depth: deepest iteration (default 15)"
        );
        assert_eq!(LIST[0].params[0].default_value(), ParamValue::Int(15));
        let ok = AgentParams::new().with("depth", ParamValue::Int(3));
        assert_eq!(check_listed("bait", LIST, "dls", &ok), Ok(()));
        let bad = AgentParams::new().with("width", ParamValue::Int(3));
        let e = check_listed("bait", LIST, "dls", &bad).unwrap_err();
        assert!(
            matches!(e, AgentError::UnknownParam { ref key, .. } if key == "width"),
            "{e}"
        );
        let e = check_listed("bait", LIST, "dfs", &ok).unwrap_err();
        assert!(matches!(e, AgentError::UnknownAgent { .. }), "{e}");
    }
}
