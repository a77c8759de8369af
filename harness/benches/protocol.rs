//! Round-trip overhead of the `arena-jsonl/1` protocol per act, against an
//! in-process agent. Run: `cargo bench -p harness --bench protocol`.
//!
//! The external agent is a minimal Python loop that answers every request
//! with a constant action without parsing it, so the figure is the harness's
//! cost (JSON encoding, pipes, tokio tasks, wake-ups, answer parsing) plus a
//! few µs of Python line I/O. The in-process agent is a constant agent on
//! its worker thread (the runner's usual path for built-in agents).

use games::bait::{Bait, BaitAction};
use games::{Agent, Game, Seat, Timer};
use harness::config::TimeLimits;
use harness::external::{ExternalSpec, ProcessLimits, ProtocolKind, Sandbox, Subprocess};
use harness::player::{Contestant, InProcess, Phase};
use harness::timing::Clock;
use std::time::{Duration, Instant};

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
    let start = Instant::now();
    c.request(Phase::Init, state, 0, start, Duration::from_secs(1));
    c.wait(start + Duration::from_secs(10))
        .result
        .expect("init answered");
}

fn act(c: &mut dyn Contestant<Bait>, state: &Bait) -> Duration {
    let budget = Duration::from_secs(1);
    let start = Instant::now();
    c.request(Phase::Act, state, 0, start, budget);
    let r = c.wait(start + budget);
    assert!(matches!(r.result, Ok(Some(_))), "{:?}", r.result);
    r.wall
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
        protocol: ProtocolKind::Jsonl,
        workdir: dir.path().to_path_buf(),
        sandbox: Sandbox::None,
        limits: ProcessLimits::default(),
        options: Vec::new(),
        botzone_mode: Default::default(),
    };
    let state = Bait::level(1).expect("level 1");
    let msg_len = harness::external::jsonl::act_message(&state, 0, Duration::ZERO).len();

    let mut inproc = InProcess::<Bait>::spawn(Box::new(Up), Clock::Wall, "bench");
    let mut ext =
        Subprocess::<Bait>::spawn(&spec, "1", TimeLimits::default(), None).expect("spawn python3");
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
    println!("arena-jsonl/1 round trip per act, Bait level 1 ({msg_len}-byte act message), {ACTS} acts each:");
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
}
