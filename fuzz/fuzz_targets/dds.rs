//! `cargo fuzz run dds`: the `dds` target of the quadtex-fuzz crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    quadtex_fuzz::target("dds").expect("a target of that name")(data);
});
