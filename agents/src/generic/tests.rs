//! Tests of the generic agents on two tiny alternating games written here
//! (Nim and tic-tac-toe), on Snake (simultaneous), on Bait (a puzzle) and
//! on Xiangqi (a smoke test), plus the registry's errors.

use super::*;
use crate::params::ParamValue;
use games::bait::Bait;
use games::snake::{generate_map, Snake};
use games::xiangqi::Xiangqi;
use games::{PlayerResult, StepTimer, UnlimitedTimer};
use std::time::Duration;

// ---------------------------------------------------------------------------
// Two tiny alternating games.

/// Nim with one pile: take 1 to 3 stones; whoever takes the last one wins.
/// A pile that is a multiple of 4 is lost for the side to move.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Nim {
    pile: u32,
    to_move: usize,
    tick: u32,
}

impl Nim {
    fn new(pile: u32) -> Self {
        Nim {
            pile,
            to_move: 0,
            tick: 0,
        }
    }
}

impl Game for Nim {
    type Action = u32;
    fn num_players(&self) -> usize {
        2
    }
    fn is_active(&self, seat: Seat) -> bool {
        self.pile > 0 && seat == self.to_move
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<u32>) {
        if self.is_active(seat) {
            out.extend((1..=3).filter(|&k| k <= self.pile));
        }
    }
    fn fallback_action(&self, _seat: Seat) -> u32 {
        1
    }
    fn advance(&mut self, joint: &[u32]) {
        let k = joint[self.to_move].clamp(1, 3).min(self.pile);
        self.pile -= k;
        self.tick += 1;
        if self.pile > 0 {
            self.to_move = 1 - self.to_move;
        }
    }
    fn is_over(&self) -> bool {
        self.pile == 0
    }
    fn score(&self, _seat: Seat) -> f64 {
        0.0
    }
    /// The side that moved last (`to_move` stays on it) took the last stone.
    fn result(&self, seat: Seat) -> PlayerResult {
        match (self.pile, seat == self.to_move) {
            (0, true) => PlayerResult::Win,
            (0, false) => PlayerResult::Loss,
            _ => PlayerResult::Ongoing,
        }
    }
    fn tick(&self) -> u32 {
        self.tick
    }
    fn action_name(&self, action: u32) -> String {
        action.to_string()
    }
    fn parse_action(&self, _seat: Seat, text: &str) -> Option<u32> {
        text.parse().ok()
    }
}

/// Tic-tac-toe: seat 0 plays X and starts; cells 0..9 row by row.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Ttt {
    /// 0 empty, 1 X (seat 0), 2 O (seat 1).
    cells: [u8; 9],
    tick: u32,
}

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl Ttt {
    /// A position from a 9-character string of `x`, `o` and `.`; the side
    /// to move follows from the counts.
    fn parse(text: &str) -> Self {
        let mut cells = [0u8; 9];
        let mut tick = 0;
        for (i, ch) in text.chars().enumerate() {
            cells[i] = match ch {
                'x' => 1,
                'o' => 2,
                _ => 0,
            };
            tick += (cells[i] != 0) as u32;
        }
        Ttt { cells, tick }
    }
    fn to_move(&self) -> usize {
        (self.tick % 2) as usize
    }
    fn winner(&self) -> Option<usize> {
        LINES.iter().find_map(|l| {
            let c = self.cells[l[0]];
            (c != 0 && c == self.cells[l[1]] && c == self.cells[l[2]]).then(|| c as usize - 1)
        })
    }
}

impl Game for Ttt {
    type Action = u8;
    fn num_players(&self) -> usize {
        2
    }
    fn is_active(&self, seat: Seat) -> bool {
        !self.is_over() && seat == self.to_move()
    }
    fn legal_actions(&self, seat: Seat, out: &mut Vec<u8>) {
        if self.is_active(seat) {
            out.extend((0..9u8).filter(|&c| self.cells[c as usize] == 0));
        }
    }
    fn fallback_action(&self, _seat: Seat) -> u8 {
        (0..9u8).find(|&c| self.cells[c as usize] == 0).unwrap_or(0)
    }
    fn advance(&mut self, joint: &[u8]) {
        let c = joint[self.to_move()] as usize;
        if c < 9 && self.cells[c] == 0 && !self.is_over() {
            self.cells[c] = self.to_move() as u8 + 1;
            self.tick += 1;
        }
    }
    fn is_over(&self) -> bool {
        self.winner().is_some() || self.tick >= 9
    }
    fn score(&self, _seat: Seat) -> f64 {
        0.0
    }
    fn result(&self, seat: Seat) -> PlayerResult {
        match self.winner() {
            Some(w) if w == seat => PlayerResult::Win,
            Some(_) => PlayerResult::Loss,
            None if self.tick >= 9 => PlayerResult::Draw,
            None => PlayerResult::Ongoing,
        }
    }
    fn tick(&self) -> u32 {
        self.tick
    }
    fn action_name(&self, action: u8) -> String {
        action.to_string()
    }
    fn parse_action(&self, _seat: Seat, text: &str) -> Option<u8> {
        text.parse().ok()
    }
}

// ---------------------------------------------------------------------------
// Helpers.

fn uct_params(iterations: i64) -> AgentParams {
    AgentParams::new().with("iterations", ParamValue::Int(iterations))
}

/// Play one game between `agents[0]` (seat 0) and `agents[1]` (seat 1) the
/// way the harness does: each active seat acts on the same state, then the
/// joint action is played. Returns the final state.
fn play<G: Game>(mut s: G, agents: &mut [Box<dyn Agent<G>>; 2], max_ticks: u32) -> G {
    let players = s.num_players();
    while !s.is_over() && s.tick() < max_ticks {
        let joint: Vec<G::Action> = (0..players)
            .map(|seat| {
                if s.is_active(seat) {
                    let a = agents[seat].act(&s, seat, &UnlimitedTimer);
                    assert!(s.is_legal(seat, a), "seat {seat} played {a:?} in {s:?}");
                    a
                } else {
                    s.fallback_action(seat)
                }
            })
            .collect();
        s.advance(&joint);
    }
    s
}

// ---------------------------------------------------------------------------
// The registry.

#[test]
fn unknown_names_and_params_list_the_valid_ones() {
    let e = make::<Nim>("alphago", &AgentParams::new(), 0)
        .err()
        .unwrap();
    assert!(e.to_string().contains("valid agents: random, uct"), "{e}");
    let p = AgentParams::new().with("depth", ParamValue::Int(3));
    let e = make::<Nim>("uct", &p, 0).err().unwrap();
    assert!(
        e.to_string()
            .contains("valid parameters: c, rollout_depth, iterations, max_nodes, score_scale"),
        "{e}"
    );
    let e = make::<Nim>("random", &p, 0).err().unwrap();
    assert!(matches!(e, AgentError::UnknownParam { .. }), "{e}");
    for (key, value) in [
        ("c", ParamValue::Float(-1.0)),
        ("c", ParamValue::Float(f64::NAN)),
        ("max_nodes", ParamValue::Int(0)),
        ("score_scale", ParamValue::Int(0)),
        ("rollout_depth", ParamValue::Int(-2)),
        ("iterations", ParamValue::Str("many".into())),
    ] {
        let p = AgentParams::new().with(key, value);
        let e = make::<Nim>("uct", &p, 0).err().unwrap();
        assert!(matches!(e, AgentError::BadParam { .. }), "{key}: {e}");
    }
    let every = AgentParams::new()
        .with("c", ParamValue::Float(0.5))
        .with("rollout_depth", ParamValue::Int(0))
        .with("iterations", ParamValue::Int(10))
        .with("max_nodes", ParamValue::Int(1))
        .with("score_scale", ParamValue::Float(2.5));
    let mut a = make::<Nim>("uct", &every, 0).unwrap();
    assert!(Nim::new(5).is_legal(0, a.act(&Nim::new(5), 0, &UnlimitedTimer)));
}

// ---------------------------------------------------------------------------
// Reproducibility.

/// Play agent `name` (with `params`, seeded with `seed`) for `acts` acts
/// from `start` against a seeded random agent in the other seats; its
/// actions and stats.
fn run<G: Game>(
    start: &G,
    name: &str,
    params: &AgentParams,
    seed: u64,
    acts: usize,
) -> (Vec<G::Action>, Option<u64>) {
    let mut a = make::<G>(name, params, seed).unwrap();
    let mut other = RandomAgent::new(99);
    let mut s = start.clone();
    let mut mine = Vec::new();
    while !s.is_over() && mine.len() < acts {
        let joint: Vec<G::Action> = (0..s.num_players())
            .map(|seat| match (seat, s.is_active(seat)) {
                (0, true) => a.act(&s, 0, &UnlimitedTimer),
                (_, true) => Agent::<G>::act(&mut other, &s, seat, &UnlimitedTimer),
                _ => s.fallback_action(seat),
            })
            .collect();
        mine.push(joint[0]);
        s.advance(&joint);
    }
    (mine, a.stats().expanded)
}

#[test]
fn random_and_uct_are_reproducible_from_their_seeds() {
    let bait = Bait::level(2).unwrap();
    let none = AgentParams::new();
    assert_eq!(
        run(&bait, "random", &none, 7, 20),
        run(&bait, "random", &none, 7, 20)
    );
    assert_ne!(
        run(&bait, "random", &none, 7, 20),
        run(&bait, "random", &none, 8, 20)
    );
    let p = uct_params(100);
    assert_eq!(run(&bait, "uct", &p, 3, 15), run(&bait, "uct", &p, 3, 15));
    assert_ne!(
        run(&bait, "uct", &p, 3, 15).0,
        run(&bait, "uct", &p, 4, 15).0
    );
    let (n, m, obs) = generate_map(1);
    let snake = Snake::new(n, m, &obs).unwrap();
    let (acts, expanded) = run(&snake, "uct", &p, 3, 12);
    assert_eq!((acts.clone(), expanded), run(&snake, "uct", &p, 3, 12));
    assert_ne!(acts, run(&snake, "uct", &p, 4, 12).0);
    // At most one node is added per iteration.
    let expanded = expanded.unwrap();
    assert!(expanded > 0 && expanded <= 12 * 100, "{expanded}");
}

// ---------------------------------------------------------------------------
// Alternating games: plain UCT.

#[test]
fn uct_finds_the_winning_nim_move() {
    for pile in [5, 6, 7, 9, 10, 11, 13, 14, 15] {
        let mut a = make::<Nim>("uct", &uct_params(3000), pile as u64).unwrap();
        let s = Nim::new(pile);
        assert_eq!(a.act(&s, 0, &UnlimitedTimer), pile % 4, "pile {pile}");
    }
}

#[test]
fn uct_wins_nim_against_random_from_a_winning_pile() {
    for g in 0..10u64 {
        let seat = (g % 2) as usize;
        // Seat 0 moves first: 13 is won for it, 12 for seat 1.
        let pile = if seat == 0 { 13 } else { 12 };
        let mut agents: [Box<dyn Agent<Nim>>; 2] = [
            make("random", &AgentParams::new(), g).unwrap(),
            make("random", &AgentParams::new(), g).unwrap(),
        ];
        agents[seat] = make("uct", &uct_params(1000), g).unwrap();
        let end = play(Nim::new(pile), &mut agents, 100);
        assert_eq!(end.result(seat), PlayerResult::Win, "game {g}");
    }
}

#[test]
fn uct_wins_and_blocks_at_tic_tac_toe() {
    let mut a = make::<Ttt>("uct", &uct_params(2000), 1).unwrap();
    // X to move wins at once in cell 2 (O threatens 3-4-5 as well).
    assert_eq!(a.act(&Ttt::parse("xx.oo...."), 0, &UnlimitedTimer), 2);
    // O to move must block X's 0-4-8 diagonal.
    assert_eq!(a.act(&Ttt::parse("x.o.x...."), 1, &UnlimitedTimer), 8);
    // X to move must block O's 2-4-6 at 6, which makes a fork (threats
    // 0-3-6 and 6-7-8): a forced win.
    let fork = Ttt::parse("x.o.o...x");
    let mut s = fork.clone();
    let mut opp = make::<Ttt>("uct", &uct_params(2000), 2).unwrap();
    while !s.is_over() {
        let seat = s.to_move();
        let m = if seat == 0 {
            a.act(&s, 0, &UnlimitedTimer)
        } else {
            opp.act(&s, 1, &UnlimitedTimer)
        };
        let mut joint = [0u8; 2];
        joint[seat] = m;
        s.advance(&joint);
    }
    assert_eq!(s.result(0), PlayerResult::Win, "{s:?} from {fork:?}");
}

#[test]
fn uct_never_loses_tic_tac_toe_to_random() {
    let mut wins = 0;
    let games = 12u64;
    for g in 0..games {
        let seat = (g % 2) as usize;
        let mut agents: [Box<dyn Agent<Ttt>>; 2] = [
            make("random", &AgentParams::new(), 100 + g).unwrap(),
            make("random", &AgentParams::new(), 100 + g).unwrap(),
        ];
        agents[seat] = make("uct", &uct_params(1000), g).unwrap();
        let end = play(Ttt::parse("........."), &mut agents, 9);
        assert_ne!(end.result(seat), PlayerResult::Loss, "game {g}: {end:?}");
        wins += (end.result(seat) == PlayerResult::Win) as u32;
    }
    assert!(wins >= 9, "uct won {wins} of {games}");
}

// ---------------------------------------------------------------------------
// Simultaneous games: decoupled UCT.

#[test]
fn uct_beats_random_at_snake() {
    let games = 8u64;
    let mut wins = 0;
    for g in 0..games {
        let (n, m, obs) = generate_map(g as u32);
        let seat = (g % 2) as usize;
        let mut agents: [Box<dyn Agent<Snake>>; 2] = [
            make("random", &AgentParams::new(), 50 + g).unwrap(),
            make("random", &AgentParams::new(), 50 + g).unwrap(),
        ];
        agents[seat] = make("uct", &uct_params(300), g).unwrap();
        let end = play(Snake::new(n, m, &obs).unwrap(), &mut agents, 200);
        wins += (end.result(seat) == PlayerResult::Win) as u32;
    }
    assert!(wins >= 7, "uct won {wins} of {games}");
}

#[test]
fn uct_beats_snakes_sample_bot() {
    // Botzone's sample bot never takes a move that is fatal at once.
    let games = 6u64;
    let mut wins = 0;
    for g in 0..games {
        let (n, m, obs) = generate_map(10 + g as u32);
        let seat = (g % 2) as usize;
        let sample = || crate::snake::make("random-valid", &AgentParams::new(), 70 + g).unwrap();
        let mut agents: [Box<dyn Agent<Snake>>; 2] = [sample(), sample()];
        agents[seat] = make("uct", &uct_params(300), g).unwrap();
        let end = play(Snake::new(n, m, &obs).unwrap(), &mut agents, 400);
        wins += (end.result(seat) == PlayerResult::Win) as u32;
    }
    assert!(wins >= 5, "uct won {wins} of {games}");
}

#[test]
fn uct_stops_within_its_budget() {
    let (n, m, obs) = generate_map(2);
    let s = Snake::new(n, m, &obs).unwrap();
    let mut a = Uct::<Snake>::new(UctConfig::default(), 1);
    // Every clock read advances 100 us: 40 ms allows a few hundred reads.
    let t = StepTimer::new(Duration::from_millis(40), Duration::from_micros(100));
    let d = a.act(&s, 0, &t);
    assert!(s.is_legal(0, d));
    assert!(t.elapsed() < t.budget(), "{:?}", t.elapsed());
    assert!(a.iterations() > 100, "{}", a.iterations());
    assert!(a.stats().expanded.unwrap() > 0);
}

#[test]
fn the_node_cap_bounds_the_tree() {
    let p = uct_params(500).with("max_nodes", ParamValue::Int(10));
    let mut a = make::<Ttt>("uct", &p, 0).unwrap();
    let s = Ttt::parse(".........");
    assert!(s.is_legal(0, a.act(&s, 0, &UnlimitedTimer)));
    assert_eq!(a.stats().expanded, Some(9), "the root plus nine nodes");
}

// ---------------------------------------------------------------------------
// A puzzle and a big game.

#[test]
fn uct_wins_bait_level_0() {
    let mut s = Bait::level(0).unwrap().with_max_ticks(200);
    let mut a = make::<Bait>("uct", &uct_params(2000), 1).unwrap();
    while !s.is_over() {
        let x = a.act(&s, 0, &UnlimitedTimer);
        s.advance(&[x]);
    }
    assert_eq!(s.result(0), PlayerResult::Win, "score {}", s.score(0));
}

#[test]
fn uct_plays_legal_xiangqi_moves() {
    let p = uct_params(40).with("rollout_depth", ParamValue::Int(8));
    let mut agents: [Box<dyn Agent<Xiangqi>>; 2] = [
        make("uct", &p, 1).unwrap(),
        make("random", &AgentParams::new(), 2).unwrap(),
    ];
    // `play` checks that every move is legal.
    let end = play(Xiangqi::new(), &mut agents, 6);
    assert_eq!(end.tick(), 6);
}
