#![no_main]
//! See `games::fuzzing::xiangqi_fen_iccs` for what this target checks.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| games::fuzzing::xiangqi_fen_iccs(data));
