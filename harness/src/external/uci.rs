//! UCI and UCCI adapters for Xiangqi engines.
//!
//! - `protocol = "uci"` (Fairy-Stockfish): `uci` → `uciok`; the harness sets
//!   `UCI_Variant` to `xiangqi` when the engine offers that option, then the
//!   config's `options` (`setoption name N value V`), then `isready` →
//!   `readyok`. Each act: `position fen <initial FEN> moves <m1> ...` and
//!   `go movetime <ms>`; the answer is `bestmove <m>`. Moves use
//!   Fairy-Stockfish's rank numbering `1`..`10` (`h3e3`), converted from and
//!   to arena's ICCS numbering `0`..`9` (`h2e2`).
//! - `protocol = "ucci"`: `ucci` → `ucciok`; options as `setoption N V`;
//!   `isready` → `readyok`; `position fen ... moves ...` with ICCS moves
//!   (`0`..`9`) and `go time <ms> movestogo 1` (milliseconds); `bestmove <m>`.
//!   Not tested against a real UCCI engine (none is packaged in Debian).
//!
//! Time: `movetime` is the soft budget left minus a safety margin of a fifth
//! of it (at least 10 ms), at least 1 ms, because engines overshoot slightly.
//! At the end of the game the harness sends `quit`.
//!
//! These adapters play Xiangqi: they implement `Protocol<Xiangqi>`, and
//! Xiangqi's [`crate::games::ArenaGame`] impl is what offers them.

use super::protocol::{Protocol, Step};
use super::ProtocolKind;
use crate::outcome::Outcome;
use crate::player::{Failure, Phase};
use games::xiangqi::{Move, Xiangqi};
use games::Seat;
use std::time::Duration;

/// The `movetime` for a soft budget with `remaining` left.
pub fn movetime(remaining: Duration) -> u64 {
    let margin = (remaining / 5).max(Duration::from_millis(10));
    (remaining.saturating_sub(margin).as_millis() as u64).max(1)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    Hello,
    Ready,
}

/// A UCI or UCCI engine conversation.
pub struct Uci {
    dialect: ProtocolKind,
    options: Vec<(String, String)>,
    has_variant: bool,
    stage: Stage,
    base_fen: String,
    base_moves: usize,
}

impl Uci {
    /// An adapter for `dialect` (`Uci` or `Ucci`) with engine `options`.
    pub fn new(dialect: ProtocolKind, options: &[(String, String)]) -> Uci {
        Uci {
            dialect,
            options: options.to_vec(),
            has_variant: false,
            stage: Stage::Hello,
            base_fen: String::new(),
            base_moves: 0,
        }
    }

    fn move_text(&self, m: Move) -> String {
        match self.dialect {
            ProtocolKind::Uci => m.fsf_uci(),
            _ => m.iccs(),
        }
    }

    fn parse_move(&self, text: &str) -> Option<Move> {
        match self.dialect {
            ProtocolKind::Uci => Move::parse_fsf_uci(text),
            _ => Move::parse_iccs(text),
        }
    }

    fn setup_lines(&self) -> Vec<String> {
        let uci = self.dialect == ProtocolKind::Uci;
        let mut out = Vec::new();
        let user_sets_variant = self.options.iter().any(|(k, _)| k == "UCI_Variant");
        if uci && self.has_variant && !user_sets_variant {
            out.push("setoption name UCI_Variant value xiangqi".to_string());
        }
        for (k, v) in &self.options {
            out.push(if uci {
                format!("setoption name {k} value {v}")
            } else {
                format!("setoption {k} {v}")
            });
        }
        out.push("isready".to_string());
        out
    }
}

fn bad(detail: String) -> Failure {
    Failure {
        outcome: Outcome::BadOutput,
        detail,
    }
}

impl Protocol<Xiangqi> for Uci {
    fn request(
        &mut self,
        phase: Phase,
        x: &Xiangqi,
        _seat: Seat,
        remaining: Duration,
    ) -> Vec<String> {
        match phase {
            Phase::Init => {
                self.stage = Stage::Hello;
                self.base_fen = x.fen();
                self.base_moves = x.moves().len();
                vec![match self.dialect {
                    ProtocolKind::Uci => "uci".to_string(),
                    _ => "ucci".to_string(),
                }]
            }
            Phase::Act => {
                let mut pos = format!("position fen {}", self.base_fen);
                let moves = &x.moves()[self.base_moves.min(x.moves().len())..];
                if !moves.is_empty() {
                    pos.push_str(" moves");
                    for &m in moves {
                        pos.push(' ');
                        pos.push_str(&self.move_text(m));
                    }
                }
                let go = match self.dialect {
                    ProtocolKind::Uci => format!("go movetime {}", movetime(remaining)),
                    _ => format!("go time {} movestogo 1", movetime(remaining)),
                };
                vec![pos, go]
            }
        }
    }

    fn answer(
        &mut self,
        phase: Phase,
        _state: &Xiangqi,
        _seat: Seat,
        line: &str,
    ) -> Result<Step<Move>, Failure> {
        let line = line.trim();
        match phase {
            Phase::Init => {
                let ok = match self.dialect {
                    ProtocolKind::Uci => "uciok",
                    _ => "ucciok",
                };
                if self.stage == Stage::Hello {
                    if line.starts_with("option name UCI_Variant ")
                        || line.starts_with("option UCI_Variant ")
                    {
                        self.has_variant = true;
                    }
                    if line == ok {
                        self.stage = Stage::Ready;
                        return Ok(Step::Continue(self.setup_lines()));
                    }
                    Ok(Step::Continue(Vec::new()))
                } else if line == "readyok" {
                    Ok(Step::Done(None))
                } else {
                    Ok(Step::Continue(Vec::new()))
                }
            }
            Phase::Act => {
                let mut words = line.split_whitespace();
                match words.next() {
                    Some("bestmove") => {}
                    Some("nobestmove") => {
                        return Err(Failure {
                            outcome: Outcome::IllegalMove,
                            detail: "the engine answered nobestmove".into(),
                        })
                    }
                    _ => return Ok(Step::Continue(Vec::new())),
                }
                let Some(text) = words.next() else {
                    return Err(bad("`bestmove` without a move".into()));
                };
                let Some(m) = self.parse_move(text) else {
                    return Err(Failure {
                        outcome: Outcome::IllegalMove,
                        detail: format!(
                            "bestmove `{}` is not a {} move",
                            text.chars().take(20).collect::<String>(),
                            self.dialect.as_str()
                        ),
                    });
                };
                Ok(Step::Done(Some(m)))
            }
        }
    }

    fn end(&mut self, _state: &Xiangqi, _seat: Seat) -> Vec<String> {
        vec!["quit".to_string()]
    }

    fn strict(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use games::Game;

    fn lines(p: &mut Uci, state: &Xiangqi, phase: Phase, ms: u64) -> Vec<String> {
        p.request(phase, state, 0, Duration::from_millis(ms))
    }

    #[test]
    fn uci_handshake_position_and_rank_conversion() {
        let mut g = Xiangqi::new();
        let mut p = Uci::new(ProtocolKind::Uci, &[("Skill Level".into(), "0".into())]);
        assert_eq!(lines(&mut p, &g, Phase::Init, 1000), ["uci"]);
        let step = |p: &mut Uci, g: &Xiangqi, l: &str| {
            Protocol::<Xiangqi>::answer(p, Phase::Init, g, 0, l).unwrap()
        };
        assert!(matches!(step(&mut p, &g, "id name X"), Step::Continue(v) if v.is_empty()));
        step(
            &mut p,
            &g,
            "option name UCI_Variant type combo default chess var xiangqi",
        );
        match step(&mut p, &g, "uciok") {
            Step::Continue(v) => assert_eq!(
                v,
                [
                    "setoption name UCI_Variant value xiangqi",
                    "setoption name Skill Level value 0",
                    "isready"
                ]
            ),
            other => panic!("{other:?}"),
        }
        assert!(matches!(step(&mut p, &g, "readyok"), Step::Done(None)));
        g.play_iccs(&["h2e2", "h9g7"]).unwrap();
        assert_eq!(
            lines(&mut p, &g, Phase::Act, 100),
            [
                format!("position fen {} moves h3e3 h10g8", Xiangqi::new().fen()),
                "go movetime 80".to_string()
            ]
        );
        let a = Protocol::<Xiangqi>::answer(&mut p, Phase::Act, &g, 0, "info depth 3").unwrap();
        assert!(matches!(a, Step::Continue(_)));
        match Protocol::<Xiangqi>::answer(&mut p, Phase::Act, &g, 0, "bestmove b1c3 ponder x")
            .unwrap()
        {
            Step::Done(Some(m)) => assert_eq!(g.action_name(m), "b0c2"),
            other => panic!("{other:?}"),
        }
        let e =
            Protocol::<Xiangqi>::answer(&mut p, Phase::Act, &g, 0, "bestmove z9z9").unwrap_err();
        assert_eq!(e.outcome, Outcome::IllegalMove);
    }

    #[test]
    fn ucci_uses_iccs_numbering() {
        let mut g = Xiangqi::new();
        let mut p = Uci::new(ProtocolKind::Ucci, &[]);
        assert_eq!(lines(&mut p, &g, Phase::Init, 1000), ["ucci"]);
        g.play_iccs(&["h2e2"]).unwrap();
        let l = lines(&mut p, &g, Phase::Act, 1000);
        assert!(l[0].ends_with(" moves h2e2"), "{l:?}");
        assert_eq!(l[1], "go time 800 movestogo 1");
    }

    #[test]
    fn movetime_keeps_a_margin() {
        assert_eq!(movetime(Duration::from_millis(40)), 30);
        assert_eq!(movetime(Duration::from_millis(1000)), 800);
        assert_eq!(movetime(Duration::from_millis(5)), 1);
    }
}
