//! `report.html`: one self-contained page about a run (no network, no
//! CDN; it opens from `file://` offline), written from the files of a
//! results folder, so `arena report DIR` and the [`HtmlReport`] reporter at
//! the end of `arena run` write the same page.
//!
//! Contents: the run's metadata; the summary; the cross-table as a heat
//! map; win rates per agent and level with Wilson intervals; ratings with
//! their intervals (from `ratings.csv`, where present); act-time
//! histograms per agent against the soft and hard limits; reliability
//! (overruns, disqualifications, crashes, leaked processes); the episode
//! list, whose links open each episode in the bundled replay viewer
//! ([`viewer`]). Plots are inline SVG drawn by `plotters` (`plots.rs`).

mod plots;
pub mod viewer;

use crate::error::HarnessError;
use crate::reporters::{Event, Reporter};
use serde_json::json;
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

/// A CSV file read as text cells, looked up by column name (tolerant of
/// missing and extra columns).
struct Table {
    cols: HashMap<String, usize>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// `None` when the file does not exist.
    fn read(path: &Path) -> Result<Option<Table>, HarnessError> {
        if !path.is_file() {
            return Ok(None);
        }
        let err = |source| HarnessError::Csv {
            path: path.to_path_buf(),
            source,
        };
        let mut r = csv::ReaderBuilder::new()
            .flexible(true)
            .trim(csv::Trim::All)
            .from_path(path)
            .map_err(err)?;
        let cols = r
            .headers()
            .map_err(err)?
            .iter()
            .enumerate()
            .map(|(i, h)| (h.to_ascii_lowercase(), i))
            .collect();
        let mut rows = Vec::new();
        for rec in r.records() {
            rows.push(rec.map_err(err)?.iter().map(str::to_string).collect());
        }
        Ok(Some(Table { cols, rows }))
    }

    fn get<'a>(&self, row: &'a [String], col: &str) -> &'a str {
        self.cols
            .get(col)
            .and_then(|&i| row.get(i))
            .map(String::as_str)
            .unwrap_or("")
    }

    fn num(&self, row: &[String], col: &str) -> f64 {
        self.get(row, col).parse().unwrap_or(0.0)
    }
}

/// Write `dir/report.html` from the files in `dir`; returns its path and
/// the number of episodes whose replays did not fit in the page.
pub fn write_report(dir: &Path) -> Result<(PathBuf, usize), HarnessError> {
    let (html, left_out) = build(dir, EMBED_BUDGET)?;
    let path = dir.join(FILE_NAME);
    std::fs::write(&path, html).map_err(|e| HarnessError::io(&path, e))?;
    Ok((path, left_out))
}

/// `arena report DIR`: write `DIR/report.html` and say where it is.
pub fn report_command(dir: &Path, out: &mut dyn Write) -> Result<(), HarnessError> {
    if !dir.join("episodes.csv").is_file() {
        return Err(HarnessError::Config(format!(
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
            dir.join(crate::replay::FILE_NAME).display()
        )
        .map_err(io)?;
    }
    Ok(())
}

/// The page for the results in `dir`, embedding at most `budget` bytes of
/// replays; also the number of replays left out.
pub fn build(dir: &Path, budget: usize) -> Result<(String, usize), HarnessError> {
    let episodes = Table::read(&dir.join("episodes.csv"))?
        .ok_or_else(|| HarnessError::Config(format!("{}: no episodes.csv", dir.display())))?;
    let summary = Table::read(&dir.join("summary.csv"))?;
    let cross = Table::read(&dir.join("crosstable.csv"))?;
    let ratings = Table::read(&dir.join("ratings.csv"))?;
    let config: toml::Table = std::fs::read_to_string(dir.join("config.toml"))
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or_default();
    let replays_path = dir.join(crate::replay::FILE_NAME);
    let (embedded, left_out) = if replays_path.is_file() {
        Embedded::of_file(&replays_path, budget)?
    } else {
        (Embedded::default(), 0)
    };

    // Agents in order of first appearance; episodes grouped.
    let mut agents: Vec<String> = Vec::new();
    let mut levels: Vec<String> = Vec::new();
    let mut by_episode: BTreeMap<usize, Vec<&Vec<String>>> = BTreeMap::new();
    for row in &episodes.rows {
        let a = episodes.get(row, "agent").to_string();
        if !agents.contains(&a) {
            agents.push(a);
        }
        let l = episodes.get(row, "level").to_string();
        if !levels.contains(&l) {
            levels.push(l);
        }
        let ep = episodes.num(row, "episode") as usize;
        by_episode.entry(ep).or_default().push(row);
    }
    let first = episodes.rows.first();
    let cfg_str = |k: &str| config.get(k).and_then(|v| v.as_str()).map(str::to_string);
    let run = cfg_str("name")
        .or_else(|| first.map(|r| episodes.get(r, "run").to_string()))
        .unwrap_or_default();
    let game = first
        .map(|r| episodes.get(r, "game").to_string())
        .or_else(|| cfg_str("game"))
        .unwrap_or_default();
    let seed = config
        .get("seed")
        .map(|v| v.to_string())
        .unwrap_or_else(|| "0".to_string());

    let mut h = String::with_capacity(embedded.bytes * 4 / 3 + 200_000);
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
        embedded.blobs.len(),
        if left_out > 0 { format!(" ({left_out} not embedded)") } else { String::new() },
        env!("CARGO_PKG_VERSION")
    ));
    let mut nav = vec![("summary", "Summary")];
    if cross.as_ref().is_some_and(|c| !c.rows.is_empty()) {
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
    match &summary {
        Some(s) => h.push_str(&summary_table(s)),
        None => h.push_str("<p class=\"note\">No summary.csv in this folder.</p>"),
    }
    h.push_str("</section>\n");

    // Cross-table heat map.
    if let Some(c) = cross.as_ref().filter(|c| !c.rows.is_empty()) {
        let n = agents.len();
        let idx = |a: &str| agents.iter().position(|x| x == a);
        let mut cells = vec![vec![None; n]; n];
        let mut games = vec![vec![0usize; n]; n];
        for row in &c.rows {
            if let (Some(i), Some(j)) = (idx(c.get(row, "agent")), idx(c.get(row, "opponent"))) {
                cells[i][j] = Some(c.num(row, "points_rate"));
                games[i][j] = c.num(row, "games") as usize;
            }
        }
        h.push_str("<section id=\"crosstable\"><h2>Cross-table</h2>\n<p class=\"note\">Points rate (win 1, draw &frac12;) of the row agent against the column agent; n = games.</p>\n");
        h.push_str(&plot_or_note(plots::heatmap(&agents, &cells, &games)));
        h.push_str("</section>\n");
    }

    // Win rates with Wilson intervals.
    h.push_str("<section id=\"winrates\"><h2>Win rates</h2>\n<p class=\"note\">Per agent and level, with 95% Wilson intervals.</p>\n");
    if let Some(s) = &summary {
        let rows: Vec<plots::Interval> = s
            .rows
            .iter()
            .map(|r| plots::Interval {
                label: format!("{} @ {}", s.get(r, "agent"), s.get(r, "level")),
                value: s.num(r, "win_rate"),
                lo: s.num(r, "win_rate_lo"),
                hi: s.num(r, "win_rate_hi"),
            })
            .collect();
        h.push_str(&plot_or_note(plots::intervals(
            &rows,
            (0.0, 1.0),
            "win rate",
        )));
    }
    h.push_str("</section>\n");

    // Ratings (another tool's ratings.csv: agent,rating,ci_low,ci_high).
    if let Some(r) = &ratings {
        h.push_str(&ratings_section(r));
    }

    // Act times.
    h.push_str(&times_section(&embedded, &episodes, &agents, &config));

    // Reliability.
    h.push_str(&reliability_section(&episodes, &agents));

    // Episodes, with links into the viewer.
    let with_replay: std::collections::HashSet<usize> =
        embedded.metas.iter().map(|m| m.episode).collect();
    let list: Vec<serde_json::Value> = by_episode
        .iter()
        .map(|(ep, rows)| {
            let r0 = rows[0];
            json!({
                "episode": ep,
                "level": episodes.get(r0, "level"),
                "seed": episodes.get(r0, "seed"),
                "steps": episodes.num(r0, "steps"),
                "replay": with_replay.contains(ep),
                "seats": rows.iter().map(|r| json!({
                    "agent": episodes.get(r, "agent"),
                    "result": episodes.get(r, "result"),
                    "outcome": episodes.get(r, "outcome"),
                    "score": episodes.num(r, "score"),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    h.push_str("<section id=\"episodes\"><h2>Episodes</h2>\n<div class=\"pager\"><input id=\"ep-filter\" placeholder=\"filter (agent, level, outcome...)\"> <button id=\"ep-prev\">&lt; prev</button><button id=\"ep-next\">next &gt;</button> <span id=\"ep-info\" class=\"note\"></span></div>\n<table class=\"t\"><thead><tr><th>episode</th><th>level</th><th>seed</th><th>seats</th><th>result</th><th>failures</th><th>score</th><th>ticks</th><th>replay</th></tr></thead><tbody id=\"ep-body\"></tbody></table>\n");
    if embedded.blobs.is_empty() {
        h.push_str("<p class=\"note\">No replays in this folder (config key <code>replays = false</code>, or an older run).</p>\n");
    }
    h.push_str(&format!(
        "<script id=\"arena-episodes\" type=\"application/json\">{}</script>\n<script>{}</script>\n</section>\n",
        script_json(&serde_json::Value::from(list).to_string()),
        script_json(REPORT_JS)
    ));
    if !embedded.blobs.is_empty() {
        h.push_str(&viewer::section(&embedded, false));
    }
    h.push_str("</main></body></html>\n");
    Ok((h, left_out))
}

fn plot_or_note(svg: Result<String, String>) -> String {
    match svg {
        Ok(s) => s,
        Err(e) => format!("<p class=\"note\">({})</p>", esc(&e)),
    }
}

fn summary_table(s: &Table) -> String {
    let mut h = String::from("<table class=\"t\"><thead><tr><th>agent</th><th>level</th><th>episodes</th><th>W</th><th>D</th><th>L</th><th>win rate (95% CI)</th><th>mean score</th><th>mean ticks</th><th>mean act ms</th><th>max act ms</th><th>overruns</th><th>DQ</th><th>other failures</th></tr></thead><tbody>\n");
    for r in &s.rows {
        let g = |c: &str| esc(s.get(r, c));
        let bold = s.get(r, "level") == "all";
        h.push_str(&format!(
            "<tr{}><td>{}</td><td>{}</td><td class=num>{}</td><td class=num>{}</td><td class=num>{}</td><td class=num>{}</td><td class=num>{:.2} ({:.2}&ndash;{:.2})</td><td class=num>{}</td><td class=num>{}</td><td class=num>{}</td><td class=num>{}</td><td class=num>{}</td><td class=num>{}</td><td class=num>{}</td></tr>\n",
            if bold { " style=\"font-weight:600\"" } else { "" },
            g("agent"), g("level"), g("episodes"), g("wins"), g("draws"), g("losses"),
            s.num(r, "win_rate"), s.num(r, "win_rate_lo"), s.num(r, "win_rate_hi"),
            g("mean_score"), g("mean_steps"), g("mean_act_ms"), g("max_act_ms"),
            g("overruns"), g("disqualifications"), g("other_failures"),
        ));
    }
    h.push_str("</tbody></table>\n");
    h
}

fn ratings_section(r: &Table) -> String {
    let mut h = String::from("<section id=\"ratings\"><h2>Ratings</h2>\n<p class=\"note\">From <code>ratings.csv</code> in this folder, with the intervals it gives.</p>\n");
    let num = |row: &[String], c: &str| r.get(row, c).parse::<f64>().ok();
    let mut rows = Vec::new();
    h.push_str("<table class=\"t\"><thead><tr><th>agent</th><th>rating</th><th>CI low</th><th>CI high</th></tr></thead><tbody>\n");
    for row in &r.rows {
        let agent = r.get(row, "agent");
        let rating = num(row, "rating");
        let (lo, hi) = (num(row, "ci_low"), num(row, "ci_high"));
        h.push_str(&format!(
            "<tr><td>{}</td><td class=num>{}</td><td class=num>{}</td><td class=num>{}</td></tr>\n",
            esc(agent),
            esc(r.get(row, "rating")),
            esc(r.get(row, "ci_low")),
            esc(r.get(row, "ci_high"))
        ));
        if let Some(v) = rating {
            rows.push(plots::Interval {
                label: agent.to_string(),
                value: v,
                lo: lo.unwrap_or(v).min(v),
                hi: hi.unwrap_or(v).max(v),
            });
        }
    }
    h.push_str("</tbody></table>\n");
    if !rows.is_empty() {
        let lo = rows.iter().map(|x| x.lo).fold(f64::INFINITY, f64::min);
        let hi = rows.iter().map(|x| x.hi).fold(f64::NEG_INFINITY, f64::max);
        let pad = ((hi - lo) * 0.05).max(1.0);
        h.push_str(&plot_or_note(plots::intervals(
            &rows,
            (lo - pad, hi + pad),
            "rating",
        )));
    }
    h.push_str("</section>\n");
    h
}

fn times_section(
    embedded: &Embedded,
    episodes: &Table,
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
                e.0.extend(
                    m.ticks
                        .iter()
                        .filter_map(|t| t.act_ms.get(s).copied().flatten()),
                );
                e.0.extend(seat.last_act_ms);
            }
        }
    } else {
        let limits = config.get("time").and_then(|t| t.as_table());
        let lim = |k: &str, d: f64| {
            limits
                .and_then(|t| t.get(k))
                .and_then(|v| match v {
                    toml::Value::String(s) => crate::timing::parse_duration(s)
                        .ok()
                        .map(|d| d.as_secs_f64() * 1000.0),
                    toml::Value::Integer(i) => Some(*i as f64),
                    toml::Value::Float(f) => Some(*f),
                    _ => None,
                })
                .unwrap_or(d)
        };
        let (soft, hard) = (lim("act", 40.0), lim("act_hard", 50.0));
        h.push_str("<p class=\"note\">No replays here: each episode's longest act (episodes.csv), against the run's limits.</p>\n");
        for r in &episodes.rows {
            per.entry(episodes.get(r, "agent"))
                .or_insert((Vec::new(), soft, hard))
                .0
                .push(episodes.num(r, "max_act_ms"));
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

fn reliability_section(episodes: &Table, agents: &[String]) -> String {
    let mut h = String::from("<section id=\"reliability\"><h2>Reliability</h2>\n<table class=\"t\"><thead><tr><th>agent</th><th>episodes</th><th>overruns</th><th>disqualified</th><th>crashes</th><th>other failures</th><th>leaked processes</th><th>max act ms</th></tr></thead><tbody>\n");
    for a in agents {
        let rows: Vec<&Vec<String>> = episodes
            .rows
            .iter()
            .filter(|r| episodes.get(r, "agent") == a)
            .collect();
        let count = |f: &dyn Fn(&str) -> bool| {
            rows.iter()
                .filter(|r| f(episodes.get(r, "outcome")))
                .count()
        };
        let sum = |c: &str| rows.iter().map(|r| episodes.num(r, c)).sum::<f64>();
        let dq = count(&|o| o == "disqualified" || o == "timeout");
        let crash = count(&|o| o == "crash");
        let other = count(&|o| !matches!(o, "normal" | "disqualified" | "timeout" | "crash"));
        let cell = |n: f64| {
            if n > 0.0 {
                format!("<td class=\"num bad\">{n}</td>")
            } else {
                format!("<td class=num>{n}</td>")
            }
        };
        let max_act = rows
            .iter()
            .map(|r| episodes.num(r, "max_act_ms"))
            .fold(0.0, f64::max);
        h.push_str(&format!(
            "<tr><td>{}</td><td class=num>{}</td>{}{}{}{}{}<td class=num>{max_act:.2}</td></tr>\n",
            esc(a),
            rows.len(),
            cell(sum("overruns")),
            cell(dq as f64),
            cell(crash as f64),
            cell(other as f64),
            cell(sum("leaked")),
        ));
    }
    h.push_str("</tbody></table></section>\n");
    h
}

/// The report reporter: `report.html` when the run finishes (after the
/// tables and replays, so it must come after their reporters).
pub struct HtmlReport {
    dir: PathBuf,
}

impl HtmlReport {
    /// Writes `dir/report.html`.
    pub fn new(dir: &Path) -> Self {
        HtmlReport {
            dir: dir.to_path_buf(),
        }
    }
}

impl Reporter for HtmlReport {
    fn report(&mut self, event: &Event<'_>) -> Result<(), HarnessError> {
        if let Event::RunFinished { .. } = event {
            write_report(&self.dir)?;
        }
        Ok(())
    }
}
