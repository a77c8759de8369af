//! Bait in the harness: levels, agents, JSON view, `arena solve bait` and
//! `arena bench bait`.

use super::arena_game::{read_level_file, ArenaGame, GameCommand, LevelInfo, GameView};
use crate::registry::args::{parse_params, BenchArgs, SolveArgs};
use crate::error::HarnessError;
use crate::play::timing::{ms, thread_cpu_time, AgentTimer, Clock};
use agents::{AgentError, AgentInfo, AgentParams};
use games::bait::{Bait, BaitAction, LEVELS};
use games::{Agent, Game};
use serde_json::json;
use std::io::Write;
use std::time::{Duration, Instant};

impl GameView for Bait {
    const NAME: &'static str = "bait";
    /// The view of docs/protocol.md: `avatar` is `[row, column]`, like every
    /// position in every game's view since `arena-jsonl/2` (`/1` had
    /// `[column, row]`, GVGAI's x, y; `Bait::avatar` is still column first).
    fn state_json(&self, _seat: usize) -> serde_json::Value {
        let (c, r) = self.avatar();
        json!({
            "tick": self.tick(),
            "avatar": [r, c],
            "has_key": self.has_key(),
            "alive": self.alive(),
            "score": self.score(0),
            "over": self.is_over(),
            "result": self.result(0).as_str(),
            "grid": self.grid_string(),
        })
    }
}

impl ArenaGame for Bait {
    const DESCRIPTION: &'static str =
        "GVGAI's Bait: push boxes into holes, take the key, reach the door (1 player)";
    const ACTION_SYNTAX: &'static str = "UP, DOWN, LEFT, RIGHT or NIL";
    const SOLVE: Option<GameCommand<SolveArgs>> = Some(solve);
    const BENCH: Option<GameCommand<BenchArgs>> = Some(bench);

    fn builtin_levels() -> Vec<LevelInfo> {
        LEVELS
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let s = Bait::parse(t).expect("built-in level parses");
                LevelInfo {
                    name: i.to_string(),
                    description: format!("GVGAI bait_lvl{i}.txt, {}x{}", s.width(), s.height()),
                }
            })
            .collect()
    }

    fn load_level(spec: &str, _seed: u64) -> Result<Self, HarnessError> {
        if let Ok(i) = spec.parse::<usize>() {
            if let Some(s) = Bait::level(i) {
                return Ok(s);
            }
        }
        let text = read_level_file::<Bait>(spec)?;
        Bait::parse(&text).map_err(|source| HarnessError::Level {
            path: spec.to_string(),
            source,
        })
    }

    fn set_max_steps(&mut self, max_steps: u32) {
        *self = self.clone().with_max_ticks(max_steps);
    }

    fn agents() -> &'static [AgentInfo] {
        agents::bait::AGENTS
    }

    fn make_agent(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, AgentError> {
        agents::bait::make(name, params, seed)
    }
}

/// Replay `plan` on `level`: the state after it, or `None` if the game ended
/// before the last action.
fn replay(level: &Bait, plan: &[BaitAction]) -> Option<Bait> {
    let mut s = level.clone();
    for &a in plan {
        if s.is_over() {
            return None;
        }
        s.advance(&[a]);
    }
    Some(s)
}

/// `arena solve bait --level L --agent NAME`: run the agent once on level
/// `L` with the whole `--time-limit` (the planners `dfs`, `bfs`, `astar`
/// search directly; other agents are played, 40 ms per act, until the game
/// ends or the time is up). The plan is checked by replaying it (a plan that
/// does not win is a bug: exit code 4). stdout's last line is the plan as
/// comma-separated GVGAI action names, empty when none was found (an
/// outcome, exit code 0); stderr gets the outcome, length, score, nodes
/// expanded and time. `--out` writes a one-row CSV. Default agent: `astar`.
pub fn solve(args: &SolveArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    let name = args.agent.as_deref().unwrap_or("astar");
    let spec = match (&args.level, &args.levels) {
        (Some(spec), None) => spec,
        (None, None) => {
            return Err(HarnessError::Flag(
                "arena solve bait needs --level (0-4 or a level file)".into(),
            ))
        }
        _ => {
            return Err(HarnessError::Flag(
                "arena solve bait takes one --level (0-4 or a level file); --levels is for Sokoban and the supply maze".into(),
            ))
        }
    };
    let params = parse_params(&args.params).map_err(HarnessError::Flag)?;
    let level = Bait::load_level(spec, 0)?;
    // Build the agent once up front so a bad name or parameter is exit code 2
    // before any search.
    Bait::make_agent(name, &params, 0)?;
    let start = Instant::now();
    let timer = AgentTimer::new(Clock::Wall, start, args.time_limit);
    let r = agents::bait::solve(name, &params, 0, &level, &timer)?;
    let t = ms(start.elapsed());
    let (line, score) = if r.outcome == agents::bait::SolveOutcome::Solved {
        match replay(&level, &r.plan) {
            Some(end) if end.won() => (
                r.plan
                    .iter()
                    .map(|a| a.name())
                    .collect::<Vec<_>>()
                    .join(","),
                end.int_score().to_string(),
            ),
            _ => {
                return Err(HarnessError::CheckFailed(format!(
                    "level {spec}: {name} returned a plan that does not win (a bug): {}",
                    r.plan
                        .iter()
                        .map(|a| a.name())
                        .collect::<Vec<_>>()
                        .join(",")
                )))
            }
        }
    } else {
        (String::new(), "-".to_string())
    };
    let length = if line.is_empty() {
        "-".to_string()
    } else {
        r.plan.len().to_string()
    };
    eprintln!(
        "level {spec} ({}x{}): {}, length {length}, score {score}, expanded {}, {name}, {t:.2} ms",
        level.width(),
        level.height(),
        r.outcome.as_str(),
        r.expanded
    );
    match r.outcome {
        agents::bait::SolveOutcome::MemoryCap => eprintln!(
            "hint: --param max_nodes=N raises the cap on stored positions (see `arena list bait`)"
        ),
        agents::bait::SolveOutcome::Timeout => eprintln!(
            "hint: --time-limit raises the budget (bfs needs 60-90 s on level 3: --time-limit 3m)"
        ),
        _ => {}
    }
    writeln!(out, "{line}").map_err(|e| HarnessError::io("<stdout>", e))?;
    if let Some(path) = &args.out {
        let csv_err = |source| HarnessError::Csv {
            path: path.clone(),
            source,
        };
        let mut w = csv::Writer::from_path(path).map_err(csv_err)?;
        w.write_record([
            "level", "agent", "result", "length", "score", "expanded", "ms", "plan",
        ])
        .map_err(csv_err)?;
        w.write_record([
            spec.as_str(),
            name,
            r.outcome.as_str(),
            &length,
            &score,
            &r.expanded.to_string(),
            &format!("{t:.3}"),
            &line,
        ])
        .map_err(csv_err)?;
        w.flush().map_err(|e| HarnessError::io(path, e))?;
    }
    Ok(())
}

/// GVGAI's own forward model on this machine kind (copy+advance and
/// advance-only per second, Java, one thread), from the research notes
/// (`shared/research/gvgai-bait.md` §8), for comparison.
const JAVA: [(f64, f64); 5] = [
    (98e3, 382e3),
    (38e3, 158e3),
    (26e3, 108e3),
    (13.6e3, 29e3),
    (47e3, 145e3),
];

/// Random walks from `root` restarted after 60 steps or at the end of a
/// game (GVGAI's measurement): `clone` makes each step on a copy (the
/// pattern of tree search), otherwise the state advances in place. Runs for
/// about `per` of wall time and returns steps per second of the thread's CPU
/// time and per second of wall time.
fn walk_rate(root: &Bait, actions: &[BaitAction], per: Duration, clone: bool) -> (f64, f64) {
    const CHUNK: u64 = 1 << 14;
    let mut cur = root.clone();
    let mut depth = 0;
    let mut i = 0usize;
    let mut steps = 0u64;
    let mut sink = 0u64;
    let start = Instant::now();
    let cpu0 = thread_cpu_time();
    loop {
        for _ in 0..CHUNK {
            let a = actions[i];
            i = (i + 1) % actions.len();
            if clone {
                let mut next = cur.clone();
                next.advance(&[a]);
                sink = sink.wrapping_add(next.tick() as u64);
                cur = next;
            } else {
                cur.advance(&[a]);
            }
            depth += 1;
            if depth >= 60 || cur.is_over() {
                cur = root.clone();
                depth = 0;
            }
        }
        steps += CHUNK;
        if start.elapsed() >= per {
            break;
        }
    }
    std::hint::black_box(sink);
    let cpu = thread_cpu_time().saturating_sub(cpu0).as_secs_f64();
    let wall = start.elapsed().as_secs_f64();
    (steps as f64 / cpu.max(1e-9), steps as f64 / wall)
}

/// `arena bench bait`: forward-model throughput per level, one thread:
/// clone+advance per second (each step on a fresh copy, as tree search does)
/// and advance per second (in place), on uniformly random moves, with the
/// state's size and GVGAI's Java figures for comparison. Rates are per
/// second of the thread's CPU time, so other load on the machine does not
/// deflate them; the wall-clock rate of clone+advance is shown too (the same
/// on a quiet machine). `--seconds` per measurement (default 1).
pub fn bench(args: &BenchArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    use rand::{Rng, SeedableRng};
    let io = |e| HarnessError::io("<stdout>", e);
    let per = Duration::from_secs_f64(args.seconds.clamp(0.01, 3600.0));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let actions: Vec<BaitAction> = (0..4096)
        .map(|_| BaitAction::MOVES[rng.gen_range(0..4)])
        .collect();
    writeln!(
        out,
        "Bait forward model, one thread, random walks of up to 60 moves, {:.2} s per figure; state {} bytes",
        per.as_secs_f64(),
        std::mem::size_of::<Bait>()
    )
    .map_err(io)?;
    writeln!(
        out,
        "rates per second of thread CPU time ((wall): per second of wall time); Java: GVGAI's engine, research notes"
    )
    .map_err(io)?;
    writeln!(
        out,
        "{:<6} {:>6} {:>16} {:>12} {:>12} {:>16} {:>11} {:>9}",
        "level",
        "size",
        "clone+advance/s",
        "(wall)",
        "advance/s",
        "Java copy+adv/s",
        "Java adv/s",
        "speed-up"
    )
    .map_err(io)?;
    let mut worst = f64::INFINITY;
    for (i, java) in JAVA.iter().enumerate() {
        let root = Bait::level(i).expect("built-in level");
        let (ca, ca_wall) = walk_rate(&root, &actions, per, true);
        let (a, _) = walk_rate(&root, &actions, per, false);
        worst = worst.min(ca);
        writeln!(
            out,
            "{:<6} {:>6} {:>16.0} {:>12.0} {:>12.0} {:>16.0} {:>11.0} {:>8.0}x",
            i,
            format!("{}x{}", root.width(), root.height()),
            ca,
            ca_wall,
            a,
            java.0,
            java.1,
            ca / java.0
        )
        .map_err(io)?;
    }
    writeln!(
        out,
        "slowest level: {:.1} million clone+advance/s",
        worst / 1e6
    )
    .map_err(io)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `[row, column]` of the avatar's letter in the view's grid.
    fn avatar_in_grid(view: &serde_json::Value) -> Option<[u64; 2]> {
        let grid = view["grid"].as_str()?;
        grid.split('/').enumerate().find_map(|(r, row)| {
            row.chars()
                .position(|ch| matches!(ch, 'A' | 'B' | 'X' | 'Y'))
                .map(|c| [r as u64, c as u64])
        })
    }

    #[test]
    fn the_view_puts_the_avatar_at_row_then_column_as_the_grid_does() {
        // Level 0's avatar starts at row 1, column 2: the two orders differ.
        let s = Bait::level(0).unwrap();
        let v = s.state_json(0);
        assert_eq!(v["avatar"], json!([1, 2]));
        assert_eq!(avatar_in_grid(&v), Some([1, 2]));

        // Every built-in level, along a walk that visits many cells.
        let moves = ["DOWN", "RIGHT", "DOWN", "LEFT", "DOWN", "UP", "RIGHT", "RIGHT", "UP"];
        for i in 0..LEVELS.len() {
            let mut s = Bait::level(i).unwrap();
            let mut off_diagonal = 0;
            for (t, m) in moves.iter().cycle().take(60).enumerate() {
                let v = s.state_json(0);
                let a = &v["avatar"];
                let at = [a[0].as_u64().unwrap(), a[1].as_u64().unwrap()];
                assert_eq!(Some(at), avatar_in_grid(&v), "level {i} tick {t}: {v}");
                off_diagonal += usize::from(at[0] != at[1]);
                if s.is_over() {
                    break;
                }
                s.advance(&[BaitAction::parse(m).unwrap()]);
            }
            assert!(off_diagonal > 0, "level {i}: the walk never left the diagonal");
        }
    }
}
