//! Tournament configs: TOML files parsed strictly (unknown keys are errors
//! that name the key and the valid ones), then resolved and validated against
//! the game's levels and agents before anything runs.
//!
//! See `configs/demo.toml` for a commented example of every key of a run
//! and of a built-in agent (an external agent's: `docs/protocol.md`).

//!
//! - `duration.rs`: durations as configs and the command line write them;
//! - `limits.rs`: an agent's time limits, [`TimeLimits`] (the judge's rules
//!   over them: [`crate::play::judge`]);
//! - `format.rs`: the plan's plain data ([`format::Format`],
//!   [`format::Openings`], [`format::Order`], [`format::Shard`]; the
//!   schedules over them: [`crate::play::schedule`]);
//! - `external.rs`: an external agent's spec ([`external::ExternalSpec`];
//!   running it: [`crate::external`]);
//! - `catalog.rs`: what validation asks of the games, [`GameCatalog`]
//!   (implemented by [`crate::registry::Registry`]);
//! - `raw.rs`: the file as written (serde structs, durations, error positions);
//! - `load.rs`: resolution and validation against a [`GameCatalog`] (the
//!   loaders against the registry: [`crate::registry::load_config`],
//!   [`crate::registry::parse_config`]);
//! - `spec.rs`: the result, [`RunConfig`].

mod catalog;
pub mod duration;
pub mod external;
pub mod format;
mod limits;
mod load;
mod raw;
mod spec;

pub use catalog::{GameCatalog, GameRules};
pub use limits::{Clock, OnOverrun, TimeLimits, COUNTED_STEP};
pub use load::{
    default_concurrency, is_plain_name, key_position, load, parse, parse_assignment, uncountable,
};
pub use spec::{AgentKind, AgentSpec, RunConfig};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::TimeLimits;
    use crate::error::HarnessError;
    use std::path::Path;
    use std::time::Duration;

    fn p(text: &str) -> Result<RunConfig, HarnessError> {
        parse(text, Path::new("test.toml"), &crate::registry::Registry)
    }

    #[test]
    fn minimal_config_gets_gvgai_defaults() {
        let c = p("game = \"bait\"\n[[agents]]\nagent = \"random\"\n").unwrap();
        assert_eq!(c.levels, vec!["0", "1", "2", "3", "4"]);
        assert_eq!(c.time, TimeLimits::default());
        assert_eq!(c.time.act, Duration::from_millis(40));
        assert_eq!(c.name, "test");
        assert_eq!(c.repetitions, 1);
    }

    #[test]
    fn unknown_key_names_key_line_and_valid_keys() {
        let e = p("game = \"bait\"\nrepetition = 3\n[[agents]]\nagent = \"random\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("test.toml:2:1: unknown field `repetition`"),
            "{e}"
        );
        assert!(e.contains("repetitions"), "{e}");
        assert!(!e.contains('\n'));
    }

    #[test]
    fn unknown_agent_and_game_list_valid_values() {
        let e = p("game = \"bait\"\n[[agents]]\nagent = \"alphago\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("agents[0]: unknown agent `alphago` for bait; valid agents: random"),
            "{e}"
        );
        let e = p("game = \"chess\"\n[[agents]]\nagent = \"random\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown game `chess`; valid games: bait"), "{e}");
    }

    #[test]
    fn value_errors_name_file_line_and_column() {
        let err = |text: &str| p(text).unwrap_err().to_string();
        // An unknown agent: at its name, in the third [[agents]] entry.
        let e = err("game = \"bait\"\n[[agents]]\nagent = \"random\"\n\
                     [[agents]]\nagent = \"bfs\"\n\n[[agents]]\nagent = \"alphago\"\n");
        assert!(
            e.starts_with("test.toml:8:9: agents[2]: unknown agent `alphago` for bait"),
            "{e}"
        );
        // A level that does not exist: at the list entry.
        let e = err("game = \"bait\"\nlevels = [0, \"9\"]\n[[agents]]\nagent = \"random\"\n");
        assert!(
            e.starts_with("test.toml:2:14: levels[1]: bait level `9`"),
            "{e}"
        );
        // A missing `agent`: at the entry's header.
        let e = err("game = \"bait\"\n[[agents]]\nagent = \"random\"\n[[agents]]\nname = \"x\"\n");
        assert!(
            e.starts_with("test.toml:4:1: agents[1]: missing `agent`"),
            "{e}"
        );
        // Limits, times, run keys, parameters, a name used twice.
        for (text, want) in [
            (
                "game = \"bait\"\n[[agents]]\ncommand = [\"sh\"]\nmemory_mb = 0\n",
                "test.toml:4:13: agents[0].memory_mb must be more than 0",
            ),
            (
                "game = \"bait\"\n[time]\nact = \"60ms\"\nact_hard = \"50ms\"\n[[agents]]\nagent = \"random\"\n",
                "test.toml:4:12: time.act_hard (50ms) must be at least",
            ),
            (
                "game = \"bait\"\nrepetitions = 0\n[[agents]]\nagent = \"random\"\n",
                "test.toml:2:15: repetitions = 0",
            ),
            (
                "game = \"bait\"\n[[agents]]\nagent = \"random\"\nparams = { depth = [1] }\n",
                "test.toml:4:20: agents[0].params.depth: expected a number",
            ),
            (
                "game = \"bait\"\n[[agents]]\nagent = \"random\"\n[[agents]]\nagent = \"random\"\n",
                "test.toml:4:1: agents[1]: the name `random` is used twice",
            ),
            (
                "game = \"bait\"\n[[agents]]\nagent = \"random\"\ntime = { clock = \"sun\" }\n",
                "test.toml:4:18: agents[0].time.clock = \"sun\": expected \"wall\", \"cpu\" or \"counted\"",
            ),
            (
                "game = \"bait\"\n[time]\ncounted_step = \"0ms\"\n[[agents]]\nagent = \"random\"\n",
                "test.toml:3:16: time.counted_step must be more than 0 ms",
            ),
            (
                "game = \"bait\"\n[[agents]]\nagent = \"random\"\n[[agents]]\n\
                 command = [\"python3\", \"bot.py\"]\ntime = { clock = \"counted\" }\n",
                "test.toml:6:18: agents[1] (bot) is an external agent, and clock = \"counted\"",
            ),
            (
                "game = \"bait\"\n[time]\non_overrun = \"lose\"\n[[agents]]\nagent = \"random\"\n",
                "test.toml:3:14: time.on_overrun = \"lose\": expected \"fallback\" or \"loss\"",
            ),
        ] {
            let e = err(text);
            assert!(e.starts_with(want), "{text:?}: {e}");
        }
        // Too few agents: at the [[agents]] list.
        let e = err("game = \"snake\"\n[[agents]]\nagent = \"random\"\n");
        assert!(
            e.starts_with("test.toml:2:1: snake is a 2-player game"),
            "{e}"
        );
    }

    #[test]
    fn durations_beyond_a_week_are_errors_not_panics() {
        // The config_toml fuzz target's find: `from_secs_f64` panicked.
        for act in [
            "\"888888888888888888888888888880s\"",
            "1e300",
            "9223372036854775807",
            "\"18446744073709551615\"",
            "\"8days\"",
        ] {
            let e = p(&format!(
                "game = \"bait\"\n[time]\nact = {act}\n[[agents]]\nagent = \"random\"\n"
            ))
            .unwrap_err()
            .to_string();
            assert!(
                e.contains("7 days") && e.contains("test.toml:3:"),
                "{act}: {e}"
            );
        }
    }

    #[test]
    fn negative_and_inverted_limits_are_rejected() {
        let e = p("game = \"bait\"\n[time]\nact = -5\n[[agents]]\nagent = \"random\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("negative"), "{e}");
        let e = p("game = \"bait\"\n[time]\nact = \"60ms\"\n[[agents]]\nagent = \"random\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("time.act_hard (50ms) must be at least time.act (60ms)"),
            "{e}"
        );
        let e = p("game = \"bait\"\nrepetitions = 0\n[[agents]]\nagent = \"random\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("repetitions = 0"), "{e}");
    }

    #[test]
    fn per_agent_time_overrides_and_params() {
        let c = p(
            "game = \"bait\"\nlevels = [0, \"3\"]\n[time]\nact = \"100ms\"\nact_hard = \"150ms\"\n\
                   [[agents]]\nagent = \"random\"\nname = \"r\"\ntime = { act_hard = \"200ms\" }\n",
        )
        .unwrap();
        assert_eq!(c.levels, vec!["0", "3"]);
        assert_eq!(c.agents[0].label, "r");
        assert_eq!(c.agents[0].time.act, Duration::from_millis(100));
        assert_eq!(c.agents[0].time.act_hard, Duration::from_millis(200));
        let e = p("game = \"bait\"\n[[agents]]\nagent = \"random\"\nparams = { depth = 3 }\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("has no parameter `depth`"), "{e}");
    }

    #[test]
    fn bad_level_is_reported() {
        let e = p("game = \"bait\"\nlevels = [\"9\"]\n[[agents]]\nagent = \"random\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("levels[0]: bait level `9` is neither a built-in level (0, 1, 2, 3, 4)"),
            "{e}"
        );
    }

    #[test]
    fn default_concurrency_is_cores_per_player() {
        let cores = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        let one = p("game = \"bait\"\n[[agents]]\nagent = \"random\"\n").unwrap();
        assert_eq!(one.concurrency, cores);
        let two = p(
            "game = \"snake\"\n[[agents]]\nagent = \"random\"\n[[agents]]\nagent = \"greedy\"\n",
        )
        .unwrap();
        assert_eq!(two.concurrency, (cores / 2).max(1));
        assert_eq!(default_concurrency(2), (cores / 2).max(1));
        assert_eq!(default_concurrency(64), 1);
        let set = p("game = \"snake\"\nconcurrency = 3\n[[agents]]\nagent = \"random\"\n[[agents]]\nagent = \"greedy\"\n")
            .unwrap();
        assert_eq!(set.concurrency, 3);
    }

    #[test]
    fn format_is_checked_against_the_game() {
        let e = p("game = \"bait\"\nformat = \"round-robin\"\n[[agents]]\nagent = \"random\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("format = \"round-robin\": a round robin needs"),
            "{e}"
        );
        let e = p("game = \"bait\"\nformat = \"swiss\"\n[[agents]]\nagent = \"random\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("test.toml:2:10: format = \"swiss\""), "{e}");
    }

    #[test]
    fn generic_agents_serve_every_game_unless_shadowed() {
        let c =
            p("game = \"xiangqi\"\n[[agents]]\nagent = \"uct\"\n[[agents]]\nagent = \"random\"\n");
        assert!(c.is_ok(), "{c:?}");
        let e = p("game = \"bait\"\n[[agents]]\nagent = \"alphago\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("valid agents: random, onesteplookahead"), "{e}");
        assert!(e.ends_with(", uct"), "{e}");
    }
}
