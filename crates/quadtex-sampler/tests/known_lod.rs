//! Known answers for level-of-detail selection: explicit, gradient and
//! implicit lambda, nearest and linear mip selection, the sampler's clamps
//! and bias, the magnification switch, and NVIDIA's partial-quad rule.
//!
//! Rules: Vulkan "Scale Factor Operation" (rho = |derivative| x base
//! extent; Euclidean per docs/semantics.md §2), "LOD Operation"
//! (lambda' = lambda_base + clamp(sampler bias + shader bias,
//! +-maxSamplerLodBias), then clamp to [minLod, maxLod]), "Image Level(s)
//! Selection" (d' = clamp(lambda, 0, q); nearest: ceil(d' + 0.5) - 1,
//! alternative floor(d' + 0.5); linear: levels floor(d') and +1 blended by
//! the fraction), "Texel Filtering" (lambda <= 0 magnifies),
//! docs/semantics.md §3 (fine/coarse derivatives, partial quads, `.NDV`).
//!
//! The texture: 8x8 R32_SFLOAT with levels 8, 4, 2, 1; texel (i, j) of level
//! L (width w_L) holds 100 L + w_L j + i. At the point P = (0.3, 0.7):
//! level 0: (floor 2.4, floor 5.6) = (2, 5) -> 42; level 1: (1.2, 2.8) ->
//! (1, 2) -> 109; level 2: (0.6, 1.4) -> (0, 1) -> 202; level 3: 300.

mod common;

use common::*;
use quadtex_sampler::profile::{Derivatives, MipNearest, PartialQuad};
use quadtex_sampler::{
    Filter, Lod, MipmapMode, Profile, Quad, SampleArgs, SamplerHeader, TextureHeader,
};

const P: [f32; 4] = [0.3, 0.7, 0.0, 0.0];
const L0: f32 = 42.0;
const L1: f32 = 109.0;
const L2: f32 = 202.0;
const L3: f32 = 300.0;

fn tex() -> TextureHeader {
    view(mip_index_2d(8, 8))
}

fn smp(min: Filter, mag: Filter, mip: MipmapMode) -> SamplerHeader {
    SamplerHeader {
        min_filter: min,
        mag_filter: mag,
        mipmap_mode: mip,
        ..Default::default()
    }
}

fn nearest_mips() -> SamplerHeader {
    smp(Filter::Nearest, Filter::Nearest, MipmapMode::Nearest)
}

fn linear_mips() -> SamplerHeader {
    smp(Filter::Nearest, Filter::Nearest, MipmapMode::Linear)
}

fn red(v: &TextureHeader, s: &SamplerHeader, p: &Profile, args: &SampleArgs) -> f32 {
    sample_at(v, s, p, args, P).to_f32()[0]
}

fn lanes(r: [Option<quadtex_format::Texel>; 4]) -> [Option<f32>; 4] {
    r.map(|t| t.map(|t| t.to_f32()[0]))
}

#[test]
fn trilinear_at_lod_one_half_is_half_of_each_level() {
    let v = tex();
    let vk = Profile::VULKAN;
    // d' = 0.5: levels 0 and 1, delta = 0.5.
    assert_close(
        red(&v, &linear_mips(), &vk, &at_lod(0.5)),
        0.5 * L0 + 0.5 * L1,
        1e-4,
        "lambda 0.5",
    );
    // d' = 1.25: levels 1 and 2, delta = 0.25.
    assert_close(
        red(&v, &linear_mips(), &vk, &at_lod(1.25)),
        0.75 * L1 + 0.25 * L2,
        1e-4,
        "lambda 1.25",
    );
    // d' clamps to q = 3; d_lo = min(4, 3) = 3.
    assert_close(
        red(&v, &linear_mips(), &vk, &at_lod(3.7)),
        L3,
        1e-4,
        "lambda 3.7",
    );
}

#[test]
fn nearest_mip_rounds_a_half_down_by_default_and_up_with_floor_half() {
    let v = tex();
    let vk = Profile::VULKAN;
    let fh = Profile {
        mip_nearest: MipNearest::FloorHalf,
        ..Profile::VULKAN
    };
    // ceil(0.5 + 0.5) - 1 = 0 vs floor(0.5 + 0.5) = 1.
    assert_eq!(red(&v, &nearest_mips(), &vk, &at_lod(0.5)), L0);
    assert_eq!(red(&v, &nearest_mips(), &fh, &at_lod(0.5)), L1);
    // ceil(2) - 1 = 1 vs floor(2) = 2.
    assert_eq!(red(&v, &nearest_mips(), &vk, &at_lod(1.5)), L1);
    assert_eq!(red(&v, &nearest_mips(), &fh, &at_lod(1.5)), L2);
    // Off the tie both agree.
    for p in [&vk, &fh] {
        assert_eq!(red(&v, &nearest_mips(), p, &at_lod(0.49)), L0);
        assert_eq!(red(&v, &nearest_mips(), p, &at_lod(0.51)), L1);
    }
}

#[test]
fn a_gradient_of_two_texels_per_pixel_selects_level_one_exactly() {
    // ds/dx = 2/8 -> m_ux = 2 texels; dt/dy likewise -> rho = 2, lambda = 1.
    let v = tex();
    let vk = Profile::VULKAN;
    let g = grad([0.25, 0.0, 0.0], [0.0, 0.25, 0.0]);
    assert_eq!(red(&v, &nearest_mips(), &vk, &g), L1);
    assert_eq!(
        red(&v, &linear_mips(), &vk, &g),
        L1,
        "delta = 0: level 1 only"
    );
    // 4 texels -> lambda 2; 1 texel -> lambda 0 (level 0).
    assert_eq!(
        red(
            &v,
            &nearest_mips(),
            &vk,
            &grad([0.5, 0.0, 0.0], [0.0, 0.5, 0.0])
        ),
        L2
    );
    assert_eq!(
        red(
            &v,
            &nearest_mips(),
            &vk,
            &grad([0.125, 0.0, 0.0], [0.0, 0.125, 0.0])
        ),
        L0
    );
    // rho = max(rho_x, rho_y): only the y derivative is 2 texels.
    assert_eq!(
        red(&v, &nearest_mips(), &vk, &grad([0.0; 3], [0.0, 0.25, 0.0])),
        L1
    );
}

#[test]
fn the_scale_factor_is_the_euclidean_length_of_each_derivative() {
    // ddx = (2, 2) texels: |ddx| = 2 sqrt 2 -> lambda 1.5 (the max-abs
    // shortcut would give 1). Linear mips: 0.5 L1 + 0.5 L2.
    let v = tex();
    let g = grad([0.25, 0.25, 0.0], [0.0; 3]);
    assert_close(
        red(&v, &linear_mips(), &Profile::VULKAN, &g),
        0.5 * L1 + 0.5 * L2,
        1e-3,
        "lambda 1.5",
    );
}

/// The brief's quad: P, stepping 2/8 per pixel in s (x) and t (y).
fn two_texel_quad() -> Quad {
    stepped(P, [0.25, 0.0], [0.0, 0.25])
}

#[test]
fn implicit_quad_stepping_two_texels_per_pixel_reads_level_one() {
    // Every lane's derivative is 2 texels -> lambda 1. Level 1 (4x4) at
    // lane 0 (0.3, 0.7) -> (1, 2) = 109; lane 1 (0.55, 0.7) -> (2, 2) = 110;
    // lane 2 (0.3, 0.95) -> (1, 3) = 113; lane 3 (0.55, 0.95) -> (2, 3) = 114.
    let v = tex();
    let args = SampleArgs::default();
    for d in [Derivatives::Fine, Derivatives::Coarse] {
        let a = SampleArgs {
            derivatives: Some(d),
            ..args
        };
        let got = lanes(sample_quad(
            &v,
            &nearest_mips(),
            &Profile::VULKAN,
            &a,
            &two_texel_quad(),
        ));
        assert_eq!(
            got,
            [Some(109.0), Some(110.0), Some(113.0), Some(114.0)],
            "{d:?}"
        );
    }
    // A quad stepping 4 texels -> lambda 2; level 2 (2x2, repeat):
    // (0.3, 0.7) -> (0, 1); (0.8, 0.7) -> (1, 1); (0.3, 1.2) -> (0, 2 -> 0);
    // (0.8, 1.2) -> (1, 0).
    let q = stepped(P, [0.5, 0.0], [0.0, 0.5]);
    let got = lanes(sample_quad(
        &v,
        &nearest_mips(),
        &Profile::VULKAN,
        &args,
        &q,
    ));
    assert_eq!(got, [Some(202.0), Some(203.0), Some(200.0), Some(201.0)]);
}

#[test]
fn fine_derivatives_differ_per_row_and_column_and_coarse_ones_do_not() {
    // P0 = (0.3, 0.7), P1 = (0.55, 0.7), P2 = (0.3, 0.95), P3 = (0.925, 0.95).
    // Fine: lanes 0/1 dx = P1 - P0 = 2 texels, lanes 2/3 dx = P3 - P2 = 5;
    //       lanes 0/2 dy = P2 - P0 = 2, lanes 1/3 dy = P3 - P1 = (3, 2) -> sqrt 13.
    //   lambda: lane 0 -> 1; lane 1 -> log2 sqrt 13 = 1.85; lanes 2, 3 -> log2 5 = 2.32.
    //   nearest mips: levels 1, 2, 2, 2.
    //   lane 0 L1 (1, 2) = 109; lane 1 L2 (floor 1.1, floor 1.4) = 203;
    //   lane 2 L2 (0.6, 1.9) = 202; lane 3 L2 (1.85, 1.9) = 203.
    // Coarse: every lane dx = P1 - P0, dy = P2 - P0 -> lambda 1, level 1:
    //   109; (2.2, 2.8) = 110; (1.2, 3.8) = 113; (3.7, 3.8) = 115.
    let q = Quad::new([
        [0.3, 0.7, 0.0, 0.0],
        [0.55, 0.7, 0.0, 0.0],
        [0.3, 0.95, 0.0, 0.0],
        [0.925, 0.95, 0.0, 0.0],
    ]);
    let v = tex();
    let fine = SampleArgs {
        derivatives: Some(Derivatives::Fine),
        ..Default::default()
    };
    let coarse = SampleArgs {
        derivatives: Some(Derivatives::Coarse),
        ..Default::default()
    };
    let got = lanes(sample_quad(
        &v,
        &nearest_mips(),
        &Profile::VULKAN,
        &fine,
        &q,
    ));
    assert_eq!(
        got,
        [Some(109.0), Some(203.0), Some(202.0), Some(203.0)],
        "fine"
    );
    let got = lanes(sample_quad(
        &v,
        &nearest_mips(),
        &Profile::VULKAN,
        &coarse,
        &q,
    ));
    assert_eq!(
        got,
        [Some(109.0), Some(110.0), Some(113.0), Some(115.0)],
        "coarse"
    );
    // The profiles' defaults: Vulkan fine, D3D11 coarse.
    let got = lanes(sample_quad(
        &v,
        &nearest_mips(),
        &Profile::VULKAN,
        &SampleArgs::default(),
        &q,
    ));
    assert_eq!(got[1], Some(203.0));
    let got = lanes(sample_quad(
        &v,
        &nearest_mips(),
        &Profile::D3D11,
        &SampleArgs::default(),
        &q,
    ));
    assert_eq!(got[1], Some(110.0));
}

#[test]
fn sampler_min_and_max_lod_clamp_lambda() {
    let v = tex();
    let vk = Profile::VULKAN;
    let with = |f: fn(&mut SamplerHeader)| {
        let mut s = nearest_mips();
        f(&mut s);
        s
    };
    // lambda 0 raised to minLod 2 -> level 2.
    assert_eq!(red(&v, &with(|s| s.min_lod = 2.0), &vk, &at_lod(0.0)), L2);
    // lambda 3 lowered to maxLod 1 -> level 1.
    assert_eq!(red(&v, &with(|s| s.max_lod = 1.0), &vk, &at_lod(3.0)), L1);
    // Gradient lambda 2 lowered to maxLod 1.5, linear mips: half of 1 and 2.
    let mut s = linear_mips();
    s.max_lod = 1.5;
    let g = grad([0.5, 0.0, 0.0], [0.0, 0.5, 0.0]);
    assert_close(
        red(&v, &s, &vk, &g),
        0.5 * L1 + 0.5 * L2,
        1e-4,
        "maxLod 1.5",
    );
    // minLod = maxLod = 3 pins the level whatever the derivatives.
    let s = with(|s| {
        s.min_lod = 3.0;
        s.max_lod = 3.0;
    });
    assert_eq!(red(&v, &s, &vk, &SampleArgs::default()), L3);
}

#[test]
fn sampler_bias_adds_to_explicit_and_gradient_lambda() {
    let v = tex();
    let vk = Profile::VULKAN;
    let mut s = nearest_mips();
    s.mip_lod_bias = 1.0;
    // lambda' = 0 + 1.
    assert_eq!(red(&v, &s, &vk, &at_lod(0.0)), L1);
    s.mip_lod_bias = -1.0;
    // lambda' = log2(4) - 1 = 1.
    assert_eq!(
        red(&v, &s, &vk, &grad([0.5, 0.0, 0.0], [0.0, 0.5, 0.0])),
        L1
    );
}

#[test]
fn the_bias_sum_clamps_to_max_sampler_lod_bias() {
    let v = tex();
    let vk = Profile::VULKAN;
    assert_eq!(vk.max_lod_bias, 15.0);
    // lambda 16 + clamp(-20, -15, 15) = 1 -> level 1 (unclamped: -4 -> level 0).
    let mut s = nearest_mips();
    s.mip_lod_bias = -20.0;
    assert_eq!(red(&v, &s, &vk, &at_lod(16.0)), L1);
    // Sampler -10 plus shader -10 clamp together: an implicit quad stepping
    // 8192 per pixel (2^16 texels, lambda 16) -> 16 - 15 = 1. Lane 0 sits at P.
    s.mip_lod_bias = -10.0;
    let args = SampleArgs {
        lod: Lod::Bias([-10.0; 4]),
        ..Default::default()
    };
    let q = stepped(P, [8192.0, 0.0], [0.0, 8192.0]);
    assert_eq!(
        sample_quad(&v, &s, &vk, &args, &q)[0].unwrap().to_f32()[0],
        L1
    );
}

#[test]
fn a_shader_bias_adds_to_the_implicit_lambda() {
    // Implicit lambda 1 (2 texels per pixel) + shader bias 1 -> level 2;
    // lane 0 at P reads 202.
    let v = tex();
    let args = SampleArgs {
        lod: Lod::Bias([1.0; 4]),
        ..Default::default()
    };
    let got = sample_quad(
        &v,
        &nearest_mips(),
        &Profile::VULKAN,
        &args,
        &two_texel_quad(),
    );
    assert_eq!(got[0].unwrap().to_f32()[0], L2);
}

#[test]
fn lambda_at_or_below_zero_magnifies_and_above_zero_minifies() {
    // Level 0 linear at P: u = 2.4 -> x = 1.9 (i0 1, alpha 0.9); v = 5.6 ->
    // y = 5.1 (j0 5, beta 0.1): 8 * 5.1 + 1.9 = 42.7. Nearest: 42.
    const LIN: f32 = 42.7;
    let v = tex();
    let vk = Profile::VULKAN;
    let mag_lin = smp(Filter::Nearest, Filter::Linear, MipmapMode::Nearest);
    assert_close(
        red(&v, &mag_lin, &vk, &at_lod(0.0)),
        LIN,
        1e-4,
        "lambda 0 -> mag (linear)",
    );
    assert_close(
        red(&v, &mag_lin, &vk, &at_lod(-1.0)),
        LIN,
        1e-4,
        "lambda -1 -> mag",
    );
    assert_eq!(
        red(&v, &mag_lin, &vk, &at_lod(0.25)),
        L0,
        "lambda 0.25 -> min (nearest), level 0"
    );
    // Zero implicit derivatives: lambda = -inf -> magnified.
    assert_close(
        red(&v, &mag_lin, &vk, &SampleArgs::default()),
        LIN,
        1e-4,
        "implicit, point quad",
    );
    let min_lin = smp(Filter::Linear, Filter::Nearest, MipmapMode::Nearest);
    assert_eq!(
        red(&v, &min_lin, &vk, &at_lod(0.0)),
        L0,
        "lambda 0 -> mag (nearest)"
    );
    assert_close(
        red(&v, &min_lin, &vk, &at_lod(0.25)),
        LIN,
        1e-4,
        "lambda 0.25 -> min (linear)",
    );
}

#[test]
fn the_magnification_switch_looks_at_lambda_after_the_sampler_clamp() {
    // minLod 0.25 lifts lambda 0 to 0.25 > 0: minified (nearest), level 0.
    let v = tex();
    let mut s = smp(Filter::Nearest, Filter::Linear, MipmapMode::Nearest);
    s.min_lod = 0.25;
    assert_eq!(red(&v, &s, &Profile::VULKAN, &at_lod(0.0)), L0);
}

#[test]
fn the_view_min_lod_raises_the_level_but_not_the_filter_choice() {
    // VK_EXT_image_view_min_lod: d' = max(level_base + clamp(lambda, 0, q),
    // minLod_imageView); lambda itself (0 here) still picks magFilter.
    // minLod 1, lambda 0: magnified (linear) at level 1. Level 1 linear at P:
    // u = 1.2 -> x = 0.7 (i0 0, alpha 0.7); v = 2.8 -> y = 2.3 (j0 2,
    // beta 0.3): 100 + 4 * 2.3 + 0.7 = 109.9.
    let mut v = tex();
    v.min_lod_clamp = 1.0;
    let s = smp(Filter::Nearest, Filter::Linear, MipmapMode::Nearest);
    assert_close(
        red(&v, &s, &Profile::VULKAN, &at_lod(0.0)),
        109.9,
        1e-4,
        "magnified at level 1",
    );
}

#[test]
fn the_view_min_lod_raises_the_level_read() {
    // minLod_imageView = 2 with lambda 0 and nearest filters: level 2.
    let mut v = tex();
    v.min_lod_clamp = 2.0;
    assert_eq!(red(&v, &nearest_mips(), &Profile::VULKAN, &at_lod(0.0)), L2);
}

#[test]
fn the_view_base_level_is_level_zero_of_lambda() {
    // A view from level 1: lambda 0 reads texture level 1 (4x4) and the
    // scale factor uses that level's extent: a 2/4 gradient -> rho 2 ->
    // lambda 1 -> texture level 2.
    let mut v = tex();
    v.base_level = 1;
    v.level_count = 3;
    assert_eq!(red(&v, &nearest_mips(), &Profile::VULKAN, &at_lod(0.0)), L1);
    assert_eq!(
        red(
            &v,
            &nearest_mips(),
            &Profile::VULKAN,
            &grad([0.5, 0.0, 0.0], [0.0, 0.5, 0.0])
        ),
        L2
    );
    assert_eq!(
        red(&v, &nearest_mips(), &Profile::VULKAN, &at_lod(5.0)),
        L3,
        "q = 2 relative to the view"
    );
}

// ---------------------------------------------------------------------------
// Partial quads (docs/semantics.md §3)
// ---------------------------------------------------------------------------

/// The two-texel quad with lane 3 inactive. Level 0 values: lane 0 at P ->
/// 42; lane 1 (0.55, 0.7) -> (4, 5) = 44; lane 2 (0.3, 0.95) -> (2, 7) = 58.
fn partial() -> Quad {
    Quad {
        active: 0b0111,
        ..two_texel_quad()
    }
}

#[test]
fn nv_sass_partial_quad_takes_zero_derivatives_and_the_minimum_lod() {
    // DEFAULT_PARTIAL = ZERO: lambda = -inf -> clamps to minLod (0): level 0.
    let v = tex();
    let sass = Profile::NV_SASS;
    assert_eq!(sass.partial_quad, PartialQuad::Zero);
    let got = lanes(sample_quad(
        &v,
        &nearest_mips(),
        &sass,
        &SampleArgs::default(),
        &partial(),
    ));
    assert_eq!(
        got,
        [Some(42.0), Some(44.0), Some(58.0), None],
        "inactive lane 3 gives nothing"
    );
    // With minLod 2 the minimum is level 2: lane 0 -> 202.
    let mut s = nearest_mips();
    s.min_lod = 2.0;
    let got = lanes(sample_quad(
        &v,
        &s,
        &sass,
        &SampleArgs::default(),
        &partial(),
    ));
    assert_eq!(got[0], Some(L2));
}

#[test]
fn nv_sass_partial_quad_magnifies() {
    // lambda = -inf <= 0 picks magFilter: linear at level 0 -> 42.7 at P.
    let v = tex();
    let s = smp(Filter::Nearest, Filter::Linear, MipmapMode::Nearest);
    let got = sample_quad(
        &v,
        &s,
        &Profile::NV_SASS,
        &SampleArgs::default(),
        &partial(),
    );
    // NV_SASS weights are 8-bit: alpha 0.9 -> 230/256, beta 0.1 -> 25/256.
    let want = 8.0 * (5.0 + 25.0 / 256.0) + 1.0 + 230.0 / 256.0;
    assert_close(
        got[0].unwrap().to_f32()[0],
        want,
        1e-4,
        "partial quad, mag linear",
    );
}

#[test]
fn infinity_partial_rule_takes_the_maximum_lod() {
    let v = tex();
    let p = Profile {
        partial_quad: PartialQuad::Infinity,
        ..Profile::NV_SASS
    };
    let got = lanes(sample_quad(
        &v,
        &nearest_mips(),
        &p,
        &SampleArgs::default(),
        &partial(),
    ));
    assert_eq!(got, [Some(L3), Some(L3), Some(L3), None]);
}

#[test]
fn ndv_uses_all_four_registers_and_skips_the_partial_rule() {
    // .NDV: lane 3's register still feeds the derivatives -> lambda 1 -> level 1.
    let v = tex();
    let ndv = SampleArgs {
        ndv: true,
        ..Default::default()
    };
    let got = lanes(sample_quad(
        &v,
        &nearest_mips(),
        &Profile::NV_SASS,
        &ndv,
        &partial(),
    ));
    assert_eq!(
        got,
        [Some(109.0), Some(110.0), Some(113.0), None],
        "NDV does not activate lane 3"
    );
    // A stale lane-3 register is used as is: P3 = (0.55, 1.7) makes lane 1's
    // fine dy = P3 - P1 = (0, 8) texels -> lambda 3 -> level 3, and lane 2's
    // fine dx = P3 - P2 = (2, 6) texels -> lambda log2 sqrt 40 = 2.66 ->
    // level 3; lane 0 (P1 - P0, P2 - P0) keeps level 1.
    let mut q = partial();
    q.coords[3] = [0.55, 1.7, 0.0, 0.0];
    let got = lanes(sample_quad(
        &v,
        &nearest_mips(),
        &Profile::NV_SASS,
        &ndv,
        &q,
    ));
    assert_eq!(got, [Some(109.0), Some(L3), Some(L3), None]);
}

#[test]
fn helper_lanes_count_as_active_for_the_partial_rule() {
    // Lane 3 a helper: the quad runs all four lanes, so it is not partial.
    let v = tex();
    let q = Quad {
        active: 0b0111,
        helper: 0b1000,
        ..two_texel_quad()
    };
    let got = lanes(sample_quad(
        &v,
        &nearest_mips(),
        &Profile::NV_SASS,
        &SampleArgs::default(),
        &q,
    ));
    assert_eq!(got, [Some(109.0), Some(110.0), Some(113.0), Some(114.0)]);
}

#[test]
fn a_full_quad_is_never_partial() {
    let v = tex();
    let got = lanes(sample_quad(
        &v,
        &nearest_mips(),
        &Profile::NV_SASS,
        &SampleArgs::default(),
        &two_texel_quad(),
    ));
    assert_eq!(got, [Some(109.0), Some(110.0), Some(113.0), Some(114.0)]);
}

#[test]
fn mipmap_mode_none_reads_the_base_level_whatever_lambda() {
    // Lambda still picks the filter: 2 > 0 minifies (nearest here), level 0.
    let v = tex();
    let s = smp(Filter::Nearest, Filter::Linear, MipmapMode::None);
    assert_eq!(red(&v, &s, &Profile::VULKAN, &at_lod(2.0)), L0);
    assert_close(
        red(&v, &s, &Profile::VULKAN, &at_lod(0.0)),
        42.7,
        1e-4,
        "lambda 0 magnifies (linear)",
    );
}
