//! SPIR bitcode (or LLVM IR text) through the SPIR reader and every writer behind it
//! (src/lib.rs of this crate says what counts as a finding).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| spir_xlate_fuzz::spir_reader(data));
