//! `cargo fuzz run sampler_twin`: the `sampler_twin` target of the quadtex-fuzz crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    quadtex_fuzz::target("sampler_twin").expect("a target of that name")(data);
});
