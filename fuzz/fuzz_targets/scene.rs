//! `cargo fuzz run scene`: the `scene` target of the quadtex-fuzz crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    quadtex_fuzz::target("scene").expect("a target of that name")(data);
});
