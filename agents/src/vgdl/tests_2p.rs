//! Tests of the VGDL agents on GVGAI's two-player games: every agent plays
//! either seat to the end, with its own avatar's actions, and the search
//! agents beat `random` head to head.
use super::*;
use crate::params::ParamValue;
use games::vgdl::Vgdl;
use games::{Game, PlayerResult, StepTimer, UnlimitedTimer};
use std::time::Duration;

/// Level `level` of shipped two-player GVGAI game `name`.
fn load(name: &str, level: u32, seed: i64) -> VgdlGame {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../games/data/gvgai/2player/");
    let read = |f: String| std::fs::read_to_string(format!("{dir}{f}")).expect("shipped file");
    Vgdl::parse(&read(format!("{name}.txt")))
        .expect("game loads")
        .level(&read(format!("{name}_lvl{level}.txt")), seed)
        .expect("level loads")
}

/// What one game ended with, per seat.
#[derive(Clone, Debug)]
struct Outcome {
    scores: [f64; 2],
    won: [bool; 2],
    ticks: u32,
    over: bool,
}

/// Plays `agents[0]` (seat 0) against `agents[1]` (seat 1) on `g` to the
/// end or to `max_ticks`, both asked on the same state each tick (as the
/// harness does for simultaneous games), each act under a fresh `timer()`.
/// Every action must be legal for its seat.
fn play(
    mut g: VgdlGame,
    agents: [(&str, &AgentParams); 2],
    seed: u64,
    max_ticks: u32,
    timer: impl Fn() -> Box<dyn Timer>,
) -> Outcome {
    let mut players: Vec<Box<dyn Agent<VgdlGame>>> = agents
        .iter()
        .enumerate()
        .map(|(s, (name, params))| make(name, params, seed * 2 + s as u64).unwrap())
        .collect();
    for (s, a) in players.iter_mut().enumerate() {
        a.init(&g, s, &*timer());
    }
    while !g.is_over() && g.tick() < max_ticks {
        let mut joint = Vec::new();
        for (s, a) in players.iter_mut().enumerate() {
            let act = a.act(&g, s, &*timer());
            assert!(
                g.legal_actions_vec(s).contains(&act),
                "{} in seat {s} played {act:?}, not one of {:?}",
                agents[s].0,
                g.legal_actions_vec(s)
            );
            joint.push(act);
        }
        g.advance(&joint);
    }
    for (s, a) in players.iter_mut().enumerate() {
        a.end(&g, s);
    }
    Outcome {
        scores: [g.score(0), g.score(1)],
        won: [
            g.result(0) == PlayerResult::Win,
            g.result(1) == PlayerResult::Win,
        ],
        ticks: g.tick(),
        over: g.is_over(),
    }
}

fn step_timer() -> Box<dyn Timer> {
    // A 40 ms budget whose clock advances 1 ms per read: a handful of MCTS
    // iterations per act, the same on any machine.
    Box::new(StepTimer::new(
        Duration::from_millis(40),
        Duration::from_millis(1),
    ))
}

#[test]
fn every_agent_plays_either_seat_of_two_player_games_to_the_end() {
    let none = AgentParams::new();
    let names = ["random", "onesteplookahead", "mcts"];
    // Games that end soon under random play (GVGAI's records).
    for game in ["tron", "asteroids", "spotted", "trains", "escape2p"] {
        for (i, name) in names.iter().enumerate() {
            let other = names[(i + 1) % names.len()];
            for seats in [[*name, other], [other, *name]] {
                let o = play(
                    load(game, 0, 1),
                    [(seats[0], &none), (seats[1], &none)],
                    3,
                    games::vgdl::MAX_TIMESTEPS as u32 + 1,
                    step_timer,
                );
                assert!(
                    o.ticks > 0 && o.ticks <= games::vgdl::MAX_TIMESTEPS as u32 + 1,
                    "{game} {seats:?}: {o:?}"
                );
                assert!(o.over, "{game} {seats:?}: {o:?}");
            }
        }
    }
}

#[test]
fn each_seat_gets_its_own_avatars_actions() {
    // firetruck's avatars move one horizontally, the other vertically:
    // each agent draws from its own seat's list.
    let g = load("firetruck", 0, 1);
    assert_ne!(g.player_actions(0), g.player_actions(1));
    for seat in 0..2 {
        let mut a = make("random", &AgentParams::new(), 1).unwrap();
        let want = g.player_actions(seat);
        let acts: Vec<Action> = (0..200).map(|_| a.act(&g, seat, &UnlimitedTimer)).collect();
        for x in &want {
            assert!(acts.contains(x), "seat {seat}: {x:?} never drawn");
        }
        assert!(acts.iter().all(|x| want.contains(x)), "seat {seat}");
    }
}

/// Mean and variance of the mean.
fn mean_var(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let m = x.iter().sum::<f64>() / n;
    let v = x.iter().map(|v| (v - m).powi(2)).sum::<f64>() / (n - 1.0);
    (m, v / n)
}

/// Agent `name` against `random` on `game` level 0, each seed played with
/// `name` in seat 0 and in seat 1: per game, `name`'s score minus
/// random's. Its mean is above 0 by more than twice its standard error,
/// and `name` wins more games than `random`.
fn beats_random(game: &str, name: &str, params: &AgentParams, seeds: std::ops::Range<u64>) {
    let none = AgentParams::new();
    let (mut diffs, mut wins, mut random_wins) = (Vec::new(), 0, 0);
    for seed in seeds {
        for seat in 0..2 {
            let lineup = if seat == 0 {
                [(name, params), ("random", &none)]
            } else {
                [("random", &none), (name, params)]
            };
            let o = play(load(game, 0, seed as i64), lineup, seed, 2001, || {
                Box::new(UnlimitedTimer)
            });
            diffs.push(o.scores[seat] - o.scores[1 - seat]);
            wins += o.won[seat] as u32;
            random_wins += o.won[1 - seat] as u32;
        }
    }
    let (m, v) = mean_var(&diffs);
    let se = v.sqrt();
    println!(
        "{game}: {name} - random score {m:.2} (se {se:.2}) over {} games; wins {wins} vs {random_wins}",
        diffs.len()
    );
    assert!(m > 2.0 * se, "{name} vs random on {game}: {diffs:?}");
    assert!(
        wins > random_wins,
        "{name} won {wins}, random {random_wins}"
    );
}

fn mcts_params(iterations: i64) -> AgentParams {
    AgentParams::new().with("max_iterations", ParamValue::Int(iterations))
}

#[test]
fn onesteplookahead_beats_random_at_tron() {
    // Tron: each light cycle leaves a wall; the first to crash loses.
    // Measured 2026-12-02: 11 wins to 1, score difference 0.83 (se 0.17).
    beats_random("tron", "onesteplookahead", &AgentParams::new(), 0..6);
}

#[test]
fn mcts_beats_random_at_tron() {
    beats_random("tron", "mcts", &mcts_params(20), 0..4);
}
