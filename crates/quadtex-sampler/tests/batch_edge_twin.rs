//! The many-quad SIMD paths (the planar kernel at every level, the
//! per-quad kernel) against the scalar reference, bit for bit, on the
//! cases a fuzzer found the older batched kernels wrong (issue 9): `gather` on ASTC blocks
//! whose extent is not a power of two, and 16-bit depth texels at the very
//! end of the texture's bytes (the last texel of a row or level, 1x1
//! levels), where a 4-byte load ran past the buffer and read 0. Each
//! case also pins a concrete value, so that it fails on its own.

use std::sync::Arc;

use quadtex_format::{Layout, Texel, Texture, TextureDesc, TextureFormat as F, TextureKind as K};
use quadtex_sampler::gather::{gather_reference, GatherArgs, GatherOffsets};
use quadtex_sampler::{
    reference, AddressMode, BorderColor, CompareOp, Filter, Lod, MipmapMode, Profile, Quad,
    QuadResult, QuadSampler, SampleArgs, SamplerHeader, Swizzle, TextureHeader,
};

mod rng;
use rng::Rng;

/// Bitwise equality of results (NaN equal to NaN).
fn same(a: &QuadResult, b: &QuadResult) -> bool {
    (0..4).all(|l| {
        a.resident[l] == b.resident[l]
            && match (a.texels[l], b.texels[l]) {
                (Some(Texel::Float(x)), Some(Texel::Float(y))) => x
                    .iter()
                    .zip(y)
                    .all(|(p, q)| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan())),
                (x, y) => x == y,
            }
    })
}

/// A texture of `desc` with random bytes.
fn random_texture(desc: TextureDesc, layout: Layout, rng: &mut Rng) -> Arc<Texture> {
    let n = desc.total_bytes().unwrap() as usize;
    let bytes: Vec<u8> = (0..n).map(|_| rng.u() as u8).collect();
    Arc::new(Texture::from_linear_bytes(desc, layout, &bytes).unwrap())
}

/// A D16_UNORM texture whose texel codes are `code(level, layer, i, j)`.
fn d16(
    desc: TextureDesc,
    layout: Layout,
    code: impl Fn(u32, u32, u32, u32) -> u16,
) -> Arc<Texture> {
    assert_eq!(desc.format, F::Depth16Unorm);
    let mut bytes = Vec::new();
    for level in 0..desc.levels {
        let e = desc.level_extent(level);
        for layer in 0..desc.layers {
            for j in 0..e.height {
                for i in 0..e.width {
                    bytes.extend_from_slice(&code(level, layer, i, j).to_le_bytes());
                }
            }
        }
    }
    Arc::new(Texture::from_linear_bytes(desc, layout, &bytes).unwrap())
}

/// `sample` of `quads` through every batched entry point at every width
/// (and the one-quad forms), each against `reference::sample`; returns
/// the reference results and how many quads the batches took.
fn sample_twins(
    view: &TextureHeader,
    smp: &SamplerHeader,
    profile: &Profile,
    args: &SampleArgs,
    quads: &[Quad],
) -> (Vec<QuadResult>, usize) {
    let want: Vec<QuadResult> = quads
        .iter()
        .map(|q| reference::sample(view, smp, profile, args, q))
        .collect();
    let mut batched = 0;
    for lanes in [4, 8, 16] {
        let mut s = QuadSampler::new(view, smp, profile);
        let mut got = vec![QuadResult::EMPTY; quads.len()];
        batched += s.sample_quads_at_width(lanes, args, quads, &mut got);
        for (i, (g, r)) in got.iter().zip(&want).enumerate() {
            assert!(
                same(g, r),
                "sample, {lanes} lanes, quad {i}: {} {smp:?} {args:?}\n{:?}\nbatched {g:?}\nreference {r:?}",
                view.format(),
                quads[i]
            );
        }
        let mut rgba = vec![[[0.0f32; 4]; 4]; quads.len()];
        s.sample_quads_rgba_at_width(lanes, args, quads, &mut rgba);
        for (i, (g, r)) in rgba.iter().zip(&want).enumerate() {
            for (lane, gl) in g.iter().enumerate() {
                let Some(t) = r.texels[lane] else { continue };
                let r = t.to_f32();
                assert!(
                    (0..4).all(|c| gl[c].to_bits() == r[c].to_bits()
                        || (gl[c].is_nan() && r[c].is_nan())),
                    "sample rgba, {lanes} lanes, quad {i} lane {lane}: {} {smp:?} {args:?}\nbatched {gl:?} reference {r:?}",
                    view.format()
                );
            }
        }
    }
    let mut s = QuadSampler::new(view, smp, profile);
    for (q, r) in quads.iter().zip(&want) {
        let g = s.sample(args, q);
        assert!(same(&g, r), "QuadSampler::sample {q:?}: {g:?} vs {r:?}");
    }
    (want, batched)
}

/// `gather` of `quads` through the batched kernels at every width and the
/// one-quad form, against `gather_reference`; returns the reference
/// results and how many quads the batches took.
fn gather_twins(
    view: &TextureHeader,
    smp: &SamplerHeader,
    profile: &Profile,
    args: &GatherArgs,
    quads: &[Quad],
) -> (Vec<QuadResult>, usize) {
    let want: Vec<QuadResult> = quads
        .iter()
        .map(|q| gather_reference(view, smp, profile, args, q))
        .collect();
    let mut batched = 0;
    for lanes in [4, 8, 16] {
        let mut s = QuadSampler::new(view, smp, profile);
        let mut got = vec![QuadResult::EMPTY; quads.len()];
        batched += s.gather_quads_at_width(lanes, args, quads, &mut got);
        for (i, (g, r)) in got.iter().zip(&want).enumerate() {
            assert!(
                same(g, r),
                "gather, {lanes} lanes, quad {i}: {} {:?} {smp:?} {args:?}\n{:?}\nbatched {g:?}\nreference {r:?}",
                view.format(),
                view.kind,
                quads[i]
            );
        }
    }
    let mut s = QuadSampler::new(view, smp, profile);
    for (q, r) in quads.iter().zip(&want) {
        let g = s.gather(args, q);
        assert!(same(&g, r), "QuadSampler::gather {q:?}: {g:?} vs {r:?}");
    }
    (want, batched)
}

/// Red of lane `l` of a float result.
fn red(r: &QuadResult, l: usize) -> f32 {
    r.texels[l].expect("lane runs").to_f32()[0]
}

/// A tile of `n` neighbouring quads from `(u0, v0)`, `step` apart in
/// normalized coordinates, on layer `layer`.
fn tile(n: usize, u0: f32, v0: f32, step: f32, layer: f32) -> Vec<Quad> {
    (0..n)
        .map(|i| {
            let (qx, qy) = (i % 8, i / 8);
            Quad::new([0, 1, 2, 3].map(|l| {
                let x = (2 * qx + (l & 1)) as f32;
                let y = (2 * qy + (l >> 1)) as f32;
                [u0 + x * step, v0 + y * step, 0.0, layer]
            }))
        })
        .collect()
}

const ASTC_NPOT: [F; 10] = [
    F::Astc5x4Unorm,
    F::Astc5x5Srgb,
    F::Astc6x5Unorm,
    F::Astc6x6Unorm,
    F::Astc6x6Srgb,
    F::Astc8x5Srgb,
    F::Astc10x6Unorm,
    F::Astc10x10Unorm,
    F::Astc10x10Srgb,
    F::Astc12x10Srgb,
];

/// Random ASTC bytes decode to real texels or to the error colour; the
/// twins must agree either way. Extents that are not multiples of the
/// block (partial blocks at the right and bottom edges), linear and tiled
/// layouts, 2D, 2D-array and cube views, every component and the
/// swizzle, AOFFI and PTP offsets, and the border.
#[test]
fn batched_gather_on_non_power_of_two_astc_blocks_matches_the_reference() {
    let mut rng = Rng(0xa57c_6a7e_0009_0001);
    // Quads the batched gather could take (2D views, clamp_to_edge or
    // repeat on power-of-two extents), and those it took.
    let (mut batchable, mut batched) = (0usize, 0usize);
    for format in ASTC_NPOT {
        for layout in [Layout::Linear, Layout::Tiled] {
            for kind in [K::D2, K::D2Array, K::Cube] {
                for address in [
                    AddressMode::Repeat,
                    AddressMode::ClampToEdge,
                    AddressMode::ClampToBorder,
                    AddressMode::MirroredRepeat,
                ] {
                    let (w, h) = match kind {
                        K::Cube => {
                            let s = rng.pick(&[13u32, 20, 31]);
                            (s, s)
                        }
                        _ => rng.pick(&[(13u32, 7u32), (30, 18), (37, 23), (64, 40), (32, 16)]),
                    };
                    let desc = match kind {
                        K::Cube => TextureDesc::cube(format, w),
                        K::D2Array => TextureDesc::d2(format, w, h).with_layers(K::D2Array, 3),
                        _ => TextureDesc::d2(format, w, h),
                    };
                    let tex = random_texture(desc, layout, &mut rng);
                    let mut view = TextureHeader::new(tex);
                    if rng.u().is_multiple_of(3) {
                        view.swizzle = [Swizzle::B, Swizzle::One, Swizzle::R, Swizzle::Zero];
                    }
                    let smp = SamplerHeader {
                        address: [address; 3],
                        border_color: BorderColor::Float([0.25, 0.5, 0.75, 1.0]),
                        ..Default::default()
                    };
                    for component in 0..4u8 {
                        let args = GatherArgs {
                            component,
                            offsets: match rng.u() % 3 {
                                0 => GatherOffsets::Aoffi([rng.pick(&[-8, 7, 3]), 5]),
                                1 => GatherOffsets::Ptp([[1, 0], [0, 1], [-1, 0], [0, -1]]),
                                _ => GatherOffsets::None,
                            },
                            ..Default::default()
                        };
                        let step = rng.pick(&[0.3, 1.0, 2.5]) / w as f32;
                        let quads: Vec<Quad> = if kind == K::Cube {
                            tile(16, -0.6, -0.6, step, 0.0)
                                .into_iter()
                                .map(|q| Quad::new(q.coords.map(|c| [c[0], 1.0, c[1], 0.0])))
                                .collect()
                        } else {
                            tile(16, rng.f() - 0.25, rng.f() - 0.25, step, 1.0)
                        };
                        let (_, b) = gather_twins(&view, &smp, &Profile::VULKAN, &args, &quads);
                        batched += b;
                        if kind != K::Cube && address != AddressMode::ClampToBorder {
                            batchable += 3 * quads.len();
                        }
                    }
                }
            }
        }
    }
    // Blocks that are not a power of two are handed to the per-quad path
    // (the batched address split needs a power of two); either way the
    // results above equal the reference's.
    assert!(batchable > 0 && batched <= batchable);
}

/// `sample` on the same ASTC blocks through the batched kernels, which
/// now split texel indices by any block extent.
#[test]
fn batched_sample_on_non_power_of_two_astc_blocks_matches_the_reference() {
    let mut rng = Rng(0xa57c_5a3b_0009_0002);
    let (mut checked, mut batched) = (0usize, 0usize);
    for format in ASTC_NPOT {
        for layout in [Layout::Linear, Layout::Tiled] {
            for (filter, mip) in [
                (Filter::Nearest, MipmapMode::Nearest),
                (Filter::Linear, MipmapMode::Linear),
            ] {
                let (w, h) = rng.pick(&[(13u32, 7u32), (30, 18), (37, 23), (64, 40)]);
                let tex = random_texture(TextureDesc::d2(format, w, h), layout, &mut rng);
                let view = TextureHeader::new(tex);
                let smp = SamplerHeader {
                    mag_filter: filter,
                    min_filter: filter,
                    mipmap_mode: mip,
                    address: [rng.pick(&[AddressMode::Repeat, AddressMode::ClampToEdge]); 3],
                    max_anisotropy: rng.pick(&[1.0, 4.0]),
                    ..Default::default()
                };
                let args = SampleArgs {
                    lod: rng.pick(&[Lod::Implicit, Lod::Level([1.3; 4]), Lod::Base]),
                    ..Default::default()
                };
                let step = rng.pick(&[0.3, 1.0, 2.5]) / w as f32;
                let quads = tile(32, rng.f() - 0.25, rng.f() - 0.25, step, 0.0);
                let (_, b) = sample_twins(&view, &smp, &Profile::VULKAN, &args, &quads);
                batched += b;
                checked += 3 * quads.len();
            }
        }
    }
    // Blocks that are not a power of two are handed to the per-quad path;
    // either way the results above equal the reference's.
    assert!(checked > 0 && batched <= checked);
}

/// D16 code of `d` (`round(d * 65535)`).
fn code(d: f32) -> u16 {
    (d * 65535.0).round() as u16
}

/// The case: an 8x4 D16 texture, `sample` at the base level with
/// compare `less` at (0.9375, 0.875), the centre of the last texel (7, 3),
/// whose two bytes end the texture. The last texel holds 0.75, so a
/// reference of 0.5 passes (1.0) and one of 0.8 fails (0.0); the batch
/// read 0 there and failed both.
#[test]
fn d16_compare_at_the_last_texel_of_the_texture_matches_the_reference() {
    for layout in [Layout::Linear, Layout::Tiled] {
        let desc = TextureDesc::d2(F::Depth16Unorm, 8, 4).with_levels(1);
        let tex = d16(desc, layout, |_, _, i, j| {
            if (i, j) == (7, 3) {
                code(0.75)
            } else {
                code(0.25)
            }
        });
        let view = TextureHeader::new(tex);
        let smp = SamplerHeader {
            compare: Some(CompareOp::Less),
            ..Default::default()
        };
        let quads = vec![Quad::new([[0.9375, 0.875, 0.0, 0.0]; 4]); 4];
        let args = SampleArgs {
            lod: Lod::Base,
            dref: Some([0.5, 0.8, 0.5, 0.8]),
            ..Default::default()
        };
        let (want, batched) = sample_twins(&view, &smp, &Profile::VULKAN, &args, &quads);
        assert!(batched > 0, "the batched kernels take D16 compares");
        assert_eq!([0, 1, 2, 3].map(|l| red(&want[0], l)), [1.0, 0.0, 1.0, 0.0]);
        // The last texel of the other rows too, with a bilinear footprint
        // that clamps onto the last column.
        let smp = SamplerHeader {
            mag_filter: Filter::Linear,
            min_filter: Filter::Linear,
            address: [AddressMode::ClampToEdge; 3],
            ..smp
        };
        let quads: Vec<Quad> = (0..8)
            .map(|j| Quad::new([[1.0, (j as f32 + 0.5) / 8.0, 0.0, 0.0]; 4]))
            .collect();
        let (want, _) = sample_twins(&view, &smp, &Profile::VULKAN, &args, &quads);
        // (1.0, 0.875 + 1/16): rows 3 and 3 (clamped), columns 7 and 7:
        // the last texel alone.
        assert_eq!(red(&want[7], 0), 1.0);
        assert_eq!(red(&want[7], 1), 0.0);
    }
}

/// The case: `gather` with compare on a 1x1 D16 cube, through the
/// 2D-array view of its six faces (which the batched gather takes) and the
/// cube view (which it hands to the reference). Face `f` holds `f / 8`;
/// the last face's texel ends the texture.
#[test]
fn d16_compare_gather_on_a_1x1_cube_matches_the_reference() {
    for layout in [Layout::Linear, Layout::Tiled] {
        let tex = d16(
            TextureDesc::cube(F::Depth16Unorm, 1),
            layout,
            |_, f, _, _| code(f as f32 / 8.0),
        );
        let smp = SamplerHeader {
            compare: Some(CompareOp::Less),
            address: [AddressMode::ClampToEdge; 3],
            ..Default::default()
        };
        let args = GatherArgs {
            dref: Some([0.6, 0.6, 0.5, 0.7]),
            ..Default::default()
        };
        let mut array = TextureHeader::new(tex.clone());
        array.kind = K::D2Array;
        array.validate().unwrap();
        let quads: Vec<Quad> = (0..6)
            .map(|f| Quad::new([[0.5, 0.5, 0.0, f as f32]; 4]))
            .collect();
        let (want, batched) = gather_twins(&array, &smp, &Profile::VULKAN, &args, &quads);
        assert!(batched > 0, "the batched gather takes D16 arrays");
        // Face 5 holds 0.625: 0.6 < 0.625 passes on all four texels, 0.7
        // fails; face 4 (0.5) fails 0.6 and 0.5.
        assert_eq!(want[5].texels[0], Some(Texel::Float([1.0; 4])));
        assert_eq!(want[5].texels[3], Some(Texel::Float([0.0; 4])));
        assert_eq!(want[4].texels[0], Some(Texel::Float([0.0; 4])));
        let cube = TextureHeader::new(tex);
        let dirs = [
            [1.0, 0.0, 0.0],
            [-1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, -1.0, 0.0],
            [0.0, 0.0, 1.0],
            [0.0, 0.0, -1.0],
        ];
        let quads: Vec<Quad> = dirs
            .iter()
            .map(|d| Quad::new([[d[0], d[1], d[2], 0.0]; 4]))
            .collect();
        gather_twins(&cube, &smp, &Profile::VULKAN, &args, &quads);
        // Per face, without the seam rule (seamless, each 1x1 face's
        // footprint takes its corners from three faces).
        let per_face = SamplerHeader {
            seamless_cube: false,
            ..smp
        };
        let (want, _) = gather_twins(&cube, &per_face, &Profile::VULKAN, &args, &quads);
        assert_eq!(want[5].texels[0], Some(Texel::Float([1.0; 4])));
        assert_eq!(want[5].texels[3], Some(Texel::Float([0.0; 4])));
    }
}

/// The case: D16 2D arrays sampled with `min_lod` 3.7 and
/// anisotropy 2, which reads the last levels (2x2 and 1x1 of a 16x16
/// array): their last texels end the texture. Every texel of level 4
/// holds 0.75, so a reference of 0.5 at lambda 4 passes.
#[test]
fn d16_compare_on_the_smallest_array_levels_matches_the_reference() {
    let mut rng = Rng(0xd16a_7777_0009_0003);
    for layout in [Layout::Linear, Layout::Tiled] {
        let desc = TextureDesc::d2(F::Depth16Unorm, 16, 16).with_layers(K::D2Array, 3);
        let tex = d16(desc, layout, |level, layer, i, j| {
            if level == 4 {
                code(0.75)
            } else {
                (level * 7919 + layer * 104_729 + j * 31 + i * 17) as u16
            }
        });
        let view = TextureHeader::new(tex);
        for (filter, mip) in [
            (Filter::Nearest, MipmapMode::Nearest),
            (Filter::Linear, MipmapMode::Linear),
            (Filter::Linear, MipmapMode::Nearest),
        ] {
            let smp = SamplerHeader {
                mag_filter: filter,
                min_filter: filter,
                mipmap_mode: mip,
                min_lod: 3.7,
                max_anisotropy: 2.0,
                address: [rng.pick(&[AddressMode::Repeat, AddressMode::ClampToEdge]); 3],
                compare: Some(CompareOp::Less),
                ..Default::default()
            };
            for lod in [
                Lod::Implicit,
                Lod::Level([4.0; 4]),
                Lod::Grad {
                    ddx: [[0.02, 0.0, 0.0]; 4],
                    ddy: [[0.0, 0.3, 0.0]; 4],
                },
            ] {
                let args = SampleArgs {
                    lod,
                    dref: Some([0.5, 0.5, 0.5, 0.5]),
                    ..Default::default()
                };
                for layer in [0.0, 1.0, 2.0] {
                    let quads = tile(16, rng.f(), rng.f(), 0.7 / 16.0, layer);
                    let (want, batched) =
                        sample_twins(&view, &smp, &Profile::VULKAN, &args, &quads);
                    assert!(batched > 0, "{smp:?} {args:?}");
                    if matches!(lod, Lod::Level(_)) && mip == MipmapMode::Nearest {
                        // Level 4 alone: 0.5 < 0.75 everywhere.
                        assert_eq!(red(&want[0], 0), 1.0, "{smp:?}");
                    }
                }
            }
        }
    }
}
