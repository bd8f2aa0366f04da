//! Twin test of texel fetch: [`QuadFetcher`] (and the free [`fetch`],
//! which runs on it) against `fetch_reference`, the literal lane-by-lane
//! scalar code through the reference context and the generic decoder, bit
//! for bit (docs/architecture.md, convention 3).
//!
//! Every texture kind, formats on every decode path (the monomorphised
//! RGBA32F, RGBA16F, R32F and 8-bit RGBA/BGRA UNORM and sRGB decoders,
//! block-compressed BC and ASTC through the block cache, integer, depth,
//! packed and SNORM formats through the generic decoder, sparse textures
//! through the full load), texel data of seeded random bytes (NaN payloads,
//! denormals and -0 included), views with level and layer ranges,
//! swizzles, sRGB decode off and a kind other than the texture's, and
//! lanes with edge values: negative and huge coordinates, offsets that
//! wrap, levels, layers and samples out of range, partial running masks.
//! One fetch unit serves every quad of a view, so its caches see reuse.

use std::sync::Arc;

use quadtex_format::{Layout, Texel, Texture, TextureDesc, TextureFormat as F, TextureKind as K};
use quadtex_sampler::fetch::fetch_reference;
use quadtex_sampler::{fetch, FetchArgs, QuadFetcher, QuadResult, Swizzle, TextureHeader};

mod rng;
use rng::Rng;

/// A texel as (type, register words): NaN-safe, bit-exact equality.
type Key = Option<(u8, [u32; 4])>;

/// The [`Key`] of a lane's texel.
fn key(t: Option<Texel>) -> Key {
    t.map(|t| {
        let tag = match t {
            Texel::Float(_) => 0,
            Texel::Uint(_) => 1,
            Texel::Sint(_) => 2,
        };
        (tag, t.to_bits())
    })
}

/// A result's texel keys and residency flags.
fn keys(r: &QuadResult) -> ([Key; 4], [bool; 4]) {
    (r.texels.map(key), r.resident)
}

/// The texture of `desc` holding seeded random bytes, or `None` when the
/// format cannot have that kind.
fn random_texture(desc: TextureDesc, layout: Layout, rng: &mut Rng) -> Option<Texture> {
    desc.validate().ok()?;
    let n = desc.total_bytes()? as usize;
    let bytes: Vec<u8> = (0..n).map(|_| rng.u() as u8).collect();
    Texture::from_linear_bytes(desc, layout, &bytes).ok()
}

/// A coordinate for an axis of `extent` texels: mostly inside, else an
/// edge value.
fn coord(rng: &mut Rng, extent: u32) -> i32 {
    let e = extent as i32;
    if rng.below(8) != 0 {
        return rng.below(extent as u64) as i32;
    }
    let any = rng.u() as i32;
    rng.pick(&[0, e - 1, e, e + 1, -1, -8, 7, i32::MIN, i32::MAX, -e, any])
}

/// Fetch arguments for `view`: in range more often than not, edge values
/// otherwise.
fn args(rng: &mut Rng, view: &TextureHeader) -> FetchArgs {
    let desc = view.texture.desc();
    let levels = view.level_count as i32;
    let layers = view.layer_count as i32;
    let samples = desc.samples as i32;
    let mut a = FetchArgs::default();
    for lane in 0..4 {
        let level = if rng.below(8) != 0 {
            rng.below(view.level_count.max(1) as u64) as i32
        } else {
            rng.pick(&[-1, levels, levels + 1, 100, i32::MIN, i32::MAX, 31, 32])
        };
        // Coordinates sized for the level the lane reads (or level 0).
        let lv = view.base_level + (level.clamp(0, levels.max(1) - 1) as u32);
        let e = desc.level_extent(lv);
        let layer = if rng.below(8) != 0 {
            rng.below(view.layer_count.max(1) as u64) as i32
        } else {
            rng.pick(&[-1, layers, layers + 5, i32::MIN, i32::MAX])
        };
        a.icoords[lane] = [
            coord(rng, e.width),
            coord(rng, e.height),
            coord(rng, e.depth),
            layer,
        ];
        a.level[lane] = level;
        a.sample[lane] = if rng.below(8) != 0 {
            rng.below(samples as u64) as i32
        } else {
            rng.pick(&[-1, samples, samples + 1, 8, i32::MIN, i32::MAX])
        };
    }
    a.offset = match rng.below(6) {
        0..=2 => [0; 3],
        3 | 4 => [0; 3].map(|_| rng.below(16) as i32 - 8),
        // Offsets that wrap a coordinate around u32 (back into range for
        // a coordinate near i32::MIN or u32::MAX).
        _ => [0; 3].map(|_| rng.pick(&[i32::MIN, i32::MAX, 1, -1, -(1 << 16), 1 << 20])),
    };
    a
}

/// Swizzles the views try: identity, constants, permutations (each reads
/// R, so that a texel never looks like the out-of-bounds value).
const SWIZZLES: [&str; 5] = ["rgba", "a1r0", "bgra", "rrr1", "g0ra"];

/// Compares the fetch unit, the free fetch and the reference on `quads`
/// random quads of `view`, and checks that a good share of the lanes read
/// a texel (not the out-of-bounds value).
fn twin(view: &TextureHeader, rng: &mut Rng, quads: usize, what: &str) {
    let mut unit = QuadFetcher::new(view);
    let never = FetchArgs {
        icoords: [[-1; 4]; 4],
        level: [-1; 4],
        sample: [-1; 4],
        offset: [0; 3],
    };
    let oob = key(fetch_reference(view, &never, 1).texels[0]);
    let (mut lanes, mut read) = (0, 0);
    for q in 0..quads {
        let a = args(rng, view);
        let running = if q % 3 == 0 { 0xf } else { rng.below(16) as u8 };
        let want = fetch_reference(view, &a, running);
        let got = unit.fetch(&a, running);
        assert_eq!(
            keys(&got),
            keys(&want),
            "{what}: QuadFetcher::fetch, quad {q}, running {running:#x}, {a:?}"
        );
        let free = fetch(view, &a, running);
        assert_eq!(
            keys(&free),
            keys(&want),
            "{what}: fetch, quad {q}, running {running:#x}, {a:?}"
        );
        let rgba = unit.fetch_rgba(&a, running);
        let want_rgba = want
            .texels
            .map(|t| t.map_or([0.0; 4], Texel::to_f32).map(f32::to_bits));
        assert_eq!(
            rgba.map(|l| l.map(f32::to_bits)),
            want_rgba,
            "{what}: QuadFetcher::fetch_rgba, quad {q}, running {running:#x}, {a:?}"
        );
        lanes += want.texels.iter().filter(|t| t.is_some()).count();
        // Non-resident texels read zero memory, often the out-of-bounds value.
        read += (0..4)
            .filter(|&l| {
                want.texels[l].is_some() && (key(want.texels[l]) != oob || !want.resident[l])
            })
            .count();
    }
    // (Random ASTC blocks are mostly invalid and read zeros, which look
    // out of bounds: hence a low bar.)
    assert!(
        read * 10 > lanes,
        "{what}: {read} of {lanes} lanes read a texel"
    );
}

/// The textures of each kind the matrix uses (odd sizes, several levels,
/// layers and samples).
fn descs(format: F) -> Vec<(K, TextureDesc)> {
    vec![
        (K::D1, TextureDesc::d1(format, 13)),
        (
            K::D1Array,
            TextureDesc::d1(format, 9).with_layers(K::D1Array, 3),
        ),
        (K::D2, TextureDesc::d2(format, 13, 7)),
        (
            K::D2Array,
            TextureDesc::d2(format, 6, 10).with_layers(K::D2Array, 4),
        ),
        (K::D3, TextureDesc::d3(format, 5, 6, 3)),
        (K::Cube, TextureDesc::cube(format, 8)),
        (
            K::CubeArray,
            TextureDesc::cube(format, 4).with_layers(K::CubeArray, 12),
        ),
        (K::D2Ms, TextureDesc::d2_ms(format, 6, 5, 4)),
        (
            K::D2MsArray,
            TextureDesc::d2_ms(format, 5, 3, 2).with_layers(K::D2MsArray, 3),
        ),
    ]
}

/// Formats on every decode path of the fetch unit.
const FORMATS: [F; 19] = [
    // Monomorphised decoders.
    F::Rgba32Float,
    F::Rgba16Float,
    F::R32Float,
    F::Rgba8Unorm,
    F::Rgba8Srgb,
    F::Bgra8Unorm,
    F::Bgra8Srgb,
    // Block cache.
    F::Bc1RgbaUnorm,
    F::Bc4Snorm,
    F::Bc7Srgb,
    F::Astc5x4Unorm,
    // Generic decoder: integer, SNORM, packed, shared exponent, depth.
    F::R32Uint,
    F::Rgba16Sint,
    F::Rg8Snorm,
    F::A2bgr10Unorm,
    F::Rgb9e5Ufloat,
    F::Depth32Float,
    F::Depth24UnormS8Uint,
    F::R8Srgb,
];

/// The views of `tex` a case tries: the whole texture, then sub-ranges
/// with swizzles and sRGB decode off.
fn views(tex: &Arc<Texture>, rng: &mut Rng) -> Vec<TextureHeader> {
    let d = *tex.desc();
    let whole = TextureHeader::new(tex.clone());
    let mut out = vec![whole.clone()];
    let mut v = whole.clone();
    v.swizzle = Swizzle::parse4(rng.pick(&SWIZZLES)).unwrap();
    v.srgb_decode = false;
    out.push(v);
    if d.levels > 1 {
        let mut v = whole.clone();
        v.base_level = 1;
        v.level_count = d.levels - 1;
        v.swizzle = Swizzle::parse4(rng.pick(&SWIZZLES)).unwrap();
        out.push(v);
    }
    let step = if d.kind.is_cube() { 6 } else { 1 };
    if d.layers > step {
        let mut v = whole.clone();
        v.base_layer = step;
        v.layer_count = d.layers - step;
        v.swizzle = Swizzle::parse4(rng.pick(&SWIZZLES)).unwrap();
        out.push(v);
    }
    // An unvalidated view reaching past the texture's levels and layers:
    // what the texture lacks reads zeros, without a panic.
    let mut v = whole;
    v.level_count = d.levels + 2;
    v.layer_count = d.layers + 2;
    out.push(v);
    out
}

#[test]
fn fetch_unit_matches_the_reference_on_every_kind_and_format() {
    let mut rng = Rng(0x5eed_f37c_0000_0004);
    for format in FORMATS {
        let mut kinds = 0;
        for (kind, desc) in descs(format) {
            let layout = if rng.below(4) == 0 {
                Layout::Linear
            } else {
                Layout::Tiled
            };
            let Some(tex) = random_texture(desc, layout, &mut rng) else {
                continue;
            };
            kinds += 1;
            let tex = Arc::new(tex);
            for (i, view) in views(&tex, &mut rng).iter().enumerate() {
                twin(
                    view,
                    &mut rng,
                    300,
                    &format!("{format:?} {kind:?} view {i}"),
                );
            }
        }
        assert!(kinds > 0, "{format:?}: no kind took it");
    }
}

#[test]
fn fetch_unit_matches_the_reference_on_every_kind_with_rgba32f() {
    // RGBA32F takes every kind, multisample included: the MSAA resolve's
    // format, and each kind's bounds rules on the fast decoder.
    let mut rng = Rng(0x0dd_ba11);
    for (kind, desc) in descs(F::Rgba32Float) {
        let tex = Arc::new(random_texture(desc, Layout::Tiled, &mut rng).unwrap());
        for (i, view) in views(&tex, &mut rng).iter().enumerate() {
            twin(view, &mut rng, 500, &format!("RGBA32F {kind:?} view {i}"));
        }
    }
}

#[test]
fn fetch_unit_matches_the_reference_on_views_of_another_kind() {
    let mut rng = Rng(0x000f_e7c4);
    // A 2D view of one layer of a 2D array, a 2D-array view of a cube's
    // faces, and a 2D view of one layer of a multisample array.
    let cases = [
        (
            TextureDesc::d2(F::Rgba8Unorm, 9, 9).with_layers(K::D2Array, 5),
            K::D2,
            3,
            1,
        ),
        (TextureDesc::cube(F::Rgba16Float, 4), K::D2Array, 2, 4),
        (
            TextureDesc::d2_ms(F::R32Float, 4, 4, 4).with_layers(K::D2MsArray, 3),
            K::D2Ms,
            2,
            1,
        ),
    ];
    for (desc, kind, base_layer, layer_count) in cases {
        let tex = Arc::new(random_texture(desc, Layout::Tiled, &mut rng).unwrap());
        let mut view = TextureHeader::new(tex);
        view.kind = kind;
        view.base_layer = base_layer;
        view.layer_count = layer_count;
        twin(&view, &mut rng, 500, &format!("{kind:?} view of {desc:?}"));
    }
}

#[test]
fn fetch_unit_matches_the_reference_on_sparse_textures() {
    let mut rng = Rng(0x0005_ba5e);
    for format in [F::Rgba32Float, F::R8Unorm, F::Rgba8Srgb, F::Bc1RgbaUnorm] {
        for desc in [
            // Larger than one standard tile (256 x 256 for 8-bit texels).
            TextureDesc::d2(format, 600, 560),
            TextureDesc::d2(format, 520, 300).with_layers(K::D2Array, 2),
        ] {
            let mut tex = random_texture(desc, Layout::Tiled, &mut rng).unwrap();
            tex.make_sparse();
            let res = tex.residency_mut().unwrap();
            // A checkerboard of resident tiles with a few flipped, and the
            // mip tail of layer 0.
            for level in 0..desc.levels {
                let Some((nx, ny, nz)) = res.tile_count(level) else {
                    continue;
                };
                for layer in 0..desc.layers {
                    for tz in 0..nz {
                        for ty in 0..ny {
                            for tx in 0..nx {
                                let on = (tx + ty + tz + layer + level) % 2 == 0;
                                let on = on != (rng.below(5) == 0);
                                res.set_tile(level, layer, tx, ty, tz, on).unwrap();
                            }
                        }
                    }
                }
            }
            res.set_mip_tail(0, true).unwrap();
            let tex = Arc::new(tex);
            let mut seen = [0usize; 2];
            for view in views(&tex, &mut rng) {
                twin(&view, &mut rng, 400, &format!("sparse {format:?} {desc:?}"));
                // Both residency outcomes occur.
                let mut unit = QuadFetcher::new(&view);
                for _ in 0..200 {
                    let a = args(&mut rng, &view);
                    for r in unit.fetch(&a, 0xf).resident {
                        seen[usize::from(r)] += 1;
                    }
                }
            }
            assert!(seen[0] > 0 && seen[1] > 0, "{format:?}: {seen:?}");
        }
    }
}

#[test]
fn fetch_unit_reads_every_rgba8_code_as_the_reference_does() {
    // Every byte value in every channel: the tables against the generic
    // decoder, exhaustively.
    for format in [F::Rgba8Unorm, F::Rgba8Srgb, F::Bgra8Unorm, F::Bgra8Srgb] {
        let desc = TextureDesc::d2(format, 16, 16).with_levels(1);
        let bytes: Vec<u8> = (0..16 * 16 * 4).map(|i| (i * 7 + i / 4) as u8).collect();
        let tex = Arc::new(Texture::from_linear_bytes(desc, Layout::Tiled, &bytes).unwrap());
        let view = TextureHeader::new(tex);
        let mut unit = QuadFetcher::new(&view);
        for y in 0..16 {
            for x in (0..16).step_by(4) {
                let a = FetchArgs {
                    icoords: [0, 1, 2, 3].map(|l| [x + l, y, 0, 0]),
                    ..Default::default()
                };
                assert_eq!(
                    keys(&unit.fetch(&a, 0xf)),
                    keys(&fetch_reference(&view, &a, 0xf)),
                    "{format:?} ({x}, {y})"
                );
            }
        }
    }
}

#[test]
fn fetch_unit_keeps_float_bits_of_rgba32f_multisample_texels() {
    // Known answer on the resolve's format: NaN payloads, -0 and
    // denormals come back as stored, per sample.
    let desc = TextureDesc::d2_ms(F::Rgba32Float, 2, 2, 4);
    let words = [0x7fc1_2345u32, 0x8000_0000, 0x0000_0001, 0xff80_0000];
    let mut bytes = Vec::new();
    for s in 0..4u32 {
        for _ in 0..4 {
            for w in words {
                bytes.extend_from_slice(&(w ^ s).to_le_bytes());
            }
        }
    }
    let tex = Arc::new(Texture::from_linear_bytes(desc, Layout::Tiled, &bytes).unwrap());
    let view = TextureHeader::new(tex);
    let mut unit = QuadFetcher::new(&view);
    let a = FetchArgs {
        icoords: [[1, 1, 0, 0], [0, 0, 0, 0], [2, 0, 0, 0], [1, 0, 0, 0]],
        sample: [3, 0, 0, 4],
        ..Default::default()
    };
    let r = unit.fetch(&a, 0b1011);
    assert_eq!(r.texels[0].unwrap().to_bits(), words.map(|w| w ^ 3));
    assert_eq!(r.texels[1].unwrap().to_bits(), words);
    assert_eq!(r.texels[2], None);
    assert_eq!(r.texels[3], Some(Texel::Float([0.0; 4])));
    assert_eq!(r.resident, [true, true, false, true]);
    let rgba = unit.fetch_rgba(&a, 0b1011);
    assert_eq!(rgba[0].map(f32::to_bits), words.map(|w| w ^ 3));
    assert_eq!(rgba[2], [0.0; 4]);
}
