//! `gvgai:bait` (GVGAI's own `bait.txt` run by the VGDL engine) against the
//! hand-written `games::bait::Bait`: the same board, score, end and result
//! after every action, on the five levels, for many random action
//! sequences (actions drawn with NIL included, games played to the end or
//! to 300 actions).

use games::bait::{Bait, BaitAction};
use games::vgdl::{Action, State, Vgdl, VgdlGame};
use games::Game;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

fn data(p: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("data/gvgai/gridphysics")
            .join(p),
    )
    .unwrap()
}

/// The VGDL state drawn as `Bait::grid_string` draws its board.
fn grid(st: &State, w: usize, h: usize) -> String {
    let mut cells = vec![Vec::<&str>::new(); w * h];
    let mut avatar = None;
    for s in &st.sprites {
        let name = st.rules.types[s.ty as usize].name.as_str();
        let (c, r) = ((s.x / st.block) as usize, (s.y / st.block) as usize);
        assert_eq!(
            (s.x % st.block, s.y % st.block),
            (0, 0),
            "{name} off the grid"
        );
        if name == "nokey" || name == "withkey" {
            avatar = Some((r * w + c, name == "withkey", s.disabled));
        } else {
            cells[r * w + c].push(name);
        }
    }
    let mut out = String::new();
    for r in 0..h {
        if r > 0 {
            out.push('/');
        }
        for c in 0..w {
            let i = r * w + c;
            let has = |n: &str| cells[i].contains(&n);
            let ch = if has("wall") {
                'w'
            } else if let Some((_, key, dead)) = avatar.filter(|a| a.0 == i) {
                match (dead, key) {
                    (false, false) => 'A',
                    (false, true) => 'B',
                    (true, false) => 'X',
                    (true, true) => 'Y',
                }
            } else if has("box") && has("key") {
                'K'
            } else if has("box") && has("goal") {
                'G'
            } else if has("box") {
                '1'
            } else if has("hole") {
                '0'
            } else if has("key") {
                'k'
            } else if has("goal") {
                'g'
            } else if has("mushroom") {
                'm'
            } else {
                '.'
            };
            out.push(ch);
        }
    }
    out
}

fn same(v: &VgdlGame, b: &Bait, what: &str) {
    let st = &v.state;
    assert_eq!(
        grid(st, b.width(), b.height()),
        b.grid_string(),
        "{what}: board"
    );
    assert_eq!(v.score(0), b.score(0), "{what}: score");
    assert_eq!(v.is_over(), b.is_over(), "{what}: over");
    assert_eq!(v.result(0), b.result(0), "{what}: result");
    assert_eq!(v.tick(), b.tick(), "{what}: tick");
}

#[test]
fn gvgai_bait_plays_exactly_as_the_hand_written_bait() {
    let vgdl = Vgdl::parse(&data("bait.txt")).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(70);
    let mut ends = 0;
    for level in 0..5 {
        let text = data(&format!("bait_lvl{level}.txt"));
        for game in 0..300 {
            let mut v = vgdl.level(&text, 0).unwrap();
            let mut b = Bait::level(level).unwrap();
            same(&v, &b, &format!("level {level} game {game} start"));
            let mut legal = Vec::new();
            for step in 0..300 {
                if v.is_over() {
                    ends += 1;
                    break;
                }
                legal.clear();
                v.legal_actions(0, &mut legal);
                assert_eq!(
                    legal,
                    [
                        Action::Left,
                        Action::Right,
                        Action::Down,
                        Action::Up,
                        Action::Nil
                    ]
                );
                let a = legal[rng.gen_range(0..legal.len())];
                v.advance(&[a]);
                b.advance(&[BaitAction::parse(a.name()).unwrap()]);
                same(
                    &v,
                    &b,
                    &format!("level {level} game {game} step {step} ({})", a.name()),
                );
            }
        }
    }
    assert!(ends > 100, "only {ends} games reached their end");
}

#[test]
fn both_baits_end_at_gvgais_step_limit_together() {
    let vgdl = Vgdl::parse(&data("bait.txt")).unwrap();
    let mut v = vgdl.level(&data("bait_lvl1.txt"), 0).unwrap();
    let mut b = Bait::level(1).unwrap();
    while !v.is_over() {
        v.advance(&[Action::Nil]);
        b.advance(&[BaitAction::Nil]);
        same(&v, &b, "NIL");
    }
    assert!(b.is_over());
    assert_eq!(v.tick(), 2001);
    assert_eq!(v.result(0), games::PlayerResult::Loss);
}
