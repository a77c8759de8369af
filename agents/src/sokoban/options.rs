//! How to solve: the search methods ([`Method`]), the options of a solve
//! ([`SolveOptions`]) and their defaults.

/// The default [`SolveOptions::prepass`]: states stored by the
/// feature-space pre-pass of the bidirectional search.
pub const PREPASS: usize = 150_000;

/// Expansions of the bidirectional search before its pre-pass runs: most
/// levels it solves are solved by then, and pay nothing for the pre-pass
/// (on Microban, all but level 153).
pub const PREPASS_AFTER: u64 = 65_536;

/// The default [`SolveOptions::backward_share`]: the percentage of the
/// work the backward feature-space search gets beside the others (50
/// until Microban 153 was solved early by the opener following the
/// goals' forced order; 70 until the removal tests settled by the box
/// just moved made its work cheaper; 75 until one cut search per position
/// made its box moves cheaper again; 80 until the speed-ups of the
/// thirty-first session left it 60 to 70 % of the time for 80 % of the
/// work; see `docs/sokoban-solver-log.md`).
pub const BACKWARD_SHARE: u8 = 85;

/// The default [`SolveOptions::backward_best`]: of every 16 expansions of
/// the backward feature-space search, those from its best cell (most
/// boxes on the cells where boxes start, then the near and stranded
/// counts, then fewest regions). The forward search takes every other
/// one, as in FESS's engine; backward, the best cell is the better guide.
/// 14 of 16 from the twenty-eighth session; 12 since the thirty-sixth,
/// measured again with the stranded and near counts: `fess` backward
/// alone solves Sasquatch I 36 and 40 in 106,803 and 83,863 expansions
/// instead of 188,118 and 142,122, and the default solver 38 of
/// Sasquatch I instead of 37 (see `docs/sokoban-solver-log.md`, *The
/// backward search's best cell, measured again*).
pub const BACKWARD_BEST: u8 = 12;

/// The default [`SolveOptions::stall`]: after 1,000 pops without a node
/// that makes another cell the best, the backward feature-space search
/// takes its nodes from the cells in turn only, until one does. `fess`
/// backward alone, Sasquatch I 33, 36, 39, 40 and 42 in fewer expansions
/// (36 in 40,232 instead of 106,803), the default solver 39 of Sasquatch
/// I instead of 38 (see `docs/sokoban-solver-log.md`, *A stalled best
/// cell*). The forward searches never stall: in the pre-pass the rule
/// lost Sasquatch IV 24, solved in 1.6 s without it, and gained no level
/// of the seven sets (*The stall backward only*).
pub const STALL: u32 = 1000;

/// The default [`SolveOptions::greedy`]: of every 16 expansions, the
/// backward feature-space search takes this many as the open node of
/// least bound of all its cells, before the best cell's share and the
/// cells in turn (see `docs/sokoban-solver-log.md`, *Pops of least
/// bound*).
pub const GREEDY: u8 = 2;

/// The default [`SolveOptions::stranded`]: the backward feature-space
/// search counts the boxes stranded off the start cells (`strand.rs`) in
/// positions with at most this many boxes off them. On Sasquatch I, `fess`
/// backward alone: 39 in 94,771 expansions instead of 238,131 and 42 in
/// 125,662 instead of 165,939, 33 and 40 in 1.3 and 1.12 times as many;
/// counted in every position, it solves 25 but loses 40 (see
/// `docs/sokoban-solver-log.md`, *Boxes stranded off the start cells*).
pub const STRANDED: u8 = 4;

/// The default [`SolveOptions::near`]: the backward feature-space search's
/// packing feature counts, after the boxes on start cells, the boxes within
/// this many pulls of an empty start cell (`near.rs`; see
/// `docs/sokoban-solver-log.md`, *Boxes near an empty start cell*).
pub const NEAR: u8 = 5;

/// The default [`SolveOptions::portfolio`]: states the pre-pass may store
/// once it takes turns with the bidirectional search.
pub const PORTFOLIO: usize = 1_000_000;

/// The default [`SolveOptions::max_memory_mb`]: 4 GiB for a solve's
/// tables. At 10 s a level's solve takes at most about 1.3 GB on the
/// Sasquatch sets, at 60 s 2.4 GB (Sasquatch I 25); without a budget the
/// node limits of its searches would let it grow to several times that.
pub const MAX_MEMORY_MB: usize = 4096;

/// The default [`SolveOptions::prove`]: states stored by each dead-end
/// proof of the feature-space search.
pub const PROVE: u32 = 8;

/// The default [`SolveOptions::learn_nodes`]: positions stored by each
/// search for a learned deadlock pattern.
pub const LEARN: u32 = 500;

/// The [`SolveOptions::box_pulls`] measured in `docs/sokoban-solver-log.md`:
/// one box-pull expansion per 8 of the other two halves. Off by default
/// (see [`SolveOptions::box_pulls`]).
pub const BOX_PULLS: u64 = 8;

/// A search method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Breadth-first over push states: push-optimal.
    Bfs,
    /// A* on `pushes + lower bound`: push-optimal.
    AStar,
    /// Weighted A*: `g + weight · h`.
    WeightedAStar,
    /// Greedy best-first on the lower bound alone.
    Greedy,
    /// Bidirectional: forward push search and backward pull search.
    BiAStar,
    /// The feature-space search of `fess.rs` (after FESS): cells of boxes on
    /// goals and floor regions in turn.
    Fess,
}

impl Method {
    /// Every method, strongest first.
    pub const ALL: [Method; 6] = [
        Method::BiAStar,
        Method::Fess,
        Method::Greedy,
        Method::WeightedAStar,
        Method::AStar,
        Method::Bfs,
    ];

    /// The agent name.
    pub fn name(self) -> &'static str {
        match self {
            Method::Bfs => "bfs",
            Method::AStar => "astar",
            Method::WeightedAStar => "wastar",
            Method::Greedy => "greedy",
            Method::BiAStar => "biastar",
            Method::Fess => "fess",
        }
    }

    /// The method of an agent name.
    pub fn from_name(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// How to solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveOptions {
    /// The search method.
    pub method: Method,
    /// Count cost in moves instead of pushes (A*, weighted A*, BFS order by
    /// moves). Push-level search with exact player cells; slower.
    pub moves: bool,
    /// The weight of the heuristic in weighted A* and in both halves of
    /// the bidirectional search.
    pub weight: f64,
    /// Backward expansions per forward expansion in the bidirectional search.
    pub ratio: u32,
    /// PI-corral pruning (ignored when counting moves).
    pub pi_corrals: bool,
    /// States explored by each corral-deadlock search (0: off).
    pub corral_nodes: u32,
    /// States explored by each goal-zone deadlock search (`zone.rs`; 0:
    /// off).
    pub zone_nodes: u32,
    /// Positions stored by each search for a learned deadlock pattern
    /// (`learn.rs`; forward feature-space searches only; 0: off).
    pub learn_nodes: u32,
    /// The most states stored per search before giving up
    /// ([`SolveStatus::NodeLimit`](super::SolveStatus::NodeLimit)).
    pub max_nodes: usize,
    /// The memory budget of a solve, in MiB ([`MAX_MEMORY_MB`]): its
    /// searches' tables (states, their boxes, the transposition tables,
    /// the open lists) together. Every 64 expansions the solver looks at
    /// what they hold and at what the ones near their capacity would add
    /// by doubling, and gives up before that passes the budget
    /// ([`SolveStatus::MemoryLimit`](super::SolveStatus::MemoryLimit)).
    pub max_memory_mb: usize,
    /// Greedy only: also run a greedy search with goal macros from the
    /// goal-area packing orders, time-sliced with the plain one (off by
    /// default: on Microban, Microban II and Sasquatch I it costs more time
    /// than it saves).
    pub macros: bool,
    /// Feature-space search: a move takes one box to any cell it can be
    /// pushed to (on by default for [`Method::Fess`]; other methods ignore
    /// it).
    pub box_moves: bool,
    /// Feature-space search (and the bidirectional search's pre-pass):
    /// every other expansion comes from the best non-empty cell of the
    /// feature space (most boxes on goals, then fewest regions), as in
    /// FESS; the others visit the cells in turn (on by default).
    pub alternate: bool,
    /// Feature-space search (and the pre-pass): FESS's hotspot advisor
    /// also recommends moves that lower the number of hotspots (boxes that
    /// take goals away from other boxes, see `hotspot.rs`). Off by default:
    /// on Sasquatch I it loses level 46 and gains none.
    pub hotspots: bool,
    /// Feature-space search (and the pre-pass): FESS's *opener* advisor
    /// also recommends one move of each state: of the moves that keep its
    /// packing and add to none of its connectivity features, the one that
    /// takes the box nearest the packing plan's next cell (when that is
    /// free) farthest away from it (`fess::opener`). At every step of a
    /// plan that parks a box (when `plan` is on too); on other levels only
    /// at the steps whose goal is in the goals' forced fill order
    /// (`order.rs`: a box on one goal would shut off another). On by
    /// default: on the seven Sasquatch sets it gains Sasquatch I 17 and
    /// loses none, and the forced order takes Microban 153 from 7.9 to
    /// 2.3 s (`docs/sokoban-solver-log.md`).
    pub opener: bool,
    /// Feature-space search: a third feature, the boxes *out of plan*
    /// (after FESS's): boxes on cells from which no goal that the level's
    /// packing plan has not yet filled can be reached any more, with the
    /// goals it has filled as walls (`plan.rs`, `PackingPlan::out_of_plan`).
    /// Fewer is better, after fewer regions; a move that lowers it without
    /// adding regions is advised.
    pub oop: bool,
    /// Feature-space search (and the pre-pass): a feature after the
    /// regions, before the boxes out of plan: FESS's *room connectivity*,
    /// how many pairs of the level's rooms (floor made of 2×2 blocks)
    /// connected on the empty level the boxes disconnect (`rooms.rs`).
    /// Fewer is better; a move that lowers it without adding regions is
    /// advised. Off by default: on the seven Sasquatch sets it gains four
    /// levels and loses four (see `docs/sokoban-solver-log.md`).
    pub rooms: bool,
    /// Feature-space search (and the pre-pass): each advisor recommends at
    /// most one move of a state, as in FESS (see `fess::advise`). Off, the
    /// default: every move that puts a box on a goal or joins two regions
    /// is free. Each solves levels the other does not (see
    /// `docs/sokoban-solver-log.md`, *One move per advisor*).
    pub one_advice: bool,
    /// Feature-space search (and the pre-pass): *lazy children*. A child's
    /// removal test and lower bound are made when it is popped, not when
    /// it is made; until then it is queued with its parent's bound. Most
    /// children are never popped (with box moves, about 90 stored per
    /// expansion), so this expands about a third more states in the same
    /// time, but siblings lose their order by bound. Off by default: it
    /// solved 184 of the Sasquatch sets' 350 against 186 (see
    /// `docs/sokoban-solver-log.md`, *Lazy children*).
    pub lazy: bool,
    /// Feature-space searches, forward and backward (the pre-pass, and
    /// the backward search beside the others): *deferred tests*. A
    /// child's removal test (forward with the sealed-goal and goal-zone
    /// tests; backward the pull removal test and the pocket search) and
    /// its exact bound are made when it is popped, or when an
    /// advisor's single pick or the queue's cells depend on whether it is
    /// alive; until then it is queued with a lower bound of its bound.
    /// The learned patterns are still looked at when it is made. The
    /// search expands the same states in the same order, and most
    /// children are never popped (see `docs/sokoban-solver-log.md`, *Removal
    /// tests when a child is popped*). On by default; ignored with
    /// `lazy`.
    pub defer: bool,
    /// Feature-space search (and the pre-pass, until it takes turns with
    /// the bidirectional search): *dead-end proofs*. With `alternate`,
    /// before a state of the best non-empty cell is expanded, a search of
    /// single pushes that stores at most this many states runs from it; if
    /// it runs out, the state is dead and is not expanded
    /// (`search/prove.rs`; 0: off). On Sasquatch I it solves level 32.
    pub prove: u32,
    /// Feature-space search (and the pre-pass): when the level's packing
    /// plan (`plan.rs`, after FESS's) parks some box, the packing feature
    /// counts the progress along the plan first, then the boxes on goals
    /// (on by default). A plan that parks no box is not used: on
    /// Sasquatch I it lost level 46 and gained none.
    pub plan: bool,
    /// Bidirectional search: after its first `prepass_after` expansions,
    /// run a feature-space search with box moves that stores at most this
    /// many states (0: none; twice as many when it follows a packing plan,
    /// see [`SolveOptions::plan`]), then go on. It solves some goal-room
    /// levels in a few thousand expansions that the bidirectional search
    /// cannot solve at all; where it fails it costs one or two seconds.
    pub prepass: usize,
    /// Bidirectional search: its expansions before the pre-pass runs
    /// ([`PREPASS_AFTER`]).
    pub prepass_after: u64,
    /// Bidirectional search: when the pre-pass fills its budget without a
    /// solution, it is kept and goes on until it stores this many states
    /// ([`PORTFOLIO`]), taking turns with the bidirectional search: two
    /// turns' work for the bidirectional search, then one for the
    /// pre-pass. Work is counted in states stored plus states expanded,
    /// not in time, so the turns do not depend on the machine's speed or
    /// load. 0: the pre-pass stops at its budget.
    pub portfolio: usize,
    /// Bidirectional search: after the pre-pass, a second backward half
    /// whose moves pull whole boxes (one box to any cell it can be pulled
    /// to) meets the same forward half, with one expansion per this many
    /// of the other two halves (its expansions cost about three times as
    /// much; [`BOX_PULLS`] was measured). 0, the default: none. It solves
    /// levels that single pulls do not (Sasquatch II 27, V 23), but the
    /// time it takes makes some of the slowest levels the default solves
    /// time out.
    pub box_pulls: u64,
    /// [`Method::Fess`]: search backward, by box pulls from the solved
    /// positions (one root per player region) until the start is reached;
    /// its packing feature counts the boxes on cells where boxes start.
    /// Off by default.
    pub backward: bool,
    /// Bidirectional search: once the pre-pass has stopped or filled its
    /// budget, a backward feature-space search with box pulls
    /// ([`SolveOptions::backward`]) runs beside the others, with this
    /// percentage of the work done from then on ([`BACKWARD_SHARE`]; 0:
    /// none). It solves levels where emptying the goals is easier than
    /// filling them (see `docs/sokoban-solver-log.md`, *The backward
    /// feature-space search*).
    pub backward_share: u8,
    /// The backward feature-space search (alone, or beside the others):
    /// with [`SolveOptions::alternate`], of every 16 expansions, this
    /// many come from its best cell ([`BACKWARD_BEST`]; the forward search
    /// takes every other one).
    pub backward_best: u8,
    /// The backward feature-space search (alone, or beside the others):
    /// after this many pops without a node that makes another cell the
    /// best, the best cell has stalled and every pop takes the cells in
    /// turn, until a node makes another cell the best ([`STALL`]; 0:
    /// never). The forward searches' best cell never stalls.
    pub stall: u32,
    /// The backward feature-space search (alone, or beside the others):
    /// of every 16 expansions, this many take the open node of least
    /// bound of all its cells, then least path weight ([`GREEDY`]; 0:
    /// none). The forward searches take none.
    pub greedy: u8,
    /// The backward feature-space search, with [`SolveOptions::greedy`]:
    /// a child of a pop of least bound that would open a cell more than
    /// one box on a start cell below the best cell's (the boxes near an
    /// empty start cell counted after) is kept among the nodes by bound
    /// only (true; false: it opens its cell). See
    /// `docs/sokoban-solver-log.md`, *No new cells far below the best*.
    pub park: bool,
    /// The backward feature-space search (alone, or beside the others):
    /// in positions with at most this many boxes off the start cells, the
    /// boxes stranded there (no lone box could be pulled from their cells
    /// onto an empty start cell, `strand.rs`) rank before the regions:
    /// fewer is better ([`STRANDED`]; 0: not counted).
    pub stranded: u8,
    /// The backward feature-space search (alone, or beside the others):
    /// its packing feature counts the boxes on start cells, then the boxes
    /// off them that a lone box could be pulled from onto an empty start
    /// cell in at most this many pulls, walls only (`near.rs`); a move that
    /// raises either is advised ([`NEAR`]; 0: not counted).
    pub near: u8,
    /// Bidirectional search: after its first [`SolveOptions::prepass_after`]
    /// expansions, before the pre-pass, a serial decomposition
    /// (`decompose.rs`): a level whose goals fall into separate areas is
    /// solved area by area, the others' boxes as walls.
    pub serial: bool,
    /// The player must end in the region of this grid cell (a floor cell
    /// that is not a goal; otherwise ignored), the boxes on the goals.
    /// None, the default: anywhere. The decomposition sets it for its
    /// parts; the forward half's PI-corral pruning is then off (its
    /// reordering argument ignores where the player ends).
    pub end: Option<usize>,
    /// [`solve`](super::solve) out of time or of states: report how far
    /// the search got ([`SolveResult::least`](super::SolveResult::least),
    /// up to 64 small proofs per search after the time is up). Off by
    /// default.
    pub nearest: bool,
}

/// The default is the strongest method: [`Method::BiAStar`] with weight 3
/// and ratio 1 (the course report's bidirectional weighted A*, with the
/// pruning of `search.rs` and `prune.rs`).
impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            method: Method::BiAStar,
            moves: false,
            weight: 3.0,
            ratio: 1,
            pi_corrals: true,
            corral_nodes: 20,
            zone_nodes: 500,
            learn_nodes: LEARN,
            max_nodes: 20_000_000,
            max_memory_mb: MAX_MEMORY_MB,
            macros: false,
            box_moves: false,
            alternate: true,
            hotspots: false,
            opener: true,
            oop: true,
            rooms: false,
            one_advice: false,
            lazy: false,
            defer: true,
            prove: PROVE,
            plan: true,
            prepass: PREPASS,
            prepass_after: PREPASS_AFTER,
            portfolio: PORTFOLIO,
            box_pulls: 0,
            backward: false,
            backward_share: BACKWARD_SHARE,
            backward_best: BACKWARD_BEST,
            stall: STALL,
            greedy: GREEDY,
            park: true,
            stranded: STRANDED,
            near: NEAR,
            serial: true,
            end: None,
            nearest: false,
        }
    }
}

impl SolveOptions {
    /// The default options with another method (and its usual weight: 3
    /// for weighted A* and the bidirectional search, else 1).
    pub fn with_method(method: Method) -> Self {
        SolveOptions {
            method,
            weight: match method {
                Method::WeightedAStar | Method::BiAStar => 3.0,
                _ => 1.0,
            },
            box_moves: method == Method::Fess,
            ..SolveOptions::default()
        }
    }

    /// Of every 16 expansions of a feature-space search (backward or
    /// forward), those from its best cell: with
    /// [`SolveOptions::alternate`], [`SolveOptions::backward_best`]
    /// backward and every other one forward; without, none.
    pub(crate) fn best_pops(&self, backward: bool) -> u8 {
        match (self.alternate, backward) {
            (false, _) => 0,
            (true, false) => super::fess::FORWARD_BEST,
            (true, true) => self.backward_best,
        }
    }

    /// The pops after which a feature-space search's best cell has
    /// stalled ([`SolveOptions::stall`]): backward, `stall`; forward,
    /// never (0).
    pub(crate) fn stall_after(&self, backward: bool) -> u32 {
        if backward {
            self.stall
        } else {
            0
        }
    }

    /// Of every 16 expansions of a feature-space search, those that take
    /// the open node of least bound ([`SolveOptions::greedy`]): backward,
    /// `greedy`; forward, none.
    pub(crate) fn greedy_pops(&self, backward: bool) -> u8 {
        if backward {
            self.greedy
        } else {
            0
        }
    }
}
