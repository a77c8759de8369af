//! The generic line-JSON protocol `arena-jsonl/2` (specified in
//! `docs/protocol.md`): one JSON object per line in each direction.
//!
//! Harness → agent: `start` (once), `act` (once per decision), `end` (once).
//! Agent → harness: `{"type":"ready"}` after `start` (optionally naming the
//! version it speaks, `"protocol":"arena-jsonl/2"`), `{"action":"NAME"}`
//! after each `act`, nothing after `end`.
//!
//! Version 2 differs from 1 in one thing: Bait's `avatar` is `[row,
//! column]` (it was `[column, row]`), so every position of every game's
//! view is row first. Keys added within version 2: the start message's
//! `seed` and `max_steps`, and the `moves` of `act` and `end` (the joint
//! actions played since the seat's previous message, so that an agent can
//! replay the game on its own copy of the rules).

use crate::external::protocols::{Protocol, Step};
use crate::play::outcome::Outcome;
use crate::play::player::{Failure, Phase};
use crate::play::timing::ms;
use crate::play::timing::TimeLimits;
use crate::view::GameView;
use games::Seat;
use serde_json::{json, Value};
use std::time::Duration;

/// The protocol's name and version, sent in the start message.
pub const VERSION: &str = "arena-jsonl/2";

/// What changed since each earlier version, for the error an agent gets
/// when it announces that version in its `ready`.
const CHANGES: &[(&str, &str)] = &[(
    "arena-jsonl/1",
    "since arena-jsonl/2 Bait's `avatar` is [row, column], no longer [column, row]",
)];

/// `arena-jsonl/2` as a [`Protocol`].
pub struct Jsonl {
    /// The level spec sent in the start message.
    level: String,
    /// The time limits sent in the start message.
    limits: TimeLimits,
    /// The episode's seed, sent in the start message.
    seed: u64,
    /// The config's `max_steps`, sent in the start message.
    max_steps: Option<u32>,
    /// The joint actions played since the last message to the agent, as
    /// sent in `moves`.
    moves: Vec<Value>,
}

impl Jsonl {
    /// The conversation of an agent in an episode on `level` (loaded with
    /// `seed`, and `max_steps` applied), judged by `limits`.
    pub fn new(level: &str, limits: TimeLimits, seed: u64, max_steps: Option<u32>) -> Self {
        Jsonl {
            level: level.to_string(),
            limits,
            seed,
            max_steps,
            moves: Vec::new(),
        }
    }
}

impl<G: GameView> Protocol<G> for Jsonl {
    fn request(&mut self, phase: Phase, state: &G, seat: Seat, remaining: Duration) -> Vec<String> {
        vec![match phase {
            Phase::Init => {
                let episode = Episode {
                    level: &self.level,
                    seed: self.seed,
                    max_steps: self.max_steps,
                };
                start_message(state, &episode, seat, &self.limits)
            }
            Phase::Act => act_message(state, seat, &std::mem::take(&mut self.moves), remaining),
        }]
    }

    fn answer(
        &mut self,
        phase: Phase,
        state: &G,
        seat: Seat,
        line: &str,
    ) -> Result<Step<G::Action>, Failure> {
        match phase {
            Phase::Init => parse_ready(line).map(|()| Step::Done(None)),
            Phase::Act => parse_action(state, seat, line).map(|a| Step::Done(Some(a))),
        }
    }

    fn played(&mut self, state: &G, joint: &[G::Action]) {
        self.moves.push(joint_names(state, joint));
    }

    fn end(&mut self, state: &G, seat: Seat) -> Vec<String> {
        vec![end_message(state, seat, &std::mem::take(&mut self.moves))]
    }
}

/// A joint action as the `moves` of a message list it: one entry per
/// seat, the action's name for a seat active in `state` (the state it was
/// played in), `null` for the others.
pub fn joint_names<G: GameView>(state: &G, joint: &[G::Action]) -> Value {
    joint
        .iter()
        .enumerate()
        .map(|(s, &a)| {
            if state.is_active(s) {
                Value::String(state.action_name(a))
            } else {
                Value::Null
            }
        })
        .collect()
}

/// The names of `seat`'s legal actions in `state`.
pub fn legal_names<G: GameView>(state: &G, seat: Seat) -> Vec<String> {
    state
        .legal_actions_vec(seat)
        .into_iter()
        .map(|a| state.action_name(a))
        .collect()
}

fn round_ms(d: Duration) -> f64 {
    (ms(d) * 1000.0).round() / 1000.0
}

/// What the start message says about the episode besides the game.
pub struct Episode<'a> {
    /// The level spec.
    pub level: &'a str,
    /// The seed the level was loaded with.
    pub seed: u64,
    /// The config's `max_steps`, if any.
    pub max_steps: Option<u32>,
}

/// The largest level file whose text the start message carries.
const LEVEL_TEXT_MAX: u64 = 1 << 20;

/// The text of level spec `level` when it names a level file (at most
/// [`LEVEL_TEXT_MAX`] bytes), so that an agent that cannot see the file (a
/// sandbox shows it only its own folder) can load the same level; `None`
/// for built-in levels.
fn level_text(level: &str) -> Option<String> {
    let path = std::path::Path::new(level);
    let meta = std::fs::metadata(path).ok()?;
    (meta.is_file() && meta.len() <= LEVEL_TEXT_MAX)
        .then(|| std::fs::read_to_string(path).ok())
        .flatten()
}

/// The start message.
pub fn start_message<G: GameView>(
    state: &G,
    episode: &Episode<'_>,
    seat: Seat,
    limits: &TimeLimits,
) -> String {
    json!({
        "type": "start",
        "protocol": VERSION,
        "game": state.game_name(),
        "level": episode.level,
        "level_text": level_text(episode.level),
        "seed": episode.seed,
        "max_steps": episode.max_steps,
        "seat": seat,
        "players": state.num_players(),
        "time": {
            "act_ms": round_ms(limits.act),
            "act_hard_ms": round_ms(limits.act_hard),
            "init_ms": round_ms(limits.init),
            "init_hard_ms": round_ms(limits.init_hard),
        },
        "state": state.state_json(seat),
    })
    .to_string()
}

/// The request for one decision; `moves`: the joint actions played since
/// the seat's previous message (see [`joint_names`]).
pub fn act_message<G: GameView>(
    state: &G,
    seat: Seat,
    moves: &[Value],
    remaining: Duration,
) -> String {
    json!({
        "type": "act",
        "tick": state.tick(),
        "moves": moves,
        "state": state.state_json(seat),
        "legal": legal_names(state, seat),
        "remaining_ms": round_ms(remaining),
    })
    .to_string()
}

/// The end message; `moves` as in [`act_message`].
pub fn end_message<G: GameView>(state: &G, seat: Seat, moves: &[Value]) -> String {
    json!({
        "type": "end",
        "result": state.result(seat).as_str(),
        "score": state.score(seat),
        "tick": state.tick(),
        "moves": moves,
        "state": state.state_json(seat),
    })
    .to_string()
}

fn bad_output(detail: String) -> Failure {
    Failure {
        outcome: Outcome::BadOutput,
        detail,
    }
}

fn quote(line: &str) -> String {
    let s: String = line.chars().take(80).collect();
    if s.len() < line.len() {
        format!("{s:?}...")
    } else {
        format!("{s:?}")
    }
}

fn parse_object(line: &str) -> Result<serde_json::Map<String, Value>, Failure> {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(bad_output(format!(
            "expected a JSON object, got {}",
            quote(line)
        ))),
        Err(e) => Err(bad_output(format!("not JSON ({e}): {}", quote(line)))),
    }
}

/// Check the answer to the start message: `{"type":"ready"}`, optionally
/// with `"protocol"`, the version the agent speaks, which must then be
/// [`VERSION`] (an agent written for an earlier version would misread the
/// states: it is stopped with what changed). Other keys are ignored.
pub fn parse_ready(line: &str) -> Result<(), Failure> {
    let m = parse_object(line)?;
    if m.get("type").and_then(Value::as_str) != Some("ready") {
        return Err(bad_output(format!(
            "expected {{\"type\":\"ready\"}} after start, got {}",
            quote(line)
        )));
    }
    match m.get("protocol") {
        None => Ok(()),
        Some(Value::String(v)) if v == VERSION => Ok(()),
        Some(v) => {
            let v = v
                .as_str()
                .map(str::to_string)
                .unwrap_or_else(|| v.to_string());
            let v: String = v.chars().take(40).collect();
            let change = CHANGES
                .iter()
                .find(|(old, _)| *old == v)
                .map(|(_, what)| format!(" ({what})"))
                .unwrap_or_default();
            Err(bad_output(format!(
                "the agent speaks {v:?}, arena speaks {VERSION}{change}: update the agent \
                 (docs/protocol.md), or leave \"protocol\" out of its ready"
            )))
        }
    }
}

/// Parse the answer to an act message: `{"action":"NAME"}`, optionally
/// with `"tick"` echoing the request's tick (other keys are ignored). Wrong
/// shape, or a tick other than the request's: bad-output; a name the game
/// does not know: illegal-move (legality in the state is checked by the
/// runner). The echo makes a stray second answer always `bad-output` at
/// the next request, however it races with that request (docs/protocol.md).
pub fn parse_action<G: GameView>(state: &G, seat: Seat, line: &str) -> Result<G::Action, Failure> {
    let m = parse_object(line)?;
    if let Some(t) = m.get("tick") {
        if t.as_u64() != Some(state.tick() as u64) {
            return Err(bad_output(format!(
                "answered tick {} during tick {}: an answer to an earlier request (each \
                 request takes exactly one answer)",
                t.to_string().chars().take(20).collect::<String>(),
                state.tick()
            )));
        }
    }
    let Some(v) = m.get("action") else {
        return Err(bad_output(format!(
            "expected {{\"action\":\"NAME\"}}, got {}",
            quote(line)
        )));
    };
    let Some(name) = v.as_str() else {
        return Err(bad_output(format!(
            "\"action\" must be a string, got {}",
            quote(&v.to_string())
        )));
    };
    state.parse_action(seat, name).ok_or_else(|| Failure {
        outcome: Outcome::IllegalMove,
        detail: format!(
            "tick {}: `{}` is not an action of {} (legal: {})",
            state.tick(),
            name.chars().take(40).collect::<String>(),
            state.game_name(),
            legal_names(state, seat).join(", ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::bait::Bait;
    use games::Game;

    #[test]
    fn a_tick_echo_must_match_the_request() {
        let s = Bait::level(0).unwrap();
        assert!(parse_action(&s, 0, r#"{"action":"UP","tick":0}"#).is_ok());
        assert!(parse_action(&s, 0, r#"{"action":"UP"}"#).is_ok());
        let e = parse_action(&s, 0, r#"{"action":"UP","tick":3}"#).unwrap_err();
        assert_eq!(e.outcome, Outcome::BadOutput);
        assert!(
            e.detail.contains("answered tick 3 during tick 0"),
            "{}",
            e.detail
        );
        assert!(parse_action(&s, 0, r#"{"action":"UP","tick":"0"}"#).is_err());
    }

    #[test]
    fn messages_have_the_documented_shape() {
        let s = Bait::level(0).unwrap();
        let episode = Episode {
            level: "0",
            seed: u64::MAX,
            max_steps: None,
        };
        let start: Value =
            serde_json::from_str(&start_message(&s, &episode, 0, &TimeLimits::default())).unwrap();
        assert_eq!(start["type"], "start");
        assert_eq!(start["protocol"], "arena-jsonl/2");
        assert_eq!(start["game"], "bait");
        assert_eq!(start["time"]["act_ms"], 40.0);
        assert_eq!(start["time"]["act_hard_ms"], 50.0);
        // The seed is a whole 64-bit number, not a float's approximation.
        assert_eq!(start["seed"].as_u64(), Some(u64::MAX));
        assert!(start["max_steps"].is_null());
        let act: Value =
            serde_json::from_str(&act_message(&s, 0, &[], Duration::from_millis(39))).unwrap();
        assert_eq!(act["type"], "act");
        assert_eq!(act["tick"], 0);
        assert_eq!(act["remaining_ms"], 39.0);
        let legal: Vec<&str> = act["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(legal, ["LEFT", "RIGHT", "DOWN", "UP"]);
        assert_eq!(act["moves"], json!([]));
        let end: Value = serde_json::from_str(&end_message(&s, 0, &[])).unwrap();
        assert_eq!(end["type"], "end");
        assert_eq!(end["result"], s.result(0).as_str());
    }

    /// The `moves` of the act or end message in `lines`.
    fn moves_of(lines: Vec<String>) -> Value {
        assert_eq!(lines.len(), 1);
        serde_json::from_str::<Value>(&lines[0]).unwrap()["moves"].clone()
    }

    #[test]
    fn the_joint_actions_played_go_with_the_next_message_once() {
        use crate::registry::ArenaGame;
        use games::connect4::Connect4;
        use games::snake::Snake;
        let limits = TimeLimits::default();
        // Alternating: the seat that did not move is null; an act lists
        // every joint action since the seat's previous message.
        let mut p = Jsonl::new("start", limits, 9, Some(40));
        let mut s = Connect4::new();
        let start: Value = serde_json::from_str(
            &Protocol::<Connect4>::request(&mut p, Phase::Init, &s, 1, Duration::ZERO)[0],
        )
        .unwrap();
        assert_eq!(
            (start["seed"].as_u64(), start["max_steps"].as_u64()),
            (Some(9), Some(40))
        );
        for col in ["4", "3"] {
            let mover = (0..2).find(|&k| s.is_active(k)).unwrap();
            let mut joint: Vec<_> = (0..2).map(|k| s.fallback_action(k)).collect();
            joint[mover] = s.parse_action(mover, col).unwrap();
            p.played(&s, &joint);
            s.advance(&joint);
        }
        let act =
            |p: &mut Jsonl, s: &Connect4| moves_of(p.request(Phase::Act, s, 0, Duration::ZERO));
        assert_eq!(act(&mut p, &s), json!([["4", null], [null, "3"]]));
        assert_eq!(act(&mut p, &s), json!([]), "sent once");
        // Simultaneous: every seat's name, the fallback where it was played.
        let mut p = Jsonl::new("seed:5", limits, 0, None);
        let mut s = Snake::load_level("seed:5", 0).unwrap();
        let joint = [s.parse_action(0, "2").unwrap(), s.fallback_action(1)];
        p.played(&s, &joint);
        s.advance(&joint);
        let fallback = s.action_name(joint[1]);
        assert_eq!(moves_of(p.end(&s, 1)), json!([["2", fallback]]));
    }

    #[test]
    fn replies_are_classified() {
        let s = Bait::level(0).unwrap();
        let a = parse_action(&s, 0, r#"{"action":"UP"}"#).unwrap();
        assert_eq!(s.action_name(a), "UP");
        let o = |l: &str| parse_action(&s, 0, l).unwrap_err().outcome;
        assert_eq!(o("UP"), Outcome::BadOutput);
        assert_eq!(o("[1,2]"), Outcome::BadOutput);
        assert_eq!(o(r#"{"move":"UP"}"#), Outcome::BadOutput);
        assert_eq!(o(r#"{"action":3}"#), Outcome::BadOutput);
        assert_eq!(o(r#"{"action":"JUMP"}"#), Outcome::IllegalMove);
        assert!(parse_ready(r#"{"type":"ready","name":"x"}"#).is_ok());
        assert!(parse_ready(r#"{"type":"ready","protocol":"arena-jsonl/2"}"#).is_ok());
        assert_eq!(
            parse_ready(r#"{"action":"UP"}"#).unwrap_err().outcome,
            Outcome::BadOutput
        );
    }

    #[test]
    fn an_agent_announcing_version_1_is_told_what_changed() {
        let e = parse_ready(r#"{"type":"ready","protocol":"arena-jsonl/1"}"#).unwrap_err();
        assert_eq!(e.outcome, Outcome::BadOutput);
        assert!(
            e.detail
                .contains("speaks \"arena-jsonl/1\", arena speaks arena-jsonl/2")
                && e.detail.contains("`avatar` is [row, column]"),
            "{}",
            e.detail
        );
        let e = parse_ready(r#"{"type":"ready","protocol":3}"#).unwrap_err();
        assert!(e.detail.contains("speaks \"3\""), "{}", e.detail);
    }
}
