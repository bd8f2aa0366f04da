//! `cargo fuzz run sass`: the `sass` target of the quadtex-fuzz crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    quadtex_fuzz::target("sass").expect("a target of that name")(data);
});
