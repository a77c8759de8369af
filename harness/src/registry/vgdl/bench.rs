//! `arena bench gvgai:NAME` (and `vgdl:PATH`): the engine's forward model
//! speed per level, as GVGAI's own speed is usually measured: from a
//! state, clone it and advance the clone with a random legal action; the
//! walk goes on from the advanced clone and starts again from the level's
//! first state when the game is over.

use crate::error::HarnessError;
use crate::play::timing::thread_cpu_time;
use games::vgdl::VgdlGame;
use games::Game;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::time::{Duration, Instant};

/// Clone + advance per second of thread CPU time and of wall time, over
/// `per` of CPU time, walking from `root` with random legal actions.
fn rate(root: &VgdlGame, per: Duration, seed: u64) -> (f64, f64) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut state = root.clone();
    let (cpu0, wall0) = (thread_cpu_time(), Instant::now());
    let mut n = 0u64;
    loop {
        for _ in 0..64 {
            legal.clear();
            state.legal_actions(0, &mut legal);
            let action = match legal.len() {
                0 => state.fallback_action(0),
                k => legal[rng.gen_range(0..k)],
            };
            let mut next = state.clone();
            next.advance(&[action]);
            n += 1;
            state = if next.is_over() { root.clone() } else { next };
        }
        let cpu = thread_cpu_time().saturating_sub(cpu0);
        if cpu >= per {
            let wall = wall0.elapsed().as_secs_f64();
            return (n as f64 / cpu.as_secs_f64(), n as f64 / wall);
        }
    }
}

/// Prints clone + advance per second for each of game `name`'s `levels`
/// (name, first state), `seconds` of CPU time each, and their median.
pub fn bench(
    name: &str,
    levels: &[(String, VgdlGame)],
    seconds: f64,
    out: &mut dyn Write,
) -> Result<(), HarnessError> {
    let io = |e| HarnessError::io("<stdout>", e);
    let per = Duration::from_secs_f64(seconds.clamp(0.01, 3600.0));
    writeln!(
        out,
        "{} forward model, one thread: clone + advance with a random legal action, walking on \
         from the advanced state (from the start again when the game ends), {:.2} s of CPU time per level",
        name,
        per.as_secs_f64()
    )
    .map_err(io)?;
    writeln!(
        out,
        "{:<6} {:>8} {:>16} {:>12}",
        "level", "sprites", "clone+advance/s", "(wall)"
    )
    .map_err(io)?;
    let mut rates = Vec::new();
    for (level, root) in levels {
        let (cpu, wall) = rate(root, per, 1);
        rates.push(cpu);
        writeln!(
            out,
            "{:<6} {:>8} {:>16.0} {:>12.0}",
            level,
            root.state.sprites.len(),
            cpu,
            wall
        )
        .map_err(io)?;
    }
    rates.sort_by(f64::total_cmp);
    if let Some(m) = rates.get(rates.len() / 2) {
        writeln!(
            out,
            "median {m:.0} clone+advance/s over {} levels",
            rates.len()
        )
        .map_err(io)?;
    }
    Ok(())
}
