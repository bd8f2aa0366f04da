//! Defects found by fuzzing the public API (each test failed before its
//! fix): the many-quad SIMD paths against the scalar reference on the cases
//! they got wrong, bounded work for huge anisotropy, and errors (not
//! panics) for impossible profiles, views and PTX immediates.

use std::sync::Arc;

use quadtex_format::{Layout, Texel, Texture, TextureDesc, TextureFormat as F, TextureKind as K};
use quadtex_sampler::gather::{gather_reference, GatherArgs};
use quadtex_sampler::isa::ptx;
use quadtex_sampler::{
    query_lod, reference, AddressMode, CompareOp, Filter, Lod, MipmapMode, Profile, Quad,
    QuadResult, QuadSampler, SampleArgs, SamplerHeader, TextureHeader,
};

fn texture(desc: TextureDesc, layout: Layout, seed: u64) -> Arc<Texture> {
    let n = desc.total_bytes().unwrap() as usize;
    let mut s = seed | 1;
    let bytes: Vec<u8> = (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s as u8
        })
        .collect();
    Arc::new(Texture::from_linear_bytes(desc, layout, &bytes).unwrap())
}

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

/// Every batch width and the one-quad form against the reference.
fn sample_twin(
    view: &TextureHeader,
    smp: &SamplerHeader,
    profile: &Profile,
    args: &SampleArgs,
    quads: &[Quad],
) {
    let want: Vec<_> = quads
        .iter()
        .map(|q| reference::sample(view, smp, profile, args, q))
        .collect();
    let mut s = QuadSampler::new(view, smp, profile);
    for (q, w) in quads.iter().zip(&want) {
        let got = s.sample(args, q);
        assert!(same(&got, w), "sample: {got:?} against {w:?}");
    }
    for lanes in [4, 8, 16] {
        let mut got = vec![QuadResult::EMPTY; quads.len()];
        s.sample_quads_at_width(lanes, args, quads, &mut got);
        for (g, w) in got.iter().zip(&want) {
            assert!(same(g, w), "{lanes} lanes: {g:?} against {w:?}");
        }
    }
}

fn gather_twin(
    view: &TextureHeader,
    smp: &SamplerHeader,
    profile: &Profile,
    args: &GatherArgs,
    quads: &[Quad],
) {
    let want: Vec<_> = quads
        .iter()
        .map(|q| gather_reference(view, smp, profile, args, q))
        .collect();
    let mut s = QuadSampler::new(view, smp, profile);
    for lanes in [4, 8, 16] {
        let mut got = vec![QuadResult::EMPTY; quads.len()];
        s.gather_quads_at_width(lanes, args, quads, &mut got);
        for (g, w) in got.iter().zip(&want) {
            assert!(same(g, w), "{lanes} lanes: {g:?} against {w:?}");
        }
    }
}

/// A 2x2 quad of one coordinate in every lane.
fn quad_at(s: f32, t: f32, layer: f32) -> Quad {
    Quad::new([[s, t, 0.0, layer]; 4])
}

#[test]
fn d16_compare_reads_the_last_texel_of_the_data() {
    // 8x4 D16, one level: the texel at (7, 3) is the last 2 bytes of the
    // texture, which a 4-byte load used to run past (and read as 0).
    let tex = texture(
        TextureDesc::d2(F::Depth16Unorm, 8, 4),
        Layout::Linear,
        0xd16,
    );
    let view = TextureHeader::new(tex.clone());
    let last = u16::from_le_bytes([tex.bytes()[62], tex.bytes()[63]]);
    let smp = SamplerHeader {
        compare: Some(CompareOp::Less),
        ..Default::default()
    };
    // dref just above and just below the last texel's depth.
    let d = f32::from(last) / 65535.0;
    for (dref, want) in [(d - 1e-3, 1.0), (d + 1e-3, 0.0)] {
        let args = SampleArgs {
            lod: Lod::Base,
            dref: Some([dref; 4]),
            ..Default::default()
        };
        let quads = [quad_at(0.9375, 0.875, 0.0); 4];
        let r = reference::sample(&view, &smp, &Profile::VULKAN, &args, &quads[0]);
        assert_eq!(
            r.texels[0],
            Some(Texel::Float([want, 0.0, 0.0, 1.0])),
            "reference, dref {dref}"
        );
        sample_twin(&view, &smp, &Profile::VULKAN, &args, &quads);
    }
}

#[test]
fn d16_gather_compare_on_a_1x1_cube_and_arrays_with_min_lod() {
    let cube = texture(
        TextureDesc::cube(F::Depth16Unorm, 1),
        Layout::Linear,
        0xc0be,
    );
    let view = TextureHeader::new(cube);
    let smp = SamplerHeader {
        compare: Some(CompareOp::Less),
        ..Default::default()
    };
    let args = GatherArgs {
        dref: Some([0.5; 4]),
        ..Default::default()
    };
    let quads = [Quad::new([[1.0, 0.2, -0.3, 0.0]; 4]); 3];
    gather_twin(&view, &smp, &Profile::VULKAN, &args, &quads);

    let mut desc = TextureDesc::d2(F::Depth16Unorm, 16, 16).with_layers(K::D2Array, 3);
    desc.levels = desc.max_levels();
    let view = TextureHeader::new(texture(desc, Layout::Tiled, 0xa7));
    let smp = SamplerHeader {
        compare: Some(CompareOp::Less),
        min_lod: 3.7,
        max_anisotropy: 2.0,
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        mipmap_mode: MipmapMode::Linear,
        ..Default::default()
    };
    let args = SampleArgs {
        dref: Some([0.5; 4]),
        ..Default::default()
    };
    let quads: Vec<Quad> = (0..8)
        .map(|i| {
            let s = i as f32 / 8.0;
            Quad::new([
                [s, 0.1, 0.0, 2.0],
                [s + 0.01, 0.1, 0.0, 2.0],
                [s, 0.15, 0.0, 2.0],
                [s + 0.01, 0.15, 0.0, 2.0],
            ])
        })
        .collect();
    sample_twin(&view, &smp, &Profile::VULKAN, &args, &quads);
}

#[test]
fn gather_on_astc_blocks_that_are_not_a_power_of_two() {
    for format in [
        F::Astc6x6Unorm,
        F::Astc6x6Srgb,
        F::Astc10x10Unorm,
        F::Astc5x4Unorm,
    ] {
        for layout in [Layout::Linear, Layout::Tiled] {
            let view = TextureHeader::new(texture(TextureDesc::d2(format, 30, 20), layout, 0xa5c));
            for address in [
                AddressMode::Repeat,
                AddressMode::ClampToEdge,
                AddressMode::ClampToBorder,
            ] {
                let smp = SamplerHeader::trilinear(address);
                let quads: Vec<Quad> = (0..12)
                    .map(|i| {
                        let s = i as f32 / 11.0;
                        Quad::new([
                            [s, 0.3, 0.0, 0.0],
                            [s + 0.02, 0.3, 0.0, 0.0],
                            [s, 0.35, 0.0, 0.0],
                            [s + 0.02, 0.35, 0.0, 0.0],
                        ])
                    })
                    .collect();
                for component in 0..4 {
                    let args = GatherArgs {
                        component,
                        ..Default::default()
                    };
                    gather_twin(&view, &smp, &Profile::VULKAN, &args, &quads);
                }
            }
        }
    }
}

#[test]
fn anisotropy_above_16_samples_as_16() {
    let mut desc = TextureDesc::d2(F::Rgba8Unorm, 64, 64);
    desc.levels = desc.max_levels();
    let view = TextureHeader::new(texture(desc, Layout::Tiled, 0xa1));
    // A ground-plane footprint: 1 texel across, 300 along.
    let quad = Quad::new([
        [0.3, 0.3, 0.0, 0.0],
        [0.3 + 1.0 / 64.0, 0.3, 0.0, 0.0],
        [0.3, 0.3 + 300.0 / 64.0, 0.0, 0.0],
        [0.3 + 1.0 / 64.0, 0.3 + 300.0 / 64.0, 0.0, 0.0],
    ]);
    let at = |aniso: f32, profile: &Profile| {
        let smp = SamplerHeader {
            max_anisotropy: aniso,
            ..SamplerHeader::trilinear(AddressMode::Repeat)
        };
        let args = SampleArgs::default();
        sample_twin(&view, &smp, profile, &args, &[quad; 4]);
        (
            reference::sample(&view, &smp, profile, &args, &quad),
            query_lod(&view, &smp, profile, &args, &quad),
        )
    };
    for profile in [Profile::VULKAN, Profile::NV_SASS] {
        let sixteen = at(16.0, &profile);
        assert_ne!(
            sixteen.0,
            at(4.0, &profile).0,
            "the footprint is anisotropic enough to tell 4 from 16"
        );
        for big in [17.0, 4096.0, f32::MAX, f32::INFINITY] {
            assert_eq!(at(big, &profile), sixteen, "{big} against 16");
        }
    }
}

#[test]
fn impossible_profiles_are_errors_and_never_panic_the_sampler() {
    for p in [
        Profile::VULKAN,
        Profile::NV_SASS,
        Profile::PTX,
        Profile::D3D11,
    ] {
        p.validate().unwrap();
    }
    let bad = [
        Profile {
            max_lod_bias: f32::NAN,
            ..Profile::VULKAN
        },
        Profile {
            max_lod_bias: -1.0,
            ..Profile::VULKAN
        },
        Profile {
            lod_frac_bits: Some(32),
            ..Profile::VULKAN
        },
        Profile {
            weight_frac_bits: Some(255),
            ..Profile::NV_SASS
        },
        Profile {
            gather_offset_bits: 0,
            ..Profile::VULKAN
        },
        Profile {
            tex_offset_bits: 200,
            ..Profile::VULKAN
        },
    ];
    let mut desc = TextureDesc::d2(F::Rgba8Unorm, 8, 8);
    desc.levels = desc.max_levels();
    let view = TextureHeader::new(texture(desc, Layout::Linear, 3));
    let smp = SamplerHeader {
        mip_lod_bias: 2.0,
        ..SamplerHeader::trilinear(AddressMode::Repeat)
    };
    let quad = Quad::new([
        [0.1, 0.1, 0.0, 0.0],
        [0.2, 0.1, 0.0, 0.0],
        [0.1, 0.2, 0.0, 0.0],
        [0.2, 0.2, 0.0, 0.0],
    ]);
    for p in bad {
        let e = p.validate().unwrap_err().to_string();
        assert!(e.starts_with("invalid profile: "), "{e}");
        // Defined or not, the sampling paths must not panic on it.
        let args = SampleArgs {
            offset: [7, -8, 0],
            ..Default::default()
        };
        let _ = reference::sample(&view, &smp, &p, &args, &quad);
        let _ = QuadSampler::new(&view, &smp, &p).sample(&args, &quad);
        let _ = query_lod(&view, &smp, &p, &args, &quad);
        let _ = p.offset(-9, p.gather_offset_bits);
    }
}

#[test]
fn views_with_no_levels_are_errors_and_never_panic_the_sampler() {
    let mut desc = TextureDesc::d2(F::Rgba8Unorm, 8, 8);
    desc.levels = desc.max_levels();
    let mut view = TextureHeader::new(texture(desc, Layout::Linear, 4));
    view.level_count = 0;
    assert!(view.validate().is_err());
    let smp = SamplerHeader::trilinear(AddressMode::Repeat);
    let quad = Quad::new([
        [0.1, 0.1, 0.0, 0.0],
        [0.2, 0.1, 0.0, 0.0],
        [0.1, 0.2, 0.0, 0.0],
        [0.2, 0.2, 0.0, 0.0],
    ]);
    let p = Profile::VULKAN;
    for lod in [Lod::Implicit, Lod::Base, Lod::Level([2.0; 4])] {
        let args = SampleArgs {
            lod,
            ..Default::default()
        };
        let _ = reference::sample(&view, &smp, &p, &args, &quad);
        let _ = QuadSampler::new(&view, &smp, &p).sample(&args, &quad);
        let _ = query_lod(&view, &smp, &p, &args, &quad);
    }
    let _ = gather_reference(&view, &smp, &p, &GatherArgs::default(), &quad);
    let _ = QuadSampler::new(&view, &smp, &p).gather(&GatherArgs::default(), &quad);
    let _ = quadtex_sampler::query::size(&view, 0);
}

#[test]
fn ptx_immediates_take_one_sign_and_do_not_overflow() {
    for text in [
        "tex.2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [tex1, {%f5,%f6}], {--9223372036854775808, 0};",
        "tex.2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [tex1, {%f5,%f6}], {--5, 0};",
        "tex.2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [tex1, {%f5,%f6}], {-+5, 0};",
    ] {
        assert!(ptx::parse(text).is_err(), "{text}");
    }
    assert!(ptx::parse("tex.2d.v4.f32.f32 {%f1,%f2,%f3,%f4}, [tex1, {%f5,%f6}], {-5, 0};").is_ok());
}
