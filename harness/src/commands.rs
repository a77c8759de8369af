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
        "supply" => crate::games::supply::trace(args, out),
        "xiangqi" => crate::games::xiangqi::trace(args, out),
        other => Err(unsupported(
            "trace",
            other,
            &["bait", "snake", "supply", "xiangqi"],
        )),
    }
}

/// `arena solve <game>`.
pub fn solve(args: &SolveArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    match args.game.as_str() {
        "bait" => crate::games::bait::solve(args, out),
        "supply" => crate::games::supply::solve(args, out),
        other => Err(unsupported("solve", other, &["bait", "supply"])),
    }
}

/// `arena generate <game>`.
pub fn generate(args: &GenerateArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    match args.game.as_str() {
        "supply" => crate::games::supply::generate(args, out),
        other => Err(unsupported("generate", other, &["supply"])),
    }
}

/// `arena verify <game>`.
pub fn verify(args: &VerifyArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    let _ = out;
    Err(unsupported("verify", &args.game, &[]))
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
        other => Err(unsupported("bench", other, &["bait", "snake", "xiangqi"])),
    }
}
