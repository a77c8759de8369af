//! Per-game subcommands, dispatched through the registry
//! ([`crate::registry::GAMES`]): a game offers a command by setting the
//! matching hook of its [`crate::registry::ArenaGame`] impl; games that do not
//! get a clear error naming the ones that do. Also the clap command, whose
//! per-game help texts come from the registry.

use crate::cli::args::Cli;
use crate::error::HarnessError;
use crate::registry::args::{BenchArgs, GenerateArgs, PerftArgs, SolveArgs, TraceArgs, VerifyArgs};
use crate::registry::{find, names, GameEntry};
use std::io::Write;

/// `arena trace <game>` (every game).
pub fn trace(args: &TraceArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    find(&args.game)?.trace(args, out)
}

/// `arena solve <game>`.
pub fn solve(args: &SolveArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    let (args, warning) = level_numbers_from_one(args)?;
    if args.nearest.is_some() && args.game != "sokoban" {
        return Err(HarnessError::Flag(format!(
            "--nearest is for `arena solve sokoban` only (not {})",
            args.game
        )));
    }
    if let Some(w) = warning {
        eprintln!("warning: {w}");
    }
    crate::registry::command(&args.game, "solve", |g: &dyn GameEntry| g.solve())?(&args, out)
}

/// One convention for "which level of `--levels FILE`": `--level N`,
/// counted from 1. The deprecated `--index N` (counted from 0) becomes
/// `--level N+1`, with a warning to print; the games never see `--index`.
pub fn level_numbers_from_one(
    args: &SolveArgs,
) -> Result<(SolveArgs, Option<String>), HarnessError> {
    let mut args = args.clone();
    let Some(i) = args.index.take() else {
        return Ok((args, None));
    };
    if args.levels.is_none() {
        return Err(HarnessError::Flag(format!(
            "--index {i} needs --levels FILE (and is deprecated: use --levels FILE --level {})",
            i + 1
        )));
    }
    if let Some(l) = &args.level {
        return Err(HarnessError::Flag(format!(
            "give --level N (counted from 1) or the deprecated --index N, not both (--level {l}, --index {i})"
        )));
    }
    args.level = Some((i + 1).to_string());
    Ok((
        args,
        Some(format!(
            "--index {i} is deprecated (it counts from 0): use --level {} (levels count from 1)",
            i + 1
        )),
    ))
}

/// `arena generate <game>`.
pub fn generate(args: &GenerateArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    crate::registry::command(&args.game, "generate", |g: &dyn GameEntry| g.generate())?(args, out)
}

/// `arena verify <game>`.
pub fn verify(args: &VerifyArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    crate::registry::command(&args.game, "verify", |g: &dyn GameEntry| g.verify())?(args, out)
}

/// `arena perft <game>`.
pub fn perft(args: &PerftArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    crate::registry::command(&args.game, "perft", |g: &dyn GameEntry| g.perft())?(args, out)
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
    let (replays, failures) = crate::output::replay::check_file(file, episode, out)?;
    if let Some(path) = html {
        crate::output::html::viewer::write_standalone(path, &replays)?;
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
    if args.game == "harness" {
        return crate::cli::bench_harness::run(args, out);
    }
    crate::registry::command(&args.game, "bench", |g: &dyn GameEntry| g.bench())?(args, out)
}

/// `arena list`: one line per game (its levels and agents); `arena list
/// GAME`: that game in detail (what it is, every level, every agent with
/// its parameters, the action syntax and the protocols).
pub fn list(game: Option<&str>, out: &mut dyn Write) -> Result<(), HarnessError> {
    let text = match game {
        Some(g) => list_game(find(g)?),
        None => list_games(),
    };
    write!(out, "{text}").map_err(|e| HarnessError::io("<stdout>", e))
}

/// A game's levels in a few words: their names, or the first and the last
/// of a long list.
fn levels_in_short(levels: &[crate::registry::LevelInfo]) -> String {
    match levels {
        [] => "none".into(),
        [first, .., last] if levels.len() > 5 => {
            format!("{} .. {} ({} levels)", first.name, last.name, levels.len())
        }
        _ => levels
            .iter()
            .map(|l| l.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
    }
}

fn list_games() -> String {
    let rows: Vec<(String, String, String)> = crate::registry::GAMES
        .iter()
        .map(|g| {
            let agents: Vec<&str> = g.agents().iter().map(|a| a.name).collect();
            let levels = if g.members().is_empty() {
                levels_in_short(&g.levels())
            } else {
                "per game (below)".to_string()
            };
            (format!("{}:", g.name()), levels, agents.join(", "))
        })
        .collect();
    let name_w = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let levels_w = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    let mut s = String::new();
    for (name, levels, agents) in rows {
        s += &format!("{name:<name_w$} levels {levels:<levels_w$}  agents {agents}\n");
    }
    // Families of games: one line per shipped member.
    for g in crate::registry::GAMES {
        let members = g.members();
        if members.is_empty() {
            continue;
        }
        s += &format!("\n{} ({} shipped):\n", g.name(), members.len());
        let w = members.iter().map(|m| m.0.len()).max().unwrap_or(0);
        for (name, status) in members {
            s += &format!("  {name:<w$} {status}\n");
        }
    }
    s += "\n`arena list GAME` shows a game's levels, agents with their parameters, actions and \
          protocols;\nlevels may also be files, and an agent any program (docs/protocol.md).\n";
    s
}

/// The width `arena list GAME` wraps its lines to.
const LIST_WIDTH: usize = 100;

fn list_game(g: &dyn GameEntry) -> String {
    let levels = g.levels();
    let agents = g.agents();
    let w = levels
        .iter()
        .map(|l| l.name.len())
        .chain(agents.iter().map(|a| a.name.len()))
        .max()
        .unwrap_or(0)
        .max(16);
    let mut s = wrap(&format!("{}: ", g.name()), "  ", g.description());
    s += "  levels:\n";
    let pad = " ".repeat(4 + w + 1);
    for l in &levels {
        s += &wrap(&format!("    {:<w$} ", l.name), &pad, &l.description);
    }
    s += "  agents:\n";
    for a in agents {
        s += &wrap(&format!("    {:<w$} ", a.name), &pad, a.description);
        for p in a.params {
            s += &wrap(
                &format!("{pad}  param "),
                &format!("{pad}        "),
                &p.to_string(),
            );
        }
    }
    let protocols: Vec<&str> = g.protocols().iter().map(|p| p.as_str()).collect();
    s += &format!(
        "  actions: {}\n  protocols: {}\n",
        g.action_syntax(),
        protocols.join(", ")
    );
    s
}

/// `text` after `first`, its words wrapped to [`LIST_WIDTH`] columns on
/// lines that start with `rest`.
fn wrap(first: &str, rest: &str, text: &str) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && line.len() + 1 + word.len() > LIST_WIDTH {
            out += line.trim_end();
            out.push('\n');
            line = rest.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line += word;
        empty = false;
    }
    out += line.trim_end();
    out.push('\n');
    out
}

/// The clap command of `arena`, with the per-game parts of the help texts
/// computed from the registry ([`crate::registry::GAMES`]), so they cannot
/// drift from what the games offer.
pub fn clap_command() -> clap::Command {
    type Offers = fn(&dyn GameEntry) -> bool;
    let which: [(&str, Offers); 6] = [
        ("trace", |_| true),
        ("solve", |g| g.solve().is_some()),
        ("generate", |g| g.generate().is_some()),
        ("verify", |g| g.verify().is_some()),
        ("perft", |g| g.perft().is_some()),
        ("bench", |g| g.bench().is_some()),
    ];
    let mut cmd = <Cli as clap::CommandFactory>::command();
    for (sub, has) in which {
        let mut games = names(has).join(", ");
        if sub == "bench" {
            // Not a game: the harness's own cost per episode (`bench_harness`).
            games.push_str(", or `harness` (the harness itself against OpenSpiel)");
        }
        cmd = cmd.mut_subcommand(sub, |c| {
            c.mut_arg("game", |a| a.help(format!("The game: {games}")))
        });
    }
    let list = crate::registry::GAMES
        .iter()
        .map(|g| format!("  {:<10} {}", g.name(), g.description()))
        .collect::<Vec<_>>()
        .join("\n");
    cmd.mut_subcommand("list", |c| {
        c.after_help(format!(
            "Examples:\n  arena list\n  arena list xiangqi\n\nGames:\n{list}"
        ))
    })
}

/// Parse `args` (the program's name first) with [`clap_command`] (exits on
/// `--help` and usage errors, as clap does).
pub fn parse_args_from<I, T>(args: I) -> Cli
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::FromArgMatches;
    let matches = clap_command().get_matches_from(args);
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}
