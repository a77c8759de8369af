#![no_main]
//! See `games::fuzzing::bait_level` for what this target checks.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| games::fuzzing::bait_level(data));
