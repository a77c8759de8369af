//! The arena-jsonl/2 conversation as agents see it: an agent that answers
//! twice gets the same verdict every time when it echoes the tick
//! (`bad-output` at the next request, whatever the timing); the messages
//! carry the episode's seed and `max_steps` and the joint actions played,
//! fallbacks included, so an agent can replay the game.

mod common;
use common::arena;
use serde_json::Value;
use std::path::Path;

const TWICE: &str = r#"
import json, sys, time
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "start":
        print(json.dumps({"type": "ready"}), flush=True)
    elif m["type"] == "act":
        a = {"action": m["legal"][0], "tick": m["tick"]}
        print(json.dumps(a), flush=True)
        time.sleep(float(sys.argv[1]))
        print(json.dumps(a), flush=True)
    else:
        break
"#;

#[test]
fn a_second_answer_with_a_tick_echo_is_always_bad_output_at_the_next_request() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("twice.py"), TWICE).unwrap();
    // The second line comes before the next request (0 s), or races it
    // (0.002 s), or surely after it has been written (0.2 s).
    for delay in ["0", "0.002", "0.2"] {
        let cfg = dir.path().join(format!("t{delay}.toml"));
        std::fs::write(
            &cfg,
            format!(
                "game = \"bait\"\nlevels = [0]\nmax_steps = 5\n[time]\nact = \"1s\"\nact_hard = \"2s\"\n\
                 [[agents]]\nname = \"twice\"\ncommand = [\"python3\", \"twice.py\", \"{delay}\"]\n"
            ),
        )
        .unwrap();
        let out = dir.path().join(format!("out{delay}"));
        let (code, _, err) = arena(&[
            "run",
            cfg.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
        ]);
        assert_eq!(code, 0, "{err}");
        let rows: Vec<csv::StringRecord> = csv::Reader::from_path(out.join("episodes.csv"))
            .unwrap()
            .records()
            .map(|r| r.unwrap())
            .collect();
        let r = &rows[0];
        assert_eq!(&r[10], "bad-output", "delay {delay}: {r:?}");
        assert_eq!(
            &r[12], "1",
            "one tick played, the failure at the second request: {r:?}"
        );
    }
}

/// A recording agent in `sh`: every line it gets goes to
/// `<label>.<pid>.log`; it answers every act with the first legal action,
/// the act numbered `$2` (from 1) after sleeping a second.
const RECORDER: &str = r#"
log="$1.$$.log"; n=0
while IFS= read -r l; do
  printf '%s\n' "$l" >> "$log"
  case "$l" in
    '{"type":"start"'*) echo '{"type":"ready"}' ;;
    '{"type":"end"'*) exit 0 ;;
    *) n=$((n+1))
       if [ "$n" = "$2" ]; then sleep 1; fi
       a=$(printf '%s\n' "$l" | sed 's/.*"legal":\["\([^"]*\)".*/\1/')
       echo "{\"action\":\"$a\"}" ;;
  esac
done
"#;

/// What one recorder received in one game: its seat, the start message, the
/// act messages and the end message.
struct Conversation {
    seat: usize,
    start: Value,
    acts: Vec<Value>,
    end: Value,
}

/// Run `config` (whose agents are recorders in `dir`) and return every
/// conversation with the `moves.jsonl` line of its episode.
fn record(dir: &Path, name: &str, config: &str) -> Vec<(Conversation, Value)> {
    std::fs::write(dir.join("rec.sh"), RECORDER).unwrap();
    let cfg = dir.join(format!("{name}.toml"));
    std::fs::write(&cfg, config).unwrap();
    let out = dir.join(format!("out-{name}"));
    let (code, _, err) = arena(&[
        "run",
        cfg.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let episodes: Vec<Value> = std::fs::read_to_string(out.join("moves.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        if !(file.starts_with(name) && file.ends_with(".log")) {
            continue;
        }
        let label = file.split('.').next().unwrap().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut msgs: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let start = msgs.remove(0);
        assert_eq!(start["type"], "start", "{file}");
        if msgs.is_empty() {
            // `arena run`'s pre-flight: a start, then the process is stopped.
            continue;
        }
        let end = msgs.pop().unwrap();
        assert_eq!(end["type"], "end", "{file}");
        let seat = start["seat"].as_u64().unwrap() as usize;
        let episode = episodes
            .iter()
            .find(|e| e["seed"] == start["seed"] && e["seats"][seat] == label.as_str())
            .unwrap_or_else(|| panic!("{file}: no episode of seed {}", start["seed"]))
            .clone();
        let conversation = Conversation {
            seat,
            start,
            acts: msgs,
            end,
        };
        found.push((conversation, episode));
    }
    let seats = episodes
        .iter()
        .flat_map(|e| e["seats"].as_array().unwrap().iter())
        .filter(|l| l.as_str().unwrap().starts_with(name))
        .count();
    assert!(seats > 0);
    assert_eq!(found.len(), seats, "one conversation per recorder seat");
    found
}

/// The joint actions `c` was sent, in order, checking that each message's
/// `moves` are exactly those played since the seat's previous message.
fn joint_actions(c: &Conversation) -> Vec<Vec<Value>> {
    let mut all = Vec::new();
    let mut at = 0;
    for m in c.acts.iter().chain([&c.end]) {
        let moves = m["moves"].as_array().expect("moves: a list");
        let tick = m["tick"].as_u64().unwrap();
        assert_eq!(at + moves.len() as u64, tick, "{m}");
        at = tick;
        all.extend(
            moves
                .iter()
                .map(|j| j.as_array().expect("a joint action").clone()),
        );
    }
    all
}

/// `moves.jsonl`'s spelling of a joint action: the active seats' names
/// joined by `/`.
fn spelled(joint: &[Value]) -> String {
    let names: Vec<&str> = joint.iter().filter_map(Value::as_str).collect();
    names.join("/")
}

#[test]
fn act_messages_carry_the_moves_played_with_a_late_answers_fallback() {
    let dir = tempfile::tempdir().unwrap();
    // Act 3 answers after a second: past the 300 ms soft budget, its
    // fallback (NIL) is played, and the next act says so.
    let found = record(
        dir.path(),
        "bait",
        "game = \"bait\"\nlevels = [0]\nmax_steps = 5\nseed = 11\n\
         [time]\nclock = \"wall\"\nact = \"300ms\"\nact_hard = \"5s\"\n\
         [[agents]]\nname = \"bait\"\ncommand = [\"sh\", \"rec.sh\", \"bait\", \"3\"]\n",
    );
    let (c, episode) = &found[0];
    assert_eq!(c.start["max_steps"], 5);
    assert_eq!(c.start["seed"], episode["seed"]);
    assert!(c.start["seed"].is_u64(), "{}", c.start);
    assert!(c.acts.len() > 3, "{}", c.end);
    let first_legal = c.acts[0]["legal"][0].as_str().unwrap();
    assert_eq!(c.acts[0]["moves"], serde_json::json!([]));
    let joints = joint_actions(c);
    assert_eq!(joints.len(), c.acts.len(), "one joint action per act");
    assert_eq!(joints[2], ["NIL"], "the fallback of the late act 3");
    assert_eq!(joints[0], [first_legal]);
    let played: Vec<String> = joints.iter().map(|j| spelled(j)).collect();
    assert_eq!(serde_json::json!(played), episode["moves"]);
}

#[test]
fn messages_of_two_player_games_carry_every_seats_moves() {
    let dir = tempfile::tempdir().unwrap();
    // Snake: simultaneous, its `random` map drawn from the episode seed,
    // no max_steps.
    let found = record(
        dir.path(),
        "snake",
        "game = \"snake\"\nlevels = [\"random\"]\nseed = 3\n\
         [[agents]]\nname = \"snakea\"\ncommand = [\"sh\", \"rec.sh\", \"snakea\", \"0\"]\n\
         [[agents]]\nname = \"snakeb\"\ncommand = [\"sh\", \"rec.sh\", \"snakeb\", \"0\"]\n",
    );
    assert!(found.len() >= 2, "both seats recorded");
    for (c, episode) in &found {
        assert!(c.start["max_steps"].is_null(), "{}", c.start);
        assert_eq!(c.start["seed"], episode["seed"]);
        let joints = joint_actions(c);
        assert!(joints
            .iter()
            .all(|j| j.len() == 2 && j.iter().all(Value::is_string)));
        // Each act follows exactly one joint action.
        assert!(c
            .acts
            .iter()
            .skip(1)
            .all(|m| m["moves"].as_array().unwrap().len() == 1));
        let played: Vec<String> = joints.iter().map(|j| spelled(j)).collect();
        assert_eq!(serde_json::json!(played), episode["moves"]);
    }
    // Connect 4, alternating, against the built-in random: the seat to move
    // has a name, the other `null`; an act lists the moves of both plies.
    let found = record(
        dir.path(),
        "connect",
        "game = \"connect4\"\nlevels = [\"start\"]\nseed = 4\n\
         [[agents]]\nname = \"connect\"\ncommand = [\"sh\", \"rec.sh\", \"connect\", \"0\"]\n\
         [[agents]]\nagent = \"random\"\n",
    );
    for (c, episode) in &found {
        let joints = joint_actions(c);
        for (tick, j) in joints.iter().enumerate() {
            let mover = tick % 2;
            assert!(
                j[mover].is_string() && j[1 - mover].is_null(),
                "tick {tick}: {j:?}"
            );
        }
        let later = &c.acts[1]["moves"];
        assert_eq!(later.as_array().unwrap().len(), 2, "{later}");
        assert_eq!(c.seat, c.acts[0]["tick"].as_u64().unwrap() as usize);
        let played: Vec<String> = joints.iter().map(|j| spelled(j)).collect();
        assert_eq!(serde_json::json!(played), episode["moves"]);
    }
}
