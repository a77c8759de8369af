//! The report's tables, from the typed rows the CSV writers write
//! ([`SummaryRow`], [`RatingRow`]): the summary (with the terminal's
//! failure columns), reliability per agent, and the ratings, pairs apart
//! from agents, with infinite values and interval ends said in words.
//!
//! Cells carry `data-col` (and rows `data-agent`, `data-level` or
//! `data-opponent`) so that a test can read the table from the DOM.

use super::plots;
use super::viewer::esc;
use crate::output::reporters::ratings::{RatingRow, KIND_BT, KIND_PAIR};
use crate::output::rows::SummaryRow;

/// A numeric cell named `col`.
fn num(col: &str, text: &str) -> String {
    format!("<td class=num data-col=\"{col}\">{}</td>", esc(text))
}

/// A count cell named `col`, marked when not 0.
fn count(col: &str, n: u64) -> String {
    let class = if n > 0 { "num bad" } else { "num" };
    format!("<td class=\"{class}\" data-col=\"{col}\">{n}</td>")
}

/// Episodes that ended by bad output or another failure: the terminal's
/// `fail` column.
pub fn failures(r: &SummaryRow) -> usize {
    r.bad_output + r.other_failures
}

/// Above this many levels the summary shows each agent's `all` row only,
/// and the levels are in the per-level table ([`level_table`]).
pub const LEVELS_IN_SUMMARY: usize = 8;

/// The summary as the terminal prints it (every level, `all` rows bold):
/// the same columns, with W/D/L.
pub fn summary_table(rows: &[SummaryRow]) -> String {
    let leaked = rows.iter().any(|r| r.leaked > 0);
    let expanded = rows.iter().any(|r| r.mean_expanded.is_some());
    let mut h = String::from("<table class=\"t\" id=\"summary-table\"><thead><tr><th>agent</th><th>level</th><th>episodes</th><th>W</th><th>D</th><th>L</th><th>win rate (95% CI)</th><th>mean score</th><th>mean steps</th><th>mean act ms</th><th>max act ms</th><th>overruns</th><th title=\"disqualified, timeout or time forfeit\">DQ</th><th title=\"crash or memory limit\">crash</th><th>illegal</th><th title=\"bad output, output limit, or the agent could not start\">fail</th>");
    if leaked {
        h.push_str("<th>leaked</th>");
    }
    if expanded {
        h.push_str("<th>mean expanded</th>");
    }
    h.push_str("</tr></thead><tbody>\n");
    for r in rows {
        let bold = if r.level == "all" {
            " style=\"font-weight:600\""
        } else {
            ""
        };
        h.push_str(&format!(
            "<tr data-agent=\"{}\" data-level=\"{}\"{bold}><td>{}</td><td>{}</td>",
            esc(&r.agent),
            esc(&r.level),
            esc(&r.agent),
            esc(&r.level)
        ));
        h.push_str(&num("episodes", &r.episodes.to_string()));
        h.push_str(&num("wins", &r.wins.to_string()));
        h.push_str(&num("draws", &r.draws.to_string()));
        h.push_str(&num("losses", &r.losses.to_string()));
        h.push_str(&num(
            "win_rate",
            &format!(
                "{:.2} ({:.2}–{:.2})",
                r.win_rate, r.win_rate_lo, r.win_rate_hi
            ),
        ));
        h.push_str(&num("mean_score", &format!("{:.2}", r.mean_score)));
        h.push_str(&num("mean_steps", &format!("{:.1}", r.mean_steps)));
        h.push_str(&num("mean_act_ms", &format!("{:.2}", r.mean_act_ms)));
        h.push_str(&num("max_act_ms", &format!("{:.2}", r.max_act_ms)));
        let overruns = if r.init_overruns > 0 {
            format!("{}+{} init", r.overruns, r.init_overruns)
        } else {
            r.overruns.to_string()
        };
        h.push_str(&num("overruns", &overruns));
        h.push_str(&count("dq", r.disqualifications as u64));
        h.push_str(&count("crash", r.crashes as u64));
        h.push_str(&count("illegal", r.illegal_moves as u64));
        h.push_str(&count("fail", failures(r) as u64));
        if leaked {
            h.push_str(&count("leaked", r.leaked));
        }
        if expanded {
            let e = r.mean_expanded.map(|e| format!("{e:.0}"));
            h.push_str(&num("mean_expanded", e.as_deref().unwrap_or("")));
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</tbody></table>\n<p class=\"note\">The terminal's columns: DQ counts disqualifications, timeouts and time forfeits; crash includes the memory limit; fail is bad output (unreadable answers, output limits) plus agents that could not start. Mean steps: ticks played per episode.</p>\n");
    h
}

/// One row per level, one column pair per agent (win rate, mean score):
/// the table GVGAI's papers give per game. The levels and agents in order
/// of first appearance in `rows`.
pub fn level_table(rows: &[SummaryRow]) -> String {
    let mut agents: Vec<&str> = Vec::new();
    let mut levels: Vec<&str> = Vec::new();
    for r in rows.iter().filter(|r| r.level != "all") {
        if !agents.contains(&r.agent.as_str()) {
            agents.push(&r.agent);
        }
        if !levels.contains(&r.level.as_str()) {
            levels.push(&r.level);
        }
    }
    let mut h =
        String::from("<table class=\"t\" id=\"level-table\"><thead><tr><th rowspan=2>level</th>");
    for a in &agents {
        h.push_str(&format!("<th colspan=2>{}</th>", esc(a)));
    }
    h.push_str("</tr><tr>");
    for _ in &agents {
        h.push_str("<th>win rate</th><th>mean score</th>");
    }
    h.push_str("</tr></thead><tbody>\n");
    for level in &levels {
        h.push_str(&format!("<tr data-level=\"{0}\"><td>{0}</td>", esc(level)));
        for a in &agents {
            match rows.iter().find(|r| r.agent == *a && r.level == *level) {
                Some(r) => {
                    h.push_str(&num(
                        &format!("{a}:win_rate"),
                        &format!("{:.2}", r.win_rate),
                    ));
                    h.push_str(&num(
                        &format!("{a}:mean_score"),
                        &format!("{:.2}", r.mean_score),
                    ));
                }
                None => h.push_str("<td></td><td></td>"),
            }
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</tbody></table>\n");
    h
}

/// Reliability per agent, from the summary's `all` rows (the same counts
/// as the summary, each failure kind in its own column).
pub fn reliability_section(rows: &[SummaryRow]) -> String {
    let mut h = String::from("<section id=\"reliability\"><h2>Reliability</h2>\n<table class=\"t\" id=\"reliability-table\"><thead><tr><th>agent</th><th>episodes</th><th>overruns</th><th>init overruns</th><th>disqualified</th><th>crashes</th><th>illegal moves</th><th>bad output</th><th>other failures</th><th>leaked processes</th><th>max act ms</th></tr></thead><tbody>\n");
    for r in rows.iter().filter(|r| r.level == "all") {
        h.push_str(&format!(
            "<tr data-agent=\"{}\"><td>{}</td>",
            esc(&r.agent),
            esc(&r.agent)
        ));
        h.push_str(&num("episodes", &r.episodes.to_string()));
        h.push_str(&count("overruns", r.overruns));
        h.push_str(&count("init_overruns", r.init_overruns));
        h.push_str(&count("disqualifications", r.disqualifications as u64));
        h.push_str(&count("crashes", r.crashes as u64));
        h.push_str(&count("illegal_moves", r.illegal_moves as u64));
        h.push_str(&count("bad_output", r.bad_output as u64));
        h.push_str(&count("other_failures", r.other_failures as u64));
        h.push_str(&count("leaked", r.leaked));
        h.push_str(&num("max_act_ms", &format!("{:.2}", r.max_act_ms)));
        h.push_str("</tr>\n");
    }
    h.push_str("</tbody></table></section>\n");
    h
}

/// An Elo value in words where it is infinite: `+12.3`, `+∞`, `−∞`.
fn elo(x: f64) -> String {
    if x == f64::INFINITY {
        "+∞".into()
    } else if x == f64::NEG_INFINITY {
        "−∞".into()
    } else {
        crate::output::reporters::ratings::show_elo(x)
    }
}

/// The value cell of an Elo estimate (`None`: not applicable).
fn value_cell(col: &str, v: Option<f64>) -> String {
    num(col, &v.map(elo).unwrap_or_default())
}

/// The interval cell of an estimate `v` with ends `lo`, `hi`, in words
/// where they are infinite: `[+24.5, no upper end]`, or why there is none.
fn interval_cell(col: &str, v: Option<f64>, lo: Option<f64>, hi: Option<f64>) -> String {
    let text = match (v, lo, hi) {
        (Some(v), _, _) if v == f64::INFINITY => "none: every game won".to_string(),
        (Some(v), _, _) if v == f64::NEG_INFINITY => "none: every game lost".to_string(),
        (Some(_), Some(lo), Some(hi)) => {
            let lo = if lo == f64::NEG_INFINITY {
                "no lower end".to_string()
            } else {
                elo(lo)
            };
            let hi = if hi == f64::INFINITY {
                "no upper end".to_string()
            } else {
                elo(hi)
            };
            format!("[{lo}, {hi}]")
        }
        _ => String::new(),
    };
    num(col, &text)
}

/// Infinite `x` said in words (for the notes under the plot).
fn infinite(x: Option<f64>) -> bool {
    x.is_some_and(f64::is_infinite)
}

/// The Ratings section from the rows of `ratings.csv`: the pairs' table,
/// then the agents' Bradley–Terry table and plot.
pub fn ratings_section(rows: &[RatingRow]) -> String {
    let mut h = String::from("<section id=\"ratings\"><h2>Ratings</h2>\n<p class=\"note\">From <code>ratings.csv</code>. Every interval is 95 %, shown as its two ends as the file has them; the formulas, units and references are in arena's <code>docs/statistics.md</code>. An end past a score of 0 % or 100 % has no finite Elo: it is said in words, and such values are not drawn.</p>\n");
    let pairs: Vec<&RatingRow> = rows.iter().filter(|r| r.kind == KIND_PAIR).collect();
    let bt: Vec<&RatingRow> = rows.iter().filter(|r| r.kind == KIND_BT).collect();
    if !pairs.is_empty() {
        let paired = pairs.iter().any(|r| r.pairs.unwrap_or(0) > 0);
        h.push_str("<h3>Pairs of agents</h3>\n<p class=\"note\">From the first agent's side: Elo difference from W/D/L (trinomial), likelihood of superiority");
        if paired {
            h.push_str(", and from the game pairs (pentanomial) the normalized Elo");
        }
        h.push_str(".</p>\n<table class=\"t\" id=\"ratings-pairs\"><thead><tr><th>agent</th><th>opponent</th><th>games</th><th>W</th><th>D</th><th>L</th><th>score</th><th>Elo</th><th>95% interval</th><th>LOS</th>");
        if paired {
            h.push_str("<th>pairs</th><th>nElo</th><th>95% interval</th>");
        }
        h.push_str("</tr></thead><tbody>\n");
        for r in &pairs {
            let n = |x: Option<u64>| x.map(|x| x.to_string()).unwrap_or_default();
            h.push_str(&format!(
                "<tr data-agent=\"{}\" data-opponent=\"{}\"><td>{}</td><td>{}</td>",
                esc(&r.agent),
                esc(&r.opponent),
                esc(&r.agent),
                esc(&r.opponent)
            ));
            h.push_str(&num("games", &r.games.to_string()));
            h.push_str(&num("wins", &n(r.wins)));
            h.push_str(&num("draws", &n(r.draws)));
            h.push_str(&num("losses", &n(r.losses)));
            h.push_str(&num(
                "score",
                &r.score.map(|s| format!("{s:.3}")).unwrap_or_default(),
            ));
            h.push_str(&value_cell("elo", r.elo));
            h.push_str(&interval_cell("elo_interval", r.elo, r.elo_lo, r.elo_hi));
            h.push_str(&num(
                "los",
                &r.los
                    .map(|x| format!("{:.1}%", 100.0 * x))
                    .unwrap_or_default(),
            ));
            if paired {
                h.push_str(&num("pairs", &n(r.pairs)));
                h.push_str(&value_cell("nelo", r.nelo));
                h.push_str(&interval_cell(
                    "nelo_interval",
                    r.nelo,
                    r.nelo_lo,
                    r.nelo_hi,
                ));
            }
            h.push_str("</tr>\n");
        }
        h.push_str("</tbody></table>\n");
    }
    if !bt.is_empty() {
        h.push_str("<h3>Agents: Bradley–Terry</h3>\n<p class=\"note\">One rating per agent from all games at once, under a prior of 2 virtual draws per pair of agents that met (so no rating is infinite), the mean at 0.</p>\n<table class=\"t\" id=\"ratings-bt\"><thead><tr><th>agent</th><th>rating</th><th>95% interval</th><th>games</th><th>score</th></tr></thead><tbody>\n");
        let mut plotted = Vec::new();
        let mut not_drawn = Vec::new();
        for r in &bt {
            h.push_str(&format!(
                "<tr data-agent=\"{}\"><td>{}</td>",
                esc(&r.agent),
                esc(&r.agent)
            ));
            let rating = match r.rating {
                Some(x) => elo(x),
                None => "not rated (no games with the others)".into(),
            };
            h.push_str(&num("rating", &rating));
            let interval = match (r.rating, r.rating_lo, r.rating_hi) {
                (Some(0.0), None, None) => "the anchor (0 by definition)".to_string(),
                _ => String::new(),
            };
            if interval.is_empty() {
                h.push_str(&interval_cell(
                    "rating_interval",
                    r.rating,
                    r.rating_lo,
                    r.rating_hi,
                ));
            } else {
                h.push_str(&num("rating_interval", &interval));
            }
            h.push_str(&num("games", &r.games.to_string()));
            h.push_str(&num(
                "score",
                &r.score.map(|s| format!("{s:.3}")).unwrap_or_default(),
            ));
            h.push_str("</tr>\n");
            match r.rating {
                Some(v)
                    if !infinite(r.rating) && !infinite(r.rating_lo) && !infinite(r.rating_hi) =>
                {
                    plotted.push(plots::Interval {
                        label: r.agent.clone(),
                        value: v,
                        lo: r.rating_lo.unwrap_or(v),
                        hi: r.rating_hi.unwrap_or(v),
                    })
                }
                Some(_) => not_drawn.push(r.agent.clone()),
                None => {}
            }
        }
        h.push_str("</tbody></table>\n");
        if !plotted.is_empty() {
            let lo = plotted.iter().map(|x| x.lo).fold(f64::INFINITY, f64::min);
            let hi = plotted
                .iter()
                .map(|x| x.hi)
                .fold(f64::NEG_INFINITY, f64::max);
            let pad = ((hi - lo) * 0.05).max(1.0);
            h.push_str(&super::plot_or_note(plots::intervals(
                &plotted,
                (lo - pad, hi + pad),
                "Bradley–Terry rating (Elo), 95% interval",
            )));
        }
        if !not_drawn.is_empty() {
            h.push_str(&format!(
                "<p class=\"note\">Not drawn (infinite rating or interval end): {}.</p>\n",
                esc(&not_drawn.join(", "))
            ));
        }
    }
    h.push_str("</section>\n");
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Summary rows as `summary.csv` has them: (agent, level, wins of 2, score).
    fn rows(data: &[(&str, &str, usize, f64)]) -> Vec<SummaryRow> {
        let mut text = String::from("agent,level,episodes,wins,draws,losses,win_rate,win_rate_lo,win_rate_hi,mean_score,mean_steps,mean_act_ms,max_act_ms,overruns,init_overruns,disqualifications,crashes,illegal_moves,bad_output,other_failures,leaked,mean_expanded\n");
        for (agent, level, wins, score) in data {
            let rate = *wins as f64 / 2.0;
            text += &format!(
                "{agent},{level},2,{wins},0,{},{rate},0,1,{score},10,1,1,0,0,0,0,0,0,0,0,\n",
                2usize.saturating_sub(*wins)
            );
        }
        csv::Reader::from_reader(text.as_bytes())
            .deserialize()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    #[test]
    fn the_level_table_has_a_row_per_level_and_a_column_pair_per_agent() {
        let h = level_table(&rows(&[
            ("mcts", "aliens:0", 2, 71.0),
            ("mcts", "bait:0", 1, 3.5),
            ("mcts", "all", 3, 37.25),
            ("random", "aliens:0", 0, 12.0),
            ("random", "all", 0, 12.0),
        ]));
        assert_eq!(h.matches("<tr data-level=").count(), 2, "{h}");
        assert!(!h.contains("data-level=\"all\""), "{h}");
        let aliens = h.split("data-level=\"aliens:0\"").nth(1).unwrap();
        let aliens = &aliens[..aliens.find("</tr>").unwrap()];
        for cell in [
            "data-col=\"mcts:win_rate\">1.00<",
            "data-col=\"mcts:mean_score\">71.00<",
            "data-col=\"random:win_rate\">0.00<",
            "data-col=\"random:mean_score\">12.00<",
        ] {
            assert!(aliens.contains(cell), "{cell} in {aliens}");
        }
        let bait = h.split("data-level=\"bait:0\"").nth(1).unwrap();
        let bait = &bait[..bait.find("</tr>").unwrap()];
        assert!(
            bait.contains("0.50") && bait.ends_with("<td></td><td></td>"),
            "random never played bait: {bait}"
        );
        let heads: Vec<&str> = h
            .split("<th colspan=2>")
            .skip(1)
            .map(|s| &s[..s.find('<').unwrap()])
            .collect();
        assert_eq!(heads, ["mcts", "random"]);
    }
}
