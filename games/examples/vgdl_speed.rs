//! Prints, per shipped GVGAI game, how many `clone + advance` a second the
//! VGDL engine does (the forward-model operation of search agents), on
//! level 0 after 20 random actions, each advance with a random legal
//! action. Run in release: `cargo run --release -p games --example
//! vgdl_speed [game ...]`.

use games::vgdl::Vgdl;
use games::Game;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;
use std::time::{Duration, Instant};

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/gvgai");
    let tsv = std::fs::read_to_string(dir.join("games.tsv")).expect("games.tsv");
    let only: Vec<String> = std::env::args().skip(1).collect();
    println!("| game | sprites | clone + advance per second |");
    println!("| --- | --- | --- |");
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
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let mut g = vgdl
            .level(&read(&format!("{game}_lvl0.txt")), 1)
            .expect("level");
        let mut legal = Vec::new();
        for _ in 0..20 {
            if g.is_over() {
                break;
            }
            legal.clear();
            g.legal_actions(0, &mut legal);
            g.advance(&[legal[rng.gen_range(0..legal.len())]]);
        }
        legal.clear();
        g.legal_actions(0, &mut legal);
        if legal.is_empty() {
            legal.push(g.fallback_action(0));
        }
        let start = Instant::now();
        let mut n = 0u64;
        while start.elapsed() < Duration::from_millis(300) {
            for _ in 0..64 {
                let mut c = g.clone();
                c.advance(&[legal[rng.gen_range(0..legal.len())]]);
                std::hint::black_box(&c);
                n += 1;
            }
        }
        let rate = n as f64 / start.elapsed().as_secs_f64();
        rates.push(rate);
        println!("| {game} | {} | {:.0} |", g.state.sprites.len(), rate);
    }
    rates.sort_by(f64::total_cmp);
    if !rates.is_empty() {
        println!(
            "\nmedian {:.0}, min {:.0} (games: {})",
            rates[rates.len() / 2],
            rates[0],
            rates.len()
        );
    }
}
