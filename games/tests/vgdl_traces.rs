//! Replays every public GVGAI reference trace (`games/data/gvgai/traces/`)
//! of every shipped game the VGDL engine loads, and the games GVGAI's own
//! sampleMCTS played to their end (`traces_mcts/`, one per game), and
//! requires every record to be identical, state by state. The supported games are the ones that
//! load (`Vgdl::parse` succeeds); each other game must fail to load with a
//! clear "does not implement" error, never a panic or a parse error.
//! Prints, per game, records identical / total.

mod common;

use common::{data, num, same_avatar, sprites_diff};
use games::vgdl::{Action, TraceState, Vgdl, VgdlError};
use games::Game;
use serde_json::Value;

/// The shipped game names, from `games.tsv`.
fn game_names() -> Vec<String> {
    common::game_names("games.tsv")
}

/// The reference records of `game` in the shipped `folder`, or those of the
/// folder named by `VGDL_TRACES` (same schema; states may be sparse, each
/// placed by its `tick`).
fn records(folder: &str, game: &str) -> Vec<Value> {
    common::records("VGDL_TRACES", folder, game)
}

/// The first difference between our state and the recorded one, if any.
fn diff(ours: &TraceState, want: &Value) -> Option<String> {
    let mut d = Vec::new();
    if ours.tick as u64 != want["tick"].as_u64().unwrap() {
        d.push(format!("tick {} vs {}", ours.tick, want["tick"]));
    }
    if ours.score != num(&want["score"]) {
        d.push(format!("score {} vs {}", ours.score, want["score"]));
    }
    if ours.over != want["over"].as_bool().unwrap() {
        d.push(format!("over {} vs {}", ours.over, want["over"]));
    }
    if ours.winner != want["winner"].as_str().unwrap() {
        d.push(format!("winner {} vs {}", ours.winner, want["winner"]));
    }
    if ours.block as f64 != num(&want["block"]) {
        d.push(format!("block {} vs {}", ours.block, want["block"]));
    }
    match (&ours.avatar, &want["avatar"]) {
        (None, Value::Null) => {}
        (Some(a), w @ Value::Object(_)) => {
            if !same_avatar(a, w) {
                d.push(format!("avatar {a:?} vs {w}"));
            }
        }
        (a, w) => d.push(format!("avatar {a:?} vs {w}")),
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
        std::fs::read_to_string(data().join(format!("gridphysics/{game}_lvl{level}.txt"))).unwrap();
    let mut g = vgdl
        .level(&text, seed)
        .map_err(|e| format!("level {level}: {e}"))?;
    let states = rec["states"].as_array().unwrap();
    let actions = rec["actions"].as_array().unwrap();
    assert!(states.len() <= actions.len() + 1);
    for want in states {
        let tick = want["tick"].as_u64().unwrap() as usize;
        while (g.tick() as usize) < tick {
            let a = actions[g.tick() as usize].as_str().unwrap();
            g.advance(&[Action::parse(a).unwrap()]);
        }
        if let Some(d) = diff(&g.trace(), want) {
            let prev = if tick > 0 {
                actions[tick - 1].as_str().unwrap()
            } else {
                "-"
            };
            return Err(format!(
                "level {level} seed {seed} state {tick} (after {prev}): {d}"
            ));
        }
    }
    Ok(())
}

/// One game's result.
struct Row {
    game: String,
    /// `Err(reason)` when the game does not load.
    status: Result<(usize, usize), String>,
    first_difference: Option<String>,
}

/// Replays every record in `folder` of every shipped game (or of the games
/// named in `VGDL_GAME`, comma-separated).
fn run_all(folder: &str) -> Vec<Row> {
    let only = std::env::var("VGDL_GAME").ok();
    let mut rows = Vec::new();
    for game in game_names() {
        if only
            .as_deref()
            .is_some_and(|o| !o.split(',').any(|g| g == game))
        {
            continue;
        }
        let text = std::fs::read_to_string(data().join(format!("gridphysics/{game}.txt"))).unwrap();
        let vgdl = match Vgdl::parse(&text) {
            Ok(v) => v,
            Err(e) => {
                let unsupported = matches!(e, VgdlError::Unsupported(_));
                rows.push(Row {
                    game,
                    status: Err(if unsupported {
                        e.to_string()
                    } else {
                        format!("does not load: {e}")
                    }),
                    first_difference: None,
                });
                continue;
            }
        };
        let recs = records(folder, &game);
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
        });
    }
    rows
}

/// Prints a line per game and fails on any game that differs or does not
/// load (a game that lacks a class is only listed); with `every_game`, also
/// on a supported game without a record.
fn check(rows: &[Row], every_game: bool) {
    let mut failures = Vec::new();
    let (mut supported, mut identical) = (0, 0);
    for r in rows {
        match &r.status {
            Ok((same, total)) => {
                supported += 1;
                println!("{:20} {same}/{total} records identical", r.game);
                if every_game && *total == 0 {
                    failures.push(format!("{}: no record", r.game));
                }
                match &r.first_difference {
                    Some(d) => failures.push(format!("{}: {d}", r.game)),
                    None => identical += 1,
                }
            }
            Err(e) if e.starts_with("does not load") => {
                println!("{:20} {e}", r.game);
                failures.push(format!("{}: {e}", r.game));
            }
            Err(e) => println!("{:20} {e}", r.game),
        }
    }
    println!(
        "{identical} of {supported} supported games identical on every record ({} shipped)",
        rows.len()
    );
    assert!(
        failures.is_empty(),
        "{} games differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_supported_game_replays_its_reference_traces_exactly() {
    check(&run_all("traces"), false);
}

/// The games GVGAI's sampleMCTS played to their end (a win, a loss or the
/// 2,000-tick cap): long games with purposeful play, one per game
/// (`games/tests/gvgai_ref/make_mcts_traces.sh`).
#[test]
fn every_supported_game_replays_the_games_gvgais_mcts_played() {
    check(&run_all("traces_mcts"), std::env::var("VGDL_GAME").is_err());
}

/// Prints the status table of `docs/vgdl.md` (run with `--ignored
/// --nocapture`).
#[test]
#[ignore]
fn print_status_table() {
    println!("| game | status | reference records identical |");
    println!("| --- | --- | --- |");
    for r in run_all("traces") {
        match r.status {
            Ok((same, total)) => {
                let s = if same == total {
                    "trace-identical"
                } else {
                    "differs"
                };
                println!("| {} | {s} | {same} / {total} |", r.game);
            }
            Err(e) => println!("| {} | {} | - |", r.game, e.replace('|', "/")),
        }
    }
}
