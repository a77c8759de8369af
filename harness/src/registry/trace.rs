//! `arena trace <game>`: the initial state, then the state after each
//! action, one JSON object per line, for every game alike.

use super::arena_game::ArenaGame;
use crate::error::HarnessError;
use crate::registry::args::TraceArgs;
use games::Seat;
use std::io::Write;

/// One item of `--actions`, parsed: the joint actions it stands for.
fn parse_item<G: ArenaGame>(
    state: &G,
    n: usize,
    item: &str,
) -> Result<Vec<Vec<G::Action>>, HarnessError> {
    let bad = || {
        HarnessError::Flag(format!(
            "--actions: item {n} `{item}` is not a move; expected {}",
            G::ACTION_SYNTAX
        ))
    };
    let players = state.num_players();
    let joint_of = |seat: Seat, a: G::Action| -> Vec<G::Action> {
        (0..players)
            .map(|s| {
                if s == seat {
                    a
                } else {
                    state.fallback_action(s)
                }
            })
            .collect()
    };
    let active: Vec<Seat> = (0..players).filter(|&s| state.is_active(s)).collect();
    if players > 1 && active.len() > 1 {
        // Simultaneous moves: one name per seat, joined by `/`.
        let parts: Vec<&str> = item.split('/').map(str::trim).collect();
        if parts.len() != players {
            return Err(bad());
        }
        let joint = parts
            .iter()
            .enumerate()
            .map(|(s, p)| state.parse_action(s, p))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(bad)?;
        return Ok(vec![joint]);
    }
    let seat = active.first().copied().unwrap_or(0);
    if let Some(a) = state.parse_action(seat, item) {
        return Ok(vec![joint_of(seat, a)]);
    }
    match state.trace_item(item) {
        Some(actions) => Ok(actions.into_iter().map(|a| joint_of(seat, a)).collect()),
        None => Err(bad()),
    }
}

/// `arena trace <game> --level L --actions A,B,...`: stops after the action
/// that ends the game; an unparsable action is an error naming it, and so is
/// an illegal one in games that check ([`ArenaGame::TRACE_CHECKS_LEGALITY`]).
pub fn trace<G: ArenaGame>(args: &TraceArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    let mut state = G::load_named(&args.game, &args.level, args.seed)?;
    let io = |e| HarnessError::io("<stdout>", e);
    writeln!(out, "{}", state.trace_json()).map_err(io)?;
    for (i, item) in args.actions.split(',').map(str::trim).enumerate() {
        if item.is_empty() {
            continue;
        }
        if state.is_over() {
            break;
        }
        for joint in parse_item(&state, i + 1, item)? {
            if state.is_over() {
                break;
            }
            if G::TRACE_CHECKS_LEGALITY {
                let illegal = (0..state.num_players())
                    .find(|&s| state.is_active(s) && !state.is_legal(s, joint[s]));
                if let Some(s) = illegal {
                    return Err(HarnessError::Flag(format!(
                        "--actions: item {} (`{}`, move {}) is not legal here",
                        i + 1,
                        state.action_name(joint[s]),
                        state.tick() + 1
                    )));
                }
            }
            state.advance(&joint);
            writeln!(out, "{}", state.trace_json()).map_err(io)?;
        }
    }
    Ok(())
}
