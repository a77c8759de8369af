//! The `arena` binary: a thin layer over the `harness` library.

use harness::cli::{Cli, Command};
use harness::{exit, HarnessError};
use std::io::Write;

fn main() {
    let cli = harness::commands::parse_args();
    let code = match run(cli) {
        Ok(code) => code,
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
    };
    std::process::exit(code);
}

fn run(cli: Cli) -> anyhow::Result<i32> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    match cli.command {
        Command::Trace(a) => harness::commands::trace(&a, &mut out)?,
        Command::Solve(a) => harness::commands::solve(&a, &mut out)?,
        Command::Generate(a) => harness::commands::generate(&a, &mut out)?,
        Command::Verify(a) => harness::commands::verify(&a, &mut out)?,
        Command::Perft(a) => harness::commands::perft(&a, &mut out)?,
        Command::Bench(a) => harness::commands::bench(&a, &mut out)?,
        Command::Run(a) => {
            harness::run::install_interrupt_handler();
            harness::run::run(&a, &mut out)?;
        }
        Command::List(a) => harness::commands::list(a.game.as_deref(), &mut out)?,
        Command::Summarize(a) => harness::run::summarize(&a.dir, &mut out)?,
        Command::Merge(a) => harness::merge::merge(&a.out, &a.shards, &mut out)?,
        Command::Slurm(a) => {
            harness::slurm::slurm(&a, &mut out)?;
        }
        Command::Report(a) => harness::html::report_command(&a.dir, &mut out)?,
        Command::Grade(a) => {
            harness::run::install_interrupt_handler();
            let code = harness::grade::commands::grade_command(&a, &mut out)?;
            out.flush().ok();
            return Ok(code);
        }
        Command::Check(a) => {
            harness::run::install_interrupt_handler();
            let code = harness::grade::commands::check_command(&a, &mut out)?;
            out.flush().ok();
            return Ok(code);
        }
        Command::Replay(a) => {
            harness::commands::replay(&a.file, a.episode, a.html.as_deref(), &mut out)?
        }
    }
    out.flush().ok();
    Ok(exit::OK)
}
