//! Box moves: the pushes (forward) and pulls (backward) of one box to
//! every cell it can reach, checked against independent searches, and the
//! backward half that pulls whole boxes.

use super::*;

/// Every cell an independent search says the box can be pushed to (the
/// other boxes fixed, no dead squares), from the start position.
fn push_closure(b: &board::Board, dead: &[bool], bx: u16, others: &[u16]) -> HashSet<u16> {
    let mut seen = HashSet::from([(bx, b.start_player)]);
    let mut queue = VecDeque::from([(bx, b.start_player)]);
    let mut cells = HashSet::new();
    while let Some((x, p)) = queue.pop_front() {
        if x != bx {
            cells.insert(x);
        }
        for d in 0..4 {
            let q = b.nbr[p as usize][d];
            if q == board::NONE || others.contains(&q) {
                continue;
            }
            let next = if q == x {
                let t = b.nbr[x as usize][d];
                if t == board::NONE || others.contains(&t) || dead[t as usize] {
                    continue;
                }
                (t, x)
            } else {
                (x, q)
            };
            if seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    cells
}

#[test]
fn box_moves_reach_every_cell_and_replay() {
    let lv = level(
        "
#######
#     #
# $ # #
#@ $  #
#.  . #
#######
",
    );
    let b = board::Board::new(&lv).unwrap();
    let dead = board::DistTable::to_targets(&b, &b.goals).dead;
    let mut sp = space::Space::new(b.n);
    for (i, &c) in b.start_boxes.iter().enumerate() {
        let others: Vec<u16> = b.start_boxes.iter().copied().filter(|&o| o != c).collect();
        sp.set(&b.start_boxes);
        let norm = sp.reach(&b, b.start_player, false);
        let moves = packing::box_destinations(&b, &mut sp, &dead, c, norm, &[0, 1, 2, 3]);
        sp.clear(&b.start_boxes);
        let got: HashSet<u16> = moves.iter().map(|m| m.to).filter(|&t| t != c).collect();
        assert_eq!(got, push_closure(&b, &dead, c, &others), "box {i}");
        for m in &moves {
            let (lurd, _) = lurd::play(&b, &m.pushes).expect("the pushes can be played");
            // The independent replay accepts the moves (every push letter
            // is a real push) ...
            replay(&lv, &lurd.text).unwrap_or_else(|e| panic!("{}: {e}", lurd.text));
            // ... and walking them on the cells leaves this box on `to`.
            let (mut player, mut boxes) = (b.start_player, b.start_boxes.clone());
            for ch in lurd.text.chars() {
                let lower = ch.to_ascii_lowercase() as u8;
                let d = board::LETTER.iter().position(|&l| l == lower).unwrap();
                let next = b.nbr[player as usize][d];
                if let Some(k) = boxes.iter().position(|&x| x == next) {
                    boxes[k] = b.nbr[next as usize][d];
                }
                player = next;
            }
            let mut want = others.clone();
            want.push(m.to);
            want.sort_unstable();
            boxes.sort_unstable();
            assert_eq!(boxes, want, "box {i}: {}", lurd.text);
            assert_eq!(player, m.player, "box {i}: {}", lurd.text);
        }
    }
}

#[test]
fn box_moves_carry_the_region_a_fresh_flood_finds() {
    // Each box move records the player's region where it ends (the search
    // marks it instead of flooding again): on boards of more than 64
    // cells (several words), for every box and both ways, it is the region
    // a fresh flood finds, its smallest cell is the move's `norm`, and its
    // count of floor regions is a fresh count's.
    let mut checked = 0;
    for n in [3, 17, 31, 44, 46] {
        let b = board::Board::new(&sasquatch_i(n)).unwrap();
        assert!(b.n > 64, "level {n}: {} cells", b.n);
        let none = vec![false; b.n];
        let mut sp = space::Space::new(b.n);
        for &c in &b.start_boxes {
            for pull in [false, true] {
                sp.set(&b.start_boxes);
                let norm = sp.reach(&b, b.start_player, false);
                let all = [0, 1, 2, 3];
                let moves = match pull {
                    false => packing::box_destinations(&b, &mut sp, &none, c, norm, &all),
                    true => packing::box_pull_destinations(&b, &mut sp, &none, c, norm, &all),
                };
                sp.clear(&b.start_boxes);
                for m in &moves {
                    let mut boxes = b.start_boxes.clone();
                    let k = boxes.iter().position(|&x| x == c).unwrap();
                    boxes[k] = m.to;
                    sp.set(&boxes);
                    let fresh_norm = sp.reach(&b, m.player, false);
                    let mut fresh = sp.reached_cells().to_vec();
                    assert_eq!(m.regions, sp.regions(&b), "level {n}, box {c} to {}", m.to);
                    sp.mark_region(&m.region);
                    let mut marked = sp.reached_cells().to_vec();
                    assert!(fresh.iter().all(|&x| sp.reached(x)));
                    sp.clear(&boxes);
                    fresh.sort_unstable();
                    marked.sort_unstable();
                    assert_eq!(marked, fresh, "level {n}, box {c} to {}", m.to);
                    assert_eq!(m.norm, fresh_norm, "level {n}, box {c} to {}", m.to);
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 150, "{checked} moves");
}

#[test]
fn box_pulls_solve_a_goal_room_level_single_pulls_cannot() {
    // Sasquatch I level 3 again, without the pre-pass: the bidirectional
    // search with single pulls runs out of states (the test above), the
    // one whose backward half pulls whole boxes solves it.
    // (Without the backward feature-space search beside it, whose
    // expansions would count too.)
    let lv = &sasquatch_i(3);
    let r = solve_with_box_pulls(lv, 300_000, 0);
    check_solved(lv, &r);
    assert!(r.expanded < 20_000, "{} expansions", r.expanded);
}

#[test]
fn the_box_pull_half_meets_the_shared_forward_half() {
    // The same level with all three halves from the start: the box-pull
    // half finds the meeting the single pulls miss.
    let lv = &sasquatch_i(3);
    let opts = SolveOptions {
        prepass: 0,
        prepass_after: 0,
        serial: false,
        box_pulls: 1,
        max_nodes: 300_000,
        ..SolveOptions::default()
    };
    let r = solve(lv, &opts, &UnlimitedTimer);
    check_solved(lv, &r);
    assert!(r.expanded < 40_000, "{} expansions", r.expanded);
}

/// Solve `lv` with a bidirectional search whose only backward half pulls
/// whole boxes (the box-pull half of [`SolveOptions::box_pulls`] in place
/// of the single pulls), at most `max_nodes` states per side, with
/// `backward_share` percent of the work for the backward feature-space
/// search beside it.
pub(super) fn solve_with_box_pulls(
    lv: &Level,
    max_nodes: usize,
    backward_share: u8,
) -> SolveResult {
    let opts = SolveOptions {
        prepass: 0,
        box_pulls: BOX_PULLS,
        serial: false,
        max_nodes,
        backward_share,
        ..SolveOptions::default()
    };
    let mut solver = Solver::new(lv, &opts);
    if solver.done.is_none() {
        assert_eq!(solver.engines.len(), 1, "one bidirectional search");
        let Engine::Bi { b, pulls, .. } = &mut solver.engines[0] else {
            panic!("not a bidirectional search");
        };
        *b = pulls.take().expect("a box-pull half").s;
    }
    assert!(solver.run(&UnlimitedTimer));
    solver.result()
}

/// Every cell an independent search says the box on `bx` can be pulled to
/// (the other boxes fixed, never onto a `dead` cell), the player starting
/// on `player`.
fn pull_closure(
    b: &board::Board,
    dead: &[bool],
    bx: u16,
    player: u16,
    others: &[u16],
) -> HashSet<u16> {
    let mut seen = HashSet::from([(bx, player)]);
    let mut queue = VecDeque::from([(bx, player)]);
    let mut cells = HashSet::new();
    while let Some((x, p)) = queue.pop_front() {
        if x != bx {
            cells.insert(x);
        }
        for d in 0..4 {
            let q = b.nbr[p as usize][d];
            if q == board::NONE || q == x || others.contains(&q) {
                continue;
            }
            // Walk to q; the box follows when the player steps away from
            // it (the box was on the far side of p).
            seen.insert((x, q)).then(|| queue.push_back((x, q)));
            if b.nbr[p as usize][d ^ 1] == x && !dead[p as usize] {
                let next = (p, q);
                if seen.insert(next) {
                    queue.push_back(next);
                }
            }
        }
    }
    cells
}

#[test]
fn box_pulls_reach_every_cell_and_are_legal_pulls() {
    let lv = level(
        "
#########
#       #
#  $ $  #
# # @   #
#  $    #
#.. .   #
#########
",
    );
    let b = board::Board::new(&lv).unwrap();
    let dead = board::DistTable::from_sources(&b, &b.start_boxes).dead;
    let mut sp = space::Space::new(b.n);
    let mut moves_seen = 0;
    for (i, &c) in b.start_boxes.iter().enumerate() {
        let others: Vec<u16> = b.start_boxes.iter().copied().filter(|&o| o != c).collect();
        sp.set(&b.start_boxes);
        let norm = sp.reach(&b, b.start_player, false);
        let moves = packing::box_pull_destinations(&b, &mut sp, &dead, c, norm, &[0, 1, 2, 3]);
        sp.clear(&b.start_boxes);
        let got: HashSet<u16> = moves.iter().map(|m| m.to).filter(|&t| t != c).collect();
        assert_eq!(
            got,
            pull_closure(&b, &dead, c, b.start_player, &others),
            "box {i}"
        );
        for m in &moves {
            moves_seen += 1;
            // Play the pulls on the cells: before each, the player must be
            // able to walk to the box's side; the box follows the player.
            let mut boxes = b.start_boxes.clone();
            let mut player = b.start_player;
            for &(x, d) in &m.pushes {
                let p = b.nbr[x as usize][d as usize];
                let t = b.nbr[p as usize][d as usize];
                sp.set(&boxes);
                sp.reach(&b, player, false);
                assert!(sp.reached(p), "box {i}: the player cannot get to {p}");
                assert_eq!(sp.occ[t as usize], 0, "box {i}: {t} is taken");
                sp.clear(&boxes);
                let k = boxes.iter().position(|&y| y == x).expect("a box to pull");
                boxes[k] = p;
                player = t;
            }
            let mut want = others.clone();
            want.push(m.to);
            want.sort_unstable();
            boxes.sort_unstable();
            assert_eq!(boxes, want, "box {i}");
            assert_eq!(player, m.player, "box {i}");
            sp.set(&boxes);
            assert_eq!(sp.reach(&b, player, false), m.norm, "box {i}");
            sp.clear(&boxes);
        }
    }
    assert!(moves_seen > 10, "{moves_seen} moves");
}
