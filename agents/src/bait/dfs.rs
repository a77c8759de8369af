//! `dfs`: depth-first search over forward-model copies with a visited set
//! (report Task 1): the first winning path found, not a shortest one.
//!
//! The search keeps an explicit stack (one frame per position on the
//! current path, with the next action to try), so it can stop at any node
//! when the time is up and resume in the next act exactly where it was.
//! Actions are tried in GVGAI's order (LEFT, RIGHT, DOWN, UP). A position
//! is entered once over the whole search (the report's visited list, here a
//! set of 64-bit keys); the path is at most as long as the game has ticks
//! left, since a longer plan could not be played out.

use super::search::{Pacer, Planner, SearchState, POLL};
use super::table::{Insert, KeyTable};
use games::bait::{Bait, BaitAction};
use games::{Game, Timer};

struct Frame {
    state: Bait,
    /// The action that led here from the frame below.
    action: BaitAction,
    /// Index into [`BaitAction::MOVES`] of the next action to try.
    next: u8,
}

/// The depth-first planner.
pub struct Dfs {
    visited: KeyTable,
    stack: Vec<Frame>,
    max_depth: usize,
    expanded: u64,
    end: Option<SearchState>,
}

impl Dfs {
    /// A planner whose visited set holds at most `max_nodes` positions.
    pub fn new(max_nodes: usize) -> Self {
        Dfs {
            visited: KeyTable::new(max_nodes),
            stack: Vec::new(),
            max_depth: 0,
            expanded: 0,
            end: None,
        }
    }
}

impl Planner for Dfs {
    fn reset(&mut self, root: &Bait) {
        self.visited.clear();
        self.stack.clear();
        self.end = None;
        self.max_depth = root.max_ticks().saturating_sub(root.tick()) as usize + 1;
        let _ = self.visited.insert(root.key(), 0);
        if root.is_over() {
            self.end = Some(SearchState::Exhausted);
        } else {
            self.stack.push(Frame {
                state: root.clone(),
                action: BaitAction::Nil,
                next: 0,
            });
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
            let depth = self.stack.len();
            let Some(top) = self.stack.last_mut() else {
                self.end = Some(SearchState::Exhausted);
                return SearchState::Exhausted;
            };
            if top.next as usize == BaitAction::MOVES.len() {
                self.stack.pop();
                continue;
            }
            if top.next == 0 {
                self.expanded += 1;
            }
            let a = BaitAction::MOVES[top.next as usize];
            top.next += 1;
            let mut next = top.state.clone();
            next.advance(&[a]);
            if next.won() {
                let mut plan: Vec<BaitAction> = self.stack[1..].iter().map(|f| f.action).collect();
                plan.push(a);
                self.end = Some(SearchState::Found(plan.clone()));
                return SearchState::Found(plan);
            }
            if next.is_over() || depth >= self.max_depth {
                continue;
            }
            match self.visited.insert(next.key(), 0) {
                Insert::New => self.stack.push(Frame {
                    state: next,
                    action: a,
                    next: 0,
                }),
                Insert::Seen(_) => {}
                Insert::Full => {
                    self.end = Some(SearchState::Full);
                    return SearchState::Full;
                }
            }
        }
    }

    fn expanded(&self) -> u64 {
        self.expanded
    }
}
