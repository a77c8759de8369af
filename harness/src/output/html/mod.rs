//! `report.html`: one self-contained page about a run (no network, no
//! CDN; it opens from `file://` offline), written from the files of a
//! results folder, so `arena report DIR` and the [`HtmlReport`] reporter at
//! the end of `arena run` write the same page.
//!
//! The tables are read as the typed rows their writers write
//! ([`EpisodeRow`], [`SummaryRow`], [`CrossRow`], [`RatingRow`]); a file
//! that does not read as such rows is named in its section, never shown
//! as zeros.
//!
//! Contents: the run's metadata; the summary (the terminal's columns; only
//! the `all` rows above [`tables::LEVELS_IN_SUMMARY`] levels); win rate and
//! score per level and agent ([`tables::level_table`], with two levels or
//! more); the cross-table as a heat map; win rates per agent and level
//! with Wilson intervals; ratings ([`tables::ratings_section`]: pairs apart from
//! agents, infinite values in words); act-time histograms per agent
//! against the soft and hard limits; reliability; the episode list, whose
//! links open each episode in the bundled replay viewer ([`viewer`]).
//! Plots are inline SVG drawn by `plotters` (`plots.rs`).

mod plots;
pub mod tables;
pub mod viewer;

use crate::error::HarnessError;
use crate::output::replay::SharedIndex;
use crate::output::reporters::ratings::{RatingRow, RatingsCsv};
use crate::output::reporters::{
    ConfigCopy, CrosstableCsv, EpisodesCsv, Event, Reporter, SummaryCsv,
};
use crate::output::rows::{CrossRow, EpisodeRow, SummaryRow};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use viewer::{esc, script_json, Embedded};

/// The page's file name in a results folder.
pub const FILE_NAME: &str = "report.html";

/// Replays embedded in a report, at most (compressed bytes); the episodes
/// past it are listed without a viewer link.
pub const EMBED_BUDGET: usize = 64 << 20;

const REPORT_JS: &str = include_str!("report.js");

/// The rows of the CSV file `path` as `T`: `None` when it does not exist,
/// `Some(Err(why))` when it does not read as such rows.
fn read_rows<T: DeserializeOwned>(path: &Path) -> Option<Result<Vec<T>, String>> {
    if !path.is_file() {
        return None;
    }
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let rows = csv::Reader::from_path(path)
        .map_err(|e| e.to_string())
        .and_then(|mut r| {
            r.deserialize()
                .collect::<Result<Vec<T>, _>>()
                .map_err(|e| e.to_string())
        })
        .map_err(|e| {
            format!("{name} does not read as arena's {name} ({e}); `arena summarize DIR` writes it again from the journal")
        });
    Some(rows)
}

/// A note in place of a table that could not be read.
fn unreadable(why: &str) -> String {
    format!("<p class=\"note bad\">{}</p>\n", esc(why))
}

/// Write `dir/report.html` from the files in `dir`; returns its path and
/// the number of episodes whose replays did not fit in the page.
pub fn write_report(dir: &Path) -> Result<(PathBuf, usize), HarnessError> {
    write_report_with(dir, None)
}

/// [`write_report`], embedding the replays of `index` (collected as they
/// were written to `dir`'s `replays.jsonl.gz`, with [`EMBED_BUDGET`])
/// instead of reading the file back, when given.
fn write_report_with(
    dir: &Path,
    index: Option<crate::output::replay::Index>,
) -> Result<(PathBuf, usize), HarnessError> {
    let (html, left_out) = build_with(dir, EMBED_BUDGET, index)?;
    let path = dir.join(FILE_NAME);
    std::fs::write(&path, html).map_err(|e| HarnessError::io(&path, e))?;
    Ok((path, left_out))
}

/// `arena report DIR`: write `DIR/report.html` and say where it is.
pub fn report_command(dir: &Path, out: &mut dyn Write) -> Result<(), HarnessError> {
    if !dir.join(EpisodesCsv::FILE).is_file() {
        return Err(HarnessError::ResultsFolder(format!(
            "{}: not a results folder (no episodes.csv); `arena run` writes one",
            dir.display()
        )));
    }
    let (path, left_out) = write_report(dir)?;
    let io = |e| HarnessError::io("<stdout>", e);
    writeln!(out, "report: {}", path.display()).map_err(io)?;
    if left_out > 0 {
        writeln!(
            out,
            "note: {left_out} replays did not fit in the page (over {} MiB); `arena replay {} --episode N --html OUT` shows them",
            EMBED_BUDGET >> 20,
            dir.join(crate::output::replay::FILE_NAME).display()
        )
        .map_err(io)?;
    }
    Ok(())
}

/// The page for the results in `dir`, embedding at most `budget` bytes of
/// replays; also the number of replays left out.
pub fn build(dir: &Path, budget: usize) -> Result<(String, usize), HarnessError> {
    build_with(dir, budget, None)
}

/// [`build`], with the replays of `index` when given (collected as they were
/// written to `dir`'s replays, with the same budget) instead of reading
/// the file.
pub fn build_with(
    dir: &Path,
    budget: usize,
    index: Option<crate::output::replay::Index>,
) -> Result<(String, usize), HarnessError> {
    let episodes: Vec<EpisodeRow> = read_rows(&dir.join(EpisodesCsv::FILE))
        .ok_or_else(|| HarnessError::ResultsFolder(format!("{}: no episodes.csv", dir.display())))?
        .map_err(|why| HarnessError::ResultsFolder(format!("{}: {why}", dir.display())))?;
    let summary = read_rows::<SummaryRow>(&dir.join(SummaryCsv::FILE));
    let cross = read_rows::<CrossRow>(&dir.join(CrosstableCsv::FILE));
    let ratings = read_rows::<RatingRow>(&dir.join(RatingsCsv::FILE));
    let config: toml::Table = std::fs::read_to_string(dir.join(ConfigCopy::FILE))
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or_default();
    let replays_path = dir.join(crate::output::replay::FILE_NAME);
    let (embedded, left_out) = if let Some(index) = index {
        Embedded::of_index(index)
    } else if replays_path.is_file() {
        Embedded::of_file(&replays_path, budget)?
    } else {
        (Embedded::default(), 0)
    };

    // Agents in order of first appearance; episodes grouped.
    let mut agents: Vec<String> = Vec::new();
    let mut levels: Vec<String> = Vec::new();
    let mut by_episode: BTreeMap<usize, Vec<&EpisodeRow>> = BTreeMap::new();
    for row in &episodes {
        if !agents.contains(&row.agent) {
            agents.push(row.agent.clone());
        }
        if !levels.contains(&row.level) {
            levels.push(row.level.clone());
        }
        by_episode.entry(row.episode).or_default().push(row);
    }
    // The run's name, game and master seed from its `meta.json` (typed);
    // a folder without one names what its rows say, and no seed.
    let meta = crate::output::meta::RunMeta::read(dir)?;
    let first = episodes.first();
    let run = meta
        .as_ref()
        .map(|m| m.keys.name.clone())
        .or_else(|| first.map(|r| r.run.clone()))
        .unwrap_or_default();
    let game = meta
        .as_ref()
        .map(|m| m.keys.game.clone())
        .or_else(|| first.map(|r| r.game.clone()))
        .unwrap_or_default();
    let seed = meta.as_ref().map_or_else(
        || format!("unknown (no {})", crate::output::meta::FILE),
        |m| m.seed.to_string(),
    );

    // The page is mostly the embedded replays: room for them, the episode
    // list and the rest, so that it is not copied as it grows.
    let mut h = String::with_capacity(embedded.script_len() + episodes.len() * 200 + 400_000);
    h.push_str(&format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width\">\n<title>arena report: {}</title>\n<style>{}</style></head>\n<body>\n",
        esc(&run),
        viewer::STYLE_CSS
    ));
    h.push_str(&format!(
        "<header><h1>arena report: {}</h1><div class=\"meta\" id=\"meta\">game <b>{}</b> &middot; seed {} &middot; {} episodes &middot; {} agents &middot; {} levels &middot; {} replays{} &middot; arena {}</div></header>\n",
        esc(&run),
        esc(&game),
        esc(&seed),
        by_episode.len(),
        agents.len(),
        levels.len(),
        embedded.metas.len(),
        if left_out > 0 { format!(" ({left_out} not embedded)") } else { String::new() },
        env!("CARGO_PKG_VERSION")
    ));
    let mut nav = vec![("summary", "Summary")];
    if levels.len() > 1 && matches!(summary, Some(Ok(_))) {
        nav.push(("levels", "Per level"));
    }
    if cross
        .as_ref()
        .is_some_and(|c| c.as_ref().map_or(true, |c| !c.is_empty()))
    {
        nav.push(("crosstable", "Cross-table"));
    }
    nav.push(("winrates", "Win rates"));
    if ratings.is_some() {
        nav.push(("ratings", "Ratings"));
    }
    nav.extend([
        ("times", "Act times"),
        ("reliability", "Reliability"),
        ("episodes", "Episodes"),
    ]);
    h.push_str("<nav>");
    for (id, name) in &nav {
        h.push_str(&format!("<a href=\"#{id}\">{name}</a>"));
    }
    h.push_str("</nav>\n<main>\n");

    // Summary.
    h.push_str("<section id=\"summary\"><h2>Summary</h2>\n");
    let many_levels = levels.len() > tables::LEVELS_IN_SUMMARY;
    match &summary {
        Some(Ok(s)) if many_levels => {
            let all: Vec<SummaryRow> = s.iter().filter(|r| r.level == "all").cloned().collect();
            h.push_str(&tables::summary_table(&all));
            h.push_str("<p class=\"note\">Over all levels; each level's row is in <code>summary.csv</code>, and its win rate and score below (Per level).</p>\n");
        }
        Some(Ok(s)) => h.push_str(&tables::summary_table(s)),
        Some(Err(why)) => h.push_str(&unreadable(why)),
        None => h.push_str("<p class=\"note\">No summary.csv in this folder.</p>"),
    }
    h.push_str("</section>\n");
    if let (true, Some(Ok(s))) = (levels.len() > 1, &summary) {
        h.push_str("<section id=\"levels\"><h2>Per level</h2>\n<p class=\"note\">Win rate and mean final score of each agent on each level (from <code>summary.csv</code>).</p>\n");
        h.push_str(&tables::level_table(s));
        h.push_str("</section>\n");
    }

    // Cross-table heat map.
    match &cross {
        Some(Ok(c)) if !c.is_empty() => {
            let n = agents.len();
            let idx = |a: &str| agents.iter().position(|x| x == a);
            let mut cells = vec![vec![None; n]; n];
            let mut games = vec![vec![0usize; n]; n];
            for row in c {
                if let (Some(i), Some(j)) = (idx(&row.agent), idx(&row.opponent)) {
                    cells[i][j] = Some(row.points_rate);
                    games[i][j] = row.games;
                }
            }
            h.push_str("<section id=\"crosstable\"><h2>Cross-table</h2>\n<p class=\"note\">Points rate (win 1, draw &frac12;) of the row agent against the column agent; n = games.</p>\n");
            h.push_str(&plot_or_note(plots::heatmap(&agents, &cells, &games)));
            h.push_str("</section>\n");
        }
        Some(Err(why)) => {
            h.push_str("<section id=\"crosstable\"><h2>Cross-table</h2>\n");
            h.push_str(&unreadable(why));
            h.push_str("</section>\n");
        }
        _ => {}
    }

    // Win rates with Wilson intervals.
    h.push_str("<section id=\"winrates\"><h2>Win rates</h2>\n<p class=\"note\">Per agent and level (over all levels when there are many), with 95% Wilson intervals.</p>\n");
    if let Some(Ok(s)) = &summary {
        let rows: Vec<plots::Interval> = s
            .iter()
            .filter(|r| !many_levels || r.level == "all")
            .map(|r| plots::Interval {
                label: format!("{} @ {}", r.agent, r.level),
                value: r.win_rate,
                lo: r.win_rate_lo,
                hi: r.win_rate_hi,
            })
            .collect();
        h.push_str(&plot_or_note(plots::intervals(
            &rows,
            (0.0, 1.0),
            "win rate",
        )));
    }
    h.push_str("</section>\n");

    // Ratings.
    match &ratings {
        Some(Ok(r)) => h.push_str(&tables::ratings_section(r)),
        Some(Err(why)) => h.push_str(&format!(
            "<section id=\"ratings\"><h2>Ratings</h2>\n{}</section>\n",
            unreadable(why)
        )),
        None => {}
    }

    // Act times.
    h.push_str(&times_section(&embedded, &episodes, &agents, &config));

    // Reliability.
    match &summary {
        Some(Ok(s)) => h.push_str(&tables::reliability_section(s)),
        Some(Err(why)) => h.push_str(&format!(
            "<section id=\"reliability\"><h2>Reliability</h2>\n{}</section>\n",
            unreadable(why)
        )),
        None => h.push_str("<section id=\"reliability\"><h2>Reliability</h2>\n<p class=\"note\">No summary.csv in this folder.</p></section>\n"),
    }

    // Episodes, with links into the viewer.
    let with_replay: std::collections::HashSet<usize> =
        embedded.metas.iter().map(|m| m.episode).collect();
    let list: Vec<EpisodeEntry> = by_episode
        .iter()
        .map(|(&episode, rows)| {
            let r0 = rows[0];
            EpisodeEntry {
                episode,
                level: &r0.level,
                seed: r0.seed.to_string(),
                steps: r0.steps,
                replay: with_replay.contains(&episode),
                seats: rows
                    .iter()
                    .map(|r| SeatEntry {
                        agent: &r.agent,
                        result: &r.result,
                        outcome: &r.outcome,
                        score: r.score,
                    })
                    .collect(),
            }
        })
        .collect();
    // Serializing plain structs of strings and numbers cannot fail.
    let list = serde_json::to_string(&list).unwrap_or_default();
    h.push_str("<section id=\"episodes\"><h2>Episodes</h2>\n<div class=\"pager\"><input id=\"ep-filter\" placeholder=\"filter (agent, level, outcome...)\"> <button id=\"ep-prev\">&lt; prev</button><button id=\"ep-next\">next &gt;</button> <span id=\"ep-info\" class=\"note\"></span></div>\n<table class=\"t\"><thead><tr><th>episode</th><th>level</th><th>seed</th><th>seats</th><th>result</th><th>failures</th><th>score</th><th>steps</th><th>replay</th></tr></thead><tbody id=\"ep-body\"></tbody></table>\n");
    if embedded.metas.is_empty() {
        h.push_str("<p class=\"note\">No replays in this folder (config key <code>replays = false</code>, or an older run).</p>\n");
    }
    h.push_str("<script id=\"arena-episodes\" type=\"application/json\">");
    h.push_str(&script_json(&list));
    h.push_str("</script>\n<script>");
    h.push_str(&script_json(REPORT_JS));
    h.push_str("</script>\n</section>\n");
    if !embedded.metas.is_empty() {
        viewer::push_section(&mut h, &embedded, false);
    }
    h.push_str("</main></body></html>\n");
    Ok((h, left_out))
}

/// An episode in the report's episode list (`arena-episodes`).
#[derive(Serialize)]
struct EpisodeEntry<'a> {
    episode: usize,
    level: &'a str,
    /// As text: JavaScript numbers lose a u64's low digits.
    seed: String,
    steps: u32,
    replay: bool,
    seats: Vec<SeatEntry<'a>>,
}

/// A seat of an [`EpisodeEntry`].
#[derive(Serialize)]
struct SeatEntry<'a> {
    agent: &'a str,
    result: &'a str,
    outcome: &'a str,
    score: f64,
}

fn plot_or_note(svg: Result<String, String>) -> String {
    match svg {
        Ok(s) => s,
        Err(e) => format!("<p class=\"note\">({})</p>", esc(&e)),
    }
}

fn times_section(
    embedded: &Embedded,
    episodes: &[EpisodeRow],
    agents: &[String],
    config: &toml::Table,
) -> String {
    let mut h = String::from("<section id=\"times\"><h2>Act times</h2>\n");
    // agent -> (samples, soft, hard)
    let mut per: HashMap<&str, (Vec<f64>, f64, f64)> = HashMap::new();
    if !embedded.metas.is_empty() {
        h.push_str("<p class=\"note\">Every act's time (from the replays), against the soft budget (past it the fallback action is played) and the hard limit (past it the agent is disqualified). Acts past 1.5&times; the hard limit are counted in the last bin.</p>\n");
        for m in &embedded.metas {
            for (s, seat) in m.seats.iter().enumerate() {
                let e = per.entry(seat.agent.as_str()).or_insert((
                    Vec::new(),
                    seat.limits.act_ms,
                    seat.limits.act_hard_ms,
                ));
                e.0.extend(m.act_ms.get(s).into_iter().flatten().copied());
                e.0.extend(seat.last_act_ms);
            }
        }
    } else {
        let limits = config.get("time").and_then(|t| t.as_table());
        let lim = |k: &str, d: f64| {
            limits
                .and_then(|t| t.get(k))
                .and_then(|v| match v {
                    toml::Value::String(s) => crate::play::timing::parse_duration(s)
                        .ok()
                        .map(|d| d.as_secs_f64() * 1000.0),
                    toml::Value::Integer(i) => Some(*i as f64),
                    toml::Value::Float(f) => Some(*f),
                    _ => None,
                })
                .unwrap_or(d)
        };
        // A key the config leaves out has the default of every config.
        let default = crate::play::timing::TimeLimits::default();
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1000.0;
        let (soft, hard) = (
            lim("act", ms(default.act)),
            lim("act_hard", ms(default.act_hard)),
        );
        h.push_str("<p class=\"note\">No replays here: each episode's longest act (episodes.csv), against the run's limits.</p>\n");
        for r in episodes {
            per.entry(r.agent.as_str())
                .or_insert((Vec::new(), soft, hard))
                .0
                .push(r.max_act_ms);
        }
    }
    h.push_str("<div class=\"plots\">\n");
    for a in agents {
        if let Some((xs, soft, hard)) = per.get(a.as_str()) {
            let title = format!("{a} ({} acts)", xs.len());
            h.push_str(&plot_or_note(plots::act_times(&title, xs, *soft, *hard)));
        }
    }
    h.push_str("</div></section>\n");
    h
}

/// The report reporter: `report.html` when the run finishes (after the
/// tables and replays, so it must come after their reporters). Given the
/// [`SharedIndex`] the replay reporter fills, it embeds the replays from
/// there; it reads `replays.jsonl.gz` back when the slot is empty (no
/// replay reporter, or one that did not write every replay).
pub struct HtmlReport {
    dir: PathBuf,
    index: Option<SharedIndex>,
}

impl HtmlReport {
    /// Writes `dir/report.html`.
    pub fn new(dir: &Path) -> Self {
        HtmlReport {
            dir: dir.to_path_buf(),
            index: None,
        }
    }

    /// Take the replays' index from `index` (filled by
    /// [`crate::output::replay::Replays::collecting`] with [`EMBED_BUDGET`]).
    pub fn with_index(mut self, index: SharedIndex) -> Self {
        self.index = Some(index);
        self
    }
}

impl Reporter for HtmlReport {
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError> {
        if let Event::RunFinished { .. } = event {
            let index = self.index.as_ref().and_then(SharedIndex::take);
            write_report_with(&self.dir, index)?;
        }
        Ok(())
    }

    fn files(&self) -> &'static [&'static str] {
        &[FILE_NAME]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::replay::{Index, Replays};

    /// Play 60 episodes of random Connect Four into `dir` with
    /// `episodes.csv` and the replays, their index collected with `budget`.
    fn run_into(dir: &Path, budget: usize) -> Option<Index> {
        let text = "name = \"t\"\ngame = \"connect4\"\nrepetitions = 30\nseed = 3\n\
                    [[agents]]\nagent = \"random\"\nname = \"a\"\n\
                    [[agents]]\nagent = \"random\"\nname = \"b\"\n";
        let cfg = crate::registry::parse_config(text, &dir.join("c.toml")).unwrap();
        let shared = SharedIndex::new(budget);
        let mut reporters: Vec<Box<dyn Reporter>> = vec![
            Box::new(EpisodesCsv::new(dir)),
            Box::new(Replays::new(dir).collecting(shared.clone())),
        ];
        let out = crate::run::run_with(
            &cfg,
            dir,
            crate::output::resume::Resume::Auto,
            &mut reporters,
        )
        .unwrap();
        assert!(out.complete);
        drop(reporters);
        shared.take()
    }

    #[test]
    fn the_report_from_the_replays_collected_as_written_equals_the_one_read_back() {
        // The run at `budget`: its index, collected as written, gives the
        // page read back from the folder; returns the replays file's size.
        let check = |budget: usize, some_left_out: bool| {
            let dir = tempfile::tempdir().unwrap();
            let index = run_into(dir.path(), budget).expect("the index of every replay");
            assert_eq!(index.metas.len() + index.left_out, 60);
            assert_eq!(
                index.left_out > 0,
                some_left_out,
                "{} left out",
                index.left_out
            );
            assert!(!index.metas.is_empty());
            let (collected, left_a) = build_with(dir.path(), budget, Some(index)).unwrap();
            let (read_back, left_b) = build(dir.path(), budget).unwrap();
            assert_eq!(left_a, left_b);
            assert!(collected.contains("arena-replays"));
            assert!(collected == read_back, "the pages differ (budget {budget})");
            std::fs::metadata(dir.path().join(crate::output::replay::FILE_NAME))
                .unwrap()
                .len() as usize
        };
        // The whole run embedded, then a budget that leaves some members
        // out (the replays' members are at most MEMBER_MAX of JSON, a few
        // KB compressed: two thirds of the file holds one at least).
        let size = check(EMBED_BUDGET, false);
        check(size * 2 / 3, true);
    }
}
