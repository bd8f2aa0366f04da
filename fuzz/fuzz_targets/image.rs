//! `cargo fuzz run image`: the `image` target of the quadtex-fuzz crate.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    quadtex_fuzz::target("image").expect("a target of that name")(data);
});
