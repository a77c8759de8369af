//! From a class's result rows to each student's verdict, points per
//! criterion, total and grade.

use super::assignment::{Criterion, Grading, Measure};
use crate::output::rows::EpisodeRow;

/// What one criterion gave a student.
#[derive(Clone, Debug, PartialEq)]
pub struct CriterionResult {
    /// The criterion's name.
    pub name: String,
    /// The games it counted.
    pub games: usize,
    /// The measured value (win rate, mean score, mean steps of won games);
    /// `None` when no game counted (or, for steps, none was won).
    pub value: Option<f64>,
    /// Points given.
    pub points: f64,
    /// Points possible.
    pub max: f64,
    /// Whether its games were played: false for a class round robin
    /// criterion when the class's games are not (`arena check`, a shard);
    /// then its points are 0 and say nothing.
    pub checked: bool,
}

/// The first game a submission did not finish normally.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// Episode index.
    pub episode: usize,
    /// Level.
    pub level: String,
    /// Opponent, if any.
    pub opponent: String,
    /// Outcome label (`crash`, `timeout` ...).
    pub outcome: String,
    /// Its detail.
    pub detail: String,
    /// Whether it was a class round robin game (else a game against the
    /// assignment's opponents, or a one-player game).
    pub class: bool,
}

impl Failure {
    /// "episode 3" or "class game 3": which run the episode index is of.
    pub fn game(&self) -> String {
        if self.class {
            format!("class game {}", self.episode)
        } else {
            format!("episode {}", self.episode)
        }
    }
}

/// One student's grade.
#[derive(Clone, Debug, PartialEq)]
pub struct StudentGrade {
    /// The student id (folder name).
    pub id: String,
    /// `ok`, or the first failure's outcome, or a pre-game verdict.
    pub verdict: String,
    /// The verdict's detail.
    pub detail: String,
    /// Per criterion.
    pub criteria: Vec<CriterionResult>,
    /// Sum of points.
    pub total: f64,
    /// Total as a percentage of the maximum.
    pub percent: f64,
    /// The letter (empty without `[grading.grades]`).
    pub grade: String,
    /// Games played.
    pub games: usize,
    /// Games not finished normally, in episode order.
    pub failures: Vec<Failure>,
}

/// How many students got each verdict, in verdict order.
pub fn verdict_counts(grades: &[StudentGrade]) -> std::collections::BTreeMap<&str, usize> {
    let mut counts = std::collections::BTreeMap::new();
    for g in grades {
        *counts.entry(g.verdict.as_str()).or_default() += 1;
    }
    counts
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn points_for(c: &Criterion, value: Option<f64>) -> f64 {
    let Some(v) = value else { return 0.0 };
    let frac = match c.measure {
        Measure::WinRate | Measure::Score => v / c.target,
        Measure::Steps => {
            if v <= 0.0 {
                1.0
            } else {
                c.target / v
            }
        }
    };
    let frac = if c.all_or_nothing {
        if frac + 1e-9 >= 1.0 {
            1.0
        } else {
            0.0
        }
    } else {
        frac.clamp(0.0, 1.0)
    };
    round2(c.points * frac)
}

/// Evaluate criterion `c` over one student's rows.
pub fn evaluate(c: &Criterion, rows: &[&EpisodeRow]) -> CriterionResult {
    let counted: Vec<&&EpisodeRow> = rows
        .iter()
        .filter(|r| c.level.as_ref().is_none_or(|l| &r.level == l))
        .filter(|r| {
            c.opponent
                .as_ref()
                .is_none_or(|o| r.opponent.split(';').any(|x| x == o))
        })
        .collect();
    let n = counted.len();
    let value = if n == 0 {
        None
    } else {
        match c.measure {
            Measure::WinRate => {
                let w: f64 = counted
                    .iter()
                    .map(|r| match r.result.as_str() {
                        "win" => 1.0,
                        "draw" => 0.5,
                        _ => 0.0,
                    })
                    .sum();
                Some(w / n as f64)
            }
            Measure::Score => Some(counted.iter().map(|r| r.score).sum::<f64>() / n as f64),
            Measure::Steps => {
                let won: Vec<f64> = counted
                    .iter()
                    .filter(|r| r.result == "win")
                    .map(|r| r.steps as f64)
                    .collect();
                (!won.is_empty()).then(|| won.iter().sum::<f64>() / won.len() as f64)
            }
        }
    };
    CriterionResult {
        name: c.name.clone(),
        games: n,
        value,
        points: points_for(c, value),
        max: c.points,
        checked: true,
    }
}

/// Grade a student who played: `versus` are the rows of their seat in
/// every game against the assignment's opponents (or alone, one-player
/// games), `class` in every class round robin game. Criteria with
/// `opponent = "class"` count only `class` (marked unchecked when
/// `class_played` is false), every other criterion only `versus`. The
/// verdict is the first failure of `versus`, else of `class`.
pub fn grade_played(
    id: &str,
    grading: &Grading,
    versus: &[&EpisodeRow],
    class: &[&EpisodeRow],
    class_played: bool,
) -> StudentGrade {
    let criteria: Vec<CriterionResult> = grading
        .criteria
        .iter()
        .map(|c| {
            if !c.class {
                evaluate(c, versus)
            } else if class_played {
                evaluate(c, class)
            } else {
                CriterionResult {
                    checked: false,
                    ..evaluate(c, &[])
                }
            }
        })
        .collect();
    let failures_of = |rows: &[&EpisodeRow], class: bool| {
        let mut sorted: Vec<&&EpisodeRow> = rows.iter().collect();
        sorted.sort_by_key(|r| r.episode);
        sorted
            .into_iter()
            .filter(|r| r.outcome != "normal")
            .map(|r| Failure {
                episode: r.episode,
                level: r.level.clone(),
                opponent: r.opponent.clone(),
                outcome: r.outcome.clone(),
                detail: r.detail.clone(),
                class,
            })
            .collect::<Vec<_>>()
    };
    let mut failures = failures_of(versus, false);
    failures.extend(failures_of(class, true));
    let games = versus.len() + class.len();
    let (verdict, detail) = match failures.first() {
        None => ("ok".to_string(), String::new()),
        Some(f) => (
            f.outcome.clone(),
            format!(
                "{} of {games} games not finished normally; first: {} (level {}): {}",
                failures.len(),
                f.game(),
                f.level,
                f.detail
            ),
        ),
    };
    finish(id, grading, verdict, detail, criteria, games, failures)
}

/// Grade a student who could not play (no entry, build failed, cannot
/// start); class round robin criteria are unchecked unless `class_played`.
pub fn grade_rejected(
    id: &str,
    grading: &Grading,
    verdict: &str,
    detail: &str,
    class_played: bool,
) -> StudentGrade {
    let criteria = grading
        .criteria
        .iter()
        .map(|c| CriterionResult {
            name: c.name.clone(),
            games: 0,
            value: None,
            points: 0.0,
            max: c.points,
            checked: class_played || !c.class,
        })
        .collect();
    finish(
        id,
        grading,
        verdict.to_string(),
        detail.to_string(),
        criteria,
        0,
        Vec::new(),
    )
}

fn finish(
    id: &str,
    grading: &Grading,
    verdict: String,
    detail: String,
    criteria: Vec<CriterionResult>,
    games: usize,
    failures: Vec<Failure>,
) -> StudentGrade {
    let total = round2(criteria.iter().map(|c| c.points).sum());
    let max = grading.max_points();
    let percent = if max > 0.0 {
        round2(100.0 * total / max)
    } else {
        0.0
    };
    StudentGrade {
        id: id.to_string(),
        verdict,
        detail,
        grade: grading.letter(percent),
        criteria,
        total,
        percent,
        games,
        failures,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(level: &str, opp: &str, result: &str, steps: u32, outcome: &str) -> EpisodeRow {
        EpisodeRow {
            level: level.into(),
            opponent: opp.into(),
            result: result.into(),
            steps,
            outcome: outcome.into(),
            ..EpisodeRow::default()
        }
    }

    fn crit(measure: Measure, target: f64, all: bool) -> Criterion {
        Criterion {
            name: "c".into(),
            measure,
            level: None,
            opponent: None,
            class: false,
            points: 10.0,
            target,
            all_or_nothing: all,
        }
    }

    #[test]
    fn win_rate_scales_to_the_target_and_draws_count_half() {
        let rows = [
            row("0", "r", "win", 5, "normal"),
            row("0", "r", "draw", 5, "normal"),
            row("0", "r", "loss", 5, "crash"),
            row("0", "r", "loss", 5, "normal"),
        ];
        let refs: Vec<&EpisodeRow> = rows.iter().collect();
        let r = evaluate(&crit(Measure::WinRate, 1.0, false), &refs);
        assert_eq!((r.games, r.value, r.points), (4, Some(0.375), 3.75));
        let r = evaluate(&crit(Measure::WinRate, 0.25, false), &refs);
        assert_eq!(r.points, 10.0);
        let r = evaluate(&crit(Measure::WinRate, 0.5, true), &refs);
        assert_eq!(r.points, 0.0);
        let r = evaluate(&crit(Measure::Steps, 4.0, false), &refs);
        assert_eq!((r.value, r.points), (Some(5.0), 8.0));
    }

    fn grading(
        class_round_robin: bool,
        criteria: Vec<Criterion>,
        grades: Vec<(String, f64)>,
    ) -> Grading {
        Grading {
            sandbox: crate::external::Sandbox::None,
            protocol: crate::external::ProtocolKind::Jsonl,
            languages: vec![],
            limits: Default::default(),
            build_time: std::time::Duration::from_secs(1),
            build_memory_mb: 1,
            class_round_robin,
            forfeit_after_timeouts: None,
            criteria,
            grades,
        }
    }

    #[test]
    fn the_first_failure_is_the_verdict_and_other_games_still_count() {
        let g = grading(
            false,
            vec![crit(Measure::WinRate, 1.0, false)],
            vec![("A".into(), 50.0)],
        );
        let mut a = row("1", "", "loss", 3, "timeout");
        a.episode = 7;
        let mut b = row("0", "", "win", 3, "normal");
        b.episode = 2;
        let g1 = grade_played("s", &g, &[&a, &b], &[], true);
        assert_eq!(g1.verdict, "timeout");
        assert_eq!(g1.total, 5.0);
        assert_eq!(g1.grade, "A");
        assert!(g1.detail.contains("episode 7"), "{}", g1.detail);
        let g2 = grade_rejected("t", &g, "build-failed", "x", true);
        assert_eq!((g2.total, g2.grade.as_str()), (0.0, ""));
    }

    #[test]
    fn class_games_count_only_for_class_criteria_and_fail_after_the_others() {
        let mut any = crit(Measure::WinRate, 1.0, false);
        any.name = "all".into();
        let mut class = crit(Measure::WinRate, 1.0, false);
        class.class = true;
        let g = grading(true, vec![any, class], vec![]);
        let mut lost = row("0", "uct", "loss", 9, "normal");
        lost.episode = 1;
        let mut won = row("0", "uct", "win", 9, "normal");
        won.episode = 0;
        let mut crash = row("0", "ann", "loss", 2, "crash");
        crash.episode = 0;
        let beat = row("0", "ben", "win", 9, "normal");
        let full = grade_played("s", &g, &[&lost, &won], &[&crash, &beat], true);
        let pts: Vec<(usize, f64, bool)> = full
            .criteria
            .iter()
            .map(|c| (c.games, c.points, c.checked))
            .collect();
        assert_eq!(pts, [(2, 5.0, true), (2, 5.0, true)]);
        assert_eq!((full.verdict.as_str(), full.games), ("crash", 4));
        assert!(full.detail.contains("class game 0"), "{}", full.detail);
        // Without the class's games: the same points for everything else.
        let own = grade_played("s", &g, &[&lost, &won], &[], false);
        assert_eq!(own.criteria[0], full.criteria[0]);
        assert_eq!(
            (own.criteria[1].checked, own.criteria[1].points),
            (false, 0.0)
        );
        assert_eq!(own.verdict, "ok");
    }
}
