//! Helpers shared by the CLI test binaries (`mod common;` in each).

use std::process::Command;

/// Run the `arena` binary with `args` from the harness crate's folder and
/// return (exit code, stdout, stderr).
pub fn arena(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("arena runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
