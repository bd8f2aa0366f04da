//! DDS: files made by ImageMagick, Pillow, NVIDIA Texture Tools and bc7enc
//! (`tests/fixtures/dds/`, see its README) read to the right texels, and
//! DX10 arrays, cube arrays and volumes laid out by the `ddsfile` crate's
//! writer land in the right layers and levels.
//!
//! Tolerances, in 8-bit codes:
//! - uncompressed files: exact against the source PNG;
//! - block-compressed files against another decoder's output (Pillow's BCn
//!   decoder, or `nvdecompress` for the cube): at most 1 for BC1-BC5 (the
//!   spec leaves the rounding of the interpolated colours and alphas to the
//!   decoder; bcdec and Pillow round differently), 0 for BC7 (fully
//!   specified integer arithmetic);
//! - mip levels against texture2ddecoder's decode of the same blocks: at
//!   most 1, as above;
//! - block-compressed files against the source: the encoders' loss as
//!   measured on these fixtures, rounded up (the `src_tol` column: 4 to 48;
//!   BC1 fits a line through a 2D colour ramp, so a 16-texel block of the
//!   RG ramp misses by up to ~50). These bounds only catch gross errors (a
//!   wrong format or swizzle is off by 100 or more); the reference decodes
//!   are the tight check.

#![cfg(feature = "io")]

use quadtex_format::io::{
    encode_png, load_bytes, load_bytes_limited, load_file, read_dds, ColorSpace,
};
use quadtex_format::{Aspect, Texel, TexelAddr, Texture, TextureFormat as F, TextureKind as K};

mod common;
use common::container_reason;

fn fixture_path(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/dds")
        .join(name)
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(fixture_path(name)).unwrap()
}

/// A PNG fixture as RGBA8 (grey expands to L, L, L, 255 and so on).
fn png_rgba(name: &str) -> (u32, u32, Vec<[u8; 4]>) {
    let img = image::open(fixture_path(name)).unwrap().into_rgba8();
    let (w, h) = img.dimensions();
    (w, h, img.pixels().map(|p| p.0).collect())
}

/// One subresource as 8-bit codes: UNORM values `x 255` (every fixture
/// format is UNORM, so these are the stored or decoded codes).
fn codes(t: &Texture, level: u32, layer: u32) -> Vec<[u8; 4]> {
    let e = t.desc().level_extent(level);
    let mut out = Vec::new();
    for y in 0..e.height {
        for x in 0..e.width {
            let Some(Texel::Float(v)) =
                t.read_texel(TexelAddr::new(level, layer, 0, x, y, 0), Aspect::Color)
            else {
                panic!("texel ({x}, {y}) of level {level} layer {layer} does not decode")
            };
            out.push(v.map(|c| (c.clamp(0.0, 1.0) * 255.0).round() as u8));
        }
    }
    out
}

/// Largest difference over the channels in `chans`.
fn max_diff(a: &[[u8; 4]], b: &[[u8; 4]], chans: &[usize]) -> u8 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .flat_map(|(p, q)| chans.iter().map(move |&c| p[c].abs_diff(q[c])))
        .max()
        .unwrap()
}

struct Case {
    file: &'static str,
    format: F,
    levels: u32,
    source: &'static str,
    /// Channels compared: what the format stores.
    chans: &'static [usize],
    /// Against the reference decoder.
    ref_tol: u8,
    /// Against the source image.
    src_tol: u8,
}

const RGB: &[usize] = &[0, 1, 2];
const RGBA: &[usize] = &[0, 1, 2, 3];

const CASES: &[Case] = &[
    Case {
        file: "im_dxt1_mips.dds",
        format: F::Bc1RgbaUnorm,
        levels: 5,
        source: "src_rgb.png",
        chans: RGBA,
        ref_tol: 1,
        src_tol: 40,
    },
    Case {
        file: "im_dxt5_mips.dds",
        format: F::Bc3Unorm,
        levels: 5,
        source: "src_rgba.png",
        chans: RGBA,
        ref_tol: 1,
        src_tol: 40,
    },
    Case {
        file: "im_argb_mips.dds",
        format: F::Bgra8Unorm,
        levels: 5,
        source: "src_rgba.png",
        chans: RGBA,
        ref_tol: 0,
        src_tol: 0,
    },
    Case {
        file: "im_rgb.dds",
        format: F::Rgba8Unorm,
        levels: 1,
        source: "src_rgb.png",
        chans: RGBA,
        ref_tol: 0,
        src_tol: 0,
    },
    Case {
        file: "nv_bc2.dds",
        format: F::Bc2Unorm,
        levels: 1,
        source: "src_rgba.png",
        chans: RGBA,
        ref_tol: 1,
        src_tol: 48,
    },
    Case {
        file: "pil_bc5.dds",
        format: F::Bc5Unorm,
        levels: 1,
        source: "src_rgb.png",
        chans: &[0, 1],
        ref_tol: 1,
        src_tol: 12,
    },
    Case {
        file: "pil_l.dds",
        format: F::R8Unorm,
        levels: 1,
        source: "src_grey.png",
        chans: &[0],
        ref_tol: 0,
        src_tol: 0,
    },
    Case {
        file: "pil_la.dds",
        format: F::Rgba8Unorm,
        levels: 1,
        source: "src_grey.png",
        chans: RGB,
        ref_tol: 0,
        src_tol: 0,
    },
    Case {
        file: "nv_bc4_mips.dds",
        format: F::Bc4Unorm,
        levels: 5,
        source: "src_grey.png",
        chans: &[0],
        ref_tol: 1,
        src_tol: 20,
    },
    Case {
        file: "nv_bc5_mips.dds",
        format: F::Bc5Unorm,
        levels: 5,
        source: "src_rgb.png",
        chans: &[0, 1],
        ref_tol: 1,
        src_tol: 4,
    },
    Case {
        file: "bc7enc_bc7.dds",
        format: F::Bc7Unorm,
        levels: 1,
        source: "src_rgba.png",
        chans: RGBA,
        ref_tol: 0,
        src_tol: 20,
    },
    Case {
        file: "bc7enc_bc4.dds",
        format: F::Bc4Unorm,
        levels: 1,
        source: "src_grey.png",
        chans: &[0],
        ref_tol: 1,
        src_tol: 20,
    },
];

/// Bytes of header (and DX10 header) before the texel data.
fn header_len(file: &[u8]) -> usize {
    if &file[84..88] == b"DX10" {
        148
    } else {
        128
    }
}

#[test]
fn tool_made_files_read_to_the_right_texels() {
    for c in CASES {
        let file = fixture(c.file);
        let t = read_dds(&file).unwrap_or_else(|e| panic!("{}: {e}", c.file));
        let d = t.desc();
        assert_eq!(
            (d.kind, d.format, d.width, d.height, d.layers, d.levels),
            (K::D2, c.format, 16, 16, 1, c.levels),
            "{}",
            c.file
        );
        // Our size accounting of every level matches the tool's file
        // exactly (for the converted 24-bit and L+A files, the file's own
        // 3 and 2 bytes a texel).
        let per_texel_file = match c.file {
            "im_rgb.dds" => Some(3),
            "pil_la.dds" => Some(2),
            _ => None,
        };
        let data = match per_texel_file {
            Some(b) => 16 * 16 * b,
            None => d.total_bytes().unwrap() as usize,
        };
        assert_eq!(file.len(), header_len(&file) + data, "{}", c.file);

        let stem = c.file.trim_end_matches(".dds");
        let ours = codes(&t, 0, 0);
        let (_, _, reference) = png_rgba(&format!("{stem}.ref.png"));
        let (_, _, source) = png_rgba(c.source);
        let r = max_diff(&ours, &reference, c.chans);
        let s = max_diff(&ours, &source, c.chans);
        assert!(r <= c.ref_tol, "{}: {r} from the reference decode", c.file);
        assert!(s <= c.src_tol, "{}: {s} from the source", c.file);
        for l in 1..c.levels {
            let (_, _, reference) = png_rgba(&format!("{stem}.mip{l}.ref.png"));
            let r = max_diff(&codes(&t, l, 0), &reference, c.chans);
            assert!(
                r <= c.ref_tol,
                "{} level {l}: {r} from the reference",
                c.file
            );
        }
    }
}

#[test]
fn pillow_la_keeps_alpha_and_greys_the_colour() {
    let t = read_dds(&fixture("pil_la.dds")).unwrap();
    let (_, _, grey) = png_rgba("src_grey.png");
    let (_, _, rgba) = png_rgba("src_rgba.png");
    let ours = codes(&t, 0, 0);
    for ((o, g), a) in ours.iter().zip(&grey).zip(&rgba) {
        assert_eq!(*o, [g[0], g[0], g[0], a[3]]);
    }
}

#[test]
fn legacy_cube_map_faces_and_mips_are_in_place() {
    let file = fixture("nv_cube_bc1_mips.dds");
    let t = read_dds(&file).unwrap();
    let d = *t.desc();
    assert_eq!(
        (d.kind, d.format, d.width, d.layers, d.levels),
        (K::Cube, F::Bc1RgbaUnorm, 8, 6, 4)
    );
    assert_eq!(file.len(), 128 + d.total_bytes().unwrap() as usize);
    let (_, _, nv) = png_rgba("nv_cube_bc1_mips.ref.png");
    assert!(max_diff(&codes(&t, 0, 0), &nv, RGBA) <= 1);
    for face in 0..6 {
        // Level 0 of each face, as ImageMagick reads the cube: this pins
        // the face order and the face stride (a whole mip chain).
        let (_, _, im) = png_rgba(&format!("nv_cube_bc1_mips.face{face}.ref.png"));
        let (_, _, src) = png_rgba(&format!("src_face{face}.png"));
        let level0 = codes(&t, 0, face);
        let r = max_diff(&level0, &im, RGBA);
        assert!(r <= 1, "face {face}: {r} from ImageMagick");
        let s = max_diff(&level0, &src, RGBA);
        assert!(s <= 56, "face {face}: {s} from the source");
        for l in 1..d.levels {
            let name = format!("nv_cube_bc1_mips.face{face}.mip{l}.ref.png");
            let (_, _, reference) = png_rgba(&name);
            let r = max_diff(&codes(&t, l, face), &reference, RGBA);
            assert!(r <= 1, "face {face} level {l}: {r} from the reference");
        }
    }
}

#[test]
fn load_file_and_load_bytes_dispatch_dds_by_magic() {
    let a = load_file(fixture_path("bc7enc_bc7.dds")).unwrap();
    let b = load_bytes(&fixture("bc7enc_bc7.dds")).unwrap();
    assert_eq!(a.to_linear_bytes(), b.to_linear_bytes());
    assert_eq!(a.format(), F::Bc7Unorm);
}

#[test]
fn png_of_a_bc7_fixture_matches_the_reference_decode() {
    let t = read_dds(&fixture("bc7enc_bc7.dds")).unwrap();
    let png = encode_png(&t, 0, 0, 0).unwrap();
    let ours = image::load_from_memory(&png).unwrap().into_rgba8();
    let (_, _, reference) = png_rgba("bc7enc_bc7.ref.png");
    let ours: Vec<[u8; 4]> = ours.pixels().map(|p| p.0).collect();
    assert_eq!(max_diff(&ours, &reference, RGBA), 0);
}

/// A DDS built by `ddsfile`'s writer: `fill(layer, level, i)` gives byte
/// `i` of that subresource; `ddsfile` decides where each layer's mip chain
/// lives (`get_mut_data`), we only lay the levels of one layer end to end.
fn ddsfile_built(params: ddsfile::NewDxgiParams, bpp: u32) -> Vec<u8> {
    let mut dds = ddsfile::Dds::new_dxgi(params.clone()).unwrap();
    let layers = dds.get_num_array_layers();
    let levels = params.mipmap_levels.unwrap_or(1);
    for layer in 0..layers {
        let data = dds.get_mut_data(layer).unwrap();
        let mut pos = 0;
        for level in 0..levels {
            let w = (params.width >> level).max(1);
            let h = (params.height >> level).max(1);
            let d = (params.depth.unwrap_or(1) >> level).max(1);
            for i in 0..(w * h * d * bpp) {
                data[pos] = fill(layer, level, i);
                pos += 1;
            }
        }
        assert_eq!(pos, data.len());
    }
    let mut out = Vec::new();
    dds.write(&mut out).unwrap();
    out
}

fn fill(layer: u32, level: u32, i: u32) -> u8 {
    (layer * 40 + level * 9 + i % 7) as u8
}

fn params(
    dim: ddsfile::D3D10ResourceDimension,
    (w, h, d): (u32, u32, Option<u32>),
    levels: u32,
    layers: u32,
    cube: bool,
) -> ddsfile::NewDxgiParams {
    ddsfile::NewDxgiParams {
        height: h,
        width: w,
        depth: d,
        format: ddsfile::DxgiFormat::R8G8B8A8_UNorm,
        mipmap_levels: Some(levels),
        array_layers: Some(layers),
        caps2: d.map(|_| ddsfile::Caps2::VOLUME),
        is_cubemap: cube,
        resource_dimension: dim,
        alpha_mode: ddsfile::AlphaMode::Unknown,
    }
}

fn assert_layer_major_reordered(t: &Texture) {
    let d = t.desc();
    for level in 0..d.levels {
        for layer in 0..d.layers {
            let sub = t.subresource_bytes(level, layer, 0).unwrap();
            let want: Vec<u8> = (0..sub.len() as u32)
                .map(|i| fill(layer, level, i))
                .collect();
            assert_eq!(sub, want, "{:?} level {level} layer {layer}", d.kind);
        }
    }
}

#[test]
fn dx10_arrays_cube_arrays_and_volumes_are_reordered_level_major() {
    use ddsfile::D3D10ResourceDimension as R;
    let cases = [
        (
            params(R::Texture2D, (8, 4, None), 4, 3, false),
            K::D2Array,
            3,
        ),
        (
            params(R::Texture2D, (4, 4, None), 3, 12, true),
            K::CubeArray,
            12,
        ),
        (params(R::Texture2D, (4, 4, None), 3, 6, true), K::Cube, 6),
        (
            params(R::Texture1D, (16, 1, None), 5, 2, false),
            K::D1Array,
            2,
        ),
        (params(R::Texture3D, (8, 4, Some(4)), 4, 1, false), K::D3, 1),
    ];
    for (p, kind, layers) in cases {
        let t = read_dds(&ddsfile_built(p.clone(), 4)).unwrap();
        let d = t.desc();
        assert_eq!(
            (d.kind, d.layers, d.levels),
            (kind, layers, p.mipmap_levels.unwrap())
        );
        assert_eq!(d.format, F::Rgba8Unorm);
        assert_layer_major_reordered(&t);
    }
}

#[test]
fn legacy_volume_texture_reads_every_slice_of_every_level() {
    let p = ddsfile::NewD3dParams {
        height: 4,
        width: 8,
        depth: Some(4),
        format: ddsfile::D3DFormat::A8R8G8B8,
        mipmap_levels: Some(4),
        caps2: Some(ddsfile::Caps2::VOLUME),
    };
    let mut dds = ddsfile::Dds::new_d3d(p).unwrap();
    let data = dds.get_mut_data(0).unwrap();
    for (i, b) in data.iter_mut().enumerate() {
        *b = (i % 251) as u8;
    }
    let mut file = Vec::new();
    dds.write(&mut file).unwrap();
    let t = read_dds(&file).unwrap();
    let d = t.desc();
    assert_eq!(
        (d.kind, d.format, d.depth, d.levels),
        (K::D3, F::Bgra8Unorm, 4, 4)
    );
    let want: Vec<u8> = (0..t.to_linear_bytes().len())
        .map(|i| (i % 251) as u8)
        .collect();
    assert_eq!(t.to_linear_bytes(), want);
}

fn dds_error(bytes: &[u8]) -> String {
    container_reason("DDS", read_dds(bytes))
}

#[test]
fn lying_headers_are_errors_before_allocation() {
    let f = fixture("im_argb_mips.dds");
    // 16384 x 16384 with five levels: 1 GiB described, 1364 bytes held.
    let mut g = f.clone();
    g[12..16].copy_from_slice(&16384u32.to_le_bytes());
    g[16..20].copy_from_slice(&16384u32.to_le_bytes());
    assert!(dds_error(&g).contains("texel data is 1364 bytes"));
    // 100 mip levels for 16x16.
    let mut g = f.clone();
    g[28..32].copy_from_slice(&100u32.to_le_bytes());
    assert!(dds_error(&g).contains("no valid texture"));
    // A DX10 array of 4 billion layers.
    let mut g = fixture("bc7enc_bc7.dds");
    g[128 + 12..128 + 16].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(dds_error(&g).contains("no valid texture"));
    // Truncated data.
    assert!(dds_error(&f[..f.len() - 1]).contains("texel data is 1363 bytes"));
}

#[test]
fn a_cap_on_the_texture_size_is_checked_before_anything_is_allocated() {
    // 16x16 BGRA8 with five levels: 1024 + 256 + 64 + 16 + 4 bytes.
    let f = fixture("im_argb_mips.dds");
    assert_eq!(
        container_reason("DDS", load_bytes_limited(&f, ColorSpace::Srgb, 1363)),
        "the texture takes 1364 bytes, more than the limit of 1363"
    );
    let t = load_bytes_limited(&f, ColorSpace::Srgb, 1364).unwrap();
    assert_eq!(
        t.to_linear_bytes(),
        load_bytes(&f).unwrap().to_linear_bytes()
    );
    // Expanded formats count what they expand to: Pillow's L+A (2 bytes
    // a texel in the file) becomes RGBA8 (4).
    let f = fixture("pil_la.dds");
    let t = load_bytes(&f).unwrap();
    let n = t.to_linear_bytes().len() as u64;
    assert_eq!(n, 2 * (f.len() as u64 - 128));
    assert!(load_bytes_limited(&f, ColorSpace::Srgb, n - 1).is_err());
    assert!(load_bytes_limited(&f, ColorSpace::Srgb, n).is_ok());
}

#[test]
fn partial_cube_maps_and_unknown_fourccs_are_named_errors() {
    let f = fixture("nv_cube_bc1_mips.dds");
    let mut g = f.clone();
    // caps2 at 4 + 108: drop the -Z face.
    let caps2 = u32::from_le_bytes(g[112..116].try_into().unwrap()) & !0x8000;
    g[112..116].copy_from_slice(&caps2.to_le_bytes());
    assert!(dds_error(&g).contains("six faces"));
    let mut g = f;
    g[84..88].copy_from_slice(b"YUY2");
    assert!(dds_error(&g).contains("YUY2"));
}
