#![no_main]
//! See `harness::fuzzing::botzone_answer` for what this target checks.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| harness::fuzzing::botzone_answer(data));
