use super::*;
use games::xiangqi::Position;
use games::{Game, StepTimer, UnlimitedTimer};
use std::time::Duration;

fn ab(depth: u64) -> Box<dyn Agent<Xiangqi>> {
    let p = AgentParams::new().with("depth", crate::ParamValue::Int(depth as i64));
    make("alphabeta", &p, 1).unwrap()
}

#[test]
fn alphabeta_finds_mate_in_one() {
    // Red chariot i0-i9 mates (h8 chariot covers rank 8)
    let g = Xiangqi::from_fen("3k5/7R1/9/9/9/9/9/9/9/4K3R w - - 0 1").unwrap();
    let m = ab(3).act(&g, 0, &UnlimitedTimer);
    assert_eq!(m.iccs(), "i0i9");
}

#[test]
fn alphabeta_takes_a_free_chariot() {
    // the red horse on c2 can take the undefended black chariot on d4
    let g = Xiangqi::from_fen("3k5/9/9/9/9/3r5/9/2N6/9/4K4 w - - 0 1").unwrap();
    let m = ab(2).act(&g, 0, &UnlimitedTimer);
    assert_eq!(m.iccs(), "c2d4");
}

#[test]
fn noprune_and_alphabeta_agree_at_depth_2() {
    // same evaluation, same depth: plain minimax and alpha-beta pick moves of equal value
    let g = Xiangqi::new();
    let r = minimax_root(g.position(), 2, &UnlimitedTimer, 1.0);
    let mut s = Searcher::new(16);
    let cfg = SearchConfig {
        max_depth: 2,
        ..SearchConfig::default()
    };
    let q = s.search(g.position(), g.history(), &UnlimitedTimer, cfg);
    assert!(
        r.nodes > q.nodes,
        "pruning visits fewer nodes: {} vs {}",
        r.nodes,
        q.nodes
    );
    assert!(g.position().clone().is_legal(q.best) && g.position().clone().is_legal(r.best));
}

#[test]
fn agents_return_legal_moves_and_respect_the_timer() {
    let g = Xiangqi::new();
    for name in ["alphabeta", "alphabeta-noprune", "greedy", "random"] {
        let mut a = make(name, &AgentParams::new(), 3).unwrap();
        // a step timer: every poll advances 1 ms of a 200 ms budget
        let t = StepTimer::new(Duration::from_millis(200), Duration::from_millis(1));
        let m = a.act(&g, 0, &t);
        assert!(g.is_legal(0, m), "{name} played {}", m.iccs());
        assert!(
            t.elapsed() < Duration::from_millis(400),
            "{name} polled too rarely or too late"
        );
    }
}

#[test]
fn greedy_takes_the_most_valuable_piece() {
    // red chariot b5 can take a soldier (b6) or a chariot (e5)
    let g = Xiangqi::from_fen("3k5/9/9/1p7/1R2r4/9/9/9/9/4K4 w - - 0 1").unwrap();
    let m = make("greedy", &AgentParams::new(), 0)
        .unwrap()
        .act(&g, 0, &UnlimitedTimer);
    assert_eq!(m.iccs(), "b5e5");
}

#[test]
fn alphabeta_beats_random_quickly() {
    let mut g = Xiangqi::new().with_max_plies(200);
    let mut red = ab(2);
    let mut black = make("random", &AgentParams::new(), 9).unwrap();
    while !g.is_over() {
        let seat = g.position().side();
        let m = if seat == 0 {
            red.act(&g, 0, &UnlimitedTimer)
        } else {
            black.act(&g, 1, &UnlimitedTimer)
        };
        assert!(g.play(m));
    }
    assert_eq!(
        g.result(0),
        games::PlayerResult::Win,
        "{:?} {}",
        g.outcome(),
        g.fen()
    );
}

#[test]
fn evaluation_is_symmetric() {
    let p = Position::start();
    assert_eq!(eval::evaluate(&p), 0);
    let mut q = p.clone();
    q.make_null();
    assert_eq!(eval::evaluate(&q), 0);
}

#[test]
fn bad_params_are_rejected() {
    assert!(make(
        "alphabeta",
        &AgentParams::new().with("depht", crate::ParamValue::Int(2)),
        0
    )
    .is_err());
    assert!(make(
        "alphabeta-noprune",
        &AgentParams::new().with("depth", crate::ParamValue::Int(0)),
        0
    )
    .is_err());
    let e = make("stockfish", &AgentParams::new(), 0).err().unwrap();
    assert!(e
        .to_string()
        .contains("alphabeta, alphabeta-noprune, greedy, random"));
}

#[test]
fn plain_alphabeta_equals_minimax_with_fewer_nodes() {
    for fen in [
        games::xiangqi::START_FEN,
        "2bak1b2/rN2a4/4c4/1n6p/6n2/3RC4/2P1P3P/4B1N2/4A4/3AK1B2 w - - 0 1",
    ] {
        let g = Xiangqi::from_fen(fen).unwrap();
        let m = minimax_root(g.position(), 3, &UnlimitedTimer, 1.0);
        let a = search::plain_alphabeta_root(g.position(), 3, &UnlimitedTimer, 1.0);
        assert_eq!(a.score, m.score, "{fen}");
        assert!(a.nodes < m.nodes / 2, "{} vs {}", a.nodes, m.nodes);
    }
    let p = AgentParams::new().with("plain", crate::ParamValue::Bool(true));
    let mut agent = make("alphabeta", &p, 0).unwrap();
    let g = Xiangqi::new();
    assert!(g.is_legal(0, agent.act(&g, 0, &UnlimitedTimer)));
}
