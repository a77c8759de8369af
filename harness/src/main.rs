//! The `arena` binary (skeleton; the runner lands next).
fn main() {}
