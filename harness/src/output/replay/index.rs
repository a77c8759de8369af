//! What the report needs of the replays, collected as they are written
//! ([`Index`]), so that `report.html` at the end of a run reads no replay
//! back.

use super::{LevelRef, Replay, SeatInfo, Tick};
use base64::Engine;
use serde::Deserialize;
use std::sync::{Arc, Mutex};

/// What the report needs of a replay: not its states, and of its ticks
/// only their number and each seat's act times (a tick's three vectors,
/// kept for every replay of a run, were most of a run's memory at its
/// end). Read from a replay's JSON line, it skips the rest.
#[derive(Clone, Debug, Deserialize)]
#[serde(from = "MetaLine")]
pub struct ReplayMeta {
    /// Episode index.
    pub episode: usize,
    /// Game name.
    pub game: String,
    /// Episode seed.
    pub seed: u64,
    /// Level.
    pub level: LevelRef,
    /// Seats.
    pub seats: Vec<SeatInfo>,
    /// Ticks played.
    pub steps: usize,
    /// Per seat, the times of its acts in ms, in tick order.
    pub act_ms: Vec<Vec<f64>>,
}

/// The fields of a replay's line that [`ReplayMeta`] is made of.
#[derive(Deserialize)]
struct MetaLine {
    episode: usize,
    game: String,
    seed: u64,
    level: LevelRef,
    seats: Vec<SeatInfo>,
    ticks: Vec<Tick>,
}

impl From<MetaLine> for ReplayMeta {
    fn from(m: MetaLine) -> Self {
        let act_ms = act_times(m.seats.len(), &m.ticks);
        ReplayMeta {
            episode: m.episode,
            game: m.game,
            seed: m.seed,
            level: m.level,
            seats: m.seats,
            steps: m.ticks.len(),
            act_ms,
        }
    }
}

/// Per seat of `seats`, the act times of `ticks` in order.
fn act_times(seats: usize, ticks: &[Tick]) -> Vec<Vec<f64>> {
    (0..seats)
        .map(|s| {
            ticks
                .iter()
                .filter_map(|t| t.act_ms.get(s).copied().flatten())
                .collect()
        })
        .collect()
}

impl From<Replay> for ReplayMeta {
    fn from(replay: Replay) -> Self {
        ReplayMeta {
            steps: replay.ticks.len(),
            act_ms: act_times(replay.seats.len(), &replay.ticks),
            episode: replay.episode,
            game: replay.game,
            seed: replay.seed,
            level: replay.level,
            seats: replay.seats,
        }
    }
}

impl ReplayMeta {
    /// What the report needs of `replay`.
    pub fn of(replay: &Replay) -> Self {
        ReplayMeta {
            episode: replay.episode,
            game: replay.game.clone(),
            seed: replay.seed,
            level: replay.level.clone(),
            seats: replay.seats.clone(),
            steps: replay.ticks.len(),
            act_ms: act_times(replay.seats.len(), &replay.ticks),
        }
    }
}

/// The replays of a run as the report embeds them, in the file's order:
/// each one's [`ReplayMeta`] and where its line is, and the gzip members
/// holding them in base64, up to a budget of compressed bytes (the members
/// past it are counted by their replays, not kept), as
/// [`crate::output::html`] would read them back from `replays.jsonl.gz`.
#[derive(Debug, Default)]
pub struct Index {
    /// What the report needs of the replays kept.
    pub metas: Vec<ReplayMeta>,
    /// Where each replay of `metas` is: its member's place in `blobs`, and
    /// its line's among the member's lines that are not blank.
    pub places: Vec<(usize, usize)>,
    /// The gzip members, in base64.
    pub blobs: Vec<String>,
    /// The compressed bytes kept.
    pub bytes: usize,
    /// The replays past the budget.
    pub left_out: usize,
    budget: usize,
}

impl Index {
    /// An empty index that keeps at most `budget` compressed bytes.
    pub fn new(budget: usize) -> Self {
        Index {
            budget,
            ..Index::default()
        }
    }

    /// Add the gzip member `gz` whose lines are the replays `metas`, in
    /// order, unless it does not fit in the budget (then its replays are
    /// counted in [`Index::left_out`]).
    pub fn push_member(&mut self, metas: Vec<ReplayMeta>, gz: &[u8]) {
        if self.bytes + gz.len() > self.budget {
            self.left_out += metas.len();
            return;
        }
        let b = self.blobs.len();
        self.bytes += gz.len();
        self.blobs
            .push(base64::engine::general_purpose::STANDARD.encode(gz));
        self.places.extend((0..metas.len()).map(|line| (b, line)));
        self.metas.extend(metas);
    }
}

/// Where the replay reporter leaves the [`Index`] of the replays it wrote
/// for the report reporter: filled only when every replay of the run was
/// written; empty otherwise (the report then reads the file).
#[derive(Clone, Debug, Default)]
pub struct SharedIndex {
    slot: Arc<Mutex<Option<Index>>>,
    budget: usize,
}

impl SharedIndex {
    /// An empty slot for indexes that keep at most `budget` compressed
    /// bytes.
    pub fn new(budget: usize) -> Self {
        SharedIndex {
            slot: Arc::default(),
            budget,
        }
    }

    /// A new, empty [`Index`] with this slot's budget.
    pub fn start(&self) -> Index {
        Index::new(self.budget)
    }

    /// Leave `index` (or nothing) in the slot.
    pub fn put(&self, index: Option<Index>) {
        if let Ok(mut slot) = self.slot.lock() {
            *slot = index;
        }
    }

    /// Take what the slot holds.
    pub fn take(&self) -> Option<Index> {
        self.slot.lock().ok().and_then(|mut s| s.take())
    }
}
