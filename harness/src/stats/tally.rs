//! [`SprtTally`]: a running SPRT of one agent against another, fed with
//! each finished episode's rows (pentanomial over pairs when the games are
//! paired, trinomial otherwise).

use super::elo::{GameResult, Pentanomial, Wdl};
use super::sprt::{sprt_status, SprtConfig, SprtCounts, SprtDecision, SprtStatus};
use crate::report::EpisodeRow;
use std::collections::HashMap;

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

    /// One line: `SPRT a vs b [elo0, elo1]: LLR x (bounds lo, hi), n games: verdict`.
    pub fn line(&self) -> String {
        let s = self.status();
        format!(
            "SPRT {} vs {} [{}, {}] ({}): LLR {:.2} (bounds {:.2}, {:.2}), {} games: {}",
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

impl crate::reporters::Reporter for SprtMonitor {
    fn report(
        &mut self,
        event: &crate::reporters::Event<'_>,
    ) -> Result<(), crate::error::HarnessError> {
        if let crate::reporters::Event::EpisodeFinished { rows, .. } = event {
            self.tally.add(rows);
            if self.tally.status().decision != SprtDecision::Continue {
                self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
        Ok(())
    }
}
