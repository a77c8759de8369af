//! Records the git commit arena is built from (`meta.json`'s `git_commit`).
//!
//! Cargo reruns this script when HEAD or a branch moves. The paths come from
//! git itself: in a worktree `.git` is a file, and a path that does not exist
//! would make cargo rerun the script, and rebuild the crate, on every build.
//! Outside a git checkout the commit is "unknown" and only this file counts.

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

fn main() {
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
