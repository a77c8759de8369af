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

/// `arena replay FILE`: check every replay against the rules (a mismatch
/// is a [`HarnessError::CheckFailed`], exit 4); with `html`, also write a
/// standalone viewer page of the replays (only `episode`, if given).
pub fn replay(
    file: &std::path::Path,
    episode: Option<usize>,
    html: Option<&std::path::Path>,
    out: &mut dyn Write,
) -> Result<(), HarnessError> {
    let (replays, failures) = crate::replay::check_file(file, episode, out)?;
    if let Some(path) = html {
        crate::html::viewer::write_standalone(path, &replays)?;
        writeln!(out, "viewer: {}", path.display()).map_err(|e| HarnessError::io("<stdout>", e))?;
    }
    match failures.first() {
        None => Ok(()),
        Some(first) => Err(HarnessError::CheckFailed(format!(
            "{} of {} replays do not reproduce: {first}",
            failures.len(),
            replays.len()
        ))),
    }
}

/// `arena bench <game>`.
pub fn bench(args: &BenchArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    command(&args.game, "bench", |g: &dyn GameEntry| g.bench())?(args, out)
}
