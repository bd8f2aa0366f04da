//! Integer filtering (8-bit weights and LOD fractions, `docs/precision.md`)
//! against the exact f32 mode: the distance the precision rules allow and
//! no more. A profile that differs from `VULKAN` only in its fraction bits
//! samples the same seeded textures and quads as `VULKAN` itself.
//!
//! The bound per channel, for values in [0, 1]: each truncated weight is
//! at most 1/256 below the exact fraction, which moves a bilinear result
//! by at most 1/256 per axis; lambda floored to 1/256 and the level
//! fraction truncated to 1/256 move the blend of two levels by at most
//! 2/256; rounding each level to 8.8 costs at most half of `1 / (255 *
//! 256)`; f32 rounding in the exact mode a few ulps.

use std::sync::Arc;

use quadtex_format::{Layout, Texture, TextureDesc, TextureFormat as F};
use quadtex_sampler::{
    integer_filtering, reference, Filter, MipmapMode, Profile, Quad, SampleArgs, SamplerHeader,
    TextureHeader,
};

mod rng;
use rng::Rng;

/// `VULKAN` with 8-bit weights and LOD fractions (truncated): integer
/// filtering, everything else equal.
const EIGHT_BIT: Profile = Profile {
    lod_frac_bits: Some(8),
    weight_frac_bits: Some(8),
    ..Profile::VULKAN
};

/// A seeded 64x64 RGBA8 texture with all seven levels of random bytes.
fn texture(rng: &mut Rng, format: F) -> TextureHeader {
    let desc = TextureDesc::d2(format, 64, 64).with_levels(7);
    let size = desc.total_bytes().unwrap() as usize;
    let bytes: Vec<u8> = (0..size).map(|_| rng.u() as u8).collect();
    let tex = Texture::from_linear_bytes(desc, Layout::Tiled, &bytes).unwrap();
    TextureHeader::new(Arc::new(tex))
}

/// A quad at a random place and scale (magnified 4:1 to minified 1:16),
/// slightly rotated, so trilinear blends of every fraction occur.
fn quad(rng: &mut Rng) -> Quad {
    let (s, t) = (rng.f(), rng.f());
    let scale = (rng.f() * 6.0 - 2.0).exp2() / 64.0;
    let (c, sn) = (scale * 0.96, scale * 0.28);
    Quad::new([
        [s, t, 0.0, 0.0],
        [s + c, t + sn, 0.0, 0.0],
        [s - sn, t + c, 0.0, 0.0],
        [s + c - sn, t + sn + c, 0.0, 0.0],
    ])
}

fn channels(view: &TextureHeader, smp: &SamplerHeader, p: &Profile, q: &Quad) -> Vec<[f32; 4]> {
    let args = SampleArgs::default();
    let r = reference::sample(view, smp, p, &args, q);
    r.texels
        .iter()
        .map(|t| t.unwrap().to_f32())
        .collect::<Vec<_>>()
}

#[test]
fn integer_filtering_stays_within_the_precision_rules_of_the_exact_mode() {
    let bound = 4.0 / 256.0 + 0.5 / (255.0 * 256.0) + 1e-6;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let smp = SamplerHeader {
        mag_filter: Filter::Linear,
        min_filter: Filter::Linear,
        mipmap_mode: MipmapMode::Linear,
        ..Default::default()
    };
    let mut worst = 0.0f32;
    for format in [F::Rgba8Unorm, F::Bgra8Unorm] {
        for _ in 0..8 {
            let view = texture(&mut rng, format);
            assert!(integer_filtering(&view, &smp, &EIGHT_BIT));
            assert!(!integer_filtering(&view, &smp, &Profile::VULKAN));
            for _ in 0..2000 {
                let q = quad(&mut rng);
                let exact = channels(&view, &smp, &Profile::VULKAN, &q);
                let int = channels(&view, &smp, &EIGHT_BIT, &q);
                for (e, i) in exact.iter().zip(&int) {
                    for c in 0..4 {
                        let d = (e[c] - i[c]).abs();
                        assert!(d <= bound, "{format:?} {q:?}: exact {e:?} integer {i:?}");
                        worst = worst.max(d);
                    }
                }
            }
        }
    }
    // The modes do differ (the test measures something), by more than
    // f32 rounding.
    assert!(worst > 1.0 / 1024.0, "largest distance {worst}");
}

/// Nearest reads of one level filter nothing: both modes give `c / 255`
/// bit for bit.
#[test]
fn integer_filtering_of_nearest_reads_is_the_exact_mode() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let smp = SamplerHeader {
        mag_filter: Filter::Nearest,
        min_filter: Filter::Nearest,
        mipmap_mode: MipmapMode::None,
        ..Default::default()
    };
    let view = texture(&mut rng, F::Rgba8Unorm);
    assert!(integer_filtering(&view, &smp, &EIGHT_BIT));
    for _ in 0..4000 {
        let q = quad(&mut rng);
        let exact = channels(&view, &smp, &Profile::VULKAN, &q);
        let int = channels(&view, &smp, &EIGHT_BIT, &q);
        for (e, i) in exact.iter().zip(&int) {
            assert_eq!(e.map(f32::to_bits), i.map(f32::to_bits), "{q:?}");
        }
    }
}
