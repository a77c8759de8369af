//! [`SprtTally`]: a running SPRT of one agent against another, fed with
//! each finished episode's rows (pentanomial over pairs when the games are
//! paired, trinomial otherwise).

use crate::output::rows::EpisodeRow;
use crate::stats::elo::{GameResult, Pentanomial, Wdl};
use crate::stats::sprt::{sprt_status, SprtConfig, SprtCounts, SprtDecision, SprtStatus};
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::HashMap;

/// The SPRT as `meta.json` keeps it (key `sprt`): the test, where it
/// stands and its one-line form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtRecord {
    /// The tested agent (H1: stronger than `opponent` by `elo1`).
    pub agent: String,
    /// The agent it is tested against.
    pub opponent: String,
    /// `normalized` or `logistic`: how `elo0` and `elo1` are read.
    pub model: String,
    /// Elo under H0 (nElo for `normalized`, logistic Elo for `logistic`).
    pub elo0: f64,
    /// Elo under H1, in the same unit.
    pub elo1: f64,
    /// Type I error.
    pub alpha: f64,
    /// Type II error.
    pub beta: f64,
    /// The log-likelihood ratio.
    pub llr: f64,
    /// `ln(β/(1−α))`: at or below it H0 is accepted.
    pub lower: f64,
    /// `ln((1−β)/α)`: at or above it H1 is accepted.
    pub upper: f64,
    /// Games counted.
    pub games: u64,
    /// Game pairs counted (pentanomial), when the games are paired.
    #[serde(default)]
    pub pairs: Option<u64>,
    /// `H0 accepted`, `H1 accepted` or `inconclusive`.
    pub verdict: String,
    /// The line `arena run` and `arena summarize` print.
    pub line: String,
}

/// Reads the `sprt` key of `meta.json`: the fields of a [`SprtRecord`],
/// or the one line earlier versions wrote (its figures read back from the
/// text; a line that does not parse is dropped), or nothing.
pub fn deserialize_sprt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<SprtRecord>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Stored {
        Fields(SprtRecord),
        Line(String),
    }
    Ok(match Option::<Stored>::deserialize(d)? {
        None => None,
        Some(Stored::Fields(r)) => Some(r),
        Some(Stored::Line(l)) => parse_line(&l),
    })
}

/// The figures of a line of [`SprtTally::line`]'s form, `SPRT a vs b
/// [elo0, elo1] (model Elo): LLR x (bounds lo, hi), n games (m pairs):
/// verdict`, or of earlier versions' (`(model)`, no pairs); α and β are
/// not in the line: NaN.
pub fn parse_line(line: &str) -> Option<SprtRecord> {
    let rest = line.strip_prefix("SPRT ")?;
    let (names, rest) = rest.split_once(" [")?;
    let (agent, opponent) = names.split_once(" vs ")?;
    let (elos, rest) = rest.split_once("] (")?;
    let (elo0, elo1) = elos.split_once(", ")?;
    let (model, rest) = rest.split_once("): LLR ")?;
    let model = model.strip_suffix(" Elo").unwrap_or(model);
    let (llr, rest) = rest.split_once(" (bounds ")?;
    let (bounds, rest) = rest.split_once("), ")?;
    let (lower, upper) = bounds.split_once(", ")?;
    let (games, rest) = rest.split_once(" games")?;
    let (pairs, verdict) = match rest.strip_prefix(" (") {
        Some(p) => {
            let (p, v) = p.split_once(" pairs): ")?;
            (Some(p.trim().parse().ok()?), v)
        }
        None => (None, rest.strip_prefix(": ")?),
    };
    let num = |s: &str| s.trim().parse::<f64>().ok();
    Some(SprtRecord {
        agent: agent.to_string(),
        opponent: opponent.to_string(),
        model: model.to_string(),
        elo0: num(elo0)?,
        elo1: num(elo1)?,
        alpha: f64::NAN,
        beta: f64::NAN,
        llr: num(llr)?,
        lower: num(lower)?,
        upper: num(upper)?,
        games: games.trim().parse().ok()?,
        pairs,
        verdict: verdict.trim().to_string(),
        line: line.to_string(),
    })
}

/// The SPRT of agent `a` (H1: stronger by `elo1`) against agent `b`.
#[derive(Clone, Debug)]
pub struct SprtTally {
    cfg: SprtConfig,
    a: String,
    b: String,
    paired: bool,
    wdl: Wdl,
    penta: Pentanomial,
    open: HashMap<usize, GameResult>,
}

impl SprtTally {
    /// A test of `a` against `b` under `cfg` (already validated); `paired`:
    /// count pairs (pentanomial) rather than games.
    pub fn new(cfg: &SprtConfig, a: &str, b: &str, paired: bool) -> SprtTally {
        SprtTally {
            cfg: cfg.clone(),
            a: a.to_string(),
            b: b.to_string(),
            paired,
            wdl: Wdl::default(),
            penta: Pentanomial::default(),
            open: HashMap::new(),
        }
    }

    /// Count one finished episode (its rows); other lineups are ignored.
    pub fn add(&mut self, rows: &[EpisodeRow]) {
        let Some(r) = rows
            .iter()
            .find(|r| r.agent == self.a && r.opponent == self.b)
        else {
            return;
        };
        let Some(result) = GameResult::from_label(&r.result) else {
            return;
        };
        self.wdl.add(result);
        if let (true, Some(p)) = (self.paired, r.pair) {
            match self.open.remove(&p) {
                Some(first) => self.penta.add_pair(first, result),
                None => {
                    self.open.insert(p, result);
                }
            }
        }
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wdl.games()
    }

    /// The test as `meta.json` keeps it.
    pub fn record(&self) -> SprtRecord {
        let s = self.status();
        SprtRecord {
            agent: self.a.clone(),
            opponent: self.b.clone(),
            model: self.cfg.model.clone(),
            elo0: self.cfg.elo0,
            elo1: self.cfg.elo1,
            alpha: self.cfg.alpha,
            beta: self.cfg.beta,
            llr: s.llr,
            lower: s.lower,
            upper: s.upper,
            games: self.games(),
            pairs: self.paired.then(|| self.penta.pairs()),
            verdict: verdict(s.decision).to_string(),
            line: self.line(),
        }
    }

    /// The test's state: LLR, bounds, decision.
    pub fn status(&self) -> SprtStatus {
        let counts = if self.paired {
            SprtCounts::Pentanomial(self.penta)
        } else {
            SprtCounts::Trinomial(self.wdl)
        };
        sprt_status(&self.cfg, &counts).unwrap_or(SprtStatus {
            llr: 0.0,
            lower: f64::NEG_INFINITY,
            upper: f64::INFINITY,
            decision: SprtDecision::Continue,
        })
    }

    /// One line: `SPRT a vs b [elo0, elo1] (model Elo): LLR x (bounds lo,
    /// hi), n games (m pairs): verdict` (the pairs when they are counted).
    pub fn line(&self) -> String {
        let s = self.status();
        let pairs = if self.paired {
            format!(" ({} pairs)", self.penta.pairs())
        } else {
            String::new()
        };
        format!(
            "SPRT {} vs {} [{}, {}] ({} Elo): LLR {:.2} (bounds {:.2}, {:.2}), {} games{pairs}: {}",
            self.a,
            self.b,
            self.cfg.elo0,
            self.cfg.elo1,
            self.cfg.model,
            s.llr,
            s.lower,
            s.upper,
            self.games(),
            verdict(s.decision)
        )
    }
}

/// `H0 accepted`, `H1 accepted` or `inconclusive`.
pub fn verdict(d: SprtDecision) -> &'static str {
    match d {
        SprtDecision::AcceptH0 => "H0 accepted",
        SprtDecision::AcceptH1 => "H1 accepted",
        SprtDecision::Continue => "inconclusive",
    }
}

/// The reporter that runs the SPRT of a config's `[sprt]` as episodes
/// finish, and raises `stop` once it decides (the run then starts no new
/// episode; `meta.json` says `sprt-stopped`).
pub struct SprtMonitor {
    tally: SprtTally,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl SprtMonitor {
    /// The test of `cfg`'s first agent against its second.
    pub fn new(
        cfg: &crate::config::RunConfig,
        sprt: &SprtConfig,
        stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    ) -> Self {
        SprtMonitor {
            tally: tally_of(cfg, sprt),
            stop,
        }
    }
}

/// The tally of `cfg`'s SPRT (first agent against the second).
pub fn tally_of(cfg: &crate::config::RunConfig, sprt: &SprtConfig) -> SprtTally {
    let label = |i: usize| cfg.agents.get(i).map_or("", |a| a.label.as_str());
    SprtTally::new(sprt, label(0), label(1), cfg.pairs)
}

/// The tally of `cfg`'s SPRT over a run's `rows` (sorted by episode and
/// seat), or `None` when the config has no `[sprt]`.
pub fn tally_of_rows(cfg: &crate::config::RunConfig, rows: &[EpisodeRow]) -> Option<SprtTally> {
    let mut t = tally_of(cfg, cfg.sprt.as_ref()?);
    for ep in rows.chunk_by(|a, b| a.episode == b.episode) {
        t.add(ep);
    }
    Some(t)
}

impl crate::output::reporters::Reporter for SprtMonitor {
    fn report(
        &mut self,
        event: &crate::output::reporters::Event<'_>,
    ) -> Result<(), crate::error::HarnessError> {
        if let crate::output::reporters::Event::EpisodeFinished { rows, .. } = event {
            self.tally.add(rows);
            if self.tally.status().decision != SprtDecision::Continue {
                self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct Meta {
        #[serde(default, deserialize_with = "deserialize_sprt")]
        sprt: Option<SprtRecord>,
    }

    #[test]
    fn the_line_reads_back_and_old_meta_json_still_reads() {
        let cfg = SprtConfig {
            elo0: 0.0,
            elo1: 50.0,
            alpha: 0.05,
            beta: 0.1,
            model: "normalized".into(),
        };
        let mut t = SprtTally::new(&cfg, "a b", "c", true);
        let row = |episode: usize, pair: usize, result: &str| EpisodeRow {
            episode,
            agent: "a b".into(),
            opponent: "c".into(),
            result: result.into(),
            pair: Some(pair),
            ..EpisodeRow::default()
        };
        for (e, r) in ["win", "draw", "win", "loss", "win", "win"]
            .iter()
            .enumerate()
        {
            t.add(&[row(e, e / 2, r)]);
        }
        let rec = t.record();
        assert_eq!((rec.games, rec.pairs), (6, Some(3)));
        assert!(rec.line.contains("(normalized Elo)") && rec.line.contains("6 games (3 pairs)"));
        let back = parse_line(&rec.line).unwrap();
        assert_eq!((back.agent.as_str(), back.opponent.as_str()), ("a b", "c"));
        assert_eq!((back.model.as_str(), back.elo1), ("normalized", 50.0));
        assert!((back.llr - rec.llr).abs() < 0.005 && (back.lower - rec.lower).abs() < 0.005);
        assert_eq!(
            (back.games, back.pairs, back.verdict),
            (6, Some(3), rec.verdict.clone())
        );

        // meta.json: the fields, an earlier version's line, or nothing.
        let json = serde_json::json!({ "sprt": rec }).to_string();
        let m: Meta = serde_json::from_str(&json).unwrap();
        assert_eq!(m.sprt.unwrap().llr, rec.llr);
        let old = r#"{"sprt": "SPRT depth3 vs depth2 [0, 50] (normalized): LLR 2.96 (bounds -2.94, 2.94), 84 games: H1 accepted"}"#;
        let m: Meta = serde_json::from_str(old).unwrap();
        let r = m.sprt.unwrap();
        assert_eq!((r.llr, r.upper, r.games), (2.96, 2.94, 84));
        assert_eq!((r.verdict.as_str(), r.pairs), ("H1 accepted", None));
        for none in [r#"{"sprt": null}"#, "{}", r#"{"sprt": "not a line"}"#] {
            let m: Meta = serde_json::from_str(none).unwrap();
            assert!(m.sprt.is_none(), "{none}");
        }
    }
}
