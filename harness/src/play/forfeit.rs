//! Forfeits after repeated timeouts (config key `forfeit_after_timeouts`,
//! `[grading] forfeit_after_timeouts` in an assignment): once K of an
//! agent's games in a row (in episode order) ended in a `timeout` of its
//! own, its remaining games are recorded as lost ([`Outcome::Forfeited`])
//! without being played, so that an agent that hangs does not cost the
//! waiting limit in every one of its games.
//!
//! The rule is a function of the episodes' order and the outcomes of the
//! games played, never of which finished first: an agent's game is
//! forfeited when, among its games of lower index, K consecutive ones
//! ended in its timeout (a game it forfeited counts as one; a game its
//! opponent forfeited does not). [`Forfeits`] applies it while episodes
//! are played concurrently: a game certain to be forfeited (K consecutive
//! timeouts already recorded before it) is not played
//! ([`Forfeits::certain`]); a finished game is recorded only once its fate
//! is known ([`Forfeits::fate`]: an earlier game of its agents may still be
//! playing), and replaced by a forfeit if the rule says so (a game that
//! began before the timeouts that forfeit it were known is played in vain,
//! but recorded the same as if it had not been), and only recorded games
//! count. The games counted are those of the run (a shard counts its own
//! part of the plan), those recorded before an interruption included.

use crate::play::outcome::Outcome;
use crate::play::schedule::Episode;
use std::collections::HashMap;

/// What one of an agent's games said about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    /// Not finished yet.
    Unknown,
    /// It ended in the agent's timeout.
    Timeout,
    /// It was played and did not.
    Other,
    /// It was forfeited (so an earlier run of timeouts exists).
    Forfeited,
}

/// One agent's games in episode order, with what is known of each.
#[derive(Debug, Default)]
struct Games {
    /// Episode indices, ascending.
    episodes: Vec<usize>,
    status: Vec<Status>,
}

/// The forfeit rule over one run's episodes (see the module docs).
#[derive(Debug)]
pub struct Forfeits {
    k: usize,
    agents: HashMap<usize, Games>,
}

impl Forfeits {
    /// The rule "forfeit after `k` consecutive timeouts" (`k` at least 1)
    /// over the run's `episodes` (played or to play, any order).
    pub fn new<'a>(k: u32, episodes: impl IntoIterator<Item = &'a Episode>) -> Forfeits {
        let mut agents: HashMap<usize, Games> = HashMap::new();
        for ep in episodes {
            let mut seen = Vec::new();
            for &a in &ep.seats {
                if !seen.contains(&a) {
                    seen.push(a);
                    agents.entry(a).or_default().episodes.push(ep.index);
                }
            }
        }
        for g in agents.values_mut() {
            g.episodes.sort_unstable();
            g.episodes.dedup();
            g.status = vec![Status::Unknown; g.episodes.len()];
        }
        Forfeits {
            k: k.max(1) as usize,
            agents,
        }
    }

    /// Note episode `index`'s record as it is written (played, or
    /// forfeited once [`Forfeits::fate`] said so) by its seats' agents and
    /// outcomes: what it says of each of its agents.
    pub fn note(&mut self, index: usize, seats: impl IntoIterator<Item = (usize, Outcome)>) {
        for (agent, outcome) in seats {
            let Some(g) = self.agents.get_mut(&agent) else {
                continue;
            };
            let Ok(i) = g.episodes.binary_search(&index) else {
                continue;
            };
            let now = match outcome {
                Outcome::Forfeited => Status::Forfeited,
                Outcome::Timeout => Status::Timeout,
                _ => Status::Other,
            };
            // An agent in two seats: a timeout in either counts.
            if g.status[i] != Status::Timeout {
                g.status[i] = now;
            }
        }
    }

    /// Whether agent `agent`'s game in episode `index` is forfeited:
    /// `Some(true)` if it is, `Some(false)` if it is not, `None` while an
    /// earlier game of the agent that could decide it has not finished.
    fn agent_fate(&self, agent: usize, index: usize) -> Option<bool> {
        let Some(g) = self.agents.get(&agent) else {
            return Some(false);
        };
        let before = g.episodes.partition_point(|&e| e < index);
        // The longest run of timeouts ending here, known for sure and
        // possible (unfinished games counted as timeouts).
        let (mut sure, mut possible, mut open) = (0, 0, false);
        for s in &g.status[..before] {
            match s {
                Status::Forfeited => return Some(true),
                Status::Timeout => {
                    sure += 1;
                    possible += 1;
                }
                Status::Unknown => {
                    sure = 0;
                    possible += 1;
                }
                Status::Other => {
                    sure = 0;
                    possible = 0;
                }
            }
            if sure >= self.k {
                return Some(true);
            }
            open |= possible >= self.k;
        }
        (!open).then_some(false)
    }

    /// The agents of episode `ep` whose game in it is forfeited, once that
    /// is known for every one of them (`None` before).
    pub fn fate(&self, ep: &Episode) -> Option<Vec<usize>> {
        let mut out = Vec::new();
        for &a in &ep.seats {
            if self.agent_fate(a, ep.index)? && !out.contains(&a) {
                out.push(a);
            }
        }
        Some(out)
    }

    /// The agents of episode `ep` whose game in it is certainly forfeited
    /// by what is known now (empty: play it).
    pub fn certain(&self, ep: &Episode) -> Vec<usize> {
        let mut out = Vec::new();
        for &a in &ep.seats {
            if self.agent_fate(a, ep.index) == Some(true) && !out.contains(&a) {
                out.push(a);
            }
        }
        out
    }

    /// The K of the rule.
    pub fn k(&self) -> usize {
        self.k
    }
}

/// The detail of a game that `label` forfeits under the rule with `k`.
pub fn detail(label: &str, k: usize) -> String {
    format!(
        "not played: {label} timed out in {k} games in a row (forfeit_after_timeouts = {k}), \
         so its remaining games are lost unplayed"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ep(index: usize, seats: &[usize]) -> Episode {
        Episode {
            index,
            level: "0".into(),
            repetition: 0,
            seats: seats.to_vec(),
            seed: 0,
            pair: None,
        }
    }

    /// Note episode `index`, whose `seats` had `outcomes`.
    fn note(f: &mut Forfeits, index: usize, seats: &[usize], outcomes: &[Outcome]) {
        f.note(index, seats.iter().copied().zip(outcomes.iter().copied()));
    }

    use Outcome::{Normal as N, Timeout as T};

    #[test]
    fn after_k_timeouts_in_a_row_the_rest_is_forfeited_whatever_the_order_of_finishing() {
        // Agent 0 against agent 1 in episodes 0..8; agent 0 times out in
        // 1, 2 and 4, 5, 6: forfeits from episode 7 on.
        let eps: Vec<Episode> = (0..9).map(|i| ep(i, &[0, 1])).collect();
        let outcome = |i: usize| if [1, 2, 4, 5, 6].contains(&i) { T } else { N };
        let mut f = Forfeits::new(3, &eps);
        // Finishing out of order: 6, 5, 4 first.
        for i in [6, 5, 4] {
            note(&mut f, i, &[0, 1], &[outcome(i), N]);
        }
        // Episode 7 is certain (4, 5, 6 in a row), the others not yet:
        // an unfinished 3 could be a timeout making 1..3 a run.
        assert_eq!(f.certain(&eps[7]), vec![0]);
        // Not yet its whole fate: agent 1's games 0..3 are unknown, and
        // could be its own timeouts.
        assert_eq!(f.fate(&eps[8]), None);
        assert_eq!(f.fate(&eps[4]), None);
        assert_eq!(f.certain(&eps[4]), Vec::<usize>::new());
        for i in [0, 1, 2] {
            note(&mut f, i, &[0, 1], &[outcome(i), N]);
        }
        assert_eq!(f.fate(&eps[3]), Some(vec![]));
        assert_eq!(f.fate(&eps[4]), None, "3 still unknown");
        note(&mut f, 3, &[0, 1], &[N, N]);
        for e in &eps[..7] {
            assert_eq!(f.fate(e), Some(vec![]), "episode {}", e.index);
        }
        assert_eq!(f.fate(&eps[7]), Some(vec![0]));
        assert_eq!(f.fate(&eps[8]), Some(vec![0]));
        // A forfeited game is known as such, and forfeits what follows.
        let mut g = Forfeits::new(3, &eps);
        note(&mut g, 0, &[0, 1], &[Outcome::Forfeited, N]);
        assert_eq!(g.fate(&eps[1]), Some(vec![0]));
        // Agent 1 is never forfeited; an agent's timeouts in other
        // agents' games do not count.
        assert_eq!(f.agent_fate(1, 8), Some(false));
    }

    #[test]
    fn a_run_is_counted_in_the_agents_own_games_and_seats() {
        // Three agents round robin; agent 2 times out in all its games.
        let eps = [
            ep(0, &[0, 1]),
            ep(1, &[0, 2]),
            ep(2, &[2, 1]),
            ep(3, &[1, 0]),
            ep(4, &[2, 0]),
            ep(5, &[1, 2]),
        ];
        let mut f = Forfeits::new(2, &eps);
        note(&mut f, 0, &[0, 1], &[N, N]);
        note(&mut f, 1, &[0, 2], &[N, T]);
        note(&mut f, 2, &[2, 1], &[T, N]);
        note(&mut f, 3, &[1, 0], &[N, N]);
        assert_eq!(f.fate(&eps[4]), Some(vec![2]));
        assert_eq!(f.fate(&eps[5]), Some(vec![2]));
        assert_eq!(f.k(), 2);
        assert_eq!(
            detail("agent2", 2),
            "not played: agent2 timed out in 2 games in a row (forfeit_after_timeouts = 2), so \
             its remaining games are lost unplayed"
        );
    }
}
