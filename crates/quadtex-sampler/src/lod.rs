//! Level-of-detail queries: TMML.LOD / `textureQueryLod` / `OpImageQueryLod`
//! (docs/semantics.md §2; the SASS TMML reference).
//!
//! What lives here: [`query_lod`] and its per-lane result [`LodResult`]
//! (the accessed level, the unclamped lambda, and the four TMML.LOD result
//! words). What does not: derivatives, the cube derivative transform and
//! level selection, which are `reference.rs`'s (`lane_derivatives`,
//! `lane_lod`, `Ctx::cube_coords`, `Ctx::select`); the scale-factor lambda
//! is repeated here (see `footprint`) because the query also needs the
//! ellipse axes, which the private `Ctx::lambda` does not return.

use crate::header::{MipmapMode, SamplerHeader, TextureHeader};
use crate::profile::Profile;
use crate::quad::{Quad, SampleArgs};
use crate::reference::{lane_derivatives, lane_lod, Ctx, LaneCoords};

/// One lane of a LOD query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LodResult {
    /// The level the sample would access, relative to the view's base
    /// level (`textureQueryLod().x`): 0 for `mipmap_mode none` and
    /// unnormalized coordinates, the chosen level for `nearest`, the
    /// fractional `d'` for `linear`, after the sampler's min/max LOD and the
    /// view's levels clamp it.
    pub accessed: f32,
    /// Lambda' (`textureQueryLod().y`): the scale-factor lambda plus the
    /// sampler (and shader) bias, before any clamp.
    pub lambda: f32,
    /// The TMML.LOD result words R, G, B, A (the SASS TMML reference): R =
    /// lambda' as S8.8, G = `accessed` as U8.8, B = the major-axis unit vector
    /// `{v S2.6 in bits 15:8, u S2.6 in bits 7:0}`, A = `log2(minor / major)`
    /// as S4.12; the high 16 bits are zero.
    pub raw: [u32; 4],
}

/// TMML.LOD / `textureQueryLod` on one quad (docs/semantics.md §2; the SASS
/// TMML reference).
///
/// `args.lod` is `Implicit` (derivatives from the quad, fine or coarse as
/// `args.derivatives` or the profile says, with the profile's partial-quad
/// rule unless `args.ndv`) or `Grad`. `Bias` adds its shader bias to
/// lambda' like the implicit form; `Base` and `Level` take lambda from the
/// lane (0 and the lane's value) with zero derivatives, so B and A are 0.
/// Offsets and `dref` are not used.
///
/// Per running lane: the derivatives are scaled to texels of the view's
/// base level (cubes: first moved to the face with Vulkan's cube
/// derivative transform); lambda = `log2(rho_max / eta)` exactly as
/// `sample` finds it (Euclidean scale factors; with anisotropy, the
/// ellipse axes and `eta = min(major / minor, maxAniso)`); lambda' =
/// lambda + clamp(sampler bias + shader bias, +-maxSamplerLodBias),
/// quantised as the profile's LOD fraction bits say, NaN read as -Inf.
/// `accessed` comes from the same level selection `sample` uses.
///
/// The words (docs/semantics.md §2 "Emulator encoding"; the rounding is
/// unverified on hardware):
/// - `R = (u16) clamp(rne(lambda' * 256), -32768, 32767)`
/// - `G = (u16) clamp(rne(accessed * 256), 0, 65535)`
/// - `B = (u8) s26(v) << 8 | (u8) s26(u)`, `s26(a) = clamp(rne(a * 64),
///   -128, 127)`, where `(u, v)` is the unit major axis of the footprint
///   ellipse in texel space (docs/semantics.md §2 "Axes", option (b): the left
///   singular vector of the Jacobian for its larger singular value). Its
///   sign is not observable in the ellipse; this one has `u > 0`, or `u =
///   0` and `v >= 0` (NVIDIA's choice is unknown). 3D footprints report
///   the axis's `u` and `v`; 1D ones `(1, 0)`.
/// - `A = (u16) clamp(rne(log2(minor / major) * 4096), -32768, 0)`.
///
/// A footprint of zero size (or with non-finite derivatives) has no axes:
/// `B = 0` and `A = 0`. Multisample views have no levels: every running
/// lane gets zeros.
pub fn query_lod(
    view: &TextureHeader,
    smp: &SamplerHeader,
    profile: &Profile,
    args: &SampleArgs,
    quad: &Quad,
) -> [Option<LodResult>; 4] {
    let running = quad.running();
    let mut out = [None; 4];
    // Views `TextureHeader::validate` rejects have no levels to speak of.
    if view.kind.is_multisample() || view.validate().is_err() {
        for (lane, o) in out.iter_mut().enumerate() {
            if running & (1 << lane) != 0 {
                *o = Some(LodResult {
                    accessed: 0.0,
                    lambda: 0.0,
                    raw: [0; 4],
                });
            }
        }
        return out;
    }
    let ctx = Ctx::new(view, smp, profile);
    // The derivatives and the partial-quad rule exactly as `sample` takes
    // them.
    let (derivs, lambda_override) = lane_derivatives(profile, args, quad);
    for (lane, o) in out.iter_mut().enumerate() {
        if running & (1 << lane) == 0 {
            continue;
        }
        let (ddx, ddy) = derivs[lane];
        let lc = ctx.lane_coords(quad.coords[lane], ddx, ddy);
        let (shader_lambda, shader_bias) = lane_lod(args, lane, lambda_override);
        let fp = footprint(&ctx, &lc);
        let lambda_base = shader_lambda.unwrap_or(fp.lambda);
        *o = Some(lane_result(&ctx, &lc, lambda_base, shader_bias, &fp));
    }
    out
}

/// The footprint of one lane in texels: lambda before bias (as
/// reference.rs `Ctx::lambda` computes it) and the ellipse axes.
#[derive(Clone, Copy, Debug)]
struct Footprint {
    lambda: f32,
    /// Unit major axis `(u, v)` in texel space, or `None` without axes.
    major: Option<[f32; 2]>,
    /// `log2(minor / major)`, 0 without axes.
    log2_ratio: f32,
}

/// The lane's lambda (before bias) and ellipse: the footprint and lambda
/// are the reference's (`Ctx::footprint`, `Ctx::footprint_lambda`), so the
/// query and `sample` cannot drift apart.
fn footprint(ctx: &Ctx<'_>, lc: &LaneCoords) -> Footprint {
    let fp = ctx.footprint(lc);
    let (lambda, _) = ctx.footprint_lambda(&fp);
    let (s1, s2) = fp.axes();
    let (a, b, c, jx, jy) = (fp.a, fp.b, fp.c, fp.jx, fp.jy);
    if !(s1 > 0.0 && s1.is_finite()) {
        return Footprint {
            lambda,
            major: None,
            log2_ratio: 0.0,
        };
    }
    // Right singular vector (screen space) for s1^2: an eigenvector of
    // J^T J = [[a, b], [b, c]]. Of the two equivalent forms take the longer,
    // the numerically sound one.
    let l1 = s1 * s1;
    let p = [b, l1 - a];
    let q = [l1 - c, b];
    let len2 = |v: [f32; 2]| v[0] * v[0] + v[1] * v[1];
    let e = if len2(p) >= len2(q) { p } else { q };
    let el = len2(e).sqrt();
    let (ex, ey) = if el > 0.0 && el.is_finite() {
        (e[0] / el, e[1] / el)
    } else {
        // Circle (a = c, b = 0): every direction is a major axis.
        (1.0, 0.0)
    };
    // The texel-space axis J e / s1 (unit length up to rounding).
    let mut u = (jx[0] * ex + jy[0] * ey) / s1;
    let mut v = (jx[1] * ex + jy[1] * ey) / s1;
    if u < 0.0 || (u == 0.0 && v < 0.0) {
        u = -u;
        v = -v;
    }
    let log2_ratio = (s2 / s1).log2();
    Footprint {
        lambda,
        major: Some([u, v]),
        log2_ratio,
    }
}

/// Lambda', the accessed level and the TMML words of one lane.
fn lane_result(
    ctx: &Ctx<'_>,
    lc: &LaneCoords,
    lambda_base: f32,
    shader_bias: f32,
    fp: &Footprint,
) -> LodResult {
    let profile = ctx.profile;
    // Lambda' as reference.rs `Ctx::select` forms it before clamping.
    let bias = profile.clamp_bias(ctx.smp.mip_lod_bias + shader_bias);
    let mut lambda = lambda_base + bias;
    if lambda.is_nan() {
        lambda = f32::NEG_INFINITY;
    }
    if let Some(bits) = profile.lod_frac_bits {
        if lambda.is_finite() {
            let s = crate::profile::frac_scale(bits);
            lambda = (lambda * s).floor() / s;
        }
    }
    // The level actually used: the sampler's own selection.
    let sel = ctx.select(lc, Some(lambda_base), shader_bias);
    let mipmap_mode = if ctx.smp.unnormalized {
        MipmapMode::None
    } else {
        ctx.smp.mipmap_mode
    };
    let accessed = match mipmap_mode {
        MipmapMode::None => 0.0,
        MipmapMode::Nearest => sel.levels[0].0 as f32,
        MipmapMode::Linear => sel.levels[0].0 as f32 + sel.levels[1].1,
    };
    let r = fixed(lambda, 256.0, -32768.0, 32767.0) as i16 as u16 as u32;
    let g = fixed(accessed, 256.0, 0.0, 65535.0) as u16 as u32;
    let b = match fp.major {
        Some([u, v]) => {
            let s26 = |x: f32| fixed(x, 64.0, -128.0, 127.0) as i8 as u8 as u32;
            (s26(v) << 8) | s26(u)
        }
        None => 0,
    };
    let a = fixed(fp.log2_ratio, 4096.0, -32768.0, 0.0) as i16 as u16 as u32;
    LodResult {
        accessed,
        lambda,
        raw: [r, g, b, a],
    }
}

/// `clamp(rne(x * scale), lo, hi)` as an integer; NaN reads 0.
fn fixed(x: f32, scale: f32, lo: f32, hi: f32) -> i32 {
    let y = (x * scale).round_ties_even();
    if y.is_nan() {
        0
    } else {
        y.clamp(lo, hi) as i32
    }
}

#[cfg(test)]
mod tests {
    use quadtex_format::{Texel, TextureDesc, TextureFormat as F};

    use super::*;
    use crate::fetch::tests::{texture, view};
    use crate::header::Filter;
    use crate::profile::{Derivatives, PartialQuad};
    use crate::quad::Lod;

    /// A 16x16 R32F texture with its 5 levels; texel value = its level.
    fn levels_16() -> TextureHeader {
        view(texture(
            TextureDesc::d2(F::R32Float, 16, 16),
            |l, _, _, _| Texel::Float([l as f32, 0.0, 0.0, 1.0]),
        ))
    }

    fn smp(mipmap_mode: MipmapMode) -> SamplerHeader {
        SamplerHeader {
            mag_filter: Filter::Linear,
            min_filter: Filter::Linear,
            mipmap_mode,
            ..SamplerHeader::default()
        }
    }

    fn grad(ddx: [f32; 3], ddy: [f32; 3]) -> SampleArgs {
        SampleArgs {
            lod: Lod::Grad {
                ddx: [ddx; 4],
                ddy: [ddy; 4],
            },
            ..SampleArgs::default()
        }
    }

    /// Lane 0 of a query with the same gradients in every lane.
    fn query(v: &TextureHeader, s: &SamplerHeader, ddx: [f32; 3], ddy: [f32; 3]) -> LodResult {
        let q = Quad::new([[0.5, 0.5, 0.0, 0.0]; 4]);
        query_lod(v, s, &Profile::VULKAN, &grad(ddx, ddy), &q)[0].unwrap()
    }

    #[test]
    fn lambda_at_powers_of_two_and_its_s8_8_word() {
        let v = levels_16();
        let s = smp(MipmapMode::Linear);
        for (k, want_r) in [
            (-1, 0xff00),
            (0, 0x0000),
            (1, 0x0100),
            (2, 0x0200),
            (3, 0x0300),
        ] {
            let d = 2f32.powi(k) / 16.0;
            let r = query(&v, &s, [d, 0.0, 0.0], [0.0, d, 0.0]);
            assert_eq!(r.lambda, k as f32);
            assert_eq!(r.raw[0], want_r, "lambda {k}");
            assert_eq!(r.accessed, (k as f32).max(0.0));
            assert_eq!(r.raw[1], (k.max(0) as u32) << 8);
            // An isotropic footprint: axis (1, 0), minor = major.
            assert_eq!(r.raw[2], 0x0040);
            assert_eq!(r.raw[3], 0);
        }
    }

    #[test]
    fn an_anisotropic_4_to_1_footprint_gives_a_minus_two_in_s4_12() {
        let v = levels_16();
        let s = smp(MipmapMode::Linear);
        let r = query(&v, &s, [4.0 / 16.0, 0.0, 0.0], [0.0, 1.0 / 16.0, 0.0]);
        assert_eq!(r.lambda, 2.0);
        assert_eq!(r.raw, [0x0200, 0x0200, 0x0040, 0xe000]);
        // The major axis along v: B = {v = 1.0, u = 0}.
        let r = query(&v, &s, [1.0 / 16.0, 0.0, 0.0], [0.0, 4.0 / 16.0, 0.0]);
        assert_eq!(r.raw, [0x0200, 0x0200, 0x4000, 0xe000]);
        // A diagonal axis: (sqrt(1/2), -sqrt(1/2)) with u made positive:
        // rne(0.7071 * 64) = 45 = 0x2d, -45 = 0xd3.
        let d = 4.0 / 16.0 * std::f32::consts::FRAC_1_SQRT_2;
        let e = 1.0 / 16.0 * std::f32::consts::FRAC_1_SQRT_2;
        let r = query(&v, &s, [-d, d, 0.0], [e, e, 0.0]);
        assert_eq!(r.raw[2], 0xd32d);
        assert!((r.lambda - 2.0).abs() < 1e-5);
        assert_eq!(r.raw[3], 0xe000);
        // With anisotropic filtering lambda is log2(major / eta).
        let a = SamplerHeader {
            max_anisotropy: 4.0,
            ..s
        };
        let r = query(&v, &a, [4.0 / 16.0, 0.0, 0.0], [0.0, 1.0 / 16.0, 0.0]);
        assert_eq!((r.lambda, r.raw[0], r.raw[3]), (0.0, 0, 0xe000));
        let a2 = SamplerHeader {
            max_anisotropy: 2.0,
            ..s
        };
        let r = query(&v, &a2, [4.0 / 16.0, 0.0, 0.0], [0.0, 1.0 / 16.0, 0.0]);
        assert_eq!((r.lambda, r.raw[0]), (1.0, 0x0100));
    }

    #[test]
    fn accessed_level_follows_the_mipmap_mode_and_the_clamps() {
        let v = levels_16();
        let d = |l: f32| 2f32.powf(l) / 16.0;
        let at = |s: &SamplerHeader, l: f32| query(&v, s, [d(l), 0.0, 0.0], [0.0, d(l), 0.0]);
        let lin = smp(MipmapMode::Linear);
        let r = at(&lin, 1.5);
        assert!(
            (r.accessed - 1.5).abs() < 1e-6 && r.raw[1] == 0x0180,
            "{r:?}"
        );
        let near = smp(MipmapMode::Nearest);
        assert_eq!(at(&near, 1.5).accessed, 1.0); // ceil(d + 0.5) - 1
        assert_eq!(at(&near, 1.6).accessed, 2.0);
        assert_eq!(at(&smp(MipmapMode::None), 3.0).accessed, 0.0);
        assert_eq!(at(&smp(MipmapMode::None), 3.0).raw[1], 0);
        // Clamped to the view's levels; lambda' is not.
        let r = at(&lin, 10.0);
        assert_eq!((r.accessed, r.lambda), (4.0, 10.0));
        assert_eq!(r.raw[..2], [0x0a00, 0x0400]);
        // The sampler's LOD range clamps `accessed` only.
        let c = SamplerHeader {
            min_lod: 2.25,
            max_lod: 3.0,
            ..lin
        };
        assert_eq!((at(&c, 1.0).accessed, at(&c, 1.0).lambda), (2.25, 1.0));
        assert_eq!(at(&c, 3.5).accessed, 3.0);
        // A view base level shifts nothing but the level count.
        let mut b = levels_16();
        b.base_level = 1;
        b.level_count = 2;
        // (Lambda is measured in texels of the view's base, 8x8 here.)
        let r = query(&b, &lin, [d(1.0) * 2.0, 0.0, 0.0], [0.0, d(1.0) * 2.0, 0.0]);
        assert_eq!((r.lambda, r.accessed), (1.0, 1.0));
        let r = query(&b, &lin, [d(1.0) * 8.0, 0.0, 0.0], [0.0, d(1.0) * 8.0, 0.0]);
        assert_eq!((r.lambda, r.accessed), (3.0, 1.0));
    }

    #[test]
    fn lambda_prime_includes_the_sampler_bias_before_any_clamp() {
        let v = levels_16();
        let s = SamplerHeader {
            mip_lod_bias: 0.5,
            max_lod: 1.0,
            ..smp(MipmapMode::Linear)
        };
        let r = query(&v, &s, [2.0 / 16.0, 0.0, 0.0], [0.0, 2.0 / 16.0, 0.0]);
        assert_eq!((r.lambda, r.accessed), (1.5, 1.0));
        assert_eq!(r.raw[..2], [0x0180, 0x0100]);
        // The bias clamps to maxSamplerLodBias (15 on the Vulkan profile).
        let big = SamplerHeader {
            mip_lod_bias: 100.0,
            ..s
        };
        assert_eq!(
            query(&v, &big, [1.0 / 16.0, 0.0, 0.0], [0.0; 3]).lambda,
            15.0
        );
    }

    #[test]
    fn lambda_above_15_and_a_16_to_1_footprint_in_the_raw_words() {
        let v = levels_16();
        let s = smp(MipmapMode::Linear);
        // lambda' = 20: R = 20.0 in S8.8, G clamped to the last level (4).
        let big = 2f32.powi(20) / 16.0;
        let r = query(&v, &s, [big, 0.0, 0.0], [0.0, big, 0.0]);
        assert_eq!(r.lambda, 20.0);
        assert_eq!(r.raw, [0x1400, 0x0400, 0x0040, 0x0000]);
        // 16 texels along u, 1 along v: lambda 4, axis u, log2(1/16) = -4.0
        // in S4.12 = 0xc000.
        let r = query(&v, &s, [16.0 / 16.0, 0.0, 0.0], [0.0, 1.0 / 16.0, 0.0]);
        assert_eq!(r.lambda, 4.0);
        assert_eq!(r.raw, [0x0400, 0x0400, 0x0040, 0xc000]);
    }

    #[test]
    fn degenerate_footprints_saturate_r_and_have_no_axes() {
        let v = levels_16();
        let s = smp(MipmapMode::Linear);
        let r = query(&v, &s, [0.0; 3], [0.0; 3]);
        assert_eq!(r.lambda, f32::NEG_INFINITY);
        assert_eq!(r.accessed, 0.0);
        assert_eq!(r.raw, [0x8000, 0, 0, 0]);
        let r = query(&v, &s, [1e30, 0.0, 0.0], [0.0, 1e30, 0.0]);
        assert_eq!((r.raw[0], r.raw[1]), (0x7fff, 0x0400));
        let r = query(&v, &s, [f32::NAN, 0.0, 0.0], [0.0; 3]);
        assert_eq!(r.raw[0], 0x8000);
        // A line footprint: minor = 0 -> A saturates at -8.0.
        let r = query(&v, &s, [1.0 / 16.0, 0.0, 0.0], [0.0; 3]);
        assert_eq!(r.raw, [0, 0, 0x0040, 0x8000]);
    }

    #[test]
    fn implicit_derivatives_are_coarse_or_fine_from_the_quad() {
        let v = levels_16();
        let s = smp(MipmapMode::Linear);
        // Lane 3 moved: fine lanes 2 and 3 see ddx = 4 texels, coarse all 1.
        let q = Quad::new([
            [0.5, 0.5, 0.0, 0.0],
            [0.5 + 1.0 / 16.0, 0.5, 0.0, 0.0],
            [0.5, 0.5 + 1.0 / 16.0, 0.0, 0.0],
            [0.5 + 4.0 / 16.0, 0.5 + 1.0 / 16.0, 0.0, 0.0],
        ]);
        let lam = |d: Derivatives| {
            let args = SampleArgs {
                derivatives: Some(d),
                ..SampleArgs::default()
            };
            query_lod(&v, &s, &Profile::VULKAN, &args, &q).map(|r| r.unwrap().lambda)
        };
        assert_eq!(lam(Derivatives::Coarse), [0.0; 4]);
        let fine = lam(Derivatives::Fine);
        // Lane 1: ddx = P1 - P0 = 1 texel, ddy = P3 - P1 = (3, 1) texels.
        assert_eq!([fine[0], fine[2], fine[3]], [0.0, 2.0, 2.0]);
        assert!((fine[1] - 10f32.log2() / 2.0).abs() < 1e-6, "{fine:?}");
    }

    #[test]
    fn partial_quads_follow_the_profile_rule_and_inactive_lanes_get_nothing() {
        let v = levels_16();
        let s = smp(MipmapMode::Linear);
        let q = Quad {
            active: 0b0111,
            helper: 0,
            ..Quad::new([[0.5, 0.5, 0.0, 0.0]; 4])
        };
        let args = SampleArgs::default();
        let r = query_lod(&v, &s, &Profile::NV_SASS, &args, &q);
        assert!(r[3].is_none());
        let r0 = r[0].unwrap();
        assert_eq!(
            (r0.lambda, r0.raw[0], r0.accessed),
            (f32::NEG_INFINITY, 0x8000, 0.0)
        );
        let inf = Profile {
            partial_quad: PartialQuad::Infinity,
            ..Profile::NV_SASS
        };
        let r0 = query_lod(&v, &s, &inf, &args, &q)[0].unwrap();
        assert_eq!((r0.raw[0], r0.accessed), (0x7fff, 4.0));
    }

    #[test]
    fn nv_sass_quantises_lambda_to_eighths_of_a_256th() {
        let v = levels_16();
        let s = smp(MipmapMode::Linear);
        let d = 2f32.powf(1.0 + 0.7 / 256.0) / 16.0;
        let q = Quad::new([[0.5, 0.5, 0.0, 0.0]; 4]);
        let r = query_lod(
            &v,
            &s,
            &Profile::NV_SASS,
            &grad([d, 0.0, 0.0], [0.0, d, 0.0]),
            &q,
        )[0]
        .unwrap();
        assert_eq!(r.lambda, 1.0);
        assert_eq!(r.raw[0], 0x0100);
    }

    #[test]
    fn cube_lambda_uses_face_space_derivatives() {
        let desc = TextureDesc::cube(F::R32Float, 8);
        let v = view(texture(desc, |l, _, _, _| {
            Texel::Float([l as f32, 0.0, 0.0, 1.0])
        }));
        let s = smp(MipmapMode::Linear);
        // +X centre: s = 0.5 - 0.5 z, t = 0.5 - 0.5 y; dz = -0.5 moves s by
        // 0.25 = 2 texels of 8.
        let q = Quad::new([[1.0, 0.0, 0.0, 0.0]; 4]);
        let r2 = query_lod(
            &v,
            &s,
            &Profile::VULKAN,
            &grad([0.0, 0.0, -0.5], [0.0, -0.5, 0.0]),
            &q,
        )[0]
        .unwrap();
        assert_eq!(r2.lambda, 1.0);
        assert_eq!(r2.raw[..2], [0x0100, 0x0100]);
    }

    #[test]
    fn one_dimensional_footprints_have_the_u_axis_and_no_minor_axis() {
        let v = view(texture(TextureDesc::d1(F::R32Float, 16), |l, _, _, _| {
            Texel::Float([l as f32, 0.0, 0.0, 1.0])
        }));
        let r = query(
            &v,
            &smp(MipmapMode::Linear),
            [2.0 / 16.0, 5.0, 0.0],
            [-1.0 / 16.0, 0.0, 0.0],
        );
        assert_eq!(r.lambda, 1.0);
        assert_eq!(r.raw, [0x0100, 0x0100, 0x0040, 0x8000]);
    }

    #[test]
    fn multisample_views_answer_zeros() {
        let v = view(texture(
            TextureDesc::d2_ms(F::R32Float, 4, 4, 4),
            |_, _, _, _| Texel::Float([1.0, 0.0, 0.0, 1.0]),
        ));
        let r = query(
            &v,
            &smp(MipmapMode::Linear),
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
        );
        assert_eq!((r.accessed, r.lambda, r.raw), (0.0, 0.0, [0; 4]));
    }

    /// The lambda repeated here must pick the level `sample` reads: a
    /// texture whose texels hold their level, nearest mip selection, random
    /// footprints (anisotropic ones included).
    #[test]
    fn query_lod_lambda_matches_sample_level_selection() {
        let v = levels_16();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 40) as f32 / (1u64 << 24) as f32
        };
        for i in 0..2000 {
            let s = SamplerHeader {
                mag_filter: Filter::Nearest,
                min_filter: Filter::Nearest,
                mipmap_mode: MipmapMode::Nearest,
                max_anisotropy: [1.0, 2.0, 4.0, 16.0][i % 4],
                mip_lod_bias: (rnd() - 0.5) * 2.0,
                ..SamplerHeader::default()
            };
            let mut g = || (rnd() - 0.5) * 2f32.powf(rnd() * 8.0 - 5.0);
            let ddx = [g(), g(), 0.0];
            let ddy = [g(), g(), 0.0];
            let args = grad(ddx, ddy);
            let q = Quad::new([[0.5, 0.5, 0.0, 0.0]; 4]);
            let lod = query_lod(&v, &s, &Profile::VULKAN, &args, &q)[0].unwrap();
            let smp_args = SampleArgs {
                lod: Lod::Grad {
                    ddx: [ddx; 4],
                    ddy: [ddy; 4],
                },
                ..SampleArgs::default()
            };
            // Anisotropic taps all read the selected level.
            let t = crate::reference::sample(&v, &s, &Profile::VULKAN, &smp_args, &q).texels[0]
                .unwrap();
            // (Anisotropic taps average the level's value: allow rounding.)
            let got = t.to_f32()[0];
            assert!(
                (lod.accessed - got).abs() < 1e-5,
                "case {i}: {ddx:?} {ddy:?} {lod:?} vs {got}"
            );
        }
    }
}
