//! Dead-end proofs for the feature-space search ([`Config::prove`]).
//!
//! The most advanced states of a feature-space search draw half of its
//! effort (`alternate`). When such a state is dead and the removal test,
//! the matching and the corral tests do not see it, its subtree fills the
//! best cell and the search stalls there: on Sasquatch I level 32 (with
//! the packing plan forced on), the best state, 8 of 14 boxes packed, is
//! dead, and a search of single pushes from it runs out after 3
//! expansions.
//!
//! So, before a state of the best non-empty cell is expanded, a small
//! forward search of single pushes (greedy on the bound, PI-corral
//! pruning, at most [`Config::prove`] states) is run from it. If that
//! search runs out, no solution passes through the state: it is closed
//! and never expanded. The search is exhaustive up to its limit with the
//! same sound pruning as every forward search, so this never cuts a
//! solvable state. The brute-force soundness test runs `fess` with it, and
//! a test below checks every position it proves dead on small boards
//! against an exhaustive search of pushes.

use super::*;

impl Searcher {
    /// Start this search afresh from `boxes` (any order) with the player
    /// on `player` (forward searches only): every stored state is dropped.
    /// `known`: the start's bound, when another search has it (the start
    /// is then taken as live: no bound and no removal test are computed).
    pub(super) fn restart(&mut self, boxes: &[u16], player: u16, known: Option<u32>) {
        self.nodes.clear();
        self.boxes.clear();
        self.table.clear();
        self.table.resize(1 << 12, super::table::EMPTY);
        self.table_count = 0;
        self.open.clear();
        self.macros.clear();
        self.fresh.clear();
        self.expanded = 0;
        self.add_root_with(boxes, player, known);
    }

    /// Forward search: of its `tries` nodes with the least bounds (least
    /// first, the first made on a tie), the first that a search of at
    /// most `limit` states ([`Searcher::runs_out`]) does not prove
    /// dead. Many of the nearest nodes are dead ends the search has
    /// already met (no live push when they were expanded, for instance):
    /// a node keeps the bound it was made with. A lazy child not popped
    /// has no bound of its own and is passed over; a deferred one has a
    /// lower bound of it ([`Config::defer`]).
    pub fn nearest_alive(&self, tries: usize, limit: u32) -> Option<NodeId> {
        if self.way != Way::Forward {
            return None;
        }
        let mut near: Vec<(u32, NodeId)> = (self.nodes.iter().enumerate())
            .filter(|(_, n)| n.h != DEAD_H && (!n.pending || self.cfg.defer))
            .map(|(i, n)| (n.h, i as NodeId))
            .collect();
        let k = tries.min(near.len());
        if k == 0 {
            return None;
        }
        near.select_nth_unstable(k - 1);
        near.truncate(k);
        near.sort_unstable();
        let mut prover = self.new_prover();
        near.into_iter().map(|(_, id)| id).find(|&id| {
            // A deferred child not popped has neither its removal test
            // nor its exact bound yet: the prover makes both.
            let n = self.nodes[id as usize];
            let known = (!n.pending).then_some(n.h);
            !prover.runs_out(self.node_boxes(id), n.player, known, limit)
        })
    }

    /// Whether node `id` is proved dead: a search of single pushes from it,
    /// at most [`Config::prove`] states, runs out.
    pub(super) fn proved_dead(&mut self, id: NodeId) -> bool {
        let mut boxes = std::mem::take(&mut self.cur);
        boxes.clear();
        boxes.extend_from_slice(self.node_boxes(id));
        let n = self.nodes[id as usize];
        let dead = self.position_dead(&boxes, n.player, Some(n.h), self.cfg.prove);
        self.cur = boxes;
        dead
    }

    /// Whether a search of single pushes from `boxes` with the player on
    /// `player`, storing at most `limit` states, runs out (the position is
    /// then dead). Reached goals and full searches say no.
    /// `known`: the position's bound, if known (see [`Searcher::restart`]).
    pub(super) fn position_dead(
        &mut self,
        boxes: &[u16],
        player: u16,
        known: Option<u32>,
        limit: u32,
    ) -> bool {
        let mut prover = match self.prover.take() {
            Some(p) => p,
            None => Box::new(self.new_prover()),
        };
        let dead = prover.runs_out(boxes, player, known, limit);
        self.proof_work += prover.nodes.len() as u64 + prover.expanded;
        self.prover = Some(prover);
        dead
    }

    /// A search that proves positions dead ([`Searcher::runs_out`]): this
    /// one's pruning, single pushes, greedy on the bound.
    fn new_prover(&self) -> Searcher {
        let cfg = Config {
            order: Order::Greedy,
            box_moves: false,
            macros: false,
            best_pops: 0,
            stall: 0,
            greedy: 0,
            hotspots: false,
            one_advice: false,
            stranded: 0,
            near: 0,
            lazy: false,
            defer: false,
            prove: 0,
            ..self.cfg
        };
        Searcher::new(Arc::clone(&self.sh), Way::Forward, cfg)
    }

    /// A prover ([`Searcher::new_prover`]) restarted from `boxes` with the
    /// player on `player`: whether it runs out within `limit` states (the
    /// position is then dead). Reached goals and full searches say no.
    fn runs_out(&mut self, boxes: &[u16], player: u16, known: Option<u32>, limit: u32) -> bool {
        self.cfg.max_nodes = limit.max(1) as usize;
        self.restart(boxes, player, known);
        // A root that is already solved is never dead (a greedy search only
        // tests the states it generates).
        !self.nodes.first().is_some_and(|_| self.is_goal(0))
            && loop {
                match self.step() {
                    Step::Continue => {}
                    Step::Exhausted => break true,
                    Step::Goal(_) | Step::Full => break false,
                }
            }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::exhaustive::{random_position, reaches, small_microban_boards};
    use super::super::fixtures;
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn positions_proved_dead_can_never_be_solved() {
        // Random positions on small Microban boards (boxes off dead
        // squares): whenever the proof says dead, no sequence of pushes
        // solves the position. Some of them the removal test alone lets
        // through.
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20);
        let (mut dead, mut beyond_removal, mut alive_unsolvable) = (0, 0, 0);
        for b in small_microban_boards() {
            let nb = b.start_boxes.len();
            let sh = fixtures::shared(b);
            let live: Vec<u16> = (0..sh.board.n as u16)
                .filter(|&c| !sh.fdist.dead[c as usize])
                .collect();
            let cfg = Config {
                prove: 16,
                ..fixtures::fess()
            };
            let mut s = Searcher::new(Arc::clone(&sh), Way::Forward, cfg);
            let mut sp = Space::new(sh.board.n);
            for _ in 0..200 {
                if live.len() <= nb {
                    break;
                }
                let (boxes, player) = random_position(&mut rng, sh.board.n, &live, nb);
                let proved = s.position_dead(&boxes, player, None, 16);
                let b = &sh.board;
                let solved = |_: u16, bx: &[u16]| bx.iter().all(|&c| b.is_goal[c as usize]);
                let solvable = reaches(b, &boxes, player, Way::Forward, 2_000_000, solved);
                if proved {
                    dead += 1;
                    assert!(
                        !solvable,
                        "proved dead, yet solvable: boxes {boxes:?}, player {player}"
                    );
                    sp.set(&boxes);
                    let stuck = sp.stuck_deadlock(&sh.board, &sh.fdist.dead, &boxes);
                    sp.clear(&boxes);
                    beyond_removal += usize::from(!stuck);
                } else if !solvable {
                    alive_unsolvable += 1;
                }
            }
        }
        assert!(dead > 50, "the sample has positions proved dead ({dead})");
        assert!(
            beyond_removal > 10,
            "some of them the removal test lets through ({beyond_removal})"
        );
        eprintln!("proved dead {dead} ({beyond_removal} beyond the removal test), unsolvable but not proved {alive_unsolvable}");
    }
}
