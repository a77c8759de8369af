use super::*;
use crate::api::{Game, PlayerResult};
use rand::seq::SliceRandom;
use rand::SeedableRng;

/// The largest perft count a vector is tested to in the (opt-level 1) test
/// build; the full set runs in `arena bench xiangqi` (release).
const TEST_NODE_BUDGET: u64 = 5_000_000;

#[test]
fn start_position_perft() {
    let mut p = Position::start();
    assert_eq!(p.perft(1), 44);
    assert_eq!(p.perft(2), 1920);
    assert_eq!(p.perft(3), 79666);
}

#[test]
fn all_perft_vectors_to_a_cheap_depth() {
    let vectors = parse_perft_vectors(PERFT_DATA).unwrap();
    assert_eq!(vectors.len(), 23);
    for v in &vectors {
        let mut p = Position::from_fen(&v.fen).unwrap();
        let before = p.to_fen();
        for (d, &want) in v.counts.iter().enumerate() {
            if want > TEST_NODE_BUDGET && d >= 2 {
                break;
            }
            let depth = d as u32 + 1;
            assert_eq!(p.perft(depth), want, "perft({depth}) of {}", v.fen);
        }
        assert_eq!(p.to_fen(), before, "perft left the position changed");
    }
}

#[test]
fn bulk_counting_agrees_with_playing_every_leaf() {
    for v in parse_perft_vectors(PERFT_DATA).unwrap().iter().take(8) {
        let mut p = Position::from_fen(&v.fen).unwrap();
        assert_eq!(p.perft_full(3), v.counts[2], "{}", v.fen);
    }
}

#[test]
fn divide_sums_to_perft() {
    let mut p = Position::start();
    let d = p.divide(3);
    assert_eq!(d.len(), 44);
    assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 79666);
    assert!(d.iter().any(|(m, _)| m.iccs() == "h2e2"));
}

/// Whether the generals face each other on an open file (computed from the
/// public board view, independently of the attack code).
fn generals_face(p: &Position) -> bool {
    let (r, b) = (p.king(RED), p.king(BLACK));
    if file_of(r) != file_of(b) {
        return false;
    }
    let f = file_of(r);
    (rank_of(r) + 1..rank_of(b)).all(|rank| p.piece_at(f, rank) == EMPTY)
}

/// Legal moves by a second path: pseudo-legal moves, each played with the
/// full make, kept when no pseudo-legal reply of the opponent lands on the
/// mover's general and the generals do not face each other.
fn reference_legal(p: &Position) -> Vec<Move> {
    let mut q = p.clone();
    let us = q.side();
    let mut pseudo = MoveList::new();
    q.gen_pseudo(&mut pseudo);
    let mut out = Vec::new();
    for &m in pseudo.as_slice() {
        let u = q.make(m);
        let mut replies = MoveList::new();
        q.gen_pseudo(&mut replies);
        let k = q.king(us);
        let attacked = replies.as_slice().iter().any(|r| r.to() == k) || generals_face(&q);
        q.unmake(m, u);
        if !attacked {
            out.push(m);
        }
    }
    out
}

#[test]
fn random_games_two_legality_paths_and_make_unmake() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2026);
    let mut positions = 0u64;
    let mut ends = std::collections::HashMap::new();
    for game_no in 0..200 {
        let mut g = Xiangqi::new();
        while !g.is_over() {
            let p = g.position().clone();
            let mut fast = g.legal_moves();
            let mut slow = reference_legal(&p);
            fast.sort();
            slow.sort();
            assert_eq!(fast, slow, "game {game_no}, {}", p.to_fen());
            assert_eq!(p.hash(), p.compute_hash());
            assert_eq!(
                Position::from_fen(&p.to_fen()).unwrap().to_fen(),
                p.to_fen()
            );
            let mut q = p.clone();
            let fen = q.to_fen();
            for &m in &fast {
                let u = q.make(m);
                assert_eq!(
                    q.hash(),
                    q.compute_hash(),
                    "incremental hash after {}",
                    m.iccs()
                );
                assert!(!q.attacked(q.king(p.side()), q.side()));
                q.unmake(m, u);
                assert_eq!(q.hash(), p.hash());
                assert_eq!(q.to_fen(), fen);
            }
            let m = *fast.choose(&mut rng).expect("a game not over has a move");
            assert!(g.play(m));
            positions += 1;
        }
        *ends.entry(g.outcome().unwrap().reason).or_insert(0) += 1;
        assert!(g.tick() <= DEFAULT_MAX_PLIES);
    }
    assert!(positions > 10_000, "only {positions} positions");
    // random play should end in more than one way
    assert!(ends.len() >= 2, "{ends:?}");
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    // Red chariot shuttles a8-a9 / a9-a8 checking the black general on e9/e8.
    let mut g = Xiangqi::from_fen("4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap();
    let cycle = ["a8a9", "e9e8", "a9a8", "e8e9"];
    g.play_iccs(&cycle).unwrap();
    assert!(!g.is_over(), "second occurrence only");
    g.play_iccs(&cycle[..3]).unwrap();
    assert!(!g.is_over());
    g.play_iccs(&cycle[3..]).unwrap();
    let o = g.outcome().expect("third occurrence ends the game");
    assert_eq!(o.reason, EndReason::PerpetualCheck);
    assert_eq!(o.winner, Some(BLACK));
    assert_eq!(g.result(0), PlayerResult::Loss);
    assert_eq!(g.result(1), PlayerResult::Win);
}

#[test]
fn perpetual_check_by_black_loses_for_black() {
    // mirror: Black chariot checks the red general on e0/e1.
    let mut g = Xiangqi::from_fen("3k5/9/9/9/9/9/9/9/r8/4K4 b - - 0 1").unwrap();
    let cycle = ["a1a0", "e0e1", "a0a1", "e1e0"];
    for _ in 0..2 {
        g.play_iccs(&cycle).unwrap();
    }
    let o = g.outcome().unwrap();
    assert_eq!((o.reason, o.winner), (EndReason::PerpetualCheck, Some(RED)));
}

#[test]
fn repetition_without_checks_is_a_draw() {
    let mut g = Xiangqi::from_fen("4k4/9/9/9/9/9/9/9/1R7/3K5 w - - 0 1").unwrap();
    let cycle = ["b1b2", "e9e8", "b2b1", "e8e9"];
    g.play_iccs(&cycle).unwrap();
    assert!(!g.is_over());
    g.play_iccs(&cycle).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!((o.reason, o.winner), (EndReason::Repetition, None));
    assert_eq!(g.result(0), PlayerResult::Draw);
}

#[test]
fn stalemate_loses_for_the_side_to_move() {
    // black general d9: e9 faces the red general, d8 is covered by the chariot
    let g = Xiangqi::from_fen("3k5/8R/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert!(!g.position().in_check());
    let o = g.outcome().unwrap();
    assert_eq!((o.reason, o.winner), (EndReason::Stalemate, Some(RED)));
    // reached by a move
    let mut g = Xiangqi::from_fen("3k5/9/8R/9/9/9/9/9/9/4K4 w - - 0 1").unwrap();
    assert!(!g.is_over());
    g.play_iccs(&["i7i8"]).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!((o.reason, o.winner), (EndReason::Stalemate, Some(RED)));
    assert_eq!(g.result(1), PlayerResult::Loss);
    assert_eq!(g.score(0), 1.0);
}

#[test]
fn checkmate_ends_the_game() {
    // two chariots: i8 covers rank 8, i9 mates on rank 9
    let mut g = Xiangqi::from_fen("3k5/8R/9/9/9/9/9/9/9/4K3R w - - 0 1").unwrap();
    g.play_iccs(&["i0i9"]).unwrap_err(); // blocked by the chariot on i8
    let mut g2 = Xiangqi::from_fen("3k5/7R1/9/9/9/9/9/9/9/4K3R w - - 0 1").unwrap();
    g2.play_iccs(&["i0i9"]).unwrap();
    let o = g2.outcome().unwrap();
    assert_eq!((o.reason, o.winner), (EndReason::Checkmate, Some(RED)));
    assert!(!g.is_over());
}

#[test]
fn no_capture_limit_and_max_length_draw() {
    let mut g = Xiangqi::from_fen("4k4/9/9/9/9/9/9/9/1R7/3K5 w - - 118 1").unwrap();
    g.play_iccs(&["b1b3"]).unwrap();
    assert!(!g.is_over());
    g.play_iccs(&["e9e8"]).unwrap();
    let o = g.outcome().unwrap();
    assert_eq!((o.reason, o.winner), (EndReason::NoCapture, None));

    let mut g = Xiangqi::new().with_max_plies(3);
    g.play_iccs(&["h2e2", "h9g7"]).unwrap();
    assert!(!g.is_over());
    g.play_iccs(&["h0g2"]).unwrap();
    assert_eq!(g.outcome().unwrap().reason, EndReason::MaxLength);
    assert_eq!(g.result(0), PlayerResult::Draw);
}

#[test]
fn rules_in_detail() {
    let legal = |fen: &str| -> Vec<String> {
        let mut v: Vec<String> = Xiangqi::from_fen(fen)
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
            .legal_moves()
            .iter()
            .map(|m| m.iccs())
            .collect();
        v.sort();
        v
    };
    // horse leg: the horse on b0 reaches a2 and c2 (leg b1 free), not d1 (leg c0 taken)
    let l = legal("3k5/9/9/9/9/9/9/9/9/1NR1K4 w - - 0 1");
    assert!(l.contains(&"b0a2".to_string()) && l.contains(&"b0c2".to_string()));
    assert!(!l.contains(&"b0d1".to_string()));
    // elephant eye blocked at d1; elephants never cross the river
    let l = legal("3k5/9/9/9/9/2B6/3P5/9/9/4K4 w - - 0 1");
    assert!(!l.contains(&"c4a6".to_string()) && !l.contains(&"c4e6".to_string()));
    assert!(l.contains(&"c4a2".to_string()) && !l.contains(&"c4e2".to_string()));
    let l = legal("3k5/9/9/9/9/9/9/9/3P5/2B1K4 w - - 0 1");
    assert!(!l.contains(&"c0e2".to_string()) && l.contains(&"c0a2".to_string()));
    // cannon: captures over exactly one screen only
    let l = legal("3k5/9/9/p8/9/P8/P8/9/9/C3K4 w - - 0 1");
    assert!(l.contains(&"a0a1".to_string()) && !l.contains(&"a0a6".to_string()));
    let l = legal("3k5/9/9/p8/9/9/P8/9/9/C3K4 w - - 0 1");
    assert!(l.contains(&"a0a6".to_string()));
    // soldier: no sideways before the river, sideways after, never backwards
    let l = legal("4k4/9/9/9/9/9/4P4/9/9/3K5 w - - 0 1");
    assert!(l.contains(&"e3e4".to_string()) && !l.contains(&"e3d3".to_string()));
    let l = legal("4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1");
    for m in ["e5e6", "e5d5", "e5f5"] {
        assert!(l.contains(&m.to_string()), "{m}");
    }
    assert!(!l.contains(&"e5e4".to_string()));
    // flying general: the red general may not step onto the open e-file
    let l = legal("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1");
    assert!(!l.contains(&"d0e0".to_string()) && l.contains(&"d0d1".to_string()));
    // a lone screen between the generals may not leave the file
    let l = legal("4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1");
    assert!(
        !l.is_empty() && !l.iter().any(|m| m.starts_with("e5")),
        "{l:?}"
    );
    // palace: general and advisor stay inside
    let l = legal("3k5/9/9/9/9/9/9/9/9/3AK4 w - - 0 1");
    assert!(l.contains(&"d0e1".to_string()) && !l.contains(&"d0c1".to_string()));
}

#[test]
fn fen_round_trip_and_errors() {
    for v in parse_perft_vectors(PERFT_DATA).unwrap() {
        let p = Position::from_fen(&v.fen).unwrap();
        assert_eq!(p.to_fen(), v.fen);
    }
    assert_eq!(Position::start().to_fen(), START_FEN);
    let e = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1X1P/1C5C1/9/RNBAKABNR w")
        .unwrap_err();
    assert_eq!((e.line, e.column), (1, 39));
    assert!(e.message.contains("`X`"), "{}", e.message);
    let e = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x")
        .unwrap_err();
    assert_eq!(e.column, 61);
    assert!(Position::from_fen("").is_err());
    assert!(Position::from_fen("9/9/9/9/9/9/9/9/9/4K4 w").is_err()); // no black general
    assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w").is_err()); // generals face, b in check
    assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/K8 w").is_err()); // outside the palace
    assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/3K5 w - - x 1").is_err());
    assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/3K5 w").is_err()); // 9 ranks
    assert!(Position::from_fen("4k5/9/9/9/9/9/9/9/9/3K5 w").is_err()); // 10 files
                                                                       // FSF letters E and H, side r
    let p = Position::from_fen("3k5/9/9/9/9/9/9/9/9/1HE1K4 r").unwrap();
    assert_eq!(p.to_fen(), "3k5/9/9/9/9/9/9/9/9/1NB1K4 w - - 0 1");
    // the perft file parser names lines
    let e = parse_perft_vectors("# c\n4k4/9/9/9/9/9/9/9/9/3K5 w;3;x\n").unwrap_err();
    assert_eq!(e.line, 2);
}

#[test]
fn notation_conversions() {
    let m = Move::parse_iccs("h2e2").unwrap();
    assert_eq!(m, Move::from_coords(7, 2, 4, 2));
    assert_eq!(m.fsf_uci(), "h3e3");
    assert_eq!(Move::parse_iccs("H2-E2"), Some(m));
    assert_eq!(iccs_to_fsf("b9c7").as_deref(), Some("b10c8"));
    assert_eq!(fsf_to_iccs("b10c8").as_deref(), Some("b9c7"));
    assert_eq!(fsf_to_iccs("a0a1"), None); // rank 0 does not exist in FSF numbering
    assert_eq!(Move::parse_iccs("j0a0"), None);
    assert_eq!(Move::parse_iccs("a10a9"), None);
    assert_eq!(Move::parse_iccs("a0a"), None);
    assert_eq!(Move::parse_iccs("a0a1x"), None);
    assert_eq!(Move::NULL.iccs(), "0000");
    let g = Xiangqi::new();
    assert_eq!(g.parse_action(0, "h2e2"), Some(m));
    assert_eq!(g.action_name(m), "h2e2");
}

#[test]
fn game_trait_basics() {
    let mut g = Xiangqi::new();
    assert_eq!(g.num_players(), 2);
    assert!(g.is_active(0) && !g.is_active(1));
    assert_eq!(g.legal_actions_vec(1), Vec::<Move>::new());
    assert_eq!(g.legal_actions_vec(0).len(), 44);
    assert_eq!(g.fallback_action(0).iccs(), "a0a1");
    let m = Move::parse_iccs("h2e2").unwrap();
    assert!(g.is_legal(0, m) && !g.is_legal(1, m));
    assert!(!g.is_legal(0, Move::parse_iccs("h2h8").unwrap()));
    g.advance(&[m, Move::NULL]);
    assert_eq!(g.tick(), 1);
    assert!(g.is_active(1));
    assert_eq!(
        g.fen(),
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1"
    );
    // equality is the position: the same position reached by another order
    let mut a = Xiangqi::new();
    a.play_iccs(&["h2e2", "h9g7", "b0c2"]).unwrap();
    let mut b = Xiangqi::new();
    b.play_iccs(&["b0c2", "h9g7", "h2e2"]).unwrap();
    assert_eq!(a, b);
    let hash = |x: &Xiangqi| {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        x.hash(&mut h);
        h.finish()
    };
    assert_eq!(hash(&a), hash(&b));
    assert_ne!(a, Xiangqi::new());
}

proptest::proptest! {
    #[test]
    fn fen_parser_never_panics(s in "[1-9kabnrcpKABNRCPEHx/ wb-]{0,80}") {
        if let Ok(p) = Position::from_fen(&s) {
            // whatever parses round-trips and can be searched
            let q = Position::from_fen(&p.to_fen()).unwrap();
            proptest::prop_assert_eq!(q.to_fen(), p.to_fen());
            let mut q = q;
            let _ = q.perft(2);
        }
    }

    #[test]
    fn move_parser_never_panics(s in "\\PC{0,8}") {
        if let Some(m) = Move::parse_iccs(&s) {
            proptest::prop_assert_eq!(Move::parse_iccs(&m.iccs()), Some(m));
            let g = Xiangqi::new();
            let _ = g.is_legal(0, m);
        }
        let _ = Move::parse_fsf_uci(&s);
    }

    #[test]
    fn mutated_start_fens_never_panic(i in 0usize..60, c in "[1-9kabnrcpKABNRCP/]") {
        let mut s = START_FEN.to_string();
        if i < s.len() && s.is_char_boundary(i) && s.is_char_boundary(i + 1) {
            s.replace_range(i..i + 1, &c);
        }
        if let Ok(mut p) = Position::from_fen(&s) {
            let _ = p.perft(2);
            let g = Xiangqi::from_position(p);
            let _ = g.fallback_move();
        }
    }
}

#[test]
fn huge_move_numbers_do_not_overflow() {
    let mut p = Position::from_fen("3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 4294967295").unwrap();
    let mut l = MoveList::new();
    p.gen_legal(&mut l);
    let m = l.as_slice()[0];
    let u = p.make(m);
    p.unmake(m, u);
    assert_eq!(p.fullmove(), u32::MAX);
}

#[test]
fn the_start_and_the_perft_positions_pass_the_testkit() {
    use crate::testkit::{check_game, KitConfig};
    // Whole random games (they end by the no-capture rule or the length
    // limit, rarely by mate or repetition).
    let r = check_game(&Xiangqi::new(), &KitConfig::new(6, 400, 1));
    assert_eq!(r.finished, 6);
    for (i, v) in parse_perft_vectors(PERFT_DATA).unwrap().iter().enumerate() {
        let start = Xiangqi::from_fen(&v.fen).unwrap().with_max_plies(60);
        let r = check_game(&start, &KitConfig::new(2, 60, i as u64));
        assert_eq!(r.playouts, 2, "{}", v.fen);
    }
}
