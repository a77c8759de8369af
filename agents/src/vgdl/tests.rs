//! Tests of the VGDL agents on GVGAI's shipped games: every agent plays
//! games to their end, the heuristic's categories and values, and the
//! search agents against `random` on an easy game.
use super::heuristic::{category, Category};
use super::*;
use games::vgdl::{Class, Vgdl};
use games::{Game, StepTimer, UnlimitedTimer};
use std::time::Duration;

/// Level `level` of shipped GVGAI game `name`.
fn load(name: &str, level: u32, seed: i64) -> VgdlGame {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../games/data/gvgai/gridphysics/"
    );
    let read = |f: String| std::fs::read_to_string(format!("{dir}{f}")).expect("shipped file");
    Vgdl::parse(&read(format!("{name}.txt")))
        .expect("game loads")
        .level(&read(format!("{name}_lvl{level}.txt")), seed)
        .expect("level loads")
}

/// What one game ended with.
#[derive(Clone, Copy, Debug)]
struct Outcome {
    score: f64,
    won: bool,
    ticks: u32,
}

/// Plays agent `name` with `params` (seed `seed`) on `g` to the end, each
/// act under a fresh `timer()`.
fn play(
    mut g: VgdlGame,
    name: &str,
    params: &AgentParams,
    seed: u64,
    timer: impl Fn() -> Box<dyn Timer>,
) -> Outcome {
    let mut a = make(name, params, seed).unwrap();
    a.init(&g, 0, &*timer());
    let legal = g.legal_actions_vec(0);
    while !g.is_over() {
        let act = a.act(&g, 0, &*timer());
        assert!(legal.contains(&act), "{name} played {act:?}");
        g.advance(&[act]);
    }
    a.end(&g, 0);
    Outcome {
        score: g.score(0),
        won: g.state.winner == games::vgdl::Winner::Win,
        ticks: g.tick(),
    }
}

fn mcts_params(iterations: i64) -> AgentParams {
    AgentParams::new().with("max_iterations", ParamValue::Int(iterations))
}

use crate::params::ParamValue;

#[test]
fn every_agent_plays_gvgai_games_to_the_end() {
    // A 40 ms budget whose clock advances 1 ms per read: a handful of MCTS
    // iterations per act, the same on any machine.
    let timer = || -> Box<dyn Timer> {
        Box::new(StepTimer::new(
            Duration::from_millis(40),
            Duration::from_millis(1),
        ))
    };
    for game in ["aliens", "bait", "missilecommand", "zelda", "frogs"] {
        for name in ["random", "onesteplookahead", "mcts"] {
            let o = play(load(game, 0, 1), name, &AgentParams::new(), 3, timer);
            assert!(
                o.ticks > 0 && o.ticks <= games::vgdl::MAX_TIMESTEPS as u32 + 1,
                "{game} {name}: {o:?}"
            );
        }
    }
}

#[test]
fn agents_are_reproducible_from_their_seed() {
    for name in ["random", "onesteplookahead", "mcts"] {
        let run = |seed| {
            let params = if name == "mcts" {
                mcts_params(20)
            } else {
                AgentParams::new()
            };
            let mut a = make(name, &params, seed).unwrap();
            let mut g = load("aliens", 0, 5);
            let mut acts = Vec::new();
            for _ in 0..30 {
                let act = a.act(&g, 0, &UnlimitedTimer);
                acts.push(act);
                g.advance(&[act]);
            }
            acts
        };
        assert_eq!(run(7), run(7), "{name}");
        if name != "onesteplookahead" {
            assert_ne!(run(7), run(8), "{name}");
        }
    }
}

#[test]
fn random_never_plays_nil_when_the_avatar_has_actions() {
    let g = load("aliens", 0, 1);
    let mut a = make("random", &AgentParams::new(), 1).unwrap();
    let acts: Vec<Action> = (0..200).map(|_| a.act(&g, 0, &UnlimitedTimer)).collect();
    assert!(!acts.contains(&Action::Nil));
    for x in g.avatar_actions() {
        assert!(acts.contains(&x), "{x:?} never drawn");
    }
}

#[test]
fn categories_follow_gvgais_flags() {
    assert_eq!(category(Class::Portal), Category::Portal);
    assert_eq!(category(Class::Door), Category::Portal);
    assert_eq!(category(Class::Bomber), Category::Npc);
    assert_eq!(category(Class::Chaser), Category::Npc);
    assert_eq!(category(Class::SpawnPoint), Category::Static);
    assert_eq!(category(Class::Resource), Category::Resource);
    assert_eq!(category(Class::ShootAvatar), Category::Avatar);
    assert_eq!(category(Class::Missile), Category::Movable);
}

#[test]
fn heuristic_values_follow_simple_state_heuristic() {
    // Aliens has no Portal or Door: the NPC branch, -d²/100 - 100 n +
    // score, d² to the nearest alien of the last alien type present. The
    // aliens appear after a few ticks.
    let mut g = load("aliens", 0, 1);
    let h = SimpleStateHeuristic::new(&g);
    for _ in 0..40 {
        g.advance(&[Action::Nil]);
    }
    let st = &g.state;
    let av = st.sprites[st.index_of(st.avatar.unwrap()).unwrap()];
    let npcs: Vec<_> = st
        .sprites
        .iter()
        .filter(|s| st.rules.types[s.ty as usize].class.map(category) == Some(Category::Npc))
        .collect();
    assert!(npcs.len() >= 2, "{}", npcs.len());
    let last = npcs.iter().map(|s| s.ty).max().unwrap();
    let d = npcs
        .iter()
        .filter(|s| s.ty == last)
        .map(|s| ((s.x - av.x) as f64).powi(2) + ((s.y - av.y) as f64).powi(2))
        .fold(f64::INFINITY, f64::min);
    let want = -d / 100.0 - 100.0 * npcs.len() as f64 + st.score;
    assert_eq!(h.evaluate(&g), want);
    // A lost state is worth GVGAI's -999999999, whatever else holds; a won
    // one adds 10^17.
    let mut lost = g.clone();
    lost.state.winner = games::vgdl::Winner::Loss;
    assert_eq!(h.evaluate(&lost), -999_999_999.0);
    let mut won = g.clone();
    won.state.winner = games::vgdl::Winner::Win;
    assert_eq!(h.evaluate(&won), want + 1e17);
}

#[test]
fn heuristic_follows_the_nearest_portal_where_there_are_portals() {
    // Zelda's goal is a Door: the portal branch, score - 10 d².
    let g = load("zelda", 0, 1);
    let h = SimpleStateHeuristic::new(&g);
    let st = &g.state;
    let av = st.sprites[st.index_of(st.avatar.unwrap()).unwrap()];
    let door = st
        .sprites
        .iter()
        .find(|s| st.rules.types[s.ty as usize].class == Some(Class::Door))
        .expect("zelda has a door");
    let d = ((door.x - av.x) as f64).powi(2) + ((door.y - av.y) as f64).powi(2);
    assert_eq!(h.evaluate(&g), st.score - 10.0 * d);
}

/// Scores of agent `name` over `seeds` on `game` level 0, and its wins.
fn scores(
    game: &str,
    name: &str,
    params: &AgentParams,
    seeds: std::ops::Range<u64>,
) -> (Vec<f64>, u32) {
    let (mut out, mut wins) = (Vec::new(), 0);
    for seed in seeds {
        let o = play(load(game, 0, seed as i64), name, params, seed, || {
            Box::new(UnlimitedTimer)
        });
        out.push(o.score);
        wins += o.won as u32;
    }
    (out, wins)
}

/// Mean and variance of the mean.
fn mean_var(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    let v = x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (n - 1.0);
    (m, v / n)
}

/// Agent `name` beats `random` on aliens level 0 over `seeds`: its mean
/// score is higher by more than twice the standard error of the difference
/// (Welch), and it wins more games. Iteration caps instead of clocks make
/// the result the same on any machine.
fn beats_random(name: &str, params: &AgentParams, seeds: std::ops::Range<u64>) {
    let (r, rw) = scores("aliens", "random", &AgentParams::new(), seeds.clone());
    let (a, aw) = scores("aliens", name, params, seeds);
    let ((mr, vr), (ma, va)) = (mean_var(&r), mean_var(&a));
    let se = (vr + va).sqrt();
    println!("aliens: random {mr:.1} ({rw} wins), {name} {ma:.1} ({aw} wins), se {se:.1}");
    assert!(ma - mr > 2.0 * se, "{name} {a:?} vs random {r:?}");
    assert!(aw > rw, "{name} won {aw}, random {rw}");
}

#[test]
fn onesteplookahead_beats_random_on_aliens() {
    beats_random("onesteplookahead", &AgentParams::new(), 0..12);
}

#[test]
fn mcts_beats_random_on_aliens() {
    beats_random("mcts", &mcts_params(20), 0..6);
}
