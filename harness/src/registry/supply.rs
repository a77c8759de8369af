//! The supply maze in the harness: levels, agents, JSON view, and
//! `arena solve supply` / `arena generate supply`.
//!
//! Level names: `set:N` is instance `N` of the shipped set
//! (`games/data/supply/set.txt`); `FILE` is the only instance of a file,
//! `FILE:N` instance `N` (0-based) of a file holding several.

use super::arena_game::{ArenaGame, GameCommand, LevelInfo, GameView};
use crate::registry::args::{parse_params, GenerateArgs, SolveArgs};
use crate::error::HarnessError;
use crate::play::timing::{ms, AgentTimer, Clock};
use agents::supply::{Algo, SearchOutcome};
use agents::{AgentError, AgentInfo, AgentParams};
use games::supply::{parse_instances, Instance, Supply, SupplyMap, SET};
use games::{Agent, Game};
use rand::SeedableRng;
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// The shipped set, parsed once.
fn set() -> &'static [Arc<SupplyMap>] {
    static SET_MAPS: OnceLock<Vec<Arc<SupplyMap>>> = OnceLock::new();
    SET_MAPS.get_or_init(|| {
        parse_instances(SET)
            .expect("the shipped supply set parses")
            .into_iter()
            .map(|i| Arc::new(i.map))
            .collect()
    })
}

fn read_instances(path: &str) -> Result<Vec<Instance>, HarnessError> {
    let text = crate::error::read_text(Path::new(path))?;
    parse_instances(&text).map_err(|source| HarnessError::Level {
        path: path.to_string(),
        source,
    })
}

/// Resolve a level spec (`set:N`, `FILE`, `FILE:N`) to its instances and
/// label: one instance unless `all` is set and the spec is a bare file.
fn resolve(spec: &str, all: bool) -> Result<Vec<(String, Arc<SupplyMap>)>, HarnessError> {
    if let Some(n) = spec.strip_prefix("set:") {
        let maps = set();
        return match n.parse::<usize>().ok().and_then(|i| maps.get(i)) {
            Some(m) => Ok(vec![(spec.to_string(), m.clone())]),
            None => Err(HarnessError::BadLevel(format!(
                "supply level `{spec}`: the shipped set has instances set:0 to set:{}",
                maps.len() - 1
            ))),
        };
    }
    if Path::new(spec).is_file() {
        let inst = read_instances(spec)?;
        if inst.len() == 1 || all {
            let many = inst.len() > 1;
            return Ok(inst
                .into_iter()
                .enumerate()
                .map(|(i, x)| {
                    let label = if many {
                        format!("{spec}:{i}")
                    } else {
                        spec.to_string()
                    };
                    (label, Arc::new(x.map))
                })
                .collect());
        }
        return Err(HarnessError::BadLevel(format!(
            "supply level `{spec}` holds {} instances; name one as {spec}:N (0 to {})",
            inst.len(),
            inst.len() - 1
        )));
    }
    if let Some((file, n)) = spec.rsplit_once(':') {
        if let (Ok(i), true) = (n.parse::<usize>(), Path::new(file).is_file()) {
            let mut inst = read_instances(file)?;
            if i < inst.len() {
                return Ok(vec![(spec.to_string(), Arc::new(inst.swap_remove(i).map))]);
            }
            return Err(HarnessError::BadLevel(format!(
                "supply level `{spec}`: {file} has {} instance(s), numbered from 0",
                inst.len()
            )));
        }
    }
    Err(HarnessError::BadLevel(format!(
        "supply level `{spec}` is neither a shipped instance (set:0 to set:{}) nor a readable FILE or FILE:N",
        set().len() - 1
    )))
}

impl GameView for Supply {
    const NAME: &'static str = "supply";
    fn state_json(&self, _seat: usize) -> serde_json::Value {
        let (r, c) = self.map().coords(self.pos());
        json!({
            "tick": self.tick(),
            "pos": [r, c],
            "food": self.food(),
            "capacity": self.map().capacity(),
            "steps": self.steps(),
            "score": self.score(0),
            "over": self.is_over(),
            "result": self.result(0).as_str(),
            "grid": self.grid_string(),
        })
    }
}

impl ArenaGame for Supply {
    const DESCRIPTION: &'static str =
        "supply maze (report 002): shortest path with a food budget refilled at supply cells (1 player; score = -steps)";
    const ACTION_SYNTAX: &'static str = "U, D, L or R";
    const SOLVE: Option<GameCommand<SolveArgs>> = Some(solve);
    const GENERATE: Option<GameCommand<GenerateArgs>> = Some(generate);

    fn builtin_levels() -> Vec<LevelInfo> {
        set()
            .iter()
            .enumerate()
            .map(|(i, m)| LevelInfo {
                name: format!("set:{i}"),
                description: format!(
                    "{}x{}, T={}, {} supply cells",
                    m.rows(),
                    m.cols(),
                    m.capacity(),
                    m.supplies().len()
                ),
            })
            .collect()
    }

    fn load_level(spec: &str, _seed: u64) -> Result<Self, HarnessError> {
        let (_, map) = resolve(spec, false)?.remove(0);
        Ok(Supply::new(map))
    }

    fn set_max_steps(&mut self, max_steps: u32) {
        *self = self.clone().with_max_ticks(max_steps);
    }

    fn agents() -> &'static [AgentInfo] {
        agents::supply::AGENTS
    }

    fn make_agent(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, AgentError> {
        agents::supply::make(name, params, seed)
    }
}

/// `arena solve supply`: run a planner on one instance (`--level SPEC`, or
/// `--levels FILE --level N` with N counted from 1) or on every instance of
/// `--levels FILE`. For
/// each instance, stdout gets one line: the path as U/D/L/R letters,
/// `unreachable`, or `timeout` (the search hit `--time-limit`); stderr gets
/// the label, steps, nodes expanded and time. Unreachable and timeout are
/// outcomes (exit code 0). `--out` writes a CSV table; `--jobs` is ignored
/// (instances are solved one after another).
pub fn solve(args: &SolveArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    let name = args.agent.as_deref().unwrap_or("astar");
    let algo = Algo::from_name(name).ok_or_else(|| {
        HarnessError::Flag(format!(
            "--agent `{name}` is not a supply planner; valid: {}",
            Algo::ALL.map(|a| a.name()).join(", ")
        ))
    })?;
    let params = parse_params(&args.params).map_err(HarnessError::Flag)?;
    agents::params::check_listed("supply", agents::supply::AGENTS, name, &params)?;
    let levels = match (&args.level, &args.levels) {
        (Some(spec), None) => resolve(spec, false)?,
        (None, Some(file)) => resolve(&file.to_string_lossy(), true)?,
        (Some(n), Some(file)) => {
            let f = file.to_string_lossy();
            let count = read_instances(&f)?.len();
            let k = n
                .trim()
                .parse::<usize>()
                .ok()
                .filter(|&k| (1..=count).contains(&k))
                .ok_or_else(|| {
                    HarnessError::Flag(format!(
                        "--level `{n}` with --levels {f}: expected an instance number from 1 to {count}"
                    ))
                })?;
            resolve(&format!("{f}:{}", k - 1), false)?
        }
        (None, None) => {
            return Err(HarnessError::Flag(
                "arena solve supply needs --levels FILE [--level N] or --level SPEC".into(),
            ))
        }
    };
    let io = |e| HarnessError::io("<stdout>", e);
    let mut rows = Vec::new();
    for (label, map) in levels {
        let start = Instant::now();
        let timer = AgentTimer::new(Clock::Wall, start, args.time_limit);
        let r = agents::supply::solve(&map, algo, &timer);
        let t = ms(start.elapsed());
        let (line, result, steps) = match &r.outcome {
            SearchOutcome::Found(path) => {
                if map.check_path(path) != Some(path.len()) {
                    return Err(HarnessError::CheckFailed(format!(
                        "{label}: {name} returned an invalid path (a bug)"
                    )));
                }
                (
                    games::supply::Dir::path_string(path),
                    "solved",
                    Some(path.len()),
                )
            }
            SearchOutcome::Unreachable => ("unreachable".to_string(), "unreachable", None),
            SearchOutcome::Interrupted => ("timeout".to_string(), "timeout", None),
        };
        let steps_text = steps.map_or("-".to_string(), |s| s.to_string());
        let pre = if r.precompute > 0 {
            format!(" (+ {} cells scanned building the heuristic)", r.precompute)
        } else {
            String::new()
        };
        eprintln!(
            "{label} ({}x{}, T={}): {result}, steps {steps_text}, expanded {}{pre}, {name}, {t:.2} ms",
            map.rows(),
            map.cols(),
            map.capacity(),
            r.expanded
        );
        writeln!(out, "{line}").map_err(io)?;
        rows.push((label, result, steps_text, r.expanded, t));
    }
    if let Some(path) = &args.out {
        let mut w = csv::Writer::from_path(path).map_err(|source| HarnessError::Csv {
            path: path.clone(),
            source,
        })?;
        let csv_err = |source| HarnessError::Csv {
            path: path.clone(),
            source,
        };
        w.write_record(["level", "agent", "result", "steps", "expanded", "ms"])
            .map_err(csv_err)?;
        for (label, result, steps, expanded, t) in rows {
            w.write_record([
                label,
                name.to_string(),
                result.to_string(),
                steps,
                expanded.to_string(),
                format!("{t:.3}"),
            ])
            .map_err(csv_err)?;
        }
        w.flush().map_err(|e| HarnessError::io(path, e))?;
    }
    Ok(())
}

/// `arena generate supply --count N --size MxN --food T --seed S`: random
/// instances in the lab's integer form, separated by blank lines. Each is
/// preceded by comments: `; instance K`, `; status: solvable STEPS` /
/// `; status: unsolvable food` / `; status: unsolvable walls` (exact, from a
/// reference solver), and `; maze distance: D` (shortest path ignoring food)
/// when start and exit are connected. About one in five is unsolvable.
/// Defaults: `--size 10x10`, `--food 6`.
pub fn generate(args: &GenerateArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    let size = args.size.as_deref().unwrap_or("10x10");
    let (rows, cols) = super::parse_size(size, "MxN (rows x columns), e.g. 12x20")?;
    let food = args.food.unwrap_or(6);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
    let got = games::supply::generate(&mut rng, rows, cols, food, args.count)
        .map_err(|e| HarnessError::Flag(format!("arena generate supply: {e}")))?;
    let mut text = format!(
        "; arena generate supply --count {} --size {rows}x{cols} --food {food} --seed {}\n\n",
        args.count, args.seed
    );
    for (k, g) in got.iter().enumerate() {
        text.push_str(&format!("; instance {k}\n; status: {}\n", g.status));
        match g.status {
            games::supply::Status::Solvable { maze_distance, .. }
            | games::supply::Status::UnsolvableFood { maze_distance } => {
                text.push_str(&format!("; maze distance: {maze_distance}\n"))
            }
            games::supply::Status::UnsolvableWalls => {}
        }
        text.push_str(&g.map.to_int_text());
        text.push('\n');
    }
    match &args.out {
        Some(path) => std::fs::write(path, text).map_err(|e| HarnessError::io(path, e)),
        None => out
            .write_all(text.as_bytes())
            .map_err(|e| HarnessError::io("<stdout>", e)),
    }
}

