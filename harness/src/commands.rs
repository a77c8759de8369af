//! Per-game subcommands, dispatched through the registry
//! ([`crate::games::GAMES`]): a game offers a command by setting the
//! matching hook of its [`crate::games::ArenaGame`] impl; games that do not
//! get a clear error naming the ones that do.

use crate::cli::{BenchArgs, GenerateArgs, PerftArgs, SolveArgs, TraceArgs, VerifyArgs};
use crate::error::HarnessError;
use crate::games::{command, find, GameEntry};
use std::io::Write;

/// `arena trace <game>` (every game).
pub fn trace(args: &TraceArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    find(&args.game)?.trace(args, out)
}

/// `arena solve <game>`.
pub fn solve(args: &SolveArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    command(&args.game, "solve", |g: &dyn GameEntry| g.solve())?(args, out)
}

/// `arena generate <game>`.
pub fn generate(args: &GenerateArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    command(&args.game, "generate", |g: &dyn GameEntry| g.generate())?(args, out)
}

/// `arena verify <game>`.
pub fn verify(args: &VerifyArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    command(&args.game, "verify", |g: &dyn GameEntry| g.verify())?(args, out)
}

/// `arena perft <game>`.
pub fn perft(args: &PerftArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    command(&args.game, "perft", |g: &dyn GameEntry| g.perft())?(args, out)
}

/// `arena bench <game>`.
pub fn bench(args: &BenchArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    command(&args.game, "bench", |g: &dyn GameEntry| g.bench())?(args, out)
}
