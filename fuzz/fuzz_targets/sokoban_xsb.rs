#![no_main]
//! See `games::fuzzing::sokoban_xsb` for what this target checks.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| games::fuzzing::sokoban_xsb(data));
