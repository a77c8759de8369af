//! Fuzzing checks for the harness's parsers of outside input: TOML configs
//! and the answer lines of every agent protocol. Shared by the cargo-fuzz
//! targets in `fuzz/` and by the regression test
//! `harness/tests/fuzz_corpus.rs`, which replays every committed corpus
//! file and crash reproducer under the ordinary `cargo test`.
//!
//! The parsers never panic on bad input; these checks **panic when an
//! invariant breaks** (that is how a fuzzer reports a bug). Not part of the
//! public API.

use crate::external::protocols::botzone::{self, Answer};
use crate::external::protocols::jsonl;
use crate::external::protocols::uci::Uci;
use crate::external::protocols::{Protocol, Step};
use crate::external::ProtocolKind;
use crate::play::player::{Failure, Phase};
use crate::view::GameView;
use games::bait::Bait;
use games::connect4::Connect4;
use games::sokoban::{self, Sokoban};
use games::xiangqi::{Move, Xiangqi};
use serde_json::{json, Value};
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;

/// The longest failure detail the checks accept: details go into logs and
/// CSV cells, so they quote bounded excerpts of what an agent wrote.
const MAX_DETAIL: usize = 4096;

fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    String::from_utf8_lossy(data)
}

fn check_failure(f: &Failure) {
    assert!(!f.detail.is_empty(), "a failure without detail");
    assert!(
        f.detail.len() <= MAX_DETAIL,
        "a failure detail of {} bytes",
        f.detail.len()
    );
}

/// Whether the config text names something the check must not touch: the
/// loader reads level and openings files and looks up programs, so a
/// fuzzed config could name `/dev/zero` or start a `bwrap` probe. Such
/// inputs are skipped: every string and key of the decoded TOML that is
/// absolute, climbs with `..`, or says `bwrap`.
fn touches_the_system(text: &str) -> bool {
    fn walk(v: &toml::Value) -> bool {
        match v {
            toml::Value::String(s) => risky(s),
            toml::Value::Array(a) => a.iter().any(walk),
            toml::Value::Table(t) => t.iter().any(|(k, v)| risky(k) || walk(v)),
            _ => false,
        }
    }
    fn risky(s: &str) -> bool {
        s.starts_with(['/', '\\', '~']) || s.contains("..") || s.contains("bwrap")
    }
    match toml::from_str::<toml::Table>(text) {
        Ok(t) => t.iter().any(|(k, v)| risky(k) || walk(v)),
        // Not TOML: the loader stops at the TOML layer.
        Err(_) => false,
    }
}

/// TOML run configs, parsed and validated by [`crate::registry::parse_config`] as if
/// read from a file in a folder that does not exist (so relative level
/// and openings paths resolve to nothing). Errors must name the file;
/// accepted configs have at least one agent and one level, and a
/// concurrency of at least 1.
pub fn config_toml(data: &[u8]) {
    let t = text(data);
    if touches_the_system(&t) {
        return;
    }
    let path = Path::new("/nonexistent-arena-fuzz/fuzz.toml");
    match crate::registry::parse_config(&t, path) {
        Ok(cfg) => {
            assert!(!cfg.agents.is_empty());
            assert!(!cfg.levels.is_empty());
            assert!(cfg.concurrency >= 1);
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// One game's `arena-jsonl/2` answers: every line is read as the answer to
/// `start` and to `act`; an accepted action's name parses back to it.
fn jsonl_on<G: GameView>(state: &G, lines: &[&str]) {
    for line in lines {
        if let Err(f) = jsonl::parse_ready(line) {
            check_failure(&f);
        }
        match jsonl::parse_action(state, 0, line) {
            Ok(a) => {
                let name = state.action_name(a);
                assert_eq!(state.parse_action(0, &name), Some(a), "name {name:?}");
            }
            Err(f) => check_failure(&f),
        }
    }
}

/// `arena-jsonl/2` answer lines, read in the states of four games.
pub fn jsonl_answer(data: &[u8]) {
    let t = text(data);
    let lines: Vec<&str> = t.lines().take(64).collect();
    static STATES: OnceLock<(Bait, Connect4, Xiangqi, Sokoban)> = OnceLock::new();
    let (bait, connect4, xiangqi, sokoban) = STATES.get_or_init(|| {
        let level = sokoban::parse_levels(sokoban::MICROBAN).expect("Microban parses");
        (
            Bait::level(0).expect("level 0"),
            Connect4::new(),
            Xiangqi::new(),
            Sokoban::from_level(&level[0]).expect("Microban 1 plays"),
        )
    });
    jsonl_on(bait, &lines);
    jsonl_on(connect4, &lines);
    jsonl_on(xiangqi, &lines);
    jsonl_on(sokoban, &lines);
}

/// One UCI / UCCI conversation: every line is an answer, first to the
/// handshake, then (once the engine is ready) to `go`; a `bestmove` that
/// parses prints back to the same text, and the next `go` follows.
fn uci_on(dialect: ProtocolKind, lines: &[&str]) {
    static START: OnceLock<Xiangqi> = OnceLock::new();
    let state = START.get_or_init(Xiangqi::new);
    let settings = crate::external::EngineSettings {
        options: vec![("Hash".into(), "16".into())],
        ..Default::default()
    };
    let mut p = Uci::new(dialect, &settings);
    let mut phase = Phase::Init;
    let remaining = Duration::from_millis(100);
    let _ = p.request(phase, state, 0, remaining);
    for line in lines {
        match p.answer(phase, state, 0, line) {
            Ok(Step::Continue(out)) => {
                assert!(out.iter().all(|l| !l.contains('\n')));
            }
            Ok(Step::Done(m)) => {
                if phase == Phase::Act {
                    let m = m.expect("an act ends with a move");
                    let back = match dialect {
                        ProtocolKind::Uci => Move::parse_fsf_uci(&m.fsf_uci()),
                        _ => Move::parse_iccs(&m.iccs()),
                    };
                    assert_eq!(back, Some(m));
                } else {
                    assert!(m.is_none());
                }
                phase = Phase::Act;
                let out = p.request(phase, state, 0, remaining);
                assert_eq!(out.len(), 2);
            }
            Err(f) => check_failure(&f),
        }
    }
}

/// UCI and UCCI engine output (`uciok`, `option`, `readyok`, `info`,
/// `bestmove`, `nobestmove` ...), one conversation per dialect.
pub fn uci_answer(data: &[u8]) {
    let t = text(data);
    let lines: Vec<&str> = t.lines().take(256).collect();
    uci_on(ProtocolKind::Uci, &lines);
    uci_on(ProtocolKind::Ucci, &lines);
}

/// Botzone bot output (one turn's lines, joined): an accepted answer has a
/// direction in 0..3, and the same answer written back as JSON parses to
/// itself.
pub fn botzone_answer(data: &[u8]) {
    let t = text(data);
    match botzone::parse_output(&t) {
        Ok(a) => {
            assert!(a.direction <= 3);
            let mut o = serde_json::Map::new();
            o.insert("response".into(), json!({ "direction": a.direction }));
            for (k, v) in [
                ("data", &a.data),
                ("globaldata", &a.globaldata),
                ("debug", &a.debug),
            ] {
                if let Some(v) = v {
                    o.insert(k.into(), v.clone());
                }
            }
            let again: Answer = botzone::parse_output(&Value::Object(o).to_string())
                .expect("a written answer parses");
            assert_eq!(again, a);
        }
        Err(f) => check_failure(&f),
    }
}
