//! The learned deadlock patterns' side of a [`Searcher`] (`learn.rs`):
//! subtree sizes, learning from a state whose subtree has grown to
//! [`Config::learn_at`] expansions, and closing the states below one proved
//! dead.

use super::*;

/// The subtree size of a state proved dead by a learned pattern.
const DOOMED: u32 = u32::MAX;

impl Searcher {
    /// With learning on, before node `id` is expanded: whether it is dead,
    /// because it holds a learned pattern or lies below a state proved dead
    /// by one (a state reached from a dead state is dead). Else its
    /// expansion counts in the subtree of every state on its path, and a
    /// state whose subtree reaches [`Config::learn_at`] is searched for a
    /// pattern;
    /// `true` when one is found (`id` lies below that state).
    pub(super) fn doomed(&mut self, id: NodeId) -> bool {
        if self.prune.learner.is_none() {
            return false;
        }
        if self
            .prune
            .learned_dead(self.node_boxes(id), self.nodes[id as usize].player)
        {
            return true;
        }
        if self.sub.len() < self.nodes.len() {
            self.sub.resize(self.nodes.len(), 0);
        }
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        let mut a = id;
        while a != NO_NODE {
            if self.sub[a as usize] == DOOMED {
                self.path = path;
                return true;
            }
            path.push(a);
            a = self.nodes[a as usize].parent;
        }
        let mut dead = false;
        for &a in &path {
            self.sub[a as usize] += 1;
            if self.sub[a as usize] != self.cfg.learn_at {
                continue;
            }
            let sh = Arc::clone(&self.sh);
            let base = a as usize * self.nb;
            let boxes = &self.boxes[base..base + self.nb];
            let player = self.nodes[a as usize].player;
            let learner = self.prune.learner.as_mut().expect("learning is on");
            if learner.learn(&sh.board, &sh.fdist.dead, boxes, player) {
                self.sub[a as usize] = DOOMED;
                dead = true;
            }
        }
        self.path = path;
        dead
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::exhaustive::microban_boards;
    use super::super::fixtures;
    use super::*;

    /// `fess` learning at every state whose subtree reaches 2 expansions,
    /// on Microban levels: every level is still solved, and no position on
    /// the solution found holds a pattern learned on the way (a pattern
    /// that did would be unsound, and so would a state closed below it).
    #[test]
    fn learning_never_closes_a_position_of_a_solution() {
        let (mut solved, mut patterns) = (0, 0);
        for b in microban_boards(12, 150, 80) {
            let sh = fixtures::shared(b);
            let cfg = Config {
                learn_nodes: 500,
                learn_at: 2,
                max_nodes: 200_000,
                ..fixtures::fess()
            };
            let mut s = Searcher::new(Arc::clone(&sh), Way::Forward, cfg);
            let goal = loop {
                match s.step() {
                    Step::Continue => {}
                    Step::Goal(id) => break id,
                    other => panic!("not solved: {other:?}\n{:?}", sh.board.start_boxes),
                }
            };
            solved += 1;
            let learner = s.prune.learner.as_ref().expect("learning is on");
            patterns += learner.len();
            let b = &sh.board;
            let mut boxes = b.start_boxes.clone();
            for (c, d) in s.path(goal) {
                let i = boxes.iter().position(|&x| x == c).expect("a box to push");
                boxes[i] = b.nbr[c as usize][d as usize];
                boxes.sort_unstable();
                assert!(
                    !learner.matches(&boxes, c),
                    "a position of the solution holds a learned pattern: {boxes:?}, player {c}"
                );
            }
        }
        eprintln!("{solved} levels solved, {patterns} patterns learned");
        assert!(patterns >= 20, "only {patterns} patterns learned");
    }
}
