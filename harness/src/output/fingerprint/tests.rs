use super::*;
use std::path::Path;

/// A bait config with a level file and an external agent in `dir`.
fn write_run(dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir.join("levels")).unwrap();
    std::fs::write(
        dir.join("levels/mine.txt"),
        "wwwww\nwgAww\nww..w\nw.11w\nwwk.w\nwwwww\n",
    )
    .unwrap();
    std::fs::create_dir_all(dir.join("bot")).unwrap();
    let bot = dir.join("bot/bot.sh");
    std::fs::write(&bot, "#!/bin/sh\nexit 0\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&bot, std::fs::Permissions::from_mode(0o755)).unwrap();
    let cfg = dir.join("run.toml");
    std::fs::write(
        &cfg,
        "game = \"bait\"\nlevels = [\"levels/mine.txt\", 1]\nseed = 3\n\
         [[agents]]\ncommand = [\"bot/bot.sh\"]\n[[agents]]\nagent = \"random\"\n",
    )
    .unwrap();
    cfg
}

#[test]
fn moving_a_results_folder_with_its_config_keeps_the_fingerprint() {
    let tmp = tempfile::tempdir().unwrap();
    let before = tmp.path().join("a/project");
    let cfg = crate::registry::load_config(&write_run(&before)).unwrap();
    let (print, h) = of_version(&cfg, VERSION).unwrap();
    assert_eq!(print["levels"], json!(["levels/mine.txt", "1"]), "{print}");
    assert_eq!(print["agents"][0]["agent"]["workdir"], "bot", "{print}");
    let old_v1 = of_version(&cfg, 1).unwrap().1;

    let after = tmp.path().join("elsewhere");
    std::fs::rename(tmp.path().join("a"), &after).unwrap();
    let moved = crate::registry::load_config(&after.join("project/run.toml")).unwrap();
    assert_eq!(of_version(&moved, VERSION).unwrap(), (print, h));
    // Version 1 held the absolute working folder: moving changed it.
    assert_ne!(of_version(&moved, 1).unwrap().1, old_v1);
}

#[test]
fn the_json_names_and_the_hash_are_fixed() {
    let cfg = crate::registry::parse_config(
        "game = \"connect4\"\nlevels = [\"start\"]\nseed = 7\nrepetitions = 2\n\
         [time]\nact = \"1s\"\nact_hard = \"2s\"\nclock = \"cpu\"\n\
         [[agents]]\nagent = \"uct\"\nname = \"u\"\nparams = { iterations = 200 }\n\
         [[agents]]\nagent = \"random\"\n",
        Path::new("pinned.toml"),
    )
    .unwrap();
    let (print, h) = of_version(&cfg, VERSION).unwrap();
    // Renaming a field of the Rust structs must not change this text (the
    // serde names are fixed), nor reordering them (the keys are sorted).
    assert_eq!(
        canonical(&print),
        r#"{"agents":[{"agent":{"kind":"built-in","name":"uct","params":{"iterations":200}},"label":"u","time":{"act":"1s","act_hard":"2s","clock":"cpu","init":"1s","init_hard":"1s 250ms","on_overrun":"fallback"}},{"agent":{"kind":"built-in","name":"random","params":{}},"label":"random","time":{"act":"1s","act_hard":"2s","clock":"cpu","init":"1s","init_hard":"1s 250ms","on_overrun":"fallback"}}],"format":"round-robin","game":"connect4","levels":["start"],"max_steps":null,"openings":null,"pairs":true,"repetitions":2,"seed":7,"sprt":null,"time":{"act":"1s","act_hard":"2s","clock":"cpu","init":"1s","init_hard":"1s 250ms","on_overrun":"fallback"}}"#
    );
    assert_eq!(h, crate::digest::hash(&canonical(&print)));
    // Any value that defines the run changes the hash.
    let mut other = cfg.clone();
    other.seed = 8;
    assert_ne!(of_version(&other, VERSION).unwrap().1, h);
    // What does not define it leaves it.
    let mut same = cfg.clone();
    same.name = "renamed".into();
    same.concurrency = 7;
    same.replays = false;
    assert_eq!(of_version(&same, VERSION).unwrap().1, h);
    assert_eq!(of_version(&cfg, VERSION + 1), None);
}

#[test]
fn version_1_is_computed_as_that_arena_did() {
    // The config of tests/fixtures/meta-v1, whose meta.json an arena
    // before the fingerprint struct wrote with this hash.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/meta-v1/old.toml"
    ))
    .unwrap();
    let cfg = crate::registry::parse_config(&text, Path::new("old.toml")).unwrap();
    assert_eq!(of_version(&cfg, 1).unwrap().1, "4e2963aa10562603");
}

#[test]
fn relative_paths_keep_what_shares_only_the_root() {
    let tmp = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(tmp.path()).unwrap();
    std::fs::create_dir_all(base.join("x/y")).unwrap();
    std::fs::create_dir_all(base.join("z")).unwrap();
    assert_eq!(relative(&base.join("x/y"), &base.join("z")), "../../z");
    assert_eq!(relative(&base.join("x"), &base.join("x")), ".");
    assert_eq!(relative(&base.join("x"), &base.join("x/y")), "y");
    assert_eq!(relative(&base, Path::new("/")), "/");
}
