//! `bfs`: breadth-first search for a shortest winning action sequence, the
//! optimal reference for each level.
//!
//! Positions are expanded in order of their distance (in actions) from the
//! root; each successor is tested for a win when it is generated, so the
//! first win found is reached by a minimal number of actions (every action
//! costs one tick; NIL is never part of a shortest plan since it changes no
//! position). A position is queued once: the visited set holds its 64-bit key.
//!
//! Memory: `max_nodes` positions at most in the visited set (32 bytes each
//! with the parent links), and a quarter of that in the queue (about 430
//! bytes each, the whole state). Levels whose shortest win lies beyond that
//! (GVGAI's level 3: its positions grow about 1.7-fold per action and the
//! shortest win is over 40 actions deep) end as [`SearchState::Full`].

use super::search::{path_to, Pacer, Planner, SearchState, POLL};
use super::table::{Insert, KeyTable};
use games::bait::{Bait, BaitAction};
use games::{Game, Timer};
use std::collections::VecDeque;

/// The breadth-first planner.
pub struct Bfs {
    visited: KeyTable,
    /// Parent and action of every queued position; 0 is the root.
    nodes: Vec<(u32, BaitAction)>,
    queue: VecDeque<(Bait, u32)>,
    max_queue: usize,
    expanded: u64,
    end: Option<SearchState>,
}

impl Bfs {
    /// A planner holding at most `max_nodes` positions.
    pub fn new(max_nodes: usize) -> Self {
        let max_nodes = max_nodes.clamp(16, u32::MAX as usize / 2);
        let max_queue = (max_nodes / 4).max(16);
        Bfs {
            visited: KeyTable::new(max_nodes),
            // Reserved up front (virtual memory only) so no push reallocates mid-act.
            nodes: Vec::with_capacity(max_nodes + 1),
            queue: VecDeque::with_capacity(max_queue),
            max_queue,
            expanded: 0,
            end: None,
        }
    }
}

impl Planner for Bfs {
    fn reset(&mut self, root: &Bait) {
        self.visited.clear();
        self.nodes.clear();
        self.queue.clear();
        self.end = None;
        self.nodes.push((u32::MAX, BaitAction::Nil));
        let _ = self.visited.insert(root.key(), 0);
        if root.is_over() {
            self.end = Some(SearchState::Exhausted);
        } else {
            self.queue.push_back((root.clone(), 0));
        }
    }

    fn search(&mut self, timer: &dyn Timer, pacer: &mut Pacer) -> SearchState {
        if let Some(end) = &self.end {
            return end.clone();
        }
        let mut polled = 0u64;
        loop {
            polled += 1;
            if polled.is_multiple_of(POLL) && pacer.expired(timer) {
                return SearchState::Searching;
            }
            let Some((state, idx)) = self.queue.pop_front() else {
                self.end = Some(SearchState::Exhausted);
                return SearchState::Exhausted;
            };
            self.expanded += 1;
            for a in BaitAction::MOVES {
                let mut next = state.clone();
                next.advance(&[a]);
                if next.won() {
                    let mut plan = path_to(&self.nodes, idx);
                    plan.push(a);
                    self.end = Some(SearchState::Found(plan.clone()));
                    return SearchState::Found(plan);
                }
                if next.is_over() {
                    continue;
                }
                let id = self.nodes.len() as u32;
                match self.visited.insert(next.key(), id) {
                    Insert::Seen(_) => continue,
                    Insert::Full => {
                        self.end = Some(SearchState::Full);
                        return SearchState::Full;
                    }
                    Insert::New => {}
                }
                if self.queue.len() >= self.max_queue {
                    self.end = Some(SearchState::Full);
                    return SearchState::Full;
                }
                self.nodes.push((idx, a));
                self.queue.push_back((next, id));
            }
        }
    }

    fn expanded(&self) -> u64 {
        self.expanded
    }
}
