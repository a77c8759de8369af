//! One idiom for the enums a config names by a word (`format`, `order`,
//! `sandbox`, `protocol`, `botzone_mode`, an SPRT's `model`; `clock` and
//! `on_overrun` are the time rules'): each has
//!
//! - `ALL`, every value in the order error messages list them;
//! - `as_str`, its name in configs (lower case, words joined by `-`);
//! - `FromStr` with [`UnknownName`] as the error, through [`parse`], so
//!   that every bad name is reported the same way: `"x": expected "a",
//!   "b" or "c"` (the caller puts the key and the position in front);
//! - serde under the same names (`rename_all = "kebab-case"`), where the
//!   enum is plain (not [`crate::play::schedule::Format`], whose gauntlet carries
//!   its number of seeds).
//!
//! The tests below check, for each, that the three agree.

/// A name that is none of an enum's values.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("\"{value}\": expected {expected}")]
pub struct UnknownName {
    /// The name given.
    pub value: String,
    /// The valid names, as [`list`] writes them.
    pub expected: String,
}

/// The value of `all` whose name (`as_str`) is `s`.
pub fn parse<T: Copy>(all: &[T], as_str: fn(T) -> &'static str, s: &str) -> Result<T, UnknownName> {
    all.iter()
        .copied()
        .find(|&v| as_str(v) == s)
        .ok_or_else(|| UnknownName {
            value: s.to_string(),
            expected: list(all.iter().map(|&v| as_str(v))),
        })
}

/// `"a", "b" or "c"`: names for an error message.
pub fn list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let names: Vec<String> = names.into_iter().map(|n| format!("\"{n}\"")).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::external::{BotzoneMode, ProtocolKind, Sandbox};
    use crate::play::schedule::{Format, Order};
    use crate::stats::SprtModel;
    use std::fmt::Debug;
    use std::str::FromStr;

    /// `ALL`, `as_str`, `FromStr` and (when `serde`) serde agree, and a bad
    /// name lists every valid one.
    fn agree<T>(all: &[T], as_str: fn(T) -> &'static str, serde: bool)
    where
        T: Copy + PartialEq + Debug + FromStr<Err = UnknownName>,
        T: serde::Serialize + serde::de::DeserializeOwned,
    {
        assert!(!all.is_empty());
        for &v in all {
            let name = as_str(v);
            assert_eq!(name.parse::<T>(), Ok(v));
            assert!(
                name.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{name}"
            );
            if serde {
                assert_eq!(serde_json::to_value(v).unwrap(), name);
                assert_eq!(serde_json::from_value::<T>(name.into()).unwrap(), v);
            }
        }
        let e = "Nope".parse::<T>().unwrap_err();
        assert_eq!(e.value, "Nope");
        assert_eq!(e.expected, list(all.iter().map(|&v| as_str(v))));
        assert!(e.to_string().starts_with("\"Nope\": expected \""), "{e}");
    }

    #[test]
    fn every_config_enum_follows_the_idiom() {
        agree(Sandbox::ALL, Sandbox::as_str, true);
        agree(ProtocolKind::ALL, ProtocolKind::as_str, true);
        agree(BotzoneMode::ALL, BotzoneMode::as_str, true);
        agree(Order::ALL, Order::as_str, true);
        agree(SprtModel::ALL, SprtModel::as_str, true);
        for &f in Format::ALL {
            assert_eq!(f.as_str().parse::<Format>(), Ok(f));
        }
        assert!("versus".parse::<Format>().is_err(), "not a config value");
    }

    #[test]
    fn lists_read_as_a_sentence() {
        assert_eq!(list([]), "");
        assert_eq!(list(["a"]), "\"a\"");
        assert_eq!(list(["a", "b", "c"]), "\"a\", \"b\" or \"c\"");
        assert_eq!(
            Sandbox::from_str("x").unwrap_err().to_string(),
            "\"x\": expected \"none\", \"rlimit\" or \"bwrap\""
        );
    }
}
