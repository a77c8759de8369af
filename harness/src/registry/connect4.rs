//! Connect Four in the harness: levels (the empty board, a move string, or
//! a board file), the JSON view, and the generic agents (`random`, `uct`),
//! which every registered game gets without code of its own.

use super::arena_game::{read_level_file, ArenaGame, GameView, LevelInfo};
use crate::error::HarnessError;
use agents::{AgentError, AgentInfo, AgentParams};
use games::connect4::Connect4;
use games::{Agent, Game};
use serde_json::json;
use std::io::Write;

impl GameView for Connect4 {
    const NAME: &'static str = "connect4";

    /// `board`: the rows top first (`.` empty, `X` seat 0, `O` seat 1).
    fn state_json(&self, _seat: usize) -> serde_json::Value {
        json!({
            "ply": self.tick(),
            "board": self.to_text().lines().collect::<Vec<_>>(),
            "to_move": if self.side_to_move() == 0 { "X" } else { "O" },
            "over": self.is_over(),
            "result": self.result(0).as_str(),
        })
    }
}

impl ArenaGame for Connect4 {
    const DESCRIPTION: &'static str =
        "Connect Four: drop discs, four in a row wins (2 players, alternating)";
    const ACTION_SYNTAX: &'static str = "a column number, 1 to 7";

    fn builtin_levels() -> Vec<LevelInfo> {
        vec![LevelInfo {
            name: "start".to_string(),
            description: "the empty 7x6 board".to_string(),
        }]
    }

    /// `start`, a move string from the start (`4453`: columns 1-7), or a
    /// file holding a board in text form (rows top first, `.` `X` `O`).
    fn load_level(spec: &str, _seed: u64) -> Result<Self, HarnessError> {
        if spec == "start" {
            return Ok(Connect4::new());
        }
        if !spec.is_empty() && spec.bytes().all(|b| b.is_ascii_digit()) {
            return Connect4::from_moves(spec).map_err(|e| HarnessError::Level {
                path: "<moves>".to_string(),
                source: e.into_parse_error(1),
            });
        }
        let text = read_level_file::<Connect4>(spec)?;
        Connect4::from_text(&text).map_err(|source| HarnessError::Level {
            path: spec.to_string(),
            source,
        })
    }

    /// [`GameView::state_json`]'s text, written without building a `Value`.
    fn write_view(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(b"{\"ply\":");
        // Writing to a Vec cannot fail.
        let _ = write!(out, "{}", self.tick());
        out.extend_from_slice(b",\"board\":[");
        for r in (0..self.height() as u8).rev() {
            if r + 1 != self.height() as u8 {
                out.push(b',');
            }
            out.push(b'"');
            for c in 0..self.width() as u8 {
                out.push(match self.cell(c, r) {
                    None => b'.',
                    Some(0) => b'X',
                    Some(_) => b'O',
                });
            }
            out.push(b'"');
        }
        out.extend_from_slice(b"],\"to_move\":");
        out.extend_from_slice(if self.side_to_move() == 0 {
            b"\"X\""
        } else {
            b"\"O\""
        });
        out.extend_from_slice(if self.is_over() {
            b",\"over\":true,\"result\":\""
        } else {
            b",\"over\":false,\"result\":\""
        });
        out.extend_from_slice(self.result(0).as_str().as_bytes());
        out.extend_from_slice(b"\"}");
    }

    /// No length limit: a game ends within 42 moves.
    fn set_max_steps(&mut self, _max_steps: u32) {}

    fn agents() -> &'static [AgentInfo] {
        &[]
    }

    fn make_agent(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, AgentError> {
        agents::generic::make(name, params, seed)
    }
}
