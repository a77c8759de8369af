//! Round-trip overhead of the `arena-jsonl/2` protocol per act, against an
//! in-process agent; then, on Snake, the cost of a turn under Botzone's
//! protocol: keep-running (one process) and traditional (a fresh process per
//! turn, with and without a sandbox) next to jsonl and in-process.
//! Run: `cargo bench -p harness --bench protocol`.
//!
//! The external agent is a minimal Python loop that answers every request
//! with a constant action without parsing it, so the figure is the harness's
//! cost (JSON encoding, pipes, tokio tasks, wake-ups, answer parsing) plus a
//! few µs of Python line I/O. The in-process agent is a constant agent on
//! its worker thread (the runner's usual path for built-in agents).

use games::bait::{Bait, BaitAction};
use games::snake::Snake;
use games::{Agent, Game, Seat, Timer};
use harness::external::protocols::botzone::BotzoneBot;
use harness::external::{
    BotzoneMode, ExternalSpec, ProcessLimits, Protocol, ProtocolKind, Sandbox, Subprocess,
};
use harness::play::game::GlobalData;
use harness::play::player::{Contestant, InProcess, Phase};
use harness::play::timing::Clock;
use harness::play::timing::TimeLimits;
use std::time::{Duration, Instant};

/// The default limits, judged on the wall clock.
fn wall_limits() -> TimeLimits {
    TimeLimits {
        clock: Clock::Wall,
        ..TimeLimits::default()
    }
}

const ACTS: usize = 3000;

struct Up;
impl Agent<Bait> for Up {
    fn act(&mut self, _s: &Bait, _seat: Seat, _t: &dyn Timer) -> BaitAction {
        BaitAction::Up
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn init(c: &mut dyn Contestant<Bait>, state: &Bait) {
    c.prepare();
    let start = Instant::now();
    c.request(Phase::Init, state, 0, start, Duration::from_secs(1));
    c.wait(start + Duration::from_secs(10))
        .result
        .expect("init answered");
}

fn act(c: &mut dyn Contestant<Bait>, state: &Bait) -> Duration {
    let budget = Duration::from_secs(1);
    c.prepare();
    let start = Instant::now();
    c.request(Phase::Act, state, 0, start, budget);
    let r = c.wait(start + budget);
    assert!(matches!(r.result, Ok(Some(_))), "{:?}", r.result);
    r.wall
}

/// An `arena-jsonl/2` conversation for a game on `level`.
fn jsonl<G: harness::view::GameView>(
    level: &str,
) -> Box<dyn harness::external::protocols::Protocol<G>> {
    Box::new(harness::external::protocols::jsonl::Jsonl::new(
        level,
        TimeLimits::default(),
        0,
        None,
    ))
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("echo.py"),
        "import sys\nw = sys.stdout.write\nf = sys.stdout.flush\n\
         w('{\"type\":\"ready\"}\\n'); f(); sys.stdin.readline()\n\
         for line in sys.stdin:\n    if line.startswith('{\"type\":\"end\"'):\n        break\n    \
         w('{\"action\":\"UP\"}\\n'); f()\n",
    )
    .expect("write agent");
    let spec = ExternalSpec {
        command: vec!["python3".into(), "echo.py".into()],
        protocol: Protocol::Jsonl,
        workdir: dir.path().to_path_buf(),
        sandbox: Sandbox::None,
        limits: ProcessLimits::default(),
        env: Vec::new(),
        writable_workdir: false,
        mounts: Vec::new(),
    };
    let state = Bait::level(1).expect("level 1");
    let msg_len =
        harness::external::protocols::jsonl::act_message(&state, 0, &[], Duration::ZERO).len();

    let mut inproc = InProcess::<Bait>::spawn(Box::new(Up), wall_limits(), "bench");
    let mut ext =
        Subprocess::<Bait>::spawn(&spec, jsonl("1"), None, wall_limits()).expect("spawn python3");
    init(&mut inproc, &state);
    init(&mut ext, &state);
    // Interleaved, so that both see the same machine load.
    let (mut t_in, mut t_ext) = (Vec::with_capacity(ACTS), Vec::with_capacity(ACTS));
    for _ in 0..ACTS {
        t_in.push(act(&mut inproc, &state));
        t_ext.push(act(&mut ext, &state));
    }
    inproc.end(&state, 0);
    ext.end(&state, 0);

    let (mi, me) = (median(t_in), median(t_ext));
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!("arena-jsonl/2 round trip per act, Bait level 1 ({msg_len}-byte act message), {ACTS} acts each:");
    println!(
        "  in-process agent (worker thread): median {:8.1} µs",
        us(mi)
    );
    println!(
        "  external agent (python3, jsonl):  median {:8.1} µs",
        us(me)
    );
    println!(
        "  protocol overhead (difference):   {:+8.1} µs  (goal <= 100 µs)",
        us(me) - us(mi)
    );
    let _ = state.tick();
    snake_turns(dir.path());
}

/// Snake: both snakes run round a loop of 28 cells (rows 1-4 and 7-10 of an
/// empty 10x12 board), so a game lasts about 60 rounds; every agent plays
/// snake 0 along the same script, the harness plays snake 1.
const LOOP0: [u8; 28] = [
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0,
];
const LOOP1: [u8; 28] = [
    3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2,
];

struct Looper;
impl Agent<Snake> for Looper {
    fn act(&mut self, s: &Snake, _seat: Seat, _t: &dyn Timer) -> u8 {
        LOOP0[s.round() as usize % 28]
    }
}

/// The Python bots: the same script, reading and writing each protocol's JSON.
const SNAKE_BOTS: &str = r#"import json, sys
LOOP = [1]*11 + [2]*3 + [3]*11 + [0]*3
KEEP = '>>>BOTZONE_REQUEST_KEEP_RUNNING<<<'
mode = sys.argv[1]
if mode == 'jsonl':
    for line in sys.stdin:
        m = json.loads(line)
        if m['type'] == 'start':
            sys.stdout.write('{"type":"ready"}\n')
        elif m['type'] == 'act':
            sys.stdout.write('{"action":"%d"}\n' % LOOP[m['tick'] % 28])
        else:
            break
        sys.stdout.flush()
else:
    full = json.loads(sys.stdin.readline())
    t = len(full['responses'])
    sys.stdout.write(json.dumps({'response': {'direction': LOOP[t % 28]}}) + '\n')
    if mode == 'keep':
        sys.stdout.write(KEEP + '\n')
        sys.stdout.flush()
        for line in sys.stdin:
            json.loads(line)
            t += 1
            sys.stdout.write('{"response":{"direction":%d}}\n%s\n' % (LOOP[t % 28], KEEP))
            sys.stdout.flush()
"#;

/// The same traditional bot in C: the number of turns so far is half the
/// number of `"direction"` keys in its input (requests and responses).
const SNAKE_BOT_C: &str = r#"#include <stdio.h>
#include <string.h>
static char line[1 << 20];
int main(void) {
    static const int loop[28] = {1,1,1,1,1,1,1,1,1,1,1,2,2,2,3,3,3,3,3,3,3,3,3,3,3,0,0,0};
    if (!fgets(line, sizeof line, stdin)) return 1;
    int n = 0;
    for (char *p = line; (p = strstr(p, "\"direction\"")) != NULL; p++) n++;
    printf("{\"response\":{\"direction\":%d}}\n", loop[(n / 2) % 28]);
    return 0;
}
"#;

/// One agent playing Snake games back to back, one act at a time.
struct Player {
    name: &'static str,
    make: Box<dyn Fn() -> Box<dyn Contestant<Snake>>>,
    contestant: Option<Box<dyn Contestant<Snake>>>,
    state: Snake,
    times: Vec<Duration>,
}

fn empty_board() -> Snake {
    Snake::new(10, 12, &[]).expect("an empty 10x12 board")
}

impl Player {
    fn act(&mut self) {
        if self.contestant.is_none() || self.state.is_over() {
            if let Some(mut c) = self.contestant.take() {
                c.end(&self.state, 0);
            }
            self.state = empty_board();
            let mut c = (self.make)();
            c.prepare();
            let start = Instant::now();
            c.request(Phase::Init, &self.state, 0, start, Duration::from_secs(5));
            c.wait(start + Duration::from_secs(10))
                .result
                .expect("init answered");
            self.contestant = Some(c);
        }
        let c = self.contestant.as_mut().expect("started above");
        let budget = Duration::from_secs(5);
        c.prepare();
        let start = Instant::now();
        c.request(Phase::Act, &self.state, 0, start, budget);
        let r = c.wait(start + budget);
        let t = self.state.round() as usize % 28;
        match r.result {
            Ok(Some(d)) => assert_eq!(d, LOOP0[t], "{}", self.name),
            other => panic!("{}: {other:?}", self.name),
        }
        self.times.push(r.wall);
        self.state.play(LOOP0[t], LOOP1[t]);
    }

    fn finish(&mut self) {
        if let Some(mut c) = self.contestant.take() {
            c.end(&self.state, 0);
        }
    }
}

fn snake_turns(dir: &std::path::Path) {
    std::fs::write(dir.join("snake_bots.py"), SNAKE_BOTS).expect("write bots");
    // The system interpreter: a version manager's `python3` shim (pyenv) is
    // a shell script that would add its own start-up to every spawn.
    let python = if std::path::Path::new("/usr/bin/python3").exists() {
        "/usr/bin/python3"
    } else {
        "python3"
    };
    println!("\n(Python bots run with {python})");
    let spec = |mode: &str, protocol, botzone_mode, sandbox| ExternalSpec {
        command: vec![python.into(), "snake_bots.py".into(), mode.into()],
        protocol: match protocol {
            ProtocolKind::Botzone => Protocol::Botzone { mode: botzone_mode },
            _ => Protocol::Jsonl,
        },
        workdir: dir.to_path_buf(),
        sandbox,
        limits: ProcessLimits::default(),
        env: Vec::new(),
        writable_workdir: false,
        mounts: Vec::new(),
    };
    let external = |name: &'static str, spec: ExternalSpec| -> Player {
        let make: Box<dyn Fn() -> Box<dyn Contestant<Snake>>> =
            Box::new(move || -> Box<dyn Contestant<Snake>> {
                if let Protocol::Botzone { mode } = spec.protocol {
                    Box::new(
                        BotzoneBot::new(
                            &spec,
                            mode,
                            "bench",
                            None,
                            GlobalData::default(),
                            wall_limits(),
                        )
                        .expect("a snake bot"),
                    )
                } else {
                    Box::new(
                        Subprocess::<Snake>::spawn(&spec, jsonl("empty"), None, wall_limits())
                            .expect("spawn python3"),
                    )
                }
            });
        Player {
            name,
            make,
            contestant: None,
            state: empty_board(),
            times: Vec::new(),
        }
    };
    let mut fast = [
        Player {
            name: "in-process agent (worker thread)",
            make: Box::new(|| -> Box<dyn Contestant<Snake>> {
                Box::new(InProcess::<Snake>::spawn(
                    Box::new(Looper),
                    wall_limits(),
                    "bench",
                ))
            }),
            contestant: None,
            state: empty_board(),
            times: Vec::new(),
        },
        external(
            "jsonl (python3, one process per game)",
            spec(
                "jsonl",
                ProtocolKind::Jsonl,
                BotzoneMode::Traditional,
                Sandbox::None,
            ),
        ),
        external(
            "botzone keep-running (python3)",
            spec(
                "keep",
                ProtocolKind::Botzone,
                BotzoneMode::KeepRunning,
                Sandbox::None,
            ),
        ),
    ];
    let mut slow = vec![
        external(
            "botzone traditional (python3 per turn)",
            spec(
                "trad",
                ProtocolKind::Botzone,
                BotzoneMode::Traditional,
                Sandbox::None,
            ),
        ),
        external(
            "  the same under sandbox = \"rlimit\"",
            spec(
                "trad",
                ProtocolKind::Botzone,
                BotzoneMode::Traditional,
                Sandbox::Rlimit,
            ),
        ),
    ];
    match harness::external::supervise::sandbox::check_bwrap() {
        Ok(()) => slow.push(external(
            "  the same under sandbox = \"bwrap\"",
            spec(
                "trad",
                ProtocolKind::Botzone,
                BotzoneMode::Traditional,
                Sandbox::Bwrap,
            ),
        )),
        Err(why) => println!("(no bwrap row: {why})"),
    }
    // A compiled bot shows the harness's own cost of a process per turn.
    std::fs::write(dir.join("snake_bot.c"), SNAKE_BOT_C).expect("write the C bot");
    let compiled = std::process::Command::new("cc")
        .args(["-O2", "-o", "snake_bot_c", "snake_bot.c"])
        .current_dir(dir)
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if compiled {
        let mut c = spec(
            "",
            ProtocolKind::Botzone,
            BotzoneMode::Traditional,
            Sandbox::None,
        );
        c.command = vec!["./snake_bot_c".into()];
        slow.push(external("botzone traditional (C bot per turn)", c));
    } else {
        println!("(no C row: cc could not build the C bot)");
    }
    const ROUNDS: usize = 1000;
    const SLOW_EVERY: usize = 10;
    // Interleaved, so that all see the same machine load.
    for i in 0..ROUNDS {
        for p in fast.iter_mut() {
            p.act();
        }
        if i % SLOW_EVERY == 0 {
            for p in slow.iter_mut() {
                p.act();
            }
        }
    }
    println!();
    println!(
        "Snake, one turn (request to answer), median over {ROUNDS} turns ({} for a process per turn):",
        ROUNDS / SLOW_EVERY
    );
    let mut medians = Vec::new();
    for p in fast.iter_mut().chain(slow.iter_mut()) {
        p.finish();
        let m = median(std::mem::take(&mut p.times));
        println!("  {:<42} {:>10.1} µs", p.name, m.as_secs_f64() * 1e6);
        medians.push(m);
    }
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!(
        "  a process per turn costs (Python traditional minus keep-running): {:+.1} µs",
        us(medians[3]) - us(medians[2])
    );
}
