//! What a test does when something it needs is missing (`mod tools;`).

/// Skip the rest of a test (or one of its cases) because `why`; under CI
/// (`CI` set and not `false`) this fails instead: CI installs everything
/// the tests need (`.ci/run`), so a skip there would hide a claim that was
/// never checked.
pub fn skip(why: &str) {
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    if ci {
        panic!("{why}: under CI every test must run (.ci/run installs what tests need)");
    }
    println!("skipped (allowed outside CI only): {why}");
}
