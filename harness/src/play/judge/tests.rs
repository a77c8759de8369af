//! The README's "Time rules" table, row by row, with plain values.

use super::*;
use std::time::Duration;

fn ms(v: u64) -> Duration {
    Duration::from_millis(v)
}

/// One request to judge and the expected verdict.
struct Row {
    /// What the row shows.
    why: &'static str,
    limits: TimeLimits,
    phase: Phase,
    /// Wall, CPU and run delay, in ms.
    wall: u64,
    cpu: Option<u64>,
    waited: Option<u64>,
    /// The counted time (looks at the timer times the step), in ms.
    counted: Option<u64>,
    answer: Answer,
    /// Steal and starvation over the request, in ms.
    steal: u64,
    starvation: u64,
    /// The verdict's name, the time charged in ms, and a part of its
    /// detail (disqualified, time-forfeit).
    verdict: &'static str,
    charged: u64,
    detail: &'static str,
}

/// 20 ms soft, 25 ms hard per act; 100 ms soft, 150 ms hard for init.
fn limits(clock: Clock, on_overrun: OnOverrun) -> TimeLimits {
    TimeLimits {
        act: ms(20),
        act_hard: ms(25),
        init: ms(100),
        init_hard: ms(150),
        clock,
        on_overrun,
        counted_step: Duration::from_micros(20),
    }
}

/// A given answer on the CPU clock, with the fallback rule, nothing to
/// excuse: each row changes what it shows.
fn row(why: &'static str) -> Row {
    Row {
        why,
        limits: limits(Clock::Cpu, OnOverrun::Fallback),
        phase: Phase::Act,
        wall: 0,
        cpu: Some(0),
        waited: None,
        counted: None,
        answer: Answer::Given,
        steal: 0,
        starvation: 0,
        verdict: "within",
        charged: 0,
        detail: "",
    }
}

fn wall(why: &'static str) -> Row {
    Row {
        limits: limits(Clock::Wall, OnOverrun::Fallback),
        ..row(why)
    }
}

/// A given answer on the counted clock: the machine took 300 ms of wall
/// time and 200 ms of CPU time, which do not count.
fn counted(why: &'static str) -> Row {
    Row {
        limits: limits(Clock::Counted, OnOverrun::Fallback),
        wall: 300,
        cpu: Some(200),
        waited: Some(50),
        ..row(why)
    }
}

fn rows() -> Vec<Row> {
    let loss = limits(Clock::Cpu, OnOverrun::Loss);
    let awaited = Answer::Awaited { runnable: None };
    let asleep = Answer::Awaited {
        runnable: Some(false),
    };
    vec![
        // `act` / `act_hard`.
        Row { wall: 20, cpu: Some(18), charged: 18, ..row("an act within the soft budget") },
        Row { wall: 20, cpu: Some(20), charged: 20, ..row("an act at the soft budget") },
        Row { wall: 24, cpu: Some(22), verdict: "overrun", charged: 22, ..row("an act past the soft budget: the fallback") },
        Row { wall: 25, cpu: Some(25), verdict: "overrun", charged: 25, ..row("an act at the hard limit") },
        Row {
            wall: 30, cpu: Some(26), verdict: "disqualified", charged: 26,
            detail: "act took 26.0 ms (cpu), past the hard limit of 25.0 ms",
            ..row("an act past the hard limit")
        },
        // `init` / `init_hard`.
        Row { phase: Phase::Init, wall: 99, cpu: Some(90), charged: 90, ..row("init within its budget") },
        Row { phase: Phase::Init, wall: 140, cpu: Some(130), verdict: "overrun", charged: 130, ..row("init past its soft budget") },
        Row {
            phase: Phase::Init, wall: 160, cpu: Some(151), verdict: "disqualified", charged: 151,
            detail: "init took 151.0 ms (cpu), past the hard limit of 150.0 ms",
            ..row("init past its hard limit")
        },
        // `clock`: the same act on each clock.
        Row { wall: 60, cpu: Some(10), charged: 10, ..row("cpu: a sleeping agent's sleep is not its CPU time") },
        Row {
            wall: 60, cpu: Some(10), waited: Some(0), verdict: "disqualified", charged: 60,
            detail: "act took 60.0 ms (wall), past the hard limit of 25.0 ms",
            ..wall("wall: its sleep counts")
        },
        Row { wall: 22, cpu: None, verdict: "overrun", charged: 22, ..row("cpu: an unreadable CPU time is the wall time") },
        // `on_overrun`.
        Row {
            limits: loss, wall: 24, cpu: Some(22), verdict: "time-forfeit", charged: 22,
            detail: "act took 22.0 ms (cpu), past the soft budget of 20.0 ms (on_overrun = \"loss\")",
            ..row("loss: an act past the soft budget loses on time")
        },
        Row { limits: loss, wall: 20, cpu: Some(19), charged: 19, ..row("loss: within is within") },
        Row {
            limits: loss, wall: 30, cpu: Some(26), verdict: "disqualified", charged: 26,
            detail: "past the hard limit", ..row("loss: past the hard limit is still a disqualification")
        },
        Row {
            limits: loss, phase: Phase::Init, wall: 140, cpu: Some(130), verdict: "overrun", charged: 130,
            ..row("loss: init's overrun is counted, not lost")
        },
        // Starved via run delay (wall clock).
        Row {
            wall: 65, cpu: Some(15), waited: Some(50), verdict: "starved", charged: 15,
            ..wall("wall: an agent that computed and waited for a CPU is forgiven the wait")
        },
        Row {
            wall: 65, cpu: Some(1), waited: Some(2), starvation: 50, verdict: "disqualified", charged: 63,
            detail: "act took 65.0 ms (wall; 2.0 ms of it not the agent's)",
            ..wall("wall: a sleeping agent is forgiven nothing, however late the probe")
        },
        Row {
            limits: TimeLimits { act_hard: ms(100), ..limits(Clock::Wall, OnOverrun::Fallback) },
            wall: 65, cpu: Some(130), waited: Some(300), verdict: "overrun", charged: 65,
            ..wall("wall: its own threads queueing behind each other are not forgiven")
        },
        Row {
            wall: 65, cpu: Some(15), waited: None, starvation: 50, verdict: "starved", charged: 15,
            ..wall("wall: the run delay unreadable, the probe's lateness stands in")
        },
        Row {
            wall: 40, cpu: Some(15), waited: Some(17), verdict: "overrun", charged: 23,
            ..wall("wall: forgiven part of it, still past the soft budget")
        },
        // Starved via steal (either clock), at most the agent's CPU time.
        Row { wall: 70, cpu: Some(65), steal: 50, verdict: "starved", charged: 15, ..row("cpu: 50 ms stolen of 65 ms") },
        Row { wall: 70, cpu: Some(65), steal: 40, verdict: "overrun", charged: 25, ..row("cpu: 40 ms stolen, an overrun") },
        Row {
            wall: 70, cpu: Some(65), steal: 30, verdict: "disqualified", charged: 35,
            detail: "act took 65.0 ms (cpu; 30.0 ms of it not the agent's), past the hard limit of 25.0 ms",
            ..row("cpu: 30 ms stolen, past the hard limit")
        },
        Row {
            wall: 65, cpu: Some(50), waited: Some(0), steal: 60, verdict: "starved", charged: 15,
            ..wall("wall: steal forgiven up to the agent's CPU time")
        },
        Row {
            wall: 65, cpu: Some(1), waited: Some(0), steal: 60, verdict: "disqualified", charged: 64,
            detail: "1.0 ms of it not the agent's",
            ..wall("wall: a sleeping agent's time is not stolen")
        },
        Row { wall: 18, cpu: Some(15), steal: 50, starvation: 50, charged: 15, ..row("within the budget, nothing is excused") },
        // The counted clock: only the looks at the timer count.
        Row { counted: Some(18), charged: 18, ..counted("counted: within, however slow the machine") },
        Row { counted: Some(20), charged: 20, ..counted("counted: at the soft budget") },
        Row { counted: Some(22), verdict: "overrun", charged: 22, ..counted("counted: past the soft budget, the fallback") },
        Row {
            counted: Some(26), verdict: "disqualified", charged: 26,
            detail: "act took 26.0 ms (counted), past the hard limit of 25.0 ms",
            ..counted("counted: past the hard limit")
        },
        Row {
            counted: Some(24), steal: 50, starvation: 50, verdict: "overrun", charged: 24,
            ..counted("counted: steal and starvation excuse nothing")
        },
        Row {
            limits: limits(Clock::Counted, OnOverrun::Loss), counted: Some(22), verdict: "time-forfeit", charged: 22,
            detail: "act took 22.0 ms (counted), past the soft budget of 20.0 ms",
            ..counted("counted: loss on time")
        },
        Row {
            counted: Some(10), answer: asleep, verdict: "wait", charged: 10,
            ..counted("counted: awaited, no silence rule (the wall-clock deadline decides)")
        },
        // A request not answered yet (the early stops).
        Row { wall: 300, cpu: Some(25), answer: awaited, verdict: "wait", charged: 25, ..row("awaited: within the hard limit so far") },
        Row {
            wall: 300, cpu: Some(1000), answer: awaited, verdict: "disqualified", charged: 1000,
            detail: "act used 1000 ms of CPU without answering, past the hard limit of 25 ms",
            ..row("awaited: past the hard limit, certain to be disqualified")
        },
        Row { wall: 300, cpu: Some(60), steal: 40, answer: awaited, verdict: "wait", charged: 20, ..row("awaited: less steal, within") },
        // The silence rule: hard limit 25 ms + 1 s of silent wall time.
        Row {
            wall: 1100, cpu: Some(10), waited: Some(5), answer: asleep, verdict: "silent", charged: 10,
            ..row("awaited: silent 1.085 s, past 1.025 s")
        },
        Row {
            wall: 1030, cpu: Some(10), waited: Some(5), answer: asleep, verdict: "wait", charged: 10,
            ..row("awaited: silent 1.015 s, not yet")
        },
        Row {
            wall: 4000, cpu: Some(20), waited: Some(3900), answer: asleep, verdict: "wait", charged: 20,
            ..row("awaited: kept waiting for a CPU is not silence")
        },
        Row {
            wall: 3000, cpu: Some(10), waited: Some(5), answer: Answer::Awaited { runnable: Some(true) },
            verdict: "wait", charged: 10, ..row("awaited: runnable now is not silent")
        },
        Row {
            wall: 3000, cpu: Some(10), waited: None, answer: asleep, verdict: "wait", charged: 10,
            ..row("awaited: the run delay unreadable, the deadline alone decides")
        },
        Row {
            wall: 3000, cpu: Some(10), waited: Some(5), answer: awaited, verdict: "wait", charged: 10,
            ..row("awaited: runnable unread, no silence verdict")
        },
        Row {
            wall: 20, cpu: Some(0), waited: Some(0), answer: asleep, verdict: "wait", charged: 20,
            ..wall("awaited: the wall clock has no silence rule")
        },
        Row {
            phase: Phase::Init, wall: 1100, cpu: Some(10), waited: Some(5), answer: asleep, verdict: "wait", charged: 10,
            ..row("awaited: init's own hard limit, 150 ms + 1 s")
        },
    ]
}

#[test]
fn every_row_of_the_time_rules_table() {
    for r in rows() {
        let usage = Usage {
            wall: ms(r.wall),
            cpu: r.cpu.map(ms),
            waited: r.waited.map(ms),
            counted: r.counted.map(ms),
        };
        let excusals = Excusals {
            steal: ms(r.steal),
            starvation: ms(r.starvation),
        };
        let j = judge(&usage, r.answer, excusals, &r.limits, r.phase);
        let why = r.why;
        assert_eq!(j.verdict.as_str(), r.verdict, "{why}: {j:?}");
        assert_eq!(j.charged, ms(r.charged), "{why}: {j:?}");
        assert_eq!(j.used, j.charged + j.excused, "{why}: {j:?}");
        match &j.verdict {
            Verdict::Disqualified { detail } | Verdict::TimeForfeit { detail } => {
                assert!(detail.contains(r.detail), "{why}: {detail}");
            }
            _ => assert_eq!(r.detail, "", "{why}: no detail to check"),
        }
        // Excusals are looked at only past the soft budget: a caller that
        // skips measuring them gets the same verdict.
        if !needs_excusals(&usage, &r.limits, r.phase) {
            let bare = judge(&usage, r.answer, Excusals::default(), &r.limits, r.phase);
            assert_eq!(bare, j, "{why}");
        }
    }
}

#[test]
fn the_wait_for_an_answer_is_twice_the_hard_limit_on_the_wall_clock_ten_times_on_the_cpu_clock() {
    let cpu = limits(Clock::Cpu, OnOverrun::Fallback);
    let wall = limits(Clock::Wall, OnOverrun::Fallback);
    assert_eq!(wall.hang_limit(ms(50)), ms(100));
    assert_eq!(wall.hang_limit(ms(5)), ms(10));
    assert_eq!(cpu.hang_limit(ms(500)), ms(5000));
    // At least one second.
    assert_eq!(cpu.hang_limit(ms(50)), ms(1000));
    assert_eq!(cpu.hang_limit(ms(100)), ms(1000));
    assert_eq!(cpu.hang_limit(ms(101)), ms(1010));
    // Counted: a wall-clock safety net, 50 times the hard limit, at least 5 s.
    let counted = limits(Clock::Counted, OnOverrun::Fallback);
    assert_eq!(counted.hang_limit(ms(50)), ms(5000));
    assert_eq!(counted.hang_limit(ms(500)), ms(25_000));
    // Budgets per phase.
    let b = cpu.budget(Phase::Act);
    assert_eq!((b.soft, b.hard), (ms(20), ms(25)));
    assert_eq!(Phase::Init.budgets(&cpu), (ms(100), ms(150)));
}

#[test]
fn time_spent_waiting_for_a_cpu_does_not_bring_the_cpu_clocks_wait_to_an_end() {
    let cpu = limits(Clock::Cpu, OnOverrun::Fallback);
    let wall = limits(Clock::Wall, OnOverrun::Fallback);
    let hard = ms(50);
    let act = |wall_ms, cpu_ms, waited_ms| Activity {
        wall: ms(wall_ms),
        cpu: ms(cpu_ms),
        waited: ms(waited_ms),
    };
    // A busy machine: 1.5 s into the act, 20 ms of CPU, 1.4 s of it
    // waiting for a CPU: 0.1 s counted, wait on.
    assert!(!cpu.hang_reached(hard, ms(1500), Some(act(1500, 20, 1400)), false));
    // Without a reading of the run delay the wall time alone counts.
    assert!(cpu.hang_reached(hard, ms(1500), None, false));
    // A spinning agent on a quiet machine: its wall time is its CPU time.
    assert!(cpu.hang_reached(hard, ms(1000), Some(act(1000, 1000, 0)), false));
    assert!(!cpu.hang_reached(hard, ms(999), Some(act(999, 999, 0)), false));
    // A spinning agent on a busy machine: stopped once a second is its own.
    assert!(!cpu.hang_reached(hard, ms(3000), Some(act(3000, 900, 2100)), false));
    assert!(cpu.hang_reached(hard, ms(3000), Some(act(3000, 1000, 2000)), false));
    // Runnable now: the time since it last ran may be a wait for a CPU
    // that the run delay shows only once it runs again, so only its CPU
    // time counts: 1.5 s with 100 ms of run delay read, 20 ms of CPU.
    assert!(!cpu.hang_reached(hard, ms(1500), Some(act(1500, 20, 100)), true));
    assert!(cpu.hang_reached(hard, ms(1500), Some(act(1500, 20, 100)), false));
    // A runnable spinner is stopped once a second of CPU is its own.
    assert!(cpu.hang_reached(hard, ms(4000), Some(act(4000, 1000, 100)), true));
    assert!(!cpu.hang_reached(hard, ms(4000), Some(act(4000, 999, 100)), true));
    // The wall clock's wait is its hang limit, whatever the run delay.
    assert!(wall.hang_reached(hard, ms(100), Some(act(100, 10, 90)), false));
    assert!(wall.hang_reached(hard, ms(100), Some(act(100, 10, 90)), true));
    assert!(!wall.hang_reached(hard, ms(99), Some(act(99, 10, 89)), false));
}

#[test]
fn a_silent_agent_is_given_up_on_after_the_hard_limit_and_a_second() {
    let cpu = TimeLimits {
        act_hard: ms(500),
        ..TimeLimits::default()
    };
    let wall = TimeLimits {
        clock: Clock::Wall,
        ..cpu
    };
    let hard = cpu.act_hard;
    assert_eq!(cpu.silence_limit(hard), ms(1500));
    assert_eq!(cpu.hang_limit(hard), ms(5000));
    let act = |wall_ms, cpu_ms, waited_ms| Activity {
        wall: ms(wall_ms),
        cpu: ms(cpu_ms),
        waited: ms(waited_ms),
    };
    // Asleep for 1.6 s (10 ms of CPU, 20 ms waiting for one): silent
    // 1.57 s, past 1.5 s.
    assert_eq!(act(1600, 10, 20).silent(), ms(1570));
    assert!(cpu.gives_up_on_silence(hard, act(1600, 10, 20), false));
    // Not yet: silent 1.47 s.
    assert!(!cpu.gives_up_on_silence(hard, act(1500, 10, 20), false));
    // Computing on a loaded machine: 400 ms of CPU and 4 s waiting for
    // a CPU in 4.45 s of wall time: silent 50 ms, waited for.
    assert!(!cpu.gives_up_on_silence(hard, act(4450, 400, 4000), false));
    // Runnable now, its latest wait not yet in its run delay: waited for.
    assert!(!cpu.gives_up_on_silence(hard, act(3000, 10, 20), true));
    // Threads that ran side by side: never a negative silence.
    assert_eq!(act(1000, 1500, 700).silent(), Duration::ZERO);
    // The wall clock judges sleeping itself: no silence rule.
    assert!(!wall.gives_up_on_silence(hard, act(9000, 0, 0), false));
    // Init's own hard limit.
    assert_eq!(cpu.silence_limit(cpu.init_hard), ms(2250));
}

#[test]
fn a_missing_answer_says_what_was_measured_and_which_limit_applied() {
    let cpu = TimeLimits {
        act_hard: ms(500),
        ..TimeLimits::default()
    };
    let hard = cpu.act_hard;
    assert_eq!(
        cpu.no_answer("act", hard, ms(1523), Some(ms(0)), true, ms(5000)),
        "act: no answer after 1.52 s of wall time while using 0 ms of CPU; the limit is \
         500 ms of CPU time, and an agent that neither runs nor waits for a CPU is waited \
         for at most 1.5 s"
    );
    assert_eq!(
        cpu.no_answer("act", hard, ms(5000), None, false, ms(5000)),
        "act: no answer after 5.0 s of wall time (its CPU time could not be read); the \
         limit is 500 ms of CPU time, and an answer is waited for at most 5.0 s"
    );
    let wall = TimeLimits {
        clock: Clock::Wall,
        ..cpu
    };
    assert_eq!(
        wall.no_answer("init", ms(1250), ms(2501), None, false, ms(2500)),
        "init: no answer after 2.5 s of wall time; the limit is 1.25 s of wall time, and an \
         answer is waited for at most 2.5 s"
    );
    let counted = TimeLimits {
        clock: Clock::Counted,
        ..cpu
    };
    assert_eq!(
        counted.no_answer("act", hard, ms(10_000), Some(ms(3)), false, ms(10_000)),
        "act: no answer after 10.0 s of wall time; the limit is 500 ms of counted time, and \
         an answer is waited for at most 10.0 s of wall time"
    );
}

#[test]
fn clock_and_on_overrun_have_one_name_each_in_configs_and_serde() {
    for c in Clock::ALL {
        assert_eq!(c.as_str().parse::<Clock>(), Ok(c));
        assert_eq!(
            serde_json::to_string(&c).unwrap(),
            format!("\"{}\"", c.as_str())
        );
        assert_eq!(
            serde_json::from_str::<Clock>(&format!("\"{}\"", c.as_str())).unwrap(),
            c
        );
    }
    for o in OnOverrun::ALL {
        assert_eq!(o.as_str().parse::<OnOverrun>(), Ok(o));
        assert_eq!(
            serde_json::to_string(&o).unwrap(),
            format!("\"{}\"", o.as_str())
        );
        assert_eq!(
            serde_json::from_str::<OnOverrun>(&format!("\"{}\"", o.as_str())).unwrap(),
            o
        );
    }
    let e = "sun".parse::<Clock>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "\"sun\": expected \"wall\", \"cpu\" or \"counted\""
    );
    let e = "Loss".parse::<OnOverrun>().unwrap_err();
    assert_eq!(e.to_string(), "\"Loss\": expected \"fallback\" or \"loss\"");
    assert!(serde_json::from_str::<Clock>("\"Wall\"").is_err());
    assert_eq!(TimeLimits::default().clock, Clock::default());
}

#[test]
fn durations_for_messages() {
    assert_eq!(human(ms(500)), "500 ms");
    assert_eq!(human(ms(1250)), "1.25 s");
    assert_eq!(human(ms(1500)), "1.5 s");
    assert_eq!(human(ms(5000)), "5.0 s");
}
