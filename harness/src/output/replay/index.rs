//! What the report needs of the replays, collected as they are written
//! ([`Index`]), so that `report.html` at the end of a run reads no replay
//! back.

use super::Replay;
use base64::Engine;
use std::sync::{Arc, Mutex};

/// The replays of a run as the report embeds them, in the file's order:
/// each one's metadata (the replay without its states) and its gzip member
/// in base64, up to a budget of compressed bytes (the replays past it are
/// counted, not kept), as [`crate::output::html`] would read them back from
/// `replays.jsonl.gz`.
#[derive(Debug, Default)]
pub struct Index {
    /// The replays kept, without their states.
    pub heads: Vec<Replay>,
    /// Their gzip members, in base64.
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

    /// Add the replay `head` (its states left out) written as the gzip
    /// member `gz`, unless it does not fit in the budget (then counted in
    /// [`Index::left_out`]).
    pub fn push(&mut self, mut head: Replay, gz: &[u8]) {
        if self.bytes + gz.len() > self.budget {
            self.left_out += 1;
            return;
        }
        head.states = Vec::new();
        self.bytes += gz.len();
        self.blobs
            .push(base64::engine::general_purpose::STANDARD.encode(gz));
        self.heads.push(head);
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
