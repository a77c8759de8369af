use super::*;
use crate::registry::{find, GameEntry};
use games::vgdl::Vgdl;

#[test]
fn a_family_member_is_found_by_name_once() {
    let a = find("gvgai:aliens").unwrap();
    assert_eq!(a.name(), "gvgai:aliens");
    let b = find("gvgai:aliens").unwrap();
    assert!(std::ptr::eq(
        a as *const dyn crate::registry::GameEntry as *const u8,
        b as *const dyn crate::registry::GameEntry as *const u8
    ));
    assert_eq!(a.players("3", 1).unwrap(), 1);
    assert_eq!(a.default_levels(), ["0", "1", "2", "3", "4"]);
    let e = find("gvgai:nosuch").unwrap_err();
    assert_eq!(e.exit_code(), 2);
    assert!(e.to_string().contains("GVGAI ships no game"), "{e}");
    let e = find("vgdl:/no/such/file.txt").unwrap_err();
    assert_eq!(e.exit_code(), 2, "{e}");
    assert!(find("snake").is_ok(), "single games are unchanged");
}

#[test]
fn colours_come_from_the_color_parameter_or_a_stable_hash() {
    let text = "BasicGame\n  SpriteSet\n    gem > Immovable color=RED\n    rocks > Immovable color=GOLD\n      pebble > Immovable\n    moss > Immovable\n    lichen > Immovable\n  LevelMapping\n    g > gem\n";
    let v = Vgdl::parse(text).unwrap();
    let colors = view::type_colors(text, v.rules());
    let of = |name: &str| {
        let i = v.rules().types.iter().position(|t| t.name == name).unwrap();
        colors[i].clone()
    };
    assert_eq!(of("gem"), "#c80000");
    assert_eq!(of("pebble"), "#fad400", "a child takes its parent's colour");
    assert_eq!(of("wall"), "#1e1e1e");
    assert_ne!(of("moss"), of("lichen"));
    assert_eq!(
        of("moss"),
        view::type_colors(text, v.rules())[v
            .rules()
            .types
            .iter()
            .position(|t| t.name == "moss")
            .unwrap()]
    );
    assert!(of("moss").starts_with('#') && of("moss").len() == 7);
}

#[test]
fn the_view_puts_every_sprite_in_its_cell_and_names_the_avatar() {
    let g = VgdlPlay::load_named("gvgai:bait", "0", 1).unwrap();
    let v = g.state_json(0);
    assert_eq!(v["game"], "gvgai:bait");
    let (row, col) = (
        v["avatar"]["cell"][0].as_u64().unwrap() as usize,
        v["avatar"]["cell"][1].as_u64().unwrap() as usize,
    );
    let ty = v["avatar"]["type"].as_str().unwrap();
    let cell = v["grid"][row][col].as_array().unwrap();
    assert!(cell.iter().any(|t| t == ty), "{cell:?}");
    let sprites: usize = v["grid"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap())
        .map(|c| c.as_array().unwrap().len())
        .sum();
    assert_eq!(sprites, g.game.trace().sprites.len());
    assert_eq!(
        v["width"].as_u64().unwrap() * v["block"].as_u64().unwrap(),
        g.game.state.screen.0 as u64
    );
}

#[test]
fn max_steps_ends_the_game_as_a_loss() {
    let mut g = VgdlPlay::load_named("gvgai:aliens", "0", 1).unwrap();
    g.set_max_steps(3);
    for _ in 0..5 {
        g.advance(&[Action::Nil]);
    }
    assert_eq!(g.tick(), 3);
    assert!(g.is_over() && g.legal_actions_vec(0).is_empty());
    assert_eq!(g.result(0), PlayerResult::Loss);
}

#[test]
fn the_generic_agents_play_on_the_engine() {
    let mut g = VgdlPlay::load_named("gvgai:aliens", "0", 1).unwrap();
    let timer = games::StepTimer::new(
        std::time::Duration::from_millis(100),
        std::time::Duration::from_millis(1),
    );
    for name in ["random", "uct"] {
        let mut a =
            crate::registry::build_agent::<VgdlPlay>(name, &AgentParams::default(), 3).unwrap();
        a.init(&g, 0, &timer);
        let act = a.act(&g, 0, &timer);
        assert!(g.is_legal(0, act));
        g.advance(&[act]);
    }
    assert_eq!(g.tick(), 2);
}

#[test]
fn every_shipped_game_is_one_game_whose_levels_name_the_game() {
    let cfg = |levels: &str| {
        crate::registry::parse_config(
            &format!(
                "name = \"t\"\ngame = \"gvgai:*\"\n{levels}\n[[agents]]\nagent = \"random\"\n"
            ),
            std::path::Path::new("t.toml"),
        )
    };
    let shipped = find("gvgai:*").unwrap();
    let members = FAMILY
        .members()
        .iter()
        .filter(|(n, _)| n.starts_with("gvgai:"))
        .count();
    assert_eq!(members, 110);
    let all = cfg("levels = [0, 3]").unwrap();
    assert_eq!(all.game, "gvgai:*");
    assert_eq!(all.levels.len(), 2 * members, "N is level N of every game");
    assert!(all.levels.contains(&"aliens:0".to_string()));
    assert!(all.levels.contains(&"zelda:3".to_string()));
    assert_eq!(
        cfg("").unwrap().levels.len(),
        members,
        "level 0 of each by default"
    );
    assert_eq!(shipped.default_levels().len(), members);
    let one = cfg("levels = [\"sokoban:2\"]").unwrap();
    assert_eq!(one.levels, ["sokoban:2"]);
    let e = cfg("levels = [\"nosuch:0\"]").unwrap_err().to_string();
    assert!(
        e.contains("levels[0]") && e.contains("GVGAI ships no game"),
        "{e}"
    );
    let e = cfg("levels = [7]").unwrap_err().to_string();
    assert!(
        e.contains("levels[0]") && e.contains("aliens level `7`"),
        "{e}"
    );
    // A level of `gvgai:*` is that game's level, with its own name.
    let a = VgdlPlay::load_named("gvgai:*", "aliens:1", 5).unwrap();
    let b = VgdlPlay::load_named("gvgai:aliens", "1", 5).unwrap();
    assert!(a == b);
    assert_eq!(a.game_name(), "gvgai:aliens");
    assert!(VgdlPlay::load_named("gvgai:*", "1", 5).is_err());
    assert!(shipped.members().is_empty());
}

#[test]
fn head_to_head_results_from_gvgais_win_states() {
    use PlayerResult::*;
    let of = |me: bool, others: &[bool]| versus(me, others.iter().copied());
    assert_eq!(of(true, &[false]), Win);
    assert_eq!(of(false, &[true]), Loss);
    assert_eq!(of(true, &[true]), Draw, "both won");
    assert_eq!(of(false, &[false]), Draw, "both lost");
    assert_eq!(of(true, &[true, false]), Win);
    assert_eq!(of(false, &[false, true]), Loss);
}

#[test]
fn a_two_player_game_has_two_seats_with_their_own_results_and_views() {
    let entry = find("gvgai2p:tron").unwrap();
    assert_eq!(entry.name(), "gvgai2p:tron");
    assert_eq!(entry.players("0", 1).unwrap(), 2);
    let single = find("gvgai:aliens").unwrap();
    let double = find("gvgai2p:aliens").unwrap();
    assert_eq!(
        (
            single.players("0", 1).unwrap(),
            double.players("0", 1).unwrap()
        ),
        (1, 2),
        "the same name in both sets is two games"
    );
    let mut g = VgdlPlay::load_named("gvgai2p:tron", "0", 1).unwrap();
    assert_eq!(g.num_players(), 2);
    assert!(g.is_active(0) && g.is_active(1));
    // Each seat's view is its own player's, and lists both.
    let (v0, v1) = (g.state_json(0), g.state_json(1));
    assert_eq!(
        (v0["seat"].as_u64(), v1["seat"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(v0["players"], v1["players"]);
    assert_eq!(v0["avatar"], v0["players"][0]["avatar"]);
    assert_eq!(v1["avatar"], v1["players"][1]["avatar"]);
    assert_ne!(v0["avatar"], v1["avatar"]);
    let t = g.trace_json();
    assert_eq!(t["avatars"].as_array().unwrap().len(), 2, "{t}");
    assert_eq!(t["winner"], serde_json::json!(["none", "none"]));
    // Play until it ends: the two results are a win and a loss, or a draw
    // each, and agree with GVGAI's win states.
    let mut rng = 7u64;
    while !g.is_over() {
        let joint: Vec<Action> = (0..2)
            .map(|s| {
                rng = rng
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let legal = g.legal_actions_vec(s);
                legal[(rng >> 33) as usize % legal.len()]
            })
            .collect();
        g.advance(&joint);
    }
    let st = &g.game.state;
    let won = |p| st.winner_of(p) == games::vgdl::Winner::Win;
    assert_eq!(g.result(0), versus(won(0), [won(1)].into_iter()));
    assert_eq!(g.result(1), versus(won(1), [won(0)].into_iter()));
    assert_eq!(g.score(1), st.others[0].score);
}

#[test]
fn a_cut_two_player_game_is_a_draw() {
    let mut g = VgdlPlay::load_named("gvgai2p:captureflag", "0", 1).unwrap();
    g.set_max_steps(2);
    for _ in 0..3 {
        g.advance(&[Action::Nil, Action::Nil]);
    }
    assert!(g.is_over() && !g.game.is_over());
    assert_eq!(
        (g.result(0), g.result(1)),
        (PlayerResult::Draw, PlayerResult::Draw)
    );
}

#[test]
fn equal_states_cover_the_other_players() {
    use std::hash::{Hash, Hasher};
    let hash = |g: &VgdlPlay| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        g.hash(&mut h);
        h.finish()
    };
    let a = VgdlPlay::load_named("gvgai2p:tron", "0", 1).unwrap();
    let mut b = a.clone();
    assert!(a == b && hash(&a) == hash(&b));
    b.game.state.others[0].score += 1.0;
    assert!(a != b);
    assert_ne!(hash(&a), hash(&b));
    let mut c = a.clone();
    c.game.state.others[0].winner = games::vgdl::Winner::Win;
    assert!(a != c);
}

#[test]
fn every_two_player_game_is_one_game_too() {
    let cfg = |levels: &str| {
        crate::registry::parse_config(
            &format!(
                "name = \"t\"\ngame = \"gvgai2p:*\"\n{levels}\n[[agents]]\nagent = \"random\"\n\
                 [[agents]]\nagent = \"mcts\"\n"
            ),
            std::path::Path::new("t.toml"),
        )
    };
    let loading = FAMILY
        .members()
        .iter()
        .filter(|(n, status)| n.starts_with("gvgai2p:") && !status.contains("does not load"))
        .count();
    assert_eq!(loading, 58, "60 less the two continuous-physics games");
    let c = cfg("levels = [\"tron:0\", \"sokoban:1\"]").unwrap();
    assert_eq!(c.levels, ["tron:0", "sokoban:1"]);
    let a = VgdlPlay::load_named("gvgai2p:*", "sokoban:1", 5).unwrap();
    assert_eq!(a.game_name(), "gvgai2p:sokoban");
    assert_eq!(a.num_players(), 2);
    let e = cfg("levels = [\"pong2p:0\"]").unwrap_err().to_string();
    assert!(e.contains("continuous physics"), "{e}");
    assert_eq!(find("gvgai2p:*").unwrap().players("tron:0", 1).unwrap(), 2);
}
