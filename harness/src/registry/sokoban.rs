//! Sokoban in the harness: levels, agents, JSON view, and `arena trace
//! sokoban`, `arena verify sokoban`, `arena generate sokoban`.
//!
//! Level names: `microban:N` is Microban level N (1 to 155, as the titles
//! in the file); `FILE` is the first level of a level file, `FILE:N` its
//! level N counted **from 0** (as `FILE:N` of the supply maze, and as
//! [`Level::index`]). Commands that take a whole set (`--levels`) read every
//! level of `FILE`, or all of Microban for `microban`.

mod levels;
mod solve;

use levels::{level_error, microban, resolve};
use super::arena_game::{ArenaGame, GameCommand, GameView, LevelInfo};
use crate::registry::args::{BenchArgs, GenerateArgs, SolveArgs, VerifyArgs};
use crate::error::HarnessError;
use agents::{AgentError, AgentInfo, AgentParams};
use games::sokoban::{
    parse_collection, parse_lurd, replay, GenerateOptions, Level, Sokoban, SokobanAction,
};
use games::{Agent, Game};
use rand::SeedableRng;
use serde_json::json;
use std::io::Write;

/// The game at the start of `level` (labelled `label` in errors).
fn start(label: &str, level: &Level) -> Result<Sokoban, HarnessError> {
    Sokoban::from_level(level).map_err(|e| level_error(label, e))
}

/// `[row, col]` of a cell.
fn rc(width: usize, cell: usize) -> [usize; 2] {
    [cell / width, cell % width]
}

impl GameView for Sokoban {
    const NAME: &'static str = "sokoban";
    /// `grid`: the rows in standard characters (`#` wall, `$` box, `.` goal,
    /// `*` box on goal, `@`/`+` player, space floor), each `width` long;
    /// `player`, `boxes`, `goals`: `[row, col]`, 0-based from the top left.
    fn state_json(&self, _seat: usize) -> serde_json::Value {
        let w = self.width();
        let cells = |v: Vec<usize>| v.into_iter().map(|c| rc(w, c)).collect::<Vec<_>>();
        json!({
            "tick": self.tick(),
            "width": w,
            "height": self.height(),
            "grid": self.grid_rows(),
            "player": rc(w, self.player_cell()),
            "boxes": cells(self.box_cells()),
            "goals": cells(self.goal_cells()),
            "pushes": self.pushes(),
            "boxes_on_goals": self.boxes_on_goals(),
            "score": self.score(0),
            "over": self.is_over(),
            "result": self.result(0).as_str(),
        })
    }
}

impl ArenaGame for Sokoban {
    const DESCRIPTION: &'static str =
        "Sokoban: push every box onto a goal (1 player; actions l u r d, upper case when pushing; score = boxes on goals)";
    const ACTION_SYNTAX: &'static str =
        "l, u, r, d (either case), - to wait, or a LURD string";
    const SOLVE: Option<GameCommand<SolveArgs>> = Some(solve::solve);
    const GENERATE: Option<GameCommand<GenerateArgs>> = Some(generate);
    const VERIFY: Option<GameCommand<VerifyArgs>> = Some(verify);
    const BENCH: Option<GameCommand<BenchArgs>> = Some(solve::bench);

    fn trace_item(&self, item: &str) -> Option<Vec<SokobanAction>> {
        let steps = parse_lurd(item).ok()?;
        Some(steps.into_iter().map(|(d, _)| SokobanAction::Move(d)).collect())
    }

    fn builtin_levels() -> Vec<LevelInfo> {
        microban()
            .iter()
            .map(|l| LevelInfo {
                name: format!("microban:{}", l.index + 1),
                description: format!(
                    "Microban {}, {}x{}, {} boxes",
                    l.title,
                    l.width,
                    l.height,
                    l.num_boxes()
                ),
            })
            .collect()
    }

    fn load_level(spec: &str, _seed: u64) -> Result<Self, HarnessError> {
        let l = resolve(spec, false)?.remove(0);
        start(&l.label, &l.level)
    }

    fn set_max_steps(&mut self, max_steps: u32) {
        *self = self.clone().with_max_steps(max_steps);
    }

    fn agents() -> &'static [AgentInfo] {
        agents::sokoban::AGENTS
    }

    fn make_agent(
        name: &str,
        params: &AgentParams,
        seed: u64,
    ) -> Result<Box<dyn Agent<Self>>, AgentError> {
        agents::sokoban::make(name, params, seed)
    }

}

/// One claimed solution from a solutions file.
#[derive(Clone, Debug, Default)]
struct Claim {
    /// The LURD strings given for the level (SOK files may give several).
    lurd: Vec<String>,
    /// Title the solutions file gives for the level (checked when present).
    title: Option<String>,
    /// The board the solutions file gives (SOK form; checked when present).
    board: Option<Level>,
    /// Moves / pushes the file claims (checked when present).
    moves: Option<usize>,
    pushes: Option<usize>,
    /// The file says the level was solved (CSV `solved` column).
    solved: Option<bool>,
    /// The level's number from 1 (CSV `level` column, as `arena solve`
    /// writes it), when given.
    number: Option<usize>,
}

/// The solutions of `text`, in level order, and what form they were in.
fn read_claims(text: &str, path: &str) -> Result<(Vec<Claim>, &'static str), HarnessError> {
    // SOK: a level file with `Solution` sections.
    if let Ok(entries) = parse_collection(text) {
        if entries.iter().any(|e| !e.solutions.is_empty()) {
            let claims = entries
                .into_iter()
                .map(|e| Claim {
                    lurd: e.solutions,
                    title: Some(e.level.title.clone()),
                    board: Some(e.level),
                    ..Claim::default()
                })
                .collect();
            return Ok((claims, "SOK Solution sections"));
        }
    }
    // CSV with a `solution` column (as written by `arena solve sokoban --out`).
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    // The column: `solution`, else `lurd`, else the only one whose name
    // contains `lurd`, else the only one containing `solution`.
    let solution_col = |headers: &mut dyn Iterator<Item = &str>| -> Option<usize> {
        let hs: Vec<String> = headers.map(|h| h.trim().to_ascii_lowercase()).collect();
        let only = |part: &str| {
            let mut it = hs.iter().enumerate().filter(|(_, h)| h.contains(part));
            match (it.next(), it.next()) {
                (Some((i, _)), None) => Some(i),
                _ => None,
            }
        };
        hs.iter()
            .position(|h| h == "solution")
            .or_else(|| hs.iter().position(|h| h == "lurd"))
            .or_else(|| only("lurd"))
            .or_else(|| only("solution"))
    };
    if first.contains(',') && solution_col(&mut first.split(',')).is_some() {
        let mut r = csv::ReaderBuilder::new()
            .flexible(false)
            .trim(csv::Trim::All)
            .from_reader(text.as_bytes());
        let csv_err = |e: csv::Error| HarnessError::Csv {
            path: path.into(),
            source: e,
        };
        let headers = r.headers().map_err(csv_err)?.clone();
        let col = |name: &str| headers.iter().position(|h| h == name);
        let (sol, number, title, moves, pushes, solved) = (
            solution_col(&mut headers.iter()).expect("checked above"),
            col("level"),
            col("title"),
            col("moves"),
            col("pushes"),
            col("solved"),
        );
        let mut claims = Vec::new();
        for rec in r.records() {
            let rec = rec.map_err(csv_err)?;
            let get = |c: Option<usize>| c.and_then(|c| rec.get(c)).filter(|v| !v.is_empty());
            let s = rec.get(sol).unwrap_or("").to_string();
            claims.push(Claim {
                lurd: if s.is_empty() { vec![] } else { vec![s] },
                title: get(title).map(str::to_string),
                moves: get(moves).and_then(|v| v.parse().ok()),
                pushes: get(pushes).and_then(|v| v.parse().ok()),
                solved: get(solved).map(|v| matches!(v, "true" | "yes" | "1")),
                number: get(number).and_then(|v| v.parse().ok()),
                board: None,
            });
        }
        return Ok((claims, "CSV solution column"));
    }
    // Plain: one LURD line per level; `;` lines are comments, `-` = none.
    let claims = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with(';'))
        .map(|l| Claim {
            lurd: if l == "-" {
                vec![]
            } else {
                vec![l.to_string()]
            },
            ..Claim::default()
        })
        .collect();
    Ok((claims, "one LURD line per level"))
}

/// What verify found for one level.
enum Verdict {
    Valid { moves: usize, pushes: usize },
    Invalid(String),
    Unsolved,
}

fn judge(level: &Level, claim: &Claim) -> Verdict {
    if let Some(b) = &claim.board {
        let same = (b.width, b.height, &b.walls, &b.goals, &b.boxes, b.player)
            == (
                level.width,
                level.height,
                &level.walls,
                &level.goals,
                &level.boxes,
                level.player,
            );
        if !same {
            return Verdict::Invalid(format!(
                "the solutions file's board (line {}) is not this level's board: the files do not line up",
                b.line
            ));
        }
    }
    if let Some(t) = &claim.title {
        if !t.is_empty() && !level.title.is_empty() && *t != level.title {
            return Verdict::Invalid(format!(
                "the solutions file's level is titled `{t}`, the level file's `{}`: the files do not line up",
                level.title
            ));
        }
    }
    if claim.lurd.is_empty() {
        return if claim.solved == Some(true) {
            Verdict::Invalid("marked solved but no solution given".into())
        } else {
            Verdict::Unsolved
        };
    }
    let mut first_error = None;
    for lurd in &claim.lurd {
        match replay(level, lurd) {
            Ok(r) if r.solved => {
                if let Some(m) = claim.moves.filter(|&m| m != r.moves) {
                    return Verdict::Invalid(format!(
                        "the file says {m} moves, the replay counts {}",
                        r.moves
                    ));
                }
                if let Some(p) = claim.pushes.filter(|&p| p != r.pushes) {
                    return Verdict::Invalid(format!(
                        "the file says {p} pushes, the replay counts {}",
                        r.pushes
                    ));
                }
                return Verdict::Valid {
                    moves: r.moves,
                    pushes: r.pushes,
                };
            }
            Ok(r) => {
                first_error.get_or_insert(format!(
                    "does not solve the level: a box is off its goals after all {} moves ({} pushes)",
                    r.moves, r.pushes
                ));
            }
            Err(e) => {
                first_error.get_or_insert(e.to_string());
            }
        }
    }
    Verdict::Invalid(first_error.unwrap_or_default())
}

/// `arena verify sokoban --levels F --solutions S`: replay each solution on
/// its level (independently of any solver) and print one line per level:
/// `valid`, with moves and pushes counted by the replay; `invalid`, with the
/// reason; or `unsolved` (no solution given). The solutions file is one of
/// - a level file with SOK `Solution` sections after the boards (it may be
///   the levels file itself), matched in order (its boards must be the
///   levels' boards);
/// - a CSV with a `solution` column (as written by `arena solve sokoban
///   --out`; else `lurd`, else the one column whose name contains `lurd`,
///   else the one containing `solution`); rows are matched to levels by
///   the `level` column (the level's number in its file, from 1) when every
///   row has one, else in order; `title`, `moves`, `pushes` and `solved` columns
///   are checked when present;
/// - plain text: one LURD line per level in order (`;` lines are comments,
///   `-` means no solution).
///
/// Exit code 4 when any solution is invalid.
pub fn verify(args: &VerifyArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    let spec = args.levels.to_string_lossy();
    let levels = resolve(&spec, true)?;
    let sol_path = args.solutions.to_string_lossy().into_owned();
    let text = crate::error::read_text(&args.solutions)?;
    let (claims, form) = read_claims(&text, &sol_path)?;
    let io = |e| HarnessError::io("<stdout>", e);
    // A CSV whose rows all carry a level number (from 1, as `arena solve`
    // writes it) is matched by number, so it may cover more or fewer levels
    // than `--levels` names; otherwise rows go in order.
    let by_number = !claims.is_empty() && claims.iter().all(|c| c.number.is_some());
    if !by_number && claims.len() > levels.len() {
        eprintln!(
            "warning: {sol_path} has {} solutions for {} levels; the extra ones are ignored",
            claims.len(),
            levels.len()
        );
    }
    let (mut valid, mut invalid, mut unsolved) = (0, 0, 0);
    for (k, l) in levels.iter().enumerate() {
        let claim = if by_number {
            claims
                .iter()
                .find(|c| c.number == Some(l.level.index + 1))
                .cloned()
                .unwrap_or_default()
        } else {
            claims.get(k).cloned().unwrap_or_default()
        };
        let name = if l.level.title.is_empty() {
            l.label.clone()
        } else {
            format!("{} ({})", l.label, l.level.title)
        };
        match judge(&l.level, &claim) {
            Verdict::Valid { moves, pushes } => {
                valid += 1;
                writeln!(out, "{name}: valid, {moves} moves, {pushes} pushes").map_err(io)?;
            }
            Verdict::Invalid(why) => {
                invalid += 1;
                writeln!(out, "{name}: invalid: {why}").map_err(io)?;
            }
            Verdict::Unsolved => {
                unsolved += 1;
                writeln!(out, "{name}: unsolved (no solution given)").map_err(io)?;
            }
        }
    }
    let summary = format!(
        "{} levels: {valid} valid, {invalid} invalid, {unsolved} unsolved ({form} in {sol_path})",
        levels.len()
    );
    writeln!(out, "{summary}").map_err(io)?;
    if invalid > 0 {
        return Err(HarnessError::CheckFailed(format!(
            "{invalid} invalid solution(s): {summary}"
        )));
    }
    Ok(())
}

/// `arena generate sokoban --count N --seed S [--size WxH] [--boxes K]
/// [--min-score X] [--out F]`: levels made by the report's generator
/// (carve, place boxes on goals, pull backwards: solvable by
/// construction), each scored with the report's difficulty and kept when
/// at least `--min-score`. Output: a header comment, then for each level
/// `; K` (its title, 1 to N), `; difficulty …` and the board. Defaults:
/// `--size 10x10` (columns x rows, walls included), `--boxes 4`,
/// `--min-score 0`. Same arguments, same levels.
pub fn generate(args: &GenerateArgs, out: &mut dyn Write) -> Result<(), HarnessError> {
    let size = args.size.as_deref().unwrap_or("10x10");
    let (width, height) =
        super::parse_size(size, "WxH (columns x rows, walls included), e.g. 10x10")?;
    let min_score = args.min_score.unwrap_or(0.0);
    if !min_score.is_finite() {
        return Err(HarnessError::Flag(format!(
            "--min-score {min_score}: expected a number"
        )));
    }
    let opts = GenerateOptions {
        width,
        height,
        boxes: args.boxes.unwrap_or(4),
        min_score,
        ..GenerateOptions::default()
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(args.seed);
    let mut text = format!(
        "; arena generate sokoban --count {} --size {width}x{height} --boxes {} --min-score {min_score} --seed {}\n\n",
        args.count, opts.boxes, args.seed
    );
    for k in 1..=args.count {
        let g = games::sokoban::generate(&mut rng, &opts)
            .map_err(|e| HarnessError::Flag(format!("arena generate sokoban: level {k}: {e}")))?;
        text.push_str(&format!("; {k}\n; difficulty {}\n", g.difficulty));
        text.push_str(&g.level.to_xsb());
        text.push('\n');
    }
    match &args.out {
        Some(path) => std::fs::write(path, text).map_err(|e| HarnessError::io(path, e)),
        None => out
            .write_all(text.as_bytes())
            .map_err(|e| HarnessError::io("<stdout>", e)),
    }
}
