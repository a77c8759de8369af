//! An agent that answers twice gets the same verdict every time when it
//! echoes the tick: `bad-output` at the next request, whatever the timing.

mod common;
use common::arena;

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
