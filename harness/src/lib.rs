//! The arena harness (skeleton).
