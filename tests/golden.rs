//! Golden images: every scene in `scenes/` rendered at 256x144 and compared
//! with the reference PNG in `tests/golden/NAME.png`.
//!
//! Set `QUADTEX_BLESS=1` to write the references instead
//! (`QUADTEX_BLESS=1 cargo test --release --test golden`), then look at
//! every one before committing it.
//!
//! # Exact
//!
//! Images are compared as the 8-bit sRGB PNGs `quadtex render` writes, and
//! they must be identical, byte for byte. The renderer is deterministic
//! (any thread count gives the same bits, pinned by
//! `thread_count_does_not_change_the_picture`), and every SIMD path of the
//! sampler returns the scalar reference's bits on every instruction set
//! (the twin tests), so no build of the same source may move a pixel: CI
//! runs this test at `target-cpu=native` and at `x86-64-v2`. A difference
//! is a change of behaviour, to be looked at and blessed on purpose.

use std::path::{Path, PathBuf};

use quadtex::raster::{ColorTarget, Renderer};
use quadtex::scene::{render_scene, render_scene_with, RenderOptions, Scene};

const WIDTH: u32 = 256;
const HEIGHT: u32 = 144;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn options(threads: usize) -> RenderOptions {
    RenderOptions {
        width: Some(WIDTH),
        height: Some(HEIGHT),
        threads,
        ..RenderOptions::default()
    }
}

/// The scene rendered at golden size, as 8-bit sRGB RGBA.
fn render(name: &str) -> (Vec<u8>, ColorTarget) {
    let scene = Scene::load(root().join("scenes").join(format!("{name}.toml")))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let r = render_scene(&scene, &options(2)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!((r.image.width(), r.image.height()), (WIDTH, HEIGHT));
    let png = r.image.encode_png().expect("encode");
    let rgba = image::load_from_memory(&png).expect("decode").to_rgba8();
    (rgba.into_raw(), r.image)
}

fn reference(name: &str) -> PathBuf {
    root().join("tests/golden").join(format!("{name}.png"))
}

/// Renders `name` and compares it with its reference (or blesses it).
fn check(name: &str) {
    let (ours, target) = render(name);
    let path = reference(name);
    if std::env::var_os("QUADTEX_BLESS").is_some_and(|v| v == "1") {
        target.save_png(&path).expect("write reference");
        return;
    }
    let golden = image::open(&path)
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e} (QUADTEX_BLESS=1 writes the references)",
                path.display()
            )
        })
        .to_rgba8();
    assert_eq!(
        golden.dimensions(),
        (WIDTH, HEIGHT),
        "{name}: reference size"
    );
    let golden = golden.into_raw();
    let (ours, golden) = (ours.as_chunks::<4>().0, golden.as_chunks::<4>().0);
    let differing: Vec<usize> = (0..ours.len()).filter(|&i| ours[i] != golden[i]).collect();
    let worst = differing
        .iter()
        .flat_map(|&i| (0..4).map(move |c| ours[i][c].abs_diff(golden[i][c])))
        .max()
        .unwrap_or(0);
    assert!(
        differing.is_empty(),
        "{name}: {} of {} pixels differ from the reference (worst channel {worst}/255; \
         first at ({}, {}): {:?} against {:?})",
        differing.len(),
        ours.len(),
        differing[0] % WIDTH as usize,
        differing[0] / WIDTH as usize,
        ours[differing[0]],
        golden[differing[0]],
    );
}

macro_rules! golden {
    ($($test:ident => $scene:literal),* $(,)?) => {
        $(
            #[test]
            fn $test() {
                check($scene);
            }
        )*

        /// Every scene file in `scenes/` has a golden test above.
        #[test]
        fn every_scene_has_a_golden_test() {
            let mut files: Vec<String> = std::fs::read_dir(root().join("scenes"))
                .expect("scenes/")
                .filter_map(|e| {
                    let p = e.ok()?.path();
                    (p.extension()? == "toml").then(|| p.file_stem()?.to_str().map(String::from))?
                })
                .collect();
            files.sort();
            let mut tested = vec![$($scene.to_string()),*];
            tested.sort();
            assert_eq!(files, tested);
        }
    };
}

golden! {
    golden_arrays => "arrays",
    golden_checker_plane => "checker_plane",
    golden_cubemap => "cubemap",
    golden_mip_levels => "mip_levels",
    golden_msaa => "msaa",
    golden_shadows => "shadows",
    golden_showcase => "showcase",
    golden_volume => "volume",
}

/// One thread and several give the same bits and the same counts, for the
/// scene that uses every pass (shadow map, MSAA, resolve).
#[test]
fn thread_count_does_not_change_the_picture() {
    let scene = Scene::load(root().join("scenes/showcase.toml")).expect("load");
    let one = render_scene(&scene, &options(1)).expect("1 thread");
    for threads in [2, 3, 5] {
        let renderer = Renderer::new(threads).expect("pool");
        let many = render_scene_with(&renderer, &scene, &options(threads)).expect("n threads");
        assert!(one.image == many.image, "{threads} threads: pixels differ");
        assert_eq!(one.stats.counts(), many.stats.counts(), "{threads} threads");
        assert_eq!(
            one.shadow_stats.map(|s| s.counts()),
            many.shadow_stats.map(|s| s.counts())
        );
    }
}

/// The showcase samples, gathers and queries LODs, in both passes (its
/// resolve reads the target directly and fetches nothing).
#[test]
fn showcase_samples_gathers_and_queries_lods() {
    let scene = Scene::load(root().join("scenes/showcase.toml")).expect("load");
    let r = render_scene(&scene, &options(2)).expect("render");
    assert_eq!(r.msaa, 4);
    let tex = r.stats.tex;
    assert!(tex.sample > 0 && tex.gather > 0 && tex.query_lod > 0);
    // The resolve reads the target's bytes: no fetches.
    assert_eq!(tex.fetch, 0);
    assert!(r.shadow_stats.is_some_and(|s| s.quads > 0));
    // The sky's clear colour never shows: the skybox covers every pixel.
    let clear = scene.output.clear.to_array();
    assert!(r.image.values().iter().all(|p| *p != clear));
}
