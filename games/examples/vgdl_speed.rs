//! Prints, per shipped GVGAI game, how many `clone + advance` a second the
//! VGDL engine does (the forward-model operation of search agents), by the
//! method of GVGAI's side, `games/benches/gvgai_speed/ForwardModelSpeed.java`:
//! level 0 built with seed 0; each step clones the current state, advances
//! the clone with an action drawn uniformly (a `java.util.Random` seeded 1,
//! as the Java draws it) from the avatar's actions without NIL, and the
//! clone becomes the current state; a state that is over is replaced by the
//! start state. The loop runs SECONDS untimed, then SECONDS timed; with
//! `--steps N` it runs exactly N steps (rounded up to 16) from the start
//! state once, timed, so that two builds do the same work (a rate measured
//! for a time depends on how far the game got). With `--round N` the timed
//! part is whole rounds of the same N steps (rounded up to 16), each from
//! the start state with the action `Random` reseeded 1, until SECONDS have
//! passed, as the Java driver's ROUND argument does: both sides then time
//! the same actions from the same state.
//!
//! Run in release: `cargo run --release -p games --example vgdl_speed --
//! [--seconds S] [--steps N | --round N] [--tsv] [game ...]`. `--tsv` prints
//! `name<TAB>per second<TAB>steps<TAB>restarts` lines like the Java driver;
//! the default is a Markdown table with the median and minimum.

use games::vgdl::rng::JavaRandom;
use games::vgdl::{Action, Vgdl, VgdlGame};
use games::Game;
use std::path::Path;
use std::time::{Duration, Instant};

/// Runs the loop for `time` (or `max_steps` steps; in whole rounds of
/// `round` steps from the start, `rnd` reseeded 1 each, when `round > 0`);
/// returns (steps, restarts, elapsed).
fn run(
    start: &VgdlGame,
    actions: &[Action],
    rnd: &mut JavaRandom,
    time: Duration,
    max_steps: Option<u64>,
    round: u64,
) -> (u64, u64, Duration) {
    let t0 = Instant::now();
    let (mut steps, mut restarts) = (0u64, 0u64);
    let mut cur = start.clone();
    loop {
        if round > 0 && steps % round == 0 {
            *rnd = JavaRandom::new(1);
            cur = start.clone();
        }
        for _ in 0..16 {
            let mut next = cur.clone();
            let a = actions[rnd.next_int_bound(actions.len() as i32) as usize];
            next.advance(&[a]);
            steps += 1;
            if next.is_over() {
                cur = start.clone();
                restarts += 1;
            } else {
                cur = next;
            }
        }
        let e = t0.elapsed();
        let done = match max_steps {
            Some(n) => steps >= n,
            None => e >= time && (round == 0 || steps % round == 0),
        };
        if done {
            return (steps, restarts, e);
        }
    }
}

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/gvgai");
    let tsv = std::fs::read_to_string(dir.join("games.tsv")).expect("games.tsv");
    let mut args = std::env::args().skip(1).peekable();
    let (mut seconds, mut as_tsv, mut only) = (0.3f64, false, Vec::new());
    let (mut max_steps, mut round) = (None, 0u64);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--seconds" => {
                seconds = args
                    .next()
                    .and_then(|s| s.parse().ok())
                    .expect("--seconds S")
            }
            "--steps" => {
                max_steps = Some(args.next().and_then(|s| s.parse().ok()).expect("--steps N"))
            }
            "--round" => {
                let n: u64 = args.next().and_then(|s| s.parse().ok()).expect("--round N");
                round = n.div_ceil(16) * 16;
            }
            "--tsv" => as_tsv = true,
            _ => only.push(a),
        }
    }
    let time = Duration::from_secs_f64(seconds);
    if !as_tsv {
        println!("| game | sprites | clone + advance per second |");
        println!("| --- | --- | --- |");
    }
    let mut rates = Vec::new();
    for line in tsv.lines().skip(1) {
        let game = line.split('\t').nth(1).expect("name");
        if !only.is_empty() && !only.iter().any(|o| o == game) {
            continue;
        }
        let read =
            |f: &str| std::fs::read_to_string(dir.join("gridphysics").join(f)).expect("file");
        let vgdl = match Vgdl::parse(&read(&format!("{game}.txt"))) {
            Ok(v) => v,
            Err(e) => {
                println!("| {game} | - | {e} |");
                continue;
            }
        };
        let start = vgdl
            .level(&read(&format!("{game}_lvl0.txt")), 0)
            .expect("level");
        let mut actions = start.avatar_actions();
        if actions.is_empty() {
            actions.push(Action::Nil);
        }
        let mut rnd = JavaRandom::new(1);
        if max_steps.is_none() {
            run(&start, &actions, &mut rnd, time, None, 0);
        }
        let (steps, restarts, e) = run(&start, &actions, &mut rnd, time, max_steps, round);
        let rate = steps as f64 / e.as_secs_f64();
        rates.push(rate);
        if as_tsv {
            println!("{game}\t{rate:.0}\t{steps}\t{restarts}");
        } else {
            println!("| {game} | {} | {rate:.0} |", start.state.sprites.len());
        }
    }
    rates.sort_by(f64::total_cmp);
    if !rates.is_empty() && !as_tsv {
        println!(
            "\nmedian {:.0}, min {:.0} (games: {}; a sprite is {} bytes)",
            rates[rates.len() / 2],
            rates[0],
            rates.len(),
            std::mem::size_of::<games::vgdl::Sprite>()
        );
    }
}
