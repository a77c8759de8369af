#![no_main]
//! See `games::fuzzing::supply_instance` for what this target checks.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| games::fuzzing::supply_instance(data));
