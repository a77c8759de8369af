//! Snake in the harness: maps (generated or Botzone JSON), agents, JSON view,
//! `arena trace snake` and `arena bench snake`.

use super::arena_game::{jsonl_contestant, read_level_file, ArenaGame, ExternalCtx, GameCommand, LevelInfo, GameView};
use crate::external::protocols::botzone::BotzoneBot;
use crate::external::{Protocol, ProtocolKind};
use crate::play::player::{Contestant, Failure};
use crate::registry::args::BenchArgs;
use crate::error::HarnessError;
use agents::{AgentError, AgentInfo, AgentParams};
use games::snake::{generate_map, Snake};
use games::{Agent, Game};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use serde_json::json;
use std::io::Write;
use std::time::{Duration, Instant};

/// A map in Botzone's initial-request form (extra keys such as the bot's own
/// `x`/`y` are ignored).
#[derive(Debug, Deserialize)]
struct MapJson {
    width: i64,
    height: i64,
    #[serde(default)]
    obstacle: Vec<Cell>,
}

#[derive(Debug, Deserialize)]
struct Cell {
    x: i64,
    y: i64,
}

/// Parse a Botzone map JSON (`{"width": m, "height": n, "obstacle": [{"x":..,"y":..}, ...]}`).
pub fn parse_map(text: &str, path: &str) -> Result<Snake, HarnessError> {
    let map: MapJson = serde_json::from_str(text).map_err(|e| {
        HarnessError::Level {
            path: path.to_string(),
            source: games::grid::ParseError::new(
                e.line(),
                e.column(),
                format!("{e}; expected {{\"width\": m, \"height\": n, \"obstacle\": [{{\"x\": row, \"y\": col}}, ...]}}")
                    .replace(&format!(" at line {} column {}", e.line(), e.column()), ""),
            ),
        }
    })?;
    let obstacles: Vec<(i64, i64)> = map.obstacle.iter().map(|c| (c.x, c.y)).collect();
    Snake::new(map.height, map.width, &obstacles).map_err(|e| HarnessError::Level {
        path: path.to_string(),
        source: games::grid::ParseError::new(0, 0, e.to_string()),
    })
}

impl GameView for Snake {
    const NAME: &'static str = "snake";
    fn state_json(&self, seat: usize) -> serde_json::Value {
        let body = |s: usize| -> Vec<[usize; 2]> {
            self.body(s).into_iter().map(|(x, y)| [x, y]).collect()
        };
        json!({
            "round": self.round(),
            "you": seat,
            "height": self.rows(),
            "width": self.cols(),
            "obstacle": self.obstacles().into_iter().map(|(x, y)| json!({"x": x, "y": y})).collect::<Vec<_>>(),
            "bodies": [body(0), body(1)],
            "alive": [self.alive(0), self.alive(1)],
            "over": self.is_over(),
        })
    }
}

impl ArenaGame for Snake {
    const DESCRIPTION: &'static str =
        "Botzone's two-player simultaneous Snake: grow, don't collide (2 players, simultaneous)";
    const ACTION_SYNTAX: &'static str =
        "D0/D1 with directions 0 (up), 1 (right), 2 (down), 3 (left)";
    // A move into a wall or a body is legal: the snake dies.
    const TRACE_CHECKS_LEGALITY: bool = false;
    const PROTOCOLS: &'static [ProtocolKind] = &[ProtocolKind::Jsonl, ProtocolKind::Botzone];
    const BENCH: Option<GameCommand<BenchArgs>> = Some(bench);

    fn trace_json(&self) -> serde_json::Value {
        trace_json(self)
    }

    fn external_contestant(ctx: ExternalCtx<'_>) -> Result<Box<dyn Contestant<Self>>, Failure> {
        match ctx.spec.protocol {
            Protocol::Botzone { mode } => Ok(Box::new(BotzoneBot::new(
                ctx.spec,
                mode,
                ctx.label,
                ctx.log,
                ctx.keep.clone(),
                ctx.limits,
            )?)),
            _ => jsonl_contestant(ctx),
        }
    }

    fn builtin_levels() -> Vec<LevelInfo> {
        vec![
            LevelInfo {
                name: "random".to_string(),
                description: "the map Botzone's judge draws for the episode seed (its low 32 bits)"
                    .to_string(),
            },
            LevelInfo {
                name: "seed:N".to_string(),
                description:
                    "the map Botzone's judge draws for initdata {\"seed\": N} (N: 0..2^32)"
                        .to_string(),
            },
        ]
    }

    fn default_levels() -> Vec<String> {
        vec!["random".to_string()]
    }

    fn load_level(spec: &str, seed: u64) -> Result<Self, HarnessError> {
        let judge_seed = if spec == "random" {
            Some(seed as u32)
        } else if let Some(n) = spec.strip_prefix("seed:") {
            Some(n.trim().parse::<u32>().map_err(|_| {
                HarnessError::BadLevel(format!(
                    "snake level `{spec}`: expected seed:N with N an integer in 0..=4294967295"
                ))
            })?)
        } else {
            None
        };
        if let Some(judge_seed) = judge_seed {
            let (n, m, obs) = generate_map(judge_seed);
            return Ok(Snake::new(n, m, &obs).expect("generated maps are valid"));
        }
        let text = read_level_file::<Snake>(spec)?;
        parse_map(&text, spec)
    }

    fn set_max_steps(&mut self, max_steps: u32) {
        self.set_max_rounds(max_steps);
    }

    fn agents() -> &'static [AgentInfo] {
        agents::snake::AGENTS
    }

    fn make_agent(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, AgentError> {
        agents::snake::make(name, params, seed)
    }
}

/// The trace contract: `{"round", "bodies" (head first), "alive", "over", "scores" or null}`.
pub fn trace_json(s: &Snake) -> serde_json::Value {
    let body =
        |k: usize| -> Vec<[usize; 2]> { s.body(k).into_iter().map(|(x, y)| [x, y]).collect() };
    json!({
        "round": s.round(),
        "bodies": [body(0), body(1)],
        "alive": [s.alive(0), s.alive(1)],
        "over": s.is_over(),
        "scores": s.scores(),
    })
}

/// `arena bench snake`: DUCT playouts per second (single thread) from the
/// start of generated maps and from positions 20 rounds in.
pub fn bench(args: &BenchArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    let io = |e| HarnessError::io("<stdout>", e);
    let per = Duration::from_secs_f64(args.seconds.max(0.05));
    writeln!(
        out,
        "DUCT playouts per second, single thread, {:.1} s per position",
        per.as_secs_f64()
    )
    .map_err(io)?;
    writeln!(
        out,
        "{:<8} {:>6} {:>8} {:>12} {:>14}",
        "map", "size", "round", "playouts", "playouts/s"
    )
    .map_err(io)?;
    let mut total = (0u64, 0f64);
    for seed in 0..4u64 {
        let mut state = Snake::load_level("random", seed)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for phase in 0..2 {
            if phase == 1 {
                // A position 15 rounds in: random-valid walks until one survives.
                let start = state.clone();
                loop {
                    state = start.clone();
                    for _ in 0..15 {
                        let d0 = pick(&state, 0, &mut rng);
                        let d1 = pick(&state, 1, &mut rng);
                        state.play(d0, d1);
                    }
                    if !state.is_over() {
                        break;
                    }
                }
            }
            let mut duct = agents::snake::Duct::new(seed, 0.8, 30, 1.0);
            let start = Instant::now();
            let (_, n) = duct.search(&state, 0, &mut |n| n % 64 == 0 && start.elapsed() >= per);
            let secs = start.elapsed().as_secs_f64();
            total.0 += n;
            total.1 += secs;
            writeln!(
                out,
                "{:<8} {:>6} {:>8} {:>12} {:>14.0}",
                format!("seed {seed}"),
                format!("{}x{}", state.rows(), state.cols()),
                state.round(),
                n,
                n as f64 / secs
            )
            .map_err(io)?;
        }
    }
    writeln!(out, "overall: {:.0} playouts/s", total.0 as f64 / total.1).map_err(io)?;
    Ok(())
}

fn pick(state: &Snake, s: usize, rng: &mut ChaCha8Rng) -> u8 {
    use rand::seq::SliceRandom;
    let dirs = agents::snake::safe_dirs(state, s);
    dirs.choose(rng).copied().unwrap_or(0)
}
