#![no_main]
//! See `games::fuzzing::vgdl_parse` for what this target checks.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| games::fuzzing::vgdl_parse(data));
