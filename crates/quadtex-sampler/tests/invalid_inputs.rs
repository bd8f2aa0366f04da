//! Headers and profiles outside their rules and sampling on them: the validating
//! constructors return typed errors, and every sampling entry point still
//! gives defined results (the same bits on every path) instead of a panic
//! (`f32::clamp` on a NaN or negative `max_lod_bias`, `1 << bits` with
//! 32 or more fraction bits, `level_count - 1` on a view without levels).

mod common;

use std::sync::Arc;

use common::*;
use quadtex_format::{Layout, Texel, Texture, TextureDesc, TextureFormat as F, TextureKind as K};
use quadtex_sampler::gather::{gather_reference, GatherArgs};
use quadtex_sampler::profile::OffsetOverflow;
use quadtex_sampler::{
    fetch, gather, query_lod, reference, sample, sample_uses_kernel, AddressMode, ErrorKind,
    FetchArgs, Filter, Lod, MipmapMode, Profile, Quad, QuadFetcher, QuadResult, QuadSampler,
    SampleArgs, SamplerHeader, TextureHeader,
};

/// `sample` of one quad through every path (the reference, `sample`, the
/// many-quad calls at 4, 8 and 16 lanes, the RGBA form), asserting they agree
/// bit for bit; returns the reference result.
fn sample_all(
    view: &TextureHeader,
    smp: &SamplerHeader,
    p: &Profile,
    args: &SampleArgs,
    q: &Quad,
) -> QuadResult {
    let want = reference::sample(view, smp, p, args, q);
    let bits = |r: &QuadResult| r.texels.map(|t| t.map(|t| t.to_bits()));
    assert_eq!(bits(&sample(view, smp, p, args, q)), bits(&want), "sample");
    for lanes in [4, 8, 16] {
        let quads = vec![*q; lanes / 4];
        let mut s = QuadSampler::new(view, smp, p);
        let mut got = vec![QuadResult::EMPTY; quads.len()];
        s.sample_quads_at_width(lanes, args, &quads, &mut got);
        for g in &got {
            assert_eq!(bits(g), bits(&want), "{lanes} lanes");
        }
        let mut rgba = vec![[[0.0f32; 4]; 4]; quads.len()];
        s.sample_quads_rgba_at_width(lanes, args, &quads, &mut rgba);
        for g in &rgba {
            for (lane, v) in g.iter().enumerate() {
                let r = want.texels[lane].map_or([0.0; 4], Texel::to_f32);
                assert_eq!(
                    v.map(f32::to_bits),
                    r.map(f32::to_bits),
                    "rgba {lanes} lanes"
                );
            }
        }
    }
    want
}

/// A 16x16 R32_SFLOAT texture with its mip chain: texel `(i, j)` of
/// level `L` (width `w_L`) = `100 L + w_L j + i`.
fn mips() -> TextureHeader {
    view(mip_index_2d(16, 16))
}

#[test]
fn try_new_returns_the_first_error_of_view_sampler_or_profile() {
    let v = mips();
    let smp = SamplerHeader::default();
    assert!(QuadSampler::try_new(&v, &smp, &Profile::VULKAN).is_ok());
    let mut no_levels = v.clone();
    no_levels.level_count = 0;
    assert!(matches!(
        QuadSampler::try_new(&no_levels, &smp, &Profile::VULKAN),
        Err(ref e) if e.kind() == ErrorKind::InvalidHeader
    ));
    let nan = SamplerHeader {
        min_lod: f32::NAN,
        ..smp
    };
    assert!(matches!(
        QuadSampler::try_new(&v, &nan, &Profile::VULKAN),
        Err(ref e) if e.kind() == ErrorKind::InvalidSampler
    ));
    let p = Profile {
        max_lod_bias: f32::NAN,
        ..Profile::VULKAN
    };
    assert!(matches!(
        QuadSampler::try_new(&v, &smp, &p),
        Err(ref e) if e.kind() == ErrorKind::InvalidProfile
    ));
}

/// `f32::clamp(-m, m)` panicked for a NaN or negative `max_lod_bias` in
/// the reference and `query_lod`. Now the bias is clamped as
/// `x < -m ? -m : x`, then `x > m ? m : x` on every path: NaN leaves it
/// alone, a negative `m` makes it `m`.
#[test]
fn a_nan_or_negative_max_lod_bias_clamps_the_bias_without_panicking() {
    let v = mips();
    let smp = SamplerHeader {
        mip_lod_bias: 2.0,
        ..Default::default()
    };
    let args = at_lod(1.0);
    let q = point([0.5, 0.5, 0.0, 0.0]);
    // Texel (i, j) = (w/2, w/2) of level L.
    let at = |l: u32| {
        let w = 16 >> l;
        (100 * l + w * (w / 2) + w / 2) as f32
    };
    let nan = Profile {
        max_lod_bias: f32::NAN,
        ..Profile::VULKAN
    };
    // NaN: lambda = 1 + 2, level 3.
    let r = sample_all(&v, &smp, &nan, &args, &q);
    assert_eq!(r.texels[0].unwrap().to_f32()[0], at(3));
    let lod = query_lod(&v, &smp, &nan, &args, &q);
    assert_eq!(lod[0].unwrap().lambda, 3.0);
    assert_eq!(lod[0].unwrap().accessed, 3.0);
    // -1: the bias is -1 whatever it asked for, lambda 1 - 1 = 0.
    let neg = Profile {
        max_lod_bias: -1.0,
        ..Profile::VULKAN
    };
    let r = sample_all(&v, &smp, &neg, &args, &q);
    assert_eq!(r.texels[0].unwrap().to_f32()[0], at(0));
    assert_eq!(query_lod(&v, &smp, &neg, &args, &q)[0].unwrap().lambda, 0.0);
    // Implicit LODs through the batched kernels agree too.
    let implicit = SampleArgs::default();
    let q = stepped([0.3, 0.3, 0.0, 0.0], [0.2, 0.0], [0.0, 0.2]);
    for p in [nan, neg] {
        sample_all(&v, &smp, &p, &implicit, &q);
    }
}

/// Offset fields of 0 or more than 32 bits overflowed the shifts of
/// `Profile::offset`; they act as 1 and 32 bits.
#[test]
fn offset_widths_outside_1_to_32_act_as_the_nearest() {
    let wrap = Profile::VULKAN;
    let clamp = Profile {
        offset_overflow: OffsetOverflow::Clamp,
        ..wrap
    };
    for p in [wrap, clamp] {
        assert_eq!(p.offset(5, 0), p.offset(5, 1));
        assert_eq!(p.offset(i32::MAX, 40), i32::MAX);
        assert_eq!(p.offset(i32::MIN, 32), i32::MIN);
        assert_eq!(p.offset(-3, 255), -3);
    }
    assert_eq!(wrap.offset(5, 0), -1);
    assert_eq!(clamp.offset(5, 0), 0);
    assert_eq!(clamp.offset(-5, 0), -1);
}

/// `max_anisotropy` past 16 (4096, +Inf) is clamped to 16: the same bits
/// as 16 on every path and in `query_lod`, for a ground-plane footprint
/// 100 times longer than wide (where eta would otherwise be 100).
#[test]
fn anisotropy_past_16_gives_the_same_bits_as_16() {
    let v = view(mip_index_2d(256, 256));
    let args = SampleArgs {
        lod: Lod::Grad {
            ddx: [[1.0 / 256.0, 0.0, 0.0]; 4],
            ddy: [[0.0, 100.0 / 256.0, 0.0]; 4],
        },
        ..Default::default()
    };
    let q = stepped([0.4, 0.3, 0.0, 0.0], [0.01, 0.0], [0.0, 0.02]);
    for p in [Profile::VULKAN, Profile::NV_SASS, Profile::D3D11] {
        let s16 = SamplerHeader {
            max_anisotropy: 16.0,
            mipmap_mode: MipmapMode::Linear,
            mag_filter: Filter::Linear,
            min_filter: Filter::Linear,
            ..Default::default()
        };
        let want = sample_all(&v, &s16, &p, &args, &q);
        let want_lod = query_lod(&v, &s16, &p, &args, &q);
        // 100:1 clamped to 16:1: lambda = log2(100 / 16) (NVIDIA's
        // profiles keep 8 fraction bits of it).
        let lambda = want_lod[0].unwrap().lambda;
        let exact = (100.0f32 / 16.0).log2();
        assert!((lambda - exact).abs() <= 1.0 / 256.0, "{lambda}");
        for a in [16.5, 4096.0, f32::INFINITY] {
            let s = SamplerHeader {
                max_anisotropy: a,
                ..s16
            };
            s.validate_with(&v).unwrap();
            let got = sample_all(&v, &s, &p, &args, &q);
            assert_eq!(
                got.texels.map(|t| t.map(|t| t.to_bits())),
                want.texels.map(|t| t.map(|t| t.to_bits())),
                "{a}"
            );
            assert_eq!(query_lod(&v, &s, &p, &args, &q), want_lod, "{a}");
        }
    }
}

/// Views `TextureHeader::validate` rejects: no levels (`level_count - 1`
/// underflowed), levels or layers outside the texture, a cube view of
/// too few layers. Every entry point gives zeros in the running lanes
/// (fetch: its out-of-bounds texel), as an invalid handle does, and the
/// validating constructor names the problem.
#[test]
fn views_validate_rejects_read_zeros_on_every_path() {
    let tex = Arc::new(mip_index_2d(8, 8));
    let arr = {
        let desc = TextureDesc::d2(F::R32Float, 8, 8).with_layers(K::D2Array, 6);
        let n = desc.total_bytes().unwrap() as usize;
        Arc::new(Texture::from_linear_bytes(desc, Layout::Linear, &vec![0x3f; n]).unwrap())
    };
    let mut bad = Vec::new();
    for (levels, base) in [(0, 0), (5, 0), (1, 4), (1, u32::MAX), (u32::MAX, 1)] {
        let mut v = TextureHeader::new(tex.clone());
        (v.level_count, v.base_level) = (levels, base);
        bad.push(v);
    }
    for (layers, base, kind) in [
        (0, 0, K::D2Array),
        (7, 0, K::D2Array),
        (1, 6, K::D2Array),
        (3, 0, K::Cube),
        (2, 0, K::CubeArray),
        (6, u32::MAX, K::CubeArray),
    ] {
        let mut v = TextureHeader::new(arr.clone());
        (v.layer_count, v.base_layer, v.kind) = (layers, base, kind);
        bad.push(v);
    }
    let smp = SamplerHeader::trilinear(AddressMode::Repeat);
    let zeros = Some(Texel::Float([0.0; 4]));
    for v in &bad {
        assert!(v.validate().is_err(), "{v:?}");
        assert!(matches!(
            QuadSampler::try_new(v, &smp, &Profile::VULKAN),
            Err(ref e) if e.kind() == ErrorKind::InvalidHeader
        ));
        let c = if v.kind.is_cube() {
            [0.3, 1.0, -0.2, 0.0]
        } else {
            [0.3, 0.6, 0.0, 1.0]
        };
        let q = stepped(c, [0.05, 0.0], [0.0, 0.05]);
        for args in [SampleArgs::default(), at_lod(1.0), at_lod(0.0)] {
            let r = sample_all(v, &smp, &Profile::NV_SASS, &args, &q);
            assert_eq!(r.texels, [zeros; 4], "{v:?}");
            assert!(!sample_uses_kernel(v, &smp, &Profile::NV_SASS, &args));
            let lod = query_lod(v, &smp, &Profile::VULKAN, &args, &q);
            assert!(lod.iter().all(|l| l.unwrap().raw == [0; 4]));
        }
        let g = GatherArgs::default();
        assert_eq!(gather(v, &smp, &Profile::VULKAN, &g, &q).texels, [zeros; 4]);
        assert_eq!(
            gather_reference(v, &smp, &Profile::VULKAN, &g, &q).texels,
            [zeros; 4]
        );
        let mut s = QuadSampler::new(v, &smp, &Profile::VULKAN);
        let mut out = vec![QuadResult::EMPTY; 4];
        s.gather_quads_at_width(16, &g, &[q; 4], &mut out);
        assert!(out.iter().all(|r| r.texels == [zeros; 4]));
        // Texel fetch: both twins, no panic, the same bits.
        let fa = FetchArgs {
            icoords: [[1, 2, 0, 1]; 4],
            level: [0, 1, 2, 3],
            ..Default::default()
        };
        let want = quadtex_sampler::fetch::fetch_reference(v, &fa, 0xf);
        assert_eq!(fetch(v, &fa, 0xf), want);
        assert_eq!(QuadFetcher::new(v).fetch(&fa, 0xf), want);
    }
}
