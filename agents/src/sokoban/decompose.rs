//! Serial decomposition, a pre-pass of the bidirectional search for levels
//! whose goals fall into separate areas, each with boxes of its own.
//!
//! The search drowns in the interleavings of parts that do not interact:
//! the four quadrants of Sasquatch I level 5 are solved alone after a few
//! hundred expansions each, the whole level not in 10 s. So the parts are
//! solved one after the other: one part's boxes and goals, with the boxes
//! of the parts not yet solved as walls and those of the parts already
//! solved kept as boxes (on their goals, where they must be again at the
//! end). Every part but the last must also leave the player in the region
//! of its start cell ([`SolveOptions::end`]), or a packed goal room would
//! shut the player in. A part that fails within its budget is tried again
//! later, after the others. The method is incomplete: it never proves a
//! level unsolvable, and it gives up after [`SERIAL_BUDGET`] expansions.

use super::memory::Footprint;
use super::{SolveOptions, SolveStatus, Solver};
use games::sokoban::{replay_to, Dir, Level};

/// Expansions one attempt at one part may take (Sasquatch I 12 has a part
/// that needs 56,000; 100,000 gained no level).
pub const PART_BUDGET: u64 = 60_000;

/// Expansions all the attempts of one level may take together (Sasquatch
/// II 24 takes 103,000: a first attempt that fails, then its two parts;
/// 400,000 gained no level).
pub const SERIAL_BUDGET: u64 = 200_000;

/// One part: the grid cells of a goal area and of the boxes given to it.
#[derive(Clone, Debug)]
struct Part {
    goals: Vec<usize>,
    boxes: Vec<usize>,
}

/// The state of a serial solve ([`Serial::step`]).
pub(super) struct Serial {
    /// The position reached so far.
    now: Level,
    /// The start player's cell.
    end: usize,
    /// Goals of the parts solved so far (their boxes stay boxes).
    solved: Vec<usize>,
    /// Parts not solved yet, in the order they are tried.
    left: Vec<Part>,
    /// Parts of `left` that failed since the last one was solved.
    failed: usize,
    /// The attempt under way.
    cur: Option<Box<Solver>>,
    /// Expansions of the attempt under way.
    cur_spent: u64,
    /// Moves so far.
    lurd: String,
    /// Expansions of all attempts.
    pub expanded: u64,
}

/// What one [`Serial::step`] came to.
pub(super) enum SerialStep {
    Running,
    /// The whole level is solved: these moves from the start.
    Solved(String),
    /// No part can be solved within its budget, or the budget is spent.
    GaveUp,
}

impl Serial {
    /// A serial solve of `level`, or `None` when it does not fall into at
    /// least two parts with a box off its goal.
    pub fn new(level: &Level) -> Option<Serial> {
        let parts = parts(level)?;
        let (solved, left): (Vec<Part>, Vec<Part>) = parts
            .into_iter()
            .partition(|p| p.boxes.iter().all(|b| level.goals[*b]));
        if left.len() < 2 {
            return None;
        }
        Some(Serial {
            now: level.clone(),
            end: level.player,
            solved: solved.into_iter().flat_map(|p| p.goals).collect(),
            left,
            failed: 0,
            cur: None,
            cur_spent: 0,
            lurd: String::new(),
            expanded: 0,
        })
    }

    /// The bytes of the tables of the attempt under way ([`Footprint`]).
    pub fn footprint(&self) -> Footprint {
        self.cur.as_ref().map(|s| s.footprint()).unwrap_or_default()
    }

    /// Work on for about `budget` expansions.
    pub fn step(&mut self, budget: u64) -> SerialStep {
        if self.expanded >= SERIAL_BUDGET || self.failed >= self.left.len() {
            return SerialStep::GaveUp;
        }
        let mut sub = match self.cur.take() {
            Some(s) => s,
            None => {
                self.cur_spent = 0;
                Box::new(self.attempt())
            }
        };
        let before = sub.expanded();
        let polls = budget.div_ceil(super::POLL).max(1);
        let mut calls = 0;
        let finished = sub.run_while(&mut || {
            calls += 1;
            calls <= polls
        });
        let spent = sub.expanded() - before;
        self.expanded += spent;
        self.cur_spent += spent;
        if !finished {
            if self.cur_spent < PART_BUDGET {
                self.cur = Some(sub);
            } else {
                self.failed += 1;
            }
            return SerialStep::Running;
        }
        let r = sub.result();
        match (r.status, r.solution) {
            (SolveStatus::Solved, Some(moves)) => {
                let part = self.left.remove(self.failed);
                // The independent replay plays the part's moves; they are
                // legal (a failure would be a solver bug: giving up keeps
                // the result sound).
                let Ok((_, end)) = replay_to(&self.now, &moves) else {
                    return SerialStep::GaveUp;
                };
                self.now = end;
                self.lurd.push_str(&moves);
                self.solved.extend(part.goals);
                self.failed = 0;
                if self.left.is_empty() {
                    return SerialStep::Solved(std::mem::take(&mut self.lurd));
                }
            }
            _ => self.failed += 1,
        }
        SerialStep::Running
    }

    /// A solver for part `self.failed` of `left` from the position reached.
    fn attempt(&self) -> Solver {
        let part = &self.left[self.failed];
        let mut lv = self.now.clone();
        lv.goals.iter_mut().for_each(|g| *g = false);
        for &g in self.solved.iter().chain(&part.goals) {
            lv.goals[g] = true;
        }
        for (k, other) in self.left.iter().enumerate() {
            if k != self.failed {
                for &b in &other.boxes {
                    lv.boxes[b] = false;
                    lv.walls[b] = true;
                }
            }
        }
        let last = self.left.len() == 1;
        let end = (!last && !lv.walls[self.end] && !lv.goals[self.end]).then_some(self.end);
        // One part has boxes off its goals: nothing to decompose again.
        let opts = SolveOptions {
            prepass: 0,
            backward_share: 0,
            serial: false,
            end,
            ..SolveOptions::default()
        };
        Solver::new(&lv, &opts)
    }
}

/// The goal areas of `level` (goal cells joined side by side), each with
/// the boxes nearest to it by walking distance; `None` unless every area
/// gets as many boxes as it has goals.
fn parts(level: &Level) -> Option<Vec<Part>> {
    let (w, h, n) = (level.width, level.height, level.num_cells());
    let nbrs = |c: usize| {
        [Dir::Left, Dir::Right, Dir::Up, Dir::Down]
            .into_iter()
            .filter_map(move |d| d.step(c, w, h))
    };
    // Goal areas.
    let mut area = vec![usize::MAX; n];
    let mut parts: Vec<Part> = Vec::new();
    for g in 0..n {
        if !level.goals[g] || area[g] != usize::MAX {
            continue;
        }
        let k = parts.len();
        let mut goals = vec![g];
        area[g] = k;
        let mut i = 0;
        while i < goals.len() {
            for y in nbrs(goals[i]) {
                if level.goals[y] && area[y] == usize::MAX {
                    area[y] = k;
                    goals.push(y);
                }
            }
            i += 1;
        }
        goals.sort_unstable();
        parts.push(Part {
            goals,
            boxes: Vec::new(),
        });
    }
    if parts.len() < 2 {
        return None;
    }
    // Each floor cell's nearest area (breadth-first from all goals at
    // once, the walls in the way; ties go to the area met first).
    let mut near = area.clone();
    let mut queue: Vec<usize> = (0..n).filter(|&c| level.goals[c]).collect();
    let mut i = 0;
    while i < queue.len() {
        let x = queue[i];
        i += 1;
        for y in nbrs(x) {
            if !level.walls[y] && near[y] == usize::MAX {
                near[y] = near[x];
                queue.push(y);
            }
        }
    }
    for c in (0..n).filter(|&c| level.boxes[c]) {
        let k = near[c];
        if k == usize::MAX {
            return None;
        }
        parts[k].boxes.push(c);
    }
    parts
        .iter()
        .all(|p| p.boxes.len() == p.goals.len())
        .then_some(parts)
}
