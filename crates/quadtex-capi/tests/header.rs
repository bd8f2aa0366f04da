//! `include/quadtex.h` is what cbindgen generates from this crate with
//! `cbindgen.toml`: a change to the C API that forgot the header fails
//! here. `QUADTEX_BLESS=1` rewrites the header instead.

use std::path::Path;

#[test]
fn header_is_generated() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(dir.join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_crate(dir)
        .with_config(config)
        .generate()
        .expect("cbindgen parses the crate");
    let mut generated = Vec::new();
    bindings.write(&mut generated);
    let path = dir.join("include/quadtex.h");
    if std::env::var_os("QUADTEX_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write include/quadtex.h");
    }
    let checked_in = std::fs::read(&path).expect("include/quadtex.h");
    assert!(
        checked_in == generated,
        "include/quadtex.h differs from what cbindgen generates: run \
         `QUADTEX_BLESS=1 cargo test --release --test header` in crates/quadtex-capi"
    );
    let text = String::from_utf8(generated).expect("UTF-8");
    // The header declares what the examples use.
    for name in [
        "QtxStatus qtx_sample(",
        "QtxStatus qtx_gather(",
        "QtxStatus qtx_fetch(",
        "QtxStatus qtx_query_lod(",
        "QtxStatus qtx_sass_execute(",
        "QtxStatus qtx_ptx_execute(",
        "QtxStatus qtx_d3d_execute(",
        "typedef struct QtxTexture QtxTexture;",
        "#define QTX_ERROR_WRONG_SIZE 3",
    ] {
        assert!(text.contains(name), "the header lacks `{name}`");
    }
}
