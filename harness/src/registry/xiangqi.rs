//! Xiangqi in the harness: levels (start position or FEN), agents, JSON
//! view, `arena perft xiangqi` and `arena bench xiangqi`.

use super::arena_game::{jsonl_contestant, ArenaGame, ExternalCtx, GameCommand, LevelInfo, GameView};
use crate::external::protocols::uci::Uci;
use crate::external::{Protocol, ProtocolKind, Subprocess};
use crate::play::player::{Contestant, Failure};
use crate::registry::args::{BenchArgs, PerftArgs};
use crate::error::HarnessError;
use agents::{AgentError, AgentInfo, AgentParams};
use games::xiangqi::{parse_perft_vectors, Position, Xiangqi, PERFT_DATA, START_FEN};
use games::{Agent, Game};
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::time::Instant;

impl GameView for Xiangqi {
    const NAME: &'static str = "xiangqi";
    fn state_json(&self, _seat: usize) -> serde_json::Value {
        let o = self.outcome();
        json!({
            "ply": self.tick(),
            "fen": self.fen(),
            "side": if self.position().side() == 0 { "red" } else { "black" },
            "moves": self.moves().iter().map(|m| m.iccs()).collect::<Vec<_>>(),
            "in_check": self.position().in_check(),
            "over": self.is_over(),
            "result": self.result(0).as_str(),
            "reason": o.map(|o| o.reason.as_str()),
        })
    }
}

impl ArenaGame for Xiangqi {
    const DESCRIPTION: &'static str =
        "Xiangqi (Chinese chess): full rules, perpetual check loses, stalemate loses (2 players)";
    const ACTION_SYNTAX: &'static str = "an ICCS move like h2e2";
    const PROTOCOLS: &'static [ProtocolKind] =
        &[ProtocolKind::Jsonl, ProtocolKind::Uci, ProtocolKind::Ucci];
    const PERFT: Option<GameCommand<PerftArgs>> = Some(perft);
    const BENCH: Option<GameCommand<BenchArgs>> = Some(bench);

    fn external_contestant(ctx: ExternalCtx<'_>) -> Result<Box<dyn Contestant<Self>>, Failure> {
        let (dialect, settings) = match &ctx.spec.protocol {
            Protocol::Uci(settings) => (ProtocolKind::Uci, settings),
            Protocol::Ucci(settings) => (ProtocolKind::Ucci, settings),
            _ => return jsonl_contestant(ctx),
        };
        let protocol = Box::new(Uci::new(dialect, settings));
        Ok(Box::new(Subprocess::spawn(
            ctx.spec,
            protocol,
            ctx.log,
            ctx.limits,
        )?))
    }

    fn builtin_levels() -> Vec<LevelInfo> {
        vec![LevelInfo {
            name: "start".to_string(),
            description: format!("the standard start position ({START_FEN})"),
        }]
    }

    fn default_levels() -> Vec<String> {
        vec!["start".to_string()]
    }

    /// `start`, a FEN string, or a file whose first non-empty, non-`#` line
    /// is a FEN.
    fn load_level(spec: &str, _seed: u64) -> Result<Self, HarnessError> {
        if spec == "start" {
            return Ok(Xiangqi::new());
        }
        let path = Path::new(spec);
        if path.is_file() {
            let text = crate::error::read_text(path)?;
            let (line_no, line) = text
                .lines()
                .enumerate()
                .find(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                .ok_or_else(|| {
                    HarnessError::BadLevel(format!("xiangqi level file `{spec}` holds no FEN"))
                })?;
            return Xiangqi::from_fen(line).map_err(|mut source| {
                source.line = line_no + 1;
                HarnessError::Level {
                    path: spec.to_string(),
                    source,
                }
            });
        }
        if spec.contains('/') && spec.split('/').count() == 10 {
            return Xiangqi::from_fen(spec).map_err(|source| HarnessError::Level {
                path: "<FEN>".to_string(),
                source,
            });
        }
        Err(HarnessError::BadLevel(format!(
            "xiangqi level `{spec}` is neither `start`, a FEN, nor a readable file"
        )))
    }

    fn set_max_steps(&mut self, max_steps: u32) {
        self.set_max_plies(max_steps);
    }

    fn agents() -> &'static [AgentInfo] {
        agents::xiangqi::AGENTS
    }

    fn make_agent(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, AgentError> {
        agents::xiangqi::make(name, params, seed)
    }
}

fn io(e: std::io::Error) -> HarnessError {
    HarnessError::io("<stdout>", e)
}

/// `arena perft xiangqi`: with `--divide`, one `move: count` line per root
/// move (ICCS); the total alone on the last line.
pub fn perft(args: &PerftArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    let fen = args.fen.as_deref().unwrap_or(START_FEN);
    let mut pos = Position::from_fen(fen).map_err(|source| HarnessError::Level {
        path: "--fen".to_string(),
        source,
    })?;
    let total = if args.divide && args.depth > 0 {
        let mut total = 0;
        for (m, n) in pos.divide(args.depth) {
            writeln!(out, "{}: {n}", m.iccs()).map_err(io)?;
            total += n;
        }
        total
    } else {
        pos.perft(args.depth)
    };
    writeln!(out, "{total}").map_err(io)?;
    Ok(())
}

/// `arena bench xiangqi`: every shipped perft vector to its full depth (or
/// `--depth`), checked against the expected count, with nodes, time and
/// Mnodes/s per position and in total. Fails if any count differs.
pub fn bench(args: &BenchArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    let vectors = parse_perft_vectors(PERFT_DATA).map_err(|source| HarnessError::Level {
        path: "games/data/xiangqi/perft.txt".to_string(),
        source,
    })?;
    writeln!(
        out,
        "{:>3} {:>5} {:>14} {:>9} {:>8}  fen",
        "#", "depth", "nodes", "seconds", "Mnps"
    )
    .map_err(io)?;
    let (mut all_nodes, mut all_secs, mut bad) = (0u64, 0f64, 0usize);
    for (i, v) in vectors.iter().enumerate() {
        let depth = args
            .depth
            .unwrap_or(v.counts.len() as u32)
            .clamp(1, v.counts.len() as u32);
        let mut pos = Position::from_fen(&v.fen).map_err(|source| HarnessError::Level {
            path: "games/data/xiangqi/perft.txt".to_string(),
            source,
        })?;
        let t = Instant::now();
        let n = pos.perft(depth);
        let secs = t.elapsed().as_secs_f64();
        let want = v.counts[depth as usize - 1];
        let flag = if n == want {
            String::new()
        } else {
            bad += 1;
            format!("  MISMATCH: expected {want}")
        };
        all_nodes += n;
        all_secs += secs;
        writeln!(
            out,
            "{:>3} {:>5} {:>14} {:>9.3} {:>8.2}  {}{flag}",
            i + 1,
            depth,
            n,
            secs,
            n as f64 / secs.max(1e-9) / 1e6,
            v.fen
        )
        .map_err(io)?;
    }
    writeln!(
        out,
        "total: {all_nodes} nodes in {all_secs:.3} s = {:.2} Mnodes/s (leaves bulk-counted at the last ply)",
        all_nodes as f64 / all_secs.max(1e-9) / 1e6
    )
    .map_err(io)?;
    // the same start-position perft with every leaf played (no bulk counting)
    let depth = args.depth.unwrap_or(5).clamp(1, 5);
    let mut pos = Position::start();
    let t = Instant::now();
    let n = pos.perft_full(depth);
    let secs = t.elapsed().as_secs_f64();
    writeln!(
        out,
        "start position perft({depth}) without bulk counting: {n} nodes in {secs:.3} s = {:.2} Mnodes/s",
        n as f64 / secs.max(1e-9) / 1e6
    )
    .map_err(io)?;
    lab_comparison(&vectors, out)?;
    if bad > 0 {
        return Err(HarnessError::CheckFailed(format!(
            "{bad} perft count(s) differ from the expected values"
        )));
    }
    Ok(())
}

/// The USTC lab's experiment (alpha-beta vs plain minimax, depth 4, on its
/// ten boards, reported 24x faster with pruning), on the last ten perft
/// vectors, which are the lab's boards: textbook alpha-beta
/// (`alphabeta plain = true`) and plain minimax (`alphabeta-noprune`) at
/// depth 4, and for comparison arena's full `alphabeta` with `depth = 4`
/// (table, ordering, quiescence, check extension; it stops deepening once it
/// has found a forced mate).
fn lab_comparison(
    vectors: &[games::xiangqi::PerftVector],
    out: &mut dyn Write,
) -> Result<(), HarnessError> {
    use agents::xiangqi::search::{
        minimax_root, plain_alphabeta_root, SearchConfig, SearchResult, Searcher,
    };
    use games::UnlimitedTimer;
    const DEPTH: u32 = 4;
    writeln!(
        out,
        "lab comparison, depth {DEPTH} (nodes, seconds, move): board | plain alpha-beta | minimax | full alphabeta"
    )
    .map_err(io)?;
    let mut totals = [(0u64, 0f64); 3];
    let boards = &vectors[vectors.len().saturating_sub(10)..];
    for (i, v) in boards.iter().enumerate() {
        let game = Xiangqi::from_fen(&v.fen).map_err(|source| HarnessError::Level {
            path: "games/data/xiangqi/perft.txt".to_string(),
            source,
        })?;
        let pos = game.position();
        let timed = |f: &dyn Fn() -> SearchResult| {
            let t = Instant::now();
            let r = f();
            (r, t.elapsed().as_secs_f64())
        };
        let runs = [
            timed(&|| plain_alphabeta_root(pos, DEPTH, &UnlimitedTimer, 1.0)),
            timed(&|| minimax_root(pos, DEPTH, &UnlimitedTimer, 1.0)),
            timed(&|| {
                let mut searcher = Searcher::new(20);
                let cfg = SearchConfig {
                    max_depth: DEPTH,
                    ..SearchConfig::default()
                };
                searcher.search(pos, game.history(), &UnlimitedTimer, cfg)
            }),
        ];
        write!(out, "  {:>2}", i + 1).map_err(io)?;
        for (k, (r, secs)) in runs.iter().enumerate() {
            write!(out, " | {:>9} {:>7.3} {}", r.nodes, secs, r.best.iccs()).map_err(io)?;
            totals[k].0 += r.nodes;
            totals[k].1 += secs;
        }
        writeln!(out).map_err(io)?;
    }
    let [(an, at), (mn, mt), (fnodes, ft)] = totals;
    writeln!(
        out,
        "  all: plain alpha-beta {an} nodes {at:.3} s; minimax {mn} nodes {mt:.3} s; full alphabeta {fnodes} nodes {ft:.3} s"
    )
    .map_err(io)?;
    writeln!(
        out,
        "  minimax / plain alpha-beta: {:.1}x the nodes, {:.1}x the time",
        mn as f64 / (an as f64).max(1.0),
        mt / at.max(1e-9)
    )
    .map_err(io)?;
    Ok(())
}
