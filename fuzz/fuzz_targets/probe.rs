//! `cargo fuzz run probe`: the `probe` target of the quadtex-fuzz crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    quadtex_fuzz::target("probe").expect("a target of that name")(data);
});
