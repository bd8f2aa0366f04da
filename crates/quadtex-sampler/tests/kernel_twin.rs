//! The SIMD kernels against their scalar reference twin, lane by lane and
//! bit for bit: 100,000 seeded random quads per (geometry x filter x
//! address mode) family the kernels ship, over several formats, LOD forms,
//! offsets, anisotropy levels and profiles, with edge coordinates mixed in (texel centres and
//! edges, exactly 0.5, negative, huge, NaN, +-Inf, denormals).
//!
//! Exact equality is the bar because the kernels perform the reference's
//! operations in the same order (see kernel.rs); NaN compares equal to NaN.

use std::sync::Arc;

use quadtex_format::{Layout, Texel, Texture, TextureDesc, TextureFormat as F, TextureKind as K};
use quadtex_sampler::profile::Derivatives;
use quadtex_sampler::{
    integer_filtering, quad_uses_kernel, reference, sample, sample_uses_kernel, AddressMode,
    CompareOp, Filter, Lod, MipmapMode, Profile, Quad, SampleArgs, SamplerHeader, Swizzle,
    TextureHeader,
};

mod rng;
use rng::Rng;

fn texture(kind: K, format: F, rng: &mut Rng) -> Arc<Texture> {
    let (w, h, d, layers) = match kind {
        K::D1 => (13, 1, 1, 1),
        K::D1Array => (16, 1, 1, 3),
        K::D2 => (12, 9, 1, 1),
        K::D2Array => (8, 16, 1, 4),
        _ => (8, 5, 6, 1),
    };
    let (w, h) = if format.is_compressed() {
        (w.max(8), h.max(8))
    } else {
        (w, h)
    };
    let mut desc = TextureDesc::d3(format, w, h, d);
    desc.kind = kind;
    desc.layers = layers;
    desc.levels = desc.max_levels();
    let n = desc.total_bytes().unwrap() as usize;
    let bytes: Vec<u8> = (0..n).map(|_| rng.u() as u8).collect();
    let layout = if rng.u().is_multiple_of(2) {
        Layout::Linear
    } else {
        Layout::Tiled
    };
    Arc::new(Texture::from_linear_bytes(desc, layout, &bytes).unwrap())
}

fn coord(rng: &mut Rng, size: u32) -> f32 {
    match rng.u() % 16 {
        0 => rng.pick(&[0.0, 0.5, 1.0, -0.5, -0.0, 1.5]),
        1 => (rng.u() % (2 * size as u64 + 1)) as f32 / (2 * size) as f32,
        2 => rng.pick(&[
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            1e30,
            -1e30,
            f32::from_bits(1),
            -1e-40,
        ]),
        3 => (rng.f() - 0.5) * 2000.0,
        _ => rng.f() * 3.0 - 1.0,
    }
}

fn same(a: Option<Texel>, b: Option<Texel>) -> bool {
    match (a, b) {
        (Some(Texel::Float(x)), Some(Texel::Float(y))) => x
            .iter()
            .zip(y)
            .all(|(p, q)| p.to_bits() == q.to_bits() || (p.is_nan() && q.is_nan())),
        _ => a == b,
    }
}

#[test]
fn kernels_match_the_reference_bit_for_bit() {
    let kinds = [K::D1, K::D1Array, K::D2, K::D2Array, K::D3];
    let filters = [
        (Filter::Nearest, MipmapMode::None),
        (Filter::Linear, MipmapMode::None),
        (Filter::Nearest, MipmapMode::Nearest),
        (Filter::Linear, MipmapMode::Linear),
    ];
    let addresses = [
        AddressMode::Repeat,
        AddressMode::MirroredRepeat,
        AddressMode::ClampToEdge,
        AddressMode::ClampToBorder,
        AddressMode::MirrorClampToEdge,
        AddressMode::ClampOgl,
    ];
    let formats = [
        F::Rgba8Unorm,
        F::Rgba8Srgb,
        F::Bgra8Unorm,
        F::Rgba16Float,
        F::R32Float,
        F::Bc1RgbaUnorm,
        F::Bc7Unorm,
        F::Rgb9e5Ufloat,
        F::Rg8Snorm,
    ];
    let quads_per_family: usize = std::env::var("QUADTEX_TWIN_QUADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let mut checked = 0usize;
    for kind in kinds {
        for (filter, mip) in filters {
            for address in addresses {
                let mut done = 0;
                while done < quads_per_family {
                    let format = rng.pick(&formats);
                    if format.is_compressed() && matches!(kind, K::D1 | K::D1Array) {
                        continue;
                    }
                    let tex = texture(kind, format, &mut rng);
                    let mut view = TextureHeader::new(tex.clone());
                    if rng.u().is_multiple_of(4) {
                        view.base_level = 1;
                        view.level_count = tex.desc().levels - 1;
                    }
                    if rng.u().is_multiple_of(4) {
                        view.swizzle = [Swizzle::B, Swizzle::One, Swizzle::R, Swizzle::Zero];
                    }
                    let mut smp = SamplerHeader {
                        mag_filter: filter,
                        min_filter: if rng.u().is_multiple_of(3) {
                            Filter::Nearest
                        } else {
                            filter
                        },
                        mipmap_mode: mip,
                        address: [address; 3],
                        border_color: quadtex_sampler::BorderColor::Float([0.25, 0.5, 0.75, 1.0]),
                        mip_lod_bias: rng.pick(&[0.0, 0.0, 0.75, -1.5]),
                        min_lod: rng.pick(&[0.0, 0.0, 0.5]),
                        max_lod: rng.pick(&[1000.0, 2.25]),
                        max_anisotropy: rng.pick(&[1.0, 1.0, 2.0, 4.0, 16.0]),
                        ..Default::default()
                    };
                    if rng.u().is_multiple_of(50)
                        && matches!(kind, K::D1 | K::D2)
                        && view.level_count == tex.desc().levels
                    {
                        smp = SamplerHeader {
                            unnormalized: true,
                            max_anisotropy: 1.0,
                            min_filter: filter,
                            mag_filter: filter,
                            mipmap_mode: MipmapMode::Nearest,
                            min_lod: 0.0,
                            max_lod: 0.0,
                            address: [rng
                                .pick(&[AddressMode::ClampToEdge, AddressMode::ClampToBorder]);
                                3],
                            ..smp
                        };
                        view.level_count = 1;
                    }
                    let profile = rng.pick(&[Profile::VULKAN, Profile::NV_SASS, Profile::D3D11]);
                    for _ in 0..500 {
                        let dims = [tex.desc().width, tex.desc().height, tex.desc().depth];
                        let mut coords = [[0.0f32; 4]; 4];
                        let base: [f32; 3] = [0, 1, 2].map(|k| coord(&mut rng, dims[k]));
                        let step = rng.pick(&[0.01, 0.1, 0.5, 2.0, 1e-4]);
                        for (l, c) in coords.iter_mut().enumerate() {
                            for k in 0..3 {
                                c[k] = if rng.u().is_multiple_of(8) {
                                    coord(&mut rng, dims[k])
                                } else {
                                    base[k]
                                        + step
                                            * ((l & 1) as f32 * (k != 1) as u8 as f32
                                                + (l >> 1) as f32 * (k != 0) as u8 as f32)
                                };
                            }
                            c[3] = rng.pick(&[0.0, 1.0, 1.5, 2.5, -1.0, 7.0, f32::NAN]);
                        }
                        let lod = match rng.u() % 5 {
                            0 => Lod::Implicit,
                            1 => Lod::Bias([0, 1, 2, 3].map(|_| rng.f() * 4.0 - 2.0)),
                            2 => Lod::Base,
                            3 => Lod::Level([0, 1, 2, 3].map(|_| {
                                rng.pick(&[0.0, 0.5, 1.0, 1.25, 2.999, -1.0, 9.0, f32::NAN])
                            })),
                            _ => Lod::Grad {
                                ddx: [0, 1, 2, 3].map(|_| [0, 1, 2].map(|_| rng.f() * 0.3 - 0.15)),
                                ddy: [0, 1, 2, 3].map(|_| [0, 1, 2].map(|_| rng.f() * 0.3 - 0.15)),
                            },
                        };
                        let args = SampleArgs {
                            lod,
                            offset: if smp.unnormalized {
                                [0; 3]
                            } else {
                                [0, 1, 2].map(|_| rng.pick(&[0, 0, -8, 7, 3, -32, 31]))
                            },
                            derivatives: Some(rng.pick(&[Derivatives::Fine, Derivatives::Coarse])),
                            ..Default::default()
                        };
                        let quad = Quad {
                            coords,
                            active: rng.pick(&[0xf, 0xf, 0xf, 0x7, 0x9]),
                            helper: rng.pick(&[0, 0, 0x8]),
                        };
                        // Integer filtering is the reference's and the
                        // planar kernel's, not the per-quad kernel's: a
                        // kernel takes such a call only where the planar
                        // one does.
                        let int = integer_filtering(&view, &smp, &profile);
                        let planar = quadtex_sampler::QuadSampler::new(&view, &smp, &profile)
                            .planar_fallback(&args)
                            .is_none();
                        assert_eq!(
                            sample_uses_kernel(&view, &smp, &profile, &args),
                            !int || planar,
                            "{kind:?} {format:?} {smp:?}"
                        );
                        let k = sample(&view, &smp, &profile, &args, &quad);
                        let r = reference::sample(&view, &smp, &profile, &args, &quad);
                        for lane in 0..4 {
                            assert!(
                                same(k.texels[lane], r.texels[lane]) && k.resident[lane] == r.resident[lane],
                                "{kind:?} {format} {filter:?}/{mip:?} {address:?} lane {lane}: kernel {:?} reference {:?}\nquad {quad:?}\nargs {args:?}\nsampler {smp:?}\nview levels {}+{}",
                                k.texels[lane],
                                r.texels[lane],
                                view.base_level,
                                view.level_count
                            );
                        }
                        done += 1;
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked >= kinds.len() * filters.len() * addresses.len() * quads_per_family);
}

#[test]
fn cube_kernels_match_the_reference_bit_for_bit() {
    let filters = [
        (Filter::Nearest, MipmapMode::None),
        (Filter::Linear, MipmapMode::None),
        (Filter::Nearest, MipmapMode::Nearest),
        (Filter::Linear, MipmapMode::Linear),
    ];
    let quads_per_family: usize = std::env::var("QUADTEX_TWIN_QUADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let formats = [
        F::Rgba8Unorm,
        F::Rgba8Srgb,
        F::Rgba16Float,
        F::R32Float,
        F::Bc1RgbaUnorm,
        F::Bc7Unorm,
    ];
    let mut rng = Rng(0xc0be_5eed_0000_0001);
    for (filter, mip) in filters {
        for seamless in [true, false] {
            let (mut done, mut fast) = (0usize, 0usize);
            while done < quads_per_family {
                let format = rng.pick(&formats);
                let size = rng.pick(&[8u32, 16, 5]);
                let arrayed = rng.u().is_multiple_of(3);
                let mut desc = TextureDesc::cube(format, size);
                if arrayed {
                    desc = desc.with_layers(K::CubeArray, 12);
                }
                let n = desc.total_bytes().unwrap() as usize;
                let bytes: Vec<u8> = (0..n).map(|_| rng.u() as u8).collect();
                let tex =
                    Arc::new(Texture::from_linear_bytes(desc, Layout::Tiled, &bytes).unwrap());
                let view = TextureHeader::new(tex);
                let smp = SamplerHeader {
                    mag_filter: filter,
                    min_filter: filter,
                    mipmap_mode: mip,
                    address: [rng.pick(&[
                        AddressMode::Repeat,
                        AddressMode::ClampToEdge,
                        AddressMode::MirroredRepeat,
                    ]); 3],
                    seamless_cube: seamless,
                    mip_lod_bias: rng.pick(&[0.0, 0.5]),
                    ..Default::default()
                };
                let profile = rng.pick(&[Profile::VULKAN, Profile::NV_SASS]);
                for _ in 0..500 {
                    // A direction mostly inside one face, small steps.
                    let major = rng.pick(&[0usize, 1, 2]);
                    let sign = if rng.u().is_multiple_of(2) { 1.0 } else { -1.0 };
                    let mut base = [
                        rng.f() * 1.8 - 0.9,
                        rng.f() * 1.8 - 0.9,
                        rng.f() * 1.8 - 0.9,
                    ];
                    base[major] = sign;
                    let step = rng.pick(&[0.002, 0.02, 0.1]);
                    let coords = [0, 1, 2, 3].map(|l| {
                        let mut c = [base[0], base[1], base[2], rng.pick(&[0.0, 1.0, 0.6])];
                        c[(major + 1) % 3] += step * (l & 1) as f32;
                        c[(major + 2) % 3] += step * (l >> 1) as f32;
                        c
                    });
                    let args = SampleArgs {
                        lod: match rng.u() % 3 {
                            0 => Lod::Implicit,
                            1 => Lod::Level([0, 1, 2, 3].map(|_| rng.f() * 3.0)),
                            _ => Lod::Bias([0, 1, 2, 3].map(|_| rng.f() - 0.5)),
                        },
                        derivatives: Some(rng.pick(&[Derivatives::Fine, Derivatives::Coarse])),
                        ..Default::default()
                    };
                    let quad = Quad::new(coords);
                    fast += quad_uses_kernel(&view, &smp, &profile, &args, &quad) as usize;
                    let k = sample(&view, &smp, &profile, &args, &quad);
                    let r = reference::sample(&view, &smp, &profile, &args, &quad);
                    for lane in 0..4 {
                        assert!(same(k.texels[lane], r.texels[lane]), "cube {format} {filter:?}/{mip:?} seamless {seamless} lane {lane}: kernel {:?} reference {:?}\nquad {quad:?}\nargs {args:?}", k.texels[lane], r.texels[lane]);
                    }
                    done += 1;
                }
            }
            // Most quads stay on one face; those with mirrored or
            // non-power-of-two repeat wrapping, or crossing an edge, go to
            // the reference. The kernel must still be compared on a good
            // share of them.
            assert!(fast * 4 > done, "{filter:?}/{mip:?} seamless {seamless}: only {fast} of {done} quads took the kernel");
        }
    }
}

/// The many-quad calls (`QuadSampler::sample_quads` and
/// `sample_quads_rgba`) at every width (the planar kernel at 4, 8 and 16
/// lanes, each as far as the CPU goes) against the reference, quad by quad:
/// tiles of neighbouring quads as a rasterizer sends them, with edge
/// coordinates mixed in, over 2D and 2D-array views, every filter and the
/// address modes the batches take (and one they hand back).
#[test]
fn batched_kernels_match_the_reference_bit_for_bit() {
    let filters = [
        (Filter::Nearest, MipmapMode::None),
        (Filter::Linear, MipmapMode::None),
        (Filter::Nearest, MipmapMode::Nearest),
        (Filter::Linear, MipmapMode::Nearest),
        (Filter::Linear, MipmapMode::Linear),
    ];
    let formats = [
        F::Rgba8Unorm,
        F::Rgba8Srgb,
        F::Bgra8Unorm,
        F::Bgra8Srgb,
        F::Rgba16Float,
        F::R32Float,
        F::Bc1RgbaUnorm,
        F::Rg8Snorm,
        F::Depth16Unorm,
        F::Depth24UnormX8,
        F::Depth32Float,
    ];
    let ops = [
        CompareOp::Never,
        CompareOp::Less,
        CompareOp::Equal,
        CompareOp::LessOrEqual,
        CompareOp::Greater,
        CompareOp::NotEqual,
        CompareOp::GreaterOrEqual,
        CompareOp::Always,
    ];
    let mut rng = Rng(0x5eed_0ba7_c4ed_0002);
    let (mut checked, mut batched) = (0usize, 0usize);
    for kind in [K::D2, K::D2Array] {
        for (filter, mip) in filters {
            for address in [
                AddressMode::Repeat,
                AddressMode::ClampToEdge,
                AddressMode::MirroredRepeat,
            ] {
                for _ in 0..40 {
                    let format = rng.pick(&formats);
                    let (w, h) = rng.pick(&[(16, 16), (8, 32), (12, 9), (64, 64)]);
                    let mut desc = TextureDesc::d2(format, w, h);
                    if kind == K::D2Array {
                        desc = desc.with_layers(K::D2Array, 3);
                    }
                    desc.levels = desc.max_levels();
                    let n = desc.total_bytes().unwrap() as usize;
                    let bytes: Vec<u8> = (0..n).map(|_| rng.u() as u8).collect();
                    let layout = rng.pick(&[Layout::Linear, Layout::Tiled]);
                    let tex = Arc::new(Texture::from_linear_bytes(desc, layout, &bytes).unwrap());
                    let mut view = TextureHeader::new(tex.clone());
                    if rng.u().is_multiple_of(4) {
                        view.swizzle = [Swizzle::B, Swizzle::One, Swizzle::R, Swizzle::Zero];
                    }
                    let smp = SamplerHeader {
                        mag_filter: filter,
                        min_filter: rng.pick(&[filter, filter, Filter::Nearest]),
                        mipmap_mode: mip,
                        address: [address; 3],
                        mip_lod_bias: rng.pick(&[0.0, 0.0, 0.75, -1.5]),
                        min_lod: rng.pick(&[0.0, 0.0, 0.5]),
                        max_lod: rng.pick(&[1000.0, 2.25]),
                        max_anisotropy: rng.pick(&[1.0, 1.0, 2.0, 4.0, 16.0]),
                        // Depth formats compare (PCF); colour ones sometimes.
                        compare: (format.has_depth() || rng.u().is_multiple_of(8))
                            .then(|| rng.pick(&ops)),
                        ..Default::default()
                    };
                    let profile = rng.pick(&[Profile::VULKAN, Profile::NV_SASS, Profile::D3D11]);
                    let lod = match rng.u() % 6 {
                        5 => Lod::Grad {
                            ddx: [[0.01, 0.002, 0.0]; 4],
                            ddy: [[0.003, 0.12, 0.0]; 4],
                        },
                        0 | 1 => Lod::Implicit,
                        2 => Lod::Bias([0, 1, 2, 3].map(|_| rng.f() * 4.0 - 2.0)),
                        3 => {
                            Lod::Level([0, 1, 2, 3].map(|_| rng.pick(&[0.0, 0.5, 1.25, f32::NAN])))
                        }
                        _ => Lod::Grad {
                            ddx: [[0.02, 0.001, 0.0]; 4],
                            ddy: [[-0.001, 0.03, 0.0]; 4],
                        },
                    };
                    let args = SampleArgs {
                        lod,
                        offset: [0, 1, 2].map(|_| rng.pick(&[0, 0, -8, 7, 3])),
                        derivatives: Some(rng.pick(&[Derivatives::Fine, Derivatives::Coarse])),
                        dref: smp.compare.map(|_| {
                            [0, 1, 2, 3]
                                .map(|_| rng.pick(&[0.5, 0.25, -0.5, 1.5, 0.0, 1.0, f32::NAN, 0.7]))
                        }),
                        ..Default::default()
                    };
                    // A 16x4-quad tile: neighbouring quads, one footprint.
                    let (u0, v0) = (rng.f() * 2.0 - 0.5, rng.f() * 2.0 - 0.5);
                    let step = rng.pick(&[0.3, 1.0, 1.7, 4.0]) / w as f32;
                    // Ground-plane footprints: stretched along t.
                    let stretch = rng.pick(&[0.9, 0.9, 6.0, 17.0]);
                    let layer = rng.pick(&[0.0, 1.0, 1.4, 2.6]);
                    let quads: Vec<Quad> = (0..64)
                        .map(|i| {
                            let (qx, qy) = (i % 16, i / 16);
                            let mut coords = [0, 1, 2, 3].map(|l| {
                                let x = (2 * qx + (l & 1)) as f32;
                                let y = (2 * qy + (l >> 1)) as f32;
                                [u0 + x * step, v0 + y * step * stretch, 0.0, layer]
                            });
                            if rng.u().is_multiple_of(24) {
                                let l = (rng.u() % 4) as usize;
                                coords[l][rng.pick(&[0usize, 1])] = coord(&mut rng, w);
                            }
                            Quad::new(coords)
                        })
                        .collect();
                    let want: Vec<_> = quads
                        .iter()
                        .map(|q| reference::sample(&view, &smp, &profile, &args, q))
                        .collect();
                    for lanes in [4, 8, 16] {
                        let mut s = quadtex_sampler::QuadSampler::new(&view, &smp, &profile);
                        let mut got = vec![quadtex_sampler::QuadResult::EMPTY; quads.len()];
                        let n = s.sample_quads_at_width(lanes, &args, &quads, &mut got);
                        batched += n;
                        for (i, (g, r)) in got.iter().zip(&want).enumerate() {
                            for lane in 0..4 {
                                assert!(
                                    same(g.texels[lane], r.texels[lane])
                                        && g.resident[lane] == r.resident[lane],
                                    "{lanes} lanes, quad {i} lane {lane}: {format} {smp:?} {args:?}\n{:?}\nbatched {:?} reference {:?}",
                                    quads[i],
                                    g.texels[lane],
                                    r.texels[lane]
                                );
                            }
                        }
                        checked += quads.len();
                        // The lane-major RGBA form: the same bits.
                        let mut rgba = vec![[[0.0f32; 4]; 4]; quads.len()];
                        s.sample_quads_rgba_at_width(lanes, &args, &quads, &mut rgba);
                        for (i, (g, r)) in rgba.iter().zip(&want).enumerate() {
                            for (lane, gl) in g.iter().enumerate() {
                                let r = r.texels[lane].map(|t| t.to_f32()).unwrap();
                                assert!(
                                    (0..4).all(|c| gl[c].to_bits() == r[c].to_bits()
                                        || (gl[c].is_nan() && r[c].is_nan())),
                                    "rgba, {lanes} lanes, quad {i} lane {lane}: {format} {smp:?} {args:?}\nbatched {gl:?} reference {r:?}"
                                );
                            }
                        }
                    }
                }
            }
        }
    }
    // Repeat and clamp_to_edge tiles mostly take the batched kernels.
    assert!(
        batched * 2 > checked,
        "{batched} of {checked} quads batched"
    );
}

/// Cube and cube-array quads through the batched kernels at every width
/// against the reference: tiles of directions through one face (the
/// batches' case), across face edges and corners and with edge values
/// mixed in (which the batches hand back), seamless on and off.
#[test]
fn batched_cube_kernels_match_the_reference_bit_for_bit() {
    let formats = [
        F::Rgba8Unorm,
        F::Rgba8Srgb,
        F::Rgba16Float,
        F::Bc1RgbaUnorm,
        F::Depth32Float,
        F::Depth16Unorm,
    ];
    let filters = [
        (Filter::Nearest, MipmapMode::None),
        (Filter::Linear, MipmapMode::Nearest),
        (Filter::Linear, MipmapMode::Linear),
    ];
    let mut rng = Rng(0x5eed_c0be_0003);
    let (mut checked, mut batched) = (0usize, 0usize);
    for kind in [K::Cube, K::CubeArray] {
        for (filter, mip) in filters {
            for seamless in [true, false] {
                for _ in 0..30 {
                    let format = rng.pick(&formats);
                    let size = rng.pick(&[8u32, 16, 32]);
                    let mut desc = TextureDesc::cube(format, size);
                    if kind == K::CubeArray {
                        desc = desc.with_layers(K::CubeArray, 12);
                    }
                    desc.levels = desc.max_levels();
                    let n = desc.total_bytes().unwrap() as usize;
                    let bytes: Vec<u8> = (0..n).map(|_| rng.u() as u8).collect();
                    let layout = rng.pick(&[Layout::Linear, Layout::Tiled]);
                    let tex = Arc::new(Texture::from_linear_bytes(desc, layout, &bytes).unwrap());
                    let view = TextureHeader::new(tex.clone());
                    let smp = SamplerHeader {
                        mag_filter: filter,
                        min_filter: filter,
                        mipmap_mode: mip,
                        address: [AddressMode::ClampToEdge; 3],
                        seamless_cube: seamless,
                        mip_lod_bias: rng.pick(&[0.0, 0.5, -1.0]),
                        max_anisotropy: rng.pick(&[1.0, 4.0, 16.0]),
                        compare: format.has_depth().then_some(CompareOp::LessOrEqual),
                        ..Default::default()
                    };
                    let profile = rng.pick(&[Profile::VULKAN, Profile::NV_SASS]);
                    let args = SampleArgs {
                        lod: rng.pick(&[
                            Lod::Implicit,
                            Lod::Implicit,
                            Lod::Level([0.5, 1.0, 1.5, 2.0]),
                        ]),
                        derivatives: Some(rng.pick(&[Derivatives::Fine, Derivatives::Coarse])),
                        dref: smp.compare.map(|_| [0.3, 0.5, 0.7, 1.2]),
                        ..Default::default()
                    };
                    // A tile of directions around a random axis direction.
                    let axis = rng.pick(&[
                        [1.0, 0.0, 0.0],
                        [-1.0, 0.0, 0.0],
                        [0.0, 1.0, 0.0],
                        [0.0, -1.0, 0.0],
                        [0.0, 0.0, 1.0],
                        [0.0, 0.0, -1.0],
                    ]);
                    let (u0, v0) = (rng.f() * 1.6 - 0.8, rng.f() * 1.6 - 0.8);
                    let step = rng.pick(&[0.2, 1.0, 3.0]) / size as f32;
                    // Stretched footprints (anisotropic taps) too.
                    let stretch = rng.pick(&[1.0, 1.0, 5.0]);
                    let cube = rng.pick(&[0.0, 1.0, 1.6]);
                    let quads: Vec<Quad> = (0..32)
                        .map(|i| {
                            let (qx, qy) = (i % 8, i / 8);
                            let mut coords = [0, 1, 2, 3].map(|l| {
                                let u = u0 + (2 * qx + (l & 1)) as f32 * step;
                                let v = v0 + (2 * qy + (l >> 1)) as f32 * step * stretch;
                                // Two tangent axes: the components the axis lacks.
                                let mut d = axis;
                                let free: Vec<usize> = (0..3).filter(|&k| axis[k] == 0.0).collect();
                                d[free[0]] = u;
                                d[free[1]] = v;
                                [d[0], d[1], d[2], cube]
                            });
                            if rng.u().is_multiple_of(20) {
                                coords[(rng.u() % 4) as usize][(rng.u() % 3) as usize] =
                                    rng.pick(&[f32::NAN, 0.0, -0.0, 1e30, f32::INFINITY, 1.0]);
                            }
                            Quad::new(coords)
                        })
                        .collect();
                    let want: Vec<_> = quads
                        .iter()
                        .map(|q| reference::sample(&view, &smp, &profile, &args, q))
                        .collect();
                    for lanes in [4, 8, 16] {
                        let mut s = quadtex_sampler::QuadSampler::new(&view, &smp, &profile);
                        let mut got = vec![quadtex_sampler::QuadResult::EMPTY; quads.len()];
                        batched += s.sample_quads_at_width(lanes, &args, &quads, &mut got);
                        for (i, (g, r)) in got.iter().zip(&want).enumerate() {
                            for lane in 0..4 {
                                assert!(
                                    same(g.texels[lane], r.texels[lane])
                                        && g.resident[lane] == r.resident[lane],
                                    "{kind:?} {lanes} lanes, quad {i} lane {lane}: {format} {smp:?} {args:?}\n{:?}\nbatched {:?} reference {:?}",
                                    quads[i],
                                    g.texels[lane],
                                    r.texels[lane]
                                );
                            }
                        }
                        checked += quads.len();
                    }
                }
            }
        }
    }
    assert!(
        batched * 3 > checked,
        "{batched} of {checked} cube quads batched"
    );
}

/// TLD4 / `textureGather` through the batched kernels at every width
/// against the lane-by-lane reference (`gather_reference`): tiles of
/// neighbouring quads with partial quads and edge coordinates mixed in,
/// every component, swizzles, AOFFI offsets and (handed back) PTP offsets,
/// on 2D and 2D-array views.
#[test]
fn batched_gather_matches_the_reference_bit_for_bit() {
    use quadtex_sampler::gather::{gather_reference, GatherArgs, GatherOffsets};
    let formats = [
        F::Rgba8Unorm,
        F::Rgba8Srgb,
        F::Bgra8Unorm,
        F::Rgba16Float,
        F::R32Float,
        F::Bc1RgbaUnorm,
        F::Rg8Snorm,
        F::Depth32Float,
        F::Depth16Unorm,
        F::Depth24UnormX8,
    ];
    let mut rng = Rng(0x5eed_6a7e_0004);
    let (mut checked, mut batched) = (0usize, 0usize);
    for kind in [K::D2, K::D2Array] {
        for address in [
            AddressMode::Repeat,
            AddressMode::ClampToEdge,
            AddressMode::MirroredRepeat,
        ] {
            for _ in 0..60 {
                let format = rng.pick(&formats);
                let (w, h) = rng.pick(&[(16, 16), (8, 32), (64, 64), (12, 9)]);
                let mut desc = TextureDesc::d2(format, w, h);
                if kind == K::D2Array {
                    desc = desc.with_layers(K::D2Array, 3);
                }
                desc.levels = desc.max_levels();
                let n = desc.total_bytes().unwrap() as usize;
                let bytes: Vec<u8> = (0..n).map(|_| rng.u() as u8).collect();
                let layout = rng.pick(&[Layout::Linear, Layout::Tiled]);
                let tex = Arc::new(Texture::from_linear_bytes(desc, layout, &bytes).unwrap());
                let mut view = TextureHeader::new(tex.clone());
                if rng.u().is_multiple_of(3) {
                    view.swizzle = [Swizzle::B, Swizzle::One, Swizzle::R, Swizzle::Zero];
                }
                if rng.u().is_multiple_of(4) && tex.desc().levels > 1 {
                    view.base_level = 1;
                    view.level_count = tex.desc().levels - 1;
                }
                // `.DC` on depth formats (and now and then on colour ones).
                let dc = format.has_depth() || rng.u().is_multiple_of(8);
                let smp = SamplerHeader {
                    address: [address; 3],
                    compare: dc.then(|| {
                        rng.pick(&[
                            CompareOp::Less,
                            CompareOp::GreaterOrEqual,
                            CompareOp::NotEqual,
                            CompareOp::Equal,
                        ])
                    }),
                    ..Default::default()
                };
                let profile = rng.pick(&[Profile::VULKAN, Profile::NV_SASS]);
                let args = GatherArgs {
                    component: (rng.u() % 4) as u8,
                    offsets: match rng.u() % 4 {
                        0 => GatherOffsets::Aoffi([rng.pick(&[-8, 7, 3]), rng.pick(&[-8, 0, 5])]),
                        1 => GatherOffsets::Ptp([[1, 0], [0, 1], [-1, 0], [0, -1]]),
                        _ => GatherOffsets::None,
                    },
                    dref: dc.then(|| {
                        [0, 1, 2, 3].map(|_| rng.pick(&[0.5, -0.5, 1.5, 0.0, f32::NAN, 0.3]))
                    }),
                    ..Default::default()
                };
                let (u0, v0) = (rng.f() * 2.0 - 0.5, rng.f() * 2.0 - 0.5);
                let step = rng.pick(&[0.3, 1.0, 2.5]) / w as f32;
                let layer = rng.pick(&[0.0, 1.0, 2.6]);
                let quads: Vec<Quad> = (0..48)
                    .map(|i| {
                        let (qx, qy) = (i % 12, i / 12);
                        let mut coords = [0, 1, 2, 3].map(|l| {
                            let x = (2 * qx + (l & 1)) as f32;
                            let y = (2 * qy + (l >> 1)) as f32;
                            [u0 + x * step, v0 + y * step, 0.0, layer]
                        });
                        if rng.u().is_multiple_of(16) {
                            coords[(rng.u() % 4) as usize][rng.pick(&[0usize, 1])] =
                                coord(&mut rng, w);
                        }
                        Quad {
                            coords,
                            active: rng.pick(&[0xf, 0xf, 0xf, 0x7, 0x9]),
                            helper: rng.pick(&[0, 0, 0x8]),
                        }
                    })
                    .collect();
                let want: Vec<_> = quads
                    .iter()
                    .map(|q| gather_reference(&view, &smp, &profile, &args, q))
                    .collect();
                for lanes in [4, 8, 16] {
                    let mut s = quadtex_sampler::QuadSampler::new(&view, &smp, &profile);
                    let mut got = vec![quadtex_sampler::QuadResult::EMPTY; quads.len()];
                    batched += s.gather_quads_at_width(lanes, &args, &quads, &mut got);
                    for (i, (g, r)) in got.iter().zip(&want).enumerate() {
                        for lane in 0..4 {
                            assert!(
                                same(g.texels[lane], r.texels[lane]) && g.resident[lane] == r.resident[lane],
                                "{lanes} lanes, quad {i} lane {lane}: {format} {address:?} {args:?}\n{:?}\nbatched {:?} reference {:?}",
                                quads[i],
                                g.texels[lane],
                                r.texels[lane]
                            );
                        }
                    }
                    checked += quads.len();
                }
            }
        }
    }
    assert!(
        batched * 3 > checked,
        "{batched} of {checked} gathers batched"
    );
}
