#![no_main]
//! See `games::fuzzing::sokoban_rle_lurd` for what this target checks.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| games::fuzzing::sokoban_rle_lurd(data));
