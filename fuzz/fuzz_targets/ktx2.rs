//! `cargo fuzz run ktx2`: the `ktx2` target of the quadtex-fuzz crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    quadtex_fuzz::target("ktx2").expect("a target of that name")(data);
});
