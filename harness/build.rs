//! Records the git commit arena is built from (`meta.json`'s `git_commit`).
//!
//! Cargo reruns this script when HEAD or a branch moves. The paths come from
//! git itself: in a worktree `.git` is a file, and a path that does not exist
//! would make cargo rerun the script, and rebuild the crate, on every build.
//! Outside a git checkout the commit is "unknown" and only this file counts.
//!
//! It also writes `gvgai_games.rs` (in `OUT_DIR`): GVGAI's shipped games
//! (`games/data/gvgai/games.tsv`, `gridphysics/`; `games2p.tsv`,
//! `2player/`) embedded with `include_str!`, for the registry's
//! `gvgai:NAME` and `gvgai2p:NAME` family.

use std::path::Path;
use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

/// One `pub static NAME: &[(name, game text, [level texts; 5])]` per row
/// of `tsv` (whose column `column` is the game's name), the files read
/// from `folder`, in the table's order.
fn shipped_table(data: &Path, static_name: &str, tsv: &str, column: usize, folder: &str) -> String {
    let tsv_path = data.join(tsv);
    println!("cargo:rerun-if-changed={}", tsv_path.display());
    println!("cargo:rerun-if-changed={}", data.join(folder).display());
    let table = std::fs::read_to_string(&tsv_path).expect("games/data/gvgai/*.tsv");
    let file = |name: String| {
        let p = data.join(folder).join(name);
        assert!(p.is_file(), "{} is missing", p.display());
        format!("include_str!({:?})", p.display().to_string())
    };
    let mut out = format!(
        "/// GVGAI's shipped games from `{folder}/`: (name, game text, level texts 0-4).\n\
         pub static {static_name}: &[(&str, &str, [&str; 5])] = &[\n"
    );
    for line in table.lines().skip(1) {
        let Some(name) = line.split('\t').nth(column) else {
            continue;
        };
        let levels: Vec<String> = (0..5).map(|i| file(format!("{name}_lvl{i}.txt"))).collect();
        out += &format!(
            "    ({name:?}, {}, [{}]),\n",
            file(format!("{name}.txt")),
            levels.join(", ")
        );
    }
    out += "];\n";
    out
}

/// `gvgai_games.rs`: `SHIPPED` (the single-player grid games,
/// `games.tsv`, `gridphysics/`) and `SHIPPED_2P` (the two-player games,
/// `games2p.tsv`, `2player/`).
fn gvgai_games() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/data/gvgai");
    let mut out = shipped_table(&data, "SHIPPED", "games.tsv", 1, "gridphysics");
    out += &shipped_table(&data, "SHIPPED_2P", "games2p.tsv", 1, "2player");
    let dest = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("gvgai_games.rs");
    std::fs::write(dest, out).expect("write gvgai_games.rs");
}

fn main() {
    gvgai_games();
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=ARENA_GIT_COMMIT={commit}");
    println!("cargo:rerun-if-changed=build.rs");
    // HEAD (per worktree), the branch it names and packed-refs (shared by
    // all worktrees): not the whole refs folder, which every commit on any
    // branch touches.
    let git_dir = git(&["rev-parse", "--path-format=absolute", "--git-dir"]);
    let common = git(&["rev-parse", "--path-format=absolute", "--git-common-dir"]);
    let branch = git(&["symbolic-ref", "-q", "HEAD"]);
    let mut watched = Vec::new();
    if let Some(dir) = &git_dir {
        watched.push(Path::new(dir).join("HEAD"));
    }
    if let Some(dir) = &common {
        if let Some(branch) = &branch {
            watched.push(Path::new(dir).join(branch));
        }
        watched.push(Path::new(dir).join("packed-refs"));
    }
    for path in watched {
        // Only paths that exist: a missing one counts as always changed.
        if path.exists() {
            println!("cargo:rerun-if-changed={}", path.display());
        }
    }
}
