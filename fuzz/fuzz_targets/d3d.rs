//! `cargo fuzz run d3d`: the `d3d` target of the quadtex-fuzz crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    quadtex_fuzz::target("d3d").expect("a target of that name")(data);
});
