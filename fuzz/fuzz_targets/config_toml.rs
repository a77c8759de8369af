#![no_main]
//! See `harness::fuzzing::config_toml` for what this target checks.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| harness::fuzzing::config_toml(data));
