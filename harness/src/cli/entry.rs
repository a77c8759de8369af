//! The `arena` command line as one function: parse the arguments, run the
//! subcommand, print its error, return the exit code. The `arena` binary
//! calls it with the process's arguments; the Python package's `arena`
//! command (`arena._native.cli`, python/) with its own, so both are the
//! same program.

use crate::cli::args::{Cli, Command};
use crate::{exit, HarnessError};
use std::ffi::OsString;
use std::io::Write;

/// Run `arena` with `args` (the program's name first) and return the exit
/// code. A parse error or `--help` prints and exits the process, as clap
/// does.
pub fn main<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = crate::cli::commands::parse_args_from(args);
    match run(cli) {
        Ok(code) => code,
        // The reader of stdout went away (`arena list | head -1`): what it
        // wanted was written; stop quietly.
        Err(err) if err.chain().any(crate::error::is_broken_pipe) => exit::OK,
        Err(err) => match err.downcast_ref::<HarnessError>() {
            // Harness errors already carry their cause in their message.
            Some(he) => {
                eprintln!("error: {he}");
                he.exit_code()
            }
            None => {
                eprintln!("error: {err:#}");
                exit::FAILURE
            }
        },
    }
}

fn run(cli: Cli) -> anyhow::Result<i32> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match cli.command {
        Command::Trace(a) => crate::cli::commands::trace(&a, &mut out)?,
        Command::Solve(a) => crate::cli::commands::solve(&a, &mut out)?,
        Command::Generate(a) => crate::cli::commands::generate(&a, &mut out)?,
        Command::Verify(a) => crate::cli::commands::verify(&a, &mut out)?,
        Command::Perft(a) => crate::cli::commands::perft(&a, &mut out)?,
        Command::Bench(a) => crate::cli::commands::bench(&a, &mut out)?,
        Command::Run(a) => {
            crate::run::install_interrupt_handler();
            crate::run::run(&a, &mut out)?;
        }
        Command::List(a) => crate::cli::commands::list(a.game.as_deref(), &mut out)?,
        Command::Summarize(a) => crate::run::summarize(&a.dir, &mut out)?,
        Command::Merge(a) => {
            crate::output::merge::merge(&a.out, &a.shards, &mut out)?;
            crate::run::summarize(&a.out, &mut out)?;
        }
        Command::Slurm(a) => {
            crate::slurm::slurm(&a, &mut out)?;
        }
        Command::Report(a) => crate::output::html::report_command(&a.dir, &mut out)?,
        Command::Grade(a) => {
            crate::run::install_interrupt_handler();
            let code = crate::grade::commands::grade_command(&a, &mut out)?;
            out.flush().ok();
            return Ok(code);
        }
        Command::Check(a) => {
            crate::run::install_interrupt_handler();
            let code = crate::grade::commands::check_command(&a, &mut out)?;
            out.flush().ok();
            return Ok(code);
        }
        Command::Replay(a) => {
            crate::cli::commands::replay(&a.file, a.episode, a.html.as_deref(), &mut out)?
        }
    }
    out.flush().ok();
    Ok(exit::OK)
}
