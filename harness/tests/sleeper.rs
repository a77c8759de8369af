//! An agent that sleeps instead of answering, under the CPU clock (the
//! default): it is given up on once silent past the hard limit plus a
//! second (not after ten times the hard limit), and after
//! `forfeit_after_timeouts` timeouts in a row its remaining games are lost
//! without being played: the same rows whatever the concurrency, and after
//! a resume.

use harness::output::rows::EpisodeRow;
use harness::run::{run_config, ProgressMode};
use std::path::Path;
use std::time::{Duration, Instant};

/// Six games of Bait for an `arena-jsonl/2` agent in `sh` that says it is
/// ready, then sleeps at its first act (`act_hard = 500ms`: ten times it is
/// 5 s), forfeiting after two timeouts in a row.
fn config(concurrency: usize) -> String {
    format!(
        r#"
name = "sleeper"
game = "bait"
levels = [0]
repetitions = 6
seed = 3
concurrency = {concurrency}
max_steps = 5
forfeit_after_timeouts = 2

[time]
act = "400ms"
act_hard = "500ms"

[[agents]]
name = "sleeper"
command = ["sh", "-c", "read l; echo '{{\"type\":\"ready\"}}'; read l; sleep 60"]
"#
    )
}

/// Play `text` into `dir`: its rows (sorted by episode) and how long it took.
fn play(dir: &Path, text: &str) -> (Vec<EpisodeRow>, Duration) {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("sleeper.toml");
    std::fs::write(&path, text).unwrap();
    let cfg = harness::registry::load_config(&path).unwrap();
    assert_eq!(cfg.forfeit_after_timeouts, Some(2));
    let t0 = Instant::now();
    let out = run_config(&cfg, &dir.join("out"), ProgressMode::Silent).unwrap();
    assert!(out.complete);
    (out.rows, t0.elapsed())
}

/// What the rule decides of a row: its outcome, result, steps and detail
/// from the limits on (the time measured varies).
fn verdicts(rows: &[EpisodeRow]) -> Vec<(usize, String, String, u32, String)> {
    rows.iter()
        .map(|r| {
            let detail = match r.detail.find("; the limit is") {
                Some(i) => r.detail[i..].to_string(),
                None => r.detail.clone(),
            };
            (
                r.episode,
                r.outcome.clone(),
                r.result.clone(),
                r.steps,
                detail,
            )
        })
        .collect()
}

#[test]
fn a_sleeper_costs_about_a_second_per_game_and_forfeits_the_rest_after_two_timeouts() {
    let dir = tempfile::tempdir().unwrap();
    let (rows, took) = play(&dir.path().join("j1"), &config(1));
    assert_eq!(rows.len(), 6);
    for r in &rows[..2] {
        assert_eq!(
            (r.outcome.as_str(), r.result.as_str()),
            ("timeout", "loss"),
            "{r:?}"
        );
        assert!(
            r.detail.starts_with("act: no answer after ")
                && r.detail.contains(" s of wall time while using ")
                && r.detail.ends_with(
                    " ms of CPU; the limit is 500 ms of CPU time, and an agent that neither runs \
                     nor waits for a CPU is waited for at most 1.5 s; process group killed"
                ),
            "{r:?}"
        );
    }
    // Given up on at the silence limit (1.5 s), give or take the polling
    // and a busy machine, well before ten times the hard limit (5 s).
    for r in &rows[..2] {
        assert!(
            (1500.0..3000.0).contains(&r.max_act_ms),
            "{} ms: {r:?}",
            r.max_act_ms
        );
    }
    for r in &rows[2..] {
        assert_eq!(
            (r.outcome.as_str(), r.result.as_str(), r.steps),
            ("forfeited", "loss", 0),
            "{r:?}"
        );
        assert_eq!(
            r.detail,
            "not played: sleeper timed out in 2 games in a row (forfeit_after_timeouts = 2), \
             so its remaining games are lost unplayed"
        );
    }
    // Two games of about 1.5 s each, the four others not played (waiting
    // ten times the hard limit, the six would take 30 s).
    assert!(took < Duration::from_secs(6), "took {took:?}");

    // Three games at once: the third begins before the first two time
    // out, and is recorded as forfeited all the same.
    let (rows3, took3) = play(&dir.path().join("j3"), &config(3));
    assert_eq!(verdicts(&rows3), verdicts(&rows));
    assert!(took3 < Duration::from_secs(6), "took {took3:?}");

    // Resumed after the first two games: the rest is forfeited at once,
    // from the journal.
    let out = dir.path().join("j1/out");
    let journal = std::fs::read_to_string(out.join("journal.jsonl")).unwrap();
    let lines: Vec<&str> = journal.lines().collect();
    assert_eq!(lines.len(), 6);
    let first_two: String = lines
        .iter()
        .filter(|l| l.contains("\"outcome\":\"timeout\""))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(first_two.lines().count(), 2);
    std::fs::write(out.join("journal.jsonl"), first_two).unwrap();
    let (resumed, took) = play(&dir.path().join("j1"), &config(1));
    assert_eq!(verdicts(&resumed), verdicts(&rows));
    // Played one after the other, the four would take 6 s.
    assert!(took < Duration::from_secs(3), "took {took:?}");
}

#[test]
fn a_built_in_agent_that_sleeps_is_given_up_on_once_silent_past_its_hard_limit_and_a_second() {
    let dir = tempfile::tempdir().unwrap();
    let text = r#"
name = "hang"
game = "bait"
levels = [0]
max_steps = 3
[time]
act = "150ms"
act_hard = "200ms"
[[agents]]
agent = "fixture-hang"
"#;
    let path = dir.path().join("hang.toml");
    std::fs::write(&path, text).unwrap();
    let cfg = harness::registry::load_config(&path).unwrap();
    let t0 = Instant::now();
    let out = run_config(&cfg, &dir.path().join("out"), ProgressMode::Silent).unwrap();
    let took = t0.elapsed();
    let r = &out.rows[0];
    // A built-in agent that does not answer is disqualified (its thread is
    // abandoned), here at the silence limit (1.2 s), not at ten times the
    // hard limit (2 s).
    assert_eq!(r.outcome, "disqualified", "{r:?}");
    assert!(
        r.detail.contains(
            "the limit is 200 ms of CPU time, and an agent that neither runs nor waits for a \
             CPU is waited for at most 1.2 s; worker thread abandoned"
        ),
        "{r:?}"
    );
    assert!(took < Duration::from_millis(1900), "took {took:?}");
}
