//! `cargo fuzz run ptx`: the `ptx` target of the quadtex-fuzz crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    quadtex_fuzz::target("ptx").expect("a target of that name")(data);
});
