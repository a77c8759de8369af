#![no_main]
//! See `harness::fuzzing::uci_answer` for what this target checks.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| harness::fuzzing::uci_answer(data));
