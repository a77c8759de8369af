//! Replays every two-player GVGAI reference trace
//! (`games/data/gvgai/traces2p/`, made with GVGAI's real two-player loop by
//! `games/tests/gvgai_ref/`) with the VGDL engine, and prints per game the
//! records identical and the first divergence.
//!
//! The test fails when fewer games are identical on every record than
//! [`IDENTICAL_AT_LEAST`] (the count this engine reached), so a game that
//! was identical cannot regress unnoticed; every other game is printed with
//! its first difference or the reason it does not load.

mod common;

use common::{data, num, same_avatar, sprites_diff};
use games::vgdl::{Action, TraceAvatar, Vgdl, VgdlError, VgdlGame};
use games::Game;
use serde_json::Value;

/// Games identical on every shipped record, at least (of 60).
const IDENTICAL_AT_LEAST: usize = 57;

/// The shipped two-player game names, from `games2p.tsv`.
fn game_names() -> Vec<String> {
    common::game_names("games2p.tsv")
}

/// The reference records of `game` (none when GVGAI could not play it).
fn records(game: &str) -> Vec<Value> {
    common::records("VGDL_TRACES_2P", "traces2p", game)
}

fn avatar_diff(a: Option<(&TraceAvatar, &str)>, w: &Value) -> Option<String> {
    match (a, w) {
        (None, Value::Null) => None,
        (Some((a, ty)), Value::Object(_)) => {
            let same = ty == w["type"].as_str().unwrap() && same_avatar(a, w);
            (!same).then(|| format!("{ty} {a:?} vs {w}"))
        }
        (a, w) => Some(format!("{a:?} vs {w}")),
    }
}

/// The first difference between our state and the recorded one, if any.
fn diff(g: &VgdlGame, want: &Value) -> Option<String> {
    let mut d = Vec::new();
    let ours = g.trace();
    let players = g.state.trace_players();
    if ours.tick as u64 != want["tick"].as_u64().unwrap() {
        d.push(format!("tick {} vs {}", ours.tick, want["tick"]));
    }
    if ours.over != want["over"].as_bool().unwrap() {
        d.push(format!("over {} vs {}", ours.over, want["over"]));
    }
    if ours.block as f64 != num(&want["block"]) {
        d.push(format!("block {} vs {}", ours.block, want["block"]));
    }
    let n = want["score"].as_array().unwrap().len();
    if players.len() != n {
        d.push(format!("{} players vs {n}", players.len()));
    }
    for (p, pl) in players.iter().enumerate().take(n) {
        let score = &want["score"][p];
        if !score.is_null() && pl.score != num(score) {
            d.push(format!("player {p} score {} vs {score}", pl.score));
        }
        if pl.winner != want["winner"][p].as_str().unwrap() {
            d.push(format!(
                "player {p} winner {} vs {}",
                pl.winner, want["winner"][p]
            ));
        }
        let a = pl.avatar.as_ref().zip(pl.avatar_type.as_deref());
        if let Some(e) = avatar_diff(a, &want["avatars"][p]) {
            d.push(format!("player {p} avatar {e}"));
        }
    }
    if let Some(e) = sprites_diff(&ours.sprites, want) {
        d.push(e);
    }
    (!d.is_empty()).then(|| d.join("; "))
}

/// Replays one record; `Err` names the first differing state.
fn replay(vgdl: &Vgdl, game: &str, rec: &Value) -> Result<(), String> {
    let level = rec["level"].as_u64().unwrap();
    let seed = rec["seed"].as_i64().unwrap();
    let text =
        std::fs::read_to_string(data().join(format!("2player/{game}_lvl{level}.txt"))).unwrap();
    let mut g = vgdl
        .level(&text, seed)
        .map_err(|e| format!("level {level}: {e}"))?;
    let states = rec["states"].as_array().unwrap();
    let actions = rec["actions"].as_array().unwrap();
    assert!(states.len() <= actions.len() + 1);
    for want in states {
        let tick = want["tick"].as_u64().unwrap() as usize;
        while (g.tick() as usize) < tick {
            let joint: Vec<Action> = actions[g.tick() as usize]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| Action::parse(a.as_str().unwrap()).unwrap())
                .collect();
            g.advance(&joint);
        }
        if let Some(d) = diff(&g, want) {
            let prev = if tick > 0 {
                actions[tick - 1].to_string()
            } else {
                "-".into()
            };
            return Err(format!(
                "level {level} seed {seed} state {tick} (after {prev}): {d}"
            ));
        }
    }
    Ok(())
}

/// One game's result: `Err(reason)` when it does not load.
struct Row {
    game: String,
    /// Records identical, records replayed.
    status: Result<(usize, usize), String>,
    first_difference: Option<String>,
    /// Records GVGAI itself did not reproduce (`replay_identical: false`):
    /// not replayed.
    unreproducible: usize,
}

/// Replays every record of every shipped two-player game (or of the games
/// named in `VGDL_GAME`, comma-separated).
fn run_all() -> Vec<Row> {
    let only = std::env::var("VGDL_GAME").ok();
    let mut rows = Vec::new();
    for game in game_names() {
        if only
            .as_deref()
            .is_some_and(|o| !o.split(',').any(|g| g == game))
        {
            continue;
        }
        let text = std::fs::read_to_string(data().join(format!("2player/{game}.txt"))).unwrap();
        let vgdl = match Vgdl::parse(&text) {
            Ok(v) => v,
            Err(e) => {
                let what = match e {
                    VgdlError::Unsupported(_) => e.to_string(),
                    _ => format!("does not load: {e}"),
                };
                rows.push(Row {
                    game,
                    status: Err(what),
                    first_difference: None,
                    unreproducible: 0,
                });
                continue;
            }
        };
        let (recs, unreproducible): (Vec<Value>, Vec<Value>) = records(&game)
            .into_iter()
            .partition(|r| r["replay_identical"].as_bool() == Some(true));
        let mut same = 0;
        let mut first = None;
        for r in &recs {
            match replay(&vgdl, &game, r) {
                Ok(()) => same += 1,
                Err(e) => {
                    first.get_or_insert(e);
                }
            }
        }
        rows.push(Row {
            game,
            status: Ok((same, recs.len())),
            first_difference: first,
            unreproducible: unreproducible.len(),
        });
    }
    rows
}

#[test]
fn two_player_games_replay_gvgais_reference_traces() {
    let rows = run_all();
    let mut identical = 0;
    let mut records = (0, 0);
    for r in &rows {
        if r.unreproducible > 0 {
            println!(
                "{:18} {} records not replayed: GVGAI did not reproduce them itself",
                r.game, r.unreproducible
            );
        }
        match &r.status {
            Ok((same, total)) => {
                records.0 += same;
                records.1 += total;
                match &r.first_difference {
                    None if *total > 0 => {
                        identical += 1;
                        println!("{:18} identical ({same}/{total} records)", r.game);
                    }
                    None => println!("{:18} loads; no GVGAI records", r.game),
                    Some(d) => println!(
                        "{:18} {same}/{total} records; first divergence: {d}",
                        r.game
                    ),
                }
            }
            Err(e) => println!("{:18} {e}", r.game),
        }
    }
    println!(
        "{identical} of {} two-player games identical on every record; {} of {} records identical",
        rows.len(),
        records.0,
        records.1
    );
    if std::env::var("VGDL_GAME").is_err() {
        assert!(
            identical >= IDENTICAL_AT_LEAST,
            "only {identical} games identical, {IDENTICAL_AT_LEAST} were"
        );
    }
}

/// Every two-player game that loads plays through the `Game` trait as a
/// simultaneous-move game: two seats, both active until the end, each
/// with its own avatar's actions plus NIL; the score and result of each
/// seat are its player's; a clone replays the same joint actions to the
/// same states.
#[test]
fn two_player_games_play_as_simultaneous_games() {
    let mut played = 0;
    for game in game_names() {
        let text = std::fs::read_to_string(data().join(format!("2player/{game}.txt"))).unwrap();
        let Ok(vgdl) = Vgdl::parse(&text) else {
            continue;
        };
        let level =
            std::fs::read_to_string(data().join(format!("2player/{game}_lvl0.txt"))).unwrap();
        let mut g = vgdl.level(&level, 7).unwrap();
        assert_eq!(g.num_players(), 2, "{game}");
        let start = g.clone();
        let mut x: u64 = 0x9e3779b97f4a7c15;
        let mut joints = Vec::new();
        while !g.is_over() && g.tick() < 300 {
            let mut joint = Vec::new();
            for seat in 0..2 {
                assert!(g.is_active(seat), "{game} seat {seat}");
                let legal = g.legal_actions_vec(seat);
                assert_eq!(legal.last(), Some(&Action::Nil), "{game}");
                let mut own = g.player_actions(seat);
                own.push(Action::Nil);
                assert_eq!(legal, own, "{game} seat {seat}");
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                joint.push(legal[(x % legal.len() as u64) as usize]);
            }
            g.advance(&joint);
            joints.push(joint);
        }
        let players = g.state.trace_players();
        for (seat, p) in players.iter().enumerate() {
            assert_eq!(g.score(seat), p.score, "{game}");
            let want = match (g.is_over(), p.winner) {
                (false, _) => games::PlayerResult::Ongoing,
                (true, "win") => games::PlayerResult::Win,
                (true, _) => games::PlayerResult::Loss,
            };
            assert_eq!(g.result(seat), want, "{game} seat {seat}");
            assert_eq!(g.is_active(seat), !g.is_over(), "{game}");
        }
        let mut again = start;
        for j in &joints {
            again.advance(j);
        }
        assert_eq!(again.trace(), g.trace(), "{game}");
        assert_eq!(again.state.trace_players(), players, "{game}");
        played += 1;
    }
    println!("{played} two-player games played through the Game trait");
    assert!(played >= IDENTICAL_AT_LEAST, "{played}");
}
