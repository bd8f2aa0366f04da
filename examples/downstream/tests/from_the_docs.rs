//! What a crate outside the workspace does with quadtex, written from the
//! public docs only (the crates' front pages and the docs of the items
//! used, `README.md`, `docs/semantics.md` and `docs/precision.md`), not
//! from their sources: load a KTX2 file, sample
//! it nearest and bilinearly, gather from it, and render a scene file to
//! a PNG.
//!
//! `cargo test --release` in `examples/downstream`.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use quadtex_format::{
    io, Aspect, Texel, TexelAddr, Texture, TextureDesc, TextureFormat, TextureKind,
};
use quadtex_raster::ColorFormat;
use quadtex_sampler::{
    AddressMode, GatherArgs, Profile, Quad, QuadSampler, SampleArgs, SamplerHeader, TextureHeader,
};
use quadtex_scene::{render_scene, RenderOptions, Scene};

type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

/// The repository's root, from this crate's folder.
fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `scenes/assets/checker.ktx2` through the format crate's `io` loader.
fn checker() -> Result<Texture> {
    Ok(io::load_file(repo().join("scenes/assets/checker.ktx2"))?)
}

/// Texel `(x, y)` of level 0, decoded (sRGB to linear) by the format crate.
fn texel(tex: &Texture, x: u32, y: u32) -> [f32; 4] {
    match tex.read_texel(TexelAddr::at(x, y), Aspect::Color) {
        Some(Texel::Float(v)) => v,
        other => panic!("texel ({x}, {y}) of an sRGB texture read as {other:?}"),
    }
}

/// The quad of pixels `(x, y)`, `(x+1, y)`, `(x, y+1)`, `(x+1, y+1)` in
/// lane order, each at its texel's centre of a `w` x `h` level.
fn centres(x: u32, y: u32, w: u32, h: u32) -> Quad {
    let at = |i: u32, j: u32| {
        [
            (i as f32 + 0.5) / w as f32,
            (j as f32 + 0.5) / h as f32,
            0.0,
            0.0,
        ]
    };
    Quad::new([at(x, y), at(x + 1, y), at(x, y + 1), at(x + 1, y + 1)])
}

fn lanes(r: &quadtex_sampler::QuadResult) -> [[f32; 4]; 4] {
    r.texels.map(|t| t.expect("every lane runs").to_f32())
}

#[test]
fn the_ktx2_file_is_what_it_says() -> Result {
    let tex = checker()?;
    // What the file's KTX2 header says (`quadtex info` prints it): 2D,
    // R8G8B8A8_SRGB (VkFormat 43), 96x64, 7 levels, no layers or faces.
    let d: TextureDesc = *tex.desc();
    assert_eq!(d.kind, TextureKind::D2);
    assert_eq!(d.format, TextureFormat::Rgba8Srgb);
    assert_eq!((d.width, d.height, d.depth), (96, 64, 1));
    assert_eq!((d.layers, d.samples), (1, 1));
    assert_eq!(d.levels, 7, "the full chain 96x64 .. 1x1");
    assert_eq!(d, TextureDesc::d2(TextureFormat::Rgba8Srgb, 96, 64));
    // The last level is 1x1: its texel (0, 0) exists, (1, 0) does not.
    assert!(tex
        .read_texel(TexelAddr::new(6, 0, 0, 0, 0, 0), Aspect::Color)
        .is_some());
    assert!(tex
        .read_texel(TexelAddr::new(6, 0, 0, 1, 0, 0), Aspect::Color)
        .is_none());
    assert!(tex
        .read_texel(TexelAddr::at(96, 0), Aspect::Color)
        .is_none());
    // Concrete texels (codes read from the file's bytes): (0, 0) is
    // (0, 0, 255, 255), pure blue; (8, 0) is (63, 63, 63, 255), a square of
    // the dark half of the checker; (1, 0) is (26, 0, 254, 255).
    assert_eq!(texel(&tex, 0, 0), [0.0, 0.0, 1.0, 1.0]);
    let dark = texel(&tex, 8, 0);
    assert!((dark[0] - 0.049_706_57).abs() < 1e-6, "{dark:?}");
    assert_eq!(dark, [dark[0], dark[0], dark[0], 1.0]);
    let t = texel(&tex, 1, 0);
    assert!((t[0] - 0.010_329_82).abs() < 1e-6, "{t:?}");
    assert!((t[2] - 0.991_102_1).abs() < 1e-6, "{t:?}");
    Ok(())
}

#[test]
fn nearest_at_texel_centres_reads_the_texels() -> Result {
    let tex = checker()?;
    let (w, h) = (tex.desc().width, tex.desc().height);
    let reference = tex.clone();
    let view = TextureHeader::new(Arc::new(tex));
    let sampler = SamplerHeader::nearest(AddressMode::ClampToEdge);
    let mut unit = QuadSampler::try_new(&view, &sampler, &Profile::VULKAN)?;
    // The first quad, then one across a corner of the checker's 8x8
    // squares (texels 7 and 8 on both axes).
    for (x, y) in [(0, 0), (7, 7), (40, 21)] {
        let r = unit.sample(&SampleArgs::default(), &centres(x, y, w, h));
        let want = [
            texel(&reference, x, y),
            texel(&reference, x + 1, y),
            texel(&reference, x, y + 1),
            texel(&reference, x + 1, y + 1),
        ];
        assert_eq!(lanes(&r), want, "quad at ({x}, {y})");
        if (x, y) == (0, 0) {
            assert_eq!(lanes(&r)[0], [0.0, 0.0, 1.0, 1.0]);
        }
        if (x, y) == (7, 7) {
            // (8, 7) and (7, 8) are dark squares, (7, 7) and (8, 8) not.
            assert_eq!(lanes(&r)[1], lanes(&r)[2]);
            assert_ne!(lanes(&r)[0], lanes(&r)[1]);
            assert_ne!(lanes(&r)[0], lanes(&r)[3]);
        }
    }
    Ok(())
}

/// A point between texels: `s = 7/256`, `t = 27/256` put `u = s * 96 =
/// 2.625` and `v = t * 64 = 6.75` exactly, so `i0 = floor(u - 0.5) = 2`,
/// `alpha = 0.125`, `j0 = floor(v - 0.5) = 6`, `beta = 0.25`
/// (docs/semantics.md §1 and §4).
const S: f32 = 7.0 / 256.0;
const T: f32 = 27.0 / 256.0;
const I0: u32 = 2;
const J0: u32 = 6;
const ALPHA: f32 = 0.125;
const BETA: f32 = 0.25;

#[test]
fn bilinear_between_texels_is_the_documented_formula() -> Result {
    // The constants are what the comment above says.
    assert_eq!((S * 96.0, T * 64.0), (2.625, 6.75));
    assert_eq!((S * 96.0 - 0.5).floor(), I0 as f32);
    assert_eq!((T * 64.0 - 0.5).floor(), J0 as f32);
    assert_eq!(
        ((S * 96.0 - 0.5).fract(), (T * 64.0 - 0.5).fract()),
        (ALPHA, BETA)
    );

    let tex = checker()?;
    let t00 = texel(&tex, I0, J0);
    let t10 = texel(&tex, I0 + 1, J0);
    let t01 = texel(&tex, I0, J0 + 1);
    let t11 = texel(&tex, I0 + 1, J0 + 1);
    // The four texels differ: the test would not see a wrong weight otherwise.
    assert!(t00 != t10 && t00 != t01 && t10 != t11 && t01 != t11);

    let view = TextureHeader::new(Arc::new(tex));
    let sampler = SamplerHeader::bilinear(AddressMode::ClampToEdge);
    // Every lane at the same point: zero derivatives, magnified, level 0.
    let quad = Quad::new([[S, T, 0.0, 0.0]; 4]);
    let mut unit = QuadSampler::try_new(&view, &sampler, &Profile::VULKAN)?;
    let got = lanes(&unit.sample(&SampleArgs::default(), &quad));

    // docs/precision.md, "The f32 mode" (the VULKAN profile): sRGB texels
    // decoded first, each weight the product of the per-axis weights
    // `1 - a` and `a`, the weighted texels summed rows outer, columns
    // inner, starting from -0.0.
    let (wx, wy) = ([1.0 - ALPHA, ALPHA], [1.0 - BETA, BETA]);
    let rows = [[t00, t10], [t01, t11]];
    let mut want = [0.0f32; 4];
    for (c, out) in want.iter_mut().enumerate() {
        let mut sum = -0.0f32;
        for (j, row) in rows.iter().enumerate() {
            for (i, t) in row.iter().enumerate() {
                sum += (wx[i] * wy[j]) * t[c];
            }
        }
        *out = sum;
    }
    // The docs promise the same bits from every path (and SIMD level), so
    // the formula holds exactly, not just within rounding.
    for lane in got {
        assert_eq!(
            lane.map(f32::to_bits),
            want.map(f32::to_bits),
            "sampled {lane:?}, formula {want:?}"
        );
    }
    // The point is off-centre: equal weights (a wrong alpha or beta) would
    // give something else.
    let average = (t00[0] + t10[0] + t01[0] + t11[0]) / 4.0;
    assert!((want[0] - average).abs() > 1e-3, "{want:?} {average}");
    Ok(())
}

#[test]
fn gather_returns_the_footprint_in_texture_gather_order() -> Result {
    let tex = checker()?;
    let reference = tex.clone();
    let view = TextureHeader::new(Arc::new(tex));
    let sampler = SamplerHeader::bilinear(AddressMode::ClampToEdge);
    let mut unit = QuadSampler::try_new(&view, &sampler, &Profile::VULKAN)?;
    let quad = Quad::new([[S, T, 0.0, 0.0]; 4]);
    let args = GatherArgs {
        component: 0,
        ..GatherArgs::default()
    };
    let got = lanes(&unit.gather(&args, &quad));
    let c = |i, j, k: usize| texel(&reference, i, j)[k];
    // The checker's red grows with x and its green with y, so red tells the
    // columns apart and green the rows: the two gathers pin the order.
    // textureGather: T(i0, j1), T(i1, j1), T(i1, j0), T(i0, j0).
    let order = |k| {
        [
            c(I0, J0 + 1, k),
            c(I0 + 1, J0 + 1, k),
            c(I0 + 1, J0, k),
            c(I0, J0, k),
        ]
    };
    let (red, green) = (order(0), order(1));
    assert!(
        red[0] != red[1] && green[1] != green[2],
        "{red:?} {green:?}"
    );
    for lane in got {
        assert_eq!(lane, red);
    }
    let args = GatherArgs {
        component: 1,
        ..args
    };
    for lane in lanes(&unit.gather(&args, &quad)) {
        assert_eq!(lane, green);
    }
    Ok(())
}

#[test]
fn the_showcase_scene_renders_to_a_png() -> Result {
    let scene = Scene::load(repo().join("scenes/showcase.toml"))?;
    // The scene's `crate` texture is the same KTX2 file, loaded by the scene.
    let file = checker()?;
    let crate_tex = &scene
        .texture("crate")
        .expect("showcase.toml names it")
        .header;
    assert_eq!(crate_tex.texture.desc(), file.desc());
    assert_eq!(crate_tex.texture.to_linear_bytes(), file.to_linear_bytes());

    let options = RenderOptions {
        width: Some(64),
        height: Some(48),
        threads: 1,
        ..RenderOptions::default()
    };
    let picture = render_scene(&scene, &options)?;
    let image = &picture.image;
    assert_eq!(
        (image.width(), image.height(), image.samples()),
        (64, 48, 1)
    );
    assert_eq!(picture.msaa, 4, "showcase.toml's output.msaa");
    assert_eq!(image.format(), ColorFormat::Rgba8Srgb);
    assert!(picture.total_quads() > 0);

    // Not the clear colour: the sky box, the ground and the objects cover it.
    let clear = scene.output.clear.to_array();
    let near_clear = |p: [f32; 4]| (0..4).all(|c| (p[c] - clear[c]).abs() < 0.02);
    let values = image.values();
    assert_eq!(values.len(), 64 * 48);
    let cleared = values.iter().filter(|p| near_clear(**p)).count();
    assert!(
        cleared < values.len() / 2,
        "{cleared} pixels are the clear colour"
    );
    // The top row's middle is the sky box, blue above the horizon
    // (0.45, 0.56, 0.81 when written); the bottom row's middle the ground
    // just ahead of the camera, its far-minified checker a neutral grey
    // (0.20, 0.19, 0.19).
    let sky = image.pixel(32, 0).expect("inside");
    assert!(
        sky[2] > 0.7 && sky[2] > sky[1] + 0.1 && sky[1] > sky[0] + 0.05,
        "sky {sky:?}"
    );
    let ground = image.pixel(32, 47).expect("inside");
    assert!((0.1..0.35).contains(&ground[0]), "ground {ground:?}");
    assert!((ground[0] - ground[1]).abs() < 0.03 && (ground[1] - ground[2]).abs() < 0.03);
    assert_eq!((sky[3], ground[3]), (1.0, 1.0));

    // The same scene rendered again, on two threads: the same bytes.
    let again = render_scene(
        &scene,
        &RenderOptions {
            threads: 2,
            ..options
        },
    )?;
    assert!(again.image.bytes() == image.bytes(), "two renders differ");

    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("showcase_64x48.png");
    image.save_png(&path)?;
    let png = image::open(&path)?.to_rgba8();
    assert_eq!(png.dimensions(), (64, 48));
    // An R8G8B8A8_SRGB target's PNG holds its own bytes.
    assert!(
        png.as_raw() == image.bytes(),
        "the PNG's pixels are not the frame's"
    );
    Ok(())
}
