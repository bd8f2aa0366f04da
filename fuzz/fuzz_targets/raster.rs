//! `cargo fuzz run raster`: the `raster` target of the quadtex-fuzz crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    quadtex_fuzz::target("raster").expect("a target of that name")(data);
});
