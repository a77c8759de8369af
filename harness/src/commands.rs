//! Per-game subcommands, dispatched by game name. Each arm calls into the
//! game's module under [`crate::games`]; games that do not support a command
//! get a clear error naming the ones that do.

use crate::cli::{BenchArgs, GenerateArgs, PerftArgs, SolveArgs, TraceArgs, VerifyArgs};
use crate::error::HarnessError;
use std::io::Write;

fn unsupported(command: &'static str, game: &str, supported: &[&str]) -> HarnessError {
    HarnessError::Unsupported {
        command,
        game: game.to_string(),
        supported: supported.join(", "),
    }
}

/// `arena trace <game>`.
pub fn trace(args: &TraceArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    match args.game.as_str() {
        "bait" => crate::games::bait::trace(args, out),
        "snake" => crate::games::snake::trace(args, out),
        "sokoban" => crate::games::sokoban::trace(args, out),
        "supply" => crate::games::supply::trace(args, out),
        "xiangqi" => crate::games::xiangqi::trace(args, out),
        other => Err(unsupported(
            "trace",
            other,
            &["bait", "snake", "sokoban", "supply", "xiangqi"],
        )),
    }
}

/// `arena solve <game>`.
pub fn solve(args: &SolveArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    match args.game.as_str() {
        "bait" => crate::games::bait::solve(args, out),
        "sokoban" => crate::games::sokoban_solve::solve(args, out),
        "supply" => crate::games::supply::solve(args, out),
        other => Err(unsupported("solve", other, &["bait", "sokoban", "supply"])),
    }
}

/// `arena generate <game>`.
pub fn generate(args: &GenerateArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    match args.game.as_str() {
        "sokoban" => crate::games::sokoban::generate(args, out),
        "supply" => crate::games::supply::generate(args, out),
        other => Err(unsupported("generate", other, &["sokoban", "supply"])),
    }
}

/// `arena verify <game>`.
pub fn verify(args: &VerifyArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    match args.game.as_str() {
        "sokoban" => crate::games::sokoban::verify(args, out),
        other => Err(unsupported("verify", other, &["sokoban"])),
    }
}

/// `arena perft <game>`.
pub fn perft(args: &PerftArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    match args.game.as_str() {
        "xiangqi" => crate::games::xiangqi::perft(args, out),
        other => Err(unsupported("perft", other, &["xiangqi"])),
    }
}

/// `arena bench <game>`.
pub fn bench(args: &BenchArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    match args.game.as_str() {
        "bait" => crate::games::bait::bench(args, out),
        "snake" => crate::games::snake::bench(args, out),
        "xiangqi" => crate::games::xiangqi::bench(args, out),
        "sokoban" => crate::games::sokoban_solve::bench(args, out),
        other => Err(unsupported(
            "bench",
            other,
            &["bait", "snake", "sokoban", "xiangqi"],
        )),
    }
}
