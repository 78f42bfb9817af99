#![no_main]
//! libFuzzer target: see `fuzz/harness.rs` (`fuzz_eval`) and `fuzz/README.md`.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = tb_fuzz::fuzz_eval(data);
});
