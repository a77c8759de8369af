//! The assignment file: a run config whose `[[agents]]` are the opponents
//! (none for one-player games), plus a strict `[grading]` table: how
//! submissions are built and run, and the grading rule.
//!
//! ```toml
//! game = "sokoban"
//! levels = ["levels/a.xsb", "levels/b.xsb"]
//! [grading]
//! sandbox = "bwrap"
//! languages = ["python", "cpp", "java"]
//! [[grading.criteria]]
//! name = "level a solved"
//! level = "levels/a.xsb"
//! points = 50
//! [grading.grades]
//! A = 90
//! B = 75
//! ```

use crate::config::RunConfig;
use crate::error::HarnessError;
use crate::external::{ProcessLimits, ProtocolKind, Sandbox};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

/// The value of a criterion's `opponent` that means the class round
/// robin's games (`class_round_robin = true`).
pub const CLASS: &str = "class";

/// The default of `[grading] forfeit_after_timeouts`.
pub const FORFEIT_AFTER_TIMEOUTS: u32 = 3;

/// The languages `arena grade` knows how to build and run.
pub const LANGUAGES: [&str; 4] = ["python", "cpp", "java", "rust"];

/// What one criterion measures over a submission's games.
#[derive(Clone, Debug, PartialEq)]
pub enum Measure {
    /// Wins (draws count half) per game.
    WinRate,
    /// Mean final score.
    Score,
    /// Mean steps of the games won (fewer is better).
    Steps,
}

/// One line of the grading rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Criterion {
    /// Its name in grades.csv and the feedback.
    pub name: String,
    /// What it measures.
    pub measure: Measure,
    /// Only the games on this level (resolved spec), if given.
    pub level: Option<String>,
    /// Only the games against this opponent (label), if given.
    pub opponent: Option<String>,
    /// Only the class round robin's games (`opponent = "class"`): the one
    /// criterion whose points depend on the rest of the class. Other
    /// criteria never count those games.
    pub class: bool,
    /// Full points.
    pub points: f64,
    /// The value that earns full points (win rate: default 1.0; score and
    /// steps: required). Below it the points scale linearly (steps: as
    /// `target / mean`), unless `all_or_nothing`.
    pub target: f64,
    /// Full points at or beyond the target, none below.
    pub all_or_nothing: bool,
}

/// How submissions are built and run, and the grading rule.
#[derive(Clone, Debug)]
pub struct Grading {
    /// The sandbox of every submission (default `bwrap`).
    pub sandbox: Sandbox,
    /// The protocol submissions speak (default `jsonl`).
    pub protocol: ProtocolKind,
    /// Languages accepted (default all of [`LANGUAGES`]).
    pub languages: Vec<String>,
    /// Limits of every submission's agent process tree.
    pub limits: ProcessLimits,
    /// Wall-time limit of the build step.
    pub build_time: Duration,
    /// Address-space limit of the build step, MiB.
    pub build_memory_mb: u64,
    /// Whether the class also plays a round robin among itself (two-player
    /// games), in a run of its own; only `opponent = "class"` criteria
    /// count its games.
    pub class_round_robin: bool,
    /// After this many consecutive timeouts, a submission's remaining
    /// games are lost without being played (default
    /// [`FORFEIT_AFTER_TIMEOUTS`]; `None`, written 0: every game is
    /// played). Also set as the run's
    /// [`RunConfig::forfeit_after_timeouts`].
    pub forfeit_after_timeouts: Option<u32>,
    /// The grading rule.
    pub criteria: Vec<Criterion>,
    /// Letter grades: (letter, minimum percentage), highest first.
    pub grades: Vec<(String, f64)>,
}

impl Grading {
    /// The maximum total.
    pub fn max_points(&self) -> f64 {
        self.criteria.iter().map(|c| c.points).sum()
    }

    /// The letter for `percent` (empty when no letters are defined or none applies).
    pub fn letter(&self, percent: f64) -> String {
        self.grades
            .iter()
            .find(|(_, min)| percent + 1e-9 >= *min)
            .map(|(l, _)| l.clone())
            .unwrap_or_default()
    }
}

/// A loaded assignment.
#[derive(Clone, Debug)]
pub struct Assignment {
    /// The tournament: levels, seeds, time limits, the opponents as agents.
    pub run: RunConfig,
    /// The `[grading]` table.
    pub grading: Grading,
    /// Whether the sandbox was weakened on purpose (`none`/`rlimit`): a warning.
    pub weak_sandbox: bool,
}

#[derive(Deserialize)]
struct Outer {
    grading: Option<RawGrading>,
    levels: Option<Vec<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGrading {
    sandbox: Option<String>,
    protocol: Option<String>,
    languages: Option<Vec<String>>,
    memory_mb: Option<u64>,
    cpu_seconds: Option<u64>,
    max_processes: Option<u64>,
    max_file_mb: Option<u64>,
    max_output_kb: Option<u64>,
    max_stderr_kb: Option<u64>,
    build_time: Option<String>,
    build_memory_mb: Option<u64>,
    class_round_robin: Option<bool>,
    forfeit_after_timeouts: Option<u32>,
    #[serde(default)]
    criteria: Vec<toml::Spanned<RawCriterion>>,
    grades: Option<BTreeMap<String, f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCriterion {
    name: String,
    kind: Option<String>,
    level: Option<toml::Value>,
    opponent: Option<String>,
    points: f64,
    target: Option<f64>,
    all_or_nothing: Option<bool>,
}

fn at(text: &str, path: &Path, offset: usize, msg: impl std::fmt::Display) -> HarnessError {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    HarnessError::Config(format!("{}:{line}: {msg}", path.display()))
}

/// Load an assignment file (strict: unknown keys are errors naming the line).
pub fn load(path: &Path) -> Result<Assignment, HarnessError> {
    let text = crate::error::read_text(path)?;
    parse(&text, path)
}

/// Parse assignment text (`path` names it in errors and anchors relative paths).
pub fn parse(text: &str, path: &Path) -> Result<Assignment, HarnessError> {
    let mut run = crate::registry::parse_assignment(text, path)?;
    let outer: Outer = toml::from_str(text).map_err(|e| match e.span() {
        Some(s) => at(text, path, s.start, e.message().trim().replace('\n', " ")),
        None => HarnessError::Config(format!("{}: {}", path.display(), e.message().trim())),
    })?;
    let Some(raw) = outer.grading else {
        return Err(HarnessError::Config(format!(
            "{}: no [grading] table: an assignment says how submissions are graded \
             (see configs/assignments/ and docs/grading.md)",
            path.display()
        )));
    };
    let bad = |msg: String| HarnessError::Config(format!("{}: grading.{msg}", path.display()));
    let sandbox = match raw.sandbox.as_deref() {
        None => Sandbox::Bwrap,
        Some(s) => s.parse::<Sandbox>().map_err(|_| {
            bad(format!(
                "sandbox = {s:?}: expected \"bwrap\" (default), \"rlimit\" or \"none\""
            ))
        })?,
    };
    let game = crate::registry::find(run.game)?;
    let protocol = match raw.protocol.as_deref() {
        None => ProtocolKind::Jsonl,
        Some(p) => p
            .parse::<ProtocolKind>()
            .ok()
            .filter(|k| game.protocols().contains(k))
            .ok_or_else(|| {
                bad(format!(
                    "protocol = {p:?}: {} speaks {}",
                    run.game,
                    ProtocolKind::list(game.protocols())
                ))
            })?,
    };
    let languages = match raw.languages {
        None => LANGUAGES.iter().map(|s| s.to_string()).collect(),
        Some(ls) => {
            for l in &ls {
                if !LANGUAGES.contains(&l.as_str()) {
                    return Err(bad(format!(
                        "languages: unknown language {l:?}; known: {}",
                        LANGUAGES.join(", ")
                    )));
                }
            }
            ls
        }
    };
    let d = ProcessLimits {
        memory_mb: 1024,
        cpu_seconds: 120,
        max_processes: 64,
        max_file_mb: 16,
        ..ProcessLimits::default()
    };
    let positive = |v: Option<u64>, name: &str, default: u64| match v {
        Some(0) => Err(bad(format!("{name} must be more than 0"))),
        Some(x) => Ok(x),
        None => Ok(default),
    };
    let limits = ProcessLimits {
        memory_mb: positive(raw.memory_mb, "memory_mb", d.memory_mb)?,
        cpu_seconds: positive(raw.cpu_seconds, "cpu_seconds", d.cpu_seconds)?,
        max_processes: positive(raw.max_processes, "max_processes", d.max_processes)?,
        max_file_mb: positive(raw.max_file_mb, "max_file_mb", d.max_file_mb)?,
        max_output_kb: positive(raw.max_output_kb, "max_output_kb", d.max_output_kb)?,
        max_stderr_kb: positive(raw.max_stderr_kb, "max_stderr_kb", d.max_stderr_kb)?,
        ..d
    };
    let build_time = match raw.build_time.as_deref() {
        None => Duration::from_secs(120),
        Some(s) => crate::play::timing::parse_duration(s)
            .map_err(|e| bad(format!("build_time = {s:?}: {e}")))?,
    };
    let build_memory_mb = positive(raw.build_memory_mb, "build_memory_mb", 4096)?;
    let players = game.players(&run.levels[0], run.seed)?;
    let class_round_robin = raw.class_round_robin.unwrap_or(false);
    if class_round_robin && players < 2 {
        return Err(bad(
            "class_round_robin: only for games of two or more players".into(),
        ));
    }
    let forfeit_after_timeouts = match raw.forfeit_after_timeouts {
        None => Some(FORFEIT_AFTER_TIMEOUTS),
        Some(0) => None,
        Some(k) => Some(k),
    };
    run.forfeit_after_timeouts = forfeit_after_timeouts;
    if run.time.clock == crate::config::Clock::Counted {
        return Err(HarnessError::Config(format!(
            "{}: time.clock = \"counted\": submissions are external agents, whose time cannot \
             be counted; use \"cpu\" or \"wall\"",
            path.display()
        )));
    }
    // Level names as written in `levels`, to match criteria against.
    let written: Vec<String> = outer
        .levels
        .unwrap_or_default()
        .iter()
        .map(|v| match v {
            toml::Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect();
    let opponents: Vec<&str> = run.agents.iter().map(|a| a.label.as_str()).collect();
    if raw.criteria.is_empty() {
        return Err(bad(
            "criteria: list at least one [[grading.criteria]] (points per level won, \
             win rate against an opponent, ...)"
                .into(),
        ));
    }
    let mut criteria = Vec::new();
    for c in &raw.criteria {
        let start = c.span().start;
        let c = c.get_ref();
        let err = |msg: String| at(text, path, start, format!("criterion {:?}: {msg}", c.name));
        let measure = match c.kind.as_deref().unwrap_or("win-rate") {
            "win-rate" => Measure::WinRate,
            "score" => Measure::Score,
            "steps" => Measure::Steps,
            k => {
                return Err(err(format!(
                    "kind = {k:?}: expected \"win-rate\" (default), \"score\" or \"steps\""
                )))
            }
        };
        if !(c.points.is_finite() && c.points > 0.0) {
            return Err(err(format!("points = {}: expected more than 0", c.points)));
        }
        let level = match &c.level {
            None => None,
            Some(v) => {
                let s = match v {
                    toml::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                let i = written.iter().position(|w| *w == s).or_else(|| {
                    // Without `levels` the game's default levels are played.
                    run.levels.iter().position(|l| *l == s)
                });
                match i {
                    Some(i) if i < run.levels.len() => Some(run.levels[i].clone()),
                    _ => {
                        return Err(err(format!(
                            "level = {s:?} is not one of the assignment's levels ({})",
                            if written.is_empty() {
                                run.levels.join(", ")
                            } else {
                                written.join(", ")
                            }
                        )))
                    }
                }
            }
        };
        let class = c.opponent.as_deref() == Some(CLASS);
        if class {
            if !class_round_robin {
                return Err(err(format!(
                    "opponent = \"{CLASS}\" counts the class round robin's games; \
                     set grading.class_round_robin = true"
                )));
            }
            if opponents.contains(&CLASS) {
                return Err(err(format!(
                    "opponent = \"{CLASS}\" means the class round robin, and an opponent is \
                     named \"{CLASS}\" too; rename it (`name = ...` in its [[agents]])"
                )));
            }
        } else if let Some(o) = &c.opponent {
            if !opponents.contains(&o.as_str()) {
                return Err(err(format!(
                    "opponent = {o:?} is not one of the [[agents]] ({}){}",
                    opponents.join(", "),
                    if class_round_robin {
                        format!(", nor \"{CLASS}\" (the class round robin)")
                    } else {
                        String::new()
                    }
                )));
            }
        }
        let target = match (&measure, c.target) {
            (_, Some(t)) if !(t.is_finite() && t > 0.0) => {
                return Err(err(format!("target = {t}: expected more than 0")))
            }
            (Measure::WinRate, Some(t)) if t > 1.0 => {
                return Err(err(format!("target = {t}: a win rate is at most 1")))
            }
            (_, Some(t)) => t,
            (Measure::WinRate, None) => 1.0,
            (_, None) => {
                return Err(err(
                    "target: a score or steps criterion needs the value that earns full points"
                        .into(),
                ))
            }
        };
        criteria.push(Criterion {
            name: c.name.clone(),
            measure,
            level,
            opponent: if class { None } else { c.opponent.clone() },
            class,
            points: c.points,
            target,
            all_or_nothing: c.all_or_nothing.unwrap_or(false),
        });
    }
    let mut grades: Vec<(String, f64)> = raw.grades.unwrap_or_default().into_iter().collect();
    for (l, min) in &grades {
        if !(0.0..=100.0).contains(min) {
            return Err(bad(format!(
                "grades.{l} = {min}: expected a percentage from 0 to 100"
            )));
        }
    }
    grades.sort_by(|a, b| b.1.total_cmp(&a.1));
    Ok(Assignment {
        run,
        weak_sandbox: sandbox != Sandbox::Bwrap,
        grading: Grading {
            sandbox,
            protocol,
            languages,
            limits,
            build_time,
            build_memory_mb,
            class_round_robin,
            forfeit_after_timeouts,
            criteria,
            grades,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const BASE: &str = "game = \"bait\"\nlevels = [0, 1]\n";

    fn p(extra: &str) -> Result<Assignment, HarnessError> {
        parse(&format!("{BASE}{extra}"), Path::new("a.toml"))
    }

    #[test]
    fn criteria_resolve_levels_and_defaults() {
        let a = p(
            "[grading]\n[[grading.criteria]]\nname = \"l1\"\nlevel = 1\npoints = 5\n\
                   [grading.grades]\nA = 90\nB = 50\n",
        )
        .unwrap();
        assert_eq!(a.grading.sandbox, Sandbox::Bwrap);
        assert!(!a.weak_sandbox);
        assert_eq!(a.grading.criteria[0].level.as_deref(), Some("1"));
        assert_eq!(a.grading.criteria[0].target, 1.0);
        assert_eq!(a.grading.letter(95.0), "A");
        assert_eq!(a.grading.letter(50.0), "B");
        assert_eq!(a.grading.letter(10.0), "");
        assert!(a.run.agents.is_empty());
        // Forfeits after three timeouts in a row unless told otherwise.
        assert_eq!(a.grading.forfeit_after_timeouts, Some(3));
        assert_eq!(a.run.forfeit_after_timeouts, Some(3));
        let crit = "[[grading.criteria]]\nname = \"l1\"\npoints = 5\n";
        let a = p(&format!("[grading]\nforfeit_after_timeouts = 0\n{crit}")).unwrap();
        assert_eq!(a.run.forfeit_after_timeouts, None);
        let a = p(&format!("[grading]\nforfeit_after_timeouts = 5\n{crit}")).unwrap();
        assert_eq!(a.run.forfeit_after_timeouts, Some(5));
        // Not a top-level key in an assignment.
        let e = p(&format!("forfeit_after_timeouts = 2\n[grading]\n{crit}"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("a key of [grading]"), "{e}");
    }

    #[test]
    fn submissions_cannot_be_counted() {
        let crit = "[[grading.criteria]]\nname = \"l1\"\npoints = 5\n";
        let e = p(&format!("[time]\nclock = \"counted\"\n[grading]\n{crit}"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("time.clock = \"counted\": submissions are external agents"),
            "{e}"
        );
        assert!(p(&format!("[time]\nclock = \"wall\"\n[grading]\n{crit}")).is_ok());
    }

    #[test]
    fn strict_keys_and_values_name_the_line() {
        let e = p("[grading]\nsandbx = \"none\"\n").unwrap_err().to_string();
        assert!(e.starts_with("a.toml:4:"), "{e}");
        assert!(e.contains("unknown field `sandbx`"), "{e}");
        let e = p("[grading]\n[[grading.criteria]]\nname = \"x\"\nlevel = 7\npoints = 5\n")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("a.toml:4:"), "{e}");
        assert!(
            e.contains("level = \"7\" is not one of the assignment's levels (0, 1)"),
            "{e}"
        );
        let e = p("[grading]\n").unwrap_err().to_string();
        assert!(e.contains("list at least one [[grading.criteria]]"), "{e}");
        let e = p(
            "[grading]\nlanguages = [\"cobol\"]\n[[grading.criteria]]\nname = \"x\"\npoints = 1\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("unknown language \"cobol\""), "{e}");
        let e = parse(
            "game = \"bait\"\n[[agents]]\nagent = \"random\"\n",
            Path::new("a.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("no [grading] table"), "{e}");
    }

    #[test]
    fn every_shipped_assignment_loads() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../configs/assignments");
        let mut games = Vec::new();
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            let a = load(&path).unwrap_or_else(|e| panic!("{e}"));
            assert!(a.grading.max_points() > 0.0, "{}", path.display());
            assert_eq!(a.grading.sandbox, Sandbox::Bwrap, "{}", path.display());
            // A member of a family (gvgai:aliens) stands for the family.
            let family = crate::registry::GAMES
                .iter()
                .find(|g| g.name() == a.run.game || g.instance(a.run.game).is_some())
                .map_or(a.run.game, |g| g.name());
            games.push(family);
        }
        games.sort();
        let mut registered = crate::registry::names(|_| true);
        registered.sort();
        assert_eq!(games, registered, "one example per game");
    }

    #[test]
    fn the_class_round_robin_is_a_criterion_of_its_own() {
        let c4 = |extra: &str| {
            parse(
                &format!(
                    "game = \"connect4\"\n[[agents]]\nagent = \"random\"\n[grading]\n{extra}\n\
                     [[grading.criteria]]\nname = \"c\"\nopponent = \"class\"\npoints = 5\n"
                ),
                Path::new("a.toml"),
            )
        };
        let a = c4("class_round_robin = true").unwrap();
        let c = &a.grading.criteria[0];
        assert!(c.class);
        assert_eq!(c.opponent, None);
        let e = c4("").unwrap_err().to_string();
        assert!(e.contains("set grading.class_round_robin = true"), "{e}");
        let e = parse(
            "game = \"connect4\"\n[[agents]]\nagent = \"random\"\nname = \"class\"\n\
             [grading]\nclass_round_robin = true\n\
             [[grading.criteria]]\nname = \"c\"\nopponent = \"class\"\npoints = 5\n",
            Path::new("a.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("rename it"), "{e}");
    }

    #[test]
    fn run_configs_refuse_a_grading_table() {
        let e = crate::registry::parse_config(
            "game = \"bait\"\n[[agents]]\nagent = \"random\"\n[grading]\n",
            Path::new("r.toml"),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("[grading] belongs in an assignment"), "{e}");
    }
}
